"""Solving many deals: a generator over seeds and a resumable JSON-lines file.

Each line of the file is one result's JSON object (``SolveResult.to_json``).
Re-running with the same file skips the seeds already in it for the same
variant and weapon rule, so a long run can be stopped and resumed (and many
files from many machines can be concatenated).
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import scoundrel_core as sc

from .progress import Progress
from .result import SolveResult
from .solve import solve
from .table import DEFAULT_TABLE_MIB

__all__ = ["done_seeds", "parse_seeds", "read_results", "solve_seeds", "summarize"]


def parse_seeds(text: str) -> range:
    """``A:B`` (A up to B-1) or a single seed ``N``."""
    lo_text, colon, hi_text = text.partition(":")
    try:
        lo = int(lo_text, 10)
        hi = int(hi_text, 10) if colon else lo + 1
    except ValueError:
        raise sc.SeedError(f"bad seed range {text!r}: expected A:B or N") from None
    if lo < 0 or hi <= lo or hi - 1 > sc.MAX_SEED:
        raise sc.SeedError(f"bad seed range {text!r}: need 0 <= A < B <= 2**64")
    return range(lo, hi)


def read_results(path: str | Path) -> Iterator[dict[str, Any]]:
    """The rows of a results file (missing file: none)."""
    path = Path(path)
    if not path.exists():
        return
    with path.open() as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                raise ValueError(f"{path}:{n}: not a JSON line; is this a results file?") from None
            if not isinstance(row, dict) or "seed" not in row:
                raise ValueError(f"{path}:{n}: not a solver result")
            yield row


def done_seeds(path: Path, variant: str, weapon_rule: str) -> set[int]:
    """Seeds already solved in a results file for this variant and weapon rule."""
    return {
        int(row["seed"]) for row in read_results(path)
        if row.get("variant") == variant and row.get("weapon_rule") == weapon_rule
    }


def solve_seeds(
    seeds: Iterable[int],
    variant: str = "classic",
    weapon_rule: str | None = None,
    out: str | Path | None = None,
    max_seconds: float | None = None,
    table_mib: int = DEFAULT_TABLE_MIB,
    progress: bool = True,
) -> Iterator[SolveResult]:
    """Solve each seed (skipping those already in ``out``), appending results to ``out``."""
    v = sc.get_variant(variant, weapon_rule)
    todo = list(seeds)
    path = Path(out) if out is not None else None
    if path is not None:
        skip = done_seeds(path, v.name, v.weapon_rule)
        todo = [s for s in todo if s not in skip]
    sink = path.open("a") if path is not None else None
    try:
        with Progress(len(todo), f"solving {v}", enabled=progress) as bar:
            for seed in todo:
                r = solve(seed, variant=v.name, weapon_rule=v.weapon_rule,
                          max_seconds=max_seconds, table_mib=table_mib)
                if sink is not None:
                    sink.write(json.dumps(r.to_json()) + "\n")
                    sink.flush()
                bar.advance(note=f"seed {seed}: {r.best_score}")
                yield r
    finally:
        if sink is not None:
            sink.close()


def summarize(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Counts and timings of result rows (``SolveResult.to_json`` objects)."""
    rows = list(rows)
    if not rows:
        return {"deals": 0}
    secs = sorted(r["seconds"] for r in rows)
    scores = Counter(r["best_score"] for r in rows)
    return {
        "deals": len(rows),
        "proven": sum(r["proven"] for r in rows),
        "winnable": sum(bool(r["winnable"]) for r in rows),
        "score_30": scores.get(30, 0),
        "mean_score": statistics.fmean(r["best_score"] for r in rows),
        "median_seconds": statistics.median(secs),
        "worst_seconds": secs[-1],
        "mean_nodes": statistics.fmean(r["nodes"] for r in rows),
        "scores": dict(sorted(scores.items())),
    }
