"""The player's view of one game, kept as observation slots along the true states.

The fast path of :class:`~.scalar.ScoundrelEnv`. Building an
:class:`~scoundrel_core.InfoState` with :func:`~scoundrel_core.observe` and
encoding it costs more than the step of the rules itself, so the env keeps
the 86 slots of :mod:`.observation` and updates them from the packed words
of each new true state (``State.key``, laid out as :mod:`scoundrel_core.state`
says) instead: the visible fields are read off the state,
and the cards new in the room are turned face up from the top of the dungeon,
unseen ones while any remain, then the known bottom in order. Only the
number of unseen cards and their counts by type are kept, and the bottom;
the information state is built on demand by
:meth:`~scoundrel_core.InfoState.from_state` (the unseen cards are the top of
the dungeon). Tested equal, observation and information state, to the slow
path ``encode(observe(...))`` on generated games.

>>> import scoundrel_core as sc
>>> from scoundrel_core.env.observation import encode
>>> s = sc.new_game(seed=0)
>>> view = PlayerView()
>>> view.start(s)
>>> bytes(view.slots) == encode(sc.InfoState.initial(s)).tobytes()
True
>>> t = sc.apply(s, sc.FLEE)
>>> view.follow(s, int(sc.FLEE), t)
>>> view.info_state(t) == sc.observe(sc.InfoState.initial(s), sc.FLEE, t)
True
"""

from __future__ import annotations

from typing import Final

from ..actions import FLEE_ID
from ..cards import FULL_DECK, Card
from ..info import InfoState
from ..state import (
    HEALTH_OFFSET,
    MASK_3,
    MASK_4,
    MASK_6,
    SHIFT_FLED,
    SHIFT_HEALTH,
    SHIFT_LAST_KILL,
    SHIFT_OVER,
    SHIFT_POTION_USED,
    SHIFT_RESOLVED,
    SHIFT_ROOM,
    SHIFT_ROOM_SIZE,
    SHIFT_VARIANT,
    SHIFT_WEAPON,
    State,
)
from .observation import (
    BOTTOM0,
    BOTTOM_CAP,
    BOTTOM_SIZE,
    HEALTH,
    OBS_SIZE,
    TYPE_SLOT,
    UNSEEN,
)

__all__ = ["PlayerView"]

_ROOM_SIZE: Final = 4


class PlayerView:
    """The observation slots of one game and the known bottom of its dungeon.

    ``slots`` (86 bytes, health as a two's complement byte) is the observation
    of the current information state: ``np.frombuffer(view.slots, np.int8)``.
    """

    __slots__ = ("_bottom", "slots")

    def __init__(self) -> None:
        self.slots = bytearray(OBS_SIZE)
        self._bottom: list[int] = []  # card ids + 1, top first

    def start(self, s: State) -> None:
        """The view of an opening position: the room seen, the whole dungeon unseen."""
        slots = bytearray(OBS_SIZE)
        word, info = s.key
        n = info & MASK_6
        for _ in range(n):
            slots[TYPE_SLOT[(word & MASK_6) - 1]] += 1
            word >>= 6
        slots[UNSEEN] = n
        self.slots = slots
        self._bottom = []
        self._see(s)

    def follow(self, before: State, action: int, after: State) -> None:
        """Update the view: legal ``action`` took the true state ``before`` to ``after``."""
        slots = self.slots
        bottom = self._bottom
        nd = before.key[1] & MASK_6
        moved = action == FLEE_ID
        if moved:
            # The room goes under the dungeon in room order.
            bottom += slots[:_ROOM_SIZE]
            nd += _ROOM_SIZE
        info = after.key[1]
        drawn = nd - (info & MASK_6)
        if drawn:
            # The drawn cards are the last ones of the new room (room order).
            nr = (info >> SHIFT_ROOM_SIZE) & MASK_3
            room = info >> SHIFT_ROOM
            for k in range(nr - drawn, nr):
                if slots[UNSEEN]:
                    slots[UNSEEN] -= 1
                    slots[TYPE_SLOT[((room >> (6 * k)) & MASK_6) - 1]] -= 1
                else:
                    del bottom[0]
                    moved = True
        if moved:
            slots[BOTTOM_SIZE] = len(bottom)
            slots[BOTTOM0:] = bytes(bottom) + bytes(BOTTOM_CAP - len(bottom))
        self._see(after)

    def _see(self, s: State) -> None:
        """Write the visible fields of ``s`` (all but the dungeon) into the slots."""
        info = s.key[1]
        slots = self.slots
        nr = (info >> SHIFT_ROOM_SIZE) & MASK_3
        room = info >> SHIFT_ROOM
        for k in range(_ROOM_SIZE):
            slots[k] = (room >> (6 * k)) & MASK_6 if k < nr else 0
        code = (info >> SHIFT_VARIANT) & MASK_3  # flee rule * 2 + weapon rule
        slots[HEALTH:UNSEEN] = bytes((
            (((info >> SHIFT_HEALTH) & MASK_6) - HEALTH_OFFSET) & 0xFF,
            (info >> SHIFT_WEAPON) & MASK_4,
            (info >> SHIFT_LAST_KILL) & MASK_4,
            (info >> SHIFT_POTION_USED) & 1,
            (info >> SHIFT_RESOLVED) & MASK_3,
            (info >> SHIFT_FLED) & 1,
            (info >> SHIFT_OVER) & 1,
            code >> 1,
            code & 1,
        ))

    def info_state(self, s: State) -> InfoState:
        """The information state the slots encode, for the true state ``s``."""
        bottom: tuple[Card, ...] = tuple(FULL_DECK[c - 1] for c in self._bottom)
        return InfoState.from_state(s, bottom)
