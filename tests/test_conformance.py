"""Every engine of the rules, played in lockstep on random games: one conformance test.

In the manner of pgx's ``api_test`` and OpenSpiel's ``random_sim_test``: random
trajectories of every variant (classic, easy, hard x strict, equal) are driven
through every engine at once, the same action everywhere, and at every step
the engines must agree on the legal actions (as actions and as masks), health,
weapon, last kill and reach, room, cards left, potion used, fled, the end of
the game, the score and the rewards summed so far. The engines:

- ``State`` with ``legal_actions``, ``legal_action_mask`` and ``apply``;
- the slow twin ``scoundrel_core.reference`` (the rules written again over lists);
- ``InfoState``, followed by ``observe`` and, on its own game tree, by
  ``InfoState.apply`` and the chance nodes' draws of the true cards;
- the scalar gymnasium env (observation, mask, listed actions, reward);
- the vector env, one lane per game of a batch (its numba kernel ``step_all``);
- the OpenSpiel game (seeded, its chance nodes following the deal); it refuses
  ``easy`` (unbounded games), so easy's games leave it out;
- the exact solver's card step (``exact._kernel.step_children``) and the fair
  search's (``fair._kernel._play_card``, ``_flee``, ``_card_move_ok``,
  ``can_flee``), from the position in front of each action.

A failure names the variant, the deal's seed, the seed of the random choices,
the step and the line played so far.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core import Action, InfoState, State
from scoundrel_core.actions import as_action
from scoundrel_core.cards import Card, Kind
from scoundrel_core.encoding import TYPE_BITS, card_type, flee_rule_code
from scoundrel_core.env import MAX_LEGAL, ScoundrelEnv, ScoundrelVectorEnv, decode, encode
from scoundrel_core.env.observation import WORST_SCORE
from scoundrel_core.info import ChanceNode, observe
from scoundrel_core.reference import (
    RefGame,
    ref_apply,
    ref_legal_actions,
    ref_new_game,
    to_state,
)
from scoundrel_core.rules import legal_ids
from scoundrel_solver import solve
from scoundrel_solver.exact import _kernel as XK
from scoundrel_solver.exact._layout import NP, P_FLED, P_R0
from scoundrel_solver.exact.solve import state_row
from scoundrel_solver.fair import _kernel as FK
from scoundrel_solver.fair.agent import info_arrays, root_frame
from scoundrel_solver.fair.leaf import LEAF_WIN_BONUS, weights_array

try:
    from scoundrel_core.openspiel.game import ScoundrelSpielGame, ScoundrelSpielState

    SPIEL_MISSING = ""
except ImportError as err:  # the extra ``openspiel`` is not installed
    SPIEL_MISSING = f"open_spiel is not importable ({err}); the OpenSpiel game is not compared"

VARIANTS = [(v, w) for v in sc.FLEE_RULES for w in sc.WEAPON_RULES]
MAX_STEPS = 150
"""A trajectory stops comparing after this many actions (easy may flee for a long while)."""
PAR = weights_array()
"""The fair kernel's weights: only the win bonus it adds to a won game's score matters here."""
SPIEL_MAX_SEED = 2**31 - 1
"""The largest seed OpenSpiel's game parameters carry (a C++ int): a larger deal seed is
refused (``test_openspiel_takes_every_deal_seed``), so their games leave OpenSpiel out."""
POLICIES = ("uniform", "careful", "solver")
"""How a trajectory chooses: uniformly among the legal actions; ``careful``, most often
the action leaving the most health; ``solver``, along the exact solver's best line (a
win when the deal is winnable), so that the late rooms and every kind of ending are met."""
CAREFUL = 0.8
SOLVER_NODES = 20_000
"""The solver's node budget for a ``solver`` trajectory: enough to find a win in most deals."""


# -- what each engine says about a position ---------------------------------------------------


