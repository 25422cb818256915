"""What the player sees, as OpenSpiel's strings and tensors.

Information state (``information_state_string`` / ``_tensor``): exactly the
:class:`~scoundrel_core.InfoState`, which cards are unseen named card by card,
plus the draws pending at a chance node. It is a sufficient statistic, not a
perfect-recall history: two lines of play that reach the same knowledge (say,
the same room resolved in another order) share one information state, as
they share every future.

==========  =============================================================
slot        meaning (the tensor is float32, 102 slots)
==========  =============================================================
0-14        slots 0-14 of the gymnasium observation: room (card id + 1),
            health, weapon, last kill, potion used, resolved, fled, over,
            flee rule, weapon rule, unseen count, bottom size
15-58       1.0 where the card of that id is unseen
59-98       the fled cards at the bottom, card id + 1, top first
99          cards still to be drawn at this chance node (0 at a decision)
100         1.0 if the room being drawn was dealt by a flee
101         the final score once the game is over (0 before)
==========  =============================================================

Observation (``observation_string`` / ``_tensor``): the 86 slots of the
gymnasium env's observation (``scoundrel_core.env.observation``), which count
the unseen cards by type (two monsters of one value are one type), as floats;
the string is the env's ``ansi`` rendering. At a chance node both show the
room dealt so far.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from ..cards import DECK_SIZE
from ..env.observation import BOTTOM_CAP, OBS_SIZE, UNSEEN_BY_TYPE, encode
from ..env.scalar import room_text

__all__ = ["INFO_SIZE", "InfoStateObserver", "ObservationObserver", "make_observer"]

HEAD: Final = UNSEEN_BY_TYPE.start  # 15 slots shared with the env's observation
UNSEEN0: Final = HEAD
BOTTOM0: Final = UNSEEN0 + DECK_SIZE
TO_DRAW: Final = BOTTOM0 + BOTTOM_CAP
BY_FLEE: Final = TO_DRAW + 1
SCORE: Final = BY_FLEE + 1
INFO_SIZE: Final = SCORE + 1
"""Length of the information-state tensor: the observation's head, the unseen cards, the
bottom, the draws pending, the flee flag and the score.
"""


def info_tensor(state: Any, out: npt.NDArray[np.float32]) -> None:
    """Write the information-state tensor of a ``ScoundrelSpielState`` into ``out``."""
    info = state.info
    out.fill(0.0)
    out[:HEAD] = encode(info)[:HEAD]
    for c in info.unseen:
        out[UNSEEN0 + c.id] = 1.0
    for i, c in enumerate(info.bottom):
        out[BOTTOM0 + i] = c.id + 1
    out[TO_DRAW] = state.to_draw
    out[BY_FLEE] = float(state.fled)
    out[SCORE] = float(info.score or 0)


class InfoStateObserver:
    """OpenSpiel's PyObserver for the information state (``perfect_recall=True``)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(INFO_SIZE, np.float32)
        self.dict = {"info_state": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        """Write ``state``'s information-state tensor (one player: ``player`` is 0)."""
        del player
        info_tensor(state, self.tensor)

    def string_from(self, state: Any, player: int) -> str:
        """The information state as its one-line text form."""
        del player
        return str(state.info_text())


class ObservationObserver:
    """OpenSpiel's PyObserver for the observation: the gymnasium env's 86 slots."""

    def __init__(self) -> None:
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        """Write ``state``'s observation: the gymnasium env's 86 slots."""
        del player
        self.tensor[:] = encode(state.info)

    def string_from(self, state: Any, player: int) -> str:
        """The room, health and weapon as a short text."""
        del player
        return room_text(state.info)


def make_observer(
    iig_obs_type: pyspiel.IIGObservationType | None, params: dict[str, Any] | None
) -> InfoStateObserver | ObservationObserver | None:
    """The observer OpenSpiel asks for; None for the kinds this game does not offer.

    Everything the player sees is public in a one-player game (no other player
    holds cards), so the only kinds are the information state and the observation.
    """
    if params:
        raise ValueError(f"python_scoundrel takes no observation parameters, got {params}")
    if iig_obs_type is None:
        return ObservationObserver()
    if iig_obs_type.perfect_recall:
        return InfoStateObserver()
    if iig_obs_type.public_info and (
        iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
    ):
        return ObservationObserver()
    return None
