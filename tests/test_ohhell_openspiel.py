"""cardsim's Oh Hell against OpenSpiel's ``oh_hell``, move by move (RULES.md F1-F6): ``tests/ohhell_crosscheck.py``
at a smaller size than its own run (20,000 rounds, in the note of the change that added Oh Hell).

Under CI a missing pyspiel fails these tests (an import error at collection); elsewhere they are skipped."""

from __future__ import annotations

import os

import pytest

if os.environ.get("CI", "").strip().lower() in ("", "0", "false", "no"):
    pytest.importorskip("pyspiel", reason="open-spiel (the dev extra) is not installed")
import ohhell_crosscheck as cross  # noqa: E402  (imports pyspiel)
import openspiel_ohhell as osh  # noqa: E402

pytestmark = pytest.mark.xdist_group("ohhell")


def test_cardsim_and_openspiel_agree_on_every_move_legal_set_and_score_both_ways():
    result = cross.crosscheck(rounds=1100, seed=3)
    assert result["rounds"] == 1100 and result["disagreements"] == 0, result["first"]


def test_every_player_count_and_the_shared_options_are_covered():
    players = {p for p, _ in cross.CONFIGS}
    options = {(name, value) for _, rules in cross.CONFIGS for name, value in rules.items()}
    assert players == {3, 4, 5, 6, 7}
    assert ("off_bid_penalty", True) in options and {v for n, v in options if n == "points_per_trick"} >= {2, 3, 5}
    assert {n for n, _ in options} >= {"num_tricks_fixed", "num_suits", "num_cards_per_suit"}
    assert any("num_tricks_fixed" not in rules for _, rules in cross.CONFIGS)  # -1: r drawn for each round


def test_the_crosscheck_counts_a_disagreement(monkeypatch):
    """Broken on purpose: OpenSpiel's returns shifted by one point; every round must disagree."""
    replay = osh.replay

    def shifted(*args, **kwargs):
        out = replay(*args, **kwargs)
        return {**out, "returns": [x + 1 for x in out["returns"]]}

    monkeypatch.setattr(osh, "replay", shifted)
    result = cross.crosscheck(rounds=2 * len(cross.CONFIGS), seed=1)
    assert result["disagreements"] == len(cross.CONFIGS) and "scores" in result["first"][0]
