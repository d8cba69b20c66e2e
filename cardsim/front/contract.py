"""The marks that make ``Game`` a contract: what every game class must provide, checked when it is defined.

Each part of ``Game`` (``cardsim/front/``) declares, next to the code that uses them, the class attributes a game
sets (``Required("what it is for")``) and the methods it defines (``@required`` stubs, whose docstrings say what
for). ``Game.__init_subclass__`` asks ``missing`` of every game class, so a game that lacks one fails at import,
naming each missing one and what it is for, not on the first call that needs it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar

Method = TypeVar("Method", bound=Callable[..., Any])


class Required:
    """The value of a class attribute every game class sets: ``what`` it is for."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what

    def __repr__(self) -> str:
        return f"Required({self.what!r})"


def required(method: Method) -> Method:
    """Mark ``method`` as one every game class defines (its docstring says what for; its body is never run)."""
    method.__required__ = True  # type: ignore[attr-defined]
    return method


def requirements(cls: type) -> dict[str, str]:
    """Every attribute and method a game class must provide, with what it is for, in the order of ``cls``'s bases
    (``Game``'s parts) and of their declarations."""
    found: dict[str, str] = {}
    for base in cls.__mro__:
        for name, value in vars(base).items():
            if isinstance(value, Required):
                found.setdefault(name, value.what)
            elif getattr(value, "__required__", False):
                found.setdefault(name, "a method: " + " ".join(inspect.cleandoc(value.__doc__ or "").split()))
    return found


def missing(cls: type) -> dict[str, str]:
    """What ``cls`` lacks of ``requirements(cls)``: unset attributes, methods it does not define (or not as
    callables)."""
    lacking = {}
    for name, what in requirements(cls).items():
        value = inspect.getattr_static(cls, name)
        stub = isinstance(value, Required) or getattr(value, "__required__", False)
        if stub or (what.startswith("a method") and not callable(getattr(cls, name))):
            lacking[name] = what
    return lacking
