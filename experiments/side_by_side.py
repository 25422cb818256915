"""The cost of agents measured side by side: one process plays them in turn, in blocks of
deals, so that every agent meets the same load.

    from side_by_side import alternate, summary
    alternate({"shipped": FairAgent(), "arm": other}, range(4000, 4080), "classic/strict", out)
    print(summary(out, "classic/strict", range(4000, 4080), base="shipped"))

Each game is timed by ``fair_ab.py``'s ``play`` (CPU seconds of one core) and appended to
``out`` as a JSON line (``arm``, ``variant``, then ``play``'s keys) as it ends, so a
stopped run resumes where it was: a game already in ``out`` is not played again. CPU
seconds recorded in different runs on a shared machine are not comparable; these are.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from scoundrel_solver.fair.protocol import Agent
from scoundrel_solver.runs.jsonl import LineAppender, read_json_lines

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fair_ab import play

BLOCK = 20
"""Deals an agent plays before the next agent takes its turn on the same deals."""


def alternate(arms: Mapping[str, Agent], seeds: Sequence[int], variant: str, out: Path
              ) -> list[float]:
    """Play every arm on ``seeds`` in alternating blocks of :data:`BLOCK` deals, appending
    to ``out``; the one-minute load (``os.getloadavg``) before and after each block.
    A Ctrl-C keeps every finished game and says how many this run added."""
    done = ({(r["arm"], r["variant"], r["seed"]) for _, r in read_json_lines(out)}
            if out.exists() else set())
    sink = LineAppender(out)
    loads = [os.getloadavg()[0]]
    try:
        for i in range(0, len(seeds), BLOCK):
            for arm, agent in arms.items():
                for seed in seeds[i:i + BLOCK]:
                    if (arm, variant, seed) not in done:
                        row = {"arm": arm, "variant": variant, **play(agent, seed, variant)}
                        sink.append(json.dumps(row))
            loads.append(os.getloadavg()[0])
    except KeyboardInterrupt:
        print(f"\ninterrupted: {sink.appended} games saved in {out}", file=sys.stderr)
        raise
    finally:
        sink.close()
    return loads


def summary(out: Path, variant: str, seeds: Sequence[int], base: str) -> list[str]:
    """One line per arm of ``out`` on the deals every arm played: the median CPU seconds
    of a game, its ratio to ``base``'s median, and the median of the per-deal ratios."""
    rows = {(r["arm"], r["seed"]): r for _, r in read_json_lines(out)
            if r["variant"] == variant and r["seed"] in set(seeds)}
    if not rows:
        raise ValueError(f"no deal of {out} that every arm played")
    arms = sorted({a for a, _ in rows}, key=lambda a: (a != base, a))
    if base not in arms:
        raise ValueError(f"no game of the base arm {base!r} in {out}")
    both = [s for s in seeds if all((a, s) in rows for a in arms)]
    if not both:
        raise ValueError(f"no deal of {out} that every arm played")
    cpu = {a: [float(rows[(a, s)]["cpu"]) for s in both] for a in arms}
    m0 = statistics.median(cpu[base])
    lines = []
    for a in arms:
        m = statistics.median(cpu[a])
        # a game too quick for the clock's resolution takes 0 s: no ratio to it
        per = [x / y for x, y in zip(cpu[a], cpu[base], strict=True) if y > 0]
        of_medians = f"{m / m0:.2f}" if m0 > 0 else "-"
        per_deal = f"{statistics.median(per):.2f}" if per else "-"
        lines.append(f"{variant}, {len(both)} deals, {a}: CPU s a game, median {m:.2f} "
                     f"(ratio of medians {of_medians}, median per-deal ratio {per_deal})")
    return lines
