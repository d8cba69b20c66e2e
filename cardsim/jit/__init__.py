"""numba plumbing, in one place: what makes the kernels compile once, cache well and say so.

``kernel_cache`` (where numba caches the kernels, keyed by the sources), ``inlining`` (``inline="always"`` without
numba's deep copies), ``compiler_flags`` (numba's flags compared cheaply), ``threading_layer`` (TBB, loaded before
any kernel runs), ``compiling`` (the one line on stderr while kernels compile, with an estimate) and ``precompile``
(``cardsim warmup``: compile ahead what a first run compiles). ``import cardsim`` installs the first five, in that
order, before any kernel is defined.
"""
