"""Numba kernels of the fair expectimax search (private: plain integer arrays only).

Cards are the types of :mod:`scoundrel_core.encoding`. What the player
knows is split between shared arrays, changed in place and restored before a
frame returns, and one row of a frame per node::

    cnt[NTYPES]   how many unseen cards of each type (they lie above the bottom)
    bot, bpos     the known bottom of the dungeon: bot[bpos[0]:bpos[1]], top first
    cfg           CFG_FLEE_RULE (the flee codes of ``scoundrel_core.encoding``),
                  CFG_EQUAL (equal weapon wear)
    par           leaf evaluation weights (``leaf.LEAF_*``)
    stats         ST_DECISIONS: decision nodes; ST_LEAVES: leaf evaluations used
                  (a search that used none is exact)

The row of a frame (``fi[f]``, integer columns ``FI_*``; ``ff[f]``, value
columns ``FV_*``) starts with the node's state, which a child inherits::

    FI_OP              OP_DECIDE (the player chooses in the room) or OP_DRAW
                       (FI_NEED cards are drawn onto the room, then play goes on)
    FI_U               sum(cnt): unseen cards
    FI_ROOM, FI_RN     room card types, TYPE_BITS each (room order), and how many
    FI_RLO, FI_RHI     room[RLO:RHI] were drawn unseen and are held in type order:
                       their true order is uniformly random (it matters only if
                       the room is fled)
    FI_H, FI_W, FI_LK  health, weapon value (0 none), last kill (0 unused)
    FI_PU, FI_RES      potion drunk in this room, cards resolved in this room
    FI_FLED            the room was dealt by a flee (classic forbids fleeing it)
    FI_NEED            cards to draw (draw frames)
    FI_DEPTH           chance nodes still expanded; at 0 a chance node is valued
                       by the leaf evaluation instead. A draw of the last room
                       (every card left comes up: ``_draw_is_free``) neither
                       costs depth nor takes the leaf

and goes on with the frame's own work (``FI_PHASE`` onwards, zero in a new
frame). A child is pushed by copying its parent's state and changing what
differs (``_open_child``). The life of a frame; the top frame works, a child's
value goes back to its parent::

    decision frame
      DECIDE_CARDS --next card move--> child: a decision in the same room, or a
           |                           draw for the refill; FV_BEST = max(values).
           |                           A move that ends the game, or whose refill
           |                           takes the leaf, is valued without a child, and
           |                           so is a last card move of a room before the
           |                           leaf (``_next_card_move``)
           | no card move left: DECIDE_FLEE if the room may be fled, else DONE
           v
      DECIDE_FLEE  --next distinct order of the room--> the room goes under the
           |             bottom, child: a draw (fled); FV_SUM += max(value, FV_BEST)
           v
      DECIDE_DONE  --> pop FV_BEST, or FV_SUM / FI_COUNT if the room was fled

    draw frame
      DRAW_ENTER --depth 0, not free--> pop the leaf evaluation
           |     --in the memo--> pop the memoised value
           +--> DRAW_MULTISETS (enough unseen cards) --next multiset--> child: a
           |        decision, FV_WEIGHT = its count of draws;
           |        FV_SUM += weight * value; none left --> memo, pop FV_SUM / ways
           +--> DRAW_ALL (fewer unseen than needed) --> child: the one decision
                    (every unseen card, then the top of the bottom); memo, pop it

Values are utilities (the final score, plus ``par[LEAF_WIN_BONUS]`` for a won
game), and beside each value the search carries its chance of winning: a game
over is won or not, the leaf gives its win model's estimate, a chance node
averages both with the same weights, and a decision takes the win chance of
the move whose value it takes. So at every node value = expected score +
bonus x win chance, and the root splits the two. Chance nodes are memoised on
everything their value depends on (``_memo_key``); an entry is (value, win
chance) and also says whether its subtree used a leaf evaluation (``_memo_pack``).

Why draws are enumerated as unordered multisets: the order of cards inside a
room matters only if that room is fled (it goes to the bottom in room order).
Given the multiset, every order is equally likely and the player sees it before
choosing, but every non-flee action has a value independent of the order
(after one card is resolved the room can no longer be fled, and the next
room's order is the carried card then fresh draws). So the exact value of a
fresh room is the average over its distinct orders of max(flee value for that
order, best non-flee value): a decision frame computes the non-flee part once,
then averages over the orders. That is the same number as enumerating ordered
draws, at a fraction of the cost (checked against an ordered, card-by-card
twin in the tests). Distinct orders of a multiset are equally likely, each
standing for the same number of permutations, so a plain average is right.
The search keeps an explicit stack (numba's cache does not handle recursive
functions). See docs/solver.md for the whole agent.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.typed import Dict

from scoundrel_core.encoding import (
    KIND_MONSTER,
    KIND_WEAPON,
    NTYPES,
    ROOM_SIZE,
    TYPE_BITS,
    TYPE_MASK,
    UNUSED_REACH,
)
from scoundrel_core.jit import (
    death_score,
    jit,
    jit_inline,
    may_flee,
    refill_draw,
    resolve_card,
    type_kind,
    type_value,
    weapon_reach,
    win_score,
)
from scoundrel_core.steps import LOST, WON

from .leaf import (
    FEAT_ABSORB,
    FEAT_BIAS,
    FEAT_CARDS,
    FEAT_HEALTH,
    FEAT_LOW,
    FEAT_MONSTER_COUNT,
    FEAT_MONSTERS,
    FEAT_POTIONS,
    FEAT_REACH,
    FEAT_TOP_MONSTER,
    FEAT_TOP_WEAPON,
    FEAT_WEAPON,
    FEAT_WEAPONS,
    LEAF_ABSORB,
    LEAF_KILLS,
    LEAF_LOW_HEALTH,
    LEAF_MODEL,
    LEAF_NET,
    LEAF_POTION,
    LEAF_SAFE_HEALTH,
    LEAF_WEAPON,
    LEAF_WIN_BONUS,
    MAX_HIDDEN,
    NET_INPUTS,
    NET_TYPES,
)

NEG = -1.0e9
BOTTOM_CAP = 512
MAX_FRAMES = 256
MAX_ORDERS = 24  # distinct orders of a room of four: at most 4!
_KEY = types.UniTuple(types.int64, 2)  # type: ignore[no-untyped-call]
_ENTRY = types.UniTuple(types.float64, 2)  # type: ignore[no-untyped-call]

CFG_FLEE_RULE = 0
CFG_EQUAL = 1
ST_DECISIONS = 0
ST_LEAVES = 1

# Frame columns: the node's state (copied into a child) ...
FI_OP = 0
FI_U = 1
FI_ROOM = 2
FI_RN = 3
FI_RLO = 4
FI_RHI = 5
FI_H = 6
FI_W = 7
FI_LK = 8
FI_PU = 9
FI_RES = 10
FI_FLED = 11
FI_NEED = 12
FI_DEPTH = 13
# ... and the frame's own work.
FI_WORK = 14
FI_PHASE = 14  # DECIDE_* or DRAW_*
FI_IT = 15  # decision: next card move (2 * slot + with weapon), or next order code
FI_HI = 16  # decision: the bottom's length before a fled room goes under it
FI_COUNT = 17  # decision: distinct orders fled so far (in done[f, :count])
FI_LEVEL = 18  # draw: cards picked in the multiset being built
FI_T = 19  # draw: next type to try at that level
FI_PICK = 20  # draw: the picked types, FI_PICK..FI_PICK+3, non-decreasing
FI_BPOS0 = 24  # draw: bpos[0] before DRAW_ALL took cards off the bottom
FI_K1 = 25  # draw: memo key
FI_K2 = 26
FI_LEAVES = 27  # draw: stats[ST_LEAVES] on entry (the subtree used a leaf if it grew)
FI_FREE = 28  # draw: 1 if it deals the last room (``_draw_is_free``): no depth spent
NFI = 29

FV_BEST = 0  # decision: best card move value (NEG before the first)
FV_SUM = 1  # decision: sum over fled orders; draw: weighted sum over multisets
FV_WEIGHT = 2  # draw: draws of the multiset being searched
FV_BEST_WIN = 3  # the win chance beside FV_BEST
FV_SUM_WIN = 4  # the win chances summed beside FV_SUM
NFV = 5

OP_DECIDE = 0
OP_DRAW = 1

DECIDE_CARDS = 0
DECIDE_FLEE = 1
DECIDE_DONE = 2
DRAW_ENTER = 0
DRAW_MULTISETS = 1
DRAW_ALL = 2

# What resolving a card leads to (``_play_card``). VALUED: the game ends, and the move
# is valued on the spot; LEAF: the refill's draw would take the leaf at once.
VALUED = 0
LEAF = 3
SAME_ROOM = 1
REFILL = 2

# The pool's sums (``pool``, filled by ``_pool_sums``): the unseen cards and the known
# bottom, which every leaf and every death below one draw share. POOL_OK = 0 marks them
# stale; whatever changes cnt, bot or bpos clears it.
POOL_OK = 0
POOL_MONSTERS = 1  # sum of monster values
POOL_POTIONS = 2  # sum of potion values
POOL_WEAPONS = 3  # sum of weapon values
POOL_MONSTER_COUNT = 4
POOL_CARDS = 5
POOL_TOP_WEAPON = 6
POOL_PRESENT = 7  # bit v: a monster of value v is there
POOL_NET_OK = 8  # the win net's row below is up to date (cleared whenever the sums are redone)
POOL_NET = 9  # the win net's hidden units before the room's cards and the player's inputs:
#               their biases plus the pool's counts times their rows (``_net_pool``)
NPOOL = POOL_NET + MAX_HIDDEN
NET_NX = len(NET_INPUTS)
if NET_TYPES != NTYPES or NET_NX != 7:  # ``_net_logit`` reads the pool by type, 7 inputs by name
    raise ImportError("leaf.NET_TYPES / NET_INPUTS no longer match the kernel's win net")

# A memo entry is one number: the value, plus MEMO_INEXACT when its subtree used
# a leaf evaluation (values are final scores, far below MEMO_INEXACT / 2).
MEMO_INEXACT = 1000.0


# -- rooms, weapons, the pool ------------------------------------------------------------


@jit_inline
def room_get(room: int, i: int) -> int:
    return (room >> (TYPE_BITS * i)) & TYPE_MASK


@jit
def room_remove(room: int, rn: int, i: int) -> int:
    out = 0
    j = 0
    for k in range(rn):
        if k != i:
            out |= room_get(room, k) << (TYPE_BITS * j)
            j += 1
    return out


def new_pool() -> np.ndarray:
    """An empty (stale) ``pool`` row: the pool's sums and the win net's row, as floats."""
    return np.zeros(NPOOL, np.float64)


@jit
def _pool_sums(cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, pool: np.ndarray) -> None:
    """Fill ``pool`` from the unseen counts and the known bottom (if stale)."""
    if pool[POOL_OK]:
        return
    pool[POOL_NET_OK] = 0
    msum = 0
    psum = 0
    wsum = 0
    nmon = 0
    npool = 0
    wmax = 0
    present = 0
    for t in range(NTYPES):
        c = cnt[t]
        if c:
            npool += c
            if type_kind(t) == KIND_MONSTER:
                msum += c * type_value(t)
                nmon += c
                present |= 1 << type_value(t)
            elif type_kind(t) == KIND_WEAPON:
                wsum += c * type_value(t)
                wmax = max(wmax, type_value(t))
            else:
                psum += c * type_value(t)
    for k in range(bpos[0], bpos[1]):
        t = bot[k]
        npool += 1
        if type_kind(t) == KIND_MONSTER:
            msum += type_value(t)
            nmon += 1
            present |= 1 << type_value(t)
        elif type_kind(t) == KIND_WEAPON:
            wsum += type_value(t)
            wmax = max(wmax, type_value(t))
        else:
            psum += type_value(t)
    pool[POOL_MONSTERS] = msum
    pool[POOL_POTIONS] = psum
    pool[POOL_WEAPONS] = wsum
    pool[POOL_MONSTER_COUNT] = nmon
    pool[POOL_CARDS] = npool
    pool[POOL_TOP_WEAPON] = wmax
    pool[POOL_PRESENT] = present
    pool[POOL_OK] = 1


@jit_inline
def _monsters_left(cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, room: int, rn: int,
                   pool: np.ndarray) -> int:
    """The monster values left in the dungeon (the pool and the room), from the pool's
    sums: a hard search scores about six deaths for every ten decision nodes."""
    _pool_sums(cnt, bot, bpos, pool)
    s = int(pool[POOL_MONSTERS])
    for i in range(rn):
        t = room_get(room, i)
        if type_kind(t) == KIND_MONSTER:
            s += type_value(t)
    return s


@jit
def leaf(
    cnt: np.ndarray,
    bot: np.ndarray,
    bpos: np.ndarray,
    room: int,
    rn: int,
    h: int,
    w: int,
    lk: int,
    equal: int,
    par: np.ndarray,
) -> tuple[float, float]:
    """Estimated (utility, chance of winning) between rooms (see ``scoundrel_solver.fair.leaf``)."""
    pool = np.zeros(NPOOL, np.float64)
    value, win = _leaf(cnt, bot, bpos, room, rn, h, w, lk, equal, par, pool)
    return float(value), float(win)


@jit
def _leaf(cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, room: int, rn: int, h: int,
          w: int, lk: int, equal: int, par: np.ndarray, pool: np.ndarray) -> tuple[float, float]:
    """``leaf`` with the pool's sums kept in ``pool`` between calls: the leaves under
    one draw differ only in the room's carried card, health and weapon."""
    _pool_sums(cnt, bot, bpos, pool)
    msum = pool[POOL_MONSTERS]
    psum = pool[POOL_POTIONS]
    wsum = pool[POOL_WEAPONS]
    nmon = pool[POOL_MONSTER_COUNT]
    npool = pool[POOL_CARDS] + rn
    wmax = pool[POOL_TOP_WEAPON]
    present = int(pool[POOL_PRESENT])
    for i in range(rn):
        t = room_get(room, i)
        if type_kind(t) == KIND_MONSTER:
            msum += type_value(t)
            nmon += 1
            present |= 1 << type_value(t)
        elif type_kind(t) == KIND_WEAPON:
            wsum += type_value(t)
            wmax = max(wmax, type_value(t))
        else:
            psum += type_value(t)
    reach = weapon_reach(w, lk, equal)
    absorb = 0.0
    kills = 0
    v = reach
    while v >= 2 and kills < par[LEAF_KILLS]:
        if (present >> v) & 1:
            absorb += min(v, w)
            kills += 1
        v -= 1
    mmax = 0
    v = UNUSED_REACH  # the strongest monster there is (an ace)
    while v >= 2 and mmax == 0:
        if (present >> v) & 1:
            mmax = v
        v -= 1
    low = par[LEAF_SAFE_HEALTH] - h
    if low < 0.0:
        low = 0.0
    value = float(
        h
        + par[LEAF_POTION] * psum
        + par[LEAF_ABSORB] * absorb
        + par[LEAF_WEAPON] * wsum
        - msum
        - par[LEAF_LOW_HEALTH] * low * low
    )
    bonus = par[LEAF_WIN_BONUS]
    if par[LEAF_NET] > 0:
        z = _net_logit(cnt, bot, bpos, room, rn, par, pool, h, w, reach, absorb, low * low,
                       mmax, wmax)
        e = 1.0 + np.exp(-z)
        return float(value + bonus / e), 1.0 / e
    m = LEAF_MODEL
    z = (
        par[m + FEAT_BIAS]
        + par[m + FEAT_HEALTH] * h
        + par[m + FEAT_MONSTERS] * msum
        + par[m + FEAT_POTIONS] * psum
        + par[m + FEAT_WEAPONS] * wsum
        + par[m + FEAT_ABSORB] * absorb
        + par[m + FEAT_WEAPON] * w
        + par[m + FEAT_REACH] * reach
        + par[m + FEAT_CARDS] * npool
        + par[m + FEAT_MONSTER_COUNT] * nmon
        + par[m + FEAT_TOP_MONSTER] * mmax
        + par[m + FEAT_TOP_WEAPON] * wmax
        + par[m + FEAT_LOW] * low * low
    )
    e = 1.0 + np.exp(-z)
    if bonus == 0.0:
        return value, 1.0 / e
    return float(value + bonus / e), 1.0 / e


