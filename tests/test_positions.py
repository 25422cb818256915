"""Positions made from outside: each one is either playable to the end or refused.

Valid state texts come from random games; one field at a time is then replaced
by a value that may or may not make sense. Whatever ``State.from_text`` (and
the info-state text reader) does with it, it must either raise a
``ScoundrelError`` or give a position whose random play works to the end:
legal actions while the game runs, a score once it is over. And every
position the rules reach must pass the same check (``check_position`` has no
false alarms on reachable states).
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core.info import ChanceNode, InfoState, parse_info_text

FIELDS = ("health", "weapon", "last", "potion", "resolved", "fled", "room", "dungeon", "score")
MAX_STEPS = 400  # easy lets a game flee for ever; after this many steps stop fleeing
LOWEST_SCORE = -188  # see scoundrel_core.position
CARD_TEXTS = [str(c) for c in sc.FULL_DECK] + ["QH", "1C", "2X", "AD"]


def fields_of(text: str) -> tuple[str, dict[str, str]]:
    head, _, rest = text.partition(" ")
    return head, dict(re.findall(r"(\w+)=(\[[^\]]*\]|\S+)", rest))


def compose(head: str, fields: dict[str, str]) -> str:
    return " ".join([head, *(f"{k}={v}" for k, v in fields.items())])


def random_position(seed: int, rng: random.Random) -> sc.State:
    """A state reached by random play from a full or partial deal in a random variant."""
    variant = rng.choice(sc.FLEE_RULES) + "/" + rng.choice(sc.WEAPON_RULES)
    if rng.random() < 0.5:
        s = sc.new_game(seed=seed, variant=variant)
    else:
        deck = rng.sample(sc.FULL_DECK, rng.randint(1, 16))
        s = sc.new_game(deck=deck, variant=variant, partial=True)
    for _ in range(rng.randint(0, 30)):
        if s.is_over:
            break
        nxt = sc.apply(s, rng.choice(sc.legal_actions(s)))
        if nxt.is_over and rng.random() < 0.8:
            break  # mostly running games: more of their mutations stay valid
        s = nxt
    return s


def card_list(rng: random.Random, base: list[str]) -> str:
    """A card list near ``base``: a card dropped, added, moved, duplicated, or random."""
    cards = list(base)
    how = rng.randrange(5)
    if how == 0 and cards:
        cards.pop(rng.randrange(len(cards)))
    elif how == 1:
        cards.insert(rng.randint(0, len(cards)), rng.choice(CARD_TEXTS))
    elif how == 2 and cards:
        cards.append(cards[rng.randrange(len(cards))])
    elif how == 3:
        cards = rng.sample(CARD_TEXTS, rng.randint(0, 6))
    else:
        rng.shuffle(cards)
    return "[" + " ".join(cards) + "]"


def mutate(text: str, field: str, rng: random.Random) -> str:
    head, fields = fields_of(text)
    choices: dict[str, list[str]] = {
        "health": [str(rng.randint(1, 20)), str(rng.randint(-40, 40)), "x", "1.5", "+3"],
        "weapon": ["-", rng.choice(CARD_TEXTS), f"{rng.randint(2, 10)}D"],
        "last": ["-", rng.choice([*"23456789JQKA", "10", "1", "Z", "11"])],
        "potion": [rng.choice("0123x")],
        "fled": [rng.choice("0123x")],
        "resolved": [str(rng.randint(0, 6)), "x", "-1"],
        "room": [card_list(rng, fields["room"][1:-1].split())],
        "dungeon": [card_list(rng, fields["dungeon"][1:-1].split()), "7C"],
        "score": [str(rng.randint(-300, 300)), fields["health"], str(rng.randint(20, 31)), "x"],
    }
    if field == "variant":
        head = rng.choice(["classic", "easy/equal", "hard", "hard/strict", "medium", "classic/x"])
    elif field == "score" and "score" in fields and rng.random() < 0.3:
        del fields["score"]
    else:
        fields[field] = rng.choice(choices[field])
    return compose(head, fields)


def play_out(s: sc.State, rng: random.Random) -> None:
    """Random legal play to the end; every state on the way passes the check."""
    for step in range(10 * MAX_STEPS):
        assert sc.State.from_text(s.to_text()) == s
        if s.is_over:
            assert s.score is not None and LOWEST_SCORE <= s.score <= 30
            assert s.won == (s.health > 0)
            return
        acts = sc.legal_actions(s)
        assert acts, f"no legal action in a running game: {s}"
        if step > MAX_STEPS and len(acts) > 1:
            acts = tuple(a for a in acts if not a.is_flee)
        s = sc.apply(s, rng.choice(acts))
    raise AssertionError(f"game not over after {10 * MAX_STEPS} steps: {s}")


def play_out_info(info: InfoState, rng: random.Random) -> None:
    """The same for the fair player's view, drawing chance outcomes at random."""
    node: InfoState | ChanceNode = info
    for step in range(10 * MAX_STEPS):
        while isinstance(node, ChanceNode):
            outcomes = node.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            node = node.draw(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        if node.is_over:
            assert node.score is not None and LOWEST_SCORE <= node.score <= 30
            return
        acts = sc.legal_actions(node)
        assert acts, f"no legal action in a running game: {node.to_text()}"
        assert [int(a) for a in sc.legal_action_mask(node).nonzero()[0]] == [int(a) for a in acts]
        if step > MAX_STEPS and len(acts) > 1:
            acts = tuple(a for a in acts if not a.is_flee)
        node = sc.apply(node, rng.choice(acts))
    raise AssertionError(f"game not over after {10 * MAX_STEPS} steps: {node}")


seeds = st.integers(0, 2**32)


@given(seeds)
@settings(max_examples=150, deadline=None)
def test_every_reachable_position_passes_the_check(seed: int) -> None:
    rng = random.Random(seed)
    s = random_position(seed, rng)
    play_out(s, rng)
    full = s.dungeon_size + len(s.room) > 40 or seed % 2 == 0
    if full:
        game = sc.new_game(seed=seed)
        while not game.is_over:
            # Full deals also pass the stricter check of a 44-card deal.
            assert sc.State.from_text(game.to_text(), partial=False) == game
            game = sc.apply(game, rng.choice(sc.legal_actions(game)))
        assert sc.State.from_text(game.to_text(), partial=False) == game


@given(seeds, st.sampled_from(("variant", *FIELDS)), st.integers(1, 3))
@settings(max_examples=600, deadline=None)
def test_mutated_state_text_is_refused_or_playable(seed: int, field: str, times: int) -> None:
    rng = random.Random(seed)
    text = random_position(seed, rng).to_text()
    for _ in range(times):
        text = mutate(text, field if _ == 0 else rng.choice(("variant", *FIELDS)), rng)
    try:
        s = sc.State.from_text(text)
    except sc.ScoundrelError as err:
        assert repr(text) in str(err)  # the message quotes the text
        return
    play_out(s, rng)


@given(seeds, st.sampled_from(("variant", "bottom", *FIELDS)))
@settings(max_examples=300, deadline=None)
def test_mutated_info_text_is_refused_or_playable(seed: int, field: str) -> None:
    rng = random.Random(seed)
    s = random_position(seed, rng)
    d = [str(c) for c in s.dungeon]
    bottom = d[len(d) - rng.randint(0, len(d)) :]
    text = s.to_text()
    if field == "bottom":
        bottom_text = card_list(rng, bottom)
    else:
        text = mutate(text, field, rng)
        bottom_text = "[" + " ".join(bottom) + "]"
    try:
        info = parse_info_text(f"{text} | bottom={bottom_text}")
    except sc.ScoundrelError:
        return
    assert InfoState.from_text(info.to_text()) == info
    play_out_info(info, rng)


# -- the invariants one by one -------------------------------------------------------------

DG = (
    "dungeon=[7C 3S 10S 7D AS 4C 2H 4D AC 8D 4S JS 5D 6D 9C 9H 5H 9S 2D 10C 8C 6C 6S 3H 3C "
    "8S 10H 9D QC 8H 2C 7H JC KS QS 5C 5S]"
)


def state(fields: str, variant: str = "classic/strict") -> str:
    return f"{variant} {fields}"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        # issue 8, item 1
        (state("health=15 weapon=10D last=K potion=0 resolved=0 fled=0 room=[] "
               "dungeon=[6H 7S 7C]"), "empty room in a running game"),
        (state("health=15 weapon=10D last=K potion=0 resolved=0 fled=0 room=[6H] "
               "dungeon=[7S 7C]"), "room + resolved must be 4"),
        (state("health=15 weapon=10D last=K potion=0 resolved=0 fled=0 room=[] dungeon=[]"),
         "empty room in a running game"),
        (state("health=20 weapon=- last=- potion=0 resolved=0 fled=0 room=[2C] "
               "dungeon=[9H 6S 7S 8S 9S]"), "room + resolved must be 4"),
        (state("health=20 weapon=- last=- potion=0 resolved=3 fled=0 room=[2C 3C 4C 5C] "
               "dungeon=[9H]"), "room + resolved must be 4"),
        (state("health=20 weapon=- last=- potion=0 resolved=4 fled=0 room=[2C 3C 4C 5C] "
               "dungeon=[]"), "more than 4 cards in a room"),
        (state("health=20 weapon=- last=- potion=0 resolved=3 fled=0 room=[2C] dungeon=[9H]"),
         "refilled after 3 resolutions"),
        # issue 8, item 2
        (state("health=0 weapon=10D last=K potion=0 resolved=2 fled=0 room=[6H 7S] " + DG),
         "health 0 out of range 1..20 for a running game"),
        (state("health=-13 weapon=- last=- potion=0 resolved=2 fled=0 room=[6H 7S] " + DG),
         "health -13 out of range 1..20"),
        (state("health=20 weapon=- last=- potion=0 resolved=2 fled=0 room=[] dungeon=[] "
               "score=-200"), "must be 20"),
        (state("health=-14 weapon=- last=- potion=0 resolved=1 fled=0 room=[] dungeon=[] "
               "score=-14"), "health -14 out of range -13..20 for a finished game"),
        (state("health=-3 weapon=- last=- potion=0 resolved=1 fled=0 room=[KC] dungeon=[] "
               "score=-3"), "must be health -3 minus the monsters left (13): -16"),
        # issue 8, item 3
        (state("health=15 weapon=10D last=K potion=0 resolved=0 fled=0 room=[6H] dungeon=[] "
               "score=999"), "resolved=0"),
        (state("health=15 weapon=10D last=K potion=0 resolved=1 fled=0 room=[] dungeon=[] "
               "score=300"), "must be 15"),
        (state("health=20 weapon=- last=- potion=0 resolved=1 fled=0 room=[] dungeon=[] "
               "score=30"), "must be 20 (or 22..30 after a last potion)"),
        # the other invariants
        (state("health=9 weapon=- last=- potion=0 resolved=0 fled=1 room=[2C 3C 4C 5C] "
               "dungeon=[9H]", "hard/strict"), "never allows fleeing"),
        (state("health=9 weapon=- last=- potion=0 resolved=1 fled=1 room=[2C 3C 4C] "
               "dungeon=[9H]"), "fled=1 needs a full, untouched room"),
        (state("health=9 weapon=- last=- potion=1 resolved=0 fled=0 room=[2C 3C 4C 5C] "
               "dungeon=[9H]"), "potion=1 needs a resolved card"),
        (state("health=9 weapon=- last=- potion=1 resolved=2 fled=0 room=[2C 2H] "
               "dungeon=[3H 4H 5H 6H 7H 8H 9H 10H]"), "all 9 potions are still in the room"),
        (state("health=9 weapon=- last=9 potion=0 resolved=0 fled=0 room=[2C]  dungeon=[]"),
         "needs a weapon"),
        (state("health=9 weapon=5D last=9 potion=0 resolved=0 fled=0 room=[9C 9S] dungeon=[]"),
         "both monsters of that value (9C 9S)"),
        (state("health=9 weapon=5D last=- potion=0 resolved=0 fled=0 room=[9C 5D] dungeon=[]"),
         "card 5D is in the position twice"),
        (state("health=9 weapon=5D last=- potion=0 resolved=0 fled=0 room=[9C 8C 7C 6C 5C] "
               "dungeon=[]"), "at most 4"),
        (state("health=9 weapon=5D last=- potion=0 resolved=1 fled=0 room=[9C 8C] dungeon=[] "
               "score=9"), "has no cards left, but 2 are in the room or dungeon"),
        (state("health=9 weapon=- last=- potion=0 resolved=1 fled=1 room=[] dungeon=[] "
               "score=9"), "fled=1 in an ended game"),
    ],
)
def test_impossible_position_is_refused(text: str, why: str) -> None:
    with pytest.raises(sc.PositionError, match=re.escape(why)) as info:
        sc.State.from_text(text)
    assert str(info.value).startswith(f"bad state text {text!r}: ")
    with pytest.raises(sc.PositionError, match=re.escape(why)):
        parse_info_text(text)


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("potion", "2", "potion must be 0 or 1, got '2'"),
        ("fled", "yes", "fled must be 0 or 1, got 'yes'"),
        ("health", "x", "health must be an integer, got 'x'"),
        ("resolved", "1.5", "resolved must be an integer, got '1.5'"),
        ("last", "Z", "last must be - or a monster rank 2..10, J, Q, K, A, got 'Z'"),
        ("room", "2C", "room must be cards in brackets, like room=[7D 5H], got '2C'"),
        ("weapon", "QH", "bad card 'QH'"),
        ("weapon", "5C", "weapon 5C is not a diamond"),
    ],
)
def test_state_text_names_the_wrong_field(field: str, value: str, why: str) -> None:
    head, fields = fields_of(sc.new_game(seed=3).to_text())
    fields[field] = value
    with pytest.raises(sc.StateTextError, match=re.escape(why)):
        sc.State.from_text(compose(head, fields))


