"""Solver benchmarks: one fixed set of seeded deals per variant, solved once per round.

    pytest benchmarks/ --benchmark-columns=min,mean,rounds
    pytest benchmarks/ --benchmark-json=bench.json      # extra_info has the per-deal numbers

The timed unit is the whole seed set (see ``conftest.py`` for the sets and how
to enlarge them). ``extra_info`` records, per deal: median, p90 and worst wall
seconds, mean nodes, nodes per second, the share of deals proven, and how many
best scores are 30s, wins and losses. The weapon rule is ``strict``.
"""

from __future__ import annotations

import time

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import scoundrel_core as sc
from scoundrel_solver import SolveResult, solve
from solver_table import summarize

pytestmark = pytest.mark.usefixtures("warm_solver")


@pytest.mark.parametrize("variant", sc.FLEE_RULES)
def test_solve_seed_set(
    benchmark: BenchmarkFixture, bench_seeds: dict[str, range], variant: str
) -> None:
    seeds = bench_seeds[variant]
    results: list[SolveResult] = []
    walls: list[float] = []

    def solve_all() -> None:
        results.clear()
        walls.clear()
        for seed in seeds:
            t0 = time.perf_counter()
            results.append(solve(seed, variant=variant, weapon_rule="strict"))
            walls.append(time.perf_counter() - t0)

    benchmark.group = "solve a seed set"
    benchmark.pedantic(solve_all, rounds=1, iterations=1)
    summary = summarize(results, walls)
    benchmark.extra_info.update(
        {"variant": variant, "seeds": f"{seeds.start}:{seeds.stop}", **summary.extra_info()}
    )
    assert len(results) == len(seeds)
