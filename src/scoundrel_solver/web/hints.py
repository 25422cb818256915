"""The one adapter between the fair agent's values and what the web shows.

A hint row carries the fair agent's chance of winning and its expected final
score for one action, separately: one number mixing the two (the agent's
utility) means little to a player. The agent sees only the information state,
never the dungeon order, and it is the only source of hints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from ..fair import ActionValue

__all__ = ["HintRow", "best_row", "hint_rows", "row_key"]


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


def row_key(r: HintRow) -> tuple[float, float]:
    """The agent's order of choice (:func:`~scoundrel_solver.fair.agent.choice_key`)
    without the action: a tie goes to the row listed first, the lowest action."""
    if r["samples"]:
        return (r["win_chance"], r["expected_score"])
    return (r["value"], 0.0)


def best_row(rows: Sequence[HintRow]) -> HintRow | None:
    """The row the agent would play: the highest utility, or in the endgame the most
    sampled orders won, then the best mean score (ties: the first listed, the lowest
    action, as the agent breaks them)."""
    best: HintRow | None = None
    for r in rows:
        if best is None or row_key(r) > row_key(best):
            best = r
    return best
