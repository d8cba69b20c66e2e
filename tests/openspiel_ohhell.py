"""OpenSpiel's ``oh_hell`` (open-spiel 2.0.2) as the test oracle of Oh Hell (RULES.md section F).

Plain Python over ``pyspiel`` only (nothing from cardsim), so that cardsim's Oh Hell can be checked against it
round by round: the deal, the players' actions and, at every decision, the legal set and the final returns.

What OpenSpiel 2.0.2 does (read in open_spiel/games/oh_hell/oh_hell.cc and checked by
tests/test_openspiel_oracle.py):

- Chance actions come first, in this order: the number of tricks r (outcomes 1..max uniformly with
  ``num_tricks_fixed=-1``; the single outcome r, probability 1, when it is fixed), the dealer (outcomes 0..players-1
  uniformly, the outcome *is* the seat), then players x r cards one at a time to seats 0, 1, 2, ... in turn,
  whatever the dealer (the k-th card of every hand goes round k), then the turned card (its suit is trump).
- A card is the action ``rank * num_suits + suit``, suits in the order C D S H, ranks 2, 3, ... upward; a shrunk
  deck keeps the lowest ranks (3 suits x 5 ranks = C2..C6, D2..D6, S2..S6: no ace). OpenSpiel's own card strings
  are cardsim's E1 names (suit letter, then 2..9 T J Q K A).
- A bid is the action ``num_suits * num_cards_per_suit + bid``; bids run from the dealer's left, the dealer last;
  the dealer may not bid so that the bids add up to r (the hook, always on).
- Returns are raw points: ``points_per_trick`` x tricks won, + 10 for an exact bid; with ``off_bid_penalty`` a
  missed bid scores ``-points_per_trick * |bid - tricks|`` instead.
- A fixed r larger than (deck - 1) // players is accepted by ``load_game`` (its bound check compares r with
  itself), then the deal runs out of cards: the state stays a chance node with no outcomes. :func:`load` refuses it.

The public form used here, as cardsim's side writes a round: seats 0..players-1 (OpenSpiel's players), bids as
ints, cards as E1 names (``"S2"`` .. ``"CA"``), legal sets as lists sorted in cardsim's FRENCH52 order (suits S H D C,
ranks 2..A).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from numbers import Integral

import pyspiel

OPENSPIEL_SUITS = "CDSH"  # OpenSpiel's suit order (suit 0..3)
CARDSIM_SUITS = "SHDC"  # cardsim's suit order (cardsim.cards.SUITS), used to sort legal sets
RANKS = "23456789TJQKA"  # rank 0..12 in both
MIN_PLAYERS, MAX_PLAYERS = 3, 7
MADE_BID_BONUS = 10  # OpenSpiel's kMadeBidBonus
PARAMS = ("players", "num_suits", "num_cards_per_suit", "num_tricks_fixed", "off_bid_penalty", "points_per_trick")


def max_tricks(players: int, num_suits: int = 4, num_cards_per_suit: int = 13) -> int:
    """The largest r: a card must be left to turn (F3)."""
    return (num_suits * num_cards_per_suit - 1) // players


def load(players: int, num_suits: int = 4, num_cards_per_suit: int = 13, num_tricks_fixed: int = -1,
         off_bid_penalty: bool = False, points_per_trick: int = 1) -> pyspiel.Game:  # fmt: skip
    """OpenSpiel's ``oh_hell`` with these parameters (its names and defaults, except ``players``).

    Refuses (ValueError) what OpenSpiel refuses with a fatal check, and a fixed r beyond (deck - 1) // players,
    which OpenSpiel accepts and then cannot deal."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {players}")
    if not 1 <= num_suits <= 4:
        raise ValueError(f"num_suits must be 1..4, not {num_suits}")
    if not 2 <= num_cards_per_suit <= 13:
        raise ValueError(f"num_cards_per_suit must be 2..13, not {num_cards_per_suit}")
    top = max_tricks(players, num_suits, num_cards_per_suit)
    if top < 1:
        raise ValueError(f"a deck of {num_suits * num_cards_per_suit} cards is too small for {players} players")
    if num_tricks_fixed != -1 and not 1 <= num_tricks_fixed <= top:
        raise ValueError(f"num_tricks_fixed must be -1 or 1..{top} (a card must be left to turn), "
                         f"not {num_tricks_fixed}")  # fmt: skip
    return pyspiel.load_game("oh_hell", {
        "players": int(players), "num_suits": int(num_suits), "num_cards_per_suit": int(num_cards_per_suit),
        "num_tricks_fixed": int(num_tricks_fixed), "off_bid_penalty": bool(off_bid_penalty),
        "points_per_trick": int(points_per_trick),
    })  # fmt: skip