def seen_of_state(s: State) -> dict[str, object]:
    return {
        "room": tuple(map(str, s.room)), "health": s.health, "weapon": s.weapon_value,
        "last_kill": s.last_kill, "reach": s.weapon_reach, "potion_used": s.potion_used,
        "resolved": s.resolved_in_room, "fled": s.fled_last, "cards_left": s.dungeon_size,
        "over": s.is_over, "score": s.score,
    }


def seen_of_ref(g: RefGame) -> dict[str, object]:
    """The twin's own fields (its reach shows in its legal actions, compared apart)."""
    return {
        "room": tuple(map(str, g.room)), "health": g.health,
        "weapon": 0 if g.weapon is None else g.weapon.value, "last_kill": g.last_kill,
        "potion_used": g.potion_used, "resolved": g.resolved, "fled": g.fled_last,
        "cards_left": len(g.dungeon), "over": g.over, "score": g.score,
    }


def seen_of_info(i: InfoState, score: int | None) -> dict[str, object]:
    """An information state's fields; ``score`` for an observation's decode, which has none
    (the env pays it as the reward)."""
    return {
        "room": tuple(map(str, i.room)), "health": i.health, "weapon": i.weapon_value,
        "last_kill": i.last_kill, "reach": i.weapon_reach, "potion_used": i.potion_used,
        "resolved": i.resolved_in_room, "fled": i.fled_last, "cards_left": i.dungeon_size,
        "over": i.is_over, "score": i.score if score is None else score,
    }


def by_type(i: InfoState) -> tuple[object, ...]:
    """An information state up to which of two equal monsters a card is (a chance node
    draws a kind and value: the lowest card id of it stands for both)."""
    kv = [(c.kind, c.value) for c in i.room]
    return (i.variant, kv, i.health, i.weapon_value, i.last_kill, i.potion_used,
            i.resolved_in_room, i.fled_last, sorted(Counter((c.kind, c.value)
                                                            for c in i.unseen).items()),
            i.bottom, i.is_over, i.score)


def mask_of(ids: list[int]) -> list[bool]:
    return [a in ids for a in range(sc.NUM_ACTIONS)]


def listed(ids: list[int]) -> list[int]:
    return sorted(ids) + [-1] * (MAX_LEGAL - len(ids))


def types_of(cards: tuple[Card, ...]) -> list[int]:
    return [card_type(c) for c in cards]


def room_types(room: int, n: int) -> list[int]:
    return [int(room >> (TYPE_BITS * k)) & ((1 << TYPE_BITS) - 1) for k in range(n)]


# -- one game, every engine -----------------------------------------------------------------------


@dataclass
class VectorLane:
    """What the vector env returned for one game at one step."""

    obs: np.ndarray
    mask: np.ndarray
    legal: np.ndarray
    reward: float
    terminated: bool
    truncated: bool
    illegal: bool


