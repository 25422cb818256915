"""A ``V`` that follows the relaxed game: does it tighten the full-deck bound?

docs/bound.md ("How loose, and why"): by strong duality the best ``V`` for a
bound that charges the first ``k`` chance steps is the value of the relaxed
game (fair for ``k`` steps, then the dungeon seen), and the one-room value
estimates the wrong game (winning without ever seeing the dungeon). This
experiment keeps the one-room kernel and swaps what it reads at the end of the
room: in place of the fair agent's win model, a logistic model of "this
position can still be won with the dungeon seen" (the exact solver's
``is_winnable``) over the same features (``fair.leaf.FEATURES``: what a player
knows between rooms). Any ``V`` gives a valid bound, and this one is fixed
before the evaluation deals are looked at (fitted on seeds from 1,000,000 up),
so its bound on seeds 0-199 is as proven as the one-room value's.

    X="python experiments/bound_relaxed.py"
    $X positions --variant classic --seeds 1000000:1010000 --out P.jsonl
    $X fit P.jsonl --out MODEL.json
    $X bound --model MODEL.json --variant classic --seeds 0:200 --steps 1 --out B.jsonl
    $X table B.jsonl data/bound-classic-strict.jsonl

``positions``: one game per seed, each action uniformly random with probability
``--explore`` (0.5), else the fair agent's (``random.Random(seed)``: the bound's
search walks every line, so positions off the agent's line matter too), and at
each of its first ``--rooms`` chance steps (a refill or a flee) the features
of the position the kernel reads there, labelled by ``is_winnable`` of the
game at that point (dropped when the solve is cut short at ``--max-nodes``).
``fit``: the logistic regression per variant (Newton's method, a small ridge),
with its log-loss on a held-out fifth beside the shipped win model's.
``bound``: ``scoundrel-bound``'s term of each deal with this ``V``
(``--scale`` multiplies it), rows in the format of ``scoundrel-bound --out``,
``value`` naming the model; resumable. ``table``: the summaries of the files,
each restricted to the seeds every file holds. ``record``: the positions' JSON
lines as Parquet, the form kept in ``data/experiments/``; ``fit`` reads either.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import scoundrel_core as sc
from scoundrel_core.encoding import NTYPES, card_type
from scoundrel_core.info import ChanceNode, InfoState, observe
from scoundrel_solver.bound.deal import deal_bound, opening_node
from scoundrel_solver.bound.rows import bound_row, read_bound_rows, settings_of, summarize_bound
from scoundrel_solver.bound.values import Charges, OneRoom, RoomNet
from scoundrel_solver.exact import is_winnable
from scoundrel_solver.fair import FairAgent
from scoundrel_solver.fair.config import agent_config, configs_with
from scoundrel_solver.fair.leaf import (
    FEATURES,
    LEAF_KILLS,
    LEAF_MODEL,
    LEAF_NET,
    LEAF_SAFE_HEALTH,
    NET_INPUTS,
    config_par,
    leaf_features,
)
from scoundrel_solver.fair.pimc import world
from scoundrel_solver.runs.jsonl import LineAppender, read_json_lines
from scoundrel_solver.runs.seeds import parse_seed_range


def room_ends(seed: int, variant: sc.Variant, rooms: int, max_nodes: int, explore: float,
              agent: FairAgent, orders: int = 0) -> list[dict[str, Any]]:
    """The positions of one game at its first ``rooms`` chance steps: each action is a
    uniformly random legal one with probability ``explore``, else the fair agent's."""
    par = config_par(agent_config(variant))
    rng = random.Random(seed)
    s = sc.new_game(seed=seed, variant=variant)
    info = InfoState.initial(s)
    agent.reset(seed)
    out: list[dict[str, Any]] = []
    while not s.is_over and len(out) < rooms:
        a = (rng.choice(sc.legal_actions(s)) if rng.random() < explore
             else agent(info))
        y = info.apply(a)
        s2 = sc.apply(s, a)
        if isinstance(y, ChanceNode) and not s2.is_over:
            b = y.base  # what the one-room kernel reads at the room's end
            pool = (*b.room, *b.unseen, *b.bottom)
            f = leaf_features(pool, b.health, b.weapon_value, b.weapon_reach,
                              int(par[LEAF_KILLS]), float(par[LEAF_SAFE_HEALTH]))
            won = is_winnable(s2, max_nodes)
            counts = [0] * NTYPES  # the pool by card type: the win net's inputs
            for c in pool:
                counts[card_type(c)] += 1
            after = observe(info, a, s2)  # the fresh room dealt: where V is read
            room = [0] * NTYPES
            for c in after.room:
                room[card_type(c)] += 1
            # the same information state with the unseen cards in other orders: their
            # outcomes estimate E[is_winnable | what is known] with less noise than one
            others = []
            unseen = sorted(after.unseen)
            for _ in range(orders):
                rng.shuffle(unseen)
                w = is_winnable(world(after, unseen), max_nodes)
                others.append(None if w is None else bool(w))
            out.append({"seed": seed, "variant": str(variant), "step": len(out) + 1,
                        "fled": bool(y.fled), "features": f, "counts": counts,
                        "room": room, "winnable": None if won is None else bool(won),
                        "other_orders": others})
            info, s = after, s2
            continue
        info, s = observe(info, a, s2), s2
    return out


