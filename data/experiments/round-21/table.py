"""The paired table of round twenty-one, from the arm's files (run from the repository's root).

    python data/experiments/round-21/table.py

The table pairs classic/strict's agent drawing more orders in its endgame while its
choice is close (``experiments/pimc_sequential.py``) with the agent as shipped on the
same deals (``experiments/fair_paired.py``'s figures): the shipped agent's games are
round nine's (``data/experiments/round-9/fair-games.parquet``, then
``data/fair-games.parquet``'s), whose CPU seconds were recorded at another time. A last
line gives the mean orders the arm tallied at an endgame decision of two or more actions,
and the cost check (``cost.py``) each arm's median CPU seconds a game side by side.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import HEADER, halves, load_parts, load_rows, print_rows  # noqa: E402
from side_by_side import summary  # noqa: E402

HERE = Path(__file__).resolve().parent
# classic/strict's shipped games until round twenty-three's candidate was adopted
ROUND_9 = ROOT / "data" / "experiments" / "round-9" / "fair-games.parquet"
# the arm ran as two processes, seeds 0-999 and 1000-1999; then on seeds 2000-2999
# beside the race to 16 orders on 0-999 and the cost check
ARM = (HERE / "sequential-a.jsonl", HERE / "sequential-b.jsonl")
FRESH = HERE / "sequential-fresh.jsonl"
# and then on seeds 3000-3999, two processes
FRESH_MORE = (HERE / "sequential-3000.jsonl", HERE / "sequential-3500.jsonl")
RACE16 = HERE / "race16-a.jsonl"
COST = HERE / "cost.jsonl"


def main() -> int:
    arm = load_parts(ARM)
    shipped = load_rows(ROUND_9, "classic", "strict", None)
    fresh, more = load_parts([FRESH]), load_parts(FRESH_MORE)
    rows = halves(arm, shipped, 1000)
    rows += [("fresh deals", fresh, shipped), ("more fresh deals", more, shipped),
             ("fresh, both", fresh | more, shipped), ("all", arm | fresh | more, shipped),
             ("race to 16 orders", load_parts([RACE16]), shipped)]
    print_rows(HEADER, rows)
    games = [r for r in arm.values() if r["orders"]]
    print()
    print(f"Orders tallied at an endgame decision of two or more actions, the mean of the "
          f"games' means: {statistics.mean(r['orders'] for r in games):.1f} "
          f"(8 as shipped; {len(games)} games)")
    if COST.exists():
        print()
        print("\n".join(summary(COST, "classic/strict", range(4000, 4080), "shipped")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
