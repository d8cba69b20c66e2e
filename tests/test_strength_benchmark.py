"""benchmarks/strength.py runs at --smoke size for every game and strong bot and writes its table and figure."""

from __future__ import annotations

import json
import math

from conftest import load_script

from cardsim.games import GAMES, get_game
from cardsim.lineup import is_cheating


def test_effort_levels_scale_integer_settings_within_their_ranges():
    strength = load_script("benchmarks/strength.py")
    for game in GAMES:
        for bot, settings in get_game(game).bot_settings.items():
            spec = strength.scaled(bot, settings, 1e6)
            values = dict(item.split("=") for item in spec.split(":")[1:])
            assert all(float(values[k]) == s.high for k, s in settings.items() if s.integer and s.default > 0)
            get_game(game).lineup(spec, allow_cheating=True)  # a valid lineup entry


def test_smoke_run_measures_every_strong_bot_of_every_game(tmp_path):
    assert load_script("benchmarks/strength.py").main(["--smoke", "--out", str(tmp_path)]) == 0
    rows = json.loads((tmp_path / "strength.json").read_text())
    expected = {(game, bot) for game in GAMES for bot in get_game(game).bot_settings if not is_cheating(bot)}
    assert {(r["game"], r["bot"].split(":")[0]) for r in rows} == expected
    assert all(r["decisions"] > 0 and r["median_ms"] > 0 and math.isfinite(r["advantage"]) for r in rows)
    assert (tmp_path / "strength.png").stat().st_size > 0 and "| game |" in (tmp_path / "strength.md").read_text()
