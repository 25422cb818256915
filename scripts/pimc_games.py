"""Perfect-information Monte Carlo against the fair agent: win rate, score, time.

    python scripts/pimc_games.py play --agent pimc --samples 8 --seeds 0:200 --out pimc.jsonl
    python scripts/pimc_games.py play --agent fair --seeds 0:200 --out pimc.jsonl
    python scripts/pimc_games.py play --agent hybrid --samples 8 --pimc-above 30 --seeds 0:200 \
        --out pimc.jsonl
    python scripts/pimc_games.py table pimc.jsonl

``play`` appends one JSON line per game as soon as it ends (a stopped run
resumes: games already in the file for the same game, agent, samples and
switch point are skipped); ``--part i/n`` plays only the seeds equal to i
modulo n, so n processes can share a range. Classic/strict deals unless
``--variant`` / ``--weapon-rule`` say otherwise; every row says which.

Agents: ``pimc`` alone; ``fair`` (the fair agent, for pairing); and three
hybrids of the two, switching at ``--pimc-above U`` unseen cards (their rows
carry ``pimc_above``):

- ``hybrid``: PIMC while more than U cards are unseen, the fair agent after
  ("PIMC early, expectimax late"); table rows ``hybrid>U``;
- ``filter``: likewise, but early on only PIMC's win counts, and the fair agent
  chooses among the actions that win most; ``filter>U``;
- ``late``: the fair agent while more than U cards are unseen, PIMC after;
  ``late<=U``.

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
from pathlib import Path
from typing import Any

import scoundrel_core as sc
from scoundrel_core import Action
from scoundrel_core.info import InfoState
from scoundrel_solver.errors import SolverError
from scoundrel_solver.exact.solve import is_winnable
from scoundrel_solver.fair.agent import FairAgent, choice_key
from scoundrel_solver.fair.api import play_with
from scoundrel_solver.fair.config import configs_with
from scoundrel_solver.fair.pimc import PimcAgent, sample_orders, world
from scoundrel_solver.runs.seeds import parse_seed_range
from scoundrel_solver.runs.summary import wilson
from scoundrel_solver.timed import TimedAgent


class PimcThenFair:
    """PIMC while more than ``above`` cards are unseen, the fair agent after.

    Early on the fair agent searches shallowly (it deepens only from 30 unseen
    cards under classic) and leans on its leaf estimate, where PIMC solves whole
    sampled dungeons; late, PIMC's strategy fusion costs most and the agent's
    search reaches the end. Both see only the information state."""

    def __init__(self, pimc: PimcAgent, fair: FairAgent, above: int) -> None:
        self.pimc, self.fair, self.above = pimc, fair, above

    def reset(self, seed: int = 0) -> None:
        self.pimc.reset(seed)
        self.fair.reset(seed)

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        early = len(info.unseen) > self.above
        return (self.pimc if early else self.fair).choose(info)


class FairThenPimc(PimcThenFair):
    """The other way round: the fair agent while more than ``above`` cards are unseen,
    PIMC from then on (where its exact solves of few unseen cards are cheap)."""

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        early = len(info.unseen) > self.above
        return (self.fair if early else self.pimc).choose(info)


class PimcWinsThenFair(PimcThenFair):
    """Like :class:`PimcThenFair`, but early on PIMC only counts wins: among the actions
    that win in the most sampled dungeons the fair agent's value decides. The costly
    part of PIMC, exact scores to break its many early ties (most early samples are
    won by several actions), is left out, and a tie goes to the agent, which weighs
    what the player will learn rather than a line that foresees each sample."""

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        if len(info.unseen) <= self.above:
            return self.fair.choose(info)
        acts = info.legal_actions()
        if len(acts) == 1:
            return acts[0], False
        worlds = [world(info, o) for o in sample_orders(info, self.pimc.samples, self.pimc.seed)]
        wins = {}
        for a in acts:
            n = 0
            for w in worlds:
                nxt = sc.apply(w, a)
                if nxt.is_over:
                    n += nxt.won
                    continue
                self.pimc.stats.solves += 1
                won = is_winnable(nxt, self.pimc.max_nodes)
                if won is None:  # cut short: counted as not won, and said so
                    self.pimc.stats.unproven += 1
                n += bool(won)
            wins[a] = n
        top = max(wins.values())
        vals = [v for v in self.fair.evaluate(info) if wins[v.action] == top]
        return max(vals, key=choice_key).action, False


HYBRIDS = ("hybrid", "filter", "late")
"""The agents that switch between PIMC and the fair agent at ``--pimc-above`` unseen cards."""


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


def play(args: argparse.Namespace) -> None:
    path = Path(args.out)
    samples = args.samples if args.agent != "fair" else 0
    above = args.pimc_above if args.agent in HYBRIDS else None
    if args.agent in HYBRIDS and above is None:
        raise SystemExit(f"--agent {args.agent} needs --pimc-above U "
                         "(PIMC while more than U cards are unseen)")
    try:
        variant = sc.get_variant(args.variant, args.weapon_rule)
    except sc.ScoundrelError as e:
        raise SystemExit(f"pimc_games: {e}") from None
    done = _done(path, (variant.name, variant.weapon_rule, args.agent, samples, above))
    try:
        pimc = (PimcAgent(samples=args.samples, max_nodes=args.max_nodes)
                if args.agent != "fair" else None)
    except SolverError as e:
        raise SystemExit(f"pimc_games: {e}") from None
    k, n = map(int, args.part.split("/"))
    for seed in parse_seed_range(args.seeds):
        if seed in done or seed % n != k:
            continue
        # wall seconds: pimc-games.jsonl's decision_seconds always were
        # the fair agent of these rows is its search alone: FairAgent's own endgame
        # (since round nine the late hybrid at 24, under classic/strict) is left out
        inner: Any = pimc if pimc is not None else FairAgent(configs_with(endgame=0))
        if above is not None:
            assert pimc is not None
            kind = {"filter": PimcWinsThenFair, "late": FairThenPimc}.get(args.agent, PimcThenFair)
            inner = kind(pimc, FairAgent(configs_with(endgame=0)), above)
        timed = TimedAgent(inner, clock=time.perf_counter)
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


def table(args: argparse.Namespace) -> None:
    rows = [json.loads(x) for x in Path(args.file).read_text().splitlines() if x.strip()]
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
            name = agent if above < 0 else f"{agent}<={above}" if agent == "late" \
                else f"{agent}>{above}"
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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("play")
    pp.add_argument("--agent", choices=["pimc", "fair", *HYBRIDS], default="pimc")
    pp.add_argument("--pimc-above", type=int, default=None,
                    help="hybrid: PIMC while more than this many cards are unseen")
    pp.add_argument("--samples", type=int, default=8)
    pp.add_argument("--max-nodes", type=int, default=2_000_000)
    pp.add_argument("--seeds", default="0:200")
    pp.add_argument("--variant", default="classic")
    pp.add_argument("--weapon-rule", default=None)
    pp.add_argument("--out", default="pimc.jsonl")
    pp.add_argument("--part", default="0/1", help="i/n: only seeds equal to i modulo n")
    pt = sub.add_parser("table")
    pt.add_argument("file")
    pt.add_argument("--agent", action="append", choices=["pimc", "fair", *HYBRIDS],
                    help="only this agent's games (repeatable)")
    pt.add_argument("--variant", help="only games of this variant (classic, hard, easy)")
    args = p.parse_args()
    sc.new_game(seed=0)
    (play if args.cmd == "play" else table)(args)


if __name__ == "__main__":
    main()
