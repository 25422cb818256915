"""The exact search, compiled by numba. Private: use :func:`scoundrel_solver.solve`.

Memoised depth-first branch and bound over the position rows of
:mod:`._layout` (cards as the types of :mod:`scoundrel_core.encoding`), a room at a time,
with an explicit stack (numba's cache does not handle recursive functions).
``run_search(root, alpha)`` returns the value of the position when it is above
``alpha`` (exact), else a number ``<= alpha`` that the value cannot exceed
(fail-soft upper bound). docs/solver.md tells the whole story; why each
reduction is sound:

* Card types: two monsters of a value are interchangeable, so positions that
  differ by swapping them have the same value (and one key).
* A room at a time: a position's children are the ends of its room (refill or
  end of game), reached by every order of play (``room_children``); the
  positions inside a room are walked but not searched or stored. Two
  barehanded fights in a row commute and are walked in one order. Some
  orders are never better than another order of the same cards, which is
  walked, so they are skipped: a weapon picked up or a fight fought just
  after a potion (the potion after it: same cards, weapon and "potion
  drunk", and health min(20, h - d + p) >= min(20, h + p) - d, when the fight
  does not kill at h), and a fight with the weapon just after a barehanded
  one (the weapon fight first: the same end, and a death in either order
  happens in both and scores at least as much in the other). Each skip moves
  potions later or weapon fights earlier, so every skipped order leads, in a
  finite number of skips, to a walked order at least as good (a skipped death
  may become a kept outcome: its value is at least its phi, at least the
  death's score).
* Dominance: room ends with the same card carried over share everything but
  health and weapon; one with at least the health, weapon value and weapon
  reach of another is at least as good (every line of the other stays legal
  and keeps health and phi at least as high), so the other is dropped. Of the
  endings (death or the last card) only the best is kept.
* Room order only matters for fleeing (the room goes under the dungeon in room
  order). When the room cannot be fled the key sorts it.
* A weapon's reach is folded into ``cap`` = strongest monster it may fight;
  it is clipped to the strongest monster left, and a weapon that can fight no
  monster left is the same as no weapon. "Potion drunk in this room" only
  matters while a potion is in the room; "fled" only while the room is full.
* Bound: phi = health - monsters left never decreases except through weapon
  kills (each adds min(monster, weapon)) and potions (each adds at most its
  value). The weapon term takes, per monster value, the best weapons that could
  still kill it, one weapon per monster under the strict rule (a weapon kills a
  strictly decreasing sequence). A win scores at most 20 plus the largest
  potion left, and only if phi can reach 20; a loss scores phi at death <= the
  same sum. See ``_phi.upper_bound`` (table lookups over value masks).
* Children are searched best bound first (among equal bounds, the one whose
  phi can reach highest, then more health; under ``easy`` ``solve`` also asks
  with flee runs after the room outcomes of their bound, ``G_FLEE_LAST``:
  only the order changes); once a child reaches the node's
  bound nothing can beat it, and children whose bound cannot beat the best so
  far are cut (their bound is still a sound upper bound of their value).
  Room outcomes whose bound is at most the node's alpha are dropped before
  they become children, and so is everything below a partly played room
  whose bound is at most alpha (what is reachable from a position cannot beat
  its bound); the largest dropped bound starts the node's best so far, so a
  fail-low result still bounds the value.
  ``G_BETA`` is a proven upper bound on the root's value: no position below
  the root can beat it, so it caps every node's bound.
* ``easy`` allows fleeing any number of times in a row, which makes cycles.
  Fleeing k times in a row only rotates the room and dungeon by 4k cards, so
  the search replaces runs of flees by one macro move "flee k times"
  (k = 1..L-1, where L is the rotation's period) after which the room must be
  played; a run of length >= L equals a shorter one. The graph is then acyclic
  and every value is exact.
* The table is keyed without health and keeps, per health, the best proven
  lower and upper bounds: more health is never worse, so a lower bound proven
  at less health and an upper bound proven at more health also hold. It has a
  fixed size; a full bucket replaces the entry with the least work under it.
  Losing an entry only costs time.
"""

from __future__ import annotations

import time

import numpy as np
from numba import objmode

from scoundrel_core.encoding import (
    FLEE_ANY,
    FLEE_NEVER,
    FLEE_NOT_TWICE,
    KIND_MONSTER,
    KIND_POTION,
    KIND_WEAPON,
    MAX_HEALTH,
    ROOM_SIZE,
    TYPE_BITS,
    TYPE_MASK,
)
from scoundrel_core.encoding import TYPE_KIND as KIND
from scoundrel_core.encoding import TYPE_VALUE as VALUE
from scoundrel_core.jit import (
    death_score,
    fight_damage,
    jit,
    jit_inline,
    jit_kernel,
    resolve_card_reach,
    win_score,
)
from scoundrel_core.jit import may_flee as rules_may_flee
from scoundrel_core.steps import GOES_ON, LOST, WON

from ._layout import (
    DUNGEON_WORDS,
    NP,
    P_CAP,
    P_D0,
    P_FLED,
    P_HP,
    P_ND,
    P_NR,
    P_PU,
    P_R0,
    P_REM,
    P_RES,
    P_W,
    PER_WORD,
    REM_BIT,
)
from ._phi import monster_span, monsters_left, phi_reach, upper_bound

NEG_INF = -100000

# Global counters and settings, one int64 array shared by every frame of the search.
G_NODES = 0
G_BEST = 1
G_BEST_LEN = 2
G_ABORT = 3  # 0 running, 1 node limit, 2 time limit
G_STAMP = 4
G_MAX_NODES = 5
G_FLEE_RULE = 6
G_EQUAL = 7
G_BUCKET_MASK = 8
G_NEXT_CHECK = 9
G_HAS_DEADLINE = 10
G_BETA = 11  # a proven upper bound on the root's value: no position can beat it
G_FLEE_LAST = 12  # 1: flee runs after the room outcomes of the same bound (see _sort_children)
NG = 13

