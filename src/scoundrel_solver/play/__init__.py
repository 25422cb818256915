"""Playing a deal in the terminal: input and text for ``scoundrel-play``.

The game, hints and the review are the coach's (:mod:`scoundrel_solver.coach`);
here is only the terminal's side of them (no argument parsing, no terminal I/O):

- :mod:`.session`: the coach's game with undo, read from typed text;
- :mod:`.commands`: one typed line read into a command;
- :mod:`.explain`: a line of play told room by room;
- :mod:`.render`: the position, hints and the review as text, with optional
  colour for card kinds.
"""

from .commands import Command, UnknownCommand, parse_command
from .session import Session

__all__ = ["Command", "Session", "UnknownCommand", "parse_command"]
