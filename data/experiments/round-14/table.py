"""The paired table of round fourteen, from the arms' files (run from the repository's root).

    python data/experiments/round-14/table.py

Each row pairs an arm (the agent with 16 sampled orders in its endgame) against the agent
as shipped on the same deals (``experiments/fair_paired.py``'s figures); the shipped
agent's games are the records of the rounds whose games ``data/fair-games.parquet``
held then (round nine's for classic/strict, round eleven's for classic/equal, which
round fifteen replaced by the arm's own games); their CPU seconds were recorded at
another time: the side-by-side cost is ``cost.py``'s.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import load_rows, print_rows  # noqa: E402

HERE = Path(__file__).resolve().parent
ROUNDS = ROOT / "data" / "experiments"
ARMS = (
    ("classic/strict", "classic", "strict", "classic-strict-samples16-eval.jsonl",
     ROUNDS / "round-9" / "fair-games.parquet"),
    ("classic/equal", "classic", "equal", "classic-equal-samples16-eval.jsonl",
     ROUNDS / "round-11" / "fair-games.parquet"),
)


def main() -> int:
    header = ("| variant | seeds | deals | won: 16 orders / 8 (shipped) | only 16 / only 8 "
              "| paired diff, points (95%) | p | CPU s a game, median: 16 (shipped, "
              "recorded apart) | 16's decisions over 1 s | games alike |")
    print_rows(header, [(variant, load_rows(HERE / arm_file, None, None, None),
                         load_rows(shipped, flee, rule, None))
                        for variant, flee, rule, arm_file, shipped in ARMS
                        if (HERE / arm_file).exists()])
    return 0


if __name__ == "__main__":
    sys.exit(main())
