"""One test per clause of docs/rules.md (worked examples are in test_examples.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from test_examples import WIN_LINE, WIN_SEED

C = sc.parse_card
SPARE = ["JS", "10S", "8H", "7C", "KC", "4D"]


def cards(text: str) -> tuple[sc.Card, ...]:
    return tuple(C(t) for t in text.split())


def random_line(seed: int, rnd: random.Random) -> tuple[sc.State, list[sc.Action]]:
    """A whole game from a seeded deal in a random variant: its start and its actions.

    Mostly it takes the action that keeps the most health, so games last a while.
    """
    start = s = sc.new_game(
        seed=seed, variant=rnd.choice(sc.FLEE_RULES), weapon_rule=rnd.choice(sc.WEAPON_RULES)
    )
    line = []
    while not s.is_over:
        acts = sc.legal_actions(s)
        if rnd.random() < 0.7:
            a = max(acts, key=lambda a: sc.apply(s, a).health + rnd.random())
        else:
            a = rnd.choice(acts)
        s = sc.apply(s, a)
        line.append(a)
    return start, line


def random_game(seed: int, rnd: random.Random) -> list[sc.State]:
    """Every state of a game played by :func:`random_line`."""
    start, line = random_line(seed, rnd)
    states = [start]
    for a in line:
        states.append(sc.apply(states[-1], a))
    return states


seeds = st.integers(min_value=0, max_value=sc.MAX_SEED)
policies = st.integers(min_value=0, max_value=2**32)  # seeds of random_line's choices


# -- potions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("health", "potion", "after"), [(17, "9H", 20), (11, "9H", 20), (10, "9H", 19), (20, "2H", 20)]
)
def test_potion_heals_up_to_20(health: int, potion: str, after: int) -> None:
    s = sc.State.from_parts(health=health, room=[potion, "2C", "3C", "4C"], dungeon=SPARE)
    assert sc.apply(s, potion).health == after


def test_second_potion_in_room_heals_nothing_but_counts_as_resolved() -> None:
    s = sc.State.from_parts(health=10, room=["5H", "3H", "2C", "4C"], dungeon=SPARE)
    s = sc.play_line(s, "5H 3H")
    assert s.health == 15
    assert s.potion_used
    assert s.resolved_in_room == 2
    assert s.room == cards("2C 4C")
    # The useless potion was one of the three: one more card and the room refills.
    s = sc.apply(s, "2C/f")
    assert s.resolved_in_room == 0
    assert s.room == cards("4C JS 10S 8H")
    assert not s.potion_used


def test_potion_carried_over_heals_in_next_room() -> None:
    s = sc.State.from_parts(health=10, room=["5H", "3H", "2C", "4C"], dungeon=SPARE)
    s = sc.play_line(s, "5H 2C/f 4C/f")
    assert s.health == 9
    assert s.room[0] == C("3H")
    assert not s.potion_used
    assert sc.apply(s, "3H").health == 12


# -- weapons ---------------------------------------------------------------------------


def test_weapon_replaced_even_by_weaker_and_last_kill_reset() -> None:
    s = sc.State.from_parts(room=["3D", "AS", "2C", "4C"], dungeon=SPARE, weapon="8D", last_kill=10)
    assert not sc.can_apply(s, "AS/w")
    s = sc.apply(s, "3D")
    assert s.weapon == C("3D")
    assert s.weapon_value == 3
    assert s.last_kill is None
    assert sc.can_apply(s, "AS/w")  # a fresh weapon may fight any monster
    assert sc.apply(s, "AS/w").health == 20 - (14 - 3)


def test_weapon_kill_sets_last_kill_and_damage() -> None:
    s = sc.State.from_parts(health=20, room=["QC", "4S", "9H", "2H"], dungeon=SPARE, weapon="10D")
    s = sc.apply(s, "QC/w")
    assert (s.health, s.last_kill, s.weapon_value) == (18, 12, 10)
    s = sc.apply(s, "4S/w")
    assert (s.health, s.last_kill) == (18, 4)


@pytest.mark.parametrize("rule", sc.WEAPON_RULES)
@pytest.mark.parametrize("last_kill", range(2, 15))
def test_weapon_wear(rule: str, last_kill: int) -> None:
    for monster in (c for c in sc.FULL_DECK if c.is_monster):
        s = sc.State.from_parts(room=[monster], weapon="10D", last_kill=last_kill, weapon_rule=rule)
        expected = monster.value < last_kill or (rule == "equal" and monster.value == last_kill)
        assert sc.can_apply(s, sc.fight(monster)) == expected, (rule, last_kill, monster)
        assert (sc.fight(monster) in sc.legal_actions(s)) == expected
        assert sc.can_apply(s, sc.resolve(monster))  # barehanded is always allowed


def test_wear_after_queen_only_up_to_jack() -> None:
    s = sc.State.from_parts(room=["QC", "JC", "JS", "KC"], weapon="10D", last_kill=12)
    assert [str(a) for a in sc.legal_actions(s)] == ["JC/f", "JC/w", "QC/f", "KC/f", "JS/f", "JS/w"]
    assert s.weapon_reach == 11


def test_wear_after_five_only_two_three_four() -> None:
    room = ["2C", "4S", "5C", "6S"]
    s = sc.State.from_parts(room=room, dungeon=SPARE[:2], weapon="9D", last_kill=5)
    fightable = [str(a.card) for a in sc.legal_actions(s) if a.with_weapon]
    assert fightable == ["2C", "4S"]
    assert [v for v in range(2, 15) if s.weapon_can_fight(v)] == [2, 3, 4]


def test_equal_wear_allows_same_value() -> None:
    s = sc.State.from_parts(room=["QS", "KC"], weapon="10D", last_kill=12, weapon_rule="equal")
    assert sc.can_apply(s, "QS/w")
    assert not sc.can_apply(s, "KC/w")
    assert s.weapon_reach == 12


def test_barehanded_with_weapon_keeps_weapon_and_last_kill() -> None:
    s = sc.State.from_parts(
        health=20, room=["9C", "2S", "5H", "6H"], dungeon=SPARE, weapon="8D", last_kill=10
    )
    assert sc.can_apply(s, "9C/w")
    after = sc.apply(s, "9C/f")
    assert after.health == 11  # the full value
    assert after.weapon == C("8D")
    assert after.last_kill == 10
    assert sc.can_apply(after, "2S/w")  # the weapon is as it was


def test_fresh_weapon_unused_by_barehanded_fight() -> None:
    s = sc.State.from_parts(room=["9C", "AS", "5H", "6H"], dungeon=SPARE, weapon="8D")
    after = sc.apply(s, "9C/f")
    assert after.last_kill is None
    assert sc.can_apply(after, "AS/w")


# -- fleeing -----------------------------------------------------------------------------


def test_flee_classic_not_twice_in_a_row_then_allowed_again() -> None:
    s = sc.new_game(seed=7)
    assert sc.FLEE in sc.legal_actions(s)
    s = sc.apply(s, "flee")
    assert s.fled_last
    assert sc.FLEE not in sc.legal_actions(s)
    reason = sc.why_illegal(s, "flee")
    assert reason is not None and "twice" in reason
    with pytest.raises(sc.IllegalActionError, match="twice in a row"):
        sc.apply(s, "flee")
    # Play the room dealt by the flee: after it, fleeing is allowed again.
    for _ in range(3):
        s = max((sc.apply(s, a) for a in sc.legal_actions(s)), key=lambda n: n.health)
    assert s.resolved_in_room == 0 and len(s.room) == 4
    assert not s.fled_last
    assert sc.can_apply(s, "flee")


def test_flee_easy_twice_in_a_row() -> None:
    s = sc.new_game(seed=7, variant="easy")
    s = sc.play_line(s, "flee flee flee")
    assert sc.can_apply(s, "flee")


def test_flee_hard_never() -> None:
    s = sc.new_game(seed=7, variant="hard")
    assert sc.FLEE not in sc.legal_actions(s)
    with pytest.raises(sc.IllegalActionError, match="never allows fleeing"):
        sc.apply(s, "flee")


@pytest.mark.parametrize("variant", ["classic", "easy"])
def test_flee_never_after_a_card_of_the_room_was_resolved(variant: str) -> None:
    s = sc.new_game(seed=7, variant=variant)
    s = sc.apply(s, sc.legal_actions(s)[0])
    assert s.resolved_in_room == 1
    assert not sc.can_apply(s, "flee")
    with pytest.raises(sc.IllegalActionError, match="before any card"):
        sc.apply(s, "flee")


@pytest.mark.parametrize("variant", ["classic", "easy"])
def test_flee_never_in_a_short_room(variant: str) -> None:
    s = sc.State.from_parts(
        room=["2C", "3C", "4C"], dungeon=SPARE, resolved=1, variant=variant
    )
    assert not sc.can_apply(s, "flee")
    last_room = sc.State.from_parts(room=["2C", "3C"], variant=variant)
    assert not sc.can_apply(last_room, "flee")


@pytest.mark.parametrize("variant", ["classic", "easy"])
def test_flee_never_with_empty_dungeon(variant: str) -> None:
    s = sc.new_game(deck="2C 3C 4C 5C", partial=True, variant=variant)
    assert len(s.room) == 4 and s.dungeon_size == 0
    assert sc.FLEE not in sc.legal_actions(s)
    with pytest.raises(sc.IllegalActionError, match="dungeon is empty"):
        sc.apply(s, "flee")


def test_flee_puts_room_at_bottom_in_room_order_and_deals_from_top() -> None:
    s = sc.new_game(seed=42)
    after = sc.apply(s, "flee")
    assert after.room == s.dungeon[:4]
    assert after.dungeon == s.dungeon[4:] + s.room
    assert after.health == s.health

    # With a carried-over card, room order puts it first.
    s = sc.State.from_parts(room=["2C", "3C", "4C", "5C"], dungeon=cards("6C 7C 8C 9C 10C"))
    s = sc.play_line(s, "3C/f 2C/f 5C/f")
    assert s.room == cards("4C 6C 7C 8C")
    s = sc.apply(s, "flee")
    assert s.room == cards("9C 10C 4C 6C")
    assert s.dungeon == cards("7C 8C")


def test_flee_keeps_weapon_and_health() -> None:
    s = sc.State.from_parts(
        health=13, room=["2C", "3C", "4C", "5C"], dungeon=SPARE, weapon="9D", last_kill=6
    )
    after = sc.apply(s, "flee")
    assert (after.health, after.weapon, after.last_kill) == (13, C("9D"), 6)


# -- rooms -------------------------------------------------------------------------------


def test_refill_carried_card_first_then_draw_order() -> None:
    s = sc.State.from_parts(room=["2C", "3C", "4C", "5C"], dungeon=cards("6C 7C 8C 9C"))
    s = sc.play_line(s, "5C/f 2C/f 4C/f")
    assert s.room == cards("3C 6C 7C 8C")
    assert s.dungeon == cards("9C")
    assert s.resolved_in_room == 0


def test_refill_short_when_dungeon_runs_out() -> None:
    s = sc.State.from_parts(room=["2C", "3C", "4C", "2S"], dungeon=cards("3S 4S"))
    s = sc.play_line(s, "2C/f 3C/f 4C/f")
    assert s.room == cards("2S 3S 4S")
    assert s.dungeon_size == 0
    assert not s.is_over
    s = sc.play_line(s, "4S/f 2S/f")
    assert s.room == cards("3S")  # every card must be resolved
    assert not s.is_over and s.resolved_in_room == 2


def test_final_two_card_room_of_a_44_card_game() -> None:
    s = sc.new_game(seed=WIN_SEED)
    line = WIN_LINE.split()
    s = sc.play_line(s, line[:-2])
    assert s.dungeon_size == 0
    assert len(s.room) == 2
    assert not s.is_over
    assert sc.FLEE not in sc.legal_actions(s)
    s = sc.apply(s, line[-2])
    assert not s.is_over and len(s.room) == 1
    s = sc.apply(s, line[-1])
    assert s.is_over and s.won


# -- end of the game and score --------------------------------------------------------------


def test_death_score_counts_room_and_dungeon_monsters_not_the_killer() -> None:
    s = sc.State.from_parts(health=5, room=["AS", "QC", "5H", "9D"], dungeon=cards("2S 3C 10H 8D"))
    end = sc.apply(s, "AS/f")
    assert end.is_over and end.lost
    assert end.health == -9
    assert end.score == -9 - 12 - 2 - 3
    assert sc.legal_actions(end) == ()


def test_death_by_weapon_fight_score() -> None:
    s = sc.State.from_parts(
        health=3, room=["AS", "AC"], dungeon=cards("2S"), weapon="9D", resolved=2
    )
    end = sc.apply(s, "AC/w")
    assert end.health == -2
    assert end.score == -2 - 14 - 2


def test_death_at_exactly_zero() -> None:
    s = sc.State.from_parts(health=2, room=["2C", "3C", "4C", "5C"], dungeon=SPARE)
    end = sc.apply(s, "2C/f")
    assert end.health == 0
    assert end.is_over and end.lost
    assert end.score == 0 - 3 - 4 - 5 - (11 + 10 + 7 + 13)


def test_potion_bonus_when_last_potion_heals_to_exactly_20() -> None:
    s = sc.State.from_parts(health=15, room=["5H"])
    end = sc.apply(s, "5H")
    assert end.won and end.health == 20
    assert end.score == 25


def test_potion_bonus_for_potion_that_healed_nothing() -> None:
    full = sc.apply(sc.State.from_parts(health=20, room=["7H"]), "7H")
    assert full.score == 27
    second = sc.play_line(sc.State.from_parts(health=20, room=["5H", "3H"]), "5H 3H")
    assert second.health == 20
    assert second.score == 23


def test_no_potion_bonus_below_20() -> None:
    end = sc.apply(sc.State.from_parts(health=15, room=["3H"]), "3H")
    assert end.won
    assert end.score == 18
    second = sc.play_line(sc.State.from_parts(health=15, room=["2H", "9H"]), "2H 9H")
    assert second.score == 17  # the 9H came second in the room and healed nothing


@pytest.mark.parametrize("last", ["5D", "4C/w", "2S/f"])
def test_no_potion_bonus_when_last_card_is_not_a_potion(last: str) -> None:
    start = sc.State.from_parts(health=20, room=["9H", last.split("/")[0]], weapon="6D")
    end = sc.play_line(start, ["9H", last])
    assert end.is_over
    assert end.score == end.health
    assert end.score == (18 if last == "2S/f" else 20)


@settings(max_examples=60, deadline=None)
@given(seed=seeds, policy=policies)
def test_game_over_exactly_when_dead_or_all_resolved(seed: int, policy: int) -> None:
    rnd = random.Random(policy)
    for s in random_game(seed, rnd):
        finished = s.health <= 0 or (not s.room and s.dungeon_size == 0)
        assert s.is_over == finished
        assert (s.score is not None) == finished
        assert (sc.legal_actions(s) == ()) == finished
        if s.is_over and s.health <= 0:
            assert s.score == s.health - s.monsters_left()


def test_game_over_when_last_card_resolved() -> None:
    s = sc.State.from_parts(health=10, room=["2C", "3C"])
    s = sc.apply(s, "2C/f")
    assert not s.is_over and s.score is None
    s = sc.apply(s, "3C/f")
    assert s.is_over and s.won and s.score == 5


# -- actions -------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=seeds, policy=policies)
def test_legal_actions_ascending_with_flee_last(seed: int, policy: int) -> None:
    rnd = random.Random(policy)
    for s in random_game(seed, rnd):
        acts = sc.legal_actions(s)
        assert list(acts) == sorted(set(acts))
        assert all(isinstance(a, sc.Action) for a in acts)
        if sc.FLEE in acts:
            assert acts[-1] == sc.FLEE == 88
        # legal_actions and can_apply agree on every encoded action
        assert [a for a in range(sc.NUM_ACTIONS) if sc.can_apply(s, a)] == list(acts)


def test_action_encoding() -> None:
    ks = C("KS")
    assert int(sc.resolve(ks)) == 2 * ks.id
    assert int(sc.fight(ks)) == 2 * ks.id + 1
    assert int(sc.FLEE) == 88
    assert sc.NUM_ACTIONS == 89


def test_str_of_actions() -> None:
    assert str(sc.FLEE) == "flee"
    assert str(sc.resolve(C("7D"))) == "7D"
    assert str(sc.resolve(C("5H"))) == "5H"
    assert str(sc.fight(C("KS"))) == "KS/w"
    assert str(sc.resolve(C("KS"))) == "KS/f"
    assert str(sc.resolve(C("10C"))) == "10C/f"


def test_odd_action_on_non_monster_is_illegal() -> None:
    # 2 * id + 1 only means "fight with the weapon" for monsters.
    s = sc.State.from_parts(room=["2D", "3H", "4C", "5C"], dungeon=SPARE[:1], weapon="9D")
    for c in ("2D", "3H"):
        odd = 2 * C(c).id + 1
        assert not sc.can_apply(s, odd)
        with pytest.raises(sc.IllegalActionError, match="not a monster"):
            sc.apply(s, odd)


@pytest.mark.parametrize("rule", ["strict", "equal"])
@pytest.mark.parametrize("last_kill", [None, 2, 7, 14])
@pytest.mark.parametrize("weapon", [None, "5D"])
def test_weapon_reach_is_the_wear_rule_on_both_views(
    rule: str, last_kill: int | None, weapon: str | None
) -> None:
    # The wear rule written out here; State and InfoState ask Variant.weapon_reach for it.
    s = sc.State.from_parts(room=["QC", "JC", "9S", "KC"], dungeon=SPARE[:2], weapon=weapon,
                            last_kill=last_kill if weapon else None, weapon_rule=rule)
    for v in range(2, 15):
        expected = weapon is not None and (
            s.last_kill is None or v < s.last_kill or (rule == "equal" and v == s.last_kill)
        )
        assert s.weapon_can_fight(v) == expected, v
        assert s.weapon_can_fight(v) == (v <= s.weapon_reach), v
    assert s.weapon_reach == sc.InfoState.from_state(s).weapon_reach
