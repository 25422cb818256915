"""The paired table of round thirteen, from the arms' files (run from the repository's root).

    python data/experiments/round-13/table.py

Each row pairs an arm of the agent with the hard/strict win model against the agent as
shipped on the same deals (``experiments/fair_paired.py``'s figures); the shipped
agent's games are the training cache's on the training-range seeds and
``data/fair-games.parquet``'s hard/strict rows on the evaluation seeds (their CPU
seconds are that file's ``cpu_seconds``, recorded at another time).
"""

from __future__ import annotations

import sys
from pathlib import Path

from scoundrel_solver.fair import leaf

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import load_rows, print_rows  # noqa: E402
from first_room import first_room_line, read_games  # noqa: E402

HERE = Path(__file__).resolve().parent
TRAIN = HERE / "hard-strict-train.jsonl"
PARQUET = ROOT / "data" / "fair-games.parquet"
ARMS = (
    ("`hard/strict` model, win bonus 100", "hard-model-train.jsonl", TRAIN),
    ("`hard/strict` model, win bonus 400", "hard-model-x400-train.jsonl", TRAIN),
    ("`hard/strict` model, win bonus 100", "hard-model-eval.jsonl", PARQUET),
)


def first_room_chances() -> None:
    """Each win model's mean chance at the games' first room against the realised rate,
    over the training cache (every game of the shipped agent it holds)."""
    models = leaf.shipped_models()
    print(first_room_line(read_games([TRAIN]),
                          [(name, models[name]) for name in ("classic/strict", "hard/strict")]))


def main() -> int:
    first_room_chances()
    header = ("| arm | seeds | deals | won: arm / shipped | only arm / only shipped "
              "| paired diff, points (95%) | p | CPU s a game, median: arm (shipped) "
              "| the arm's decisions over 1 s | games alike |")
    rows = []
    for name, arm_file, shipped_file in ARMS:
        if not (HERE / arm_file).exists():
            continue
        arm = load_rows(HERE / arm_file, None, None, None)
        # the cache names the variant whole, the Parquet record by flee and weapon rule
        shipped = (load_rows(shipped_file, "hard/strict", None, None) if shipped_file == TRAIN
                   else load_rows(shipped_file, "hard", "strict", None))
        rows.append((name, arm, shipped))  # the training cache counts no decisions: "-"
    print_rows(header, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