@jit
def _net_pool(cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, par: np.ndarray,
              pool: np.ndarray) -> None:
    """The win net's hidden units over the unseen cards and the known bottom, into
    ``pool[POOL_NET:]`` (once per pool: the leaves under one draw share it)."""
    hidden = int(par[LEAF_NET])
    o = LEAF_NET + 1
    top = o + (NET_TYPES + NET_NX) * hidden
    for j in range(hidden):
        pool[POOL_NET + j] = par[top + j]
    for t in range(NTYPES):
        c = cnt[t]
        if c:
            row = o + t * hidden
            for j in range(hidden):
                pool[POOL_NET + j] += c * par[row + j]
    for k in range(bpos[0], bpos[1]):
        row = o + bot[k] * hidden
        for j in range(hidden):
            pool[POOL_NET + j] += par[row + j]
    pool[POOL_NET_OK] = 1


@jit
def _net_logit(cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, room: int, rn: int,
               par: np.ndarray, pool: np.ndarray, h: float, w: float, reach: float,
               absorb: float, low: float, mmax: float, wmax: float) -> float:
    """The win net's logit (``leaf.net_win_logit``): the pool's row, plus the room's
    cards and the player's inputs (``NET_INPUTS`` order), through ReLU to the output."""
    if not pool[POOL_NET_OK]:
        _net_pool(cnt, bot, bpos, par, pool)
    hidden = int(par[LEAF_NET])
    o = LEAF_NET + 1
    xo = o + NET_TYPES * hidden
    top = xo + NET_NX * hidden
    z = par[top + 2 * hidden]
    for j in range(hidden):
        s = pool[POOL_NET + j]
        for i in range(rn):
            s += par[o + room_get(room, i) * hidden + j]
        s += (h * par[xo + j] + w * par[xo + hidden + j] + reach * par[xo + 2 * hidden + j]
              + absorb * par[xo + 3 * hidden + j] + low * par[xo + 4 * hidden + j]
              + mmax * par[xo + 5 * hidden + j] + wmax * par[xo + 6 * hidden + j])
        if s > 0.0:
            z += par[top + hidden + j] * s
    return float(z)


