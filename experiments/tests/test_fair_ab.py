"""experiments/fair_ab.py: one arm of a paired A/B test of the fair agent's settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab import load_experiment
from scoundrel_solver.fair import FairAgent, leaf, play_fair
from scoundrel_solver.fair.config import configs_with


def test_an_arm_plays_as_the_agent_with_those_settings_and_resumes(tmp_path: Path) -> None:
    ab = load_experiment("fair_ab")
    out = tmp_path / "arm.jsonl"
    argv = ["--variant", "hard/strict", "--out", str(out), "--opt", "max_depth=0"]
    assert ab.main([*argv, "--seeds", "0:2"]) == 0
    assert ab.main([*argv, "--seeds", "0:3"]) == 0  # resumes: only seed 2 is played
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [0, 1, 2]
    for r in rows:
        game = play_fair(r["seed"], "hard", "strict", agent=FairAgent(configs_with(max_depth=0)))
        assert (r["score"], r["won"]) == (game.score, game.won)
        assert 0 <= r["worst"] <= r["cpu"]


@pytest.mark.parametrize("bad", [["--opt", "budget=5"], ["--opt", "max_depth=x"],
                                 ["--variant", "x"], ["--seeds", "9:x"]])
def test_bad_settings_are_named(bad: list[str], tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    ab = load_experiment("fair_ab")
    argv = ["--seeds", "0:1", "--out", str(tmp_path / "a.jsonl")]
    with pytest.raises(SystemExit) as e:
        ab.main([*argv, *bad])
    assert e.value.code == 2
    assert bad[1].split("=")[0] in capsys.readouterr().err


def test_an_arm_plays_the_win_model_of_a_model_file(tmp_path: Path) -> None:
    """``--model FILE`` plays that file's win model, as an agent configured with it does."""
    ab = load_experiment("fair_ab")
    model = tmp_path / "model.json"
    names = list(leaf.FEATURES[:13])
    coef = [5.0, 0.3, -0.2, *[0.0] * 10]
    model.write_text(json.dumps({"features": names, "models": {"classic/strict": {"coef": coef}}}))
    out = tmp_path / "arm.jsonl"
    argv = ["--variant", "hard", "--seeds", "0:2", "--opt", "max_depth=0"]
    assert ab.main([*argv, "--out", str(out), "--model", str(model)]) == 0
    shipped = leaf.win_model_from(model, "hard/strict")
    agent = FairAgent(configs_with(max_depth=0, win_model=shipped))
    for line in out.read_text().splitlines():
        r = json.loads(line)
        game = play_fair(r["seed"], "hard", "strict", agent=agent)
        assert (r["score"], r["won"]) == (game.score, game.won)


def test_a_missing_model_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ab = load_experiment("fair_ab")
    with pytest.raises(SystemExit) as e:
        ab.main(["--seeds", "0:1", "--out", str(tmp_path / "a.jsonl"),
                 "--model", str(tmp_path / "none.json")])
    assert e.value.code == 2
    assert "none.json" in capsys.readouterr().err


def test_an_arm_is_not_played_into_a_parquet_record(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    ab = load_experiment("fair_ab")
    record = tmp_path / "arm.parquet"
    with pytest.raises(SystemExit) as e:
        ab.main(["--seeds", "0:1", "--out", str(record)])
    assert e.value.code == 2
    assert "arm.parquet" in capsys.readouterr().err and not record.exists()
