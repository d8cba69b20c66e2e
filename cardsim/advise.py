"""Bid advice for one hand: the expected result of every possible bid, from simulated completions.

``advise`` deals the unseen cards at random many times around a fixed hand
(and the trump the seat can see), plays each completion out with the chosen
bots, and tabulates, for every bid the seat could make, the mean result with
its 95% confidence interval. ``bid_table`` does that for many random hands and
returns one row per hand (its features and its best bid); ``bid_figures``
draws such a table. Each game's module ``cardsim.games.<game>.advise`` holds
the game-specific part (the completion kernel and which bids exist); this
module holds what is shared: the result type, dispatch, checks of the input,
per-bid summaries, text and JSON output, and plotting helpers.

``option_values`` answers the question at any decision of a round in progress instead, from what the seat to move
has seen: every legal action's value by the strong bots' own evaluator (``bots/<game>_strong.py``), the numbers
hints and reviews show. ``advise`` asks another question (a hand, a seat and a trump before the round starts, the
rest played by the bots the caller names, with the game's extra statistics), so it keeps its completions; both
summarise with ``option_table``.

Seats count from the dealer's left: seat 0 bids first and leads the first
trick, seat ``players - 1`` is the dealer.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Annotated, Any

import numpy as np
import pandas as pd

from cardsim.analysis import Z95
from cardsim.cards import Deck
from cardsim.errors import CardsimError
from cardsim.games import Game, get_game
from cardsim.lineup import FIRST_STRONG, Bots
from cardsim.rng import check_seed, seed_streams
from cardsim.validation import checked, kind_of, shown

WINDOW = 10  # printed rows either side of the best bid when there are many bids
MAX_SAMPLES = 10_000_000
MAX_OPTION_SAMPLES = 100_000  # option_values keeps every sample's value: 158 predictions x 100,000 are 126 MB
HINTS = -1  # option_values(seed=S) draws from the stream of (S, unit -1): no run deals a unit -1


@dataclass
class Advice:
    """The advice for one hand.

    ``options`` has one row per bid option: ``bid`` (its label), ``mean`` (expected
    score, or expected penalty in Differenzler), ``ci95`` (half-width), ``samples``,
    and game-specific columns. ``best`` is the label of the best option.
    ``details`` holds game extras (e.g. Differenzler's points distribution): scalars
    and small dicts are printed, lists only go to JSON. ``rules`` is the rules text.
    """

    game: str
    hand: str
    seat: int
    players: int
    trump: str | None
    bots: tuple[str, ...]
    samples: int
    seed: int
    lower_is_better: bool
    options: pd.DataFrame
    best: Any
    details: dict[str, Any] = field(default_factory=dict)
    rules: str = ""


def advice_module(game: str) -> ModuleType:
    """The game's advice module, or a clear error if that game has none (yet)."""
    name = get_game(game).name
    try:
        return importlib.import_module(f"cardsim.games.{name}.advise")
    except ModuleNotFoundError as exc:
        if exc.name != f"cardsim.games.{name}.advise":
            raise
        raise CardsimError(f"{name} has no bid advice yet") from None


@checked
def advise(game: str, hand: str | list[str], **settings: Any) -> Advice:
    """Advice for ``hand`` in ``game``; settings are the game module's (seat, trump, players, bots, samples, ...),
    checked there."""
    return advice_module(game).advise(hand, **settings)


@checked
def bid_table(game: str, **settings: Any) -> pd.DataFrame:
    """One row per random hand of ``game``: its features, the best bid and its expected result (see the game)."""
    return advice_module(game).bid_table(**settings)


@checked
def bid_figures(game: str, table: pd.DataFrame) -> dict[str, Any]:
    """The game's figures of a ``bid_table`` by name (matplotlib Figures, ready to save as PNG)."""
    return advice_module(game).bid_figures(table)


@checked
def option_values(round: Annotated[Any, "a Round (cardsim.new_round)"], seat: int | None = None, *,
                  samples: int = 2000, seed: int | None = 0) -> pd.DataFrame:  # fmt: skip
    """What every option of the decision at hand is worth to ``seat`` (default: the seat to move, the only one
    allowed), estimated from that seat's information only: the numbers the strong bot ``mc`` decides with, from
    the seat's view (``observe``) and ``samples`` deals of the cards it cannot see (or completions of its hand, in
    the call-partner auction), each played out by the bots' rollout policy.

    One row per legal action, in the order of ``round.legal()``: ``action`` (as ``round.legal()`` gives it, so that
    ``round.play(action)`` plays it), ``label`` (short text: ``"3"``, ``"H13"``, ``"pass"``, ``"11 S"``), ``mean``
    (the seat's expected score of the round as the game counts it: a penalty in Differenzler, lower is better,
    ``round.game.lower_is_better``), ``std`` (of one sample), ``ci95`` (half-width), ``samples``, and ``best``:
    True on the one row the strong bot ``mc`` takes from these numbers (ties broken as it breaks them). Every
    option is valued on the same deals (common random numbers), so differences between options are measured much
    more precisely than each ``ci95`` says.

    ``seed`` keys the stream the deals are drawn from (the same round, seat, samples and seed give the same
    numbers, on any thread count); ``seed=None`` draws from the seat's own private stream of the round instead,
    the one its strong bot draws from: ``best`` is then the action of ``mc`` with ``samples`` (and
    ``bid_samples``, ``contract_samples``) set to ``samples`` at a decision it values option by option."""
    # Round by name, as cardsim.envs.batch does: it is no kernel's code, and an import line would put round.py into
    # every kernel's cache key (the games' advice kernels import this module; cardsim.jit.kernel_cache reads them)
    if not isinstance(round, importlib.import_module("cardsim.round").Round):
        raise CardsimError(f"option_values(): round={shown(round)} is {kind_of(round)}; allowed: a Round "
                           "(cardsim.new_round)")  # fmt: skip
    if round.done:
        raise CardsimError("the round is over: option_values values the decision of the seat to move in a round in "
                           "progress")  # fmt: skip
    mover = round.to_move
    if seat is not None and seat != mover:
        raise CardsimError(f"seat {seat!r} is not allowed: option_values values the decision of the seat to move, "
                           f"seat {mover} ({round.decision}); give seat={mover} or leave it out")  # fmt: skip
    samples = check_count(samples, "samples", MAX_OPTION_SAMPLES)
    seed = None if seed is None else check_seed(seed)
    game, rules = round.game, round.rules
    p = game.params(rules)
    view = game.kernel("observe", round.state, p, mover)
    codes, values, best = game.strong_module.option_values(view, p, mover, _stream(round, mover, seed), samples,
                                                           game.strong_tools(view, p))  # fmt: skip
    decision = int(game.kernel("decision", view))
    actions = [game.public_action(rules, decision, int(code)) for code in codes]
    table = option_table(map(_label, actions), values, name="label", spread=True)
    table.insert(0, "action", pd.Series(actions, dtype=object))
    table["best"] = np.arange(len(actions)) == best
    position = {action: row for row, action in enumerate(actions)}
    return table.iloc[[position[action] for action in round.legal()]].reset_index(drop=True)


def _stream(round: Any, seat: int, seed: int | None) -> np.ndarray:
    """The stream (uint64[1, 4]) ``option_values`` draws from: the one of (``seed``, unit ``HINTS``), or for None a
    copy of the seat's private stream in the round (``state.bot_stream``, seeded from the round's key, which the
    round keeps as it was)."""
    if seed is None:
        return np.array(round.game.kernel("bot_stream", round.game.kernel("copy_state", round.state), seat))
    rng = np.empty((1, 4), np.uint64)
    seed_streams(rng, np.uint64(seed), HINTS, 0)
    return rng


def _label(action: Any) -> str:
    """A public action as short text: ``pass`` for None, ``11 S`` for a (number, suit) bid, else itself."""
    if action is None:
        return "pass"
    return " ".join(map(str, action)) if isinstance(action, tuple) else str(action)


# --- checks of the input, shared by the games -------------------------------


def parse_hand(deck: Deck, hand: str | Iterable[str], sizes: range, game: str) -> int:
    """The bitmask of a hand given by card names; refuses unknown or repeated cards and a wrong size."""
    cards = deck.parse_many(hand)
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise CardsimError(f"card {deck.name_of(card)} appears twice in the hand")
        seen.add(card)
    if len(cards) not in sizes:
        allowed = str(sizes.start) if len(sizes) == 1 else f"{sizes.start} to {sizes.stop - 1}"
        raise CardsimError(f"a {game} hand here has {allowed} cards, not {len(cards)}")
    return deck.mask(cards)


def check_seat(seat: int, players: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < players:
        raise CardsimError(
            f"seat {seat!r} is not allowed: use 0 to {players - 1} (0 bids first, {players - 1} is the dealer)"
        )
    return int(seat)


def check_count(value: int, what: str, upper: int = MAX_SAMPLES) -> int:
    """A positive whole number of samples or hands (at most ``upper``)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= upper:
        raise CardsimError(f"{what}={value!r} is not allowed: use a whole number from 1 to {upper:,}")
    return int(value)


def builtin_bots(game: Game, bots: Bots, rules: Any) -> tuple[tuple[str, ...], np.ndarray]:
    """Bot names and the built-in bot table for the completions; Python bots are refused (too slow there), and so
    are numba bots (the completion kernels play built-in bots only)."""
    lineup = game.lineup(bots, rules)
    if not lineup.compiled or lineup.numba_bots:
        kind = "numba" if lineup.compiled else "Python"
        raise CardsimError(
            f"bid advice plays many thousands of rounds and needs built-in bots ({', '.join(game.builtin_bots)}); "
            f"'{','.join(lineup.names)}' has a {kind} bot"
        )
    return lineup.names, lineup.table


def completion_setup(game: str, players: int | None, bots: Bots, rules: Any, strong: bool) -> tuple:
    """(validated rules, bot names, built-in bot ids) for a game's completions. ``strong``: whether the game's
    completions can play strong bots (Wizard's do); elsewhere a strong bot is refused by name, never played as
    another bot under its name."""
    front = get_game(game)
    rule_set = front.make_rules(rules, players)
    names, ids = builtin_bots(front, bots, rule_set)
    refused = [name for name, row in zip(names, ids, strict=True) if row[0] >= FIRST_STRONG and not strong]
    if refused:
        fast = ", ".join(name for name, bot in front.builtin_bots.items() if bot < FIRST_STRONG)
        raise CardsimError(f"{game} advice plays its completions with the fast bots ({fast}), not {refused[0]}: "
                           "completions are many thousands of rounds")  # fmt: skip
    return rule_set, names, ids


# --- per-bid summaries -------------------------------------------------------


def option_table(labels: Iterable[Any], results: np.ndarray, valid: np.ndarray | None = None, *, name: str = "bid",
                 spread: bool = False) -> pd.DataFrame:  # fmt: skip
    """Per option (column) of ``results[sample, option]``, counting only where ``valid``: its label (column
    ``name``), ``mean``, with ``spread`` the standard deviation ``std`` of one sample, the 95% CI half-width
    ``ci95`` of the mean and ``samples``."""
    values = results.astype(np.float64)
    counts = np.full(values.shape[1], values.shape[0]) if valid is None else valid.sum(axis=0)
    if valid is not None:
        values = np.where(valid, values, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.nansum(values, axis=0) / counts
        variance = np.nansum((values - mean) ** 2, axis=0) / np.maximum(counts - 1, 1)
        half = Z95 * np.sqrt(variance / counts)
    table = pd.DataFrame({name: list(labels), "mean": np.where(counts > 0, mean, np.nan)})
    if spread:
        table["std"] = np.where(counts > 1, np.sqrt(variance), np.nan)
    table["ci95"] = np.where(counts > 1, half, np.nan)
    table["samples"] = counts.astype(np.int64)
    return table


def best_option(options: pd.DataFrame, lower_is_better: bool) -> int:
    """Row index of the best mean (ties: the first), among bids seen at least once."""
    means = options["mean"].to_numpy()
    return int(np.nanargmin(means) if lower_is_better else np.nanargmax(means))


# --- output -----------------------------------------------------------------


def format_advice(advice: Advice) -> str:
    """The advice as text: the settings, the table of bids (a window around the best when long), the extras."""
    result = "penalty" if advice.lower_is_better else "score"
    last = advice.players - 1
    lines = [
        f"{advice.game} bid advice  hand {advice.hand}  seat {advice.seat} of {advice.players} "
        f"(seat 0 bids first, seat {last} deals)  trump {advice.trump or 'none'}",
        f"bots {_lineup(advice.bots)}  {advice.samples:,} completions per bid  seed {advice.seed}  "
        f"rules {advice.rules}",
        "",
    ]
    table = advice.options
    row = int(np.flatnonzero(table["bid"].to_numpy() == advice.best)[0])
    shown = table
    if len(table) > 2 * WINDOW + 5:
        shown = table.iloc[max(0, row - WINDOW) : row + WINDOW + 1]
    shown = shown.rename(columns={"mean": f"expected_{result}"})
    text = shown.to_string(index=False, float_format=lambda v: f"{v:.3f}")
    header, *body = text.splitlines()
    lines.append("  " + header)
    for label, line in zip(shown["bid"], body, strict=True):
        lines.append(("* " if label == advice.best else "  ") + line)
    if len(shown) < len(table):
        lines.append(f"  ({len(table)} bids in all; rows {shown['bid'].iloc[0]}..{shown['bid'].iloc[-1]} shown, "
                     "the full table with --json)")  # fmt: skip
    best = table.iloc[row]
    lines += ["", f"best bid: {advice.best}  (expected {result} {best['mean']:.2f} ± {best['ci95']:.2f})"]
    for name, value in advice.details.items():
        if isinstance(value, dict):
            lines.append(f"{name.replace('_', ' ')}: " + "  ".join(f"{k} {_short(v)}" for k, v in value.items()))
        elif not isinstance(value, (list, tuple, np.ndarray)):
            lines.append(f"{name.replace('_', ' ')}: {_short(value)}")
    return "\n".join(lines)


def _lineup(bots: tuple[str, ...]) -> str:
    return f"{bots[0]} x{len(bots)}" if len(set(bots)) == 1 else ",".join(bots)


def _short(value: Any) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") if isinstance(value, (float, np.floating)) else str(value)


def advice_json(advice: Advice) -> dict[str, Any]:
    """The advice as a JSON-able dict, with the full table of bids as a list of records."""
    return _plain({
        "game": advice.game, "hand": advice.hand, "seat": advice.seat, "players": advice.players,
        "trump": advice.trump, "bots": list(advice.bots), "samples": advice.samples, "seed": advice.seed,
        "rules": advice.rules, "lower_is_better": advice.lower_is_better, "best": advice.best,
        "options": advice.options.to_dict(orient="records"), "details": advice.details,
    })  # fmt: skip


def _plain(value: Any) -> Any:
    """numpy scalars and arrays as Python numbers and lists; NaN as None (valid JSON)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not np.isfinite(value):
        return None
    return value


# --- figures ----------------------------------------------------------------


def new_figure(title: str, panels: int = 1, width: float = 6.4):
    """A matplotlib Figure (no pyplot state) with ``panels`` axes side by side and a title."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width * panels if panels > 1 else width, 4.6), layout="constrained")
    axes = figure.subplots(1, panels, squeeze=False)[0]
    figure.suptitle(title)
    return figure, axes


def plot_means(ax, table: pd.DataFrame, x: str, y: str, by: str | None = None, label: str | None = None) -> None:
    """Mean of ``y`` per value of ``x`` with 95% CI bars: one line, or one per value of ``by``
    (``label`` is then a format for the value, e.g. ``"seat {}"``)."""
    from matplotlib.ticker import MaxNLocator

    if by is None:
        groups = [(label, table)]
    else:
        groups = [((label or "{}").format(k), part) for k, part in table.groupby(by, observed=True, sort=True)]
    for name, part in groups:
        stats = part.groupby(x, observed=True)[y].agg(["mean", "std", "count"])
        half = Z95 * stats["std"].fillna(0.0) / np.sqrt(stats["count"])
        ax.errorbar(stats.index, stats["mean"], yerr=half, marker="o", capsize=3, label=name)
    if pd.api.types.is_integer_dtype(table[x]):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(alpha=0.3)