@dataclass
class Game:
    """One trajectory followed by every engine but the vector env (which plays a batch)."""

    variant: str
    rule: str
    seed: int
    choices: int
    policy: str
    state: State = field(init=False)
    ref: RefGame = field(init=False)
    info: InfoState = field(init=False)
    env: ScoundrelEnv = field(init=False)
    spiel: Any = field(init=False)
    rng: random.Random = field(init=False)
    line: list[Action] = field(default_factory=list)
    plan: list[Action] = field(default_factory=list)
    env_reward: float = 0.0
    vector_reward: float = 0.0
    env_out: tuple[np.ndarray, float, bool, dict[str, Any]] = field(init=False)

    def __post_init__(self) -> None:
        self.state = sc.new_game(seed=self.seed, variant=self.variant, weapon_rule=self.rule)
        self.ref = ref_new_game([str(c) for c in sc.deal(self.seed)], self.variant, self.rule)
        self.info = InfoState.initial(self.state)
        self.env = ScoundrelEnv(self.variant, self.rule)
        obs, env_info = self.env.reset(seed=self.seed)
        self.env_out = (obs, 0.0, False, env_info)
        self.spiel = None
        if not SPIEL_MISSING and self.variant != "easy" and self.seed <= SPIEL_MAX_SEED:
            game = ScoundrelSpielGame(
                {"variant": self.variant, "weapon_rule": self.rule, "seed": self.seed})
            self.spiel = game.new_initial_state()
            self._spiel_draws()
        self.rng = random.Random(self.choices)
        if self.policy == "solver":
            self.plan = [as_action(a) for a in solve(self.state, max_nodes=SOLVER_NODES).line]

    @property
    def where(self) -> str:
        played = " ".join(map(str, self.line[-12:]))
        more = "... " if len(self.line) > 12 else ""
        return (f"{self.variant}/{self.rule} seed={self.seed} choices={self.choices} "
                f"policy={self.policy} step={len(self.line)} line=[{more}{played}] "
                f"at {self.state.to_text()}")

    def same(self, name: str, got: object, want: object) -> None:
        assert got == want, f"{name}: {got!r} != {want!r}\n  {self.where}"

    def choose(self) -> Action:
        """The next action of the trajectory's policy (see ``POLICIES``)."""
        acts = sc.legal_actions(self.state)
        if self.plan:
            return self.plan.pop(0)
        if self.policy == "careful" and self.rng.random() < CAREFUL:
            after = [sc.apply(self.state, a) for a in acts]
            best = max(t.health for t in after)
            return self.rng.choice([a for a, t in zip(acts, after, strict=True)
                                    if t.health == best])
        return self.rng.choice(acts)

    # -- the checks at a position -----------------------------------------------------------

    def check_position(self, lane: VectorLane | None) -> None:
        s, info = self.state, self.info
        want = seen_of_state(s)
        ids = [int(a) for a in sc.legal_actions(s)]
        self.same("legal_ids", legal_ids(s), ids)
        self.same("State mask", sc.legal_action_mask(s).tolist(), mask_of(ids))
        # the slow twin
        ref = seen_of_ref(self.ref)
        self.same("reference", ref, {k: v for k, v in want.items() if k != "reach"})
        self.same("reference legal", ref_legal_actions(self.ref), ids)
        self.same("reference as a State", to_state(self.ref), s)
        # what the player knows
        self.same("InfoState", seen_of_info(info, None), want)
        self.same("InfoState legal", [int(a) for a in info.legal_actions()], ids)
        self.same("InfoState mask", sc.legal_action_mask(info).tolist(), mask_of(ids))
        self.same("InfoState unseen + bottom", sorted(info.unseen, key=lambda c: c.id)
                  + list(info.bottom),
                  sorted(s.dungeon[: len(info.unseen)], key=lambda c: c.id)
                  + list(s.dungeon[len(info.unseen):]))
        # the scalar env
        obs, _, terminated, env_info = self.env_out
        self.same("scalar env obs", obs.tolist(), encode(info).tolist())
        self.same("scalar env info_state", self.env.info_state, info)
        self.same("scalar env decoded", seen_of_info(decode(obs), s.score), want)
        self.same("scalar env mask", env_info["action_mask"].tolist(), mask_of(ids))
        self.same("scalar env action_masks", self.env.action_masks().tolist(), mask_of(ids))
        self.same("scalar env listed", env_info["legal_actions"].tolist(), listed(ids))
        self.same("scalar env terminated", terminated, s.is_over)
        self.same("scalar env illegal", env_info["illegal_action"], False)
        self.same("scalar env return", self.env_reward, float(s.score or 0))
        # the vector env's lane
        if lane is not None:
            self.same("vector obs", lane.obs.tolist(), encode(info).tolist())
            self.same("vector decoded", seen_of_info(decode(lane.obs), s.score), want)
            self.same("vector mask", lane.mask.tolist(), mask_of(ids))
            self.same("vector listed", lane.legal.tolist(), listed(ids))
            self.same("vector terminated", lane.terminated, s.is_over)
            self.same("vector truncated", lane.truncated, False)
            self.same("vector illegal", lane.illegal, False)
            self.same("vector return", self.vector_reward, float(s.score or 0))
        # the OpenSpiel game
        if self.spiel is not None:
            sp: ScoundrelSpielState = self.spiel
            self.same("OpenSpiel info", sp.info, info)
            self.same("OpenSpiel terminal", sp.is_terminal(), s.is_over)
            if s.is_over:
                self.same("OpenSpiel returns", sp.returns(), [float(s.score or 0)])
            else:
                self.same("OpenSpiel player", sp.current_player(), 0)
                self.same("OpenSpiel legal", sp.legal_actions(), ids)
                self.same("OpenSpiel mask", [bool(x) for x in sp.legal_actions_mask(0)],
                          mask_of(ids))
        if not s.is_over:
            self.check_exact_moves(ids)
            self.check_fair_moves(ids)

    def check_exact_moves(self, ids: list[int]) -> None:
        """The exact kernel's moves from here: one per card type and weapon use, and flee
        (easy: runs of flees too)."""
        kids = self.exact_children()
        want = {self.exact_move(Action(a)) for a in ids}
        got = set(kids)
        extra = {m for m in got - want
                 if self.variant == "easy" and m & XK.FLEE_MOVE_BIT and m > XK.FLEE_MOVE_BIT | 1}
        self.same("exact kernel moves", got - extra, want)
        # easy: a run of k flees in a row is one move of the kernel; the first runs are
        # the rules' flees played k times
        for k in (2, 3):
            m = int(XK.FLEE_MOVE_BIT | k)
            if m in extra:
                after = self.state
                for _ in range(k):
                    after = sc.apply(after, sc.FLEE)
                self.same_row(f"exact kernel run of {k} flees", kids[m][2], after)

    def check_fair_moves(self, ids: list[int]) -> None:
        """The fair kernel's moves: one per card type (its first slot) and weapon use."""
        info = self.info
        root = root_frame(info, 1)
        cnt, _, cfg = info_arrays(info)
        bpos = np.array([0, len(info.bottom)], np.int64)
        reach = info.weapon_reach
        got = set()
        for slot in range(len(info.room)):
            for ww in range(2):
                if FK._card_move_ok(root[FK.FI_ROOM], slot, ww, reach):
                    got.add((card_type(info.room[slot]), ww))
        want = {(card_type(a.card), int(a.with_weapon)) for a in map(Action, ids)
                if a.card is not None}
        self.same("fair kernel card moves", got, want)
        flee = FK.can_flee(len(info.unseen), bpos, len(info.room), info.resolved_in_room,
                           int(info.fled_last), cfg)
        self.same("fair kernel flee", bool(flee), sc.FLEE in ids)
        self.same("fair kernel unseen", int(cnt.sum()), len(info.unseen))

    # -- the kernels' steps for one action ----------------------------------------------------

    def exact_move(self, a: Action) -> int:
        if a.is_flee:
            return int(XK.FLEE_MOVE_BIT | 1)
        assert a.card is not None
        return 2 * card_type(a.card) + int(a.with_weapon)

    def exact_children(self) -> dict[int, tuple[bool, int, np.ndarray]]:
        s = self.state
        row = state_row(s)
        kids = np.zeros((XK.MAX_CHILDREN, NP), np.int64)
        bound = np.zeros(XK.MAX_CHILDREN, np.int64)
        move = np.zeros(XK.MAX_CHILDREN, np.int64)
        terminal = np.zeros(XK.MAX_CHILDREN, np.bool_)
        n = XK.step_children(row, kids, bound, move, terminal, flee_rule_code(s.variant),
                             int(s.variant.equal_wear))
        return {int(move[i]): (bool(terminal[i]), int(bound[i]), kids[i].copy())
                for i in range(n)}

    def check_exact_step(self, a: Action, after: State) -> None:
        """The exact kernel's child for ``a`` is ``after`` in the kernel's row form."""
        terminal, value, row = self.exact_children()[self.exact_move(a)]
        self.same(f"exact kernel {a} ends the game", terminal, after.is_over)
        if after.is_over:
            self.same(f"exact kernel {a} score", value, after.score)
            return
        self.same_row(f"exact kernel {a}", row, after)

    def same_row(self, name: str, row: np.ndarray, after: State) -> None:
        """The kernel's row ``row`` is the position ``after``, as ``state_row`` writes it."""
        want = state_row(after)
        if self.variant == "easy":
            want[P_FLED] = row[P_FLED]  # easy: the kernel marks the end of a run of flees
        if not XK.may_flee(row, flee_rule_code(after.variant)):
            # The room's order matters only for a flee (the kernel resolves either card
            # of a type, which may leave the room in another order).
            for r in (row, want):
                r[P_R0: P_R0 + 4] = sorted(r[P_R0: P_R0 + 4])
        self.same(f"{name} row", row.tolist(), want.tolist())

    def check_fair_step(self, a: Action, nxt: InfoState | ChanceNode) -> None:
        """The fair kernel's step for ``a`` is ``InfoState.apply``'s (before any draw)."""
        info = self.info
        fi = np.zeros((FK.MAX_FRAMES, FK.NFI), np.int64)
        ff = np.zeros((FK.MAX_FRAMES, FK.NFV), np.float64)
        fi[0] = root_frame(info, 1)  # depth 1: a refill's draw is a frame, not the leaf
        cnt, bot, _ = info_arrays(info)
        bpos = np.array([0, len(info.bottom)], np.int64)
        pool = FK.new_pool()
        base = nxt.base if isinstance(nxt, ChanceNode) else nxt
        if a.is_flee:
            FK._flee(fi, ff, 0, fi[0, FK.FI_ROOM], bot, bpos, pool)
            self.same("fair kernel flee: bottom", bot[: bpos[1]].tolist(), types_of(base.bottom))
            self.same("fair kernel flee: frame",
                      [fi[1, FK.FI_OP], fi[1, FK.FI_RN], fi[1, FK.FI_FLED], fi[1, FK.FI_NEED]],
                      [FK.OP_DRAW, 0, 1, sc.ROOM_SIZE])
            return
        assert a.card is not None
        slot = info.room.index(a.card)
        outcome, value, win = FK._play_card(fi, ff, 0, slot, int(a.with_weapon), cnt, bot,
                                            bpos, PAR, pool)
        if base.is_over:
            bonus = PAR[LEAF_WIN_BONUS] if base.health > 0 else 0.0
            self.same(f"fair kernel {a} ends the game", outcome, FK.VALUED)
            self.same(f"fair kernel {a} score", value - bonus, float(base.score or 0))
            self.same(f"fair kernel {a} won", win, float(base.health > 0))
            return
        refill = isinstance(nxt, ChanceNode)
        to_draw = nxt.to_draw if isinstance(nxt, ChanceNode) else 0
        self.same(f"fair kernel {a} outcome", outcome, FK.REFILL if refill else FK.SAME_ROOM)
        c = fi[1]
        rn = int(c[FK.FI_RN])
        self.same(f"fair kernel {a} position", {
            "op": c[FK.FI_OP], "room": room_types(int(c[FK.FI_ROOM]), rn), "health": c[FK.FI_H],
            "weapon": c[FK.FI_W], "last_kill": c[FK.FI_LK], "potion_used": c[FK.FI_PU],
            "resolved": c[FK.FI_RES], "fled": c[FK.FI_FLED],
            "to_draw": c[FK.FI_NEED] if refill else 0,
        }, {
            "op": FK.OP_DRAW if refill else FK.OP_DECIDE, "room": types_of(base.room),
            "health": base.health, "weapon": base.weapon_value, "last_kill": base.last_kill or 0,
            "potion_used": int(base.potion_used), "resolved": base.resolved_in_room,
            "fled": int(base.fled_last), "to_draw": to_draw,
        })

    # -- one action, everywhere ----------------------------------------------------------------

    def play(self, a: Action, lane: VectorLane | None) -> None:
        before, info = self.state, self.info
        after = sc.apply(before, a)
        self.check_exact_step(a, after)
        nxt = info.apply(a)
        self.check_fair_step(a, nxt)
        self.line.append(a)
        self.state = after
        self.ref = ref_apply(self.ref, int(a))
        self.info = observe(info, a, after)
        self.check_chance(a, nxt)
        obs, reward, terminated, truncated, env_info = self.env.step(int(a))
        self.same("scalar env truncated", truncated, False)
        self.env_reward += reward
        self.env_out = (obs, reward, terminated, env_info)
        if lane is not None:
            self.vector_reward += lane.reward
        if self.spiel is not None:
            self.spiel.apply_action(int(a))
            self._spiel_draws()
        self.check_position(lane)

    def check_chance(self, a: Action, nxt: InfoState | ChanceNode) -> None:
        """``InfoState.apply`` then the draws of the cards that came equals ``observe``."""
        node: InfoState | ChanceNode = nxt
        drawn: tuple[Card, ...] = ()
        if isinstance(nxt, ChanceNode):
            kept = len(nxt.base.room)
            self.same(f"InfoState.apply({a}) room kept", nxt.base.room, self.info.room[:kept])
            drawn = self.info.room[kept:]
            self.same(f"InfoState.apply({a}) cards to draw", nxt.to_draw, len(drawn))
        for c in drawn:
            assert isinstance(node, ChanceNode), self.where
            odds = dict(node.exact_outcomes())
            self.same("chance odds sum", sum(odds.values()), 1)
            unseen = node.base.unseen
            like = sum(1 for u in unseen if (u.kind, u.value) == (c.kind, c.value))
            want = Fraction(like, len(unseen)) if unseen else Fraction(1)
            self.same(f"chance odds of {c}", odds.get((c.kind, c.value)), want)
            node = node.draw((c.kind, c.value))
        assert isinstance(node, InfoState), f"draws left after the room is full: {self.where}"
        self.same(f"InfoState.apply({a}) and draws", by_type(node), by_type(self.info))

    def _spiel_draws(self) -> None:
        """Play the OpenSpiel game's chance nodes as the deal does."""
        sp = self.spiel
        while sp.is_chance_node():
            c = sp.dealt_outcome()
            outcomes = dict(sp.chance_outcomes())
            assert c in outcomes, f"OpenSpiel: the dealt card {c} is not an outcome: {self.where}"
            sp.apply_action(c)