def test_state_text_missing_unknown_or_repeated_field() -> None:
    text = sc.new_game(seed=3).to_text()
    with pytest.raises(sc.StateTextError, match="no fled= field"):
        sc.State.from_text(text.replace(" fled=0", ""))
    with pytest.raises(sc.StateTextError, match="unknown field 'mana'"):
        sc.State.from_text(text + " mana=3")
    with pytest.raises(sc.StateTextError, match="field health= given twice"):
        sc.State.from_text(text + " health=3")
    with pytest.raises(sc.StateTextError, match="expected the variant first"):
        sc.State.from_text(text.partition(" ")[2])


GONE = ("AC", "AS", "10C", "9C")


def test_scores_never_wrap() -> None:
    """Every score an ended game can have packs and reads back as itself."""
    lost = sc.State.from_parts(
        health=-13,
        room=["AC"],
        dungeon=[c for c in sc.FULL_DECK if c.is_monster and str(c) not in GONE],
        resolved=3, over=True, score=-188,
    )
    assert lost.score == -188 == sc.play_line(sc.State.from_parts(
        room="10C 9C AS AC", dungeon=lost.dungeon), "10C/f 9C/f AS/f").score
    assert sc.State.from_text(lost.to_text()).score == lost.score
    for score in (20, *range(22, 31)):
        won = sc.State.from_parts(health=20, resolved=1, potion_used=True, over=True, score=score)
        assert won.score == score
    for health in range(1, 21):
        assert sc.State.from_parts(health=health, resolved=1, over=True, score=health).won


