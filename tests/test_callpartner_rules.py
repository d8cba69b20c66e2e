"""Call-partner rules C1-C10 (RULES.md section C), checked against a plain-Python reference.

Cards are written in RULES.md E1 notation (``SA``, ``HT``, ``C2``); suits as letters S H D C.
``reference_callpartner`` is an independent re-statement of C1-C4 and C7-C9.
"""

from __future__ import annotations

import re

import numpy as np
import pyarrow.parquet as pq
import pytest
import reference_callpartner as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsim import simulate
from cardsim.cards import FRENCH52
from cardsim.cli import main
from cardsim.errors import CardsimError
from cardsim.games.callpartner import rules, state
from cardsim.games.callpartner.game import GAME
from cardsim.lineup import Lineup, make_lineup

SUITS = "SHDC"
DEFAULT = GAME.make_rules()
PLAYERS = (3, 4, 5)


# --- helpers ------------------------------------------------------------------


def cards(text: str) -> list[str]:
    """Canonical names of a space-separated card list (parsed by the library, RULES.md E)."""
    return [FRENCH52.name_of(c) for c in FRENCH52.parse_many(text)]


def kernel_legal(hand, trick) -> set[str]:
    """rules.legal_mask on a state given by names, with the led suit the drivers pass."""
    led = SUITS.index(trick[0][0]) if trick else -1
    return ref.names_of_mask(rules.legal_mask(np.uint64(ref.mask_of(hand)), led))


def kernel_winner(trick, trump: str) -> int:
    return int(rules.trick_winner(np.array([ref.index(c) for c in trick], np.int64), len(trick), SUITS.index(trump)))


def callpartner_rules(players: int = 4, **settings_):
    return GAME.make_rules({**settings_, "players": players})


def lineup(*bots) -> Lineup:
    """A lineup of built-in bot names and/or Python bot objects."""
    return make_lineup(list(bots), GAME.name, len(bots), GAME.builtin_bots, GAME.decisions, GAME.bot_settings)


class Recorder:
    """A Python bot: bids the lowest allowed number in its longest suit while that is at most ``limit``,
    calls, discards and plays uniformly at random (``obs.rng``), and keeps every Observation."""

    def __init__(self, limit: int = 12, log: list | None = None):
        self.limit = limit
        self.seen = []
        self.log = [] if log is None else log

    def _note(self, kind, obs):
        self.seen.append((kind, obs))
        self.log.append((kind, obs.seat))

    def bid(self, obs):
        self._note("bid", obs)
        if obs.min_bid > self.limit and not obs.forced:
            return None
        longest = max(SUITS, key=lambda s: sum(c[0] == s for c in obs.hand))
        return obs.min_bid, longest

    def call(self, obs):
        self._note("call", obs)
        return obs.rng.choice(obs.legal)

    def discard(self, obs):
        self._note("discard", obs)
        return obs.rng.sample(obs.legal, obs.discard_count)

    def play(self, obs):
        self._note("play", obs)
        return obs.rng.choice(obs.legal)


class PyRandomBot(Recorder):
    """A Recorder that checks its legal cards against the reference on the spot."""

    def play(self, obs):
        assert set(obs.legal) == ref.legal_cards(obs.hand, obs.trick)
        return super().play(obs)


def check_replay(record: dict) -> None:
    """Re-derive a replayed deal with the reference: deal (C3), auction (C4), call (C5), kitty (C6),
    legal cards (C7), winners (C8), points (C2) and scores (C9)."""
    players, dealer = record["players"], record["dealer"]
    hands = [set(h) for h in record["hands"]]
    kitty = set(record["kitty"])
    assert [len(h) for h in hands] == [ref.HAND[players]] * players and len(kitty) == ref.KITTY[players]
    assert sorted([*kitty, *(c for h in hands for c in h)]) == sorted(ref.DECK)  # every card once, with the kitty
    calls = [(c["seat"], c["bid"], c["trump"]) for c in record["auction"]]
    contract = ref.check_auction(calls, dealer, players, record["rules"]["all_pass"] == "dealer_forced")
    if contract is None:  # all passed: nothing is played, nothing scores
        assert record["declarer"] is record["bid"] is record["trump"] is record["called_card"] is None
        assert record["tricks"] == [] and record["discards"] == []
        assert record["points"] == record["scores"] == [0] * players
        return
    declarer, bid, trump = contract
    assert (record["declarer"], record["bid"], record["trump"]) == contract
    called = record["called_card"]
    assert called not in hands[declarer]  # C5
    holders = [s for s in range(players) if called in hands[s]]
    partner = holders[0] if holders else None
    assert record["partner"] == partner and (partner is None) == (called in kitty)
    discards = set(record["discards"])
    assert len(discards) == len(kitty) and discards <= hands[declarer] | kitty  # C6
    hands[declarer] = (hands[declarer] | kitty) - discards
    trick_points = [0] * players
    leader = (dealer + 1) % players  # C7: left of the dealer leads the first trick
    for trick in record["tricks"]:
        assert trick["leader"] == leader
        for i, card in enumerate(trick["cards"]):
            seat = (leader + i) % players
            legal = ref.legal_cards(hands[seat], trick["cards"][:i])
            assert legal and legal <= hands[seat]
            assert card in legal, (card, sorted(legal))
            assert kernel_legal(hands[seat], trick["cards"][:i]) == legal
            hands[seat].remove(card)
        winner = (leader + ref.trick_winner(trick["cards"], trump)) % players
        assert (trick["winner"], trick["points"]) == (winner, ref.points(trick["cards"]))
        trick_points[winner] += trick["points"]
        leader = winner  # C7: the winner leads the next
    assert len(record["tricks"]) == ref.HAND[players] and not any(hands)  # every card played
    assert sum(trick_points) + ref.points(discards) == 20  # C2
    assert record["points"] == trick_points
    side, made, expected = ref.scores(players, declarer, partner, bid, trick_points, ref.points(discards),
                                      record["rules"]["discards_count"])  # fmt: skip
    assert (record["side_points"], record["made"], record["scores"]) == (side, made, expected)


def by_deal(batch) -> dict:
    """Per-deal arrays of a single-deal batch."""
    return {k: v[:, 0] for k, v in {**batch.per_round, **batch.per_seat}.items()}


