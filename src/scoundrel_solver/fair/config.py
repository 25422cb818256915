"""The fair agent's settings as data: one frozen :class:`AgentConfig` per variant.

Everything the agent does differently from one variant to another is a field
here, in one table keyed by :class:`~scoundrel_core.Variant`
(:data:`AGENT_CONFIGS`); the agent reads nothing else that depends on the
variant. ``FairAgent()`` plays each variant with its row of the table;
``FairAgent(config)`` plays every variant with the one given, and
``FairAgent(configs_with(node_budget=...))`` each variant with its own row
changed the same way (for experiments).

>>> agent_config("hard/strict").node_budget, agent_config("classic/equal").endgame
(500000, 24)
>>> agent_config("classic/strict").endgame_samples, agent_config("classic/equal").endgame_samples
(8, 16)
>>> from dataclasses import replace
>>> replace(agent_config("classic"), endgame=0).endgame
0
>>> AgentConfig(node_budget=0, deepen_at=30, win_bonus=100.0)
Traceback (most recent call last):
...
scoundrel_solver.errors.SolverError: node_budget 0 must be an integer 1..1,000,000,000

Why each row holds what it holds (the measurements are in docs/fair.md):

- ``classic`` cannot flee the first room of a refill: wins matter most, so its
  win bonus is high; it deepens from 30 unseen cards and plays the endgame by
  sampled orders from 24 unseen cards.
- ``classic/equal`` samples 16 orders in its endgame, not 8: it won more deals
  that way (round fourteen); under strict the gain was within the noise, at a
  quarter more time. Its leaf reads a win model fitted on its own games
  (``classic/equal`` in ``leaf_model.json``): the classic/strict model rated its
  positions far below their realised chance, and its own won more deals (round
  sixteen).
- ``hard`` never flees: a search without flee branches is cheaper, so it gets
  a larger budget and deepens from 40 unseen cards; sampled orders did not
  help it.
- every variant shows calibrated win chances (``shown``): each variant's own games
  were recorded to fit its calibration (the search's chance reads a win model of
  classic games, far too high under hard and far too low under easy). The agent
  wins every easy deal it plays from the start, so easy's games open with a few
  random moves (``scoundrel-value data --explore``) to hold losses to fit on.
- ``easy`` flees at will: its games are long and won anyway, so a small
  budget keeps them quick.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Final

from scoundrel_core.variants import FLEE_RULES, WEAPON_RULES, Variant, get_variant

from ..errors import SolverError
from .samples import MAX_SAMPLES, check_samples

SHOWN: Final = ("classic/strict", "classic/equal", "hard/strict", "hard/equal", "easy/strict",
                "easy/equal")
"""The variants whose shown win chances are calibrated (every one): a calibration fitted
on the agent's games of that variant ships for each (``fair/value/shown-*.json``)."""

__all__ = [
    "AGENT_CONFIGS",
    "EXACT_DEPTH",
    "MAX_NODE_BUDGET",
    "MAX_WIN_BONUS",
    "AgentConfig",
    "LeafWeights",
    "agent_config",
    "configs_with",
]

EXACT_DEPTH: Final = 48
"""A depth (refills) no game reaches: a search this deep is exact."""
MAX_NODE_BUDGET: Final = 10**9
"""The largest node budget a search may be given (hours of search per decision)."""
MAX_WIN_BONUS: Final = 400.0
"""The kernel's memo marks inexact values by adding 1000, so utilities stay below 500."""
MAX_CARDS: Final = 44
"""The size of the deck: no count of unseen cards is larger."""


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SolverError(f"{name} {value!r:.40} must be an integer {low:,}..{high:,}")


def _check_float(name: str, value: object, low: float, high: float) -> None:
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value) or not low <= value <= high):
        raise SolverError(f"{name} {value!r:.40} must be a number {low:g}..{high:g}")


@dataclass(frozen=True)
class LeafWeights:
    """The hand weights of the leaf's score estimate (:mod:`.leaf` explains each term)."""

    potion: float = 0.9
    absorb: float = 1.0
    weapon: float = 0.8
    low_health: float = 0.1
    safe_health: float = 14.0
    kills: int = 3

    def __post_init__(self) -> None:
        for name in ("potion", "absorb", "weapon", "low_health", "safe_health"):
            _check_float(f"leaf weight {name}", getattr(self, name), -1e6, 1e6)
        _check_int("leaf weight kills", self.kills, 0, 14)