def cmd_positions(args: argparse.Namespace) -> int:
    variant = sc.Variant(args.variant, args.weapon_rule)
    done = {r["seed"] for _, r in read_json_lines(args.out) if r["variant"] == str(variant)}
    # --max-depth caps the agent's search (0: the leaf right after this room, some
    # thirty times faster under hard): a cheaper player, still the agent's kind of play
    agent = FairAgent(None if args.max_depth is None else configs_with(max_depth=args.max_depth))
    n = 0
    with LineAppender(args.out) as sink:
        for seed in args.seeds:
            if seed in done:
                continue
            rows = room_ends(seed, variant, args.rooms, args.max_nodes, args.explore, agent,
                             args.orders)
            if not rows:  # a game over before its first chance step: mark the seed done
                rows = [{"seed": seed, "variant": str(variant), "step": 0, "fled": False,
                         "features": None, "counts": None, "room": None, "winnable": None}]
            sink.append("\n".join(json.dumps(r) for r in rows))
            n += 1
            if n % 200 == 0:
                print(f"positions {variant}: {len(done) + n} of {args.seeds.count} games",
                      flush=True)
    return 0


def _logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Coefficients of P(y) = 1 / (1 + exp(-x . c)), by Newton's method on the
    log-likelihood with a ridge on the standardised features (not the bias)."""
    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    mu[0], sd[0] = 0.0, 1.0
    sd[sd == 0] = 1.0
    z = (x - mu) / sd
    c = np.zeros(x.shape[1])
    pen = np.full(x.shape[1], ridge * len(y))
    pen[0] = 0.0
    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(z @ c, -40, 40)))
        grad = z.T @ (p - y) + pen * c
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(pen + 1e-9)
        step = np.linalg.solve(hess, grad)
        c -= step
        if np.abs(step).max() < 1e-10:
            break
    coef = c / sd  # back to the raw features
    coef[0] = c[0] - float(np.sum(c[1:] * mu[1:] / sd[1:]))
    return np.asarray(coef)


def _log_loss(x: np.ndarray, y: np.ndarray, coef: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-np.clip(x @ coef, -40, 40))), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def read_positions(path: Path) -> list[dict[str, Any]]:
    """The rows of ``positions --out`` (JSON lines), or of their Parquet record."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return list(pq.read_table(path).to_pylist())
    return [r for _, r in read_json_lines(path)]


