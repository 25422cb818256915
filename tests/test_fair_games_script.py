"""scripts/fair_games.py: the per-game rows notebook 03 reads."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

import scoundrel_core as sc
from conftest import load_script
from scoundrel_solver import solve
from scoundrel_solver.fair import play_fair
from scoundrel_solver.provenance import read_provenance

pytestmark = pytest.mark.usefixtures("warm_solver")


def _script() -> ModuleType:
    return load_script("fair_games")


def test_rooms_of_counts_refills_and_flees() -> None:
    fg = _script()
    # hard never flees: a whole game is the first room and 14 refills
    r = solve(0, variant="hard")
    assert r.winnable
    assert fg.rooms_of(r.start, r.line)[-1] == 15
    # a flee deals a new room at once
    s = sc.new_game(seed=7)
    first = str(sc.legal_actions(sc.play_line(s, "flee"))[0])
    assert fg.rooms_of(s.to_text(), ("flee", first)) == [1, 2]


def test_rows_match_play_fair_and_resume(tmp_path: Path) -> None:
    fg = _script()
    cache = tmp_path / "games.jsonl"
    assert fg.main(["--variant", "hard", "--seeds", "0:2", "--cache", str(cache)]) == 0
    assert fg.main(["--variant", "hard", "--seeds", "0:3", "--cache", str(cache)]) == 0
    rows = [json.loads(x) for x in cache.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [0, 1, 2]  # the second run played only seed 2
    for row in rows:
        game = play_fair(row["seed"], "hard", "strict")
        assert (row["score"], row["won"]) == (game.score, game.won)
        assert row["exact"] == list(game.exact)
        assert len(row["decision_room"]) == row["decisions"] == len(game.actions)
        assert row["rooms"] == row["decision_room"][-1]
        assert row["exact_decisions"] == sum(game.exact)
    out = tmp_path / "games.parquet"
    assert fg.main(["--cache", str(cache), "--parquet", str(out)]) == 0
    import pandas as pd

    df = pd.read_parquet(out)
    assert set(read_provenance(out)) == {"command", "commit", "date", "version"}
    assert list(df.seed) == [0, 1, 2] and list(df.score) == [r["score"] for r in rows]
