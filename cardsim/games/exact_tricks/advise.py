"""Bid advice for the exact-tricks family (Wizard, Oh Hell): the expected score of every bid 0..cards for a hand and
the trump the seat sees. A game's ``advise.py`` hands these functions on with its name (``functools.partial``).

The round size is the hand size. Seats count from the dealer's left: seat 0
bids first and leads the first trick, seat ``players - 1`` deals and bids
last. The trump is given as

* a suit letter ``S H D C``: the turned card is one of that suit's cards the
  hand does not hold, drawn anew in every completion;
* ``N`` (Wizard): no trump; a Jester was turned (one the hand does not hold),
  or, when the round deals all 60 cards, no card is left to turn (then ``N``
  is the only choice and the default);
* a card name, the turned card itself (``H7``, or a Jester ``J2`` for no
  trump). A turned Wizard is refused: the dealer then names the trump, so
  give that suit letter.

Oh Hell always turns a card (F3), so its trump is a suit letter or the card.

A completion deals the unseen cards around the hand; for every bid b the seat
bids b and its bot plays towards it, the others bid and play with their own
bots. With ``plus_minus_one`` the dealer may be refused a bid, depending on
the others' bids: such a completion does not count for that bid, and the
column ``allowed`` gives the share of completions where it was allowed. All
bids of a sample play the same deal with the same random draws (common
random numbers); sample ``s`` of hand ``key`` uses the streams (seed, s, key).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from numba import njit, prange

import bots.exact_tricks as builtin
from cardsim.advise import (
    Advice,
    best_option,
    check_count,
    check_seat,
    completion_setup,
    new_figure,
    option_table,
    parse_hand,
    plot_means,
)
from cardsim.cards import bit, nth_card, popcount
from cardsim.deal import deal_around
from cardsim.errors import CardsimError
from cardsim.games import Game, game_info, get_game
from cardsim.games.exact_tricks import state as st
from cardsim.games.exact_tricks.play import SUIT_LETTERS, run
from cardsim.games.exact_tricks.rules import (
    JESTER_MASK,
    NO_SUIT,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    WIZARD_MASK,
    ExactTricksRules,
    is_jester,
    is_wizard,
)
from cardsim.lineup import Bots, strong_table
from cardsim.numba_bots import raised
from cardsim.options import RuleSettings, rules_text
from cardsim.rng import DEAL_STREAM, below, check_seed
from cardsim.validation import checked

BLOCK = 16  # samples per parallel work item
REFUSED = -1  # tricks[sample, bid] of a bid plus_minus_one refused in that completion
HIGH_RANK = 10  # side-suit cards of rank 11, 12, 13 (rank index 10..12) count as high cards


@njit(cache=True)
def deal_completion(
    rng: np.ndarray, deck: np.uint64, hand: np.uint64, seat: int, players: int, turn_from: np.uint64,
    hands: np.ndarray,
) -> int:  # fmt: skip
    """A uniform deal of the unseen cards of ``deck`` around ``hand`` (at ``seat``; the dealer is seat players - 1).

    The turned card is drawn first among ``turn_from`` (0: none is turned).
    Returns the turned card, or -1.
    """
    deck ^= hand
    turned = -1
    if turn_from:
        turned = nth_card(turn_from, below(rng, DEAL_STREAM, popcount(turn_from)))
        deck ^= bit(turned)
    hands[seat] = hand
    deal_around(rng, DEAL_STREAM, deck, hands, seat, 0, players, popcount(hand))
    return turned


class Question(NamedTuple):
    """What a completion is asked about: the hand of ``seat`` (the dealer is seat players - 1), the cards the
    turned card is drawn from (0: none), the trump suit the seat sees, and the key of the completions' streams."""

    key: int
    hand: np.uint64
    seat: int
    turn_from: np.uint64
    trump: int


class Tally(NamedTuple):
    """What ``completions`` fills, [sample, bid]: the seat's score and tricks when it bids that bid."""

    scores: np.ndarray  # int16[samples, cards + 1]
    tricks: np.ndarray  # int8[samples, cards + 1], REFUSED where plus_minus_one refused the bid


