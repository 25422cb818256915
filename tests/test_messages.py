"""Issue 24's messages and small defects: each as a user meets it."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

import scoundrel_core as sc
from scoundrel_solver.cli.census import main as census
from scoundrel_solver.cli.solve import main as solve


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = solve(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_long_state_is_quoted_as_a_bounded_excerpt(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--state", "classic/strict " + "health=5 " * 12_000)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert len(err) < 600 and "108,015 characters" in err


def test_health_of_a_running_game_is_1_to_20_in_the_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = ("classic/strict health=25 weapon=- last=- potion=0 resolved=0 fled=0 "
            "room=[2C 3C 4C 5C] dungeon=[]")
    code, _, err = run(capsys, "--state", text)
    assert code == 2 and "health 25 out of range 1..20 for a running game" in err


def test_a_bare_seed_suggests_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "42")[2] == ("scoundrel-solve: error: unrecognized arguments: 42 "
                                    "(a seed is given as --seed 42)\n")
    assert "(a seed is given as --seeds 0:10)" in run(capsys, "0:10")[2]


def test_solve_daily_without_a_date_is_today(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--daily", "--json", "--variant", "hard")
    assert code == 0
    assert json.loads(out)["seed"] == sc.daily_seed(dt.date.today())


@pytest.mark.parametrize("argv", [
    ["--seed", "3", "--variant", "hard/equal", "--weapon-rule", "strict"],
    ["--seeds", "0:2", "--variant", "hard/equal", "--weapon-rule", "strict"],
])
def test_a_contradictory_rule_is_refused_and_a_repetition_is_fine(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert "names weapon rule equal, but weapon rule 'strict' was given too" in err
    code, out, _ = run(capsys, *argv[:-1], "equal", "--json")
    assert code == 0 and json.loads(out)["weapon_rule"] == "equal"


def test_a_contradictory_rule_is_refused_by_the_census_and_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "c.sqlite"
    assert census(["run", "--seeds", "0:2", "--variant", "hard/equal", "--weapon-rule",
                   "strict", "--db", str(db)]) == 2
    assert "given too" in capsys.readouterr().err and not db.exists()
    with pytest.raises(sc.RecordError, match="given too"):
        sc.GameRecord.from_play(seed=1, variant="hard/equal", weapon_rule="strict")


def test_human_batch_output_has_no_python_reprs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--seeds", "0:3", "--variant", "hard", "--max-nodes", "1")
    assert code == 0
    for repr_like in ("None", "{", "}", "out:", "1 nodes", "0.0000"):
        assert repr_like not in out, out
    assert out.startswith("3 deals of hard/strict, seeds 0:3:")
    assert "results not kept (no --out)" in out
