"""The rules layer of the numba engines: the jit options, the compiled rule steps, the deal.

Every numba engine (the exact solver's search, the fair agent's search, the
vector environment) is compiled with the options here and plays by the steps
here, so a rule has one text (:mod:`.steps`, numbered as in :mod:`.encoding`)
whatever runs it. The steps are compiled to be inlined (numba IR inlining,
``inline="always"``): naming a rule costs the engines no call.

- :func:`jit`, :func:`jit_inline`: the decorators of every engine function;
  :func:`jit_kernel` for an engine's entry point that allocates nothing.
- the compiled steps: ``resolve_card`` (and ``resolve_card_reach``, its twin for the
  exact search, which keeps the weapon's reach), through which every engine ends a
  card, the steps it is made of (``card_effect``, ``fight_damage``, ``wear_after``,
  ``reach_after``, ``kill_reach``, ``card_ending``, ``refill_draw``), and
  ``weapon_reach``, ``death_score``, ``win_score``, ``may_flee``, the encoding's
  ``type_kind`` and ``type_value``;
- the cache keyed to the rules layer: every function compiled through this module is
  cached under a stamp that also hashes ``steps.py``, ``encoding.py`` and this file
  (:data:`RULES_STAMP`), so an edit of a rule recompiles every kernel that inlines it;
- :func:`deal_into`: the deal of a seed into an array, the same cards as
  :func:`scoundrel_core.deal` (tested).
"""

from __future__ import annotations

import hashlib
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import numpy as np
from numba import njit
from numba.core import caching

from . import encoding, steps
from .cards import DECK_SIZE

__all__ = [
    "JIT_OPTIONS",
    "KERNEL_OPTIONS",
    "RULES_STAMP",
    "card_effect",
    "card_ending",
    "deal_into",
    "death_score",
    "fight_damage",
    "jit",
    "jit_inline",
    "jit_kernel",
    "kill_reach",
    "may_flee",
    "reach_after",
    "refill_draw",
    "resolve_card",
    "resolve_card_reach",
    "type_kind",
    "type_value",
    "weapon_reach",
    "wear_after",
    "win_score",
]

# -- the options -------------------------------------------------------------------------

JIT_OPTIONS: Final[dict[str, Any]] = {"cache": True}
"""``cache``: compiled code is kept next to the sources (or under ``NUMBA_CACHE_DIR``),
so a new process starts in a fraction of a second. Numba's cache does not handle
recursive functions, which is one reason both searches keep an explicit stack. It is
keyed to the rules layer (:data:`RULES_STAMP`, below): an edit of a rule recompiles
every engine."""

KERNEL_OPTIONS: Final[dict[str, Any]] = {**JIT_OPTIONS, "_nrt": False}
"""``_nrt=False``: the entry point runs without numba's reference counting. An engine
that allocates nothing (its arrays come from the caller) needs none, and with it
every array handed to a helper pays an atomic increment and decrement: that was 40%
of a vector env step. ``_nrt`` is a numba option its documentation and type stubs
leave out, so ``tests/test_jit_layer.py`` checks that numba still accepts it and
still compiles such a kernel without reference counting."""


# -- the cache, keyed to the rules layer ---------------------------------------------------
#
# Numba keeps a function's compiled code under the stamp of the file that defines it (a
# hash of its text) and the function's own bytecode; it does not see what the function
# inlines or calls from other files, nor the module constants it froze in. So an edit of a
# step in steps.py, of an encoding number or of this file would leave every cached engine
# running the old rule. Numba picks a function's cache by asking the locator classes of
# ``caching.CacheImpl._locator_classes`` in turn (the first whose ``from_function`` answers
# wins); the stamp the locator gives is stored in the cache's index, and an index whose
# stamp differs is treated as empty, so the function is compiled afresh and saved over it.
# The locators below are numba's own three file-backed ones (the same folders: under
# NUMBA_CACHE_DIR when it is set, else ``__pycache__`` beside the source, else the user's
# cache folder), answering only for the functions this module compiles, with a stamp that
# also holds RULES_STAMP. Other packages' numba functions are left to numba's locators.
# Why a locator: numba offers no other hook into a cache's stamp or index key (the key
# hashes only the function's own bytecode and closure), and its locator list is the one
# it lets users replace (NUMBA_CACHE_LOCATOR_CLASSES names classes like these; a list
# given there replaces numba's and so bypasses this). The list and the locators are not
# public API: tests/test_jit_layer.py checks the engines' caches use these locators, and
# tests/test_rules_cache.py edits a rule in a copy and checks every engine follows it.


