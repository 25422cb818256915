"""Steps per second of the Scoundrel environments, driven by random legal actions.

    /work/venv/bin/python benchmarks/bench_env.py [--seconds 5] [--rows TEXT]
    pytest benchmarks/bench_env.py          # the same loops under pytest-benchmark

The issue's targets: the vector env at N = 4096 stepped with random legal
actions chosen in numpy, >= 5 M steps/s on one core; the scalar env >= 50,000
steps/s. Everything runs in this one thread (the numba kernel is serial and
the numpy choice uses no BLAS).

The vector env is timed for N = 1, 64 and 4096 games, three rows per N:

- "step + choice from lists": one call of ``envs.step`` and, in the same
  timed span, ``random_listed_actions(info["legal_actions"], rng)`` choosing
  the next actions from the lists the previous step returned: the headline
  figure. Every step plays freshly chosen actions; games that ended restart
  inside the step (next-step autoreset), so resets are timed too.
- "step + choice from mask": the same with ``random_legal_actions`` reading
  the ``(N, 89)`` mask instead.
- "step only": ``envs.step`` alone; the actions are chosen from the lists
  outside the timed span.

Two more rows time N = 4096 with ``copy=False`` (the env hands out its live
arrays instead of copies). The scalar row times ``env.step`` of a legal action
chosen from ``info["action_mask"]`` (``np.flatnonzero`` and ``random.Random``),
plus ``env.reset()`` whenever a game ends. Steps/s counts game steps: N per
call of the vector env.

Each row runs for ``--seconds`` in batches of about 4096 game steps (200 for
the scalar env) and reports the median batch rate, so that batches in which a
shared machine preempted the process do not decide the figure. It is timed
twice: by the process's CPU time and by the wall clock; the load average is
printed before and after. ``--rows`` keeps the rows whose name contains TEXT.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

import numpy as np
import pytest

from scoundrel_core.env import (
    ScoundrelEnv,
    ScoundrelVectorEnv,
    random_legal_actions,
    random_listed_actions,
)

VARIANT = "classic"


Clock = Callable[[], float]


def vector_rates(
    n: int, seconds: float, choice: str, clock: Clock, copy: bool = True
) -> list[float]:
    """Steps per second of batches of the vector env with ``n`` games (one rate per batch).

    ``choice``: "lists" or "mask" (time the numpy choice of the actions with
    the step, from ``info["legal_actions"]`` or from ``info["action_mask"]``),
    or "" (time the step only; the actions are chosen from the lists).
    """
    envs = ScoundrelVectorEnv(n, VARIANT, copy=copy)
    rng = np.random.default_rng(0)
    _, info = envs.reset(seed=0)
    calls = max(1, 4096 // n)  # a batch is about 4096 game steps
    rates: list[float] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        spent = 0.0
        for _ in range(calls):
            t0 = clock()
            if choice == "mask":
                actions = random_legal_actions(info["action_mask"], rng)
            else:
                actions = random_listed_actions(info["legal_actions"], rng)
            t1 = clock()
            _, _, _, _, info = envs.step(actions)
            t2 = clock()
            spent += (t2 - t0) if choice else (t2 - t1)
        rates.append(calls * n / spent)
    return rates


def scalar_rates(seconds: float, clock: Clock) -> list[float]:
    """Steps per second of batches of 200 scalar steps (resets and action choice included)."""
    env = ScoundrelEnv(VARIANT)
    rng = random.Random(0)
    _, info = env.reset(seed=0)
    rates: list[float] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        t0 = clock()
        for _ in range(200):
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(legal[rng.randrange(len(legal))]))
            if done:
                _, info = env.reset()
        rates.append(200 / (clock() - t0))
    return rates


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="seconds per row and clock")
    p.add_argument("--rows", default="", help="time only the rows whose name contains this")
    args = p.parse_args()
    vector_rates(4, 0.05, "mask", time.perf_counter)  # compile (or load) the kernel first
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'env':<52} {'steps/s (CPU time)':>19} {'steps/s (wall)':>15}")
    rows: list[tuple[str, Callable[[Clock], list[float]]]] = []
    what = {"lists": "step + choice from lists", "mask": "step + choice from mask",
            "": "step only"}
    for n in (4096, 64, 1):
        for choice, label in what.items():
            name = f"vector N={n}, {label}"
            rows.append((name, lambda c, n=n, ch=choice: vector_rates(n, args.seconds, ch, c)))
    for choice in ("lists", ""):
        name = f"vector N=4096, {what[choice]}, copy=False"
        rows.append((name, lambda c, ch=choice: vector_rates(4096, args.seconds, ch, c, False)))
    scalar = "scalar, step + choice from mask, resets"
    rows.append((scalar, lambda c: scalar_rates(args.seconds, c)))
    for name, run in rows:
        if args.rows not in name:
            continue
        cpu = statistics.median(run(time.process_time))
        wall = statistics.median(run(time.perf_counter))
        print(f"{name:<52} {cpu:>19,.0f} {wall:>15,.0f}", flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


# -- pytest-benchmark ------------------------------------------------------------------


@pytest.mark.parametrize("choice", ["lists", "mask"])
@pytest.mark.parametrize("n", [1, 64, 4096])
def test_bench_vector_step(benchmark: pytest.FixtureRequest, n: int, choice: str) -> None:
    """One step of ``n`` games with the numpy choice of its actions (from the lists
    of legal actions or from the mask of the previous step)."""
    envs = ScoundrelVectorEnv(n, VARIANT)
    rng = np.random.default_rng(0)
    _, info = envs.reset(seed=0)
    state = {"info": info}

    def step() -> None:
        inf = state["info"]
        if choice == "mask":
            actions = random_legal_actions(inf["action_mask"], rng)
        else:
            actions = random_listed_actions(inf["legal_actions"], rng)
        state["info"] = envs.step(actions)[4]

    benchmark(step)  # type: ignore[operator]
    benchmark.extra_info["games_per_call"] = n  # type: ignore[attr-defined]


def test_bench_scalar_step(benchmark: pytest.FixtureRequest) -> None:
    """One scalar step of a legal action chosen from the mask (a reset when it ends the game)."""
    env = ScoundrelEnv(VARIANT)
    rng = random.Random(0)
    _, info = env.reset(seed=0)
    state = {"info": info}

    def step() -> None:
        legal = np.flatnonzero(state["info"]["action_mask"])
        _, _, done, _, inf = env.step(int(legal[rng.randrange(len(legal))]))
        state["info"] = env.reset()[1] if done else inf

    benchmark(step)  # type: ignore[operator]


if __name__ == "__main__":
    main()
