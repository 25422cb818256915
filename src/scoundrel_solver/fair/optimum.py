"""The exact fair optimum of a small deck, and how close an agent comes to it.

A fair player knows the deck (a list of cards, shuffled uniformly) but not its
order. On a reduced deck the whole expectimax over the player's information
states fits in memory, so the best any fair player can do is computable
exactly, and so is what a given agent really scores (policy evaluation: at
each decision the agent's own choice, every chance outcome with its
probability). Their difference is the agent's regret.

Everything walks the library's own game tree of the information state
(:meth:`InfoState.apply`, :meth:`ChanceNode.exact_outcomes` and
:meth:`ChanceNode.draw`); no rule is restated here. The first room is itself
a chance node: at the start the whole deck is unseen. Cards are drawn one at a
time, an outcome being a card's kind and value (two monsters of one value are
one outcome: :meth:`ChanceNode.draw` takes the lower card id, so the memo sees
one position where the suits could differ). Probabilities are floats (sums of
products of the exact fractions of ``exact_outcomes``), so values carry float
rounding of order 1e-12; the tests compare them with exact brute force.

Two maximisations over the same tree: the best expected final score, and,
separately, the best probability of winning (ending alive). The policy that
maximises the score also has a win probability of its own: among actions
tied for the best score (within :data:`TIE`) it takes the one that wins most.

The easy variant is refused: there a room may be fled again and again, so
the information-state graph has cycles and plain memoised recursion does not
terminate.

>>> import scoundrel_core as sc
>>> best = fair_optimum(sc.parse_deck("5C 3H 7D 2S 9C", partial=True))
>>> round(best.score, 6), best.win
(21.9, 1.0)
"""

from __future__ import annotations

import random
import sys
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace

import scoundrel_core as sc
from scoundrel_core import Action, Card
from scoundrel_core.info import ChanceNode, InfoState

from ..errors import SolverError
from .protocol import Agent

__all__ = [
    "TIE",
    "AgentValue",
    "Optimum",
    "agent_value",
    "classic_mix",
    "draw_deck",
    "fair_optimum",
    "memo_key",
    "opening",
    "settled",
]

TIE = 1e-9
"""Two expected scores this close are a tie (float rounding of exact equals)."""

Node = InfoState | ChanceNode


@dataclass(frozen=True)
class Optimum:
    """The best a fair player can do from one position (the start of a shuffled deck).

    ``score``: the optimal expected final score. ``win``: the optimal win
    probability (a separate maximisation). ``score_policy_win``: the win
    probability of the score-optimal policy (ties: the action that wins most).
    ``positions``: distinct decision positions in the tree.
    """

    score: float
    win: float
    score_policy_win: float
    positions: int


@dataclass(frozen=True)
class AgentValue:
    """What an agent scores from one position, averaged exactly over chance.

    ``decisions``: distinct decision positions the agent reaches (each asked
    once); ``exact``: how many of them the agent called exact.
    """

    score: float
    win: float
    decisions: int
    exact: int


def classic_mix(size: int) -> tuple[int, int, int]:
    """How many monsters, weapons and potions a reduced deck of ``size`` cards keeps.

    The classic deck's mix (26 monsters, 9 weapons, 9 potions of 44), rounded:
    monsters to the nearest whole number, the rest split evenly (weapons take
    the odd card).

    >>> [classic_mix(n) for n in (6, 8, 12, 44)]
    [(4, 1, 1), (5, 2, 1), (7, 3, 2), (26, 9, 9)]
    """
    if not 1 <= size <= sc.DECK_SIZE:
        raise SolverError(f"deck size {size!r} is not between 1 and {sc.DECK_SIZE}")
    monsters = min(size, round(size * 26 / 44))
    weapons = (size - monsters + 1) // 2
    return monsters, weapons, size - monsters - weapons


def draw_deck(size: int, rng: random.Random) -> list[Card]:
    """A reduced deck: :func:`classic_mix` counts, each kind's cards drawn uniformly.

    The list is in card-id order (its order does not matter: it is shuffled).

    >>> " ".join(map(str, draw_deck(8, random.Random(0))))
    '3C 10C AC 2S KS 9D 10D 8H'
    """
    out: list[Card] = []
    for kind, n in zip(sc.Kind, classic_mix(size), strict=True):
        pool = [c for c in sc.FULL_DECK if c.kind is kind]
        out += rng.sample(pool, n)
    return sorted(out, key=lambda c: c.id)


def opening(
    cards: Sequence[Card | str] | str, variant: str = "classic", weapon_rule: str | None = None
) -> ChanceNode:
    """The chance node before the first room: every card of the deck unseen.

    >>> node = opening("5C 3H 7D 2S 9C")
    >>> node.to_draw, len(node.base.unseen), node.base.room
    (4, 5, ())
    """
    s = sc.new_game(deck=cards, partial=True, variant=variant, weapon_rule=weapon_rule)
    info = InfoState.initial(s)
    # The deal is chance too: put the first room back among the unseen cards.
    base = replace(info, room=(), unseen=info.unseen | frozenset(info.room))
    return ChanceNode(base, len(info.room), fled=False)


def _start(
    start: Node | Sequence[Card | str] | str, variant: str, weapon_rule: str | None = None
) -> Node:
    """The root of a walk: a deck's opening, or the given position (with its own variant)."""
    node = (
        start if isinstance(start, (InfoState, ChanceNode))
        else opening(start, variant, weapon_rule)
    )
    v = node.base.variant if isinstance(node, ChanceNode) else node.variant
    if v.may_flee_twice:
        raise SolverError(
            f"variant {v} lets a room be fled again and again: its information "
            "states form cycles, which the exact walk does not handle"
        )
    return node


