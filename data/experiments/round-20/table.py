"""The paired table of round twenty, from the arm's files (run from the repository's root).

    python data/experiments/round-20/table.py

The table pairs classic/equal's agent playing its endgame from 30 unseen cards with the
agent as shipped (endgame from 24) on the same fresh deals (``experiments/fair_paired.py``'s
figures): the shipped agent's games are round sixteen's
``classic-equal-model-fresh.jsonl``, whose CPU seconds were recorded at another time, so the
cost is checked on its own row: both sides played side by side on seeds 5000-5299.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import HEADER, load_parts, load_rows, print_rows  # noqa: E402

HERE = Path(__file__).resolve().parent
SHIPPED = HERE.parent / "round-16" / "classic-equal-model-fresh.jsonl"
# the arm ran as two processes on seeds 2000-2999, then two more on 3000-4999
FIRST = (HERE / "endgame30-a.jsonl", HERE / "endgame30-b.jsonl")
MORE = (HERE / "endgame30-c.jsonl", HERE / "endgame30-d.jsonl")
COST = (HERE / "cost-endgame30.jsonl", HERE / "cost-shipped.jsonl")


def main() -> int:
    first, more = load_parts(FIRST), load_parts(MORE)
    shipped = load_rows(SHIPPED, None, None, None)
    rows = [("fresh", first, shipped)]
    if more:
        rows += [("more fresh", more, shipped), ("both", first | more, shipped)]
    cost_arm, cost_shipped = load_parts(COST[:1]), load_parts(COST[1:])
    if cost_arm and cost_shipped:
        rows.append(("cost check, side by side", cost_arm, cost_shipped))
    print_rows(HEADER, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
