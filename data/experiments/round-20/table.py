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
# the arm ran as two processes on seeds 2000-2999, then two more from 3000 and from 4000
# (stopped at 3557 and 4618)
FIRST = (HERE / "endgame30-a.jsonl", HERE / "endgame30-b.jsonl")
MORE = (HERE / "endgame30-c.jsonl", HERE / "endgame30-d.jsonl")


def main() -> int:
    first, more = load_parts(FIRST), load_parts(MORE)
    shipped = load_rows(SHIPPED, None, None, None)
    rows = [("fresh", first, shipped)]
    if more:
        rows += [("more fresh", more, shipped), ("both", first | more, shipped)]
    print_rows(HEADER, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
