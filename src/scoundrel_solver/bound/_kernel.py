"""Numba kernels of the bound's fast ``V``: the one-room value and its exact mean after a draw.

``V`` (:func:`one_room`) of a decision is the best, over every way to play the
rest of its room, of the fair agent's leaf win chance at the room's end: where
the room is refilled or fled (the fair agent's leaf win chance, which values
the pool of cards left, health and weapon), 1 for a game won in the room, 0 for one
lost. It looks at the room's cards, so a draw changes it (the agent's leaf
alone does not: a draw moves cards from the dungeon to the room, the same
pool). It never looks at the room's order: the cards resolved are any order of
any of them, and a flee is valued by the leaf of the position as it is (the
pool is the same, whatever order the room goes under in). So ``V`` of a room is
a function of its multiset of cards, and its mean after a draw
(:func:`draw_mean`) enumerates multisets of the unseen card types with their
hypergeometric counts, which is exact.

Cards are the types of :mod:`scoundrel_core.encoding`, in the fair search's
arrays: ``cnt`` the unseen cards by type, ``bot[bpos[0]:bpos[1]]`` the known
bottom (types, top first), ``cfg`` the flee rule and weapon wear (``CFG_*``),
``par`` the leaf's weights and win model (``fair.leaf.config_par``). The leaf's
win chance is restated here (:func:`leaf_win`), term for term in the order the
fair search's kernel sums it, and checked against ``fair.leaf.leaf_estimate``.
When ``par`` holds a win net in place of the logistic model (``par[LEAF_NET]``
hidden units, ``fair.leaf``'s layout), :func:`leaf_win` reads the net, as the fair
search's kernel does: its hidden units over the unseen cards and the bottom once
per decision (:func:`pool_hidden`), the room's cards and the player's inputs at
each room's end (:func:`net_logit`).
The plain-Python twin is :func:`scoundrel_solver.bound.values.one_room_value`.
"""

from __future__ import annotations

import numpy as np

from scoundrel_core.encoding import (
    KIND_MONSTER,
    KIND_WEAPON,
    NTYPES,
    TYPE_BITS,
    TYPE_MASK,
    UNUSED_REACH,
)
from scoundrel_core.jit import (
    jit,
    jit_inline,
    may_flee,
    resolve_card,
    type_kind,
    type_value,
    weapon_reach,
)
from scoundrel_core.steps import LOST, WON

from ..fair.leaf import (
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
    LEAF_KILLS,
    LEAF_MODEL,
    LEAF_NET,
    LEAF_SAFE_HEALTH,
    MAX_HIDDEN,
    NET_INPUTS,
    NET_TYPES,
)

if NET_TYPES != NTYPES or NET_INPUTS != (
        "health", "weapon", "reach", "absorb", "low", "top_monster", "top_weapon"):
    # leaf_win reads the pool by card type and the seven inputs by name
    raise ImportError("fair.leaf.NET_TYPES / NET_INPUTS no longer match the bound's win net")
NET_NX = len(NET_INPUTS)

CFG_FLEE_RULE = 0
CFG_EQUAL = 1
"""``cfg``: the variant's flee rule (the codes of ``scoundrel_core.encoding``) and weapon wear."""
MAX_ROOM_STACK = 8  # a room of four is played in at most four steps
MAX_DRAW = 4  # a draw deals at most a room of four
NSUMS = 7
"""The pool's sums, by ``S_*``: what the leaf reads of the cards left."""
S_MONSTERS = 0  # sum of the monsters' values
S_POTIONS = 1
S_WEAPONS = 2
S_MONSTER_COUNT = 3
S_CARDS = 4
S_TOP_WEAPON = 5
S_PRESENT = 6  # bit v: a monster of value v is there
V_ONE_ROOM = 0
V_ROOM_NET = 1
"""``which`` of :func:`draw_walk`: the ``V`` read at each fresh room, the one-room value
(``par`` the leaf's) or the room net (``par`` its ``rpar``). A flag and a branch rather
than the value as a function argument, which numba compiles slowly. The walk is inlined
into each mean with ``which`` a constant there, so numba drops the other ``V``'s branch:
each mean compiles only what its own ``V`` calls."""


@jit_inline
def room_get(room: int, i: int) -> int:
    return (room >> (TYPE_BITS * i)) & TYPE_MASK


