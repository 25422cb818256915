"""The tables of docs/bound.md's full-deck stage, from the rows of ``scoundrel-bound --out``.

    python scripts/bound_runs_table.py            # rewrite the page's tables
    python scripts/bound_runs_table.py --check    # exit 1 if the page is stale

Two tables: the measurement of the bound against ``--steps`` and ``--value``
(``data/bound-measure.jsonl``), and the published runs (``data/bound-*-strict.jsonl``),
each the output of ``scoundrel-bound --summary`` for its file, one row per bound.
A third compares, deal by deal, the relaxed ``V`` of ``experiments/bound_relaxed.py``
(``data/experiments/round-bound-relaxed/``) with the one-room value's published rows
on the seeds both hold, and lists the scales of the relaxed ``V`` tried on training seeds.
A fourth puts the relaxed ``V`` read by a win net (``data/experiments/round-bound-net/``)
beside the one-room value and the logistic relaxed ``V`` on the same deals, with the
paired gap to the perfect-information share: the mean over deals of the term minus
1 if the deal is winnable with the dungeon seen, and its one-sided 95% upper limit.
"""

from __future__ import annotations

import argparse
import math
import statistics
from pathlib import Path
from typing import Any

from readme_findings import refresh
from readme_findings import rewrite as readme_rewrite
from scoundrel_solver.bound.rows import (
    BoundSummary,
    _t95,
    read_bound_rows,
    summarize_bound,
)

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "bound.md"
MEASURE = ROOT / "data" / "bound-measure.jsonl"
RUNS = [ROOT / "data" / f"bound-{v}-strict.jsonl" for v in ("classic", "hard")]
RELAXED = ROOT / "data" / "experiments" / "round-bound-relaxed"
NET = ROOT / "data" / "experiments" / "round-bound-net"
BLOCKS = ("bound-measure", "bound-runs", "bound-relaxed", "bound-net")


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f}%"


def table(files: list[Path]) -> str:
    head = ("| rules | V | steps | deals | bound (mean of the terms) | one-sided 95% upper "
            "| perfect information, same deals | sub-solves cut short | seconds per deal |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|---:|")
    rows: list[BoundSummary] = []
    for f in files:
        if f.is_file():
            rows += summarize_bound(read_bound_rows(f))
    rows.sort(key=lambda s: (s.variant, s.value != "zero", s.value, s.steps))
    lines = [f"| {s.variant}/{s.weapon_rule} | {s.value} | {s.steps} | {s.deals} | "
             f"{_pct(s.mean)} | {_pct(s.upper)} | {_pct(s.perfect_share)} | {s.unproven} | "
             f"{s.seconds_per_deal:.2f} |" for s in rows]
    return "\n".join([head, *lines])


def _seeds(seeds: set[int]) -> str:
    lo, hi = min(seeds), max(seeds)
    return f"{lo}-{hi}" if len(seeds) == hi - lo + 1 else f"{len(seeds)} in {lo}-{hi}"


def relaxed_table(folder: Path = RELAXED) -> str:
    """The relaxed ``V`` against the one-room value (the published runs, then the
    measurement) with the same steps on the same deals, then the scales of the relaxed
    ``V`` on training seeds."""
    head = ("| rules | V | steps | seeds | deals | bound (mean of the terms) "
            "| one-sided 95% upper | perfect information, same deals |\n"
            "|---|---|---:|---|---:|---:|---:|---:|")
    lines = [head]

    def line(s: BoundSummary, seeds: str) -> str:
        return (f"| {s.variant}/{s.weapon_rule} | {s.value} | {s.steps} | {seeds} | "
                f"{s.deals} | {_pct(s.mean)} | {_pct(s.upper)} | {_pct(s.perfect_share)} |")

    relaxed = read_bound_rows(folder / "bound-relaxed.jsonl")
    one_room: dict[tuple[str, int], dict[int, dict[str, Any]]] = {}
    for f in [*RUNS, MEASURE]:  # a seed's first row: the published run's
        for r in read_bound_rows(f):
            if r["value"] == "one-room":
                one_room.setdefault((r["variant"], r["steps"]), {}).setdefault(r["seed"], r)
    for key in sorted({(r["variant"], r["steps"]) for r in relaxed}):
        ours = [r for r in relaxed if (r["variant"], r["steps"]) == key]
        theirs = one_room.get(key, {})
        common = {r["seed"] for r in ours} & set(theirs)
        if not common:
            continue
        for rows in (list(theirs.values()), ours):
            for s in summarize_bound(r for r in rows if r["seed"] in common):
                lines.append(line(s, _seeds(common)))
    train = read_bound_rows(folder / "bound-scale-train.jsonl")
    for s in sorted(summarize_bound(train), key=lambda s: (s.variant, s.value)):
        seeds = {r["seed"] for r in train if r["value"] == s.value and r["variant"] == s.variant}
        lines.append(line(s, f"{_seeds(seeds)} (training)"))
    return "\n".join(lines)


