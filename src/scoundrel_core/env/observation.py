"""The observation: the information state as a fixed array of 86 small integers.

Every slot comes from :class:`~scoundrel_core.info.InfoState` (what a player
sees), never from the true dungeon order. Cards are written as ``id + 1``
(ids of :mod:`scoundrel_core.cards`; 0 is an empty slot), so the action that
resolves the card in a room slot is ``2 * (obs[slot] - 1)`` (``+ 1`` with the
weapon). Card *types* number the 31 kinds of card a player can tell apart by
effect: monsters 2..14 are types 0..12, weapons 2..10 types 13..21, potions
2..10 types 22..30 (two monsters of one value are one type): the types of
:mod:`scoundrel_core.encoding`, less one.

======  ==========================  =============================================
slot    name                        values
======  ==========================  =============================================
0-3     room                        card id + 1 in room order (the carried-over
                                    card first, then the drawn ones), 0 = empty
4       health                      -13..20
5       weapon                      value of the equipped weapon, 0 = none
6       last kill                   value of the weapon's last kill, 0 = unused
7       potion used                 1 if a potion was drunk in this room
8       resolved                    cards resolved in this room, 0..3
9       fled                        1 if this room was dealt by a flee and
                                    nothing of it is resolved yet
10      over                        1 once the game has ended
11      flee rule                   0 classic, 1 easy, 2 hard
12      weapon rule                 0 strict, 1 equal
13      unseen                      number of unseen cards (top of the dungeon)
14      bottom size                 number of known fled cards under them
15-45   unseen by type              count of unseen cards of each type (0..2)
46-85   bottom                      the fled cards, card id + 1, top first
                                    (the next to come up first), 0 past the end
======  ==========================  =============================================

The dungeon holds ``obs[13] + obs[14]`` cards. The bottom never holds more
than 40 cards: a flee needs a full room, so at most 40 cards lie below it.

>>> import scoundrel_core as sc
>>> from scoundrel_core.info import InfoState
>>> obs = encode(InfoState.initial(sc.new_game(seed=0)))
>>> [str(sc.card(int(i) - 1)) for i in obs[ROOM]]
['10C', 'KS', '5D', '5S']
>>> int(obs[HEALTH]), int(obs[UNSEEN]), int(obs[UNSEEN_BY_TYPE].sum())
(20, 40, 40)
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..cards import DECK_SIZE, FULL_DECK, Card, Kind
from ..encoding import NTYPES, TYPE_BY_ID
from ..info import InfoState
from ..state import MAX_HEALTH
from ..variants import FLEE_RULES, WEAPON_RULES, Variant

__all__ = [
    "BOTTOM",
    "BOTTOM_CAP",
    "BOTTOM_SIZE",
    "CARD_TYPE",
    "FLED",
    "FLEE_RULE",
    "HEALTH",
    "LAST_KILL",
    "NUM_TYPES",
    "OBS_HIGH",
    "OBS_LOW",
    "OBS_SIZE",
    "OVER",
    "POTION_USED",
    "RESOLVED",
    "ROOM",
    "TYPE_SLOT",
    "UNSEEN",
    "UNSEEN_BY_TYPE",
    "WEAPON",
    "WEAPON_RULE",
    "WORST_SCORE",
    "decode",
    "encode",
]

ROOM: Final = slice(0, 4)
"""Slots 0-3: the room's cards (card id + 1, 0 for empty) in room order."""
HEALTH: Final = 4
"""Slot 4: health."""
WEAPON: Final = 5
"""Slot 5: the equipped weapon's value, 0 for none."""
LAST_KILL: Final = 6
"""Slot 6: the value of the weapon's last kill, 0 while unused."""
POTION_USED: Final = 7
"""Slot 7: 1 if a potion was drunk in this room."""
RESOLVED: Final = 8
"""Slot 8: cards resolved in this room, 0..3."""
FLED: Final = 9
"""Slot 9: 1 if this room was dealt by a flee and nothing of it is resolved yet."""
OVER: Final = 10
"""Slot 10: 1 once the game has ended."""
FLEE_RULE: Final = 11
"""Slot 11: the flee rule, 0 classic, 1 easy, 2 hard."""
WEAPON_RULE: Final = 12
"""Slot 12: the weapon rule, 0 strict, 1 equal."""
UNSEEN: Final = 13
"""Slot 13: how many unseen cards lie on top of the dungeon."""
BOTTOM_SIZE: Final = 14
"""Slot 14: how many known fled cards lie under them."""
TYPES0: Final = 15
NUM_TYPES: Final = NTYPES - 1  # 31
"""Card types a player can tell apart by effect: 13 monster values, 9 weapons, 9 potions."""
UNSEEN_BY_TYPE: Final = slice(TYPES0, TYPES0 + NUM_TYPES)
"""Slots 15-45: how many unseen cards of each type (0..2)."""
BOTTOM0: Final = TYPES0 + NUM_TYPES
BOTTOM_CAP: Final = 40
"""The most fled cards the bottom can hold (a flee needs a full room, so at most 40 lie below
it).
"""
BOTTOM: Final = slice(BOTTOM0, BOTTOM0 + BOTTOM_CAP)
"""Slots 46-85: the fled cards at the bottom, card id + 1, the next to come up first."""
OBS_SIZE: Final = BOTTOM0 + BOTTOM_CAP
"""Length of an observation: 86."""

