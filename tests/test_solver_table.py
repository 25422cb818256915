"""The transposition table has a fixed size and the search stays exact when it fills."""

from __future__ import annotations

import re

import pytest

import scoundrel_core as sc
from scoundrel_solver import solve
from scoundrel_solver.exact.table import TranspositionTable

pytestmark = pytest.mark.usefixtures("warm_solver")


def test_table_size_follows_the_budget() -> None:
    small = TranspositionTable(1)
    assert small.nbytes <= 1 << 20
    assert small.slots & (small.slots - 1) == 0  # a power of two: buckets by mask
    bigger = TranspositionTable(8)
    assert bigger.slots == 8 * small.slots


@pytest.mark.parametrize("bad", [0, -5, 1.5, True, "64"])
def test_table_size_must_be_a_positive_integer(bad: object) -> None:
    with pytest.raises(sc.ScoundrelError, match=f"table_mib {re.escape(repr(bad))} must be"):
        TranspositionTable(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("mib", [10**7, 10**30])
def test_table_size_is_checked_against_the_machine_up_front(mib: int) -> None:
    with pytest.raises(sc.ScoundrelError, match=f"table_mib {mib} MiB is more than this machine"):
        TranspositionTable(mib)
    with pytest.raises(sc.ScoundrelError, match=f"table_mib {mib} MiB is more than this machine"):
        solve(0, table_mib=mib)


@pytest.mark.parametrize(("seed", "variant"), [(1, "classic"), (3, "classic"), (4, "hard"),
                                               (9, "easy")])
def test_a_full_table_changes_the_work_not_the_answer(seed: int, variant: str) -> None:
    roomy = solve(seed, variant=variant)
    tiny = solve(seed, variant=variant, table_mib=1)  # about 7,000 entries: constant eviction
    assert roomy.proven and tiny.proven
    assert tiny.best_score == roomy.best_score
    end = sc.play_line(sc.new_game(seed=seed, variant=variant), tiny.line)
    assert end.score == tiny.best_score
    solve(0, variant="hard")  # leave the default-sized table in place for other tests


def test_repeated_solves_reuse_the_table_without_stale_entries() -> None:
    first = [solve(s, variant="hard").best_score for s in range(6)]
    again = [solve(s, variant="hard", weapon_rule="equal").best_score for s in range(6)]
    third = [solve(s, variant="hard").best_score for s in range(6)]
    assert first == third
    assert again != first  # the equal rule changes answers; a stale entry would leak across


@pytest.mark.parametrize("limit", [{"max_nodes": 50}, {"max_nodes": 2000}, {"max_seconds": 0.02}])
@pytest.mark.parametrize(("seed", "variant"), [(3, "classic"), (1, "classic"), (4, "hard")])
def test_a_stopped_search_brackets_the_optimum(
    seed: int, variant: str, limit: dict[str, float]
) -> None:
    exact = solve(seed, variant=variant)
    cut = solve(seed, variant=variant, **limit)  # type: ignore[arg-type]
    if cut.proven:  # small enough to finish within the limit
        assert cut.best_score == exact.best_score
        return
    assert cut.stopped_by in ("max_nodes", "max_seconds")
    assert cut.best_score <= exact.best_score <= cut.upper_bound
    end = sc.play_line(sc.new_game(seed=seed, variant=variant), cut.line)
    assert end.is_over and end.score == cut.best_score
