"""Public facade of fair play: play a deal without peeking, or advise on a position.

Info-state text (read by :func:`advise`): ``State.to_text()``, optionally
followed by ``| bottom=[cards]``. Every dungeon card is unseen, its order
ignored, except the cards named as the known bottom (the rooms the player
fled, in the order they went down), which must end the dungeon::

    classic/strict health=20 weapon=- last=- potion=0 resolved=0 fled=1
    room=[2C 3C 4C 5C] dungeon=[9H 6S 7S 8S 9S] | bottom=[6S 7S 8S 9S]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import scoundrel_core as sc
from scoundrel_core import State
from scoundrel_core.info import InfoState, observe, parse_info_text

from ..errors import SolverError
from .agent import ActionValue, FairAgent
from .baselines import GreedyAgent, RandomAgent
from .config import configs_with
from .pimc import PimcAgent
from .protocol import Agent

__all__ = [
    "FAIR_OPTIONS", "MAX_ACTIONS", "Agent", "FairGame", "advise", "advise_values", "make_agent",
    "play_fair",
    "play_with",
]

MAX_ACTIONS = 5000
"""A game longer than this is a looping agent (``easy`` allows endless flees)."""


@dataclass(frozen=True)
class FairGame:
    """A finished game: the line played, the final score, and per decision
    whether the agent's values were exact (True) or depth-limited (False)."""

    start: str
    actions: tuple[str, ...]
    exact: tuple[bool, ...]
    score: int
    won: bool

    @property
    def line(self) -> str:
        return " ".join(self.actions)


FAIR_OPTIONS = {"node_budget": "node_budget", "max_depth": "max_depth",
                "shallow_above": "deepen_at", "endgame": "endgame",
                "endgame_samples": "endgame_samples", "endgame_cap": "endgame_cap",
                "endgame_margin": "endgame_margin", "endgame_scored": "endgame_scored",
                "endgame_score_margin": "endgame_score_margin"}
"""The options of ``make_agent("fair", ...)`` (the names results files record) and the
:class:`~.config.AgentConfig` field each one changes."""


def make_agent(name: str, **opts: Any) -> Agent:
    """``fair`` (options ``FAIR_OPTIONS``: every variant's config changed the same way),
    ``pimc`` (options of :class:`~.pimc.PimcAgent`: samples, max_nodes, seed), ``value``
    (the one-ply learned policy, options of :class:`~.value.policy.ValuePolicy`: model,
    samples, utility), ``greedy`` or ``random``.

    >>> make_agent("fair", node_budget=1000).config_for(sc.InfoState.from_text(
    ...     "hard/strict health=20 weapon=- last=- potion=0 resolved=0 fled=0 "
    ...     "room=[2C 3C 4C 5C] dungeon=[6C]")).node_budget
    1000
    """
    if name == "fair":
        if not opts:
            return FairAgent()
        unknown = sorted(set(opts) - set(FAIR_OPTIONS))
        if unknown:
            raise SolverError(f"unknown options {unknown} of the fair agent; "
                              f"known: {', '.join(FAIR_OPTIONS)}")
        return FairAgent(configs_with(**{FAIR_OPTIONS[k]: v for k, v in opts.items()}))
    if name == "pimc":
        return PimcAgent(**opts)
    if name == "value":
        from .value.policy import ValuePolicy

        unknown = sorted(set(opts) - {"model", "samples", "utility"})
        if unknown:
            raise SolverError(f"unknown options {unknown} of the value policy; "
                              "known: model, samples, utility")
        return ValuePolicy(**opts)
    if name not in ("greedy", "random"):
        raise SolverError(f"unknown agent {name!r}; known: fair, pimc, value, greedy, random")
    if opts:
        raise SolverError(f"agent {name!r} takes no options, got {sorted(opts)}")
    return GreedyAgent() if name == "greedy" else RandomAgent()


def _start(state_or_seed: State | int, variant: str, weapon_rule: str | None) -> State:
    if isinstance(state_or_seed, State):
        return state_or_seed
    return sc.new_game(seed=state_or_seed, variant=variant, weapon_rule=weapon_rule)


