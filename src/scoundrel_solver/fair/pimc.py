"""Perfect-information Monte Carlo (PIMC): a fair yardstick that samples the hidden order.

At a decision the agent deals ``samples`` dungeons consistent with what the
player knows (the unseen cards in a uniformly random order above the known
fled bottom), applies each legal action in each of them, solves the rest
exactly with the perfect-information solver (:func:`scoundrel_solver.solve`)
and plays the action that wins in the most dungeons; ties go to the best mean
score, then to the lowest action. Every action is scored on the same dungeons
(common random numbers), so their differences are not sampling noise between
actions. When there are no more orders than ``samples`` (few unseen cards)
every order is used once instead, and the tally is exact.

No peeking: the samples come from a generator seeded by a hash of the
information state's text and the agent's own seed, so two deals that share
everything the player has seen get the same samples and the same decisions.

What PIMC gets wrong (strategy fusion): each sampled dungeon is solved as if
the player knew its whole order from now on. An action that keeps options
open until a card shows itself is worth no more to it than one that commits
now, and a line that would need to guess (a flee, which room card to keep)
is credited with the guess that suits each sample. Its win counts are thus
optimistic, and it can prefer a move that is only good with foresight.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

import scoundrel_core as sc
from scoundrel_core import Action, Card, State
from scoundrel_core.info import InfoState
from scoundrel_core.rules import apply_trusted, legal_ids
from scoundrel_core.state import pack_cards

from ..errors import SolverError
from ..exact.solve import SolveGroup, is_winnable, solve, solve_value
from .samples import MAX_SAMPLES, check_samples

__all__ = ["MAX_SAMPLES", "UNPROVEN_KEPT", "ActionTally", "PimcAgent", "PimcStats", "best_tally",
           "race_actions", "sample_orders", "tally_actions", "world", "worlds"]

DEFAULT_SAMPLES = 16
DEFAULT_MAX_NODES = 2_000_000
"""Per solve. Most classic positions need well under 100,000 nodes; a few lost
ones need millions to prove their exact (very negative) score."""


@dataclass(frozen=True)
class ActionTally:
    """One action over the sampled dungeons: wins, summed final score (None where it
    was not needed), and how many solves a node limit cut short (their score is then
    the best line found, a lower bound, and a win may be missed). The wins count
    ``samples`` orders; the score sums the first ``scored`` of them (0: all)."""

    action: Action
    wins: int
    total_score: int | None
    samples: int
    unproven: int
    scored: int = 0

    @property
    def score_samples(self) -> int:
        """How many orders ``total_score`` sums over."""
        return self.scored or self.samples

    @property
    def mean_score(self) -> float | None:
        return None if self.total_score is None else self.total_score / self.score_samples

    @property
    def key(self) -> tuple[int, float, int]:
        """Most wins, then best score (the same dungeons for every action), then lowest
        action. A tally without a score never ties on wins with one that has it."""
        total = float("-inf") if self.total_score is None else self.total_score
        return (self.wins, total, -int(self.action))


@dataclass
class PimcStats:
    """What the agent did since it was built: decisions, searches of the exact solver,
    and positions whose search a node limit cut short (``unproven``, with the text of
    the first ``UNPROVEN_KEPT`` of them: a long run would otherwise grow without end)."""

    decisions: int = 0
    solves: int = 0
    unproven: int = 0
    unproven_positions: list[str] = field(default_factory=list)


UNPROVEN_KEPT: Final = 100
"""How many unproven positions :class:`PimcStats` keeps the text of."""


def world(info: InfoState, order: Sequence[Card]) -> State:
    """The position of ``info`` with its unseen cards in ``order`` (top first) above the bottom.

    >>> info = InfoState.from_text("classic/strict health=9 weapon=5D last=- potion=0 "
    ...     "resolved=0 fled=0 room=[2C 3C 4C 5C] dungeon=[9H 6S 7S] | bottom=[7S]")
    >>> world(info, [sc.parse_card("6S"), sc.parse_card("9H")]).to_text()
    'classic/strict health=9 weapon=5D last=- potion=0 resolved=0 fled=0 room=[2C 3C 4C 5C] \
dungeon=[6S 9H 7S]'
    """
    if sorted(order) != sorted(info.unseen):
        raise SolverError(
            f"order [{sc.format_deck(order)}] is not the unseen cards of {info.to_text()}"
        )
    weapon = sc.parse_card(f"{info.weapon_value}D") if info.weapon_value else None
    return State.from_parts(
        dungeon=(*order, *info.bottom), room=info.room, health=info.health, weapon=weapon,
        last_kill=info.last_kill, potion_used=info.potion_used, resolved=info.resolved_in_room,
        fled=info.fled_last, variant=info.variant,
    )


def worlds(info: InfoState, orders: Sequence[Sequence[Card]]) -> list[State]:
    """:func:`world` of each order, for many orders at once: the first is built and
    checked by :func:`world`, the others share everything but the dungeon with it (a
    position's packed words: its dungeon, and all the rest), each order checked to be
    the unseen cards."""
    if not orders:
        return []
    first = world(info, orders[0])
    unseen = sorted(info.unseen)
    out = [first]
    for order in orders[1:]:
        if sorted(order) != unseen:
            raise SolverError(
                f"order [{sc.format_deck(order)}] is not the unseen cards of {info.to_text()}")
        out.append(State(pack_cards((*order, *info.bottom)), first._info))
    return out


def _info_seed(info: InfoState, seed: int) -> int:
    """A seed from the agent's seed and what the player knows (stable across processes)."""
    text = f"{seed}|{info.to_text()}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")




