"""The numba kernel of the vector environment: N games in plain integer arrays.

Per game ``i``:

- ``obs[i]`` (int8, the 86 slots of :mod:`.observation`) *is* the player's
  information state, kept up to date in place: room, health, weapon, last
  kill, flags, unseen counts by type and the known bottom;
- ``ring[i]`` (int8, 64 entries) and ``head[i]`` hold the true dungeon, card
  ids from ``head`` on, as a ring buffer (fled rooms go in at the tail, so
  ``easy`` can flee forever without running out of room). Its length is
  ``obs[i, UNSEEN] + obs[i, BOTTOM_SIZE]``. Only :func:`_draw` reads it, to
  turn the top card face up;
- ``legal[i]`` (int8, 9) the legal actions as an ascending list, -1 after
  the last (at most 8 for four room cards, and flee), and ``mask[i]`` (bool,
  89) the same actions: set exactly at the listed ones, so a step clears it
  through the list.

Deals are :func:`scoundrel_core.jit.deal_into`, so seed N deals the same cards
here and in :func:`scoundrel_core.deal` (tested); the rules are the steps of
:mod:`scoundrel_core.jit`.
"""

from __future__ import annotations

import numpy as np

from .. import encoding
from ..actions import FLEE_ID, NUM_ACTIONS
from ..cards import DECK_SIZE, FULL_DECK, Kind
from ..encoding import FIRST_MONSTER, FIRST_WEAPON, MAX_HEALTH, ROOM_SIZE
from ..jit import (
    deal_into,
    death_score,
    jit_inline,
    jit_kernel,
    may_flee,
    resolve_card,
    weapon_reach,
    win_score,
)
from ..steps import LOST, WON
from .observation import (
    BOTTOM0,
    BOTTOM_SIZE,
    CARD_TYPE,
    FLED,
    FLEE_RULE,
    HEALTH,
    LAST_KILL,
    NUM_TYPES,
    OVER,
    POTION_USED,
    RESOLVED,
    TYPES0,
    UNSEEN,
    WEAPON,
    WEAPON_RULE,
)

# The helpers are inlined into the kernels (``jit_inline``) and the kernels run
# without numba's reference counting (``jit_kernel``; they allocate nothing): every
# call of a helper taking arrays otherwise pays an atomic increment and decrement per
# array, which was 40% of a step.

RING_MASK = 63
FLEE = FLEE_ID
MAX_LEGAL = 2 * ROOM_SIZE + 1  # two actions per room card (monsters with a weapon), and flee
DECK = DECK_SIZE  # the room a caller gives the kernels to deal in
MONSTER_TYPES = FIRST_WEAPON - FIRST_MONSTER  # the observation's first types are monsters
MONSTER = int(Kind.MONSTER)

KIND = np.array([int(c.kind) for c in FULL_DECK], np.int64)
VALUE = np.array([c.value for c in FULL_DECK], np.int64)
TYPE = np.array(CARD_TYPE, np.int64)
TYPE_VALUE = np.where(encoding.TYPE_KIND == MONSTER, encoding.TYPE_VALUE, 0)[1:].astype(np.int64)
"""Monster value of each observation type (0 for weapons and potions): what a type
counts when left (the observation numbers the encoding's types from 0)."""
TYPE_COUNT0 = np.bincount(TYPE, minlength=NUM_TYPES).astype(np.int64)
FIGHT_VALUE = np.array([99] + [c.value if c.kind is Kind.MONSTER else 99 for c in FULL_DECK])
"""By card id + 1 (0: an empty room slot): the value a weapon must reach to fight
the card, 99 (beyond any reach) for cards that are not monsters."""


@jit_inline
def _draw(i: int, obs: np.ndarray, ring: np.ndarray, head: np.ndarray) -> int:
    """Turn the top card of game ``i``'s dungeon face up; return its id.

    While unseen cards remain the top card is one of them; after that it is
    the first card of the known bottom.
    """
    c = int(ring[i, head[i]])
    head[i] = (head[i] + 1) & RING_MASK
    if obs[i, UNSEEN] > 0:
        obs[i, UNSEEN] -= 1
        obs[i, TYPES0 + TYPE[c]] -= 1
    else:
        nb_ = int(obs[i, BOTTOM_SIZE])
        for k in range(nb_ - 1):
            obs[i, BOTTOM0 + k] = obs[i, BOTTOM0 + k + 1]
        obs[i, BOTTOM0 + nb_ - 1] = 0
        obs[i, BOTTOM_SIZE] = nb_ - 1
    return c


@jit_inline
def _clear_mask(i: int, mask: np.ndarray, legal: np.ndarray) -> None:
    """Unset every action of game ``i``: the set ones are exactly those listed in
    ``legal[i]``. No branches (random play would mispredict them): a -1 entry
    clears flee, which is cleared anyway."""
    for k in range(MAX_LEGAL):
        a = legal[i, k]
        mask[i, a if a >= 0 else FLEE] = False
        legal[i, k] = -1


