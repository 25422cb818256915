"""An agent wrapper that notes the CPU time of each decision, for the scripts that
measure agents (``scripts/fair_games.py``, ``scripts/fair_ab.py``).

CPU time (``time.process_time``), not wall time: on a shared machine it is the
figure that measures the agent rather than the load.

>>> from scoundrel_solver.fair import GreedyAgent
>>> from scoundrel_solver.fair.api import play_with
>>> timed = TimedAgent(GreedyAgent())
>>> game = play_with(timed, 7)
>>> len(timed.seconds) == len(game.actions) and min(timed.seconds) >= 0
True
"""

from __future__ import annotations

import time

from scoundrel_core import Action
from scoundrel_core.info import InfoState

from .fair.protocol import Agent

__all__ = ["TimedAgent"]


class TimedAgent:
    """``agent``, with ``seconds``: the CPU seconds of each decision since the last reset."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.seconds: list[float] = []

    def reset(self, seed: int) -> None:
        """Reset the agent for a new game and forget the times of the last one."""
        self.agent.reset(seed)
        self.seconds = []

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        """The agent's choice, its CPU time noted in ``seconds``."""
        t = time.process_time()
        out = self.agent.choose(info)
        self.seconds.append(time.process_time() - t)
        return out
