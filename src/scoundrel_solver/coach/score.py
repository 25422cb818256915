"""How a finished game's score came about, in parts a player can check.

A won game scores its health, plus the last card's value when that card was a
potion drunk at full health; a lost game scores its health (0 or below) minus
the monsters not yet fought. The parts are read from the final position and put
together by the library's own scoring rules (``scoundrel_core.steps``), so the
words cannot drift from the score.

>>> import scoundrel_core as sc
>>> end = sc.apply(sc.State.from_parts(health=3, room="9S KC", dungeon="5S", resolved=2), "9S/f")
>>> print(explain(end, sc.parse_action_text("9S/f")).text)
score -24 = health -6 - 18 for the monsters not yet fought (KC 13, 5S 5)
>>> print(explain(sc.apply(sc.State.from_parts(room="10H"), "10H"),
...               sc.parse_action_text("10H")).text)
score 30 = health 20 + 10 for 10H, a potion drunk last at full health
"""

from __future__ import annotations

from dataclasses import dataclass

from scoundrel_core import Action, Card, Kind, State
from scoundrel_core.steps import death_score, win_score

__all__ = ["ScoreParts", "explain"]


@dataclass(frozen=True)
class ScoreParts:
    """A finished game's score and what made it."""

    score: int
    health: int
    won: bool
    bonus: int = 0
    """A won game's bonus: the value of the potion drunk last at full health (else 0)."""
    bonus_card: Card | None = None
    left: tuple[Card, ...] = ()
    """A lost game's monsters not yet fought, room first, then the dungeon top first."""

    @property
    def left_total(self) -> int:
        """The values of the monsters not yet fought, added up."""
        return sum(c.value for c in self.left)

    @property
    def text(self) -> str:
        """The score as a sum: ``score 14 = health 14``."""
        if self.won:
            if self.bonus_card is None:
                return f"score {self.score} = health {self.health}"
            return (f"score {self.score} = health {self.health} + {self.bonus} for "
                    f"{self.bonus_card}, a potion drunk last at full health")
        if not self.left:
            return f"score {self.score} = health {self.health} (no monster was left)"
        cards = ", ".join(f"{c} {c.value}" for c in self.left)
        return (f"score {self.score} = health {self.health} - {self.left_total} for the "
                f"monsters not yet fought ({cards})")


def explain(end: State, last: Action | None) -> ScoreParts:
    """The parts of the score of the finished game ``end``, whose last action was
    ``last``; a ValueError when the game is not over or the parts do not add up."""
    if not end.is_over or end.score is None:
        raise ValueError("the game is not over: it has no score yet")
    h = end.health
    if end.won:
        c = None if last is None else last.card
        kind, value = (-1, 0) if c is None else (int(c.kind), c.value)
        bonus = win_score(h, kind, value) - h
        parts = ScoreParts(end.score, h, True, bonus, c if bonus else None)
        total = h + bonus
    else:
        left = tuple(c for c in (*end.room, *end.dungeon) if c.kind is Kind.MONSTER)
        parts = ScoreParts(end.score, h, False, left=left)
        total = death_score(h, parts.left_total)
    if total != end.score:
        raise ValueError(f"the parts of the score add up to {total}, not {end.score}")
    return parts
