"""The paired table of round twenty, from the arm's files (run from the repository's root).

    python data/experiments/round-20/table.py

The table pairs classic/equal's agent playing its endgame from 30 unseen cards with the
agent as shipped (endgame from 24) on the same fresh deals (``experiments/fair_paired.py``'s
figures): the shipped agent's games are round sixteen's
``classic-equal-model-fresh.jsonl``, whose CPU seconds were recorded at another time.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import HEADER, load_parts, load_rows, print_rows  # noqa: E402

HERE = Path(__file__).resolve().parent
SHIPPED = HERE.parent / "round-16" / "classic-equal-model-fresh.jsonl"
ARM = (HERE / "endgame30-a.jsonl", HERE / "endgame30-b.jsonl")


def main() -> int:
    arm = load_parts(ARM)
    shipped = load_rows(SHIPPED, None, None, None)
    print_rows(HEADER, [("fresh", arm, shipped)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