@jit_inline
def _list_card(i: int, r: int, reach: int, legal: np.ndarray, n: int) -> int:
    """List the actions of room card ``r`` (id + 1, 0 for an empty slot) at ``legal[i, n]``;
    the new length. Branch-free: a missing action writes -1 where the next one goes."""
    present = r > 0
    legal[i, n] = 2 * r - 2 if present else -1
    n += int(present)
    fight = FIGHT_VALUE[r] <= reach
    legal[i, n] = 2 * r - 1 if fight else -1
    return n + int(fight)


@jit_inline
def _set_mask(i: int, obs: np.ndarray, mask: np.ndarray, legal: np.ndarray) -> None:
    """Set the legal actions of game ``i`` (cleared before) from its information state,
    as an ascending list in ``legal[i]`` (-1 after the last) and in the mask."""
    if obs[i, OVER]:
        return
    reach = weapon_reach(int(obs[i, WEAPON]), int(obs[i, LAST_KILL]), int(obs[i, WEAPON_RULE]))
    # The room sorted by card id (empty slots first) lists the actions in order:
    # a card's two actions 2 * id and 2 * id + 1 are neighbours.
    r0, r1, r2, r3 = int(obs[i, 0]), int(obs[i, 1]), int(obs[i, 2]), int(obs[i, 3])
    r0, r1 = min(r0, r1), max(r0, r1)
    r2, r3 = min(r2, r3), max(r2, r3)
    r0, r2 = min(r0, r2), max(r0, r2)
    r1, r3 = min(r1, r3), max(r1, r3)
    r1, r2 = min(r1, r2), max(r1, r2)
    n = _list_card(i, r0, reach, legal, 0)
    n = _list_card(i, r1, reach, legal, n)
    n = _list_card(i, r2, reach, legal, n)
    n = _list_card(i, r3, reach, legal, n)
    dungeon = int(obs[i, UNSEEN]) + int(obs[i, BOTTOM_SIZE])
    # Slots are packed from the first, so the last is filled exactly when the room is
    # full; whether it is full is all may_flee asks of the room's size.
    room_cards = ROOM_SIZE if obs[i, ROOM_SIZE - 1] != 0 else ROOM_SIZE - 1
    flee = may_flee(int(obs[i, FLEE_RULE]), room_cards, int(obs[i, RESOLVED]), dungeon,
                    int(obs[i, FLED]))
    legal[i, n] = FLEE if flee else -1  # the largest action: last in the list
    for k in range(MAX_LEGAL):
        a = legal[i, k]
        listed = a >= 0
        mask[i, a if listed else FLEE] |= listed


@jit_inline
def _reset_one(
    i: int, seed: np.uint64, obs: np.ndarray, mask: np.ndarray, legal: np.ndarray,
    ring: np.ndarray, head: np.ndarray, flee_rule: int, equal: int, deck: np.ndarray,
) -> None:
    deal_into(seed, deck)
    _clear_mask(i, mask, legal)
    for k in range(obs.shape[1]):
        obs[i, k] = 0
    for k in range(DECK - ROOM_SIZE):
        ring[i, k] = deck[ROOM_SIZE + k]
    head[i] = 0
    for t in range(NUM_TYPES):
        obs[i, TYPES0 + t] = TYPE_COUNT0[t]
    for k in range(ROOM_SIZE):
        obs[i, k] = deck[k] + 1
        obs[i, TYPES0 + TYPE[deck[k]]] -= 1
    obs[i, HEALTH] = MAX_HEALTH
    obs[i, FLEE_RULE] = flee_rule
    obs[i, WEAPON_RULE] = equal
    obs[i, UNSEEN] = DECK - ROOM_SIZE
    _set_mask(i, obs, mask, legal)


@jit_inline
def _monsters_left(i: int, obs: np.ndarray) -> int:
    """Monster values in the room and the dungeon, from the information state."""
    left = 0
    for k in range(ROOM_SIZE):
        c = int(obs[i, k]) - 1
        if c >= 0 and KIND[c] == MONSTER:
            left += VALUE[c]
    for t in range(MONSTER_TYPES):
        left += int(obs[i, TYPES0 + t]) * TYPE_VALUE[t]
    for k in range(int(obs[i, BOTTOM_SIZE])):
        c = int(obs[i, BOTTOM0 + k]) - 1
        if KIND[c] == MONSTER:
            left += VALUE[c]
    return left


