"""Public facade of the exact solver (work in progress)."""

from __future__ import annotations

from collections.abc import Iterable

from scoundrel_core import Card, State

from .result import SolveResult


def solve(
    game_or_deck: State | str | Iterable[str | Card] | int,
    variant: str = "classic",
    weapon_rule: str | None = None,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> SolveResult:
    raise NotImplementedError