def settled(x: Node) -> Node:
    """``x`` with its room in card-id order when that order can no longer matter.

    The room's order matters only if the room is fled (it goes under the
    dungeon in that order); once it cannot be fled (a card resolved, dealt by
    a flee, hard, nothing left to deal), every order of it is one position.
    This merges up to 24 orders of a room into one memo entry.
    """
    if isinstance(x, ChanceNode) or x.is_over or len(x.room) < 2 or x.can_flee():
        return x
    room = tuple(sorted(x.room, key=lambda c: c.id))
    return x if room == x.room else replace(x, room=room)


def _ids(cards: Iterable[Card]) -> tuple[int, ...]:
    return tuple(c.id for c in cards)


def memo_key(x: Node) -> Hashable:
    """A small hashable twin of ``x`` for the memo (a frozenset of cards costs far more).

    The variant is left out: one walk has one variant.
    """
    if isinstance(x, ChanceNode):
        return (memo_key(x.base), x.to_draw, x.fled)
    unseen = 0
    for c in x.unseen:
        unseen |= 1 << c.id
    return (
        _ids(x.room), x.health, x.weapon_value, x.last_kill, x.potion_used,
        x.resolved_in_room, x.fled_last, unseen, _ids(x.bottom), x.score,
    )


def _ended(info: InfoState) -> tuple[float, float]:
    assert info.score is not None
    return float(info.score), float(info.health > 0)


class _DeepRecursion:
    """Raise the recursion limit for a walk (a game is a few hundred plies deep)."""

    def __enter__(self) -> None:
        self.old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.old, 20_000))

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self.old)


def fair_optimum(
    start: Node | Sequence[Card | str] | str, variant: str = "classic",
    weapon_rule: str | None = None, memo: dict[Hashable, tuple[float, float, float]] | None = None,
) -> Optimum:
    """Exhaustive expectimax: the optimal expected score and the optimal win probability.

    ``start`` is a deck (shuffled uniformly; see :func:`opening`), or an
    information state or chance node to solve from (``variant`` and
    ``weapon_rule`` are then its own): any position of a small deck, so that
    its fair value can serve as the ``V`` of :func:`scoundrel_solver.bound.upper_bound`.
    ``memo``: a dict to keep the values in and share them between calls on
    positions of one deck and rule set (as ``V`` is asked of many); ``positions``
    then counts the positions this call solved anew.

    >>> info = InfoState.from_text(
    ...     "classic/strict health=9 weapon=- last=- potion=0 resolved=0 fled=0 "
    ...     "room=[5C 3H 7D 2S] dungeon=[JC 4H 8S]")
    >>> best = fair_optimum(info)
    >>> best.win, round(best.score, 6)
    (1.0, 9.0)
    """
    root = _start(start, variant, weapon_rule)
    known: dict[Hashable, tuple[float, float, float]] = {} if memo is None else memo
    positions = 0

    def value(x: Node) -> tuple[float, float, float]:
        nonlocal positions
        key = memo_key(x)
        got = known.get(key)
        if got is not None:
            return got
        if isinstance(x, ChanceNode):
            e = w = sw = 0.0
            for o, p in x.exact_outcomes():
                ce, cw, csw = value(settled(x.draw(o)))
                q = float(p)
                e += q * ce
                w += q * cw
                sw += q * csw
            out = (e, w, sw)
        elif x.is_over:
            score, won = _ended(x)
            out = (score, won, won)
        else:
            positions += 1
            kids = [value(settled(x.apply(a))) for a in x.legal_actions()]
            best = max(k[0] for k in kids)
            out = (
                best,
                max(k[1] for k in kids),
                max(k[2] for k in kids if k[0] >= best - TIE),
            )
        known[key] = out
        return out

    with _DeepRecursion():
        e, w, sw = value(root)
    return Optimum(e, w, sw, positions)


def agent_value(
    agent: Agent, start: Node | Sequence[Card | str] | str, variant: str = "classic",
    seed: int = 0,
) -> AgentValue:
    """The agent's exact expected score and win probability (policy evaluation).

    At each decision the agent picks (``agent.choose``; asked once per
    distinct information state, the agent being a function of what the
    player knows), and every chance outcome is followed with its probability.
    ``agent.reset(seed)`` is called once, before the walk.

    The walk shows the agent one position for what may be several in a real
    game: a room it cannot flee in card-id order (:func:`settled`), and of two
    equal cards the lower id drawn first. So the value is exact for agents
    whose choice does not depend on those (the project's agents: the tests
    compare with playing every order of small decks).
    """
    root = _start(start, variant)
    agent.reset(seed)
    memo: dict[Hashable, tuple[float, float]] = {}
    exact = 0
    decisions = 0

    def value(x: Node) -> tuple[float, float]:
        nonlocal exact, decisions
        key = memo_key(x)
        got = memo.get(key)
        if got is not None:
            return got
        if isinstance(x, ChanceNode):
            e = w = 0.0
            for o, p in x.exact_outcomes():
                ce, cw = value(settled(x.draw(o)))
                e += float(p) * ce
                w += float(p) * cw
            out = (e, w)
        elif x.is_over:
            out = _ended(x)
        else:
            a, ex = agent.choose(x)
            decisions += 1
            exact += int(ex)
            out = value(settled(x.apply(Action(int(a)))))
        memo[key] = out
        return out

    with _DeepRecursion():
        e, w = value(root)
    return AgentValue(e, w, decisions, exact)
