"""A line of play told room by room, for people following it with real cards."""

from __future__ import annotations

from collections.abc import Iterable

import scoundrel_core as sc
from scoundrel_core import State

__all__ = ["describe_line"]


def _weapon_text(s: State) -> str:
    if not s.weapon_value:
        return "no weapon"
    reach = s.weapon_reach
    if reach < 2:
        return f"weapon {s.weapon} (worn out)"
    top = sc.card(reach - 2).rank  # monster of value `reach` is clubs id reach-2
    return f"weapon {s.weapon} (fights up to {top})"


def _what(a: sc.Action, before: State, after: State) -> str:
    if a.is_flee:
        return "flee: room goes under the dungeon"
    c = a.card
    assert c is not None
    if c.is_potion:
        healed = after.health - before.health
        return f"drink {c}: +{healed}" if healed else f"drink {c}: no effect"
    if c.is_weapon:
        return f"equip {c}"
    how = "with the weapon" if a.with_weapon else "barehanded"
    return f"fight {c} {how}: -{before.health - after.health}"


def describe_line(start: State, line: Iterable[str | sc.Action]) -> list[str]:
    """Text lines: each room as dealt, then each action with health and weapon after it."""
    out: list[str] = []
    s = start
    room_no = 1
    out.append(f"Room {room_no}: {' '.join(map(str, s.room))}")
    for raw in line:
        a = sc.parse_action(s, str(raw))
        after = sc.apply(s, a)
        out.append(f"  {a!s:<5} {_what(a, s, after):<34} health {after.health:>3}  "
                   f"{_weapon_text(after)}")
        new_room = not after.is_over and (
            a.is_flee or (after.resolved_in_room == 0 and s.resolved_in_room > 0)
        )
        if new_room:
            room_no += 1
            out.append(f"Room {room_no}: {' '.join(map(str, after.room))}")
        s = after
    if s.is_over:
        out.append(f"Game over: {'won' if s.won else 'lost'}, score {s.score}")
    return out
