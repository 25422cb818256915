"""The rules layer of the numba engines: the jit options, the compiled rule steps, the deal.

Every numba engine (the exact solver's search, the fair agent's search, the
vector environment) is compiled with the options here and plays by the steps
here, so a rule has one text (:mod:`.steps`, numbered as in :mod:`.encoding`)
whatever runs it. The steps are compiled to be inlined (numba IR inlining,
``inline="always"``): naming a rule costs the engines no call.

- :func:`jit`, :func:`jit_inline`: the decorators of every engine function;
  :func:`jit_kernel` for an engine's entry point that allocates nothing.
- the compiled steps: ``card_effect``, ``fight_damage``, ``wear_after``, ``reach_after``,
  ``kill_reach``, ``weapon_reach``, ``death_score``, ``win_score``,
  ``may_flee``, and the encoding's ``type_kind`` and ``type_value``;
- :func:`deal_into`: the deal of a seed into an array, the same cards as
  :func:`scoundrel_core.deal` (tested).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, Final

import numpy as np
from numba import njit

from . import encoding, steps
from .cards import DECK_SIZE

__all__ = [
    "JIT_OPTIONS",
    "KERNEL_OPTIONS",
    "card_effect",
    "deal_into",
    "death_score",
    "fight_damage",
    "jit",
    "jit_inline",
    "jit_kernel",
    "kill_reach",
    "may_flee",
    "reach_after",
    "type_kind",
    "type_value",
    "weapon_reach",
    "wear_after",
    "win_score",
]

# -- the options -------------------------------------------------------------------------

JIT_OPTIONS: Final[dict[str, Any]] = {"cache": True}
"""``cache``: compiled code is kept next to the sources, so a new process starts in
a fraction of a second. Numba's cache does not handle recursive functions, which is
one reason both searches keep an explicit stack. (Nor does it notice when an inlined
step in another file changes: after editing this layer, clear the ``__pycache__``
folders, as a fresh checkout or install does.)"""

KERNEL_OPTIONS: Final[dict[str, Any]] = {**JIT_OPTIONS, "_nrt": False}
"""``_nrt=False``: the entry point runs without numba's reference counting. An engine
that allocates nothing (its arrays come from the caller) needs none, and with it
every array handed to a helper pays an atomic increment and decrement: that was 40%
of a vector env step. ``_nrt`` is a numba option its documentation and type stubs
leave out, so ``tests/test_jit_layer.py`` checks that numba still accepts it and
still compiles such a kernel without reference counting."""


def jit(fn: Callable[..., Any]) -> Any:
    """The decorator of every engine function: numba's ``njit`` with ``JIT_OPTIONS``
    (a numba dispatcher, typed ``Any`` as numba has no type hints)."""
    return njit(**JIT_OPTIONS)(fn)


def jit_inline(fn: Callable[..., Any]) -> Any:
    """``jit`` for a step of a search loop: inlined into its caller by numba, so
    splitting a loop into named steps costs no calls (measured: the fair search
    ran at half speed with its steps as separate functions)."""
    return njit(inline="always", **JIT_OPTIONS)(fn)


def jit_kernel(fn: Callable[..., Any]) -> Any:
    """``jit`` for an engine's entry point that allocates nothing: ``KERNEL_OPTIONS``."""
    return njit(**KERNEL_OPTIONS)(fn)


# -- the rule steps, compiled ------------------------------------------------------------

_COMPILED: dict[str, Any] = {}


def _step(fn: Callable[..., Any]) -> Any:
    """A plain step of :mod:`.steps` compiled to be inlined. Inside it, a call of another
    step (``card_effect`` calls ``fight_damage``) goes to that step's compiled version:
    the function is rebuilt over its own globals with those names rebound, as numba
    cannot call plain Python. So a step is compiled after the steps it calls."""
    scope = {**fn.__globals__, **_COMPILED}
    compiled = jit_inline(types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__))
    _COMPILED[fn.__name__] = compiled
    return compiled


fight_damage: Final = _step(steps.fight_damage)
"""``steps.fight_damage`` compiled for the numba engines (inlined where they call it)."""
kill_reach: Final = _step(steps.kill_reach)
"""``steps.kill_reach`` compiled for the numba engines (inlined where they call it)."""
card_effect: Final = _step(steps.card_effect)
"""``steps.card_effect`` compiled for the numba engines (inlined where they call it)."""
wear_after: Final = _step(steps.wear_after)
"""``steps.wear_after`` compiled for the numba engines (inlined where they call it)."""
reach_after: Final = _step(steps.reach_after)
"""``steps.reach_after`` compiled for the numba engines (inlined where they call it)."""
weapon_reach: Final = _step(steps.weapon_reach)
"""``steps.weapon_reach`` compiled for the numba engines (inlined where they call it)."""
death_score: Final = _step(steps.death_score)
"""``steps.death_score`` compiled for the numba engines (inlined where they call it)."""
win_score: Final = _step(steps.win_score)
"""``steps.win_score`` compiled for the numba engines (inlined where they call it)."""
may_flee: Final = _step(steps.may_flee)
"""``steps.may_flee`` compiled for the numba engines (inlined where they call it)."""
type_kind: Final = _step(encoding.type_kind)
"""``encoding.type_kind`` compiled for the numba engines."""
type_value: Final = _step(encoding.type_value)
"""``encoding.type_value`` compiled for the numba engines."""

# -- the deal -----------------------------------------------------------------------------

_REM: Final = np.array([0, 0] + [2**64 % n for n in range(2, DECK_SIZE + 1)], np.uint64)
"""``2**64 mod n`` for each shuffle bound ``n``: the rejection limits, worked out once."""


@jit_inline
def deal_into(seed: np.uint64, out: np.ndarray) -> None:
    """The 44 card ids of seed ``seed``, top first: SplitMix64 words and a Fisher-Yates
    shuffle with rejection, in unsigned 64-bit arithmetic, as :func:`scoundrel_core.deal`
    (its plain-Python twin) does."""
    for k in range(DECK_SIZE):
        out[k] = k
    state = np.uint64(seed)
    golden = np.uint64(0x9E3779B97F4A7C15)
    m1 = np.uint64(0xBF58476D1CE4E5B9)
    m2 = np.uint64(0x94D049BB133111EB)
    zero = np.uint64(0)
    for i in range(DECK_SIZE - 1, 0, -1):
        n = np.uint64(i + 1)
        rem = _REM[i + 1]  # words at or above 2**64 - rem are redrawn
        while True:
            state = state + golden
            z = state
            z = (z ^ (z >> np.uint64(30))) * m1
            z = (z ^ (z >> np.uint64(27))) * m2
            z = z ^ (z >> np.uint64(31))
            if rem == zero or z < zero - rem:
                break
        j = np.int64(z % n)
        t = out[i]
        out[i] = out[j]
        out[j] = t
