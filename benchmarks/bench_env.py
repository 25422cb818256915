"""Steps per second of the Scoundrel environments, driven by random legal actions.

    /work/venv/bin/python benchmarks/bench_env.py [--seconds 3] [--repeats 5]
    pytest benchmarks/bench_env.py          # the same loops under pytest-benchmark

The vector env is timed for N = 1, 64 and 4096 games; its actions are chosen
in numpy: one uniform draw per game, mapped to the k-th legal action of the
mask. Two rows per N: the env step alone (actions chosen outside the timer)
and env plus the numpy choice. The scalar env picks from its mask in Python.
Medians of ``--repeats`` runs, timed twice: by the process's CPU time (what
one core does, less disturbed by other jobs on a shared machine) and by the
wall clock; the load average is printed before and after.
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

from scoundrel_core.env import ScoundrelEnv, ScoundrelVectorEnv, random_legal_actions

VARIANT = "classic"


Clock = Callable[[], float]


def vector_steps(n: int, seconds: float, with_choice: bool, clock: Clock) -> float:
    """Game steps per second of the vector env with ``n`` games."""
    envs = ScoundrelVectorEnv(n, VARIANT)
    rng = np.random.default_rng(0)
    _, info = envs.reset(seed=0)
    mask = info["action_mask"]
    steps = 0
    spent = 0.0
    while spent < seconds:
        for _ in range(10):
            t0 = clock()
            actions = random_legal_actions(mask, rng)
            t1 = clock()
            _, _, _, _, info = envs.step(actions)
            t2 = clock()
            mask = info["action_mask"]
            spent += (t2 - t0) if with_choice else (t2 - t1)
        steps += 10 * n
    return steps / spent


def scalar_steps(seconds: float, clock: Clock) -> float:
    """Steps per second of the scalar env (resets included, actions picked in the loop)."""
    env = ScoundrelEnv(VARIANT)
    rng = random.Random(0)
    _, info = env.reset(seed=0)
    steps = 0
    t0 = clock()
    while clock() - t0 < seconds:
        for _ in range(100):
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(legal[rng.randrange(len(legal))]))
            if done:
                _, info = env.reset()
        steps += 100
    return steps / (clock() - t0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=2.0, help="seconds per run")
    p.add_argument("--repeats", type=int, default=5, help="runs per row (median reported)")
    args = p.parse_args()
    vector_steps(4, 0.05, True, time.perf_counter)  # compile (or load) the kernel first
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'env':<36} {'steps/s (CPU time)':>19} {'steps/s (wall)':>15}")
    rows: list[tuple[str, Callable[[Clock], float]]] = []
    for n in (1, 64, 4096):
        for choice in (False, True):
            name = f"vector N={n}, " + ("step + numpy choice" if choice else "step only")
            rows.append((name, lambda c, n=n, ch=choice: vector_steps(n, args.seconds, ch, c)))
    rows.append(("scalar, step + Python choice", lambda c: scalar_steps(args.seconds, c)))
    for name, run in rows:
        cpu = statistics.median(run(time.process_time) for _ in range(args.repeats))
        wall = statistics.median(run(time.perf_counter) for _ in range(args.repeats))
        print(f"{name:<36} {cpu:>19,.0f} {wall:>15,.0f}", flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


# -- pytest-benchmark ------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 64, 4096])
def test_bench_vector_step(benchmark: pytest.FixtureRequest, n: int) -> None:
    envs = ScoundrelVectorEnv(n, VARIANT)
    rng = np.random.default_rng(0)
    _, info = envs.reset(seed=0)
    state = {"mask": info["action_mask"]}

    def step() -> None:
        _, _, _, _, inf = envs.step(random_legal_actions(state["mask"], rng))
        state["mask"] = inf["action_mask"]

    benchmark(step)  # type: ignore[operator]
    benchmark.extra_info["games_per_call"] = n  # type: ignore[attr-defined]


def test_bench_scalar_step(benchmark: pytest.FixtureRequest) -> None:
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