@jit
def can_flee(u: int, bpos: np.ndarray, rn: int, res: int, fled: int, cfg: np.ndarray) -> bool:
    return bool(may_flee(cfg[CFG_FLEE_RULE], rn, res, u + bpos[1] - bpos[0], fled))


@jit
def perm_sequence(room: int, rlo: int, rhi: int, code: int) -> int:
    """The room (4 cards) with room[rlo:rhi] in its ``code``-th order; -1 past the last order."""
    m = rhi - rlo
    fact = 1
    for k in range(2, m + 1):
        fact *= k
    if code >= fact:
        return -1
    avail = 0x3210  # 4-bit slots of the items not yet placed
    nav = m
    out = 0
    c = code
    for k in range(ROOM_SIZE):
        if rlo <= k < rhi:
            f = 1
            for j in range(2, nav):
                f *= j
            idx = c // f
            c = c % f
            item = (avail >> (4 * idx)) & 15
            low = avail & ((1 << (4 * idx)) - 1)
            avail = low | ((avail >> (4 * (idx + 1))) << (4 * idx))
            nav -= 1
            out |= room_get(room, rlo + item) << (TYPE_BITS * k)
        else:
            out |= room_get(room, k) << (TYPE_BITS * k)
    return out


# -- the memo ---------------------------------------------------------------------------------


