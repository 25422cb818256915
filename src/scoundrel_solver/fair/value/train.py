"""Fitting the learned value with scikit-learn (the ``train`` extra).

From a decisions file (:mod:`.selfplay`), every decision is one example: its
features (:func:`~.features.features_of_row`) and its game's outcome, won (the
chance of winning, fitted by log-loss) and final score (squared error). Two small
MLPs (ReLU, Adam, L2 ``alpha``; one hidden layer of 16 and ``alpha`` 10 by default,
which held-out games of a few hundred training games preferred to wider and
less penalised ones) are fitted an epoch at a time, each keeping its
epoch of lowest loss on a tenth of the games held out, and exported as plain
arrays (:class:`~.model.ValueModel`).

The evaluation seeds (0..9999, the deals every published table is measured on)
are refused as training data, so that a model is always measured on deals it
never saw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from ...errors import SolverError
from .features import features_of_row
from .model import MAX_LAYER, MAX_LAYERS, Net, ValueModel

__all__ = ["EVAL_SEEDS", "MAX_EXAMPLES", "check_hidden", "decision_rows_of", "fit_arrays",
           "fit_file", "game_key", "load_examples", "net_of_layers", "split_by_game",
           "standardised"]

EVAL_SEEDS: Final = range(0, 10_000)
"""The seeds the evaluations use: never training data."""
MAX_EXAMPLES: Final = 5_000_000
"""The most decisions one fit reads (110 features of 8 bytes: about 4.4 GB)."""


def decision_rows_of(paths: Sequence[str | Path], max_rows: int = MAX_EXAMPLES,
                     purpose: str = "train") -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The decisions in ``paths`` (Parquet files of decisions, or games files) as row
    dicts, each with ``file``, the index of its path, and what they are (files,
    decisions, games, seeds, variants). Rows of evaluation seeds are refused: nothing
    is ever fitted on those (``purpose`` says to what, in the error)."""
    rows: list[dict[str, Any]] = []
    for i, path in enumerate(map(Path, paths)):
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq

            more = pq.read_table(path).to_pylist()
        else:
            from .selfplay import decision_rows, games_in

            more = [r for g in games_in(path) for r in decision_rows(g)]
        for r in more:  # one seed may be a game in two files: the agent's own, and explored
            r["file"] = i
        rows += more
        if len(rows) > max_rows:
            raise SolverError(f"more than {max_rows:,} decisions in {', '.join(map(str, paths))}")
    if not rows:
        raise SolverError(f"no decisions in {', '.join(map(str, paths))}")
    seeds = sorted({int(r["seed"]) for r in rows})
    bad = [s for s in seeds if s in EVAL_SEEDS]
    if bad:
        raise SolverError(f"seed {bad[0]} is an evaluation seed ({EVAL_SEEDS.start}.."
                          f"{EVAL_SEEDS.stop - 1}): never {purpose} on those")
    what = {"files": [str(p) for p in paths], "decisions": len(rows),
            "games": len(set(map(game_key, rows))),
            "seeds": f"{seeds[0]}-{seeds[-1]}", "variants": sorted({r["variant"] for r in rows})}
    return rows, what


def game_key(row: dict[str, Any]) -> tuple[int, str, int]:
    """The game a row of :func:`decision_rows_of` belongs to: its file, variant and seed."""
    return int(row["file"]), row["variant"], int(row["seed"])


