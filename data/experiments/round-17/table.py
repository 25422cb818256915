"""The paired table of round seventeen, from the arm's files (run from the repository's root).

    python data/experiments/round-17/table.py

The first table pairs classic/strict's agent with a win model fitted on classic/strict's
own games (``classic-strict-model.json``) against the agent as shipped on the same deals
(``experiments/fair_paired.py``'s figures): the shipped agent's games are
round nine's games (``data/experiments/round-9/fair-games.parquet``, then
``data/fair-games.parquet``'s classic/strict rows), whose CPU seconds were recorded at
another time; its last row is the cost check, both sides played here side by side. The
second pairs hard/strict's agent with round thirteen's ``hard/strict`` model at a win
bonus of 200 against ``data/fair-games.parquet``'s hard/strict rows. The first line
compares the two classic models' mean chance at the first room of the training games
with their win rate.
"""

from __future__ import annotations

import sys
from pathlib import Path

from scoundrel_solver.fair import leaf

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import HEADER, halves, load_parts, load_rows, print_rows  # noqa: E402
from first_room import first_room_line, read_games  # noqa: E402

HERE = Path(__file__).resolve().parent
TRAIN = HERE / "classic-strict-train.jsonl"
MODEL = HERE / "classic-strict-model.json"
SHIPPED = ROOT / "data" / "fair-games.parquet"
# classic/strict's shipped games until round twenty-three's candidate was adopted
ROUND_9 = ROOT / "data" / "experiments" / "round-9" / "fair-games.parquet"
# each arm ran as two processes, one file each
ARM = (HERE / "classic-strict-model-a.jsonl", HERE / "classic-strict-model-b.jsonl")
HARD = (HERE / "hard-model-x200-a.jsonl", HERE / "hard-model-x200-b.jsonl")
COST = (HERE / "cost-model.jsonl", HERE / "cost-shipped.jsonl")


def first_room_chances() -> None:
    """Each win model's mean chance at the first room of the training games against the
    rate at which those games were won."""
    print(first_room_line(read_games([TRAIN]), [
        ("shipped", leaf.shipped_models()["classic/strict"]),
        ("refitted", leaf.win_model_from(MODEL, "classic/strict"))]))


def main() -> int:
    first_room_chances()
    arm = load_parts(ARM)
    shipped = load_rows(ROUND_9, "classic", "strict", None)
    rows = halves(arm, shipped, 2000)
    cost_arm, cost_shipped = load_parts(COST[:1]), load_parts(COST[1:])
    if cost_arm and cost_shipped:
        rows.append(("cost check, side by side", cost_arm, cost_shipped))
    print_rows(HEADER, rows)
    hard = load_parts(HARD)
    if hard:
        print()
        print_rows(HEADER.replace("| deals |", "| hard/strict, win bonus 200 |"),
                   [("evaluation", hard, load_rows(SHIPPED, "hard", "strict", None))])
    return 0


if __name__ == "__main__":
    sys.exit(main())
