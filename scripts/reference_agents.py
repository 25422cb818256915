"""The reference table: every agent on fixed evaluation seeds, one row per agent and rule set.

    python scripts/reference_agents.py                      # fill in what is missing
    python scripts/reference_agents.py --redo greedy        # play one agent's rows again
    python scripts/reference_agents.py --markdown           # print the table
    python scripts/reference_agents.py --docs               # write it into docs/reference-scores.md

Writes ``data/reference-agents.csv``. The evaluation seeds are fixed:
classic/strict 0-9999 and hard/strict 0-9999 (the ``seeds`` column says so
for every row; a row on fewer seeds says which). Columns:

- ``agent``, ``config`` (its settings), ``variant``, ``weapon_rule``, ``seeds``;
- ``games``, ``wins``, ``win_rate``, ``win_low``, ``win_high`` (95% Wilson interval);
- ``mean_score``;
- ``winnable``: how many of these deals the census proves winnable with the
  whole deck known; ``winnable_lost``: how many of those the agent lost;
  ``winnable_loss_rate`` = winnable_lost / winnable;
- ``cpu_per_game``, ``cpu_median``: mean and median CPU seconds per game (how
  each source measured it is in ``note``);
- ``source``: where the games come from; ``note``.

Two kinds of rows. *Played* rows (random, greedy, reinforce, value) are played by
this script and kept from run to run: a rerun plays only the agents missing
from the file (``--redo NAME`` plays one again). *Read* rows come from games
other commands stored, and are read again on every run, so they follow those
files: the fair agent (``data/fair-games.parquet``, one row per ``agent_version`` if
the file has one), PIMC (``data/pimc-games.jsonl``), OpenSpiel's bots
(``data/openspiel-bots.jsonl``, from ``scripts/openspiel_bots.py``) and the
perfect-information ceiling (``data/census.parquet``: the exact solver's best
score on each deal). A new agent is one more function in ``PLAYED`` or ``READ``.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd

from scoundrel_solver.fair import GreedyAgent, RandomAgent
from scoundrel_solver.fair.api import Agent, play_with
from scoundrel_solver.provenance import csv_header, script_provenance
from scoundrel_solver.runs.summary import wilson

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
OUT = DATA / "reference-agents.csv"
DOCS = ROOT / "docs" / "reference-scores.md"
BLOCK = ("<!-- reference-table: start -->\n", "<!-- reference-table: end -->")
PAIRED = ("<!-- paired-table: start -->\n", "<!-- paired-table: end -->")
EVAL = (("classic", "strict"), ("hard", "strict"))
EVAL_SEEDS = range(10_000)
PG_STEPS = 5_000_000  # REINFORCE training steps per variant (a fixed amount of work)


@dataclass
class Game:
    seed: int
    score: int
    won: bool
    cpu: float | None


@dataclass
class Row:
    agent: str
    config: str
    variant: str
    weapon_rule: str
    seeds: str
    games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    winnable: int
    winnable_lost: int
    winnable_loss_rate: float
    cpu_per_game: float | None
    cpu_median: float | None
    source: str
    note: str


# -- the census: which deals are winnable ---------------------------------------------

_CENSUS: pd.DataFrame | None = None


def census() -> pd.DataFrame:
    global _CENSUS
    if _CENSUS is None:
        _CENSUS = pd.read_parquet(DATA / "census.parquet")
    return _CENSUS


def winnable_seeds(variant: str, weapon_rule: str) -> set[int]:
    c = census()
    c = c[(c.variant == variant) & (c.weapon_rule == weapon_rule) & c.winnable]
    return {int(s) for s in c.seed}


def seeds_text(seeds: Iterable[int]) -> str:
    """``0-9999``, or the runs of a scattered set (``0-82``, ``0-10, 12``)."""
    ss = sorted(set(seeds))
    runs: list[str] = []
    i = 0
    while i < len(ss):
        j = i
        while j + 1 < len(ss) and ss[j + 1] == ss[j] + 1:
            j += 1
        runs.append(str(ss[i]) if i == j else f"{ss[i]}-{ss[j]}")
        i = j + 1
    return ", ".join(runs) if len(runs) <= 4 else f"{len(ss)} seeds in {ss[0]}-{ss[-1]}"


def row_of(agent: str, config: str, variant: str, weapon_rule: str, games: list[Game],
           source: str, note: str = "") -> Row:
    if not games:
        raise ValueError(f"no games for {agent} {config} {variant}/{weapon_rule}")
    wins = sum(g.won for g in games)
    lo, hi = wilson(wins, len(games))
    win_ok = winnable_seeds(variant, weapon_rule)
    winnable = [g for g in games if g.seed in win_ok]
    lost = sum(not g.won for g in winnable)
    cpus = [g.cpu for g in games if g.cpu is not None]
    return Row(
        agent=agent, config=config, variant=variant, weapon_rule=weapon_rule,
        seeds=seeds_text(g.seed for g in games), games=len(games), wins=wins,
        win_rate=round(wins / len(games), 5), win_low=round(lo, 5), win_high=round(hi, 5),
        mean_score=round(statistics.fmean(g.score for g in games), 3),
        winnable=len(winnable), winnable_lost=lost,
        winnable_loss_rate=round(lost / len(winnable), 5) if winnable else 0.0,
        cpu_per_game=round(statistics.fmean(cpus), 5) if cpus else None,
        cpu_median=round(statistics.median(cpus), 5) if cpus else None,
        source=source, note=note,
    )


# -- played rows --------------------------------------------------------------------------


def play_agent(make: Callable[[], Agent], variant: str, weapon_rule: str) -> list[Game]:
    agent = make()
    games = []
    for seed in EVAL_SEEDS:
        cpu = time.process_time()
        g = play_with(agent, seed, variant, weapon_rule)
        games.append(Game(seed, g.score, g.won, time.process_time() - cpu))
    return games


def baseline(name: str, make: Callable[[], Agent], config: str) -> Callable[[], list[Row]]:
    def rows() -> list[Row]:
        return [
            row_of(name, config, v, w, play_agent(make, v, w),
                   "scripts/reference_agents.py (scoundrel_solver.fair baselines)")
            for v, w in EVAL
        ]

    return rows


def load_example(name: str) -> ModuleType:
    path = ROOT / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reinforce_rows() -> list[Row]:
    """Train ``examples/train_policy_gradient.py`` for PG_STEPS steps per variant, then
    play its greedy policy (the highest-scored legal action) once on each seed."""
    from scoundrel_core.env import ScoundrelVectorEnv

    pg = load_example("train_policy_gradient")
    rows = []
    for variant, weapon_rule in EVAL:
        with tempfile.TemporaryDirectory() as tmp:  # the example's curve is not kept here
            args = argparse.Namespace(
                minutes=1e9, max_steps=PG_STEPS, envs=256, variant=variant, lr=0.05,
                seed=1_000_000, log_every=200_000, csv=str(Path(tmp) / "curve.csv"),
            )
            cpu = time.process_time()
            theta = pg.train(args)
            train_cpu = time.process_time() - cpu
        n = len(EVAL_SEEDS)
        cpu = time.process_time()
        envs = ScoundrelVectorEnv(n, variant, max_episode_steps=200)
        obs, info = envs.reset(seed=EVAL_SEEDS.start)  # game i is deal start + i
        score = np.zeros(n)
        finished = np.zeros(n, np.bool_)
        while not finished.all():
            logits = np.where(info["action_mask"], pg.features(obs) @ theta, -np.inf)
            actions = np.where(info["action_mask"].any(axis=1), logits.argmax(axis=1), 0)
            obs, reward, terminated, truncated, info = envs.step(actions)
            score += np.where(finished, 0.0, reward)
            finished |= terminated | truncated
        per_game = (time.process_time() - cpu) / n
        games = [Game(s, int(score[i]), bool(score[i] > 0), per_game)
                 for i, s in enumerate(EVAL_SEEDS)]
        rows.append(row_of(
            "reinforce", f"{PG_STEPS:,} training steps, greedy policy", variant, weapon_rule,
            games, "examples/train_policy_gradient.py (trained and played here)",
            f"training took {train_cpu:.0f} CPU s; cpu_per_game is the vectorised play "
            f"of {n} games at once",
        ))
    return rows


def value_rows() -> list[Row]:
    """The one-ply learned policy (``scoundrel-eval --agent value``) on every seed, with
    its decisions per CPU second in the note."""
    from scoundrel_solver.fair.api import make_agent
    from scoundrel_solver.fair.value.policy import SAMPLES

    rows = []
    for variant, weapon_rule in EVAL:
        agent = make_agent("value")
        games = []
        decisions = 0
        cpu_all = time.process_time()
        for seed in EVAL_SEEDS:
            cpu = time.process_time()
            g = play_with(agent, seed, variant, weapon_rule)
            games.append(Game(seed, g.score, g.won, time.process_time() - cpu))
            decisions += len(g.actions)
        rate = decisions / (time.process_time() - cpu_all)
        rows.append(row_of(
            "value", f"one ply on its own learned value, {SAMPLES} sampled deals", variant,
            weapon_rule, games, "scripts/reference_agents.py (scoundrel-eval --agent value)",
            f"{rate:,.0f} decisions per CPU second on one core of a shared machine",
        ))
    return rows


PLAYED: dict[str, Callable[[], list[Row]]] = {
    "random": baseline("random", RandomAgent, "uniform over legal actions"),
    "greedy": baseline("greedy", GreedyAgent, "one-step lookahead"),
    "reinforce": reinforce_rows,
    "value": value_rows,
}


# -- read rows ----------------------------------------------------------------------------


def fair_rows() -> list[Row]:
    d = pd.read_parquet(DATA / "fair-games.parquet")
    tag = next((c for c in ("agent_version", "revision") if c in d.columns), None)
    rows = []
    groups = [(None, d)] if tag is None else list(d.groupby(tag))
    for rev, part in groups:
        for (v, w), g in part.groupby(["variant", "weapon_rule"]):
            if (v, w) not in EVAL:
                continue
            g = g[g.seed.isin(EVAL_SEEDS)]
            games = [Game(int(r.seed), int(r.score), bool(r.won), float(r.cpu_seconds))
                     for r in g.itertuples()]
            config = "default" if rev is None else f"agent_version {rev}"
            rows.append(row_of("fair", config, str(v), str(w), games,
                               "data/fair-games.parquet (scripts/fair_games.py)",
                               "CPU per game on one core of a shared machine"))
    return rows


def pimc_rows() -> list[Row]:
    """PIMC's games in ``data/pimc-games.jsonl`` (``scripts/pimc_games.py``), per rule set
    and sample count (rows without a variant are classic/strict)."""
    path = DATA / "pimc-games.jsonl"
    games: dict[tuple[str, str, int], dict[int, Game]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            r = json.loads(line)
        except json.JSONDecodeError:  # a line cut short by a stopped run
            continue
        if r.get("agent") != "pimc":  # the file also holds hybrids' and the fair agent's games
            continue
        cpu = r.get("cpu_seconds")
        # a seed played twice keeps its last game
        key = (r.get("variant", "classic"), r.get("weapon_rule", "strict"), int(r["samples"]))
        games.setdefault(key, {})[int(r["seed"])] = Game(
            int(r["seed"]), int(r["score"]), bool(r["won"]),
            None if cpu is None else float(cpu))
    return [
        row_of("pimc", f"{k} sampled dungeons a decision", variant, rule,
               sorted(g.values(), key=lambda x: x.seed),
               "data/pimc-games.jsonl (scripts/pimc_games.py)",
               "fewer seeds than the evaluation set (seconds of CPU a decision)")
        for (variant, rule, k), g in sorted(games.items())
    ]


def openspiel_rows() -> list[Row]:
    path = DATA / "openspiel-bots.jsonl"
    if not path.exists():
        return []
    groups: dict[tuple[str, int], list[Game]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            r = json.loads(line)
        except json.JSONDecodeError:  # a line cut short by a stopped run
            continue
        groups.setdefault((r["bot"], int(r["simulations"])), []).append(
            Game(int(r["seed"]), int(r["score"]), bool(r["won"]), float(r["cpu_seconds"])))
    return [
        row_of(f"openspiel-{bot}", f"{sims} simulations, random rollouts", "classic", "strict",
               games, "data/openspiel-bots.jsonl (scripts/openspiel_bots.py)",
               "OpenSpiel's Python bot on python_scoundrel; fewer seeds than the evaluation set")
        for (bot, sims), games in sorted(groups.items())
    ]


def ceiling_rows() -> list[Row]:
    c = census()
    rows = []
    for v, w in EVAL:
        g = c[(c.variant == v) & (c.weapon_rule == w) & c.seed.isin(EVAL_SEEDS)]
        unproven = int((~g.proven).sum())
        games = [Game(int(r.seed), int(r.best_score), bool(r.winnable), float(r.seconds))
                 for r in g.itertuples()]
        rows.append(row_of(
            "perfect information", "exact solver, whole deck known", v, w, games,
            "data/census.parquet (scoundrel-census)",
            "the ceiling: no fair player can do better on a deal; cpu_per_game is the "
            f"solver's seconds per deal; {unproven} deals unproven",
        ))
    return rows


READ: dict[str, Callable[[], list[Row]]] = {
    "fair": fair_rows,
    "pimc": pimc_rows,
    "openspiel": openspiel_rows,
    "perfect information": ceiling_rows,
}

ORDER = ("perfect information", "pimc", "fair", "value", "openspiel-ismcts", "openspiel-mcts",
         "reinforce", "greedy", "random")


# -- the file ---------------------------------------------------------------------------


def read_rows(path: Path) -> list[Row]:
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as f:
        out = []
        # the provenance header: '#' lines above the column names
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            kw: dict[str, Any] = dict(r)
            for k in ("games", "wins", "winnable", "winnable_lost"):
                kw[k] = int(kw[k])
            for k in ("win_rate", "win_low", "win_high", "mean_score", "winnable_loss_rate"):
                kw[k] = float(kw[k])
            for k in ("cpu_per_game", "cpu_median"):
                kw[k] = float(kw[k]) if kw[k] else None
            out.append(Row(**kw))
        return out


def sort_key(r: Row) -> tuple[int, str, str, str]:
    base = next((i for i, name in enumerate(ORDER) if r.agent.startswith(name)), len(ORDER))
    return (base, r.variant, r.agent, r.config)


def write_rows(path: Path, rows: list[Row], stamp: dict[str, str]) -> None:
    tmp = path.with_suffix(".csv.tmp")
    with tmp.open("w", newline="", encoding="utf-8") as f:
        f.write(csv_header(stamp))  # the command, commit and date
        w = csv.DictWriter(f, [fl.name for fl in fields(Row)])
        w.writeheader()
        for r in sorted(rows, key=sort_key):
            w.writerow(asdict(r))
    tmp.replace(path)  # a stop mid-write leaves the old file whole


def markdown(rows: list[Row]) -> str:
    lines = [
        "| rule set | agent | settings | seeds | games | wins | win rate (95% Wilson) "
        "| mean score | winnable deals lost | CPU s per game (mean / median) |",
        "|---|---|---|---|---:|---:|---|---:|---|---|",
    ]
    for r in sorted(rows, key=lambda r: (r.variant, *sort_key(r)[:1], r.agent, r.config)):
        cpu = ("–" if r.cpu_per_game is None or r.cpu_median is None
               else f"{r.cpu_per_game:.3g} / {r.cpu_median:.3g}")
        lost = (f"{100 * r.winnable_loss_rate:.1f}% ({r.winnable_lost} of {r.winnable})"
                if r.winnable else "– (none winnable)")
        lines.append(
            f"| {r.variant}/{r.weapon_rule} | {r.agent} | {r.config} | {r.seeds} | {r.games} "
            f"| {r.wins} | {100 * r.win_rate:.2f}% ({100 * r.win_low:.2f}-{100 * r.win_high:.2f}%) "
            f"| {r.mean_score:.1f} | {lost} | {cpu} |"
        )
    return "\n".join(lines)


def paired_markdown() -> str:
    """OpenSpiel's bots against the fair agent on the same classic/strict deals."""
    path = DATA / "openspiel-bots.jsonl"
    fair = pd.read_parquet(DATA / "fair-games.parquet")
    fair = fair[(fair.variant == "classic") & (fair.weapon_rule == "strict")]
    fair_by_seed = {int(r.seed): r for r in fair.itertuples()}
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            groups.setdefault((r["bot"], int(r["simulations"])), []).append(r)
    lines = [
        "| bot | simulations | deals (seeds) | bot wins (95% Wilson) | fair agent wins, same deals "
        "| both win | only the bot | only the fair agent | mean score bot / fair "
        "| CPU s per game bot / fair (mean) |",
        "|---|---:|---|---|---|---:|---:|---:|---|---|",
    ]
    for (bot, sims), rows in sorted(groups.items()):
        rows = [r for r in rows if int(r["seed"]) in fair_by_seed]
        if not rows:
            continue
        n = len(rows)
        bw = sum(bool(r["won"]) for r in rows)
        fw = sum(bool(fair_by_seed[int(r["seed"])].won) for r in rows)
        both = sum(bool(r["won"]) and bool(fair_by_seed[int(r["seed"])].won) for r in rows)
        blo, bhi = wilson(bw, n)
        flo, fhi = wilson(fw, n)
        bot_cpu = statistics.fmean(float(r["cpu_seconds"]) for r in rows)
        fair_cpu = statistics.fmean(float(fair_by_seed[int(r["seed"])].cpu_seconds) for r in rows)
        bot_score = statistics.fmean(int(r["score"]) for r in rows)
        fair_score = statistics.fmean(int(fair_by_seed[int(r["seed"])].score) for r in rows)
        lines.append(
            f"| {bot} | {sims} | {n} ({seeds_text(int(r['seed']) for r in rows)}) "
            f"| {bw} ({100 * blo:.1f}-{100 * bhi:.1f}%) | {fw} ({100 * flo:.1f}-{100 * fhi:.1f}%) "
            f"| {both} | {bw - both} | {fw - both} | {bot_score:.1f} / {fair_score:.1f} "
            f"| {bot_cpu:.2f} / {fair_cpu:.2f} |"
        )
    if "agent_version" in fair.columns:
        versions = ", ".join(sorted(str(v) for v in fair.agent_version.unique()))
        lines += ["", f"The fair agent's games: agent_version {versions}."]
    return "\n".join(lines)


