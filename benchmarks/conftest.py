"""pytest setup for the solver benchmarks (not part of the default test run).

    pytest benchmarks/                      # the default seed sets
    SCOUNDREL_BENCH_SEEDS=0:1000 pytest benchmarks/
    pytest benchmarks/ --bench-seeds "hard=0:2000,classic=0:200"

Seed sets, per variant: hard 0:200, classic 0:50, easy 0:20. ``--bench-seeds``
(default: the ``SCOUNDREL_BENCH_SEEDS`` environment variable) replaces them: a
plain range ``A:B`` (seeds A to B-1) applies to every variant,
``variant=range`` entries separated by commas to that variant only.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import scoundrel_core as sc
from scoundrel_solver.runs.seeds import SeedRange, parse_seed_range

DEFAULT_SEEDS = {"hard": SeedRange(0, 200), "classic": SeedRange(0, 50), "easy": SeedRange(0, 20)}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--bench-seeds",
        default=os.environ.get("SCOUNDREL_BENCH_SEEDS", ""),
        help="seed sets for the solver benchmarks: 0:1000, or hard=0:2000,classic=0:200",
    )


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    # Collect bench_*.py when the benchmarks directory is given (pytest's default
    # pattern is test_*.py); files named on the command line are collected anyway.
    if (
        file_path.suffix == ".py"
        and file_path.name.startswith("bench_")
        and not parent.session.isinitpath(file_path)
    ):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


def parse_seed_sets(text: str) -> dict[str, SeedRange]:
    sets = dict(DEFAULT_SEEDS)
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, eq, seeds = item.rpartition("=")
        if not eq:
            sets = {variant: parse_seed_range(seeds) for variant in sets}
        elif name.strip() in sets:
            sets[name.strip()] = parse_seed_range(seeds)
        else:
            raise pytest.UsageError(f"--bench-seeds: unknown variant {name!r} in {text!r}")
    return sets


@pytest.fixture(scope="session")
def bench_seeds(request: pytest.FixtureRequest) -> dict[str, SeedRange]:
    try:
        return parse_seed_sets(str(request.config.getoption("--bench-seeds")))
    except ValueError as err:
        raise pytest.UsageError(f"--bench-seeds: {err}") from None


@pytest.fixture(scope="session")
def warm_solver() -> None:
    """Compile the solver's numba kernels once, before anything is timed."""
    from scoundrel_solver import solve

    for variant in sc.FLEE_RULES:
        for weapon_rule in sc.WEAPON_RULES:
            small = sc.new_game(
                deck="5C 9D 3H QS 2S 7H", partial=True, variant=variant, weapon_rule=weapon_rule
            )
            solve(small, variant=variant, weapon_rule=weapon_rule)
