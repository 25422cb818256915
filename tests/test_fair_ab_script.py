"""scripts/fair_ab.py: one arm of a paired A/B test of the fair agent's settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import load_script
from scoundrel_solver.fair import FairAgent, play_fair


def test_an_arm_plays_as_the_agent_with_those_settings_and_resumes(tmp_path: Path) -> None:
    ab = load_script("fair_ab")
    out = tmp_path / "arm.jsonl"
    argv = ["--variant", "hard/strict", "--out", str(out), "--opt", "max_depth=0"]
    assert ab.main([*argv, "--seeds", "0:2"]) == 0
    assert ab.main([*argv, "--seeds", "0:3"]) == 0  # resumes: only seed 2 is played
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [0, 1, 2]
    for r in rows:
        game = play_fair(r["seed"], "hard", "strict", agent=FairAgent(max_depth=0))
        assert (r["score"], r["won"]) == (game.score, game.won)
        assert 0 <= r["worst"] <= r["cpu"]


@pytest.mark.parametrize("bad", [["--opt", "budget=5"], ["--opt", "max_depth=x"],
                                 ["--seeds", "9:x"]])
def test_bad_settings_are_named(bad: list[str], tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    ab = load_script("fair_ab")
    argv = ["--seeds", "0:1", "--out", str(tmp_path / "a.jsonl")]
    with pytest.raises(SystemExit) as e:
        ab.main([*argv, *bad])
    assert e.value.code == 2
    assert bad[1].split("=")[0] in capsys.readouterr().err
