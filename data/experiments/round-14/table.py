"""The paired table of round fourteen, from the arms' files (run from the repository's root).

    python data/experiments/round-14/table.py

Each row pairs an arm (the agent with 16 sampled orders in its endgame) against the agent
as shipped on the same deals (``experiments/fair_paired.py``'s figures); the shipped
agent's games are ``data/fair-games.parquet``'s rows of the variant (their CPU seconds
are that file's ``cpu_seconds``, recorded at another time: the side-by-side cost is
``cost.py``'s).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import load_rows, table_cells  # noqa: E402

HERE = Path(__file__).resolve().parent
PARQUET = ROOT / "data" / "fair-games.parquet"
ARMS = (
    ("classic/strict", "classic", "strict", "classic-strict-samples16-eval.jsonl"),
    ("classic/equal", "classic", "equal", "classic-equal-samples16-eval.jsonl"),
)


def main() -> int:
    print("| variant | seeds | deals | won: 16 orders / 8 (shipped) | only 16 / only 8 "
          "| paired diff, points (95%) | p | CPU s a game, median: 16 (shipped, "
          "recorded apart) | 16's decisions over 1 s | games alike |")
    print("|---|---|---:|---|---|---|---:|---|---|---:|")
    for variant, flee, rule, arm_file in ARMS:
        if not (HERE / arm_file).exists():
            continue
        arm = load_rows(HERE / arm_file, None, None, None)
        cells = table_cells(arm, load_rows(PARQUET, flee, rule, None))
        if cells is not None:
            print(f"| {variant} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