@njit(cache=True)
def _complete(seed: np.uint64, sample: int, q: Question, p: st.Params, bots: np.ndarray, stop: np.ndarray,
              strong_bots: Any, out: Tally) -> None:  # fmt: skip
    """One sample of ``completions`` (a function of its own: numba loses writes through NamedTuple fields made
    directly in a prange body)."""
    scores, tricks = out
    players = p.players
    dealt, s = st.new_state(players), st.new_state(players)
    hands = np.empty(players, np.uint64)
    points = np.empty(players, np.int64)
    st.seed_round(dealt, seed, sample, q.key)
    turned = deal_completion(dealt.rng, p.deck, q.hand, q.seat, players, q.turn_from, hands)
    st.start(dealt, p, players - 1, hands, turned, q.trump)
    for b in range(scores.shape[1]):
        st.copy_into(s, dealt)
        run(s, p, stop, strong_bots, None)  # to the seat's bid
        if st.apply(s, p, b):
            run(s, p, bots, strong_bots, None)
            st.scores(s, p, points)
            scores[sample, b], tricks[sample, b] = points[q.seat], s.won[q.seat]
        else:
            scores[sample, b], tricks[sample, b] = 0, REFUSED


@njit(parallel=True, cache=True)
def completions(seed: np.uint64, q: Question, p: st.Params, bots: np.ndarray, strong_bots: Any,
                out: Tally) -> None:  # fmt: skip
    """out.scores/tricks[sample, b] of ``q.seat`` when it bids b (tricks -1: b refused), one deal per sample for every
    b: the round's state machine plays each completion, stopping at the seat's bid to apply b (``play.run`` with
    the seat's bot id -1), then on with the bots. ``strong_bots``: see ``play.run``."""
    samples = out.scores.shape[0]
    stop = bots.copy()
    stop[q.seat, 0] = -1
    for block in prange((samples + BLOCK - 1) // BLOCK):
        for sample in range(block * BLOCK, min(samples, (block + 1) * BLOCK)):
            _complete(seed, sample, q, p, bots, stop, strong_bots, out)


def hand_features(hand: int, trump: int) -> dict[str, int]:
    """Wizards, Jesters, trumps and high cards (side-suit cards of the three highest ranks) of a hand."""
    trumps = hand & int(SUIT_MASK[trump]) if trump >= 0 else 0
    side = [c for c in range(4 * 13) if hand >> c & 1 and SUIT_OF[c] != trump]
    return {
        "wizards": bin(hand & int(WIZARD_MASK)).count("1"),
        "jesters": bin(hand & int(JESTER_MASK)).count("1"),
        "trumps": bin(trumps).count("1"),
        "high_cards": sum(RANK_OF[c] >= HIGH_RANK for c in side),
    }


def _evaluate(
    game: str, seed: int, key: int, hand: int, seat: int, players: int, turn_from: int, trump: int, rules,
    bots: np.ndarray, samples: int,
) -> tuple[pd.DataFrame, np.ndarray]:  # fmt: skip
    """The table of bids (expected score, CI, chance to make it, mean tricks, allowed share) and tricks[sample, bid]."""
    options = bin(hand).count("1") + 1
    scores = np.empty((samples, options), np.int16)
    tricks = np.empty((samples, options), np.int8)
    q = Question(key, np.uint64(hand), seat, np.uint64(turn_from), trump)
    with raised(strong_table(bots) is not None):  # a strong bot's exception, which numba only prints
        completions(np.uint64(seed), q, st.params(rules), bots, get_game(game).strong_function(rules, bots),
                    Tally(scores, tricks))  # fmt: skip
    played = tricks != REFUSED
    table = option_table(range(options), scores, played)
    with np.errstate(invalid="ignore"):
        table["p_made"] = (tricks == np.arange(options)).sum(axis=0) / table["samples"]
        table["mean_tricks"] = np.where(played, tricks, 0).sum(axis=0) / table["samples"]
    table["allowed"] = played.mean(axis=0)
    return table, tricks


def _turned(game: Game, rules: ExactTricksRules, trump: str | None, hand: int) -> tuple[int, int, str]:
    """(cards the turned card is drawn from, trump suit, label) for the trump the seat was told."""
    cards, players, names = bin(hand).count("1"), rules.players, game.deck
    jesters = rules.deck & int(JESTER_MASK)
    if cards * players == rules.deck.bit_count():
        if trump is not None and trump.strip().upper() != "N":
            raise CardsimError(f"with {players} players and {cards} cards each no card is left to turn: "
                               "the trump is none (N)")  # fmt: skip
        return 0, NO_SUIT, "none (no card left to turn)"
    example = f"e.g. {names.name_of(13 + 5)}" + (f" or {names.name_of(57)}" if jesters else "")
    allowed = (f"a suit S, H, D or C{', N for no trump' if jesters else ''}, or the turned card, {example} "
               "(--trump)")  # fmt: skip
    if trump is None:
        raise CardsimError(f"{game.name} advice needs the trump: {allowed}")
    text = trump.strip().upper()
    if text in ("S", "H", "D", "C") or (text == "N" and jesters):
        suit = SUIT_LETTERS.find(text)  # -1 for N
        unseen = int(SUIT_MASK[suit] if suit >= 0 else JESTER_MASK) & rules.deck & ~hand
        what = f"a card of suit {text}" if suit >= 0 else "a Jester (no trump)"
        if not unseen:
            raise CardsimError(f"the hand holds every {'card of suit ' + text if suit >= 0 else 'Jester'}, "
                               f"so the turned card cannot be {what}")  # fmt: skip
        return unseen, suit, f"{text} (turned: {what} not in the hand)" if suit >= 0 else "none (a Jester turned)"
    try:
        card = names.parse(text)
    except CardsimError:
        raise CardsimError(f"trump {trump!r} is not allowed: give {allowed}") from None
    name = names.name_of(card)
    if not rules.deck >> card & 1:
        raise CardsimError(f"the turned card {name} is not in the deck of these rules: {names.names(rules.deck)}")
    if hand >> card & 1:
        raise CardsimError(f"the turned card {name} is in the hand")
    if is_wizard(card):
        raise CardsimError(f"a turned Wizard ({name}) lets the dealer name the trump: give that suit, S, H, D or C")
    if is_jester(card):
        return 1 << card, NO_SUIT, f"none (turned {name})"
    return 1 << card, int(SUIT_OF[card]), f"{SUIT_LETTERS[SUIT_OF[card]]} (turned {name})"


@checked
def advise(
    game: str,
    hand: str | list[str],
    *,
    seat: int = 0,
    trump: str | None = None,
    players: int | None = None,
    bots: Bots = "heuristic",
    samples: int = 2000,
    seed: int = 0,
    rules: RuleSettings = None,
) -> Advice:
    """The expected score of every bid 0..cards for ``hand`` (cards = its size) at ``seat`` (0 = the dealer's
    left, players - 1 = the dealer) with ``trump`` (see the module doc); ``p_made`` is the chance of making it."""
    front = get_game(game)
    rule_set, names, ids = completion_setup(front.name, players, bots, rules, strong=True)
    players = rule_set.players
    mask = parse_hand(front.deck, hand, range(1, rule_set.max_cards + 1), f"{players}-player {front.name}")
    if mask & ~rule_set.deck:
        raise CardsimError(f"the hand holds {front.deck.names(mask & ~rule_set.deck)}, outside the deck of these "
                           f"rules: {front.deck.names(rule_set.deck)}")  # fmt: skip
    cards = bin(mask).count("1")
    option, any_size = rule_set.cards_rule
    if getattr(rule_set, option) not in (any_size, cards):
        raise CardsimError(f"the round size is the hand size, {cards}, not the rule {option}="
                           f"{getattr(rule_set, option)}")  # fmt: skip
    seat = check_seat(seat, players)
    turn_from, trump_suit, label = _turned(front, rule_set, trump, mask)
    samples, seed = check_count(samples, "samples"), check_seed(seed)
    options, tricks = _evaluate(front.name, seed, 0, mask, seat, players, turn_from, trump_suit, rule_set, ids, samples)
    best = best_option(options, lower_is_better=False)
    at_best = tricks[:, best][tricks[:, best] != REFUSED]
    details = {
        "cards": cards,
        **{name: count for name, count in hand_features(mask, trump_suit).items()
           if rule_set.deck & int(WIZARD_MASK | JESTER_MASK) or name not in ("wizards", "jesters")},  # fmt: skip
        "heuristic_bid": int(builtin.heuristic_bid(st.params(rule_set).tables, np.uint64(mask), trump_suit, players,
                                                   cards, seat, -1)),
        "tricks_distribution": (np.bincount(at_best, minlength=cards + 1) / max(1, len(at_best))).tolist(),
    }
    return Advice(
        front.name, front.deck.names(mask), seat, players, label, names, samples, seed, False, options, best, details,
        rules_text(rule_set),
    )  # fmt: skip


@checked
def bid_table(
    game: str,
    *,
    hands: int,
    samples: int,
    seed: int = 0,
    players: int | None = None,
    bots: Bots = "heuristic",
    rules: RuleSettings = None,
    cards: int | None = None,
) -> pd.DataFrame:
    """One row per random hand: round size, seat, features, the best bid and expected scores.

    Hand h is seat h % players (from the dealer's left) in a round of ``cards``
    cards each (default: round sizes 1, 2, ..., the most in turn, each for
    ``players`` hands in a row), dealt as single round h of the engine with this
    seed deals it; a turned Wizard's trump is named by the dealer's bot.
    Completions use keys 1 + h. Columns: players, cards, seat, hand, turned,
    trump, wizards, jesters, trumps, high_cards, heuristic (the heuristic
    bot's bid), best_bid, best_score, best_ci95, p_made (at the best bid),
    heuristic_score (at the heuristic's bid).
    """
    front = get_game(game)
    rule_set, _, ids = completion_setup(front.name, players, bots, rules, strong=True)
    players, top = rule_set.players, rule_set.max_cards
    hands, samples, seed = check_count(hands, "hands"), check_count(samples, "samples"), check_seed(seed)
    if cards is not None:
        cards = check_count(cards, "cards", top)
    s, p = st.new_state(players), st.params(rule_set)
    rows = []
    for h in range(hands):
        seat, size = h % players, cards or 1 + (h // players) % top
        st.deal(s, p._replace(schedule=np.array([size], np.int64)), np.uint64(seed), h, 0, -1)
        dealer, turned = int(s.slots[st.DEALER]), int(s.slots[st.TURNED])
        hand = int(s.hands[(dealer + 1 + seat) % players])
        if turned < 0 or is_jester(turned):
            trump = NO_SUIT
        elif is_wizard(turned):  # the dealer's bot names it (advice counts seats from the dealer's left)
            trump = int(builtin.choose_trump(int(ids[players - 1, 0]), s.rng, players, s.hands[dealer], players,
                                             builtin.game_data(p)))
        else:
            trump = int(SUIT_OF[turned])
        turn_from = 1 << turned if turned >= 0 else 0
        options, _ = _evaluate(game, seed, 1 + h, hand, seat, players, turn_from, trump, rule_set, ids, samples)
        best = best_option(options, lower_is_better=False)
        heuristic = int(builtin.heuristic_bid(p.tables, np.uint64(hand), trump, players, size, seat, -1))
        rows.append({
            "players": players, "cards": size, "seat": seat, "hand": front.deck.names(hand),
            "turned": front.deck.name_of(turned) if turned >= 0 else "",
            "trump": SUIT_LETTERS[trump] if trump >= 0 else "",
            **hand_features(hand, trump), "heuristic": heuristic, "best_bid": best,
            "best_score": options["mean"][best], "best_ci95": options["ci95"][best], "p_made": options["p_made"][best],
            "heuristic_score": options["mean"][heuristic],
        })  # fmt: skip
    return pd.DataFrame(rows)


def bid_figures(game: str, table: pd.DataFrame) -> dict[str, Any]:
    """Optimal bid by Wizards (where the deck has them), trumps and high cards (per round-size group), by seat, and
    the score it gains."""
    info, figures = game_info(game), {}
    top = int(table["cards"].max())
    edges = sorted({0, *np.linspace(0, top, 5).round().astype(int)[1:]})
    names = [f"{a + 1}-{b}" if b > a + 1 else str(b) for a, b in zip(edges, edges[1:], strict=False)]
    groups = pd.cut(table["cards"], edges, labels=names)
    grouped = table.assign(round_size=groups)
    features = [("trumps", "trumps"), ("high_cards", "high side cards (the three highest ranks)")]
    if table["wizards"].any() or table["jesters"].any():
        features.insert(0, ("wizards", "Wizards"))
    fig, axes = new_figure(f"{info.title}: optimal bid by hand features, per round size (cards each)",
                           panels=len(features), width=4.6)  # fmt: skip
    for ax, (column, label) in zip(axes, features, strict=True):
        plot_means(ax, grouped, column, "best_bid", by="round_size", label="{} cards")
        ax.set_xlabel(f"{label} in the hand")
        ax.set_ylabel("mean optimal bid (tricks), 95% CI")
    axes[0].legend(fontsize="small", title="round size")
    figures[f"{game}_bid_by_features"] = fig

    fig, (ax,) = new_figure(f"{info.title}: optimal bid by round size and seat")
    plot_means(ax, table, "cards", "best_bid", by="seat", label="seat {}")
    ax.set_xlabel("round size (cards each)")
    ax.set_ylabel("mean optimal bid (tricks), 95% CI")
    ax.legend(title="seat (0 bids first)", fontsize="small")
    figures[f"{game}_bid_by_seat"] = fig

    fig, (ax,) = new_figure(f"{info.title}: expected score at the optimal bid and at the heuristic bot's bid")
    plot_means(ax, table, "cards", "best_score", label="optimal bid")
    plot_means(ax, table, "cards", "heuristic_score", label="the heuristic bot's bid")
    ax.set_xlabel("round size (cards each)")
    ax.set_ylabel("mean expected score per round, 95% CI")
    ax.legend()
    figures[f"{game}_score_by_bid_rule"] = fig
    return figures
