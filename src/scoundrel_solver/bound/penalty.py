"""``V`` and its exact mean after each chance step, each computed once.

The penalty of a chance step from the information state ``I`` by the action
``a`` is ``V(I') - E[V(I') | I, a]``. The expectation walks the library's
chance node (:meth:`InfoState.apply`) card by card: each outcome of
:meth:`ChanceNode.exact_outcomes` (a kind and value, with its hypergeometric
probability) and :meth:`ChanceNode.draw`, until the next decision. Nothing of
the rules is restated here.

The mean depends on ``I`` and ``a`` only, never on the order of the deck, so it
is kept for every order of a deck alike; so is ``V`` of each state.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from numbers import Real

from scoundrel_core.info import ChanceNode, InfoState

from ..errors import SolverError
from ..fair.optimum import memo_key

__all__ = ["Penalties", "Value"]

Value = Callable[[InfoState], float]
"""A function of the information state: the ``V`` of the penalties."""


class Penalties:
    """``V`` of the information states, and its exact mean after a chance node."""

    def __init__(self, value: Value) -> None:
        self._value = value
        self._values: dict[Hashable, float] = {}
        self._means: dict[Hashable, float] = {}

    def value(self, info: InfoState) -> float:
        """``V(info)``, asked once per state and checked to be a finite number."""
        key = memo_key(info)
        got = self._values.get(key)
        if got is None:
            v = self._value(info)
            if isinstance(v, bool) or not isinstance(v, Real) or not math.isfinite(v):
                raise SolverError(
                    f"value returned {v!r:.40} for the position {info.to_text()}: "
                    "it must return a finite number"
                )
            got = self._values[key] = float(v)
        return got

    def mean(self, node: ChanceNode) -> float:
        """``E[V(I')]`` over the decisions ``I'`` the chance node can lead to, exactly."""
        key = memo_key(node)
        got = self._means.get(key)
        if got is None:
            total = 0.0
            for outcome, p in node.exact_outcomes():
                after = node.draw(outcome)
                v = self.mean(after) if isinstance(after, ChanceNode) else self.value(after)
                total += float(p) * v
            got = self._means[key] = total
        return got

    def charge(self, node: ChanceNode, after: InfoState) -> float:
        """The penalty of reaching ``after`` from the chance node ``node``."""
        return self.value(after) - self.mean(node)
