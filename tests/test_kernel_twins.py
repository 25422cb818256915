"""The solver kernel against its plain twins: transitions against scoundrel_core,
the bound against its Python twin and against brute force."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from naive.bound import upper_bound
from naive.brute import brute_force
from scoundrel_core.encoding import card_type, flee_rule_code
from scoundrel_solver.exact import _kernel as k
from scoundrel_solver.exact._layout import NP, P_CAP, P_FLED, P_HP, P_R0, P_REM, P_W
from scoundrel_solver.exact.solve import state_row

VARIANTS = [(v, w) for v in sc.FLEE_RULES for w in sc.WEAPON_RULES]


def random_position(rng: random.Random, variant: str, rule: str, partial: bool) -> sc.State:
    """A position reached by random play (careful enough to live a while)."""
    if partial:
        cards = rng.sample(sc.FULL_DECK, rng.randint(3, 14))
        s = sc.new_game(deck=cards, partial=True, variant=variant, weapon_rule=rule)
    else:
        s = sc.new_game(seed=rng.randrange(2**32), variant=variant, weapon_rule=rule)
    for _ in range(rng.randrange(40)):
        acts = sc.legal_actions(s)
        if not acts:
            break
        nxt = [sc.apply(s, a) for a in acts]
        alive = [t for t in nxt if not t.is_over] or nxt
        s = max(alive, key=lambda t: t.health) if rng.random() < 0.7 else rng.choice(alive)
        if s.is_over:
            break
    return s


def kernel_children(s: sc.State) -> dict[int, tuple[bool, int, np.ndarray]]:
    row = state_row(s)
    kids = np.zeros((k.MAX_CHILDREN, NP), np.int64)
    bound = np.zeros(k.MAX_CHILDREN, np.int64)
    move = np.zeros(k.MAX_CHILDREN, np.int64)
    terminal = np.zeros(k.MAX_CHILDREN, np.bool_)
    n = k.step_children(row, kids, bound, move, terminal, flee_rule_code(s.variant),
                        int(s.variant.equal_wear))
    return {int(move[i]): (bool(terminal[i]), int(bound[i]), kids[i].copy()) for i in range(n)}


# Random play often ends the game: many draws are filtered out, by design.
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.integers(0, 2**32), st.sampled_from(VARIANTS), st.booleans())
def test_kernel_steps_match_core_apply(
    seed: int, variant: tuple[str, str], partial: bool
) -> None:
    rng = random.Random(seed)
    s = random_position(rng, *variant, partial)
    assume(not s.is_over)
    kids = kernel_children(s)
    expected = set()
    for a in sc.legal_actions(s):
        after = sc.apply(s, a)
        if a.is_flee:
            m = k.FLEE_MOVE_BIT | 1
        else:
            c = a.card
            assert c is not None
            m = 2 * card_type(c) + int(a.with_weapon)
        expected.add(m)
        assert m in kids, f"kernel lacks move {a} in {s}"
        terminal, value, row = kids[m]
        if after.is_over:
            assert terminal and value == after.score
            continue
        assert not terminal
        want = state_row(after)
        if s.variant.name == "easy":
            want[P_FLED] = row[P_FLED]  # easy: the kernel marks the end of a flee run
        if not k.may_flee(row, flee_rule_code(s.variant)):
            # Room order only matters for a flee; the kernel resolves either of
            # two cards of one type, which may leave the others in another order.
            for r in (row, want):
                r[P_R0 : P_R0 + 4] = sorted(r[P_R0 : P_R0 + 4])
        assert row.tolist() == want.tolist(), f"{a} from {s}"
        assert value == k.upper_bound(row[P_REM], row[P_HP], row[P_W], row[P_CAP],
                                      int(s.variant.equal_wear))
    # The kernel's extra moves are easy's runs of 2+ flees only.
    for m in set(kids) - expected:
        assert s.variant.name == "easy" and m & k.FLEE_MOVE_BIT and m > k.FLEE_MOVE_BIT | 1


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(VARIANTS), st.booleans())
def test_bound_twins_agree(seed: int, variant: tuple[str, str], partial: bool) -> None:
    s = random_position(random.Random(seed), *variant, partial)
    assume(not s.is_over)
    row = state_row(s)
    fast = k.upper_bound(row[P_REM], row[P_HP], row[P_W], row[P_CAP], int(s.variant.equal_wear))
    assert fast == upper_bound(s)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(VARIANTS))
def test_bound_never_below_the_brute_force_value(seed: int, variant: tuple[str, str]) -> None:
    rng = random.Random(seed)
    cards = rng.sample(sc.FULL_DECK, rng.randint(2, 7 if variant[0] == "easy" else 9))
    has_weapon_card = any(c.is_weapon for c in cards)
    s = sc.State.from_parts(
        room=cards[:4], dungeon=cards[4:], health=rng.randint(1, 20),
        variant=variant[0], weapon_rule=variant[1],
        weapon=None if has_weapon_card else rng.choice([None, "4D", "7D", "10D"]),
    )
    best, _ = brute_force(s)
    assert upper_bound(s) >= best


@pytest.mark.parametrize("seed", range(5))
def test_state_row_is_canonical(seed: int) -> None:
    rng = random.Random(seed)
    s = random_position(rng, "classic", "strict", False)
    while s.is_over:
        s = random_position(rng, "classic", "strict", False)
    row = state_row(s)
    again = row.copy()
    k._canonical_weapon(again)
    assert row.tolist() == again.tolist()


def core_room_outcomes(s: sc.State) -> tuple[dict[tuple[int, ...], sc.State], int | None]:
    """Every position where the room ends (refill, by kernel row), and the best
    ending, by core play."""
    outcomes: dict[tuple[int, ...], sc.State] = {}
    best_end: int | None = None
    frontier = [s]
    while frontier:
        cur = frontier.pop()
        for a in sc.legal_actions(cur):
            if a.is_flee:
                continue
            nxt = sc.apply(cur, a)
            if nxt.is_over:
                assert nxt.score is not None
                best_end = nxt.score if best_end is None else max(best_end, nxt.score)
            elif nxt.resolved_in_room == 0:
                outcomes[tuple(state_row(nxt).tolist())] = nxt
            else:
                frontier.append(nxt)
    return outcomes, best_end


def kernel_room_children(
    s: sc.State, alpha: int
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    row = state_row(s)
    n_max = k.MAX_CHILDREN
    # The search's arrays hold every depth's children; depth 0 here.
    kids = np.zeros((1, n_max, NP), np.int64)
    bound = np.zeros((1, n_max), np.int64)
    move = np.zeros((1, n_max), np.int64)
    terminal = np.zeros((1, n_max), np.bool_)
    stack, pick = k.make_workspace()[-2:]  # the walk's scratch rows, as the search has them
    equal = int(s.variant.equal_wear)
    n, dropped = k.room_children(row, kids, bound, move, terminal, 0, flee_rule_code(s.variant),
                                 equal, stack, pick, alpha)
    return n, kids[0], bound[0], move[0], terminal[0], dropped


def covers(kept: np.ndarray, outcome: np.ndarray) -> bool:
    """Whether a kept child carries the same card as a room outcome and dominates it."""
    return bool(kept[P_R0] == outcome[P_R0] and k._dominates(
        kept[P_HP], kept[P_W], kept[P_CAP], outcome[P_HP], outcome[P_W], outcome[P_CAP]))


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(VARIANTS), st.booleans())
def test_room_children_are_the_undominated_room_outcomes(
    seed: int, variant: tuple[str, str], partial: bool
) -> None:
    s = random_position(random.Random(seed), *variant, partial)
    assume(not s.is_over)
    equal = int(s.variant.equal_wear)
    n, kids, bound, move, terminal, dropped = kernel_room_children(s, k.NEG_INF)
    assert dropped == k.NEG_INF
    outcomes, best_end = core_room_outcomes(s)
    ends = [int(bound[i]) for i in range(n) if terminal[i]]
    kept = [kids[i].copy() for i in range(n) if not terminal[i] and not move[i] & k.FLEE_MOVE_BIT]
    # A potion put after a fight may turn a death into a refill: the walk keeps
    # the best ending it met, and any better ending is matched by a kept child,
    # whose value is at least its phi.
    assert len(ends) <= 1
    if best_end is None:
        assert ends == []
    else:
        phis = [int(r[P_HP]) - int(k.monsters_left(r[P_REM])) for r in kept]
        assert not ends or ends[0] <= best_end
        assert max(ends + phis) >= best_end
    for r in kept:
        r[P_FLED] = 0
    kept_rows = {tuple(r.tolist()) for r in kept}
    assert len(kept_rows) == len(kept), "two children are the same position"
    # Every kept child is a real outcome; every outcome is dominated by a kept one.
    assert kept_rows <= outcomes.keys()
    for o in outcomes:
        o_arr = np.array(o, np.int64)
        assert any(
            covers(r, o_arr) for r in kept
        ), f"outcome {o} of {s} has no dominating child"
    for i in range(n):
        if not terminal[i]:
            r = kids[i]
            assert bound[i] == k.upper_bound(r[P_REM], r[P_HP], r[P_W], r[P_CAP], equal)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(VARIANTS), st.integers(-25, 30))
def test_room_children_drop_only_what_cannot_beat_alpha(
    seed: int, variant: tuple[str, str], alpha: int
) -> None:
    # Small positions, so brute force gives every outcome's exact value.
    rng = random.Random(seed)
    cards = rng.sample(sc.FULL_DECK, rng.randint(2, 7 if variant[0] == "easy" else 9))
    s = sc.State.from_parts(
        room=cards[:4], dungeon=cards[4:], health=rng.randint(1, 20),
        variant=variant[0], weapon_rule=variant[1],
    )
    assume(not s.is_over)
    n, kids, bound, move, terminal, dropped = kernel_room_children(s, alpha)
    assert dropped <= alpha
    outcomes, best_end = core_room_outcomes(s)
    kept = [kids[i].copy() for i in range(n) if not terminal[i] and not move[i] & k.FLEE_MOVE_BIT]
    for i in range(n):
        if not terminal[i] and not move[i] & k.FLEE_MOVE_BIT:
            assert bound[i] > alpha, "a child that cannot beat alpha was kept"
    for r in kept:
        r[P_FLED] = 0
    assert {tuple(r.tolist()) for r in kept} <= outcomes.keys()
    # What was dropped could not beat the largest dropped bound.
    for o, state in outcomes.items():
        o_arr = np.array(o, np.int64)
        if not any(covers(r, o_arr) for r in kept):
            assert brute_force(state)[0] <= dropped, f"outcome {state} of {s} was lost"
    # The best ending is met, or matched by a kept child (its value is at
    # least its phi), or could not beat the largest dropped bound.
    if best_end is not None:
        ends = [int(bound[i]) for i in range(n) if terminal[i]]
        phis = [int(r[P_HP]) - int(k.monsters_left(r[P_REM])) for r in kept]
        assert max([*ends, *phis, dropped]) >= best_end


def test_encoding_reads_back_every_card() -> None:
    from scoundrel_core.encoding import NO_CARD, NTYPES, TYPE_KIND, TYPE_VALUE
    from scoundrel_solver.exact._layout import REM_BIT

    types = {c: card_type(c) for c in sc.FULL_DECK}
    for c, t in types.items():
        assert NO_CARD < t < NTYPES
        assert (int(TYPE_KIND[t]), int(TYPE_VALUE[t])) == (int(c.kind), c.value)
    # One type per (kind, value): the two monsters of a value share theirs.
    assert len(set(types.values())) == 13 + 9 + 9
    # Types order kinds as Kind does, values within a kind (the fair search relies on it).
    ranked = sorted(sc.FULL_DECK, key=lambda c: (c.kind, c.value))
    assert [types[c] for c in ranked] == sorted(types.values())
    # Each type has its own bits in the multiset of cards left.
    bits = [int(REM_BIT[t]) for t in set(types.values())]
    assert all(b and not b & (b - 1) for b in bits) and len(set(bits)) == len(bits)
