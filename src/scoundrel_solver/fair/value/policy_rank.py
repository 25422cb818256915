"""A value for the one-ply policy fitted to rank a decision's actions as the search does.

One ply (:class:`~.policy.ValuePolicy`) uses the learned value only to order the
actions of a decision: the action whose next decision states are worth most is
played. A value fitted on absolute targets (:mod:`.policy_fit`) can be close to its
teacher on average and still order siblings wrongly, when they differ by a few
points and its errors are larger. This fit optimises the order itself.

For every decision of the fair agent's games (a decisions file, :mod:`.selfplay`,
each game replayed from its seed) and every legal action, the rows the policy
would evaluate are built as the policy builds them (:func:`decision_rows`): the
decision state after an action inside the room; after an action that ends the room
or a flee, the decision states after the deals, exact when there are at most
``exact`` distinct deals, else ``deals`` deals drawn as the policy draws them (its
first ones), shared by every action of the decision; an action that ends the game
is its true outcome. The model's utility of an action, ``u``, is the weighted mean
of its rows' expected score plus the win bonus times their mean chance of winning,
as the policy computes it; the teacher's, ``U``, the same of the search's values of
that action (the decisions file's ``action_win_chances`` and
``action_expected_scores``).

The loss (:func:`rank_loss`, whose numpy twin is :func:`rank_loss_slow`) is, per
decision, the cross-entropy between ``softmax(U / T)`` and ``softmax(u / T)`` (a
listwise ranking loss: only differences of utility matter), plus ``abs_weight``
times the absolute losses of :func:`.policy_fit.fit_soft` on every action that does
not end the game (log-loss of the mean chance against the search's chance, squared
error of the mean score in units of the score's scale), so that the numbers stay
chances and scores, plus ``l2`` times the squared weights. It is minimised with
Adam in JAX on CPU (the ``train`` extra), by batches of decisions; the fit starts
from a model's weights (the policy's) or from scratch, and keeps the epoch of
lowest held-out regret: the teacher's utility lost, on a tenth of the games, by
playing the model's choice instead of the teacher's.

The result is a :class:`~.model.ValueModel` (two networks and the standardisation)
that the policy plays unchanged. Neither the evaluation seeds nor the deals the fits
are measured on (:data:`MEASURED_SEEDS`) are ever fitted on.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Final

import numpy as np

import scoundrel_core as sc
from scoundrel_core.info import InfoState, observe

from ...errors import SolverError
from ..config import agent_config
from .features import FEATURES, FEATURES_ORDER, feature_names, features_of, features_of_row
from .model import Net, ValueModel
from .policy import MAX_SAMPLES, Deals, dealt_rows

__all__ = [
    "MAX_ACTIONS", "MAX_DECISIONS", "MAX_EPOCHS", "MAX_ROWS", "MEASURED_SEEDS", "RankSet",
    "decision_rows", "fit_rank", "rank_loss", "rank_loss_slow", "rank_set", "rank_set_of_play",
    "rank_set_of_positions", "rank_sets_joined", "with_order",
]

MAX_ACTIONS: Final = 16
"""The most legal actions a decision may have here (a room of four cards has at most nine)."""
MAX_DECISIONS: Final = 2_000_000
"""The most decisions one set may hold."""
MAX_ROWS: Final = 20_000_000
"""The most feature rows one set may hold (float32: 110 features, about 9 GB at most)."""
MAX_EPOCHS: Final = 200
"""The most passes over the decisions one fit may make."""
MEASURED_SEEDS: Final = range(1_900_000, 1_910_000)
"""The training-range deals the policy's fits are measured on (the dev deals and those of
confirmations): never fitted on, as the evaluation seeds."""
_MAX_EXACT: Final = 256  # the policy's own bound on enumerated deals
_F: Final = len(FEATURES)
_WIDTHS: Final = (len(FEATURES), len(FEATURES_ORDER))  # rows of either feature set


@dataclass(frozen=True)
class RankSet:
    """Decisions, their actions and the rows the policy evaluates for them, flat.

    Decision ``d`` owns actions ``decision_actions[d]:decision_actions[d + 1]``; action
    ``a`` owns rows ``action_rows[a]:action_rows[a + 1]`` (none when it ends the game),
    weighted by ``weight`` (summing to 1 over an action's rows). ``ends`` marks the
    actions that end the game, worth ``end_win`` (0 or 1) and ``end_score``;
    ``teacher_win`` and ``teacher_score`` are the search's values of every action;
    ``game`` the seed of each decision's game and ``bonus`` the win bonus. The rows are
    :data:`.features.FEATURES`, or :data:`.features.FEATURES_ORDER` (:attr:`order`)."""

    x: np.ndarray  # rows x features, float32
    weight: np.ndarray  # rows, float32
    action_rows: np.ndarray  # actions + 1, int64
    decision_actions: np.ndarray  # decisions + 1, int64
    ends: np.ndarray  # actions, bool
    end_win: np.ndarray  # actions, float32
    end_score: np.ndarray  # actions, float32
    teacher_win: np.ndarray  # actions, float32
    teacher_score: np.ndarray  # actions, float32
    game: np.ndarray  # decisions, int64
    bonus: float

    @property
    def decisions(self) -> int:
        return len(self.game)

    @property
    def order(self) -> bool:
        """Whether the rows see the known bottom's order."""
        return bool(self.x.shape[1] == len(FEATURES_ORDER))

    def save(self, path: str | Path) -> None:
        """Write the set as one ``.npz`` file."""
        arrays: dict[str, Any] = {f.name: np.asarray(getattr(self, f.name))
                                  for f in fields(self)}
        np.savez(str(path), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> RankSet:
        """The set of a file written by :meth:`save`."""
        with np.load(path) as z:
            arrays: dict[str, Any] = {f.name: (float(z[f.name]) if f.name == "bonus"
                                               else z[f.name]) for f in fields(cls)}
        return cls(**arrays)


def _check_set(rs: RankSet) -> None:
    d, a, r = rs.decisions, len(rs.ends), len(rs.weight)
    if not 1 <= d <= MAX_DECISIONS or r > MAX_ROWS:
        raise SolverError(f"{d:,} decisions and {r:,} rows: 1..{MAX_DECISIONS:,} decisions "
                          f"and at most {MAX_ROWS:,} rows")
    if (rs.x.ndim != 2 or rs.x.shape[0] != r or rs.x.shape[1] not in _WIDTHS
            or rs.action_rows.shape != (a + 1,)
            or rs.decision_actions.shape != (d + 1,)
            or any(len(v) != a for v in (rs.end_win, rs.end_score, rs.teacher_win,
                                         rs.teacher_score))
            or rs.action_rows[-1] != r or rs.decision_actions[-1] != a
            or np.any(np.diff(rs.action_rows) < 0) or np.any(np.diff(rs.decision_actions) < 1)):
        raise SolverError("a ranking set's arrays do not fit together")
    if np.any(np.diff(rs.decision_actions) > MAX_ACTIONS):
        raise SolverError(f"a decision with more than {MAX_ACTIONS} actions")
    if np.any((np.diff(rs.action_rows) == 0) != rs.ends):
        raise SolverError("an action that ends the game has rows, or one that does not has none")
    if (np.any((rs.teacher_win < 0) | (rs.teacher_win > 1))
            or not np.all(np.isfinite(rs.teacher_score)) or not np.all(np.isfinite(rs.x))):
        raise SolverError("teacher win chances must lie in 0..1, scores and features be finite")


def decision_rows(info: InfoState, actions: Sequence[sc.Action], deals: int, exact: int,
                  order: bool = False
                  ) -> list[tuple[tuple[float, float] | None, np.ndarray, np.ndarray]]:
    """For each of ``actions`` at ``info``, as :meth:`.policy.ValuePolicy.evaluate` builds
    them: the true outcome (won 0 or 1, score) of an action that ends the game, else
    ``None``; the feature rows after it (``order``: with the bottom's order) and their
    weights (none for the game's end)."""
    width = len(feature_names(order))
    if not 1 <= deals <= MAX_SAMPLES or not 1 <= exact <= _MAX_EXACT:
        raise SolverError(f"deals {deals} and exact {exact}: 1..{MAX_SAMPLES} deals drawn, "
                          f"1..{_MAX_EXACT} enumerated")
    shared = Deals(info, deals, exact)
    out: list[tuple[tuple[float, float] | None, np.ndarray, np.ndarray]] = []
    for a in actions:
        after = info.apply(a)
        if isinstance(after, InfoState) and after.is_over:
            assert after.score is not None
            out.append(((float(after.health > 0), float(after.score)),
                        np.zeros((0, width)), np.zeros(0)))
        elif isinstance(after, InfoState):
            out.append((None, features_of(after, order)[None, :], np.ones(1)))
        else:
            counts, weights = shared.counts(min(after.to_draw, len(after.base.unseen)))
            out.append((None, dealt_rows(after, counts, order), weights))
    return out


def _check_fitted_seeds(seeds: Sequence[int]) -> None:
    """Refuse the evaluation seeds and the measured ones as training data."""
    from .policy_fit import check_training_seeds

    check_training_seeds(seeds)
    for s in seeds:
        if s in MEASURED_SEEDS:
            raise SolverError(f"seed {s} is a measured deal ({MEASURED_SEEDS.start:,}.."
                              f"{MEASURED_SEEDS.stop - 1:,}): never fit on those")


class _Builder:
    """A ranking set decision by decision."""

    def __init__(self, variant: str, deals: int, exact: int, order: bool = False) -> None:
        self.variant, self.deals, self.exact, self.order = variant, deals, exact, order
        self.xs: list[np.ndarray] = []
        self.weights: list[np.ndarray] = []
        self.n_rows = [0]
        self.n_actions = [0]
        self.ends: list[bool] = []
        self.end_win: list[float] = []
        self.end_score: list[float] = []
        self.t_win: list[float] = []
        self.t_score: list[float] = []
        self.game: list[int] = []

    def add(self, seed: int, info: InfoState, actions: Sequence[sc.Action],
            wins: Sequence[float], scores: Sequence[float]) -> None:
        """One decision: its actions and the teacher's values of each."""
        if not 1 <= len(actions) <= MAX_ACTIONS:
            raise SolverError(f"seed {seed}: a decision of {len(actions)} actions, not "
                              f"1..{MAX_ACTIONS}")
        for (outcome, rows, w), win, score in zip(
                decision_rows(info, actions, self.deals, self.exact, self.order), wins, scores,
                strict=True):
            self.ends.append(outcome is not None)
            self.end_win.append(outcome[0] if outcome else 0.0)
            self.end_score.append(outcome[1] if outcome else 0.0)
            self.t_win.append(float(win))
            self.t_score.append(float(score))
            self.xs.append(rows.astype(np.float32))
            self.weights.append(w.astype(np.float32))
            self.n_rows.append(self.n_rows[-1] + len(w))
        self.n_actions.append(self.n_actions[-1] + len(actions))
        self.game.append(seed)

    def done(self) -> RankSet:
        if not self.game:
            raise SolverError("the build was stopped before its first game")
        width = len(feature_names(self.order))
        rs = RankSet(np.concatenate(self.xs).reshape(-1, width), np.concatenate(self.weights),
                     np.array(self.n_rows, np.int64), np.array(self.n_actions, np.int64),
                     np.array(self.ends, bool), np.array(self.end_win, np.float32),
                     np.array(self.end_score, np.float32), np.array(self.t_win, np.float32),
                     np.array(self.t_score, np.float32), np.array(self.game, np.int64),
                     float(agent_config(self.variant).win_bonus))
        _check_set(rs)
        return rs


def rank_set(games: Sequence[Sequence[dict[str, Any]]], deals: int = 8, exact: int = 16,
             stop: Callable[[], bool] = lambda: False, order: bool = False) -> RankSet:
    """The ranking set of the fair agent's games (each its rows of a decisions file, in
    order of ``decision``): every game replayed from its seed, each decision checked
    against its row. Games of the evaluation seeds are refused. ``stop`` is asked between
    games (a stopped build returns the games done). ``order``: rows with the bottom's
    order (:data:`.features.FEATURES_ORDER`)."""
    if not games:
        raise SolverError("no games to build a ranking set of")
    _check_fitted_seeds([int(g[0]["seed"]) for g in games])
    variants = {r["variant"] for g in games for r in g}
    if len(variants) != 1:
        raise SolverError(f"games of {len(variants)} variants: one a set")
    variant = variants.pop()
    out = _Builder(variant, deals, exact, order)
    for g in games:
        if stop():
            break
        seed = int(g[0]["seed"])
        s = sc.new_game(seed=seed, variant=variant)
        info = InfoState.initial(s)
        for r in g:
            if not np.array_equal(features_of(info), features_of_row(r, variant)):
                raise SolverError(f"seed {seed} of {variant}, decision "
                                  f"{r['decision']}: the replayed game leaves its row")
            out.add(seed, info, [sc.parse_action(info, text) for text in r["actions"]],
                    r["action_win_chances"], r["action_expected_scores"])
            a = sc.parse_action(s, r["action"])
            nxt = sc.apply(s, a)
            info, s = observe(info, a, nxt), nxt
    return out.done()


def rank_set_of_play(choose: Callable[[InfoState], sc.Action], seeds: Sequence[int],
                     variant: str, agent: Any = None, deals: int = 8, exact: int = 16,
                     stop: Callable[[], bool] = lambda: False, order: bool = False
                     ) -> RankSet:
    """The ranking set of the games ``choose`` plays on ``seeds``, every decision labelled
    by the fair agent's search (``agent``, a :class:`~..agent.FairAgent`; default the
    shipped one): the search's values of every legal action (dataset aggregation: the
    positions the policy reaches, which the fair agent's games miss). Evaluation seeds
    are refused; ``stop`` is asked between games."""
    from .policy_fit import MAX_GAMES, policy_positions

    if not 1 <= len(seeds) <= MAX_GAMES:
        raise SolverError(f"{len(seeds):,} games: 1..{MAX_GAMES:,} a call")
    _check_fitted_seeds(seeds)
    positions = ((seed, info) for seed in seeds for info in policy_positions(choose, seed, variant))
    return rank_set_of_positions(positions, variant, agent, deals, exact, stop, order)


def rank_set_of_positions(positions: Iterable[tuple[int, InfoState]], variant: str,
                          agent: Any = None, deals: int = 8, exact: int = 16,
                          stop: Callable[[], bool] = lambda: False, order: bool = False
                          ) -> RankSet:
    """The ranking set of the decision states of ``positions``, each with the seed of the
    game it comes from (the held-out split goes by it), labelled by the fair agent's
    search (``agent``; default the shipped one) as :func:`rank_set_of_play` labels them.
    Evaluation and measured seeds are refused; ``stop`` is asked between positions (a
    stopped build returns the positions done)."""
    from ..agent import FairAgent

    teacher = agent or FairAgent()
    out = _Builder(variant, deals, exact, order)
    for seed, info in positions:
        _check_fitted_seeds([seed])
        if stop():
            break
        if str(info.variant) != str(sc.get_variant(variant)):
            raise SolverError(f"seed {seed}: a position of {info.variant}, not {variant}")
        values = teacher.search_values(info)
        out.add(seed, info, [v.action for v in values],
                [v.searched_win_chance for v in values],
                [v.searched_expected_score for v in values])
    return out.done()


def rank_sets_joined(sets: Sequence[RankSet]) -> RankSet:
    """One set of several (their offsets shifted)."""
    if not sets:
        raise SolverError("no ranking sets to join")
    if len({s.bonus for s in sets}) != 1:
        raise SolverError("ranking sets of different win bonuses")
    if len({s.order for s in sets}) != 1:
        raise SolverError("ranking sets of different features (with and without the order)")
    rows = np.cumsum([0] + [len(s.weight) for s in sets])
    acts = np.cumsum([0] + [len(s.ends) for s in sets])
    joined: dict[str, Any] = {
        k: np.concatenate([getattr(s, k) for s in sets])
        for k in ("x", "weight", "ends", "end_win", "end_score", "teacher_win",
                  "teacher_score", "game")}
    joined["action_rows"] = np.concatenate(
        [[0]] + [s.action_rows[1:] + o for s, o in zip(sets, rows, strict=False)])
    joined["decision_actions"] = np.concatenate(
        [[0]] + [s.decision_actions[1:] + o for s, o in zip(sets, acts, strict=False)])
    out = RankSet(**joined, bonus=sets[0].bonus)
    _check_set(out)
    return out


# -- the loss -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Options:
    temperature: float
    abs_weight: float
    l2: float


def _check_options(temperature: float, abs_weight: float, l2: float) -> _Options:
    if not (math.isfinite(temperature) and 0.01 <= temperature <= 10_000):
        raise SolverError(f"temperature {temperature}: 0.01..10000 points (above 0)")
    if not (math.isfinite(abs_weight) and 0 <= abs_weight <= 1000):
        raise SolverError(f"abs_weight {abs_weight}: 0..1000")
    if not (math.isfinite(l2) and 0 <= l2 <= 1):
        raise SolverError(f"l2 {l2}: 0..1")
    return _Options(float(temperature), float(abs_weight), float(l2))


def _clip(p: Any, xp: Any) -> Any:
    return xp.clip(p, 1e-6, 1 - 1e-6)


def rank_loss_slow(model: ValueModel, rs: RankSet, temperature: float, abs_weight: float,
                   l2: float = 0.0) -> float:
    """The loss of :func:`rank_loss` on a whole set, in numpy, decision by decision (the
    slow twin)."""
    o = _check_options(temperature, abs_weight, l2)
    _check_set(rs)
    x = rs.x.astype(np.float64)
    win = model.win(x, fast=False)
    score = model.score(x, fast=False)
    rank = 0.0
    absolute: list[float] = []
    for d in range(rs.decisions):
        u: list[float] = []
        t: list[float] = []
        for a in range(int(rs.decision_actions[d]), int(rs.decision_actions[d + 1])):
            lo, hi = int(rs.action_rows[a]), int(rs.action_rows[a + 1])
            if rs.ends[a]:
                w, s = float(rs.end_win[a]), float(rs.end_score[a])
            else:
                wt = rs.weight[lo:hi].astype(np.float64)
                w, s = float(wt @ win[lo:hi]), float(wt @ score[lo:hi])
                tw, q = float(rs.teacher_win[a]), min(max(w, 1e-6), 1 - 1e-6)
                absolute.append(-(tw * math.log(q) + (1 - tw) * math.log(1 - q))
                                + ((s - float(rs.teacher_score[a])) / model.score_scale) ** 2)
            u.append((s + rs.bonus * w) / o.temperature)
            t.append((float(rs.teacher_score[a]) + rs.bonus * float(rs.teacher_win[a]))
                     / o.temperature)
        target = np.exp(np.array(t) - max(t))
        target /= target.sum()
        log_q = np.array(u) - (max(u) + math.log(sum(math.exp(v - max(u)) for v in u)))
        rank -= float(target @ log_q)
    total = rank / rs.decisions
    if absolute:
        total += o.abs_weight * sum(absolute) / len(absolute)
    squares = sum(float((w**2).sum()) for n in (model.win_net, model.score_net)
                  for w, _ in n.layers)
    return total + o.l2 * squares


def _jax() -> Any:
    try:
        import jax
    except ImportError:  # pragma: no cover - the train extra is missing
        raise SolverError("the ranking fit needs JAX: pip install 'scoundrel-solver[train]'"
                          ) from None
    if not _REGISTERED:  # a batch passes through jit as a tree of its arrays
        jax.tree_util.register_dataclass(_Batch, data_fields=[f.name for f in fields(_Batch)],
                                         meta_fields=[])
        _REGISTERED.append(True)
    return jax


_REGISTERED: list[bool] = []


def _params_of(model: ValueModel) -> dict[str, list[tuple[np.ndarray, np.ndarray]]]:
    return {k: [(w.astype(np.float32), b.astype(np.float32)) for w, b in n.layers]
            for k, n in (("win", model.win_net), ("score", model.score_net))}


def _model_of(params: Any, start: ValueModel, fit: dict[str, Any]) -> ValueModel:
    nets = {k: Net(tuple((np.asarray(w, np.float64), np.asarray(b, np.float64))
                         for w, b in params[k])) for k in ("win", "score")}
    return ValueModel(start.mean, start.scale, nets["win"], nets["score"], start.score_mean,
                      start.score_scale, fit, order=start.order)


@dataclass(frozen=True)
class _Batch:
    """Decisions padded to ``slots = decisions x MAX_ACTIONS`` actions and to ``rows``
    rows (weight 0), ready for the loss."""

    z: np.ndarray  # rows x features: standardised
    weight: np.ndarray  # rows
    slot: np.ndarray  # rows: the action slot each row belongs to
    real: np.ndarray  # slots: an action
    ends: np.ndarray
    end_win: np.ndarray
    end_score: np.ndarray
    teacher_win: np.ndarray
    teacher_score: np.ndarray
    decision: np.ndarray  # decisions: a real one


def _ranges(starts: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """The concatenated ranges ``starts[i]:stops[i]``."""
    lengths = stops - starts
    if not lengths.sum():
        return np.zeros(0, np.int64)
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    out: np.ndarray = np.arange(int(lengths.sum()), dtype=np.int64) + offsets
    return out


def _batch(rs: RankSet, ds: np.ndarray, size: int, mean: np.ndarray, scale: np.ndarray,
           row_bucket: int = 1024) -> _Batch:
    a0, a1 = rs.decision_actions[ds], rs.decision_actions[ds + 1]
    acts = _ranges(a0, a1)
    k = np.arange(len(acts)) - np.repeat(np.cumsum(a1 - a0) - (a1 - a0), a1 - a0)
    slots = np.repeat(np.arange(len(ds)), a1 - a0) * MAX_ACTIONS + k
    r0, r1 = rs.action_rows[acts], rs.action_rows[acts + 1]
    rows = _ranges(r0, r1)
    n = len(rows)
    padded = max(row_bucket, -(-n // row_bucket) * row_bucket)
    z = np.zeros((padded, rs.x.shape[1]), np.float32)
    z[:n] = (rs.x[rows] - mean) / scale
    weight = np.zeros(padded, np.float32)
    weight[:n] = rs.weight[rows]
    slot = np.zeros(padded, np.int32)
    slot[:n] = np.repeat(slots, r1 - r0)
    n_slots = size * MAX_ACTIONS

    def spread(v: np.ndarray, dtype: Any) -> np.ndarray:
        out = np.zeros(n_slots, dtype)
        out[slots] = v
        return out

    decision = np.zeros(size, bool)
    decision[: len(ds)] = True
    return _Batch(z, weight, slot, spread(np.ones(len(acts), bool), bool),
                  spread(rs.ends[acts], bool), spread(rs.end_win[acts], np.float32),
                  spread(rs.end_score[acts], np.float32),
                  spread(rs.teacher_win[acts], np.float32),
                  spread(rs.teacher_score[acts], np.float32), decision)


def _forward(layers: Any, z: Any) -> Any:
    import jax.numpy as jnp

    for i, (w, b) in enumerate(layers):
        z = z @ w + b
        if i < len(layers) - 1:
            z = jnp.maximum(z, 0.0)
    return z[:, 0]


def _loss_parts(params: Any, batch: _Batch, o: _Options, bonus: float, s_mean: float,
                s_scale: float) -> tuple[Any, Any, Any, Any]:
    """(rank loss, absolute loss, squared weights, utilities by slot) of one batch."""
    import jax
    import jax.numpy as jnp

    n_slots = batch.real.shape[0]
    win_r = jax.nn.sigmoid(_forward(params["win"], batch.z))
    score_r = s_mean + s_scale * _forward(params["score"], batch.z)
    win = jax.ops.segment_sum(batch.weight * win_r, batch.slot, n_slots)
    score = jax.ops.segment_sum(batch.weight * score_r, batch.slot, n_slots)
    win = jnp.where(batch.ends, batch.end_win, win)
    score = jnp.where(batch.ends, batch.end_score, score)
    u = (score + bonus * win) / o.temperature
    t = (batch.teacher_score + bonus * batch.teacher_win) / o.temperature
    shape = (-1, MAX_ACTIONS)
    mask = batch.real.reshape(shape)
    u2 = jnp.where(mask, u.reshape(shape), -jnp.inf)
    t2 = jnp.where(mask, t.reshape(shape), -jnp.inf)
    target = jax.nn.softmax(t2, axis=1)
    log_q = jax.nn.log_softmax(u2, axis=1)
    per = -jnp.sum(jnp.where(mask, target * log_q, 0.0), axis=1)
    decisions = batch.decision
    rank = jnp.sum(jnp.where(decisions, per, 0.0)) / jnp.maximum(jnp.sum(decisions), 1)
    inner = batch.real & ~batch.ends
    q = _clip(win, jnp)
    tw = batch.teacher_win
    each = (-(tw * jnp.log(q) + (1 - tw) * jnp.log(1 - q))
            + ((score - batch.teacher_score) / s_scale) ** 2)
    absolute = jnp.sum(jnp.where(inner, each, 0.0)) / jnp.maximum(jnp.sum(inner), 1)
    squares = sum(jnp.sum(w**2) for k in ("win", "score") for w, _ in params[k])
    return rank, absolute, squares, u * o.temperature


def rank_loss(model: ValueModel, rs: RankSet, temperature: float, abs_weight: float,
              l2: float = 0.0) -> tuple[float, dict[str, list[tuple[np.ndarray, np.ndarray]]]]:
    """The loss of ``model`` on the whole set ``rs`` (one batch) and its gradient by the
    weights of each network (``{"win": [(dW, db), ...], "score": [...]}``), by JAX in
    float32: the rank loss (mean over decisions) + ``abs_weight`` x the absolute loss
    (mean over actions that do not end the game) + ``l2`` x the squared weights."""
    o = _check_options(temperature, abs_weight, l2)
    _check_set(rs)
    # decisions padded to a power of two: sets of like size share one compiled loss
    size = max(8, 1 << (rs.decisions - 1).bit_length())
    batch = _batch(rs, np.arange(rs.decisions), size, model.mean, model.scale)
    scalars = np.array([o.temperature, o.abs_weight, o.l2, rs.bonus, model.score_mean,
                        model.score_scale], np.float32)
    value, grad = _loss_and_grad()(_params_of(model), batch, scalars)
    return float(value), {k: [(np.asarray(w), np.asarray(b)) for w, b in grad[k]]
                          for k in ("win", "score")}


@functools.cache
def _loss_and_grad() -> Any:
    """The whole loss and its gradient by the weights, compiled once a shape: the options,
    win bonus and score scale are traced numbers (``scalars``), not constants."""
    jax = _jax()

    def total(params: Any, batch: _Batch, scalars: Any) -> Any:
        t, abs_weight, l2, bonus, s_mean, s_scale = (scalars[i] for i in range(6))
        rank, absolute, squares, _ = _loss_parts(params, batch, _Options(t, abs_weight, l2),
                                                 bonus, s_mean, s_scale)
        return rank + abs_weight * absolute + l2 * squares

    return jax.jit(jax.value_and_grad(total))


def _scratch(rs: RankSet, hidden: Sequence[int], score_hidden: Sequence[int], seed: int
             ) -> ValueModel:
    """A model to start from when none is given: the standardisation of the set's rows
    and scores, He-initialised layers (``hidden`` widths for the win network,
    ``score_hidden`` for the score's)."""
    from .train import check_hidden

    check_hidden(hidden)
    check_hidden(score_hidden)
    x = rs.x.astype(np.float64)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    s = rs.teacher_score.astype(np.float64)
    rng = np.random.default_rng(seed)

    def net(hidden: Sequence[int]) -> Net:
        widths = [rs.x.shape[1], *hidden, 1]
        return Net(tuple((rng.normal(0, math.sqrt(2 / i), (i, o)), np.zeros(o))
                         for i, o in itertools.pairwise(widths)))

    return ValueModel(mean, scale, net(hidden), net(score_hidden), float(s.mean()),
                      float(s.std() or 1.0), order=rs.order)


def with_order(model: ValueModel, rs: RankSet) -> ValueModel:
    """``model`` made to read the bottom's order as well, playing exactly as before: the
    new inputs standardised by the rows of ``rs`` and weighted 0 in the first layer of each
    network, so that a fit may start from it."""
    if model.order:
        return model
    if not rs.order:
        raise SolverError("with_order needs a set of rows with the bottom's order")
    extra = rs.x[:, _F:].astype(np.float64)
    mean = np.concatenate([model.mean, extra.mean(axis=0)])
    spread = extra.std(axis=0)
    spread[spread == 0] = 1.0
    scale = np.concatenate([model.scale, spread])

    def widened(net: Net) -> Net:
        (w, b), *rest = net.layers
        w2 = np.concatenate([w, np.zeros((extra.shape[1], w.shape[1]))])
        return Net(((w2, b), *rest))

    return ValueModel(mean, scale, widened(model.win_net), widened(model.score_net),
                      model.score_mean, model.score_scale, model.fit, order=True)


def fit_rank(rs: RankSet, start: ValueModel | None = None, *, temperature: float = 10.0,
             abs_weight: float = 1.0, l2: float = 0.0, epochs: int = 10,
             batch_decisions: int = 256, learning_rate: float = 3e-4,
             hidden: Sequence[int] = (64,), score_hidden: Sequence[int] | None = None,
             seed: int = 0, fit: dict[str, Any] | None = None,
             log: Callable[[str], None] | None = None) -> ValueModel:
    """Fit a value on the ranking set ``rs`` by the loss of :func:`rank_loss`, from the
    weights and standardisation of ``start`` (else from scratch with ``hidden`` widths),
    (``score_hidden`` for the score's network, default the same), ``epochs`` passes over
    the training decisions in batches of ``batch_decisions`` (Adam,
    ``learning_rate``). A tenth of the games is held out; the weights of the epoch of
    lowest held-out regret are kept (epoch 0: the start). The model's ``fit`` record adds
    the options, the rows and the held-out figures of each epoch to ``fit``."""
    jax = _jax()
    import optax

    from .train import split_by_game

    o = _check_options(temperature, abs_weight, l2)
    _check_set(rs)
    if not 1 <= epochs <= MAX_EPOCHS:
        raise SolverError(f"epochs {epochs}: 1..{MAX_EPOCHS}")
    if not 1 <= batch_decisions <= 100_000:
        raise SolverError(f"batch_decisions {batch_decisions}: 1..100000")
    if not (math.isfinite(learning_rate) and 0 < learning_rate <= 1):
        raise SolverError(f"learning_rate {learning_rate}: above 0, at most 1")
    score_hidden = hidden if score_hidden is None else score_hidden
    model = start if start is not None else _scratch(rs, hidden, score_hidden, seed)
    if model.order != rs.order:
        raise SolverError("the start model and the set have different features (with and "
                          "without the bottom's order; with_order widens a model)")
    mean, scale = model.mean.astype(np.float32), model.scale.astype(np.float32)
    train, val = split_by_game(rs.game, seed)
    train_d, val_d = np.flatnonzero(train), np.flatnonzero(val)
    size = min(batch_decisions, len(train_d))
    s_mean, s_scale, bonus = model.score_mean, model.score_scale, rs.bonus

    def total(params: Any, batch: _Batch) -> Any:
        rank, absolute, squares, _ = _loss_parts(params, batch, o, bonus, s_mean, s_scale)
        return rank + o.abs_weight * absolute + o.l2 * squares

    opt = optax.adam(learning_rate)

    def one_step(params: Any, state: Any, batch: _Batch) -> tuple[Any, Any, Any]:
        value, grad = jax.value_and_grad(total)(params, batch)
        updates, state = opt.update(grad, state, params)
        return optax.apply_updates(params, updates), state, value

    def one_judgement(params: Any, batch: _Batch) -> tuple[Any, Any, Any]:
        rank, absolute, _, u = _loss_parts(params, batch, o, bonus, s_mean, s_scale)
        return rank, absolute, u

    step, judge = jax.jit(one_step), jax.jit(one_judgement)

    val_batches = [_batch(rs, val_d[i:i + size], size, mean, scale)
                   for i in range(0, len(val_d), size)]

    def held_out(params: Any) -> dict[str, float]:
        rank = absolute = regret = agree = 0.0
        for b in val_batches:
            n = int(b.decision.sum())
            r, ab, u = judge(params, b)
            u = np.where(b.real, np.asarray(u), -np.inf).reshape(-1, MAX_ACTIONS)[:n]
            t = np.where(b.real, b.teacher_score + bonus * b.teacher_win,
                         -np.inf).reshape(-1, MAX_ACTIONS)[:n]
            pick = u.argmax(axis=1)
            regret += float((t.max(axis=1) - t[np.arange(n), pick]).sum())
            agree += float((t[np.arange(n), pick] >= t.max(axis=1)).sum())
            rank += float(r) * n
            absolute += float(ab) * n  # by decisions: near enough for a progress figure
        return {"rank_loss": rank / len(val_d), "abs_loss": absolute / len(val_d),
                "regret": regret / len(val_d), "agreement": agree / len(val_d)}

    params = jax.tree_util.tree_map(lambda v: jax.numpy.asarray(v), _params_of(model))
    state = opt.init(params)
    rng = np.random.default_rng(seed)
    history = [{"epoch": 0, **held_out(params)}]
    best = (history[0]["regret"], 0, params)
    if log:
        log(f"epoch 0: {history[0]}")
    for epoch in range(1, epochs + 1):
        t0 = time.time()
        order = rng.permutation(train_d)
        losses = []
        for i in range(0, len(order) - size + 1, size):  # whole batches: one compiled shape
            params, state, value = step(params, state,
                                        _batch(rs, np.sort(order[i:i + size]), size, mean,
                                               scale))
            losses.append(float(value))
        history.append({"epoch": epoch, "train_loss": float(np.mean(losses)),
                        **held_out(params)})
        if log:
            log(f"epoch {epoch} ({time.time() - t0:.0f}s): {history[-1]}")
        if history[-1]["regret"] < best[0]:
            best = (history[-1]["regret"], epoch, params)
    record = {**(fit or {}),
              "targets": "search values of every action: listwise rank loss + absolute losses",
              "start": ("given model" if start is not None
                        else f"scratch {list(hidden)}, score {list(score_hidden)}"),
              "temperature": o.temperature, "abs_weight": o.abs_weight, "l2": o.l2,
              "epochs": epochs, "batch_decisions": batch_decisions,
              "learning_rate": learning_rate, "random_state": seed,
              "decisions": rs.decisions, "actions": len(rs.ends), "rows": len(rs.weight),
              "validation_decisions": len(val_d), "kept_epoch": best[1], "history": history}
    return _model_of(best[2], model, record)
