"""Fitting the learned value with scikit-learn (the ``train`` extra).

From a decisions file (:mod:`.selfplay`), every decision is one example: its
features (:func:`~.features.features_of_row`) and its game's outcome, won (the
chance of winning, fitted by log-loss) and final score (squared error). Two small
MLPs (ReLU, Adam, L2 ``alpha``, early stopping on a tenth of the rows) are
fitted and exported as plain arrays (:class:`~.model.ValueModel`).

The evaluation seeds (0..9999, the deals every published table is measured on)
are refused as training data, so that a model is always measured on deals it
never saw.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from ...errors import SolverError
from .features import features_of_row
from .model import MAX_LAYER, MAX_LAYERS, Net, ValueModel

__all__ = ["EVAL_SEEDS", "MAX_EXAMPLES", "fit_arrays", "fit_file", "load_examples"]

EVAL_SEEDS: Final = range(0, 10_000)
"""The seeds the evaluations use: never training data."""
MAX_EXAMPLES: Final = 5_000_000
"""The most decisions one fit reads (110 features of 8 bytes: about 4.4 GB)."""


def load_examples(paths: Sequence[str | Path], max_rows: int = MAX_EXAMPLES
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """(features, won, score, what the rows are) of the decisions in ``paths`` (Parquet
    files of decisions, or games files); training rows of evaluation seeds are refused."""
    rows: list[dict[str, Any]] = []
    for path in map(Path, paths):
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq

            rows += pq.read_table(path).to_pylist()
        else:
            from .selfplay import decision_rows, games_in

            rows += [r for g in games_in(path) for r in decision_rows(g)]
        if len(rows) > max_rows:
            raise SolverError(f"more than {max_rows:,} decisions in {', '.join(map(str, paths))}")
    if not rows:
        raise SolverError(f"no decisions in {', '.join(map(str, paths))}")
    seeds = sorted({int(r["seed"]) for r in rows})
    bad = [s for s in seeds if s in EVAL_SEEDS]
    if bad:
        raise SolverError(f"seed {bad[0]} is an evaluation seed ({EVAL_SEEDS.start}.."
                          f"{EVAL_SEEDS.stop - 1}): never train on those")
    x = np.stack([features_of_row(r, r["variant"]) for r in rows])
    won = np.array([bool(r["won"]) for r in rows], np.float64)
    score = np.array([r["score"] for r in rows], np.float64)
    games = len({(r["variant"], int(r["seed"])) for r in rows})
    what = {"files": [str(p) for p in paths], "decisions": len(rows), "games": games,
            "seeds": f"{seeds[0]}-{seeds[-1]}",
            "variants": sorted({r["variant"] for r in rows})}
    return x, won, score, what


def _net(coefs: Sequence[np.ndarray], intercepts: Sequence[np.ndarray]) -> Net:
    return Net(tuple((np.asarray(w, np.float64), np.asarray(b, np.float64))
                     for w, b in zip(coefs, intercepts, strict=True)))


def fit_arrays(x: np.ndarray, won: np.ndarray, score: np.ndarray,
               hidden: Sequence[int] = (32,), *, alpha: float = 1e-4, max_iter: int = 200,
               learning_rate: float = 1e-3, seed: int = 0,
               fit: dict[str, Any] | None = None) -> ValueModel:
    """Fit both networks on features ``x`` and outcomes; ``hidden`` are the hidden widths."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier, MLPRegressor

    if not 1 <= len(hidden) < MAX_LAYERS or not all(1 <= h <= MAX_LAYER for h in hidden):
        raise SolverError(f"hidden layers {list(hidden)}: 1..{MAX_LAYERS - 1} widths of "
                          f"1..{MAX_LAYER}")
    if len(set(won.tolist())) < 2:
        raise SolverError("the decisions hold only won or only lost games: nothing to learn")
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0  # a feature that never varies: left as it is
    z = (x - mean) / scale
    s_mean, s_scale = float(score.mean()), float(score.std() or 1.0)
    common: dict[str, Any] = {"hidden_layer_sizes": tuple(hidden), "alpha": alpha,
                              "max_iter": max_iter, "random_state": seed,
                              "learning_rate_init": learning_rate,
                              "early_stopping": len(x) >= 50, "n_iter_no_change": 8}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # max_iter is the bound asked for
        clf = MLPClassifier(**common).fit(z, won.astype(np.int64))
        reg = MLPRegressor(**common).fit(z, (score - s_mean) / s_scale)
    # a binary MLPClassifier's one output is the logit of class 1 (won)
    assert list(clf.classes_) == [0, 1]
    record = {**(fit or {}), "hidden": list(hidden), "alpha": alpha, "max_iter": max_iter,
              "learning_rate": learning_rate, "random_state": seed,
              "iterations": [int(clf.n_iter_), int(reg.n_iter_)]}
    return ValueModel(mean, scale, _net(clf.coefs_, clf.intercepts_),
                      _net(reg.coefs_, reg.intercepts_), s_mean, s_scale, record)


def fit_file(paths: Sequence[str | Path], hidden: Sequence[int] = (32,), *,
             stamp: dict[str, str] | None = None, **opts: Any) -> ValueModel:
    """:func:`fit_arrays` on the decisions of ``paths``; the model records its data and
    ``stamp`` (command, commit, date, version)."""
    x, won, score, what = load_examples(paths)
    return fit_arrays(x, won, score, hidden, fit={**what, **(stamp or {})}, **opts)