def cmd_record(args: argparse.Namespace) -> int:
    """The positions' JSON lines kept as Parquet (the same rows, a fraction of the size)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(read_positions(args.positions)), args.out,
                   compression="zstd")
    return 0


def cmd_fit(args: argparse.Namespace) -> int:
    by_variant: dict[str, list[tuple[list[float], bool]]] = {}
    for path in args.positions:
        for r in read_positions(path):
            if r["features"] is not None and r["winnable"] is not None:
                by_variant.setdefault(r["variant"], []).append((r["features"], r["winnable"]))
    models: dict[str, Any] = {}
    for variant, rows in sorted(by_variant.items()):
        x = np.array([f for f, _ in rows], float)
        y = np.array([w for _, w in rows], float)
        held = np.arange(len(y)) % 5 == 0
        coef = _logistic(x[~held], y[~held])
        shipped = config_par(agent_config(variant))[LEAF_MODEL:LEAF_NET]
        report = {"positions": len(y), "winnable_share": float(y.mean()),
                  "held_out_log_loss": _log_loss(x[held], y[held], coef),
                  "held_out_log_loss_constant": _log_loss(
                      x[held], y[held], np.r_[math.log(y[~held].mean() / (1 - y[~held].mean())),
                                              np.zeros(x.shape[1] - 1)]),
                  "held_out_log_loss_agent_model": _log_loss(x[held], y[held], shipped)}
        models[variant] = {"coef": _logistic(x, y).tolist(), **report}
        print(variant, json.dumps(report), flush=True)
    args.out.write_text(json.dumps({"features": list(FEATURES), "label": "is_winnable",
                                    "models": models}, indent=1) + "\n")
    return 0


NET_FROM_FEATURES = tuple(FEATURES.index(n) for n in NET_INPUTS)
"""Where each of the win net's inputs (``NET_INPUTS``) sits among the ``FEATURES``."""


def net_inputs(rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(counts by card type, the net's other inputs, features) of positions with counts."""
    counts = np.array([r["counts"] for r in rows], float)
    feats = np.array([r["features"] for r in rows], float)
    return counts, feats[:, NET_FROM_FEATURES], feats


def _type_sums() -> np.ndarray:
    """Rows that sum counts by card type into the monsters', potions' and weapons' values
    and the number of cards (the encoding's types: monsters 1-13, weapons 14-22,
    potions 23-31)."""
    values = np.zeros(NTYPES)
    kinds = np.zeros(NTYPES, int)
    values[1:14], kinds[1:14] = np.arange(2, 15), 1
    values[14:23], kinds[14:23] = np.arange(2, 11), 2
    values[23:32], kinds[23:32] = np.arange(2, 11), 3
    return np.stack([values * (kinds == 1), values * (kinds == 3), values * (kinds == 2),
                     (kinds > 0).astype(float)])


def fit_win_net(counts: np.ndarray, inputs: np.ndarray, y: np.ndarray, hidden: int,
                alpha: float, seed: int = 0) -> np.ndarray:
    """A win net in ``fair.leaf``'s layout (hidden units, then ``net_size(hidden)``
    weights), fitted by scikit-learn on standardised inputs; the standardisation is then
    folded into the first layer, so that the kernel reads raw counts and inputs. The
    pool's sums (monsters, potions, weapons, cards) are inputs while fitting, to help the
    optimiser; being sums of the counts they fold into the counts' rows."""
    from sklearn.neural_network import MLPClassifier

    sums = _type_sums()
    x = np.c_[counts[:, 1:], counts @ sums.T, inputs]
    mu, sd = x.mean(0), x.std(0)
    sd[sd == 0] = 1.0
    net = MLPClassifier(hidden_layer_sizes=(hidden,), alpha=alpha, max_iter=600,
                        early_stopping=True, n_iter_no_change=20, random_state=seed)
    net.fit((x - mu) / sd, y)
    w1 = net.coefs_[0] / sd[:, None]
    b1 = net.intercepts_[0] - mu @ w1
    n = NTYPES - 1
    pool = np.zeros((NTYPES, hidden))
    pool[1:] = w1[:n] + sums[:, 1:].T @ w1[n:n + 4]
    rest = w1[n + 4:]
    return np.asarray(np.r_[float(hidden), pool.ravel(), rest.ravel(), b1,
                            net.coefs_[1][:, 0], net.intercepts_[1][0]], float)


def net_chances(model: np.ndarray, counts: np.ndarray, inputs: np.ndarray) -> np.ndarray:
    """The chances a win net (``fit_win_net``'s layout) gives these positions, read from
    its flat weights the way the kernel reads them."""
    hidden = int(model[0])
    flat = model[1:]
    n, nx = NTYPES * hidden, len(NET_INPUTS) * hidden
    pool = flat[:n].reshape(NTYPES, hidden)
    rest = flat[n:n + nx].reshape(len(NET_INPUTS), hidden)
    b1, w2, b2 = flat[n + nx:n + nx + hidden], flat[n + nx + hidden:-1], flat[-1]
    z = np.maximum(counts @ pool + inputs @ rest + b1, 0.0) @ w2 + b2
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -40, 40))))