OBS_DTYPE: Final = np.int8


CARD_TYPE: Final[tuple[int, ...]] = tuple(t - 1 for t in TYPE_BY_ID)
"""The type (0..30) of each card id: the engines' type of :mod:`scoundrel_core.encoding`
less one (the observation has no slot for its "no card")."""

WORST_SCORE: Final = MAX_HEALTH - sum(c.value for c in FULL_DECK if c.kind is Kind.MONSTER)
"""The lowest final score of any variant: -188.

A lost game scores ``health - monsters left``. Health is 20 plus what potions
healed minus the damage taken, and the monsters left are all 208 points of
monsters minus those resolved. Damage never exceeds the values of the monsters
resolved (a weapon only lowers it), so the score is at least ``20 - 208`` in
every variant and weapon rule, reached by fighting barehanded from the first
room without drinking.
"""

TYPE_SLOT: Final = tuple(TYPES0 + t for t in CARD_TYPE)
"""By card id: the slot of the observation that counts the unseen cards of its type."""
_FLEE_CODE: Final = {name: i for i, name in enumerate(FLEE_RULES)}
_TYPE_COUNT0: Final = np.bincount(np.array(CARD_TYPE), minlength=NUM_TYPES).astype(OBS_DTYPE)


def _bounds() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    low = np.zeros(OBS_SIZE, OBS_DTYPE)
    high = np.zeros(OBS_SIZE, OBS_DTYPE)
    high[ROOM] = DECK_SIZE
    low[HEALTH], high[HEALTH] = -13, MAX_HEALTH
    high[WEAPON] = 10
    high[LAST_KILL] = 14
    high[[POTION_USED, FLED, OVER, WEAPON_RULE]] = 1
    high[RESOLVED] = 3
    high[FLEE_RULE] = len(FLEE_RULES) - 1
    high[UNSEEN] = DECK_SIZE - 4
    high[BOTTOM_SIZE] = BOTTOM_CAP
    high[UNSEEN_BY_TYPE] = _TYPE_COUNT0
    high[BOTTOM] = DECK_SIZE
    return low, high


OBS_LOW, OBS_HIGH = _bounds()
"""Per-slot bounds of the observation (inclusive)."""


def variant_slots(v: Variant) -> tuple[int, int]:
    """The (flee rule, weapon rule) codes written in slots 11 and 12."""
    return FLEE_RULES.index(v.name), WEAPON_RULES.index(v.weapon_rule)


def encode(info: InfoState) -> npt.NDArray[np.int8]:
    """The observation of an information state."""
    slots = [0] * OBS_SIZE
    for c in info.unseen:
        slots[TYPE_SLOT[c.id]] += 1
    for i, c in enumerate(info.room):
        slots[i] = c.id + 1
    v = info.variant
    slots[HEALTH : UNSEEN_BY_TYPE.start] = (
        info.health & 0xFF,  # two's complement byte: int8 reads it back
        info.weapon_value,
        info.last_kill or 0,  # None (weapon unused) is slot value 0
        info.potion_used,
        info.resolved_in_room,
        info.fled_last,
        info.is_over,
        _FLEE_CODE[v.name],
        v.equal_wear,
        len(info.unseen),
        len(info.bottom),
    )
    for i, c in enumerate(info.bottom):
        slots[BOTTOM0 + i] = c.id + 1
    return np.frombuffer(bytearray(slots), OBS_DTYPE)


def decode(obs: npt.ArrayLike) -> InfoState:
    """The information state an observation describes.

    Unseen cards are known only by type, so each unseen type is filled with
    its lowest card ids (clubs before spades): the result equals the true
    information state up to which of two equal monsters is still unseen,
    which no rule can tell apart. The final score of an ended game is not in
    the observation (it is the episode's return), so ``score`` is None.

    >>> import scoundrel_core as sc
    >>> info = InfoState.initial(sc.new_game(seed=3))
    >>> decode(encode(info)) == info
    True
    """
    o = np.asarray(obs).astype(np.int64)
    if o.shape != (OBS_SIZE,):
        raise ValueError(f"observation of shape {o.shape}, expected ({OBS_SIZE},)")
    room = tuple(FULL_DECK[i - 1] for i in o[ROOM] if i)
    bottom = tuple(FULL_DECK[i - 1] for i in o[BOTTOM][: o[BOTTOM_SIZE]])
    in_sight = set(room) | set(bottom)
    want = [int(n) for n in o[UNSEEN_BY_TYPE]]
    unseen: list[Card] = []
    for c in FULL_DECK:
        t = CARD_TYPE[c.id]
        if want[t] and c not in in_sight:
            want[t] -= 1
            unseen.append(c)
    return InfoState(
        variant=Variant(FLEE_RULES[o[FLEE_RULE]], WEAPON_RULES[o[WEAPON_RULE]]),
        room=room,
        health=int(o[HEALTH]),
        weapon_value=int(o[WEAPON]),
        last_kill=int(o[LAST_KILL]) or None,
        potion_used=bool(o[POTION_USED]),
        resolved_in_room=int(o[RESOLVED]),
        fled_last=bool(o[FLED]),
        unseen=frozenset(unseen),
        bottom=bottom,
        is_over=bool(o[OVER]),
        score=None,
    )
