"""Fit the one-ply policy's value to rank each decision's actions as the search does; measure it.

    python scripts/policy_rank.py --out DIR --arm NAME [fit options]  # fit (once), measure
    python scripts/policy_rank.py --out DIR --table                   # every arm, paired
    python scripts/policy_rank.py --out DIR --ship NAME               # the arm's model in
    python scripts/policy_rank.py --out DIR --docs                    # docs/value.md's blocks
    python scripts/policy_rank.py --out DIR --phases MODEL            # held-out regret by phase

The ranking set (``scoundrel_solver.fair.value.policy_rank.rank_set``) is built once from
the fair agent's decisions (``--base``, ``data/value-decisions-train.parquet``, every game
replayed from its seed) with ``--deals`` deals drawn (``--exact`` enumerated) per chance
node, and kept in ``--cache``. An arm fits a model (``fit_rank``) from the shipped policy
model's weights (``--start shipped``) or from scratch, writes it as ``model-NAME.json``
in ``--out`` and measures the policy playing it on the dev deals (classic/strict seeds
1,900,000 and up, never fitted on), appending a line to ``figures.jsonl``; the shipped
model is measured on the same deals as the arm ``shipped``, and ``--table`` pairs every
arm against it deal by deal. Every step is resumable: a rerun skips what is written.

``--docs`` rewrites docs/value.md's blocks between ``<!-- NAME: start -->`` and
``<!-- NAME: end -->``: ``policy-rank`` (``--table`` of ``figures.jsonl``),
``policy-rank-confirm`` (of ``figures-confirm.jsonl``), ``policy-line`` (the shipped
policy's rows of ``data/reference-agents.csv``, as ``scripts/reference_agents.py
--redo value`` wrote them) and ``policy-phases`` (``--phases`` of the value the ranking
fit replaced and of the shipped one).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from policy_value import MEASURE, log, shown
from scoundrel_solver.fair.api import play_with
from scoundrel_solver.fair.value.model import ValueModel, load_model
from scoundrel_solver.fair.value.policy import POLICY_MODEL, ValuePolicy
from scoundrel_solver.fair.value.policy_rank import (
    RankSet,
    fit_rank,
    rank_set,
    rank_set_of_play,
    rank_sets_joined,
    with_order,
)
from scoundrel_solver.provenance import script_provenance
from scoundrel_solver.runs.summary import Z95, wilson

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "value.md"
REFERENCE = ROOT / "data" / "reference-agents.csv"
BASE = ROOT / "data" / "value-decisions-train.parquet"


def games_of(path: Path) -> list[list[dict[str, Any]]]:
    """The games of a decisions file, each its rows in order, by seed."""
    import pyarrow.parquet as pq

    by: dict[int, list[dict[str, Any]]] = {}
    for r in pq.read_table(path).to_pylist():
        by.setdefault(int(r["seed"]), []).append(r)
    return [sorted(g, key=lambda r: int(r["decision"])) for _, g in sorted(by.items())]


def the_set(base: Path, deals: int, exact: int, cache: Path, order: bool = False
            ) -> tuple[RankSet, dict[str, Any]]:
    """The ranking set of ``base`` (built once, then read from ``cache``) and what it is;
    ``order``: its rows see the known bottom's order."""
    path = cache / f"rank-set-d{deals}-e{exact}{'-order' if order else ''}.npz"
    if path.exists():
        rs = RankSet.load(path)
    else:
        t = time.process_time()
        rs = rank_set(games_of(base), deals, exact, order=order)
        cache.mkdir(parents=True, exist_ok=True)
        rs.save(path)
        log(f"ranking set: {rs.decisions:,} decisions, {len(rs.ends):,} actions, "
            f"{len(rs.weight):,} rows in {time.process_time() - t:.0f} CPU s")
    seeds = np.unique(rs.game)
    return rs, {"base": shown(base), "games": len(seeds),
                "seeds": f"{seeds[0]}-{seeds[-1]}", "deals": deals, "exact": exact,
                "order": order}


CHUNK = 25  # games a file of a play set: a stopped labelling loses at most these


