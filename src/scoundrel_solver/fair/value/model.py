"""The learned value: a small network over the features, its JSON file, and its inference.

A model predicts, from what a player sees at a decision (:data:`.features.FEATURES`),
the chance of winning and the expected final score under the fair agent's own play.
It is two small networks (ReLU hidden layers, a linear output): the chance of
winning is the logistic of the first's output, the expected score the second's
output rescaled. Inputs are standardised by the ``mean`` and ``scale`` the file holds.

The file is JSON of plain arrays (``format`` :data:`FORMAT`), written by
:mod:`.train` with the record of its fit (data file, seeds, commit, command).

Inference has two twins behind one facade (:class:`ValueModel`): plain numpy
(``fast=False``) over the file's nested lists, and the numba kernel (:mod:`._net`)
over flat arrays; tests compare them on many generated positions.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from ...errors import SolverError
from .features import FEATURES, FEATURES_ORDER, feature_names
from .files import read_json

__all__ = ["FORMAT", "MAX_LAYER", "MAX_LAYERS", "Net", "ValueModel", "load_model"]

FORMAT: Final = "scoundrel-value-model/1"
"""The ``format`` of a model file: a reader refuses files of another."""
MAX_LAYERS: Final = 8
"""The most layers a network of a model file may have."""
MAX_LAYER: Final = 1024
"""The widest layer a model file may have (a file is read whole into memory)."""
_MAX_ROWS: Final = 10_000_000
"""The most positions one call may evaluate (80 bytes a feature: about 9 GB at 110)."""


@dataclass(frozen=True)
class Net:
    """One network: its layers as (weights ``inputs x outputs``, bias) pairs, and its flat
    form for the kernel."""

    layers: tuple[tuple[np.ndarray, np.ndarray], ...]
    weights: np.ndarray = field(init=False, repr=False)
    shapes: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        flat = [a for w, b in self.layers for a in (w.ravel(), b)]
        object.__setattr__(self, "weights", np.ascontiguousarray(np.concatenate(flat)))
        object.__setattr__(self, "shapes", np.array([w.shape for w, _ in self.layers],
                                                    np.int64).reshape(-1, 2))

    def folded(self, mean: np.ndarray, scale: np.ndarray) -> Net:
        """The same network on raw features: the standardisation folded into the first
        layer (``(x - mean) / scale @ W + b`` is ``x @ (W / scale) + (b - mean / scale @ W)``),
        so the kernel skips the inputs that are 0 (most of the counts by kind)."""
        (w, b), *rest = self.layers
        w2 = w / scale[:, None]
        return Net(((w2, b - mean @ w2), *rest))

    def forward(self, z: np.ndarray) -> np.ndarray:
        """The output (before its link) of standardised rows ``z``: the slow twin."""
        for i, (w, b) in enumerate(self.layers):
            z = z @ w + b
            if i < len(self.layers) - 1:
                z = np.maximum(z, 0.0)
        return np.asarray(z[:, 0])

    def to_json(self) -> list[dict[str, Any]]:
        """The layers as the model file keeps them: nested lists of numbers."""
        return [{"weights": w.tolist(), "bias": b.tolist()} for w, b in self.layers]

    @classmethod
    def from_json(cls, layers: Any, inputs: int, what: str) -> Net:
        """The network of a model file's layers, checked: shapes that chain from ``inputs``
        to one output, finite numbers (errors name ``what``)."""
        if not isinstance(layers, list) or not 1 <= len(layers) <= MAX_LAYERS:
            raise SolverError(f"{what}: a network has 1..{MAX_LAYERS} layers")
        out = []
        width = inputs
        for k, layer in enumerate(layers):
            try:
                w = np.array(layer["weights"], np.float64)
                b = np.array(layer["bias"], np.float64)
            except (TypeError, KeyError, ValueError):
                raise SolverError(f"{what}: layer {k} is not weights and bias of numbers"
                                  ) from None
            last = k == len(layers) - 1
            if (w.ndim != 2 or w.shape[0] != width or not 1 <= w.shape[1] <= MAX_LAYER
                    or b.shape != (w.shape[1],) or (last and w.shape[1] != 1)):
                raise SolverError(f"{what}: layer {k} has shape {w.shape} and bias "
                                  f"{b.shape}; expected {width} inputs"
                                  + (" and one output" if last else ""))
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise SolverError(f"{what}: layer {k} holds a number that is not finite")
            out.append((w, b))
            width = w.shape[1]
        return cls(tuple(out))


class ValueModel:
    """A learned value: ``win(x)`` and ``score(x)`` for rows of its :attr:`features`,
    :data:`FEATURES` or, for a value that sees the known bottom's order (``order``),
    :data:`FEATURES_ORDER`.

    ``fast`` picks the numba kernel (default) or the numpy twin; both give the same
    numbers to rounding. Rows are checked: the right width, finite numbers.
    """

    def __init__(self, mean: np.ndarray, scale: np.ndarray, win_net: Net, score_net: Net,
                 score_mean: float, score_scale: float,
                 fit: Mapping[str, Any] | None = None, order: bool = False) -> None:
        self.order = bool(order)
        self.features = feature_names(self.order)
        self.mean = np.ascontiguousarray(mean, np.float64)
        self.scale = np.ascontiguousarray(scale, np.float64)
        n = len(self.features)
        if self.mean.shape != (n,) or self.scale.shape != (n,):
            raise SolverError(f"a value model standardises {n} features")
        if not (np.isfinite(self.mean).all() and np.isfinite(self.scale).all()
                and (self.scale > 0).all()):
            raise SolverError("a value model's mean and scale must be finite, scale above 0")
        if not (math.isfinite(score_mean) and math.isfinite(score_scale) and score_scale > 0):
            raise SolverError("a value model's score mean and scale must be finite, scale > 0")
        self.win_net, self.score_net = win_net, score_net
        self.score_mean, self.score_scale = float(score_mean), float(score_scale)
        self.fit = dict(fit or {})
        # the kernel's networks take raw features (the numpy twin standardises them)
        self._fast = {id(n): n.folded(self.mean, self.scale) for n in (win_net, score_net)}
        widest = max(int(n.shapes.max()) for n in (win_net, score_net))
        self._a = np.zeros(widest, np.float64)
        self._b = np.zeros(widest, np.float64)

    # -- the facade --------------------------------------------------------------------

    def _rows(self, x: Any) -> np.ndarray:
        a = np.asarray(x, dtype=np.float64)
        if a.ndim == 1:
            a = a[None, :]
        if a.ndim != 2 or a.shape[1] != len(self.features):
            raise SolverError(f"positions must be rows of {len(self.features)} features, "
                              f"got shape {a.shape}")
        if a.shape[0] > _MAX_ROWS:
            raise SolverError(f"{a.shape[0]:,} positions at once; at most {_MAX_ROWS:,}")
        if not np.isfinite(a).all():
            raise SolverError("positions hold a number that is not finite")
        return np.ascontiguousarray(a)

    def _out(self, net: Net, x: np.ndarray, fast: bool) -> np.ndarray:
        if not fast:
            return net.forward((x - self.mean) / self.scale)
        from ._net import net_batch

        out = np.zeros(x.shape[0], np.float64)
        fast_net = self._fast[id(net)]
        net_batch(x, fast_net.weights, fast_net.shapes, self._a, self._b, out)
        return out

    def win(self, x: Any, fast: bool = True) -> np.ndarray:
        """The chance of winning (0..1) at each row of features."""
        z = self._out(self.win_net, self._rows(x), fast)
        return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -500.0, 500.0))))

    def score(self, x: Any, fast: bool = True) -> np.ndarray:
        """The expected final score at each row of features."""
        z = self._out(self.score_net, self._rows(x), fast)
        return np.asarray(self.score_mean + self.score_scale * z)

    # -- the file ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The model file's content (``format`` :data:`FORMAT`)."""
        return {"format": FORMAT, "features": list(self.features), "mean": self.mean.tolist(),
                "scale": self.scale.tolist(), "activation": "relu",
                "win": {"output": "logistic", "layers": self.win_net.to_json()},
                "score": {"output": "identity", "mean": self.score_mean,
                          "scale": self.score_scale, "layers": self.score_net.to_json()},
                "fit": self.fit}

    def save(self, path: str | Path) -> None:
        """Write the model file (JSON)."""
        Path(path).write_text(json.dumps(self.to_json()) + "\n")

    @classmethod
    def from_json(cls, data: Any, what: str = "value model") -> ValueModel:
        """The model of a model file's content, checked whole (errors name ``what``)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SolverError(f"{what} is not a {FORMAT} file")
        names = data.get("features")
        if names not in (list(FEATURES), list(FEATURES_ORDER)):
            raise SolverError(f"{what} was fitted on other features than these "
                              f"{len(FEATURES)} (or {len(FEATURES_ORDER)} with the bottom's "
                              "order)")
        try:
            n = len(names)
            win = Net.from_json(data["win"]["layers"], n, f"{what}, win")
            score = Net.from_json(data["score"]["layers"], n, f"{what}, score")
            return cls(np.array(data["mean"], np.float64), np.array(data["scale"], np.float64),
                       win, score, float(data["score"]["mean"]), float(data["score"]["scale"]),
                       data.get("fit"), order=n == len(FEATURES_ORDER))
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, SolverError):
                raise
            raise SolverError(f"{what}: missing or malformed {err}") from None


def load_model(path: str | Path) -> ValueModel:
    """The model of a JSON file written by :meth:`ValueModel.save` (checked whole)."""
    data = read_json(path, "value model")
    return ValueModel.from_json(data, f"value model {str(Path(path))!r}")
