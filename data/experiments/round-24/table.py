"""The paired table of round twenty-four, from the round's files (run from the
repository's root).

    python data/experiments/round-24/table.py

It pairs classic/equal's arm (classic/strict's endgame race, from classic/equal's own 16
sampled orders: ``endgame_cap=32``, ``endgame_scored=32``, ``endgame_score_margin=1``)
with the agent as shipped on the evaluation seeds 0-1999, whose games are
``data/fair-games.parquet``'s (``experiments/fair_paired.py``'s figures). The cost check
(``benchmarks/compare_fair_games.py --out``), where it ran, played the shipped agent and
the arm in turn on the same deals: each side's median CPU seconds a game and the ratios.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
sys.path.insert(0, str(ROOT / "data" / "experiments" / "round-22"))
from table import cost_lines  # noqa: E402  (round twenty-two's cost line)

from fair_paired import HEADER, halves, load_parts, load_rows, print_rows  # noqa: E402

HERE = Path(__file__).resolve().parent
SHIPPED = ROOT / "data" / "fair-games.parquet"
ARM = (HERE / "equal-race16-0.jsonl", HERE / "equal-race16-1000.jsonl")
COST = HERE / "cost-equal-race16.jsonl"


def main() -> int:
    arm = load_parts(ARM)
    print("classic/equal, the race from 16 orders against the agent as shipped:\n")
    print_rows(HEADER, halves(arm, load_rows(SHIPPED, "classic", "equal", None), 1000))
    if COST.exists():
        print()
        print("\n".join(cost_lines("classic/equal's race from 16 orders", COST)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
