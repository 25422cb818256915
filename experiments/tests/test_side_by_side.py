"""experiments/side_by_side.py: agents timed in turn on the same deals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab import load_experiment
from scoundrel_solver.fair import GreedyAgent
from scoundrel_solver.fair.api import play_with


def test_arms_take_turns_by_blocks_and_a_rerun_resumes(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    sbs = load_experiment("side_by_side")
    monkeypatch.setattr(sbs, "BLOCK", 2)
    out = tmp_path / "cost.jsonl"
    arms = {"a": GreedyAgent(), "b": GreedyAgent()}
    loads = sbs.alternate(arms, [5, 6, 7], "classic/strict", out)
    assert len(loads) == 3 and all(x >= 0 for x in loads)  # before, and after each block
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["arm"], r["seed"]) for r in rows] == [
        ("a", 5), ("a", 6), ("b", 5), ("b", 6), ("a", 7), ("b", 7)]
    for r in rows:
        game = play_with(GreedyAgent(), r["seed"], "classic/strict")
        assert (r["score"], r["won"], r["variant"]) == (game.score, game.won, "classic/strict")
    sbs.alternate(arms, [5, 6, 7, 8], "classic/strict", out)  # resumes: only seed 8 is new
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["arm"], r["seed"]) for r in rows[6:]] == [("a", 8), ("b", 8)]
    lines = sbs.summary(out, "classic/strict", [5, 6, 7, 8], base="a")
    assert [line.split(", ")[2].split(":")[0] for line in lines] == ["a", "b"]
    assert "4 deals" in lines[0]
    # a greedy game can take less than the clock's resolution: then no ratio is given
    assert "ratio of medians 1.00" in lines[0] or "ratio of medians -" in lines[0]


def test_a_ratio_to_a_game_of_no_measurable_time_is_not_given(tmp_path: Path) -> None:
    sbs = load_experiment("side_by_side")
    out = tmp_path / "cost.jsonl"
    rows = [{"arm": a, "variant": "v", "seed": s, "cpu": c}
            for a, s, c in [("a", 1, 0.0), ("a", 2, 0.0), ("b", 1, 1.0), ("b", 2, 2.0)]]
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert sbs.summary(out, "v", [1, 2], base="a") == [
        "v, 2 deals, a: CPU s a game, median 0.00 (ratio of medians -, median per-deal ratio -)",
        "v, 2 deals, b: CPU s a game, median 1.50 (ratio of medians -, median per-deal ratio -)"]
    assert sbs.summary(out, "v", [1, 2], base="b")[1].endswith(
        "(ratio of medians 0.00, median per-deal ratio 0.00)")


def test_a_summary_without_its_base_or_shared_deals_says_so(tmp_path: Path) -> None:
    sbs = load_experiment("side_by_side")
    out = tmp_path / "cost.jsonl"
    sbs.alternate({"a": GreedyAgent()}, [5], "classic/strict", out)
    with pytest.raises(ValueError, match="base arm 'shipped'"):
        sbs.summary(out, "classic/strict", [5], base="shipped")
    with pytest.raises(ValueError, match="every arm played"):
        sbs.summary(out, "classic/strict", [6], base="a")
