"""The leaf evaluation of the depth-limited search: a hand formula plus a learned win model.

The agent's utility is the final score plus ``win_bonus`` for a won game (a
field of the variant's :class:`~.config.AgentConfig`):
it plays to win first and for the score second (a game is won or lost; the
score only ranks games of the same outcome). Exact parts of the search
use that utility as it is. At a chance node the search cannot afford to
expand, the leaf estimates it from what the player knows between rooms: the
*pool* (every card still in the room or the dungeon, seen or not), health
``h``, the weapon ``w`` and its reach::

    leaf = score estimate + win_bonus * P(win)

and the search carries the two parts separately (the agent reports each
action's chance of winning and expected final score beside the utility).

**The score estimate** is the hand formula of the first version::

    h - M + potion*P + absorb*A + weapon*W - low_health * max(0, safe_health - h)**2

- ``M``: sum of the monsters in the pool. Health minus M is the potential
  ``phi`` of the exact solver's bound (docs/solver.md): fighting barehanded
  leaves it unchanged, and a loss scores exactly phi at the moment of death.
- ``P``: sum of the potions in the pool, worth ``potion`` < 1 each (one heal
  per room, health capped at 20).
- ``A``: what the equipped weapon can still absorb: min(m, w) summed over the
  ``kills`` strongest distinct monster values in the pool it may still fight.
- ``W``: sum of the weapons in the pool, each worth ``weapon`` per point.
- the last term makes low health costly beyond phi.

Its weights (:class:`~.config.LeafWeights`) were set by hand and a coordinate
search of the depth-0 agent on deals outside the evaluation seeds.

**The win model** is a logistic regression, ``P(win) = 1 / (1 + exp(-c . f))``,
over the features ``FEATURES`` of the same position: health, the sums of the
pool's monsters, potions and weapons, the weapon's absorption ``A``, weapon
value and reach, cards and monsters left, the strongest monster and weapon
left, and the low-health square. Every feature is a function of the pool,
health, weapon and last kill: what the player knows, never the dungeon's
order. The coefficients ship in ``leaf_model.json`` (by name: the config's
``win_model``), fitted by ``scripts/train_fair_leaf.py`` on the outcomes of
the agent's games outside the evaluation seeds, with the label "this game was
won" at every room boundary. (Features tried and never weighed are kept in
``experiments/``, not here.)

**The win net** may take the logistic model's place (a model of ``leaf_model.json``
with a ``net``): one hidden layer of ReLU units over the pool's counts by card type
(``NET_TYPES``) and the player's inputs (``NET_INPUTS``: health, weapon, reach, the
absorption ``A``, the low-health square, the strongest monster and weapon left),
then a logistic output. It sees which monsters are left, not only their sum.
``scripts/train_fair_leaf.py net`` fits it with scikit-learn on the agent's own
recorded games (the label again "this game was won", at each room's first
decision: the pool there is the pool between rooms) and folds the inputs'
standardisation into the first layer. The kernel keeps the hidden units' sum
over the unseen cards and the bottom once per pool, as it keeps the pool's sums,
and adds the room's card and the player's inputs at each leaf.

All terms are sums over the pool, so the leaf is blind to where the cards lie:
fleeing looks neutral to it and is judged by what the expanded rooms reveal.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np

from scoundrel_core import Card, Kind

from .config import MAX_WIN_BONUS, AgentConfig, LeafWeights

__all__ = [
    "DEFAULT_WEIGHTS",
    "FEATURES",
    "LEAF_WEIGHTS",
    "MAX_HIDDEN",
    "MODEL_FILE",
    "NET_INPUTS",
    "NET_TYPES",
    "config_par",
    "leaf_estimate",
    "leaf_features",
    "leaf_value",
    "net_size",
    "net_win_logit",
    "shipped_models",
    "weights_array",
    "win_model_from",
]

MODEL_FILE: Final = "leaf_model.json"
"""The shipped win models, one per variant (written by ``scripts/train_fair_leaf.py``)."""

LEAF_WEIGHTS: Final = (
    "potion", "absorb", "weapon", "low_health", "safe_health", "kills", "win_bonus"
)
"""The weights by name, in the order of the kernel's ``par`` array (``LEAF_*``)."""
LEAF_POTION: Final = 0
LEAF_ABSORB: Final = 1
LEAF_WEAPON: Final = 2
LEAF_LOW_HEALTH: Final = 3
LEAF_SAFE_HEALTH: Final = 4
LEAF_KILLS: Final = 5
LEAF_WIN_BONUS: Final = 6
LEAF_MODEL: Final = 7
"""``par[LEAF_MODEL:LEAF_NET]``: the coefficients of the win model, in ``FEATURES`` order."""

