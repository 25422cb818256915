"""Playing a deal in the terminal: the game with undo, hints and the review.

Library side of ``scoundrel-play`` (no argument parsing, no terminal I/O):

- :mod:`.session`: the game step by step, what the player knows, undo, records;
- :mod:`.commands`: one typed line read into a command;
- :mod:`.hints`: the fair agent's values for the position (it never peeks);
- :mod:`.review`: after the game, the fair agent's score, the exact best and
  the player's costliest decisions;
- :mod:`.render`: all of that as text, with optional colour for card kinds.
"""

from .commands import Command, UnknownCommand, parse_command
from .session import Session

__all__ = ["Command", "Session", "UnknownCommand", "parse_command"]
