"""What a worker does with a chunk of seeds: solve each, keep only the row fields.

The line of play is dropped on the worker, so only a few numbers per deal
travel back to the client.
"""

from __future__ import annotations

from ..solve import solve
from .store import CensusRow, solver_version

__all__ = ["solve_chunk"]


def solve_chunk(variant: str, weapon_rule: str, seeds: list[int],
                max_seconds: float | None) -> list[CensusRow]:
    """The census rows of ``seeds``, solved one after another.

    >>> [r.best_score for r in solve_chunk("hard", "strict", [0], None)]
    [14]
    """
    version = solver_version()
    rows = []
    for seed in seeds:
        r = solve(seed, variant=variant, weapon_rule=weapon_rule, max_seconds=max_seconds)
        rows.append(CensusRow(r.variant, r.weapon_rule, seed, r.best_score, r.upper_bound,
                              r.proven, r.winnable, r.nodes, r.seconds, version))
    return rows
