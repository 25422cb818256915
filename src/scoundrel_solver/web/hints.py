"""The one adapter between the fair agent's values and what the web shows.

A hint row carries the fair agent's chance of winning and its expected final
score for one action, separately: one number mixing the two (the agent's
utility) means little to a player. The agent sees only the information state,
never the dungeon order, and it is the only source of hints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from ..fair.agent import ActionValue, choice_key

__all__ = ["HintRow", "best_row", "hint_rows"]


class HintRow(TypedDict):
    """One legal action in a hint: its chance of winning, expected score and whether they are
    exact.
    """
    action: str
    win_chance: float
    """0..1, under the agent's own play from here on."""
    expected_score: float
    value: float
    """The agent's utility (what it maximises): the expected score plus a win bonus."""
    exact: bool
    samples: int
    """0: the agent's search. n: the endgame, where the agent samples n dungeon orders and
    solves each as if it were known (optimistic); it then plays the action that wins
    most of them, then the best mean score, rather than the best ``value``."""


def hint_rows(values: Sequence[ActionValue]) -> list[HintRow]:
    """Rows for the fair agent's values, in the same order (that of the legal actions)."""
    return [HintRow(action=str(v.action), win_chance=v.win_chance,
                    expected_score=v.expected_score, value=v.value, exact=v.exact,
                    samples=v.samples)
            for v in values]


def best_row(values: Sequence[ActionValue]) -> HintRow | None:
    """The row of the action the agent plays among ``values`` (None: no legal action),
    ranked by the agent's own rule (:func:`~scoundrel_solver.fair.agent.choice_key`)."""
    if not values:
        return None
    return hint_rows([max(values, key=choice_key)])[0]
