"""The numbers a player is shown: the search's chance and score, calibrated on the agent's games.

The search's chance of winning is a forecast with known biases: while many
cards are unseen it is the leaf's hand-shaped estimate (far below what the
agent then wins), and in the endgame it is the share of a few sampled dungeon
orders, each solved as if it were known (coarse and optimistic). The number
shown for an action is that chance recalibrated by a logistic map fitted on the
agent's own games (:mod:`.shown_fit`), with the learned value of the position
(:mod:`.model`) as a second witness. Per phase of the game (:func:`.features.phase`),
the shown chance of an action is the logistic of

    c · (1, z, L, s·z, e·z, e, u, u·L, s, s·L)

where ``z`` is the logit of the search's chance (clipped to 1..99%), ``L`` the
logit of the learned chance of the position, ``s`` 1 if the values are sampled
orders, ``e`` 1 if the action's value is exact, and ``u`` the unseen cards / 40.

Within one decision ``L``, ``u`` and ``s`` are shared by every action, so the map
is increasing in the search's chance as long as its slope in ``z`` (which depends
on ``s`` only, for an action whose value is not exact) is positive, which
:class:`ShownChance` checks when it is built: the shown chances rank a
decision's actions as the search's do (among actions alike in exactness),
and the agent's choice (made on the search's numbers) never depends on them.
An exact value (the search reached every end, or nothing is unseen) is the
true chance under the agent's play and is shown as it is, so the map's slope
for exact rows is never used; the exact terms let the fit take those rows in
without bending the map of the others.

The expected score shown beside the chance is, where the file holds a map for
it (its optional key ``score``), the search's expected score recalibrated the
same way: per phase, the linear map

    d · (1, S, Ls, s·S, e·S, e, u, u·Ls, s, s·Ls)

where ``S`` is the search's expected score of the action (the sampled orders'
mean best score, in the endgame) and ``Ls`` the learned expected score of the
position, fitted by least squares on the games' final scores. It too must be
increasing in ``S`` (checked when built), exact values are shown as they are,
and the result is clipped to the scores a game can end with. A file without
``score`` shows the search's expected score.

The file (``format`` :data:`FORMAT`) holds the chance's coefficients per phase,
optionally ``score``: ``{"terms": SCORE_TERMS, "coefficients": {phase: [...]}}``,
the learned value model they read (whole, so that the file stands alone) and the
record of the fit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from scoundrel_core.info import InfoState

from ...errors import SolverError
from ...runs.result_rows import BEST_SCORE, WORST_SCORE
from ..config import SHOWN as SHIPPED
from .features import features_of
from .files import read_json
from .model import ValueModel

if TYPE_CHECKING:
    from ..agent import ActionValue

__all__ = ["CLIP", "FORMAT", "PHASES", "SCORE_TERMS", "SHIPPED", "TERMS", "ShownChance",
           "load_shown", "score_terms", "shipped_path", "shipped_shown", "terms"]

FORMAT: Final = "scoundrel-shown-chance/1"
"""The ``format`` of a calibration file: a reader refuses files of another."""
TERMS: Final = ("bias", "z", "learned", "sampled_z", "exact_z", "exact", "unseen",
                "unseen_learned", "sampled", "sampled_learned")
"""The terms of the map, in the order of each phase's coefficients."""
SCORE_TERMS: Final = ("bias", "score", "learned_score", "sampled_score", "exact_score", "exact",
                      "unseen", "unseen_learned_score", "sampled", "sampled_learned_score")
"""The terms of the expected score's map (the file's ``score``), in the order of its
coefficients."""
PHASES: Final = ("open", "middle", "end")
"""The phases, as :func:`.features.phase` names them, in the order of the coefficients."""
CLIP: Final = 0.01
"""Chances are clipped to CLIP..1-CLIP before their logit (a share of 0 of 8 orders is
not a certainty)."""


def _logit(p: np.ndarray) -> np.ndarray:
    q = np.clip(p, CLIP, 1.0 - CLIP)
    return np.asarray(np.log(q / (1.0 - q)))


def terms(chance: np.ndarray, learned: np.ndarray, unseen: np.ndarray, sampled: np.ndarray,
          exact: np.ndarray) -> np.ndarray:
    """The map's terms (rows x ``TERMS``) of search chances ``chance`` (0..1), learned
    chances ``learned`` (0..1) of their positions, unseen cards, and 0/1 flags."""
    z = _logit(np.asarray(chance, np.float64))
    lg = _logit(np.asarray(learned, np.float64))
    u = np.asarray(unseen, np.float64) / 40.0
    s = np.asarray(sampled, np.float64)
    e = np.asarray(exact, np.float64)
    return np.stack([np.ones_like(z), z, lg, s * z, e * z, e, u, u * lg, s, s * lg], axis=1)


