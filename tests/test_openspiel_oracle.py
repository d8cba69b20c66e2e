"""The Oh Hell test oracle (tests/openspiel_ohhell.py) against OpenSpiel 2.0.2 itself: the card codec, the chance
order, the bid encoding, the hook, F5's play and F6's scores worked out by hand, and ``replay`` of
``random_rounds`` giving back OpenSpiel's legal sets and returns exactly (RULES.md section F).

Under CI a missing pyspiel fails these tests (an import error at collection); elsewhere they are skipped."""

from __future__ import annotations

import os
import random
from importlib.metadata import version

import pytest

if os.environ.get("CI", "").strip().lower() in ("", "0", "false", "no"):
    pytest.importorskip("pyspiel", reason="open-spiel (the dev extra) is not installed")
import openspiel_ohhell as osh  # noqa: E402  (imports pyspiel)
import pyspiel  # noqa: E402
from conftest import load_script  # noqa: E402

from cardsim.cards import FRENCH52  # noqa: E402

pytestmark = pytest.mark.xdist_group("ohhell")

DECKS = [(s, c) for s in range(1, 5) for c in range(2, 14)]
# (players, params): every player count, r drawn and fixed, off_bid_penalty both ways, points_per_trick 1 and 5,
# shrunk decks (down to 4 cards, and 8 cards for 6 players)
CONFIGS = [
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (7, {}),
    (4, {"num_tricks_fixed": 12}),
    (4, {"num_tricks_fixed": 5, "off_bid_penalty": True}),
    (5, {"points_per_trick": 5}),
    (6, {"off_bid_penalty": True, "points_per_trick": 5}),
    (3, {"num_tricks_fixed": 17, "off_bid_penalty": True, "points_per_trick": 5}),
    (3, {"num_suits": 3, "num_cards_per_suit": 5}),
    (3, {"num_suits": 1, "num_cards_per_suit": 4, "num_tricks_fixed": 1}),
    (7, {"num_suits": 2, "num_cards_per_suit": 13, "off_bid_penalty": True}),
    (6, {"num_suits": 4, "num_cards_per_suit": 2, "num_tricks_fixed": 1, "points_per_trick": 5}),
    (4, {"num_suits": 3, "num_cards_per_suit": 13, "num_tricks_fixed": 9, "off_bid_penalty": True}),
    (5, {"num_suits": 1, "num_cards_per_suit": 13, "points_per_trick": 5}),
]
ROUNDS = 100
DEFAULTS = {"num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": -1, "off_bid_penalty": False,
            "points_per_trick": 1}  # fmt: skip


def config_id(config: tuple[int, dict]) -> str:
    players, params = config
    return ",".join([f"players={players}", *(f"{k}={v}" for k, v in params.items())])


def test_the_installed_open_spiel_is_the_pinned_one():
    assert version("open-spiel") == "2.0.2"


