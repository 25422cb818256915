"""The rules' scalar steps: what one card does, the scores, the weapon's reach, the flee.

Each step is a plain function of a few small integers (kinds and flee rules
numbered as in :mod:`.encoding`), so one text serves every engine:
:class:`~scoundrel_core.State` and :class:`~scoundrel_core.InfoState` call
these functions, and :mod:`scoundrel_core.jit` compiles the same functions
for the numba searches and the vector environment, which inline them. A rule
changed here changes everywhere at once; only the slow twin
:mod:`scoundrel_core.reference` states the rules again, on purpose, so that
the tests compare two independent texts.

>>> card_effect(KIND_POTION, 5, 0, 18, 0, 0)  # heals up to 20; the room's potion is used
(20, 0, 1)
>>> card_effect(KIND_POTION, 5, 0, 10, 0, 1)  # a second potion in the room does nothing
(10, 0, 1)
>>> card_effect(KIND_MONSTER, 9, 1, 20, 5, 0), wear_after(KIND_MONSTER, 9, 1, 0)
((16, 5, 0), 9)
>>> weapon_reach(5, 9, 0), weapon_reach(5, 9, 1), weapon_reach(5, 0, 0), weapon_reach(0, 0, 0)
(8, 9, 14, 0)
>>> refill_draw(3, 1, 10), refill_draw(3, 1, 2), refill_draw(2, 2, 10)  # after the third card
(3, 2, 0)
>>> resolve_card(KIND_MONSTER, 9, 0, 5, 0, 0, 0, 0, 3, 10)[5] == LOST
True
"""

from __future__ import annotations

from .encoding import (
    FLEE_ANY,
    FLEE_NEVER,
    KIND_MONSTER,
    KIND_POTION,
    KIND_WEAPON,
    MAX_HEALTH,
    RESOLVED_PER_ROOM,
    ROOM_SIZE,
    UNUSED_REACH,
)

__all__ = [
    "GOES_ON",
    "LOST",
    "WON",
    "card_effect",
    "card_ending",
    "death_score",
    "fight_damage",
    "kill_reach",
    "may_flee",
    "reach_after",
    "refill_draw",
    "resolve_card",
    "resolve_card_reach",
    "weapon_reach",
    "wear_after",
    "win_score",
]


def card_effect(
    kind: int, value: int, with_weapon: int, health: int, weapon: int, potion_used: int
) -> tuple[int, int, int]:
    """(health, weapon, potion used) after resolving a card of ``kind`` and ``value``.

    A potion heals up to the maximum, and only the first one of a room
    (``potion_used``); a weapon is equipped (the old one is discarded); a
    monster hurts by its value, less the weapon's when fought with it. What
    the card does to the weapon's wear is :func:`wear_after` (the last kill) or
    :func:`reach_after` (the reach), whichever a caller keeps.
    """
    if kind == KIND_POTION:
        if not potion_used:
            health = min(MAX_HEALTH, health + value)
        return health, weapon, 1
    if kind == KIND_WEAPON:
        return health, value, potion_used
    return health - fight_damage(value, weapon, with_weapon), weapon, potion_used


def fight_damage(value: int, weapon: int, with_weapon: int) -> int:
    """What a monster of ``value`` costs in health: its value, less the weapon's value
    when fought with the weapon (never below 0)."""
    return max(0, value - weapon) if with_weapon else value


def kill_reach(value: int, equal: int) -> int:
    """The strongest monster a weapon may fight after killing one of ``value``: a weaker
    one, or (the ``equal`` weapon rule) one as strong."""
    return value if equal else value - 1


def weapon_reach(weapon: int, last_kill: int, equal: int) -> int:
    """The strongest monster the weapon may fight: 0 without a weapon, any monster (an
    ace is 14) while it is unused (``last_kill`` 0)."""
    if not weapon:
        return 0
    if not last_kill:
        return UNUSED_REACH
    return kill_reach(last_kill, equal)


def wear_after(kind: int, value: int, with_weapon: int, last_kill: int) -> int:
    """The weapon's last kill after the card: 0 for a new weapon, the monster's value
    after a fight with the weapon, else unchanged."""
    if kind == KIND_WEAPON:
        return 0
    if kind == KIND_MONSTER and with_weapon:
        return value
    return last_kill


def reach_after(kind: int, value: int, with_weapon: int, reach: int, equal: int) -> int:
    """:func:`wear_after` for a caller that keeps the reach instead of the last kill."""
    if kind == KIND_WEAPON:
        return UNUSED_REACH
    if kind == KIND_MONSTER and with_weapon:
        return kill_reach(value, equal)
    return reach


