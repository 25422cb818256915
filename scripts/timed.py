"""An agent wrapper that notes the time of each decision, for the scripts that
measure agents (``scripts/fair_games.py``, ``scripts/pimc_games.py`` and the
experiments of ``experiments/``). It is no part of the installed package: the
scripts import it from beside them, the experiments from here.

CPU time (``time.process_time``) by default, not wall time: on a shared machine
it is the figure that measures the agent rather than the load. A script whose
published figures are wall seconds passes ``clock=time.perf_counter``.

>>> from scoundrel_solver.fair import GreedyAgent
>>> from scoundrel_solver.fair.api import play_with
>>> timed = TimedAgent(GreedyAgent())
>>> game = play_with(timed, 7)
>>> len(timed.seconds) == len(game.actions) and min(timed.seconds) >= 0
True
"""

from __future__ import annotations

import time
from collections.abc import Callable

from scoundrel_core import Action
from scoundrel_core.info import InfoState
from scoundrel_solver.fair.protocol import Agent

__all__ = ["TimedAgent"]


class TimedAgent:
    """``agent``, with ``seconds``: the seconds of each decision since the last reset,
    by ``clock`` (CPU time unless told otherwise)."""

    def __init__(self, agent: Agent, clock: Callable[[], float] = time.process_time) -> None:
        self.agent = agent
        self.clock = clock
        self.seconds: list[float] = []

    def reset(self, seed: int) -> None:
        """Reset the agent for a new game and forget the times of the last one."""
        self.agent.reset(seed)
        self.seconds = []

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        """The agent's choice, its time noted in ``seconds``."""
        t = self.clock()
        out = self.agent.choose(info)
        self.seconds.append(self.clock() - t)
        return out