def _loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _by_variant(paths: list[Path], key: str) -> list[tuple[str, list[dict[str, Any]]]]:
    """The positions of ``paths`` that hold ``key`` and a known ``winnable``, by variant."""
    rows = [r for path in paths for r in read_positions(path)
            if r.get(key) is not None and r["winnable"] is not None]
    return [(v, [r for r in rows if r["variant"] == v])
            for v in sorted({r["variant"] for r in rows})]


def _baselines(mine: list[dict[str, Any]], feats: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """(winnable, held out: seed % 5 == 0, the report's first figures: the positions, the
    held-out log-loss of a constant and of the logistic model over ``feats``)."""
    y = np.array([r["winnable"] for r in mine], float)
    held = np.array([r["seed"] % 5 == 0 for r in mine])
    rate = float(y[~held].mean())
    return y, held, {
        "positions": len(y), "games": len({r["seed"] for r in mine}),
        "winnable_share": float(y.mean()),
        "held_out_log_loss_constant": _loss(np.full(int(held.sum()), rate), y[held]),
        "held_out_log_loss_logistic": _log_loss(feats[held], y[held],
                                                _logistic(feats[~held], y[~held]))}


def cmd_fitnet(args: argparse.Namespace) -> int:
    """Win nets of ``is_winnable`` per variant: each size and ridge of the grid fitted on
    the seeds not held out (seed % 5 != 0), the best by held-out log-loss refitted on
    every position; the logistic model and a constant on the same split beside it."""
    models: dict[str, Any] = {}
    for variant, mine in _by_variant(args.positions, "counts"):
        counts, inputs, feats = net_inputs(mine)
        y, held, report = _baselines(mine, feats)
        grid: dict[str, float] = {}
        for hidden in args.hidden:
            for alpha in args.alpha:
                m = fit_win_net(counts[~held], inputs[~held], y[~held], hidden, alpha)
                grid[f"{hidden} {alpha:g}"] = _loss(net_chances(m, counts[held], inputs[held]),
                                                    y[held])
                print(variant, hidden, alpha, f"{grid[f'{hidden} {alpha:g}']:.4f}", flush=True)
        best = min(grid, key=grid.__getitem__)
        hidden, alpha = int(best.split()[0]), float(best.split()[1])
        report |= {"held_out_log_loss_net": grid[best], "hidden": hidden, "alpha": alpha,
                   "grid": grid}
        model = fit_win_net(counts, inputs, y, hidden, alpha)
        models[variant] = {"net": model.tolist(), **report}
        print(variant, json.dumps({k: v for k, v in report.items() if k != "grid"}), flush=True)
    args.out.write_text(json.dumps({"layout": "fair.leaf win net", "inputs": list(NET_INPUTS),
                                    "label": "is_winnable", "models": models}, indent=1) + "\n")
    return 0


ROOM_FROM_FEATURES = tuple(FEATURES.index(n) for n in ("health", "weapon", "reach"))


def room_inputs(rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(room counts, the rest's counts, the room net's other inputs in ``RN_INPUTS`` order:
    health, weapon, reach, fled, the low-health square) of positions with a room."""
    room = np.array([r["room"] for r in rows], float)
    rest = np.array([r["counts"] for r in rows], float) - room
    feats = np.array([r["features"] for r in rows], float)
    fled = np.array([float(r["fled"]) for r in rows])
    return room, rest, np.c_[feats[:, ROOM_FROM_FEATURES], fled, feats[:, FEATURES.index("low")]]


def fit_room_net(room: np.ndarray, rest: np.ndarray, inputs: np.ndarray, y: np.ndarray,
                 hidden: int, alpha: float, safe_health: float, seed: int = 0) -> np.ndarray:
    """A room net (``bound.values.room_net_size`` numbers, the kernel's ``RN_*`` layout)
    fitted by scikit-learn on standardised inputs, folded back as :func:`fit_win_net`
    does; the sums of the room's and the rest's cards help the optimiser and fold into
    their rows."""
    from sklearn.neural_network import MLPClassifier

    sums = _type_sums()
    x = np.c_[room[:, 1:], rest[:, 1:], room @ sums.T, rest @ sums.T, inputs]
    mu, sd = x.mean(0), x.std(0)
    sd[sd == 0] = 1.0
    net = MLPClassifier(hidden_layer_sizes=(hidden,), alpha=alpha, max_iter=600,
                        early_stopping=True, n_iter_no_change=20, random_state=seed)
    z = (x - mu) / sd
    if np.all((y == 0) | (y == 1)):
        net.fit(z, y)
    else:  # a chance as the label: the cross-entropy of both outcomes, weighted by it
        net.fit(np.r_[z, z], np.r_[np.ones(len(y)), np.zeros(len(y))],
                sample_weight=np.r_[y, 1 - y])
    w1 = net.coefs_[0] / sd[:, None]
    b1 = net.intercepts_[0] - mu @ w1
    n = NTYPES - 1
    rows = np.zeros((2, NTYPES, hidden))
    rows[0, 1:] = w1[:n] + sums[:, 1:].T @ w1[2 * n:2 * n + 4]
    rows[1, 1:] = w1[n:2 * n] + sums[:, 1:].T @ w1[2 * n + 4:2 * n + 8]
    return np.asarray(np.r_[float(hidden), safe_health, rows.ravel(), w1[2 * n + 8:].ravel(),
                            b1, net.coefs_[1][:, 0], net.intercepts_[1][0]], float)


def room_net_chances(rpar: np.ndarray, room: np.ndarray, rest: np.ndarray,
                     inputs: np.ndarray) -> np.ndarray:
    """The room net's chances at these positions, read from its numbers as the kernel
    reads them (``inputs`` with the low-health square recomputed from ``rpar``'s safe
    health would be the same: the features used the agent's)."""
    hidden = int(rpar[0])
    o = 2
    rows = rpar[o:o + 2 * NTYPES * hidden].reshape(2, NTYPES, hidden)
    xo = o + 2 * NTYPES * hidden
    xrows = rpar[xo:xo + 5 * hidden].reshape(5, hidden)
    bo = xo + 5 * hidden
    b1, w2, b2 = rpar[bo:bo + hidden], rpar[bo + hidden:bo + 2 * hidden], rpar[bo + 2 * hidden]
    z = np.maximum(room @ rows[0] + rest @ rows[1] + inputs @ xrows + b1, 0.0) @ w2 + b2
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -40, 40))))


