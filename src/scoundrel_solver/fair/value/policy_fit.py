"""A value for the one-ply policy, fitted on the positions it reaches with the search as teacher.

The shipped learned value was fitted on the positions the fair agent reaches.
One ply asks it about every position an action leads to, bad ones included, which
the agent never visits: there the model extrapolates. This module fits a value on
the policy's own positions (dataset aggregation, DAgger-style): each round the
policy of the last round's model plays training deals and the fair agent's search
labels every decision it reaches, and every position one action away inside the
room (those the policy evaluates), with the search's values
(:func:`search_labels`): the chance of winning and expected score of the action the
agent would play, one search a decision.
The model is refitted on every round's labels so far and on the fair agent's own
decisions labelled the same way (the chosen action's values in the decisions
file), so that every target comes from one teacher.

The chance of winning is fitted by log-loss on the teacher's chance (a soft
target: each row counts as won with weight ``p`` and lost with weight ``1 - p``),
the score by squared error, with the networks and model file of :mod:`.train`
(the ``train`` extra: scikit-learn).

Labels are appended to a JSON-lines file one game at a time (:func:`label_games`), so
that a run stopped at any moment loses at most the game in flight and the same
call resumes, skipping the seeds already labelled.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe

from ...errors import SolverError
from ...runs.jsonl import append_missing, read_json_lines
from .features import FEATURES, features_of, features_of_row
from .model import ValueModel

__all__ = [
    "FORMAT", "MAX_GAMES", "base_labels", "check_training_seeds", "fit_soft", "label_games",
    "labels_in",
    "policy_positions", "search_labels",
]

FORMAT: Final = "scoundrel-policy-labels/1"
"""The ``format`` of every line of a labels file."""
MAX_GAMES: Final = 100_000
"""The most games one call of :func:`label_games` may play (days of one core)."""
_MAX_DECISIONS: Final = 400  # a game of Scoundrel has at most 44 cards to resolve


def check_training_seeds(seeds: Iterable[int]) -> None:
    """Refuse the evaluation seeds as training data (a :class:`SolverError` naming one)."""
    from .train import EVAL_SEEDS

    for s in seeds:
        if s in EVAL_SEEDS:
            raise SolverError(f"seed {s} is an evaluation seed ({EVAL_SEEDS.start}.."
                              f"{EVAL_SEEDS.stop - 1}): never train on those")


def policy_positions(choose: Callable[[InfoState], sc.Action], seed: int, variant: str
                     ) -> list[InfoState]:
    """The decision states of the deal ``seed`` played by ``choose``, in order."""
    s = sc.new_game(seed=seed, variant=variant)
    info = InfoState.initial(s)
    out: list[InfoState] = []
    while not s.is_over:
        if len(out) >= _MAX_DECISIONS:
            raise SolverError(f"seed {seed} of {variant}: game not over after "
                              f"{_MAX_DECISIONS} decisions")
        out.append(info)
        a = choose(info)
        nxt = sc.apply(s, a)
        info, s = observe(info, a, nxt), nxt
    return out


def search_labels(agent: Any, info: InfoState) -> list[tuple[InfoState, float, float]]:
    """The teacher's values at ``info`` and at the positions one action away inside the
    room, from one search (``agent`` a :class:`~..agent.FairAgent`): ``info`` is worth the
    search's chance of winning and expected score of the action the agent plays there;
    a decision state right after an action (the room not yet done, the game not over) is
    worth that action's values, which the search computed as its play from that state.
    An action that ends the room leads to a chance node, which is not a decision state:
    it gets no row."""
    from ..agent import choice

    values = agent.search_values(info)
    best = choice(info, values)
    if best is None:
        raise SolverError(f"no legal action in {info.to_text()}")
    out = [(info, best.searched_win_chance, best.searched_expected_score)]
    for v in values:
        after = info.apply(v.action)
        if isinstance(after, InfoState) and not after.is_over:
            out.append((after, v.searched_win_chance, v.searched_expected_score))
    return out


def label_games(choose: Callable[[InfoState], sc.Action], seeds: Sequence[int], variant: str,
                out: str | Path, *, agent: Any = None, round_: int = 0,
                stop: Callable[[], bool] = lambda: False,
                progress: Callable[[int, int], None] | None = None) -> int:
    """Label the positions of the policy ``choose`` on every seed of ``seeds`` not yet in
    ``out`` (:func:`search_labels` at every decision of its games) and append one line per
    game: its seed, round, and each position's features, win chance and expected score.
    Returns the games written."""
    from ..agent import FairAgent

    if len(seeds) > MAX_GAMES:
        raise SolverError(f"{len(seeds):,} games: at most {MAX_GAMES:,} a call")
    check_training_seeds(seeds)
    teacher = agent or FairAgent()
    done = {int(g["seed"]) for g in _lines(out)} if Path(out).exists() else set()

    def line_of(seed: int) -> dict[str, Any]:
        rows = [[*features_of(i).tolist(), win, score]
                for info in policy_positions(choose, seed, variant)
                for i, win, score in search_labels(teacher, info)]
        return {"format": FORMAT, "seed": seed, "variant": variant, "round": round_,
                "rows": rows}

    return append_missing(out, seeds, done, line_of, stop=stop,
                          progress=None if progress is None
                          else lambda seed, line: progress(seed, len(line["rows"])))


def _lines(path: str | Path) -> Iterable[dict[str, Any]]:
    for number, line in read_json_lines(path):
        if not isinstance(line, dict) or line.get("format") != FORMAT:
            raise SolverError(f"{path}:{number}: not a line of {FORMAT}")
        yield line


def labels_in(paths: Sequence[str | Path]
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(features, win chance, expected score, game) of every position in labels files;
    the game ids are the seeds."""
    n = len(FEATURES)
    rows: list[list[float]] = []
    games: list[int] = []
    for path in paths:
        for line in _lines(path):
            check_training_seeds([int(line["seed"])])
            for r in line["rows"]:
                if len(r) != n + 2:
                    raise SolverError(f"{path}: a row of {len(r)} numbers, not {n + 2}")
                rows.append(r)
                games.append(int(line["seed"]))
    a = np.array(rows, np.float64).reshape(-1, n + 2)
    return a[:, :n], a[:, n], a[:, n + 1], np.array(games, np.int64)


