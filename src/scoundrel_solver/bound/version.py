"""Which bound code proved a result: a declared version, checked by the bound's fingerprint.

A row of ``scoundrel-bound --out`` is a number proven by three pieces of code:
the bound's own search (:mod:`.deal`), the exact solver it asks whether a
position can still be won, and the ``V`` it charges (the one-room value reads
the fair agent's leaf). Each row names the three versions; this module gives
the first. Like the exact solver's and the agent's
(:mod:`scoundrel_solver.provenance.fingerprint`), it follows behaviour, not
text: ``fingerprint.json`` beside this module holds the version, positions of
classic and hard, and the fingerprint of what the bound answers there (the
term of every ``V`` by name at one and two penalised steps, and what the
search walked; the small-deck bound of one deck, with ``V = 0`` and with a
callable ``V``). A change to the search, to a ``V``'s kernel, or to the exact
solver underneath changes the answers, and a test then demands a new version
(``python scripts/fingerprint.py write bound``).

>>> v = bound_version()
>>> v.startswith("0.") and "+bound." in v
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

import scoundrel_core as sc

from ..provenance.fingerprint import declared_version

__all__ = ["RECORD_PACKAGE", "bound_version", "fingerprint_lines", "sample_positions"]

RECORD_PACKAGE: Final = "scoundrel_solver.bound"
"""The package whose ``fingerprint.json`` records the bound's behaviour."""

SMALL_DECK: Final = "3C KC 7S 8S 2D 5H"
"""The small deck of the fingerprint (six cards: half a second a bound)."""


def bound_version() -> str:
    """The bound's version (``VERSION+bound.NAME``), stamped on every row it writes."""
    return declared_version("bound")


def fingerprint_lines(positions: Iterable[str]) -> Iterator[str]:
    """One line per position and setting: the deal's term under each ``V`` by name at one
    and two penalised steps, with what the search walked; then the small-deck bound."""
    from .bound import upper_bound
    from .deal import deal_bound, opening_node
    from .values import VALUE_NAMES, charges_for

    for text in positions:
        s = sc.State.from_text(text)
        for name in VALUE_NAMES:
            charges = charges_for(name)
            mean = charges.mean(opening_node(s))
            for steps in (1, 2):
                d = deal_bound(s, charges, steps, mean)
                # twelve significant digits: far below any change of a V, above the last bits
                yield (f"{text}\t{name} {steps}\t{d.value:.12g} {d.best:.12g} "
                       f"{d.opening:.12g} {int(d.winnable)} {d.unproven} {d.solves} "
                       f"{d.chance_nodes} {d.decisions}")
    for objective in ("win", "score"):
        yield (f"{SMALL_DECK}\t{objective}\t"
               f"{upper_bound(SMALL_DECK, objective=objective):.12g}")
    # a callable V: the slow path of the penalties, card by card
    yield (f"{SMALL_DECK}\twin health/20\t"
           f"{upper_bound(SMALL_DECK, value=lambda info: info.health / 20):.12g}")


def sample_positions(seeds: Iterable[int] = (0, 1), sizes: Iterable[int] = (14, 10)
                     ) -> list[str]:
    """Positions of classic and hard (the variants the bound handles): from each seed's
    deal, the first fresh room whose dungeon holds at most each of ``sizes`` cards along
    the exact solver's best line (alive positions only): small enough that two penalised
    steps take a moment."""
    from ..exact.version import sample_positions as along_best_lines

    return along_best_lines(seeds, sizes, rules=(("classic", "strict"), ("hard", "strict")))
