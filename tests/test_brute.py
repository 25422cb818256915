"""The brute-force oracle itself, on positions small enough to solve by hand.

Every expected value below is worked out in the comments. A handy check is the
potential phi = health - (values of the monsters not yet resolved): fighting
barehanded leaves it unchanged, a weapon kill of monster m with weapon w adds
min(m, w), a potion adds what it heals, and a lost game scores exactly phi at
the moment of death (docs/rules.md: a lost game scores its health minus the
monsters left). The best score is therefore at most
phi + the weapon kills still possible + the potions that can still heal.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from naive.brute import brute_force, brute_force_recursive

COMBOS = [(v, w) for v in sc.FLEE_RULES for w in sc.WEAPON_RULES]


def start(
    deck: str, variant: str = "classic", health: int = 20, weapon_rule: str = "strict"
) -> sc.State:
    """The opening state of a reduced deck, at the given health."""
    s = sc.new_game(deck=deck, partial=True, variant=variant, weapon_rule=weapon_rule)
    return sc.State.from_parts(dungeon=s.dungeon, room=s.room, health=health, variant=s.variant)


def solved(s: sc.State) -> tuple[int, list[str]]:
    """Both oracles, checked against each other and against a replay of the line."""
    score, line = brute_force(s)
    score_rec, line_rec = brute_force_recursive(s)
    assert score == score_rec
    for ln in (line, line_rec):
        end = sc.play_line(s, ln)
        assert end.is_over
        assert end.score == score
    return score, [str(a) for a in line]


# -- single cards -------------------------------------------------------------------


def test_single_potion_at_full_health_adds_its_value() -> None:
    # 20 health, last card 5H: the game is won at 20 with a potion last, +5.
    assert solved(sc.State.from_parts(room=["5H"], health=20)) == (25, ["5H"])


def test_single_potion_below_full_health_just_heals() -> None:
    # 12 + 5 = 17, not 20: no bonus.
    assert solved(sc.State.from_parts(room=["5H"], health=12)) == (17, ["5H"])


def test_potion_bonus_counts_its_whole_value_even_if_it_healed_less() -> None:
    # 17 + 5 caps at 20 (healed 3); won at 20 with 5H last: 20 + 5 = 25.
    assert solved(sc.State.from_parts(room=["5H"], health=17))[0] == 25


def test_second_potion_of_a_room_heals_nothing() -> None:
    # A potion was already drunk in this room: 5H heals nothing, 15 stays 15,
    # and 15 is not 20, so no bonus.
    s = sc.State.from_parts(room=["5H"], health=15, potion_used=True, resolved=1)
    assert solved(s) == (15, ["5H"])


def test_drink_the_small_potion_first_for_the_bonus() -> None:
    # Worked example 4 turned into a puzzle, 16 health, room 9H 5H, dungeon empty.
    # 9H first: 20, then 5H heals nothing, last card a potion at 20: 20 + 5 = 25.
    # 5H first: 16 + 5 = 21 caps at 20, then 9H (no heal), bonus 9: 29.
    assert solved(sc.State.from_parts(room=["9H", "5H"], health=16)) == (29, ["5H", "9H"])


def test_single_monster_barehanded() -> None:
    # 9C barehanded: 20 - 9 = 11.
    assert solved(sc.State.from_parts(room=["9C"], health=20)) == (11, ["9C/f"])


def test_single_monster_with_weapon() -> None:
    # Weapon 5D: 9C costs 9 - 5 = 4, so 16 (barehanded would leave 11).
    assert solved(sc.State.from_parts(room=["9C"], weapon="5D")) == (16, ["9C/w"])


def test_worn_weapon_cannot_fight_a_stronger_monster() -> None:
    # 5D last slew a 6: the 9C can only be fought barehanded, 20 - 9 = 11.
    s = sc.State.from_parts(room=["9C"], weapon="5D", last_kill=6)
    assert solved(s) == (11, ["9C/f"])


# -- deaths ----------------------------------------------------------------------------


def test_death_scores_health_minus_monsters_left_whatever_the_order() -> None:
    # Worked example 6: 3 health, room 9S KC 5S, nothing else. Any first monster kills:
    # 9S: -6 - 13 - 5 = -24;  KC: -10 - 9 - 5 = -24;  5S: -2 - 9 - 13 = -24.
    # (phi = 3 - 27 = -24 and barehanded fights never change it.)
    assert solved(sc.State.from_parts(room=["9S", "KC", "5S"], health=3))[0] == -24


def test_drink_before_dying() -> None:
    # As above plus 4H: drinking first raises phi by 4: 7 - 27 = -20.
    s = sc.State.from_parts(room=["9S", "KC", "5S", "4H"], health=3)
    score, line = solved(s)
    assert score == -20
    assert line[0] == "4H"


def test_worked_example_1_order_of_weapon_kills() -> None:
    # 12 health, room 8D JS 6C 4H, dungeon empty: 8D; JS/w (11 - 8 = 3, 9 left);
    # 6C/w (0 damage, 9); 4H (13). Bound: phi 12 - 17 = -5, + 8 + 6 weapon, + 4 = 13.
    s = sc.State.from_parts(room=["8D", "JS", "6C", "4H"], health=12)
    assert solved(s) == (13, ["8D", "JS/w", "6C/w", "4H"])


# -- weapon rule -------------------------------------------------------------------------


@pytest.mark.parametrize(("weapon_rule", "expected"), [("strict", 1), ("equal", 8)])
def test_weapon_rule_changes_the_answer(weapon_rule: str, expected: int) -> None:
    # Worked example 3: weapon 7D, room KS 10C 10S, 20 health, monsters 33.
    # strict: KS/w (6), one 10 with the weapon (3), the other barehanded (10): 20 - 19 = 1.
    # equal:  KS/w (6), 10C/w (3), 10S/w (3): 20 - 12 = 8.
    s = sc.State.from_parts(
        room=["KS", "10C", "10S"], weapon="7D", variant="hard", weapon_rule=weapon_rule
    )
    assert solved(s)[0] == expected


# -- fleeing -------------------------------------------------------------------------------

# 10 health, deck AC KS 2H 3H 10D: room AC KS 2H 3H, dungeon 10D.
FLEE_DECK = "AC KS 2H 3H 10D"


def test_hard_forced_death() -> None:
    # Without fleeing, three of AC KS 2H 3H are resolved before 10D shows up, so
    # one monster is fought barehanded at no more than 10 + 3 = 13 health
    # (one potion heals per room): KS leaves 0, AC leaves -1, dead either way.
    # Death scores phi: at best 10 - 27 + 3 = -14 (3H, then KS or AC).
    score, line = solved(start(FLEE_DECK, "hard", health=10))
    assert score == -14
    assert line[0] == "3H"


def test_classic_flee_is_required_to_win() -> None:
    # Flee: the room goes under 10D: room 10D AC KS 2H, dungeon 3H.
    # 10D; AC/w (14 - 10 = 4, 6 left); 2H (8); refill: room KS 3H;
    # KS/w (13 < 14 allowed, 3 damage, 5); 3H (8). Bound: 10 - 27 + 10 + 10 + 2 + 3 = 8.
    score, line = solved(start(FLEE_DECK, "classic", health=10))
    assert score == 8
    assert line[0] == "flee"


# 2 health, deck KC 4H 5H AS 10D: room KC 4H 5H AS, dungeon 10D.
# With five cards one card waits in the dungeon while the first room is played;
# each flee changes which: none -> 10D, one flee -> AS, two flees -> 5H, three -> 4H.
DOUBLE_FLEE_DECK = "KC 4H 5H AS 10D"


def test_hard_double_flee_deck_dies() -> None:
    # No flee: three of KC 4H 5H AS, so a monster barehanded at 2 + 5 = 7 at most:
    # dead with phi = 2 - 27 + 5 = -20.
    assert solved(start(DOUBLE_FLEE_DECK, "hard", health=2))[0] == -20


def test_classic_single_flee_only_reaches_zero() -> None:
    # One flee keeps AS back: room 10D KC 4H 5H. Either KC is left for the next
    # room, then both potions share room one (one heals, +5) and both monsters
    # fall to the weapon (AS then KC): 2 - 27 + 20 + 5 = 0, a death at 0 with no
    # monster left; or KC is killed in room one, and the weapon can no longer
    # fight AS (14 is not below 13): at best 2 - 27 + 10 + 9 < 0.
    # Not fleeing keeps 10D back and loses as in hard. So 0: not a win.
    score, line = solved(start(DOUBLE_FLEE_DECK, "classic", health=2))
    assert score == 0
    assert line[0] == "flee"


def test_easy_two_flees_in_a_row_win() -> None:
    # Two flees keep 5H back: room AS 10D KC 4H, dungeon 5H.
    # 10D; 4H (6); AS/w (2); refill: room KC 5H; 5H (7); KC/w (4).
    # Bound: 2 - 27 + 10 + 10 + 4 + 5 = 4, so 4 is the best, and only easy gets it.
    score, line = solved(start(DOUBLE_FLEE_DECK, "easy", health=2))
    assert score == 4
    assert line[:2] == ["flee", "flee"]


def test_easy_cycle_of_flees_terminates() -> None:
    # Six cards: fleeing three times in a row rotates the dungeon back to where
    # it started. Both oracles must still finish and agree.
    s = start("2C 3C 4C 5C 6C 7C", "easy")
    # Only monsters (27 in all), no weapon or potion: every fight is barehanded,
    # phi = 20 - 27 = -7 never changes, and the game ends in a death scoring -7.
    assert solved(s)[0] == -7
    t = s
    for _ in range(3):
        t = sc.apply(t, sc.FLEE)
    assert t.dungeon == s.dungeon and t.room == s.room  # the same cards, in place again


def test_finished_state_returns_its_score() -> None:
    s = sc.State.from_parts(health=7, resolved=1, over=True, score=7)
    assert brute_force(s) == (7, [])
    assert brute_force_recursive(s) == (7, [])


def test_rejects_non_states() -> None:
    with pytest.raises(TypeError):
        brute_force("5H")  # type: ignore[arg-type]


# -- full deals that brute force still handles ----------------------------------------------


@pytest.mark.parametrize(
    ("seed", "weapon_rule", "expected"),
    [(1, "strict", -168), (3, "strict", -165), (3, "equal", -165), (5, "strict", -180)],
)
def test_full_hard_deals_with_an_early_death(seed: int, weapon_rule: str, expected: int) -> None:
    # Golden values (no hand check): these deals die within a few rooms whatever
    # the play, so the whole 44-card state graph is small. They also pin the
    # values used in test_solver_vs_brute.py.
    s = sc.new_game(seed=seed, variant="hard", weapon_rule=weapon_rule)
    score, line = brute_force(s)
    assert score == expected
    assert sc.play_line(s, line).score == expected


# -- the two oracles agree, and nothing beats them -------------------------------------------


@st.composite
def small_positions(draw: st.DrawFn, max_cards: int) -> sc.State:
    variant = draw(st.sampled_from(sc.FLEE_RULES))
    weapon_rule = draw(st.sampled_from(sc.WEAPON_RULES))
    top = max_cards - 1 if variant == "easy" else max_cards  # easy's search is exponential
    cards = draw(st.lists(st.sampled_from(sc.FULL_DECK), min_size=1, max_size=top, unique=True))
    health = draw(st.integers(1, 20))
    return start(sc.format_deck(cards), variant, health, weapon_rule)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(max_cards=7))
def test_the_two_oracles_agree(s: sc.State) -> None:
    solved(s)


@settings(max_examples=60, deadline=None)
@given(small_positions(max_cards=8), st.integers(0, 2**32 - 1))
def test_no_random_playout_beats_the_oracle(s: sc.State, seed: int) -> None:
    best, _ = brute_force(s)
    rng = random.Random(seed)
    for _ in range(20):
        t = s
        while not t.is_over:
            t = sc.apply(t, rng.choice(sc.legal_actions(t)))
        assert t.score is not None
        assert t.score <= best
    assert best <= 30