def params_of(game: pyspiel.Game) -> dict:
    """The game's parameters as :func:`load`'s keywords."""
    given = game.get_parameters()
    return {name: given[name] for name in PARAMS}


@dataclass(frozen=True)
class Codec:
    """Between OpenSpiel's actions and the public form, for one deck size."""

    num_suits: int = 4
    num_cards_per_suit: int = 13

    def __post_init__(self) -> None:
        if not (1 <= self.num_suits <= 4 and 2 <= self.num_cards_per_suit <= 13):
            raise ValueError(f"no OpenSpiel deck of {self.num_suits} suits x {self.num_cards_per_suit} ranks")

    @property
    def size(self) -> int:
        return self.num_suits * self.num_cards_per_suit

    @property
    def names(self) -> tuple[str, ...]:
        """The E1 name of every card action 0..size-1."""
        return _names(self.num_suits, self.num_cards_per_suit)

    def card_name(self, action: int) -> str:
        if not 0 <= action < self.size:
            raise ValueError(f"card action {action} is outside a deck of {self.size} cards")
        return self.names[action]

    def card_action(self, name: str) -> int:
        action = _actions(self.num_suits, self.num_cards_per_suit).get(name)
        if action is None:
            suits, ranks = OPENSPIEL_SUITS[: self.num_suits], RANKS[: self.num_cards_per_suit]
            raise ValueError(f"{name!r} is no card of the deck of suits {suits} x ranks {ranks}")
        return action

    def bid_action(self, bid: int) -> int:
        if bid < 0:
            raise ValueError(f"a bid cannot be negative: {bid}")
        return self.size + bid

    def to_public(self, action: int) -> int | str:
        """A player's action: a bid as an int, a card as its name."""
        return action - self.size if action >= self.size else self.card_name(action)

    def to_action(self, public: int | str) -> int:
        if isinstance(public, str):
            return self.card_action(public)
        if isinstance(public, Integral):
            return self.bid_action(int(public))
        raise TypeError(f"a public action is a bid (int) or a card name (str), not {public!r}")

    def sort_public(self, publics: list) -> list:
        """Bids ascending; cards in cardsim's FRENCH52 order (suits S H D C, ranks 2..A)."""
        return sorted(publics, key=lambda p: (0, p, 0) if not isinstance(p, str) else
                      (1, CARDSIM_SUITS.index(p[0]), RANKS.index(p[1])))  # fmt: skip


