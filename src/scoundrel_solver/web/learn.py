"""The how-to-play page: the rules (``docs/rules.md``, shipped with the package) and a
tutorial on a fixed deal.

The rules have one source, the project's ``docs/rules.md``; the package carries it
as ``web/rules.md`` (a link to that file in the source tree, a copy in the wheel).
The page shows its text for players: the ``>>>`` examples and the paragraphs for
programmers are left out.

The tutorial is a short deal played along a fixed line, one lesson a step: a room,
a flee, a weapon and its last kill, the one-potion rule, the score. A step is
played with the same buttons as ``/play``; only the lesson's action is enabled.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any, Final

import markdown
from markupsafe import Markup

from ..coach.deal import Deal
from ..coach.game import Game
from .game import BadInput, parse_line_text, replay
from .view import board

__all__ = ["DECK", "LESSONS", "lesson", "rules_html", "rules_text"]

DECK: Final = "KS QC 5S 2H 7D 9S 5C 6H 4H 8C 3S 10D"
"""The tutorial's deal, top of the dungeon first (12 cards: five rooms)."""

LESSONS: Final[tuple[tuple[str, str], ...]] = (
    ("flee", "A room is four cards from the top of the dungeon. Clubs and spades are "
     "monsters: each hurts you by its value, and this room holds a king (13) and a "
     "queen (12) while you have no weapon. A room you have not touched may be fled: its "
     "four cards go under the dungeon, and you meet them again at the end. Flee."),
    ("7D", "A room dealt by a flee must be played (classic rules: never flee twice in a "
     "row). You resolve three of its four cards, in any order; the fourth waits for the "
     "next room. Diamonds are weapons: equip the 7 of diamonds."),
    ("9S/w", "Fight the 9 of spades with the weapon: you lose only what it exceeds the "
     "weapon by, 9 - 7. The 9 becomes the weapon's last kill."),
    ("5C/w", "A weapon that has killed gets blunt: from now on it fights only monsters "
     "weaker than its last kill. The 5 of clubs is below 9, and the 7 beats it: no damage. "
     "This is the room's third card, so the 6 of hearts stays for the next room."),
    ("8C/f", "A new room: the card you left, then three from the dungeon. The weapon's "
     "last kill is now 5, so the 8 of clubs can only be fought barehanded (it costs its "
     "value). Take the blow now, before you heal."),
    ("6H", "Hearts are potions: drink the 6 of hearts. Health never goes above 20."),
    ("3S/w", "Only the first potion drunk in a room heals: the 4 of hearts would do "
     "nothing now (read its button). Fight the 3 of spades with the weapon (3 is below "
     "5) and keep the potion for the next room."),
    ("10D", "The king and queen you fled come back: they were under the dungeon. A new "
     "weapon replaces the old one, and a fresh weapon fights any monster. Equip the 10 "
     "of diamonds."),
    ("KS/w", "Fight the king with the weapon: 13 - 10."),
    ("QC/w", "The queen (12) is below the weapon's last kill (13), so the weapon may "
     "fight her too. Order matters: the queen first would have left the king out of "
     "its reach."),
    ("5S/w", "The dungeon is empty: the last room is what is left, and it is played to "
     "the last card. The weapon's last kill is 12: fight the 5 of spades with it."),
    ("4H", "A new room, so the 4 of hearts heals again."),
    ("2H", "The 2 of hearts is this room's second potion: it heals nothing, but every "
     "card must be resolved to clear the dungeon."),
)
"""Each step's action and what the player reads before playing it."""

DONE: Final = ("You cleared the dungeon. A won game scores your health; a lost one your "
               "health minus the monsters you never fought, so dying early costs the "
               "most. Now play a real dungeon: 44 cards, fourteen rooms and a half.")


def _deal() -> Deal:
    return Deal.of_deck(DECK)


def lesson(line_text: str | None) -> dict[str, Any]:
    """The tutorial after the steps of ``line_text`` (a prefix of its line): the board
    with only the lesson's action enabled, the lesson, and whether it is done."""
    steps = parse_line_text(line_text)
    script = [a for a, _ in LESSONS]
    for i, (got, want) in enumerate(zip(steps, script, strict=False), 1):
        if got != want:
            raise BadInput("line", f"tutorial step {i} is {want}, not {got[:20]!r}")
    if len(steps) > len(script):
        raise BadInput("line", f"the tutorial has {len(script)} steps, not {len(steps)}")
    game = replay(_deal(), steps)
    b = _tutorial_board(game, script)
    k = len(steps)
    return {"b": b, "step": k + 1, "steps": len(script), "done": k == len(script),
            "text": DONE if k == len(script) else LESSONS[k][1],
            "expected": None if k == len(script) else script[k]}


def _tutorial_board(game: Game, script: list[str]) -> dict[str, Any]:
    b = board(game, "/learn")
    k = len(game.line)
    want = script[k] if k < len(script) else None
    rows = [*b["actions"]]
    for row in rows:
        row["href"] = f"/learn?line={row['line']}#tutorial"
        row["disabled"] = row["action"] != want
    b["undo_href"] = b["restart_href"] = None
    return b


# a code example, with the line leading into it ("... like this:")
_FENCE: Final = re.compile(r"(?:^[^\n]*:\n\n)?^```.*?^```\s*$", re.S | re.M)
_PROGRAMMERS: Final = re.compile(r"^\*For programmers:\*.*?(?:\n\s*\n|\Z)", re.S | re.M)


def rules_text() -> str:
    """The text of ``docs/rules.md`` as the package ships it."""
    return resources.files("scoundrel_solver.web").joinpath("rules.md").read_text("utf-8")


@lru_cache(maxsize=1)
def rules_html() -> Markup:
    """The rules for players, as HTML: the project's own file without its code
    examples and its notes for programmers (trusted text, not a request's)."""
    text = _PROGRAMMERS.sub("", _FENCE.sub("", rules_text()))
    # the file's title is a level below the page's own
    html = markdown.markdown(text, extensions=["tables", "toc"], output_format="html",
                             extension_configs={"toc": {"baselevel": 2}})
    return Markup(html)  # the package's own file, never user input
