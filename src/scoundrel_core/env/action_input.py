"""What the envs accept as an action: integers only, checked before anything is played.

One check serves both envs. An action is a Python or numpy integer (a 0-d
integer array too, as some wrappers pass); anything else (a float, even
26.0, a string, None, a bool, an array of the wrong shape) is a
:class:`~scoundrel_core.ScoundrelError` naming it, never silently truncated.
An integer that is no action index (-1, 89, 2**70) is an illegal action, as
the rules say, not an error of type: the env's ``illegal_action`` mode decides.

>>> action_index(26)
26
>>> action_index(26.5)
Traceback (most recent call last):
...
scoundrel_core.errors.ScoundrelError: action 26.5 is not an integer (a float)
>>> [int(a) for a in action_array([3, 2**70, -1], 3)]
[3, 89, -1]
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..actions import NUM_ACTIONS
from ..errors import ScoundrelError

__all__ = ["NOT_AN_ACTION", "action_array", "action_index"]

NOT_AN_ACTION: Final = NUM_ACTIONS
"""What an integer far outside the action range becomes: illegal everywhere, fits int64."""

_EXCERPT: Final = 60


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 3] + "..."


def _kind(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return f"a {type(value).__name__}"


def _bounded(value: int) -> int:
    """An integer squeezed into int64: out-of-range ones stay out of the action range."""
    return value if -1 <= value <= NUM_ACTIONS else (NOT_AN_ACTION if value > 0 else -1)


def action_index(action: object) -> int:
    """One action as an int; a non-integer is a ScoundrelError naming it."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ScoundrelError(f"action {_show(action)} is not an integer ({_kind(action)})")
    return int(action)


def action_array(actions: object, n: int) -> npt.NDArray[np.int64]:
    """``n`` actions as int64, one per game; far-out integers become :data:`NOT_AN_ACTION`
    (or -1), so they are illegal without wrapping around. Anything but integers is refused."""
    if isinstance(actions, np.ndarray):
        arr: npt.NDArray[Any] = actions
    else:
        try:
            arr = np.asarray(actions, dtype=object)
        except (ValueError, TypeError) as err:  # ragged nesting
            raise ScoundrelError(f"actions {_show(actions)} are not an array: {err}") from None
    # Exactly one action per game: a (n, 1) or (1, n) array is refused, not flattened,
    # as gymnasium's MultiDiscrete action space of shape (n,) would refuse it.
    if arr.shape != (n,):
        got = arr.shape[0] if arr.ndim == 1 else f"shape {arr.shape} of"
        raise ScoundrelError(f"{got} actions for {n} environments: give {n} integers")
    if arr.dtype.kind in "iu":
        if arr.dtype.kind == "u" and arr.dtype.itemsize >= 8:
            return np.where(arr > NUM_ACTIONS, NOT_AN_ACTION, arr).astype(np.int64)
        return arr.astype(np.int64)
    if arr.dtype.kind != "O":
        raise ScoundrelError(
            f"actions {_show(actions)} are not integers (dtype {arr.dtype}, in {n} games)"
        )
    out = np.empty(n, np.int64)
    for i, a in enumerate(arr):
        try:
            out[i] = _bounded(action_index(a))
        except ScoundrelError as err:
            raise ScoundrelError(f"environment {i}: {err}") from None
    return out
