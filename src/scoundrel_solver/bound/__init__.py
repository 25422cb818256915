"""A proven upper bound on the fair win rate: information relaxation with penalties.

A fair player decides from the information state alone; a player who sees the
whole dungeon does at least as well, but that ceiling (the perfect-information
share) is loose. Information relaxation duality (Brown, Smith and Sun,
"Information relaxations and duality in stochastic dynamic programs",
Operations Research 58(4), 2010) tightens it: let the player see the dungeon,
but charge it for what it learns at every chance step.

A chance step is the deal of the first room, a refill of the room, or the room
dealt after a flee. Take any function ``V`` of the information state. At a
chance step from the information state ``I`` by the action ``a``, reaching
``I'``, the player pays the penalty::

    V(I') - E[V(I') | I, a]

the expectation being over what the step can draw from the unseen cards, with
their exact probabilities. The bound is the mean over every order of the deck
of the best, over all lines of play on that known order, of ``1{win}`` (or the
final score) minus the penalties paid along the line.

Why it is a bound (weak duality). Fix any fair policy: its actions depend only
on the information states. Along its games every penalty has mean zero given
what the player knew when it acted, whatever ``V`` is, so its win rate is the
mean of ``1{win} - penalties`` over the orders of the deck. On each order that
quantity is at most the best over all lines of play, so the policy's win rate
is at most the bound. No fair player, however clever, beats it.

Why it can be exact (strong duality). With ``V`` the exact fair value of each
information state, along any line ``1{win} - penalties`` telescopes to the fair
value of the start minus, at each decision, what the action gave up against the
best one; a line of optimal fair play gives up nothing. Every order then scores
exactly the fair optimum, and so does the bound. The better ``V``, the tighter
the bound; ``V = 0`` gives the perfect-information share.

- :mod:`.orders`: the small deck read, its size limited, and its distinct orders;
- :mod:`.penalty`: ``V`` and its exact mean after each chance step;
- :mod:`.search`: the best penalised line of play on one known order;
- :mod:`.bound`: :func:`upper_bound`, the mean over the orders.

>>> round(upper_bound("3C KC 7S 8S 2D 5H", objective="score"), 6)
1.244444
"""

from __future__ import annotations

from .bound import OBJECTIVES, upper_bound
from .orders import MAX_CARDS

__all__ = ["MAX_CARDS", "OBJECTIVES", "upper_bound"]