def play_set(spec: str, out: Path, deals: int, exact: int, cache: Path, order: bool = False
             ) -> tuple[RankSet, dict[str, Any]]:
    """The ranking set of ``spec`` (``ARM:FIRST:GAMES``): the policy of the arm's model
    (``shipped``: the package's) played on ``GAMES`` training deals from seed ``FIRST``,
    every decision labelled by the fair agent's search; kept in ``cache`` by chunks of
    :data:`CHUNK` games (a rerun labels only the chunks missing)."""
    arm, first, games = spec.split(":")
    seeds = range(int(first), int(first) + int(games))
    if seeds.start < MEASURE + 10_000 and seeds.stop > MEASURE:
        raise SystemExit(f"--play {spec}: seeds near the dev deals {MEASURE} and on")
    model = load_model(POLICY_MODEL if arm == "shipped" else out / f"model-{arm}.json")
    policy = ValuePolicy(model)
    parts = []
    for start in range(seeds.start, seeds.stop, CHUNK):
        chunk = range(start, min(start + CHUNK, seeds.stop))
        path = cache / (f"play-{arm}-{chunk.start}-{len(chunk)}-d{deals}-e{exact}"
                        f"{'-order' if order else ''}.npz")
        if not path.exists():
            t = time.process_time()
            rs = rank_set_of_play(lambda info: policy.choose(info)[0], chunk, "classic",
                                  deals=deals, exact=exact, order=order)
            cache.mkdir(parents=True, exist_ok=True)
            rs.save(path)
            log(f"play {arm} {chunk.start}-{chunk.stop - 1}: {rs.decisions:,} decisions "
                f"labelled in {time.process_time() - t:.0f} CPU s")
        parts.append(RankSet.load(path))
    return rank_sets_joined(parts), {"model": arm, "seeds": f"{seeds.start}-{seeds.stop - 1}"}


def measure(model: ValueModel, seeds: range) -> dict[str, Any]:
    """The policy's wins (and each deal's), their 95% interval, mean score and decisions
    per CPU second on ``seeds`` of classic/strict."""
    policy = ValuePolicy(model)
    play_with(policy, seeds.start, "classic")  # compiles the model's kernel: not timed
    won: list[int] = []
    total = decisions = 0
    start = time.process_time()
    for seed in seeds:
        g = play_with(policy, seed, "classic")
        won.append(int(g.won))
        total += g.score
        decisions += len(g.actions)
    cpu = time.process_time() - start
    lo, hi = wilson(sum(won), len(seeds))
    return {"seeds": f"{seeds.start}-{seeds.stop - 1}", "games": len(seeds), "wins": sum(won),
            "win_rate": sum(won) / len(seeds), "win_low": lo, "win_high": hi,
            "mean_score": total / len(seeds), "decisions": decisions,
            "decisions_per_s": decisions / cpu, "won": "".join(map(str, won))}


def paired(arm: dict[str, Any], base: dict[str, Any]) -> tuple[float, float, float, int, int]:
    """(difference of win rates, its 95% interval, deals only the arm won, only the base
    won): the normal interval of the mean of the per-deal differences."""
    a = np.array([int(c) for c in arm["won"]])
    b = np.array([int(c) for c in base["won"]])
    d = a - b
    half = Z95 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.inf
    return (float(d.mean()), float(d.mean()) - half, float(d.mean()) + half,
            int(((a == 1) & (b == 0)).sum()), int(((a == 0) & (b == 1)).sum()))


def table(figures: dict[str, dict[str, Any]]) -> str:
    """Every arm's figures as a Markdown table, paired against the shipped model."""
    lines = ["| arm | start | fit deals | T | abs weight | epochs (kept) | measured deals | won "
             "| win rate (95% Wilson) | paired difference (95%) | only arm / only shipped "
             "| mean score | held-out regret | decisions per CPU s |",
             "|---|---|---|---:|---:|---:|---|---:|---|---|---:|---:|---:|---:|"]
    base = figures.get("shipped")
    for name, f in figures.items():
        o = f.get("options", {})
        if base is not None and name != "shipped" and base["seeds"] == f["seeds"]:
            d, lo, hi, plus, minus = paired(f, base)
            pair = f"{100 * d:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"
            only = f"{plus} / {minus}"
        else:
            pair = only = "-"
        epochs = f"{o['epochs']} ({o['kept_epoch']})" if "epochs" in o else "-"
        regret = f"{o['regret']:.2f}" if "regret" in o else "-"
        start = str(o.get("start", "-")).replace("given model", "shipped")
        deals = f"{o['deals']} ({o['exact']})" if "deals" in o else "-"
        lines.append(
            f"| {name} | {start} | {deals} | {o.get('temperature', '-')} | "
            f"{o.get('abs_weight', '-')} | {epochs} | {f['seeds']} | {f['wins']} | "
            f"{100 * f['win_rate']:.1f}% ({100 * f['win_low']:.1f}-{100 * f['win_high']:.1f}%)"
            f" | {pair} | {only} | {f['mean_score']:.1f} | {regret} | "
            f"{f['decisions_per_s']:,.0f} |")
    return "\n".join(lines)


