"""Train the fair agent's win model: play games, then fit P(win) from what the player knew.

    python scripts/train_fair_leaf.py play --variant classic/strict --seeds 22000:23000
    python scripts/train_fair_leaf.py fit --variant classic/strict     # -> fair/leaf_model.json

``play`` lets the fair agent (as shipped, or ``--no-model``: the hand leaf
alone) play each seed and appends one JSON line per game to the cache
(default ``leaf-games.jsonl``): the outcome and, at every room boundary (the
start and every refill or flee, where the search calls its leaf evaluation),
the win model's features of the information state. A stopped run resumes:
seeds already cached for the variant are skipped.

``fit`` reads the cached games of a variant and fits a logistic regression of
"the game was won" on those features (Newton's method, a small L2 penalty on
standardised features), reports the log-loss on a held-out fifth of the games
(seed % 5 == 0) against the constant model, refits on all games and writes the
coefficients into the model file under the variant's name.

No peeking: every feature is a function of the information state (health,
weapon, last kill and the pool: the cards not yet resolved, whose order the
player does not know), computed by ``leaf.leaf_features`` from an InfoState.
The label is the game's outcome, which is what the leaf estimates; the hidden
order is never an input. Training seeds must stay outside the evaluation range
0-9999 (the shipped models were trained on seeds 22000 and up).
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

import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe
from scoundrel_solver.fair import leaf
from scoundrel_solver.fair.agent import FairAgent
from scoundrel_solver.fair.config import agent_config, configs_with
from scoundrel_solver.runs.jsonl import drop_cut_line, read_json_lines
from scoundrel_solver.runs.seeds import parse_seed_range

MODEL_PATH = Path(leaf.__file__).with_name(leaf.MODEL_FILE)
EVAL_SEEDS = range(0, 10_000)



def games_in(cache: Path) -> list[dict[str, Any]]:
    """The games cached so far (a game cut short by a stop mid-write is skipped)."""
    return [row for _, row in read_json_lines(cache)]

def position(info: InfoState) -> list[Any]:
    """What the player knows between rooms, raw: the pool (sorted card names), health,
    weapon value and reach (so a later fit may compute other features of it)."""
    pool = sorted(str(c) for c in (*info.room, *info.unseen, *info.bottom))
    return [" ".join(pool), info.health, info.weapon_value, info.weapon_reach]


def features(info: InfoState) -> list[float]:
    pool = [*info.room, *info.unseen, *info.bottom]
    return leaf.leaf_features(pool, info.health, info.weapon_value, info.weapon_reach)


def parse_position(raw: list[Any]) -> list[float]:
    """The win model's features of a cached raw position (see :func:`position`)."""
    names, health, weapon, reach = raw
    pool = [sc.parse_card(c) for c in names.split()]
    return leaf.leaf_features(pool, int(health), int(weapon), int(reach))


def play_one(agent: FairAgent, seed: int, variant: str) -> dict[str, Any]:
    """One game; the features at every room boundary and the outcome."""
    t = time.process_time()
    s = sc.new_game(seed=seed, variant=variant)
    info = InfoState.initial(s)
    agent.reset(seed)
    rows = [features(info)]
    raw = [position(info)]
    while not s.is_over:
        action, _ = agent.choose(info)
        after = sc.apply(s, action)
        info = observe(info, action, after)
        s = after
        if not s.is_over and s.resolved_in_room == 0:  # a new room was dealt
            rows.append(features(info))
            raw.append(position(info))
    return {
        "seed": seed, "variant": variant, "score": s.score, "won": s.won,
        "cpu": round(time.process_time() - t, 3), "x": rows, "pos": raw,
    }


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-5) -> np.ndarray:
    """Coefficients (first one the bias, x[:, 0] == 1) maximising the penalised likelihood."""
    mu, sd = x.mean(0), x.std(0)
    mu[0], sd[0] = 0.0, 1.0
    sd[sd == 0] = 1.0
    z = (x - mu) / sd
    b = np.zeros(x.shape[1])
    penalty = l2 * len(y) * np.r_[0.0, np.ones(x.shape[1] - 1)]
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-z @ b))
        grad = z.T @ (p - y) + penalty * b
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        b -= step
        if np.abs(step).max() < 1e-10:
            break
    coef = b / sd
    coef[0] = b[0] - float(np.sum(b[1:] * mu[1:] / sd[1:]))
    return coef


