"""The fair expectimax agent: chooses from the information state alone.

The search (see ``_kernel``) is expectimax over the player's decisions inside
a room (deterministic) and the refills and flees (chance: a multiset of cards
drawn from the unseen ones, hypergeometric). Depth counts chance nodes
(refills or flees) expanded below the decision. The agent deepens one level
at a time while the previous search was inexact and the next one is
predicted to fit in ``node_budget`` decision nodes; a search that never
needed a leaf evaluation is exact, and the agent reports that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

import scoundrel_core as sc
from scoundrel_core import Action, State, Variant
from scoundrel_core.encoding import NTYPES, TYPE_BITS, card_type
from scoundrel_core.info import InfoState

from ..errors import SolverError
from . import _kernel as K
from .config import AgentConfig, agent_config
from .leaf import LEAF_WIN_BONUS, config_par

if TYPE_CHECKING:
    from .pimc import PimcAgent

__all__ = [
    "ActionValue",
    "FairAgent",
    "card_type",
    "choice",
    "choice_key",
    "info_arrays",
    "known_state",
    "ranked",
    "root_frame",
]

@dataclass(frozen=True)
class ActionValue:
    """One root action as the fair agent sees it.

    ``value`` is the utility the agent maximises, in the search's numbers: the search's
    expected score plus the agent's win bonus (:attr:`AgentConfig.win_bonus`) times the
    search's chance of winning. The search's numbers are
    :attr:`searched_win_chance` (0..1) and :attr:`searched_expected_score`: under the
    agent's own play from here on, the chance of winning and the expected final score
    as the search estimates them; while its leaf decides (many cards unseen) they are
    the leaf's hand-shaped estimates, not expectations. ``exact`` says that the search
    reached every end of the game (no leaf estimate): the numbers are then the true
    ones for that play.

    ``samples`` is 0 for the search's values. In the endgame (:attr:`AgentConfig.endgame`)
    it is the number of dungeon orders sampled: the search's chance is then the share of
    them that the action wins and its expected score the mean best score, each order
    solved as if it were known from here on (optimistic: a player cannot see the order),
    and the agent plays the action that wins most of them, then the best mean score
    (:func:`choice_key`), not the best ``value``. ``exact`` then says that the order is
    known (at most one unseen card) and every solve finished.

    ``win_chance`` and ``expected_score`` are the numbers shown to a player. Where the
    agent's config names a calibration (:attr:`AgentConfig.shown`) they are calibrated on
    the agent's own games (:mod:`.value.shown`): the chance of winning and the expected
    final score a player can read as such (exact values are shown as they are), and the
    search's own are kept in ``search_win_chance`` and ``search_expected_score`` (the
    latter only where the calibration has a map for the score). Otherwise those are None
    and the shown numbers are the search's. ``value`` and the agent's choice always rest
    on the search's numbers.
    """

    action: Action
    value: float
    win_chance: float
    expected_score: float
    exact: bool
    samples: int = 0
    search_win_chance: float | None = None
    search_expected_score: float | None = None

    @property
    def searched_win_chance(self) -> float:
        """The search's chance of winning (the share of orders won, when sampled)."""
        return self.win_chance if self.search_win_chance is None else self.search_win_chance

    @property
    def searched_expected_score(self) -> float:
        """The search's expected final score (the orders' mean best score, when sampled)."""
        return (self.expected_score if self.search_expected_score is None
                else self.search_expected_score)


def _action_value(action: Action, value: float, win: float, exact: bool,
                  bonus: float) -> ActionValue:
    """The row of one action: the kernel gives the utility and the win chance; the
    expected score is what the utility holds beside the win bonus."""
    win = min(1.0, max(0.0, win))  # sums of probabilities may stray by an ulp
    return ActionValue(action, value, win, value - bonus * win, exact)


