"""Benchmark of the fair search: cost per decision by depth and unseen cards,
and the strength of the leaf evaluation (depth 0) against deeper search.

    python benchmarks/bench_fair.py [--games 100] [--seed0 20000]

Positions come from seeded deals played by the depth-0 agent; seeds default
to 20000+ (outside the 0..9999 evaluation range used in the report).
"""

from __future__ import annotations

import argparse
import time

import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.api import play_with
from scoundrel_solver.fair.config import configs_with


def positions(seed: int) -> dict[int, InfoState]:
    """The first room-start position at or below each unseen count of interest."""
    agent = FairAgent(configs_with(max_depth=0))
    s = sc.new_game(seed=seed)
    info = InfoState.initial(s)
    wanted = [36, 24, 16, 10, 6]
    found: dict[int, InfoState] = {}
    while not s.is_over and wanted:
        if info.resolved_in_room == 0 and len(info.unseen) <= wanted[0]:
            found[wanted.pop(0)] = info
        a, _ = agent.choose(info)
        s2 = sc.apply(s, a)
        info = observe(info, a, s2)
        s = s2
    return found


def bench_decisions(seeds: range) -> None:
    print("unseen  depth  decisions  nodes/decision  ms/decision  exact")
    agent = FairAgent()
    table: dict[tuple[int, int], list[tuple[int, float, bool]]] = {}
    for seed in seeds:
        for u, info in positions(seed).items():
            for depth in (0, 1, 2):
                if depth == 2 and u > 10:
                    continue
                agent.reset()
                t = time.perf_counter()
                vals, nodes = agent.search(info, depth)
                dt = time.perf_counter() - t
                table.setdefault((u, depth), []).append((nodes, dt, all(v.exact for v in vals)))
    for (u, depth), rows in sorted(table.items(), key=lambda kv: (-kv[0][0], kv[0][1])):
        n = len(rows)
        nodes = sum(r[0] for r in rows) / n
        ms = 1000 * sum(r[1] for r in rows) / n
        exact = sum(r[2] for r in rows)
        print(f"{u:6d}  {depth:5d}  {n:9d}  {nodes:14.0f}  {ms:11.2f}  {exact}/{n}")


def bench_strength(seeds: range) -> None:
    print("\nagent                               games  wins  mean score  s/game")
    configs = {
        "depth 0 everywhere": FairAgent(configs_with(max_depth=0)),
        "default (deepen 30, PIMC 24)": FairAgent(),
        "deepen from 40 unseen": FairAgent(configs_with(deepen_at=40)),
    }
    for name, agent in configs.items():
        t = time.perf_counter()
        games = [play_with(agent, s) for s in seeds]
        dt = time.perf_counter() - t
        wins = sum(g.won for g in games)
        mean = sum(g.score for g in games) / len(games)
        print(f"{name:34s}  {len(games):5d}  {wins:4d}  {mean:10.2f}  {dt / len(games):6.3f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed0", type=int, default=20000)
    p.add_argument("--positions", type=int, default=5)
    args = p.parse_args()
    bench_decisions(range(args.seed0, args.seed0 + args.positions))
    bench_strength(range(args.seed0, args.seed0 + args.games))


if __name__ == "__main__":
    main()
