"""The cost of the endgame's race against the shipped endgame, side by side (run from the
repository's root):

    python data/experiments/round-21/cost.py [--seeds 4000:4080]

One process plays the shipped agent, the two races (up to 16 and up to 32 orders,
margin one win) and the race up to 32 that drops no action (every action tallied on every
order drawn, as the values a player is shown need) on classic/strict in alternating
blocks of 20 deals (``experiments/side_by_side.py``), appending to ``cost.jsonl`` (a
rerun skips what is done), then prints each arm's median CPU seconds a game and its
ratios to the shipped agent's, with the one-minute load over the run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.runs.seeds import parse_seed_range

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from pimc_sequential import SequentialAgent  # noqa: E402
from side_by_side import alternate, summary  # noqa: E402

OUT = Path(__file__).resolve().parent / "cost.jsonl"
VARIANT = "classic/strict"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="4000:4080")
    args = p.parse_args()
    seeds = list(parse_seed_range(args.seeds))
    arms = {"shipped": FairAgent(), "race16": SequentialAgent(16, 1),
            "race32": SequentialAgent(32, 1), "all32": SequentialAgent(32, 1, drop=False)}
    try:
        loads = alternate(arms, seeds, VARIANT, OUT)
    except KeyboardInterrupt:
        return 130
    print("\n".join(summary(OUT, VARIANT, seeds, "shipped")))
    print(f"load (1-min) {min(loads):.1f}-{max(loads):.1f} over the run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