@dataclass(frozen=True)
class AgentConfig:
    """How the fair agent plays one variant.

    - ``node_budget``: decision nodes one search may be predicted to use before the
      agent stops deepening;
    - ``deepen_at``: the agent deepens only at or below this many unseen cards
      (above it, one search at depth 0);
    - ``win_bonus``: the utility of a won game on top of its score (it plays to
      win first, for the score second);
    - ``endgame``: at or below this many unseen cards (0: never) the agent plays
      by ``endgame_samples`` sampled dungeon orders, each solved exactly;
    - ``endgame_cap``: where that choice is close (more than one action within
      ``endgame_margin`` wins of the most), the agent draws twice as many orders, again
      and again, up to this many (at most ``endgame_samples``: never more), and counts
      every action's wins on each. The values it shows rest on the same orders;
    - ``endgame_scored``: the mean scores that break ties of wins sum over the first this
      many orders the race drew (at most ``endgame_samples``: the first
      ``endgame_samples``); an exact score costs far more than the question "won?";
    - ``endgame_score_margin``: or over fewer: from the first ``endgame_samples``,
      twice as many while the best two tied actions' totals are within this many points
      an order (infinite: always all ``endgame_scored``);
    - ``max_depth``: the deepest search, in refills (``EXACT_DEPTH``: no cap);
    - ``leaf``: the hand weights of the leaf's score estimate;
    - ``win_model``: the leaf's win model: the name of a model shipped in
      ``leaf_model.json`` (a logistic model, or a win net: ``leaf``), its
      coefficients in ``leaf.FEATURES`` order (optionally followed by a win net's
      hidden units and weights, :func:`.leaf.weights_array`), or None (no model:
      the chance of winning is then a flat 0.5 and only the score ranks leaves);
    - ``shown``: the calibration of the win chance shown for each action, the name of
      one shipped with the package (:data:`.value.shown.SHIPPED`), or None (the
      search's chance as it is). It changes the numbers a player reads, never a move.
    """

    node_budget: int
    deepen_at: int
    win_bonus: float
    endgame: int = 0
    endgame_samples: int = 8
    endgame_cap: int = 0
    endgame_margin: int = 1
    endgame_scored: int = 0
    endgame_score_margin: float = math.inf
    max_depth: int = EXACT_DEPTH
    leaf: LeafWeights = field(default_factory=LeafWeights)
    win_model: str | tuple[float, ...] | None = "classic/strict"
    shown: str | None = None

    def __post_init__(self) -> None:
        _check_int("node_budget", self.node_budget, 1, MAX_NODE_BUDGET)
        _check_int("deepen_at", self.deepen_at, 0, MAX_CARDS)
        _check_int("endgame", self.endgame, 0, MAX_CARDS)
        _check_int("max_depth", self.max_depth, 0, EXACT_DEPTH)
        check_samples(self.endgame_samples, "endgame_samples")
        for name in ("endgame_cap", "endgame_scored"):
            if getattr(self, name):
                check_samples(getattr(self, name), name)
        _check_int("endgame_margin", self.endgame_margin, 0, MAX_SAMPLES)
        if self.endgame_score_margin != math.inf:
            _check_float("endgame_score_margin", self.endgame_score_margin, 0.0, 1e6)
        _check_float("win_bonus", self.win_bonus, 0.0, MAX_WIN_BONUS)
        if not isinstance(self.leaf, LeafWeights):
            raise SolverError(f"leaf {self.leaf!r:.40} must be a LeafWeights")
        model = self.win_model
        if isinstance(model, list):
            object.__setattr__(self, "win_model", model := tuple(model))
        if not (model is None or isinstance(model, (str, tuple))):
            raise SolverError(f"win_model {model!r:.40} must be a model name, "
                              "coefficients or None")
        if self.shown is not None and self.shown not in SHOWN:
            raise SolverError(f"shown {self.shown!r:.40} must be None or a shipped "
                              f"calibration: {', '.join(SHOWN)}")


def _table() -> dict[Variant, AgentConfig]:
    classic = AgentConfig(node_budget=200_000, deepen_at=30, win_bonus=400.0, endgame=24)
    hard = AgentConfig(node_budget=500_000, deepen_at=40, win_bonus=100.0)
    easy = AgentConfig(node_budget=50_000, deepen_at=24, win_bonus=100.0)
    by_flee = {"classic": classic, "hard": hard, "easy": easy}
    assert set(by_flee) == set(FLEE_RULES)
    table = {Variant(flee, rule): by_flee[flee] for flee in FLEE_RULES for rule in WEAPON_RULES}
    equal = Variant("classic", "equal")
    table[equal] = replace(table[equal], endgame_samples=16, win_model="classic/equal")
    # classic/strict races its endgame (round twenty-two): where the wins of the best
    # two actions are within one order, twice as many orders are drawn, up to 32, and
    # their mean scores break ties of wins, raced the same way within a point an order
    strict = Variant("classic", "strict")
    table[strict] = replace(table[strict], endgame_cap=32, endgame_scored=32,
                            endgame_score_margin=1.0)
    # the shown chances are calibrated where the agent's games were recorded to fit them
    for name in SHOWN:
        v = get_variant(name)
        table[v] = replace(table[v], shown=name)
    return table


AGENT_CONFIGS: Final[Mapping[Variant, AgentConfig]] = MappingProxyType(_table())
"""The agent's settings for every variant: the one table the agent reads."""


def agent_config(variant: Variant | str = "classic", weapon_rule: str | None = None) -> AgentConfig:
    """The agent's settings for ``variant`` (a :class:`Variant` or a name such as
    ``"hard/equal"``; the weapon rule defaults to strict)."""
    return AGENT_CONFIGS[get_variant(variant, weapon_rule)]


def configs_with(**changes: object) -> Mapping[Variant, AgentConfig]:
    """Every variant's config with the same fields changed: an agent that differs from
    the default in those settings only, whatever variant it meets (for experiments).

    >>> sorted({c.max_depth for c in configs_with(max_depth=0).values()})
    [0]
    """
    bad = sorted(set(changes) - set(AgentConfig.__dataclass_fields__))
    if bad:
        raise SolverError(f"AgentConfig has no fields {bad}; "
                          f"it has: {', '.join(AgentConfig.__dataclass_fields__)}")
    return MappingProxyType({v: replace(c, **changes)  # type: ignore[arg-type]
                             for v, c in AGENT_CONFIGS.items()})
