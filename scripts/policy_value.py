"""Fit a value for the one-ply policy on its own positions, the fair agent's search as teacher.

    python scripts/policy_value.py --out runs-dir                 # run (or resume) every round
    python scripts/policy_value.py --out runs-dir --rounds 3 --games 400
    python scripts/policy_value.py --out runs-dir --ship          # copy the best model in
    python scripts/policy_value.py --out runs-dir --table         # the figures by round

Round 0 fits the value (``scoundrel_solver.fair.value.policy_fit.fit_soft``) on the fair
agent's own decisions (``data/value-decisions-train.parquet``) labelled by its search's
values (each decision and the decision states one action away inside its room). Each
later round plays the policy of the last model on ``--games`` new training deals (seeds
from 1,100,000: a block per round), labels its positions with the fair agent's search
(``label_games``: every decision and its room's children) and refits on the fair agent's
decisions and every round's labels so far. Every model is measured on the same training-range deals
(``--measure``, seeds 1,900,000 and up by default), and its figures appended to
``figures.jsonl`` in the output directory. Every step is resumable: a rerun skips the
games, models and figures already written.

``--ship`` copies the model with the most wins on the measured deals to
``src/scoundrel_solver/fair/value/policy-classic-strict.json`` (the policy's default),
stamped with this command's provenance.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from scoundrel_solver.fair.api import play_with
from scoundrel_solver.fair.value.model import ValueModel, load_model
from scoundrel_solver.fair.value.policy import ValuePolicy
from scoundrel_solver.fair.value.policy_fit import base_labels, fit_soft, label_games, labels_in
from scoundrel_solver.provenance import script_provenance
from scoundrel_solver.runs.summary import wilson

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "data" / "value-decisions-train.parquet"
SHIPPED = ROOT / "src" / "scoundrel_solver" / "fair" / "value" / "policy-classic-strict.json"
FIRST_SEED = 1_100_000
MEASURE = 1_900_000


def shown(path: Path) -> str:
    """``path`` relative to the repository when it lies in it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def log(text: str) -> None:
    print(time.strftime("%H:%M:%S"), text, flush=True)


def measure(model: ValueModel, seeds: range) -> dict[str, Any]:
    """Wins, their 95% interval, mean score and decisions per CPU second of the policy."""
    policy = ValuePolicy(model)
    play_with(policy, seeds.start, "classic")  # compiles the model's kernel: not timed
    wins = total = decisions = 0
    start = time.process_time()
    for seed in seeds:
        g = play_with(policy, seed, "classic")
        wins += g.won
        total += g.score
        decisions += len(g.actions)
    cpu = time.process_time() - start
    lo, hi = wilson(wins, len(seeds))
    return {"seeds": f"{seeds.start}-{seeds.stop - 1}", "games": len(seeds), "wins": wins,
            "win_rate": wins / len(seeds), "win_low": lo, "win_high": hi,
            "mean_score": total / len(seeds), "decisions": decisions,
            "decisions_per_s": decisions / cpu}


def table(figures: list[dict[str, Any]]) -> str:
    """The figures of each round as a Markdown table."""
    lines = ["| round | rows fitted | deals | won | win rate (95% Wilson) | mean score "
             "| decisions per CPU s |", "|---:|---:|---|---:|---|---:|---:|"]
    for f in sorted(figures, key=lambda f: (f["round"] == "final", str(f["round"]))):
        lines.append(f"| {f['round']} | {f['rows']:,} | {f['seeds']} | {f['wins']} | "
                     f"{100 * f['win_rate']:.1f}% ({100 * f['win_low']:.1f}-"
                     f"{100 * f['win_high']:.1f}%) | {f['mean_score']:.1f} | "
                     f"{f['decisions_per_s']:,.0f} |")
    return "\n".join(lines)


def seed_blocks(rounds: int, games: int) -> list[str]:
    """The training seeds of the policy's games in the first ``rounds`` rounds."""
    return [f"{FIRST_SEED + i * 10_000}-{FIRST_SEED + i * 10_000 + games - 1}"
            for i in range(rounds)]


def fit_round(key: int | str, path: Path,
              parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
              opts: dict[str, Any], record: dict[str, Any]) -> ValueModel:
    """The model of one round: read from ``path`` if it was fitted, else fitted on ``parts``
    (arrays of features, win, score, game) with ``opts`` (of ``fit_soft``) and written
    there."""
    if path.exists():
        return load_model(path)
    x, win, score, game = (np.concatenate([q[i] for q in parts]) for i in range(4))
    t = time.time()
    model = fit_soft(x, win, score, game, **opts,
                     fit={**record, "policy_rows": len(x) - len(parts[0][0])})
    model.save(path)
    log(f"round {key}: fitted on {len(x):,} rows in {time.time() - t:.0f}s, epochs "
        f"{model.fit['epochs']}, held-out log-loss {model.fit['validation_log_loss']:.4f}")
    return model


def report(key: int | str, model: ValueModel, figures: dict[Any, dict[str, Any]],
           figures_path: Path, seeds: range) -> None:
    """Measure the model (once: the figures file keeps it) and log its figures."""
    if key not in figures:
        f = {"round": key, "rows": model.fit.get("rows"), **measure(model, seeds)}
        figures[key] = f
        with figures_path.open("a") as file:
            file.write(json.dumps(f) + "\n")
    f = figures[key]
    log(f"round {key}: {f['wins']}/{f['games']} won ({100 * f['win_low']:.1f}-"
        f"{100 * f['win_high']:.1f}%), mean score {f['mean_score']:.1f}, "
        f"{f['decisions_per_s']:.0f} decisions/s")


