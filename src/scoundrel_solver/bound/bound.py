"""The upper bound of a small deck: the mean over its orders of the best penalised line."""

from __future__ import annotations

import math
from collections.abc import Sequence

from scoundrel_core import Card
from scoundrel_core.info import InfoState

from ..errors import SolverError
from ..fair.optimum import opening
from .orders import distinct_orders, read_deck
from .penalty import Penalties, Value
from .search import PenalisedSearch, Utility

__all__ = ["OBJECTIVES", "upper_bound"]


def _won(info: InfoState) -> float:
    return 1.0 if info.health > 0 else 0.0


def _score(info: InfoState) -> float:
    assert info.score is not None
    return float(info.score)


OBJECTIVES: dict[str, Utility] = {"win": _won, "score": _score}
"""What a finished game is worth, by objective: won (1 or 0), or the final score."""


def upper_bound(
    deck: Sequence[Card | str] | str,
    value: Value | None = None,
    variant: str = "classic",
    weapon_rule: str = "strict",
    objective: str = "win",
) -> float:
    """An upper bound on what any fair player wins (or scores) on a shuffled small deck.

    The exact mean, over every order of ``deck`` (at most
    :data:`~scoundrel_solver.bound.orders.MAX_CARDS` cards), of the best over
    the lines of play on that known order of ``1{win}`` (objective ``"win"``)
    or the final score (``"score"``), minus the penalty
    ``V(I') - E[V(I') | I, a]`` of every chance step, the first deal included.
    ``value`` is ``V``, a function of the information state (None: 0, which
    gives the perfect-information share, or mean best score). For every
    ``value`` the result is at least the fair optimum
    (:func:`~scoundrel_solver.fair.optimum.fair_optimum`); with the fair
    optimum's own value of each state it equals it (up to float rounding).

    >>> round(upper_bound("3C KC 7S 8S 2D 5H"), 6)  # 448 of its 720 orders are won
    0.622222
    >>> round(upper_bound("3C KC 7S 8S 2D 5H", value=lambda info: info.health / 20), 6)
    0.622222
    """
    utility = OBJECTIVES.get(objective) if isinstance(objective, str) else None
    if utility is None:
        raise SolverError(
            f"unknown objective {objective!r}; known objectives: {', '.join(OBJECTIVES)}"
        )
    if value is not None and not callable(value):
        raise SolverError(
            f"value {value!r:.40} is not callable: give a function of the information state"
        )
    s, cards = read_deck(deck, variant, weapon_rule)
    if s.variant.may_flee_twice:
        raise SolverError(
            f"variant {s.variant} lets a room be fled again and again: its lines of play "
            "form cycles, which the bound's search does not handle"
        )
    start = opening(cards, s.variant.name, s.variant.weapon_rule)
    search = PenalisedSearch(utility, None if value is None else Penalties(value))
    # A game of at most MAX_CARDS cards recurses a few dozen frames deep: no limit to raise.
    terms: list[float] = []
    weight = 0
    for order, times in distinct_orders(cards):
        terms.append(times * search.step(start, order))
        weight += times
    return math.fsum(terms) / weight
