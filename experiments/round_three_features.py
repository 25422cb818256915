"""The win model's round-three features, which the shipped model never weighed.

Round three added eight features to the leaf's win model (``docs/fair-history.md``);
a refit on all of them played no better than the shipped model, which gives them
weight 0, so the agent's leaf no longer computes them. They live here for a
future refit to try again: each is a function of what a player knows between
rooms (the pool of cards not yet resolved, health, weapon and its reach), as the
shipped features are (``scoundrel_solver.fair.leaf.leaf_features``).

    >>> from scoundrel_core import parse_deck
    >>> pool = parse_deck("10C 3S 5H 7D QS", partial=True)
    >>> dict(zip(NAMES, round_three_features(pool, health=12, weapon=4, reach=9)))["excess"]
    8
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from scoundrel_core import Card, Kind

NAMES: Final = ("over_reach", "big", "big_count", "potion_count", "top_potion",
                "weapon_count", "excess", "health_monsters")
BIG: Final = 10
"""A big monster: this value or more."""


def round_three_features(pool: Iterable[Card], health: int, weapon: int, reach: int
                         ) -> list[float]:
    """The eight features, in ``NAMES`` order: the monsters above the weapon's reach (every
    monster without a weapon), the big monsters' sum and count, the potions' count and
    the largest, the weapons' count, what the best weapon in sight lets through, and
    health times the monster sum over 100."""
    cards = list(pool)
    monsters = [c.value for c in cards if c.kind is Kind.MONSTER]
    weapons = [c.value for c in cards if c.kind is Kind.WEAPON]
    potions = [c.value for c in cards if c.kind is Kind.POTION]
    best = max(weapon, max(weapons, default=0))
    big = [v for v in monsters if v >= BIG]
    return [sum(v for v in monsters if v > reach), sum(big), len(big), len(potions),
            max(potions, default=0), len(weapons), sum(max(0, v - best) for v in monsters),
            health * sum(monsters) / 100]
