"""The best penalised line of play on one known order of the deck.

The player sees the order, but it still only *observes* through the
information state: the walk follows :meth:`InfoState.apply` and, at each chance
node, draws the card the order puts next (the next unseen card of the order,
or, once every unseen card is drawn, the top of the known bottom). The value of
a decision is the best over its actions; a chance step costs its penalty
(:class:`~.penalty.Penalties`). Without penalties this is the perfect-information
search over the same tree: the best final score, or whether the order is won.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from scoundrel_core import Card
from scoundrel_core.info import ChanceNode, InfoState

from ..fair.optimum import memo_key
from .penalty import Penalties

__all__ = ["PenalisedSearch", "Utility", "drawn"]

Utility = Callable[[InfoState], float]
"""What a finished game is worth: 1 if won (the win objective), or its score."""


def drawn(node: ChanceNode, rest: tuple[Card, ...]) -> tuple[InfoState, tuple[Card, ...]]:
    """The decision the chance node reaches when the unseen cards come in the order
    ``rest``, and the unseen cards still to come."""
    x: InfoState | ChanceNode = node
    while isinstance(x, ChanceNode):
        if x.base.unseen:
            c, rest = rest[0], rest[1:]
            x = x.draw((c.kind, c.value))
            # Alike cards come in id order (orders.py): the library draws this very card.
            assert (x.base if isinstance(x, ChanceNode) else x).room[-1] == c
        else:
            top = x.base.bottom[0]
            x = x.draw((top.kind, top.value))
    return x, rest


class PenalisedSearch:
    """The best of ``utility - penalties`` over the lines of play of any order.

    ``penalties`` None charges nothing (``V = 0``). Values are kept per
    (information state, order of its unseen cards), which is all the rest of
    the game depends on, so orders that meet in a position share its work. The
    moves of each information state and the draws of each chance node are kept
    too: many orders pass through one position, and the rules' steps are the cost.
    """

    def __init__(self, utility: Utility, penalties: Penalties | None) -> None:
        self.utility = utility
        self.penalties = penalties
        self._memo: dict[Hashable, float] = {}
        self._moves: dict[Hashable, list[tuple[InfoState | ChanceNode, Hashable]]] = {}
        self._drawn: dict[Hashable, InfoState] = {}

    def step(self, node: ChanceNode, rest: tuple[Card, ...], key: Hashable = None) -> float:
        """The chance node drawn along ``rest``, minus its penalty, then played best.

        ``key``: the node's ``memo_key``, when the caller has it.
        """
        k = min(node.to_draw, len(node.base.unseen))
        at = (memo_key(node) if key is None else key, tuple(c.id for c in rest[:k]))
        after = self._drawn.get(at)
        if after is None:
            after, _ = drawn(node, rest)
            self._drawn[at] = after
        value = self.best(after, rest[k:])
        if self.penalties is not None:
            value -= self.penalties.charge(node, after)
        return value

    def best(self, info: InfoState, rest: tuple[Card, ...]) -> float:
        """The best penalised value from the decision ``info``, its unseen cards in the
        order ``rest``."""
        if info.is_over:
            return self.utility(info)
        mk = memo_key(info)
        key = (mk, tuple(c.id for c in rest))
        got = self._memo.get(key)
        if got is None:
            moves = self._moves.get(mk)
            if moves is None:
                moves = self._moves[mk] = [
                    (y, memo_key(y) if isinstance(y, ChanceNode) else None)
                    for y in map(info.apply, info.legal_actions())
                ]
            got = max(
                self.step(y, rest, yk) if isinstance(y, ChanceNode) else self.best(y, rest)
                for y, yk in moves
            )
            self._memo[key] = got
        return got