def _order_share(r: dict[str, Any]) -> float:
    """The share of the orders solved at a position that can be won (the true order and
    those of ``other_orders``; a solve cut short is left out)."""
    got = [w for w in (r["winnable"], *(r.get("other_orders") or ())) if w is not None]
    return float(sum(got)) / len(got)


def cmd_fitroom(args: argparse.Namespace) -> int:
    """Room nets of ``is_winnable`` at the fresh room per variant, chosen over the grid by
    held-out log-loss (seed % 5 == 0) and refitted on every position; beside it, on the
    same split, a constant, the logistic model over the pool's features and a win net
    over the pool (``fair.leaf``'s layout, the first hidden size and ridge of the grid)."""
    models: dict[str, Any] = {}
    for variant, mine in _by_variant(args.positions, "room"):
        room, rest, inputs = room_inputs(mine)
        counts, pool_inputs, feats = net_inputs(mine)
        y, held, report = _baselines(mine, feats)
        # the share won over every order solved (the true one and other_orders): what
        # the nets are fitted to; every log-loss is on the true order's outcome
        soft = np.array([_order_share(r) for r in mine]) if args.soft else y
        safe = float(config_par(agent_config(variant))[LEAF_SAFE_HEALTH])
        pool_net = fit_win_net(counts[~held], pool_inputs[~held], y[~held], args.hidden[0],
                               args.alpha[0])
        soft_loss = {} if not args.soft else {
            "held_out_log_loss_logistic_soft": _log_loss(feats[held], y[held],
                                                         _logistic(feats[~held], soft[~held]))}
        report |= {"held_out_log_loss_pool_net": _loss(
            net_chances(pool_net, counts[held], pool_inputs[held]), y[held]), **soft_loss}
        print(variant, json.dumps(report), flush=True)
        grid: dict[str, float] = {}
        for hidden in args.hidden:
            for alpha in args.alpha:
                m = fit_room_net(room[~held], rest[~held], inputs[~held], soft[~held], hidden,
                                 alpha, safe)
                key = f"{hidden} {alpha:g}"
                grid[key] = _loss(room_net_chances(m, room[held], rest[held], inputs[held]),
                                  y[held])
                print(variant, key, f"{grid[key]:.4f}", flush=True)
        best = min(grid, key=grid.__getitem__)
        hidden, alpha = int(best.split()[0]), float(best.split()[1])
        report |= {"held_out_log_loss_room_net": grid[best], "hidden": hidden,
                   "alpha": alpha, "grid": grid}
        model = fit_room_net(room, rest, inputs, soft, hidden, alpha, safe)
        models[variant] = {"room_net": model.tolist(), "soft": bool(args.soft), **report}
        print(variant, json.dumps({k: v for k, v in report.items() if k != "grid"}), flush=True)
    args.out.write_text(json.dumps({"layout": "bound room net", "label": "is_winnable",
                                    "models": models}, indent=1) + "\n")
    return 0


