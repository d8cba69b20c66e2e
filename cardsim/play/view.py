"""What one seat is shown: the JSON message built from that seat's honest observation only.

Every game through the same code: ``view`` reads the seat's ``Round.observation`` (what a Python bot in that seat
is given: its hand, the cards on the table, the trump and the shown cards, the bids it may see, the tricks and
points so far), the seat's own legal actions when it is to act, and what the whole table sees (the names, whose
turn it is and to decide what, the running game score, the finished rounds' scores). Never the other hands, the
round's seed or key, nor anything of the full state: ``tests/test_play_honesty.py`` deals the cards a seat cannot
see anew and finds every message to it the same, byte for byte. The page draws the observation's fields by name
(``static/table.js``) and the plain mode prints them (``cardsim.play.plain``).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from cardsim.cards import SUITS, Deck
from cardsim.games import game_info
from cardsim.play.table import Table

SYMBOLS = dict(zip(SUITS, "♠♥♦♣", strict=True))
SUIT_WORDS = dict(zip(SUITS, ("spades", "hearts", "diamonds", "clubs"), strict=True))
DISPLAY = "SHCD"  # suits in the hand, colours alternating
# What each decision asks of the person ("your prediction: ...")
PROMPTS = {"predict": "your prediction", "bid": "your bid", "trump": "name the trump suit", "auction": "your bid",
           "call": "call a partner card", "discard": "discard a card", "card": "your card"}  # fmt: skip
OWN = ("rng", "legal", "hand", "seat", "trick", "trick_leader")  # observation fields the view shows in its own way


def card_label(deck: Deck, card: str) -> str:
    """``10♠`` for ``ST``, ``13♥`` for ``H13``; a card beyond the suits by its name (``W1``)."""
    index = deck.parse(card)
    if deck.suit_of(index) < 0:
        return card
    rank = deck.ranks[deck.rank_of(index)]
    return ("10" if rank == "T" else rank) + SYMBOLS[SUITS[deck.suit_of(index)]]


def label(deck: Deck, decision: str, action: Any) -> str:
    """A legal action as a person reads it: a card, a suit, a number, ``pass``, a bid with its suit."""
    if action is None:
        return "pass"
    if isinstance(action, tuple):
        return " ".join(label(deck, decision, part) for part in action)
    if isinstance(action, str) and action in SYMBOLS:  # a suit: named in full where it is the choice
        return f"{SYMBOLS[action]} {SUIT_WORDS[action]}" if decision == "trump" else SYMBOLS[action]
    if isinstance(action, str):
        return card_label(deck, action)
    return str(action)


def sort_key(deck: Deck, card: str) -> tuple[int, int]:
    """A hand's order: by suit (``DISPLAY``), the highest rank first, then the cards beyond the suits."""
    index = deck.parse(card)
    suit = deck.suit_of(index)
    return (DISPLAY.index(SUITS[suit]), -deck.rank_of(index)) if suit >= 0 else (4, index)


def view(table: Table, seat: int) -> dict[str, Any]:
    """The table as ``seat`` sees it (see the module docstring)."""
    game, r, deck = table.game, table.round, table.game.deck
    observed = r.observation(seat)
    seen = {f.name: public(getattr(observed, f.name)) for f in dataclasses.fields(observed) if f.name not in OWN}
    acting = table.phase == "turn" and table.mover == seat and seat not in table.away
    hand_order = lambda card: sort_key(deck, card)
    options = [{"action": a, "label": label(deck, r.decision, a)} for a in r.legal()] if acting else []
    if all(isinstance(o["action"], str) and o["action"] in deck.card_names for o in options):
        options.sort(key=lambda o: hand_order(o["action"]))  # cards in the hand's order
    leader = observed.trick_leader
    info = game_info(game.name)
    return {
        "type": "view",
        "game": game.name,
        "title": info.title,
        "unit": info.labels.unit,
        "lower_is_better": game.lower_is_better,
        "you": seat,
        "names": list(table.names),
        "away": sorted(table.away),
        "game_no": table.game_no,
        "games": table.setup.games,
        "round_no": table.round_no,
        "phase": table.phase,
        "to_move": table.mover,
        "decision": r.decision if table.phase == "turn" else None,
        "prompt": PROMPTS[r.decision] if acting else None,
        "options": options,
        "hand": [{"card": c, "label": card_label(deck, c)} for c in sorted(observed.hand, key=hand_order)],
        "trick": [{"seat": (leader + i) % table.seats, "card": c, "label": card_label(deck, c)}
                  for i, c in enumerate(observed.trick)],  # fmt: skip
        "seen": seen,
        "totals": table.totals,
        "scores": table.round_scores(),
        "ready": sorted(table.ready),
    }


def public(value: Any) -> Any:
    """An observation's value as JSON-able data: its dataclasses (a trick, a bid) as dicts."""
    if isinstance(value, (list, tuple)):
        return [public(v) for v in value]
    if dataclasses.is_dataclass(value):
        return {f.name: public(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def message(table: Table, seat: int) -> str:
    """``view`` as the JSON text sent to the seat's browser."""
    return encode(view(table, seat))


def encode(data: dict[str, Any]) -> str:
    """A message's JSON text: compact, tuples as lists, cards' suit symbols as they are."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
