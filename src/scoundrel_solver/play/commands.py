"""The player's commands: one line of text read into a :class:`Command`.

An action is its number in the list shown or its notation (``7D``, ``KS/w``,
``KS/f``, ``flee``); the other commands are words. Unknown words raise
:class:`UnknownCommand` with one line saying so.

>>> parse_command("  undo 3 ")
Command(name='undo', arg='3')
>>> parse_command("KS/w")
Command(name='action', arg='KS/w')
>>> parse_command("dance")
Traceback (most recent call last):
...
scoundrel_solver.play.commands.UnknownCommand: unknown command 'dance' (type help for the list)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from scoundrel_core import ScoundrelError

__all__ = ["COMMANDS", "Command", "UnknownCommand", "parse_command"]

COMMANDS: Final = ("hint", "undo", "save", "help", "quit")
"""The commands ``scoundrel-play`` reads besides actions."""
_ALIASES: Final = {"?": "help", "h": "help", "q": "quit", "exit": "quit", "u": "undo"}
_TAKES_ARG: Final = {"undo": False, "save": True}

# Something the player meant as an action: a number, 'flee', or a card (rank then suit),
# maybe with /w or /f; a typo there deserves the action's own error message.
_ACTION_LIKE: Final = re.compile(r"\d+|flee|(10|[2-9TJQKA])[^\s/]?(/\S*)?", re.IGNORECASE)


class UnknownCommand(ScoundrelError):
    """A line that is neither a command nor an action."""


@dataclass(frozen=True)
class Command:
    """``name`` is ``action``, ``empty`` or one of :data:`COMMANDS`; ``arg`` its text."""

    name: str
    arg: str = ""


def parse_command(line: str) -> Command:
    """Read one line typed by the player."""
    text = line.strip()
    if not text:
        return Command("empty")
    word, _, rest = text.partition(" ")
    name = _ALIASES.get(word.lower(), word.lower())
    rest = rest.strip()
    if name in COMMANDS:
        if name == "undo":
            if rest and not rest.isdigit():
                raise UnknownCommand(f"undo takes a number of steps, not {rest!r}")
            return Command(name, rest or "1")
        if _TAKES_ARG.get(name) and not rest:
            raise UnknownCommand(f"{name} needs a file name: '{name} FILE'")
        if rest and not _TAKES_ARG.get(name):
            raise UnknownCommand(f"{name} takes nothing after it, got {rest!r}")
        return Command(name, rest)
    if not rest and _ACTION_LIKE.fullmatch(text):
        return Command("action", text)
    raise UnknownCommand(f"unknown command {text!r} (type help for the list)")