def with_table(page: str, table: str, block: tuple[str, str] = BLOCK) -> str:
    """``page`` with the text between a block's markers replaced by ``table``."""
    start, end = block
    head, found, rest = page.partition(start)
    if not found or end not in rest:
        raise SystemExit(f"no {start.strip()} ... {end} block in {DOCS}")
    return head + start + table + "\n" + end + rest.split(end, 1)[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--redo", action="append", default=[], choices=sorted(PLAYED),
                   help="play this agent's rows again (repeatable)")
    p.add_argument("--play", action="append", default=None, choices=sorted(PLAYED),
                   help="play only these of the missing agents (repeatable; default all)")
    p.add_argument("--only-read", action="store_true",
                   help="refresh the rows read from data/ and play nothing")
    p.add_argument("--markdown", action="store_true", help="print the table and stop")
    p.add_argument("--docs", action="store_true",
                   help=f"write the table between the markers of {DOCS.relative_to(ROOT)} and stop")
    args = p.parse_args(argv)
    stamp = script_provenance(__file__, argv)
    rows = read_rows(args.out)
    if args.markdown:
        print(markdown(rows))
        return 0
    if args.docs:
        page = with_table(DOCS.read_text(encoding="utf-8"), markdown(rows))
        DOCS.write_text(with_table(page, paired_markdown(), PAIRED), encoding="utf-8")
        return 0
    kept = [r for r in rows if r.agent in PLAYED and r.agent not in args.redo]
    have = {r.agent for r in kept}
    out = list(kept)
    for name, make in READ.items():
        out += make()
        print(f"read {name}", file=sys.stderr)
    write_rows(args.out, out, stamp)
    if not args.only_read:
        for name, play in PLAYED.items():
            if name in have or (args.play is not None and name not in args.play):
                continue
            t = time.process_time()
            out += play()
            write_rows(args.out, out, stamp)  # each agent lands as soon as it is played
            print(f"played {name}: {time.process_time() - t:.0f} CPU s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