@jit_inline
def room_remove(room: int, rn: int, i: int) -> int:
    out = 0
    j = 0
    for k in range(rn):
        if k != i:
            out |= room_get(room, k) << (TYPE_BITS * j)
            j += 1
    return out


@jit
def pool_sums(cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, sums: np.ndarray) -> None:
    """``sums`` of the unseen cards and the known bottom (the room is added by the leaf)."""
    msum = psum = wsum = nmon = npool = wmax = present = 0
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
    sums[S_MONSTERS] = msum
    sums[S_POTIONS] = psum
    sums[S_WEAPONS] = wsum
    sums[S_MONSTER_COUNT] = nmon
    sums[S_CARDS] = npool
    sums[S_TOP_WEAPON] = wmax
    sums[S_PRESENT] = present


@jit
def pool_hidden(cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, par: np.ndarray,
                hid: np.ndarray) -> None:
    """The win net's hidden units (before ReLU) over the unseen cards and the known
    bottom, biases included, into ``hid`` (nothing without a net: ``par[LEAF_NET]`` 0).
    Once per pool: every room's end under one decision shares it."""
    hidden = int(par[LEAF_NET])
    o = LEAF_NET + 1
    top = o + (NET_TYPES + NET_NX) * hidden
    for j in range(hidden):
        hid[j] = par[top + j]
    add_rest(cnt, bot, bpos, par, o, hidden, hid)


@jit_inline
def add_rest(cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, par: np.ndarray, o: int,
             hidden: int, hid: np.ndarray) -> None:
    """Add to ``hid`` the first layer's weights (rows of ``hidden`` from ``par[o]`` on, one
    per card type) of the unseen cards ``cnt`` and of the bottom ``bot[bpos[0]:bpos[1]]``:
    the rest of the deck, as the win net and the room net both take it in."""
    for t in range(NTYPES):
        c = cnt[t]
        if c:
            for j in range(hidden):
                hid[j] += c * par[o + t * hidden + j]
    for k in range(bpos[0], bpos[1]):
        for j in range(hidden):
            hid[j] += par[o + bot[k] * hidden + j]


@jit
def net_logit(hid: np.ndarray, room: int, rn: int, par: np.ndarray, h: float, w: float,
              reach: float, absorb: float, low: float, mmax: float, wmax: float) -> float:
    """The win net's logit (``fair.leaf.net_win_logit``): the pool's hidden units
    (``hid``), plus the room's cards and the inputs (``NET_INPUTS`` order), through ReLU
    to the output."""
    hidden = int(par[LEAF_NET])
    o = LEAF_NET + 1
    xo = o + NET_TYPES * hidden
    top = xo + NET_NX * hidden
    z = par[top + 2 * hidden]
    for j in range(hidden):
        s = hid[j]
        for i in range(rn):
            s += par[o + room_get(room, i) * hidden + j]
        s += (h * par[xo + j] + w * par[xo + hidden + j] + reach * par[xo + 2 * hidden + j]
              + absorb * par[xo + 3 * hidden + j] + low * par[xo + 4 * hidden + j]
              + mmax * par[xo + 5 * hidden + j] + wmax * par[xo + 6 * hidden + j])
        if s > 0.0:
            z += par[top + hidden + j] * s
    return float(z)


@jit
def leaf_win(sums: np.ndarray, hid: np.ndarray, room: int, rn: int, h: int, w: int, lk: int,
             equal: int, par: np.ndarray) -> float:
    """The leaf's chance of winning between rooms: the win model of ``fair.leaf`` over
    the pool (``sums`` plus the ``rn`` cards of ``room``), health and weapon; or, when
    ``par`` holds a win net (``par[LEAF_NET]`` > 0), the net over the pool's counts by
    type (``hid``: :func:`pool_hidden` of the unseen cards and the bottom, plus the room)
    and the inputs of ``fair.leaf.NET_INPUTS``."""
    msum = sums[S_MONSTERS]
    psum = sums[S_POTIONS]
    wsum = sums[S_WEAPONS]
    nmon = sums[S_MONSTER_COUNT]
    npool = sums[S_CARDS] + rn
    wmax = sums[S_TOP_WEAPON]
    present = sums[S_PRESENT]
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
    if par[LEAF_NET] > 0:
        z = net_logit(hid, room, rn, par, h, w, reach, absorb, low * low, mmax, wmax)
        return float(1.0 / (1.0 + np.exp(-z)))
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
    return float(1.0 / e)


