"""The rules layer of the numba engines: its options, its encoding and its steps.

The steps are plain functions (``scoundrel_core.steps``) that State and InfoState
call and that ``scoundrel_core.jit`` compiles for the engines; the twin tests
compare both sides with the slow twin ``scoundrel_core.reference``. Here: numba's
undocumented ``_nrt`` option still works, the compiled steps give what the plain
ones give, and the rules have one text."""

from __future__ import annotations

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
       potion_used=st.integers(0, 1), equal=st.integers(0, 1), reach=st.integers(0, 14))
def test_the_compiled_steps_are_the_plain_steps(
    kind: int, value: int, with_weapon: int, health: int, weapon: int, last_kill: int,
    potion_used: int, equal: int, reach: int,
) -> None:
    pairs = [
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