def sample_orders(info: InfoState, samples: int, seed: int = 0) -> list[tuple[Card, ...]]:
    """``samples`` orders of the unseen cards, or every order if there are no more than that.

    The generator is seeded from ``info.to_text()`` and ``seed`` alone.

    >>> info = InfoState.from_text("classic/strict health=9 weapon=- last=- potion=0 "
    ...     "resolved=0 fled=0 room=[2C 3C 4C 5C] dungeon=[9H 6S 7S]")
    >>> len(sample_orders(info, 6)), len(set(sample_orders(info, 6)))
    (6, 6)
    >>> sample_orders(info, 4) == sample_orders(info, 4)
    True
    """
    check_samples(samples)
    cards = sorted(info.unseen, key=lambda c: c.id)
    if _every_order(info, samples):
        return list(itertools.permutations(cards))
    rng = random.Random(_info_seed(info, seed))
    orders = []
    for _ in range(samples):
        order = list(cards)
        rng.shuffle(order)
        orders.append(tuple(order))
    return orders


def _every_order(info: InfoState, samples: int) -> bool:
    """Whether :func:`sample_orders` gives every order of the unseen cards for ``samples``."""
    return math.factorial(len(info.unseen)) <= samples


def _score(
    nxt: State, max_nodes: int | None, stats: PimcStats, won: bool | None = None,
    group: SolveGroup | None = None, guess: int | None = None,
) -> tuple[int, bool]:
    """The best score after a move and whether it is proven; a search cut short falls
    back to :func:`solve`, whose best line found is a lower bound. ``won``: whether
    the position is known to be won (a known loss is searched faster); ``group``: the
    decision's :class:`~scoundrel_solver.exact.solve.SolveGroup`."""
    if nxt.is_over:
        assert nxt.score is not None
        return nxt.score, True
    stats.solves += 1
    value = solve_value(nxt, max_nodes, won, group, guess)
    if value is not None:
        return value, True
    stats.unproven += 1
    if len(stats.unproven_positions) < UNPROVEN_KEPT:
        stats.unproven_positions.append(nxt.to_text())
    return solve(nxt, max_nodes=max_nodes).best_score, False


def _wins(nxt: State, max_nodes: int | None, stats: PimcStats, group: SolveGroup | None = None
          ) -> tuple[bool, int | None, bool]:
    """Whether the rest is won, the score if it came for free, and whether it is proven."""
    if nxt.is_over:
        assert nxt.score is not None
        return nxt.score > 0, nxt.score, True
    stats.solves += 1
    won = is_winnable(nxt, max_nodes, group)
    if won is not None:
        return won, None, True
    score, proven = _score(nxt, max_nodes, stats, group=group)
    return score > 0, score, proven


