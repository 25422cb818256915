"""Perfect-information Monte Carlo against the fair agent: win rate, score, time.

    python scripts/pimc_games.py play --agent pimc --samples 8 --seeds 0:200 --out pimc.jsonl
    python scripts/pimc_games.py play --agent fair --seeds 0:200 --out pimc.jsonl
    python scripts/pimc_games.py table pimc.jsonl

``play`` appends one JSON line per game as soon as it ends (a stopped run
resumes: games already in the file for the same agent and samples are
skipped); ``--part i/n`` plays only the seeds equal to i modulo n, so n
processes can share a range. ``table`` prints, per agent and sample count, the seeds played,
wins, win rate with its 95% Wilson interval, mean score, and the median
CPU seconds per game (wall time on a shared machine measures the load) and
the median wall seconds per decision. Classic/strict deals, one process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import scoundrel_core as sc
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.api import play_with
from scoundrel_solver.fair.pimc import PimcAgent
from scoundrel_solver.seeds import parse_seed_range
from scoundrel_solver.summary import wilson
from scoundrel_solver.timed import TimedAgent


def _done(path: Path, agent: str, samples: int) -> set[int]:
    if not path.exists():
        return set()
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    return {r["seed"] for r in rows if r["agent"] == agent and r["samples"] == samples}


def play(args: argparse.Namespace) -> None:
    path = Path(args.out)
    samples = args.samples if args.agent == "pimc" else 0
    done = _done(path, args.agent, samples)
    pimc = PimcAgent(samples=args.samples, max_nodes=args.max_nodes) if samples else None
    k, n = map(int, args.part.split("/"))
    for seed in parse_seed_range(args.seeds):
        if seed in done or seed % n != k:
            continue
        # wall seconds: pimc-games.jsonl's decision_seconds always were
        timed = TimedAgent(pimc if pimc is not None else FairAgent(), clock=time.perf_counter)
        before = (pimc.stats.solves, pimc.stats.unproven) if pimc else (0, 0)
        t, cpu = time.perf_counter(), time.process_time()
        g = play_with(timed, seed)
        row: dict[str, Any] = {
            "agent": args.agent, "samples": samples, "seed": seed, "won": g.won,
            "score": g.score, "decisions": len(g.actions), "seconds": time.perf_counter() - t,
            "cpu_seconds": time.process_time() - cpu,
            "decision_seconds": [round(x, 4) for x in timed.seconds],
        }
        if pimc is not None:
            row["solves"] = pimc.stats.solves - before[0]
            row["unproven"] = pimc.stats.unproven - before[1]
        with path.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(seed, g.won, g.score, round(row["seconds"], 2), flush=True)


def table(args: argparse.Namespace) -> None:
    rows = [json.loads(x) for x in Path(args.file).read_text().splitlines() if x.strip()]
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["agent"], r["samples"]), []).append(r)
    common = set.intersection(*({r["seed"] for r in g} for g in groups.values()))
    print(f"| agent | K | seeds | wins | rate (95% CI) | mean score | CPU s/game (median) "
          f"| wall s/decision (median) | searches cut short |  (common seeds: {len(common)})")
    print("|---|---|---|---|---|---|---|---|---|")
    for (agent, k), g in sorted(groups.items()):
        for label, sel in (("all", g), ("common", [r for r in g if r["seed"] in common])):
            if label == "common" and len(sel) == len(g):
                continue
            n, wins = len(sel), sum(r["won"] for r in sel)
            lo, hi = wilson(wins, n)
            seeds = sorted(r["seed"] for r in sel)
            span = f"{seeds[0]}-{seeds[-1]}" + ("" if len(seeds) == seeds[-1] - seeds[0] + 1
                                               else f" ({n})")
            dec = [x for r in sel for x in r["decision_seconds"]]
            solves = sum(r.get("solves", 0) for r in sel)
            cut = f"{sum(r.get('unproven', 0) for r in sel)} of {solves}"
            print(f"| {agent} | {k or '-'} | {span} | {wins}/{n} | {wins / n:.1%} "
                  f"({lo:.1%}-{hi:.1%}) | {statistics.mean(r['score'] for r in sel):.1f} "
                  f"| {_median_cpu(sel)} "
                  f"| {statistics.median(dec):.3f} | {cut if agent == 'pimc' else '-'} |")


def _median_cpu(rows: list[dict[str, Any]]) -> str:
    """Median CPU seconds per game over the rows that recorded it (the machine is shared:
    wall time says more about the load than about the agent)."""
    cpu = [r["cpu_seconds"] for r in rows if "cpu_seconds" in r]
    return f"{statistics.median(cpu):.2f} ({len(cpu)} games)" if cpu else "-"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("play")
    pp.add_argument("--agent", choices=["pimc", "fair"], default="pimc")
    pp.add_argument("--samples", type=int, default=8)
    pp.add_argument("--max-nodes", type=int, default=2_000_000)
    pp.add_argument("--seeds", default="0:200")
    pp.add_argument("--out", default="pimc.jsonl")
    pp.add_argument("--part", default="0/1", help="i/n: only seeds equal to i modulo n")
    pt = sub.add_parser("table")
    pt.add_argument("file")
    args = p.parse_args()
    sc.new_game(seed=0)
    (play if args.cmd == "play" else table)(args)


if __name__ == "__main__":
    main()
