"""``scoundrel-eval``: play many deals with a fair agent and report how it does.

    scoundrel-eval --agent fair|pimc|value|greedy|random --seeds 0:10000 [--variant classic]
                   [--weapon-rule strict] [--json] [--perfect] [--jobs N] [--quiet]

Every agent sees only the information state. The report gives the win rate
with a 95% Wilson interval, the mean and median score and the seconds per
game; ``--perfect`` adds the share of the same deals winnable with the whole
dungeon known (from ``scoundrel_solver.solve``). ``--budget``, ``--depth``
and ``--shallow-above`` tune the fair agent and apply to it alone;
``--samples`` (dungeons sampled per decision, default 16) tunes the
perfect-information Monte Carlo agent ``pimc`` alone (slow: tens of seconds
per game). ``value`` is the one-ply learned policy
(:mod:`scoundrel_solver.fair.value.policy`): thousands of decisions a second.

``--out FILE`` appends each finished game to FILE as it ends (see
:mod:`scoundrel_solver.runs.eval_rows`); the same command resumes, and the report
counts the games from the file too.

Exit codes: 0 success, 1 the system failed (a full disk, a worker process
killed), 2 bad input (one line on stderr), 130 Ctrl-C and 128 + the signal for
SIGTERM/SIGHUP (one line saying what was saved: with ``--out``, every finished
game).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Container, Generator, Iterator, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from ..exact.result import SolveResult
from ..fair.api import make_agent, play_with
from ..fair.config import EXACT_DEPTH, MAX_CARDS, MAX_NODE_BUDGET
from ..fair.protocol import Agent
from ..fair.samples import MAX_SAMPLES
from ..runs.eval_rows import eval_row, finished_games
from ..runs.jsonl import DiskFull, LineAppender, check_regular
from ..runs.seeds import SeedRange
from ..runs.summary import Outcome, summarize
from ..runs.workers import MAX_WORKERS, KernelWorker, WorkerDied, die_with_parent
from .options import (
    Interrupted,
    Parser,
    UsageError,
    add_seeds_option,
    add_variant_options,
    add_version_option,
    finished,
    int_within,
    refuse,
    run_command,
    variant_from,
    worker_count,
)

__all__ = ["main"]

PROG = "scoundrel-eval"
AGENTS = ("fair", "pimc", "value", "greedy", "random")
_FAIR_OPTIONS = {"budget": "node_budget", "depth": "max_depth", "shallow_above": "shallow_above",
                 "endgame": "endgame"}
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


_WORKER_IGNORES = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP")
                        if hasattr(signal, n))


def _worker_start(parent: int) -> None:
    """Workers leave Ctrl-C, SIGTERM and SIGHUP (all sent to the whole process group) to
    the main process, which ends them: no worker prints a traceback of its own. A main
    process killed outright (SIGKILL, the OOM killer) cannot end them: they end
    themselves (:func:`~scoundrel_solver.runs.workers.die_with_parent`)."""
    die_with_parent(parent)
    for sig in _WORKER_IGNORES:
        signal.signal(sig, signal.SIG_IGN)


def _games(
    name: str, seeds: SeedRange, variant: str, weapon_rule: str, opts: dict[str, Any], jobs: int,
    skip: Container[int] = (),
) -> Generator[tuple[int, Outcome], None, None]:
    """(seed, outcome) of every game (seeds in ``skip`` left out), in seed order; with
    ``jobs`` > 1 played by worker processes, at most a few games per worker ahead (a
    range may be endless)."""
    tasks = ((name, s, variant, weapon_rule, opts) for s in seeds if s not in skip)
    if jobs <= 1:
        # One worker all the same, forked (milliseconds, the agent already made): the main
        # thread then waits on a pipe, where Ctrl-C and SIGTERM reach it, never inside a
        # kernel (a node budget of 10**9 is hours of compiled search per decision).
        with KernelWorker(_play_one) as worker:
            pending: deque[int] = deque()

            def seeded() -> Iterator[tuple[str, int, str, str, dict[str, Any]]]:
                for task in tasks:
                    pending.append(task[1])
                    yield task

            for outcome in worker.map(seeded()):
                yield pending.popleft(), outcome
        return
    import multiprocessing as mp
    from concurrent.futures import Future, ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # Workers start with the stop signals ignored (a disposition kept across exec), so one
    # sent while they import is not theirs either; they are ended below.
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in _WORKER_IGNORES}
    try:
        pool = ProcessPoolExecutor(jobs, mp_context=mp.get_context("spawn"),
                                   initializer=_worker_start, initargs=(os.getpid(),))
        # The pool starts a worker per submit, up to ``jobs``: start them all here, while
        # the signals are ignored, or one started later could die of a Ctrl-C mid-import.
        for _ in range(jobs):
            pool.submit(int)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    running: deque[tuple[int, Future[Outcome]]] = deque()
    try:
        for task in tasks:
            running.append((task[1], pool.submit(_play_one, task)))
            if len(running) >= 4 * jobs:
                seed, future = running.popleft()
                yield seed, _result(future, seed)
        while running:
            seed, future = running.popleft()
            yield seed, _result(future, seed)
    except BrokenProcessPool:
        raise WorkerDied("a worker process died (killed by the system or a signal)") from None
    finally:
        # Stop now, not after the games in flight: the workers ignore the stop signals.
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.kill()
        pool.shutdown(wait=True, cancel_futures=True)


def _result(future: Any, seed: int) -> Outcome:
    outcome: Outcome = future.result()
    return outcome


def _perfect_share(seeds: SeedRange, variant: str, weapon_rule: str) -> float:
    from ..exact.solve import solve

    def proof(seed: int) -> SolveResult:
        return solve(seed, variant=variant, weapon_rule=weapon_rule)

    winnable = 0
    with KernelWorker(proof) as worker:  # a stop reaches the main thread meanwhile
        for r in worker.map(iter(seeds)):
            if not r.proven:
                raise RuntimeError(f"the perfect-information solver did not prove seed {r.seed}")
            winnable += bool(r.winnable)
    return winnable / seeds.count


def build_parser() -> Parser:
    p = Parser(prog=PROG, description="Evaluate a fair (no peeking) Scoundrel agent.")
    add_version_option(p)
    p.add_argument("--agent", default="fair", choices=AGENTS,
                   help="fair, pimc, value (the one-ply learned policy), greedy or random")
    add_seeds_option(p, "seed range A:B (B excluded), default 0:100", default="0:100")
    add_variant_options(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--perfect", action="store_true", help="also the perfect-information share")
    p.add_argument("--jobs", metavar="N", type=worker_count, default=1,
                   help=f"worker processes (default 1, at most {MAX_WORKERS})")
    # Each tuning option bounded as the agent bounds it, named in the one line of a refusal.
    p.add_argument("--budget", metavar="NODES", type=int_within(1, MAX_NODE_BUDGET),
                   default=None, help="fair: node budget per decision "
                   f"(1..{MAX_NODE_BUDGET:,}; the most is hours of search a decision)")
    p.add_argument("--depth", metavar="REFILLS", type=int_within(0, EXACT_DEPTH), default=None,
                   help=f"fair: maximum depth (refills, 0..{EXACT_DEPTH})")
    p.add_argument("--shallow-above", metavar="CARDS", type=int_within(0, MAX_CARDS),
                   default=None,
                   help=f"fair: depth 0 while more cards than this are unseen (0..{MAX_CARDS})")
    p.add_argument("--endgame", metavar="CARDS", type=int_within(0, MAX_CARDS), default=None,
                   help="fair: PIMC (the variant's sampled orders) at or below this many "
                   f"unseen cards (0..{MAX_CARDS}; 0: never; default 24 under classic, "
                   "never elsewhere)")
    p.add_argument("--samples", metavar="K", type=int_within(1, MAX_SAMPLES), default=None,
                   help=f"pimc: dungeons sampled per decision (1..{MAX_SAMPLES:,}, default 16)")
    p.add_argument("--out", metavar="FILE",
                   help="append each finished game to FILE (JSON lines); the same command "
                   "resumes, playing only the games the file does not hold")
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
    try:  # the agent's options checked here, before any worker starts or allocates
        _agent_cache(args.agent, opts)  # kept: a run with one job plays with this one
    except (TypeError, ValueError) as err:
        raise UsageError(str(err)) from None
    perfect: float | None = None
    if args.perfect:
        try:
            perfect = _perfect_share(seeds, v.name, v.weapon_rule)
        except RuntimeError as err:
            raise UsageError(str(err)) from None
        except KeyboardInterrupt:
            raise Interrupted("nothing saved (stopped while solving for --perfect)") from None
    start = time.perf_counter()
    done: dict[int, Outcome] = {}
    sink: LineAppender | None = None
    if args.out is not None:
        # Read, then opened to append (locked, its end mended) before any game is played.
        check_regular(args.out, output=True)
        done = finished_games(Path(args.out), args.agent, opts, v, seeds)
        sink = LineAppender(args.out)
    records: list[Outcome] = list(done.values())
    wins = sum(r.won for r in records)

    def saved() -> str:
        if sink is None:
            return f"nothing saved (--out FILE keeps every game); {len(records)} were played"
        return f"{sink.appended} new games saved in {args.out}; the same command resumes"

    try:
        games = _games(args.agent, seeds, v.name, v.weapon_rule, opts, args.jobs, done)
        with (progress(seeds.count, f"{args.agent} {v}", args.quiet, "game") as bar,
              closing(games)):
            bar.update(len(done))
            for seed, rec in games:
                if sink is not None:
                    sink.append(json.dumps(eval_row(args.agent, opts, v, seed, rec),
                                           allow_nan=False))
                records.append(rec)
                wins += rec.won
                bar.update()
                bar.set_postfix_str(f"wins {wins}", refresh=False)
    except KeyboardInterrupt:
        raise Interrupted(saved()) from None
    except WorkerDied as err:
        print(f"{PROG}: error: {err}; {saved()}", file=sys.stderr)
        return 1
    except DiskFull:
        raise OSError(f"disk full; {saved()} once there is room") from None
    finally:
        if sink is not None:
            sink.close()
    report = eval_report(summarize(records), time.perf_counter() - start,
                         played=len(records) - len(done))
    report = {"agent": args.agent, "variant": v.name, "weapon_rule": v.weapon_rule, **report}
    if perfect is not None:
        report["perfect_winnable_share"] = perfect
    print_eval(report, f"{args.agent} {v} seeds {seeds}", args.json)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``scoundrel-eval``: returns the exit code (0, 2 bad input, 130 Ctrl-C)."""
    return run_command(PROG, lambda: _main(argv))


if __name__ == "__main__":
    raise SystemExit(finished(main()))