FEATURES: Final = (
    "bias", "health", "monsters", "potions", "weapons", "absorb", "weapon", "reach",
    "cards", "monster_count", "top_monster", "top_weapon", "low",
)
"""What the win model sees of a position between rooms (all from the pool, the
cards not yet resolved, which a player knows without seeing their order)."""
FEAT_BIAS: Final = 0
FEAT_HEALTH: Final = 1
FEAT_MONSTERS: Final = 2
FEAT_POTIONS: Final = 3
FEAT_WEAPONS: Final = 4
FEAT_ABSORB: Final = 5
FEAT_WEAPON: Final = 6
FEAT_REACH: Final = 7
FEAT_CARDS: Final = 8
FEAT_MONSTER_COUNT: Final = 9
FEAT_TOP_MONSTER: Final = 10
FEAT_TOP_WEAPON: Final = 11
FEAT_LOW: Final = 12
LEAF_NET: Final = LEAF_MODEL + len(FEATURES)
"""``par[LEAF_NET]``: the hidden units of the win net (0: no net, the logistic model
decides); the net's weights follow it (:func:`net_size` numbers)."""
NET_TYPES: Final = 32
"""The net's pool inputs, one per card type (monster 2..14 at 1..13, weapon 2..10 at
14..22, potion 2..10 at 23..31; row 0 is no card): how many of each are in the pool."""
NET_INPUTS: Final = ("health", "weapon", "reach", "absorb", "low", "top_monster", "top_weapon")
"""The net's inputs beside the pool's counts: the player's own state and the few
features of the pool that are not sums of its cards."""
MAX_HIDDEN: Final = 64
"""The most hidden units a win net may have (the kernel keeps one row of them per pool)."""
DEFAULT_WEIGHTS: Final[dict[str, float]] = {
    **{name: float(getattr(LeafWeights(), name)) for name in LEAF_WEIGHTS[:LEAF_WIN_BONUS]},
    "win_bonus": 100.0,
}
"""The hand-set weights of the leaf's score estimate by name (:class:`~.config.LeafWeights`),
with a win bonus of 100: the ``par`` row of :func:`weights_array` when none is given."""


def weights_array(
    weights: dict[str, float] | None = None, model: Iterable[float] | None = None
) -> np.ndarray:
    """The weights in the kernel's ``par`` layout (unknown names are an error).

    >>> weights_array({"kills": 2.0})[:LEAF_MODEL].tolist()
    [0.9, 1.0, 0.8, 0.1, 14.0, 2.0, 100.0]
    """
    w = dict(DEFAULT_WEIGHTS)
    if weights:
        bad = set(weights) - set(LEAF_WEIGHTS)
        if bad:
            raise ValueError(
                f"unknown leaf weights {sorted(bad)}; known: {', '.join(LEAF_WEIGHTS)}"
            )
        w.update(weights)
    if not 0.0 <= w["win_bonus"] <= MAX_WIN_BONUS:
        # the kernel's memo marks inexact values by adding 1000: values must stay below 500
        raise ValueError(f"win_bonus must be within 0..{MAX_WIN_BONUS:g}, got {w['win_bonus']}")
    coef = np.zeros(len(FEATURES), np.float64) if model is None else np.array(list(model), float)
    n = len(FEATURES)
    if coef.ndim != 1 or coef.shape[0] < n:
        raise ValueError(f"a win model has {n} coefficients, got {coef.shape}")
    if coef.shape[0] == n:
        coef = np.r_[coef, 0.0]  # no net: the logistic model decides
    else:
        hidden = float(coef[n])
        if not (hidden.is_integer() and 1 <= hidden <= MAX_HIDDEN
                and coef.shape[0] == n + 1 + net_size(int(hidden))):
            raise ValueError(
                f"a win model has {n} coefficients, or those, a net's hidden units "
                f"(1..{MAX_HIDDEN}) and its net_size(hidden) weights; got {coef.shape[0]} "
                f"numbers with {hidden:g} hidden units")
    if not np.isfinite(coef).all():
        raise ValueError("a win model's coefficients must be finite numbers")
    return np.concatenate([np.array([w[name] for name in LEAF_WEIGHTS], np.float64), coef])


