"""Differenzler (RULES.md section A): ``rules`` (kernels), ``play`` (round course), ``game`` (front)."""
