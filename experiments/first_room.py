"""A win model's mean chance at the first room of training games, against the rate at
which those games were won: the first line of the leaf rounds' tables (thirteen and
sixteen to eighteen), which says how far a model's chances sit from the agent's play.

The games are ``scripts/train_fair_leaf.py play`` lines: ``seed``, ``won``, and ``x``,
the win model's features at every room boundary, the first room's first. A model is
its coefficients over ``leaf.FEATURES``, as ``leaf.shipped_models()`` and
``leaf.win_model_from`` give them.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from scoundrel_solver.runs.jsonl import read_json_lines


def read_games(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """The games of one or more training caches (one per process that played them), in
    seed order."""
    games = [row for path in paths for _, row in read_json_lines(path)]
    return sorted(games, key=lambda g: int(g["seed"]))


def mean_first_room_chance(games: Sequence[dict[str, Any]], coef: Sequence[float]) -> float:
    """The logistic model's chance of a win at each game's first room, averaged."""
    return statistics.fmean(
        1 / (1 + math.exp(-sum(c * x for c, x in zip(coef, g["x"][0], strict=True))))
        for g in games)


def first_room_line(games: Sequence[dict[str, Any]],
                    models: Iterable[tuple[str, Sequence[float]]]) -> str:
    """``N games (seeds A-B): won W%; mean chance at the first room: NAME P% ...``."""
    won = statistics.fmean(float(g["won"]) for g in games)
    line = (f"{len(games)} games (seeds {games[0]['seed']}-{games[-1]['seed']}): "
            f"won {100 * won:.1f}%; mean chance at the first room:")
    for name, coef in models:
        line += f" {name} {100 * mean_first_room_chance(games, coef):.1f}%"
    return line