@jit
def bottom_hash(bot: np.ndarray, bpos: np.ndarray) -> int:
    x = np.int64(bpos[1] - bpos[0])
    for k in range(bpos[0], bpos[1]):
        x = x * np.int64(37) + np.int64(bot[k])
    return int(x)


@jit
def pack_counts(cnt: np.ndarray) -> int:
    """The unseen counts in 44 bits: two per monster type, one per other type."""
    x = np.int64(0)
    for t in range(1, NTYPES):
        if type_kind(t) == KIND_MONSTER:
            x = (x << np.int64(2)) | np.int64(cnt[t])
        else:
            x = (x << np.int64(1)) | np.int64(cnt[t])
    return int(x)


@jit_inline
def _memo_key(fi: np.ndarray, f: int, cnt: np.ndarray, bot: np.ndarray,
              bpos: np.ndarray) -> tuple[int, int]:
    """Everything a draw frame's value depends on: the unseen cards, health, weapon,
    last kill, fled flag; the bottom, the room so far, depth and cards to draw."""
    k1 = pack_counts(cnt) | (np.int64(fi[f, FI_H]) << 44) | (np.int64(fi[f, FI_W]) << 49)
    k1 |= (np.int64(fi[f, FI_LK]) << 53) | (np.int64(fi[f, FI_FLED]) << 57)
    k2 = bottom_hash(bot, bpos) * np.int64(1000003) + np.int64(fi[f, FI_ROOM] * 8 + fi[f, FI_RN])
    k2 = k2 * np.int64(131) + np.int64(fi[f, FI_DEPTH] * 8 + fi[f, FI_NEED])
    return k1, k2


@jit_inline
def _memo_pack(value: float, win: float, used_leaf: bool) -> tuple[float, float]:
    return value + (MEMO_INEXACT if used_leaf else 0.0), win


@jit_inline
def _memo_unpack(entry: tuple[float, float]) -> tuple[float, float, bool]:
    if entry[0] > MEMO_INEXACT / 2:
        return entry[0] - MEMO_INEXACT, entry[1], True
    return entry[0], entry[1], False


# -- frames ------------------------------------------------------------------------------------


@jit_inline
def _open_child(fi: np.ndarray, ff: np.ndarray, f: int, op: int) -> int:
    """Frame ``f + 1`` as a child of ``f``: the same state, no work done, kind ``op``."""
    c = f + 1
    if c >= MAX_FRAMES:
        raise ValueError("search stack overflow")
    # Element by element: a slice copy costs numba an overlap check and a temporary.
    for j in range(FI_WORK):
        fi[c, j] = fi[f, j]
    for j in range(FI_WORK, NFI):
        fi[c, j] = 0
    fi[c, FI_OP] = op
    ff[c, FV_BEST] = NEG
    ff[c, FV_SUM] = 0.0
    ff[c, FV_WEIGHT] = 0.0
    ff[c, FV_BEST_WIN] = 0.0
    ff[c, FV_SUM_WIN] = 0.0
    return c