def label_round(model: ValueModel, r: int, seeds: range, path: Path, stopping: list[int]
                ) -> None:
    """Label the positions of the policy of ``model`` on ``seeds`` (resumable)."""
    policy = ValuePolicy(model)
    t = time.time()
    done = [0, 0]

    def progress(seed: int, rows: int) -> None:
        done[0] += 1
        done[1] += rows
        if done[0] % 20 == 0:
            log(f"round {r}: {done[0]} games, {done[1]:,} positions labelled "
                f"({done[1] / (time.time() - t):.1f}/s)")

    label_games(lambda info: policy.choose(info)[0], seeds, "classic", path, round_=r,
                stop=lambda: bool(stopping), progress=progress)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, required=True, help="directory of the run")
    p.add_argument("--rounds", type=int, default=3, help="rounds after round 0 (default 3)")
    p.add_argument("--games", type=int, default=400, help="policy games a round (default 400)")
    p.add_argument("--measure", type=int, default=500, help="measured deals (default 500)")
    p.add_argument("--hidden", default="64", help="hidden widths, comma-separated")
    p.add_argument("--alpha", type=float, default=1.0)
    p.add_argument("--max-iter", type=int, default=20)
    p.add_argument("--batch", type=int, default=500, help="rows a gradient step")
    p.add_argument("--base", type=Path, default=BASE,
                   help="the fair agent's decisions (Parquet; default %(default)s)")
    p.add_argument("--base-games", type=int, default=0,
                   help="fit on the first N games of the base only (0: all)")
    p.add_argument("--ship", action="store_true", help="copy the best model to the package")
    p.add_argument("--final-epochs", type=int, default=0,
                   help="after the rounds, refit on the whole base and every label with "
                        "this many epochs at most (0: no)")
    p.add_argument("--figures", default="figures.jsonl",
                   help="the figures file in --out (default %(default)s)")
    p.add_argument("--table", action="store_true",
                   help="print the figures of every round as a Markdown table")
    args = p.parse_args(argv)
    if not 0 <= args.rounds <= 20 or not 1 <= args.games <= 10_000 \
            or not 1 <= args.measure <= 10_000:
        p.error("--rounds 0..20, --games 1..10000, --measure 1..10000")
    opts = {"hidden": tuple(int(h) for h in args.hidden.split(",")), "alpha": args.alpha,
            "batch_size": args.batch, "patience": 3}
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    figures_path = out / args.figures
    figures = {}
    if figures_path.exists():
        for line in figures_path.read_text().splitlines():
            f = json.loads(line)
            figures[f["round"]] = f
    if args.table:
        print(table(list(figures.values())))
        return 0
    if args.ship:
        best = max(figures.values(), key=lambda f: f["wins"])
        name = "final" if best["round"] == "final" else f"r{best['round']}"
        chosen = load_model(out / f"model-{name}.json")
        chosen.fit["shipped"] = script_provenance(__file__,
                                                  argv if argv is not None else sys.argv[1:])
        chosen.fit["measured"] = {k: best[k] for k in ("seeds", "wins", "games")}
        chosen.save(SHIPPED)
        log(f"shipped round {best['round']}: {best['wins']}/{best['games']} to {SHIPPED}")
        return 0
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    stamp = script_provenance(__file__, argv if argv is not None else sys.argv[1:])
    base_cache = out / "base.npz"
    if base_cache.exists():
        with np.load(base_cache) as z:
            base = (z["x"], z["win"], z["score"], z["game"])
    else:
        base = base_labels([args.base])
        np.savez(base_cache, x=base[0], win=base[1], score=base[2], game=base[3])
    full_base = base
    if args.base_games:
        keep = np.isin(base[3], np.unique(base[3])[: args.base_games])
        base = (base[0][keep], base[1][keep], base[2][keep], base[3][keep])
    log(f"base: {len(base[0]):,} positions of the fair agent's games")
    seeds_measured = range(MEASURE, MEASURE + args.measure)
    model: ValueModel | None = None
    for r in range(args.rounds + 1):
        path = out / f"model-r{r}.json"
        labels = [out / f"labels-r{i}.jsonl" for i in range(1, r + 1)]
        if r > 0:
            assert model is not None
            start = FIRST_SEED + (r - 1) * 10_000
            label_round(model, r, range(start, start + args.games), labels[-1], stopping)
            if stopping:
                log("stopped")
                return 1
        model = fit_round(r, path, [base, *(labels_in([f]) for f in labels)],
                          {**opts, "max_iter": args.max_iter},
                          {**stamp, "round": r, "base": shown(args.base),
                           "base_rows": len(base[0]), "policy_games": r * args.games,
                           "policy_seeds": seed_blocks(r, args.games)})
        report(r, model, figures, figures_path, seeds_measured)
    if args.final_epochs:
        # the last round's labels on the whole base, with more epochs
        labels = [out / f"labels-r{i}.jsonl" for i in range(1, args.rounds + 1)]
        model = fit_round("final", out / "model-final.json",
                          [full_base, *(labels_in([f]) for f in labels)],
                          {**opts, "max_iter": args.final_epochs,
                           "patience": min(5, args.final_epochs)},
                          {**stamp, "round": "final", "base": shown(args.base),
                           "base_rows": len(full_base[0]),
                           "policy_games": args.rounds * args.games,
                           "policy_seeds": seed_blocks(args.rounds, args.games)})
        report("final", model, figures, figures_path, seeds_measured)
    return 0


if __name__ == "__main__":
    sys.exit(main())
