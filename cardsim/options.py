"""Rule settings shared by all games: declare, parse and validate options.

A game's settings are a frozen dataclass whose fields carry their allowed
values in ``metadata["allowed"]`` (a tuple of strings or a ``range``). The
CLI passes ``--rule name=value`` strings; the Python API passes keywords.
Both go through ``make_rules`` so every refusal reads the same:
option, value and what is allowed (RULES.md D1).
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, TypeVar

import numpy as np

from cardsim.errors import CardsimError
from cardsim.validation import checked

R = TypeVar("R")
# Rule settings as the Python API takes them (``cardsim.validation`` checks the type). A single string is refused:
# it would be read a character at a time, and a list of items says where each one ends.
RuleSettings = Annotated[dict[str, Any] | list[str] | None,
                         "a dict {name: value}, a list of 'name=value' strings (the CLI's --rule items), or None"]


def option(default: Any, allowed: tuple | range, doc: str) -> Any:
    """A dataclass field for a rule option with its allowed values and a one-line doc."""
    return dataclasses.field(default=default, metadata={"allowed": allowed, "doc": doc})


def describe_allowed(allowed: tuple | range) -> str:
    if isinstance(allowed, range):
        return f"an integer from {allowed.start} to {allowed.stop - 1}"
    return "one of " + ", ".join(str(a) for a in allowed)


def _as_integer(value: Any) -> int | None:
    """``value`` as an int if it is one (an int, a numpy integer, a whole float, or its text), else None: never
    truncated (10.9 is no integer; RULES.md D1)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return int(value) if float(value).is_integer() else None
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _convert(game: str, name: str, value: Any, allowed: tuple | range) -> Any:
    if isinstance(allowed, range):
        number = _as_integer(value)
        if number is None or number not in allowed:
            raise CardsimError(f"{game} rule {name}={value!r} is not allowed: use {describe_allowed(allowed)}")
        return number
    if isinstance(value, bool) and allowed == (False, True):
        return value
    text = str(value).lower()
    for candidate in allowed:
        if str(candidate).lower() == text:
            return candidate
    raise CardsimError(f"{game} rule {name}={value!r} is not allowed: use {describe_allowed(allowed)}")


@checked
def make_rules(cls: type[R], game: str, settings: RuleSettings = None) -> R:
    """Build a game's rules from ``{"name": value}`` or ``["name=value", ...]``, validating each; a rule given twice
    in the list (``--rule x=1 --rule x=2``, or ``--players``/``--cards`` beside the rule they set) is refused."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    if settings is None:
        settings = {}
    if not isinstance(settings, dict):
        pairs: dict[str, str] = {}
        for item in settings:
            name, sep, value = item.partition("=")
            name, value = name.strip(), value.strip()
            if not sep:
                raise CardsimError(f"rule '{item}' must be written name=value, e.g. {next(iter(fields))}=...")
            if name in pairs and not _same(game, name, pairs[name], value, fields.get(name)):
                raise CardsimError(f"{game} rule {name} is given twice, {name}={pairs[name]} and {name}={value}; "
                                   "give it once")  # fmt: skip
            pairs[name] = value
        settings = pairs
    values = {}
    for name, value in settings.items():
        if name not in fields:
            raise CardsimError(f"{game} has no rule '{name}'; its rules are: {', '.join(fields)}")
        values[name] = _convert(game, name, value, fields[name].metadata["allowed"])
    return cls(**values)


def _same(game: str, name: str, first: str, second: str, field: dataclasses.Field | None) -> bool:
    """Whether two texts of rule ``name`` give it the same value (``--players 4`` beside ``--rule players=4``)."""
    if first.lower() == second.lower():
        return True
    try:
        return field is not None and _convert(game, name, first, field.metadata["allowed"]) == _convert(
            game, name, second, field.metadata["allowed"])
    except CardsimError:
        return False


def check_values(rules: Any, game: str) -> None:
    """Refuse a rules object built directly (not through ``make_rules``) with a value it does not allow."""
    for f in dataclasses.fields(rules):
        value, allowed = getattr(rules, f.name), f.metadata["allowed"]
        if isinstance(allowed, range):
            ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value in allowed
        else:
            ok = any(type(value) is type(a) and value == a for a in allowed)
        if not ok:
            raise CardsimError(f"{game} rule {f.name}={value!r} is not allowed: use {describe_allowed(allowed)}")


def rules_text(rules: Any) -> str:
    """Canonical ``name=value,...`` text of a rules object (stored with every result row)."""
    return ",".join(f"{f.name}={getattr(rules, f.name)}" for f in dataclasses.fields(rules))


def rules_help(cls: type) -> list[str]:
    """One line per option: name, default, allowed values, doc (for docs/usage.md and --help)."""
    return [
        f"{f.name} (default {f.default}; {describe_allowed(f.metadata['allowed'])}): {f.metadata['doc']}"
        for f in dataclasses.fields(cls)
    ]