@jit_inline
def _play_card(fi: np.ndarray, ff: np.ndarray, f: int, slot: int, with_weapon: int,
               cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray,
               par: np.ndarray, pool: np.ndarray) -> tuple[int, float, float]:
    """Resolve room card ``slot`` of decision ``f`` (a monster: with the weapon or not).

    Returns (VALUED, final score, 1 or 0 for a win) when the game ends. LEAF when the
    refill's draw would take the leaf at once (``run``'s DRAW_ENTER: no depth left,
    and not the last room): the caller values it by ``_leaf`` of the room, health,
    weapon and last kill left in frame ``f + 1``. Most moves of a search end in one
    of the two, and a frame for each cost more than the leaf itself. Else SAME_ROOM
    or REFILL, with frame ``f + 1`` set up as what comes next: a decision in the same
    room, or the refill's draw.
    """
    room = fi[f, FI_ROOM]
    rn = fi[f, FI_RN]
    h = fi[f, FI_H]
    w = fi[f, FI_W]
    lk = fi[f, FI_LK]
    pu = fi[f, FI_PU]
    t = room_get(room, slot)
    val = type_value(t)
    kind = type_kind(t)
    room = room_remove(room, rn, slot)
    rn -= 1
    left = fi[f, FI_U] + bpos[1] - bpos[0]  # cards still in the dungeon
    h, w, lk, pu, res, ending, draw = resolve_card(kind, val, with_weapon, h, w, lk, pu,
                                                   fi[f, FI_RES], rn, left)
    if ending == LOST:
        return VALUED, float(death_score(h, _monsters_left(cnt, bot, bpos, room, rn, pool))), 0.0
    if ending == WON:
        return VALUED, float(win_score(h, kind, val)) + par[LEAF_WIN_BONUS], 1.0
    c = f + 1
    if c >= MAX_FRAMES:
        raise ValueError("search stack overflow")
    fi[c, FI_ROOM] = room
    fi[c, FI_RN] = rn
    fi[c, FI_H] = h
    fi[c, FI_W] = w
    fi[c, FI_LK] = lk
    # not free (``_draw_is_free``): more is left than the refill takes
    if draw and fi[f, FI_DEPTH] <= 0 and left > draw:
        return LEAF, 0.0, 0.0
    c = _open_child(fi, ff, f, OP_DECIDE)
    fi[c, FI_ROOM] = room
    fi[c, FI_RN] = rn
    fi[c, FI_RLO] = 0
    fi[c, FI_RHI] = 0
    fi[c, FI_H] = h
    fi[c, FI_W] = w
    fi[c, FI_LK] = lk
    fi[c, FI_FLED] = 0
    fi[c, FI_PU] = pu
    fi[c, FI_RES] = res
    if draw:
        fi[c, FI_OP] = OP_DRAW
        fi[c, FI_NEED] = draw
        return REFILL, 0.0, 0.0
    return SAME_ROOM, 0.0, 0.0


@jit_inline
def _flee(fi: np.ndarray, ff: np.ndarray, f: int, order: int, bot: np.ndarray,
          bpos: np.ndarray, pool: np.ndarray) -> None:
    """Put decision ``f``'s room, in ``order``, under the bottom (above FI_HI cards);
    frame ``f + 1`` is the draw of the fresh room. The parent resets bpos[1]."""
    pool[POOL_OK] = 0
    hi = fi[f, FI_HI]
    for k in range(ROOM_SIZE):
        bot[hi + k] = room_get(order, k)
    bpos[1] = hi + ROOM_SIZE
    c = _open_child(fi, ff, f, OP_DRAW)
    fi[c, FI_ROOM] = 0
    fi[c, FI_RN] = 0
    fi[c, FI_RLO] = 0
    fi[c, FI_RHI] = 0
    fi[c, FI_PU] = 0
    fi[c, FI_RES] = 0
    fi[c, FI_FLED] = 1
    fi[c, FI_NEED] = ROOM_SIZE


# -- decision frames ------------------------------------------------------------------------------


@jit_inline
def _decision_takes(fi: np.ndarray, ff: np.ndarray, f: int, value: float, win: float,
                    bpos: np.ndarray, pool: np.ndarray) -> None:
    """Decision ``f`` takes the value (and win chance) of the child it pushed last."""
    if fi[f, FI_PHASE] == DECIDE_CARDS:
        if value > ff[f, FV_BEST]:
            ff[f, FV_BEST] = value
            ff[f, FV_BEST_WIN] = win
    else:
        # The player sees this order before choosing: the max is inside the average.
        if value > ff[f, FV_BEST]:
            ff[f, FV_SUM] += value
            ff[f, FV_SUM_WIN] += win
        else:
            ff[f, FV_SUM] += ff[f, FV_BEST]
            ff[f, FV_SUM_WIN] += ff[f, FV_BEST_WIN]
        bpos[1] = fi[f, FI_HI]
        pool[POOL_OK] = 0


@jit_inline
def _card_move_ok(room: int, slot: int, with_weapon: int, reach: int) -> bool:
    """Whether card move (slot, with_weapon) is searched: a legal move, and the first
    slot of its card type (the same type later in the room has the same outcomes)."""
    t = room_get(room, slot)
    for j in range(slot):
        if room_get(room, j) == t:
            return False
    return not with_weapon or (type_kind(t) == KIND_MONSTER and type_value(t) <= reach)


