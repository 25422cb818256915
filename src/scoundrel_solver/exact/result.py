"""The frozen result of a solve, and its stable JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["JSON_FORMAT", "SolveResult"]

JSON_FORMAT = "scoundrel-solve/1"
"""The ``format`` field of ``scoundrel-solve --json``."""


@dataclass(frozen=True)
class SolveResult:
    """What the exact solver found for one deal (or position).

    ``best_score`` is proven optimal when ``proven`` is true. When a limit
    stopped the search, ``proven`` is false, ``best_score`` is the score of the
    best line found so far (a lower bound on the optimum) and ``upper_bound``
    is what the search could still not rule out.
    """

    seed: int | None
    variant: str
    weapon_rule: str
    deck: tuple[str, ...]
    start: str
    best_score: int
    upper_bound: int
    winnable: bool | None
    proven: bool
    line: tuple[str, ...]
    nodes: int
    seconds: float
    stopped_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The documented JSON object (see docs/commands.md, "Output formats")."""
        return {
            "format": JSON_FORMAT,
            "seed": self.seed,
            "variant": self.variant,
            "weapon_rule": self.weapon_rule,
            "deck": list(self.deck),
            "start": self.start,
            "best_score": self.best_score,
            "upper_bound": self.upper_bound,
            "winnable": self.winnable,
            "proven": self.proven,
            "stopped_by": self.stopped_by,
            "line": list(self.line),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
