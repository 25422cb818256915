"""experiments/pimc_sequential.py: the endgame's orders drawn on while the choice is close."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from lab import load_experiment
from scoundrel_core import FULL_DECK
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.fair import play_fair
from scoundrel_solver.fair.pimc import PimcStats, sample_orders, tally_actions


def _walk(seed: int, n_cards: int, steps: int) -> InfoState:
    """What a player knows after ``steps`` random moves of a small random deal."""
    rng = random.Random(seed)
    s = sc.new_game(deck=rng.sample(FULL_DECK, n_cards), partial=True)
    info = InfoState.initial(s)
    for _ in range(steps):
        if s.is_over:
            break
        a = rng.choice(sc.legal_actions(s))
        s2 = sc.apply(s, a)
        info = observe(info, a, s2)
        s = s2
    return info


@given(st.integers(0, 10**6), st.integers(9, 12), st.integers(0, 3), st.sampled_from([2, 4, 8]),
       st.sampled_from([4, 16]))
@settings(max_examples=40, deadline=None)
def test_tallies_equal_pimcs_over_the_orders_they_stop_at(seed: int, n_cards: int, steps: int,
                                                          first: int, cap: int) -> None:
    seq = load_experiment("pimc_sequential")
    info = _walk(seed, n_cards, steps)
    assume(len(info.legal_actions()) > 1 and len(info.unseen) > 1)
    cap = max(cap, first)
    got = seq.sequential_tallies(info, first, cap, 1, PimcStats())
    n = got[0].samples
    orders = sample_orders(info, cap, 0)
    # the first orders are the ones a PIMC of fewer samples draws (the same generator)
    assert len(orders) < cap or orders[:first] == sample_orders(info, first, 0)
    assert n in {first, 2 * first, 4 * first, len(orders)} or n == cap
    assert got == tally_actions(info, orders[:n])
    # it stopped because the lead was clear, or because it had no more orders
    wins = sorted((t.wins for t in got), reverse=True)
    assert wins[0] - wins[1] > 1 or n == len(orders)
    never = seq.sequential_tallies(info, first, cap, 10**6, PimcStats())
    assert never == tally_actions(info, orders)


def test_with_no_more_orders_than_the_shipped_it_plays_the_shipped_games(tmp_path: Path) -> None:
    seq = load_experiment("pimc_sequential")
    out = tmp_path / "arm.jsonl"
    argv = ["--variant", "classic/strict", "--out", str(out), "--cap", "8"]
    assert seq.main([*argv, "--seeds", "1000000:1000001"]) == 0
    assert seq.main([*argv, "--seeds", "1000000:1000002"]) == 0  # resumes
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [1000000, 1000001]
    for r in rows:
        game = play_fair(r["seed"], "classic", "strict")
        assert (r["score"], r["won"], r["decisions"]) == (game.score, game.won, len(game.actions))
        assert 0 < r["orders"] <= 8


@pytest.mark.parametrize("bad", [["--cap", "0"], ["--margin", "-1"], ["--seeds", "9:x"]])
def test_bad_settings_are_named(bad: list[str], tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    seq = load_experiment("pimc_sequential")
    argv = ["--seeds", "0:1", "--out", str(tmp_path / "a.jsonl")]
    with pytest.raises(SystemExit) as e:
        seq.main([*argv, *bad])
    assert e.value.code == 2
    assert bad[0] in capsys.readouterr().err