def dealt(seed: int, unit: int, players: int, sub: int = 0, dealer: int = -1):
    """(dealer, hands as name sets, kitty) of a deal, from the shared deal kernel."""
    s = state.new_state(players)
    state.deal(s, state.params(callpartner_rules(players)), np.uint64(seed), unit, sub, dealer)
    d, kitty = s.slots[state.DEALER], s.slots[state.KITTY]
    return int(d), [ref.names_of_mask(h) for h in s.hands], ref.names_of_mask(int(kitty))


# --- C1, C2 -----------------------------------------------------------------------


def test_C1_deck_52_cards_suits_ranked_c_d_h_s():
    """C1: 52 cards, 4 suits x 13 ranks 2..A; suits rank C < D < H < S (a higher suit beats a lower, rule 6)."""
    assert FRENCH52.size == rules.DECK_SIZE == 52
    assert [FRENCH52.name_of(c) for c in range(52)] == ref.DECK
    assert [int(rules.SUIT_RANK[SUITS.index(s)]) for s in "CDHS"] == [0, 1, 2, 3]
    for low, high in ("CD", "DH", "HS", "CS"):  # no trump among them: the higher suit's 2 beats the lower ace
        trick = [low + "A", high + "2", low + "K", low + "Q"]
        trump = next(s for s in SUITS if s not in (low, high))
        assert ref.trick_winner(trick, trump) == kernel_winner(trick, trump) == 1


def test_C1_ranks_2_to_ace():
    """C1: within a suit the ace is highest and the 2 lowest (outside rule 4)."""
    order = [r for r in ref.RANKS if r not in "2J"]  # the 2 and the jacks are special in one-suit tricks
    for i, low in enumerate(order):
        for high in order[i + 1 :]:
            trick = ["H" + low, "H" + high, "C3"]
            assert ref.trick_winner(trick, "D") == kernel_winner(trick, "D") == 1


def test_C2_twenty_points_per_deal():
    """C2: every 10, J, Q, K and A is worth 1 point; 20 points in the deck."""
    assert ref.points(ref.DECK) == 20 == rules.TOTAL_POINTS
    assert ref.names_of_mask(rules.POINT_MASK) == {s + r for s in SUITS for r in "TJQKA"}
    for text, value in (("ST HJ DQ CK SA", 5), ("S2 S9 H8 C3", 0), ("HT H9 HA", 2)):
        assert int(rules.card_points(np.uint64(ref.mask_of(cards(text))))) == value == ref.points(cards(text))


# --- C3 -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_C3_deal_sizes_and_kitty(players):
    """C3: all cards but the kitty are dealt: 3 players 16 each + 4, 4 players 12 + 4, 5 players 10 + 2."""
    r = callpartner_rules(players)
    assert (r.hand_size, r.kitty) == (ref.HAND[players], ref.KITTY[players])
    for seed in range(30):
        dealer, hands, kitty = dealt(seed, seed * 7, players)
        assert 0 <= dealer < players
        assert [len(h) for h in hands] == [ref.HAND[players]] * players and len(kitty) == ref.KITTY[players]
        assert sorted([*kitty, *(c for h in hands for c in h)]) == sorted(ref.DECK)


