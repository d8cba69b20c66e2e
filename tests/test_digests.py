"""Same seed, same numbers across refactors: digests of the row values of fixed runs.

Each case plays a fixed run (game, lineup, rules, seed, rounds or games) and hashes every column of its rows as
int64 (categoricals by their codes), so a change of dtype does not move a digest but any changed value does.
A digest may change only with a reason written in the commit and the session note (e.g. the one-way bot streams
changed the strong and Python-bot lineups' digests once; the call-partner mc sampler's C5 fix changed its rounds
case once: 25769db9 -> 024c55e1). Wizard's ``heuristic`` became the calibrated one (issue 15): its old cases
play ``heuristic_v1``, the old heuristic, with their old digests; its strong bots then rolled out with it, and the
old strong case plays ``mc_v1`` and ``ismcts_v1`` with its old digest. Differenzler's ``heuristic`` then became
the calibrated one: its old cases play ``heuristic_v1`` with their old digests. Call-partner's ``heuristic`` then
fed a fellow defender and bid up to its expected points: its old cases play ``heuristic_v1`` with their old
digests (its strong bots still roll out with ``heuristic_v1``); the three cases of the new heuristic were pinned in
the same session (ee6b0727, 4bd3db81 and 7508d4d9 when it only fed, then f275881f, 0526a797 and 6e7f1755).
Differenzler's ``mc`` and ``ismcts`` then guessed the predictions they cannot see as ``heuristic`` predicts: their
old cases play ``mc_v1`` and ``ismcts_v1`` with their old digests, and a case of the new ones was pinned.
Call-partner's ``mc`` and ``ismcts`` then rated their bids with a bonus point for their own play (``bid_bonus``
1): their old cases play ``mc_v1`` and ``ismcts_v1`` (``bid_bonus`` 0) with their old digests, and a case of the
new ones was pinned.

The strong bots play single rounds and whole games in every game (call-partner's ``ismcts`` too); the whole-game
cases and call-partner's ``ismcts`` rounds were added with the digests of commit c29f848 (the same as b3b9f8a's).
Oh Hell's cases were pinned when it was added (issue 41), with its calibrated bid table.
``cardsim tournament`` needs no cases of its own: its rows come from the same ``Game.run`` and batch kernel as
``simulate``'s, one run per seat rotation of the lineup (its standings are computed from the same batches by
``cardsim.tournament``'s ``DealStats``).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from cardsim import simulate


class DigestBot:
    """A Python bot of every game that draws from its own ``obs.rng``: its rows move when its stream moves."""

    def predict(self, obs):
        return obs.rng.randrange(158)

    def bid(self, obs):
        if hasattr(obs, "refused"):  # Wizard: any allowed bid
            return obs.rng.choice([b for b in range(obs.cards + 1) if b != obs.refused])
        if obs.forced:  # call-partner: all passed, the dealer declares
            return obs.min_bid, "SHDC"[obs.rng.randrange(4)]
        if obs.min_bid <= 20 and obs.rng.random() < 0.3:
            return obs.min_bid, "SHDC"[obs.rng.randrange(4)]
        return None

    def choose_trump(self, obs):
        return "SHDC"[obs.rng.randrange(4)]

    def call(self, obs):
        return obs.rng.choice(obs.legal)

    def discard(self, obs):
        return obs.rng.sample(obs.legal, obs.discard_count)

    def play(self, obs):
        return obs.rng.choice(obs.legal)


def digest(rows: pd.DataFrame) -> str:
    """sha256 (first 16 hex digits) of every column's values as int64, by column name."""
    h = hashlib.sha256()
    for name in sorted(rows.columns):
        column = rows[name]
        if name in ("game", "rules", "bot"):
            continue  # constants of the run, and the seat's bot name (its own column)
        values = column.cat.codes if isinstance(column.dtype, pd.CategoricalDtype) else column
        h.update(name.encode())
        h.update(np.ascontiguousarray(values.to_numpy().astype(np.int64)).tobytes())
    return h.hexdigest()[:16]


STRONG = {
    "differenzler": ("mc:samples=3:bid_samples=2", "ismcts:iterations=12:bid_samples=2"),
    "wizard": ("mc:samples=3:bid_samples=2", "ismcts:iterations=12:bid_samples=2"),
    "ohhell": ("mc:samples=3:bid_samples=2", "ismcts:iterations=12:bid_samples=2"),
    "callpartner": ("mc:samples=3:bid_samples=2:contract_samples=2",
                    "ismcts:iterations=12:bid_samples=2:contract_samples=2"),
}  # fmt: skip