def _room_children(game: list[dict[str, Any]]) -> list[tuple[np.ndarray, float, float]]:
    """The decision states one action away inside the room from each decision of one game
    of the fair agent (its rows of a decisions file, in order), with that action's search
    values: the game is replayed from its seed, each decision checked against its row."""
    first = game[0]
    s = sc.new_game(seed=int(first["seed"]), variant=first["variant"])
    info = InfoState.initial(s)
    out: list[tuple[np.ndarray, float, float]] = []
    for r in game:
        if not np.array_equal(features_of(info), features_of_row(r, r["variant"])):
            raise SolverError(f"seed {first['seed']} of {first['variant']}, decision "
                              f"{r['decision']}: the replayed game leaves its row")
        for text, win, score in zip(r["actions"], r["action_win_chances"],
                                    r["action_expected_scores"], strict=True):
            after = info.apply(sc.parse_action(info, text))
            if isinstance(after, InfoState) and not after.is_over:
                out.append((features_of(after), float(win), float(score)))
        a = sc.parse_action(s, r["action"])
        nxt = sc.apply(s, a)
        info, s = observe(info, a, nxt), nxt
    return out


def base_labels(paths: Sequence[str | Path], children: bool = True
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(features, win chance, expected score, game) of the fair agent's decisions in
    Parquet decisions files (:mod:`.selfplay`), labelled as :func:`search_labels` labels
    them: the search's values of the action it played (the columns ``win_chance`` and
    ``expected_score``) and, with ``children``, each decision state one action away
    inside the room with that action's values (the games replayed from their seeds);
    the game ids are the seeds."""
    import pyarrow.parquet as pq

    xs: list[np.ndarray] = []
    win: list[float] = []
    score: list[float] = []
    games: list[int] = []
    by_game: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for path in paths:
        for r in pq.read_table(path).to_pylist():
            by_game.setdefault((r["variant"], int(r["seed"])), []).append(r)
    if not by_game:
        raise SolverError(f"no decisions in {', '.join(map(str, paths))}")
    check_training_seeds(sorted({seed for _, seed in by_game}))
    for (_, seed), rows in sorted(by_game.items()):
        rows.sort(key=lambda r: int(r["decision"]))
        found = [(features_of_row(r, r["variant"]), float(r["win_chance"]),
                  float(r["expected_score"])) for r in rows]
        if children:
            found += _room_children(rows)
        for x, w, sc_ in found:
            xs.append(x)
            win.append(w)
            score.append(sc_)
            games.append(seed)
    return np.stack(xs), np.array(win), np.array(score), np.array(games, np.int64)


def _soft_log_loss(net: Any, z: np.ndarray, p: np.ndarray) -> float:
    q = np.clip(net.predict_proba(z)[:, 1], 1e-7, 1 - 1e-7)
    return float(-np.mean(p * np.log(q) + (1 - p) * np.log(1 - q)))


def _epochs(net: Any, data: tuple[np.ndarray, np.ndarray, np.ndarray | None],
            loss: Callable[[Any], float], max_iter: int, patience: int) -> dict[str, Any]:
    """Train ``net`` an epoch at a time on (inputs, targets, weights or None); keep the
    weights of the epoch of lowest held-out ``loss``, stopping after ``patience`` epochs
    without a better one."""
    z, y, w = data
    best: dict[str, Any] = {"loss": math.inf, "epoch": 0}
    for epoch in range(1, max_iter + 1):
        if w is None:
            net.partial_fit(z, y)
        else:
            net.partial_fit(z, y, sample_weight=w, classes=[0, 1])
        now = loss(net)
        if now < best["loss"] - 1e-7:
            best = {"loss": now, "epoch": epoch, "coefs": [c.copy() for c in net.coefs_],
                    "intercepts": [b.copy() for b in net.intercepts_]}
        elif epoch - best["epoch"] >= patience:
            break
    return best


def fit_soft(x: np.ndarray, win: np.ndarray, score: np.ndarray, groups: np.ndarray,
             hidden: Sequence[int] = (64,), *, alpha: float = 1.0, max_iter: int = 30,
             patience: int = 3, learning_rate: float = 1e-3, batch_size: int = 200,
             seed: int = 0, fit: dict[str, Any] | None = None) -> ValueModel:
    """Fit both networks on features ``x``, the teacher's chance of winning ``win`` (0..1,
    by log-loss on soft targets) and expected score ``score`` (squared error). A tenth of
    the games (``groups``) is held out; each network keeps its epoch of lowest held-out
    loss, stopping after ``patience`` epochs without a better one."""
    from sklearn.neural_network import MLPClassifier, MLPRegressor

    from .train import check_hidden, net_of_layers, split_by_game, standardised

    check_hidden(hidden)
    if not 1 <= max_iter <= 1000 or not 1 <= patience <= max_iter:
        raise SolverError(f"max_iter {max_iter} and patience {patience}: 1..1000 epochs, "
                          f"patience at most max_iter")
    if not len(x) == len(win) == len(score) == len(groups) or not len(x):
        raise SolverError("features, win chances, scores and games differ in length or are empty")
    if np.any((win < 0) | (win > 1)) or not np.all(np.isfinite(score)):
        raise SolverError("win chances must lie in 0..1 and scores be finite")
    mean, scale, z, s_mean, s_scale = standardised(x, score)
    train, val = split_by_game(groups, seed)
    if not 1 <= batch_size <= 100_000:
        raise SolverError(f"batch_size {batch_size}: 1..100000 rows")
    common: dict[str, Any] = {"hidden_layer_sizes": tuple(hidden), "alpha": alpha,
                              "random_state": seed, "learning_rate_init": learning_rate,
                              "batch_size": min(batch_size, int(train.sum()))}
    # soft targets as weighted copies: a row is won with weight p and lost with 1 - p
    zt, pt = z[train], win[train]
    zz = np.concatenate([zt, zt])
    yy = np.concatenate([np.ones(len(zt), np.int64), np.zeros(len(zt), np.int64)])
    ww = np.concatenate([pt, 1.0 - pt])
    keep = ww > 0
    zz, yy, ww = zz[keep], yy[keep], ww[keep]
    order = np.random.default_rng(seed).permutation(len(zz))  # mixed batches of both copies
    zz, yy, ww = zz[order], yy[order], ww[order]
    val_score = (score[val] - s_mean) / s_scale
    win_fit = _epochs(MLPClassifier(**common), (zz, yy, ww),
                      lambda n: _soft_log_loss(n, z[val], win[val]), max_iter, patience)
    score_fit = _epochs(MLPRegressor(**common),
                        (z[train], (score[train] - s_mean) / s_scale, None),
                        lambda n: float(np.mean((n.predict(z[val]) - val_score) ** 2)),
                        max_iter, patience)
    record = {**(fit or {}), "targets": "search values (soft win chance, expected score)",
              "hidden": list(hidden), "alpha": alpha, "max_iter": max_iter,
              "patience": patience, "learning_rate": learning_rate, "batch_size": batch_size,
              "random_state": seed,
              "rows": len(x), "validation_rows": int(val.sum()),
              "validation_log_loss": win_fit["loss"],
              "validation_score_mse": score_fit["loss"] * s_scale**2,
              "epochs": [win_fit["epoch"], score_fit["epoch"]]}
    return ValueModel(mean, scale, net_of_layers(win_fit["coefs"], win_fit["intercepts"]),
                      net_of_layers(score_fit["coefs"], score_fit["intercepts"]),
                      s_mean, s_scale, record)