@jit
def one_room(room: int, rn: int, h: int, w: int, lk: int, pu: int, res: int, fled: int,
             cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, cfg: np.ndarray,
             par: np.ndarray, sums: np.ndarray) -> float:
    """``V`` of a decision: the best leaf win chance at the end of its room (see the module).

    Every card move is tried (each card type once: two cards of a type have the
    same outcomes), depth first over the room's positions, with an explicit stack.
    ``sums``: scratch for the pool's sums (``NSUMS``).
    """
    pool_sums(cnt, bot, bpos, sums)
    hid = np.zeros(MAX_HIDDEN, np.float64)
    if par[LEAF_NET] > 0:
        pool_hidden(cnt, bot, bpos, par, hid)
    left = bpos[1] - bpos[0]
    for t in range(NTYPES):
        left += cnt[t]
    equal = cfg[CFG_EQUAL]
    best = -1.0
    if may_flee(cfg[CFG_FLEE_RULE], rn, res, left, fled):
        best = leaf_win(sums, hid, room, rn, h, w, lk, equal, par)
    s_room = np.zeros(MAX_ROOM_STACK, np.int64)
    s_rn = np.zeros(MAX_ROOM_STACK, np.int64)
    s_h = np.zeros(MAX_ROOM_STACK, np.int64)
    s_w = np.zeros(MAX_ROOM_STACK, np.int64)
    s_lk = np.zeros(MAX_ROOM_STACK, np.int64)
    s_pu = np.zeros(MAX_ROOM_STACK, np.int64)
    s_res = np.zeros(MAX_ROOM_STACK, np.int64)
    s_it = np.zeros(MAX_ROOM_STACK, np.int64)
    s_room[0], s_rn[0], s_h[0], s_w[0], s_lk[0], s_pu[0], s_res[0] = room, rn, h, w, lk, pu, res
    sp = 1
    while sp > 0 and best < 1.0:
        f = sp - 1
        move = s_it[f]
        if move >= 2 * s_rn[f]:
            sp -= 1
            continue
        s_it[f] = move + 1
        slot = move >> 1
        with_weapon = move & 1
        r = s_room[f]
        t = room_get(r, slot)
        seen = False
        for j in range(slot):
            if room_get(r, j) == t:
                seen = True
        if seen:
            continue
        if with_weapon and not (
            type_kind(t) == KIND_MONSTER
            and type_value(t) <= weapon_reach(s_w[f], s_lk[f], equal)
        ):
            continue
        r2 = room_remove(r, s_rn[f], slot)
        rn2 = s_rn[f] - 1
        h2, w2, lk2, pu2, res2, ending, draw = resolve_card(
            type_kind(t), type_value(t), with_weapon, s_h[f], s_w[f], s_lk[f], s_pu[f],
            s_res[f], rn2, left)
        if ending == LOST:
            v = 0.0
        elif ending == WON:
            v = 1.0
        elif draw:
            v = leaf_win(sums, hid, r2, rn2, h2, w2, lk2, equal, par)
        else:
            if sp >= MAX_ROOM_STACK:
                raise ValueError("room stack overflow")
            c = sp
            s_room[c], s_rn[c], s_h[c], s_w[c] = r2, rn2, h2, w2
            s_lk[c], s_pu[c], s_res[c], s_it[c] = lk2, pu2, res2, 0
            sp += 1
            continue
        if v > best:
            best = v
    return best


@jit
def draw_mean(room: int, rn: int, h: int, w: int, lk: int, fled: int, need: int,
              cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, cfg: np.ndarray,
              par: np.ndarray) -> float:
    """``E[V]`` of the fresh room after ``need`` cards are dealt onto ``room`` (``rn``
    cards kept), exactly (:func:`draw_walk`: every multiset of ``need`` unseen types,
    weighted by its number of draws), ``V`` the one-room value (:func:`one_room`)."""
    return float(draw_walk(V_ONE_ROOM, room, rn, h, w, lk, fled, need, cnt, bot, bpos, cfg,
                           par))