def play_with(
    agent: Agent,
    state_or_seed: State | int,
    variant: str = "classic",
    weapon_rule: str | None = None,
) -> FairGame:
    """Play to the end; the agent sees only what :func:`observe` tells it."""
    s = _start(state_or_seed, variant, weapon_rule)
    agent.reset(state_or_seed if isinstance(state_or_seed, int) else 0)
    info = InfoState.initial(s)
    start = s.to_text()
    acts: list[str] = []
    exact: list[bool] = []
    while not s.is_over:
        if len(acts) >= MAX_ACTIONS:
            raise RuntimeError(f"game not over after {MAX_ACTIONS} actions: {s}")
        a, ex = agent.choose(info)
        nxt = sc.apply(s, a)
        info = observe(info, a, nxt)
        s = nxt
        acts.append(str(a))
        exact.append(ex)
    score = s.score
    assert score is not None
    return FairGame(start, tuple(acts), tuple(exact), score, s.won)


def play_fair(
    state_or_seed: State | int,
    variant: str = "classic",
    weapon_rule: str | None = None,
    agent: FairAgent | None = None,
) -> FairGame:
    """Play a deal (a seed, or a start state whose dungeon order stays hidden) fairly.

    >>> g = play_fair(sc.new_game(deck="5H 2C 3D 4S 6C", partial=True))
    >>> g.won, g.score, all(g.exact)
    (True, 19, True)
    """
    return play_with(agent or FairAgent(), state_or_seed, variant, weapon_rule)


def advise(
    state_text: str | InfoState, agent: FairAgent | None = None
) -> list[tuple[str, float, bool]]:
    """Each legal action's value to the fair agent and whether that value is exact.

    A value is the expected final score plus the agent's ``win_bonus`` (a field of
    its :class:`~.config.AgentConfig`) times the chance of winning: the agent plays
    to win first and for the score second. Below, playing 4H wins with 2 health: 2 + 400.
    :func:`advise_values` gives the chance of winning and the expected final
    score of each action separately as well.

    ``state_text`` is the info-state text of this module's docstring (or an
    InfoState). A position no game can reach raises
    :class:`~scoundrel_core.PositionError`; an ended game has no actions.
    Actions come in the order of ``legal_actions``.

    >>> advise("classic/strict health=5 weapon=- last=- potion=0 resolved=0 fled=0 "
    ...        "room=[4H 7C] dungeon=[]")
    [('7C/f', -2.0, True), ('4H', 402.0, True)]
    """
    return [(str(v.action), v.value, v.exact) for v in advise_values(state_text, agent)]


def advise_values(
    state_text: str | InfoState, agent: FairAgent | None = None
) -> list[ActionValue]:
    """:func:`advise` with every number: each legal action's :class:`~.agent.ActionValue`
    (``action``, ``value``, ``win_chance`` 0..1, ``expected_score``, ``exact``), in the
    order of ``legal_actions``. Same input and errors as :func:`advise`.

    >>> [(str(v.action), v.win_chance, v.expected_score, v.exact) for v in advise_values(
    ...     "classic/strict health=5 weapon=- last=- potion=0 resolved=0 fled=0 "
    ...     "room=[4H 7C] dungeon=[]")]
    [('7C/f', 0.0, -2.0, True), ('4H', 1.0, 2.0, True)]
    """
    if isinstance(state_text, InfoState):
        info = state_text
    elif isinstance(state_text, str):
        info = parse_info_text(state_text)
    else:
        raise sc.StateTextError(f"info-state text {state_text!r:.80} is not text")
    vals = (agent or FairAgent()).evaluate(info)
    for v in vals:
        # Values lie in -221..30 + win bonus, leaf estimates near them; a value this low is
        # the search's "no line" sentinel (a guard: checked positions never give it).
        if not v.value > NO_VALUE:
            raise SolverError(f"no value for {v.action} in {info.to_text()}: got {v.value}")
    return vals


NO_VALUE = -1.0e6
