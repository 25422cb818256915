"""Play the fair agent on many deals and store one row per game, for notebook 03.

    python scripts/fair_games.py --variant classic --seeds 0:1000
    python scripts/fair_games.py --variant hard --seeds 0:300
    python scripts/fair_games.py --parquet data/fair-games.parquet   # gather, no play
    python scripts/fair_games.py --table data/fair-games.parquet     # docs/fair.md's table

Each game is appended to a JSON-lines cache as soon as it ends (default
``fair-games.jsonl``), so a stopped run resumes where it was: seeds
already in the cache for the same variant and weapon rule are skipped. A
finished round's cache is kept as Parquet under ``data/experiments/`` (the same
rows); ``--cache`` reads it too, to gather, not to play into. With
``--parquet`` every cached game is written to one Parquet file with columns
seed, variant, weapon_rule, score, won, rooms (rooms entered, the last being
where a lost game ended), decisions, exact_decisions, exact (per decision,
whether the agent's values were exact), decision_room (the room of each
decision), seconds (wall time of the game, one core), cpu_seconds (its CPU
time: the figure to quote on a shared machine), decision_cpu_ms (the CPU time
of each decision, milliseconds), agent_version (the agent
revision that played it: ``fair.version.agent_version()``), and from the
census (``--census``, default data/census.parquet) winnable (the exact solver
proved the deal winnable; missing where the census has no answer) and
winnable_loss (winnable, but the agent lost).

One agent revision per variant: a variant and weapon rule with games in the
cache takes exactly those games (a run of a new revision uses a new cache);
the other variants keep the rows the Parquet file already had (rows written
before agent_version existed say ``LEGACY_VERSION``). Resume a stopped run
with the same command; rebuild the Parquet file with ``--parquet`` alone.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

import scoundrel_core as sc
from scoundrel_solver.cli.options import STOP_SIGNALS, FinishThenStop
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.api import play_with
from scoundrel_solver.fair.version import agent_version
from scoundrel_solver.provenance import parquet_metadata, provenance, script_provenance
from scoundrel_solver.runs.jsonl import LineAppender, read_json_lines
from scoundrel_solver.runs.seeds import parse_seed_range
from timed import TimedAgent


def games_in(cache: Path) -> list[dict[str, Any]]:
    """The games cached so far (a game cut short by a stop mid-write is skipped), from a
    JSON-lines cache or from a finished round's record kept as Parquet (the same rows; a
    key a row lacked is null there, and left out here as it was)."""
    if cache.suffix == ".parquet":
        import pyarrow.parquet as pq

        return [{k: v for k, v in row.items() if v is not None}
                for row in pq.read_table(cache).to_pylist()]
    return [row for _, row in read_json_lines(cache)]

def rooms_of(start: str, actions: tuple[str, ...]) -> list[int]:
    """The room (1 = the first dealt) in which each action was taken.

    A new room begins after a flee, or when resolving a card deals the next
    room (the count of resolved cards drops back to 0).
    """
    s = sc.State.from_text(start)
    room = 1
    out = []
    for text in actions:
        out.append(room)
        s = sc.apply(s, sc.parse_action(s, text))
        if not s.is_over and (text == "flee" or s.resolved_in_room == 0):
            room += 1
    return out


def play(seed: int, variant: str, weapon_rule: str, agent: FairAgent) -> dict[str, Any]:
    timed = TimedAgent(agent)
    t, cpu = time.perf_counter(), time.process_time()
    g = play_with(timed, seed, variant, weapon_rule)
    seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    rooms = rooms_of(g.start, g.actions)
    return {
        "seed": seed,
        "variant": variant,
        "weapon_rule": weapon_rule,
        "score": g.score,
        "won": g.won,
        "rooms": rooms[-1] if rooms else 1,
        "decisions": len(g.actions),
        "exact_decisions": sum(g.exact),
        "exact": list(g.exact),
        "decision_room": rooms,
        "seconds": round(seconds, 4),
        "cpu_seconds": round(cpu, 4),
        "decision_cpu_ms": [round(1000 * x, 3) for x in timed.seconds],
        "agent_version": agent_version(),
    }


def done_seeds(cache: Path, variant: str, weapon_rule: str) -> set[int]:
    return {
        int(r["seed"]) for r in games_in(cache)
        if r["variant"] == variant and r["weapon_rule"] == weapon_rule
    }


LEGACY_VERSION = "0.1.0 (agent of commit 7f5ee54 or earlier; no agent_version recorded)"
KEY = ["variant", "weapon_rule", "seed"]


def to_parquet(cache: Path, out: Path, census: Path | None = None,
               stamp: dict[str, str] | None = None) -> int:
    """Write the cache's games (and the variants of ``out`` the cache has none of),
    with the census's winnable column joined on; returns the number of rows."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    df = pd.DataFrame(games_in(cache))
    if len(df):
        df = df.drop_duplicates(KEY, keep="last")
        versions = df.groupby(["variant", "weapon_rule"]).agent_version.nunique()
        mixed = versions[versions > 1]
        if len(mixed):
            raise SystemExit(f"{cache} holds games of several agent revisions for "
                             f"{', '.join('/'.join(i) for i in mixed.index)}: use one cache "
                             "per revision")
    if out.exists():
        old = pd.read_parquet(out)
        if "agent_version" not in old:
            old["agent_version"] = LEGACY_VERSION
        if len(df):
            have = set(zip(df.variant, df.weapon_rule, strict=True))
            keep = [(v, r) not in have for v, r in zip(old.variant, old.weapon_rule, strict=True)]
            old = old[keep]
        df = pd.concat([old, df], ignore_index=True)
    df = df.drop(columns=["winnable", "winnable_loss"], errors="ignore")
    if census is not None and census.exists():
        c = pd.read_parquet(census, columns=[*KEY, "winnable", "proven"])
        c = c[c.proven | c.winnable]  # a winnable answer needs no proof of the best score
        df["seed"] = df["seed"].astype("uint64")
        c["seed"] = c["seed"].astype("uint64")
        df = df.merge(c[[*KEY, "winnable"]], on=KEY, how="left")
        df["winnable"] = df["winnable"].astype("boolean")
        df["winnable_loss"] = df["winnable"] & ~df["won"].astype("boolean")
    df = df.sort_values(KEY).reset_index(drop=True)
    df["seed"] = df["seed"].astype("uint64")
    table = pa.Table.from_pandas(df, preserve_index=False)
    # the command, commit and date that made the file, in its key-value metadata
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           **parquet_metadata(stamp or provenance())})
    pq.write_table(table, out)
    return len(df)


