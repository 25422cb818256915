"""``scoundrel-eval``: play many deals with a fair agent and report how it does.

    scoundrel-eval --agent fair|pimc|greedy|random --seeds 0:10000 [--variant classic]
                   [--weapon-rule strict] [--json] [--perfect] [--jobs N] [--quiet]

Every agent sees only the information state. The report gives the win rate
with a 95% Wilson interval, the mean and median score and the seconds per
game; ``--perfect`` adds the share of the same deals winnable with the whole
dungeon known (from ``scoundrel_solver.solve``). ``--budget``, ``--depth``
and ``--shallow-above`` tune the fair agent and apply to it alone;
``--samples`` (dungeons sampled per decision, default 16) tunes the
perfect-information Monte Carlo agent ``pimc`` alone (slow: tens of seconds
per game).

Exit codes: 0 success, 2 bad input (one line on stderr), 130 Ctrl-C (one
line; nothing is saved, the report is only printed at the end).
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Generator, Sequence
from contextlib import closing
from typing import Any

from ..fair.api import make_agent, play_with
from ..fair.protocol import Agent
from ..seeds import SeedRange
from ..summary import Outcome, summarize
from .options import (
    Interrupted,
    Parser,
    UsageError,
    add_seeds_option,
    add_variant_options,
    add_version_option,
    non_negative_int,
    positive_int,
    refuse,
    run_command,
    variant_from,
)

__all__ = ["main"]

PROG = "scoundrel-eval"
AGENTS = ("fair", "pimc", "greedy", "random")
_FAIR_OPTIONS = {"budget": "node_budget", "depth": "max_depth", "shallow_above": "shallow_above"}
_PIMC_OPTIONS = {"samples": "samples"}


def _play_one(task: tuple[str, int, str, str, dict[str, Any]]) -> Outcome:
    name, seed, variant, weapon_rule, opts = task
    agent = _agent_cache(name, opts)
    t = time.perf_counter()
    game = play_with(agent, seed, variant, weapon_rule)
    return Outcome(score=game.score, won=game.won, seconds=time.perf_counter() - t,
                   decisions=len(game.actions), exact_decisions=sum(game.exact))


_AGENTS: dict[tuple[str, str], Agent] = {}


def _agent_cache(name: str, opts: dict[str, Any]) -> Agent:
    key = (name, json.dumps(opts, sort_keys=True))
    if key not in _AGENTS:
        _AGENTS[key] = make_agent(name, **opts)
    return _AGENTS[key]


def _ignore_ctrl_c() -> None:
    """Workers leave Ctrl-C to the main process, which stops them (no worker tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _games(
    name: str, seeds: SeedRange, variant: str, weapon_rule: str, opts: dict[str, Any], jobs: int
) -> Generator[Outcome, None, None]:
    tasks = ((name, s, variant, weapon_rule, opts) for s in seeds)
    if jobs <= 1:
        yield from map(_play_one, tasks)
        return
    import multiprocessing as mp

    # Workers start with Ctrl-C ignored (a disposition kept across exec), so one
    # pressed while they import is not theirs either; the pool ends them on exit.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pool = mp.get_context("spawn").Pool(jobs, initializer=_ignore_ctrl_c)
    finally:
        signal.signal(signal.SIGINT, previous)
    with pool:
        yield from pool.imap(_play_one, tasks, chunksize=4)


def _perfect_share(seeds: SeedRange, variant: str, weapon_rule: str) -> float:
    from ..exact.solve import solve

    winnable = 0
    for s in seeds:
        r = solve(s, variant=variant, weapon_rule=weapon_rule)
        if not r.proven:
            raise RuntimeError(f"the perfect-information solver did not prove seed {s}")
        winnable += bool(r.winnable)
    return winnable / seeds.count


def build_parser() -> Parser:
    p = Parser(prog=PROG, description="Evaluate a fair (no peeking) Scoundrel agent.")
    add_version_option(p)
    p.add_argument("--agent", default="fair", choices=AGENTS, help="fair, pimc, greedy or random")
    add_seeds_option(p, "seed range A:B (B excluded), default 0:100", default="0:100")
    add_variant_options(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--perfect", action="store_true", help="also the perfect-information share")
    p.add_argument("--jobs", metavar="N", type=positive_int, default=1,
                   help="worker processes (default 1)")
    p.add_argument("--budget", metavar="NODES", type=positive_int, default=None,
                   help="fair: node budget per decision")
    p.add_argument("--depth", metavar="REFILLS", type=non_negative_int, default=None,
                   help="fair: maximum depth (refills)")
    p.add_argument("--shallow-above", metavar="CARDS", type=non_negative_int, default=None,
                   help="fair: depth 0 while more cards than this are unseen")
    p.add_argument("--samples", metavar="K", type=positive_int, default=None,
                   help="pimc: dungeons sampled per decision (default 16)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _main(argv: Sequence[str] | None) -> int:
    from .render import eval_report, print_eval, progress

    args = build_parser().parse_args(argv)
    seeds: SeedRange = args.seeds
    v = variant_from(args)
    if args.agent != "fair":
        refuse(args, _FAIR_OPTIONS, f"to --agent {args.agent} (only to --agent fair)")
    if args.agent != "pimc":
        refuse(args, _PIMC_OPTIONS, f"to --agent {args.agent} (only to --agent pimc)")
    tuning = _FAIR_OPTIONS if args.agent == "fair" else _PIMC_OPTIONS
    opts = {kw: getattr(args, dest) for dest, kw in tuning.items()
            if getattr(args, dest) is not None}
    perfect: float | None = None
    if args.perfect:
        try:
            perfect = _perfect_share(seeds, v.name, v.weapon_rule)
        except RuntimeError as err:
            raise UsageError(str(err)) from None
        except KeyboardInterrupt:
            raise Interrupted("nothing saved (stopped while solving for --perfect)") from None
    start = time.perf_counter()
    records: list[Outcome] = []
    wins = 0
    try:
        games = _games(args.agent, seeds, v.name, v.weapon_rule, opts, args.jobs)
        with progress(seeds.count, f"{args.agent} {v}", args.quiet, "game") as bar, closing(games):
            for rec in games:
                records.append(rec)
                wins += rec.won
                bar.update()
                bar.set_postfix_str(f"wins {wins}", refresh=False)
    except KeyboardInterrupt:
        raise Interrupted(f"nothing saved; {len(records)} games were played "
                          "(the report comes at the end of a run)") from None
    report = eval_report(summarize(records), time.perf_counter() - start)
    report = {"agent": args.agent, "variant": v.name, "weapon_rule": v.weapon_rule, **report}
    if perfect is not None:
        report["perfect_winnable_share"] = perfect
    print_eval(report, f"{args.agent} {v} seeds {seeds}", args.json)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``scoundrel-eval``: returns the exit code (0, 2 bad input, 130 Ctrl-C)."""
    return run_command(PROG, lambda: _main(argv))


if __name__ == "__main__":
    raise SystemExit(main())
