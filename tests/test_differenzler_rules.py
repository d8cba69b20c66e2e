"""Differenzler rules A1-A13 (RULES.md section A), checked against a plain-Python reference and jass-kit.

Cards are written in RULES.md E1 notation (``SA``, ``HT``); trump suits as letters S H D C.
``reference_differenzler`` is an independent re-statement of A3, A4, A8-A11 and A13.
"""

from __future__ import annotations

import numpy as np
import pytest
import reference_differenzler as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from jass.game.const import card_ids as jass_card_ids
from jass.game.rule_schieber import RuleSchieber

from cardsim import new_game, new_round
from cardsim.cards import JASS36
from cardsim.cli import main
from cardsim.errors import CardsimError
from cardsim.games.differenzler import rules, state
from cardsim.games.differenzler.game import GAME
from cardsim.lineup import Lineup, make_lineup

SUITS = "SHDC"
DEFAULT = GAME.make_rules()


# --- helpers ------------------------------------------------------------------


def cards(text: str) -> list[str]:
    """Canonical names of a space-separated card list (parsed by the library, RULES.md E)."""
    return [JASS36.name_of(c) for c in JASS36.parse_many(text)]


def kernel_legal(hand, trick, trump: str) -> set[str]:
    """rules.legal_mask on a state given by names, with the arguments the drivers pass (play.py)."""
    t = SUITS.index(trump)
    led = ref.index(trick[0]) // 9 if trick else -1
    top = max((int(rules.trump_level(ref.index(c), t)) for c in trick), default=-1)
    return ref.names_of_mask(rules.legal_mask(np.uint64(ref.mask_of(hand)), led, t, top))


def kernel_trick(trick, trump: str, last: bool = False) -> tuple[int, int]:
    """(winning position, points it takes) of a full trick played through the state machine's card step
    (``state.step``, which ``state.apply`` and the batch loops call): seat i plays card i, as the 9th trick if
    ``last``. (``rules.trick_winner`` is called by no driver.)"""
    hands = np.array([1 << ref.index(c) for c in trick], np.uint64)
    history, points, t = np.zeros((9, 6), np.int64), np.zeros(4, np.int64), 8 if last else 0
    regs = (t, 0, 0, -1, -1, -1, 0, 0)  # trick, position, leader, led, top key, top trump, winner, points so far
    for card in trick:
        regs = state.step(ref.index(card), SUITS.index(trump), hands, history, points, *regs)
    winner = int(history[t, 1])
    assert regs[:3] == (t + 1, 0, winner) and not hands.any()  # the next trick, led by the winner
    return winner, int(points[winner])


def kernel_winner(trick, trump: str) -> int:
    return kernel_trick(trick, trump)[0]


def kernel_points(trick, trump: str, last: bool) -> int:
    """The points the state machine gives the trick's winner; the replay record's (``record_points``) agree."""
    won = kernel_trick(trick, trump, last)[1]
    assert record_points(trick, trump, last) == won
    return won


def record_points(trick, trump: str, last: bool) -> int:
    """A trick's points as the replay record shows them (``rules.trick_points``)."""
    return int(rules.trick_points(np.array([ref.index(c) for c in trick], np.int64), SUITS.index(trump), last))


def lineup(*bots) -> Lineup:
    """A lineup of built-in bot names and/or Python bot objects."""
    return make_lineup(list(bots), GAME.name, len(bots), GAME.builtin_bots, GAME.decisions, GAME.bot_settings)


class RecordingBot:
    """A Python bot that predicts a fixed number, plays a random legal card and keeps every Observation."""

    def __init__(self, prediction: int = 40, log: list | None = None):
        self.prediction = prediction
        self.log = [] if log is None else log  # shared between bots to see the order of decisions
        self.seen = []

    def predict(self, obs):
        self.seen.append(("predict", obs))
        self.log.append(("predict", obs.seat))
        return self.prediction

    def play(self, obs):
        self.seen.append(("play", obs))
        self.log.append(("play", obs.seat))
        return obs.rng.choice(obs.legal)


class FixedPrediction:
    def __init__(self, prediction):
        self.prediction = prediction

    def predict(self, obs):
        return self.prediction

    def play(self, obs):
        return obs.legal[0]


def check_replay(record: dict) -> None:
    """Re-derive a replayed round with the reference: legality (A8), winners (A9), points and penalties (A4, A10,
    A12, A13)."""
    trump = record["trump"]
    hands = [set(h) for h in record["hands"]]
    assert sorted(c for h in hands for c in h) == sorted(ref.DECK)  # A5: the whole deck is dealt
    assert all(len(h) == 9 for h in hands)
    points = [0, 0, 0, 0]
    leader = record["first_hand"]
    played = []
    for t, trick in enumerate(record["tricks"]):
        assert trick["leader"] == leader  # A6: First Hand leads, then the winner of the last trick
        for i, card in enumerate(trick["cards"]):
            seat = (leader + i) % 4  # A6: play order
            legal = ref.legal_cards(hands[seat], trick["cards"][:i], trump)
            assert legal and legal <= hands[seat]
            assert card in legal, (t, i, card, sorted(legal))
            assert kernel_legal(hands[seat], trick["cards"][:i], trump) == legal
            hands[seat].remove(card)
            played.append(card)
        winner = (leader + ref.trick_winner(trick["cards"], trump)) % 4
        won = ref.trick_points(trick["cards"], trump, t == 8)
        assert (trick["winner"], trick["points"]) == (winner, won)
        points[winner] += won
        leader = winner
    assert len(record["tricks"]) == 9
    assert sorted(played) == sorted(ref.DECK)  # every card played exactly once
    assert record["points"] == points
    assert sum(points) == 157
    won = [sum(trick["winner"] == seat for trick in record["tricks"]) for seat in range(4)]
    bonus, zero_bonus = int(record["rules"]["exact_bonus"]), record["rules"]["zero_bonus"]
    expected = zip(record["predictions"], points, won, strict=True)
    assert record["penalties"] == [ref.penalty(p, q, w, bonus, zero_bonus) for p, q, w in expected]


