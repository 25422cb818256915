"""Baseline fair agents: uniformly random, and greedy one-step lookahead.

Both see only the information state, like :class:`FairAgent`.
"""

from __future__ import annotations

import random

from scoundrel_core import Action, Kind
from scoundrel_core.info import ChanceNode, InfoState

__all__ = ["FLEE_COST", "GreedyAgent", "RandomAgent", "greedy_value"]

FLEE_COST = 6.0
"""What the greedy player charges a flee, in health points."""


class RandomAgent:
    """A uniformly random legal action, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int) -> None:
        """Seed the random choices of the next game."""
        self.rng = random.Random(seed)

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        """A legal action drawn uniformly; never exact."""
        return self.rng.choice(info.legal_actions()), False


def greedy_value(after: InfoState | ChanceNode) -> float:
    """A simple value of the position right after an action (no look at chance).

    Health, plus half of what the weapon can still take off a big monster,
    plus a little for potions kept for later; an ended game is its score.
    """
    info = after.base if isinstance(after, ChanceNode) else after
    if info.is_over:
        return float(info.score if info.score is not None else 0)
    weapon = 0.5 * min(info.weapon_value, info.weapon_reach)
    kept = sum(0.25 * c.value for c in info.room if c.kind is Kind.POTION)
    return info.health + weapon + kept


class GreedyAgent:
    """One-step lookahead: the action whose immediate result has the best ``greedy_value``."""

    def reset(self, seed: int) -> None:
        """Nothing to reset: the greedy player has no state."""
        del seed

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        """The action of best immediate value (:func:`greedy_value`), lowest id on ties; never
        exact.
        """
        best: tuple[float, int] | None = None
        choice: Action | None = None
        for a in info.legal_actions():
            if a.is_flee and info.fled_last:
                continue  # easy allows it, but fleeing on and on never ends the game
            # a flee looks free one step ahead; charge it what a fresh room costs on average
            cost = FLEE_COST if a.is_flee else 0.0
            key = (greedy_value(info.apply(a)) - cost, -int(a))
            if best is None or key > best:
                best, choice = key, a
        if choice is None:
            raise ValueError(f"no legal action in {info.to_text()}")
        return choice, False