# --- the card codec ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_suits, num_cards_per_suit", DECKS)
def test_codec_round_trips_and_names_cards_as_openspiel_and_cardsim_do(num_suits, num_cards_per_suit):
    codec = osh.Codec(num_suits, num_cards_per_suit)
    size = num_suits * num_cards_per_suit
    assert codec.size == size and len(codec.names) == size == len(set(codec.names))
    for action in range(size):
        name = codec.card_name(action)
        assert codec.card_action(name) == action
        assert codec.to_action(codec.to_public(action)) == action
        # F1: action = rank * num_suits + suit, suits C D S H, ranks from 2 upward
        assert name == "CDSH"[action % num_suits] + "23456789TJQKA"[action // num_suits]
    # the shrunk deck: the first num_suits of C D S H, the lowest num_cards_per_suit ranks, cardsim's E1 names
    expected = {s + r for s in "CDSH"[:num_suits] for r in "23456789TJQKA"[:num_cards_per_suit]}
    assert set(codec.names) == expected and expected <= set(FRENCH52.card_names)
    for bid in range(14):
        assert codec.bid_action(bid) == size + bid and codec.to_public(size + bid) == bid
    assert codec.sort_public(list(reversed(codec.names))) == [n for n in FRENCH52.card_names if n in expected]
    for bad in ("XX", "S1", "SA" if num_cards_per_suit < 13 else "S", "HA" if num_suits < 4 else "H2 "):
        with pytest.raises(ValueError):
            codec.card_action(bad)
    with pytest.raises(ValueError):
        codec.card_name(size)
    players = 3
    if size - 1 < players:  # OpenSpiel refuses decks this small (it needs a card per player and one to turn)
        with pytest.raises(ValueError):
            osh.load(players, num_suits, num_cards_per_suit)
        return
    # OpenSpiel's own card strings, and its outcomes and the size of its action space, agree with the codec
    game = osh.load(players, num_suits, num_cards_per_suit)
    assert osh.codec(game) == codec
    top = osh.max_tricks(players, num_suits, num_cards_per_suit)
    assert game.num_distinct_actions() == size + top + 1 and game.max_chance_outcomes() == size
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(0)
    assert [a for a, _ in state.chance_outcomes()] == list(range(size))
    assert [state.action_to_string(a) for a in range(size)] == list(codec.names)


# --- OpenSpiel's chance order, encodings and refusals --------------------------------------------------------------


def hand_from_tensor(game: pyspiel.Game, state: pyspiel.State, seat: int) -> tuple[str, set[str]]:
    """The turned card and the seat's initial hand, from OpenSpiel's information state tensor (oh_hell.cc's layout:
    one-hot tricks (MaxNumTricks), dealer (players), trump (deck), then the initial hand (deck))."""
    codec = osh.codec(game)
    tensor = state.information_state_tensor(seat)
    top = game.num_distinct_actions() - codec.size - 1  # MaxNumTricks (r itself when fixed)
    trump = tensor[top + game.num_players() :][: codec.size]
    hand = tensor[top + game.num_players() + codec.size :][: codec.size]
    assert sum(trump) == 1
    return codec.card_name(trump.index(1)), {codec.card_name(a) for a in range(codec.size) if hand[a]}


@pytest.mark.parametrize("players", range(3, 8))
def test_chance_order_tricks_dealer_then_cards_to_seats_0_1_2_whatever_the_dealer_then_the_turned_card(players):
    game = osh.load(players)
    top = 51 // players
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(r, 1 / top) for r in range(1, top + 1)]
    fixed = osh.load(players, num_tricks_fixed=2).new_initial_state()
    assert fixed.chance_outcomes() == [(2, 1.0)]  # one outcome when num_tricks_fixed is set: r itself
    rng = random.Random(players)
    for dealer in range(players):
        tricks = rng.randint(1, top)
        state = game.new_initial_state()
        state.apply_action(tricks)
        assert state.is_chance_node() and state.chance_outcomes() == [(p, 1 / players) for p in range(players)]
        state.apply_action(dealer)  # the outcome is the dealer's seat
        deck = list(range(52))
        rng.shuffle(deck)
        for k, card in enumerate(deck[: players * tricks + 1]):
            assert state.is_chance_node() and len(state.chance_outcomes()) == 52 - k
            state.apply_action(card)
        assert not state.is_chance_node() and state.current_player() == (dealer + 1) % players
        for seat in range(players):
            turned, hand = hand_from_tensor(game, state, seat)
            assert turned == osh.Codec().card_name(deck[players * tricks])
            assert hand == {osh.Codec().card_name(c) for c in deck[seat : players * tricks : players]}
        # bids: action deck size + bid, from the dealer's left round to the dealer, who bids last
        for i in range(players):
            seat = (dealer + 1 + i) % players
            assert state.current_player() == seat
            legal = state.legal_actions()
            if i < players - 1:
                assert legal == [52 + b for b in range(tricks + 1)]
            assert [state.action_to_string(a) for a in legal] == [str(a - 52) for a in legal]
            state.apply_action(legal[0])
        assert state.current_player() == (dealer + 1) % players  # the dealer's left leads the first trick


def test_a_fixed_r_without_a_card_left_to_turn_is_refused_by_load_and_undealable_in_openspiel():
    for players in range(3, 8):
        top = 51 // players
        assert osh.load(players, num_tricks_fixed=top).num_distinct_actions() == 52 + top + 1
        with pytest.raises(ValueError, match="card must be left"):
            osh.load(players, num_tricks_fixed=top + 1)
    with pytest.raises(ValueError):
        osh.load(3, num_tricks_fixed=0)
    with pytest.raises(ValueError):
        osh.load(8)
    with pytest.raises(ValueError):
        osh.load(3, num_suits=1, num_cards_per_suit=3)
    # OpenSpiel itself loads r = 13 for 4 players (its bound check compares r with r), then runs out of cards:
    # after the 52nd card the state is still a chance node, with no outcome left for the turned card.
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 13})
    state = game.new_initial_state()
    state.apply_action(13)
    state.apply_action(0)
    for _ in range(52):
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_chance_node() and state.chance_outcomes() == []
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("oh_hell", {"players": 3, "num_tricks_fixed": 0})


