"""One validation layer for the public Python API, which the CLI goes through too: a function's type annotations
ARE its argument checks.

``@checked`` binds each call to the function's signature (an unknown keyword, a missing or an extra argument is a
``CardsimError`` listing the function's arguments) and checks every argument against its annotation before the
body runs, so a wrong type is refused before any folder is made or any work starts, in the same words everywhere.
What an annotation allows:

- ``bool``: True or False only (not 1, not "no"); ``int``: an int or a numpy integer, not a bool or a float;
  ``float``: an int or a float, not a bool; ``str``; any other class: its instances (``os.PathLike``, ``Game``);
- ``X | Y``; ``list[T]``, ``tuple[T, ...]``, ``dict[K, V]``, ``Iterable[T]``: the container and each item (a str is
  never taken as a collection of characters); ``Literal[...]``: one of its values; ``Callable``: anything callable;
  ``type``: a class; ``Any``: anything;
- ``Annotated[T, "what"]``: T, described as "what" in the message.

An annotation it cannot read fails the first call (a new kind of annotation cannot slip through unchecked). Range
checks (positive, at most so many) stay in the functions' bodies. The checks are built once per function, at its
first call; a call then costs about 10 µs (``simulate``'s 15 arguments), nothing beside the work behind these entry
points. Hot paths (``Round.play``, the drivers) are not decorated.
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import os
import types
import typing
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import numpy as np

from cardsim.errors import CardsimError

F = TypeVar("F", bound=Callable[..., Any])
_SHOWN = 60  # characters of a refused value's repr in a message


class Check(NamedTuple):
    """What one annotation allows: ``test(value)``, and its description as alternatives (``("an int", "None")``),
    which a message joins: ``an int or None``."""

    test: Callable[[Any], bool]
    alternatives: tuple[str, ...]

    @property
    def text(self) -> str:
        *most, last = self.alternatives
        return f"{', '.join(most)} or {last}" if most else last


def checked(func: F) -> F:
    """``func`` with its arguments bound and checked against its annotations before it runs (see the module)."""
    signature = inspect.signature(func)
    checks: dict[str, tuple[Check, bool, bool]] = {}

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not checks:  # at the first call: an annotation may name a class defined after the function
            checks.update(_checks(func, signature))
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise CardsimError(_binding_error(func, signature, kwargs, exc)) from None
        for name, value in bound.arguments.items():
            check, many, named = checks[name]
            for item in (value.values() if named else value) if many else (value,):
                if not check.test(item):
                    raise CardsimError(f"{func.__name__}(): {name}={shown(item)} is {kind_of(item)}; allowed: "
                                       f"{check.text}")  # fmt: skip
        return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def _checks(func: Callable[..., Any], signature: inspect.Signature) -> dict[str, tuple[Check, bool, bool]]:
    """Per argument: its ``Check``, whether it gathers many values (``*args``, ``**kwargs``, each checked), and
    whether by keyword."""
    hints = typing.get_type_hints(func, include_extras=True)
    out = {}
    for name, param in signature.parameters.items():
        try:
            check = check_of(hints.get(name, Any))
        except TypeError as exc:
            raise TypeError(f"{func.__qualname__}: argument {name}: {exc}") from None
        out[name] = (check, param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD), param.kind is param.VAR_KEYWORD)
    return out


def _binding_error(func: Callable[..., Any], signature: inspect.Signature, kwargs: dict[str, Any],
                   exc: TypeError) -> str:  # fmt: skip
    """The message of a call that does not fit ``signature``: an unknown keyword with the function's keywords, or
    Python's own words (missing or extra arguments) with the signature."""
    params = signature.parameters
    named = [n for n, p in params.items() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY)]
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
    unknown = [key for key in kwargs if key not in named and not takes_any]
    if unknown:
        return f"{func.__name__}() has no argument {unknown[0]!r}; its arguments: {', '.join(named)}"
    plain = signature.replace(parameters=[p.replace(annotation=p.empty) for p in params.values()],
                              return_annotation=signature.empty)  # fmt: skip
    return f"{func.__name__}(): {exc}; it is called {func.__name__}{plain}"


