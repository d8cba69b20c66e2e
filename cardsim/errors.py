"""The one exception type users see: a clear message, exit code 2 on the CLI."""

# The fast trick loops refuse a built-in bot's illegal card (RULES D2, one AND per card). Kernels read this when
# they compile; only ``benchmarks/check_overhead.py --always-on`` sets it False, in processes with a numba cache
# of their own, to measure what the check costs.
REFUSE_ILLEGAL_CARDS = True


class CardsimError(ValueError):
    """Bad input (unknown game, bot, rule or value) or an illegal bot decision.

    The message says what was wrong and what is allowed; the CLI prints it on
    one line and exits with code 2.
    """


class BotFailure(Exception):
    """Raised inside a compiled kernel when a compiled bot's decision fails: the state machine refused its action
    (RULES.md D2), or a strong bot's sampler found no deal that fits its seat's view (a bug in the information set).

    A kernel cannot format the details. ``Game.run`` catches it and replays the failing unit one decision at a time
    to raise the ``CardsimError`` that names the bot, game, seed, round, seat, decision and the legal actions.
    A kernel may raise it with values after the message (``raise BotFailure("seat, cards played:", seat, n)``):
    ``str`` shows them all, comma-separated after the message.
    """

    def __str__(self) -> str:
        head, *values = self.args or ("",)
        return " ".join([str(head), *([", ".join(str(v) for v in values)] if values else [])])


def bot_failure(exc: BaseException) -> BotFailure | None:
    """The ``BotFailure`` that ``exc`` is or stands for, else None: numba reports an exception raised in a
    parallel loop (``prange``, every batch kernel's) as a ``SystemError`` ("returned a result with an exception
    set") whose ``__context__`` is the kernel's exception."""
    if isinstance(exc, BotFailure):
        return exc
    if isinstance(exc, SystemError) and isinstance(exc.__context__, BotFailure):
        return exc.__context__
    return None
