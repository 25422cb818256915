"""The chance of winning a player is shown: the search's chance, calibrated on the agent's games.

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
on ``s`` and ``e`` only) is positive, which :class:`ShownChance` checks when it is
built: the shown chances rank a
decision's actions as the search's do (among actions alike in exactness),
and the agent's choice (made on the search's numbers) never depends on them.
An exact value (the search reached every end, or nothing is unseen) is the
true chance under the agent's play and is shown as it is; the exact terms
let the fit take those rows in without bending the map of the others.

The file (``format`` :data:`FORMAT`) holds the coefficients per phase, the
learned value model they read (whole, so that the file stands alone) and the
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
from ..config import SHOWN as SHIPPED
from .features import features_of
from .files import read_json
from .model import ValueModel

if TYPE_CHECKING:
    from ..agent import ActionValue

__all__ = ["CLIP", "FORMAT", "PHASES", "SHIPPED", "TERMS", "ShownChance", "load_shown",
           "shipped_path", "shipped_shown", "terms"]

FORMAT: Final = "scoundrel-shown-chance/1"
"""The ``format`` of a calibration file: a reader refuses files of another."""
TERMS: Final = ("bias", "z", "learned", "sampled_z", "exact_z", "exact", "unseen",
                "unseen_learned", "sampled", "sampled_learned")
"""The terms of the map, in the order of each phase's coefficients."""
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


def _phase_of(unseen: np.ndarray) -> np.ndarray:
    u = np.asarray(unseen)
    return np.where(u > 30, 0, np.where(u > 12, 1, 2))


class ShownChance:
    """A fitted calibration: :meth:`chances` for arrays, :meth:`values` for one decision's
    rows. ``coefficients`` maps each phase to its ``len(TERMS)`` numbers."""

    def __init__(self, coefficients: Mapping[str, Sequence[float]], model: ValueModel,
                 fit: Mapping[str, Any] | None = None, what: str = "calibration") -> None:
        if set(coefficients) != set(PHASES):
            raise SolverError(f"{what}: coefficients for the phases {', '.join(PHASES)}")
        c = np.array([list(coefficients[p]) for p in PHASES], np.float64)
        if c.shape != (len(PHASES), len(TERMS)) or not np.isfinite(c).all():
            raise SolverError(f"{what}: {len(TERMS)} finite coefficients a phase")
        # the slope in z, sampled or not, exact or not: positive, or the map would
        # reorder a decision's actions
        iz, isz, iez = (TERMS.index(t) for t in ("z", "sampled_z", "exact_z"))
        for k, ph in enumerate(PHASES):
            for s in (0, 1):
                for e in (0, 1):
                    slope = c[k, iz] + s * c[k, isz] + e * c[k, iez]
                    if not slope > 0:
                        raise SolverError(f"{what}: the {ph} map is not increasing in the "
                                          f"search's chance (slope {slope:.3g})")
        self.coefficients = c
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

    def values(self, info: InfoState, values: Sequence[ActionValue]) -> list[ActionValue]:
        """One decision's rows with ``win_chance`` the shown chance and the search's kept as
        ``search_win_chance``."""
        if not values or not info.unseen:
            return list(values)
        learned = float(self.model.win(features_of(info))[0])
        n = len(values)
        searched = np.array([v.searched_win_chance for v in values], np.float64)
        shown = self.chances(searched, np.full(n, learned), np.full(n, len(info.unseen)),
                             np.array([v.samples > 0 for v in values], np.float64),
                             np.array([v.exact for v in values], np.float64))
        return [replace(v, win_chance=float(p), search_win_chance=v.searched_win_chance)
                for v, p in zip(values, shown, strict=True)]

    def to_json(self) -> dict[str, Any]:
        """The calibration file's content."""
        return {"format": FORMAT, "terms": list(TERMS),
                "coefficients": {p: self.coefficients[k].tolist()
                                 for k, p in enumerate(PHASES)},
                "value_model": self.model.to_json(), "fit": self.fit}

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
        try:
            model = ValueModel.from_json(data.get("value_model"), f"{what}, value model")
            return cls(coefficients, model, data.get("fit"), what)
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
