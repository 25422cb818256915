"""Solver benchmarks: one fixed set of seeded deals per variant, solved once per round.

    pytest benchmarks/ --benchmark-columns=min,mean,rounds
    pytest benchmarks/ --benchmark-json=bench.json      # extra_info has the per-deal numbers

The timed unit is the whole seed set (see ``conftest.py`` for the sets and how
to enlarge them). ``extra_info`` records, per deal: median, p90 and worst wall
seconds, mean nodes, nodes per second, the share of deals proven, and how many
best scores are 30s, wins and losses. The weapon rule is ``strict``.
"""

from __future__ import annotations

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import scoundrel_core as sc
from scoundrel_solver.runs.seeds import SeedRange
from scoundrel_solver.runs.summary import Outcome, summarize
from solver_table import extra_info, solve_timed

pytestmark = pytest.mark.usefixtures("warm_solver")


@pytest.mark.parametrize("variant", sc.FLEE_RULES)
def test_solve_seed_set(
    benchmark: BenchmarkFixture, bench_seeds: dict[str, SeedRange], variant: str
) -> None:
    seeds = bench_seeds[variant]
    outcomes: list[Outcome] = []

    def solve_all() -> None:
        outcomes[:] = [solve_timed(seed, variant)[1] for seed in seeds]

    benchmark.group = "solve a seed set"
    benchmark.pedantic(solve_all, rounds=1, iterations=1)
    summary = summarize(outcomes)
    benchmark.extra_info.update({"variant": variant, "seeds": str(seeds), **extra_info(summary)})
    assert summary.deals == seeds.count
