"""The fixed encodings (issue 42, part 1): every game's ``cardsim/games/<game>/encoding.py``, for every variant the
shared tests play (``GameInfo.cases``), at every decision of random rounds played through ``Round``.

- a seat's observation bytes do not change when the cards it cannot see are dealt anew (the honesty test of
  tests/test_contract.py, on the encoded bytes);
- every field holds what the seat's Python ``Observation`` says, decoded from the bytes field by field, so the
  fields' table (``fields``) is the one ``encode`` writes, and no bit beyond ``obs_bits`` is ever set;
- the action mask's ones are exactly the legal actions, and ``action_code`` maps an index back to its code (-1 for
  another decision's index);
- the fields tile the observation, and a card played changes every seat's bytes.
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType

import numpy as np
import pytest
from conftest import redealt_round, start_of

from cardsim import CardsimError, new_round
from cardsim.decisions import DECISIONS
from cardsim.games import GAMES, game_info, get_game

VARIANTS = {game: [None, *map(list, game_info(game).cases.variants)] for game in GAMES}
CASES = [(game, rules) for game in GAMES for rules in VARIANTS[game]]
IDS = [f"{g}-{','.join(r or ['default'])}" for g, r in CASES]
SUITS = "SHDC"


def encoding_of(game: str) -> ModuleType:
    """The game's encoding module, found as the environments find it (through the registry)."""
    return importlib.import_module(f"{GAMES[game]}.encoding")