@pytest.mark.parametrize("off_bid_penalty", [False, True])
@pytest.mark.parametrize("points_per_trick", [1, 5])
def test_returns_are_raw_points_not_normalised(off_bid_penalty, points_per_trick):
    for players, fixed, top in ((3, -1, 17), (4, 12, 12), (7, -1, 7)):
        game = osh.load(players, num_tricks_fixed=fixed, off_bid_penalty=off_bid_penalty,
                        points_per_trick=points_per_trick)  # fmt: skip
        assert game.max_utility() == points_per_trick * top + 10
        assert game.min_utility() == (-points_per_trick * top if off_bid_penalty else 0)
        assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


# --- the hook ----------------------------------------------------------------------------------------------------


def hands_for(players: int, tricks: int, seed: int) -> tuple[list[list[str]], str]:
    names = list(osh.Codec().names)
    random.Random(seed).shuffle(names)
    return [names[s * tricks : (s + 1) * tricks] for s in range(players)], names[players * tricks]


@pytest.mark.parametrize("players, tricks, dealer, bids, refused", [
    (4, 3, 3, [1, 0, 1], 1),  # 1 + 0 + 1 + 1 = 3
    (4, 3, 0, [0, 0, 0], 3),
    (4, 3, 1, [3, 0, 0], 0),
    (4, 3, 2, [2, 2, 0], None),  # the others already bid more than r: every bid is open
    (3, 1, 2, [0, 0], 1),
    (3, 1, 0, [1, 0], 0),
    (7, 7, 4, [1, 1, 1, 1, 1, 1], 1),
    (5, 10, 2, [0, 0, 0, 0], 10),
])  # fmt: skip
def test_the_hook_refuses_the_dealer_the_bid_that_makes_the_sum_r(players, tricks, dealer, bids, refused):
    game = osh.load(players)
    hands, turned = hands_for(players, tricks, seed=tricks)
    out = osh.replay(game, tricks, dealer, hands, turned, bids)
    assert out["movers"] == [(dealer + 1 + i) % players for i in range(players - 1)]
    assert all(legal == list(range(tricks + 1)) for legal in out["legal"])  # the others bid freely
    expected = [b for b in range(tricks + 1) if b != refused]
    assert osh.replay(game, tricks, dealer, hands, turned, bids + [expected[0]])["legal"][-1] == expected
    if refused is not None:
        with pytest.raises(ValueError, match="not legal"):
            osh.replay(game, tricks, dealer, hands, turned, bids + [refused])


def test_replay_refuses_what_openspiel_refuses():
    game = osh.load(4, num_tricks_fixed=2)
    hands, turned = hands_for(4, 2, seed=1)
    with pytest.raises(ValueError, match="chance outcomes"):
        osh.replay(game, 3, 0, *hands_for(4, 3, seed=1), [])  # r is fixed at 2
    with pytest.raises(ValueError, match="hands must be"):
        osh.replay(game, 2, 0, hands[:3], turned, [])
    dup = [hands[0], [hands[0][0], hands[1][1]], hands[2], hands[3]]
    with pytest.raises(ValueError, match="chance outcomes"):
        osh.replay(game, 2, 0, dup, turned, [])
    with pytest.raises(ValueError, match="chance outcomes"):
        osh.replay(game, 2, 0, hands, hands[0][0], [])
    with pytest.raises(ValueError):
        osh.replay(game, 2, 0, hands, turned, [1, 1, 1, "S2" if "S2" not in hands[1] else "S3"])
    out = osh.replay(game, 2, 0, hands, turned, [0, 0, 0])  # a prefix: no returns yet
    assert out["returns"] is None and out["tricks_won"] == [0, 0, 0, 0] and out["movers"] == [1, 2, 3]


# --- random rounds, replayed, and checked by hand against F4-F6 ---------------------------------------------------


