"""The one-ply learned policy: each action valued by the learned value of what follows it.

:class:`ValuePolicy` looks one action ahead and no deeper. For each legal action
it takes the information state right after it and asks the learned value
(:mod:`.model`; by default its own, :data:`POLICY_MODEL`) for its chance of winning
and expected final score:

- an action that ends the game is worth its true outcome (won or lost, its score);
- an action that leaves the room undealt leads to one decision state, valued as it is;
- an action that ends the room (the refill is dealt) or a flee (a new room is dealt)
  leads to a chance node: its value is the expectation, over the cards that can be
  dealt, of the decision states right after the deal (the model was fitted on
  decision states, so it is asked about those, never about a half-dealt room).

The expectation is exact, over the distinct deals by card kind and value with
their hypergeometric weights, when there are few of them (at most
:data:`EXACT_DEALS`, bounded from the kinds unseen); otherwise it is the mean
over :data:`SAMPLES` deals drawn without replacement from the unseen cards by a
generator seeded from the text of the information state. Every action of a
decision draws from the same unseen cards, so they share those deals (a flee's
four cards begin with the three a room's end would deal): the actions are
compared on the same luck. Either way, a decision costs at most
``actions x max(EXACT_DEALS, SAMPLES)`` rows, all evaluated in one call of the
model's kernel per network.

The utility of an action (:data:`UTILITIES`) is ``bonus``, the expected score plus
the variant's ``win_bonus`` (:class:`~..config.AgentConfig`) times the chance of
winning, as the fair agent weighs them; or ``win``, the chance of winning first
and the expected score only on ties.

The policy sees only the information state: two deals that agree on every card
seen so far get the same values and the same decisions.

:func:`fit_on_own_games` fits a value for the policy on its own games as well as the
fair agent's (fitted value iteration on outcomes), since one ply asks the value about
positions the fair agent never reaches; :mod:`.policy_fit` fits a value on its positions
with the fair agent's search as teacher, and :mod:`.policy_rank` refits one to rank each
decision's actions as that search does: the one it plays by default
(:data:`POLICY_MODEL`).
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Final

import numpy as np

from scoundrel_core import Action, Kind
from scoundrel_core.encoding import TYPE_KIND, TYPE_VALUE, card_type
from scoundrel_core.info import ChanceNode, InfoState

from ...errors import SolverError
from ..config import agent_config
from .features import FEATURES, NKINDS, features_of
from .model import ValueModel, load_model

__all__ = [
    "EXACT_DEALS", "MAX_GAMES", "MAX_ROUNDS", "MAX_SAMPLES", "POLICY_MODEL", "SAMPLES",
    "UTILITIES",
    "Deals", "PolicyValue", "ValuePolicy", "dealt_rows", "dealt_rows_slow", "exact_expectation",
    "fit_on_own_games", "own_games",
]

SAMPLES: Final = 64
"""Deals drawn per decision when there are too many to enumerate."""
MAX_SAMPLES: Final = 4096
"""The most deals a decision may draw (a bound on the rows of one decision)."""
EXACT_DEALS: Final = 256
"""The expectation is exact when the distinct deals by kind and value are at most this
many (bounded above by ``C(kinds + cards - 1, cards)``, the multisets of the kinds unseen)."""
UTILITIES: Final = ("bonus", "win")
"""How actions are ranked: ``bonus`` (score + win bonus x chance), ``win`` (chance, then score)."""

_ROOM = FEATURES.index("room_m2")
_UNSEEN = FEATURES.index("unseen_m2")


@dataclass(frozen=True)
class PolicyValue:
    """One action's value to the policy: its chance of winning (0..1), expected final
    score, the utility it is ranked by, and whether the numbers are exact (the game ends
    with the action) rather than the learned value's."""

    action: Action
    win_chance: float
    expected_score: float
    utility: float
    exact: bool


# -- the deals after an action ------------------------------------------------------------