def cmd_error(args: argparse.Namespace) -> int:
    """How far a room net is from the relaxed value, on the positions of ``--seeds`` (ones
    no model was fitted on) that have ``other_orders``: the root mean square of its
    chance minus the share of orders won, with the share's own binomial noise taken out
    (its mean of share (1 - share) / (orders - 1) subtracted from the mean square),
    beside a constant's."""
    rows = [r for path in args.positions for r in read_positions(path)
            if r.get("room") is not None and r.get("other_orders") and r["seed"] in args.seeds
            and r["variant"] == str(sc.Variant(args.variant, args.weapon_rule))]
    share = np.array([_order_share(r) for r in rows])
    n = np.array([1 + len(r["other_orders"]) for r in rows], float)
    noise = float(np.mean(share * (1 - share) / (n - 1)))
    room, rest, inputs = room_inputs(rows)
    out = {"positions": len(rows), "mean_share": float(share.mean()),
           "rmse_constant": math.sqrt(max(float(np.var(share)) - noise, 0.0))}
    for model in args.models:
        rpar = np.array(json.loads(model.read_text())["models"][rows[0]["variant"]]["room_net"])
        mse = float(np.mean((room_net_chances(rpar, room, rest, inputs) - share) ** 2))
        out[f"rmse {model.name}"] = math.sqrt(max(mse - noise, 0.0))
    print(json.dumps(out))
    return 0


