"""Wizard rules B1-B10 (RULES.md section B), checked against a plain-Python reference.

Cards are written in RULES.md E2 notation (``H13``, ``C1``, ``W1``-``W4``, ``J1``-``J4``); suits as letters
S H D C, ``None`` for "no suit". ``reference_wizard`` is an independent re-statement of B6, B7 and B8.
The kernels use -1 for "no trump" / "no led suit" and the WIZARD60 indices of ``cardsim.cards``.
"""

from __future__ import annotations

import re

import numpy as np
import pyarrow.parquet as pq
import pytest
import reference_wizard as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsim import simulate
from cardsim.cards import WIZARD60
from cardsim.errors import CardsimError
from cardsim.games.exact_tricks import rules
from cardsim.games.exact_tricks import state as wizard_state
from cardsim.games.wizard.game import GAME
from cardsim.lineup import Lineup, make_lineup

SUITS = "SHDC"
DEFAULT = GAME.make_rules()
PLAYERS = (3, 4, 5, 6)

# B3/B10, written out from RULES.md (60 / players rounds; tournament lists as printed there).
STANDARD_ROUNDS = {3: 20, 4: 15, 5: 12, 6: 10}
TOURNAMENT = {
    3: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20],
    4: [1, 3, 5, 7, 9, 11, 12, 13, 14, 15],
    5: [2, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    6: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
}
FIVE_ROUNDS_TRUMPS = ["C", "D", "H", "S", None]  # B10 five_rounds, rounds 1-5


# --- helpers ------------------------------------------------------------------


def cards(text: str) -> list[str]:
    """Canonical names of a space-separated card list (parsed by the library, RULES.md E2)."""
    return [WIZARD60.name_of(c) for c in WIZARD60.parse_many(text)] if text else []


def kernel_led(trick) -> tuple[int, bool]:
    """(led suit, decided) after ``trick`` by chaining rules.led_after from an empty trick, as the drivers do."""
    led, decided = -1, False
    for card in trick:
        led, decided = rules.led_after(led, decided, ref.index(card))
    return int(led), bool(decided)


def kernel_legal(hand, trick) -> set[str]:
    """rules.legal_mask on a state given by names, with the led suit the drivers pass (play.py)."""
    return ref.names_of_mask(rules.legal_mask(np.uint64(ref.mask_of(hand)), kernel_led(trick)[0]))


def kernel_winner(trick, trump: str | None) -> int:
    """The winning position of ``trick`` played through the state machine's card step (``state.play_card``, which
    ``state.apply`` and the fast loop call): seat i plays card i of a one-card round, and the trick goes to its
    winner. (``rules.trick_winner`` is called by no driver.)"""
    n = len(trick)
    hands = np.array([1 << ref.index(c) for c in trick], np.uint64)
    won, log = np.zeros(n, np.int64), np.zeros((n, 2), np.int64)
    regs = (0, 0, rules.NO_SUIT, False, -1, 0, 0, 0)  # seat, position, led, decided, top key, winner, played, tricks
    for card in trick:
        regs = wizard_state.play_card(hands, won, log, ref.suit_index(trump), 1, *regs, ref.index(card))
    winner = int(regs[5])
    assert regs[0] == -1 and regs[-2:] == (n, 1) and list(won) == [int(s == winner) for s in range(n)]
    return winner


def lineup(*bots) -> Lineup:
    """A lineup of built-in bot names and/or Python bot objects (one per seat)."""
    return make_lineup(list(bots), GAME.name, len(bots), GAME.builtin_bots, GAME.decisions, GAME.bot_settings)


def re_repr(value) -> str:
    """``repr(value)`` as a regular expression (the error messages quote the bad value with repr)."""
    return re.escape(repr(value))


def alternating(players: int) -> Lineup:
    """heuristic, random, heuristic, ... for ``players`` seats."""
    return GAME.lineup((["heuristic", "random"] * 3)[:players], wizard_rules(players))


def wizard_rules(players: int = 4, **settings):
    return GAME.make_rules(settings, players=players)


class Recorder:
    """A Python bot: bids ``fixed`` (else a random allowed bid), plays a random legal card, names ``trump``
    when a Wizard is turned, and keeps every Observation (and, in a shared ``log``, the order of decisions)."""

    def __init__(self, fixed: int | None = None, trump: str = "D", log: list | None = None):
        self.fixed, self.trump = fixed, trump
        self.log = [] if log is None else log
        self.seen = []

    def _note(self, kind, obs):
        self.seen.append((kind, obs))
        self.log.append((kind, obs.seat))

    def bid(self, obs):
        self._note("bid", obs)
        if self.fixed is not None:
            return self.fixed
        return obs.rng.choice([b for b in range(obs.cards + 1) if b != obs.refused])

    def play(self, obs):
        self._note("play", obs)
        return obs.rng.choice(obs.legal)

    def choose_trump(self, obs):
        self._note("choose_trump", obs)
        return self.trump


class PyRandomBot:
    """A Python bot choosing uniformly among what it is offered; it checks the offered legal cards on the spot."""

    def bid(self, obs):
        return obs.rng.choice([b for b in range(obs.cards + 1) if b != obs.refused])

    def play(self, obs):
        assert set(obs.legal) == ref.legal_cards(obs.hand, obs.trick)
        return obs.rng.choice(obs.legal)

    def choose_trump(self, obs):
        return obs.rng.choice(SUITS)


def check_replay(record: dict, plus_minus_one: bool = False, fixed_trump: str | None | bool = False) -> None:
    """Re-derive a replayed round with the reference: deal (B3), trump (B4), bids (B5), legality and order (B6),
    winners (B7), scores (B8). ``fixed_trump`` is a schedule's fixed trump (B10 five_rounds), False for B4."""
    p, n, dealer = record["players"], record["cards"], record["dealer"]
    hands = [set(h) for h in record["hands"]]
    dealt = [c for h in hands for c in h]
    assert all(len(h) == n for h in record["hands"]) and len(hands) == p
    assert len(set(dealt)) == p * n and set(dealt) <= set(ref.DECK)  # B1/B3: n distinct cards each
    turned, trump = record["turned_card"], record["trump"]
    if fixed_trump is not False:
        assert turned is None and trump == fixed_trump
    elif p * n == 60:  # B4: no card left, no trump
        assert turned is None and trump is None
    else:
        assert turned in ref.DECK and turned not in dealt  # B4: the next card, not one dealt
        if ref.is_wizard(turned):
            assert trump in SUITS  # the dealer chose a suit; "no trump" may not be chosen
        else:
            assert trump == ref.suit(turned)  # a suit card's suit; None for a Jester
    bids = record["bids"]
    assert len(bids) == p and all(0 <= b <= n for b in bids)  # B5
    if plus_minus_one:
        assert sum(bids) != n
    won = [0] * p
    leader = (dealer + 1) % p  # B6: left of the dealer leads the first trick
    played = []
    assert len(record["tricks"]) == n
    for t, trick in enumerate(record["tricks"]):
        assert trick["leader"] == leader and len(trick["cards"]) == p
        for i, card in enumerate(trick["cards"]):
            seat = (leader + i) % p  # clockwise
            legal = ref.legal_cards(hands[seat], trick["cards"][:i])
            assert legal and legal <= hands[seat]
            assert card in legal, (t, i, card, sorted(legal))
            hands[seat].remove(card)
            played.append(card)
        winner = (leader + ref.trick_winner(trick["cards"], trump)) % p  # B7
        assert trick["winner"] == winner, (trick, trump)
        won[winner] += 1
        leader = winner
    assert sorted(played) == sorted(dealt)  # every dealt card played exactly once
    assert record["tricks_won"] == won and sum(won) == n
    assert record["scores"] == [ref.score(b, w) for b, w in zip(bids, won, strict=True)]  # B8


