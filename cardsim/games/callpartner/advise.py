"""Call-partner bid advice: what passing and each bid level 10..20 are worth for one hand (RULES.md C4-C9).

Seats count from the dealer's left: seat 0 speaks first in the auction and
leads the first trick, seat ``players - 1`` deals. A completion deals the
unseen cards (the other hands and the kitty) uniformly around the hand, then
plays the deal five times:

* four times with the seat winning the auction, once per trump suit: the
  others pass, the seat's bot calls its partner card, takes the kitty,
  discards and the bots play the tricks. The built-in bots' call, discards and
  play do not depend on the bid number, so these four plays give the side's
  points for every level at once: a bid of L is made when they reach L, and
  the seat then scores +L, else -L (C9).
* once with the seat passing at its turn and the auction run by the bots: the
  seat's score as defender (its trick points), as a called partner (+/- the
  bid), or nothing when all passed (or, under ``all_pass=dealer_forced``, as
  the forced dealer).

A bid option names the level and the trump that does best at it (or the trump
given by the caller): its expected score is the seat's mean over the
completions, its ``make_rate`` the share of completions where the side reaches
the level. Choosing the best of four suits on the same samples flatters the
chosen one a little (a winner's curse of the order of the CI); pass ``trump``
to fix the suit. All five plays of a sample use the same streams (seed,
sample, key): the same deal and kitty and the same bot draws (common random
numbers), so the comparison between options is paired, and the numbers do not
depend on the threads.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numba import njit, prange

from bots.callpartner import BID_MARGIN, ROLES, best_trump, complete, heuristic_bid
from bots.callpartner import PASS_PLAY as PASS
from cardsim.advise import (
    Advice,
    best_option,
    check_count,
    check_seat,
    completion_setup,
    new_figure,
    option_table,
    parse_hand,
)
from cardsim.cards import FRENCH52, SUIT_SYMBOLS, SUITS
from cardsim.errors import CardsimError
from cardsim.games.callpartner.rules import (
    ACE,
    ACE_OF_SPADES,
    JACK,
    KING,
    MAX_BID,
    MIN_BID,
    QUEEN,
    TWO,
    card_points,
)
from cardsim.games.callpartner.state import DEALER, Params, deal, new_state, params
from cardsim.lineup import Bots
from cardsim.options import RuleSettings, rules_text
from cardsim.rng import check_seed
from cardsim.validation import checked

LEVELS = np.arange(MIN_BID, MAX_BID + 1)
BLOCK = 16  # samples per parallel work item (each plays five deals)


@njit(parallel=True, cache=True)
def completions(
    seed: np.uint64, key: int, hand: np.uint64, seat: int, p: Params, bots: np.ndarray, out: tuple
) -> None:  # fmt: skip
    """``bots.callpartner.complete`` (one completion played five times over the round's state machine) for every
    sample s < side.shape[0] of ``out`` = (side, passing, roles), in parallel blocks."""
    samples = out[0].shape[0]
    for block in prange((samples + BLOCK - 1) // BLOCK):
        s = new_state(p.players)
        for sample in range(block * BLOCK, min(samples, (block + 1) * BLOCK)):
            complete(s, p, bots, seed, key, sample, hand, seat, out)


def _play(seed: int, key: int, hand: int, seat: int, rules: Any, bots: np.ndarray, samples: int) -> tuple:
    """(side[sample, trump], passing[sample], roles[sample]) of ``samples`` completions."""
    side = np.empty((samples, PASS), np.int8)
    passing = np.empty(samples, np.int16)
    roles = np.empty(samples, np.int8)
    completions(np.uint64(seed), key, np.uint64(hand), seat, params(rules), bots, (side, passing, roles))
    return side, passing, roles


def _options(side: np.ndarray, passing: np.ndarray, suits: list[int]) -> tuple[pd.DataFrame, np.ndarray]:
    """One row per option: pass, then each level in its best suit among ``suits``; columns bid, trump, mean,
    ci95, samples, make_rate (NaN for pass). Also the seat's scores[sample, option]."""
    made = side[:, :, None] >= LEVELS  # [sample, trump, level]
    rates = made.mean(axis=0)  # [trump, level]
    chosen = np.array(suits)[np.argmax(rates[suits], axis=0)]  # per level; ties: the first suit in S H D C order
    levels_made = made[:, chosen, np.arange(len(LEVELS))]  # [sample, level]
    scores = np.column_stack([passing, np.where(levels_made, LEVELS, -LEVELS)])
    options = option_table(["pass", *map(str, LEVELS)], scores)
    options.insert(1, "trump", ["", *(SUITS[t] for t in chosen)])
    options["make_rate"] = [np.nan, *levels_made.mean(axis=0)]
    return options, scores


def _lead(options: pd.DataFrame, scores: np.ndarray, best: int) -> dict[str, Any]:
    """How far the best option is ahead of the runner-up: the paired mean difference over the same completions
    and its 95% CI half-width (much tighter than either option's own CI)."""
    second = int(options["mean"].drop(index=best).idxmax())
    lead = option_table(["lead"], (scores[:, best] - scores[:, second])[:, None]).iloc[0]
    return {"second": options["bid"][second], "difference": float(lead["mean"]), "ci95": float(lead["ci95"])}


def _trump(trump: str | None) -> list[int]:
    """The suits a contract may name: the one given, or all four (the advice picks the best per level)."""
    if trump is None:
        return list(range(4))
    letter = SUIT_SYMBOLS.get(str(trump).strip(), str(trump).strip().upper())
    if len(letter) != 1 or letter not in SUITS:
        raise CardsimError(
            f"trump {trump!r} is not allowed: use a suit S, H, D or C to fix the trump of the contract, or leave it "
            "out to take the best suit for each bid"
        )
    return [SUITS.index(letter)]


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
    """The seat's expected score per deal for passing and for winning the auction at each level 10..20 with
    ``hand`` at ``seat`` (0 speaks first, ``players - 1`` deals); ``trump`` fixes the contract's suit, else
    each level takes the suit that makes it most often. ``details``: the best option's lead over the runner-up
    (paired difference and CI), how a pass ends (shares of all passed, defender, partner, forced declarer), the
    side's mean points per trump, make rates per trump and level."""
    rule_set, names, ids = completion_setup("callpartner", players, bots, rules, strong=False)
    mask = parse_hand(FRENCH52, hand, range(rule_set.hand_size, rule_set.hand_size + 1), "callpartner")
    seat = check_seat(seat, rule_set.players)
    suits = _trump(trump)
    samples, seed = check_count(samples, "samples"), check_seed(seed)
    side, passing, roles = _play(seed, 0, mask, seat, rule_set, ids, samples)
    options, scores = _options(side, passing, suits)
    best = best_option(options, lower_is_better=False)
    rates = (side[:, :, None] >= LEVELS).mean(axis=0)
    details = {
        "lead_over_second": _lead(options, scores, best),
        "when_passing": dict(zip(ROLES, np.bincount(roles, minlength=len(ROLES)) / samples, strict=True)),
        "side_points_by_trump": {SUITS[t]: float(side[:, t].mean()) for t in suits},
        "make_rate_by_trump": [
            {"trump": SUITS[t], **{str(level): float(r) for level, r in zip(LEVELS, rates[t], strict=True)}}
            for t in suits
        ],
    }
    return Advice(
        "callpartner", FRENCH52.names(mask), seat, rule_set.players, SUITS[suits[0]] if trump is not None else None,
        names, samples, seed, False, options, options["bid"][best], details, rules_text(rule_set),
    )  # fmt: skip


# --- many hands: the bid table and its figures --------------------------------

HCP = {ACE: 4, KING: 3, QUEEN: 2, JACK: 1}  # the bridge count, a familiar measure of strength


def hand_features(hand: int, players: int) -> dict[str, int]:
    """Simple measures of a hand: high-card points (A 4, K 3, Q 2, J 1), card points (C2), longest suit, aces,
    the ace of spades (C8 rule 1), jacks (each the true or false jack of two trumps, C8 rules 2-3), twos
    (C8 rule 4), and the heuristic bot's opening: its bid (0 = pass) and estimate of the side's points."""
    cards = FRENCH52.cards_of(hand)
    ranks = [FRENCH52.rank_of(c) for c in cards]
    lengths = [sum(FRENCH52.suit_of(c) == s for c in cards) for s in range(4)]
    opening = int(heuristic_bid(np.uint64(hand), 0, players, BID_MARGIN)[0])
    return {
        "hcp": sum(HCP.get(r, 0) for r in ranks),
        "points": int(card_points(np.uint64(hand))),
        "longest": max(lengths),
        "aces": ranks.count(ACE),
        "spade_ace": int(ACE_OF_SPADES in cards),
        "jacks": ranks.count(JACK),
        "twos": ranks.count(TWO),
        "heuristic_bid": opening,
        "heuristic_points": round(float(best_trump(np.uint64(hand), players)[1]), 2),
    }


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
    """One row per random hand: its features (``hand_features``), per level L the make rate ``make_L`` and
    expected score ``mean_L`` (in the level's best suit), ``mean_pass``, and the best option ``best`` (``"pass"``
    or a level) with ``best_trump``, ``best_mean``, ``best_ci95``.

    Hand h is the hand of seat h % players (from the dealer's left) in single deal h of
    ``cardsim simulate callpartner --seed SEED``; its completions use key 1 + h.
    """
    rule_set, _, ids = completion_setup("callpartner", players, bots, rules, strong=False)
    hands, samples, seed = check_count(hands, "hands"), check_count(samples, "samples"), check_seed(seed)
    p, state = params(rule_set), new_state(rule_set.players)
    rows = []
    for h in range(hands):
        deal(state, p, np.uint64(seed), h, 0, -1)
        dealer = int(state.slots[DEALER])
        seat = h % rule_set.players
        hand = int(state.hands[(dealer + 1 + seat) % rule_set.players])
        side, passing, _ = _play(seed, 1 + h, hand, seat, rule_set, ids, samples)
        options = _options(side, passing, list(range(4)))[0]
        best = options.iloc[best_option(options, lower_is_better=False)]
        levels = options.iloc[1:]
        rows.append({
            "hand": FRENCH52.names(hand), "seat": seat, **hand_features(hand, rule_set.players),
            **{f"make_{b}": r for b, r in zip(levels["bid"], levels["make_rate"], strict=True)},
            **{f"mean_{b}": m for b, m in zip(options["bid"], options["mean"], strict=True)},
            "best": best["bid"], "best_trump": best["trump"], "best_mean": best["mean"], "best_ci95": best["ci95"],
        })  # fmt: skip
    return pd.DataFrame(rows)


def bid_figures(table: pd.DataFrame) -> dict[str, Any]:
    """The probability of making each level, and the best option, by high-card points (bins of two)."""
    from matplotlib import colormaps

    colours = colormaps["viridis"](np.linspace(0, 0.95, len(LEVELS)))
    strength = table.assign(hcp_bin=table["hcp"] // 2 * 2 + 0.5)  # the bin 2k..2k+1 at its centre
    xlabel = "high-card points in the hand (A 4, K 3, Q 2, J 1; bins of 2)"
    figures = {}
    fig, (ax,) = new_figure("Call-partner: probability of making each bid level by hand strength", width=8)
    by_hcp = strength.groupby("hcp_bin")
    for level, colour in zip(LEVELS, colours, strict=True):
        rates = by_hcp[f"make_{level}"].mean()
        ax.plot(rates.index, rates.to_numpy(), marker="o", ms=3, color=colour, label=f"bid {level}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("probability of making the bid (mean over hands)")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    fig.legend(loc="outside right upper", fontsize="small", title="declaring at")
    figures["callpartner_make_rate_by_strength"] = fig

    fig, (ax,) = new_figure("Call-partner: the best option by hand strength", width=8)
    shares = pd.crosstab(strength["hcp_bin"], strength["best"], normalize="index")
    bottom = np.zeros(len(shares))
    for option, colour in zip(["pass", *map(str, LEVELS)], ["lightgrey", *colours], strict=True):
        if option in shares:
            ax.bar(shares.index, shares[option], bottom=bottom, color=colour, width=1.8, label=option)
            bottom += shares[option].to_numpy()
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of hands whose best option it is")
    ax.grid(alpha=0.3, axis="y")
    fig.legend(loc="outside right upper", fontsize="small", title="best option")
    figures["callpartner_best_bid_by_strength"] = fig
    return figures