def tally_actions(
    info: InfoState,
    orders: Sequence[Sequence[Card]],
    max_nodes: int | None = DEFAULT_MAX_NODES,
    stats: PimcStats | None = None,
    all_scores: bool = False,
) -> list[ActionTally]:
    """Each legal action (in ``legal_actions`` order) played in every dungeon of ``orders``
    and the rest solved exactly (a solve cut short by ``max_nodes`` counts its best line).

    Wins come first: each sample asks only "is it won?" (cheap, see
    :func:`~scoundrel_solver.exact.solve.is_winnable`). Exact scores are computed only
    where they decide (the actions tied on most wins), unless ``all_scores``;
    the other tallies have ``total_score`` None. The solves share one
    :class:`~scoundrel_solver.exact.solve.SolveGroup`: the actions' positions meet
    again (two room cards taken in either order), and what one solve proved spares
    the next the work.
    """
    return race_actions(info, orders, len(orders), 0, max_nodes, stats, all_scores)


def race_actions(
    info: InfoState,
    orders: Sequence[Sequence[Card]],
    first: int,
    margin: int,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    stats: PimcStats | None = None,
    all_scores: bool = False,
    scored: int | None = None,
    score_margin: float = math.inf,
) -> list[ActionTally]:
    """:func:`tally_actions` on the first ``first`` of ``orders``, then, while more than one
    action is within ``margin`` wins of the most, on twice as many (up to all of them).

    Eight orders often leave the best actions a win apart or tied: one order more or
    less decides. Every action is tallied on every order drawn, so the wins are
    :func:`tally_actions`'s on the orders the race stopped at, and the values shown for
    a decision and the action played rest on the same orders.

    The scores that break a tie of wins race too: they sum over the first ``first``
    orders, then twice as many while the best two tied actions' totals are within
    ``score_margin`` points an order, up to the first ``scored`` orders drawn (None:
    every one; an infinite margin: always up to there). Most close decisions are ties
    of actions that win every order, and their exact scores cost far more than the
    question "won?". Every action scored (the tied ones, or all with ``all_scores``) is
    scored on the same orders.
    """
    if orders and (isinstance(first, bool) or not isinstance(first, int) or first < 1):
        raise SolverError(f"first {first!r:.40} must be a positive number of orders")
    if isinstance(margin, bool) or not isinstance(margin, int) or margin < 0:
        raise SolverError(f"margin {margin!r:.40} must be a number of wins, 0 or more")
    if scored is not None and (isinstance(scored, bool) or not isinstance(scored, int)
                               or scored < 1):
        raise SolverError(f"scored {scored!r:.40} must be a positive number of orders or None")
    if (isinstance(score_margin, bool) or not isinstance(score_margin, (int, float))
            or not score_margin >= 0):
        raise SolverError(f"score_margin {score_margin!r:.40} must be a number of points, "
                          "0 or more")
    st = stats if stats is not None else PimcStats()
    group = SolveGroup()
    acts = info.legal_actions()
    if not acts:
        return []
    ids = [int(a) for a in acts]
    after: list[list[State]] = [[] for _ in acts]
    wins: list[list[tuple[bool, int | None, bool]]] = [[] for _ in acts]
    n, done = min(first, len(orders)), 0
    while True:
        for w in worlds(info, orders[done:n]):
            # what is legal does not depend on the dungeon's order: checked on the first
            if done == 0 and legal_ids(w) != ids:
                raise SolverError(f"the actions of {info.to_text()} are not its world's")
            for row, res, a in zip(after, wins, ids, strict=True):
                nxt = apply_trusted(w, a)
                row.append(nxt)
                res.append(_wins(nxt, max_nodes, st, group))
        done = n
        counts = [sum(won for won, _, _ in res) for res in wins]
        top = max(counts)
        if n >= len(orders) or sum(c >= top - margin for c in counts) == 1:
            break
        n = min(2 * n, len(orders))

    limit = n if scored is None else min(scored, n)
    tied = [i for i, c in enumerate(counts) if c == top] if counts.count(top) > 1 else []
    solved: dict[tuple[int, int], tuple[int, bool]] = {}  # (action, order): score, proven
    unproven = [sum(not ok for _, _, ok in res) for res in wins]
    best: list[int | None] = [None] * limit  # the best score found in each order so far

    def total(i: int, m: int) -> int:
        """Action ``i``'s scores summed over the first ``m`` orders, solved where needed."""
        for k in range(m):
            if (i, k) not in solved:
                won, score, ok = wins[i][k]
                known = best[k]
                if score is None:
                    score, ok = _score(after[i][k], max_nodes, st, won, group,
                                       known if won else None)
                    unproven[i] += not ok
                solved[i, k] = score, ok
                if ok and (known is None or score > known):
                    best[k] = score
        return sum(solved[i, k][0] for k in range(m))

    m = limit if score_margin == math.inf else min(first, limit)
    while len(tied) > 1 and m < limit:
        totals = sorted((total(i, m) for i in tied), reverse=True)
        if totals[0] - totals[1] > score_margin * m:
            break
        m = min(2 * m, limit)
    out = []
    for i, (a, count) in enumerate(zip(acts, counts, strict=True)):
        summed = total(i, m) if all_scores or i in tied else None
        out.append(ActionTally(a, count, summed, n, unproven[i], 0 if m == n else m))
    return out


