"""Which exact solver made a result: a declared version, checked by the solver's fingerprint.

The version follows what the solver answers, not its text
(:mod:`scoundrel_solver.provenance.fingerprint`): ``fingerprint.json`` beside this
module holds the version, a fixed set of positions of every variant and the
fingerprint of the solver's answers there (best score, whether it was proven,
the nodes searched and the line). The census stores this version with each
deal it settles. The version in force was named, before fingerprints, after a
hash of the solver's source; it keeps that name because the answers are the same.

>>> v = solver_version()
>>> v.startswith("0.") and "+exact." in v
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

import scoundrel_core as sc
from scoundrel_core.variants import FLEE_RULES, WEAPON_RULES

from ..provenance.fingerprint import declared_version

__all__ = ["RECORD_PACKAGE", "fingerprint_lines", "sample_positions", "solver_version"]

RECORD_PACKAGE: Final = "scoundrel_solver.exact"
"""The package whose ``fingerprint.json`` records the solver's behaviour."""


def solver_version() -> str:
    """The exact solver's version (``VERSION+exact.NAME``), stored with each census row."""
    return declared_version("exact")


def fingerprint_lines(positions: Iterable[str]) -> Iterator[str]:
    """One line per position: the best score, whether it was proven, the nodes searched
    and the line the solver gives."""
    from .solve import solve

    for text in positions:
        r = solve(sc.State.from_text(text))
        yield f"{text}\t{r.best_score} {int(r.proven)} {r.nodes}\t{' '.join(r.line)}"


def sample_positions(seeds: Iterable[int] = (0, 1, 2), sizes: Iterable[int] = (40, 30, 18),
                     rules: Iterable[tuple[str, str]] | None = None) -> list[str]:
    """Positions of every variant (or of the ``(flee, weapon)`` rules given): from each
    seed's deal, the first position whose dungeon holds at most each of ``sizes`` cards
    along the solver's own best line of the deal (alive positions only)."""
    from .solve import solve

    if rules is None:
        rules = [(flee, rule) for flee in FLEE_RULES for rule in WEAPON_RULES]
    out: list[str] = []
    for flee, rule in rules:
        for seed in seeds:
            s = sc.new_game(seed=seed, variant=flee, weapon_rule=rule)
            line = iter(solve(s).line)
            for size in sizes:
                while not s.is_over and (len(s.dungeon) > size or s.resolved_in_room):
                    s = sc.apply(s, sc.parse_action(s, next(line)))
                if not s.is_over:
                    out.append(s.to_text())
    return out
