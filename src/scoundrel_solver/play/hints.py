"""Hints during a game: the fair agent's value of every legal action.

The agent reads only :attr:`Session.info` (what the player knows), never the
true state, so a hint cannot reveal the order of the dungeon. One agent
serves the whole game: its memo makes later hints, and hints after an undo,
cheaper.
"""

from __future__ import annotations

from typing import Final

from ..fair.agent import ActionValue, FairAgent
from .session import Session

__all__ = ["HINT_NODE_BUDGET", "Hints", "warm_up"]

HINT_NODE_BUDGET: Final = 200_000
"""The fair agent's default budget: measured well under a second per hint on
the project's 2-core machine (``benchmarks/bench_hints.py``)."""


class Hints:
    """The fair agent, created on the first hint (its kernels load then)."""

    def __init__(self, node_budget: int = HINT_NODE_BUDGET) -> None:
        self.node_budget = node_budget
        self._agent: FairAgent | None = None

    def values(self, game: Session) -> list[ActionValue]:
        """Every legal action's value to the fair agent (expected final score plus the
        win bonus times the chance of winning), in the order of ``game.legal()``."""
        if self._agent is None:
            self._agent = FairAgent()
        return self._agent.evaluate(game.info)


def warm_up(game: Session) -> None:
    """Load the fair agent's kernels with a throwaway search of the opening position.

    Run in a background thread while a player reads the first room, this takes
    the numba loading (most of a second) out of the first ``hint``.
    """
    FairAgent().search(game.start_info, 0)
