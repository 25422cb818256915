"""experiments/first_room.py: the first line of the leaf rounds' tables."""

from __future__ import annotations

import json
import math
from pathlib import Path

from lab import load_experiment

first_room = load_experiment("first_room")


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_the_games_of_several_caches_are_read_in_seed_order(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.jsonl", [{"seed": 5, "won": True, "x": [[1.0]]}])
    b = _write(tmp_path / "b.jsonl", [{"seed": 3, "won": False, "x": [[1.0]]},
                                      {"seed": 4, "won": True, "x": [[1.0]]}])
    assert [g["seed"] for g in first_room.read_games([a, b])] == [3, 4, 5]


def test_the_chance_is_the_logistic_model_at_the_first_room_alone() -> None:
    # the later rooms' features must not count: only x[0] is the first room
    games = [{"seed": 1, "won": True, "x": [[1.0, 2.0], [9.0, 9.0]]},
             {"seed": 2, "won": False, "x": [[1.0, -1.0], [9.0, 9.0]]}]
    coef = (0.5, 0.25)
    expected = (1 / (1 + math.exp(-1.0)) + 1 / (1 + math.exp(-0.25))) / 2
    assert math.isclose(first_room.mean_first_room_chance(games, coef), expected)
    line = first_room.first_room_line(games, [("zero", (0.0, 0.0)), ("this", coef)])
    assert line == (f"2 games (seeds 1-2): won 50.0%; mean chance at the first room: "
                    f"zero 50.0% this {100 * expected:.1f}%")
