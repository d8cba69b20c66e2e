"""Wizard (RULES.md section B): ``rules`` (kernels), ``play`` (round course), ``game`` (front)."""
