"""A line of play told room by room, for people following it with real cards."""

from __future__ import annotations

from collections.abc import Iterable

import scoundrel_core as sc
from scoundrel_core import State

__all__ = ["action_effect", "describe_line", "starts_room", "weapon_text"]


def weapon_text(s: State) -> str:
    """The weapon and the strongest monster it may still fight."""
    if not s.weapon_value:
        return "no weapon"
    reach = s.weapon_reach
    if reach < 2:
        return f"weapon {s.weapon} (worn out)"
    top = sc.card(reach - 2).rank  # monster of value `reach` is clubs id reach-2
    return f"weapon {s.weapon} (fights up to {top})"


def action_effect(a: sc.Action, before: State, after: State) -> str:
    """What ``a`` did between two states, in words ('fight KS with the weapon: -4')."""
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


def starts_room(a: sc.Action, before: State, after: State) -> bool:
    """Whether ``a`` led into a new room: a flee, or the room's last decision (a refill)."""
    return not after.is_over and (
        a.is_flee or (after.resolved_in_room == 0 and before.resolved_in_room > 0)
    )


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