@jit_inline
def _all_valued(fi: np.ndarray, c: int, bpos: np.ndarray) -> bool:
    """Whether ``_play_card`` values every card move of decision ``c`` on the spot: its
    next card ends the room, and the refill's draw takes the leaf (no depth left, and
    more cards left than the refill takes)."""
    left = fi[c, FI_U] + bpos[1] - bpos[0]
    draw = refill_draw(fi[c, FI_RES] + 1, fi[c, FI_RN] - 1, left)
    return bool(draw and fi[c, FI_DEPTH] <= 0 and left > draw)


@jit_inline
def _next_card_move(fi: np.ndarray, ff: np.ndarray, f: int, cnt: np.ndarray, bot: np.ndarray,
                    bpos: np.ndarray, cfg: np.ndarray, par: np.ndarray, stats: np.ndarray,
                    pool: np.ndarray) -> bool:
    """Push decision ``f``'s next card move that is not valued on the spot; False when
    none is left (the phase moves on).

    Valued on the spot: a move that ends the game or takes the leaf (``_play_card``),
    and a move to a decision ``_all_valued``, whose own moves all are: that decision
    (most of a search's decisions: the last card of a room before the leaf) is
    worked here in frame ``f + 1`` without being pushed, its moves in the same order
    as if it had been. One call site each of ``_play_card`` and ``_leaf``: they are
    inlined, and every copy adds to numba's compile time.
    """
    g = f  # the decision whose moves are tried: f, or its valued child f + 1
    reach_f = weapon_reach(fi[f, FI_W], fi[f, FI_LK], cfg[CFG_EQUAL])
    reach = reach_f
    child_move = 0
    child_best = NEG
    child_win = 0.0
    while True:
        if g == f:
            move = fi[f, FI_IT]
            if move >= 2 * fi[f, FI_RN]:
                break
            fi[f, FI_IT] = move + 1
        else:
            move = child_move
            if move >= 2 * fi[g, FI_RN]:
                stats[ST_DECISIONS] += 1  # as ``_decision_value`` counts a pushed one
                if child_best > ff[f, FV_BEST]:
                    ff[f, FV_BEST] = child_best
                    ff[f, FV_BEST_WIN] = child_win
                g = f
                reach = reach_f
                continue
            child_move = move + 1
        slot = move >> 1
        with_weapon = move & 1
        if not _card_move_ok(fi[g, FI_ROOM], slot, with_weapon, reach):
            continue
        outcome, value, win = _play_card(fi, ff, g, slot, with_weapon, cnt, bot, bpos, par, pool)
        if outcome == LEAF:
            c = g + 1
            stats[ST_LEAVES] += 1
            value, win = _leaf(cnt, bot, bpos, fi[c, FI_ROOM], fi[c, FI_RN], fi[c, FI_H],
                               fi[c, FI_W], fi[c, FI_LK], cfg[CFG_EQUAL], par, pool)
            outcome = VALUED
        if g != f:
            if outcome != VALUED:
                raise ValueError("a move of a valued decision pushed a frame")
            if value > child_best:
                child_best = value
                child_win = win
            continue
        if outcome == SAME_ROOM and _all_valued(fi, f + 1, bpos):
            g = f + 1
            reach = weapon_reach(fi[g, FI_W], fi[g, FI_LK], cfg[CFG_EQUAL])
            child_move = 0
            child_best = NEG
            child_win = 0.0
            continue
        if outcome == VALUED:
            if value > ff[f, FV_BEST]:
                ff[f, FV_BEST] = value
                ff[f, FV_BEST_WIN] = win
            continue
        return True
    rn = fi[f, FI_RN]
    if can_flee(fi[f, FI_U], bpos, rn, fi[f, FI_RES], fi[f, FI_FLED], cfg):
        fi[f, FI_PHASE] = DECIDE_FLEE
        fi[f, FI_IT] = 0
        fi[f, FI_HI] = bpos[1]
    else:
        fi[f, FI_PHASE] = DECIDE_DONE
    return False


@jit_inline
def _next_flee_order(fi: np.ndarray, ff: np.ndarray, f: int, bot: np.ndarray, bpos: np.ndarray,
                     done: np.ndarray, pool: np.ndarray) -> bool:
    """Push the flee of decision ``f``'s room in its next distinct order (room[RLO:RHI]
    unknown, so every order of it); False when none is left."""
    while True:
        order = perm_sequence(fi[f, FI_ROOM], fi[f, FI_RLO], fi[f, FI_RHI], fi[f, FI_IT])
        if order < 0:
            fi[f, FI_PHASE] = DECIDE_DONE
            return False
        fi[f, FI_IT] += 1
        count = fi[f, FI_COUNT]
        seen = False
        for j in range(count):
            if done[f, j] == order:
                seen = True  # two cards of a type swapped: the same order
        if seen:
            continue
        done[f, count] = order
        fi[f, FI_COUNT] = count + 1
        _flee(fi, ff, f, order, bot, bpos, pool)
        return True


@jit_inline
def _decision_value(fi: np.ndarray, ff: np.ndarray, f: int,
                    stats: np.ndarray) -> tuple[float, float]:
    stats[ST_DECISIONS] += 1
    if fi[f, FI_COUNT] > 0:
        n = fi[f, FI_COUNT]
        return float(ff[f, FV_SUM] / n), float(ff[f, FV_SUM_WIN] / n)
    return float(ff[f, FV_BEST]), float(ff[f, FV_BEST_WIN])


# -- draw frames ---------------------------------------------------------------------------------


@jit_inline
def _draw_is_free(fi: np.ndarray, f: int, bpos: np.ndarray) -> bool:
    """Draw ``f`` deals the last room: every card left in the dungeon comes up (only
    the order of the unseen ones is open, and the room's decision averages over
    it). Such a draw is not search depth: nothing is left to chance after it, and
    the search below it is one room. (A refill of known cards with more of the
    known bottom behind it still counts: the search of a long known tail has no
    pruning and measured up to 26 s; the agent asks the exact solver when
    nothing is unseen at the root.)"""
    return bool(fi[f, FI_U] + bpos[1] - bpos[0] <= fi[f, FI_NEED])