def observation(r, seat: int) -> np.ndarray:
    """``seat``'s encoded view of round ``r``, in a buffer larger than it and full of ones beforehand: the bits
    past ``obs_bits`` must come out 0."""
    enc, p = encoding_of(r.game.name), r.game.params(r.rules)
    bits = enc.obs_bits(r.game.seats(r.rules))
    out = np.full((bits + 7) // 8 + 8, 0xFF, np.uint8)
    assert enc.encode(r.game.kernel("observe", r.state, p, seat), p, seat, out) == bits
    assert not np.unpackbits(out, bitorder="little")[bits:].any(), "a bit past obs_bits"
    return out[: (bits + 7) // 8].copy()


def mask(r) -> np.ndarray:
    enc = encoding_of(r.game.name)
    out = np.full(enc.ACTION_COUNT, 7, np.int8)
    enc.legal_mask(r.state, r.game.params(r.rules), out)
    assert set(np.unique(out)) <= {0, 1}
    return out


def play_randomly(game: str, rules: list | None, i: int, rng: random.Random) -> tuple[dict, list]:
    """A round of seed 12 played by random legal actions chosen from the mask (an index, its code through
    ``action_code``, played in public form through ``Round``): its record and its public actions."""
    r, enc, actions = new_round(game, seed=12, round=i, rules=rules), encoding_of(game), []
    while not r.done:
        index = rng.choice(np.flatnonzero(mask(r)).tolist())
        code = int(enc.action_code(r.state, index))
        actions.append(r.game.public_action(r.rules, DECISIONS.index(r.decision), code))
        r.play(actions[-1])
    return r.record(), actions


@pytest.mark.parametrize("game, rules", CASES, ids=IDS)
def test_a_seats_observation_is_the_same_when_the_cards_it_cannot_see_are_dealt_anew(game, rules):
    """At every decision of random rounds (and once they are over), every seat's observation bytes stay the same
    when the cards that seat cannot see are dealt anew (tests/conftest.py ``redeal_hidden``) and the same actions
    are played."""
    rng, checked, moved = random.Random(7), 0, 0
    for i in range(3):
        record, actions = play_randomly(game, rules, i, rng)
        r = new_round(game, rules=rules, **start_of(record))
        seats = r.game.seats(r.rules)
        played: list[set[str]] = [set() for _ in range(seats)]
        for k in range(len(actions) + 1):
            for watcher in range(seats):
                mine = observation(r, watcher)
                sees_kitty = getattr(r.observation(watcher), "kitty", None) is not None
                other = redealt_round(game, rules, record, watcher, played, sees_kitty, rng, actions[:k])
                if other is not None:
                    assert np.array_equal(observation(other, watcher), mine), (i, k, watcher)
                    checked += 1
                    moved += not np.array_equal(other.state.hands, r.state.hands)
            if k < len(actions):
                if r.decision in ("card", "discard"):
                    played[r.to_move].add(actions[k])
                r.play(actions[k])
    assert checked >= 100 and moved >= checked // 2  # most re-deals move cards (not the round's last decisions)


@pytest.mark.parametrize("game, rules", CASES, ids=IDS)
def test_the_mask_is_the_legal_actions_and_action_code_maps_an_index_back(game, rules):
    enc, rng = encoding_of(game), random.Random(3)
    kinds = [kind for kind, _ in enc.ACTIONS]
    assert kinds == sorted(kinds) and enc.ACTION_COUNT == sum(n for _, n in enc.ACTIONS)
    firsts = dict(zip(kinds, np.cumsum([0] + [n for _, n in enc.ACTIONS]).tolist(), strict=False))
    sizes = dict(enc.ACTIONS)
    indexes = np.arange(enc.ACTION_COUNT)
    for i in range(4):
        r = new_round(game, seed=5, round=i, rules=rules)
        while True:
            m = mask(r)
            codes = np.array([enc.action_code(r.state, int(j)) for j in indexes])
            if r.done:
                assert not m.any() and (codes == -1).all()
                break
            d = DECISIONS.index(r.decision)
            first, n = firsts[d], sizes[d]
            mine = (indexes >= first) & (indexes < first + n)
            assert (codes[mine] == indexes[mine] - first).all() and (codes[~mine] == -1).all()
            ones = np.flatnonzero(m)
            assert ((ones >= first) & (ones < first + n)).all()
            public = [r.game.public_action(r.rules, d, int(j - first)) for j in ones]
            assert len(public) == len(r.legal()) and set(map(repr, public)) == set(map(repr, r.legal()))
            r.play(rng.choice(r.legal()))


@pytest.mark.parametrize("game", GAMES)
def test_the_fields_tile_the_observation(game):
    enc = encoding_of(game)
    for players in game_info(game).players:
        fields = enc.fields(players)
        assert fields[0].start == 0 and all(f.bits > 0 and f.doc for f in fields)
        assert all(a.start + a.bits == b.start for a, b in zip(fields, fields[1:], strict=False))
        assert fields[-1].start + fields[-1].bits == enc.obs_bits(players)
        assert len({f.name for f in fields}) == len(fields)
    for wrong in (0, 2, 99, "4", True, None):
        if wrong not in game_info(game).players:
            with pytest.raises(CardsimError, match="players"):
                enc.fields(wrong)


@pytest.mark.parametrize("game", GAMES)
def test_a_card_played_changes_every_seats_observation_and_an_action_the_actors(game):
    rng = random.Random(2)
    r = new_round(game, seed=8)
    seats = r.game.seats(r.rules)
    before = [observation(r, seat) for seat in range(seats)]
    while not r.done:
        actor, decision = r.to_move, r.decision
        r.play(rng.choice(r.legal()))
        after = [observation(r, seat) for seat in range(seats)]
        assert not np.array_equal(before[actor], after[actor]), decision
        if decision == "card":
            assert all(not np.array_equal(a, b) for a, b in zip(before, after, strict=True))
        before = after


# --- every field decoded against the seat's Python Observation ---------------------------------------------------


def one_hot(value: int | None) -> set[int]:
    return set() if value is None else {value}


def per_seat(values: list, n: int) -> set[int]:
    """The bits of a one-hot block of ``n`` bits per seat."""
    return {seat * n + v for seat, v in enumerate(values) if v is not None}


def card_bits(deck, names) -> set[int]:
    return {deck.parse(name) for name in names or ()}


def led_suit(deck, cards: list[str]) -> int:
    """The led suit of a trick's cards: the first card's suit; in a deck with Wizards and Jesters the first card
    that is no Jester, and none if that is a Wizard (B6)."""
    for name in cards:
        if name.startswith("J") and name in deck.specials:
            continue
        return deck.suit_of(deck.parse(name))
    return -1


def card_play(r, obs, seats: int, enc: ModuleType) -> dict[str, set[int]]:
    """The fields every game has, of the cards played: by seat, the trick in progress, who did not follow (a block
    of cards as wide as the hand's, the encoding's card indexes: a family's deck may be a part of them)."""
    deck, n = r.game.deck, next(f.bits for f in enc.fields(seats) if f.name == "hand")
    played, not_followed, trick = set(), set(), set()
    tricks = [(t.leader, list(t.cards)) for t in obs.tricks] + ([(obs.trick_leader, obs.trick)] if obs.trick else [])
    for leader, cards in tricks:
        led = led_suit(deck, cards)
        for i, name in enumerate(cards):
            seat, card = (leader + i) % seats, deck.parse(name)
            played.add(seat * n + card)
            if i > 0 and led >= 0 and deck.suit_of(card) >= 0 and deck.suit_of(card) != led:
                not_followed.add(seat * 4 + led)
    for i, name in enumerate(obs.trick):
        trick.add(i * n + deck.parse(name))
    leader = one_hot(obs.trick_leader if r.decision == "card" else None)
    return {"played": played, "not_followed": not_followed, "trick": trick, "leader": leader}


def common(r, obs, seat: int, enc: ModuleType) -> dict[str, set[int]]:
    kinds = [DECISIONS[kind] for kind, _ in enc.ACTIONS]
    return {"seat": {seat}, "decision": one_hot(None if r.done else kinds.index(r.decision)),
            "to_move": one_hot(r.to_move), "hand": card_bits(r.game.deck, obs.hand)}  # fmt: skip


def expected_plain(r, obs, seat: int, enc: ModuleType) -> dict[str, set[int]]:
    """Differenzler's fields (4 seats, the shown trump card, predictions, points and tricks)."""
    deck = r.game.deck
    won = [sum(t.winner == s for t in obs.tricks) for s in range(4)]
    return {**common(r, obs, seat, enc), **card_play(r, obs, 4, enc), "first_hand": {obs.first_hand},
            "trump_card": card_bits(deck, [obs.trump_card]), "trump": {deck.suit_of(deck.parse(obs.trump_card))},
            "predictions": per_seat(obs.predictions, 158), "points": per_seat(obs.points, 158),
            "tricks_won": per_seat(won, 10)}  # fmt: skip


def expected_exact(r, obs, seat: int, enc: ModuleType) -> dict[str, set[int]]:
    """The exact-tricks family's fields (the round's size, the turned card, bids and tricks)."""
    return {**common(r, obs, seat, enc), **card_play(r, obs, obs.players, enc), "dealer": {obs.dealer},
            "cards": {obs.cards - 1}, "turned": card_bits(r.game.deck, [obs.turned_card] if obs.turned_card else []),
            "trump": one_hot(SUITS.index(obs.trump) if obs.trump else None), "bids": per_seat(obs.bids, 21),
            "tricks_won": per_seat(obs.tricks_won, 21)}  # fmt: skip


def expected_auction(r, obs, seat: int, enc: ModuleType) -> dict[str, set[int]]:
    """Call-partner's fields (the auction, the contract, the partner, the kitty and the discards, points)."""
    players, deck = obs.players, r.game.deck
    bids = [b for b in obs.auction if b.bid is not None]
    high = bids[-1] if bids else None
    numbers = [max((b.bid - 10 for b in bids if b.seat == s), default=None) for s in range(players)]
    return {**common(r, obs, seat, enc), **card_play(r, obs, players, enc), "dealer": {obs.dealer},
            "high_bid": one_hot(high and high.bid - 10), "trump": one_hot(high and SUITS.index(high.trump)),
            "declarer": one_hot(high and high.seat), "passed": {b.seat for b in obs.auction if b.bid is None},
            "forced": {0} if obs.forced else set(), "bid_numbers": per_seat(numbers, 11),
            "bid_suits": {b.seat * 4 + SUITS.index(b.trump) for b in bids},
            "called": card_bits(deck, [obs.called_card] if obs.called_card else []),
            "partner_known": {0} if obs.partner_known else set(), "partner": one_hot(obs.partner),
            "kitty": card_bits(deck, obs.kitty), "discards": card_bits(deck, obs.discards),
            "points": per_seat(obs.points, 21)}  # fmt: skip


def expected(r, obs, seat: int, enc: ModuleType) -> dict[str, set[int]]:
    """Each field's set bits (offsets within the field) as the seat's Observation says, by the game's kind of
    Observation."""
    if hasattr(obs, "auction"):
        return expected_auction(r, obs, seat, enc)
    if hasattr(obs, "bids"):
        return expected_exact(r, obs, seat, enc)
    return expected_plain(r, obs, seat, enc)


@pytest.mark.parametrize("game, rules", CASES, ids=IDS)
def test_every_field_holds_what_the_seats_observation_says(game, rules):
    enc, rng = encoding_of(game), random.Random(11)
    for i in range(3):
        r = new_round(game, seed=21, round=i, rules=rules)
        seats = r.game.seats(r.rules)
        fields = enc.fields(seats)
        while True:
            for seat in range(seats):
                bits = np.unpackbits(observation(r, seat), bitorder="little")
                want = expected(r, r.observation(seat), seat, enc)
                assert set(want) == {f.name for f in fields}
                for f in fields:
                    got = set(np.flatnonzero(bits[f.start : f.start + f.bits]).tolist())
                    assert got == want[f.name], (f.name, r.decision, seat)
            if r.done:
                break
            r.play(rng.choice(r.legal()))


def test_the_family_games_hand_on_the_familys_encoding():
    """A game whose state machine is its family's has its family's encoding (its module is one line)."""
    for game in GAMES:
        enc = encoding_of(game)
        state = get_game(game).state_module
        assert enc.encode.__module__ == state.__name__.replace(".state", ".encoding")
        assert set(enc.__all__) >= {"ACTIONS", "ACTION_COUNT", "encode", "legal_mask", "action_code", "fields",
                                    "obs_bits"}  # fmt: skip


@pytest.mark.parametrize("game, rules", CASES, ids=IDS)
def test_observe_into_a_view_kept_across_rounds_is_observe_array_by_array(game, rules):
    """One view State kept for a table (as BatchEnv keeps it), written by ``observe_into`` at every decision of
    three rounds for the seat to move (then a seat far into a round, then one at the start of the next): always the
    State ``observe`` makes, every array equal (the rows a longer round left behind are cleared)."""
    rng, front = random.Random(11), get_game(game)
    view = None
    for i in range(3):
        r = new_round(game, seed=4, round=i, rules=rules)
        p = r.game.params(r.rules)
        view = view if view is not None else front.state_module.new_state(r.game.seats(r.rules))
        while True:
            for seat in range(r.game.seats(r.rules)):
                r.game.kernel("observe_into", r.state, p, seat, view)
                fresh = r.game.kernel("observe", r.state, p, seat)
                for name, mine, theirs in zip(fresh._fields, view, fresh, strict=True):
                    if name not in ("rng", "bot_rng"):  # the streams: a view's are its own (the bots draw there)
                        assert np.array_equal(mine, theirs), (i, name, seat)
            if r.done:
                break
            r.play(rng.choice(r.legal()))