# -- driving a batch ----------------------------------------------------------------------------


def play_batch(variant: str, rule: str, games: list[tuple[int, int, str]]) -> list[Game]:
    """Play ``(seed, choices seed, policy)`` games of one variant in lockstep, the vector env
    holding all of them, one lane each. Returns the games, played out or cut at MAX_STEPS."""
    lanes = [Game(variant, rule, seed, choices, policy) for seed, choices, policy in games]
    venv = ScoundrelVectorEnv(len(lanes), variant, rule)
    obs, vinfo = venv.reset(seed=[g.seed for g in lanes])
    for i, g in enumerate(lanes):
        g.check_position(VectorLane(obs[i], vinfo["action_mask"][i], vinfo["legal_actions"][i],
                                    0.0, False, False, bool(vinfo["illegal_action"][i])))
    for _ in range(MAX_STEPS):
        live = [not g.state.is_over for g in lanes]
        if not any(live):
            break
        # A game already over is reset by this step (next-step autoreset): its action is
        # ignored and the new game is not followed.
        acts = [g.choose() if on else Action(0) for g, on in zip(lanes, live, strict=True)]
        obs, reward, terminated, truncated, vinfo = venv.step([int(a) for a in acts])
        for i, g in enumerate(lanes):
            if live[i]:
                g.play(acts[i], VectorLane(
                    obs[i], vinfo["action_mask"][i], vinfo["legal_actions"][i],
                    float(reward[i]), bool(terminated[i]), bool(truncated[i]),
                    bool(vinfo["illegal_action"][i])))
    return lanes


