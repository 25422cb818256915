"""The paired table of round seventeen, from the arm's files (run from the repository's root).

    python data/experiments/round-17/table.py

The first table pairs classic/strict's agent with a win model fitted on classic/strict's
own games (``classic-strict-model.json``) against the agent as shipped on the same deals
(``experiments/fair_paired.py``'s figures): the shipped agent's games are
``data/fair-games.parquet``'s classic/strict rows, whose CPU seconds were recorded at
another time; its last row is the cost check, both sides played here side by side. The
second pairs hard/strict's agent with round thirteen's ``hard/strict`` model at a win
bonus of 200 against ``data/fair-games.parquet``'s hard/strict rows. The first line
compares the two classic models' mean chance at the first room of the training games
with their win rate.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

from scoundrel_solver.fair import leaf

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import load_rows, print_rows  # noqa: E402

HERE = Path(__file__).resolve().parent
TRAIN = HERE / "classic-strict-train.jsonl"
MODEL = HERE / "classic-strict-model.json"
SHIPPED = ROOT / "data" / "fair-games.parquet"
# each arm ran as two processes, one file each
ARM = (HERE / "classic-strict-model-a.jsonl", HERE / "classic-strict-model-b.jsonl")
HARD = (HERE / "hard-model-x200-a.jsonl", HERE / "hard-model-x200-b.jsonl")
COST = (HERE / "cost-model.jsonl", HERE / "cost-shipped.jsonl")


def first_room_chances() -> None:
    """Each win model's mean chance at the first room of the training games against the
    rate at which those games were won."""
    games = [json.loads(line) for line in TRAIN.read_text().splitlines()]
    won = statistics.fmean(float(g["won"]) for g in games)
    print(f"{len(games)} games (seeds {games[0]['seed']}-{games[-1]['seed']}): "
          f"won {100 * won:.1f}%; mean chance at the first room:", end="")
    for name, coef in (("shipped", leaf.shipped_models()["classic/strict"]),
                       ("refitted", leaf.win_model_from(MODEL, "classic/strict"))):
        chances = [1 / (1 + math.exp(-sum(c * x for c, x in zip(coef, g["x"][0], strict=True))))
                   for g in games]
        print(f" {name} {100 * statistics.fmean(chances):.1f}%", end="")
    print()


def read(paths: tuple[Path, ...]) -> dict[int, dict[str, Any]]:
    rows: dict[int, dict[str, Any]] = {}
    for path in paths:
        if path.exists():
            rows.update(load_rows(path, None, None, None))
    return rows


def main() -> int:
    first_room_chances()
    arm = read(ARM)
    shipped = load_rows(SHIPPED, "classic", "strict", None)
    low = {s: r for s, r in arm.items() if s < 2000}
    high = {s: r for s, r in arm.items() if s >= 2000}
    header = ("| deals | seeds | games | won: arm / shipped | only arm / only shipped "
              "| paired diff, points (95%) | p | CPU s a game, median: arm (shipped) "
              "| the arm's decisions over 1 s | games alike |")
    rows = [("first half", low, shipped), ("second half", high, shipped),
            ("both", arm, shipped)]
    cost_arm, cost_shipped = read(COST[:1]), read(COST[1:])
    if cost_arm and cost_shipped:
        rows.append(("cost check, side by side", cost_arm, cost_shipped))
    print_rows(header, rows)
    hard = read(HARD)
    if hard:
        print()
        print_rows(header.replace("| deals |", "| hard/strict, win bonus 200 |"),
                   [("evaluation", hard, load_rows(SHIPPED, "hard", "strict", None))])
    return 0


if __name__ == "__main__":
    sys.exit(main())
