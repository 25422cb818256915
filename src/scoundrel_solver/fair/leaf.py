"""The leaf evaluation of the depth-limited search, and its default weights.

At a chance node the search cannot afford to expand, the value is an estimate
of the final score from what is left: the *pool* (every card still in the room
or the dungeon, seen or not), health ``h``, the weapon ``w`` and its reach::

    leaf = h - M + potion*P + absorb*A + weapon*W - low_health * max(0, safe_health - h)**2

- ``M``: sum of the monsters in the pool. Health minus M is the potential
  ``phi`` of the exact solver's bound (docs/solver.md): fighting barehanded
  leaves it unchanged, so the leaf neither rewards nor punishes taking a hit
  now versus later, and a loss scores exactly phi at the moment of death.
- ``P``: sum of the potions in the pool, worth ``potion`` < 1 each because only
  one potion heals per room and health is capped at 20 (drinking a 9 at 18
  health now gains 2; keeping it in the pool is worth ``9 * potion``).
- ``A``: what the equipped weapon can still absorb: min(m, w) summed over the
  ``kills`` strongest distinct monster values in the pool that it may still
  fight (wear makes one weapon kill a decreasing chain of monsters, a few in
  practice); each point is worth ``absorb``.
- ``W``: sum of the weapons in the pool, each worth ``weapon`` per point (a
  future weapon absorbs about that many times its value over its life).
- the last term makes low health costly beyond phi: below ``safe_health`` one
  bad room kills, and death forfeits every later heal and weapon.

All terms are sums over the pool, so the leaf is blind to where the cards lie:
fleeing looks neutral to it and is judged by what the expanded rooms reveal.
The weights were set by a coordinate search of the depth-0 agent on seeds
20000-20399 (outside the evaluation range 0-9999): from potion=0.6 absorb=1
weapon=1.5 low_health=0.3 safe_health=8 kills=3 (2.8% wins, mean -56.5) to the
defaults below (9.0% wins, mean -41.2). The large ``safe_health`` says health
is worth keeping high long before it is critical.

Measured (``benchmarks/bench_fair.py``, classic, seeds 20000-20059): the leaf
alone (depth 0 everywhere) wins 4 of 60; with the default deepening below 24
unseen cards, 22 of 60; deepening below 40 unseen, 24 of 60 at six times the
cost. The leaf is a cheap, consistent tie-breaker between rooms; the strength
comes from expanding the next refill exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np

from scoundrel_core import Card, Kind

__all__ = ["DEFAULT_WEIGHTS", "LEAF_WEIGHTS", "leaf_value", "weights_array"]

LEAF_WEIGHTS: Final = ("potion", "absorb", "weapon", "low_health", "safe_health", "kills")
"""The weights by name, in the order of the kernel's ``par`` array (``LEAF_*``)."""
LEAF_POTION: Final = 0
LEAF_ABSORB: Final = 1
LEAF_WEAPON: Final = 2
LEAF_LOW_HEALTH: Final = 3
LEAF_SAFE_HEALTH: Final = 4
LEAF_KILLS: Final = 5

DEFAULT_WEIGHTS: Final[dict[str, float]] = {
    "potion": 0.9,
    "absorb": 1.0,
    "weapon": 0.8,
    "low_health": 0.1,
    "safe_health": 14.0,
    "kills": 3.0,
}


def weights_array(weights: dict[str, float] | None = None) -> np.ndarray:
    """The weights in the kernel's ``par`` layout (unknown names are an error).

    >>> weights_array({"kills": 2.0}).tolist()
    [0.9, 1.0, 0.8, 0.1, 14.0, 2.0]
    """
    w = dict(DEFAULT_WEIGHTS)
    if weights:
        bad = set(weights) - set(LEAF_WEIGHTS)
        if bad:
            raise ValueError(
                f"unknown leaf weights {sorted(bad)}; known: {', '.join(LEAF_WEIGHTS)}"
            )
        w.update(weights)
    return np.array([w[name] for name in LEAF_WEIGHTS], np.float64)


def leaf_value(
    pool: Iterable[Card], health: int, weapon: int, reach: int, par: np.ndarray
) -> float:
    """The leaf evaluation in plain Python (the reference twin of ``_kernel.leaf``)."""
    cards = list(pool)
    msum = sum(c.value for c in cards if c.kind is Kind.MONSTER)
    psum = sum(c.value for c in cards if c.kind is Kind.POTION)
    wsum = sum(c.value for c in cards if c.kind is Kind.WEAPON)
    values = sorted({c.value for c in cards if c.kind is Kind.MONSTER and c.value <= reach})
    top = values[::-1][: int(par[LEAF_KILLS])] if weapon else []
    absorb = sum(min(v, weapon) for v in top)
    low = max(0.0, float(par[LEAF_SAFE_HEALTH]) - health)
    return float(
        health
        + par[LEAF_POTION] * psum
        + par[LEAF_ABSORB] * absorb
        + par[LEAF_WEAPON] * wsum
        - msum
        - par[LEAF_LOW_HEALTH] * low * low
    )