@jit_inline
def _apply(i: int, a: int, obs: np.ndarray, ring: np.ndarray, head: np.ndarray) -> int:
    """Play legal action ``a`` in game ``i``; return the final score if it ends it, else 0."""
    dungeon = int(obs[i, UNSEEN]) + int(obs[i, BOTTOM_SIZE])
    if a == FLEE:
        # The room goes under the dungeon in room order; a new room comes off the top.
        nb_ = int(obs[i, BOTTOM_SIZE])
        for k in range(ROOM_SIZE):
            ring[i, (head[i] + dungeon + k) & RING_MASK] = obs[i, k] - 1
            obs[i, BOTTOM0 + nb_ + k] = obs[i, k]
        obs[i, BOTTOM_SIZE] = nb_ + ROOM_SIZE
        for k in range(ROOM_SIZE):
            obs[i, k] = _draw(i, obs, ring, head) + 1
        obs[i, RESOLVED] = 0
        obs[i, POTION_USED] = 0
        obs[i, FLED] = 1
        return 0
    cid = a >> 1
    nroom = 0
    slot = 0
    for k in range(ROOM_SIZE):
        if obs[i, k] != 0:
            nroom += 1
        if obs[i, k] == cid + 1:
            slot = k
    for k in range(slot, ROOM_SIZE - 1):
        obs[i, k] = obs[i, k + 1]
    obs[i, ROOM_SIZE - 1] = 0
    nroom -= 1
    kind = KIND[cid]
    value = VALUE[cid]
    health, weapon, last_kill, potion_used, resolved, ending, draw = resolve_card(
        kind, value, a & 1, int(obs[i, HEALTH]), int(obs[i, WEAPON]), int(obs[i, LAST_KILL]),
        int(obs[i, POTION_USED]), int(obs[i, RESOLVED]), nroom, dungeon)
    obs[i, WEAPON] = weapon
    obs[i, LAST_KILL] = last_kill
    score = 0
    if ending == LOST:
        obs[i, OVER] = 1
        score = death_score(health, _monsters_left(i, obs))
    elif ending == WON:
        obs[i, OVER] = 1
        score = win_score(health, kind, value)
    else:
        # The refill: the card left stays and the next cards come off the top.
        for k in range(draw):
            obs[i, nroom + k] = _draw(i, obs, ring, head) + 1
    obs[i, HEALTH] = health
    obs[i, POTION_USED] = potion_used
    obs[i, RESOLVED] = resolved
    obs[i, FLED] = 0
    return score


@jit_kernel
def reset_all(
    seeds: np.ndarray, obs: np.ndarray, mask: np.ndarray, legal: np.ndarray, ring: np.ndarray,
    head: np.ndarray, steps: np.ndarray, pending: np.ndarray, flee_rule: int, equal: int,
    deck: np.ndarray,
) -> None:
    """Deal seed ``seeds[i]`` to every game ``i`` (``deck``: room for 44 card ids)."""
    for i in range(obs.shape[0]):
        _reset_one(i, seeds[i], obs, mask, legal, ring, head, flee_rule, equal, deck)
        steps[i] = 0
        pending[i] = False


@jit_kernel
def first_illegal(actions: np.ndarray, mask: np.ndarray, pending: np.ndarray) -> int:
    """The first game whose action is illegal (games about to reset ignore theirs), or -1."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if not pending[i] and (a < 0 or a >= NUM_ACTIONS or not mask[i, a]):
            return i
    return -1


@jit_inline
def _step_one(
    i: int, a: int, obs: np.ndarray, mask: np.ndarray, legal: np.ndarray, ring: np.ndarray,
    head: np.ndarray, steps: np.ndarray, pending: np.ndarray, reward: np.ndarray,
    terminated: np.ndarray, truncated: np.ndarray, illegal: np.ndarray, max_steps: int,
    worst: float,
) -> None:
    """Play action ``a`` in game ``i`` (which is not waiting for a reset)."""
    steps[i] += 1
    allowed = a >= 0 and a < NUM_ACTIONS and mask[i, a]
    _clear_mask(i, mask, legal)
    if not allowed:
        illegal[i] = True
        terminated[i] = True
        reward[i] = worst
    else:
        score = _apply(i, a, obs, ring, head)
        if obs[i, OVER]:
            reward[i] = score
            terminated[i] = True
        else:
            _set_mask(i, obs, mask, legal)
    # Like gymnasium's TimeLimit: the last allowed step is truncated, ended or not.
    if max_steps > 0 and steps[i] >= max_steps:
        truncated[i] = True
    pending[i] = terminated[i] or truncated[i]


@jit_kernel
def step_all(
    actions: np.ndarray, obs: np.ndarray, mask: np.ndarray, legal: np.ndarray, ring: np.ndarray,
    head: np.ndarray, steps: np.ndarray, pending: np.ndarray, reset_seeds: np.ndarray,
    seeds: np.ndarray, reward: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
    illegal: np.ndarray, flee_rule: int, equal: int, max_steps: int, worst: float,
    deck: np.ndarray,
) -> None:
    """One step of every game, with gymnasium's next-step autoreset.

    A game that ended on the previous step (``pending``) ignores its action
    and is dealt ``reset_seeds[i]``, with reward 0 and no ending. Otherwise an
    illegal action ends the game with reward ``worst``; a legal one is played,
    paying the final score if it ends the game, and ``max_steps`` actions
    (when > 0) truncate it. ``deck`` is room for the 44 card ids of a deal.
    """
    for i in range(obs.shape[0]):
        reward[i] = 0.0
        terminated[i] = False
        truncated[i] = False
        illegal[i] = False
        if pending[i]:
            seeds[i] = reset_seeds[i]
            _reset_one(i, reset_seeds[i], obs, mask, legal, ring, head, flee_rule, equal, deck)
            steps[i] = 0
            pending[i] = False
        else:
            _step_one(i, int(actions[i]), obs, mask, legal, ring, head, steps, pending, reward,
                      terminated, truncated, illegal, max_steps, worst)