@pytest.mark.parametrize(("variant", "rule"), VARIANTS, ids=[f"{v}-{w}" for v, w in VARIANTS])
def test_a_seeded_sweep_agrees_everywhere(variant: str, rule: str) -> None:
    """Seeds 0..23 of each variant, in one vector env, each policy on a third of them."""
    games = [(seed, 1000 + seed, POLICIES[seed % 3]) for seed in range(24)]
    played = play_batch(variant, rule, games)
    # The sweep must meet the game's endings, not only its openings.
    assert any(g.state.won for g in played), f"{variant}/{rule}: no game of the sweep was won"
    assert any(g.state.lost for g in played), f"{variant}/{rule}: no game of the sweep was lost"
    assert any(sc.FLEE in g.line for g in played) or variant == "hard"
    assert any(a.with_weapon for g in played for a in g.line)


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    # half the deals within OpenSpiel's seeds, half anywhere
    games=st.lists(st.tuples(st.integers(0, SPIEL_MAX_SEED) | st.integers(0, sc.MAX_SEED),
                             st.integers(0, 2**32 - 1),
                             st.sampled_from(POLICIES)), min_size=1, max_size=3),
)
def test_random_trajectories_agree_everywhere(
    variant: tuple[str, str], games: list[tuple[int, int, str]]
) -> None:
    play_batch(*variant, games)


