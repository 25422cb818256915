"""The paired table of round sixteen, from the arms' files (run from the repository's root).

    python data/experiments/round-16/table.py

Each row pairs classic/equal's agent with a win model fitted on classic/equal's own
games (``classic-equal-model.json``) against the agent as shipped on the same deals
(``experiments/fair_paired.py``'s figures): on the evaluation seeds 0-1999 the shipped
agent's games are ``data/fair-games.parquet``'s classic/equal rows; on the fresh seeds,
round fifteen's games of the same agent (16 sampled orders, seeds 2000-3999) and this
round's (``shipped-fresh.jsonl``, from 4000). The shipped
side's CPU seconds were recorded at another time. The first line compares the two
models' mean chance at the first room of the training games with their win rate.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from scoundrel_solver.fair import leaf

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "experiments"))
from fair_paired import HEADER, load_rows, print_rows  # noqa: E402
from first_room import first_room_line, read_games  # noqa: E402

HERE = Path(__file__).resolve().parent
TRAIN = HERE / "classic-equal-train.jsonl"
MODEL = HERE / "classic-equal-model.json"
SHIPPED_EVAL = ROOT / "data" / "fair-games.parquet"
# the shipped agent on the fresh seeds: round fifteen's games (2000-3999), then this round's
SHIPPED_FRESH = (HERE.parent / "round-15" / "classic-equal-samples16-fresh.jsonl",
                 HERE / "shipped-fresh.jsonl")


def first_room_chances() -> None:
    """Each win model's mean chance at the first room of the training games against the
    rate at which those games were won."""
    print(first_room_line(read_games([TRAIN]), [
        ("classic/strict (shipped)", leaf.shipped_models()["classic/strict"]),
        ("classic/equal", leaf.win_model_from(MODEL, "classic/equal"))]))


def main() -> int:
    first_room_chances()
    evaluation = (load_rows(HERE / "classic-equal-model-eval.jsonl", None, None, None),
                  load_rows(SHIPPED_EVAL, "classic", "equal", None))
    shipped_fresh: dict[int, dict[str, Any]] = {}
    for path in SHIPPED_FRESH:
        shipped_fresh.update(load_rows(path, None, None, None))
    fresh = (load_rows(HERE / "classic-equal-model-fresh.jsonl", None, None, None),
             shipped_fresh)
    pooled = ({**evaluation[0], **fresh[0]}, {**evaluation[1], **fresh[1]})
    print_rows(HEADER, [("evaluation", *evaluation), ("fresh", *fresh), ("both", *pooled)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