@pytest.mark.parametrize("players", PLAYERS)
def test_C3_deal_is_uniform(players):
    """C3: every card is equally likely in every hand (relative to the dealer) and in the kitty, and the dealer
    is uniform: a chi-square check over 8,000 deals (fails only for a real bias)."""
    n = 8000
    s, p = state.new_state(players), state.params(callpartner_rules(players))
    hands = s.hands
    first = np.zeros(players)
    masks = np.zeros((n, players + 1), np.uint64)
    for unit in range(n):
        state.deal(s, p, np.uint64(5), unit, 0, -1)
        dealer, kitty = s.slots[state.DEALER], np.uint64(s.slots[state.KITTY])
        first[dealer] += 1
        for offset in range(players):
            masks[unit, offset] = hands[(dealer + offset) % players]
        masks[unit, players] = kitty
    bits = (masks[:, :, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)
    where = bits.sum(axis=0).T.astype(float)  # [card, place]; the last place is the kitty
    size = np.array([ref.HAND[players]] * players + [ref.KITTY[players]], float)

    def chi2_ok(counts: np.ndarray, expected: np.ndarray, dof: int) -> bool:
        chi2 = ((counts - expected) ** 2 / expected).sum()
        return chi2 < dof + 7 * np.sqrt(2 * dof)

    assert chi2_ok(where, n * size[None, :] / 52 * np.ones((52, 1)), 51 * players)
    assert chi2_ok(first, np.full(players, n / players), players - 1)


@pytest.mark.parametrize("players", PLAYERS)
def test_C3_dealer_random_then_rotates_clockwise(players):
    """C3: the first dealer of a game is random; the deal passes to the next seat every deal (redeals too)."""
    batch = GAME.run(callpartner_rules(players), GAME.lineup("random", callpartner_rules(players)), 3, 0, 600, True)
    dealers = batch.per_round["dealer"].astype(np.int64)
    rotated = (dealers[:, :1] + np.arange(dealers.shape[1])) % players
    assert (np.where(batch.valid, dealers, rotated) == rotated).all()
    shares = np.bincount(dealers[:, 0], minlength=players) / len(dealers)
    assert (abs(shares - 1 / players) < 0.07).all(), shares
    assert ((batch.per_round["declarer"] < 0) & batch.valid).any()  # redeals happened, and rotated too


# --- C4 -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("all_pass", ["redeal", "dealer_forced"])
def test_C4_auctions_follow_the_rules(players, all_pass):
    """C4: from the dealer's left, clockwise; strictly rising bids 10..20 with a suit; a pass is final; over when
    all others passed after the last bid or at 20 (reference check of many auctions, every fast bot; the cautious
    ``heuristic_v1`` beside random bots brings auctions in which all five pass, which the bolder heuristic no
    longer does in these rounds)."""
    r = callpartner_rules(players, all_pass=all_pass)
    seen = {"all_pass": 0, "twenty": 0, "raised": 0}
    for bots in ("random", "heuristic", "heuristic,random,random,heuristic,random",
                 "heuristic_v1,random,random,heuristic_v1,random"):
        lu = GAME.lineup(",".join(bots.split(",")[:players]) if "," in bots else bots, r)
        for rnd in range(40):
            record = GAME.replay(r, lu, 17, rnd, None)
            check_replay(record)
            bids = [c["bid"] for c in record["auction"] if c["bid"] is not None]
            seen["all_pass"] += all(c["bid"] is None for c in record["auction"][:players])
            seen["twenty"] += 20 in bids
            seen["raised"] += len(bids) > 1
    assert min(seen.values()) > 0, seen


def test_C4_bid_of_20_ends_the_auction_and_a_pass_is_final():
    """C4: a bid of 20 ends the auction at once; a seat that passed is never asked again."""
    log = []
    bots = [Recorder(limit=20, log=log) for _ in range(4)]

    class Jump(Recorder):
        def bid(self, obs):
            self._note("bid", obs)
            return (20, "S") if len(obs.auction) == 1 else None

    bots[0] = Jump(log=log)
    for rnd in range(8):
        log.clear()
        record = GAME.replay(DEFAULT, lineup(*bots), 2, rnd, None)
        order = [(record["dealer"] + 1 + i) % 4 for i in range(4)]
        if order[1] == 0:  # seat 0 speaks second: after its 20 nobody else is asked
            assert [c["seat"] for c in record["auction"]] == order[:2]
            assert (record["declarer"], record["bid"], record["trump"]) == (0, 20, "S")
        asked = [seat for kind, seat in log if kind == "bid"]
        for i, seat in enumerate(asked):  # nobody is asked after passing
            assert all(c["seat"] != seat or c["bid"] is not None for c in record["auction"][:i])


def test_C4_observations_during_the_auction():
    """C4: a bidder sees the calls made so far, the highest bid and the lowest number it may bid; nothing of the
    contract, call or kitty yet."""
    log = []
    bots = [Recorder(limit=14, log=log) for _ in range(4)]
    for rnd in range(5):
        for b in bots:
            b.seen.clear()
        record = GAME.replay(DEFAULT, lineup(*bots), 9, rnd, None)
        for b in bots:
            for kind, obs in b.seen:
                if kind != "bid":
                    continue
                n = len(obs.auction)
                assert [(c.seat, c.bid, c.trump) for c in obs.auction] == [
                    (c["seat"], c["bid"], c["trump"]) for c in record["auction"][:n]
                ]
                high = max((c.bid for c in obs.auction if c.bid is not None), default=None)
                assert obs.high_bid == high and obs.min_bid == max(10, (high or 0) + 1)
                assert obs.legal == [] and obs.declarer is obs.trump is obs.called_card is obs.kitty is None
                assert len(obs.hand) == 12 and not obs.forced


def test_C4_all_pass_redeal_scores_nothing():
    """C4 all_pass=redeal (default): when everybody passes the deal is not played and scores 0 for all."""
    assert DEFAULT.all_pass == "redeal"
    record = GAME.replay(DEFAULT, lineup(*[Recorder(limit=0) for _ in range(4)]), 1, 0, None)
    assert [c["bid"] for c in record["auction"]] == [None] * 4
    check_replay(record)
    deals = by_deal(GAME.run(DEFAULT, GAME.lineup("random"), 4, 0, 20000, False))
    passed = deals["declarer"] < 0
    # random bots pass with probability 1/2, so all four pass 1/16 of deals: within 4.5 standard errors (0.0017)
    assert abs(passed.mean() - 1 / 16) < 4.5 * np.sqrt(1 / 16 * 15 / 16 / passed.size), passed.mean()
    assert (deals["score"][passed] == 0).all() and (deals["points"][passed] == 0).all()
    assert (deals["trump"][passed] == -1).all() and (deals["called_card"][passed] == -1).all()


def test_C4_all_pass_dealer_forced_declares_10():
    """C4 all_pass=dealer_forced: the dealer becomes declarer at 10 in a suit of its choice (its bot is asked)."""
    forced = GAME.make_rules({"all_pass": "dealer_forced"})
    deals = by_deal(GAME.run(forced, GAME.lineup("random"), 4, 0, 20000, False))
    same = by_deal(GAME.run(DEFAULT, GAME.lineup("random"), 4, 0, 20000, False))
    assert (deals["declarer"] >= 0).all()
    passed = same["declarer"] < 0  # the same deals and auctions: those all passed
    assert (deals["declarer"][passed] == deals["dealer"][passed]).all() and (deals["bid"][passed] == 10).all()
    assert set(deals["trump"][passed]) == {0, 1, 2, 3}
    bots = [Recorder(limit=0) for _ in range(4)]
    record = GAME.replay(forced, lineup(*bots), 1, 0, None)
    check_replay(record)
    dealer = record["dealer"]
    kind, obs = [x for x in bots[dealer].seen if x[0] == "bid"][-1]
    assert obs.forced and obs.min_bid == 10 and len(obs.auction) == 4
    assert (record["declarer"], record["bid"]) == (dealer, 10) and record["auction"][-1]["seat"] == dealer


@pytest.mark.parametrize(
    "answer", [(9, "S"), (21, "S"), (10, "X"), (10, ""), ("10", "S"), (True, "S"), 10, "10S", (10, "S", 1), 10.0]
)
def test_C4_D2_illegal_bid_refused(answer):
    """C4/D2: a bid that is not None or (number 10..20 above the highest bid, suit) stops the run, naming the bot,
    the seed, the round and the decision."""

    class Bad(Recorder):
        def bid(self, obs):
            return answer

    record = GAME.replay(DEFAULT, GAME.lineup("random"), 3, 5, None)
    first = (record["dealer"] + 1) % 4
    bots = ["random"] * 4
    bots[first] = Bad()
    expected = re.escape(f"bot 'Bad' (seat {first}) in callpartner, seed 3, round 5, auction turn 1: bid {answer!r};")
    with pytest.raises(CardsimError, match=expected):
        GAME.replay(DEFAULT, lineup(*bots), 3, 5, None)


def test_C4_D2_bid_not_above_the_highest_refused():
    """C4/D2: a bid must name a higher number than the current highest bid."""

    class Low(Recorder):
        def bid(self, obs):
            return (10, "H")

    with pytest.raises(CardsimError, match=r"auction turn 2: bid \(10, 'H'\); allowed: None \(pass\) or "
                       r"\(number, suit\) with a number from 11 to 20"):  # fmt: skip
        GAME.replay(DEFAULT, lineup(Low(), Low(), Low(), Low()), 3, 0, None)
    forced = GAME.make_rules({"all_pass": "dealer_forced"})

    class Shy(Recorder):
        def bid(self, obs):
            return (11, "H") if obs.forced else None

    with pytest.raises(CardsimError, match=r"all passed: the dealer declares 10\): bid \(11, 'H'\); allowed: "):
        GAME.replay(forced, lineup(Shy(), Shy(), Shy(), Shy()), 3, 0, None)


# --- C5 -----------------------------------------------------------------------------


def test_C5_partner_is_the_holder_of_the_called_card():
    """C5: the called card is not in the declarer's hand; its holder is the partner; in the kitty: no partner."""
    for players in PLAYERS:
        r = callpartner_rules(players)
        batch = GAME.run(r, GAME.lineup("random", r), 8, 0, 400, False)
        deals = by_deal(batch)
        for u in np.flatnonzero(deals["declarer"] >= 0)[:150]:
            _, hands, kitty = dealt(8, int(u), players)
            called = ref.name(deals["called_card"][u])
            assert called not in hands[deals["declarer"][u]]
            holder = next((s for s in range(players) if called in hands[s]), -1)
            assert deals["partner"][u] == holder and (holder < 0) == (called in kitty)
    rows = by_deal(GAME.run(DEFAULT, GAME.lineup("random"), 8, 0, 20000, False))
    declared = rows["declarer"] >= 0
    kitty = (rows["partner"][declared] < 0).mean()  # a uniform call lands in the kitty 4 / 40 times
    assert abs(kitty - 0.1) < 4.5 * np.sqrt(0.1 * 0.9 / declared.sum()), kitty  # 4.5 standard errors (0.0022)


class CallKitty(Recorder):
    """Bids 20 when first to speak, calls a given card."""

    def __init__(self, card: str):
        super().__init__(limit=20)
        self.card = card

    def bid(self, obs):
        self._note("bid", obs)
        return (20, "H") if not obs.auction else None

    def call(self, obs):
        self._note("call", obs)
        return self.card


def test_C5_called_card_in_the_kitty_no_partner():
    """C5: a card called from the kitty gives the declarer no partner; the declarer learns it with the kitty,
    the others only if the declarer plays it."""
    _, _, kitty = dealt(6, 2, 4)
    card = sorted(kitty)[0]
    bots = [CallKitty(card) for _ in range(4)]
    record = GAME.replay(DEFAULT, lineup(*bots), 6, 2, None)
    check_replay(record)
    declarer = record["declarer"]
    assert record["called_card"] == card and record["partner"] is None
    seen = dict.fromkeys(["call", "discard", "play"], 0)
    for seat, bot in enumerate(bots):
        for kind, obs in bot.seen:
            if kind == "bid":
                continue
            seen[kind] += seat == declarer
            played = card in [c for t in obs.tricks for c in t.cards] + obs.trick
            if seat == declarer:
                assert obs.partner is None and obs.partner_known == (kind != "call")
            else:
                assert obs.partner is None and obs.partner_known == played
    assert seen["call"] == seen["discard"] == 1 and seen["play"] == 12


def test_C5_partner_knows_others_learn_when_the_card_is_played():
    """C5: the partner knows from the call on; the declarer and the defenders learn it when the card is played."""
    checked = 0
    for rnd in range(12):
        bots = [Recorder(limit=13) for _ in range(4)]
        record = GAME.replay(DEFAULT, lineup(*bots), 21, rnd, None)
        if record["partner"] is None:
            continue
        partner, called = record["partner"], record["called_card"]
        for seat, bot in enumerate(bots):
            for kind, obs in bot.seen:
                if kind == "bid":
                    continue
                played = called in [c for t in obs.tricks for c in t.cards] + obs.trick
                knows = seat == partner or (played and kind == "play")
                assert obs.partner_known == knows and obs.partner == (partner if knows else None)
                assert obs.called_card == (None if kind == "call" else called)
                checked += 1
    assert checked > 100


def test_C5_D2_calling_a_card_of_the_own_hand_refused():
    """C5/D2: calling a card the declarer holds (or something that is not a card) stops the run."""

    class Greedy(CallKitty):
        def call(self, obs):
            return obs.hand[0]

    with pytest.raises(CardsimError, match=r"in callpartner, seed 4, round 1, call: called \w\w, which is in its "
                       r"own hand; allowed: any card not in its hand"):  # fmt: skip
        GAME.replay(DEFAULT, lineup(*[Greedy("SA") for _ in range(4)]), 4, 1, None)
    with pytest.raises(CardsimError, match=r"call: called 'XX', which is not a card"):
        GAME.replay(DEFAULT, lineup(*[CallKitty("XX") for _ in range(4)]), 4, 1, None)


# --- C6 -----------------------------------------------------------------------------


def test_C6_declarer_takes_the_kitty_and_discards_as_many():
    """C6: the declarer's hand in play is its dealt hand plus the kitty less the discards; only the declarer
    sees the kitty and the discards."""
    for players in PLAYERS:
        bots = [Recorder(limit=12) for _ in range(players)]
        record = GAME.replay(callpartner_rules(players), lineup(*bots), 12, 3, None)
        check_replay(record)
        declarer = record["declarer"]
        kind, obs = next(x for x in bots[declarer].seen if x[0] == "discard")
        assert obs.kitty == record["kitty"] and set(obs.hand) == set(record["hands"][declarer] + record["kitty"])
        assert obs.discard_count == ref.KITTY[players] and set(obs.legal) == set(obs.hand)
        for seat, bot in enumerate(bots):
            for kind, obs in bot.seen:
                if kind == "play":
                    assert obs.kitty == (record["kitty"] if seat == declarer else None)
                    assert obs.discards == (record["discards"] if seat == declarer else None)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("discards_count", [True, False])
def test_C6_discards_count_option(players, discards_count):
    """C6: with discards_count (default true) the discards' points count for the declaring side; without, they
    count for nobody. Trick points and discard points make the 20 of the deal."""
    assert DEFAULT.discards_count is True
    r = callpartner_rules(players, discards_count=discards_count)
    lu = GAME.lineup([("heuristic", "random")[s % 2] for s in range(players)], r)
    for rnd in range(15):
        check_replay(GAME.replay(r, lu, 30, rnd, None))
    deals = by_deal(GAME.run(r, GAME.lineup("heuristic", r), 30, 0, 5000, False))
    d = deals["declarer"] >= 0
    seats = np.arange(players)
    on_side = (seats == deals["declarer"][:, None]) | (seats == deals["partner"][:, None])
    tricks = (deals["points"].astype(int) * on_side).sum(axis=1)
    discard_points = 20 - deals["points"].astype(int).sum(axis=1)
    expected = tricks + (discard_points if discards_count else 0)
    assert (deals["side_points"][d] == expected[d]).all()
    assert (discard_points[d] > 0).any()


@pytest.mark.parametrize(
    "answer, problem",
    [(lambda obs: obs.legal[:3], "3 cards"), (lambda obs: [obs.legal[0]] * 4, "a repeated card"),
     (lambda obs: [c for c in ref.DECK if c not in obs.hand][:4], "cards not in the hand"),
     (lambda obs: " ".join(obs.legal[:4]), "a string"), (lambda obs: obs.legal[:4] + ["ZZ"], "5 items")],
)  # fmt: skip
def test_C6_D2_bad_discards_refused(answer, problem):
    """C6/D2: the discards must be exactly as many different cards of the hand (with the kitty) as the kitty."""

    class BadDiscard(CallKitty):
        def call(self, obs):
            return obs.legal[0]

        def discard(self, obs):
            return answer(obs)

    bots = [BadDiscard("SA") for _ in range(4)]
    with pytest.raises(CardsimError, match=r"bot 'BadDiscard' \(seat \d\) in callpartner, seed 2, round 0, discard: "
                       r"discarded .*; allowed: a list of 4 different cards of its hand with the kitty"):  # fmt: skip
        GAME.replay(DEFAULT, lineup(*bots), 2, 0, None)


# --- C7 -----------------------------------------------------------------------------

# (hand, cards already in the trick, legal cards) - derived by hand from C7.
C7_LEGAL = [
    ("SA S5 CJ H2", "", "SA S5 CJ H2"),  # leading: any card
    ("SA S5 CJ H2", "S9", "SA S5"),  # follow the led suit
    ("SA S5 CJ H2", "C9 CA", "CJ"),
    ("H2 D3 C4", "S9 SK", "H2 D3 C4"),  # void: any card
    ("CJ H3", "SK", "CJ H3"),  # trump S: the false jack CJ is a club, not a spade - void in spades
    ("CJ S4 H3", "SK", "S4"),  # ... and it does not follow spades
    ("CJ C4 H3", "C9", "CJ C4"),  # the false jack follows clubs
    ("SA D3", "H5", "SA D3"),  # the ace of spades is a spade: void in hearts
    ("SA S2 D3", "S9", "SA S2"),  # ... and it follows spades
    ("HJ H2", "D5 DA", "HJ H2"),  # trump D: the false jack HJ does not follow diamonds
]


@pytest.mark.parametrize("case", C7_LEGAL)
def test_C7_golden_legal_cards(case):
    """C7: a player must follow the led suit if able, otherwise any card; every card keeps its printed suit."""
    hand, trick, expected = cards(case[0]), cards(case[1]), set(cards(case[2]))
    assert ref.legal_cards(hand, trick) == kernel_legal(hand, trick) == expected


def test_C7_left_of_dealer_leads_then_the_winner():
    """C7: the player left of the dealer leads the first trick; the winner of a trick leads the next."""
    for players in PLAYERS:
        log = []
        bots = [Recorder(limit=12, log=log) for _ in range(players)]
        record = GAME.replay(callpartner_rules(players), lineup(*bots), 40, 1, None)
        check_replay(record)
        plays = [seat for kind, seat in log if kind == "play"]
        expected = [(t["leader"] + i) % players for t in record["tricks"] for i in range(players)]
        assert plays == expected and record["tricks"][0]["leader"] == (record["dealer"] + 1) % players


def random_states(n: int, seed: int):
    """Random C7 states (hand, trick so far), biased towards holding the led suit or being void in it."""
    gen = np.random.default_rng(seed)
    for _ in range(n):
        perm = [ref.DECK[c] for c in gen.permutation(52)]
        k = int(gen.integers(0, 5))
        trick, rest = perm[:k], perm[k:]
        size = int(gen.integers(1, 17))
        if trick and gen.random() < 0.3:  # void in the led suit
            rest = [c for c in rest if c[0] != trick[0][0]]
        yield rest[:size], trick


def test_C7_kernel_matches_reference_on_random_states():
    """C7: rules.legal_mask equals the reference on 24000 random states; the legal set is never empty and is
    inside the hand; both cases (follow, void) are common."""
    seen = {"lead": 0, "follow": 0, "void": 0}
    for hand, trick in random_states(24000, 7):
        expected = ref.legal_cards(hand, trick)
        assert expected and expected <= set(hand)
        assert kernel_legal(hand, trick) == expected, (hand, trick)
        seen["lead" if not trick else "follow" if any(c[0] == trick[0][0] for c in hand) else "void"] += 1
    assert min(seen.values()) > 3000, seen


# --- C8 -----------------------------------------------------------------------------

# (trick in play order, trump, winning position, the rule that decides) - derived by hand from C8.
C8_GOLDEN = [
    ("H9 SA HA HK", "H", 1, 1),  # 1: the ace of spades beats trumps
    ("D4 C8 SA D9", "C", 2, 1),  # 1: ... and a trick it does not follow
    ("HJ SA H2 HA", "H", 1, 1),  # 1 over 2: the ace of spades beats the true jack
    ("S5 SA S2 SK", "D", 1, 1),  # 1 over 4: the ace of spades in a one-suit trick with the 2
    ("SJ CJ SA S2", "S", 2, 1),  # 1 over 2 and 3
    ("DA DJ DK S3", "D", 1, 2),  # 2: the true jack beats the trump ace
    ("HJ C4 DJ DA", "D", 2, 2),  # 2 over 3: the true jack beats the false jack
    ("H2 HJ H5 HA", "H", 1, 2),  # 2 over 4: the true jack in a one-suit trump trick with the 2
    ("CJ S2 SK", "C", 0, 2),  # 2, three players
    ("S9 CJ SK SQ", "S", 1, 3),  # 3: the false jack (clubs for spades) beats trumps
    ("SJ CA CK C2", "C", 0, 3),  # 3: for clubs the false jack is SJ
    ("DJ H4 HA HK", "H", 0, 3),  # 3: for hearts DJ
    ("HJ D4 DA DK C2", "D", 0, 3),  # 3: for diamonds HJ; five players
    ("C2 CJ CK C5", "S", 1, 3),  # 3 over 4: the false jack in a one-suit trick with the 2
    ("H5 HK H2 HA", "C", 2, 4),  # 4: a one-suit trick with its 2
    ("HA HK H2 HQ", "H", 2, 4),  # 4 over 5: the trump 2 beats high trumps when all are trumps
    ("D2 D9 DT", "S", 0, 4),  # 4: three players
    ("C3 C2 CA CK CQ", "H", 1, 4),  # 4: five players
    ("CJ C2 C9 CA", "H", 1, 4),  # 4: a jack of another colour is an ordinary card
    ("H5 HK H2 S3", "C", 3, 6),  # not 4: two suits; 6: the spade discard beats the led hearts
    ("HA C2 HK C3", "C", 3, 5),  # 5: the highest trump (not 4: two suits)
    ("SK D3 SQ S2", "D", 1, 5),  # 5 over 6: a trump beats a higher suit
    ("D7 HA D8 D9", "D", 3, 5),  # 5: trumps by rank
    ("D5 DA C9 DK", "H", 1, 6),  # 6: no trump: the highest diamond (D above C)
    ("D5 DA H2 DK", "C", 2, 6),  # 6: a higher-suit discard (H2) beats the led suit
    ("C9 CA DT S3", "H", 3, 6),  # 6: spades highest suit present
    ("S3 S9 ST S4", "H", 2, 6),  # 6: one suit without its 2: the highest card
    ("HJ H3 HQ C9", "S", 2, 6),  # 6: HJ is an ordinary heart when spades are trumps (false jack CJ)
]


@pytest.mark.parametrize("case", C8_GOLDEN)
def test_C8_golden_tricks(case):
    """C8: the first rule that applies decides: ace of spades, true jack, false jack, a one-suit trick's 2, the
    highest trump, the highest card of the highest-ranked suit present."""
    text, trump, winner, rule = case
    trick = cards(text)
    assert ref.winning_rule(trick, trump) == rule
    assert ref.trick_winner(trick, trump) == kernel_winner(trick, trump) == winner


def test_C8_true_and_false_jacks():
    """C8.2/3: the true jack is the trump suit's jack, the false jack the other jack of the same colour."""
    assert [ref.false_jack(t) for t in SUITS] == ["CJ", "DJ", "HJ", "SJ"]
    for t, trump in enumerate(SUITS):
        assert ref.name(rules.TRUE_JACK[t]) == ref.true_jack(trump) == trump + "J"
        assert ref.name(rules.FALSE_JACK[t]) == ref.false_jack(trump)


def random_tricks(n: int, seed: int):
    """Random tricks of 3-5 cards, biased towards one-suit tricks, tricks holding their 2 and special cards."""
    gen = np.random.default_rng(seed)
    for _ in range(n):
        size, trump, mode = int(gen.integers(3, 6)), SUITS[int(gen.integers(4))], int(gen.integers(4))
        if mode == 0:  # one suit
            s = SUITS[int(gen.integers(4))]
            trick = [s + r for r in gen.choice(list(ref.RANKS), size, replace=False)]
        elif mode == 1:  # one suit holding its 2
            s = SUITS[int(gen.integers(4))]
            trick = [s + "2"] + [s + r for r in gen.choice(list(ref.RANKS[1:]), size - 1, replace=False)]
            gen.shuffle(trick)
        else:
            trick = [ref.DECK[c] for c in gen.choice(52, size, replace=False)]
        yield trick, trump


def test_C8_kernel_matches_reference_on_random_tricks():
    """C8: rules.trick_winner equals the reference on 24000 random tricks of 3-5 cards; every rule decides
    hundreds of them."""
    seen = dict.fromkeys(range(1, 7), 0)
    for trick, trump in random_tricks(24000, 11):
        assert kernel_winner(trick, trump) == ref.trick_winner(trick, trump), (trick, trump)
        seen[ref.winning_rule(trick, trump)] += 1
    assert min(seen.values()) > 500, seen


def test_C8_incremental_winner_equals_whole_trick():
    """C8 in the drivers: the state machine's card step (``state.play_card``: the key kept card by card) and its end
    of trick (``state.end_trick``: rule 4, the points) give the trick to the winner of rules.trick_winner (which the
    replay record and the strong bot's info set use) and of the reference, with its points (C2)."""
    for trick, trump in random_tricks(3000, 12):
        t, n = SUITS.index(trump), len(trick)
        regs = (rules.NO_SUIT, -1, 0, True, -1, np.uint64(0), False)  # led, top key, winner, one suit, 2, trick, seen
        for i, card in enumerate(trick):
            regs = state.play_card(ref.index(card), i, i, t, -1, *regs)
        points = np.zeros(n, np.int64)
        winner = int(state.end_trick(regs[2], regs[1], regs[3], regs[4], regs[5], points))
        assert winner == kernel_winner(trick, trump) == ref.trick_winner(trick, trump), (trick, trump)
        assert list(points) == [ref.points(trick) * (s == winner) for s in range(n)]


# --- C9 -----------------------------------------------------------------------------

# (players, declarer, partner, bid, trick points, discard points, discards_count, side points, scores)
C9_GOLDEN = [
    (4, 0, 2, 12, [8, 3, 4, 3], 2, True, 14, [12, 3, 12, 3]),  # made: +bid each, defenders their points
    (4, 0, 2, 12, [6, 5, 4, 3], 2, True, 12, [12, 5, 12, 3]),  # exactly the bid is made
    (4, 1, 3, 15, [2, 6, 5, 4], 3, True, 13, [2, -15, 5, -15]),  # failed: -bid each
    (4, 1, 3, 15, [2, 6, 5, 4], 3, False, 10, [2, -15, 5, -15]),
    (4, 2, -1, 10, [4, 3, 9, 2], 2, True, 11, [4, 3, 10, 2]),  # no partner: the declarer alone
    (4, 2, -1, 10, [4, 3, 9, 2], 2, False, 9, [4, 3, -10, 2]),  # the discards decide
    (3, 0, 1, 20, [12, 6, 0], 2, True, 20, [20, 20, 0]),
    (5, 4, 0, 11, [3, 1, 2, 4, 8], 2, True, 13, [11, 1, 2, 4, 11]),
]


@pytest.mark.parametrize("case", C9_GOLDEN)
def test_C9_score_of_a_deal(case):
    """C9: the declaring side scores +bid each if its points reach the bid, else -bid each; every defender scores
    the points in the tricks it won itself."""
    players, declarer, partner, bid, points, discard, counts, side, expected = case
    scores = np.zeros(players, np.int64)
    got = rules.score_deal(players, declarer, partner, bid, np.array(points, np.int64), discard, counts, scores)
    assert (int(got), [int(x) for x in scores]) == (side, expected)
    assert ref.scores(players, declarer, None if partner < 0 else partner, bid, points, discard, counts) == (
        side, side >= bid, expected,
    )  # fmt: skip


@pytest.mark.parametrize("players", PLAYERS)
def test_C9_scores_in_played_deals(players):
    """C9: in 5000 played deals (random bots) every score is +-bid for the side and the own points for defenders."""
    r = callpartner_rules(players)
    deals = by_deal(GAME.run(r, GAME.lineup("random", r), 9, 0, 5000, False))
    seats = np.arange(players)
    d = deals["declarer"][:, None]
    on_side = (seats == d) | (seats == deals["partner"][:, None])
    bid = deals["bid"].astype(int)[:, None]
    expected = np.where(on_side, np.where(deals["made"][:, None], bid, -bid), deals["points"])
    expected[d[:, 0] < 0] = 0
    assert (deals["score"] == expected).all()
    declared = deals["declarer"] >= 0
    assert (deals["made"] == (declared & (deals["side_points"] >= deals["bid"]))).all()
    assert deals["made"][declared].any() and not deals["made"][declared].all()


# --- C10 ----------------------------------------------------------------------------


def test_C10_game_over_kernel():
    """C10: a game ends when a player has the target or more after a deal, or after max_deals deals."""
    go = lambda totals, deals, target=52, cap=60: bool(rules.game_over(np.array(totals, np.int64), len(totals),
                                                                        deals, target, cap))  # fmt: skip
    assert not go([51, 40, -10, 0], 5)
    assert go([52, 40, -10, 0], 5) and go([10, 70, 60], 3)
    assert not go([10, 20, 30, 40, 50], 59) and go([10, 20, 30, 40, 50], 60)
    assert go([5, 5, 5, 5], 1, target=5) and go([0, 0, 0, 0], 3, cap=3)
    assert (DEFAULT.target, DEFAULT.max_deals) == (52, 60)


@pytest.mark.parametrize("players, options", [(4, {}), (3, {"target": 30}), (5, {"max_deals": 8}), (4, {"target": 1})])
def test_C10_whole_games(players, options):
    """C10: deals continue until a player has the target after a deal (or max_deals); totals are the sums of the
    deals' scores; the highest total wins, ties share."""
    r = callpartner_rules(players, **options)
    batch = GAME.run(r, GAME.lineup("heuristic", r), 13, 0, 800, True)
    scores = np.where(batch.valid[:, :, None], batch.per_seat["score"], 0).astype(int)
    totals = scores.cumsum(axis=1)
    played = batch.played
    assert played.min() >= 1 and played.max() <= r.max_deals
    for g in range(len(played)):
        before = totals[g, : played[g] - 1]
        assert (before.max(axis=1) < r.target).all()  # nobody reached the target earlier
        assert totals[g, played[g] - 1].max() >= r.target or played[g] == r.max_deals
    final = totals[np.arange(len(played)), played - 1]
    assert (batch.game_totals == final).all()
    best = final == final.max(axis=1, keepdims=True)
    assert np.allclose(batch.game_wins(), best / best.sum(axis=1, keepdims=True))
    if "max_deals" in options:
        assert (played == r.max_deals).any()


def test_C10_replay_of_a_deal_inside_a_game():
    """C10/D3: deal d of game g replays exactly as played in the games run; a deal after the end is refused."""
    lu = GAME.lineup("heuristic,random,heuristic,random")
    rows = simulate("callpartner", "heuristic,random,heuristic,random", games=6, seed=4, keep_rows=True).rows
    for g in range(6):
        game_rows = rows[rows["game_no"] == g]
        for d in (0, int(game_rows["round"].max())):
            record = GAME.replay(DEFAULT, lu, 4, d, g)
            got = game_rows[game_rows["round"] == d]
            assert list(got["score"]) == record["scores"] and list(got["points"]) == record["points"]
            assert got["dealer"].iloc[0] == record["dealer"]
            check_replay(record)
        with pytest.raises(CardsimError, match=f"game {g} of seed 4 ended after"):
            GAME.replay(DEFAULT, lu, 4, int(game_rows["round"].max()) + 1, g)


# --- properties of played deals ------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    rnd=st.integers(0, 10**6),
    players=st.sampled_from(PLAYERS),
    bots=st.lists(st.sampled_from(["random", "heuristic", "py"]), min_size=5, max_size=5),
    settings_=st.fixed_dictionaries(
        {"all_pass": st.sampled_from(["redeal", "dealer_forced"]), "discards_count": st.booleans()}
    ),
)
def test_property_played_deal_follows_the_rules(seed, rnd, players, bots, settings_):
    """C2-C9 on random deals: 20 points per deal with the discards; every card once (with the kitty); the partner
    holds the called card; every card played was legal, the legal set never empty and inside the hand."""
    lu = lineup(*(PyRandomBot() if b == "py" else b for b in bots[:players]))
    check_replay(GAME.replay(callpartner_rules(players, **settings_), lu, seed, rnd, None))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), players=st.sampled_from(PLAYERS), bot=st.sampled_from(["random", "heuristic"]))
