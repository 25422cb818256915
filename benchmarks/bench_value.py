"""Speed of the learned value's numba inference: nanoseconds per position.

    /work/venv/bin/python benchmarks/bench_value.py [MODEL.json] [--rows 100000]

Evaluates the model (a file, or a network of the default shape with random
weights) on rows of features of real positions (random games, tiled to
``--rows``), with the numba kernel (``net_batch``: standardising included) and
with the numpy twin, best of five, and prints nanoseconds per position (CPU
time and wall time) and the
load average (``os.getloadavg``) beside them: the machine is shared.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import time

import numpy as np

import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.fair.value.features import FEATURES, features_of
from scoundrel_solver.fair.value.model import Net, ValueModel, load_model


def positions(n: int) -> np.ndarray:
    rows = []
    for seed in range(20):
        rng = random.Random(seed)
        s = sc.new_game(seed=seed)
        info = InfoState.initial(s)
        while not s.is_over:
            rows.append(features_of(info))
            a = rng.choice(sc.legal_actions(s))
            s2 = sc.apply(s, a)
            info, s = observe(info, a, s2), s2
    x = np.stack(rows)
    return np.ascontiguousarray(np.resize(x, (n, x.shape[1])))


def random_model(hidden: list[int]) -> ValueModel:
    rng = np.random.default_rng(0)
    widths = [len(FEATURES), *hidden, 1]

    def net() -> Net:
        return Net(tuple((rng.normal(0, 0.2, (a, b)), rng.normal(0, 0.2, b))
                         for a, b in itertools.pairwise(widths)))

    return ValueModel(np.zeros(len(FEATURES)), np.ones(len(FEATURES)), net(), net(), 0.0, 1.0)


def best(fn, repeat: int = 5) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """The least CPU time and the least wall time of ``repeat`` calls (CPU time is the
    figure to quote on a shared machine: waiting for a core does not count)."""
    cpu, wall = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
    return min(cpu), min(wall)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("model", nargs="?", default=None)
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--hidden", default="32")
    args = p.parse_args()
    model = (load_model(args.model) if args.model
             else random_model([int(h) for h in args.hidden.split(",")]))
    x = positions(min(max(args.rows, 1000), 1_000_000))
    model.win(x[:10])  # compile (or load the cache)
    fast = best(lambda: model.win(x))
    slow = best(lambda: model.win(x, fast=False))
    shapes = [tuple(int(v) for v in s) for s in model.win_net.shapes]
    n = len(x)
    print(f"win network {shapes}, {n:,} positions, ns per position (CPU / wall): "
          f"numba {1e9 * fast[0] / n:.0f} / {1e9 * fast[1] / n:.0f}, "
          f"numpy {1e9 * slow[0] / n:.0f} / {1e9 * slow[1] / n:.0f}; "
          f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
