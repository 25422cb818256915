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
(seed % 5 == 0) against the constant model and the variant's shipped model, refits
on all games (but the ``--exclude`` seeds, kept for an A/B test) and writes the
coefficients into the model file under the variant's name.

``net`` fits a win net (``leaf``: one hidden layer over the pool's counts by
card type and the player's state) and, beside it, the logistic model refitted,
on games recorded by ``scoundrel-value data`` (each room's first decision: its
pool is the pool between rooms), reports their held-out log-loss (seeds % 5 ==
0) against the constant and the shipped model, refits on every game but the
``--exclude`` seeds (kept for an A/B test) and writes both into ``--out`` as
``NAME`` and ``NAME-logistic``::

    python scripts/train_fair_leaf.py net --games train-classic-strict.jsonl \
        --exclude 1003400:1003821 --hidden 8 --alpha 0.01 --out models.json

``targets`` fits a win net the same way to the agent's own valuation of rooms, on its
line of play and off it, as ``experiments/leaf_targets.py`` records them: the label is
a chance (``--target win``, the chance shown to a player; ``searched``, the search's
own) or, on the agent's own rooms alone, the outcome (``won``). It prints held-out
cross-entropies (seeds % 5 == 0) against the outcome and the shown chance, then refits
on every position and writes the net into ``--out`` as ``NAME``::

    python scripts/train_fair_leaf.py targets --positions targets.jsonl --out models.json

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
from collections.abc import Iterator
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
    return np.asarray(coef, np.float64)


def cross_entropy(p: np.ndarray, t: np.ndarray) -> float:
    """The mean cross-entropy of chances ``p`` against targets ``t`` (0..1): the log-loss
    when the targets are outcomes."""
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(t * np.log(p) + (1 - t) * np.log(1 - p)))


def log_loss(x: np.ndarray, y: np.ndarray, coef: np.ndarray) -> float:
    return cross_entropy(1.0 / (1.0 + np.exp(-x @ coef)), y)


# -- the win net, fitted on the positions of recorded games -----------------------------------

VALUE_GAMES = "scoundrel-value-games/1"
"""The format of the games ``scoundrel-value data`` records (a line per game, its decisions)."""
KIND_OFFSET = {"m": -1, "w": 12, "p": 21}
"""A card's row among the win net's pool inputs: its value plus this (``leaf.NET_TYPES``)."""


def card_row(name: str) -> int:
    """The net's pool row of a card named as the records name it ("10H")."""
    card = sc.parse_card(name)
    kind = "m" if card.kind is sc.Kind.MONSTER else "w" if card.kind is sc.Kind.WEAPON else "p"
    return card.value + KIND_OFFSET[kind]


def recorded_games(paths: list[Path], fmt: str, variant: str) -> Iterator[dict[str, Any]]:
    """The games of ``variant`` in files of format ``fmt`` (a line per game): a line of
    another format, or a game on an evaluation seed, is an error."""
    for path in paths:
        for _, g in read_json_lines(path):
            if g.get("format") != fmt:
                raise ValueError(f"{path}: a line is not of format {fmt}")
            if g["variant"] != variant:
                continue
            if int(g["seed"]) in EVAL_SEEDS:
                raise ValueError(f"{path}: seed {g['seed']} is an evaluation seed (0-9999)")
            yield g


def value_game_positions(paths: list[Path], variant: str) -> dict[str, np.ndarray]:
    """Every room's first decision in recorded games of ``variant``: the pool (the room,
    the unseen cards and the known bottom) as counts by the net's rows, health, weapon,
    last kill, and the game's seed and outcome. The pool is the leaf's between rooms: the
    room dealt is a draw from it, and a sum over the pool cannot tell them apart."""
    rows: list[list[int]] = []
    for g in recorded_games(paths, VALUE_GAMES, variant):
        for d in g["decisions"]:
            if d["resolved"] != 0:
                continue
            counts = [0] * leaf.NET_TYPES
            for key, n in d.items():
                if key.startswith("unseen_") and key[7:8] in KIND_OFFSET:
                    counts[int(key[8:]) + KIND_OFFSET[key[7]]] += int(n)
            for name in (*d["room"], *d["bottom"]):
                counts[card_row(name)] += 1
            rows.append([int(g["seed"]), int(g["won"]), d["health"], d["weapon"],
                         d["last_kill"], *counts])
    a = np.array(rows, np.int64).reshape(-1, 5 + leaf.NET_TYPES)
    return {"seed": a[:, 0], "won": a[:, 1].astype(float), "health": a[:, 2],
            "weapon": a[:, 3], "last_kill": a[:, 4], "counts": a[:, 5:]}


