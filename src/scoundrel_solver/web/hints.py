"""The one adapter between the fair agent's values and what the web shows.

A hint row carries the fair agent's chance of winning and its expected final
score for one action, separately: one number mixing the two (the agent's
utility) means little to a player. The agent sees only the information state,
never the dungeon order, and it is the only source of hints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

__all__ = ["HintRow", "best_row", "hint_rows"]


class HintRow(TypedDict):
    """One legal action in a hint: its chance of winning, expected score and whether they are
    exact.
    """
    action: str
    win_chance: float | None
    """0..1; None when the installed fair agent does not give it."""
    expected_score: float | None
    value: float
    """The agent's utility (what it maximises): expected score plus a win bonus."""
    exact: bool


def hint_rows(values: Sequence[Any]) -> list[HintRow]:
    """Rows for the fair agent's ``ActionValue`` list, in the same order."""
    rows: list[HintRow] = []
    for v in values:
        win = getattr(v, "win_chance", None)
        score = getattr(v, "expected_score", None)
        rows.append(HintRow(
            action=str(v.action),
            win_chance=None if win is None else min(1.0, max(0.0, float(win))),
            expected_score=None if score is None else float(score),
            value=float(v.value),
            exact=bool(v.exact),
        ))
    return rows


def best_row(rows: Sequence[HintRow]) -> HintRow | None:
    """The row the agent would play: the highest utility (ties: the first listed,
    which is the lowest action, as the agent breaks them)."""
    best: HintRow | None = None
    for r in rows:
        if best is None or r["value"] > best["value"]:
            best = r
    return best