def _seed_of(info: InfoState) -> int:
    """A generator seed from what the player sees (the text names every unseen card in id
    order, never in dungeon order)."""
    digest = hashlib.blake2b(info.to_text().encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def _multisets(kinds: int, cards: int) -> int:
    """How many multisets of ``cards`` there are over ``kinds`` kinds: a bound on the
    distinct deals."""
    return math.comb(kinds + cards - 1, cards) if cards else 1


def _exact_deals(unseen_types: np.ndarray, cards: int) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct deal of ``cards`` cards from the unseen cards (their types), as counts
    by kind (deals x NKINDS), with its hypergeometric probability."""
    have = np.bincount(unseen_types - 1, minlength=NKINDS)
    present = np.flatnonzero(have)
    total = math.comb(int(have.sum()), cards)
    deals: list[np.ndarray] = []
    probs: list[float] = []

    def walk(i: int, left: int, taken: list[tuple[int, int]]) -> None:
        if left == 0:
            row = np.zeros(NKINDS, np.int64)
            ways = 1
            for k, x in taken:
                row[k] = x
                ways *= math.comb(int(have[k]), x)
            deals.append(row)
            probs.append(ways / total)
            return
        if i == len(present):
            return
        k = int(present[i])
        for x in range(min(left, int(have[k])), -1, -1):
            walk(i + 1, left - x, [*taken, (k, x)] if x else taken)

    walk(0, cards, [])
    return np.array(deals, np.int64).reshape(-1, NKINDS), np.array(probs, np.float64)


class Deals:
    """The deals a decision's chance nodes share. Every action of a decision leaves the
    same unseen cards, so the sampled deals are drawn once (lazily) and each chance node
    takes the first cards of each: a flee's four begin with a room end's three. The deals
    are exact when they are at most ``exact`` distinct ones (the ranking fit of
    :mod:`.policy_rank` enumerates fewer than the policy does)."""

    def __init__(self, info: InfoState, samples: int, exact: int = EXACT_DEALS) -> None:
        self.info = info
        self.samples = samples
        self.exact = exact
        self.unseen_types = np.array(sorted(card_type(c) for c in info.unseen), np.int64)
        self.kinds = len(np.unique(self.unseen_types))
        self._order: np.ndarray | None = None

    def counts(self, cards: int) -> tuple[np.ndarray, np.ndarray]:
        """Deals of ``cards`` unseen cards as counts by kind (deals x NKINDS), and their
        weights (summing to 1)."""
        if _multisets(self.kinds, cards) <= self.exact:
            return _exact_deals(self.unseen_types, cards)
        order = self.order()[:, :cards]
        rows = np.zeros((order.shape[0], NKINDS), np.int64)
        for j in range(cards):
            np.add.at(rows, (np.arange(order.shape[0]), order[:, j] - 1), 1)
        return rows, np.full(order.shape[0], 1.0 / order.shape[0])

    def order(self) -> np.ndarray:
        """The types of the first four cards (fewer if fewer are unseen) of ``samples``
        uniformly random orders of the unseen cards, from a generator seeded by what the
        player sees."""
        if self._order is None:
            rng = np.random.default_rng(_seed_of(self.info))
            n = len(self.unseen_types)
            keys = rng.random((self.samples, n))
            take = np.argsort(keys, axis=1, kind="stable")[:, : min(4, n)]
            self._order = self.unseen_types[take]
        return self._order


def _outcome(t: int) -> tuple[Kind, int]:
    """The chance outcome (kind, value) of card type ``t``."""
    return Kind(int(TYPE_KIND[t])), int(TYPE_VALUE[t])


def _draw_counts(node: ChanceNode, counts: np.ndarray) -> InfoState:
    """The decision state once the cards of ``counts`` (by kind) are dealt at ``node``,
    then the known bottom for the rest (the slow path: one card at a time)."""
    cur: InfoState | ChanceNode = node
    left = np.array(counts, np.int64)
    while isinstance(cur, ChanceNode):
        if cur.base.unseen:
            k = int(np.flatnonzero(left)[0])
            left[k] -= 1
            cur = cur.draw(_outcome(k + 1))
        else:
            cur = cur.draw(cur.chance_outcomes()[0][0])
    return cur


def dealt_rows(node: ChanceNode, counts: np.ndarray, order: bool = False) -> np.ndarray:
    """Feature rows of the decision states after each deal of ``counts`` (deals x kinds) at
    ``node``: one state built card by card, the others as its row with the room's and the
    unseen counts moved by the difference (the fast path; :func:`dealt_rows_slow` is its
    twin). Every other feature is the same for every deal of the node: the room's size,
    the unseen cards, the pool (room, unseen and bottom together), flee and flags, and
    (``order``: :data:`.features.FEATURES_ORDER`) the bottom, which a deal reaches only once
    every unseen card is dealt, the same in every deal."""
    first = features_of(_draw_counts(node, counts[0]), order)
    diff = (counts - counts[0]).astype(np.float64)
    rows = np.repeat(first[None, :], counts.shape[0], axis=0)
    rows[:, _ROOM:_ROOM + NKINDS] += diff
    rows[:, _UNSEEN:_UNSEEN + NKINDS] -= diff
    return rows


def dealt_rows_slow(node: ChanceNode, counts: np.ndarray, order: bool = False) -> np.ndarray:
    """:func:`dealt_rows` by building every dealt state (the slow twin)."""
    return np.array([features_of(_draw_counts(node, c), order) for c in counts], np.float64)


# -- the policy ---------------------------------------------------------------------------


POLICY_MODEL: Final = Path(__file__).with_name("policy-classic-strict.json")
"""The value the policy plays by default: fitted on classic/strict (its record names the
data, seeds, commit and command), played under every variant."""


@functools.cache
def _policy_model() -> ValueModel:
    """The default model, read once a process."""
    return load_model(POLICY_MODEL)


class ValuePolicy:
    """The one-ply learned policy (an :class:`~..protocol.Agent`).

    ``model`` is the learned value, or the path of a model file
    (:func:`~.model.load_model`; default: :data:`POLICY_MODEL`, the value fitted for the
    policy with the fair agent's search as teacher, :mod:`.policy_fit`, then to rank each
    decision's actions as the search does, :mod:`.policy_rank`), ``samples`` the deals
    drawn where they are too many to enumerate (1..:data:`MAX_SAMPLES`), ``utility`` one
    of :data:`UTILITIES`.
    """

    def __init__(self, model: ValueModel | str | Path | None = None, samples: int = SAMPLES,
                 utility: str = "bonus") -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) \
                or not 1 <= samples <= MAX_SAMPLES:
            raise SolverError(f"samples {samples!r:.40} must be a whole number in "
                              f"1..{MAX_SAMPLES}")
        if utility not in UTILITIES:
            raise SolverError(f"utility {utility!r:.40} must be one of {', '.join(UTILITIES)}")
        if model is None:
            model = _policy_model()
        elif isinstance(model, (str, Path)):
            model = load_model(model)
        elif not isinstance(model, ValueModel):
            raise SolverError(f"model {model!r:.40} must be a ValueModel or a model file's path")
        self.model = model
        self.samples = samples
        self.utility = utility

    def reset(self, seed: int) -> None:
        """Nothing to reset: the policy's deals are seeded from what it sees."""
        del seed

    def evaluate(self, info: InfoState, fast: bool = True) -> list[PolicyValue]:
        """Each legal action's value (in the order of ``legal_actions``). ``fast=False``
        builds every dealt state one by one and evaluates the model's numpy twin (the
        slow twin of the same numbers)."""
        if info.is_over:
            return []
        deals = Deals(info, self.samples)
        bonus = agent_config(info.variant).win_bonus
        # per action: (terminal outcome) or (first row, rows, weights)
        plans: list[tuple[Action, tuple[float, float] | None, int, np.ndarray]] = []
        blocks: list[np.ndarray] = []
        n_rows = 0
        for a in self._actions(info):
            after = info.apply(a)
            if isinstance(after, InfoState) and after.is_over:
                assert after.score is not None
                plans.append((a, (float(after.health > 0), float(after.score)), 0,
                              np.zeros(0)))
                continue
            if isinstance(after, InfoState):
                rows, weights = features_of(after, self.model.order)[None, :], np.ones(1)
            else:
                cards = min(after.to_draw, len(after.base.unseen))
                counts, weights = deals.counts(cards)
                rows = (dealt_rows if fast else dealt_rows_slow)(after, counts,
                                                                 self.model.order)
            plans.append((a, None, n_rows, weights))
            blocks.append(rows)
            n_rows += rows.shape[0]
        win = score = np.zeros(0)
        if blocks:  # one call of each network for the whole decision
            x = np.concatenate(blocks)
            win, score = self.model.win(x, fast=fast), self.model.score(x, fast=fast)
        out = []
        for a, outcome, start, weights in plans:
            if outcome is not None:
                w, s = outcome
            else:
                end = start + len(weights)
                w = float(weights @ win[start:end])
                s = float(weights @ score[start:end])
            u = s + bonus * w if self.utility == "bonus" else w
            out.append(PolicyValue(a, w, s, u, outcome is not None))
        return out

    @staticmethod
    def _actions(info: InfoState) -> Sequence[Action]:
        acts = info.legal_actions()
        if info.fled_last:
            # easy allows fleeing again at once, but fleeing on and on never ends the game
            kept = tuple(a for a in acts if not a.is_flee)
            return kept or acts
        return acts

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        """The action of highest utility (then expected score, then lowest id), and whether
        its value is exact (the game ends with it)."""
        values = self.evaluate(info)
        if not values:
            raise SolverError(f"no legal action in {info.to_text()}")
        best = max(values, key=lambda v: (v.utility, v.expected_score, -int(v.action)))
        return best.action, best.exact


def exact_expectation(node: ChanceNode, model: ValueModel) -> tuple[float, float]:
    """The chance of winning and expected score after ``node``, by walking its chance tree
    card by card with exact probabilities (a slow twin of the exact deals)."""
    def walk(cur: InfoState | ChanceNode, p: Fraction) -> tuple[float, float]:
        if isinstance(cur, InfoState):
            x = features_of(cur)
            return (float(p) * float(model.win(x, fast=False)[0]),
                    float(p) * float(model.score(x, fast=False)[0]))
        w = s = 0.0
        for o, q in cur.exact_outcomes():
            dw, ds = walk(cur.draw(o), p * q)
            w, s = w + dw, s + ds
        return w, s

    return walk(node, Fraction(1))


# -- a value for the policy, fitted on its own games ------------------------------------------

MAX_ROUNDS: Final = 100
"""The most rounds of :func:`fit_on_own_games`."""
MAX_GAMES: Final = 100_000
"""The most games a round of :func:`fit_on_own_games` plays."""


def own_games(policy: ValuePolicy, seeds: range, variant: str = "classic"
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every decision of the policy's games on ``seeds``: (features, won, final score, seed
    of the game), one row a decision."""
    import scoundrel_core as sc
    from scoundrel_core.info import observe

    xs: list[np.ndarray] = []
    won: list[float] = []
    score: list[float] = []
    game: list[int] = []
    for seed in seeds:
        s = sc.new_game(seed=seed, variant=variant)
        info = InfoState.initial(s)
        rows = []
        while not s.is_over:
            rows.append(features_of(info))
            a, _ = policy.choose(info)
            nxt = sc.apply(s, a)
            info, s = observe(info, a, nxt), nxt
        assert s.score is not None
        xs += rows
        won += [float(s.won)] * len(rows)
        score += [float(s.score)] * len(rows)
        game += [seed] * len(rows)
    x = np.array(xs, np.float64).reshape(-1, len(FEATURES))
    return x, np.array(won), np.array(score), np.array(game, np.int64)


def fit_on_own_games(
    base: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], rounds: int, games: int, *,
    first_seed: int = 2_000_000, variant: str = "classic", hidden: Sequence[int] = (64,),
    alpha: float = 1.0, max_iter: int = 30, patience: int = 3, utility: str = "bonus",
    model: ValueModel | None = None,
) -> list[ValueModel]:
    """Fitted value iteration of the policy on its own games: each round the policy of the
    last model plays ``games`` new deals, and a model is fitted (:func:`.train.fit_arrays`)
    on ``base`` (features, won, score, game: the fair agent's decisions, from
    :func:`.train.load_examples`) and every round's decisions so far. The model of each
    round, in order (the ``train`` extra: scikit-learn).

    One ply asks the value about the positions that bad actions lead to, which the fair
    agent's games never reach; the policy's own games hold them, with their outcomes."""
    from .train import EVAL_SEEDS, fit_arrays

    if not 1 <= rounds <= MAX_ROUNDS or not 1 <= games <= MAX_GAMES:
        raise SolverError(f"rounds {rounds} and games {games}: 1..{MAX_ROUNDS} rounds of "
                          f"1..{MAX_GAMES:,} games")
    seeds = range(first_seed, first_seed + rounds * games)
    if seeds.start < EVAL_SEEDS.stop and EVAL_SEEDS.start < seeds.stop:
        raise SolverError(f"seeds {seeds.start}..{seeds.stop - 1} meet the evaluation seeds "
                          f"{EVAL_SEEDS.start}..{EVAL_SEEDS.stop - 1}")
    parts = [base]
    policy = ValuePolicy(model, utility=utility)
    out: list[ValueModel] = []
    for r in range(rounds):
        start = first_seed + r * games
        parts.append(own_games(policy, range(start, start + games), variant))
        x, won, score, game = (np.concatenate([p[i] for p in parts]) for i in range(4))
        fitted = fit_arrays(x, won, score, hidden, groups=game, alpha=alpha,
                            max_iter=max_iter, patience=patience,
                            fit={"policy_rounds": r + 1, "policy_games": games,
                                 "policy_seeds": f"{first_seed}-{start + games - 1}",
                                 "base_rows": len(base[0])})
        out.append(fitted)
        policy = ValuePolicy(fitted, utility=utility)
    return out
