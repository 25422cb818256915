"""Perfect-information Monte Carlo alone: the games of ``data/pimc-games.jsonl``.

    python scripts/pimc_games.py play --samples 8 --seeds 0:1000 --out data/pimc-games.jsonl
    python scripts/pimc_games.py table data/pimc-games.jsonl

``play`` appends one JSON line per game as soon as it ends (a stopped run
resumes: games already in the file for the same game, agent, samples and
switch point are skipped); ``--part i/n`` plays only the seeds equal to i
modulo n, so n processes can share a range. Classic/strict deals unless
``--variant`` / ``--weapon-rule`` say otherwise; every row says which.
``experiments/pimc_hybrids.py`` is this script with more agents: the fair agent
for pairing and its hybrids with PIMC.

``table`` prints (only ``--agent`` and ``--variant`` games, if given), per
agent and sample count, the seeds played, wins, win rate with its 95% Wilson
interval, mean score, the median and mean CPU seconds per game (wall time on a
shared machine measures the load) and the median and 99th-percentile wall
milliseconds per decision; and the
same on the seeds every printed group played.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import scoundrel_core as sc
from scoundrel_solver.errors import SolverError
from scoundrel_solver.fair.api import play_with
from scoundrel_solver.fair.pimc import PimcAgent
from scoundrel_solver.runs.seeds import parse_seed_range
from scoundrel_solver.runs.summary import wilson
from timed import TimedAgent


@dataclass(frozen=True)
class Player:
    """An agent ``play`` can play: how to build it, whether it plays PIMC, whether it
    switches at ``--pimc-above`` unseen cards, and its name in the table."""

    build: Callable[[PimcAgent | None, int | None], Any]
    """The agent of one game, from the PIMC agent (None unless ``samples``) and the
    switch point (None unless ``switch``)."""
    samples: bool = True
    """It plays PIMC: its rows carry the sample count and PIMC's solves."""
    switch: bool = False
    """It needs ``--pimc-above``; its rows carry ``pimc_above``."""
    label: str = "{agent}"
    """Its table name, with ``{agent}`` and ``{above}`` filled in."""


PLAYERS: dict[str, Player] = {"pimc": Player(lambda pimc, _above: pimc)}
"""The agents of the published games: PIMC alone (experiments/pimc_hybrids.py adds the
fair agent and its hybrids with PIMC)."""


Key = tuple[str, str, str, int, int | None]


def _key(row: dict[str, Any]) -> Key:
    """Which game and agent a row is: variant, weapon rule (rows without them are
    classic/strict), agent, samples, and the hybrid's switch point."""
    return (row.get("variant", "classic"), row.get("weapon_rule", "strict"), row["agent"],
            row["samples"], row.get("pimc_above"))


def _done(path: Path, key: Key) -> set[int]:
    if not path.exists():
        return set()
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    return {r["seed"] for r in rows if _key(r) == key}