# (game, bots, rules, size) -> digest. Random and heuristic lineups must never move; see the module docstring.
CASES = {
    ("differenzler", "random", None, ("rounds", 400)): "a07dafe228d9fe22",
    ("differenzler", "heuristic_v1,random,heuristic_v1,random", None, ("games", 20)): "a8ea89949b328ebf",
    ("differenzler", "heuristic_v1", "predictions=open,exact_bonus=10", ("rounds", 400)): "278f3851157a0f34",
    ("differenzler", "heuristic_v1,{mc_v1},{ismcts_v1},random", None, ("rounds", 3)): "82fe0bcac60f51e0",
    ("differenzler", "DigestBot,heuristic_v1,random,heuristic_v1", "predictions=open", ("games", 2)): "c2976563d23bbf18",
    ("differenzler", "heuristic,random,heuristic_v1,heuristic", "predictions=open", ("games", 20)): "9266911fb0d129a2",
    ("differenzler", "{mc_v1},heuristic,{ismcts_v1},random", None, ("games", 2)): "470ada9b352cbca9",
    ("differenzler", "{mc},heuristic,{ismcts},random", None, ("rounds", 16)): "112a03f7ccee38a6",
    ("differenzler", "heuristic,random,heuristic_v1,heuristic", "game_rounds=12,zero_bonus=always,exact_bonus=10", ("games", 10)): "ede4d851e93351b3",
    ("differenzler", "{mc},heuristic,{ismcts},random", "zero_bonus=zero_trick,exact_bonus=10", ("rounds", 16)): "de9aee7be0f139ca",
    ("wizard", "random", None, ("games", 10)): "b3abf7cb90b72143",
    # single random rounds, an odd count (the random work items play them in pairs); taken before the pairs
    ("wizard", "random", "cards=15", ("rounds", 401)): "f657f5dd4a709ef3",
    ("wizard", "random", "players=5,cards=7", ("rounds", 401)): "8d8ef8763dae3e35",
    ("differenzler", "random", None, ("rounds", 401)): "4c3d18a1dcd3ea9e",
    ("wizard", "heuristic_v1,random,heuristic_v1", "players=3,bidding=secret", ("rounds", 400)): "e05546c3b4d1719f",
    ("wizard", "heuristic_v1", "players=6,plus_minus_one=true,schedule=five_rounds", ("games", 10)): "19650035d503cc9a",
    ("wizard", "heuristic_v1,random,heuristic_v1,random,heuristic_v1", "players=5,bidding=hidden,cards=7", ("rounds", 300)): "1eca85895b8e7d48",
    ("wizard", "{mc_v1},heuristic_v1,{ismcts_v1},random", "cards=5", ("rounds", 3)): "d3e5b8b2a2e64fa7",
    ("wizard", "{mc},heuristic,{ismcts},random", "cards=5", ("rounds", 3)): "7802f3ac9da11149",
    ("wizard", "DigestBot,heuristic_v1,random", "players=3,plus_minus_one=true", ("games", 2)): "96bcb6e6d494ad2a",
    ("wizard", "heuristic", "players=6,plus_minus_one=true,schedule=five_rounds", ("games", 10)): "409a7f813dc41237",
    ("wizard", "heuristic,random,rulebased", "players=3,bidding=secret", ("rounds", 400)): "7edbc6641997af89",
    ("wizard", "{mc},heuristic,{ismcts},random,heuristic_v1,rulebased", "players=6,schedule=five_rounds", ("games", 2)): "6ac5e93eaeca389b",
    ("ohhell", "random", None, ("rounds", 400)): "afc54f8be1133dc2",
    ("ohhell", "random", "players=7,off_bid_penalty=true,points_per_trick=5", ("games", 5)): "49543c9d40a2a092",
    ("ohhell", "heuristic,random,rulebased", "players=3,num_suits=3,num_cards_per_suit=7,num_tricks_fixed=5", ("rounds", 400)): "23cb5dc90e8e2e41",
    ("ohhell", "heuristic,heuristic_v1,random,heuristic", "hook=false,schedule=up", ("games", 10)): "9867dc55231d7a5e",
    ("ohhell", "{mc},heuristic,{ismcts},random", None, ("games", 2)): "c44473e670c739b3",
    ("ohhell", "DigestBot,heuristic,random", "players=3", ("games", 2)): "930363f22396430a",
    ("callpartner", "random", None, ("rounds", 400)): "7fabbbb742fcde51",
    ("callpartner", "heuristic_v1,random,heuristic_v1", "players=3,all_pass=dealer_forced", ("games", 5)): "880feaa763c39235",
    ("callpartner", "heuristic_v1", "players=5,discards_count=false", ("rounds", 400)): "bb7c533cf961984b",
    ("callpartner", "{mc_v1},heuristic_v1,random,heuristic_v1", None, ("rounds", 3)): "024c55e1bb9a1634",
    ("callpartner", "DigestBot,heuristic_v1,random,heuristic_v1", "all_pass=dealer_forced", ("games", 2)): "b27b1f39e3054e74",
    ("callpartner", "{mc_v1},heuristic_v1,{ismcts_v1},random", "max_deals=3", ("games", 2)): "ec604d9948ff8172",
    ("callpartner", "heuristic_v1,{ismcts_v1},random", "players=3,all_pass=dealer_forced", ("rounds", 20)): "e77de164f4efa474",
    ("callpartner", "heuristic,random,heuristic_v1,heuristic", "all_pass=dealer_forced", ("games", 3)): "f275881fe3dacb1f",
    ("callpartner", "heuristic", "players=5,discards_count=false", ("rounds", 400)): "0526a7970a5c5c38",
    ("callpartner", "{mc_v1},heuristic,{ismcts_v1},heuristic", None, ("rounds", 16)): "6e7f1755587a0ba6",
    ("callpartner", "{mc},heuristic,{ismcts},heuristic", None, ("rounds", 16)): "c4e127a1b6c60151",
}


