"""A rating list: every pair of bots in duplicate matches, one rating per bot fitted to the results, with 95% CIs.

For each pair of bots (a, b) two matches are played (``runner.run``, a results folder each, resumable): a against
copies of b (``[a, b, b, b]`` with four players), and b against copies of a. Each match plays its deals once per
seat rotation, so each bot holds every hand. Match ``k`` (in pair order, a's match first) uses the seed
``seed + k`` (mod 2**64): the matches are independent, which the CIs assume.

A deal's outcome for the pair: a wins it when its mean score over its seats and rotations is better than b's (a
tie counts half). The ratings are Bradley-Terry's on the Elo scale, P(a wins a deal against b) =
1 / (1 + 10 ** ((R_b - R_a) / 400)), fitted by maximum likelihood (Hunter's MM algorithm) with one virtual tied
deal per pair (so a bot that wins every deal still gets a finite rating) and centred on 0. Their 95% CIs come from
the Fisher information. Each pair also gets its mean score difference per round with a 95% CI, deal by deal.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import secrets
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import pandas as pd

from cardsim.analysis import Z95
from cardsim.engine import check_number
from cardsim.errors import CardsimError
from cardsim.games import get_game
from cardsim.lineup import is_python_bot
from cardsim.options import RuleSettings
from cardsim.outputs import check_output_folder
from cardsim.rng import resolve_seed
from cardsim.runner import Experiment, experiment, iter_rows, run
from cardsim.sealed.match import commitment
from cardsim.sealed.process import Sealing
from cardsim.tournament import verdict
from cardsim.validation import checked

ELO = 400 / math.log(10)  # Elo points per unit of the log-strength
CONFIG = "ladder.json"


@dataclass
class Ladder:
    """A rating list: ``ratings`` (one row per bot, best first) and ``pairs`` (one row per pair of bots), from the
    ``matches`` played (their results folders under ``folder``, or in a temporary folder that is gone)."""

    game: str
    bots: list[str]
    seed: int
    deals: int
    ratings: pd.DataFrame
    pairs: pd.DataFrame
    folder: Path | None


@dataclass
class PairTally:
    """One pair's deals: a's wins and ties against b, and the sums of a's score minus b's per round (and of its
    square) over the deals."""

    deals: int = 0
    wins: int = 0
    ties: int = 0
    diff: float = 0.0
    diff_sq: float = 0.0

    def add(self, a: np.ndarray, b: np.ndarray, lower_is_better: bool) -> None:
        """Deals with a's and b's mean score per round ``a[deal]``, ``b[deal]``."""
        better = a < b if lower_is_better else a > b
        self.deals += len(a)
        self.wins += int(better.sum())
        self.ties += int((a == b).sum())
        self.diff += float((a - b).sum())
        self.diff_sq += float(((a - b) ** 2).sum())

    def __add__(self, other: PairTally) -> PairTally:
        return PairTally(*(x + y for x, y in zip(dataclasses.astuple(self), dataclasses.astuple(other), strict=True)))

    def flipped(self) -> PairTally:
        """The same deals seen from b."""
        return PairTally(self.deals, self.deals - self.wins - self.ties, self.ties, -self.diff, self.diff_sq)


@checked
def ladder(
    game: str,
    bots: Annotated[str | list[str], "a str 'a,b,...' or a list of the names of the bots to rate"],
    *,
    deals: int = 10_000,
    players: int | None = None,
    rules: RuleSettings = None,
    seed: int | None = 0,
    out: str | os.PathLike | None = None,
    resume: bool = False,
    threads: int | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    progress: bool | None = None,
    check: bool = False,
    timing_rounds: int = 10,
    allow_cheating: bool = False,
    sealed: bool | Sealing = False,
) -> Ladder:
    """Rate ``bots`` (at least two distinct ones) by duplicate matches of every pair, ``deals`` deals per match
    (see the module's docstring). ``out``: a folder that keeps every match's results folder (``matches/``), the
    tables (``ratings.parquet``, ``pairs.parquet``) and the plot (``ladder.png``); ``resume`` continues one. Without
    ``out`` the matches run in a temporary folder. ``seed=None`` draws one from the OS (a resumed ladder keeps the
    one it drew). Each strong bot's time per decision is measured over ``timing_rounds`` single rounds against
    heuristic bots, one thread (``Game.decision_times``). ``sealed``: every match a sealed match
    (``runner.experiment``), the ladder's seed drawn secretly (``seed`` must be None) and kept in ladder.json as its
    commitment until the ladder ends. The other arguments as in ``runner.run`` and ``runner.experiment``."""
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    twice = [name for name, count in Counter(names).items() if count > 1]
    if len(names) < 2 or twice:
        again = f": {twice[0]} is given twice" if twice else ""
        raise CardsimError(f"a ladder needs two or more different bots, got {','.join(names)}{again}")
    deals = check_number(deals, "deals")
    front = get_game(game)
    if sealed is not False and (resume or scheduler is not None or dask_local is not None):
        raise CardsimError("a sealed ladder runs in one go on this machine: --resume, --scheduler and --dask-local "
                           "are refused with it")  # fmt: skip
    if seed is None and resume and out is not None and (Path(out) / CONFIG).exists():
        seed = json.loads((Path(out) / CONFIG).read_text()).get("seed")
    rule_set = front.make_rules(rules, players)
    seats = len(front.lineup("random", rule_set).names)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    lineups = [lineup for a, b in pairs for lineup in ([a] + [b] * (seats - 1), [b] + [a] * (seats - 1))]
    matches = [experiment(front.name, lineup, rounds=deals, seed=seed, rules=rules, players=players,
                          allow_cheating=allow_cheating, sealed=sealed)
               for lineup in lineups]  # fmt: skip  (every bot and option checked before any work)
    seed = resolve_seed(seed)
    matches = [dataclasses.replace(exp, seed=(seed + k) % 2**64) for k, exp in enumerate(matches)]
    config = {"game": front.name, "bots": names, "deals": deals, "seed": seed, "rules": matches[0].rules,
              "players": seats}  # fmt: skip
    nonce = secrets.token_hex(16)
    if sealed is not False:  # its seed is secret until it ends
        config = {**{k: v for k, v in config.items() if k != "seed"}, "seed_sha256": commitment(seed, nonce)}
    with _folder(out, resume, config) as folder:
        tallies = []
        for k, exp in enumerate(matches):
            match_folder = folder / "matches" / f"{k:03d}"
            run(exp, match_folder, resume=resume, threads=threads, scheduler=scheduler,
                dask_local=dask_local, progress=progress, check=check)  # fmt: skip
            tallies.append(_tally(exp, match_folder, front.score, front.lower_is_better))
        result = _result(front.name, names, seed, deals, pairs, tallies, front.score, front.lower_is_better)
        times = {bot: _decision_ms(front, rule_set, bot, timing_rounds, seed) for bot in result.ratings.bot}
        result.ratings["ms_per_decision"] = [times[bot][0] for bot in result.ratings.bot]
        result.ratings["ms_p90"] = [times[bot][1] for bot in result.ratings.bot]
        if out is not None:
            result.folder = folder
            _write(result, folder)
        if sealed is not False and out is not None:  # ended: the seed and the nonce that open its commitment
            (folder / CONFIG).write_text(json.dumps({**config, "seed": seed, "seed_nonce": nonce}, indent=1))
    return result


class _folder:
    """The ladder's folder: ``out`` (checked, and on ``resume`` its ladder.json compared with ``config``), or a
    temporary one removed on exit."""

    def __init__(self, out: str | os.PathLike | None, resume: bool, config: dict) -> None:
        self.out, self.resume, self.config = out, resume, config
        self.tmp: tempfile.TemporaryDirectory | None = None

    def __enter__(self) -> Path:
        if self.out is None:
            self.tmp = tempfile.TemporaryDirectory(prefix="cardsim-ladder-")
            return Path(self.tmp.name)
        folder = check_output_folder(self.out)
        saved = folder / CONFIG
        if saved.exists():
            if not self.resume:
                raise CardsimError(f"{folder} already holds a ladder; add --resume to continue it, or choose another "
                                   "--out folder")  # fmt: skip
            old = json.loads(saved.read_text())
            changed = [f"{key} {old.get(key)!r} there, {value!r} here" for key, value in self.config.items()
                       if old.get(key) != value]  # fmt: skip
            if changed:
                raise CardsimError(f"cannot resume: {folder} holds a different ladder: {'; '.join(changed)}")
        elif folder.exists() and any(folder.iterdir()):
            raise CardsimError(f"{folder} is not empty and holds no ladder (no {CONFIG}); choose a new or empty "
                               "--out folder")  # fmt: skip
        else:
            folder.mkdir(parents=True, exist_ok=True)
            saved.write_text(json.dumps(self.config, indent=1))
        return folder

    def __exit__(self, *exc: object) -> None:
        if self.tmp is not None:
            self.tmp.cleanup()


def _tally(exp: Experiment, folder: Path, score: str, lower_is_better: bool) -> PairTally:
    """The match's deals from its rows: the first bot of the lineup (a) against the other (b)."""
    a, b = exp.bots[0], exp.bots[1]
    tally = PairTally()
    for rows in iter_rows(folder):
        per_deal = rows.groupby(["round", "bot"], observed=True)[score].mean().unstack("bot")
        tally.add(per_deal[a].to_numpy(), per_deal[b].to_numpy(), lower_is_better)
    return tally


def _decision_ms(front: Any, rules: Any, bot: str, rounds: int, seed: int) -> tuple[float, float]:
    """A strong bot's median and 90th-percentile milliseconds per decision; NaN for the other bots, whose
    compiled decisions take well under a microsecond (the throughput benchmark's rates) and Python bots."""
    if is_python_bot(bot):  # its file runs in the matches only (in a sealed ladder, never here)
        return math.nan, math.nan
    lineup = front.lineup(bot, rules, allow_cheating=True)  # checked by the matches' experiments
    if lineup.strong_table is None or rounds < 1:
        return math.nan, math.nan
    times = front.decision_times(bot, rounds, seed, rules) * 1000
    return float(np.median(times)), float(np.percentile(times, 90))


def fit_bradley_terry(wins: np.ndarray, deals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bradley-Terry ratings on the Elo scale, centred on 0, and their standard errors, from ``wins[i, j]`` (i's
    wins over j, a tie counting half) and the symmetric ``deals[i, j]``; each pair that met gets one virtual tied
    deal. Maximum likelihood by Hunter's MM algorithm (2004); the errors from the inverse of the Fisher
    information with the ratings' sum held at 0."""
    met = deals > 0
    wins = wins + 0.5 * met
    deals = deals + 1.0 * met
    strength = np.ones(len(wins))
    for _ in range(100_000):
        new = wins.sum(axis=1) / (deals / (strength[:, None] + strength[None, :])).sum(axis=1)
        new /= np.exp(np.log(new).mean())
        done = np.max(np.abs(np.log(new) - np.log(strength))) < 1e-12
        strength = new
        if done:
            break
    share = strength[:, None] / (strength[:, None] + strength[None, :])
    weight = deals * share * share.T
    information = np.diag(weight.sum(axis=1)) - weight
    errors = np.sqrt(np.maximum(np.diag(np.linalg.pinv(information)), 0.0))
    return ELO * np.log(strength), ELO * errors


def _result(game: str, names: list[str], seed: int, deals: int, pairs: list[tuple[str, str]],
            tallies: list[PairTally], score: str, lower_is_better: bool) -> Ladder:  # fmt: skip
    """The tables from the matches' tallies (two per pair, a's match first)."""
    index = {name: i for i, name in enumerate(names)}
    wins, met = np.zeros((len(names), len(names))), np.zeros((len(names), len(names)))
    rows = []
    for p, (a, b) in enumerate(pairs):
        first, second = tallies[2 * p], tallies[2 * p + 1].flipped()
        both = first + second
        i, j = index[a], index[b]
        wins[i, j] = both.wins + both.ties / 2
        wins[j, i] = both.deals - both.wins - both.ties / 2
        met[i, j] = met[j, i] = both.deals
        mean = both.diff / both.deals
        ci = Z95 * math.sqrt(max(both.diff_sq / both.deals - mean**2, 0.0) / max(both.deals - 1, 1))
        rows.append({"bot": a, "opponent": b, "deals": both.deals, "wins": both.wins, "ties": both.ties,
                     "losses": both.deals - both.wins - both.ties, "win_share": wins[i, j] / both.deals,
                     f"diff_{score}": mean, "ci95": ci,
                     "verdict": verdict(mean, ci, a, b, lower_is_better)})  # fmt: skip
    elo, errors = fit_bradley_terry(wins, met)
    ratings = pd.DataFrame({"bot": names, "elo": elo, "ci95": Z95 * errors, "deals": met.sum(axis=1).astype(int),
                            "win_share": wins.sum(axis=1) / met.sum(axis=1)})  # fmt: skip
    ratings = ratings.sort_values("elo", ascending=False, kind="stable").reset_index(drop=True)
    pair_table = pd.DataFrame(rows)
    pair_table["expected_share"] = [1 / (1 + 10 ** ((elo[index[b]] - elo[index[a]]) / 400)) for a, b in pairs]
    return Ladder(game, names, seed, deals, ratings, pair_table, None)


def _write(result: Ladder, folder: Path) -> None:
    """The tables as Parquet and the plot as PNG, into the ladder's folder."""
    from cardsim.plots import ladder_plot

    result.ratings.to_parquet(folder / "ratings.parquet", index=False)
    result.pairs.to_parquet(folder / "pairs.parquet", index=False)
    ladder_plot(result).savefig(folder / "ladder.png", dpi=120, bbox_inches="tight")
