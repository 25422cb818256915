"""Numba kernels of the fair expectimax search (private: plain integer arrays only).

Card types (two cards of one type are alike for the game)::

    type  0..12   monster 2..14       value = type + 2
    type 13..21   weapon  2..10       value = type - 11
    type 22..30   potion  2..10       value = type - 20

Search state, passed down the recursion (arrays are changed in place and
restored before returning)::

    cnt[31]     how many unseen cards of each type (they lie above the bottom)
    u           sum(cnt)
    bot[], bpos bottom of the dungeon, known order: bot[bpos[0]:bpos[1]], top first
    room, rn    room card types, 5 bits each (room order), and how many
    rlo, rhi    room[rlo:rhi] were drawn unseen and are held in type order: their
                true order is uniformly random (it matters only if the room is fled)
    h, w, lk    health, weapon value (0 none), last kill (0 unused)
    pu, res     potion drunk in this room, cards resolved in this room
    fled        the room was dealt by a flee (classic forbids fleeing it)
    depth       refills (chance nodes) still expanded; at 0 a chance node is
                valued by the leaf evaluation instead

    cfg[0] flee rule (0 classic, 1 easy, 2 hard), cfg[1] equal weapon wear
    par[]  leaf evaluation weights (see ``leaf``)
    stats  [0] decision nodes, [1] leaf evaluations used (0: the value is exact)

Values are expected final scores. Chance nodes are memoised; a memo entry
stores value + INEXACT when its subtree used a leaf evaluation.

Why draws are enumerated as unordered multisets: the order of cards inside a
room matters only if that room is fled (it goes to the bottom in room order).
Given the multiset, every order is equally likely and the player sees it before
choosing, but every non-flee action has a value independent of the order. So
the exact value of a fresh room is the average over the distinct orders of
max(flee value for that order, best non-flee value); ``room_node`` computes the
non-flee part once and ``flee_value`` averages over the orders, which is the
same number as enumerating ordered draws (checked against an ordered,
card-by-card reference in the tests).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

NTYPES = 31
MONSTERS = 13
WEAPON0 = 13
POTION0 = 22
INEXACT = 1000.0
NEG = -1.0e9
BOTTOM_CAP = 512
_KEY = types.UniTuple(types.int64, 2)
NPAR = 8


@njit(cache=True)
def type_kind(t: int) -> int:
    if t < WEAPON0:
        return 0
    if t < POTION0:
        return 1
    return 2


@njit(cache=True)
def type_value(t: int) -> int:
    if t < WEAPON0:
        return t + 2
    if t < POTION0:
        return t - 11
    return t - 20


@njit(cache=True)
def room_get(room: int, i: int) -> int:
    return (room >> (5 * i)) & 31


@njit(cache=True)
def room_remove(room: int, rn: int, i: int) -> int:
    out = 0
    j = 0
    for k in range(rn):
        if k != i:
            out |= room_get(room, k) << (5 * j)
            j += 1
    return out


@njit(cache=True)
def reach_of(w: int, lk: int, equal: int) -> int:
    if w == 0:
        return 0
    if lk == 0:
        return 14
    return lk if equal else lk - 1


@njit(cache=True)
def monsters_left(cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, room: int, rn: int) -> int:
    s = 0
    for t in range(MONSTERS):
        s += cnt[t] * (t + 2)
    for k in range(bpos[0], bpos[1]):
        if bot[k] < MONSTERS:
            s += bot[k] + 2
    for i in range(rn):
        t = room_get(room, i)
        if t < MONSTERS:
            s += t + 2
    return s


@njit(cache=True)
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
) -> float:
    """Estimated final score between rooms (see ``scoundrel_solver.fair.leaf``)."""
    msum = 0
    psum = 0
    wsum = 0
    present = 0  # bit v: a monster of value v is in the pool
    for t in range(NTYPES):
        c = cnt[t]
        if c:
            if t < MONSTERS:
                msum += c * (t + 2)
                present |= 1 << (t + 2)
            elif t < POTION0:
                wsum += c * (t - 11)
            else:
                psum += c * (t - 20)
    for k in range(bpos[0], bpos[1] + rn):
        t = bot[k] if k < bpos[1] else room_get(room, k - bpos[1])
        if t < MONSTERS:
            msum += t + 2
            present |= 1 << (t + 2)
        elif t < POTION0:
            wsum += t - 11
        else:
            psum += t - 20
    reach = reach_of(w, lk, equal)
    absorb = 0.0
    kills = 0
    v = reach
    while v >= 2 and kills < par[5]:
        if (present >> v) & 1:
            absorb += min(v, w)
            kills += 1
        v -= 1
    low = par[4] - h
    if low < 0.0:
        low = 0.0
    return (
        h
        + par[0] * psum
        + par[1] * absorb
        + par[2] * wsum
        - msum
        - par[3] * low * low
    )


@njit(cache=True)
def bottom_hash(bot: np.ndarray, bpos: np.ndarray) -> int:
    x = np.int64(bpos[1] - bpos[0])
    for k in range(bpos[0], bpos[1]):
        x = x * np.int64(37) + np.int64(bot[k] + 1)
    return x


@njit(cache=True)
def pack_counts(cnt: np.ndarray) -> int:
    x = np.int64(0)
    for t in range(NTYPES):
        if t < MONSTERS:
            x = (x << np.int64(2)) | np.int64(cnt[t])
        else:
            x = (x << np.int64(1)) | np.int64(cnt[t])
    return x


@njit(cache=True)
def room_node(
    cnt: np.ndarray,
    u: int,
    bot: np.ndarray,
    bpos: np.ndarray,
    room: int,
    rn: int,
    rlo: int,
    rhi: int,
    h: int,
    w: int,
    lk: int,
    pu: int,
    res: int,
    fled: int,
    depth: int,
    cfg: np.ndarray,
    par: np.ndarray,
    stats: np.ndarray,
    memo: Dict,
) -> float:
    """Best expected score at a decision (the player to move in a room)."""
    stats[0] += 1
    best = NEG
    seen = 0
    for i in range(rn):
        t = room_get(room, i)
        if (seen >> t) & 1:
            continue
        seen |= 1 << t
        v = action_value(
            cnt, u, bot, bpos, room, rn, rlo, rhi, h, w, lk, pu, res, fled, depth,
            i, 0, cfg, par, stats, memo,
        )
        if v > best:
            best = v
        if t < MONSTERS and type_value(t) <= reach_of(w, lk, cfg[1]):
            v = action_value(
                cnt, u, bot, bpos, room, rn, rlo, rhi, h, w, lk, pu, res, fled, depth,
                i, 1, cfg, par, stats, memo,
            )
            if v > best:
                best = v
    if can_flee(u, bpos, rn, res, fled, cfg):
        v = action_value(
            cnt, u, bot, bpos, room, rn, rlo, rhi, h, w, lk, pu, res, fled, depth,
            0, 2, cfg, par, stats, memo,
        )
        if v > best:
            best = v
    return best


@njit(cache=True)
def can_flee(u: int, bpos: np.ndarray, rn: int, res: int, fled: int, cfg: np.ndarray) -> bool:
    if cfg[0] == 2:
        return False
    if rn != 4 or res != 0 or u + bpos[1] - bpos[0] == 0:
        return False
    return cfg[0] == 1 or fled == 0


@njit(cache=True)
def action_value(
    cnt: np.ndarray,
    u: int,
    bot: np.ndarray,
    bpos: np.ndarray,
    room: int,
    rn: int,
    rlo: int,
    rhi: int,
    h: int,
    w: int,
    lk: int,
    pu: int,
    res: int,
    fled: int,
    depth: int,
    slot: int,
    mode: int,
    cfg: np.ndarray,
    par: np.ndarray,
    stats: np.ndarray,
    memo: Dict,
) -> float:
    """Value of one action: resolve room[slot] (mode 0), fight it with the weapon (1), flee (2)."""
    if mode == 2:
        return flee_value(cnt, u, bot, bpos, room, rlo, rhi, h, w, lk, depth, cfg, par, stats, memo)
    t = room_get(room, slot)
    val = type_value(t)
    kind = type_kind(t)
    nroom = room_remove(room, rn, slot)
    nrn = rn - 1
    h2, w2, lk2, pu2 = h, w, lk, pu
    if kind == 2:
        if pu == 0:
            h2 = min(20, h + val)
        pu2 = 1
    elif kind == 1:
        w2 = val
        lk2 = 0
    elif mode == 1:
        h2 = h - max(0, val - w)
        lk2 = val
    else:
        h2 = h - val
    dsize = u + bpos[1] - bpos[0]
    if h2 <= 0:
        return float(h2 - monsters_left(cnt, bot, bpos, nroom, nrn))
    if nrn == 0 and dsize == 0:
        bonus = val if kind == 2 and h2 == 20 else 0
        return float(h2 + bonus)
    if res + 1 == 3 and dsize > 0:
        need = min(4 - nrn, dsize)
        return chance(cnt, u, bot, bpos, nroom, nrn, need, h2, w2, lk2, 0, depth, cfg, par, stats, memo)
    return room_node(
        cnt, u, bot, bpos, nroom, nrn, 0, 0, h2, w2, lk2, pu2, res + 1, 0, depth,
        cfg, par, stats, memo,
    )


@njit(cache=True)
def flee_value(
    cnt: np.ndarray,
    u: int,
    bot: np.ndarray,
    bpos: np.ndarray,
    room: int,
    rlo: int,
    rhi: int,
    h: int,
    w: int,
    lk: int,
    depth: int,
    cfg: np.ndarray,
    par: np.ndarray,
    stats: np.ndarray,
    memo: Dict,
) -> float:
    """Flee: the room goes under the dungeon; average over the unknown orders of room[rlo:rhi]."""
    m = rhi - rlo
    hi = bpos[1]
    total = 0.0
    count = 0
    done = np.zeros(24, np.int64)
    ndone = 0
    perm = np.zeros(4, np.int64)
    for code in range(24):
        # the code-th permutation of m items (codes >= m! are skipped)
        fact = 1
        for k in range(2, m + 1):
            fact *= k
        if code >= fact:
            break
        avail = np.arange(4)
        c = code
        for k in range(m):
            f = 1
            for j in range(2, m - k):
                f *= j
            idx = c // f
            c = c % f
            perm[k] = avail[idx]
            for j in range(idx, 3):
                avail[j] = avail[j + 1]
        seq = np.int64(0)
        for k in range(4):
            if rlo <= k < rhi:
                tt = room_get(room, rlo + perm[k - rlo])
            else:
                tt = room_get(room, k)
            bot[hi + k] = tt
            seq = seq * 32 + tt
        dup = False
        for j in range(ndone):
            if done[j] == seq:
                dup = True
        if dup:
            continue
        done[ndone] = seq
        ndone += 1
        bpos[1] = hi + 4
        total += chance(cnt, u, bot, bpos, 0, 0, 4, h, w, lk, 1, depth, cfg, par, stats, memo)
        bpos[1] = hi
        count += 1
    return total / count


@njit(cache=True)
def chance(
    cnt: np.ndarray,
    u: int,
    bot: np.ndarray,
    bpos: np.ndarray,
    room: int,
    rn: int,
    need: int,
    h: int,
    w: int,
    lk: int,
    fled: int,
    depth: int,
    cfg: np.ndarray,
    par: np.ndarray,
    stats: np.ndarray,
    memo: Dict,
) -> float:
    """Expected value of drawing ``need`` cards onto the room, then playing on."""
    if depth <= 0:
        stats[1] += 1
        return leaf(cnt, bot, bpos, room, rn, h, w, lk, cfg[1], par)
    k1 = pack_counts(cnt) | (np.int64(h) << 44) | (np.int64(w) << 49) | (np.int64(lk) << 53)
    k1 |= np.int64(fled) << 57
    k2 = bottom_hash(bot, bpos) * np.int64(1000003) + np.int64(room * 8 + rn)
    k2 = k2 * np.int64(131) + np.int64(depth * 8 + need)
    key = (k1, k2)
    if key in memo:
        v = memo[key]
        if v > INEXACT / 2:
            stats[1] += 1
            return v - INEXACT
        return v
    leaves0 = stats[1]
    if u >= need:
        total = draw_rec(
            0, -1, 0, need, 1.0, cnt, u, bot, bpos, room, rn, rn, h, w, lk, fled, depth,
            cfg, par, stats, memo,
        )
        ways = 1.0
        for k in range(need):
            ways = ways * (u - k) / (k + 1)
        value = total / ways
    else:
        # every unseen card comes up (in random order), then the top of the bottom
        saved = cnt.copy()
        nroom = room
        nrn = rn
        for t in range(NTYPES):
            for _ in range(cnt[t]):
                nroom |= t << (5 * nrn)
                nrn += 1
            cnt[t] = 0
        rhi = nrn
        lo = bpos[0]
        for _ in range(need - u):
            nroom |= bot[bpos[0]] << (5 * nrn)
            nrn += 1
            bpos[0] += 1
        value = room_node(
            cnt, 0, bot, bpos, nroom, nrn, rn, rhi, h, w, lk, 0, 0, fled, depth - 1,
            cfg, par, stats, memo,
        )
        bpos[0] = lo
        for t in range(NTYPES):
            cnt[t] = saved[t]
    memo[key] = value + (INEXACT if stats[1] > leaves0 else 0.0)
    return value


@njit(cache=True)
def draw_rec(
    t0: int,
    last: int,
    same: int,
    need: int,
    weight: float,
    cnt: np.ndarray,
    u: int,
    bot: np.ndarray,
    bpos: np.ndarray,
    room: int,
    rn: int,
    rlo: int,
    h: int,
    w: int,
    lk: int,
    fled: int,
    depth: int,
    cfg: np.ndarray,
    par: np.ndarray,
    stats: np.ndarray,
    memo: Dict,
) -> float:
    """Sum over the multisets of ``need`` more unseen cards of weight * value.

    Types are taken in non-decreasing order; the weight of a multiset is the
    number of card sets it stands for (product of binomials).
    """
    if need == 0:
        return weight * room_node(
            cnt, u, bot, bpos, room, rn, rlo, rn, h, w, lk, 0, 0, fled, depth - 1,
            cfg, par, stats, memo,
        )
    total = 0.0
    for t in range(t0, NTYPES):
        c = cnt[t]
        if c == 0:
            continue
        k = same + 1 if t == last else 1
        mult = c / k
        cnt[t] = c - 1
        total += draw_rec(
            t, t, k, need - 1, weight * mult, cnt, u - 1, bot, bpos,
            room | (t << (5 * rn)), rn + 1, rlo, h, w, lk, fled, depth, cfg, par, stats, memo,
        )
        cnt[t] = c
    return total


@njit(cache=True)
def search_root(
    cnt: np.ndarray,
    bot: np.ndarray,
    nbot: int,
    room: int,
    rn: int,
    h: int,
    w: int,
    lk: int,
    pu: int,
    res: int,
    fled: int,
    depth: int,
    slots: np.ndarray,
    modes: np.ndarray,
    cfg: np.ndarray,
    par: np.ndarray,
    out: np.ndarray,
    exact: np.ndarray,
    stats: np.ndarray,
    memo: Dict,
) -> None:
    """Value every root action (slots/modes); the room order is seen.

    ``memo`` may be kept between searches with the same ``cfg`` and ``par``:
    its keys hold everything a chance node's value depends on.
    """
    bpos = np.zeros(2, np.int64)
    bpos[1] = nbot
    u = 0
    for t in range(NTYPES):
        u += cnt[t]
    for a in range(slots.shape[0]):
        leaves0 = stats[1]
        out[a] = action_value(
            cnt, u, bot, bpos, room, rn, 0, 0, h, w, lk, pu, res, fled, depth,
            slots[a], modes[a], cfg, par, stats, memo,
        )
        exact[a] = 1 if stats[1] == leaves0 else 0


def new_memo() -> Dict:
    """An empty memo for ``search_root``."""
    return Dict.empty(key_type=_KEY, value_type=types.float64)
