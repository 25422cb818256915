"""Fitting the calibration of the shown numbers with scikit-learn (the ``train`` extra).

Every decision of the training games is one example: the search's chance and
expected score of the action the agent played, the learned chance and expected
score of the position, the unseen cards, whether the values were sampled or
exact, whether the game was won and its final score. A logistic regression per
phase (:data:`.shown.TERMS`, an L2 penalty ``C`` as scikit-learn names it) maps
them to the chance shown, and a least-squares linear regression per phase
(:data:`.shown.SCORE_TERMS`, no penalty: ten terms on tens of thousands of rows)
to the expected score shown (:class:`.shown.ShownChance`). The two fits are
independent: the chance's map is the same with or without the score's.

The learned value should come from other games than the calibration's where
possible: a model fitted on the same games is a little overconfident there, and
the map learns to trust it a little too much. The evaluation seeds 0..9999 are
refused here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from ...errors import SolverError
from .features import features_of_row
from .model import ValueModel
from .shown import PHASES, ShownChance, score_terms, terms
from .train import MAX_EXAMPLES, decision_rows_of

__all__ = ["MAX_C", "decision_arrays", "fit_shown", "fit_shown_file"]

MAX_C: Final = 1e6
"""The weakest penalty a fit may ask for (scikit-learn's ``C``, its inverse)."""


def decision_arrays(paths: Sequence[str | Path], model: ValueModel,
                    max_rows: int = MAX_EXAMPLES) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The maps' inputs and the outcome of every decision in ``paths`` (Parquet files of
    decisions or games files), and what the rows are; evaluation seeds are refused.
    ``score`` is the search's expected score of the action played (as recorded: the
    search's), ``final`` the game's final score."""
    rows, what = decision_rows_of(paths, max_rows, purpose="fit")
    x = np.stack([features_of_row(r, r["variant"]) for r in rows])
    arrays = {
        "chance": np.array([r["win_chance"] for r in rows], np.float64),
        "learned": model.win(x),
        "unseen": np.array([r["unseen"] for r in rows], np.int64),
        "sampled": np.array([r["samples"] > 0 for r in rows], np.float64),
        "exact": np.array([r["exact"] for r in rows], np.float64),
        "won": np.array([bool(r["won"]) for r in rows], np.float64),
        "score": np.array([r["expected_score"] for r in rows], np.float64),
        "learned_score": model.score(x),
        "final": np.array([r["score"] for r in rows], np.float64),
    }
    return arrays, what


def fit_shown(arrays: dict[str, np.ndarray], model: ValueModel, *, c: float = 1.0,
              fit: dict[str, Any] | None = None) -> ShownChance:
    """One logistic regression per phase on the arrays of :func:`decision_arrays` (the
    chance's map) and, where the arrays hold ``score``, ``learned_score`` and ``final``,
    one least-squares regression per phase (the expected score's map)."""
    from sklearn.linear_model import LinearRegression, LogisticRegression

    if not 0 < c <= MAX_C:
        raise SolverError(f"C {c} must be above 0 and at most {MAX_C:g}")
    t = terms(arrays["chance"], arrays["learned"], arrays["unseen"], arrays["sampled"],
              arrays["exact"])
    u = arrays["unseen"]
    masks = {"open": u > 30, "middle": (u > 12) & (u <= 30), "end": (u > 0) & (u <= 12)}
    with_score = all(k in arrays for k in ("score", "learned_score", "final"))
    ts = score_terms(arrays["score"], arrays["learned_score"], u, arrays["sampled"],
                     arrays["exact"]) if with_score else None
    coefficients = {}
    score_coefficients = {}
    rows = {}
    for ph in PHASES:
        m = masks[ph]
        y = arrays["won"][m]
        if len(set(y.tolist())) < 2:
            raise SolverError(f"the {ph} decisions hold only won or only lost games")
        lr = LogisticRegression(C=c, fit_intercept=False, max_iter=5000).fit(t[m], y)
        coefficients[ph] = lr.coef_[0].tolist()
        rows[ph] = int(m.sum())
        if ts is not None:
            # the bias is a term of its own (as in the chance's map); a term constant in a
            # phase (no sampled rows in the opening) gets the least-norm share, 0 or a split
            ls = LinearRegression(fit_intercept=False).fit(ts[m], arrays["final"][m])
            score_coefficients[ph] = ls.coef_.tolist()
    record = {**(fit or {}), "C": c, "rows_per_phase": rows}
    if ts is not None:
        record["score_fit"] = "least squares on the final score, per phase"
    return ShownChance(coefficients, model, {**record, "value_model_fit": model.fit},
                       score_coefficients=score_coefficients if ts is not None else None)


def fit_shown_file(paths: Sequence[str | Path], model: ValueModel, *, c: float = 1.0,
                   stamp: dict[str, str] | None = None) -> ShownChance:
    """:func:`fit_shown` on the decisions of ``paths``; the calibration records its data
    and ``stamp`` (command, commit, date, version)."""
    arrays, what = decision_arrays(paths, model)
    return fit_shown(arrays, model, c=c, fit={**what, **(stamp or {})})
