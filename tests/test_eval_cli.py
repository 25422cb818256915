"""scoundrel-eval: its report matches the games played, and bad input is one line, exit 2."""

from __future__ import annotations

import json
import statistics

import pytest

from scoundrel_solver import solve
from scoundrel_solver.cli.eval import main
from scoundrel_solver.fair import GreedyAgent
from scoundrel_solver.fair.api import play_with
from scoundrel_solver.runs.summary import wilson


def test_report_counts_the_games_the_agent_plays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--agent", "greedy", "--seeds", "0:5", "--json"]) == 0
    cap = capsys.readouterr()
    out = json.loads(cap.out)
    games = [play_with(GreedyAgent(), seed) for seed in range(5)]
    wins = sum(g.won for g in games)
    assert out["games"] == 5 and out["wins"] == wins
    assert out["win_rate"] == wins / 5 and out["win_rate_ci95"] == list(wilson(wins, 5))
    assert out["mean_score"] == statistics.fmean(g.score for g in games)
    assert out["median_score"] == statistics.median(g.score for g in games)
    assert out["exact_decision_share"] == 0.0  # the greedy agent never searches
    assert cap.err == ""  # no progress bar when stderr is not a terminal


def test_fair_agent_options_and_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--agent", "fair", "--seeds", "0:2", "--depth", "0", "--budget", "1000",
                 "--shallow-above", "0"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("fair classic/strict seeds 0:2: 2 games,")
    assert "win rate" in line and "s/game" in line


def test_perfect_share_is_the_solver_s(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--agent", "random", "--seeds", "0:3", "--variant", "hard", "--perfect",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    share = sum(bool(solve(s, variant="hard").winnable) for s in range(3)) / 3
    assert out["perfect_winnable_share"] == share


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--agent", "nobody"], "nobody"),
        (["--seeds", "9:2"], "9:2"),
        (["--seeds", "x"], "'x'"),
        (["--seeds", f"0:{2**64 + 1}"], str(2**64 + 1)),
        (["--variant", "weird"], "weird"),
        (["--weapon-rule", "bent"], "bent"),
        (["--jobs", "0"], "--jobs"),
        # item 12: options of the fair agent refused for the others, bad values refused
        (["--agent", "greedy", "--budget", "5"], "--budget"),
        (["--agent", "random", "--depth", "1"], "--depth"),
        (["--agent", "greedy", "--shallow-above", "2"], "--shallow-above"),
        (["--budget", "-5"], "--budget"),
        (["--budget", "0"], "--budget"),
        (["--depth", "-1"], "--depth"),
        (["--shallow-above", "-1"], "--shallow-above"),
        (["--bogus"], "--bogus"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--quiet"]) == 2
    cap = capsys.readouterr()
    err = cap.err.strip().splitlines()
    assert cap.out == "" and len(err) == 1
    assert err[0].startswith("scoundrel-eval: error:") and needle in err[0]