def load_examples(paths: Sequence[str | Path], max_rows: int = MAX_EXAMPLES
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """(features, won, score, game of each row, what the rows are) of the decisions in
    ``paths`` (see :func:`decision_rows_of`)."""
    rows, what = decision_rows_of(paths, max_rows)
    x = np.stack([features_of_row(r, r["variant"]) for r in rows])
    won = np.array([bool(r["won"]) for r in rows], np.float64)
    score = np.array([r["score"] for r in rows], np.float64)
    keys = [game_key(r) for r in rows]
    index = {k: i for i, k in enumerate(sorted(set(keys)))}
    groups = np.array([index[k] for k in keys], np.int64)
    return x, won, score, groups, what


def net_of_layers(coefs: Sequence[np.ndarray], intercepts: Sequence[np.ndarray]) -> Net:
    """The network of scikit-learn's fitted layers (``coefs_``, ``intercepts_``)."""
    return Net(tuple((np.asarray(w, np.float64), np.asarray(b, np.float64))
                     for w, b in zip(coefs, intercepts, strict=True)))


def check_hidden(hidden: Sequence[int]) -> None:
    """Refuse hidden layers a model file could not hold (:data:`MAX_LAYERS`, :data:`MAX_LAYER`)."""
    if not 1 <= len(hidden) < MAX_LAYERS or not all(1 <= h <= MAX_LAYER for h in hidden):
        raise SolverError(f"hidden layers {list(hidden)}: 1..{MAX_LAYERS - 1} widths of "
                          f"1..{MAX_LAYER}")


def standardised(x: np.ndarray, score: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """(mean, scale, standardised features, score mean, score scale) of a fit's inputs."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0  # a feature that never varies: left as it is
    z = (x - mean) / scale
    s_mean, s_scale = float(score.mean()), float(score.std() or 1.0)
    return mean, scale, z, s_mean, s_scale


def split_by_game(groups: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of a tenth of the games (at least one, from five games on) for validation,
    the rest for training: decisions of one game share its outcome, so a split by rows
    would validate on games the network has seen."""
    ids = np.unique(groups)
    if len(ids) < 5:
        every = np.ones(len(groups), bool)
        return every, every
    rng = np.random.default_rng(seed)
    held = rng.choice(ids, size=max(1, len(ids) // 10), replace=False)
    val = np.isin(groups, held)
    return ~val, val


def _epochs(net: Any, z: np.ndarray, y: np.ndarray, rows: tuple[np.ndarray, np.ndarray],
            loss: Any, max_iter: int, patience: int, **kw: Any) -> dict[str, Any]:
    """Train ``net`` an epoch at a time; keep the weights of the epoch with the lowest
    validation loss, stopping after ``patience`` epochs without a better one."""
    train, val = rows
    best: dict[str, Any] = {"loss": math.inf, "epoch": 0}
    for epoch in range(1, max_iter + 1):
        net.partial_fit(z[train], y[train], **kw)
        now = float(loss(net, z[val], y[val]))
        if now < best["loss"] - 1e-7:
            best = {"loss": now, "epoch": epoch,
                    "coefs": [w.copy() for w in net.coefs_],
                    "intercepts": [b.copy() for b in net.intercepts_]}
        elif epoch - best["epoch"] >= patience:
            break
    return best


def _log_loss(net: Any, z: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(net.predict_proba(z)[:, 1], 1e-7, 1 - 1e-7)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _squared(net: Any, z: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((net.predict(z) - y) ** 2))


def fit_arrays(x: np.ndarray, won: np.ndarray, score: np.ndarray,
               hidden: Sequence[int] = (16,), *, groups: np.ndarray | None = None,
               alpha: float = 10.0, max_iter: int = 200, patience: int = 10,
               learning_rate: float = 1e-3, seed: int = 0,
               fit: dict[str, Any] | None = None) -> ValueModel:
    """Fit both networks on features ``x`` and outcomes; ``hidden`` are the hidden widths.

    ``groups`` (one id per row: its game) picks the validation games (:func:`split_by_game`);
    without it every row is its own group. Each network keeps the epoch of its lowest
    validation loss (log-loss, squared error)."""
    from sklearn.neural_network import MLPClassifier, MLPRegressor

    check_hidden(hidden)
    if len(set(won.tolist())) < 2:
        raise SolverError("the decisions hold only won or only lost games: nothing to learn")
    mean, scale, z, s_mean, s_scale = standardised(x, score)
    rows = split_by_game(np.arange(len(x)) if groups is None else groups, seed)
    common: dict[str, Any] = {"hidden_layer_sizes": tuple(hidden), "alpha": alpha,
                              "random_state": seed, "learning_rate_init": learning_rate}
    win = _epochs(MLPClassifier(**common), z, won.astype(np.int64), rows, _log_loss,
                  max_iter, patience, classes=[0, 1])
    sc = _epochs(MLPRegressor(**common), z, (score - s_mean) / s_scale, rows, _squared,
                 max_iter, patience)
    # a binary MLPClassifier's one output is the logit of class 1 (won)
    record = {**(fit or {}), "hidden": list(hidden), "alpha": alpha, "max_iter": max_iter,
              "learning_rate": learning_rate, "random_state": seed,
              "validation_rows": int(rows[1].sum()), "validation_log_loss": win["loss"],
              "validation_score_mse": sc["loss"] * s_scale**2,
              "epochs": [win["epoch"], sc["epoch"]]}
    return ValueModel(mean, scale, net_of_layers(win["coefs"], win["intercepts"]),
                      net_of_layers(sc["coefs"], sc["intercepts"]), s_mean, s_scale, record)


def fit_file(paths: Sequence[str | Path], hidden: Sequence[int] = (16,), *,
             stamp: dict[str, str] | None = None, **opts: Any) -> ValueModel:
    """:func:`fit_arrays` on the decisions of ``paths``; the model records its data and
    ``stamp`` (command, commit, date, version)."""
    x, won, score, groups, what = load_examples(paths)
    return fit_arrays(x, won, score, hidden, groups=groups, fit={**what, **(stamp or {})},
                      **opts)