def death_score(health: int, monsters_left: int) -> int:
    """The score of a lost game: health (0 or less) minus the monsters not yet slain
    (in the room and the dungeon)."""
    return health - monsters_left


def win_score(health: int, kind: int, value: int) -> int:
    """The score of a won game whose last card was of ``kind`` and ``value``: the health,
    plus that card's value if it was a potion drunk at full health."""
    return health + (value if kind == KIND_POTION and health == MAX_HEALTH else 0)


def may_flee(flee_rule: int, room_cards: int, resolved: int, dungeon_cards: int,
             fled: int) -> bool:
    """Whether the room may be fled: the variant allows it, the room is full and
    untouched, the dungeon has cards to deal, and (classic) the room was not itself
    dealt by a flee. Without branches: the vector environment asks it at every step of
    random play, where branches would be mispredicted."""
    return bool(
        (flee_rule != FLEE_NEVER)
        & (room_cards == ROOM_SIZE)
        & (resolved == 0)
        & (dungeon_cards > 0)
        & ((flee_rule == FLEE_ANY) | (fled == 0))
    )


GOES_ON, LOST, WON = 0, 1, 2
"""How a card resolved by :func:`resolve_card` leaves the game."""


def refill_draw(resolved: int, room_left: int, dungeon_left: int) -> int:
    """How many cards the room takes from the top of the dungeon once ``resolved`` cards
    of it are resolved and ``room_left`` are left in it: the refill after the third card
    (as many as fill the room, while the dungeon lasts), else 0."""
    if resolved == RESOLVED_PER_ROOM and dungeon_left:
        return min(ROOM_SIZE - room_left, dungeon_left)
    return 0


def card_ending(health: int, potion_used: int, resolved: int, room_left: int,
                dungeon_left: int) -> tuple[int, int, int, int]:
    """How the game goes on after a card, given the health, potion flag and count of
    resolved cards it left: ``(potion used, resolved, ending, draw)``, as
    :func:`resolve_card` returns them (the one text of death, win and refill for it and
    :func:`resolve_card_reach`)."""
    if health <= 0:
        return potion_used, resolved, LOST, 0
    if not room_left and not dungeon_left:
        return potion_used, resolved, WON, 0
    draw = refill_draw(resolved, room_left, dungeon_left)
    if draw:
        return 0, 0, GOES_ON, draw
    return potion_used, resolved, GOES_ON, 0


def resolve_card(
    kind: int, value: int, with_weapon: int, health: int, weapon: int, last_kill: int,
    potion_used: int, resolved: int, room_left: int, dungeon_left: int,
) -> tuple[int, int, int, int, int, int, int]:
    """Everything resolving one room card decides, without drawing a card.

    ``room_left`` and ``dungeon_left`` count the cards left in the room (this one
    already taken out) and in the dungeon. Returns ``(health, weapon, last kill,
    potion used, resolved, ending, draw)``: the ending is ``GOES_ON``, ``LOST`` (the
    caller scores it: :func:`death_score` needs the monsters left) or ``WON``
    (:func:`win_score`); ``draw`` is how many cards the room now takes from the top
    of the dungeon (the refill after the third card resolved; 0 if none), the room's
    count and its potion restarting. Who draws them is the caller's: a
    :class:`~scoundrel_core.State` takes the next cards of its dungeon, an
    :class:`~scoundrel_core.InfoState` leaves them to chance.
    """
    health, weapon, potion_used = card_effect(kind, value, with_weapon, health, weapon,
                                              potion_used)
    last_kill = wear_after(kind, value, with_weapon, last_kill)
    potion_used, resolved, ending, draw = card_ending(health, potion_used, resolved + 1,
                                                      room_left, dungeon_left)
    return health, weapon, last_kill, potion_used, resolved, ending, draw


def resolve_card_reach(
    kind: int, value: int, with_weapon: int, health: int, weapon: int, reach: int,
    potion_used: int, resolved: int, room_left: int, dungeon_left: int, equal: int,
) -> tuple[int, int, int, int, int, int, int]:
    """:func:`resolve_card` for a caller that keeps the weapon's reach instead of its
    last kill (:func:`reach_after`; ``equal`` is the weapon rule): the exact search,
    whose positions hold the reach so that weapons of the same reach share a
    position. Returns ``(health, weapon, reach, potion used, resolved, ending, draw)``.
    """
    health, weapon, potion_used = card_effect(kind, value, with_weapon, health, weapon,
                                              potion_used)
    reach = reach_after(kind, value, with_weapon, reach, equal)
    potion_used, resolved, ending, draw = card_ending(health, potion_used, resolved + 1,
                                                      room_left, dungeon_left)
    return health, weapon, reach, potion_used, resolved, ending, draw
