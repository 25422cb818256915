"""The paired table of round fifteen, from the rounds' records (run from the repository's root).

    python data/experiments/round-15/table.py

Each row pairs classic/equal's agent with 16 sampled orders in its endgame against the
same agent with 8 on the same deals (``experiments/fair_paired.py``'s figures): on the
evaluation seeds 0-1999, the games this round played again for ``data/fair-games.parquet``
against round eleven's; on the fresh seeds from 2000, the arm played here against round
ten's games of the 8-order endgame on those seeds (the agent of 8 orders plays them
alike: ``same_score_and_decisions``). The last row pools the two.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import load_rows, print_rows  # noqa: E402

HERE = Path(__file__).resolve().parent
ROUNDS = HERE.parent


def main() -> int:
    evaluation = (load_rows(HERE / "fair-games.parquet", "classic", "equal", None),
                  load_rows(ROUNDS / "round-11" / "fair-games.parquet", "classic", "equal", None))
    fresh = (load_rows(HERE / "classic-equal-samples16-fresh.jsonl", None, None, None),
             load_rows(ROUNDS / "round-10" / "fair-ab-equal-endgame24-b.jsonl", None, None,
                       None))
    pooled = ({**evaluation[0], **fresh[0]}, {**evaluation[1], **fresh[1]})
    header = ("| deals | seeds | games | won: 16 orders / 8 | only 16 / only 8 "
              "| paired diff, points (95%) | p | CPU s a game, median: 16 (8, recorded apart) "
              "| 16's decisions over 1 s | games alike |")
    print_rows(header, [("evaluation (chose the arm)", *evaluation), ("fresh", *fresh),
                        ("both", *pooled)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