def test_illegal_actions_end_the_game_alike() -> None:
    """An illegal action: the scalar and vector envs both end the game with the worst score,
    the rules, the twin and the information state refuse it."""
    s = sc.new_game(seed=4, variant="hard")
    illegal = next(a for a in range(sc.NUM_ACTIONS) if a not in legal_ids(s))
    env = ScoundrelEnv("hard")
    env.reset(seed=4)
    venv = ScoundrelVectorEnv(1, "hard")
    venv.reset(seed=[4])
    _, reward, terminated, _, info = env.step(illegal)
    _, vreward, vterminated, _, vinfo = venv.step([illegal])
    assert (reward, terminated, info["illegal_action"]) == (WORST_SCORE, True, True)
    assert (float(vreward[0]), bool(vterminated[0]), bool(vinfo["illegal_action"][0])) == (
        WORST_SCORE, True, True)
    with pytest.raises(sc.IllegalActionError):
        sc.apply(s, illegal)
    with pytest.raises(sc.IllegalActionError):
        ref_apply(ref_new_game([str(c) for c in sc.deal(4)], "hard"), illegal)
    with pytest.raises(sc.IllegalActionError):
        InfoState.initial(s).apply(illegal)


@pytest.mark.skipif(bool(SPIEL_MISSING), reason=SPIEL_MISSING or "-")
def test_openspiel_refuses_easy_so_easy_is_compared_without_it() -> None:
    with pytest.raises(sc.VariantError, match="easy"):
        ScoundrelSpielGame({"variant": "easy"})
    game = play_batch("classic", "strict", [(7, 7, "solver")])[0]
    assert game.spiel is not None and game.spiel.is_terminal()


def test_the_sweep_covers_every_kind_of_card_and_ending() -> None:
    """The cards resolved across a small sweep include every kind, with and without weapon."""
    played = play_batch("classic", "equal", [(s, s, "careful") for s in range(6)])
    kinds = {a.card.kind for g in played for a in g.line if a.card is not None}
    assert kinds == {Kind.MONSTER, Kind.WEAPON, Kind.POTION}


@pytest.mark.skipif(bool(SPIEL_MISSING), reason=SPIEL_MISSING or "-")
def test_openspiel_takes_every_deal_seed() -> None:
    """The seeds OpenSpiel's 32-bit parameters carry load and deal; a larger deal seed is
    refused clearly (it used to fail in pybind11 with an unnamed RuntimeError), and
    play_deal plays it on the unseeded game."""
    game = ScoundrelSpielGame({"seed": SPIEL_MAX_SEED})
    assert game.deal == sc.new_game(seed=SPIEL_MAX_SEED)
    with pytest.raises(sc.SeedError, match="above 2147483647"):
        ScoundrelSpielGame({"seed": SPIEL_MAX_SEED + 1})
