"""The cost of 16 sampled endgame orders against 8, side by side (run from the repository's
root, on a machine otherwise idle as far as can be had):

    python data/experiments/round-14/cost.py [--seeds 0:80] [--variant classic/strict]

One process plays the shipped agent and the arm in alternating blocks of 20 seeds, each
game timed by ``experiments/fair_ab.py``'s ``play`` (CPU seconds of one core), so that both
meet the same load. Rows are appended to ``cost.jsonl`` (``arm``, ``variant``, then
``play``'s keys; a rerun skips what is done), and the medians, their ratio, the median of
the per-deal ratios and the load (``os.getloadavg``) are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.config import configs_with
from scoundrel_solver.runs.jsonl import LineAppender, read_json_lines
from scoundrel_solver.runs.seeds import parse_seed_range

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_ab import play  # noqa: E402

OUT = Path(__file__).resolve().parent / "cost.jsonl"
BLOCK = 20


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="0:80")
    p.add_argument("--variant", default="classic/strict")
    args = p.parse_args()
    seeds = list(parse_seed_range(args.seeds))
    arms = {"shipped": FairAgent(), "samples16": FairAgent(configs_with(endgame_samples=16))}
    done = ({(r["arm"], r["variant"], r["seed"]) for _, r in read_json_lines(OUT)}
            if OUT.exists() else set())
    sink = LineAppender(OUT)
    loads = [os.getloadavg()[0]]
    try:
        for i in range(0, len(seeds), BLOCK):
            for arm, agent in arms.items():
                for seed in seeds[i:i + BLOCK]:
                    if (arm, args.variant, seed) not in done:
                        row = {"arm": arm, "variant": args.variant, **play(agent, seed,
                                                                            args.variant)}
                        sink.append(json.dumps(row))
            loads.append(os.getloadavg()[0])
    except KeyboardInterrupt:
        print(f"interrupted: {sink.appended} games saved in {OUT}", file=sys.stderr)
        return 130
    finally:
        sink.close()
    rows = {(r["arm"], r["seed"]): r for _, r in read_json_lines(OUT)
            if r["variant"] == args.variant and r["seed"] in set(seeds)}
    both = [s for s in seeds if ("shipped", s) in rows and ("samples16", s) in rows]
    cpu = {a: [rows[(a, s)]["cpu"] for s in both] for a in arms}
    m8, m16 = statistics.median(cpu["shipped"]), statistics.median(cpu["samples16"])
    ratio = statistics.median(b / a for a, b in zip(cpu["shipped"], cpu["samples16"],
                                                    strict=True))
    print(f"{args.variant}, {len(both)} deals: CPU s a game, median: 8 orders {m8:.2f}, "
          f"16 orders {m16:.2f} (ratio of medians {m16 / m8:.2f}, median per-deal ratio "
          f"{ratio:.2f}); load (1-min) {min(loads):.1f}-{max(loads):.1f} over the run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
