"""The call-partner game (RULES.md section C): ``rules`` (kernels), ``play`` (course of a deal), ``game`` (front)."""
