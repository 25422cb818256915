"""The rules layer of the numba engines: its options, its encoding and its steps.

The steps are plain functions (``scoundrel_core.steps``) that State and InfoState
call and that ``scoundrel_core.jit`` compiles for the engines; the twin tests
compare both sides with the slow twin ``scoundrel_core.reference``. Here: numba's
undocumented ``_nrt`` option still works, the compiled steps give what the plain
ones give, and the rules have one text."""

from __future__ import annotations

import ast
import re
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

import scoundrel_core as sc
from scoundrel_core import encoding, jit, steps
from scoundrel_core.env.observation import CARD_TYPE, FLEE_RULE, NUM_TYPES

SRC = Path(__file__).resolve().parents[1] / "src"


def _helper(a: np.ndarray, i: int) -> int:
    return int(a[i]) + 1


def _kernel(a: np.ndarray, b: np.ndarray) -> int:
    s = 0
    for i in range(a.shape[0]):
        s += helper(a, i) + helper(b, i)  # type: ignore[name-defined]  # noqa: F821
    return s


def _compiled_kernel(options: dict[str, Any]) -> Any:
    """``_kernel`` compiled with ``options`` (not cached), calling a helper that numba
    does not inline, so arrays cross a call: the place reference counting shows."""
    scope = {"helper": njit(inline="never")(_helper)}
    fn = types.FunctionType(_kernel.__code__, scope, "_kernel")
    return njit(**{**options, "cache": False})(fn)


def test_numba_still_accepts_and_honours_the_nrt_option() -> None:
    """``_nrt=False`` is left out of numba's documentation. If an upgrade stops taking it,
    compiling fails here; if it stops honouring it, the kernel's code counts references
    again (the engines would then run about 12-40% slower without any error)."""
    x = np.arange(5, dtype=np.int64)
    with_nrt = _compiled_kernel(jit.JIT_OPTIONS)
    without = _compiled_kernel(jit.KERNEL_OPTIONS)
    assert with_nrt(x, x) == without(x, x) == 30
    counted = "".join(with_nrt.inspect_llvm().values())
    plain = "".join(without.inspect_llvm().values())
    assert "NRT_incref" in counted, "the probe no longer shows reference counting at all"
    assert "NRT_incref" not in plain and "NRT_decref" not in plain, (
        "numba ignored _nrt=False: KERNEL_OPTIONS no longer turns reference counting off"
    )


def test_the_engines_entry_points_use_the_kernel_options() -> None:
    from scoundrel_core.env import _vector_kernel
    from scoundrel_solver.exact import _kernel

    for fn in (_kernel.run_search, _vector_kernel.step_all, _vector_kernel.reset_all,
               _vector_kernel.first_illegal):
        assert fn.targetoptions.get("_nrt") is False, fn


small = st.integers(-20, 20)
kinds = st.sampled_from([encoding.KIND_MONSTER, encoding.KIND_WEAPON, encoding.KIND_POTION])


@settings(max_examples=300, deadline=None)
@given(kind=kinds, value=st.integers(2, 14), with_weapon=st.integers(0, 1),
       health=st.integers(-13, 20), weapon=st.integers(0, 10), last_kill=st.integers(0, 14),
       potion_used=st.integers(0, 1), equal=st.integers(0, 1), reach=st.integers(0, 14),
       resolved=st.integers(0, 2), room_left=st.integers(0, 3), dungeon_left=st.integers(0, 40))
def test_the_compiled_steps_are_the_plain_steps(
    kind: int, value: int, with_weapon: int, health: int, weapon: int, last_kill: int,
    potion_used: int, equal: int, reach: int, resolved: int, room_left: int, dungeon_left: int,
) -> None:
    room = (resolved, room_left, dungeon_left)
    pairs = [
        ("resolve_card", (kind, value, with_weapon, health, weapon, last_kill, potion_used,
                          *room)),
        ("resolve_card_reach", (kind, value, with_weapon, health, weapon, reach, potion_used,
                                *room, equal)),
        ("card_ending", (health, potion_used, *room)),
        ("refill_draw", room),
        ("card_effect", (kind, value, with_weapon, health, weapon, potion_used)),
        ("fight_damage", (value, weapon, with_weapon)),
        ("wear_after", (kind, value, with_weapon, last_kill)),
        ("reach_after", (kind, value, with_weapon, reach, equal)),
        ("kill_reach", (value, equal)),
        ("weapon_reach", (weapon, last_kill, equal)),
        ("death_score", (health, value)),
        ("win_score", (health, kind, value)),
    ]
    for name, args in pairs:
        assert getattr(jit, name)(*args) == getattr(steps, name)(*args), (name, args)


@settings(max_examples=200, deadline=None)
@given(rule=st.integers(0, 2), cards=st.integers(0, 4), resolved=st.integers(0, 3),
       dungeon=st.integers(0, 40), fled=st.integers(0, 1))
def test_may_flee_compiled_plain_and_as_the_variant_says(
    rule: int, cards: int, resolved: int, dungeon: int, fled: int
) -> None:
    v = sc.Variant(sc.FLEE_RULES[rule])
    plain = steps.may_flee(rule, cards, resolved, dungeon, fled)
    assert jit.may_flee(rule, cards, resolved, dungeon, fled) == plain
    expected = (v.may_flee and cards == 4 and resolved == 0 and dungeon > 0
                and (v.may_flee_twice or not fled))
    assert plain == expected


