"""What a worker does with a chunk of seeds: solve each, keep only the row fields.

The line of play is dropped on the worker, so only a few numbers per deal
travel back to the client.
"""

from __future__ import annotations

from ..exact.solve import solve
from .store import CensusRow, solver_version

__all__ = ["solve_chunk"]

_warm: set[tuple[str, str]] = set()


def _warm_up(variant: str, weapon_rule: str) -> None:
    """A short search once per process, so that loading the compiled kernels is
    not counted in the ``seconds`` of the first deal of the chunk."""
    if (variant, weapon_rule) not in _warm:
        solve(0, variant=variant, weapon_rule=weapon_rule, max_nodes=2000)
        _warm.add((variant, weapon_rule))


def solve_chunk(variant: str, weapon_rule: str, seeds: list[int],
                max_seconds: float | None) -> list[CensusRow]:
    """The census rows of ``seeds``, solved one after another.

    >>> [r.best_score for r in solve_chunk("hard", "strict", [0], None)]
    [14]
    """
    _warm_up(variant, weapon_rule)
    version = solver_version()
    rows = []
    for seed in seeds:
        r = solve(seed, variant=variant, weapon_rule=weapon_rule, max_seconds=max_seconds)
        rows.append(CensusRow(r.variant, r.weapon_rule, seed, r.best_score, r.upper_bound,
                              r.proven, r.winnable, r.nodes, r.seconds, version,
                              None, max_seconds))
    return rows