@jit_inline
def _draw_fresh_room(fi: np.ndarray, ff: np.ndarray, f: int, unseen: int, room: int, rn: int,
                     rlo: int, rhi: int, free: bool) -> None:
    """Frame ``f + 1``: the decision in the room draw ``f`` dealt (``rn`` cards,
    room[rlo:rhi] drawn unseen, in type order), one refill deeper unless the draw
    was free; ``unseen`` cards are still unseen."""
    c = _open_child(fi, ff, f, OP_DECIDE)
    fi[c, FI_U] = unseen
    fi[c, FI_ROOM] = room
    fi[c, FI_RN] = rn
    fi[c, FI_RLO] = rlo
    fi[c, FI_RHI] = rhi
    fi[c, FI_PU] = 0
    fi[c, FI_RES] = 0
    fi[c, FI_NEED] = 0
    fi[c, FI_DEPTH] = fi[f, FI_DEPTH] - (0 if free else 1)


@jit_inline
def _draw_all(fi: np.ndarray, ff: np.ndarray, f: int, cnt: np.ndarray, bot: np.ndarray,
              bpos: np.ndarray, cfg: np.ndarray, pool: np.ndarray) -> None:
    """Fewer unseen cards than draw ``f`` needs: all of them come up (in random
    order), then the top of the known bottom. Pushes the one decision."""
    pool[POOL_OK] = 0
    room = fi[f, FI_ROOM]
    rn = fi[f, FI_RN]
    u = fi[f, FI_U]
    n = rn
    for t in range(NTYPES):
        for _ in range(cnt[t]):
            room |= t << (TYPE_BITS * n)
            n += 1
        cnt[t] = 0
    unseen_end = n
    fi[f, FI_BPOS0] = bpos[0]
    for _ in range(fi[f, FI_NEED] - u):
        room |= bot[bpos[0]] << (TYPE_BITS * n)
        n += 1
        bpos[0] += 1
    fi[f, FI_PHASE] = DRAW_ALL
    _draw_fresh_room(fi, ff, f, 0, room, n, rn, unseen_end, fi[f, FI_FREE] == 1)


@jit_inline
def _next_multiset(fi: np.ndarray, ff: np.ndarray, f: int, cnt: np.ndarray,
                   saved: np.ndarray, returned: bool, value: float, win: float,
                   cfg: np.ndarray, pool: np.ndarray) -> bool:
    """Draw ``f`` takes its last child's value (if ``returned``) and pushes the
    decision after its next multiset of FI_NEED unseen cards; False when none is left.

    An odometer over multisets, types non-decreasing: FI_PICK holds the types
    picked, cnt has them taken out. A multiset's weight is its number of draws,
    prod over its types of C(unseen of the type, picked of it).
    """
    pool[POOL_OK] = 0  # cnt changes here
    need = fi[f, FI_NEED]
    rn = fi[f, FI_RN]
    level = fi[f, FI_LEVEL]
    t = fi[f, FI_T]
    if returned:
        ff[f, FV_SUM] += ff[f, FV_WEIGHT] * value
        ff[f, FV_SUM_WIN] += ff[f, FV_WEIGHT] * win
        level -= 1
        cnt[fi[f, FI_PICK + level]] += 1
        t = fi[f, FI_PICK + level] + 1
    while True:
        if level == need:
            weight = 1.0
            run_len = 0
            room = fi[f, FI_ROOM]
            for i in range(need):
                p = fi[f, FI_PICK + i]
                if i > 0 and p == fi[f, FI_PICK + i - 1]:
                    run_len += 1
                else:
                    run_len = 1
                weight *= (saved[f, p] - run_len + 1) / run_len
                room |= p << (TYPE_BITS * (rn + i))
            ff[f, FV_WEIGHT] = weight
            fi[f, FI_LEVEL] = level
            fi[f, FI_T] = t
            _draw_fresh_room(fi, ff, f, fi[f, FI_U] - need, room, rn + need, rn, rn + need,
                             fi[f, FI_FREE] == 1)
            return True
        while t < NTYPES and cnt[t] == 0:
            t += 1
        if t == NTYPES:
            if level == 0:
                return False
            level -= 1
            cnt[fi[f, FI_PICK + level]] += 1
            t = fi[f, FI_PICK + level] + 1
            continue
        fi[f, FI_PICK + level] = t
        cnt[t] -= 1
        level += 1


@jit_inline
def _multisets_value(fi: np.ndarray, ff: np.ndarray, f: int) -> tuple[float, float]:
    """The expected value and win chance: the weighted sums over C(unseen, need)
    equally likely draws."""
    u = fi[f, FI_U]
    ways = 1.0
    for k in range(fi[f, FI_NEED]):
        ways = ways * (u - k) / (k + 1)
    return float(ff[f, FV_SUM] / ways), float(ff[f, FV_SUM_WIN] / ways)


# -- the search ----------------------------------------------------------------------------------