def net_size(hidden: int) -> int:
    """How many weights follow ``par[LEAF_NET]`` for a win net of ``hidden`` units: the
    pool's rows (``NET_TYPES`` x hidden), the other inputs' rows (``NET_INPUTS`` x
    hidden), the hidden biases, the output's weights and the output's bias."""
    return hidden * (NET_TYPES + len(NET_INPUTS) + 2) + 1


def _net_type(card: Card) -> int:
    """The row of ``card`` among the net's pool inputs (see ``NET_TYPES``)."""
    if card.kind is Kind.MONSTER:
        return card.value - 1
    return card.value + (12 if card.kind is Kind.WEAPON else 21)


def net_win_logit(pool: Iterable[Card], inputs: Iterable[float], par: np.ndarray) -> float:
    """The win net's logit (the plain-Python twin of the kernel's): one hidden layer of
    ReLU units over the pool's counts by card type and ``inputs`` (``NET_INPUTS``)."""
    hidden = int(par[LEAF_NET])
    o = LEAF_NET + 1
    counts = [0] * NET_TYPES
    for c in pool:
        counts[_net_type(c)] += 1
    x = list(inputs)
    top = o + (NET_TYPES + len(x)) * hidden
    z = float(par[top + 2 * hidden])
    for j in range(hidden):
        s = float(par[top + j])
        for t, k in enumerate(counts):
            s += k * float(par[o + t * hidden + j])
        for i, v in enumerate(x):
            s += v * float(par[o + (NET_TYPES + i) * hidden + j])
        z += float(par[top + hidden + j]) * max(s, 0.0)
    return z


def leaf_features(pool: Iterable[Card], health: int, weapon: int, reach: int,
                  kills: int = 3, safe_health: float = 14.0) -> list[float]:
    """The win model's features of a position between rooms, in ``FEATURES`` order."""
    cards = list(pool)
    monsters = [c.value for c in cards if c.kind is Kind.MONSTER]
    weapons = [c.value for c in cards if c.kind is Kind.WEAPON]
    psum = sum(c.value for c in cards if c.kind is Kind.POTION)
    values = sorted({v for v in monsters if v <= reach})
    top = values[::-1][:kills] if weapon else []
    low = max(0.0, safe_health - health)
    return [
        1.0, health, sum(monsters), psum, sum(weapons), sum(min(v, weapon) for v in top),
        weapon, reach, len(cards), len(monsters), max(monsters, default=0),
        max(weapons, default=0), low * low,
    ]