def _pool_cards(counts: np.ndarray) -> list[sc.Card]:
    """Cards standing for a row of counts (a card of each row: the features read kinds
    and values, never suits)."""
    by_row = {card_row(str(c)): c for c in sc.FULL_DECK}
    return [by_row[r] for r in range(1, leaf.NET_TYPES) for _ in range(int(counts[r]))]


def position_features(pos: dict[str, np.ndarray], rule: str) -> tuple[np.ndarray, np.ndarray]:
    """The logistic model's features (``leaf.FEATURES``) and the net's other inputs
    (``leaf.NET_INPUTS``) of every position, by ``leaf.leaf_features`` itself."""
    variant = sc.get_variant("classic", rule)
    feats, inputs = [], []
    for k in range(len(pos["seed"])):
        w, lk = int(pos["weapon"][k]), int(pos["last_kill"][k])
        f = leaf.leaf_features(_pool_cards(pos["counts"][k]), int(pos["health"][k]), w,
                               variant.weapon_reach(w, lk))
        feats.append(f)
        inputs.append([f[leaf.FEATURES.index(n)] for n in
                       ("health", "weapon", "reach", "absorb", "low", "top_monster",
                        "top_weapon")])
    return np.array(feats, float), np.array(inputs, float)


def fit_net(counts: np.ndarray, inputs: np.ndarray, won: np.ndarray, hidden: int,
            alpha: float, seed: int = 0) -> tuple[float, ...]:
    """A win net (``leaf`` layout after ``par[LEAF_NET]``: hidden units, then
    ``net_size(hidden)`` weights) fitted by scikit-learn on standardised inputs, the
    standardisation then folded into the first layer so that the kernel reads raw counts.
    The pool's sums of monsters, potions and weapons and its size are inputs too while
    fitting (they help the optimiser); being sums of the counts they fold into the
    counts' rows."""
    from sklearn.neural_network import MLPClassifier

    values = np.array([0, *range(2, 15), *range(2, 11), *range(2, 11)], float)
    kinds = np.array([0] + [1] * 13 + [2] * 9 + [3] * 9)
    sums = np.stack([values * (kinds == 1), values * (kinds == 3), values * (kinds == 2),
                     (kinds > 0).astype(float)])  # monsters, potions, weapons, cards
    x = np.c_[counts[:, 1:], counts @ sums.T, inputs].astype(float)
    mu, sd = x.mean(0), x.std(0)
    sd[sd == 0] = 1.0
    soft = bool(np.any((won > 0) & (won < 1)))
    # early stopping watches the accuracy of a held-out tenth, which means nothing when a
    # position is both won and lost (below): a chance as the label trains to convergence
    net = MLPClassifier(hidden_layer_sizes=(hidden,), alpha=alpha, max_iter=400,
                        early_stopping=not soft, random_state=seed)
    if soft:
        # a chance as the label: each position once as won and once as lost, weighted by
        # the chance, so that the weighted log-loss is the cross-entropy with the chance
        both = np.r_[won, 1 - won] > 0
        labels = np.r_[np.ones(len(won)), np.zeros(len(won))]
        net.fit(((np.r_[x, x] - mu) / sd)[both], labels[both],
                sample_weight=np.r_[won, 1 - won][both])
    else:
        net.fit((x - mu) / sd, won)
    w1 = net.coefs_[0] / sd[:, None]  # raw inputs by hidden units
    b1 = net.intercepts_[0] - mu @ w1
    n_types = leaf.NET_TYPES - 1
    pool = np.zeros((leaf.NET_TYPES, hidden))
    pool[1:] = w1[:n_types] + sums[:, 1:].T @ w1[n_types:n_types + 4]
    rest = w1[n_types + 4:]
    flat = [*pool.ravel(), *rest.ravel(), *b1, *net.coefs_[1][:, 0], net.intercepts_[1][0]]
    return (float(hidden), *(float(v) for v in flat))


