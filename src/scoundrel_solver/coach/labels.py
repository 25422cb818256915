"""Review labels and accuracy, from the drop in the fair agent's chance of winning.

At each decision of the player (a position with more than one legal action),
the fair agent values every legal action from what the player knew there.
The *drop* is the chance of winning of the agent's own choice there minus
the chance of the action played (never below 0). A drop of at least
:data:`INACCURACY` is an inaccuracy, of :data:`MISTAKE` a mistake, of
:data:`BLUNDER` a blunder.

A decision's accuracy is ``100 * exp(-drop / ACCURACY_SCALE)``: 100% for no
drop, about 61% for a drop of 5 points, 37% for 10. The game's accuracy is
the mean over its *live* decisions, those where the actions' chances of
winning differ by at least :data:`LIVE` (where every action wins about
equally often, no choice there can be right or wrong by this measure).
``docs/web.md`` explains the choice. Both front ends label with these.

>>> label(0.0), label(0.03), label(0.07), label(0.25)
(None, 'inaccuracy', 'mistake', 'blunder')
>>> round(decision_accuracy(0.05), 1)
60.7
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

__all__ = [
    "ACCURACY_SCALE",
    "BLUNDER",
    "INACCURACY",
    "LIVE",
    "MISTAKE",
    "decision_accuracy",
    "drop",
    "game_accuracy",
    "label",
]

INACCURACY: Final = 0.02
"""A drop in the chance of winning from which a decision is an inaccuracy."""
MISTAKE: Final = 0.05
"""A drop from which a decision is a mistake."""
BLUNDER: Final = 0.15
"""A drop from which a decision is a blunder."""
LIVE: Final = 0.005
"""How far the actions' chances of winning must differ for a decision to count in the accuracy."""
ACCURACY_SCALE: Final = 0.10
"""The drop at which a decision's accuracy falls to 1/e (37%)."""


def drop(choice: float, played: float, chances: Sequence[float]) -> float | None:
    """The drop of a decision: the chance of winning of the agent's own ``choice`` minus
    that of the action ``played`` (never below 0); None when the decision is not live
    (the legal actions' ``chances`` differ by less than :data:`LIVE`).

    The drop is measured against the agent's own move, not the highest chance: the agent
    playing itself gets no label (it trades a little chance of winning for score where
    its utility says so, and that is its choice, not an error).

    >>> round(drop(0.6, 0.4, [0.6, 0.4, 0.7]), 2), drop(0.4, 0.6, [0.6, 0.4]), drop(0.5, 0.5, [0.5])
    (0.2, 0.0, None)
    """
    if max(chances) - min(chances) < LIVE:
        return None
    return max(0.0, choice - played)


def label(drop: float) -> str | None:
    """The label of a decision whose chance of winning dropped by ``drop`` (0..1)."""
    if drop >= BLUNDER:
        return "blunder"
    if drop >= MISTAKE:
        return "mistake"
    if drop >= INACCURACY:
        return "inaccuracy"
    return None


def decision_accuracy(drop: float) -> float:
    """Percent, 100 for no drop, falling off exponentially."""
    return 100.0 * math.exp(-max(0.0, drop) / ACCURACY_SCALE)


def game_accuracy(drops: Sequence[float | None]) -> float | None:
    """Mean decision accuracy over the live decisions (``None`` entries are not live);
    None when no decision was live."""
    live = [d for d in drops if d is not None]
    if not live:
        return None
    return sum(decision_accuracy(d) for d in live) / len(live)
