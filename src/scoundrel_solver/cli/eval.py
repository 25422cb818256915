"""``scoundrel-eval``: play many deals with a fair agent and report how it does.

    scoundrel-eval --agent fair|greedy|random --seeds 0:10000 [--variant classic]
                   [--weapon-rule strict] [--json] [--perfect] [--jobs N]

Every agent sees only the information state. The report gives the win rate
with a 95% Wilson interval, the mean and median score and the seconds per
game; ``--perfect`` adds the share of the same deals winnable with the whole
dungeon known (from ``scoundrel_solver.solve``).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from scoundrel_core import FLEE_RULES, WEAPON_RULES, ScoundrelError, get_variant

from ..batch import parse_seeds
from ..fair.api import Agent, make_agent, play_with
from ..progress import Progress

__all__ = ["GameRecord", "main", "parse_seeds", "wilson"]

AGENTS = ("fair", "greedy", "random")


@dataclass(frozen=True)
class GameRecord:
    seed: int
    score: int
    won: bool
    seconds: float
    exact_decisions: int
    decisions: int


def wilson(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default).

    >>> [round(x, 4) for x in wilson(20, 100)]
    [0.1334, 0.2888]
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    den = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / den
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / den
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == games else min(1.0, centre + half)
    return (lo, hi)


def _play_one(args: tuple[str, int, str, str, dict[str, Any]]) -> GameRecord:
    name, seed, variant, weapon_rule, opts = args
    agent = _agent_cache(name, variant, weapon_rule, opts)
    t = time.perf_counter()
    game = play_with(agent, seed, variant, weapon_rule)
    return GameRecord(
        seed=seed,
        score=game.score,
        won=game.won,
        seconds=time.perf_counter() - t,
        exact_decisions=sum(game.exact),
        decisions=len(game.actions),
    )


_AGENTS: dict[tuple[str, str], Agent] = {}


def _agent_cache(name: str, variant: str, weapon_rule: str, opts: dict[str, Any]) -> Agent:
    key = (name, json.dumps(opts, sort_keys=True))
    if key not in _AGENTS:
        _AGENTS[key] = make_agent(name, **opts)
    return _AGENTS[key]


def _games(
    name: str, seeds: range, variant: str, weapon_rule: str, opts: dict[str, Any], jobs: int
) -> Iterator[GameRecord]:
    tasks = ((name, s, variant, weapon_rule, opts) for s in seeds)
    if jobs <= 1:
        yield from map(_play_one, tasks)
        return
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(_play_one, tasks, chunksize=4)


def _perfect_share(seeds: range, variant: str, weapon_rule: str) -> float:
    from scoundrel_solver import solve

    winnable = 0
    for s in seeds:
        r = solve(s, variant=variant, weapon_rule=weapon_rule)
        if not r.proven:
            raise RuntimeError(f"the perfect-information solver did not prove seed {s}")
        winnable += bool(r.winnable)
    return winnable / len(seeds)


def summarize(records: Sequence[GameRecord], seconds: float) -> dict[str, Any]:
    """The report: games, wins, win rate with its 95% Wilson interval, scores, timing."""
    n = len(records)
    wins = sum(r.won for r in records)
    scores = [r.score for r in records]
    lo, hi = wilson(wins, n)
    decisions = sum(r.decisions for r in records)
    return {
        "games": n,
        "wins": wins,
        "win_rate": wins / n if n else 0.0,
        "win_rate_ci95": [lo, hi],
        "mean_score": statistics.fmean(scores) if scores else 0.0,
        "median_score": statistics.median(scores) if scores else 0.0,
        "seconds": seconds,
        "seconds_per_game": seconds / n if n else 0.0,
        "exact_decision_share": (sum(r.exact_decisions for r in records) / decisions)
        if decisions
        else 0.0,
    }


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="scoundrel-eval", description="Evaluate a fair (no peeking) Scoundrel agent."
    )
    p.add_argument("--agent", default="fair", help="fair, greedy or random")
    p.add_argument("--seeds", default="0:100", help="seed range A:B (B excluded)")
    p.add_argument("--variant", default="classic", help=f"one of {', '.join(FLEE_RULES)}")
    p.add_argument("--weapon-rule", default="strict", help=f"one of {', '.join(WEAPON_RULES)}")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--perfect", action="store_true", help="also the perfect-information share")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--budget", type=int, default=None, help="fair: node budget per decision")
    p.add_argument("--depth", type=int, default=None, help="fair: maximum depth (refills)")
    p.add_argument("--shallow-above", type=int, default=None, help="fair: depth 0 above this")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _fail(msg: str) -> int:
    print(f"scoundrel-eval: error: {msg}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.agent not in AGENTS:
        return _fail(f"unknown agent {args.agent!r}; known: {', '.join(AGENTS)}")
    try:
        seeds = parse_seeds(args.seeds)
        v = get_variant(args.variant, args.weapon_rule)
    except (ValueError, ScoundrelError) as err:
        return _fail(str(err))
    if args.jobs < 1:
        return _fail(f"bad --jobs {args.jobs}: need at least 1")
    opts: dict[str, Any] = {}
    if args.agent == "fair":
        if args.budget is not None:
            opts["node_budget"] = args.budget
        if args.depth is not None:
            opts["max_depth"] = args.depth
        if args.shallow_above is not None:
            opts["shallow_above"] = args.shallow_above
    perfect: float | None = None
    if args.perfect:
        try:
            perfect = _perfect_share(seeds, v.name, v.weapon_rule)
        except NotImplementedError:
            return _fail("--perfect needs scoundrel_solver.solve, which is not available yet")
        except RuntimeError as err:
            return _fail(str(err))
    start = time.perf_counter()
    records: list[GameRecord] = []
    wins = 0
    with Progress(len(seeds), f"{args.agent} {v}", enabled=not args.quiet) as bar:
        for rec in _games(args.agent, seeds, v.name, v.weapon_rule, opts, args.jobs):
            records.append(rec)
            wins += rec.won
            bar.advance(note=f"wins {wins}")
    report = summarize(records, time.perf_counter() - start)
    report = {"agent": args.agent, "variant": v.name, "weapon_rule": v.weapon_rule, **report}
    if perfect is not None:
        report["perfect_winnable_share"] = perfect
    if args.json:
        print(json.dumps(report))
    else:
        lo, hi = report["win_rate_ci95"]
        print(
            f"{args.agent} {v} seeds {seeds.start}:{seeds.stop}: {report['games']} games,"
            f" {report['wins']} wins, win rate {100 * report['win_rate']:.2f}%"
            f" (95% CI {100 * lo:.2f}-{100 * hi:.2f}%), mean score {report['mean_score']:.2f},"
            f" median {report['median_score']:g}, {report['seconds_per_game']:.3f} s/game"
        )
        if perfect is not None:
            print(f"winnable with perfect information: {100 * perfect:.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
