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

import sys
from pathlib import Path

from scoundrel_solver.fair import leaf

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import HEADER, load_parts, load_rows, print_rows  # noqa: E402
from first_room import first_room_line, read_games  # noqa: E402

HERE = Path(__file__).resolve().parent
# the training games ran as two processes, one file each, as did the arm
TRAIN = (HERE / "classic-equal-train-a.jsonl", HERE / "classic-equal-train-b.jsonl")
MODEL = HERE / "classic-equal-model.json"
ARM = (HERE / "classic-equal-model-a.jsonl", HERE / "classic-equal-model-b.jsonl")
SHIPPED = HERE.parent / "round-16" / "classic-equal-model-fresh.jsonl"


def first_room_chances() -> None:
    """Each win model's mean chance at the first room of the training games against the
    rate at which those games were won."""
    print(first_room_line(read_games(TRAIN), [
        ("shipped", leaf.shipped_models()["classic/equal"]),
        ("refitted", leaf.win_model_from(MODEL, "classic/equal"))]))


def main() -> int:
    first_room_chances()
    arm = load_parts(ARM)
    shipped = load_rows(SHIPPED, None, None, None)
    print_rows(HEADER, [("fresh", arm, shipped)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
