"""Rule variants as data: a frozen, validated :class:`Variant` and a registry by name.

| name      | fleeing                  |
|-----------|--------------------------|
| classic   | not twice in a row       |
| easy      | any room, also in a row  |
| hard      | never                    |

Each combines with the weapon rule ``strict`` (a used weapon fights only monsters
strictly weaker than its last kill) or ``equal`` (weaker or equal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .encoding import FLEE_ANY, FLEE_NEVER, flee_rule_code
from .errors import VariantError
from .steps import may_flee, weapon_reach

__all__ = ["FLEE_RULES", "VARIANTS", "WEAPON_RULES", "Variant", "get_variant"]

FLEE_RULES: Final = ("classic", "easy", "hard")
"""The variants' names, by their flee rule: classic, easy, hard."""
WEAPON_RULES: Final = ("strict", "equal")
"""The weapon rules: strict (a weapon fights monsters below its last kill) or equal (up to it)."""


@dataclass(frozen=True)
class Variant:
    """A rule set: how fleeing works and how weapons wear."""

    name: str = "classic"
    weapon_rule: str = "strict"

    def __post_init__(self) -> None:
        if self.name not in FLEE_RULES:
            raise VariantError(
                f"unknown variant {self.name!r}; known variants: {', '.join(FLEE_RULES)}"
            )
        if self.weapon_rule not in WEAPON_RULES:
            raise VariantError(
                f"unknown weapon rule {self.weapon_rule!r}; known rules: {', '.join(WEAPON_RULES)}"
            )

    @property
    def may_flee(self) -> bool:
        """Whether any room may be fled."""
        return self.flee_code != FLEE_NEVER

    @property
    def may_flee_twice(self) -> bool:
        """Whether a room dealt by a flee may itself be fled."""
        return self.flee_code == FLEE_ANY

    def allows_flee(
        self, *, room_size: int, resolved: int, dungeon_size: int, fled_last: bool
    ) -> bool:
        """Whether a room may be fled: full (4 cards), untouched, with cards left to
        deal, and (classic) not itself dealt by a flee."""
        return may_flee(self.flee_code, room_size, resolved, dungeon_size, int(fled_last))

    @property
    def equal_wear(self) -> bool:
        """Whether a used weapon may fight a monster equal to its last kill."""
        return self.weapon_rule == "equal"

    def weapon_reach(self, weapon_value: int, last_kill: int | None) -> int:
        """The strongest monster a weapon may still fight, 0 without a weapon.

        >>> Variant("classic").weapon_reach(5, 9), Variant("classic", "equal").weapon_reach(5, 9)
        (8, 9)
        >>> Variant("classic").weapon_reach(5, None), Variant("classic").weapon_reach(0, None)
        (14, 0)
        """
        return weapon_reach(weapon_value, last_kill or 0, int(self.equal_wear))

    @property
    def flee_code(self) -> int:
        """The engines' number for this variant's flee rule (:mod:`.encoding`'s ``FLEE_*``):
        a consumer asks the variant, never its name, what fleeing allows."""
        return flee_rule_code(self)

    @property
    def wear_code(self) -> int:
        """The engines' number for the weapon rule: 1 when a used weapon may fight a monster
        equal to its last kill, else 0."""
        return int(self.equal_wear)

    @property
    def code(self) -> int:
        """Small integer used in the packed state: flee rule * 2 + weapon rule."""
        return FLEE_RULES.index(self.name) * 2 + WEAPON_RULES.index(self.weapon_rule)

    @classmethod
    def from_code(cls, code: int) -> Variant:
        """The variant of a small integer code (:attr:`Variant.code`)."""
        return _BY_CODE[code]

    def __str__(self) -> str:
        return f"{self.name}/{self.weapon_rule}"


VARIANTS: Final[dict[str, Variant]] = {name: Variant(name) for name in FLEE_RULES}
"""Each variant under the strict weapon rule, by name."""
_BY_CODE: Final = {v.code: v for v in (Variant(n, w) for n in FLEE_RULES for w in WEAPON_RULES)}


def get_variant(variant: str | Variant = "classic", weapon_rule: str | None = None) -> Variant:
    """Look a variant up by name, optionally overriding its weapon rule.

    ``"hard/equal"`` is also read, as printed by ``str(variant)``; a
    ``weapon_rule`` may repeat the rule such a name gives, not contradict it
    (every command and reader of names comes through here, so none can solve
    hard/strict when told ``hard/equal`` and ``strict``).

    >>> str(get_variant("hard/equal", "equal"))
    'hard/equal'
    >>> get_variant("hard/equal", "strict")
    Traceback (most recent call last):
    ...
    scoundrel_core.errors.VariantError: variant 'hard/equal' names weapon rule equal, \
but weapon rule 'strict' was given too
    """
    named_rule = ""
    if isinstance(variant, Variant):
        base = variant
    else:
        if not isinstance(variant, str):
            raise VariantError(f"variant {variant!r} is not a name")
        name, _, rule = variant.strip().lower().partition("/")
        if name not in VARIANTS:
            raise VariantError(
                f"unknown variant {variant!r}; known variants: {', '.join(FLEE_RULES)}"
            )
        base = Variant(name, rule) if rule else VARIANTS[name]
        named_rule = base.weapon_rule if rule else ""
    if weapon_rule is None:
        return base
    if not isinstance(weapon_rule, str):
        raise VariantError(f"weapon rule {weapon_rule!r} is not a name")
    chosen = Variant(base.name, weapon_rule.strip().lower())
    if named_rule and chosen.weapon_rule != named_rule:
        raise VariantError(
            f"variant {variant!r} names weapon rule {named_rule}, "
            f"but weapon rule {weapon_rule!r} was given too"
        )
    return chosen