# Rooms a line can pass through: a room ends when three cards are resolved (the
# first may be part played, the last ends the game), so a deal of 44 cards has
# at most 16, each at most one flee move before it: 32 moves. Twice that, and
# half the scratch memory of 128.
MAX_DEPTH = 64
MAX_CHILDREN = 256  # room outcomes (at most 4*2 * 3*2 * 2*2 = 192) plus flee runs (< 44)
TIME_CHECK_EVERY = 1 << 10  # room-level nodes are slow enough that this costs nothing
BUCKET = 4
KEY_WORDS = DUNGEON_WORDS + 1  # a table key: the dungeon words, then the rest of the position

HEALTHS = MAX_HEALTH + 1  # bound vectors are indexed by health 1..20
LOW_NONE = -32768
HIGH_NONE = 32767
LOW = 0  # t_bounds[slot, LOW, h]: a proven lower bound on the value at health h
HIGH = 1  # t_bounds[slot, HIGH, h]: a proven upper bound
# A table entry's stamp word: the generation stamp of the solve that wrote it in
# the low 32 bits, the search work done under it above (one word, one cache line).
STAMP_MASK = (1 << 32) - 1
WORK_SHIFT = 32
WORK_MAX = (1 << 31) - 1

# A room move packs up to four card moves, SUB_BITS bits each (card move + 1,
# first in the lowest bits); a card move is type * 2 + with_weapon. A run of k
# flees is FLEE_MOVE_BIT | k. ``solve.moves_to_actions`` reads them back.
SUB_BITS = 7
FLEE_MOVE_BIT = 1 << 40


# -- dungeon words -----------------------------------------------------------------