def by_hand(players: int, params: dict, r: dict) -> dict:
    """Movers, legal sets, tricks won and returns of a round worked out from RULES.md F4-F6 alone."""
    tricks, dealer, ranks = r["tricks"], r["dealer"], "23456789TJQKA"
    hands = [set(h) for h in r["hands"]]
    trump = r["turned"][0]
    bids, cards = r["actions"][:players], r["actions"][players:]
    movers, legal = [], []
    seat_bids = [0] * players
    for i, bid in enumerate(bids):
        seat = (dealer + 1 + i) % players
        movers.append(seat)
        open_bids = list(range(tricks + 1))
        if i == players - 1:  # the hook (F4)
            open_bids = [b for b in open_bids if sum(bids[:-1]) + b != tricks]
        legal.append(open_bids)
        seat_bids[seat] = bid
    won = [0] * players
    leader = (dealer + 1) % players
    for t in range(tricks):
        trick = cards[t * players : (t + 1) * players]
        led = trick[0][0]
        for j, card in enumerate(trick):
            seat = (leader + j) % players
            movers.append(seat)
            follow = {c for c in hands[seat] if c[0] == led} if j else set()
            legal.append(follow or set(hands[seat]))
            hands[seat].remove(card)
        trumps = [c for c in trick if c[0] == trump]
        best = max(trumps or [c for c in trick if c[0] == led], key=lambda c: ranks.index(c[1]))
        leader = (leader + trick.index(best)) % players
        won[leader] += 1
    ppt = params.get("points_per_trick", 1)
    returns = []
    for bid, got in zip(seat_bids, won, strict=True):  # F6
        if bid == got:
            returns.append(ppt * got + 10)
        elif params.get("off_bid_penalty", False):
            returns.append(-ppt * abs(bid - got))
        else:
            returns.append(ppt * got)
    return {"movers": movers, "legal": legal, "tricks_won": won, "returns": returns}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_replay_of_random_rounds_gives_back_openspiels_legal_sets_and_returns(config):
    players, params = config
    rounds = osh.random_rounds(ROUNDS, players, seed=len(CONFIGS) * players + len(params), **params)
    game = osh.load(players, **params)
    top = osh.max_tricks(players, params.get("num_suits", 4), params.get("num_cards_per_suit", 13))
    fixed = params.get("num_tricks_fixed", -1)
    drawn = {r["tricks"] for r in rounds}
    assert drawn == {fixed} if fixed != -1 else len(drawn) > 1  # r drawn anew each round with -1
    shuffle = random.Random(players)
    for r in rounds:
        assert r["params"] == {**DEFAULTS, "players": players, **params}
        assert 1 <= r["tricks"] <= top and 0 <= r["dealer"] < players
        assert len(r["actions"]) == len(r["movers"]) == len(r["legal"]) == players * (r["tricks"] + 1)
        assert all(a in legal for a, legal in zip(r["actions"], r["legal"], strict=True))
        out = osh.replay(game, r["tricks"], r["dealer"], r["hands"], r["turned"], r["actions"])
        assert out == {k: r[k] for k in out}  # movers, legal sets, returns, tricks won, OpenSpiel's history
        # the order of the cards within a hand changes OpenSpiel's history only
        hands = [shuffle.sample(h, len(h)) for h in r["hands"]]
        again = osh.replay(osh.load(**r["params"]), r["tricks"], r["dealer"], hands, r["turned"], r["actions"])
        assert {k: v for k, v in again.items() if k != "history"} == {k: v for k, v in out.items() if k != "history"}
        # F4-F6 by hand
        hand = by_hand(players, params, r)
        assert hand["movers"] == r["movers"] and hand["tricks_won"] == r["tricks_won"]
        assert hand["returns"] == r["returns"] and sum(r["tricks_won"]) == r["tricks"]
        assert [set(legal) for legal in hand["legal"]] == [set(legal) for legal in r["legal"]]


def test_random_rounds_are_seeded():
    assert osh.random_rounds(5, 5, seed=7) == osh.random_rounds(5, 5, seed=7) != osh.random_rounds(5, 5, seed=8)


def test_the_hook_holds_in_every_random_round():
    for players in range(3, 8):
        for r in osh.random_rounds(40, players, seed=players, num_tricks_fixed=min(2, 51 // players)):
            tricks, bids = r["tricks"], r["actions"][:players]
            hooked = tricks - sum(bids[:-1])
            assert r["legal"][players - 1] == [b for b in range(tricks + 1) if b != hooked]
            assert sum(bids) != tricks


# --- the benchmark of OpenSpiel's own speed ------------------------------------------------------------------------


def test_the_openspiel_benchmark_runs_and_refuses_an_undealable_round():
    """A smoke run of benchmarks/openspiel_speed.py."""
    bench = load_script("benchmarks/openspiel_speed.py")
    result = bench.measure(players=4, tricks=12, rounds=300, repeat=2)
    assert result["rounds_per_s"] >= result["rounds_per_s_range"][0] > 0 and result["open_spiel"] == "2.0.2"
    # each seat takes 3 tricks on average, plus 10 for the exact bids: (3, 13) for any random lineup
    assert all(3 <= mean <= 13 for mean in result["mean_returns"]) and len(result["mean_returns"]) == 4
    assert bench.openspiel_rounds_per_s(3, 17, rounds=50, repeat=1) > 0
    with pytest.raises(ValueError, match="card must be left"):
        bench.openspiel_game(4, 13)