def test_full_deal_check() -> None:
    s = sc.new_game(seed=5)
    assert sc.State.from_text(s.to_text(), partial=False) == s
    short = sc.State.from_parts(room=s.room, dungeon=s.dungeon[1:])  # a partial deck is fine
    with pytest.raises(sc.PositionError, match="a full deal leaves 40, 37"):
        sc.State.from_text(short.to_text(), partial=False)
    last = sc.State.from_parts(room="2C 3C 4C")
    with pytest.raises(sc.PositionError, match="last room of a full deal holds 2 cards"):
        sc.State.from_text(last.to_text(), partial=False)
    with pytest.raises(sc.PositionError, match="health 19 needs monsters worth 1 fought"):
        sc.State.from_parts(room=s.room, dungeon=s.dungeon, health=19)


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"health": 1.5}, "health 1.5 is not an integer"),
        ({"health": True}, "health True is not an integer"),
        ({"health": "7"}, "health '7' is not an integer"),
        ({"resolved": 0.0}, "resolved 0.0 is not an integer"),
        ({"last_kill": "K", "weapon": "5D"}, "last kill 'K' is not an integer"),
        ({"fled": 2}, "fled 2 must be True/False"),
        ({"dungeon": 5}, "dungeon 5 is not a sequence of cards"),
        ({"score": 4}, "score 4 for a game that is not over"),
        ({"weapon": 26}, "card 26 is not text"),
    ],
)
def test_from_parts_refuses_wrong_types(kwargs: dict[str, object], why: str) -> None:
    with pytest.raises(sc.ScoundrelError, match=re.escape(why)):
        sc.State.from_parts(room=["2C"], **kwargs)  # type: ignore[arg-type]


def test_from_parts_takes_numpy_integers() -> None:
    np = pytest.importorskip("numpy")
    s = sc.State.from_parts(room=["2C"], health=np.int64(7), resolved=np.int8(0))
    assert s.health == 7 and type(s.health) is int