def _rules_stamp() -> str:
    """A hash of the rules layer's files: the steps, the encoding and this file."""
    digest = hashlib.sha256()
    for path in (Path(steps.__file__), Path(encoding.__file__), Path(__file__)):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


RULES_STAMP: Final = _rules_stamp()
"""The hash of ``steps.py``, ``encoding.py`` and ``jit.py``, part of the cache stamp of
every function compiled here."""

_KEYED: set[Callable[..., Any]] = set()
"""The Python functions compiled by this module: their caches are keyed to the rules."""


class _RulesKeyed:
    """A numba cache locator for the functions of ``_KEYED`` only, whose source stamp is
    the locator's own (the defining file's hash) with ``RULES_STAMP``."""

    rules_keyed: Final = True  # what a reload of this module recognises

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if py_func not in _KEYED:
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]

    def get_source_stamp(self) -> Any:
        return super().get_source_stamp(), RULES_STAMP  # type: ignore[misc]


class _RulesKeyedUserProvided(_RulesKeyed, caching.UserProvidedCacheLocator):
    """Under NUMBA_CACHE_DIR, when set."""


class _RulesKeyedInTree(_RulesKeyed, caching.InTreeCacheLocator):
    """In ``__pycache__`` beside the source."""


class _RulesKeyedUserWide(_RulesKeyed, caching.UserWideCacheLocator):
    """In the user's cache folder (a read-only install)."""


def _install_locators() -> None:
    """Put the rules-keyed locators first, in numba's own order of preference; once per
    process (a reload of this module replaces its earlier ones)."""
    mine = [_RulesKeyedUserProvided, _RulesKeyedInTree, _RulesKeyedUserWide]
    locators = caching.CacheImpl._locator_classes
    locators[:] = mine + [c for c in locators if not getattr(c, "rules_keyed", False)]


_install_locators()


def _compile(fn: Callable[..., Any], **options: Any) -> Any:
    """``njit(**options)(fn)`` with ``fn``'s cache keyed to the rules (numba finds the
    cache's locator while ``njit`` builds the dispatcher, so ``fn`` is listed first)."""
    _KEYED.add(fn)
    return njit(**options)(fn)


def jit(fn: Callable[..., Any]) -> Any:
    """The decorator of every engine function: numba's ``njit`` with ``JIT_OPTIONS``
    (a numba dispatcher, typed ``Any`` as numba has no type hints)."""
    return _compile(fn, **JIT_OPTIONS)


def jit_inline(fn: Callable[..., Any]) -> Any:
    """``jit`` for a step of a search loop: inlined into its caller by numba, so
    splitting a loop into named steps costs no calls (measured: the fair search
    ran at half speed with its steps as separate functions)."""
    return _compile(fn, inline="always", **JIT_OPTIONS)


def jit_kernel(fn: Callable[..., Any]) -> Any:
    """``jit`` for an engine's entry point that allocates nothing: ``KERNEL_OPTIONS``."""
    return _compile(fn, **KERNEL_OPTIONS)


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
refill_draw: Final = _step(steps.refill_draw)
"""``steps.refill_draw`` compiled for the numba engines (inlined where they call it)."""
card_ending: Final = _step(steps.card_ending)
"""``steps.card_ending`` compiled for the numba engines (inlined where they call it)."""
resolve_card: Final = _step(steps.resolve_card)
"""``steps.resolve_card`` compiled for the numba engines: how each of them ends a card."""
resolve_card_reach: Final = _step(steps.resolve_card_reach)
"""``steps.resolve_card_reach`` compiled for the exact search, which keeps the reach."""
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