def play(args: argparse.Namespace, players: dict[str, Player]) -> None:
    path = Path(args.out)
    if path.suffix == ".parquet":
        raise SystemExit(f"pimc_games: --out {path}: games are appended as JSON lines (a "
                         "Parquet record is read, never played into)")
    player = players[args.agent]
    samples = args.samples if player.samples else 0
    above = args.pimc_above if player.switch else None
    if player.switch and above is None:
        raise SystemExit(f"--agent {args.agent} needs --pimc-above U "
                         "(PIMC while more than U cards are unseen)")
    try:
        variant = sc.get_variant(args.variant, args.weapon_rule)
    except sc.ScoundrelError as e:
        raise SystemExit(f"pimc_games: {e}") from None
    done = _done(path, (variant.name, variant.weapon_rule, args.agent, samples, above))
    try:
        pimc = (PimcAgent(samples=args.samples, max_nodes=args.max_nodes)
                if player.samples else None)
    except SolverError as e:
        raise SystemExit(f"pimc_games: {e}") from None
    k, n = map(int, args.part.split("/"))
    for seed in parse_seed_range(args.seeds):
        if seed in done or seed % n != k:
            continue
        # wall seconds: pimc-games.jsonl's decision_seconds always were
        timed = TimedAgent(player.build(pimc, above), clock=time.perf_counter)
        before = (pimc.stats.solves, pimc.stats.unproven) if pimc else (0, 0)
        t, cpu = time.perf_counter(), time.process_time()
        g = play_with(timed, seed, variant.name, variant.weapon_rule)
        row: dict[str, Any] = {
            "variant": variant.name, "weapon_rule": variant.weapon_rule, "agent": args.agent,
            "samples": samples, "seed": seed, "won": g.won,
            "score": g.score, "decisions": len(g.actions), "seconds": time.perf_counter() - t,
            "cpu_seconds": time.process_time() - cpu,
            "decision_seconds": [round(x, 4) for x in timed.seconds],
        }
        if above is not None:
            row["pimc_above"] = above
        if pimc is not None:
            row["solves"] = pimc.stats.solves - before[0]
            row["unproven"] = pimc.stats.unproven - before[1]
        with path.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(seed, g.won, g.score, round(row["seconds"], 2), flush=True)


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The games of a JSON-lines file of ``play``, or of a Parquet file of such rows (a
    key a row lacked is null in Parquet, and left out here as it was)."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return [{k: v for k, v in r.items() if v is not None}
                for r in pq.read_table(path).to_pylist()]
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def table(args: argparse.Namespace, players: dict[str, Player]) -> None:
    rows = read_rows(Path(args.file))
    groups: dict[tuple[str, str, str, int, int], list[dict[str, Any]]] = {}
    for r in rows:
        game, rule, agent, k, above = _key(r)
        if (args.agent and agent not in args.agent) or (args.variant and game != args.variant):
            continue
        groups.setdefault((game, rule, agent, k, -1 if above is None else above), []).append(r)
    if not groups:
        raise SystemExit(f"pimc_games: no games in {args.file} for those options")
    common = set.intersection(*({r["seed"] for r in g} for g in groups.values()))
    print(f"| agent | K | seeds | wins | rate (95% CI) | mean score | CPU s/game: median / mean "
          f"| wall ms/decision: median / p99 | searches cut short |  (common seeds: {len(common)})")
    print("|---|---|---|---|---|---|---|---|---|")
    for (game, rule, agent, k, above), g in sorted(groups.items()):
        for label, sel in (("all", g), ("common", [r for r in g if r["seed"] in common])):
            if label == "common" and len(sel) in (0, len(g)):
                continue
            n, wins = len(sel), sum(r["won"] for r in sel)
            lo, hi = wilson(wins, n)
            seeds = sorted(r["seed"] for r in sel)
            span = f"{seeds[0]}-{seeds[-1]}" + ("" if len(seeds) == seeds[-1] - seeds[0] + 1
                                               else f" ({n})")
            dec = [x for r in sel for x in r["decision_seconds"]]
            solves = sum(r.get("solves", 0) for r in sel)
            cut = f"{sum(r.get('unproven', 0) for r in sel)} of {solves}"
            label = players[agent].label if agent in players else "{agent}>{above}"
            name = agent if above < 0 else label.format(agent=agent, above=above)
            if (game, rule) != ("classic", "strict"):
                name += f" ({game}/{rule})"
            print(f"| {name} | {k or '-'} | {span} | {wins}/{n} | {wins / n:.1%} "
                  f"({lo:.1%}-{hi:.1%}) | {statistics.mean(r['score'] for r in sel):.1f} "
                  f"| {_cpu(sel)} "
                  f"| {_ms(statistics.median(dec))} / {_ms(_p99(dec))} "
                  f"| {cut if agent != 'fair' else '-'} |")


def _p99(xs: list[float]) -> float:
    """The 99th percentile (nearest rank)."""
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(0.99 * len(ys)))]


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:.1f}"


def _cpu(rows: list[dict[str, Any]]) -> str:
    """Median and mean CPU seconds per game over the rows that recorded it (the machine
    is shared: wall time says more about the load than about the agent)."""
    cpu = [r["cpu_seconds"] for r in rows if "cpu_seconds" in r]
    if not cpu:
        return "-"
    return f"{statistics.median(cpu):.2f} / {statistics.mean(cpu):.2f} ({len(cpu)} games)"


def main(argv: list[str] | None = None, players: dict[str, Player] = PLAYERS,
         description: str = __doc__) -> None:
    p = argparse.ArgumentParser(description=description.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("play")
    pp.add_argument("--agent", choices=list(players), default="pimc")
    if any(player.switch for player in players.values()):
        pp.add_argument("--pimc-above", type=int, default=None,
                        help="hybrid: the unseen cards at which it switches")
    pp.add_argument("--samples", type=int, default=8)
    pp.add_argument("--max-nodes", type=int, default=2_000_000)
    pp.add_argument("--seeds", default="0:200")
    pp.add_argument("--variant", default="classic")
    pp.add_argument("--weapon-rule", default=None)
    pp.add_argument("--out", default="pimc.jsonl")
    pp.add_argument("--part", default="0/1", help="i/n: only seeds equal to i modulo n")
    pt = sub.add_parser("table")
    pt.add_argument("file", help="a JSON-lines file of play, or a Parquet file of its rows")
    pt.add_argument("--agent", action="append",
                    help="only this agent's games (repeatable)")
    pt.add_argument("--variant", help="only games of this variant (classic, hard, easy)")
    args = p.parse_args(argv)
    sc.new_game(seed=0)
    (play if args.cmd == "play" else table)(args, players)


if __name__ == "__main__":
    main()