class Scaled:
    """``scale`` times a ``V`` (still a function of the information state)."""

    def __init__(self, inner: Charges, scale: float) -> None:
        self.inner, self.scale = inner, scale

    def value(self, info: InfoState) -> float:
        return self.scale * self.inner.value(info)

    def mean(self, node: ChanceNode) -> float:
        return self.scale * self.inner.mean(node)


def relaxed_value(model: Path, variant: sc.Variant, scale: float) -> tuple[Charges, str]:
    """The one-room kernel reading the relaxed model, and the ``value`` name of its rows."""
    data = json.loads(model.read_text())
    par = config_par(agent_config(variant)).copy()
    if "room_net" in data["models"][str(variant)]:
        rpar = np.array(data["models"][str(variant)]["room_net"], float)
        digest = hashlib.sha256(rpar.tobytes()).hexdigest()[:8]
        room_net: Charges = RoomNet(rpar)
        name = f"relaxed-room.{digest}"
        return (room_net if scale == 1 else Scaled(room_net, scale)), \
            name + ("" if scale == 1 else f"x{scale:g}")
    if "net" in data["models"][str(variant)]:  # a win net: the logistic part stays zero
        if tuple(data["inputs"]) != NET_INPUTS:
            raise SystemExit(f"{model}: fitted on other inputs than fair.leaf.NET_INPUTS")
        net = np.array(data["models"][str(variant)]["net"], float)
        par[LEAF_MODEL:LEAF_NET] = 0.0
        par = np.r_[par[:LEAF_NET], net]
        digest = hashlib.sha256(net.tobytes()).hexdigest()[:8]
        name = f"relaxed-net.{digest}"
    else:
        if tuple(data["features"]) != FEATURES:
            raise SystemExit(f"{model}: fitted on other features than fair.leaf.FEATURES")
        coef = np.array(data["models"][str(variant)]["coef"], float)
        par[LEAF_MODEL:LEAF_NET] = coef
        digest = hashlib.sha256(coef.tobytes()).hexdigest()[:8]
        name = f"relaxed.{digest}"
    name += "" if scale == 1 else f"x{scale:g}"
    inner: Charges = OneRoom(par)
    return (inner if scale == 1 else Scaled(inner, scale)), name


def cmd_bound(args: argparse.Namespace) -> int:
    variant = sc.Variant(args.variant, args.weapon_rule)
    charges, name = relaxed_value(args.model, variant, args.scale)
    settings = settings_of(variant, args.steps, name, args.max_nodes)
    done = {r["seed"] for r in read_bound_rows(args.out)
            if all(r.get(k) == v for k, v in settings.items())}
    mean: float | None = None
    n = 0
    with LineAppender(args.out) as sink:
        for seed in args.seeds:
            if seed in done:
                continue
            s = sc.new_game(seed=seed, variant=variant)
            if mean is None:
                mean = charges.mean(opening_node(s))
            d = deal_bound(s, charges, args.steps, mean, args.max_nodes)
            sink.append(json.dumps(bound_row(settings, seed, d), allow_nan=False))
            n += 1
            if n % 20 == 0:
                print(f"bound {variant} {name} k={args.steps}: {len(done) + n} of "
                      f"{args.seeds.count} deals", flush=True)
    return 0