def seat_rows(rows: dict, players: int, key: str) -> np.ndarray:
    """A per-seat column of rows as [row group (round), seat]."""
    return rows[key].astype(np.int64).reshape(-1, players)


def round_rows(rows: dict, players: int, key: str) -> np.ndarray:
    """A per-round column of rows (the same on every seat's row) as [round]."""
    values = seat_rows(rows, players, key)
    assert (values == values[:, :1]).all()
    return values[:, 0]


def rounds_with_turned_wizard(players: int = 4, wanted: int = 3) -> list[tuple[int, dict]]:
    """(game_no, record) of games whose round 0 turned up a Wizard (B4), found by replaying round 0 of games."""
    found = []
    r, lu = wizard_rules(players), GAME.lineup("heuristic", wizard_rules(players))
    for g in range(400):
        record = GAME.replay(r, lu, 17, 0, g)
        if record["turned_card"] and ref.is_wizard(record["turned_card"]):
            found.append((g, record))
            if len(found) == wanted:
                return found
    raise AssertionError("no Wizard turned up in 400 games")


# --- B1 ---------------------------------------------------------------------------


def test_B1_deck_has_60_cards():
    """B1: 4 suits x 13 ranks 1..13 plus 4 Wizards and 4 Jesters; indices 13*suit+rank, W 52-55, J 56-59."""
    assert WIZARD60.size == rules.DECK_SIZE == 60 and len(ref.DECK) == 60
    names = [WIZARD60.name_of(c) for c in range(60)]
    assert names == ref.DECK and len(set(names)) == 60
    for s, letter in enumerate(SUITS):
        assert [WIZARD60.name_of(13 * s + r) for r in range(13)] == [f"{letter}{k}" for k in range(1, 14)]
        assert [ref.rank(c) for c in names if ref.suit(c) == letter] == list(range(1, 14))
    assert names[52:56] == ["W1", "W2", "W3", "W4"] and names[56:] == ["J1", "J2", "J3", "J4"]
    assert [WIZARD60.parse(n) for n in names] == list(range(60))
    assert WIZARD60.parse("h13") == WIZARD60.parse("♥13") == 25 and WIZARD60.parse("j1") == 56  # E2/E3
    assert [WIZARD60.suit_of(c) for c in range(52, 60)] == [-1] * 8  # Wizards and Jesters have no suit


def test_B1_a_full_deck_round_deals_all_60_cards():
    """B1/B3: dealing 60/players cards each hands out every card of the deck exactly once."""
    for p in PLAYERS:
        record = GAME.replay(wizard_rules(p), GAME.lineup("random", wizard_rules(p)), 4, p, None)
        assert sorted(c for h in record["hands"] for c in h) == sorted(ref.DECK)


# --- B2 ---------------------------------------------------------------------------


def test_B2_three_to_six_players():
    """B2: 3 to 6 players; 2 and 7 are refused with a message naming the option, the value and 3 to 6."""
    assert GAME.players == PLAYERS
    for p in PLAYERS:
        r = GAME.make_rules(players=p)
        assert r.players == p
        record = GAME.replay(r, GAME.lineup("random", r), 1, 0, None)
        assert len(record["hands"]) == len(record["bids"]) == len(record["scores"]) == p
    for bad in (7, 2):
        with pytest.raises(CardsimError, match=rf"wizard rule players='?{bad}'? is not allowed.* 3 to 6"):
            GAME.make_rules(players=bad)
        with pytest.raises(CardsimError, match=rf"players='?{bad}'? is not allowed.* 3 to 6"):
            simulate("wizard", "random", rounds=10, players=bad)
    with pytest.raises(CardsimError, match="needs 5 bots"):
        GAME.lineup("random,random,random,random", wizard_rules(5))


def test_B2_first_dealer_random_then_rotates():
    """B2: the first dealer of a game is random (every seat about equally often); the deal then passes to the
    next seat each round."""
    for p in PLAYERS:
        r = wizard_rules(p)
        rows = GAME.run(r, GAME.lineup("random", r), 8, 0, 3000, games=True).rows()
        rounds = STANDARD_ROUNDS[p]
        dealer = round_rows(rows, p, "dealer").reshape(3000, rounds)
        assert (dealer == (dealer[:, :1] + np.arange(rounds)) % p).all()
        shares = np.bincount(dealer[:, 0], minlength=p) / 3000
        assert (np.abs(shares - 1 / p) < 0.04).all(), shares
    lu = GAME.lineup("random")
    dealers = [GAME.replay(DEFAULT, lu, 9, r, 2)["dealer"] for r in range(5)]
    assert dealers == [(dealers[0] + r) % 4 for r in range(5)]


# --- B3 ---------------------------------------------------------------------------


def test_B3_rounds_per_standard_game():
    """B3: a standard game has 60 / players rounds: 20 (3p), 15 (4p), 12 (5p), 10 (6p); round r deals r cards."""
    for p in PLAYERS:
        schedule = wizard_rules(p).schedule_cards()
        assert len(schedule) == STANDARD_ROUNDS[p] == 60 // p
        assert schedule == tuple(range(1, STANDARD_ROUNDS[p] + 1))


def test_B3_round_r_deals_r_cards():
    """B3: in game play, the r-th round (1-based) deals r cards to each player and has r tricks."""
    for p in (3, 6):
        r = wizard_rules(p)
        lu = GAME.lineup("heuristic", r)
        for rnd in range(6):
            record = GAME.replay(r, lu, 3, rnd, 5)
            assert record["cards"] == rnd + 1
            assert [len(h) for h in record["hands"]] == [rnd + 1] * p
            assert len(record["tricks"]) == rnd + 1
            check_replay(record)
    rows = GAME.run(DEFAULT, GAME.lineup("random"), 3, 0, 200, games=True).rows()
    assert (round_rows(rows, 4, "cards") == round_rows(rows, 4, "round") + 1).all()