def shown(value: Any) -> str:
    """A refused value as a message shows it: its repr (a numpy scalar's as its Python number's), cut short."""
    text = repr(value.item() if isinstance(value, np.generic) else value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def kind_of(value: Any) -> str:
    """``None``, or the value's type with an article, as a message names it: ``a str``, ``an int``, ``an int64``."""
    return "None" if value is None else _article(type(value).__name__)


def _article(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _bare(text: str) -> str:
    """A description without its article: ``str`` of ``a str``."""
    return text.removeprefix("a ").removeprefix("an ")


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _is_float(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


_SCALARS = {
    bool: Check(lambda v: v is True or v is False, ("True", "False")),
    int: Check(_is_int, ("an int",)),
    float: Check(_is_float, ("a number",)),
    str: Check(lambda v: isinstance(v, str), ("a str",)),
    type(None): Check(lambda v: v is None, ("None",)),
}
_NAMES = {os.PathLike: "a path (os.PathLike)"}  # classes whose own name says too little


def check_of(annotation: Any) -> Check:
    """The ``Check`` of one annotation (see the module); ``TypeError`` for one it cannot read."""
    if annotation is Any:
        return Check(lambda v: True, ("anything",))
    if annotation is None:
        annotation = type(None)
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return Check(check_of(args[0]).test, (args[1],))
    if origin in (typing.Union, types.UnionType):
        return _union([check_of(a) for a in args])
    if origin is typing.Literal:
        return Check(lambda v: any(type(v) is type(a) and v == a for a in args), tuple(map(repr, args)))
    if annotation is type or origin is type:
        return Check(lambda v: isinstance(v, type), ("a class",))
    if annotation is collections.abc.Callable or origin is collections.abc.Callable:
        return Check(callable, ("a callable",))
    if origin is not None:
        return _container(origin, args)
    if isinstance(annotation, type):
        return Check(lambda v: isinstance(v, annotation), (_NAMES.get(annotation, _article(annotation.__name__)),))
    raise TypeError(f"cannot check the annotation {annotation!r}")


def _union(checks: list[Check]) -> Check:
    """Any of ``checks``; None is named last."""
    tests = [c.test for c in checks]
    named = [text for c in checks for text in c.alternatives]
    return Check(lambda v: any(test(v) for test in tests),
                 tuple(t for t in named if t != "None") + tuple(t for t in named if t == "None"))


def _container(origin: type, args: tuple) -> Check:
    """``list[T]``, ``tuple[T, ...]``, ``dict[K, V]``, ``Iterable[T]`` and the like: the container, and each item."""
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        raise TypeError(f"cannot check a tuple of fixed length {args!r}")
    items = check_of(args[0]) if args else check_of(Any)
    if origin is dict:
        keys, values = items, check_of(args[1])
        return Check(lambda v: isinstance(v, dict) and all(keys.test(k) and values.test(x) for k, x in v.items()),
                     (f"a dict with {_bare(keys.text)} keys" if values.text == "anything" else
                      f"a dict of {_bare(keys.text)} to {_bare(values.text)}",))  # fmt: skip
    if not isinstance(origin, type) or not issubclass(origin, collections.abc.Iterable):
        raise TypeError(f"cannot check {origin!r}")
    of = "" if items.text == "anything" else f" of {_bare(items.text)}"
    concrete = origin in (list, tuple, set, frozenset)
    name = origin.__name__ if concrete else "collection"  # a str is no collection of items here
    return Check(lambda v: isinstance(v, origin) and not isinstance(v, str) and (
        not isinstance(v, (list, tuple, set, frozenset)) or all(items.test(x) for x in v)),
        (f"{_article(name)}{of}",))  # fmt: skip