def run_rows(game: str, bots: str, rules: str | None, size: tuple[str, int]) -> pd.DataFrame:
    strong = STRONG[game]
    spec = bots.format(mc=strong[0], ismcts=strong[-1], mc_v1=strong[0].replace("mc:", "mc_v1:"),
                       ismcts_v1=strong[-1].replace("ismcts:", "ismcts_v1:"))  # fmt: skip
    lineup = [DigestBot() if b == "DigestBot" else b for b in spec.split(",")]
    rule_list = rules.split(",") if rules else None
    return simulate(game, lineup, seed=20261201, rules=rule_list, threads=1, keep_rows=True, progress=False,
                    **{size[0]: size[1]}).rows  # fmt: skip


@pytest.mark.parametrize("case", list(CASES), ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}-{c[3][0]}")
def test_fixed_runs_keep_their_digests(case):
    rows = run_rows(*case)
    assert len(rows) > 0
    assert digest(rows) == CASES[case]


def test_digest_sees_a_changed_value():
    rows = run_rows("differenzler", "random", None, ("rounds", 5))
    changed = rows.copy()
    changed.loc[3, "points"] += 1
    assert digest(rows) != digest(changed)


RANDOM_CASES = [case for case in CASES if case[1] == "random"]


def test_the_portable_path_deals_and_plays_the_same_rounds():
    """``CARDSIM_PORTABLE=1`` (cardsim.jit.cpu: the n-th card of a mask without pdep, in kernels cached apart):
    every game's random cases keep their digests, in a process of their own."""
    code = ("import sys; sys.path.insert(0, 'tests'); import cardsim.cards as c; from test_digests import CASES, "
            "RANDOM_CASES, digest, run_rows; assert not c.USE_PDEP; "
            "print([digest(run_rows(*case)) == CASES[case] for case in RANDOM_CASES])")  # fmt: skip
    env = {**os.environ, "CARDSIM_PORTABLE": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=500)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == str([True] * len(RANDOM_CASES)) and len(RANDOM_CASES) == 8


def test_a_bad_portable_switch_stops_with_one_line():
    env = {**os.environ, "CARDSIM_PORTABLE": "yes"}
    done = subprocess.run([sys.executable, "-c", "import cardsim"], env=env, capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == ("cardsim: CARDSIM_PORTABLE='yes' is not allowed: 1 (the portable path, no pdep) or "
                                   "0 / unset (this CPU's best)")  # fmt: skip