def table(parquet: Path) -> list[str]:
    """The Markdown table of the games in ``parquet``: per variant and agent revision,
    the seeds, wins with a Wilson interval, the winnable-loss rate (of the deals the
    census proves winnable, the share the agent lost) and CPU seconds per game and per
    decision (median / mean / p99 / worst)."""
    import numpy as np
    import pandas as pd

    from scoundrel_solver.runs.summary import wilson

    df = pd.read_parquet(parquet)
    out = ["| variant | agent | seeds | games | won (95% CI) | winnable | winnable lost "
           "| CPU s per game: median / mean / worst | CPU ms per decision: median / p99 / worst |",
           "|---|---|---|---:|---|---:|---|---|---|"]
    for (v, r, ver), g in df.groupby(["variant", "weapon_rule", "agent_version"], sort=True):
        n, w = len(g), int(g.won.sum())
        lo, hi = wilson(w, n)
        win = g.winnable.dropna().astype(bool) if "winnable" in g else pd.Series([], dtype=bool)
        lost = g.loc[win.index].winnable_loss.astype(bool)[win] if len(win) else win
        wl = (f"{100 * lost.mean():.1f}% ({int(lost.sum())} of {int(win.sum())}; "
              f"{'-'.join(f'{100 * x:.1f}' for x in wilson(int(lost.sum()), int(win.sum())))}%)"
              if win.sum() else "n/a")
        cpu = g.cpu_seconds
        if "decision_cpu_ms" in g and g.decision_cpu_ms.notna().all():
            ms = np.concatenate(g.decision_cpu_ms.to_numpy())
            dec = f"{np.median(ms):.1f} / {np.percentile(ms, 99):.0f} / {ms.max():.0f}"
        else:
            dec = "not recorded"
        out.append(
            f"| {v}/{r} | {ver} | {int(g.seed.min())}-{int(g.seed.max())} | {n} "
            f"| **{100 * w / n:.1f}%** ({100 * lo:.1f}-{100 * hi:.1f}%) "
            f"| {100 * win.mean():.1f}% | {wl} "
            f"| {cpu.median():.2f} / {cpu.mean():.2f} / {cpu.max():.1f} | {dec} |")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--variant", default="classic")
    p.add_argument("--weapon-rule", default="strict")
    p.add_argument("--seeds", help="A:B or N; omit to only gather with --parquet")
    p.add_argument("--cache", type=Path, default=Path("fair-games.jsonl"))
    p.add_argument("--parquet", type=Path, help="write every cached game here")
    p.add_argument("--census", type=Path, default=Path("data/census.parquet"),
                   help="where the winnable column comes from")
    p.add_argument("--table", type=Path, metavar="PARQUET",
                   help="print the Markdown table of the games in PARQUET (docs/fair.md)")
    args = p.parse_args(argv)
    stamp = script_provenance(__file__, argv)
    if args.seeds:
        if args.cache.suffix == ".parquet":
            p.error(f"--cache {args.cache}: a Parquet record is read, never played into; "
                    "play into a .jsonl cache")
        seeds = parse_seed_range(args.seeds)
        done = done_seeds(args.cache, args.variant, args.weapon_rule)
        todo = [s for s in range(seeds.start, seeds.stop) if s not in done]
        print(f"{len(todo)} games to play ({len(done)} cached)", file=sys.stderr)
        agent = FairAgent()
        # Ctrl-C, SIGTERM and SIGHUP let the game being played finish and be saved, then
        # stop (a second one stops at once). A game's line is written whole under the
        # file's lock with the stop signals held (LineAppender, which also mends a line
        # a killed run cut short), so even kill -9 loses at most the game being played.
        sink = LineAppender(args.cache)
        try:
            with FinishThenStop((signal.SIGINT, *STOP_SIGNALS)) as stop:
                for seed in todo:
                    sink.append(json.dumps(play(seed, args.variant, args.weapon_rule, agent)))
                    if stop.pressed:
                        raise KeyboardInterrupt
        except KeyboardInterrupt:
            print(f"stopped: {sink.appended} games saved in {args.cache}; the same command "
                  "resumes", file=sys.stderr)
            return 130
        finally:
            sink.close()
    if args.parquet:
        n = to_parquet(args.cache, args.parquet, args.census, stamp)
        print(f"{n} games -> {args.parquet}", file=sys.stderr)
    if args.table:
        print("\n".join(table(args.table)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