def score_terms(score: np.ndarray, learned: np.ndarray, unseen: np.ndarray, sampled: np.ndarray,
                exact: np.ndarray) -> np.ndarray:
    """The score map's terms (rows x ``SCORE_TERMS``) of search expected scores ``score``,
    learned expected scores ``learned`` of their positions, unseen cards, and 0/1 flags."""
    sc_ = np.asarray(score, np.float64)
    ls = np.asarray(learned, np.float64)
    u = np.asarray(unseen, np.float64) / 40.0
    s = np.asarray(sampled, np.float64)
    e = np.asarray(exact, np.float64)
    return np.stack([np.ones_like(sc_), sc_, ls, s * sc_, e * sc_, e, u, u * ls, s, s * ls],
                    axis=1)


_SLOPE_TERMS: Final = {"chance": ("z", "sampled_z"), "expected score": ("score", "sampled_score")}
"""The terms of each map's slope in the search's number, for rows that are not exact: the
number and its product with the sampled flag."""


def _coefficients(coefficients: Mapping[str, Sequence[float]], names: Sequence[str],
                  of: str, what: str) -> np.ndarray:
    """The phases' coefficients of the map of the search's ``of`` ("chance" or "expected
    score") as an array (phases x ``names``), checked: every phase, finite, and the map
    increasing in the search's number, sampled or not. Within one decision the other
    terms are shared by every action, so a positive slope (which depends on the flags
    only) keeps the search's order of the actions alike in exactness. The slope of exact
    rows is not checked: their values are shown as they are, and the exact terms only
    keep them from bending the map of the others (a variant with a handful of exact rows
    in a phase may fit any slope there)."""
    words = "" if of == "chance" else f"{of} "
    if set(coefficients) != set(PHASES):
        raise SolverError(f"{what}: {words}coefficients for the phases {', '.join(PHASES)}")
    c = np.array([list(coefficients[p]) for p in PHASES], np.float64)
    if c.shape != (len(PHASES), len(names)) or not np.isfinite(c).all():
        raise SolverError(f"{what}: {len(names)} finite {words}coefficients a phase")
    i, i_s = (names.index(n) for n in _SLOPE_TERMS[of])
    for k, ph in enumerate(PHASES):
        for s in (0, 1):
            slope = c[k, i] + s * c[k, i_s]
            if not slope > 0:
                raise SolverError(f"{what}: the {ph} map is not increasing in the "
                                  f"search's {of} (slope {slope:.3g})")
    return c


def _phase_of(unseen: np.ndarray) -> np.ndarray:
    u = np.asarray(unseen)
    return np.where(u > 30, 0, np.where(u > 12, 1, 2))


