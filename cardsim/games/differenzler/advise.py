"""Differenzler bid advice: the expected penalty of every prediction 0..157 for a hand and the shown trump card.

Seats count from First Hand: seat 0 predicts first and leads the first trick
(A6), seat 3 is the dealer, who holds the shown trump card (A5). A completion
deals the 27 unseen cards around the hand, the dealer always getting the
trump card; then, for every prediction p, the seat predicts p and its bot
plays towards it (the heuristic takes points while below its prediction),
the others predict and play with their own bots. All 158 predictions of a
sample play the same deal with the same random draws (common random numbers),
so the differences between predictions are measured much more precisely than
each mean alone. Sample ``s`` of hand ``key`` uses the streams (seed, s, key):
the numbers do not depend on the threads.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from numba import njit, prange

from bots.differenzler import act, heuristic_prediction, sweep_predictions
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
from cardsim.analysis import Z95
from cardsim.cards import JASS36, bit
from cardsim.deal import draw_cards
from cardsim.errors import CardsimError
from cardsim.games.differenzler.rules import (
    ACE,
    MAX_PREDICTION,
    PLAYERS,
    POINTS,
    SUIT_MASK,
    TRICKS,
    penalty,
)
from cardsim.games.differenzler.state import (
    FIRST_HAND,
    TRUMP_CARD,
    Params,
    apply,
    deal,
    new_state,
    params,
    start,
    to_move,
)
from cardsim.lineup import Bots
from cardsim.options import RuleSettings, rules_text
from cardsim.rng import DEAL_STREAM, check_seed, seed_streams
from cardsim.validation import checked

OPTIONS = MAX_PREDICTION + 1  # predictions 0..157
DEALER = np.int64(PLAYERS - 1)  # seats count from First Hand; typed, not a literal (start compiles once)
FULL_DECK = np.uint64((1 << 36) - 1)
BLOCK = 4  # samples per parallel work item (each plays 158 rounds)
ACE_VALUE = 11


@njit(cache=True)
def deal_completion(rng: np.ndarray, hand: np.uint64, seat: int, trump_card: int, hands: np.ndarray) -> None:
    """A uniform deal of the unseen cards around ``hand`` (at ``seat``), the dealer (seat 3) holding ``trump_card``."""
    hands[seat] = hand
    deck = FULL_DECK ^ hand
    if seat != DEALER:
        deck ^= bit(trump_card)
        drawn = draw_cards(rng, DEAL_STREAM, deck, TRICKS - 1)
        hands[DEALER] = drawn | bit(trump_card)
        deck ^= drawn
    for s in range(PLAYERS):
        if s != seat and s != DEALER:
            hands[s] = draw_cards(rng, DEAL_STREAM, deck, TRICKS)
            deck ^= hands[s]


class Question(NamedTuple):
    """What the advice is asked: the seat's ``hand`` (a mask) at ``seat`` (0 = First Hand) and the dealer's shown
    ``trump_card``."""

    hand: np.uint64
    seat: int
    trump_card: int


@njit(cache=True)
def _complete_block(seed: np.uint64, key: int, question: Question, rules: Params, bots: np.ndarray,
                    points: np.ndarray, penalties: np.ndarray, block: int) -> None:  # fmt: skip
    """Samples ``block * BLOCK ..`` of ``completions`` (a function of its own: numba's parfor passes would drop
    writes into the State's arrays as dead code)."""
    hand, seat, trump_card = question
    s = new_state(np.int64(PLAYERS))
    hands = np.empty(PLAYERS, np.uint64)
    out, took = np.empty(OPTIONS, np.int64), np.empty(OPTIONS, np.int64)
    for sample in range(block * BLOCK, min(points.shape[0], (block + 1) * BLOCK)):
        seed_streams(s.rng, seed, sample, key, s.rng.shape[0])
        deal_completion(s.rng, hand, seat, trump_card, hands)
        start(s, rules, DEALER, hands, trump_card)  # First Hand is seat 0
        for _ in range(PLAYERS):  # A7 in turn; the seat's own prediction is swept below
            mover = to_move(s)
            apply(s, rules, 0 if mover == seat else act(int(bots[mover, 0]), s, rules, mover))
        sweep_predictions(s, bots, seat, out, took)
        for p in range(OPTIONS):
            points[sample, p] = out[p]
            penalties[sample, p] = penalty(p, out[p], took[p] == 1, rules.exact_bonus, rules.zero_bonus)


@njit(parallel=True, cache=True)
def completions(seed: np.uint64, key: int, question: Question, rules: Params, bots: np.ndarray, points: np.ndarray,
                penalties: np.ndarray) -> None:  # fmt: skip
    """points/penalties[sample, p] (int16[samples, 158]) of the asked seat when it predicts p, one deal per sample
    played for every p (``sweep_predictions``: a few plays give all 158), the penalties under ``rules`` (A10,
    A13: its ``exact_bonus`` and ``zero_bonus``)."""
    for block in prange((points.shape[0] + BLOCK - 1) // BLOCK):
        _complete_block(seed, key, question, rules, bots, points, penalties, block)


def hand_features(hand: int, trump: int, seat: int) -> dict[str, int]:
    """Trump points, trumps and side aces of a hand, the Swiss TV rule of thumb and the heuristic bot's prediction
    at ``seat`` (0 = First Hand).

    The rule of thumb predicts 2 x the points of one's trumps + 11 per ace of a
    side suit (the trump ace already counts among the trump points).
    """
    trumps = hand & int(SUIT_MASK[trump])
    trump_points = sum(int(POINTS[trump, c]) for c in JASS36.cards_of(trumps))
    aces = sum(hand >> JASS36.card(s, ACE) & 1 for s in range(4) if s != trump)
    return {
        "trump_points": trump_points,
        "trumps": bin(trumps).count("1"),
        "aces": aces,
        "rule_of_thumb": min(MAX_PREDICTION, 2 * trump_points + ACE_VALUE * aces),
        "heuristic": int(heuristic_prediction(np.uint64(hand), trump, seat)),
    }


def _evaluate(
    seed: int, key: int, hand: int, seat: int, trump_card: int, bots: np.ndarray, p: Params, samples: int
) -> tuple[pd.DataFrame, np.ndarray]:
    """The table of predictions (expected penalty under the rules' ``p``, CI, mean points, exact rate) and
    points[sample, prediction]."""
    points = np.empty((samples, OPTIONS), np.int16)
    penalties = np.empty((samples, OPTIONS), np.int16)
    question = Question(np.uint64(hand), np.int64(seat), np.int64(trump_card))
    completions(np.uint64(seed), key, question, p, bots, points, penalties)
    options = option_table(range(OPTIONS), penalties)
    options["mean_points"] = points.mean(axis=0)
    options["exact_rate"] = (points == np.arange(OPTIONS)).mean(axis=0)
    return options, points


def _trump_card(trump: str | None, hand: int, seat: int) -> int:
    if trump is None:
        raise CardsimError("differenzler advice needs the dealer's shown trump card, e.g. trump='H6' (--trump H6)")
    card = JASS36.parse(trump)
    held = bool(hand >> card & 1)
    name = JASS36.name_of(card)
    if seat == DEALER and not held:
        raise CardsimError(f"seat {DEALER} is the dealer, who shows the trump card: {name} must be in the hand")
    if seat != DEALER and held:
        raise CardsimError(f"{name} is in the hand of seat {seat}, but the trump card is the dealer's (seat {DEALER})")
    return card


@checked
def advise(
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
    """The expected penalty (under the rules' ``exact_bonus`` and ``zero_bonus``) of every prediction 0..157 for
    ``hand`` at ``seat`` (0 = First Hand, 3 = dealer) with the dealer's shown card ``trump``; ``details`` has the
    seat's points distribution at the best prediction (its median, quantiles and histogram 0..157) and the rule of
    thumb."""
    rule_set, names, ids = completion_setup("differenzler", players, bots, rules, strong=False)
    mask = parse_hand(JASS36, hand, range(TRICKS, TRICKS + 1), "differenzler")
    seat = check_seat(seat, PLAYERS)
    trump_card = _trump_card(trump, mask, seat)
    samples, seed = check_count(samples, "samples"), check_seed(seed)
    options, points = _evaluate(seed, 0, mask, seat, trump_card, ids, params(rule_set), samples)
    best = best_option(options, lower_is_better=True)
    at_best = points[:, best]
    features = hand_features(mask, trump_card // 9, seat)
    details = {
        "median_points": float(np.median(at_best)),
        "points_quantiles": {f"{q}%": float(np.percentile(at_best, q)) for q in (5, 25, 50, 75, 95)},
        "mean_points": float(at_best.mean()),
        **{k: features[k] for k in ("trump_points", "trumps", "aces")},
        "rule_of_thumb": features["rule_of_thumb"],
        "rule_of_thumb_penalty": float(options["mean"][features["rule_of_thumb"]]),
        "heuristic_prediction": features["heuristic"],
        "heuristic_penalty": float(options["mean"][features["heuristic"]]),
        "points_histogram": np.bincount(at_best, minlength=OPTIONS).tolist(),
    }
    return Advice(
        "differenzler", JASS36.names(mask), seat, PLAYERS, JASS36.name_of(trump_card), names, samples, seed,
        True, options, best, details, rules_text(rule_set),
    )  # fmt: skip


@checked
def bid_table(
    *,
    hands: int,
    samples: int,
    seed: int = 0,
    players: int | None = None,
    bots: Bots = "heuristic",
    rules: RuleSettings = None,
) -> pd.DataFrame:
    """One row per random hand: its features, the optimal prediction and expected penalties.

    Hand h is the hand of seat h % 4 (from First Hand) in single round h of
    ``cardsim simulate differenzler --seed SEED``; its completions use keys 1 + h.
    Columns: hand, seat, trump_card, trump_points, trumps, aces, rule_of_thumb,
    heuristic (the heuristic bot's prediction), best_prediction, best_penalty and
    best_ci95, rule_of_thumb_penalty, heuristic_penalty, mean_points and
    median_points (at the best prediction).
    """
    rule_set, _, ids = completion_setup("differenzler", players, bots, rules, strong=False)
    hands, samples, seed = check_count(hands, "hands"), check_count(samples, "samples"), check_seed(seed)
    s, p = new_state(PLAYERS), params(rule_set)
    rows = []
    for h in range(hands):
        deal(s, p, np.uint64(seed), h, 0, -1)
        first_hand, trump_card = int(s.slots[FIRST_HAND]), int(s.slots[TRUMP_CARD])
        seat = h % PLAYERS
        hand = int(s.dealt[(first_hand + seat) % PLAYERS])
        options, points = _evaluate(seed, 1 + h, hand, seat, trump_card, ids, p, samples)
        best = best_option(options, lower_is_better=True)
        features = hand_features(hand, trump_card // 9, seat)
        rows.append({
            "hand": JASS36.names(hand), "seat": seat, "trump_card": JASS36.name_of(trump_card), **features,
            "best_prediction": best, "best_penalty": options["mean"][best], "best_ci95": options["ci95"][best],
            "rule_of_thumb_penalty": options["mean"][features["rule_of_thumb"]],
            "heuristic_penalty": options["mean"][features["heuristic"]],
            "mean_points": points[:, best].mean(), "median_points": float(np.median(points[:, best])),
        })  # fmt: skip
    return pd.DataFrame(rows)


def bid_figures(table: pd.DataFrame) -> dict[str, Any]:
    """Optimal prediction against the Swiss TV rule of thumb; by trump points and aces; penalties of three rules."""
    figures = {}
    fig, (ax,) = new_figure("Differenzler: optimal prediction vs the Swiss TV rule of thumb")
    ax.scatter(table["rule_of_thumb"], table["best_prediction"], s=10, alpha=0.4, label="one hand")
    top = max(table["rule_of_thumb"].max(), table["best_prediction"].max(), 1)
    ax.plot([0, top], [0, top], "k--", lw=1, label="prediction = rule of thumb")
    ax.set_xlabel("rule of thumb: 2 x trump points + 11 per side ace (points)")
    ax.set_ylabel("optimal prediction (points)")
    ax.legend()
    ax.grid(alpha=0.3)
    figures["differenzler_optimal_vs_rule"] = fig

    fig, (ax,) = new_figure("Differenzler: optimal prediction by trump points and side aces")
    binned = table.assign(trump_bin=(table["trump_points"] // 10) * 10 + 5, aces_group=table["aces"].clip(upper=3))
    plot_means(ax, binned, "trump_bin", "best_prediction", by="aces_group", label="{} side aces (optimum)")
    line = np.array([0, binned["trump_bin"].max()])
    for aces in sorted(binned["aces_group"].unique()):
        ax.plot(line, 2 * line + ACE_VALUE * aces, ":", color="grey")
    ax.plot([], [], ":", color="grey", label="rule of thumb")
    ax.set_xlabel("trump points in the hand (bins of 10, centre shown)")
    ax.set_ylabel("mean optimal prediction (points), 95% CI")
    ax.legend(fontsize="small")
    figures["differenzler_by_trump_points"] = fig

    fig, (ax,) = new_figure("Differenzler: expected penalty by how the prediction is chosen")
    rules = {"optimal": "best_penalty", "heuristic bot": "heuristic_penalty", "rule of thumb": "rule_of_thumb_penalty"}
    for i, (name, column) in enumerate(rules.items()):
        stats = table.groupby("seat")[column].agg(["mean", "std", "count"])
        half = Z95 * stats["std"].fillna(0.0) / np.sqrt(stats["count"])
        ax.bar(stats.index + 0.25 * (i - 1), stats["mean"], width=0.25, yerr=half, capsize=3, label=name)
    ax.set_xticks(range(PLAYERS), ["0 (first hand)", "1", "2", "3 (dealer)"])
    ax.set_xlabel("seat")
    ax.set_ylabel("mean expected penalty (points), 95% CI")
    ax.legend()
    ax.grid(alpha=0.3, axis="y")
    figures["differenzler_penalty_by_rule"] = fig
    return figures