def log_loss(x: np.ndarray, y: np.ndarray, coef: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-x @ coef)), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def cmd_play(args: argparse.Namespace) -> int:
    variant = str(sc.get_variant(args.variant))
    seeds = parse_seed_range(args.seeds)
    if seeds.start < EVAL_SEEDS.stop:  # a range reaching below 10000 overlaps 0-9999
        print("train on seeds outside 0-9999 (the evaluation range)", file=sys.stderr)
        return 2
    done = {g["seed"] for g in games_in(args.cache) if g["variant"] == variant}
    drop_cut_line(args.cache)  # a game cut short mid-write: append on a fresh line
    model: tuple[float, ...] | str | None = None if args.no_model else "shipped"
    if args.model:
        model = leaf.win_model_from(args.model, variant)
    agent = FairAgent(configs_with(win_model=None, win_bonus=0.0) if model is None
                      else None if model == "shipped" else configs_with(win_model=model))
    with args.cache.open("a") as out:
        for seed in range(seeds.start, seeds.stop):
            if seed not in done:
                out.write(json.dumps(play_one(agent, seed, variant)) + "\n")
                out.flush()
    return 0


def cmd_fit(args: argparse.Namespace) -> int:
    variant = str(sc.get_variant(args.variant))
    games = [g for cache in args.cache for g in games_in(cache) if g["variant"] == variant]
    if not games:
        print(f"no cached games of {variant} in {args.cache}", file=sys.stderr)
        return 2
    if all("pos" in g for g in games):  # raw positions: today's features of them
        x = np.array([parse_position(p) for g in games for p in g["pos"]], float)
    elif all(len(row) == len(leaf.FEATURES) for g in games for row in g["x"]):
        x = np.array([row for g in games for row in g["x"]], float)
    else:
        print("the cache holds features of another FEATURES and no raw positions",
              file=sys.stderr)
        return 2
    keep = np.ones(len(leaf.FEATURES), bool)
    if args.features:
        names = ["bias", *args.features.split(",")]
        bad = set(names) - set(leaf.FEATURES)
        if bad:
            print(f"unknown features {sorted(bad)}", file=sys.stderr)
            return 2
        keep = np.array([name in names for name in leaf.FEATURES])
    y = np.array([float(g["won"]) for g in games for _ in g["x"]])
    held = np.array([g["seed"] % 5 == 0 for g in games for _ in g["x"]])
    coef = np.zeros(len(leaf.FEATURES))
    coef[keep] = fit_logistic(x[~held][:, keep], y[~held], args.l2)
    rate = float(y[~held].mean())
    const = -(rate * math.log(rate) + (1 - rate) * math.log(1 - rate)) if 0 < rate < 1 else 0.0
    print(f"{variant}: {len(games)} games, {len(y)} positions, won {100 * y.mean():.1f}%")
    name = agent_config(variant).win_model
    shipped = leaf.shipped_models().get(name) if isinstance(name, str) else None
    before = "" if shipped is None else (
        f", the shipped model {log_loss(x[held], y[held], np.array(shipped)):.4f}")
    print(f"held-out log-loss {log_loss(x[held], y[held], coef):.4f} "
          f"(constant {const:.4f}{before})")
    coef[keep] = fit_logistic(x[:, keep], y, args.l2)
    data = json.loads(MODEL_PATH.read_text()) if MODEL_PATH.exists() else {}
    data["features"] = list(leaf.FEATURES)
    seeds = sorted(g["seed"] for g in games)
    data.setdefault("models", {})[variant] = {
        "coef": [round(float(c), 6) for c in coef],
        "games": len(games),
        "positions": len(y),
        "seeds": f"{seeds[0]}-{seeds[-1]}",
        "l2": args.l2,
        "note": args.note,
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"-> {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play games and cache the features")
    play.add_argument("--seeds", required=True, help="A:B, outside 0-9999")
    play.add_argument("--no-model", action="store_true", help="play with the hand leaf alone")
    play.add_argument("--model", type=Path, help="play with the win model of this model file")
    fit = sub.add_parser("fit", help="fit the win model of a variant from the cache")
    fit.add_argument("--l2", type=float, default=1e-5)
    fit.add_argument("--features", help="comma-separated: fit only these (the rest get 0)")
    fit.add_argument("--out", type=Path, default=MODEL_PATH)
    fit.add_argument("--note", default="", help="stored with the model (who played the games)")
    play.add_argument("--cache", type=Path, default=Path("leaf-games.jsonl"))
    fit.add_argument(
        "--cache", type=Path, action="append", help="repeatable (default leaf-games.jsonl)"
    )
    for q in (play, fit):
        q.add_argument("--variant", default="classic/strict")
    args = p.parse_args(argv)
    if args.command == "fit" and not args.cache:
        args.cache = [Path("leaf-games.jsonl")]
    return cmd_play(args) if args.command == "play" else cmd_fit(args)


if __name__ == "__main__":
    sys.exit(main())