def best_tally(tallies: Sequence[ActionTally]) -> ActionTally:
    """The action PIMC plays: most wins, then best total score, then lowest action."""
    if not tallies:
        raise SolverError("no legal action to choose from")
    return max(tallies, key=lambda t: t.key)


class PimcAgent:
    """Plays the action that wins in most sampled dungeons (see the module docstring).

    ``samples`` dungeons per decision, solves cut at ``max_nodes`` nodes (None:
    no limit), ``seed`` varies the samples (never the game's seed: that would
    be the deal). With ``cap`` above ``samples``, a close decision draws more orders:
    while more than one action is within ``margin`` wins of the most, twice as many,
    up to ``cap`` (:func:`race_actions`), its scores over the first ``scored`` orders
    drawn (None: ``samples``; at least ``samples``), or fewer where the tied actions'
    scores are more than ``score_margin`` points an order apart. A decision is exact
    when the whole dungeon order is known (at most one unseen card) and every solve
    finished: PIMC is then perfect play.
    """

    def __init__(
        self, samples: int = DEFAULT_SAMPLES, max_nodes: int | None = DEFAULT_MAX_NODES,
        seed: int = 0, cap: int | None = None, margin: int = 1, scored: int | None = None,
        score_margin: float = math.inf,
    ) -> None:
        cap = samples if cap is None else cap
        scored = samples if scored is None else scored
        for name, value in (("samples", samples), ("seed", seed), ("cap", cap),
                            ("margin", margin), ("scored", scored)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise SolverError(f"{name} {value!r} must be an integer")
        check_samples(samples)
        check_samples(cap, "cap")
        check_samples(scored, "scored")
        if margin < 0:
            raise SolverError(f"margin {margin} must be a number of wins, 0 or more")
        self.cap = max(cap, samples)
        self.margin = margin
        self.scored = max(scored, samples)
        if (isinstance(score_margin, bool) or not isinstance(score_margin, (int, float))
                or not score_margin >= 0):
            raise SolverError(f"score_margin {score_margin!r} must be a number of points, "
                              "0 or more")
        self.score_margin = float(score_margin)
        if max_nodes is not None and (
            isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1
        ):
            raise SolverError(f"max_nodes {max_nodes!r} must be a positive integer or None")
        self.samples = samples
        self.max_nodes = max_nodes
        self.seed = seed
        self.stats = PimcStats()

    def reset(self, seed: int = 0) -> None:
        """A new game. The game's seed is ignored on purpose: it determines the deal."""
        del seed

    def evaluate(self, info: InfoState, all_scores: bool = False) -> list[ActionTally]:
        """Each legal action's tally over this decision's samples (see :func:`tally_actions`),
        or over the orders its race drew (:func:`race_actions`)."""
        if self.cap == self.samples:
            orders = sample_orders(info, self.samples, self.seed)
            return tally_actions(info, orders, self.max_nodes, self.stats, all_scores)
        # the first orders of the larger draw are those of ``samples`` (one generator),
        # unless there are so few orders that the race has them all from the start
        orders = sample_orders(info, self.cap, self.seed)
        first = len(orders) if _every_order(info, self.cap) else self.samples
        return race_actions(info, orders, first, self.margin, self.max_nodes, self.stats,
                            all_scores, max(first, self.scored), self.score_margin)

    def choose(self, info: InfoState) -> tuple[Action, bool]:
        """The action that wins in the most sampled dungeons (ties: best mean score, then
        lowest id).
        """
        acts = info.legal_actions()
        if not acts:
            raise SolverError(f"no legal action in {info.to_text()}")
        self.stats.decisions += 1
        known = len(info.unseen) <= 1
        if len(acts) == 1:
            return acts[0], known
        tallies = self.evaluate(info)
        return best_tally(tallies).action, known and not any(t.unproven for t in tallies)
