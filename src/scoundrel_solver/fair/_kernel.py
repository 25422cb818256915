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
choosing, but every non-flee action has a value independent of the order
(after one card is resolved the room can no longer be fled, and the next
room's order is the carried card then fresh draws). So the exact value of a
fresh room is the average over its distinct orders of max(flee value for that
order, best non-flee value): a decision frame computes the non-flee part once,
then averages over the orders. That is the same number as enumerating ordered
draws, at a fraction of the cost (checked against an ordered, card-by-card
twin in the tests). Distinct orders of a multiset are equally likely, each
standing for the same number of permutations, so a plain average is right.
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
_KEY = types.UniTuple(types.int64, 2)  # type: ignore[no-untyped-call]
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
    return float(
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
    return int(x)


@njit(cache=True)
def pack_counts(cnt: np.ndarray) -> int:
    x = np.int64(0)
    for t in range(NTYPES):
        if t < MONSTERS:
            x = (x << np.int64(2)) | np.int64(cnt[t])
        else:
            x = (x << np.int64(1)) | np.int64(cnt[t])
    return int(x)


OP_DECIDE = 0
OP_DRAW = 1


@njit(cache=True)
def can_flee(u: int, bpos: np.ndarray, rn: int, res: int, fled: int, cfg: np.ndarray) -> bool:
    if cfg[0] == 2:
        return False
    if rn != 4 or res != 0 or u + bpos[1] - bpos[0] == 0:
        return False
    return cfg[0] == 1 or fled == 0


@njit(cache=True)
def step(
    cnt: np.ndarray,
    u: int,
    bot: np.ndarray,
    bpos: np.ndarray,
    room: int,
    rn: int,
    h: int,
    w: int,
    lk: int,
    pu: int,
    res: int,
    slot: int,
    mode: int,
) -> tuple[int, float, int, int, int, int, int, int, int]:
    """Resolve room[slot] (mode 0) or fight it with the weapon (mode 1).

    Returns (what, score, room, rn, h, w, lk, pu, need): ``what`` is 0 when the
    game ends with ``score``, 1 when the player decides again in the room, 2
    when ``need`` cards are drawn first (a refill).
    """
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
        score = float(h2 - monsters_left(cnt, bot, bpos, nroom, nrn))
        return 0, score, nroom, nrn, h2, w2, lk2, pu2, 0
    if nrn == 0 and dsize == 0:
        bonus = val if kind == 2 and h2 == 20 else 0
        return 0, float(h2 + bonus), nroom, nrn, h2, w2, lk2, pu2, 0
    if res + 1 == 3 and dsize > 0:
        return 2, 0.0, nroom, nrn, h2, w2, lk2, 0, min(4 - nrn, dsize)
    return 1, 0.0, nroom, nrn, h2, w2, lk2, pu2, 0


@njit(cache=True)
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
    for k in range(4):
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
            out |= room_get(room, rlo + item) << (5 * k)
        else:
            out |= room_get(room, k) << (5 * k)
    return out


# frame fields of the explicit stack (the search is iterative: numba's cache
# does not handle recursive functions reliably)
F_OP = 0
F_U = 1
F_ROOM = 2
F_RN = 3
F_RLO = 4
F_RHI = 5
F_H = 6
F_W = 7
F_LK = 8
F_PU = 9
F_RES = 10
F_FLED = 11
F_NEED = 12
F_DEPTH = 13
F_IT = 14
F_PEND = 15
F_HI = 16
F_COUNT = 17
F_LEVEL = 18
F_T = 19
F_PICK = 20  # 20..23
F_BPOS0 = 24
F_K1 = 25
F_K2 = 26
F_LEAVES = 27
NFIELDS = 28
MAX_FRAMES = 256

PEND_MAX = 0
PEND_FLEE = 1
PEND_WEIGHTED = 2
PEND_PLAIN = 3
IT_FLEE = 100


@njit(cache=True)
def _push(
    fi: np.ndarray,
    ff: np.ndarray,
    sp: int,
    op: int,
    u: int,
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
    need: int,
    depth: int,
) -> int:
    if sp >= MAX_FRAMES:
        raise ValueError("search stack overflow")
    fi[sp, :] = 0
    fi[sp, F_OP] = op
    fi[sp, F_U] = u
    fi[sp, F_ROOM] = room
    fi[sp, F_RN] = rn
    fi[sp, F_RLO] = rlo
    fi[sp, F_RHI] = rhi
    fi[sp, F_H] = h
    fi[sp, F_W] = w
    fi[sp, F_LK] = lk
    fi[sp, F_PU] = pu
    fi[sp, F_RES] = res
    fi[sp, F_FLED] = fled
    fi[sp, F_NEED] = need
    fi[sp, F_DEPTH] = depth
    ff[sp, 0] = NEG
    ff[sp, 1] = 0.0
    ff[sp, 2] = 0.0
    return sp + 1


@njit(cache=True)
def run(
    op: int,
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
    need: int,
    depth: int,
    cfg: np.ndarray,
    par: np.ndarray,
    stats: np.ndarray,
    memo: Dict,
    fi: np.ndarray,
    ff: np.ndarray,
    done: np.ndarray,
    saved: np.ndarray,
) -> float:
    """Expectimax value of a node, by an explicit-stack depth-first search.

    OP_DECIDE: the player to move in the room (the best action's value).
    OP_DRAW: ``need`` cards are drawn onto the room (a refill, or a fresh room
    after a flee when ``fled``), then play goes on (the expected value).
    ``cnt``, ``bot`` and ``bpos`` are restored on return.
    """
    sp = _push(fi, ff, 0, op, u, room, rn, rlo, rhi, h, w, lk, pu, res, fled, need, depth)
    ret = 0.0
    has_ret = False
    while sp > 0:
        f = sp - 1
        u = fi[f, F_U]
        room = fi[f, F_ROOM]
        rn = fi[f, F_RN]
        h = fi[f, F_H]
        w = fi[f, F_W]
        lk = fi[f, F_LK]
        depth = fi[f, F_DEPTH]
        if fi[f, F_OP] == OP_DECIDE:
            if has_ret:
                has_ret = False
                if fi[f, F_PEND] == PEND_MAX:
                    if ret > ff[f, 0]:
                        ff[f, 0] = ret
                else:
                    # the player sees this order before choosing: max inside the average
                    ff[f, 1] += max(ret, ff[f, 0])
                    bpos[1] = fi[f, F_HI]
            pushed = False
            reach = reach_of(w, lk, cfg[1])
            while fi[f, F_IT] < 2 * rn:
                it = fi[f, F_IT]
                fi[f, F_IT] = it + 1
                i = it >> 1
                mode = it & 1
                t = room_get(room, i)
                dup = False
                for j in range(i):
                    if room_get(room, j) == t:
                        dup = True
                if dup:
                    continue
                if mode == 1 and not (t < MONSTERS and type_value(t) <= reach):
                    continue
                what, score, r2, n2, h2, w2, lk2, pu2, nd = step(
                    cnt, u, bot, bpos, room, rn, h, w, lk, fi[f, F_PU], fi[f, F_RES], i, mode
                )
                if what == 0:
                    if score > ff[f, 0]:
                        ff[f, 0] = score
                    continue
                fi[f, F_PEND] = PEND_MAX
                if what == 1:
                    sp = _push(
                        fi, ff, sp, OP_DECIDE, u, r2, n2, 0, 0, h2, w2, lk2, pu2,
                        fi[f, F_RES] + 1, 0, 0, depth,
                    )
                else:
                    sp = _push(
                        fi, ff, sp, OP_DRAW, u, r2, n2, 0, 0, h2, w2, lk2, 0, 0, 0, nd, depth
                    )
                pushed = True
                break
            if pushed:
                continue
            if fi[f, F_IT] < IT_FLEE:
                if not can_flee(u, bpos, rn, fi[f, F_RES], fi[f, F_FLED], cfg):
                    fi[f, F_IT] = IT_FLEE + 1000
                else:
                    fi[f, F_IT] = IT_FLEE
                    fi[f, F_HI] = bpos[1]
            # flee: the room goes under the dungeon, in each unknown order of room[rlo:rhi]
            while fi[f, F_IT] < IT_FLEE + 1000:
                code = fi[f, F_IT] - IT_FLEE
                seq = perm_sequence(room, fi[f, F_RLO], fi[f, F_RHI], code)
                if seq < 0:
                    fi[f, F_IT] = IT_FLEE + 1000
                    break
                fi[f, F_IT] += 1
                count = fi[f, F_COUNT]
                dup = False
                for j in range(count):
                    if done[f, j] == seq:
                        dup = True
                if dup:
                    continue
                done[f, count] = seq
                fi[f, F_COUNT] = count + 1
                hi = fi[f, F_HI]
                for k in range(4):
                    bot[hi + k] = room_get(seq, k)
                bpos[1] = hi + 4
                fi[f, F_PEND] = PEND_FLEE
                sp = _push(fi, ff, sp, OP_DRAW, u, 0, 0, 0, 0, h, w, lk, 0, 0, 1, 4, depth)
                pushed = True
                break
            if pushed:
                continue
            v = ff[f, 0]
            if fi[f, F_COUNT] > 0:
                v = ff[f, 1] / fi[f, F_COUNT]
            stats[0] += 1
            sp -= 1
            ret = v
            has_ret = True
            continue

        # OP_DRAW
        need = fi[f, F_NEED]
        it = fi[f, F_IT]
        if it == 0:
            if depth <= 0:
                stats[1] += 1
                ret = leaf(cnt, bot, bpos, room, rn, h, w, lk, cfg[1], par)
                has_ret = True
                sp -= 1
                continue
            k1 = pack_counts(cnt) | (np.int64(h) << 44) | (np.int64(w) << 49)
            k1 |= (np.int64(lk) << 53) | (np.int64(fi[f, F_FLED]) << 57)
            k2 = bottom_hash(bot, bpos) * np.int64(1000003) + np.int64(room * 8 + rn)
            k2 = k2 * np.int64(131) + np.int64(depth * 8 + need)
            key = (k1, k2)
            if key in memo:
                v = memo[key]
                if v > INEXACT / 2:
                    stats[1] += 1
                    v -= INEXACT
                ret = v
                has_ret = True
                sp -= 1
                continue
            fi[f, F_K1] = k1
            fi[f, F_K2] = k2
            fi[f, F_LEAVES] = stats[1]
            for t in range(NTYPES):
                saved[f, t] = cnt[t]
            if u >= need:
                fi[f, F_IT] = 1
                it = 1
                ff[f, 1] = 0.0
            else:
                # every unseen card comes up (in random order), then the top of the bottom
                nroom = room
                nrn = rn
                for t in range(NTYPES):
                    for _ in range(cnt[t]):
                        nroom |= t << (5 * nrn)
                        nrn += 1
                    cnt[t] = 0
                rhi2 = nrn
                fi[f, F_BPOS0] = bpos[0]
                for _ in range(need - u):
                    nroom |= bot[bpos[0]] << (5 * nrn)
                    nrn += 1
                    bpos[0] += 1
                fi[f, F_IT] = 2
                fi[f, F_PEND] = PEND_PLAIN
                sp = _push(
                    fi, ff, sp, OP_DECIDE, 0, nroom, nrn, rn, rhi2, h, w, lk, 0, 0,
                    fi[f, F_FLED], 0, depth - 1,
                )
                continue
        value = 0.0
        finished = False
        if it == 2:
            has_ret = False
            value = ret
            for t in range(NTYPES):
                cnt[t] = saved[f, t]
            bpos[0] = fi[f, F_BPOS0]
            finished = True
        else:
            # odometer over the multisets of ``need`` unseen cards, types non-decreasing
            level = fi[f, F_LEVEL]
            t = fi[f, F_T]
            if has_ret:
                has_ret = False
                ff[f, 1] += ff[f, 2] * ret
                level -= 1
                cnt[fi[f, F_PICK + level]] += 1
                t = fi[f, F_PICK + level] + 1
            while True:
                if level == need:
                    weight = 1.0
                    run_len = 0
                    nroom = room
                    for i in range(need):
                        p = fi[f, F_PICK + i]
                        if i > 0 and p == fi[f, F_PICK + i - 1]:
                            run_len += 1
                        else:
                            run_len = 1
                        weight *= (saved[f, p] - run_len + 1) / run_len
                        nroom |= p << (5 * (rn + i))
                    ff[f, 2] = weight
                    fi[f, F_LEVEL] = level
                    fi[f, F_T] = t
                    fi[f, F_PEND] = PEND_WEIGHTED
                    sp = _push(
                        fi, ff, sp, OP_DECIDE, u - need, nroom, rn + need, rn, rn + need,
                        h, w, lk, 0, 0, fi[f, F_FLED], 0, depth - 1,
                    )
                    break
                while t < NTYPES and cnt[t] == 0:
                    t += 1
                if t == NTYPES:
                    if level == 0:
                        finished = True
                        break
                    level -= 1
                    cnt[fi[f, F_PICK + level]] += 1
                    t = fi[f, F_PICK + level] + 1
                    continue
                fi[f, F_PICK + level] = t
                cnt[t] -= 1
                level += 1
            if finished:
                ways = 1.0
                for k in range(need):
                    ways = ways * (u - k) / (k + 1)
                value = ff[f, 1] / ways
        if finished:
            key = (fi[f, F_K1], fi[f, F_K2])
            memo[key] = value + (INEXACT if stats[1] > fi[f, F_LEAVES] else 0.0)
            sp -= 1
            ret = value
            has_ret = True
    return ret


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
    """Value every root action: resolve room[slot] (mode 0), with the weapon (1), flee (2).

    The room order is seen at the root. ``memo`` may be kept between searches
    with the same ``cfg`` and ``par``: its keys hold everything a chance node's
    value depends on.
    """
    fi = np.zeros((MAX_FRAMES, NFIELDS), np.int64)
    ff = np.zeros((MAX_FRAMES, 3), np.float64)
    done = np.zeros((MAX_FRAMES, 24), np.int64)
    saved = np.zeros((MAX_FRAMES, NTYPES), np.int64)
    bpos = np.zeros(2, np.int64)
    bpos[1] = nbot
    u = 0
    for t in range(NTYPES):
        u += cnt[t]
    for a in range(slots.shape[0]):
        leaves0 = stats[1]
        if modes[a] == 2:
            for k in range(rn):
                bot[nbot + k] = room_get(room, k)
            bpos[1] = nbot + rn
            v = run(
                OP_DRAW, cnt, u, bot, bpos, 0, 0, 0, 0, h, w, lk, 0, 0, 1, 4, depth,
                cfg, par, stats, memo, fi, ff, done, saved,
            )
            bpos[1] = nbot
        else:
            what, score, r2, n2, h2, w2, lk2, pu2, nd = step(
                cnt, u, bot, bpos, room, rn, h, w, lk, pu, res, slots[a], modes[a]
            )
            if what == 0:
                v = score
            elif what == 1:
                v = run(
                    OP_DECIDE, cnt, u, bot, bpos, r2, n2, 0, 0, h2, w2, lk2, pu2, res + 1,
                    0, 0, depth, cfg, par, stats, memo, fi, ff, done, saved,
                )
            else:
                v = run(
                    OP_DRAW, cnt, u, bot, bpos, r2, n2, 0, 0, h2, w2, lk2, 0, 0, 0, nd,
                    depth, cfg, par, stats, memo, fi, ff, done, saved,
                )
        out[a] = v
        exact[a] = 1 if stats[1] == leaves0 else 0


def new_memo() -> Dict:
    """An empty memo for ``search_root``."""
    return Dict.empty(key_type=_KEY, value_type=types.float64)