def per_game(rows: dict, max_rounds: int) -> dict:
    """Games-mode rows (one per game, round, seat) as arrays [game, round(, seat)], padded after the last round."""
    game = rows["game_no"] - rows["game_no"][0]
    count = int(game[-1]) + 1
    assert (np.diff(rows["game_no"]) >= 0).all() and (rows["seat"] == np.tile(np.arange(4), game.size // 4)).all()
    rounds = np.bincount(game, minlength=count) // 4
    rnd = rows["round"][::4]
    assert (rnd == np.concatenate([np.arange(n) for n in rounds])).all()  # rounds 0, 1, ... of each game
    g = game[::4]
    out = {"rounds": rounds, "first_hand": np.full((count, max_rounds), -1, np.int64)}
    out["first_hand"][g, rnd] = rows["first_hand"][::4]
    for key in ("penalty", "points"):
        out[key] = np.zeros((count, max_rounds, 4), np.int64)
        out[key][g, rnd] = rows[key].reshape(-1, 4)
    for key in ("game_total", "game_win"):
        out[key] = rows[key].reshape(-1, 4)[np.searchsorted(g, np.arange(count))]
        assert (rows[key].reshape(-1, 4) == out[key][g]).all()  # the same on every round of a game
    return out


def lowest_tied(totals) -> np.ndarray:
    """Per row of totals [..., seat]: is the lowest total shared?"""
    return (totals == totals.min(axis=-1, keepdims=True)).sum(axis=-1) > 1


# --- A1 - A5 -------------------------------------------------------------------


def test_A1_deck_has_36_cards():
    """A1: 36 cards, 4 suits x 9 ranks 6 7 8 9 10 J Q K A."""
    assert JASS36.size == 36
    names = [JASS36.name_of(c) for c in range(36)]
    assert len(set(names)) == 36
    assert set(names) == set(ref.DECK)
    for s in SUITS:
        assert sorted(n[1] for n in names if n[0] == s) == sorted("6789TJQKA")
    assert [JASS36.parse(n) for n in names] == list(range(36))
    assert JASS36.parse("h10") == JASS36.parse("HT") and JASS36.parse("♥10") == JASS36.parse("HT")


def test_A2_exactly_four_players():
    """A2: exactly 4 players, seats 0-3, each alone (four separate scores)."""
    assert rules.PLAYERS == 4 and GAME.players == (4,)
    with pytest.raises(CardsimError):
        GAME.lineup("random,random,random")
    with pytest.raises(CardsimError, match="differenzler is played by 4 players, not 5"):
        GAME.make_rules(players=5)
    record = GAME.replay(DEFAULT, GAME.lineup("random"), 3, 0, None)
    assert len(record["hands"]) == len(record["points"]) == len(record["penalties"]) == 4


PLAIN_HIGH_TO_LOW = ["A", "K", "Q", "J", "T", "9", "8", "7", "6"]
TRUMP_HIGH_TO_LOW = ["J", "9", "A", "K", "Q", "T", "8", "7", "6"]


def test_A3_plain_order():
    """A3: plain suit order high to low A K Q J 10 9 8 7 6 (the higher led-suit card takes the trick)."""
    for i, high in enumerate(PLAIN_HIGH_TO_LOW):
        for low in PLAIN_HIGH_TO_LOW[i + 1 :]:
            for trick, pos in ((["S" + high, "S" + low, "D6", "C6"], 0), (["S" + low, "D6", "S" + high, "C6"], 2)):
                assert ref.trick_winner(trick, "H") == pos
                assert kernel_winner(trick, "H") == pos


def test_A3_trump_order_puur_and_nell():
    """A3: trump order high to low J 9 A K Q 10 8 7 6; the trump J is the Puur, the trump 9 the Nell."""
    for t, trump in enumerate(SUITS):
        by_level = sorted((trump + r for r in "6789TJQKA"), key=lambda c: -rules.trump_level(ref.index(c), t))
        assert by_level == [trump + r for r in TRUMP_HIGH_TO_LOW]
        assert rules.PUUR[t] == ref.index(trump + "J")
        assert all(rules.trump_level(c, t) == -1 for c in range(36) if c // 9 != t)
    for i, high in enumerate(TRUMP_HIGH_TO_LOW):
        for low in TRUMP_HIGH_TO_LOW[i + 1 :]:
            for trick, pos in ((["S6", "H" + high, "H" + low, "SA"], 1), (["S6", "H" + low, "SA", "H" + high], 3)):
                assert ref.trick_winner(trick, "H") == pos
                assert kernel_winner(trick, "H") == pos


PLAIN_VALUES = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0, "6": 0}
TRUMP_VALUES = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0, "6": 0}


def test_A4_card_values_sum_152_and_157_with_last_trick():
    """A4: plain A11 10:10 K4 Q3 J2, trump J20 9:14 A11 10:10 K4 Q3; sum 152; +5 for the last trick gives 157."""
    for t, trump in enumerate(SUITS):
        for card in ref.DECK:
            value = (TRUMP_VALUES if card[0] == trump else PLAIN_VALUES)[card[1]]
            assert rules.POINTS[t, ref.index(card)] == value == ref.card_points(card, trump)
        assert sum(ref.card_points(c, trump) for c in ref.DECK) == 152
        assert int(rules.POINTS[t].sum()) == 152
        tricks = [ref.DECK[4 * k : 4 * k + 4] for k in range(9)]
        assert sum(kernel_points(tr, trump, k == 8) for k, tr in enumerate(tricks)) == 157
        assert sum(ref.trick_points(tr, trump, k == 8) for k, tr in enumerate(tricks)) == 157
    assert rules.TOTAL_POINTS == 157 and rules.LAST_TRICK_BONUS == 5


def test_A5_deal_nine_each_trump_card_in_dealers_hand():
    """A5: 9 cards each; the dealer's last card (36th dealt) is shown, is in the dealer's hand, its suit is trump."""
    s, p = state.new_state(4), state.params(DEFAULT)
    hands = s.hands
    trumps = set()
    for seed in range(40):
        for unit in range(10):
            state.deal(s, p, np.uint64(seed), unit, 0, -1)
            first_hand, trump_card = s.slots[state.FIRST_HAND], s.slots[state.TRUMP_CARD]
            dealer = (first_hand - 1) % 4
            assert [len(JASS36.cards_of(int(h))) for h in hands] == [9, 9, 9, 9]
            assert sorted(c for h in hands for c in JASS36.cards_of(int(h))) == list(range(36))
            assert int(hands[dealer]) >> int(trump_card) & 1
            trumps.add(int(trump_card) // 9)
    assert trumps == {0, 1, 2, 3}
    for seed in range(20):
        record = GAME.replay(DEFAULT, GAME.lineup("heuristic"), seed, 0, None)
        assert record["trump"] == record["trump_card"][0]
        assert record["trump_card"] in record["hands"][record["dealer"]]


def test_A5_A6_deal_is_uniform():
    """A5/A6: every card is equally likely in every seat (relative to the dealer), the shown card is uniform
    over the deck, and First Hand is uniform: a chi-square check over 36,000 deals (fails at p < 1e-6)."""
    s, p = state.new_state(4), state.params(DEFAULT)
    hands = s.hands
    n = 36_000
    where = np.zeros((36, 4))
    shown = np.zeros(36)
    first = np.zeros(4)
    for unit in range(n):
        state.deal(s, p, np.uint64(99), unit, 0, -1)
        first_hand, trump_card = s.slots[state.FIRST_HAND], s.slots[state.TRUMP_CARD]
        dealer = (first_hand - 1) % 4
        for offset in range(4):
            seat_hand = int(hands[(dealer + offset) % 4])
            where[[c for c in range(36) if seat_hand >> c & 1], offset] += 1
        shown[trump_card] += 1
        first[first_hand] += 1

    def chi2_ok(counts: np.ndarray, dof: int) -> bool:
        expected = counts.sum() / counts.size
        chi2 = ((counts - expected) ** 2 / expected).sum()
        return chi2 < dof + 7 * np.sqrt(2 * dof)  # far in the tail: fails only for a real bias

    assert chi2_ok(where, 36 * 3) and chi2_ok(shown, 35) and chi2_ok(first, 3)


def test_A5_every_seat_sees_trump_card():
    """A5: all players know the trump suit and that the dealer holds the shown trump card."""
    bots = [RecordingBot() for _ in range(4)]
    record = GAME.replay(DEFAULT, lineup(*bots), 11, 2, None)
    for bot in bots:
        for _, obs in bot.seen:
            assert (obs.trump, obs.trump_card, obs.dealer) == (record["trump"], record["trump_card"], record["dealer"])


# --- A6 ------------------------------------------------------------------------


def test_A6_seat_order_dealer_and_leaders():
    """A6: seat i+1 plays after seat i; dealer = first_hand - 1; First Hand leads trick 1; the winner leads next."""
    for seed in range(30):
        record = GAME.replay(DEFAULT, GAME.lineup("random,heuristic,random,heuristic"), seed, seed, None)
        first_hand, tricks = record["first_hand"], record["tricks"]
        assert record["dealer"] == (first_hand - 1) % 4
        assert tricks[0]["leader"] == first_hand
        assert (first_hand + 3) % 4 == record["dealer"]  # the dealer plays last to the first trick
        for before, after in zip(tricks, tricks[1:], strict=False):
            assert after["leader"] == before["winner"]
    log = []
    bots = [RecordingBot(log=log) for _ in range(4)]
    record = GAME.replay(DEFAULT, lineup(*bots), 5, 0, None)
    plays = [seat for kind, seat in log if kind == "play"]
    assert len(plays) == 36
    for t, trick in enumerate(record["tricks"]):
        assert plays[4 * t : 4 * t + 4] == [(trick["leader"] + i) % 4 for i in range(4)]
    for bot in bots:
        for kind, obs in bot.seen:
            if kind == "play":
                assert obs.seat == (obs.trick_leader + len(obs.trick)) % 4


def test_A6_first_hand_random_then_rotates():
    """A6: First Hand of a game's first round is random, then passes to the next seat each round."""
    rows = GAME.run(DEFAULT, GAME.lineup("heuristic"), 21, 0, 4000, games=True).rows()
    games = per_game(rows, 14)
    first = games["first_hand"]
    rotated = (first[:, :1] + np.arange(14)) % 4
    assert (np.where(first >= 0, first, rotated) == rotated).all()
    assert games["rounds"].max() > 4  # the rotation continues into tie-break rounds
    shares = np.bincount(first[:, 0], minlength=4) / first.shape[0]
    assert ((shares > 0.2) & (shares < 0.3)).all(), shares
    lu = GAME.lineup("random")
    first = [GAME.replay(DEFAULT, lu, 8, r, 3)["first_hand"] for r in range(4)]
    assert first == [(first[0] + r) % 4 for r in range(4)]


# --- A7 ------------------------------------------------------------------------


def test_A7_predictions_are_0_to_157():
    """A7: every prediction is an integer 0..157 (the random bot reaches both ends)."""
    for bot in ("random", "heuristic"):
        pred = GAME.run(DEFAULT, GAME.lineup(bot), 4, 0, 20000, games=False).rows()["prediction"]
        assert pred.min() >= 0 and pred.max() <= 157
        if bot == "random":
            assert pred.min() == 0 and pred.max() == 157


@pytest.mark.parametrize("bad", [158, -1, 3.5, True, "40", None])
def test_A7_prediction_out_of_range_refused(bad):
    """A7 (and D2): a Python bot's prediction outside the integers 0..157 stops the run with an error."""
    with pytest.raises(CardsimError, match="prediction"):
        GAME.replay(DEFAULT, lineup(FixedPrediction(bad), "random", "random", "random"), 1, 0, None)


def test_A7_secret_predictions_hidden_until_the_end():
    """A7 secret (default): nobody sees another player's prediction, neither when predicting nor during play."""
    assert DEFAULT.predictions == "secret"
    bots = [RecordingBot(10 + seat) for seat in range(4)]
    record = GAME.replay(DEFAULT, lineup(*bots), 2, 7, None)
    assert record["predictions"] == [10, 11, 12, 13]
    for seat, bot in enumerate(bots):
        kinds = [kind for kind, _ in bot.seen]
        assert kinds == ["predict"] + ["play"] * 9
        for kind, obs in bot.seen:
            if kind == "predict":
                assert obs.predictions == [None] * 4 and obs.legal == []
            else:
                assert obs.predictions == [10 + seat if s == seat else None for s in range(4)]


def test_A7_open_predictions_announced_in_turn():
    """A7 open: First Hand predicts first and the dealer last; later players see earlier ones, all are known in play."""
    rules_open = GAME.make_rules({"predictions": "open"})
    for seed in range(4):
        log = []
        bots = [RecordingBot(20 + seat, log) for seat in range(4)]
        record = GAME.replay(rules_open, lineup(*bots), seed, 0, None)
        first_hand = record["first_hand"]
        order = [(first_hand + i) % 4 for i in range(4)]
        assert [seat for kind, seat in log if kind == "predict"] == order
        for i, seat in enumerate(order):
            kind, obs = bots[seat].seen[0]
            assert kind == "predict"
            assert obs.predictions == [20 + s if s in order[:i] else None for s in range(4)]
            for _, obs in bots[seat].seen[1:]:
                assert obs.predictions == [20, 21, 22, 23]
    # A built-in bot's earlier prediction is visible to a later Python bot too.
    bot = RecordingBot()
    for seed in range(8):
        bot.seen.clear()
        record = GAME.replay(rules_open, lineup(bot, "heuristic", "heuristic", "heuristic"), seed, 0, None)
        order = [(record["first_hand"] + i) % 4 for i in range(4)]
        before = order[: order.index(0)]
        assert bot.seen[0][1].predictions == [record["predictions"][s] if s in before else None for s in range(4)]


# --- A8 ------------------------------------------------------------------------

# (hand, cards already in the trick, trump, legal cards) - derived by hand from A8.
A8A = [
    ("SA SK H7 HJ", "", "H", "SA SK H7 HJ"),
    ("D6 CA DJ", "", "D", "D6 CA DJ"),
]
A8B_MUST_TRUMP = [
    ("SA SK H7 HJ", "HA", "H", "H7 HJ"),  # a non-Puur trump forces a trump; the Puur may be that trump
    ("SA H7", "HK S6", "H", "H7"),  # a single trump must be played
    ("SA H6 H9", "HJ", "H", "H6 H9"),  # the Puur led
    ("C6 CJ C9 DA", "C7 CK", "C", "C6 CJ C9"),  # any trump: no undertrump rule when trump is led
]
A8B_PUUR_NEVER_FORCED = [
    ("SA SK HJ D6", "HA", "H", "SA SK HJ D6"),  # the only trump is the Puur: any card
    ("HJ C6", "H6 HA H9", "H", "HJ C6"),
    ("SJ", "S6", "S", "SJ"),
]
A8B_NO_TRUMP = [
    ("SA SK D6", "H9", "H", "SA SK D6"),
    ("HA D7", "CK C6 C9", "C", "HA D7"),
]
A8C_FOLLOW_OR_TRUMP = [
    ("SA SK H7 HJ D6", "S9", "H", "SA SK H7 HJ"),  # no trump in the trick yet: any trump
    ("SA H7 HQ H9 D6", "S9 HA", "H", "SA H9"),  # H7 and HQ would undertrump the HA; the Nell is higher
    ("SK HJ HK H6", "S9 H9 HA", "H", "SK HJ"),  # compared with the highest trump (H9), not the last one
    ("S6 H6 HA", "SA H9", "H", "S6"),  # every trump would undertrump: follow suit
    ("S6 HJ", "SA HA", "H", "S6 HJ"),
    ("DT DA SJ SA C6", "D6 S7 S8", "S", "DT DA SJ SA"),  # both trumps in hand beat the highest trump, S8
]
A8D_VOID = [
    ("H7 HQ D6 C6", "S9 HA", "H", "H7 HQ D6 C6"),  # undertrumping allowed when void
    ("H6 D6", "S9 HJ", "H", "H6 D6"),
    ("H6 H7", "SK H8 S7", "H", "H6 H7"),
    ("DA CA", "S9", "H", "DA CA"),
]


def _check_golden(hand, trick, trump, expected):
    hand, trick, expected = cards(hand), cards(trick), set(cards(expected))
    assert ref.legal_cards(hand, trick, trump) == expected
    assert kernel_legal(hand, trick, trump) == expected


@pytest.mark.parametrize("case", A8A)
def test_A8a_leading_any_card(case):
    """A8 a): leading a trick, any card may be played."""
    _check_golden(*case)


@pytest.mark.parametrize("case", A8B_MUST_TRUMP)
def test_A8b_trump_led_must_trump(case):
    """A8 b): trump led, a player holding a trump other than the Puur must play a trump (Puur included)."""
    _check_golden(*case)


@pytest.mark.parametrize("case", A8B_PUUR_NEVER_FORCED)
def test_A8b_puur_never_forced(case):
    """A8 b): trump led, a player whose only trump is the Puur may play any card."""
    _check_golden(*case)


@pytest.mark.parametrize("case", A8B_NO_TRUMP)
def test_A8b_trump_led_no_trump_any_card(case):
    """A8 b): trump led, a player without trumps may play any card."""
    _check_golden(*case)


@pytest.mark.parametrize("case", A8C_FOLLOW_OR_TRUMP)
def test_A8c_follow_suit_or_trump_without_undertrumping(case):
    """A8 c): plain suit led and held: any card of it, or a trump not lower than the highest trump in the trick."""
    _check_golden(*case)


@pytest.mark.parametrize("case", A8D_VOID)
def test_A8d_void_any_card_undertrump_allowed(case):
    """A8 d): plain suit led, none held: any card, undertrumping included."""
    _check_golden(*case)


def test_A8d_differs_from_schieber():
    """A8 note: Schieber (jass-kit) forbids the undertrump of case d) that Differenzler allows."""
    hand, trick = cards("H7 HQ D6 C6"), cards("S9 HA")
    schieber = jass_valid(hand, trick, "H")
    assert schieber == {"D6", "C6"}
    assert ref.legal_cards(hand, trick, "H") == kernel_legal(hand, trick, "H") == {"H7", "HQ", "D6", "C6"}


def random_states(n: int, seed: int):
    """Random consistent A8 states: (hand, trick so far, trump), biased towards the interesting cases."""
    gen = np.random.default_rng(seed)
    perms = gen.permuted(np.tile(np.arange(36), (n, 1)), axis=1)[:, :12].tolist()
    ks, sizes, trumps, modes, picks = (gen.integers(lo, hi, n).tolist() for lo, hi in ((0, 4), (1, 10), (0, 4), (0, 5),
                                                                                        (1, 3)))  # fmt: skip
    for perm, k, size, t, mode, pick in zip(perms, ks, sizes, trumps, modes, picks, strict=True):
        trick, hand = [ref.DECK[c] for c in perm[:k]], [ref.DECK[c] for c in perm[k : k + size]]
        trump = SUITS[t]
        if mode == 1 and k:  # trump led
            trump = trick[0][0]
        elif mode == 2 and k > 1:  # a trump already in the trick
            trump = trick[min(pick, k - 1)][0]
        elif mode == 3:  # the Puur as the only trump in hand (or no trump at all, if the Puur is in the trick)
            hand = [c for c in hand if c[0] != trump] + ([trump + "J"] if trump + "J" not in trick else [])
        if hand:
            yield hand, trick, trump


def case_of(hand, trick, trump) -> str:
    """Which part of A8 applies (for coverage counts)."""
    if not trick:
        return "a"
    mine = {c for c in hand if c[0] == trump}
    if trick[0][0] == trump:
        return "b_forced" if mine - {trump + "J"} else ("b_puur_only" if mine else "b_no_trump")
    top = max((ref.trump_strength(c) for c in trick if c[0] == trump), default=None)
    lower = top is not None and any(ref.trump_strength(c) < top for c in mine)
    if any(c[0] == trick[0][0] for c in hand):
        return "c_undertrump_refused" if lower else "c"
    return "d_undertrump_allowed" if lower else "d"


def test_A8_kernel_matches_reference_on_random_states():
    """A8: rules.legal_mask equals the reference on 24000 random states (all cases a-d covered)."""
    seen = dict.fromkeys(["a", "b_forced", "b_puur_only", "b_no_trump", "c", "c_undertrump_refused", "d",
                          "d_undertrump_allowed"], 0)  # fmt: skip
    for hand, trick, trump in random_states(24000, 2024):
        expected = ref.legal_cards(hand, trick, trump)
        assert expected and expected <= set(hand)
        assert kernel_legal(hand, trick, trump) == expected, (hand, trick, trump)
        seen[case_of(hand, trick, trump)] += 1
    assert min(seen.values()) >= 300 and sum(seen.values()) >= 20000, seen


# --- jass-kit (Schieber) cross-check ---------------------------------------------

JASS_COLOR = {"D": 0, "H": 1, "S": 2, "C": 3}  # jass/game/const.py colours
JASS_OFFSET = "AKQJT9876"  # jass-kit: index = colour * 9 + offset, offsets A K Q J 10 9 8 7 6


def to_jass(card: str) -> int:
    return JASS_COLOR[card[0]] * 9 + JASS_OFFSET.index(card[1])


def from_jass(index: int) -> str:
    return "DHSC"[index // 9] + JASS_OFFSET[index % 9]


def jass_valid(hand, trick, trump: str) -> set[str]:
    one_hot = np.zeros(36, np.int32)
    one_hot[[to_jass(c) for c in hand]] = 1
    valid = RuleSchieber().get_valid_cards(one_hot, [to_jass(c) for c in trick], len(trick), JASS_COLOR[trump])
    return {from_jass(i) for i in np.flatnonzero(valid)}


def test_jass_card_mapping():
    """The JASS36 <-> jass-kit mapping agrees with jass-kit's own card names (10 written T here)."""
    for card in ref.DECK:
        assert jass_card_ids[card.replace("T", "10")] == to_jass(card)
        assert from_jass(to_jass(card)) == card
    assert sorted(to_jass(c) for c in ref.DECK) == list(range(36))


def schieber_agrees(hand, trick, trump) -> bool:
    """States where Schieber's and Differenzler's A8 coincide (see RULES.md A8 note)."""
    if not trick or trick[0][0] == trump:
        return True
    trumps_in_trick = sum(c[0] == trump for c in trick)
    holds_led = any(c[0] == trick[0][0] for c in hand)
    return trumps_in_trick == 0 or (trumps_in_trick == 1 and holds_led)


def test_A8_matches_jass_kit_schieber_where_rules_agree():
    """A8 against jass-kit's RuleSchieber.get_valid_cards on random states where Schieber and Differenzler agree."""
    compared = 0
    for hand, trick, trump in random_states(9000, 77):
        if not schieber_agrees(hand, trick, trump) or not trick:
            continue
        expected = jass_valid(hand, trick, trump)
        assert ref.legal_cards(hand, trick, trump) == expected, (hand, trick, trump)
        assert kernel_legal(hand, trick, trump) == expected, (hand, trick, trump)
        compared += 1
    assert compared >= 4000


# --- A9 ------------------------------------------------------------------------

# (trick in play order, trump, winning position, points) - derived by hand from A3, A4, A9.
A9_GOLDEN = [
    ("SA SK S6 DA", "H", 0, 11 + 4 + 0 + 11),  # no trump: highest spade
    ("S6 SA H6 DA", "H", 2, 0 + 11 + 0 + 11),  # the lowest trump beats the led ace
    ("S6 H9 HJ HA", "H", 2, 0 + 14 + 20 + 11),  # Puur over Nell over ace
    ("H6 H9 HA HK", "H", 1, 0 + 14 + 11 + 4),  # Nell over trump ace
    ("D7 SA CA D8", "H", 3, 0 + 11 + 11 + 0),  # off-suit aces never win
    ("SJ ST SQ S9", "H", 2, 2 + 10 + 3 + 0),  # plain Q > J > 10 > 9
    ("HT HQ HK H8", "H", 2, 10 + 3 + 4 + 0),  # trump K > Q > 10 > 8
    ("C9 H7 H6 CA", "H", 1, 0 + 0 + 0 + 11),
    ("DK HQ SA HT", "H", 1, 4 + 3 + 11 + 10),  # trump Q over trump 10
    ("D9 DJ DA D6", "D", 1, 14 + 20 + 11 + 0),
    ("SJ S9 SA ST", "H", 2, 2 + 0 + 11 + 10),  # a plain J and 9 are ordinary cards
]


@pytest.mark.parametrize("case", A9_GOLDEN)
def test_A9_golden_tricks(case):
    """A9: the highest trump wins; without a trump the highest card of the led suit wins (A4 points)."""
    text, trump, winner, points = case
    trick = cards(text)
    assert ref.trick_winner(trick, trump) == kernel_winner(trick, trump) == winner
    assert ref.trick_points(trick, trump, False) == kernel_points(trick, trump, False) == points
    assert ref.trick_points(trick, trump, True) == kernel_points(trick, trump, True) == points + 5


def test_A9_A4_kernel_matches_reference_and_jass_kit_on_random_tricks():
    """A9/A4: the state machine's winner and points of a trick equal the reference (and jass-kit, same in
    Schieber)."""
    gen = np.random.default_rng(99)
    schieber = RuleSchieber()
    for n in range(20000):
        trick = [ref.DECK[c] for c in gen.choice(36, 4, replace=False)]
        trump = SUITS[int(gen.integers(4))] if n % 3 else trick[int(gen.integers(4))][0]
        last = bool(n % 2)
        winner = ref.trick_winner(trick, trump)
        won = ref.trick_points(trick, trump, last)
        assert kernel_trick(trick, trump, last) == (winner, won), (trick, trump)
        assert record_points(trick, trump, last) == won
        if n % 4 == 0:
            jt = np.array([to_jass(c) for c in trick])
            assert (-schieber.calc_winner(jt, 0, JASS_COLOR[trump])) % 4 == winner  # jass seats go the other way
            assert schieber.calc_points(jt, last, JASS_COLOR[trump]) == ref.trick_points(trick, trump, last)


# --- A10 -----------------------------------------------------------------------


def test_A10_penalty_kernel():
    """A10: penalty = |prediction - points|; exact_bonus is taken off an exact prediction, but not for 0."""
    cases = [(50, 47, 0, 3), (47, 50, 0, 3), (50, 50, 0, 0), (50, 50, 10, -10), (157, 157, 10, -10),
             (0, 0, 10, 0), (0, 5, 10, 5), (0, 157, 0, 157)]  # (prediction, points, exact_bonus, penalty); no bonus
    # for an exact 0 under the default zero_bonus, whether or not the seat won a trick (A13)
    for took in (False, True):
        for prediction, points, bonus, expected in cases:
            assert rules.penalty(prediction, points, took, bonus, rules.NEVER) == expected
    assert DEFAULT.exact_bonus == 0 and rules.ZERO_BONUS[rules.NEVER] == DEFAULT.zero_bonus


@pytest.mark.parametrize("bonus", [0, 10])
def test_A10_penalty_in_played_rounds(bonus):
    """A10: every played round scores |prediction - points|, less exact_bonus for an exact prediction above 0."""
    r = GAME.make_rules({"exact_bonus": bonus})
    rows = GAME.run(r, GAME.lineup("random"), 13, 0, 20000, games=False).rows()
    pred, pts, pen = (rows[k].astype(np.int64) for k in ("prediction", "points", "penalty"))
    exact = pred == pts
    assert (pen == np.where(exact & (pred > 0), -bonus, np.abs(pred - pts))).all()
    assert (exact & (pred > 0)).sum() > 0 and (exact & (pred == 0)).sum() > 0  # both cases occurred
    assert (pen[exact & (pred == 0)] == 0).all()


# --- A11 -----------------------------------------------------------------------


def test_A11_game_over_kernel():
    """A11: 4 rounds, then tie-break rounds while the lowest total is tied, at most max_tiebreak_rounds of them."""
    go = lambda totals, played, cap=10: bool(rules.game_over(np.array(totals, np.int64), played, 4, cap))
    assert not go([5, 3, 4, 9], 3)  # fewer than 4 rounds
    assert go([5, 3, 4, 9], 4)  # unique lowest total after 4 rounds
    assert not go([5, 3, 3, 9], 4)  # tie for the lowest: play on
    assert go([3, 5, 5, 9], 4)  # a tie that is not for the lowest does not matter
    assert not go([3, 3, 3, 3], 13)
    assert go([3, 3, 3, 3], 14)  # 4 + 10 rounds: the tie stands
    assert go([3, 3, 7, 8], 4, 0)
    assert not go([3, 3, 7, 8], 4, 1) and go([3, 3, 7, 8], 5, 1)
    assert go([2, 3, 3, 8], 6)
    assert DEFAULT.max_tiebreak_rounds == 10 and rules.ROUNDS_PER_GAME == 4


@pytest.mark.parametrize("cap", [10, 1, 0])
def test_A11_whole_games_and_tiebreaks(cap):
    """A11: >= 4 rounds per game; a longer game was tied for the lowest total after every round from the 4th on;
    it ends with a unique lowest total or after 4 + max_tiebreak_rounds rounds, a tie then being a shared win."""
    r = GAME.make_rules({"max_tiebreak_rounds": cap})
    g = per_game(GAME.run(r, GAME.lineup("heuristic"), 5, 0, 20000, games=True).rows(), 4 + cap)
    rounds = g["rounds"]
    assert rounds.size == 20000 and rounds.min() >= 4 and rounds.max() <= 4 + cap
    totals = g["penalty"].cumsum(axis=1)  # totals[:, k]: after k + 1 rounds
    tied = lowest_tied(totals)  # [game, round]
    for k in range(4, 4 + cap):  # a game that played round k + 1 was tied after round k
        assert tied[rounds > k, k - 1].all()
    final = totals[np.arange(rounds.size), rounds - 1]
    final_tied = tied[np.arange(rounds.size), rounds - 1]
    assert (~final_tied | (rounds == 4 + cap)).all()
    assert (g["game_total"] == final).all()
    best = final == final.min(axis=1, keepdims=True)
    assert np.allclose(g["game_win"], best / best.sum(axis=1, keepdims=True))
    if cap:
        assert (rounds > 4).sum() > 0
    if cap <= 1:
        assert final_tied.sum() > 0  # a tie still standing after the last allowed round: a shared win


# --- A12 -----------------------------------------------------------------------


@pytest.mark.parametrize("bots", ["random", "heuristic", "heuristic,random,random,heuristic"])
def test_A12_every_round_distributes_exactly_157(bots):
    """A12: no Weis, no Stoeck, no match bonus - the points of every round sum to exactly 157."""
    lu = GAME.lineup(bots)
    rows = GAME.run(DEFAULT, lu, 6, 0, 20000, games=False).rows()
    assert (rows["points"].astype(np.int64).reshape(-1, 4).sum(axis=1) == 157).all()
    assert rows["points"].min() >= 0
    rows = GAME.run(DEFAULT, lu, 6, 0, 2000, games=True).rows()
    assert (rows["points"].astype(np.int64).reshape(-1, 4).sum(axis=1) == 157).all()


def test_A12_stoeck_and_weis_score_nothing():
    """A12: a seat holding trump K and Q (Stoeck) or a run (Weis) scores only the tricks it won."""
    stoeck = 0
    for seed in range(60):
        record = GAME.replay(DEFAULT, GAME.lineup("random"), seed, 1, None)
        check_replay(record)  # points = card values of tricks won, +5 for the last
        stoeck += any({record["trump"] + "K", record["trump"] + "Q"} <= set(h) for h in record["hands"])
    assert stoeck > 0


# --- A13 -----------------------------------------------------------------------


def test_A13_defaults_are_the_rules_above():
    """A13: by default a game has 4 rounds before the tie-break (A11) and an exact 0 earns no bonus (A10)."""
    assert (DEFAULT.game_rounds, DEFAULT.zero_bonus) == (4, "never")
    assert GAME.max_rounds(DEFAULT) == 4 + 10


@pytest.mark.parametrize("bad", [0, 2, 6, 13, 44, -4, 12.5, True, "x"])
def test_A13_game_rounds_is_a_multiple_of_4_from_4_to_40(bad):
    """A13 (and D1): game_rounds takes 4, 8, ..., 40; anything else is refused naming what is allowed, through
    make_rules, the rules dataclass itself and the CLI (exit 2)."""
    assert [GAME.make_rules({"game_rounds": n}).game_rounds for n in range(4, 41, 4)] == list(range(4, 41, 4))
    assert GAME.make_rules(["game_rounds=12"]).game_rounds == 12
    message = "use one of 4, 8, 12, 16, 20, 24, 28, 32, 36, 40"
    with pytest.raises(CardsimError, match=rf"differenzler rule game_rounds=.*{bad}.* is not allowed: {message}$"):
        GAME.make_rules({"game_rounds": bad})
    with pytest.raises(CardsimError, match=rf"game_rounds={bad!r} is not allowed: {message}$"):
        GAME.rules_class(game_rounds=bad)


@pytest.mark.parametrize("rule, bad", [("game_rounds", "6"), ("zero_bonus", "sometimes")])
def test_A13_bad_values_refused_on_the_command_line(rule, bad, capsys):
    """A13 (and D1): the CLI refuses a bad value with one line naming what is allowed, exit code 2."""
    assert main(["simulate", "differenzler", "--rule", f"{rule}={bad}", "--rounds", "10"]) == 2
    err = capsys.readouterr().err
    assert f"differenzler rule {rule}='{bad}' is not allowed: use one of " in err and err.count("\n") == 1


@pytest.mark.parametrize("bad", ["sometimes", "", 0, True, None])
def test_A13_zero_bonus_is_never_zero_trick_or_always(bad):
    """A13 (and D1): zero_bonus takes never, zero_trick or always."""
    assert [GAME.make_rules({"zero_bonus": v}).zero_bonus for v in ("never", "zero_trick", "ALWAYS")] == [
        "never", "zero_trick", "always"]  # fmt: skip
    with pytest.raises(CardsimError, match="zero_bonus=.* is not allowed: use one of never, zero_trick, always$"):
        GAME.make_rules({"zero_bonus": bad})
    with pytest.raises(CardsimError, match="zero_bonus=.* is not allowed: use one of never, zero_trick, always$"):
        GAME.rules_class(zero_bonus=bad)


def test_A13_game_over_kernel_with_game_rounds():
    """A11, A13: game_rounds rounds, then tie-break rounds while the lowest total is tied, at most
    max_tiebreak_rounds of them."""
    go = lambda totals, played, rounds, cap=10: bool(rules.game_over(np.array(totals, np.int64), played, rounds, cap))
    assert not go([5, 3, 4, 9], 4, 12) and not go([5, 3, 4, 9], 11, 12)  # a unique lowest total before 12 rounds
    assert go([5, 3, 4, 9], 12, 12) and go([5, 3, 4, 9], 4, 4)
    assert not go([5, 3, 3, 9], 12, 12) and not go([3, 3, 3, 3], 21, 12) and go([3, 3, 3, 3], 22, 12)
    assert go([3, 3, 7, 8], 40, 40, 0) and not go([3, 3, 7, 8], 40, 40, 1) and go([3, 3, 7, 8], 41, 40, 1)


def test_A13_games_of_12_rounds_then_tiebreaks():
    """A13 game_rounds=12 (A6, A11): every game plays at least 12 rounds, First Hand passing on each round; it
    ends after 12 rounds with a unique lowest total, else plays on while the lowest total is tied (at most 10
    more); the totals are the penalties' sums and the lowest total wins (a tie shares the win)."""
    r = GAME.make_rules({"game_rounds": 12})
    assert GAME.max_rounds(r) == 22
    g = per_game(GAME.run(r, GAME.lineup("heuristic,random,heuristic_v1,heuristic"), 5, 0, 3000, games=True).rows(),
                 22)  # fmt: skip
    rounds, first = g["rounds"], g["first_hand"]
    assert rounds.min() == 12 and rounds.max() > 12 and rounds.max() <= 22
    rotated = (first[:, :1] + np.arange(22)) % 4
    assert (np.where(first >= 0, first, rotated) == rotated).all()
    assert sorted(set(first[:, 0])) == [0, 1, 2, 3]
    assert [ref.rounds_of_game(p.tolist(), 12) for p in g["penalty"]] == rounds.tolist()
    totals = g["penalty"].cumsum(axis=1)
    assert (~lowest_tied(totals[:, 3])).sum() > 0  # many games had a unique lowest total after 4 rounds, and went on
    final = totals[np.arange(rounds.size), rounds - 1]
    assert (g["game_total"] == final).all()
    best = final == final.min(axis=1, keepdims=True)
    assert np.allclose(g["game_win"], best / best.sum(axis=1, keepdims=True))


@pytest.mark.parametrize("engine", ["auto", "python"])
def test_A13_a_match_of_12_rounds_is_the_simulated_game(engine):
    """A13 game_rounds=12: ``new_game``'s Match plays the rounds ``simulate`` plays (compiled and Python
    drivers), to the same totals and winners."""
    options = {"game_rounds": 12, "zero_bonus": "always", "exact_bonus": 10}
    r = GAME.make_rules(options)
    rows = GAME.run(r, GAME.lineup("heuristic"), 9, 1, 1, games=True, engine=engine).rows()
    match = new_game("differenzler", seed=9, game_no=1, rules=options)
    while not match.done:
        while not match.round.done:
            match.round.play(match.round.bot_action("heuristic"))
        match.next_round()
    assert len(match.rounds) == rows["round"].max() + 1 >= 12
    assert [m.sub for m in match.rounds] == list(range(len(match.rounds)))
    assert match.totals == rows["game_total"][:4].tolist() == rows["penalty"].reshape(-1, 4).sum(axis=0).tolist()
    assert match.winners == [s for s, t in enumerate(match.totals) if t == min(match.totals)]
    with pytest.raises(CardsimError, match="at most 22 rounds: 0 to 21"):
        new_round("differenzler", seed=9, round=22, game_no=1, rules=options)


def test_A13_zero_bonus_kernel():
    """A13: an exact prediction above 0 always earns exact_bonus; an exact 0 as zero_bonus says."""
    never, zero_trick, always = (rules.ZERO_BONUS.index(v) for v in ("never", "zero_trick", "always"))
    for took in (False, True):
        assert rules.penalty(0, 0, took, 10, never) == 0
        assert rules.penalty(0, 0, took, 10, zero_trick) == (-10 if took else 0)
        assert rules.penalty(0, 0, took, 10, always) == -10
        for zero_bonus in (never, zero_trick, always):
            assert rules.penalty(50, 50, took, 10, zero_bonus) == -10
            assert rules.penalty(0, 5, took, 10, zero_bonus) == 5 and rules.penalty(5, 0, took, 10, zero_bonus) == 5
            assert rules.penalty(0, 0, took, 0, zero_bonus) == 0


# A round written by hand (trump hearts, the dealer seat 3 shows H7, First Hand seat 0): seat 1 wins the first
# trick, four low plain cards worth 0, and no other; seat 2 wins none; seat 3 wins the other eight, all 157.
ZERO_HANDS = [
    "S6 SQ SK SA DK DA CK CA H6",  # seat 0, First Hand
    "S9 D6 D7 D8 D9 C6 C7 C8 C9",  # seat 1
    "S7 ST SJ DT DJ DQ CT CJ CQ",  # seat 2
    "S8 H7 H8 H9 HT HJ HQ HK HA",  # seat 3, the dealer
]
ZERO_TRICKS = ["S6 S9 S7 S8", "D6 DT H7 DK", "H8 H6 D7 DJ", "H9 SQ D8 DQ", "HT SK D9 CT", "HJ SA C6 CJ",
               "HQ DA C7 CQ", "HK CK C8 ST", "HA CA C9 SJ"]  # fmt: skip
ZERO_PREDICTIONS = [5, 0, 0, 157]


@pytest.mark.parametrize("zero_bonus, penalties", [("never", [5, 0, 0, -10]), ("zero_trick", [5, -10, 0, -10]),
                                                   ("always", [5, -10, -10, -10])])  # fmt: skip
def test_A13_zero_bonus_on_a_hand_built_round(zero_bonus, penalties):
    """A13 zero_bonus: seats 1 and 2 predict 0 and take 0 points; seat 1 won a trick worth 0 (the first, four
    low plain cards), seat 2 none. Exact 0s earn the bonus never, for seat 1 only (zero_trick), or both (always);
    seat 3's exact 157 earns it in every case, seat 0's miss never."""
    r = new_round("differenzler", hands=ZERO_HANDS, dealer=3, trump_card="H7",
                  rules={"zero_bonus": zero_bonus, "exact_bonus": 10})  # fmt: skip
    for prediction in ZERO_PREDICTIONS:
        r.play(prediction)
    for trick in ZERO_TRICKS:
        for card in trick.split():
            r.play(card)
    record = r.record()
    assert [t["winner"] for t in record["tricks"]] == [1] + [3] * 8 and record["tricks"][0]["points"] == 0
    assert record["points"] == [0, 0, 0, 157]
    assert r.scores == record["penalties"] == penalties
    check_replay(record)  # the reference gives the same penalties


@pytest.mark.parametrize("zero_bonus", ["zero_trick", "always"])
def test_A13_zero_bonus_in_played_rounds(zero_bonus):
    """A13: in random rounds every penalty is the reference's (an exact 0 earns the bonus as zero_bonus says), the
    compiled and Python drivers agree, and both kinds of exact 0 occur."""
    r = GAME.make_rules({"zero_bonus": zero_bonus, "exact_bonus": 10})
    rows = GAME.run(r, GAME.lineup("random"), 13, 0, 20000, games=False).rows()
    pred, pts, pen = (rows[k].astype(np.int64) for k in ("prediction", "points", "penalty"))
    exact, zero = pred == pts, (pred == 0) & (pts == 0)
    assert (pen[~zero] == np.where(exact, -10, np.abs(pred - pts))[~zero]).all()
    if zero_bonus == "always":
        assert zero.sum() > 0 and (pen[zero] == -10).all()
    else:
        assert (pen[zero] == 0).sum() > 0 and (pen[zero] == -10).sum() > 0  # an exact 0 with and without a trick
        assert set(pen[zero]) == {0, -10}
    units = np.flatnonzero(zero.reshape(-1, 4).any(axis=1))[:20]
    for unit in units:
        check_replay(GAME.replay(r, GAME.lineup("random"), 13, int(unit), None))
    python = GAME.run(r, GAME.lineup("random"), 13, int(units[0]), 40, games=False, engine="python").rows()
    assert np.array_equal(python["penalty"], rows["penalty"][4 * units[0] : 4 * (units[0] + 40)])


# --- golden deals ----------------------------------------------------------------


@pytest.mark.parametrize(
    "bots, seed, rnd, options",
    [
        ("random,heuristic,random,heuristic", 7, 3, {}),
        ("heuristic", 123456789, 42, {"exact_bonus": 10, "predictions": "open"}),
        ("random", 2**64 - 1, 999, {}),
    ],
)
def test_golden_replayed_round(bots, seed, rnd, options):
    """A4-A10 on whole replayed rounds: every trick's winner and points re-derived with the reference; sum 157."""
    record = GAME.replay(GAME.make_rules(options), GAME.lineup(bots), seed, rnd, None)
    check_replay(record)
    assert record["dealer"] == (record["first_hand"] - 1) % 4


# A complete round written by hand. Trump hearts (trump card HQ, dealer seat 0), First Hand seat 1.
# Each trick: (leader, cards in play order, winning seat, points), computed by hand from A3, A4, A9.
GOLDEN_HANDS = [
    "S7 ST HA H9 HK HQ D7 CA C8",  # seat 0, the dealer
    "SA SQ S8 HJ DA DJ D8 C6 CT",  # seat 1, First Hand
    "S6 H6 H8 HT D6 DT CK CQ C9",  # seat 2
    "SK SJ S9 H7 DK DQ D9 C7 CJ",  # seat 3
]
GOLDEN_TRICKS = [
    (1, "SA S6 SK S7", 1, 11 + 0 + 4 + 0),  # 15: no trump, spade ace
    (1, "HJ H6 H7 HA", 1, 20 + 0 + 0 + 11),  # 31: trump led, all must trump; Puur wins
    (1, "DA D6 DK H9", 0, 11 + 0 + 4 + 14),  # 29: seat 0 trumps (may: no trump in the trick yet)
    (0, "CA C6 CK C7", 0, 11 + 0 + 4 + 0),  # 15
    (0, "ST SQ H8 SJ", 2, 10 + 3 + 0 + 2),  # 15: seat 2 void in spades, trumps
    (2, "DT DQ HK DJ", 0, 10 + 3 + 4 + 2),  # 19: seat 0 trumps though holding D7
    (0, "C8 CT CQ CJ", 2, 0 + 10 + 3 + 2),  # 15: plain Q > J > 10
    (2, "C9 S9 HQ D8", 0, 0 + 0 + 3 + 0),  # 3
    (0, "D7 S8 HT D9", 2, 0 + 0 + 10 + 0 + 5),  # 15: last trick +5
]
GOLDEN_POINTS = [29 + 15 + 19 + 3, 15 + 31, 15 + 15 + 15, 0]  # 66, 46, 45, 0


def test_golden_hand_written_round():
    """A4-A10, A12 on a round written by hand: legal plays, winners, points, 157 in total, penalties."""
    hands = [set(cards(h)) for h in GOLDEN_HANDS]
    assert sorted(c for h in hands for c in h) == sorted(ref.DECK) and "HQ" in hands[0]
    points, leader = [0, 0, 0, 0], 1
    for t, (lead, text, winner, won) in enumerate(GOLDEN_TRICKS):
        assert lead == leader
        trick = cards(text)
        for i, card in enumerate(trick):
            seat = (lead + i) % 4
            assert card in ref.legal_cards(hands[seat], trick[:i], "H")
            assert kernel_legal(hands[seat], trick[:i], "H") == ref.legal_cards(hands[seat], trick[:i], "H")
            hands[seat].remove(card)
        assert (lead + ref.trick_winner(trick, "H")) % 4 == winner
        assert (lead + kernel_winner(trick, "H")) % 4 == winner
        assert ref.trick_points(trick, "H", t == 8) == kernel_points(trick, "H", t == 8) == won
        points[winner] += won
        leader = winner
    assert points == GOLDEN_POINTS == [66, 46, 45, 0]
    assert sum(points) == 157
    predictions = [60, 46, 50, 0]
    won = [sum(w == seat for _, _, w, _ in GOLDEN_TRICKS) for seat in range(4)]
    assert won == [4, 2, 3, 0]
    scored = zip(predictions, points, won, strict=True)
    assert [int(rules.penalty(p, q, w > 0, 10, rules.NEVER)) for p, q, w in scored] == [6, -10, 5, 0]
    scored = zip(predictions, points, won, strict=True)
    assert [int(rules.penalty(p, q, w > 0, 0, rules.NEVER)) for p, q, w in scored] == [6, 0, 5, 0]
    scored = zip(predictions, points, won, strict=True)
    assert [ref.penalty(p, q, w, 10, "always") for p, q, w in scored] == [6, -10, 5, -10]  # seat 3: an exact 0


# --- properties of played rounds -------------------------------------------------


class PyRandomBot:
    """A Python bot choosing uniformly among the legal cards it is offered; it checks that offer on the spot."""

    def predict(self, obs):
        return obs.rng.randrange(158)

    def play(self, obs):
        assert set(obs.legal) == ref.legal_cards(obs.hand, obs.trick, obs.trump)
        return obs.rng.choice(obs.legal)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    rnd=st.integers(0, 10**6),
    bots=st.lists(st.sampled_from(["random", "heuristic", "py"]), min_size=4, max_size=4),
    settings_=st.fixed_dictionaries(
        {"predictions": st.sampled_from(["secret", "open"]), "exact_bonus": st.sampled_from([0, 10]),
         "zero_bonus": st.sampled_from(["never", "zero_trick", "always"])}
    ),
)
def test_property_played_round_follows_the_rules(seed, rnd, bots, settings_):
    """A4-A10, A13: each card played once, from the player's hand, legal under the reference; legal set never empty;
    157; the penalties of the rules."""
    lu = lineup(*(PyRandomBot() if b == "py" else b for b in bots))
    check_replay(GAME.replay(GAME.make_rules(settings_), lu, seed, rnd, None))


# --- compiled driver == Python driver ---------------------------------------------


@pytest.mark.parametrize(
    "bots, seed, options",
    [
        ("random", 1, {}),
        ("heuristic", 2**63 + 5, {"exact_bonus": 10}),
        ("heuristic,random,heuristic,random", 77, {"max_tiebreak_rounds": 2}),
    ],
)
@pytest.mark.parametrize("games", [False, True])
def test_compiled_and_python_drivers_agree(bots, seed, options, games):
    """D3/A5-A11: the compiled batch kernels and the plain-Python driver give identical rows for built-in bots."""
    r, lu = GAME.make_rules(options), GAME.lineup(bots)
    start, count = (1000, 60) if games else (500, 200)
    fast = GAME.run(r, lu, seed, start, count, games=games).rows()
    slow = GAME.run(r, lu, seed, start, count, games=games, engine="python").rows()
    assert fast.keys() == slow.keys()
    for key in fast:
        assert fast[key].dtype == slow[key].dtype, key
        assert np.array_equal(fast[key], slow[key]), key


# --- regressions: bugs found while writing these tests ----------------------------


class BoolCardBot(FixedPrediction):
    """Answers ``True`` whenever S7 (JASS36 index 1) is legal: not a card name or index."""

    def play(self, obs):
        return True if "S7" in obs.legal else obs.legal[0]


def test_D2_a_card_answer_of_True_is_refused_not_played_as_S7():
    """D2: a card choice that is not a card stops the run. ``True == 1`` is S7's index, and the card check once
    took it as S7; ``cardsim.protocol.card_index`` now refuses a bool, so the state machine is never asked."""
    # A round where seat 0 holds S7: it must play it some time, and then answers True.
    seed = next(s for s in range(100) if "S7" in GAME.replay(DEFAULT, GAME.lineup("random"), s, 0, None)["hands"][0])
    with pytest.raises(CardsimError, match="played True, which is not legal"):
        GAME.replay(DEFAULT, lineup(BoolCardBot(40), "random", "random", "random"), seed, 0, None)
