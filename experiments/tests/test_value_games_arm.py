"""experiments/value_games_arm.py: a scoundrel-value data record as an A/B arm."""

from __future__ import annotations

import json
from pathlib import Path

from lab import load_experiment


def _game(seed: int, won: bool, variant: str = "classic/strict") -> dict[str, object]:
    return {"format": "scoundrel-value-games/1", "seed": seed, "variant": variant,
            "agent_version": "v", "won": won, "score": 5 if won else -20, "cpu_seconds": 0.5,
            "decisions": [{"cpu_ms": 1200.0}, {"cpu_ms": 3.0}]}


def test_the_games_of_the_seeds_become_rows_of_an_arm(tmp_path: Path) -> None:
    arm = load_experiment("value_games_arm")
    record, out = tmp_path / "games.jsonl", tmp_path / "arm.jsonl"
    games = [_game(12, True), _game(10, False), _game(11, True, "hard/strict"), _game(30, True)]
    record.write_text("".join(json.dumps(g) + "\n" for g in games) + '{"seed": 13, "won')
    assert arm.main([str(record), "--seeds", "10:20", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["seed"], r["won"], r["score"]) for r in rows] == [(10, False, -20), (12, True, 5)]
    assert rows[0]["decisions"] == 2 and rows[0]["over_1s"] == 1 and rows[0]["worst"] == 1.2
    assert rows[0]["cpu"] == 0.5
