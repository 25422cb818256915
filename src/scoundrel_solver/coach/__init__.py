"""The coach: the game services both front ends share (``scoundrel-play`` and
``scoundrel-web``), which keep only rendering and input/output.

- :mod:`.deal`: where a game starts (a seed, a daily dungeon, a deck, a position);
- :mod:`.game`: a deal played along a line: true state, what the player knows,
  the weapon's stack of slain monsters, room numbers;
- :mod:`.session`: a game with undo;
- :mod:`.words`: the words for actions and for the weapon's reach;
- :mod:`.hints`: the hint agent (the fair agent that plays and is measured) and
  its values as rows;
- :mod:`.labels`: decision labels and accuracy from drops in the chance of winning;
- :mod:`.score`: how a finished game's score came about;
- :mod:`.review`: a played game judged decision by decision, with the fair
  agent's score and the exact best on the same deal.

Importing this package loads no search kernel; :mod:`.hints` and
:mod:`.review` load the fair agent (numba) when imported.
"""

from .deal import Deal
from .game import Game, room_numbers, starts_room
from .session import Session

__all__ = ["Deal", "Game", "Session", "room_numbers", "starts_room"]