@cache
def _names(num_suits: int, num_cards_per_suit: int) -> tuple[str, ...]:
    return tuple(OPENSPIEL_SUITS[a % num_suits] + RANKS[a // num_suits] for a in range(num_suits * num_cards_per_suit))


@cache
def _actions(num_suits: int, num_cards_per_suit: int) -> dict[str, int]:
    return {name: a for a, name in enumerate(_names(num_suits, num_cards_per_suit))}


def codec(game: pyspiel.Game) -> Codec:
    params = game.get_parameters()
    return Codec(params["num_suits"], params["num_cards_per_suit"])


def _apply_chance(state: pyspiel.State, action: int, what: str) -> None:
    if not state.is_chance_node():
        raise ValueError(f"{what}: OpenSpiel expects no chance action here")
    outcomes = [a for a, _ in state.chance_outcomes()]
    if action not in outcomes:
        raise ValueError(f"{what}: {action} is not among OpenSpiel's chance outcomes {outcomes}")
    state.apply_action(action)


def tricks_won(state: pyspiel.State) -> list[int]:
    """Tricks won per seat so far, read from OpenSpiel's own state string (its ``Tricks Won:`` line)."""
    for line in str(state).splitlines():
        if line.startswith("Tricks Won:"):
            return [int(x) for x in line.split(":", 1)[1].split()]
    raise ValueError("no 'Tricks Won:' line in the state string")


def replay(game: pyspiel.Game, tricks: int, dealer: int, hands: list[list[str]], turned: str,
           actions: list[int | str]) -> dict:  # fmt: skip
    """Play a round given in the public form on OpenSpiel.

    The chance outcomes go in OpenSpiel's order: ``tricks``, ``dealer``, the k-th card of every seat's hand in
    round k (seats 0, 1, 2, ...), ``turned``. Then ``actions`` (bids as ints, cards as names; a prefix of the round
    is fine). Returns a dict: ``movers`` (the seat to act at each action), ``legal`` (OpenSpiel's legal set before
    each action, public form, sorted), ``returns`` (OpenSpiel's, as ints; None if the round is not over),
    ``tricks_won`` (per seat, OpenSpiel's count) and ``history`` (OpenSpiel's action history). An action OpenSpiel
    does not allow, or a deal it cannot take, raises ValueError."""
    cod = codec(game)
    players = game.num_players()
    if len(hands) != players or any(len(hand) != tricks for hand in hands):
        raise ValueError(f"hands must be {players} lists of {tricks} cards, not {[len(h) for h in hands]}")
    state = game.new_initial_state()
    _apply_chance(state, int(tricks), "number of tricks")
    _apply_chance(state, int(dealer), "dealer")
    for k in range(tricks):
        for seat in range(players):
            _apply_chance(state, cod.card_action(hands[seat][k]), f"card {k} of seat {seat}")
    _apply_chance(state, cod.card_action(turned), "turned card")
    movers, legal = [], []
    for i, public in enumerate(actions):
        if state.is_terminal() or state.is_chance_node():
            raise ValueError(f"action {i} ({public!r}): the round takes no player action here")
        allowed = state.legal_actions()
        action = cod.to_action(public)
        movers.append(state.current_player())
        legal.append(cod.sort_public([cod.to_public(a) for a in allowed]))
        if action not in allowed:
            raise ValueError(f"action {i} ({public!r}) of seat {movers[-1]} is not legal in OpenSpiel: {legal[-1]}")
        state.apply_action(action)
    returns = None
    if state.is_terminal():
        returns = [int(r) for r in state.returns()]
        assert returns == state.returns(), state.returns()
    return {"movers": movers, "legal": legal, "returns": returns, "tricks_won": tricks_won(state),
            "history": list(state.history())}  # fmt: skip


def random_rounds(n: int, players: int, seed: int, **params) -> list[dict]:
    """``n`` rounds of OpenSpiel played by itself with ``random.Random(seed)``: chance outcomes drawn by their
    probabilities, every player's action uniform over OpenSpiel's legal ones. Each round in the public form:
    ``params`` (:func:`load`'s keywords), ``tricks``, ``dealer``, ``hands`` (per seat, in dealt order), ``turned``,
    ``actions``, ``movers``, ``legal`` (sorted, before each action), ``returns``, ``tricks_won``, ``history``
    (OpenSpiel's). JSON-serialisable; ``replay(load(**r["params"]), r["tricks"], r["dealer"], r["hands"],
    r["turned"], r["actions"])`` gives back the same movers, legal sets, returns, tricks won and history."""
    game = load(players, **params)
    cod = codec(game)
    rng = random.Random(seed)
    rounds = []
    for _ in range(n):
        state = game.new_initial_state()
        chance = []
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            chance.append(rng.choices(outcomes, weights=probs)[0])
            state.apply_action(chance[-1])
        tricks, dealer, deal, turned = chance[0], chance[1], chance[2:-1], chance[-1]
        hands = [[cod.card_name(a) for a in deal[seat::players]] for seat in range(players)]
        actions, movers, legal = [], [], []
        while not state.is_terminal():
            allowed = state.legal_actions()
            action = rng.choice(allowed)
            movers.append(state.current_player())
            legal.append(cod.sort_public([cod.to_public(a) for a in allowed]))
            actions.append(cod.to_public(action))
            state.apply_action(action)
        rounds.append({
            "params": params_of(game), "tricks": tricks, "dealer": dealer, "hands": hands,
            "turned": cod.card_name(turned), "actions": actions, "movers": movers, "legal": legal,
            "returns": [int(r) for r in state.returns()], "tricks_won": tricks_won(state),
            "history": list(state.history()),
        })  # fmt: skip
    return rounds
