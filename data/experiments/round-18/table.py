"""The paired table of round eighteen, from the arm's files (run from the repository's root).

    python data/experiments/round-18/table.py

The table pairs classic/equal's agent with a win model fitted on the games of the agent
as shipped (``classic-equal-model.json``) against the agent as shipped on the same deals
(``experiments/fair_paired.py``'s figures). The shipped agent's games are round sixteen's
arm on seeds 2000-3999, which plays as the shipped agent does; their CPU seconds were
recorded at another time. The first line compares the two models' mean chance at the
first room of this round's training games with the rate at which those games were won.
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
# the training games ran as two processes, one file each, as did the arm
TRAIN = (HERE / "classic-equal-train-a.jsonl", HERE / "classic-equal-train-b.jsonl")
MODEL = HERE / "classic-equal-model.json"
ARM = (HERE / "classic-equal-model-a.jsonl", HERE / "classic-equal-model-b.jsonl")
SHIPPED = HERE.parent / "round-16" / "classic-equal-model-fresh.jsonl"


def first_room_chances() -> None:
    """Each win model's mean chance at the first room of the training games against the
    rate at which those games were won."""
    games = [json.loads(line) for path in TRAIN for line in path.read_text().splitlines()]
    games.sort(key=lambda g: g["seed"])
    won = statistics.fmean(float(g["won"]) for g in games)
    print(f"{len(games)} games (seeds {games[0]['seed']}-{games[-1]['seed']}): "
          f"won {100 * won:.1f}%; mean chance at the first room:", end="")
    for name, coef in (("shipped", leaf.shipped_models()["classic/equal"]),
                       ("refitted", leaf.win_model_from(MODEL, "classic/equal"))):
        chances = [1 / (1 + math.exp(-sum(c * x for c, x in zip(coef, g["x"][0], strict=True))))
                   for g in games]
        print(f" {name} {100 * statistics.fmean(chances):.1f}%", end="")
    print()


def main() -> int:
    first_room_chances()
    arm: dict[int, dict[str, Any]] = {}
    for path in ARM:
        if path.exists():
            arm.update(load_rows(path, None, None, None))
    shipped = load_rows(SHIPPED, None, None, None)
    header = ("| deals | seeds | games | won: arm / shipped | only arm / only shipped "
              "| paired diff, points (95%) | p | CPU s a game, median: arm (shipped) "
              "| the arm's decisions over 1 s | games alike |")
    print_rows(header, [("fresh", arm, shipped)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