def cmd_table(args: argparse.Namespace) -> int:
    """Each file's bounds on the seeds all of them hold (so the rows compare deal by deal)."""
    rows_by_file = [read_bound_rows(p) for p in args.files]
    common: set[int] | None = None
    for rows in rows_by_file:
        seeds = {r["seed"] for r in rows if r["variant"] == args.variant}
        common = seeds if common is None else common & seeds
    assert common is not None
    print("| file | rules | V | steps | deals | bound | one-sided 95% upper | "
          "perfect information, same deals |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for path, rows in zip(args.files, rows_by_file, strict=True):
        for s in summarize_bound(r for r in rows if r["seed"] in common
                                 and r["variant"] == args.variant):
            upper = "n/a" if s.upper is None else f"{100 * s.upper:.2f}%"
            print(f"| {Path(path).name} | {s.variant}/{s.weapon_rule} | {s.value} | "
                  f"{s.steps} | {s.deals} | {100 * s.mean:.2f}% | {upper} | "
                  f"{100 * s.perfect_share:.2f}% |")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    q = sub.add_parser("positions")
    q.add_argument("--variant", default="classic")
    q.add_argument("--weapon-rule", default="strict")
    q.add_argument("--seeds", type=parse_seed_range, required=True)
    q.add_argument("--rooms", type=int, default=3)
    q.add_argument("--explore", type=float, default=0.5,
                   help="the chance of a random legal action at each decision")
    q.add_argument("--max-nodes", type=int, default=2_000_000)
    q.add_argument("--orders", type=int, default=0,
                   help="also solve the fresh room with its unseen cards in this many random "
                        "orders (other_orders)")
    q.add_argument("--max-depth", type=int, default=None,
                   help="cap the fair agent's search depth (default: the agent as shipped)")
    q.add_argument("--out", type=Path, required=True)
    q = sub.add_parser("fit")
    q.add_argument("positions", type=Path, nargs="+")
    q.add_argument("--out", type=Path, required=True)
    q = sub.add_parser("fitnet")
    q.add_argument("positions", type=Path, nargs="+")
    q.add_argument("--hidden", type=int, nargs="+", default=[8, 16, 32])
    q.add_argument("--alpha", type=float, nargs="+", default=[1e-3, 1e-2, 1e-1])
    q.add_argument("--out", type=Path, required=True)
    q = sub.add_parser("fitroom")
    q.add_argument("positions", type=Path, nargs="+")
    q.add_argument("--hidden", type=int, nargs="+", default=[16, 32])
    q.add_argument("--alpha", type=float, nargs="+", default=[1e-3, 1e-2])
    q.add_argument("--soft", action="store_true",
                   help="fit to the share of the orders solved that can be won")
    q.add_argument("--out", type=Path, required=True)
    q = sub.add_parser("error")
    q.add_argument("positions", type=Path, nargs="+")
    q.add_argument("--models", type=Path, nargs="+", required=True)
    q.add_argument("--seeds", type=parse_seed_range, required=True)
    q.add_argument("--variant", default="hard")
    q.add_argument("--weapon-rule", default="strict")
    q = sub.add_parser("bound")
    q.add_argument("--model", type=Path, required=True)
    q.add_argument("--variant", default="classic")
    q.add_argument("--weapon-rule", default="strict")
    q.add_argument("--seeds", type=parse_seed_range, required=True)
    q.add_argument("--steps", type=int, default=1)
    q.add_argument("--scale", type=float, default=1.0)
    q.add_argument("--max-nodes", type=int, default=2_000_000)
    q.add_argument("--out", type=Path, required=True)
    q = sub.add_parser("record")
    q.add_argument("positions", type=Path)
    q.add_argument("--out", type=Path, required=True)
    q = sub.add_parser("table")
    q.add_argument("files", type=Path, nargs="+")
    q.add_argument("--variant", default="classic")
    args = p.parse_args(argv)
    command = {"positions": cmd_positions, "fit": cmd_fit, "fitnet": cmd_fitnet,
               "fitroom": cmd_fitroom, "error": cmd_error,
               "bound": cmd_bound,
               "record": cmd_record, "table": cmd_table}[args.command]
    return command(args)


if __name__ == "__main__":
    sys.exit(main())