@jit_inline
def dungeon_type(row: np.ndarray, i: int) -> int:
    return int((row[P_D0 + i // PER_WORD] >> ((i % PER_WORD) * TYPE_BITS)) & TYPE_MASK)


@jit
def set_dungeon_type(row: np.ndarray, i: int, t: int) -> None:
    j = P_D0 + i // PER_WORD
    s = (i % PER_WORD) * TYPE_BITS
    row[j] = (row[j] & ~(TYPE_MASK << s)) | (t << s)


@jit_inline
def drop_top(row: np.ndarray, k: int) -> None:
    """Remove the top k (<= 4) cards of the dungeon."""
    s = TYPE_BITS * k
    low = (1 << s) - 1
    top = PER_WORD * TYPE_BITS - s
    last = P_D0 + DUNGEON_WORDS - 1
    for j in range(P_D0, last):
        row[j] = (row[j] >> s) | ((row[j + 1] & low) << top)
    row[last] = row[last] >> s
    row[P_ND] -= k


# -- children ------------------------------------------------------------------------------


@jit
def _canonical_weapon(c: np.ndarray) -> None:
    if c[P_W] == 0:
        c[P_CAP] = 0
        return
    weakest, strongest = monster_span(c[P_REM])
    if c[P_CAP] > strongest:
        c[P_CAP] = strongest
    if c[P_CAP] < weakest or strongest == 0:
        c[P_W] = 0
        c[P_CAP] = 0


@jit
def _resolve(row: np.ndarray, c: np.ndarray, slot: int, with_weapon: int,
             equal: int) -> tuple[bool, int]:
    """Write into ``c`` the position after resolving room card ``slot``.

    Returns (ended, score): the final score if the game ended, else 0. The
    weapon is left as played (see ``_settle`` for the canonical form).
    """
    for f in range(NP):
        c[f] = row[f]
    t = row[P_R0 + slot]
    nr = row[P_NR]
    for i in range(slot, nr - 1):
        c[P_R0 + i] = row[P_R0 + i + 1]
    c[P_R0 + nr - 1] = 0
    nr -= 1
    c[P_NR] = nr
    c[P_REM] = row[P_REM] - REM_BIT[t]
    kind = KIND[t]
    v = VALUE[t]
    hp, c[P_W], c[P_CAP], c[P_PU], c[P_RES], ending, draw = resolve_card_reach(
        kind, v, with_weapon, row[P_HP], row[P_W], row[P_CAP], row[P_PU], row[P_RES], nr,
        row[P_ND], equal)
    c[P_HP] = hp
    c[P_FLED] = 0
    if ending == LOST:
        return True, death_score(hp, monsters_left(c[P_REM]))
    if ending == WON:
        return True, win_score(hp, kind, v)
    for j in range(draw):
        c[P_R0 + nr + j] = dungeon_type(c, j)
    drop_top(c, draw)
    c[P_NR] = nr + draw
    return False, 0


@jit
def _settle(c: np.ndarray, equal: int) -> int:
    """Put a position the search will visit in canonical form; returns its bound."""
    _canonical_weapon(c)
    return int(upper_bound(c[P_REM], c[P_HP], c[P_W], c[P_CAP], equal))


@jit
def _tape(row: np.ndarray, i: int) -> int:
    """Card i of room + dungeon, read as one sequence (the room first)."""
    return int(row[P_R0 + i]) if i < ROOM_SIZE else dungeon_type(row, i - ROOM_SIZE)


@jit
def _flee(row: np.ndarray, c: np.ndarray, k: int) -> None:
    """Write into ``c`` the position after fleeing ``k`` times in a row."""
    for f in range(NP):
        c[f] = row[f]
    nd = row[P_ND]
    n = ROOM_SIZE + nd
    shift = (ROOM_SIZE * k) % n
    for j in range(ROOM_SIZE):
        c[P_R0 + j] = _tape(row, (j + shift) % n)
    for w in range(DUNGEON_WORDS):
        c[P_D0 + w] = 0
    for j in range(nd):
        set_dungeon_type(c, j, _tape(row, (ROOM_SIZE + j + shift) % n))
    c[P_FLED] = 1
    c[P_RES] = 0
    c[P_PU] = 0


@jit
def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


@jit_inline
def may_flee(row: np.ndarray, flee_rule: int) -> bool:
    # Under easy a room dealt by a flee may be fled again, but the search lists every
    # run of flees in a row as one move (_add_flee_runs): after a run, no flee.
    rule = FLEE_NEVER if flee_rule == FLEE_NEVER else FLEE_NOT_TWICE
    return bool(rules_may_flee(rule, row[P_NR], row[P_RES], row[P_ND], row[P_FLED]))


@jit
def _add_flee_runs(row: np.ndarray, kids: np.ndarray, bound: np.ndarray, move: np.ndarray,
                   terminal: np.ndarray, n: int, flee_rule: int, equal: int) -> int:
    """Append the flee moves after the ``n`` children so far; returns the new count.

    One flee, or under ``easy`` the runs of k = 1..L-1 flees in a row (L: the
    period of the rotation by a room, see the module docstring). A flee
    changes no card, health or weapon, so its bound is the room's own.
    """
    if not may_flee(row, flee_rule):
        return n
    flee_bound = upper_bound(row[P_REM], row[P_HP], row[P_W], row[P_CAP], equal)
    runs = 1
    if flee_rule == FLEE_ANY:
        size = ROOM_SIZE + row[P_ND]
        runs = size // _gcd(size, ROOM_SIZE) - 1
    for k in range(1, runs + 1):
        if n >= kids.shape[0]:
            break
        _flee(row, kids[n], k)
        terminal[n] = False
        bound[n] = flee_bound
        move[n] = FLEE_MOVE_BIT | k
        n += 1
    return n


@jit
def step_children(row: np.ndarray, kids: np.ndarray, bound: np.ndarray, move: np.ndarray,
                  terminal: np.ndarray, flee_rule: int, equal: int) -> int:
    """The positions one action away (the search itself moves a room at a time,
    see ``room_children``; tests check these steps against scoundrel_core).

    Moves are ``2 * type + with_weapon`` for a card, ``FLEE_MOVE_BIT | k`` for
    a run of k flees."""
    n = 0
    seen = 0
    w = row[P_W]
    cap = row[P_CAP]
    for i in range(row[P_NR]):
        t = row[P_R0 + i]
        if (seen >> t) & 1:
            continue  # the same type twice in the room: one child serves both
        seen |= 1 << t
        for with_weapon in range(2):
            if with_weapon and not (KIND[t] == KIND_MONSTER and w > 0 and VALUE[t] <= cap):
                continue
            ended, score = _resolve(row, kids[n], i, with_weapon, equal)
            terminal[n] = ended
            bound[n] = score if ended else _settle(kids[n], equal)
            move[n] = 2 * t + with_weapon
            n += 1
    return int(_add_flee_runs(row, kids, bound, move, terminal, n, flee_rule, equal))


@jit_inline
def _dominates(hp_a: int, w_a: int, cap_a: int, hp_b: int, w_b: int, cap_b: int) -> bool:
    """Whether room outcome ``a`` is at least as good as ``b`` (same cards left).

    More health, a weapon at least as strong that may fight at least as much:
    every line from ``b`` is legal from ``a`` and keeps ``a``'s health and phi
    at least as high at every step, so ``a``'s value is at least ``b``'s.
    (Plain numbers, not rows: a row view costs numba two atomic reference
    count updates, which the profile showed as 15% of the search.)
    """
    return hp_a >= hp_b and w_a >= w_b and cap_a >= cap_b


# The walk through one room keeps, per level, only what changes inside a room
# (rows of ``stack`` used as these fields): health, weapon, reach, potion drunk,
# the room slots already resolved (a bit mask), cards resolved in the room, the
# monster values resolved and the room move so far.
W_HP = 0
W_W = 1
W_CAP = 2
W_PU = 3
W_USED = 4
W_RES = 5
W_KILLED = 6
W_CODE = 7
TOP = ROOM_SIZE + 1  # the row of ``stack`` where the refilled room is built
W_REM = 8
SLOTS = TOP + 1  # the row of ``stack`` with the room's types and their earlier twins

# The lowest set bit of a room's card-move mask (see ``_card_moves``).
FIRST_BIT = np.array([0] + [(m & -m).bit_length() - 1 for m in range(1, 256)], np.int64)


@jit_inline
def _card_moves(cards: np.ndarray, nr: int, used: int, w: int, cap: int) -> int:
    """The card moves to walk from a partly played room, as a mask: bit
    ``2 * slot`` resolves the card of ``slot`` (barehanded for a monster), bit
    ``2 * slot + 1`` fights its monster with the weapon (when the weapon may).
    Slots already resolved are left out, and so is a card whose type an
    earlier unresolved slot holds (``cards[ROOM_SIZE + slot]``): the first
    card of a type gives the same outcomes. The walk takes the moves lowest
    bit first: slot by slot, barehanded before the weapon.
    """
    m = 0
    for i in range(nr):
        if (used >> i) & 1 or cards[ROOM_SIZE + i] & ~used:
            continue
        m |= 1 << (2 * i)
        t = cards[i]
        if KIND[t] == KIND_MONSTER and w > 0 and VALUE[t] <= cap:
            m |= 2 << (2 * i)
    return m


@jit_inline
def _walk_start(row: np.ndarray, stack: np.ndarray, pick: np.ndarray) -> None:
    """Level 0 of the walk through the room of ``row``: the fields a room changes,
    as the row has them (``W_*``), the room's types and, per slot, the earlier
    slots holding the same type (``stack[SLOTS]``, read by ``_card_moves``), and
    the first level's card moves."""
    stack[0, W_HP] = row[P_HP]
    stack[0, W_W] = row[P_W]
    stack[0, W_CAP] = row[P_CAP]
    stack[0, W_PU] = row[P_PU]
    stack[0, W_USED] = 0
    stack[0, W_RES] = row[P_RES]
    stack[0, W_KILLED] = 0
    stack[0, W_CODE] = 0
    stack[0, W_REM] = row[P_REM]
    nr = row[P_NR]
    cards = stack[SLOTS]
    for i in range(nr):
        t = row[P_R0 + i]
        cards[i] = t
        same = 0
        for j in range(i):
            if row[P_R0 + j] == t:
                same |= 1 << j
        cards[ROOM_SIZE + i] = same
    pick[0] = _card_moves(cards, nr, 0, row[P_W], row[P_CAP])


@jit_inline
def _skipped_order(stack: np.ndarray, level: int, kind: int, t: int, v: int,
                   with_weapon: int) -> bool:
    """Whether the walk skips this card move after the one before it (level - 1),
    because another order of the same cards is walked too and is never worse (the
    module docstring says why each skip is sound)."""
    if level == 0:
        return False
    code = stack[level, W_CODE]
    prev = ((code >> (SUB_BITS * (level - 1))) & ((1 << SUB_BITS) - 1)) - 1
    prev_type = prev >> 1
    barehanded_before = not prev & 1 and KIND[prev_type] == KIND_MONSTER
    if not with_weapon and kind == KIND_MONSTER and barehanded_before and prev_type > t:
        # Two barehanded fights in a row commute (same health after both;
        # a death between them scores the same, since phi does not move):
        # walk only the order with the weaker monster first.
        return True
    if kind == KIND_POTION:
        return False
    if with_weapon and barehanded_before:
        # A barehanded fight, then a fight with the weapon: the other
        # order is walked too and is never worse. A barehanded fight
        # changes neither weapon nor reach, so both orders are legal
        # and end alike; a death in either scores phi, which the
        # weapon fight raises and the barehanded one leaves alone, and
        # if the barehanded-first order dies anywhere, so does the other.
        return True
    if KIND[prev_type] == KIND_POTION:
        # A potion just before a weapon or a fight: the other order
        # (this card, then the potion) is walked too and is never
        # worse when the fight does not kill there: same cards, pu
        # and weapon, and health min(20, h - d + p) >= min(20, h + p) - d.
        if kind == KIND_WEAPON:
            return True
        damage = fight_damage(v, stack[level - 1, W_W], with_weapon)
        if stack[level - 1, W_HP] - damage > 0:
            return True
    return False


@jit_inline
def _keep_ending(bound: np.ndarray, move: np.ndarray, terminal: np.ndarray, d: int, n: int,
                 best_end: int, value: int, here: int) -> tuple[int, int]:
    """Keep an ending of the room (a death, or the last card) if it beats the best
    ending so far, which is the one terminal child of depth ``d`` (``best_end``, -1
    before the first). Returns the children's count and ``best_end``."""
    if best_end < 0 or value > bound[d, best_end]:
        if best_end < 0:
            best_end = n
            n += 1
        terminal[d, best_end] = True
        bound[d, best_end] = value
        move[d, best_end] = here
    return n, best_end


@jit_inline
def _walk_deeper(stack: np.ndarray, pick: np.ndarray, nr: int, level: int, rem: int, hp: int,
                 wv: int, cap: int, pu: int, used: int, res: int, killed: int,
                 code: int) -> None:
    """Write level ``level`` of the walk (the room after one more card) and its card
    moves."""
    stack[level, W_REM] = rem
    stack[level, W_HP] = hp
    stack[level, W_W] = wv
    stack[level, W_CAP] = cap
    stack[level, W_PU] = pu
    stack[level, W_USED] = used
    stack[level, W_RES] = res
    stack[level, W_KILLED] = killed
    stack[level, W_CODE] = code
    pick[level] = _card_moves(stack[SLOTS], nr, used, wv, cap)


@jit_inline
def _carried_card(row: np.ndarray, used: int) -> int:
    """The card a refilled room carries over: the first room slot not resolved."""
    for i in range(row[P_NR]):
        if not (used >> i) & 1:
            return int(row[P_R0 + i])
    return 0


@jit_inline
def _outcome_weapon(carried: int, d_weak: int, d_strong: int, wv: int,
                    cap: int) -> tuple[int, int]:
    """(weapon, reach) of a room outcome in canonical form (as ``_canonical_weapon``)
    over the cards left: the dungeon's monsters (``d_weak``..``d_strong``, the
    weakest and strongest value; 0 for none) and the carried card."""
    weak, strong = d_weak, d_strong
    if KIND[carried] == KIND_MONSTER:
        cv = VALUE[carried]
        if weak == 0 or cv < weak:
            weak = cv
        if cv > strong:
            strong = cv
    if wv != 0:
        if cap > strong:
            cap = strong
        if cap < weak or strong == 0:
            wv = 0
            cap = 0
    else:
        cap = 0
    return wv, cap


@jit_inline
def _keep_outcome(kids: np.ndarray, bound: np.ndarray, move: np.ndarray, terminal: np.ndarray,
                  d: int, n: int, best_end: int, carried: int, hp: int, wv: int, cap: int,
                  b: int, here: int) -> tuple[int, int]:
    """Add a room outcome (carried card, health, weapon, reach; bound ``b``, room move
    ``here``) to the children of depth ``d`` unless one with the same carried card
    dominates it (``_dominates``); the children it dominates are dropped, the last
    child moving into each one's place. Only the fields the walk compares are
    written (``_refill_outcomes`` makes the kept ones whole). Returns the
    children's count and where the terminal child (``best_end``) now is."""
    j = 0
    while j < n:
        if not terminal[d, j] and kids[d, j, P_R0] == carried:
            if _dominates(kids[d, j, P_HP], kids[d, j, P_W], kids[d, j, P_CAP], hp, wv, cap):
                return n, best_end
            if _dominates(hp, wv, cap, kids[d, j, P_HP], kids[d, j, P_W], kids[d, j, P_CAP]):
                # Drop kids[j]: move the last child into its place.
                n -= 1
                if n != j:
                    kids[d, j, P_R0] = kids[d, n, P_R0]
                    kids[d, j, P_HP] = kids[d, n, P_HP]
                    kids[d, j, P_W] = kids[d, n, P_W]
                    kids[d, j, P_CAP] = kids[d, n, P_CAP]
                    bound[d, j] = bound[d, n]
                    move[d, j] = move[d, n]
                    terminal[d, j] = terminal[d, n]
                    if best_end == n:
                        best_end = j
                continue
        j += 1
    kids[d, n, P_R0] = carried
    kids[d, n, P_HP] = hp
    kids[d, n, P_W] = wv
    kids[d, n, P_CAP] = cap
    bound[d, n] = b
    move[d, n] = here
    terminal[d, n] = False
    return n + 1, best_end


@jit_inline
def _refill_outcomes(row: np.ndarray, kids: np.ndarray, terminal: np.ndarray, d: int, n: int,
                     top: np.ndarray, deal: int, rem_dungeon: int) -> None:
    """Make the kept room outcomes of depth ``d`` whole positions: the refilled room
    (the carried card, then ``deal`` cards off the dungeon) and the dungeon left,
    built once in ``top`` and shared by them all."""
    for f in range(NP):
        top[f] = row[f]
    for j in range(deal):
        top[P_R0 + 1 + j] = dungeon_type(row, j)
    for j in range(1 + deal, ROOM_SIZE):
        top[P_R0 + j] = 0
    drop_top(top, deal)
    for i in range(n):
        if terminal[d, i]:
            continue
        carried = kids[d, i, P_R0]
        hp = kids[d, i, P_HP]
        wv = kids[d, i, P_W]
        cap = kids[d, i, P_CAP]
        for f in range(NP):
            kids[d, i, f] = top[f]
        kids[d, i, P_R0] = carried
        kids[d, i, P_NR] = 1 + deal
        kids[d, i, P_REM] = rem_dungeon + REM_BIT[carried]
        kids[d, i, P_HP] = hp
        kids[d, i, P_W] = wv
        kids[d, i, P_CAP] = cap
        kids[d, i, P_PU] = 0
        kids[d, i, P_RES] = 0
        kids[d, i, P_FLED] = 0


@jit_inline
def room_children(row: np.ndarray, kids: np.ndarray, bound: np.ndarray, move: np.ndarray,
                  terminal: np.ndarray, d: int, flee_rule: int, equal: int, stack: np.ndarray,
                  pick: np.ndarray, alpha: int) -> tuple[int, int]:
    """The room's outcomes: every way to play it to its end (refill or end of game),
    written as the children of depth ``d`` (``kids[d]``, ``bound[d]``, ...: the
    search's arrays are indexed, not sliced, since a slice costs numba two
    atomic reference count updates).

    Cards are resolved until the room is refilled (three resolved) or the game
    ends; the intermediate positions are not searched. Outcomes of the same room
    share the dungeon and differ only in the card carried over, health and
    weapon: among those with the same carried card only the undominated ones are
    kept (``_keep_outcome``). Of the endings (death or the last card), only the
    best is kept (``_keep_ending``). Flee runs are added by ``_add_flee_runs``.

    An outcome, or a partly played room, whose bound is at most ``alpha``
    cannot lift the search above ``alpha``: it is dropped (with all the walk
    below it), and the largest such bound is returned so the
    caller's fail-soft result still bounds its value. Returns (the count, that
    largest dropped bound or NEG_INF).

    The walk is depth first over the card moves of each level (``pick[level]``,
    ``_card_moves``), skipping the orders ``_skipped_order`` names, and follows
    the rules of ``_resolve`` on the few fields a room changes (``W_*``), not on
    whole positions: an outcome is first written as its carried card, health and
    weapon, compared for dominance, and only the kept ones are made whole
    positions at the end (``_refill_outcomes``: they share the refilled dungeon,
    computed once). The children, their order and their moves are those of
    resolving card by card with ``_resolve`` (``step_children``); a test checks
    them against ``scoundrel_core``.
    """
    n = 0
    best_end = -1
    dropped = NEG_INF
    nr0 = row[P_NR]
    nd = row[P_ND]
    all_monsters = monsters_left(row[P_REM])
    # What every refilled outcome shares: the cards of the dungeon, without the
    # room, and the next cards dealt.
    rem_dungeon = row[P_REM]
    for i in range(nr0):
        rem_dungeon -= REM_BIT[row[P_R0 + i]]
    d_weak, d_strong = monster_span(rem_dungeon)
    deal = 0  # the cards a refill draws: the same for every outcome of the room
    cards = stack[SLOTS]
    _walk_start(row, stack, pick)
    level = 0
    while level >= 0:
        moves = pick[level]
        if moves == 0:
            level -= 1
            continue
        c = FIRST_BIT[moves]
        pick[level] = moves & (moves - 1)
        slot = c >> 1
        with_weapon = c & 1
        t = cards[slot]
        kind = KIND[t]
        v = VALUE[t]
        if _skipped_order(stack, level, kind, t, v, with_weapon):
            continue
        here = stack[level, W_CODE] | ((2 * t + with_weapon + 1) << (SUB_BITS * level))
        # Resolve the card (as _resolve does).
        hp, wv, cap, pu, res, ending, draw = resolve_card_reach(
            kind, v, with_weapon, stack[level, W_HP], stack[level, W_W], stack[level, W_CAP],
            stack[level, W_PU], stack[level, W_RES], nr0 - level - 1, nd, equal)
        killed = stack[level, W_KILLED] + (v if kind == KIND_MONSTER else 0)
        used = stack[level, W_USED] | (1 << slot)
        if ending != GOES_ON:
            value = (death_score(hp, all_monsters - killed) if ending == LOST
                     else win_score(hp, kind, v))
            n, best_end = _keep_ending(bound, move, terminal, d, n, best_end, value, here)
            continue
        if not draw:
            # The room goes on: resolve another card of it, unless nothing
            # after this card can beat alpha.
            rem = stack[level, W_REM] - REM_BIT[t]
            b = upper_bound(rem, hp, wv, cap, equal)
            if b <= alpha:
                if b > dropped:
                    dropped = b
                continue
            level += 1
            _walk_deeper(stack, pick, nr0, level, rem, hp, wv, cap, pu, used, res, killed, here)
            continue
        # The room is refilled: an outcome.
        deal = draw
        carried = _carried_card(row, used)
        wv, cap = _outcome_weapon(carried, d_weak, d_strong, wv, cap)
        b = upper_bound(rem_dungeon + REM_BIT[carried], hp, wv, cap, equal)
        if b <= alpha:
            if b > dropped:
                dropped = b
            continue
        n, best_end = _keep_outcome(kids, bound, move, terminal, d, n, best_end, carried, hp,
                                    wv, cap, b, here)
    if n > (1 if best_end >= 0 else 0):
        _refill_outcomes(row, kids, terminal, d, n, stack[TOP], deal, rem_dungeon)
    if may_flee(row, flee_rule):
        n = _add_flee_runs(row, kids[d], bound[d], move[d], terminal[d], n, flee_rule, equal)
    return n, dropped


# -- keys and the table -------------------------------------------------------------------


@jit_inline
def make_key(row: np.ndarray, keys: np.ndarray, d: int, flee_rule: int) -> None:
    """Write the table key of ``row`` into ``keys[d]``."""
    for j in range(DUNGEON_WORDS):
        keys[d, j] = row[P_D0 + j]
    nr = row[P_NR]
    r0 = row[P_R0]
    r1 = row[P_R0 + 1]
    r2 = row[P_R0 + 2]
    r3 = row[P_R0 + 3]
    fleeable = may_flee(row, flee_rule)
    if not fleeable:
        # Sort the room: its order can no longer matter.
        if r0 > r1:
            r0, r1 = r1, r0
        if r2 > r3:
            r2, r3 = r3, r2
        if r0 > r2:
            r0, r2 = r2, r0
        if r1 > r3:
            r1, r3 = r3, r1
        if r1 > r2:
            r1, r2 = r2, r1
    room = r0 | (r1 << TYPE_BITS) | (r2 << (2 * TYPE_BITS)) | (r3 << (3 * TYPE_BITS))
    potion_in_room = False
    for i in range(nr):
        if KIND[row[P_R0 + i]] == KIND_POTION:
            potion_in_room = True
    pu = row[P_PU] if potion_in_room else 0
    fled = row[P_FLED] if (nr == ROOM_SIZE and row[P_RES] == 0 and row[P_ND] > 0) else 0
    # Health is not in the key: the table keeps bounds for every health (see tt_*).
    keys[d, KEY_WORDS - 1] = (
        room
        | (row[P_W] << 25)
        | (row[P_CAP] << 29)
        | (pu << 33)
        | (fled << 34)
    )


@jit_inline
def key_hash(keys: np.ndarray, d: int) -> np.uint64:
    h = np.uint64(0x9E3779B97F4A7C15)
    for j in range(KEY_WORDS):
        h = (h ^ np.uint64(keys[d, j])) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    h = (h ^ (h >> np.uint64(29))) * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(32))


@jit_inline
def tt_find(keys: np.ndarray, d: int, base: int, t_keys: np.ndarray, t_stamp: np.ndarray,
            stamp: int) -> int:
    for s in range(base, base + BUCKET):
        if t_stamp[s] & STAMP_MASK == stamp:
            same = True
            for j in range(KEY_WORDS):
                if t_keys[s, j] != keys[d, j]:
                    same = False
                    break
            if same:
                return s
    return -1


@jit_inline
def tt_bounds(slot: int, hp: int, t_bounds: np.ndarray) -> tuple[int, int]:
    """Proven (lower, upper) bounds on the value at health ``hp``.

    More health is never worse (the same actions stay legal, health stays at
    least as high at every step, and phi never decreases), so a lower bound
    proven at less health and an upper bound proven at more health also hold.
    """
    low = LOW_NONE
    high = HIGH_NONE
    for h in range(1, hp + 1):
        if t_bounds[slot, LOW, h] > low:
            low = t_bounds[slot, LOW, h]
    for h in range(hp, HEALTHS):
        if t_bounds[slot, HIGH, h] < high:
            high = t_bounds[slot, HIGH, h]
    return int(low), int(high)


@jit_inline
def tt_store(keys: np.ndarray, d: int, base: int, hp: int, value: int, exact: bool, work: int,
             t_keys: np.ndarray, t_bounds: np.ndarray, t_stamp: np.ndarray, stamp: int) -> None:
    slot = tt_find(keys, d, base, t_keys, t_stamp, stamp)
    if slot < 0:
        slot = base
        cheapest = -1
        for s in range(base, base + BUCKET):
            if t_stamp[s] & STAMP_MASK != stamp:
                slot = s
                break
            if cheapest < 0 or t_stamp[s] >> WORK_SHIFT < cheapest:
                cheapest = t_stamp[s] >> WORK_SHIFT
                slot = s
        for j in range(KEY_WORDS):
            t_keys[slot, j] = keys[d, j]
        for h in range(HEALTHS):
            t_bounds[slot, LOW, h] = LOW_NONE
            t_bounds[slot, HIGH, h] = HIGH_NONE
        t_stamp[slot] = stamp
    if exact and value > t_bounds[slot, LOW, hp]:
        t_bounds[slot, LOW, hp] = value
    if value < t_bounds[slot, HIGH, hp]:
        t_bounds[slot, HIGH, hp] = value
    done = min((t_stamp[slot] >> WORK_SHIFT) + work, WORK_MAX)
    t_stamp[slot] = (done << WORK_SHIFT) | stamp


# -- the search ---------------------------------------------------------------------------------


@jit
def _now() -> float:
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@jit_inline
def _sort_children(d: int, n: int, bound: np.ndarray, terminal: np.ndarray, kids: np.ndarray,
                   order: np.ndarray, keyv: np.ndarray, equal: int, move: np.ndarray,
                   flee_last: int) -> None:
    """Children in search order, by insertion sort (n is small): best bound first;
    among equal bounds the most room to spare (phi's reach over the bound), then
    more health. With ``flee_last``, flee runs come after the room outcomes of
    their bound (a second order for ``solve`` to try, see ``_run_easy``). The
    order changes how soon a line is found, never a value."""
    for j in range(n):
        order[d, j] = j
        if terminal[d, j]:
            keyv[j] = bound[d, j] * 8192 + 8191
        else:
            hp = kids[d, j, P_HP]
            spare = phi_reach(kids[d, j, P_REM], hp, kids[d, j, P_W], kids[d, j, P_CAP], equal)
            spare = min(max(spare, 0), 127)
            keyv[j] = bound[d, j] * 8192 + spare * 64 + hp
            if flee_last and move[d, j] & FLEE_MOVE_BIT:
                keyv[j] = bound[d, j] * 8192
    for j in range(1, n):
        x = order[d, j]
        kx = keyv[x]
        i = j - 1
        while i >= 0:
            y = order[d, i]
            if keyv[y] >= kx:
                break
            order[d, i + 1] = y
            i -= 1
        order[d, i + 1] = x


# Steps of the explicit-stack search (numba's cache mishandles recursive functions).
_ENTER = 0
_NEXT = 1
_FINISH = 2
_RETURN = 3


def make_workspace() -> tuple[np.ndarray, ...]:
    """The search's scratch arrays, allocated once and reused by every search.

    (kids, bound, move, terminal, order, keys, frames, stack, pick): children of
    each depth, their bounds, moves, terminal flags and search order, the key of
    each depth, the frame fields (rows FR_*) of each depth, and the positions and
    choices of the walk through one room (``room_children``).
    """
    return (
        np.zeros((MAX_DEPTH, MAX_CHILDREN, NP), np.int64),
        np.zeros((MAX_DEPTH, MAX_CHILDREN), np.int64),
        np.zeros((MAX_DEPTH, MAX_CHILDREN), np.int64),
        np.zeros((MAX_DEPTH, MAX_CHILDREN), np.bool_),
        np.zeros((MAX_DEPTH, MAX_CHILDREN), np.int64),
        np.zeros((MAX_DEPTH, KEY_WORDS), np.int64),
        np.zeros((NFR, MAX_DEPTH), np.int64),
        np.zeros((SLOTS + 1, NP), np.int64),
        np.zeros(MAX_CHILDREN, np.int64),  # also the sort keys of one depth's children
    )


FR_ALPHA = 0  # the window's lower edge at this depth
FR_UB = 1  # what no child can beat
FR_BEST = 2  # best child value so far
FR_NEXT = 3  # next child to search (index into order)
FR_N = 4  # number of children
FR_BASE = 5  # table bucket
FR_NODES = 6  # node count on entry (the subtree's work)
FR_HP = 7  # health (the table keeps bounds per health)
FR_CHILD = 8  # child being searched
NFR = 9


# The search runs without numba's reference counting (``jit_kernel``: the search
# allocates nothing) and the room walk is inlined into it: every row view and every
# array handed to a compiled call otherwise costs an atomic increment and decrement,
# about 12% of the time even after the walk had been written over plain indexes.
# Its steps below are inlined too (``jit_inline``), so naming them costs no call.


@jit_inline
def _limit_reached(g: np.ndarray, deadline: np.ndarray) -> bool:
    """Count a node; whether the node limit or the deadline stops the search
    (``g[G_ABORT]`` then says which). The clock is read every
    ``TIME_CHECK_EVERY`` nodes only."""
    g[G_NODES] += 1
    if g[G_NODES] >= g[G_NEXT_CHECK]:
        g[G_NEXT_CHECK] = min(g[G_NODES] + TIME_CHECK_EVERY, g[G_MAX_NODES])
        if g[G_NODES] >= g[G_MAX_NODES]:
            g[G_ABORT] = 1
            return True
        if g[G_HAS_DEADLINE] and _now() > deadline[0]:
            g[G_ABORT] = 2
            return True
    return False


@jit_inline
def _probe(row: np.ndarray, keys: np.ndarray, d: int, ub: int, alpha: int, bucket_mask: int,
           t_keys: np.ndarray, t_bounds: np.ndarray, t_stamp: np.ndarray, stamp: int,
           flee_rule: int) -> tuple[bool, int, int, int, int]:
    """What the table knows of ``row`` (the node at depth ``d``, its key written into
    ``keys[d]``), searched above ``alpha`` with nothing beating ``ub``.

    Returns (settled, value, ub, alpha, base): ``settled`` when the stored bounds
    answer the question (``value``: at most alpha, or exact); else ``ub`` lowered
    to the stored upper bound and ``alpha`` raised below the stored lower bound
    (only lines reaching it matter). ``base``: the key's table bucket.
    """
    make_key(row, keys, d, flee_rule)
    base = int(np.int64(key_hash(keys, d) & np.uint64(bucket_mask)) * BUCKET)
    slot = tt_find(keys, d, base, t_keys, t_stamp, stamp)
    if slot >= 0:
        low, high = tt_bounds(slot, row[P_HP], t_bounds)
        if high <= alpha or low >= high:
            return True, high, ub, alpha, base
        ub = min(ub, high)
        if low >= ub:
            return True, low, ub, alpha, base  # low <= value <= ub <= low
        if low - 1 > alpha:
            alpha = low - 1
    return False, 0, ub, alpha, base


@jit_inline
def _next_child(d: int, g: np.ndarray, frames: np.ndarray, order: np.ndarray,
                bound: np.ndarray, move: np.ndarray, terminal: np.ndarray, path: np.ndarray,
                best_path: np.ndarray) -> bool:
    """Go on through the children of frame ``d`` in search order: whether one is to be
    searched (it is ``frames[FR_CHILD, d]``, its alpha ``frames[FR_ALPHA, d + 1]``);
    False when the frame is done.

    A terminal child's value is its bound: it is taken at once, and a line
    scoring more than any found so far is kept (``best_path``). Children come
    best bound first, so the first that cannot beat the window ends the frame
    (its bound still bounds the rest), and so does a value reaching the
    frame's bound ``FR_UB``.
    """
    f_alpha = frames[FR_ALPHA]
    f_best = frames[FR_BEST]
    f_next = frames[FR_NEXT]
    while f_next[d] < frames[FR_N, d]:
        j = order[d, f_next[d]]
        f_next[d] += 1
        best = f_best[d]
        a = f_alpha[d] if f_alpha[d] > best else best
        b = bound[d, j]
        if b <= a:
            # Sorted by bound: no child from here on can beat a.
            if b > best:
                f_best[d] = b
            return False
        path[d] = move[d, j]
        if terminal[d, j]:
            if b > g[G_BEST]:
                g[G_BEST] = b
                for i in range(d + 1):
                    best_path[i] = path[i]
                g[G_BEST_LEN] = d + 1
            if b > best:
                f_best[d] = b
                if b >= frames[FR_UB, d]:
                    return False
            continue
        frames[FR_CHILD, d] = j
        f_alpha[d + 1] = a
        return True
    return False


@jit_inline
def _take_value(d: int, value: int, frames: np.ndarray) -> bool:
    """Hand a child's value to frame ``d``; whether the frame is done (nothing can beat
    its bound ``FR_UB`` any more)."""
    if value > frames[FR_BEST, d]:
        frames[FR_BEST, d] = value
        return bool(value >= frames[FR_UB, d])
    return False


@jit_kernel
def run_search(root: np.ndarray, alpha: int, g: np.ndarray, deadline: np.ndarray,
               path: np.ndarray, best_path: np.ndarray, t_keys: np.ndarray,
               t_bounds: np.ndarray, t_stamp: np.ndarray, kids: np.ndarray, bound: np.ndarray,
               move: np.ndarray, terminal: np.ndarray, order: np.ndarray, keys: np.ndarray,
               frames: np.ndarray, stack: np.ndarray, pick: np.ndarray) -> int:
    """Search from ``root``: its value if > alpha (exact), else an upper bound <= alpha.

    Returns NEG_INF when a limit stopped the search (``g[G_ABORT]`` says which).
    Depth-first with an explicit stack; frame ``d`` (column ``d`` of the ``FR_*``
    rows of ``frames``) holds the position at depth ``d`` (the root, or child
    ``FR_CHILD`` of depth ``d - 1``). A frame is entered (``_ENTER``: settled at
    once by its bound or the table, or its children made and sorted), steps
    through its children (``_NEXT``), stores its result in the table
    (``_FINISH``) and hands it to its parent (``_RETURN``).
    """
    f_alpha = frames[FR_ALPHA]
    child = frames[FR_CHILD]
    equal = g[G_EQUAL]
    flee_rule = g[G_FLEE_RULE]
    flee_last = g[G_FLEE_LAST]
    stamp = g[G_STAMP]
    d = 0
    f_alpha[0] = alpha
    ret = NEG_INF
    step = _ENTER
    while True:
        if step == _ENTER:
            row = root if d == 0 else kids[d - 1, child[d - 1]]
            if _limit_reached(g, deadline):
                return NEG_INF
            if d == 0:
                ub = upper_bound(row[P_REM], row[P_HP], row[P_W], row[P_CAP], equal)
            else:
                ub = bound[d - 1, child[d - 1]]  # computed when the child was made
            if ub > g[G_BETA]:
                ub = g[G_BETA]
            if ub <= f_alpha[d]:
                ret = ub
                step = _RETURN
                continue
            settled, ret, ub, a0, base = _probe(row, keys, d, ub, f_alpha[d], g[G_BUCKET_MASK],
                                                t_keys, t_bounds, t_stamp, stamp, flee_rule)
            if settled:
                step = _RETURN
                continue
            f_alpha[d] = a0
            frames[FR_UB, d] = ub
            frames[FR_HP, d] = row[P_HP]
            frames[FR_BASE, d] = base
            frames[FR_NODES, d] = g[G_NODES]
            n, dropped = room_children(row, kids, bound, move, terminal, d, flee_rule,
                                       equal, stack, pick, a0)
            _sort_children(d, n, bound, terminal, kids, order, pick, equal, move, flee_last)
            frames[FR_N, d] = n
            frames[FR_NEXT, d] = 0
            frames[FR_BEST, d] = dropped  # <= a0: bounds the outcomes dropped for it
            step = _NEXT
        elif step == _NEXT:
            if _next_child(d, g, frames, order, bound, move, terminal, path, best_path):
                d += 1
                step = _ENTER
            else:
                step = _FINISH
        elif step == _FINISH:
            best = frames[FR_BEST, d]
            tt_store(keys, d, frames[FR_BASE, d], frames[FR_HP, d], best, best > f_alpha[d],
                     g[G_NODES] - frames[FR_NODES, d], t_keys, t_bounds, t_stamp, stamp)
            ret = best
            step = _RETURN
        else:  # _RETURN: hand ret to the parent frame
            if d == 0:
                return ret
            d -= 1
            step = _FINISH if _take_value(d, ret, frames) else _NEXT
