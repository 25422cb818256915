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

from scoundrel_core import ScoundrelError, excerpt

__all__ = ["COMMANDS", "MAX_COUNT_DIGITS", "Command", "UnknownCommand", "parse_command",
           "read_count"]

COMMANDS: Final = ("hint", "undo", "save", "help", "quit")
"""The commands ``scoundrel-play`` reads besides actions."""
_ALIASES: Final = {"?": "help", "h": "help", "q": "quit", "exit": "quit", "u": "undo"}
_TAKES_ARG: Final = {"undo": False, "save": True}

# Something the player meant as an action: a number, 'flee', or a card (rank then suit),
# maybe with /w or /f; a typo there deserves the action's own error message.
_ACTION_LIKE: Final = re.compile(r"[0-9]+|flee|(10|[2-9TJQKA])[^\s/]?(/\S*)?", re.IGNORECASE)


# A count the player types (an action's number, undo's steps): ASCII digits only (str.isdigit
# takes '²', which int() refuses), and few of them (int() refuses more than 4,300).
_COUNT: Final = re.compile(r"[0-9]+")
MAX_COUNT_DIGITS: Final = 6
"""More digits than this is more than any game has actions (or steps to undo)."""


def read_count(text: str) -> int | None:
    """A count typed in ASCII digits, or None if the text is not one; a count of more than
    :data:`MAX_COUNT_DIGITS` digits reads as one past the largest, which nothing accepts.

    >>> read_count("3"), read_count("²"), read_count("9" * 5000)
    (3, None, 1000000)
    """
    if not _COUNT.fullmatch(text):
        return None
    return int(text) if len(text) <= MAX_COUNT_DIGITS else 10**MAX_COUNT_DIGITS


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
            if rest and not _COUNT.fullmatch(rest):
                raise UnknownCommand(f"undo takes a number of steps, not {excerpt(rest)}")
            if len(rest) > MAX_COUNT_DIGITS:
                raise UnknownCommand(f"cannot undo {excerpt(rest, 20)} steps: no game is so long")
            return Command(name, rest or "1")
        if _TAKES_ARG.get(name) and not rest:
            raise UnknownCommand(f"{name} needs a file name: '{name} FILE'")
        if rest and not _TAKES_ARG.get(name):
            raise UnknownCommand(f"{name} takes nothing after it, got {excerpt(rest)}")
        return Command(name, rest)
    if not rest and _ACTION_LIKE.fullmatch(text):
        return Command("action", text)
    raise UnknownCommand(f"unknown command {excerpt(text)} (type help for the list)")