# The room net: a V read at the fresh room itself (no play of the room), from the
# room's cards and the rest of the pool by type and the player's inputs. ``rpar``:
# ``RN_HIDDEN`` the hidden units H, ``RN_SAFE_HEALTH`` the health under which the
# ``low`` input counts, then from ``RN_WEIGHTS`` the room's rows (NTYPES x H), the
# rest's rows (NTYPES x H), the inputs' rows (``RN_INPUTS`` x H), the hidden biases,
# the output's weights and its bias.
RN_HIDDEN = 0
RN_SAFE_HEALTH = 1
RN_WEIGHTS = 2
RN_INPUTS = 5
"""The room net's inputs beside the counts: health, weapon, reach, fled (1 when the
room was dealt by a flee: it cannot be fled), and the low-health square."""


@jit
def room_net_hidden(room: int, rn: int, h: int, w: int, lk: int, fled: int, cnt: np.ndarray,
                    bot: np.ndarray, bpos: np.ndarray, equal: int, rpar: np.ndarray,
                    hid: np.ndarray) -> None:
    """The room net's hidden units (before ReLU) at a room of ``rn`` cards, with the
    unseen cards ``cnt`` and the bottom ``bot[bpos[0]:bpos[1]]`` as the rest, into ``hid``."""
    hidden = int(rpar[RN_HIDDEN])
    o = RN_WEIGHTS
    ro = o + NTYPES * hidden
    xo = ro + NTYPES * hidden
    bo = xo + RN_INPUTS * hidden
    reach = weapon_reach(w, lk, equal)
    low = rpar[RN_SAFE_HEALTH] - h
    if low < 0.0:
        low = 0.0
    for j in range(hidden):
        hid[j] = (rpar[bo + j] + h * rpar[xo + j] + w * rpar[xo + hidden + j]
                  + reach * rpar[xo + 2 * hidden + j] + fled * rpar[xo + 3 * hidden + j]
                  + low * low * rpar[xo + 4 * hidden + j])
    add_rest(cnt, bot, bpos, rpar, ro, hidden, hid)
    for i in range(rn):
        t = room_get(room, i)
        for j in range(hidden):
            hid[j] += rpar[o + t * hidden + j]


@jit_inline
def room_net_move(hid: np.ndarray, t: int, times: float, rpar: np.ndarray) -> None:
    """``times`` cards of type ``t`` moved from the rest to the room."""
    hidden = int(rpar[RN_HIDDEN])
    o = RN_WEIGHTS
    ro = o + NTYPES * hidden
    for j in range(hidden):
        hid[j] += times * (rpar[o + t * hidden + j] - rpar[ro + t * hidden + j])


@jit
def room_net_out(hid: np.ndarray, rpar: np.ndarray) -> float:
    """The room net's chance from its hidden units: ReLU, then the logistic output."""
    hidden = int(rpar[RN_HIDDEN])
    wo = RN_WEIGHTS + (2 * NTYPES + RN_INPUTS + 1) * hidden
    z = rpar[wo + hidden]
    for j in range(hidden):
        if hid[j] > 0.0:
            z += rpar[wo + j] * hid[j]
    return float(1.0 / (1.0 + np.exp(-z)))


@jit
def room_net_value(room: int, rn: int, h: int, w: int, lk: int, fled: int, cnt: np.ndarray,
                   bot: np.ndarray, bpos: np.ndarray, cfg: np.ndarray,
                   rpar: np.ndarray) -> float:
    """``V`` of a decision by the room net (a function of the room's multiset, the rest's
    counts, health, weapon, last kill and the flee flag)."""
    hid = np.zeros(int(rpar[RN_HIDDEN]), np.float64)
    room_net_hidden(room, rn, h, w, lk, fled, cnt, bot, bpos, cfg[CFG_EQUAL], rpar, hid)
    return float(room_net_out(hid, rpar))


@jit
def room_net_mean(room: int, rn: int, h: int, w: int, lk: int, fled: int, need: int,
                  cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, cfg: np.ndarray,
                  rpar: np.ndarray) -> float:
    """``E[V]`` by the room net of the fresh room after ``need`` cards are dealt onto
    ``room``, exactly, as :func:`draw_mean` (:func:`draw_walk`)."""
    return float(draw_walk(V_ROOM_NET, room, rn, h, w, lk, fled, need, cnt, bot, bpos, cfg,
                           rpar))


