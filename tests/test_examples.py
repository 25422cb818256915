"""The worked examples of docs/rules.md, one test each."""

from __future__ import annotations

import scoundrel_core as sc

# Spare cards below the room, so that resolving three cards refills it.
SPARE = ["2C", "3S", "6H", "8C", "4S"]


def test_example_1_best_order_and_worse_order() -> None:
    start = sc.State.from_parts(health=12, room=["8D", "JS", "6C", "4H"], dungeon=SPARE)

    best = sc.play_line(start, "8D JS/w")
    assert best.health == 12 - (11 - 8) == 9
    best = sc.apply(best, "6C/w")
    assert best.health == 9  # 6 - 8 < 0: no damage
    assert best.weapon == sc.parse_card("8D")
    assert best.last_kill == 6
    assert best.weapon_can_fight(5) and not best.weapon_can_fight(6)
    # 4H was not resolved: it is carried over, first in the next room.
    assert best.room[0] == sc.parse_card("4H")
    assert best.room == tuple(sc.parse_card(c) for c in ["4H", *SPARE[:3]])

    worse = sc.play_line(start, "8D 6C/w")
    assert worse.health == 12
    assert not sc.can_apply(worse, "JS/w")
    assert "JS/w" not in [str(a) for a in sc.legal_actions(worse)]
    worse = sc.apply(worse, "JS/f")
    assert worse.health == 1


def test_example_2_weapon_carries_over_to_next_room() -> None:
    start = sc.State.from_parts(health=20, room=["7D", "KS", "5H", "9C"], dungeon=SPARE)
    s = sc.apply(start, "7D")
    s = sc.apply(s, "KS/w")
    assert s.health == 20 - (13 - 7) == 14
    s = sc.apply(s, "5H")
    assert s.health == 19
    assert s.room[0] == sc.parse_card("9C")
    assert s.last_kill == 13
    assert sc.can_apply(s, "9C/w")  # 9 < 13
    assert sc.apply(s, "9C/w").health == 19 - (9 - 7)


def test_example_3_wear_strict_and_equal() -> None:
    def start(weapon_rule: str) -> sc.State:
        return sc.State.from_parts(
            room=["KS", "10C", "10S", "2H"], dungeon=SPARE, weapon="7D", weapon_rule=weapon_rule
        )

    strict = start("strict")
    assert sc.can_apply(strict, "KS/w")
    strict = sc.apply(strict, "KS/w")
    assert sc.can_apply(strict, "10C/w")
    strict = sc.apply(strict, "10C/w")
    assert strict.last_kill == 10
    assert not sc.can_apply(strict, "10S/w")
    assert sc.can_apply(strict, "10S/f")

    equal = sc.play_line(start("equal"), "KS/w 10C/w")
    assert sc.can_apply(equal, "10S/w")
    assert sc.apply(equal, "10S/w").health == equal.health - 3


def test_example_4_potion_cap_and_second_potion() -> None:
    start = sc.State.from_parts(health=16, room=["9H", "5S", "5H", "3C"], dungeon=SPARE)
    s = sc.apply(start, "9H")
    assert s.health == 20  # not 25
    s = sc.apply(s, "5S/f")
    assert s.health == 15
    s = sc.apply(s, "5H")
    assert s.health == 15  # the second potion of the room heals nothing


def test_example_5_king_barehanded_and_with_weapon() -> None:
    bare = sc.State.from_parts(room=["KS", "5C", "6C", "7C"], dungeon=SPARE)
    assert sc.apply(bare, "KS/f").health == 20 - 13
    armed = sc.State.from_parts(room=["KS", "5C", "6C", "7C"], dungeon=SPARE, weapon="9D")
    assert sc.apply(armed, "KS/w").health == 20 - 4


def test_example_6_death_score() -> None:
    s = sc.State.from_parts(health=3, room=["9S", "KC", "2H", "3D"], dungeon=["5S", "4D"])
    end = sc.apply(s, "9S/f")
    assert end.is_over and end.lost
    assert end.health == -6
    assert end.score == -6 - 13 - 5 == -24


def test_example_7_best_score_is_30() -> None:
    s = sc.State.from_parts(health=18, room=["2C", "10H"])
    s = sc.apply(s, "2C/f")
    assert not s.is_over
    end = sc.apply(s, "10H")
    assert end.is_over and end.won
    assert end.health == 20
    assert end.score == 30


# A winning line from seed 0 without fleeing (found by a beam search, checked in).
WIN_SEED = 0
WIN_LINE = (
    "5D KS/w 10C/w 10H 8S/w 5S/w 8D 3H AC/w 9S/w 7S/w 2C/w 9H 2D 2S/w 4D 10S/w 8C/w "
    "4C/w 3C/w 6D JC/w 4S/w 3S/w 8H 9D 6C/f QC/w JS/w 9C/w 7H 6S/w 7D 5H 2H 7C/w 5C/w "
    "3D 10D 6H AS/w KC/w 4H QS/w"
)


def test_example_8_fourteen_rooms_of_three_then_two() -> None:
    s = sc.new_game(seed=WIN_SEED)
    per_room: list[int] = []
    in_room = 0
    for text in WIN_LINE.split():
        s = sc.apply(s, text)
        in_room += 1
        if s.resolved_in_room == 0 and not s.is_over:  # the room was refilled
            per_room.append(in_room)
            in_room = 0
    per_room.append(in_room)
    assert s.is_over and s.won
    assert per_room == [3] * 14 + [2]
    assert sum(per_room) == sc.DECK_SIZE
