"""What an agent is: anything that picks an action from the information state alone.

Its own module, free of the search kernels, so that code which only drives or
judges agents (:mod:`.optimum`, the commands, the scripts) need not load them.
"""

from __future__ import annotations

from typing import Protocol

from scoundrel_core import Action
from scoundrel_core.info import InfoState

__all__ = ["Agent"]


class Agent(Protocol):
    """Anything that picks an action from the information state alone.

    ``choose`` returns the action and whether the agent's value for it was
    exact (a search that never stopped at a leaf estimate)."""

    def reset(self, seed: int) -> None:
        """Start a new game; ``seed`` seeds any randomness of the agent."""
        ...

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        """The action to play in ``info``, and whether its value was computed exactly."""
        ...
