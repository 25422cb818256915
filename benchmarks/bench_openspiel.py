"""The OpenSpiel game's speed beside the gymnasium env's, driven by random legal actions.

    python benchmarks/bench_openspiel.py [--seconds 5]

Rows (all in this one thread, each the median rate over batches, by CPU time):

- ``openspiel apply_action``: ``state.apply_action`` alone, on random games of
  ``python_scoundrel`` (classic/strict); the actions (a legal action at a
  decision, a card of ``chance_outcomes()`` at a chance node) are listed and
  drawn outside the timed span. Chance nodes count as steps: a game is about
  one chance step per card drawn plus one per decision;
- ``openspiel step``: the same with the listing and the draw inside the timed span;
- ``openspiel clone``: ``state.clone()`` of states taken along random games;
- ``env step``: ``ScoundrelEnv.step`` of a random legal action chosen from
  ``info["action_mask"]``, plus ``reset()`` when a game ends (the scalar row
  of ``benchmarks/bench_env.py``);
- ``env decisions per openspiel decision``: how much faster the env makes one
  decision than OpenSpiel makes one decision and its chance steps.

The load average is printed before and after: quote it beside the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

import gymnasium
import numpy as np
import pyspiel

import scoundrel_core.env  # registers Scoundrel-v0
import scoundrel_core.openspiel  # noqa: F401  (registers python_scoundrel)

BATCH = 2000


def median_rate(batch: Callable[[], tuple[int, float]], seconds: float) -> float:
    """Run ``batch`` (returns work done and CPU seconds spent) for ``seconds``; median rate."""
    rates = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(rates) < 3:
        n, cpu = batch()
        rates.append(n / cpu if cpu > 0 else float("inf"))
    return statistics.median(rates)


def openspiel_rows(seconds: float) -> dict[str, float]:
    game = pyspiel.load_game("python_scoundrel")
    rng = random.Random(0)
    state = game.new_initial_state()
    decisions = [0, 0]  # decisions, all steps (for the ratio)

    def choose(s: pyspiel.State) -> int:
        if s.is_chance_node():
            return rng.choice(s.chance_outcomes())[0]  # type: ignore[no-any-return]
        return rng.choice(s.legal_actions())  # type: ignore[no-any-return]

    def apply_only() -> tuple[int, float]:
        nonlocal state
        cpu = 0.0
        for _ in range(BATCH):
            if state.is_terminal():
                state = game.new_initial_state()
            a = choose(state)
            decisions[0] += not state.is_chance_node()
            decisions[1] += 1
            t = time.process_time()
            state.apply_action(a)
            cpu += time.process_time() - t
        return BATCH, cpu

    def step() -> tuple[int, float]:
        nonlocal state
        t = time.process_time()
        for _ in range(BATCH):
            if state.is_terminal():
                state = game.new_initial_state()
            state.apply_action(choose(state))
        return BATCH, time.process_time() - t

    samples = []
    s = game.new_initial_state()
    while len(samples) < 500:
        if s.is_terminal():
            s = game.new_initial_state()
        s.apply_action(choose(s))
        samples.append(s.clone())

    def clone() -> tuple[int, float]:
        t = time.process_time()
        for x in samples:
            x.clone()
        return len(samples), time.process_time() - t

    rows = {
        "openspiel apply_action": median_rate(apply_only, seconds),
        "openspiel step": median_rate(step, seconds),
        "openspiel clone": median_rate(clone, seconds),
    }
    rows["openspiel steps per decision"] = decisions[1] / max(1, decisions[0])
    return rows


def env_row(seconds: float) -> float:
    env = gymnasium.make("scoundrel_core.env:Scoundrel-v0").unwrapped
    rng = random.Random(0)
    _, info = env.reset(seed=0)

    def batch() -> tuple[int, float]:
        nonlocal info
        t = time.process_time()
        for _ in range(BATCH):
            a = rng.choice(np.flatnonzero(info["action_mask"]))
            _, _, done, _, info = env.step(a)
            if done:
                _, info = env.reset()
        return BATCH, time.process_time() - t

    return median_rate(batch, seconds)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="time per row")
    args = p.parse_args(argv)
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = openspiel_rows(args.seconds)
    env = env_row(args.seconds)
    per = rows.pop("openspiel steps per decision")
    for name, rate in rows.items():
        print(f"{name:<28} {rate:>12,.0f} per CPU second")
    print(f"{'env step':<28} {env:>12,.0f} per CPU second")
    print(f"openspiel steps per decision (chance included): {per:.2f}")
    decision_rate = rows["openspiel step"] / per
    print(f"decisions per CPU second: env {env:,.0f}, openspiel {decision_rate:,.0f} "
          f"(env {env / decision_rate:.1f}x)")
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