@jit_inline
def fresh_value(which: int, r: int, n: int, h: int, w: int, lk: int, fled: int,
                cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, cfg: np.ndarray,
                par: np.ndarray, sums: np.ndarray, hid: np.ndarray) -> float:
    """``V`` of the fresh room ``r`` of ``n`` cards, the unseen cards ``cnt`` and the bottom
    ``bot[bpos[0]:bpos[1]]`` left: the room net's from its hidden units ``hid`` (kept by
    the walk), or the one-room value (``sums`` its scratch)."""
    if which == V_ROOM_NET:
        return float(room_net_out(hid, par))
    return float(one_room(r, n, h, w, lk, 0, 0, fled, cnt, bot, bpos, cfg, par, sums))


@jit_inline
def draw_walk(which: int, room: int, rn: int, h: int, w: int, lk: int, fled: int, need: int,
              cnt: np.ndarray, bot: np.ndarray, bpos: np.ndarray, cfg: np.ndarray,
              par: np.ndarray) -> float:
    """``E[V]`` of the fresh room after ``need`` cards are dealt onto ``room`` (``rn``
    cards kept), exactly: over every multiset of ``need`` unseen types, weighted by its
    number of draws (the product over its types of C(unseen of the type, picked of it)).
    ``which`` (``V_*``) names ``V``, read by :func:`fresh_value`; :func:`draw_mean` and
    :func:`room_net_mean` are the walk for each.

    With fewer unseen cards than ``need``, all of them come up, then the top of the
    known bottom: one multiset, ``V`` of it. ``cnt`` is restored on return. For the
    room net a dealt card moves from the rest to the room, so the hidden units of each
    multiset are those before the deal plus one move per card.
    """
    net = which == V_ROOM_NET
    sums = np.zeros(NSUMS, np.int64)
    base = np.zeros(int(par[RN_HIDDEN]) if net else 0, np.float64)
    if net:
        room_net_hidden(room, rn, h, w, lk, fled, cnt, bot, bpos, cfg[CFG_EQUAL], par, base)
    hid = base.copy()
    u = 0
    for t in range(NTYPES):
        u += cnt[t]
    saved = cnt.copy()
    if u < need:
        r = room
        n = rn
        for t in range(NTYPES):
            if net and cnt[t]:
                room_net_move(hid, t, float(cnt[t]), par)
            for _ in range(cnt[t]):
                r |= t << (TYPE_BITS * n)
                n += 1
            cnt[t] = 0
        b = bpos.copy()
        for _ in range(need - u):
            if net:
                room_net_move(hid, bot[b[0]], 1.0, par)
            r |= bot[b[0]] << (TYPE_BITS * n)
            n += 1
            b[0] += 1
        v = fresh_value(which, r, n, h, w, lk, fled, cnt, bot, b, cfg, par, sums, hid)
        for t in range(NTYPES):
            cnt[t] = saved[t]
        return float(v)
    pick = np.zeros(MAX_DRAW, np.int64)
    total = 0.0
    weights = 0.0
    level = 0
    t = 1
    while True:
        if level == need:
            weight = 1.0
            run = 0
            r = room
            for j in range(len(base)):
                hid[j] = base[j]
            for i in range(need):
                p = pick[i]
                run = run + 1 if i > 0 and p == pick[i - 1] else 1
                weight *= (saved[p] - run + 1) / run
                r |= p << (TYPE_BITS * (rn + i))
                if net:
                    room_net_move(hid, p, 1.0, par)
            # cnt holds this multiset taken out
            total += weight * fresh_value(which, r, rn + need, h, w, lk, fled, cnt, bot, bpos,
                                          cfg, par, sums, hid)
            weights += weight
            level -= 1
            cnt[pick[level]] += 1
            t = pick[level] + 1
            continue
        while t < NTYPES and cnt[t] == 0:
            t += 1
        if t == NTYPES:
            if level == 0:
                break
            level -= 1
            cnt[pick[level]] += 1
            t = pick[level] + 1
            continue
        pick[level] = t
        cnt[t] -= 1
        level += 1
    return total / weights