class ShownChance:
    """A fitted calibration: :meth:`chances` and :meth:`scores` for arrays, :meth:`values`
    for one decision's rows. ``coefficients`` maps each phase to its ``len(TERMS)``
    numbers; ``score_coefficients``, if given, to its ``len(SCORE_TERMS)`` numbers of the
    expected score's map (None: the search's expected score is shown)."""

    def __init__(self, coefficients: Mapping[str, Sequence[float]], model: ValueModel,
                 fit: Mapping[str, Any] | None = None, what: str = "calibration",
                 score_coefficients: Mapping[str, Sequence[float]] | None = None) -> None:
        self.coefficients = _coefficients(coefficients, TERMS, "chance", what)
        self.score_coefficients = None if score_coefficients is None else _coefficients(
            score_coefficients, SCORE_TERMS, "expected score", what)
        self.model = model
        self.fit = dict(fit or {})

    def chances(self, chance: np.ndarray, learned: np.ndarray, unseen: np.ndarray,
                sampled: np.ndarray, exact: np.ndarray) -> np.ndarray:
        """The shown chances of rows (as :func:`terms` takes them); exact rows and rows
        with nothing unseen keep their chance."""
        t = terms(chance, learned, unseen, sampled, exact)
        rows = self.coefficients[_phase_of(unseen)]
        out = 1.0 / (1.0 + np.exp(-np.einsum("ij,ij->i", t, rows)))
        keep = (np.asarray(unseen) == 0) | (np.asarray(exact) != 0)
        return np.where(keep, np.asarray(chance, np.float64), out)

    def scores(self, score: np.ndarray, learned: np.ndarray, unseen: np.ndarray,
               sampled: np.ndarray, exact: np.ndarray) -> np.ndarray:
        """The shown expected scores of rows (as :func:`score_terms` takes them); exact rows,
        rows with nothing unseen, and every row when the file has no score map keep their
        score."""
        score = np.asarray(score, np.float64)
        if self.score_coefficients is None:
            return score.copy()
        t = score_terms(score, learned, unseen, sampled, exact)
        rows = self.score_coefficients[_phase_of(unseen)]
        # a linear map can leave the range of final scores where S or Ls lies near an end
        # of it, and an expectation of final scores cannot: clipped (a non-decreasing
        # function, so the order of a decision's actions stays, ties at an end apart)
        out = np.clip(np.einsum("ij,ij->i", t, rows), WORST_SCORE, BEST_SCORE)
        keep = (np.asarray(unseen) == 0) | (np.asarray(exact) != 0)
        return np.where(keep, score, out)

    def values(self, info: InfoState, values: Sequence[ActionValue]) -> list[ActionValue]:
        """One decision's rows with ``win_chance`` the shown chance and the search's kept as
        ``search_win_chance``; likewise ``expected_score`` and ``search_expected_score``
        where the file has a score map."""
        if not values or not info.unseen:
            return list(values)
        x = features_of(info)
        learned = float(self.model.win(x)[0])
        n = len(values)
        unseen = np.full(n, len(info.unseen))
        sampled = np.array([v.samples > 0 for v in values], np.float64)
        exact = np.array([v.exact for v in values], np.float64)
        searched = np.array([v.searched_win_chance for v in values], np.float64)
        shown = self.chances(searched, np.full(n, learned), unseen, sampled, exact)
        out = [replace(v, win_chance=float(p), search_win_chance=v.searched_win_chance)
               for v, p in zip(values, shown, strict=True)]
        if self.score_coefficients is None:
            return out
        learned_score = float(self.model.score(x)[0])
        score = np.array([v.searched_expected_score for v in values], np.float64)
        shown_score = self.scores(score, np.full(n, learned_score), unseen, sampled, exact)
        return [replace(v, expected_score=float(s), search_expected_score=v.searched_expected_score)
                for v, s in zip(out, shown_score, strict=True)]

    def to_json(self) -> dict[str, Any]:
        """The calibration file's content."""
        out: dict[str, Any] = {
            "format": FORMAT, "terms": list(TERMS),
            "coefficients": {p: self.coefficients[k].tolist() for k, p in enumerate(PHASES)}}
        if self.score_coefficients is not None:
            out["score"] = {"terms": list(SCORE_TERMS),
                            "coefficients": {p: self.score_coefficients[k].tolist()
                                             for k, p in enumerate(PHASES)}}
        return {**out, "value_model": self.model.to_json(), "fit": self.fit}

    def save(self, path: str | Path) -> None:
        """Write the calibration file (JSON)."""
        Path(path).write_text(json.dumps(self.to_json()) + "\n")

    @classmethod
    def from_json(cls, data: Any, what: str = "calibration") -> ShownChance:
        """The calibration of a file's content, checked whole (errors name ``what``)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SolverError(f"{what} is not a {FORMAT} file")
        if data.get("terms") != list(TERMS):
            raise SolverError(f"{what} has other terms than {', '.join(TERMS)}")
        coefficients = data.get("coefficients")
        if not isinstance(coefficients, dict):
            raise SolverError(f"{what}: no coefficients")
        score = data.get("score")  # optional: a file without it shows the search's score
        if score is not None:
            if not isinstance(score, dict) or score.get("terms") != list(SCORE_TERMS):
                raise SolverError(f"{what}: score has other terms than "
                                  f"{', '.join(SCORE_TERMS)}")
            if not isinstance(score.get("coefficients"), dict):
                raise SolverError(f"{what}: no score coefficients")
        try:
            model = ValueModel.from_json(data.get("value_model"), f"{what}, value model")
            return cls(coefficients, model, data.get("fit"), what,
                       None if score is None else score["coefficients"])
        except SolverError:
            raise
        except (TypeError, ValueError):
            raise SolverError(f"{what}: malformed coefficients") from None


def load_shown(path: str | Path) -> ShownChance:
    """The calibration of a JSON file written by :meth:`ShownChance.save`."""
    data = read_json(path, "calibration")
    return ShownChance.from_json(data, f"calibration {str(Path(path))!r}")


def shipped_path(name: str) -> Path:
    """The package file of the shipped calibration ``name`` (one of :data:`SHIPPED`)."""
    if name not in SHIPPED:
        raise SolverError(f"no shipped calibration {name!r}; there are: {', '.join(SHIPPED)}")
    ref = resources.files(__package__) / f"shown-{name.replace('/', '-')}.json"
    return Path(str(ref))


@cache
def shipped_shown(name: str) -> ShownChance:
    """The shipped calibration ``name`` (read once a process)."""
    return load_shown(shipped_path(name))
