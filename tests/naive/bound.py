"""The solver's upper bound, written plainly over a State: the slow twin of
``scoundrel_solver.exact._phi.upper_bound``, for the tests only (they compare the
two, and check the bound against brute force). See the exact kernel's module
docstring for why it is sound.
"""

from __future__ import annotations

import scoundrel_core as sc
from scoundrel_core import State

__all__ = ["upper_bound"]


def upper_bound(s: State) -> int:
    """A score no line from ``s`` can beat."""
    if s.is_over:
        score = s.score
        assert score is not None
        return score
    cards = s.dungeon + s.room
    monsters = sorted(c.value for c in cards if c.is_monster)
    weapons = sorted((c.value for c in cards if c.is_weapon), reverse=True)
    potions = [c.value for c in cards if c.is_potion]
    fresh = [*weapons, 0, 0][:2]  # the two best weapons still to come
    reach = s.weapon_reach
    phi = s.health - sum(monsters)
    for value in set(monsters):
        count = monsters.count(value)
        current = s.weapon_value if s.weapon_value and value <= reach else 0
        if s.variant.equal_wear:
            # A weapon may kill both monsters of a value: the best one serves both.
            phi += count * min(value, max(current, fresh[0]))
        else:
            # Each weapon kills at most one monster of each value.
            best_two = sorted([current, *fresh], reverse=True)[:2]
            phi += sum(min(value, w) for w in best_two[:count])
    health = phi + sum(potions)
    if health >= sc.MAX_HEALTH:
        return sc.MAX_HEALTH + max(potions, default=0)
    return health
