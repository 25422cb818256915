"""scoundrel-solve: output formats, batch runs and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import scoundrel_core as sc
from scoundrel_solver.cli.solve import main

pytestmark = pytest.mark.usefixtures("warm_solver")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output_has_the_documented_keys_and_a_line_that_replays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "--seed", "2", "--variant", "hard", "--json")
    assert code == 0
    obj = json.loads(out)
    for key in ("seed", "variant", "weapon_rule", "deck", "best_score", "winnable", "proven",
                "line", "nodes", "seconds"):
        assert key in obj
    assert obj["seed"] == 2 and obj["variant"] == "hard" and obj["weapon_rule"] == "strict"
    assert obj["deck"] == [str(c) for c in sc.deal(2)]
    assert obj["proven"] is True
    end = sc.play_line(sc.new_game(seed=2, variant="hard"), obj["line"])
    assert end.score == obj["best_score"]
    assert obj["winnable"] == (obj["best_score"] > 0)


def test_human_output_tells_the_line_room_by_room(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--seed", "0", "--variant", "hard")
    assert code == 0
    assert "Best score: 14 (won), proven optimal" in out
    assert "Room 1: 10C KS 5D 5S" in out
    assert "Game over: won, score 14" in out


def test_weapon_rule_and_deck_options(capsys: pytest.CaptureFixture[str]) -> None:
    deck = " ".join(str(c) for c in sc.deal(5))
    code, out, _ = run(capsys, "--deck", deck, "--variant", "hard", "--weapon-rule", "equal",
                       "--json")
    obj = json.loads(out)
    assert code == 0 and obj["seed"] is None and obj["weapon_rule"] == "equal"
    code, out, _ = run(capsys, "--seed", "5", "--variant", "hard", "--weapon-rule", "equal",
                       "--json")
    assert json.loads(out)["best_score"] == obj["best_score"]


def test_daily_dungeon_uses_the_date_as_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--daily", "2026-11-29", "--variant", "hard", "--json")
    assert code == 0 and json.loads(out)["seed"] == 20261129


def test_a_limit_says_not_proven(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--seed", "3", "--max-nodes", "1")
    assert code == 0
    assert "NOT proven" in out
    code, out, _ = run(capsys, "--seed", "3", "--max-nodes", "1", "--json")
    obj = json.loads(out)
    assert obj["proven"] is False and obj["stopped_by"] == "max_nodes"
    assert obj["upper_bound"] >= obj["best_score"]


def test_state_option_solves_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    s = sc.State.from_parts(room=["8D", "JS", "6C", "4H"], dungeon=["2C"], health=12)
    code, out, _ = run(capsys, "--state", s.to_text(), "--json")
    obj = json.loads(out)
    assert code == 0 and obj["proven"]
    assert sc.play_line(s, obj["line"]).score == obj["best_score"]


def test_batch_writes_and_resumes_a_results_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "r.jsonl"
    code, out, _ = run(capsys, "--seeds", "0:3", "--variant", "hard", "--out", str(out_file),
                       "--json")
    assert code == 0 and json.loads(out)["deals"] == 3
    code, out, _ = run(capsys, "--seeds", "0:5", "--variant", "hard", "--out", str(out_file),
                       "--json")
    summary = json.loads(out)
    assert summary["deals"] == 5 and summary["proven"] == 5
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert sorted(r["seed"] for r in rows) == [0, 1, 2, 3, 4]  # 0-2 were not solved again


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--seed", "-1"], "-1"),
        (["--seed", "abc"], "abc"),
        (["--seed", str(2**64)], str(2**64)),
        (["--deck", "KS 7D"], "2 cards"),
        (["--deck", "KS KS " + " ".join(str(c) for c in sc.FULL_DECK[1:43])], "duplicate"),
        (["--deck", "QH " + " ".join(str(c) for c in sc.FULL_DECK[1:])], "QH"),
        (["--seed", "1", "--variant", "medium"], "medium"),
        (["--seed", "1", "--weapon-rule", "soft"], "soft"),
        (["--daily", "2026-13-40"], "2026-13-40"),
        (["--seeds", "9:3"], "9:3"),
        (["--seed", "1", "--max-nodes", "0"], "max-nodes"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and needle in err