def leaf_estimate(
    pool: Iterable[Card], health: int, weapon: int, reach: int, par: np.ndarray
) -> tuple[float, float]:
    """The leaf evaluation in plain Python (the reference twin of ``_kernel.leaf``):
    (utility, chance of winning), the utility being the score estimate plus
    ``win_bonus`` times the chance of winning. Without a win model (zero
    coefficients) the chance is the model's 0.5, which the score alone then ranks."""
    pool = list(pool)
    f = leaf_features(pool, health, weapon, reach, int(par[LEAF_KILLS]),
                      float(par[LEAF_SAFE_HEALTH]))
    value = float(
        f[FEAT_HEALTH]
        + par[LEAF_POTION] * f[FEAT_POTIONS]
        + par[LEAF_ABSORB] * f[FEAT_ABSORB]
        + par[LEAF_WEAPON] * f[FEAT_WEAPONS]
        - f[FEAT_MONSTERS]
        - par[LEAF_LOW_HEALTH] * f[FEAT_LOW]
    )
    bonus = float(par[LEAF_WIN_BONUS])
    if par[LEAF_NET] > 0:
        z = net_win_logit(pool, (f[FEAT_HEALTH], f[FEAT_WEAPON], f[FEAT_REACH], f[FEAT_ABSORB],
                                 f[FEAT_LOW], f[FEAT_TOP_MONSTER], f[FEAT_TOP_WEAPON]), par)
    else:
        z = sum(float(c) * x for c, x in zip(par[LEAF_MODEL:LEAF_NET], f, strict=True))
    win = 1.0 / (1.0 + math.exp(-z))
    return (value if bonus == 0.0 else value + bonus * win), win


def leaf_value(
    pool: Iterable[Card], health: int, weapon: int, reach: int, par: np.ndarray
) -> float:
    """The leaf's utility alone (see :func:`leaf_estimate`)."""
    return leaf_estimate(pool, health, weapon, reach, par)[0]


def _model_entry(m: dict[str, Any]) -> tuple[float, ...]:
    """A model of a model file as ``win_model`` coefficients: the logistic model's, then
    the win net's hidden units and weights if it has a net (see :func:`weights_array`)."""
    coef = tuple(float(x) for x in m["coef"])
    net = m.get("net")
    if net is None:
        return coef
    return (*coef, float(int(net["hidden"])), *(float(x) for x in net["weights"]))


@functools.cache
def shipped_models() -> dict[str, tuple[float, ...]]:
    """The win models shipped with the package, by name ("classic/strict"), as
    ``win_model`` coefficients (a model with a net has its net's after them)."""
    data = json.loads(resources.files(__package__).joinpath(MODEL_FILE).read_text())
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{MODEL_FILE} was fitted on features {data['features']}, not {FEATURES}")
    return {name: _model_entry(m) for name, m in data["models"].items()}


def config_par(config: AgentConfig) -> np.ndarray:
    """The kernel's ``par`` row of a config: its leaf weights, win bonus and win model
    (a shipped model by name, or coefficients; an unknown name is an error).

    >>> from scoundrel_solver.fair.config import agent_config
    >>> config_par(agent_config("hard"))[:LEAF_MODEL].tolist()
    [0.9, 1.0, 0.8, 0.1, 14.0, 3.0, 100.0]
    """
    model = config.win_model
    if isinstance(model, str):
        models = shipped_models()
        if model not in models:
            raise ValueError(f"no win model {model!r} in {MODEL_FILE}; "
                             f"shipped: {', '.join(sorted(models))}")
        model = models[model]
    weights = {name: float(getattr(config.leaf, name)) for name in LEAF_WEIGHTS[:LEAF_WIN_BONUS]}
    return weights_array({**weights, "win_bonus": float(config.win_bonus)}, model)


def win_model_from(path: Path, variant: str, name: str | None = None) -> tuple[float, ...]:
    """The win model ``name`` (else that of ``variant``, else classic/strict) in a model
    file written like :data:`MODEL_FILE`, as ``win_model`` coefficients in ``FEATURES``
    order (then its net's, if it has one): a feature the file lacks gets 0, so a model
    fitted on fewer features plays exactly as it did."""
    data = json.loads(path.read_text())
    models = data["models"]
    if name is not None and name not in models:
        raise ValueError(f"{path}: no model {name!r}; it has: {', '.join(sorted(models))}")
    m = models[name] if name is not None else models.get(variant) or models["classic/strict"]
    coef = dict(zip(data["features"], m["coef"], strict=True))
    unknown = set(coef) - set(FEATURES)
    if unknown:
        raise ValueError(f"{path}: features {sorted(unknown)} are not in leaf.FEATURES")
    return _model_entry({**m, "coef": [coef.get(f, 0.0) for f in FEATURES]})
