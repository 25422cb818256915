"""experiments/pimc_sequential.py: the endgame's orders drawn on while the choice is close."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lab import load_experiment, walk
from scoundrel_core.info import InfoState
from scoundrel_solver.fair import FairAgent, play_fair
from scoundrel_solver.fair.config import configs_with
from scoundrel_solver.fair.pimc import (
    PimcAgent,
    PimcStats,
    best_tally,
    sample_orders,
    tally_actions,
)


def _race(info: InfoState, first: int, cap: int, margin: int) -> tuple[list[int], int]:
    """The slow twin: every action won or lost on every order, one order at a time by
    PIMC's own tally, then the race run on that table. The orders each action is
    tallied on, and the action chosen."""
    orders = sample_orders(info, cap, 0)
    acts = info.legal_actions()
    won = [[t.wins for t in tally_actions(info, [o])] for o in orders]  # won[order][action]
    # with no more orders than cap, every order is used from the start
    n = len(orders) if math.factorial(len(info.unseen)) <= cap else first
    alive = list(range(len(acts)))
    seen = [0] * len(acts)
    while True:
        for i in alive:
            seen[i] = n
        wins = [sum(won[k][i] for k in range(seen[i])) for i in range(len(acts))]
        top = max(wins[i] for i in alive)
        alive = [i for i in alive if wins[i] >= top - margin]
        if len(alive) == 1 or n >= len(orders):
            break
        n = min(2 * n, len(orders))
    scored = tally_actions(info, orders[:n], all_scores=True)
    best = max(alive, key=lambda i: (wins[i], scored[i].total_score, -int(acts[i])))
    return seen, best


@given(st.integers(0, 10**6), st.integers(9, 12), st.integers(0, 3), st.sampled_from([2, 4, 8]),
       st.sampled_from([4, 16]), st.integers(0, 2))
@settings(max_examples=40, deadline=None)
def test_the_race_is_its_slow_twins(seed: int, n_cards: int, steps: int, first: int, cap: int,
                                    margin: int) -> None:
    seq = load_experiment("pimc_sequential")
    info = walk(seed, n_cards, steps)[1]
    assume(len(info.legal_actions()) > 1 and len(info.unseen) > 1)
    cap = max(cap, first)
    got = seq.sequential_tallies(info, first, cap, margin, PimcStats())
    seen, best = _race(info, first, cap, margin)
    assert [t.samples for t in got] == seen
    assert best_tally(got).action == info.legal_actions()[best]
    orders = sample_orders(info, cap, 0)
    # the first orders are the ones a PIMC of fewer samples draws (the same generator)
    assert math.factorial(len(info.unseen)) <= cap or orders[:first] == sample_orders(
        info, first, 0)
    # with no one dropped, the tallies are PIMC's over the orders drawn, every order if
    # the margin never lets the race stop
    assert seq.sequential_tallies(info, first, cap, 10**6, PimcStats()) == tally_actions(
        info, orders)
    kept = seq.sequential_tallies(info, first, cap, margin, PimcStats(), drop=False)
    n = kept[0].samples
    assert kept == tally_actions(info, orders[:n])
    # and it is the agent's race that sums its scores over every order it may draw
    assert kept == PimcAgent(samples=first, cap=cap, margin=margin, scored=cap).evaluate(info)
    wins = sorted((t.wins for t in kept), reverse=True)
    assert wins[0] - wins[1] > margin or n == len(orders)
    assert n == len(orders) or n in {first * 2**k for k in range(6)}


def test_with_no_more_orders_than_eight_it_plays_the_endgame_without_its_race(
        tmp_path: Path) -> None:
    """A cap of 8 is the endgame before classic/strict's race was adopted: its games."""
    seq = load_experiment("pimc_sequential")
    out = tmp_path / "arm.jsonl"
    argv = ["--variant", "classic/strict", "--out", str(out), "--cap", "8"]
    assert seq.main([*argv, "--seeds", "1000000:1000001"]) == 0
    assert seq.main([*argv, "--seeds", "1000000:1000002"]) == 0  # resumes
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [1000000, 1000001]
    for r in rows:
        game = play_fair(r["seed"], "classic", "strict", agent=FairAgent(configs_with(
            endgame_cap=0, endgame_scored=0, endgame_score_margin=math.inf)))
        assert (r["score"], r["won"], r["decisions"]) == (game.score, game.won, len(game.actions))
        assert 0 < r["orders"] <= 8


@pytest.mark.parametrize("bad", [["--cap", "0"], ["--margin", "-1"], ["--seeds", "9:x"],
                                 ["--variant", "bogus"]])
def test_bad_settings_are_named(bad: list[str], tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    seq = load_experiment("pimc_sequential")
    argv = ["--seeds", "0:1", "--out", str(tmp_path / "a.jsonl")]
    with pytest.raises(SystemExit) as e:
        seq.main([*argv, *bad])
    assert e.value.code == 2
    assert bad[0] in capsys.readouterr().err