def net_win_chances(model: tuple[float, ...], counts: np.ndarray,
                    inputs: np.ndarray) -> np.ndarray:
    """A win net's chances of winning (the model as :func:`fit_net` returns it) at these
    positions, read from its flat layout the way the kernel reads it."""
    hidden = int(model[0])
    flat = np.array(model[1:])
    n = leaf.NET_TYPES * hidden
    nx = len(leaf.NET_INPUTS) * hidden
    pool = flat[:n].reshape(leaf.NET_TYPES, hidden)
    rest = flat[n:n + nx].reshape(len(leaf.NET_INPUTS), hidden)
    b1, w2, b2 = flat[n + nx:n + nx + hidden], flat[n + nx + hidden:-1], flat[-1]
    z = np.maximum(counts @ pool + inputs @ rest + b1, 0.0) @ w2 + b2
    return np.asarray(1.0 / (1.0 + np.exp(-z)))


def net_log_loss(model: tuple[float, ...], counts: np.ndarray, inputs: np.ndarray,
                 won: np.ndarray) -> float:
    return cross_entropy(net_win_chances(model, counts, inputs), won)


def cmd_net(args: argparse.Namespace) -> int:
    variant = str(sc.get_variant(args.variant))
    try:
        pos = value_game_positions(args.games, variant)
        exclude = parse_seed_range(args.exclude) if args.exclude else range(0)
    except (OSError, ValueError) as e:
        print(e, file=sys.stderr)
        return 2
    keep = np.array([int(s) not in exclude for s in pos["seed"]], bool)
    pos = {k: v[keep] for k, v in pos.items()}
    if len(pos["seed"]) == 0 or len(set(pos["won"].tolist())) < 2:
        print(f"no positions of {variant} with both outcomes in {args.games}", file=sys.stderr)
        return 2
    feats, inputs = position_features(pos, variant.split("/")[1])
    won, counts = pos["won"], pos["counts"]
    held = pos["seed"] % 5 == 0
    games = len(set(pos["seed"].tolist()))
    print(f"{variant}: {games} games, {len(won)} positions, won {100 * won.mean():.1f}%")
    rate = float(won[~held].mean())
    const = log_loss(np.ones((int(held.sum()), 1)), won[held],
                     np.array([math.log(rate / (1 - rate))]))
    logistic = fit_logistic(feats[~held], won[~held], args.l2)
    model = fit_net(counts[~held], inputs[~held], won[~held], args.hidden, args.alpha)
    losses = {"constant": const,
              "logistic": log_loss(feats[held], won[held], logistic),
              "net": net_log_loss(model, counts[held], inputs[held], won[held])}
    name = agent_config(variant).win_model
    if isinstance(name, str):
        shipped = leaf.shipped_models()[name]
        losses["shipped"] = (
            log_loss(feats[held], won[held], np.array(shipped)) if len(shipped) == len(feats[0])
            else net_log_loss(shipped[len(leaf.FEATURES):], counts[held], inputs[held],
                              won[held]))
    print("held-out log-loss (seed % 5 == 0): "
          + ", ".join(f"{k} {v:.4f}" for k, v in losses.items()))
    logistic = fit_logistic(feats, won, args.l2)
    model = fit_net(counts, inputs, won, args.hidden, args.alpha)
    data: dict[str, Any] = json.loads(args.out.read_text()) if args.out.exists() else {
        "features": list(leaf.FEATURES), "models": {}}
    seeds = sorted(set(pos["seed"].tolist()))
    for key, coef, net in ((args.name, [0.0] * len(leaf.FEATURES), model),
                           (f"{args.name}-logistic", logistic.tolist(), None)):
        entry: dict[str, Any] = {
            "coef": [round(float(c), 8) for c in coef], "games": games,
            "positions": len(won), "seeds": f"{seeds[0]}-{seeds[-1]}",
            "held_out_log_loss": round(losses["net" if net else "logistic"], 5),
            "note": args.note}
        if net is not None:
            entry["net"] = {"hidden": int(net[0]), "weights": [round(v, 8) for v in net[1:]],
                            "alpha": args.alpha}
        else:
            entry["l2"] = args.l2
        data["models"][key] = entry
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"-> {args.out}: {args.name}, {args.name}-logistic")
    return 0