def test_property_compiled_deals_conserve_points(seed, players, bot):
    """C2/C6: in compiled runs, trick points plus the discards' points are 20 in every played deal; the side's
    points never exceed 20."""
    r = callpartner_rules(players)
    deals = by_deal(GAME.run(r, GAME.lineup(bot, r), seed, 0, 2000, False))
    d = deals["declarer"] >= 0
    tricks = deals["points"].astype(int).sum(axis=1)
    assert (tricks[d] <= 20).all() and (tricks[d] >= 20 - ref.KITTY[players]).all()
    assert (deals["side_points"][d] <= 20).all() and (tricks[~d] == 0).all()


# --- D1-D3 -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings_, players, match",
    [
        ({"kitty": 3}, None, "callpartner has no rule 'kitty'; its rules are: players, all_pass"),
        ({}, 6, r"callpartner rule players=6 is not allowed: use an integer from 3 to 5"),
        ({}, 2, r"players=2 is not allowed"),
        ({"all_pass": "shuffle"}, None, r"all_pass='shuffle' is not allowed: use one of redeal, dealer_forced"),
        ({"discards_count": "maybe"}, None, r"discards_count='maybe' is not allowed: use one of False, True"),
        ({"target": 0}, None, r"target=0 is not allowed: use an integer from 1 to 1000"),
        ({"max_deals": 201}, None, r"max_deals=201 is not allowed: use an integer from 1 to 200"),
    ],
)
def test_D1_bad_rules_refused(settings_, players, match):
    """D1: an unknown option or an impossible value is refused before anything runs, naming option and values."""
    with pytest.raises(CardsimError, match=match):
        GAME.make_rules(settings_, players)