def info_arrays(info: InfoState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(unseen counts, bottom buffer, cfg) for the kernel."""
    cnt = np.zeros(NTYPES, np.int64)
    for c in info.unseen:
        cnt[card_type(c)] += 1
    bot = np.zeros(K.BOTTOM_CAP, np.int64)
    for i, c in enumerate(info.bottom):
        bot[i] = card_type(c)
    cfg = np.zeros(2, np.int64)
    cfg[K.CFG_FLEE_RULE] = info.variant.flee_code
    cfg[K.CFG_EQUAL] = info.variant.wear_code
    return cnt, bot, cfg


def root_frame(info: InfoState, depth: int) -> np.ndarray:
    """The kernel's frame row of the decision at ``info``, searched ``depth`` refills deep."""
    root = np.zeros(K.NFI, np.int64)
    root[K.FI_OP] = K.OP_DECIDE
    root[K.FI_U] = len(info.unseen)
    for i, c in enumerate(info.room):
        root[K.FI_ROOM] |= card_type(c) << (TYPE_BITS * i)
    root[K.FI_RN] = len(info.room)
    root[K.FI_H] = info.health
    root[K.FI_W] = info.weapon_value
    root[K.FI_LK] = info.last_kill or 0  # 0: the weapon is unused
    root[K.FI_PU] = int(info.potion_used)
    root[K.FI_RES] = info.resolved_in_room
    root[K.FI_FLED] = int(info.fled_last)
    root[K.FI_DEPTH] = depth
    root[K.FI_HI] = len(info.bottom)
    return root


def known_state(info: InfoState) -> State:
    """The true position of an information state with nothing unseen (the whole
    dungeon is the known bottom). The weapon is named as the diamond of its value:
    the only card of that value the weapon can be."""
    if info.unseen:
        raise ValueError(f"{len(info.unseen)} cards are unseen in {info.to_text()}")
    return State.from_parts(
        dungeon=info.bottom, room=info.room, health=info.health,
        weapon=f"{info.weapon_value}D" if info.weapon_value else None,
        last_kill=info.last_kill, potion_used=info.potion_used,
        resolved=info.resolved_in_room, fled=info.fled_last, variant=info.variant,
    )


def _refill_outcomes(info: InfoState) -> int:
    """How many distinct multisets of three cards the unseen cards can give."""
    ways = [1, 0, 0, 0]  # ways[k]: multisets of k cards over the types seen so far
    counts: dict[int, int] = {}
    for c in info.unseen:
        counts[card_type(c)] = counts.get(card_type(c), 0) + 1
    for n in counts.values():
        ways = [sum(ways[k - j] for j in range(min(n, k) + 1)) for k in range(4)]
    return ways[3]


def predicted_nodes(info: InfoState, depth: int) -> float:
    """A memo-free estimate of the decision nodes of a search at ``depth``.

    About 20 decision nodes per refill outcome and level: the first level has
    the exact number of distinct three-card multisets of the unseen cards,
    later ones the number over the card types that can still be there; a
    level with nothing unseen left is deterministic (x10: the room plans).
    """
    u = len(info.unseen)
    kinds = len({card_type(c) for c in info.unseen})
    cost = 1.0
    for i in range(depth):
        left = u - 3 * i
        if left <= 0:
            cost *= 10.0
            continue
        if i == 0:
            m = _refill_outcomes(info)
        else:
            k = min(kinds, left)
            m = k * (k + 1) * (k + 2) // 6
        cost *= 20.0 * max(1, m)
    return cost


def choice_key(v: ActionValue) -> tuple[float, float, int]:
    """The agent's order of choice among one decision's values (the largest is played):
    the best value, and on a tie the lowest action; for sampled values (the endgame)
    the most orders won, then the best mean score, then the lowest action.

    >>> a, b = (ActionValue(sc.Action(i), 10.0 - i, 0.5, 10.0 - i - 200, False) for i in (1, 2))
    >>> max([b, a], key=choice_key) is a
    True
    """
    if v.samples:
        return (v.searched_win_chance, v.searched_expected_score, -int(v.action))
    return (v.value, 0.0, -int(v.action))


def choice(info: InfoState, values: Sequence[ActionValue]) -> ActionValue | None:
    """The value of the action the agent plays among ``values`` of ``info`` (None: none):
    the largest by :func:`choice_key`, except that right after a flee with every card
    known (only ``easy`` can flee again then) a second flee is taken only when its
    exact value is strictly the best. Hints and reviews name the agent's move by this.
    """
    if not values:
        return None
    best = max(values, key=choice_key)
    if best.action.is_flee and info.fled_last and not info.unseen:
        # easy lets a room be fled again and again, and with every card known the
        # values are exact: a flee rotates the dungeon to a position whose best line
        # is finite. So flee again only when that is strictly best; on a tie take the
        # best other action, which leaves any cycle of flees (games end)
        rest = [v for v in values if not v.action.is_flee]
        if rest:
            other = max(rest, key=choice_key)
            if other.value >= best.value:
                best = other
    return best


def ranked(info: InfoState, values: Sequence[ActionValue]) -> list[ActionValue]:
    """``values`` best first as the agent sees them: the action it plays (:func:`choice`)
    first, then the others by :func:`choice_key`. Every hint lists them so."""
    best = choice(info, values)
    rest = sorted((v for v in values if v is not best), key=choice_key, reverse=True)
    return rest if best is None else [best, *rest]


class FairAgent:
    """Expectimax on the information state; deterministic for a given state.

    How it plays a variant is that variant's :class:`~.config.AgentConfig`
    (``config=None``: the table :data:`~.config.AGENT_CONFIGS`; a config given serves
    every variant, a table given serves each variant with its row). The agent searches
    at depth 0 (the leaf evaluation right after this room), then deepens while the
    search is inexact and the next depth is predicted (``predicted_nodes``, which
    ignores the memo, and at least ten times the last search) to fit in the node budget.
    While more than ``deepen_at`` cards are unseen it stays at depth 0, for speed;
    ``max_depth`` caps the depth. Nothing depends on clocks, so the choice is a function
    of the information state.

    In the endgame, from ``endgame`` unseen cards down to one (0: never), the agent
    is PIMC (:class:`~.pimc.PimcAgent` with ``endgame_samples`` orders, seed 0): its
    samples come from the information state alone, so this sees no more than the
    search does. With nothing unseen the values are exact either way.
    """

    def __init__(self, config: AgentConfig | Mapping[Variant, AgentConfig] | None = None
                 ) -> None:
        if config is not None and not isinstance(config, (AgentConfig, Mapping)):
            raise SolverError(f"config {config!r:.60} must be an AgentConfig, a table of "
                              "them by variant, or None")
        self.config = config
        # by samples, cap and margin; built on first use (the exact solver loads then)
        self._pimc: dict[tuple[int, int, int, int, float], PimcAgent] = {}
        self._pars: dict[AgentConfig, np.ndarray] = {}
        if config is not None:
            for c in [config] if isinstance(config, AgentConfig) else config.values():
                self._par(c)  # a bad win model fails here, not in the first game
        self.nodes = 0
        self.memo_limit = 2_000_000
        self._memo = K.new_memo()
        self._memo_key: tuple[int, int, AgentConfig | None] = (-1, -1, None)

    def config_for(self, info: InfoState) -> AgentConfig:
        """The settings the agent plays ``info`` with: the config given, else its variant's
        row of the table given, else of :data:`~.config.AGENT_CONFIGS`."""
        if isinstance(self.config, AgentConfig):
            return self.config
        if self.config is not None:
            return self.config[info.variant]
        return agent_config(info.variant)

    def _par(self, config: AgentConfig) -> np.ndarray:
        par = self._pars.get(config)
        if par is None:
            par = self._pars[config] = config_par(config)
        return par

    def par_for(self, info: InfoState) -> np.ndarray:
        """The kernel's ``par`` row for ``info``: its config's leaf weights, win bonus
        and win model (:func:`~.leaf.config_par`)."""
        return self._par(self.config_for(info))

    def reset(self, seed: int = 0) -> None:
        """Start a new game: forget the memo (also dropped past ``memo_limit`` entries)."""
        del seed
        self._memo = K.new_memo()

    def search(self, info: InfoState, depth: int) -> tuple[list[ActionValue], int]:
        """Every legal action valued at one fixed depth, and the decision nodes used."""
        acts = info.legal_actions()
        if not acts:
            return [], 0
        slots = np.zeros(len(acts), np.int64)
        modes = np.zeros(len(acts), np.int64)
        for i, a in enumerate(acts):
            if a.is_flee:
                modes[i] = 2
            else:
                c = a.card
                assert c is not None
                slots[i] = info.room.index(c)
                modes[i] = 1 if a.with_weapon else 0
        cnt, bot, cfg = info_arrays(info)
        config = self.config_for(info)
        # memo entries hold values under one variant's rules and one config's leaf
        key = (int(cfg[0]), int(cfg[1]), config)
        if key != self._memo_key or len(self._memo) > self.memo_limit:
            self._memo = K.new_memo()
            self._memo_key = key
        out = np.zeros(len(acts), np.float64)
        out_win = np.zeros(len(acts), np.float64)
        exact = np.zeros(len(acts), np.int64)
        stats = np.zeros(2, np.int64)
        par = self._par(config)
        K.search_root(
            root_frame(info, depth), cnt, bot, slots, modes, cfg, par,
            out, out_win, exact, stats,
            self._memo,
        )
        bonus = float(par[LEAF_WIN_BONUS])
        vals = [_action_value(a, float(out[i]), float(out_win[i]), bool(exact[i]), bonus)
                for i, a in enumerate(acts)]
        return vals, int(stats[K.ST_DECISIONS])

    def in_endgame(self, info: InfoState) -> bool:
        """Whether PIMC decides at ``info`` (some card unseen, and few enough)."""
        return 0 < len(info.unseen) <= self.config_for(info).endgame

    def _pimc_agent(self, info: InfoState) -> PimcAgent:
        config = self.config_for(info)
        key = (config.endgame_samples, config.endgame_cap, config.endgame_margin,
               config.endgame_scored, config.endgame_score_margin)
        pimc = self._pimc.get(key)
        if pimc is None:
            from .pimc import PimcAgent  # imported here: the exact kernel loads on use

            samples, cap, margin, scored, score_margin = key
            pimc = self._pimc[key] = PimcAgent(
                samples=int(samples), seed=0, cap=int(max(samples, cap)), margin=int(margin),
                scored=int(max(samples, scored)), score_margin=score_margin)
        return pimc

    def sampled_values(self, info: InfoState) -> list[ActionValue]:
        """Every legal action's PIMC tally as values (see :class:`ActionValue`): the
        share of the sampled orders it wins and its mean best score over them, each
        solved exactly; ``value`` is the utility of those two, in the search's units.
        Where the config races (:attr:`AgentConfig.endgame_cap`) the share counts every
        order the race drew and the mean score the first ``endgame_scored`` of them."""
        pimc = self._pimc_agent(info)
        bonus = float(self.par_for(info)[LEAF_WIN_BONUS])
        known = len(info.unseen) <= 1
        out = []
        for t in pimc.evaluate(info, all_scores=True):
            assert t.total_score is not None  # all_scores
            win = t.wins / t.samples
            score = t.total_score / t.score_samples
            out.append(ActionValue(t.action, score + bonus * win, win, score,
                                   known and not t.unproven, t.samples))
        return out

    def evaluate(self, info: InfoState) -> list[ActionValue]:
        """Every legal action valued by iterative deepening within the node budget.

        With nothing unseen the position is one of perfect information: every
        action is valued exactly by the exact solver (``known_values``). In the
        endgame (:meth:`in_endgame`) the values are PIMC's (``sampled_values``).
        The shown numbers are then calibrated where the config names a calibration
        (:attr:`AgentConfig.shown`; the search's stay in ``search_win_chance`` and
        ``search_expected_score``)."""
        vals = self.search_values(info)
        name = self.config_for(info).shown
        if name is None:
            return vals
        from .value.shown import shipped_shown  # imported here: read on first use

        return shipped_shown(name).values(info, vals)

    def search_values(self, info: InfoState) -> list[ActionValue]:
        """Every legal action's values as the search (or the sampled orders) gives them,
        before any calibration of the shown chance: what :meth:`evaluate` calibrates."""
        if not info.unseen:
            return self.known_values(info)
        if self.in_endgame(info):
            return self.sampled_values(info)
        config = self.config_for(info)
        budget = config.node_budget
        cap = 0 if len(info.unseen) > config.deepen_at else config.max_depth
        depth = 0
        vals, nodes = self.search(info, depth)
        self.nodes += nodes
        while depth < cap and not all(v.exact for v in vals):
            if predicted_nodes(info, depth + 1) > budget:
                break
            if nodes * 10 > budget:  # a deeper search costs at least that
                break
            depth += 1
            vals, nodes = self.search(info, depth)
            self.nodes += nodes
        return vals

    def known_values(self, info: InfoState) -> list[ActionValue]:
        """Every legal action's exact values when nothing is unseen (the dungeon is the
        known bottom): the best score after it, by the exact solver. Maximising the
        score maximises the utility too (a game is won exactly when it scores above
        0), so the value is that score plus the win bonus if it wins."""
        from ..exact.solve import solve_value  # imported here: the exact kernel loads on use

        bonus = float(self.par_for(info)[LEAF_WIN_BONUS])
        state = known_state(info)
        out = []
        for a in info.legal_actions():
            after = sc.apply(state, a)
            score = after.score if after.is_over else solve_value(after)
            assert score is not None  # no node limit: the search always finishes
            win = 1.0 if score > 0 else 0.0
            out.append(ActionValue(a, score + bonus * win, win, float(score), True))
        return out

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        """The action with the best value (ties: lowest action; :func:`choice`) and whether
        it was exact. In the endgame it is PIMC's choice, which solves scores only where wins tie
        (the action of ``max(sampled_values(info), key=choice_key)``, for less)."""
        if self.in_endgame(info):
            return self._pimc_agent(info).choose(info)
        vals = self.search_values(info)  # the choice rests on the search's numbers
        best = choice(info, vals)
        if best is None:
            raise ValueError(f"no legal action in {info.to_text()}")
        return best.action, all(v.exact for v in vals)

    def __call__(self, info: InfoState) -> Action:
        return self.choose(info)[0]