# -- the win net, fitted on the agent's own valuations (experiments/leaf_targets.py) ------------

LEAF_TARGETS = "scoundrel-leaf-targets/1"
"""The format of the positions ``experiments/leaf_targets.py`` records (a line per game)."""
TARGETS = ("win", "searched", "won")
"""What a net may be fitted to: the agent's shown chance, the search's own chance, or (on
the agent's own rooms only) the game's outcome."""


def target_positions(paths: list[Path], variant: str) -> dict[str, np.ndarray]:
    """Every recorded position of ``variant``: its pool as counts by the net's rows, the
    player's state, the agent's chances and, for the agent's own rooms, the outcome
    (``won`` is -1 for a deviation's room, whose game was never played)."""
    rows: list[list[float]] = []
    for g in recorded_games(paths, LEAF_TARGETS, variant):
        for d in g["positions"]:
            counts = [0] * leaf.NET_TYPES
            for name in d["pool"].split():
                counts[card_row(name)] += 1
            own = d["kind"] == "agent"
            rows.append([int(g["seed"]), float(g["won"]) if own else -1.0, d["health"],
                         d["weapon"], d["last_kill"], d["unseen"], d["win"],
                         d["searched"], *counts])
    a = np.array(rows, float).reshape(-1, 8 + leaf.NET_TYPES)
    return {"seed": a[:, 0].astype(np.int64), "won": a[:, 1],
            "health": a[:, 2].astype(np.int64), "weapon": a[:, 3].astype(np.int64),
            "last_kill": a[:, 4].astype(np.int64), "unseen": a[:, 5].astype(np.int64),
            "win": a[:, 6], "searched": a[:, 7], "counts": a[:, 8:].astype(np.int64)}


