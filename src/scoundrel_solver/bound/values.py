"""The ``V`` of a full-deck bound, by name: nothing, the one-room value, or any callable.

A ``V`` here is anything with the two methods of :class:`Charges`: ``value``
of an information state and ``mean``, its exact mean over what a chance node
can deal. Four kinds:

- ``"zero"``: nothing is charged (the perfect-information value);
- ``"one-room"``: the best, over every way to play the rest of the room, of
  the fair agent's leaf win chance at the room's end (1 for a game won in the
  room, 0 for one lost), computed by the numba kernel of ``bound/_kernel.py``;
  :func:`one_room_value` is its plain-Python twin over the library's rules;
- :class:`RoomNet`, not named: a net over the fresh room's cards, the rest of
  the pool, health and weapon (numbers given by the caller), read at the room
  itself without playing it; :func:`room_net_value` is its twin;
- any callable of an :class:`~scoundrel_core.info.InfoState`:
  :class:`~.penalty.Penalties`, which walks the chance node card by card
  (exact, slow: thousands of states per refill of a full deck).

The agent's leaf alone values the pool of cards left, which a draw does not
change, so it charges nothing; the one-room value looks at the room first.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Final, Protocol

import numpy as np

from scoundrel_core.encoding import NTYPES, TYPE_BITS, card_type
from scoundrel_core.info import ChanceNode, InfoState

from ..errors import SolverError
from ..fair.config import agent_config
from ..fair.leaf import config_par, leaf_estimate
from ..fair.optimum import memo_key
from . import _kernel as K
from .penalty import Penalties, Value

__all__ = ["VALUE_NAMES", "Charges", "OneRoom", "RoomNet", "Zero", "charges_for",
           "one_room_value", "room_net_size", "room_net_value"]


class Charges(Protocol):
    """``V`` and its exact mean after a chance node: what a penalty is made of."""

    def value(self, info: InfoState) -> float:
        """``V(info)``."""
        ...

    def mean(self, node: ChanceNode) -> float:
        """``E[V]`` over the decisions ``node`` can lead to, exactly."""
        ...


class Zero:
    """``V = 0``: nothing is charged."""

    def value(self, info: InfoState) -> float:
        """0, whatever the position."""
        del info
        return 0.0

    def mean(self, node: ChanceNode) -> float:
        """0, whatever the draw."""
        del node
        return 0.0


def _par(info: InfoState) -> np.ndarray:
    return config_par(agent_config(info.variant))


def one_room_value(info: InfoState, par: np.ndarray | None = None) -> float:
    """The one-room ``V`` in plain Python, over the library's rules (the kernel's twin).

    The best, over every line of play to the end of this room, of: 1 for a game
    won, 0 for one lost, and where the room is refilled or fled, the leaf win
    chance (:func:`~scoundrel_solver.fair.leaf.leaf_estimate`) of the pool of
    cards left (room, unseen and bottom), health and weapon. ``par``: the leaf's
    weights and win model (default: the fair agent's for the variant).
    """
    if par is None:
        par = _par(info)
    if info.is_over:
        return 1.0 if info.health > 0 else 0.0

    def leaf(x: InfoState) -> float:
        pool = (*x.room, *x.unseen, *x.bottom)
        return leaf_estimate(pool, x.health, x.weapon_value, x.weapon_reach, par)[1]

    best = -1.0
    for a in info.legal_actions():
        y = info.apply(a)
        if a.is_flee:
            v = leaf(info)  # the same pool, health and weapon: the room goes under
        elif isinstance(y, ChanceNode):
            v = leaf(y.base)
        elif y.is_over:
            v = 1.0 if y.health > 0 else 0.0
        else:
            v = one_room_value(y, par)
        best = max(best, v)
    return best


def _kernel_args(x: InfoState) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(room, unseen counts, bottom, bottom span, cfg) of ``x`` for the kernel."""
    room = 0
    for i, c in enumerate(x.room):
        room |= card_type(c) << (TYPE_BITS * i)
    cnt = np.zeros(NTYPES, np.int64)
    for c in x.unseen:
        cnt[card_type(c)] += 1
    bot = np.zeros(max(1, len(x.bottom)), np.int64)
    for i, c in enumerate(x.bottom):
        bot[i] = card_type(c)
    bpos = np.array([0, len(x.bottom)], np.int64)
    cfg = np.zeros(2, np.int64)
    cfg[K.CFG_FLEE_RULE] = x.variant.flee_code
    cfg[K.CFG_EQUAL] = x.variant.wear_code
    return room, cnt, bot, bpos, cfg


class _KernelCharges(ABC):
    """A ``V`` by numba kernels, each value and mean computed once: the memo (and the
    value of a game over: 1 won, 0 lost) that :class:`OneRoom` and :class:`RoomNet`
    share. A subclass gives only the kernel calls, one for a value and one for a mean."""

    def __init__(self) -> None:
        self._values: dict[Hashable, float] = {}
        self._means: dict[Hashable, float] = {}

    def value(self, info: InfoState) -> float:
        """``V(info)``."""
        if info.is_over:
            return 1.0 if info.health > 0 else 0.0
        key = memo_key(info)
        got = self._values.get(key)
        if got is None:
            got = self._values[key] = self._value_kernel(info)
        return got

    def mean(self, node: ChanceNode) -> float:
        """``E[V]`` over the fresh rooms ``node`` can deal, exactly (multisets of types)."""
        key = memo_key(node)
        got = self._means.get(key)
        if got is None:
            got = self._means[key] = self._mean_kernel(node)
        return got

    @abstractmethod
    def _value_kernel(self, info: InfoState) -> float:
        """``V(info)`` by the kernel, ``info`` a game not over."""

    @abstractmethod
    def _mean_kernel(self, node: ChanceNode) -> float:
        """``E[V]`` after ``node`` by the kernel."""


class OneRoom(_KernelCharges):
    """The one-room ``V`` by the numba kernel, each value and mean computed once.

    ``par``: the leaf's weights and win model (default: the fair agent's for the
    variant of each state).
    """

    def __init__(self, par: np.ndarray | None = None) -> None:
        super().__init__()
        self._par = par

    def _par_of(self, x: InfoState) -> np.ndarray:
        return _par(x) if self._par is None else self._par

    def _value_kernel(self, info: InfoState) -> float:
        room, cnt, bot, bpos, cfg = _kernel_args(info)
        sums = np.zeros(K.NSUMS, np.int64)
        return float(K.one_room(
            room, len(info.room), info.health, info.weapon_value, info.last_kill or 0,
            int(info.potion_used), info.resolved_in_room, int(info.fled_last), cnt, bot, bpos,
            cfg, self._par_of(info), sums))

    def _mean_kernel(self, node: ChanceNode) -> float:
        b = node.base
        room, cnt, bot, bpos, cfg = _kernel_args(b)
        return float(K.draw_mean(
            room, len(b.room), b.health, b.weapon_value, b.last_kill or 0, int(node.fled),
            node.to_draw, cnt, bot, bpos, cfg, self._par_of(b)))


def room_net_size(hidden: int) -> int:
    """How many numbers a room net of ``hidden`` units has in ``rpar`` (the kernel's
    ``RN_*`` layout): the two header numbers, the room's and the rest's rows by card
    type, the inputs' rows, the hidden biases, the output's weights and bias."""
    return K.RN_WEIGHTS + hidden * (2 * NTYPES + K.RN_INPUTS + 2) + 1


def _check_room_net(rpar: np.ndarray) -> np.ndarray:
    rpar = np.asarray(rpar, np.float64)
    hidden = float(rpar[K.RN_HIDDEN]) if rpar.ndim == 1 and len(rpar) > K.RN_WEIGHTS else 0.0
    if not (hidden.is_integer() and hidden >= 1 and len(rpar) == room_net_size(int(hidden))
            and np.isfinite(rpar).all()):
        raise SolverError(f"a room net is its hidden units (at least 1), the safe health and "
                          f"room_net_size(hidden) finite numbers; got {rpar.shape} numbers")
    return rpar


def room_net_value(info: InfoState, rpar: np.ndarray) -> float:
    """The room net's ``V`` in plain Python (the kernel's twin): one hidden layer of ReLU
    units over the room's counts by card type, the rest's (unseen and bottom), health,
    weapon, reach, whether the room was dealt by a flee and the low-health square; then
    a logistic output. 1 for a game won, 0 for one lost."""
    rpar = _check_room_net(rpar)
    if info.is_over:
        return 1.0 if info.health > 0 else 0.0
    hidden = int(rpar[K.RN_HIDDEN])
    o = K.RN_WEIGHTS
    rows = rpar[o:o + 2 * NTYPES * hidden].reshape(2, NTYPES, hidden)
    xo = o + 2 * NTYPES * hidden
    xrows = rpar[xo:xo + K.RN_INPUTS * hidden].reshape(K.RN_INPUTS, hidden)
    bo = xo + K.RN_INPUTS * hidden
    b1, w2, b2 = rpar[bo:bo + hidden], rpar[bo + hidden:bo + 2 * hidden], rpar[bo + 2 * hidden]
    low = max(0.0, float(rpar[K.RN_SAFE_HEALTH]) - info.health)
    inputs = [info.health, info.weapon_value, info.weapon_reach, int(info.fled_last), low * low]
    z = float(b2)
    for j in range(hidden):
        s = float(b1[j]) + sum(float(v) * float(xrows[i, j]) for i, v in enumerate(inputs))
        s += sum(float(rows[0, card_type(c), j]) for c in info.room)
        s += sum(float(rows[1, card_type(c), j]) for c in (*info.unseen, *info.bottom))
        z += float(w2[j]) * max(s, 0.0)
    return 1.0 / (1.0 + math.exp(-z))


class RoomNet(_KernelCharges):
    """The room net's ``V`` by the numba kernel (``rpar``: its numbers,
    :func:`room_net_size`), each value and mean computed once. It reads the fresh room
    itself, not a play of it: a draw's mean moves each dealt card from the rest to the
    room, over the multisets of types with their hypergeometric counts, exactly."""

    def __init__(self, rpar: np.ndarray) -> None:
        super().__init__()
        self._rpar = _check_room_net(rpar)

    def _value_kernel(self, info: InfoState) -> float:
        room, cnt, bot, bpos, cfg = _kernel_args(info)
        return float(K.room_net_value(
            room, len(info.room), info.health, info.weapon_value, info.last_kill or 0,
            int(info.fled_last), cnt, bot, bpos, cfg, self._rpar))

    def _mean_kernel(self, node: ChanceNode) -> float:
        b = node.base
        room, cnt, bot, bpos, cfg = _kernel_args(b)
        return float(K.room_net_mean(
            room, len(b.room), b.health, b.weapon_value, b.last_kill or 0, int(node.fled),
            node.to_draw, cnt, bot, bpos, cfg, self._rpar))


VALUE_NAMES: Final = ("zero", "one-room")
"""The ``V`` a command may name: nothing, or the one-room value (fast)."""


def charges_for(value: str | Value | None) -> Charges:
    """The ``V`` named (:data:`VALUE_NAMES`), or a callable of the information state
    (slow: :class:`~.penalty.Penalties`), or None for zero."""
    if value is None or value == "zero":
        return Zero()
    if value == "one-room":
        return OneRoom()
    if isinstance(value, str):
        raise SolverError(f"unknown value {value!r}; known values: {', '.join(VALUE_NAMES)}, "
                          "or a function of the information state")
    if not callable(value):
        raise SolverError(
            f"value {value!r:.40} is not callable: give a function of the information state")
    return Penalties(value)
