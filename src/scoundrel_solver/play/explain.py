"""A line of play told room by room, for people following it with real cards."""

from __future__ import annotations

from collections.abc import Iterable

import scoundrel_core as sc
from scoundrel_core import State

from ..coach.game import starts_room
from ..coach.words import action_effect, weapon_text

__all__ = ["describe_line"]


def describe_line(start: State, line: Iterable[str | sc.Action]) -> list[str]:
    """Text lines: each room as dealt, then each action with health and weapon after it."""
    out: list[str] = []
    s = start
    room_no = 1
    out.append(f"Room {room_no}: {' '.join(map(str, s.room))}")
    for raw in line:
        a = sc.parse_action(s, str(raw))
        after = sc.apply(s, a)
        out.append(f"  {a!s:<5} {action_effect(a, s, after):<34} health {after.health:>3}  "
                   f"{weapon_text(after)}")
        if starts_room(a, s, after):
            room_no += 1
            out.append(f"Room {room_no}: {' '.join(map(str, after.room))}")
        s = after
    if s.is_over:
        out.append(f"Game over: {'won' if s.won else 'lost'}, score {s.score}")
    return out