def cmd_targets(args: argparse.Namespace) -> int:
    variant = str(sc.get_variant(args.variant))
    try:
        pos = target_positions(args.positions, variant)
    except (OSError, ValueError, KeyError) as e:
        print(e, file=sys.stderr)
        return 2
    if args.max_unseen is not None:
        pos = {k: v[pos["unseen"] <= args.max_unseen] for k, v in pos.items()}
    own = pos["won"] >= 0
    target = pos[args.target]
    use = own if args.target == "won" else np.ones(len(own), bool)
    if not use.any() or len(set(pos["won"][own].tolist())) < 2:
        print(f"no positions of {variant} with both outcomes in {args.positions}",
              file=sys.stderr)
        return 2
    feats, inputs = position_features(pos, variant.split("/")[1])
    counts = pos["counts"]
    held = pos["seed"] % 5 == 0
    games = len(set(pos["seed"].tolist()))
    print(f"{variant}: {games} games, {int(own.sum())} rooms of the agent "
          f"(won {100 * pos['won'][own].mean():.1f}%), {int((~own).sum())} deviations' rooms; "
          f"target {args.target}")
    fit = use & ~held
    model = fit_net(counts[fit], inputs[fit], target[fit], args.hidden, args.alpha)
    chance = net_win_chances(model, counts, inputs)
    name = agent_config(variant).win_model
    shipped = leaf.shipped_models()[name] if isinstance(name, str) else None
    witnesses: dict[str, np.ndarray] = {"net": chance}
    if shipped is not None and len(shipped) == len(leaf.FEATURES):
        witnesses["shipped"] = 1.0 / (1.0 + np.exp(-feats @ np.array(shipped)))
    rate = float(pos["won"][own & ~held].mean())
    witnesses["constant"] = np.full(len(chance), rate)
    h_own, h_dev = held & own, held & ~own
    print("held-out (seed % 5 == 0) cross-entropy: against the outcome of the agent's rooms; "
          "against the shown chance of the agent's rooms and of the deviations' rooms")
    for key, p in witnesses.items():
        print(f"  {key:9s} {cross_entropy(p[h_own], pos['won'][h_own]):.4f}  "
              f"{cross_entropy(p[h_own], pos['win'][h_own]):.4f}  "
              f"{cross_entropy(p[h_dev], pos['win'][h_dev]):.4f}  "
              f"(mean chance at the first room {100 * p[own & (pos['unseen'] == 40)].mean():.1f}%)")
    model = fit_net(counts[use], inputs[use], target[use], args.hidden, args.alpha)
    data: dict[str, Any] = json.loads(args.out.read_text()) if args.out.exists() else {
        "features": list(leaf.FEATURES), "models": {}}
    seeds = sorted(set(pos["seed"].tolist()))
    data["models"][args.name] = {
        "coef": [0.0] * len(leaf.FEATURES), "games": games, "positions": int(use.sum()),
        "seeds": f"{seeds[0]}-{seeds[-1]}", "target": args.target,
        "net": {"hidden": int(model[0]), "weights": [round(v, 8) for v in model[1:]],
                "alpha": args.alpha},
        "note": args.note}
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"-> {args.out}: {args.name}")
    return 0


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
    try:
        exclude = parse_seed_range(args.exclude) if args.exclude else range(0)
    except ValueError as e:
        print(f"--exclude {args.exclude!r}: {e}", file=sys.stderr)
        return 2
    games = [g for cache in args.cache for g in games_in(cache)
             if g["variant"] == variant and int(g["seed"]) not in exclude]
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
    rate = min(max(float(y[~held].mean()), 1e-6), 1 - 1e-6)
    # the constant model: the training games' win rate, scored on the held-out positions
    const = log_loss(np.ones((int(held.sum()), 1)), y[held],
                     np.array([math.log(rate / (1 - rate))]))
    print(f"{variant}: {len(games)} games, {len(y)} positions, won {100 * y.mean():.1f}%")
    name = agent_config(variant).win_model
    shipped = leaf.shipped_models().get(name) if isinstance(name, str) else None
    if shipped is not None and len(shipped) != len(leaf.FEATURES):
        shipped = None  # a win net: no logistic model to compare with
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
    fit.add_argument("--exclude", help="A:B: seeds left out of the fit (kept for an A/B test)")
    play.add_argument("--cache", type=Path, default=Path("leaf-games.jsonl"))
    fit.add_argument(
        "--cache", type=Path, action="append", help="repeatable (default leaf-games.jsonl)"
    )
    net = sub.add_parser("net", help="fit a win net (and a logistic model) on recorded games")
    net.add_argument("--games", type=Path, action="append", required=True,
                     help="games recorded by scoundrel-value data (repeatable)")
    net.add_argument("--hidden", type=int, default=8, choices=range(1, leaf.MAX_HIDDEN + 1),
                     metavar=f"1..{leaf.MAX_HIDDEN}")
    net.add_argument("--alpha", type=float, default=0.01, help="the net's L2 penalty")
    net.add_argument("--l2", type=float, default=1e-5, help="the logistic model's L2 penalty")
    net.add_argument("--exclude", help="A:B: seeds left out (kept for an A/B test)")
    net.add_argument("--name", default="classic/strict-net", help="the model's name in --out")
    net.add_argument("--out", type=Path, default=MODEL_PATH)
    net.add_argument("--note", default="")
    tg = sub.add_parser("targets", help="fit a win net on the agent's valuations "
                        "(experiments/leaf_targets.py)")
    tg.add_argument("--positions", type=Path, action="append", required=True,
                    help="positions recorded by experiments/leaf_targets.py (repeatable)")
    tg.add_argument("--target", choices=TARGETS, default="win")
    tg.add_argument("--max-unseen", type=int, help="fit only positions with at most this many")
    tg.add_argument("--hidden", type=int, default=8, choices=range(1, leaf.MAX_HIDDEN + 1),
                    metavar=f"1..{leaf.MAX_HIDDEN}")
    tg.add_argument("--alpha", type=float, default=0.01, help="the net's L2 penalty")
    tg.add_argument("--name", default="classic/strict-net", help="the model's name in --out")
    tg.add_argument("--out", type=Path, required=True)
    tg.add_argument("--note", default="")
    for q in (play, fit, net, tg):
        q.add_argument("--variant", default="classic/strict")
    args = p.parse_args(argv)
    if args.command == "fit" and not args.cache:
        args.cache = [Path("leaf-games.jsonl")]
    if args.command == "net":
        return cmd_net(args)
    if args.command == "targets":
        return cmd_targets(args)
    return cmd_play(args) if args.command == "play" else cmd_fit(args)


if __name__ == "__main__":
    sys.exit(main())