def paired_gap(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """The mean over deals of ``term - winnable`` (the bound minus the perfect-information
    share, deal by deal) and its one-sided 95% upper limit."""
    gaps = [float(r["term"]) - float(bool(r["winnable"])) for r in rows]
    n = len(gaps)
    mean = math.fsum(gaps) / n
    return mean, mean + _t95(n - 1) * statistics.stdev(gaps) / math.sqrt(n)


def net_table(folder: Path = NET) -> str:
    """The relaxed ``V`` read by a win net, beside the one-room value and the logistic
    relaxed ``V`` with the same steps on the same deals (seeds 0-199, and every seed the
    net's rows hold when there are more), each with its paired gap to the
    perfect-information share."""
    head = ("| rules | V | steps | seeds | deals | bound (mean of the terms) "
            "| one-sided 95% upper | perfect information, same deals "
            "| bound - perfect information, paired | its one-sided 95% upper |\n"
            "|---|---|---:|---|---:|---:|---:|---:|---:|---:|")
    lines = [head]
    net = read_bound_rows(folder / "bound-net.jsonl") if (folder / "bound-net.jsonl").is_file() \
        else []
    by_value: dict[tuple[str, int, str], dict[int, dict[str, Any]]] = {}
    for f in [*RUNS, MEASURE, RELAXED / "bound-relaxed.jsonl"]:
        for r in read_bound_rows(f):
            by_value.setdefault((r["variant"], r["steps"], r["value"]), {}).setdefault(
                r["seed"], r)
    for key in sorted({(r["variant"], r["steps"]) for r in net}):
        nets: dict[str, dict[int, dict[str, Any]]] = {}
        for r in net:
            if (r["variant"], r["steps"]) == key:
                nets.setdefault(r["value"], {}).setdefault(r["seed"], r)
        held = set.intersection(*(set(v) for v in nets.values()))
        every = set.union(*(set(v) for v in nets.values()))
        windows = [s for s in ({x for x in held if x < 200}, every) if s]
        if len(windows) == 2 and windows[0] == windows[1]:
            windows.pop()
        for seeds in windows:
            arms = [v for (variant, steps, _), v in sorted(by_value.items())
                    if (variant, steps) == key and seeds <= set(v)]
            arms += [v for _, v in sorted(nets.items()) if seeds <= set(v)]
            for arm in arms:
                rows = [arm[x] for x in sorted(seeds)]
                gap, gap_upper = paired_gap(rows)
                for s in summarize_bound(rows):
                    lines.append(
                        f"| {s.variant}/{s.weapon_rule} | {s.value} | {s.steps} | "
                        f"{_seeds(seeds)} | {s.deals} | {_pct(s.mean)} | {_pct(s.upper)} | "
                        f"{_pct(s.perfect_share)} | {100 * gap:+.2f} points | "
                        f"{100 * gap_upper:+.2f} points |")
    return "\n".join(lines)


def rewrite(text: str) -> str:
    for name, body in zip(BLOCKS, (table([MEASURE]), table(RUNS), relaxed_table(),
                                   net_table()), strict=True):
        text = readme_rewrite(text, body, f"<!-- {name}: start -->", f"<!-- {name}: end -->")
    return text


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = p.parse_args(argv)
    return refresh(PAGE, rewrite(PAGE.read_text()), "python scripts/bound_runs_table.py",
                   args.check)


if __name__ == "__main__":
    raise SystemExit(main())