def test_one_encoding_the_observation_numbers_it_from_zero() -> None:
    assert [encoding.flee_rule_code(sc.Variant(n)) for n in sc.FLEE_RULES] == [0, 1, 2]
    assert NUM_TYPES == encoding.NTYPES - 1
    assert all(CARD_TYPE[c.id] == encoding.card_type(c) - 1 for c in sc.FULL_DECK)
    info = sc.InfoState.initial(sc.new_game(seed=3, variant="hard"))
    from scoundrel_core.env.observation import encode

    assert encode(info)[FLEE_RULE] == encoding.FLEE_NEVER
    assert sc.MAX_HEALTH == encoding.MAX_HEALTH


@pytest.mark.parametrize("seed", [0, 7, 2**64 - 1])
def test_the_compiled_deal_is_the_library_deal(seed: int) -> None:
    out = np.empty(sc.DECK_SIZE, np.int64)
    jit.deal_into(np.uint64(seed), out)
    assert [int(c) for c in out] == [c.id for c in sc.deal(seed)]


def test_the_potion_rule_has_one_text_and_a_slow_twin() -> None:
    """``min(MAX_HEALTH, health + value)``: in the rules layer and in the slow twin only."""
    heal = re.compile(r"min\(\s*MAX_HEALTH\s*,")
    code_lines = {
        str(p.relative_to(SRC)): [line for line in p.read_text().splitlines()
                                  if heal.search(line.split("#")[0])]
        for p in SRC.rglob("*.py")
    }
    found = sorted(name for name, lines in code_lines.items() if lines)
    assert found == ["scoundrel_core/reference.py", "scoundrel_core/steps.py"], found


@settings(max_examples=300, deadline=None)
@given(kind=kinds, value=st.integers(2, 14), with_weapon=st.integers(0, 1),
       health=st.integers(1, 20), weapon=st.integers(0, 10), last_kill=st.integers(0, 14),
       potion_used=st.integers(0, 1), equal=st.integers(0, 1), resolved=st.integers(0, 2),
       room_left=st.integers(0, 3), dungeon_left=st.integers(0, 40))
def test_the_reach_twin_ends_a_card_as_resolve_card_does(
    kind: int, value: int, with_weapon: int, health: int, weapon: int, last_kill: int,
    potion_used: int, equal: int, resolved: int, room_left: int, dungeon_left: int,
) -> None:
    """``resolve_card_reach`` is ``resolve_card`` with the weapon's wear kept as its reach."""
    room = (potion_used, resolved, room_left, dungeon_left)
    plain = steps.resolve_card(kind, value, with_weapon, health, weapon, last_kill, *room)
    reach = steps.weapon_reach(weapon, last_kill, equal)
    twin = steps.resolve_card_reach(kind, value, with_weapon, health, weapon, reach, *room,
                                    equal)
    assert twin[:2] == plain[:2] and twin[3:] == plain[3:]
    assert twin[2] == steps.weapon_reach(plain[1], plain[2], equal) or not plain[1]


def test_the_engines_caches_are_keyed_to_the_rules_layer() -> None:
    """Every engine's numba cache stamp holds the hash of steps.py, encoding.py and jit.py
    (tests/test_rules_cache.py shows an edit of a rule reaching every cached engine)."""
    from numba.core import caching

    from scoundrel_core.env import _vector_kernel
    from scoundrel_solver.exact import _kernel
    from scoundrel_solver.fair import _kernel as fair_kernel

    assert jit._rules_stamp() == jit.RULES_STAMP  # a hash of the files, the same each time
    for fn in (_kernel.run_search, fair_kernel.search_root, _vector_kernel.step_all,
               _vector_kernel.reset_all, jit.resolve_card):
        cache = fn._cache
        assert isinstance(cache, caching.FunctionCache), fn
        assert type(cache._impl.locator).__name__.startswith("_RulesKeyed"), fn
        assert cache._cache_file._source_stamp[1] == jit.RULES_STAMP, fn
    # another package's numba function keeps numba's own locator and stamp
    other = njit(cache=True)(_helper)
    assert not type(other._cache._impl.locator).__name__.startswith("_RulesKeyed")


KERNELS = ("scoundrel_core/env/_vector_kernel.py", "scoundrel_solver/exact/_kernel.py",
           "scoundrel_solver/fair/_kernel.py")


def test_the_kernels_end_a_card_through_the_rules_step() -> None:
    """The end of a card (death, win, the refill after three) is ``resolve_card``'s (or
    its reach twin's): no kernel function counts the cards resolved in a room or names a
    rule's number (the health 20, the ace 14, the deck's 44 cards, three a room)."""
    for name in KERNELS:
        tree = ast.parse((SRC / name).read_text())
        called = {n.func.id for n in ast.walk(tree)
                  if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        assert called & {"resolve_card", "resolve_card_reach"}, name
        shifts = {id(n.right) for n in ast.walk(tree)  # bit positions, not numbers of cards
                  if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.LShift, ast.RShift))}
        for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            for node in ast.walk(fn):
                where = f"{name}:{getattr(node, 'lineno', '?')} ({fn.name})"
                assert not (isinstance(node, ast.Name) and node.id == "RESOLVED_PER_ROOM"), where
                if (isinstance(node, ast.Constant) and type(node.value) is int
                        and id(node) not in shifts):
                    assert node.value not in (14, 20, 44), where
                if isinstance(node, ast.Compare):
                    numbers = [c.value for c in node.comparators if isinstance(c, ast.Constant)]
                    assert 3 not in numbers, where