def test_D1_rules_checked_when_built_directly():
    """D1: the rules class refuses bad values given to it directly, too."""
    with pytest.raises(CardsimError, match="callpartner rule players=7 is not allowed: use an integer from 3 to 5"):
        rules.CallPartnerRules(players=7)
    with pytest.raises(CardsimError, match="callpartner rule all_pass='none' is not allowed"):
        rules.CallPartnerRules(all_pass="none")
    with pytest.raises(CardsimError, match="discards_count=1 is not allowed"):
        rules.CallPartnerRules(discards_count=1)
    assert rules.CallPartnerRules(players=5).kitty == 2


def test_D1_cli_errors(capsys):
    """D1: the CLI refuses bad players and rules with one line and exit code 2."""
    for argv, message in (
        (["simulate", "callpartner", "--players", "6"], "players='6' is not allowed: use an integer from 3 to 5"),
        (["simulate", "callpartner", "--rule", "all_pass=never"], "all_pass='never' is not allowed"),
        (["simulate", "callpartner", "--bots", "random,random"], "callpartner needs 4 bots, one per seat, but 2"),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("cardsim: error: ") and message in err and err.count("\n") == 1


class IllegalCard(Recorder):
    def play(self, obs):
        return next(c for c in ref.DECK if c not in obs.legal)


def test_D2_illegal_card_refused():
    """D2: a card that is not legal stops the run, naming the bot, the seed, the round and the decision."""
    with pytest.raises(CardsimError, match=r"bot 'IllegalCard' \(seat \d\) in callpartner, seed 5, round 3, "
                       r"trick 1, card \d: played \w\w, which is not legal; legal: "):  # fmt: skip
        GAME.replay(DEFAULT, lineup(*[IllegalCard() for _ in range(4)]), 5, 3, None)
    with pytest.raises(CardsimError, match=r"seed 5, game 2, round 0, trick 1, card \d: played"):
        GAME.replay(DEFAULT, lineup(*[IllegalCard() for _ in range(4)]), 5, 0, 2)


def test_D2_bot_exception_names_the_decision():
    """D2: an exception inside a Python bot stops the run with the bot, the decision and where it was raised."""

    class Crash(Recorder):
        def discard(self, obs):
            raise RuntimeError("no idea")

    with pytest.raises(CardsimError, match=r"discard: raised RuntimeError: no idea \(at test_callpartner_rules"):
        GAME.replay(DEFAULT, lineup(*[Crash(limit=15) for _ in range(4)]), 1, 1, None)


def test_D3_same_parquet_with_one_and_two_threads(tmp_path):
    """D3: the same seed gives the same rows, bit for bit, with 1 or 2 threads (single deals and games)."""
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    for kwargs in ({"rounds": 3000}, {"games": 300}):
        for threads, path in ((1, one), (2, two)):
            simulate("callpartner", "random,heuristic,random,heuristic,heuristic", players=5, seed=11,
                     threads=threads, out=path, force=True, rules={"all_pass": "dealer_forced"}, **kwargs)  # fmt: skip
        a, b = pq.read_table(one), pq.read_table(two)
        assert a.equals(b) and (a.num_rows == 3000 * 5 if "rounds" in kwargs else a.num_rows > 300 * 5)
    assert a.column_names == [
        "game", "rules", "seed", "game_no", "round", "seat", "bot", "dealer", "declarer", "bid", "trump",
        "called_card", "partner", "side_points", "made", "points", "score", "game_total", "game_win",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "players, options, bots",
    [(4, {}, "random"), (3, {"all_pass": "dealer_forced"}, "heuristic,random,heuristic"),
     (5, {"discards_count": False}, "heuristic"), (4, {"target": 20, "max_deals": 10}, "random,heuristic")],
)  # fmt: skip
@pytest.mark.parametrize("games", [False, True])
def test_D3_compiled_and_python_drivers_agree(players, options, bots, games):
    """D3: the compiled batch kernel and the plain-Python driver give identical rows for built-in bots."""
    r = callpartner_rules(players, **options)
    names = bots.split(",")
    lu = GAME.lineup([names[s % len(names)] for s in range(players)], r)
    start, count = (1000, 12) if games else (500, 150)
    fast = GAME.run(r, lu, 77, start, count, games).rows()
    slow = GAME.run(r, lu, 77, start, count, games, engine="python").rows()
    assert fast.keys() == slow.keys()
    for key in fast:
        assert fast[key].dtype == slow[key].dtype, key
        assert np.array_equal(fast[key], slow[key]), key


def test_D3_rates_and_summary():
    """The summary's rates: declared, made as declarer and made as partner, per seat, from the deals."""
    result = simulate("callpartner", "heuristic,random,random,random", rounds=4000, seed=2, keep_rows=True)
    rows, summary = result.rows, result.summary
    for seat in range(4):
        mine = rows[rows["seat"] == seat]
        declared = mine["declarer"] == seat
        assert summary.loc[seat, "declared_rate"] == pytest.approx(declared.mean())
        assert summary.loc[seat, "made_as_declarer_rate"] == pytest.approx((declared & mine["made"]).mean())
        assert summary.loc[seat, "made_as_partner_rate"] == pytest.approx(
            ((mine["partner"] == seat) & mine["made"]).mean()
        )
    assert summary.loc[0, "mean_score"] > summary.loc[1:, "mean_score"].max()  # the heuristic beats random bots


def test_replay_json_and_text():
    """The replay record has the documented fields and prints readably."""
    record = GAME.replay(DEFAULT, GAME.lineup("heuristic"), 7, 3, None)
    assert list(record) == [
        "game", "rules", "seed", "round", "game_no", "bots", "players", "dealer", "hands", "kitty", "auction",
        "declarer", "bid", "trump", "called_card", "partner", "discards", "tricks", "points", "side_points", "made",
        "scores", "start", "actions",
    ]  # fmt: skip
    assert record["rules"] == {"players": 4, "all_pass": "redeal", "discards_count": True, "target": 52,
                               "max_deals": 60}  # fmt: skip
    check_replay(record)
    text = GAME.format_replay(record)
    assert "trick 12:" in text and f"kitty: {' '.join(record['kitty'])}" in text and "declaring side:" in text