def figures_in(path: Path) -> dict[str, dict[str, Any]]:
    """The figures of a figures file, by arm (the last line of an arm wins)."""
    out: dict[str, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            f = json.loads(line)
            out[f["arm"]] = f
    return out


def reference_line() -> str:
    """The shipped policy's reference rows, as a sentence."""
    import csv

    with REFERENCE.open() as file:
        rows = [r for r in csv.DictReader(line for line in file if not line.startswith("#"))
                if r["agent"] == "value"]
    parts = []
    for r in rows:
        parts.append(f"{100 * float(r['win_rate']):.2f}% ({100 * float(r['win_low']):.2f}-"
                     f"{100 * float(r['win_high']):.2f}%) of {r['variant']}/{r['weapon_rule']}"
                     f" seeds {r['seeds']} ({r['note']})")
    return ("As `python scripts/reference_agents.py --redo value` wrote "
            "`data/reference-agents.csv`, the policy wins " + "; ".join(parts) + ".")


def rewrite(text: str, name: str, body: str) -> str:
    """``text`` with the block ``name`` holding ``body``."""
    start, end = f"<!-- {name}: start -->", f"<!-- {name}: end -->"
    if start not in text or end not in text:
        raise SystemExit(f"{PAGE}: no block {name}")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


PHASES_OF = (("The value the ranking fit replaced", ROOT / "data" / "experiments" / "round-policy"
              / "model-final.json"), ("The shipped value", POLICY_MODEL))


def docs(out: Path, cache: Path) -> None:
    """Rewrite docs/value.md's blocks from the figures files, the reference rows and the
    held-out regret by phase (on the ranking set of 16 deals drawn, up to 32 enumerated)."""
    text = PAGE.read_text()
    parts = []
    for what, path in PHASES_OF:
        model = load_model(path)
        rs = the_set(BASE, 16, 32, cache, model.order)[0]
        parts += [f"{what} (`python scripts/policy_rank.py --out {shown(out)} --deals 16 "
                  f"--exact 32 --phases {shown(path)}`):", "", phases(rs, model), ""]
    text = rewrite(text, "policy-phases", "\n".join(parts).rstrip())
    where = shown(out)
    for name, file in (("policy-rank", "figures.jsonl"),
                       ("policy-rank-confirm", "figures-confirm.jsonl")):
        figures = figures_in(out / file)
        seeds = {f["seeds"] for f in figures.values()}
        flag = "" if file == "figures.jsonl" else f" --figures {file}"
        text = rewrite(text, name, "\n".join([
            f"As `python scripts/policy_rank.py --out {where}{flag} --table` prints it "
            f"(classic/strict, deals {', '.join(sorted(seeds))}):", "", table(figures)]))
    text = rewrite(text, "policy-line", reference_line())
    PAGE.write_text(text)


def phases(rs: RankSet, model: ValueModel) -> str:
    """The held-out regret of ``model`` (the teacher's utility lost a decision by playing
    the model's choice; the games :func:`fit_rank` holds out) by phase of the game, as a
    Markdown table. A decision's phase is its unseen cards (those of its first action
    that does not end the game)."""
    from scoundrel_solver.fair.value.features import FEATURES
    from scoundrel_solver.fair.value.train import split_by_game

    _, val = split_by_game(rs.game, 0)
    unseen = FEATURES.index("unseen")
    by: dict[str, list[float]] = {}
    for d in np.flatnonzero(val):
        acts = range(int(rs.decision_actions[d]), int(rs.decision_actions[d + 1]))
        u, t, phase = [], [], "game ends"
        for a in acts:
            lo, hi = int(rs.action_rows[a]), int(rs.action_rows[a + 1])
            if rs.ends[a]:
                w, s = float(rs.end_win[a]), float(rs.end_score[a])
            else:
                x = rs.x[lo:hi].astype(np.float64)
                w = float(rs.weight[lo:hi] @ model.win(x))
                s = float(rs.weight[lo:hi] @ model.score(x))
                if phase == "game ends":
                    n = rs.x[lo, unseen]
                    phase = "more than 30" if n > 30 else "13-30" if n > 12 else "12 or fewer"
            u.append(s + rs.bonus * w)
            t.append(float(rs.teacher_score[a]) + rs.bonus * float(rs.teacher_win[a]))
        best = max(t)
        by.setdefault(phase, []).append(best - t[int(np.argmax(u))])
    total = sum(sum(v) for v in by.values())
    lines = ["| unseen cards | held-out decisions | mean regret | share of the regret "
             "| not the teacher's choice |", "|---|---:|---:|---:|---:|"]
    for phase in ("more than 30", "13-30", "12 or fewer", "game ends"):
        v = np.array(by.get(phase, []))
        if len(v):
            lines.append(f"| {phase} | {len(v):,} | {v.mean():.2f} | "
                         f"{100 * v.sum() / total:.0f}% | {100 * (v > 1e-9).mean():.0f}% |")
    every = np.concatenate([np.array(v) for v in by.values()])
    lines.append(f"| all | {len(every):,} | {every.mean():.2f} | 100% | "
                 f"{100 * (every > 1e-9).mean():.0f}% |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, required=True, help="directory of the arms")
    p.add_argument("--arm", help="fit (once) and measure the arm of this name")
    p.add_argument("--table", action="store_true", help="print every arm, paired")
    p.add_argument("--docs", action="store_true", help="rewrite docs/value.md's blocks")
    p.add_argument("--phases", type=Path, metavar="MODEL",
                   help="print the model's held-out regret by phase (on --deals, --exact)")
    p.add_argument("--ship", metavar="ARM", help="copy the arm's model to the package")
    p.add_argument("--base", type=Path, default=BASE,
                   help="the fair agent's decisions (Parquet; default %(default)s)")
    p.add_argument("--cache", type=Path, default=Path("/tmp/policy-rank"),
                   help="where the ranking set is kept (default %(default)s)")
    p.add_argument("--deals", type=int, default=8, help="deals drawn per chance node")
    p.add_argument("--exact", type=int, default=16, help="deals enumerated when at most this")
    p.add_argument("--play", action="append", default=[], metavar="ARM:FIRST:GAMES",
                   help="also fit on the decisions of the arm's policy on GAMES training "
                        "deals from seed FIRST, labelled by the fair agent's search")
    p.add_argument("--extra", type=Path, nargs="+", default=[], metavar="SET",
                   help="also fit on these ranking sets (.npz files of RankSet.save, built "
                        "by a round's own script)")
    p.add_argument("--order", action="store_true",
                   help="a value that also sees the known bottom's order (FEATURES_ORDER); "
                        "a start model without it is widened, playing as before")
    p.add_argument("--start", default="shipped",
                   help="start from: shipped (the package's model), scratch, or a model file")
    p.add_argument("--hidden", default="64", help="hidden widths from scratch, comma-separated")
    p.add_argument("--score-hidden", help="the score network's widths from scratch "
                                          "(default: --hidden)")
    p.add_argument("--temperature", type=float, default=10.0, help="points (default 10)")
    p.add_argument("--abs-weight", type=float, default=1.0)
    p.add_argument("--l2", type=float, default=0.0)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch", type=int, default=256, help="decisions a gradient step")
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--seed", type=int, default=0,
                   help="the held-out games' and the batches' random seed")
    p.add_argument("--measure", type=int, default=500, help="dev deals measured (default 500)")
    p.add_argument("--first", type=int, default=MEASURE,
                   help="the first deal measured (default %(default)s: the dev deals)")
    p.add_argument("--figures", default="figures.jsonl",
                   help="the figures file in --out (default %(default)s)")
    args = p.parse_args(argv)
    if not 1 <= args.measure <= 10_000 or not 1 <= args.deals <= 64 \
            or not 1 <= args.exact <= 256 or not MEASURE <= args.first <= 2_000_000:
        p.error(f"--measure 1..10000, --deals 1..64, --exact 1..256, --first {MEASURE:,}.."
                f"2,000,000 (deals never fitted on)")
    out: Path = args.out
    figures_path = out / args.figures
    figures = figures_in(figures_path)
    if args.docs:
        docs(out, args.cache)
        return 0
    if args.phases:
        model = load_model(args.phases)
        print(phases(the_set(args.base, args.deals, args.exact, args.cache, model.order)[0],
                     model))
        return 0
    if args.table:
        print(table(figures))
        return 0
    stamp = script_provenance(__file__, argv if argv is not None else sys.argv[1:])
    if args.ship:
        f = figures[args.ship]
        chosen = load_model(out / f"model-{args.ship}.json")
        chosen.fit["shipped"] = stamp
        chosen.fit["measured"] = {k: f[k] for k in ("seeds", "wins", "games")}
        chosen.save(POLICY_MODEL)
        log(f"shipped arm {args.ship}: {f['wins']}/{f['games']} to {POLICY_MODEL}")
        return 0
    if not args.arm:
        p.error("--arm, --table or --ship")
    out.mkdir(parents=True, exist_ok=True)
    seeds = range(args.first, args.first + args.measure)

    def record(name: str, model: ValueModel, options: dict[str, Any]) -> None:
        if name in figures:
            return
        f = {"arm": name, "options": options, **measure(model, seeds)}
        figures[name] = f
        with figures_path.open("a") as file:
            file.write(json.dumps(f) + "\n")
        log(f"{name}: {f['wins']}/{f['games']} won ({100 * f['win_low']:.1f}-"
            f"{100 * f['win_high']:.1f}%), mean score {f['mean_score']:.1f}, "
            f"{f['decisions_per_s']:.0f} decisions/s")

    shipped = load_model(POLICY_MODEL)
    record("shipped", shipped, {"model": shown(POLICY_MODEL)})
    path = out / f"model-{args.arm}.json"
    if path.exists():
        model = load_model(path)
    else:
        rs, what = the_set(args.base, args.deals, args.exact, args.cache, args.order)
        if args.play:
            plays = [play_set(spec, out, args.deals, args.exact, args.cache, args.order)
                     for spec in args.play]
            rs = rank_sets_joined([rs, *(q for q, _ in plays)])
            what["play"] = [w for _, w in plays]
        if args.extra:
            extra = [RankSet.load(path) for path in args.extra]
            rs = rank_sets_joined([rs, *extra])
            what["extra"] = {"sets": len(extra), "decisions": sum(e.decisions for e in extra),
                             "first": shown(args.extra[0])}
        t = time.process_time()
        first = (shipped if args.start == "shipped" else None if args.start == "scratch"
                 else load_model(args.start))
        if first is not None and args.order:
            first = with_order(first, rs)
        model = fit_rank(rs, first,
                         temperature=args.temperature, abs_weight=args.abs_weight,
                         l2=args.l2, epochs=args.epochs, batch_decisions=args.batch,
                         learning_rate=args.learning_rate, seed=args.seed,
                         hidden=tuple(int(h) for h in args.hidden.split(",")),
                         score_hidden=(None if args.score_hidden is None else
                                       tuple(int(h) for h in args.score_hidden.split(","))),
                         fit={**stamp, **what,
                              "start_model": {"shipped": shown(POLICY_MODEL),
                                              "scratch": "scratch"}.get(
                                                  args.start, shown(Path(args.start)))},
                         log=log)
        model.fit["fit_cpu_s"] = round(time.process_time() - t, 1)
        model.save(path)
    kept = model.fit["history"][model.fit["kept_epoch"]]
    record(args.arm, model, {k: model.fit[k] for k in (
        "temperature", "abs_weight", "l2", "epochs", "kept_epoch", "learning_rate",
        "batch_decisions", "deals", "exact", "start")} | {"order": model.order,
                                                          "regret": kept["regret"],
                                                          "agreement": kept["agreement"],
                                                          "play": model.fit.get("play", []),
                                                          "extra": model.fit.get("extra")})
    return 0


if __name__ == "__main__":
    sys.exit(main())
