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

A label is given only where the drop is larger than the uncertainty of the two
chances compared (:func:`judge`). In the endgame the agent's chance of an
action is the share of K sampled dungeon orders it wins, whose standard error
is about ``sqrt(p(1-p)/K)`` (:func:`standard_error`); a drop within
:data:`NOISE` combined standard errors of the two chances could be the luck of
the draw of the orders, so it is not labelled. Exact values and the search's
values (not samples) carry no sampling noise.

>>> label(0.0), label(0.03), label(0.07), label(0.25)
(None, 'inaccuracy', 'mistake', 'blunder')
>>> judge(1 / 8, 8, 0.0, 8), judge(0.3, 0, 0.0, 0)
(None, 'blunder')
>>> round(decision_accuracy(0.05), 1)
60.7
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

__all__ = [
    "ACCURACY_SCALE",
    "BLUNDER",
    "INACCURACY",
    "LIVE",
    "MISTAKE",
    "NOISE",
    "beyond_noise",
    "decision_accuracy",
    "drop",
    "game_accuracy",
    "judge",
    "judge_rows",
    "label",
    "standard_error",
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
NOISE: Final = 2.0
"""How many combined standard errors a drop must exceed to be labelled (about 95%: a
smaller drop is what two samples of the same chance often differ by)."""


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


def standard_error(chance: float, samples: int) -> float:
    """The standard error of a chance of winning (0..1) that is the share of ``samples``
    sampled dungeon orders won: ``sqrt(p(1-p)/K)``; 0 for ``samples`` 0 (an exact value,
    or the search's, which samples nothing)."""
    if samples < 0:
        raise ValueError(f"samples {samples!r} must be 0 or more")
    if samples == 0:
        return 0.0
    p = min(1.0, max(0.0, chance))
    return math.sqrt(p * (1.0 - p) / samples)


def beyond_noise(drop: float, choice_se: float, played_se: float) -> bool:
    """Whether ``drop`` is larger than :data:`NOISE` times the combined standard error of
    the two chances compared (independent errors add in squares)."""
    return drop > NOISE * math.hypot(choice_se, played_se)


def judge(choice: float, choice_samples: int, played: float, played_samples: int) -> str | None:
    """The label of a decision from the two chances of winning compared and the samples
    behind each (0: not sampled): :func:`label` of the drop, or None where the drop is
    within the noise of the samples (:func:`beyond_noise`)."""
    lost = max(0.0, choice - played)
    if not beyond_noise(lost, standard_error(choice, choice_samples),
                        standard_error(played, played_samples)):
        return None
    return label(lost)


def judge_rows(choice: Mapping[str, Any], played: Mapping[str, Any]) -> str | None:
    """:func:`judge` of two hint rows (the agent's choice, the action played): the label of
    the drop in the chances shown, given only where the drop in the search's own chances
    (the shares of sampled orders won, whose noise :func:`standard_error` measures) is
    beyond the noise. Rows without ``search_win_chance`` are the search's chances."""
    def search(row: Mapping[str, Any]) -> float:
        return float(row.get("search_win_chance", row["win_chance"]))

    if not beyond_noise(max(0.0, search(choice) - search(played)),
                        standard_error(search(choice), choice["samples"]),
                        standard_error(search(played), played["samples"])):
        return None
    return label(max(0.0, float(choice["win_chance"]) - float(played["win_chance"])))


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
