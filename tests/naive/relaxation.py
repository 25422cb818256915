"""The information-relaxation bound by brute force: the slow twin of ``scoundrel_solver.bound``.

Nothing of the fast path is shared: no chance node, no distinct orders, no
memo keys. Every order of the cards (all ``n!``, alike cards told apart) is
played along every line by the library's rules (``State``, ``legal_actions``,
``apply``); what the player knows is followed by :func:`observe`. The penalty
of every step is ``V(I') - mean V``, the mean over every world the player
cannot tell from the true one: each order of its unseen cards above its known
bottom, the same action played in each. A step that draws nothing costs
exactly nothing (every world shows the same), so no step needs to be told a
chance step. The deal is a step too: its worlds are every order of the deck.
Exact fractions throughout.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import scoundrel_core as sc
from scoundrel_core import Action, Card, State
from scoundrel_core.info import InfoState, observe

__all__ = ["brute_bound"]


def brute_bound(
    deck: Sequence[Card], value: Callable[[InfoState], float] | None, variant: str,
    objective: str = "win",
) -> Fraction:
    """The mean over every order of ``deck`` of the best ``utility - penalties`` line."""

    def v(info: InfoState) -> Fraction:
        return Fraction(0) if value is None else Fraction(value(info))

    def utility(s: State) -> Fraction:
        assert s.score is not None
        return Fraction(int(s.health > 0)) if objective == "win" else Fraction(s.score)

    means: dict[tuple[InfoState, Action], Fraction] = {}

    def penalty(s: State, info: InfoState, a: Action, after: InfoState) -> Fraction:
        if (info, a) not in means:
            d = s.dungeon
            unseen = d[: len(d) - len(info.bottom)]
            worlds = [s.with_dungeon((*p, *info.bottom)) for p in itertools.permutations(unseen)]
            seen = [v(observe(info, a, sc.apply(w, a))) for w in worlds]
            means[info, a] = sum(seen, Fraction(0)) / len(seen)
        return v(after) - means[info, a]

    def best(s: State, info: InfoState, memo: dict[tuple[State, InfoState], Fraction]) -> Fraction:
        if s.is_over:
            return utility(s)
        if (s, info) not in memo:
            outs = []
            for a in sc.legal_actions(s):
                s2 = sc.apply(s, a)
                i2 = observe(info, a, s2)
                outs.append(best(s2, i2, memo) - penalty(s, info, a, i2))
            memo[s, info] = max(outs)
        return memo[s, info]

    starts = [sc.new_game(deck=o, partial=True, variant=variant)
              for o in itertools.permutations(deck)]
    infos = [InfoState.initial(s) for s in starts]
    dealt = sum((v(i) for i in infos), Fraction(0)) / len(infos)
    memo: dict[tuple[State, InfoState], Fraction] = {}  # a state's future is its own
    total = Fraction(0)
    for s, i in zip(starts, infos, strict=True):
        total += best(s, i, memo) - (v(i) - dealt)
    return total / len(starts)