def test_B3_single_rounds_deal_the_cards_rule():
    """B3 (single rounds): rule cards=K deals K cards each; 0 (the default) deals 60 / players."""
    for p, k in ((3, 7), (4, 1), (5, 12), (6, 4)):
        record = GAME.replay(wizard_rules(p, cards=k), GAME.lineup("random", wizard_rules(p)), 2, 3, None)
        assert [len(h) for h in record["hands"]] == [k] * p and len(record["tricks"]) == k
    assert GAME.replay(DEFAULT, GAME.lineup("random"), 2, 3, None)["cards"] == 15


# --- B4 ---------------------------------------------------------------------------


def test_B4_turned_card_decides_trump_in_played_games():
    """B4: a turned suit card makes its suit trump, a Jester no trump, a Wizard a suit the dealer chooses (never
    none); with no card left there is no trump. Checked on every round of 2000 compiled 4-player games."""
    rows = GAME.run(DEFAULT, GAME.lineup("heuristic,random,heuristic,random"), 5, 0, 2000, games=True).rows()
    turned, trump, n = (round_rows(rows, 4, k) for k in ("trump_card", "trump", "cards"))
    suit_card, none = (turned >= 0) & (turned < 52), turned < 0
    wizard, jester = (turned >= 52) & (turned < 56), turned >= 56
    assert (trump[suit_card] == turned[suit_card] // 13).all()
    assert (trump[jester] == -1).all()
    assert np.isin(trump[wizard], [0, 1, 2, 3]).all()
    assert (trump[none] == -1).all() and (n[none] == 15).all() and (turned[n == 15] == -1).all()
    assert min(suit_card.sum(), wizard.sum(), jester.sum(), none.sum()) >= 100
    assert set(np.unique(trump[wizard])) == {0, 1, 2, 3}


def test_B4_turned_card_is_the_next_card_not_dealt():
    """B4: the turned card comes from the cards left after dealing (no player holds it)."""
    kinds = set()
    for seed in range(30):
        record = GAME.replay(DEFAULT, GAME.lineup("random"), seed, seed % 15, 0)
        check_replay(record)
        kinds.add("none" if record["turned_card"] is None else record["turned_card"][0])
    assert {"S", "H", "D", "C"} & kinds and "none" in kinds


def test_B4_jester_turned_means_no_trump():
    """B4: a turned Jester means no trump for the round (seen by every bot, in the replay)."""
    lu = GAME.lineup("random")
    for g in range(300):
        record = GAME.replay(DEFAULT, lu, 23, 0, g)
        if record["turned_card"] and ref.is_jester(record["turned_card"]):
            break
    else:
        raise AssertionError("no Jester turned up")
    assert record["trump"] is None
    bots = [Recorder() for _ in range(4)]
    again = GAME.replay(DEFAULT, lineup(*bots), 23, 0, g)
    assert again["turned_card"] == record["turned_card"] and again["trump"] is None
    assert all(obs.trump is None and obs.turned_card == record["turned_card"] for b in bots for _, obs in b.seen)
    assert not any(kind == "choose_trump" for b in bots for kind, _ in b.seen)


def test_B4_wizard_turned_dealer_chooses_trump():
    """B4: a turned Wizard lets the dealer (only the dealer, once, after seeing their hand, before the bids) name
    the trump suit; the named suit is trump for every player; a suit card turned asks nobody."""
    for k, (g, record) in enumerate(rounds_with_turned_wizard(wanted=4)):
        dealer = record["dealer"]
        choice = ["S", "h", "D", "C"][k]
        log = []
        bots = [Recorder(trump=choice, log=log) for _ in range(4)]
        again = GAME.replay(DEFAULT, lineup(*bots), 17, 0, g)
        assert again["turned_card"] == record["turned_card"] and again["dealer"] == dealer
        assert again["trump"] == choice.upper()
        assert log[0] == ("choose_trump", dealer)  # first decision of the round
        assert [entry for entry in log if entry[0] == "choose_trump"] == [("choose_trump", dealer)]
        kind, obs = bots[dealer].seen[0]
        assert kind == "choose_trump" and obs.seat == obs.dealer == dealer
        assert obs.turned_card == record["turned_card"] and obs.trump is None
        assert sorted(obs.hand) == sorted(again["hands"][dealer])
        for bot in bots:
            for kind, obs in bot.seen:
                if kind != "choose_trump":
                    assert obs.trump == choice.upper()
        check_replay(again)
    # a suit card turned: nobody is asked
    for g in range(40):
        record = GAME.replay(DEFAULT, GAME.lineup("random"), 17, 0, g)
        if record["turned_card"] and ref.suit(record["turned_card"]):
            bots = [Recorder() for _ in range(4)]
            GAME.replay(DEFAULT, lineup(*bots), 17, 0, g)
            assert not any(kind == "choose_trump" for b in bots for kind, _ in b.seen)
            break
    else:
        raise AssertionError("no suit card turned up")


def test_B4_no_card_left_no_trump():
    """B4: when every card is dealt (60 / players each) nothing is turned and there is no trump."""
    for p in PLAYERS:
        r = wizard_rules(p)
        bots = [Recorder() for _ in range(p)]
        record = GAME.replay(r, lineup(*bots), 12, 1, None)
        assert record["cards"] * p == 60
        assert record["turned_card"] is None and record["trump"] is None
        assert all(obs.trump is None and obs.turned_card is None for b in bots for _, obs in b.seen)
        rows = GAME.run(r, GAME.lineup("random", r), 12, 0, 300, games=False).rows()
        assert (rows["trump_card"] == -1).all() and (rows["trump"] == -1).all()
        last = GAME.replay(r, GAME.lineup("random", r), 12, STANDARD_ROUNDS[p] - 1, 0)  # a game's last round
        assert last["turned_card"] is None and last["trump"] is None


# --- B5 ---------------------------------------------------------------------------


def test_B5_bidding_order_from_the_dealers_left():
    """B5: the player left of the dealer bids first, the dealer last; all bids come before the first card."""
    for p in PLAYERS:
        for seed in range(3):
            log = []
            bots = [Recorder(log=log) for _ in range(p)]
            record = GAME.replay(wizard_rules(p, cards=3), lineup(*bots), seed, 0, None)
            dealer = record["dealer"]
            assert log[:p] == [("bid", (dealer + 1 + i) % p) for i in range(p)]
            assert all(kind == "play" for kind, _ in log[p:])


def test_B5_bids_are_0_to_cards():
    """B5: every bid is 0..r; the random bot reaches both ends, the heuristic stays in range."""
    r = wizard_rules(4, cards=5)
    for bot in ("random", "heuristic"):
        bids = GAME.run(r, GAME.lineup(bot), 6, 0, 20000, games=False).rows()["bid"]
        assert bids.min() >= 0 and bids.max() <= 5
        if bot == "random":
            assert set(np.unique(bids)) == {0, 1, 2, 3, 4, 5}
    rows = GAME.run(DEFAULT, GAME.lineup("random"), 6, 0, 500, games=True).rows()
    assert (rows["bid"] >= 0).all() and (rows["bid"] <= rows["cards"]).all()
    assert (rows["bid"] == rows["cards"]).any()


def _bidding_views(bidding: str, seed: int, p: int = 4):
    """Replay one 5-card round with Recorders bidding 1, 2, 3, ...; return (record, bots)."""
    bots = [Recorder(fixed=1 + seat) for seat in range(p)]
    record = GAME.replay(wizard_rules(p, cards=5, bidding=bidding), lineup(*bots), seed, 0, None)
    assert record["bids"] == [1 + seat for seat in range(p)]
    return record, bots


def test_B5_open_bidding_seen_in_turn_and_in_play():
    """B5 open (default): a bidder sees the bids made before theirs (and no later ones); all bids are known
    during play."""
    assert DEFAULT.bidding == "open"
    for p, seed in ((4, 0), (5, 1), (3, 2)):
        record, bots = _bidding_views("open", seed, p)
        order = [(record["dealer"] + 1 + i) % p for i in range(p)]
        for i, seat in enumerate(order):
            kind, obs = bots[seat].seen[0]
            assert kind == "bid" and obs.legal == []
            assert obs.bids == [1 + s if s in order[:i] else None for s in range(p)]
            assert all(obs.bids == record["bids"] for _, obs in bots[seat].seen[1:])
    # a built-in bot's earlier bid is visible to a later Python bot
    bot = Recorder(fixed=0)
    for seed in range(6):
        bot.seen.clear()
        record = GAME.replay(wizard_rules(4, cards=5), lineup(bot, "heuristic", "random", "heuristic"), seed, 0, None)
        order = [(record["dealer"] + 1 + i) % 4 for i in range(4)]
        before = order[: order.index(0)]
        assert bot.seen[0][1].bids == [record["bids"][s] if s in before else None for s in range(4)]


def test_B5_hidden_bidding_revealed_before_play():
    """B5 hidden: nobody sees another bid while bidding; all bids are revealed before play."""
    record, bots = _bidding_views("hidden", 3)
    for bot in bots:
        assert [kind for kind, _ in bot.seen] == ["bid"] + ["play"] * 5
        assert bot.seen[0][1].bids == [None] * 4
        assert all(obs.bids == [1, 2, 3, 4] for _, obs in bot.seen[1:])


def test_B5_secret_bidding_never_revealed():
    """B5 secret: nobody sees another bid, neither while bidding nor during play (only their own in play)."""
    record, bots = _bidding_views("secret", 4)
    for seat, bot in enumerate(bots):
        assert bot.seen[0][1].bids == [None] * 4
        for _, obs in bot.seen[1:]:
            assert obs.bids == [1 + seat if s == seat else None for s in range(4)]


def _dealer_of(r, seed: int) -> int:
    """The dealer of single round 0 of ``seed`` (drawn from the deal stream; the bots do not change it)."""
    return GAME.replay(r, GAME.lineup("random", r), seed, 0, None)["dealer"]


def test_B5_plus_minus_one_refuses_the_dealers_bid():
    """B5 plus_minus_one: only the dealer (last bidder) is refused the one bid that makes the total equal r;
    a Python dealer making it is stopped with an error naming that bid."""
    r = wizard_rules(4, cards=5, plus_minus_one=True)
    dealer = _dealer_of(r, 7)
    # the others bid 1 + 1 + 1 = 3 of 5 cards: the dealer may not bid 2
    bots = [Recorder(fixed=1) for _ in range(4)]
    bots[dealer].fixed = 0
    record = GAME.replay(r, lineup(*bots), 7, 0, None)
    assert sum(record["bids"]) == 3 != 5
    for seat, bot in enumerate(bots):
        assert bot.seen[0][1].refused == (2 if seat == dealer else None)
    bots[dealer] = Recorder(fixed=2)
    with pytest.raises(CardsimError, match=r"\(seat \d\) in wizard.* bid: bid 2; allowed: one of 0, 1, 3, 4, 5$"):
        GAME.replay(r, lineup(*bots), 7, 0, None)
    # others bid 0: the dealer may not bid 5
    bots = [Recorder(fixed=0) for _ in range(4)]
    bots[dealer] = Recorder(fixed=5)
    with pytest.raises(CardsimError, match=r"bid 5; allowed: an integer from 0 to 4$"):
        GAME.replay(r, lineup(*bots), 7, 0, None)
    # others already bid more than 5 in total: nothing to refuse
    bots = [Recorder(fixed=4) for _ in range(4)]
    bots[dealer] = Recorder(fixed=0)
    assert GAME.replay(r, lineup(*bots), 7, 0, None)["bids"][dealer] == 0
    assert bots[dealer].seen[0][1].refused is None
    # without the option the dealer may make the total equal r
    bots = [Recorder(fixed=1) for _ in range(4)]
    bots[dealer] = Recorder(fixed=2)
    record = GAME.replay(wizard_rules(4, cards=5), lineup(*bots), 7, 0, None)
    assert sum(record["bids"]) == 5 and bots[dealer].seen[0][1].refused is None


def test_B5_plus_minus_one_in_played_rounds():
    """B5 plus_minus_one: with built-in bots the bids of a round never add up to r (without it they sometimes do)."""
    for bot in ("random", "heuristic"):
        for cards_ in (1, 3, 15):
            on = GAME.run(wizard_rules(4, cards=cards_, plus_minus_one=True), GAME.lineup(bot), 1, 0, 5000, False)
            off = GAME.run(wizard_rules(4, cards=cards_), GAME.lineup(bot), 1, 0, 5000, False)
            assert (seat_rows(on.rows(), 4, "bid").sum(axis=1) != cards_).all()
            if cards_ < 15:  # (the heuristic bids far below 15 in total with 15 cards each)
                assert (seat_rows(off.rows(), 4, "bid").sum(axis=1) == cards_).any()
    rows = GAME.run(wizard_rules(5, plus_minus_one=True), GAME.lineup("random", wizard_rules(5)), 1, 0, 300,
                    games=True).rows()  # fmt: skip
    assert (seat_rows(rows, 5, "bid").sum(axis=1) != round_rows(rows, 5, "cards")).all()


@pytest.mark.parametrize("bidding", ["hidden", "secret"])
def test_B5_plus_minus_one_needs_open_bidding(bidding):
    """B5: plus_minus_one with hidden or secret bidding is a configuration error with a clear message."""
    with pytest.raises(CardsimError, match=rf"plus_minus_one=True needs bidding=open.*not bidding={bidding}"):
        GAME.make_rules({"plus_minus_one": True, "bidding": bidding})
    with pytest.raises(CardsimError, match="plus_minus_one"):
        simulate("wizard", "random", rounds=5, rules=[f"bidding={bidding}", "plus_minus_one=true"])


# --- B6 ---------------------------------------------------------------------------

# (hand, cards already in the trick, legal cards) - derived by hand from B6.
B6_LEGAL = [
    ("S3 H5 W1 J2", "", "S3 H5 W1 J2"),  # leading: any card
    ("S3 S9 H5 W1 J2", "S1", "S3 S9 W1 J2"),  # follow spades, or a Wizard or Jester; not the heart
    ("S3 D7 D9", "S10", "S3"),  # holding the led suit: S3, whatever the trump (B6 has no trumping instead)
    ("S3 H5 W1 J2", "J1 H2", "H5 W1 J2"),  # the led suit is the first non-Jester: hearts
    ("S3 H5 D7", "J1 J3 D13", "D7"),  # two Jesters, then D13: diamonds led
    ("H1 H13 C5", "J1 H7 W2", "H1 H13"),  # a later Wizard does not undo the led suit
    ("S3 C13", "C2 S13 W3", "C13"),
    ("S3 H5 J2", "W1 H13", "S3 H5 J2"),  # Wizard led: no led suit, anything
    ("S3 H5", "J1 W2 S13", "S3 H5"),  # Jester, then Wizard: no led suit
    ("S3 H5 W1", "J1 J2", "S3 H5 W1"),  # only Jesters so far: no led suit yet
    ("H5 D7 C1 J4", "S1 W1", "H5 D7 C1 J4"),  # void in the led suit: anything
    ("H5 D7", "S12", "H5 D7"),
    ("W1 J1", "S1", "W1 J1"),  # Wizards and Jesters may always be played
]


@pytest.mark.parametrize("case", B6_LEGAL)
def test_B6_golden_legal_cards(case):
    """B6: follow the led suit (first non-Jester; none after a Wizard, none yet while only Jesters) or play a
    Wizard or Jester; void or no led suit: anything."""
    hand, trick, expected = cards(case[0]), cards(case[1]), set(cards(case[2]))
    assert ref.legal_cards(hand, trick) == expected
    assert kernel_legal(hand, trick) == expected


# (trick so far, led suit, decided) - from B6: "decided" once a non-Jester is played (a Wizard decides "none").
B6_LED = [
    ("", None, False),
    ("J1", None, False),
    ("J1 J2 J3", None, False),
    ("H2", "H", True),
    ("J1 H2 S5", "H", True),
    ("J1 J2 J3 C9", "C", True),
    ("W1 H2", None, True),
    ("J2 W1 H2", None, True),
    ("D4 W1 S13", "D", True),
]


@pytest.mark.parametrize("case", B6_LED)
def test_B6_led_suit(case):
    """B6: the led suit is the suit of the first non-Jester; a Wizard there means no led suit; while only Jesters
    have been played there is none yet."""
    trick, led, decided = cards(case[0]), case[1], case[2]
    assert ref.led_suit(trick) == led and ref.led_decided(trick) == decided
    assert kernel_led(trick) == (ref.suit_index(led), decided)


def test_B6_left_of_dealer_leads_then_the_winner():
    """B6: the player left of the dealer leads the first trick; the winner of a trick leads the next; the others
    follow clockwise."""
    for p in PLAYERS:
        log = []
        bots = [Recorder(log=log) for _ in range(p)]
        record = GAME.replay(wizard_rules(p, cards=6), lineup(*bots), 30 + p, 0, None)
        tricks = record["tricks"]
        assert tricks[0]["leader"] == (record["dealer"] + 1) % p
        for before, after in zip(tricks, tricks[1:], strict=False):
            assert after["leader"] == before["winner"]
        plays = [seat for kind, seat in log if kind == "play"]
        for t, trick in enumerate(tricks):
            assert plays[p * t : p * (t + 1)] == [(trick["leader"] + i) % p for i in range(p)]
        for bot in bots:
            for kind, obs in bot.seen:
                if kind == "play":
                    assert obs.seat == (obs.trick_leader + len(obs.trick)) % p
                    assert set(obs.legal) == ref.legal_cards(obs.hand, obs.trick)


# --- B7 ---------------------------------------------------------------------------

# (trick in play order, trump, winning position) - derived by hand from B7.
B7_GOLDEN = [
    ("S1 W2 W1 H13", "H", 1),  # the first Wizard played wins (W2, not W1)
    ("W4 S13 S12 S11 S10 S9", "S", 0),  # a Wizard beats every trump
    ("C5 W3 C13", "C", 1),
    ("J4 J3 H4 H12 W1", "D", 4),  # a Wizard played last still wins
    ("J1 J2 W3 S13", "S", 2),  # Wizard after Jesters
    ("J1 W1 J2 W2 H13", "H", 1),
    ("H2 S3 H13 S12", "S", 3),  # highest trump: S12 over S3; the led H13 loses
    ("D1 H1 C1", "H", 1),  # the trump 1 beats the led suit
    ("H2 D13 H11 H10", "S", 2),  # no trump played: highest heart; D13 is off-suit
    ("H2 D13 H11 H10", None, 2),  # no trump at all
    ("D7 C13 S13", None, 0),  # off-suit 13s never win
    ("J3 J1 J2 J4", "H", 0),  # only Jesters: the first Jester
    ("J3 J1 J2", None, 0),
    ("J2 D5 D9 J1", "C", 2),  # Jester led: D5 sets the led suit, D9 is highest
    ("J2 C1 D9", "C", 1),  # Jester led, the lowest trump wins
    ("J1 S1 J2", None, 1),  # Jester, then a suit card: even a 1 beats the Jesters
    ("S13 J1 J2", "H", 0),  # a suit card beats later Jesters
]


@pytest.mark.parametrize("case", B7_GOLDEN)
def test_B7_golden_tricks(case):
    """B7: the first Wizard; else the highest trump; else the highest card of the led suit; only Jesters: the
    first Jester."""
    trick, trump, winner = cards(case[0]), case[1], case[2]
    assert ref.trick_winner(trick, trump) == winner
    assert kernel_winner(trick, trump) == winner


# --- B8 ---------------------------------------------------------------------------

# (bid, tricks, score) - computed by hand from B8.
B8_GOLDEN = [(0, 0, 20), (1, 1, 30), (3, 3, 50), (20, 20, 220), (1, 0, -10), (0, 2, -20), (5, 2, -30),
             (2, 3, -10), (0, 20, -200), (15, 0, -150)]  # fmt: skip


@pytest.mark.parametrize("case", B8_GOLDEN)
def test_B8_score_formula(case):
    """B8: bid == tricks: 20 + 10 x tricks; otherwise -10 x |bid - tricks|."""
    bid, tricks, expected = case
    assert ref.score(bid, tricks) == int(rules.score(DEFAULT.scoring, bid, tricks)) == expected


def test_B8_scores_in_played_rounds():
    """B8: every compiled round's scores follow the formula; exact and missed bids both occur."""
    rows = GAME.run(wizard_rules(4, cards=4), GAME.lineup("random,heuristic,random,heuristic"), 2, 0, 20000,
                    False).rows()  # fmt: skip
    bid, won, points = (rows[k].astype(np.int64) for k in ("bid", "tricks", "score"))
    assert (points == np.where(bid == won, 20 + 10 * won, -10 * np.abs(bid - won))).all()
    assert (bid == won).sum() > 1000 and (bid != won).sum() > 1000
    assert (seat_rows(rows, 4, "tricks").sum(axis=1) == 4).all()


# A complete 3-player, 3-card round written by hand: trump hearts, dealer seat 2, so seat 0 leads.
GOLDEN_HANDS = ["H13 S2 J1", "W1 S12 D5", "H3 S7 C9"]
GOLDEN_TRICKS = [
    (0, "S2 S12 S7", 1),  # spades led; seats 1 and 2 must follow (seat 1 could play W1); S12 highest
    (1, "D5 H3 J1", 2),  # seat 2 void in diamonds trumps; seat 0 void plays the Jester
    (2, "C9 H13 W1", 1),  # the Wizard beats the trump 13
]


def test_B6_B7_B8_golden_hand_written_round():
    """B6-B8 on a round written by hand: legal plays, winners, leaders, tricks won and scores."""
    hands = [set(cards(h)) for h in GOLDEN_HANDS]
    won, leader = [0, 0, 0], 0
    for lead, text, winner in GOLDEN_TRICKS:
        assert lead == leader
        trick = cards(text)
        for i, card in enumerate(trick):
            seat = (lead + i) % 3
            legal = ref.legal_cards(hands[seat], trick[:i])
            assert card in legal and kernel_legal(hands[seat], trick[:i]) == legal
            hands[seat].remove(card)
        assert (lead + ref.trick_winner(trick, "H")) % 3 == winner
        assert (lead + kernel_winner(trick, "H")) % 3 == winner
        won[winner] += 1
        leader = winner
    assert won == [0, 2, 1]
    assert ref.legal_cards(cards("W1 S12 D5"), ["S2"]) == {"W1", "S12"}  # trick 1: seat 1's choice
    bids = [1, 2, 0]
    assert [ref.score(b, w) for b, w in zip(bids, won, strict=True)] == [-10, 40, -10]
    assert [int(rules.score(DEFAULT.scoring, b, w)) for b, w in zip(bids, won, strict=True)] == [-10, 40, -10]


# --- B9 ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_B9_highest_total_wins_ties_share(players):
    """B9: the highest total after the last round wins; k players tied for it get 1/k each (Batch game_win)."""
    r = wizard_rules(players)
    games = 4000
    rows = GAME.run(r, GAME.lineup("random", r), 31, 0, games, games=True).rows()
    rounds = STANDARD_ROUNDS[players]
    points = seat_rows(rows, players, "score").reshape(games, rounds, players)
    totals = points.sum(axis=1)
    game_total = rows["game_total"].reshape(games, rounds, players)
    game_win = rows["game_win"].reshape(games, rounds, players)
    assert (game_total == totals[:, None, :]).all()
    best = totals == totals.max(axis=1, keepdims=True)
    share = best / best.sum(axis=1, keepdims=True)
    assert np.allclose(game_win, share[:, None, :])
    assert np.allclose(game_win[:, 0].sum(axis=1), 1.0)
    tied = best.sum(axis=1) > 1
    assert tied.sum() > 20 and (~tied).sum() > 1000  # both shared and sole wins occurred
    assert ((game_win[:, 0] == 0.5) & tied[:, None]).any()


# --- B10 --------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_B10_schedules_card_counts(players):
    """B10: standard 1..60/p; five_rounds 5 rounds of 60/p cards (all 60 dealt); tournament as listed."""
    expected = {
        "standard": list(range(1, 60 // players + 1)),
        "five_rounds": [60 // players] * 5,
        "tournament": TOURNAMENT[players],
    }
    assert len(expected["standard"]) == STANDARD_ROUNDS[players]
    assert len(expected["tournament"]) == 10
    assert wizard_rules(players).schedule == "standard"
    for schedule, counts in expected.items():
        assert list(wizard_rules(players, schedule=schedule).schedule_cards()) == counts
    assert all(n * players == 60 for n in expected["five_rounds"])


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("schedule", ["standard", "five_rounds", "tournament"])
def test_B10_games_played_follow_the_schedule(players, schedule):
    """B10: the compiled games deal the schedule's cards round by round, each round has that many tricks; in
    five_rounds nothing is turned and the trumps are C D H S none."""
    r = wizard_rules(players, schedule=schedule)
    counts = list(r.schedule_cards())
    games = 200
    rows = GAME.run(r, alternating(players), 3, 0, games, games=True).rows()
    per_round = round_rows(rows, players, "cards").reshape(games, -1)
    assert per_round.shape[1] == len(counts)
    assert (per_round == np.array(counts)).all()
    assert (round_rows(rows, players, "round").reshape(games, -1) == np.arange(len(counts))).all()
    assert (seat_rows(rows, players, "tricks").sum(axis=1) == round_rows(rows, players, "cards")).all()
    turned, trump = round_rows(rows, players, "trump_card"), round_rows(rows, players, "trump")
    if schedule == "five_rounds":
        assert (turned == -1).all()
        assert (trump.reshape(games, 5) == [ref.suit_index(s) for s in FIVE_ROUNDS_TRUMPS]).all()
        for rnd, fixed in enumerate(FIVE_ROUNDS_TRUMPS):
            record = GAME.replay(r, GAME.lineup("random", r), 3, rnd, 1)
            assert sorted(c for h in record["hands"] for c in h) == sorted(ref.DECK)  # all 60 cards dealt
            check_replay(record, fixed_trump=fixed)
    else:
        partial = round_rows(rows, players, "cards") * players < 60
        assert (turned[partial] >= 0).all() and (turned[~partial] == -1).all()


# --- the kernels against the reference on random states ---------------------------


def weighted_orders(gen, n: int):
    """Per row, the 60 cards in a random order biased towards Wizards and Jesters (Efraimidis-Spirakis keys):
    profiles uniform, all specials x6, Jesters x40, Wizards x20."""
    weights = np.ones((4, 60))
    weights[1, 52:] = 6
    weights[2, 56:] = 40
    weights[3, 52:56] = 20
    profile = gen.integers(0, 4, n)
    keys = gen.exponential(size=(n, 60)) / weights[profile]
    return np.argsort(keys, axis=1)


def legal_case(hand, trick) -> str:
    """Which part of B6 applies (for coverage counts)."""
    if not trick:
        return "lead"
    if not ref.led_decided(trick):
        return "only_jesters"
    led = ref.led_suit(trick)
    if led is None:
        return "wizard_led" if not ref.is_jester(trick[0]) else "wizard_after_jesters"
    held = [c for c in hand if ref.suit(c) == led]
    if not held:
        return "void"
    return "follow_with_specials" if any(ref.suit(c) is None for c in hand) else "follow"


def test_B6_kernel_matches_reference_on_random_states():
    """B6: rules.legal_mask(hand, led) equals the reference on 24000 random hands and partial tricks (led from
    rules.led_after and from the reference, which agree); every case occurs at least 300 times."""
    gen = np.random.default_rng(6006)
    n = 24000
    orders = weighted_orders(gen, n).tolist()
    sizes, hand_sizes = gen.integers(0, 6, n).tolist(), gen.integers(1, 21, n).tolist()
    seen = dict.fromkeys(["lead", "only_jesters", "wizard_led", "wizard_after_jesters", "void", "follow",
                          "follow_with_specials"], 0)  # fmt: skip
    for order, k, h in zip(orders, sizes, hand_sizes, strict=True):
        trick, hand = [ref.DECK[c] for c in order[:k]], [ref.DECK[c] for c in order[k : k + h]]
        led, decided = kernel_led(trick)
        assert (led, decided) == (ref.suit_index(ref.led_suit(trick)), ref.led_decided(trick)), trick
        expected = ref.legal_cards(hand, trick)
        assert expected and expected <= set(hand)
        got = ref.names_of_mask(rules.legal_mask(np.uint64(ref.mask_of(hand)), led))
        assert got == expected, (hand, trick)
        seen[legal_case(hand, trick)] += 1
    assert min(seen.values()) >= 300, seen


def winner_case(trick, trump) -> str:
    """Which part of B7 decides (for coverage counts)."""
    wizards = sum(ref.is_wizard(c) for c in trick)
    if wizards:
        first = next(c for c in trick if not ref.is_jester(c))
        if ref.is_jester(trick[0]) and ref.is_wizard(first):
            return "wizard_after_jesters"
        return "several_wizards" if wizards > 1 else "wizard"
    if not ref.led_decided(trick):
        return "all_jesters"
    if trump is not None and any(ref.suit(c) == trump for c in trick):
        return "trump"
    if ref.is_jester(trick[0]):
        return "jester_led_then_suit"
    return "led_suit_no_trump" if trump is None else "led_suit"


def test_B7_kernel_matches_reference_on_random_tricks():
    """B7: the state machine's trick winner equals the reference on 24000 random full tricks of 3-6 cards with
    random trump (none = -1 included), biased towards Wizards and Jesters; every case occurs at least 300 times."""
    gen = np.random.default_rng(7007)
    n = 24000
    orders = weighted_orders(gen, n).tolist()
    sizes = gen.integers(3, 7, n).tolist()
    trump_modes, suits, picks = gen.integers(0, 3, n).tolist(), gen.integers(0, 4, n).tolist(), \
        gen.integers(0, 6, n).tolist()  # fmt: skip
    seen = dict.fromkeys(["wizard", "several_wizards", "wizard_after_jesters", "all_jesters", "trump",
                          "jester_led_then_suit", "led_suit", "led_suit_no_trump"], 0)  # fmt: skip
    for order, size, mode, s, pick in zip(orders, sizes, trump_modes, suits, picks, strict=True):
        trick = [ref.DECK[c] for c in order[:size]]
        trump = None if mode == 0 else SUITS[s]
        if mode == 2 and ref.suit(trick[pick % size]):  # often a trump in the trick
            trump = ref.suit(trick[pick % size])
        expected = ref.trick_winner(trick, trump)
        assert kernel_winner(trick, trump) == expected, (trick, trump)
        seen[winner_case(trick, trump)] += 1
    assert min(seen.values()) >= 300, seen


# --- properties of played rounds ------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    rnd=st.integers(0, 10**6),
    players=st.integers(3, 6),
    size=st.integers(1, 20),
    bots=st.lists(st.sampled_from(["random", "heuristic", "py"]), min_size=6, max_size=6),
    bidding=st.sampled_from(["open", "hidden", "secret", "open_pm1"]),
)
def test_property_played_round_follows_the_rules(seed, rnd, players, size, bots, bidding):
    """B3-B8 on replayed single rounds of any size: each card at most once, r tricks, tricks won sum to r, every
    card played from the hand and legal under the reference (legal set never empty), winners and scores."""
    cards_ = min(size, 60 // players)
    pm1 = bidding == "open_pm1"
    r = wizard_rules(players, cards=cards_, bidding="open" if pm1 else bidding, plus_minus_one=pm1)
    lu = lineup(*(PyRandomBot() if b == "py" else b for b in bots[:players]))
    check_replay(GAME.replay(r, lu, seed, rnd, None), plus_minus_one=pm1)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    game_no=st.integers(0, 10**6),
    players=st.integers(3, 6),
    schedule=st.sampled_from(["standard", "five_rounds", "tournament"]),
    rnd=st.integers(0, 19),
    bot=st.sampled_from(["random", "heuristic"]),
)
def test_property_game_round_follows_the_rules(seed, game_no, players, schedule, rnd, bot):
    """B3, B4, B10 on replayed rounds of games: the schedule's cards, its fixed trumps, legal play, B7, B8."""
    r = wizard_rules(players, schedule=schedule)
    counts = r.schedule_cards()
    rnd %= len(counts)
    record = GAME.replay(r, GAME.lineup(bot, r), seed, rnd, game_no)
    assert record["cards"] == counts[rnd]
    check_replay(record, fixed_trump=FIVE_ROUNDS_TRUMPS[rnd] if schedule == "five_rounds" else False)


# --- determinism and the two drivers ---------------------------------------------


def test_D3_same_parquet_with_one_and_two_threads(tmp_path):
    """D3: the same seed gives the same Wizard rows, bit for bit, with 1 or 2 threads (rounds and games)."""
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    for kwargs in ({"rounds": 3000}, {"games": 300}):
        for threads, path in ((1, one), (2, two)):
            simulate("wizard", "random,heuristic,random", players=3, seed=11, threads=threads, out=path, force=True,
                     rules={"plus_minus_one": True}, **kwargs)  # fmt: skip
        a, b = pq.read_table(one), pq.read_table(two)
        assert a.num_rows == (3000 if "rounds" in kwargs else 300 * 20) * 3
        assert a.equals(b)


@pytest.mark.parametrize(
    "players, options",
    [(3, {}), (4, {"plus_minus_one": True}), (5, {"schedule": "tournament", "bidding": "secret"}),
     (6, {"schedule": "five_rounds", "cards": 7})],
)  # fmt: skip
@pytest.mark.parametrize("games", [False, True])
def test_D3_compiled_and_python_drivers_agree(players, options, games):
    """D3/B2-B10: the compiled batch kernel and the plain-Python driver give identical rows for built-in bots."""
    r = wizard_rules(players, **options)
    lu = alternating(players)
    start, count = (1000, 12) if games else (500, 150)
    fast = GAME.run(r, lu, 2**63 + players, start, count, games).rows()
    slow = GAME.run(r, lu, 2**63 + players, start, count, games, engine="python").rows()
    assert fast.keys() == slow.keys()
    for key in fast:
        assert fast[key].dtype == slow[key].dtype, key
        assert np.array_equal(fast[key], slow[key]), key


# --- bad input (D1, D2) -------------------------------------------------------------


@pytest.mark.parametrize(
    "settings_, players, match",
    [
        ({"trumps": "none"}, None, r"wizard has no rule 'trumps'; its rules are: players, bidding"),
        ({"schedule": "weird"}, None, r"schedule='weird' is not allowed: use one of standard, five_rounds, tourn"),
        ({"bidding": "loud"}, None, r"bidding='loud' is not allowed: use one of open, hidden, secret"),
        ({"cards": 16}, 4, r"cards=16 is not allowed with 4 players: use 1 to 15"),
        ({"cards": 11}, 6, r"cards=11 is not allowed with 6 players: use 1 to 10"),
        ({"cards": 21}, 3, r"cards='?21'? is not allowed: use an integer from 0 to 20"),
        ({"plus_minus_one": True, "bidding": "hidden"}, None, r"plus_minus_one=True needs bidding=open"),
        ({}, 7, r"players='?7'? is not allowed"),
    ],
)
def test_D1_bad_rules_refused(settings_, players, match):
    """D1: an unknown rule or an impossible value is refused before anything runs, naming the problem."""
    with pytest.raises(CardsimError, match=match):
        GAME.make_rules(settings_, players=players)
    with pytest.raises(CardsimError, match=match):
        simulate("wizard", "random", rounds=5, rules=settings_, players=players)


class FixedBid(Recorder):
    """Bids ``fixed`` whatever it is (None included)."""

    def bid(self, obs):
        self._note("bid", obs)
        return self.fixed


@pytest.mark.parametrize("bad", [-1, 6, 2.5, "1", True, None])
def test_D2_bid_out_of_range_refused(bad):
    """B5/D2: a Python bot's bid outside the integers 0..r stops the run with an error naming bot, seed, round."""
    r = wizard_rules(4, cards=5)
    with pytest.raises(CardsimError, match=rf"bot 'FixedBid' \(seat 0\) in wizard, seed 1, round 0, bid: bid "
                                           rf"{re_repr(bad)}; allowed: an integer from 0 to 5"):  # fmt: skip
        GAME.replay(r, lineup(FixedBid(fixed=bad), "random", "random", "random"), 1, 0, None)


class IllegalCard(Recorder):
    """Plays a card of its hand that is not legal when there is one, else a card it does not hold."""

    def play(self, obs):
        illegal = [c for c in obs.hand if c not in obs.legal]
        return illegal[0] if illegal else next(c for c in ref.DECK if c not in obs.hand)


def test_D2_illegal_card_refused():
    """B6/D2: a Python bot playing a card it may not play (not following suit, or not in its hand) is stopped."""
    r = wizard_rules(4, cards=10)
    for seed in range(3):
        with pytest.raises(CardsimError, match=r"bot 'IllegalCard' \(seat 1\) in wizard, seed \d, round 4, trick "
                                               r"\d+, card \d: played \w+, which is not legal; legal: "):  # fmt: skip
            GAME.replay(r, lineup("random", IllegalCard(), "random", "random"), seed, 4, None)


class NamedTrump(Recorder):
    pass


@pytest.mark.parametrize("bad", ["N", "none", None, 0, "Hearts"])
def test_D2_invalid_trump_refused(bad):
    """B4/D2: a dealer naming something other than a suit S H D C (no trump included) is stopped."""
    g, record = rounds_with_turned_wizard(wanted=1)[0]
    bots = ["heuristic"] * 4
    bots[record["dealer"]] = NamedTrump(trump=bad)
    expected = rf"in wizard, seed 17, .*trump: named {re_repr(bad)}; allowed: one of S, H, D, C"
    with pytest.raises(CardsimError, match=expected):
        GAME.replay(DEFAULT, lineup(*bots), 17, 0, g)


# --- regressions: bugs found while writing these tests ----------------------------


@pytest.mark.parametrize("bad", ["", "HD", "SHDC"])
def test_B4_a_trump_answer_must_be_one_suit_letter(bad):
    """B4/D2: a dealer's trump answer must be one suit letter. The check was once a substring test on "SHDC", so
    "" and "SHDC" became spades and "HD" hearts; ``Game.action_code`` now looks the answer up among the four
    letters."""
    g, record = rounds_with_turned_wizard(wanted=1)[0]
    bots = ["heuristic"] * 4
    bots[record["dealer"]] = NamedTrump(trump=bad)
    with pytest.raises(CardsimError, match=rf"trump: named {re_repr(bad)}; allowed: one of S, H, D, C"):
        GAME.replay(DEFAULT, lineup(*bots), 17, 0, g)


def test_D2_an_error_in_round_0_of_a_game_names_the_game():
    """D2: an error names the round so it can be replayed. ``Seat.error`` once wrote "round {unit}" whenever the
    round in the game was 0, so an illegal bid in round 0 of game 3 read "seed 5, round 3", the text of single
    round 3 (15 cards, not 1); it now writes "game 3, round 0" for every round of a game."""
    r = DEFAULT
    with pytest.raises(CardsimError) as single:
        GAME.replay(r, lineup(FixedBid(fixed=99), "random", "random", "random"), 5, 3, None)
    with pytest.raises(CardsimError) as in_game:
        GAME.replay(r, lineup(FixedBid(fixed=99), "random", "random", "random"), 5, 0, 3)
    assert "seed 5, round 3, bid: " in str(single.value) and "allowed: an integer from 0 to 15" in str(single.value)
    assert "seed 5, game 3, round 0, bid: " in str(in_game.value), str(in_game.value)
    assert "allowed: an integer from 0 to 1" in str(in_game.value)


def test_cards_with_games_and_schedule_with_single_rounds_are_refused_not_echoed(capsys):
    """Issue 13.12: ``--cards K`` with ``--games`` was ignored (games follow the schedule) but echoed as cards=K in
    the printed rules, the rows and config.json; likewise ``schedule`` in single rounds. Every entry refuses it."""
    from cardsim import new_game, new_round, replay, runner, simulate
    from cardsim.cli import main

    games_refusal, rounds_refusal = "wizard rule cards=5 (--cards) sets single rounds", "rule schedule=tournament sets"
    with pytest.raises(CardsimError, match=re.escape(games_refusal)):
        simulate("wizard", "random", games=3, rules={"cards": 5})
    with pytest.raises(CardsimError, match=rounds_refusal):
        simulate("wizard", "random", rounds=3, rules={"schedule": "tournament"})
    with pytest.raises(CardsimError, match=re.escape(games_refusal)):
        runner.experiment("wizard", "random", games=3, rules={"cards": 5})
    with pytest.raises(CardsimError, match=re.escape(games_refusal)):
        replay("wizard", seed=1, round=0, game_no=0, rules={"cards": 5})
    with pytest.raises(CardsimError, match=rounds_refusal):
        new_round("wizard", rules={"schedule": "tournament"})
    with pytest.raises(CardsimError, match=re.escape(games_refusal)):
        new_game("wizard", rules={"cards": 5})
    assert main(["simulate", "wizard", "--games", "3", "--cards", "5"]) == 2
    assert games_refusal in capsys.readouterr().err
    assert len(simulate("wizard", "random", games=2, rules={"schedule": "tournament"}, keep_rows=True).rows) > 0
