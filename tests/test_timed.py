"""scripts/timed.py: the decision timer of the scripts that measure agents."""

from __future__ import annotations

from itertools import count

from conftest import load_script
from scoundrel_solver.fair import GreedyAgent
from scoundrel_solver.fair.api import play_with


def test_one_time_per_decision_by_the_clock_given_and_reset_per_game() -> None:
    timed_module = load_script("timed")
    ticks = count()
    timed = timed_module.TimedAgent(GreedyAgent(), clock=lambda: float(next(ticks)))
    game = play_with(timed, 7)
    # each decision reads the clock twice in a row: one tick apart
    assert timed.seconds == [1.0] * len(game.actions)
    play_with(timed, 8)
    assert len(timed.seconds) == len(play_with(GreedyAgent(), 8).actions)
