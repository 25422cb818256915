"""experiments/fair_paired.py: row filters and the paired arithmetic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab import load_experiment

fair_paired = load_experiment("fair_paired")


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_where_picks_one_sample_count(tmp_path: Path) -> None:
    rows = [{"agent": "pimc", "samples": 8, "seed": s, "won": s % 2 == 0} for s in range(4)]
    rows += [{"agent": "pimc", "samples": 32, "seed": s, "won": True} for s in range(4)]
    f = _write(tmp_path / "p.jsonl", rows)
    eight = fair_paired.load(f, "classic", "strict", None, fair_paired.parse_where(["samples=8"]))
    assert eight == {0: True, 1: False, 2: True, 3: False}
    # without the filter the later 32-sample rows win
    assert fair_paired.load(f, "classic", "strict", None) == dict.fromkeys(range(4), True)
    text = fair_paired.parse_where(["agent=pimc"])
    assert text == {"agent": "pimc"}
    assert len(fair_paired.load(f, "classic", "strict", None, text)) == 4


def test_bad_where_names_itself() -> None:
    with pytest.raises(SystemExit, match="'samples8' is not KEY=VALUE"):
        fair_paired.parse_where(["samples8"])


def test_paired_counts_and_interval() -> None:
    a = {0: True, 1: True, 2: False, 3: False, 4: True}
    b = {0: True, 1: False, 2: True, 3: True, 4: True, 9: True}
    out = fair_paired.paired(a, b)
    assert (out["deals"], out["a_wins"], out["b_wins"]) == (5, 3, 4)
    assert (out["a_only"], out["b_only"]) == (1, 2)
    assert out["b_minus_a"] == pytest.approx(0.2)
    lo, hi = out["b_minus_a_ci95"]
    assert lo < 0.2 < hi
    # one-sided discordance 1 of 3 at p = 1/2: 2 * (1 + 3) / 8
    assert out["sign_test_p"] == pytest.approx(1.0)


def test_same_games_counts_equal_endings(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    a = _write(tmp_path / "a.jsonl", [{"seed": s, "won": s > 0, "score": s, "decisions": 40}
                                      for s in range(4)])
    b = _write(tmp_path / "b.jsonl", [{"seed": s, "won": s > 0, "score": s,
                                       "decisions": 40 + (s == 2)} for s in range(1, 6)])
    assert fair_paired.main([str(a), str(b)]) == 0
    out = json.loads(capsys.readouterr().out)
    # seeds 1-3 are paired; seed 2 took one more decision on side b
    assert (out["deals"], out["same_score_and_decisions"]) == (3, 2)
    bare = _write(tmp_path / "c.jsonl", [{"seed": s, "won": True} for s in range(4)])
    assert fair_paired.main([str(a), str(bare)]) == 0
    assert json.loads(capsys.readouterr().out)["same_score_and_decisions"] is None


def test_cost_of_each_side_over_the_paired_deals(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    a = _write(tmp_path / "a.jsonl", [
        {"seed": s, "won": True, "cpu": c, "decisions": 10, "over_1s": s}
        for s, c in ((0, 1.0), (1, 3.0), (2, 2.0), (7, 50.0))])
    b = _write(tmp_path / "b.jsonl", [{"seed": s, "won": False, "cpu": 0.5} for s in range(3)])
    c = _write(tmp_path / "c.jsonl", [{"seed": s, "won": False} for s in range(3)])
    assert fair_paired.main([str(a), str(b)]) == 0
    out = json.loads(capsys.readouterr().out)
    # seed 7 is not paired: its cost does not count
    assert out["a_cost"] == {"cpu_median": 2.0, "cpu_mean": 2.0, "decisions": 30, "over_1s": 3}
    assert out["b_cost"] == {"cpu_median": 0.5, "cpu_mean": 0.5}
    assert fair_paired.main([str(a), str(c)]) == 0
    assert json.loads(capsys.readouterr().out)["b_cost"] is None


def test_a_rounds_table_prints_a_row_per_pair_sharing_deals(
        capsys: pytest.CaptureFixture[str]) -> None:
    def game(seed: int, won: bool) -> dict[str, object]:
        return {"seed": seed, "won": won, "cpu": 1.0, "decisions": 10, "over_1s": 0}

    arm = {s: game(s, True) for s in range(4)}
    shipped = {s: game(s, s < 2) for s in range(4)}
    elsewhere = {s: game(s, True) for s in range(10, 12)}
    fair_paired.print_rows("| deals | ... |", [("these", arm, shipped),
                                                ("no shared deal", arm, elsewhere)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "| deals | ... |" and lines[1].startswith("|---|")
    # the pair with no deal in common prints nothing
    assert len(lines) == 3
    assert lines[2].startswith("| these | 0-3 | 4 | 4 / 2 | 2 / 0 | +50.0 ")


def test_an_arm_in_several_files_is_their_rows_together(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.jsonl", [{"seed": s, "won": True} for s in range(2)])
    b = _write(tmp_path / "b.jsonl", [{"seed": s, "won": False} for s in range(2, 4)])
    # a file not yet written (its process has not started) adds nothing
    rows = fair_paired.load_parts([a, b, tmp_path / "later.jsonl"])
    assert fair_paired.wins(rows) == {0: True, 1: True, 2: False, 3: False}


def test_halves_split_an_arm_at_a_seed_and_keep_both() -> None:
    arm = {s: {"seed": s, "won": True} for s in (0, 5, 9, 10, 14)}
    shipped = {s: {"seed": s, "won": False} for s in range(20)}
    rows = fair_paired.halves(arm, shipped, 10)
    assert [name for name, _, _ in rows] == ["first half", "second half", "both"]
    assert [sorted(a) for _, a, _ in rows] == [[0, 5, 9], [10, 14], [0, 5, 9, 10, 14]]
    assert all(s is shipped for _, _, s in rows)


def test_a_tiny_p_is_shown_as_a_bound() -> None:
    assert [fair_paired.p_cell(p) for p in (0.5, 0.0123, 0.0042, 0.0009, 1e-9)] == [
        "0.50", "0.01", "0.004", "< 0.001", "< 0.001"]
