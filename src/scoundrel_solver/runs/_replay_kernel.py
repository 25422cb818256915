"""The replay of a results row's line on its seed's deal, compiled by numba.

The fast path of :func:`scoundrel_solver.runs.result_rows.check_line`: the deal
comes from :func:`scoundrel_core.jit.deal_into` (the same cards as
:func:`scoundrel_core.deal`) and each card is resolved by the steps of
:mod:`scoundrel_core.jit`, as every numba engine resolves it. It only says
whether the line is a whole game and what it scores; a line it refuses is
replayed again by the library's checked rules, which word the error. A test
compares it with :func:`scoundrel_core.play_line` on generated lines.
"""

from __future__ import annotations

import numpy as np

from scoundrel_core.actions import FLEE_ID
from scoundrel_core.cards import DECK_SIZE, FULL_DECK
from scoundrel_core.encoding import KIND_MONSTER, MAX_HEALTH, RESOLVED_PER_ROOM, ROOM_SIZE
from scoundrel_core.jit import (
    card_effect,
    deal_into,
    death_score,
    jit,
    may_flee,
    weapon_reach,
    wear_after,
    win_score,
)

__all__ = ["DECK_DIFFERS", "ENDS", "ILLEGAL", "NOT_OVER", "replay_line"]

ENDS, ILLEGAL, NOT_OVER, DECK_DIFFERS = 0, 1, 2, 3
"""What :func:`replay_line` found: the line ends the game at its last step; a step the
rules refuse (or one after the end); the line stops before the game ends; the deck given
is not the seed's deal."""

_KIND = np.array([int(c.kind) for c in FULL_DECK], np.int64)
_VALUE = np.array([c.value for c in FULL_DECK], np.int64)
_RING = 64  # the dungeon as a ring: a fled room goes under, and easy may flee forever


@jit
def _replay(seed: np.uint64, actions: np.ndarray, flee_rule: int, equal: int,
            kinds: np.ndarray, values: np.ndarray, given: np.ndarray) -> tuple[int, int, int]:
    deck = np.empty(DECK_SIZE, np.int64)
    deal_into(seed, deck)
    if given.shape[0]:  # the row's deck, as card ids: it must be this deal
        if given.shape[0] != DECK_SIZE:
            return DECK_DIFFERS, 0, 0
        for i in range(DECK_SIZE):
            if given[i] != deck[i]:
                return DECK_DIFFERS, 0, 0
    room = np.empty(ROOM_SIZE, np.int64)
    ring = np.empty(_RING, np.int64)
    for i in range(ROOM_SIZE):
        room[i] = deck[i]
    nd = DECK_SIZE - ROOM_SIZE
    for i in range(nd):
        ring[i] = deck[ROOM_SIZE + i]
    head = 0
    nr = ROOM_SIZE
    health, weapon, last, potion, resolved, fled = MAX_HEALTH, 0, 0, 0, 0, 0
    n = actions.shape[0]
    for k in range(n):
        a = actions[k]
        if a == FLEE_ID:
            if not may_flee(flee_rule, nr, resolved, nd, fled):
                return ILLEGAL, 0, k
            for i in range(nr):  # under the dungeon, in room order
                ring[(head + nd + i) % _RING] = room[i]
            nd += nr
            for i in range(ROOM_SIZE):  # a new room off the top
                room[i] = ring[head]
                head = (head + 1) % _RING
            nd -= ROOM_SIZE
            nr = ROOM_SIZE
            resolved, potion, fled = 0, 0, 1
            continue
        if a < 0 or a > FLEE_ID:
            return ILLEGAL, 0, k
        cid = a >> 1
        with_weapon = a & 1
        slot = -1
        for i in range(nr):
            if room[i] == cid:
                slot = i
        if slot < 0:
            return ILLEGAL, 0, k
        kind = kinds[cid]
        value = values[cid]
        if with_weapon and (kind != KIND_MONSTER or value > weapon_reach(weapon, last, equal)):
            return ILLEGAL, 0, k
        for i in range(slot, nr - 1):
            room[i] = room[i + 1]
        nr -= 1
        health, weapon, potion = card_effect(kind, value, with_weapon, health, weapon, potion)
        last = wear_after(kind, value, with_weapon, last)
        resolved += 1
        fled = 0
        if health <= 0 or (nr == 0 and nd == 0):
            if k != n - 1:
                return ILLEGAL, 0, k + 1  # a step after the game ended
            if health > 0:
                return ENDS, win_score(health, kind, value), k
            left = 0
            for i in range(nr):
                if kinds[room[i]] == KIND_MONSTER:
                    left += values[room[i]]
            for i in range(nd):
                c = ring[(head + i) % _RING]
                if kinds[c] == KIND_MONSTER:
                    left += values[c]
            return ENDS, death_score(health, left), k
        if resolved == RESOLVED_PER_ROOM and nd:
            draw = min(ROOM_SIZE - nr, nd)
            for i in range(draw):
                room[nr + i] = ring[head]
                head = (head + 1) % _RING
            nr += draw
            nd -= draw
            resolved, potion = 0, 0
    return NOT_OVER, 0, n


def replay_line(seed: int, flee_rule: int, equal: int, actions: np.ndarray,
                deck: np.ndarray) -> tuple[int, int, int]:
    """``(found, score, step)`` for the action ids ``actions`` played on seed ``seed``'s
    deal: ``found`` is :data:`ENDS` (``score`` is the final score), :data:`ILLEGAL`
    (``step`` is the first refused, counted from 0), :data:`NOT_OVER`, or
    :data:`DECK_DIFFERS` when ``deck`` (card ids, top first; empty: not checked) is not
    the seed's deal."""
    found, score, step = _replay(np.uint64(seed), actions, flee_rule, equal, _KIND, _VALUE,
                                 deck)
    return int(found), int(score), int(step)