@jit
def run(
    base: int,
    fi: np.ndarray,
    ff: np.ndarray,
    done: np.ndarray,
    saved: np.ndarray,
    cnt: np.ndarray,
    bot: np.ndarray,
    bpos: np.ndarray,
    cfg: np.ndarray,
    par: np.ndarray,
    stats: np.ndarray,
    memo: Dict,
    pool: np.ndarray,
) -> tuple[float, float]:
    """Expectimax (value, win chance) of the node in frame ``base`` (see the module docstring).

    ``cnt``, ``bot`` and ``bpos`` are restored on return; ``done`` and ``saved``
    are per-frame scratch (fled orders; unseen counts of a draw on entry);
    ``pool`` the pool's sums (``_pool_sums``).
    """
    sp = base + 1
    value = 0.0
    win = 0.0
    returned = False  # a child just popped: the top frame takes ``value`` from it
    while sp > base:
        f = sp - 1
        if fi[f, FI_OP] == OP_DECIDE:
            if returned:
                _decision_takes(fi, ff, f, value, win, bpos, pool)
            returned = False
            if fi[f, FI_PHASE] == DECIDE_CARDS and _next_card_move(
                fi, ff, f, cnt, bot, bpos, cfg, par, stats, pool
            ):
                sp += 1
                continue
            if fi[f, FI_PHASE] == DECIDE_FLEE and _next_flee_order(
                fi, ff, f, bot, bpos, done, pool
            ):
                sp += 1
                continue
            value, win = _decision_value(fi, ff, f, stats)
            sp -= 1
            returned = True
            continue

        phase = fi[f, FI_PHASE]
        if phase == DRAW_ENTER:
            free = _draw_is_free(fi, f, bpos)
            fi[f, FI_FREE] = 1 if free else 0
            if fi[f, FI_DEPTH] <= 0 and not free:
                stats[ST_LEAVES] += 1
                value, win = _leaf(cnt, bot, bpos, fi[f, FI_ROOM], fi[f, FI_RN], fi[f, FI_H],
                                   fi[f, FI_W], fi[f, FI_LK], cfg[CFG_EQUAL], par, pool)
                sp -= 1
                returned = True
                continue
            key = _memo_key(fi, f, cnt, bot, bpos)
            if key in memo:
                value, win, used_leaf = _memo_unpack(memo[key])
                if used_leaf:
                    stats[ST_LEAVES] += 1
                sp -= 1
                returned = True
                continue
            fi[f, FI_K1] = key[0]
            fi[f, FI_K2] = key[1]
            fi[f, FI_LEAVES] = stats[ST_LEAVES]
            for t in range(NTYPES):
                saved[f, t] = cnt[t]
            if fi[f, FI_U] < fi[f, FI_NEED]:
                _draw_all(fi, ff, f, cnt, bot, bpos, cfg, pool)
                sp += 1
                continue
            fi[f, FI_PHASE] = DRAW_MULTISETS
            phase = DRAW_MULTISETS
        if phase == DRAW_MULTISETS:
            if _next_multiset(fi, ff, f, cnt, saved, returned, value, win, cfg, pool):
                returned = False
                sp += 1
                continue
            value, win = _multisets_value(fi, ff, f)
        else:  # DRAW_ALL: the one decision returned
            for t in range(NTYPES):
                cnt[t] = saved[f, t]
            bpos[0] = fi[f, FI_BPOS0]
            pool[POOL_OK] = 0
        used_leaf = stats[ST_LEAVES] > fi[f, FI_LEAVES]
        memo[(fi[f, FI_K1], fi[f, FI_K2])] = _memo_pack(value, win, used_leaf)
        sp -= 1
        returned = True
    return value, win


@jit
def search_root(
    root: np.ndarray,
    cnt: np.ndarray,
    bot: np.ndarray,
    slots: np.ndarray,
    modes: np.ndarray,
    cfg: np.ndarray,
    par: np.ndarray,
    out: np.ndarray,
    out_win: np.ndarray,
    exact: np.ndarray,
    stats: np.ndarray,
    memo: Dict,
) -> None:
    """Value every root action: resolve room[slot] (mode 0), with the weapon (1), flee (2);
    ``out`` gets its value, ``out_win`` its chance of winning, ``exact`` 1 if no leaf was used.

    ``root`` is the decision's frame row (FI_* state columns, FI_HI = the
    bottom's length); the room order is seen at the root. ``memo`` may be
    kept between searches with the same ``cfg`` and ``par``: its keys hold
    everything a chance node's value depends on.
    """
    fi = np.zeros((MAX_FRAMES, NFI), np.int64)
    ff = np.zeros((MAX_FRAMES, NFV), np.float64)
    done = np.zeros((MAX_FRAMES, MAX_ORDERS), np.int64)
    saved = np.zeros((MAX_FRAMES, NTYPES), np.int64)
    pool = np.zeros(NPOOL, np.float64)
    fi[0, :] = root
    nbot = root[FI_HI]
    bpos = np.zeros(2, np.int64)
    bpos[1] = nbot
    for a in range(slots.shape[0]):
        leaves0 = stats[ST_LEAVES]
        if modes[a] == 2:
            _flee(fi, ff, 0, fi[0, FI_ROOM], bot, bpos, pool)
            v, p = run(1, fi, ff, done, saved, cnt, bot, bpos, cfg, par, stats, memo, pool)
            bpos[1] = nbot
            pool[POOL_OK] = 0
        else:
            outcome, v, p = _play_card(fi, ff, 0, slots[a], modes[a], cnt, bot, bpos, par, pool)
            if outcome == LEAF:
                stats[ST_LEAVES] += 1
                v, p = leaf(cnt, bot, bpos, fi[1, FI_ROOM], fi[1, FI_RN], fi[1, FI_H],
                            fi[1, FI_W], fi[1, FI_LK], cfg[CFG_EQUAL], par)
            elif outcome != VALUED:
                v, p = run(1, fi, ff, done, saved, cnt, bot, bpos, cfg, par, stats, memo, pool)
        out[a] = v
        out_win[a] = p
        exact[a] = 1 if stats[ST_LEAVES] == leaves0 else 0


def new_memo() -> Dict:
    """An empty memo for ``search_root``."""
    return Dict.empty(key_type=_KEY, value_type=_ENTRY)
