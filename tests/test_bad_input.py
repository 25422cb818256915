"""Bad input raises the right ScoundrelError subclass, and the message quotes it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import scoundrel_core as sc

ERRORS = [
    sc.CardError,
    sc.DeckError,
    sc.VariantError,
    sc.SeedError,
    sc.IllegalActionError,
    sc.StateTextError,
    sc.RecordError,
]


def quoted(text: object) -> str:
    """A pattern matching ``text`` as the messages quote it (its repr)."""
    return re.escape(repr(text))


@pytest.mark.parametrize("error", ERRORS)
def test_every_error_is_a_scoundrel_error_and_a_value_error(error: type[Exception]) -> None:
    assert issubclass(error, sc.ScoundrelError)
    assert issubclass(error, ValueError)


# -- cards and decks -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1D", "unknown rank"),
        ("QH", "not in the Scoundrel deck"),
        ("JD", "not in the Scoundrel deck"),
        ("AD", "not in the Scoundrel deck"),
        ("ah", "not in the Scoundrel deck"),
        ("11S", "unknown rank"),
        ("01S", "unknown rank"),
        ("", "expected rank then suit"),
        ("S", "expected rank then suit"),
        ("XZ", "unknown suit"),
        ("10", "unknown suit"),
    ],
)
def test_malformed_card(text: str, why: str) -> None:
    with pytest.raises(sc.CardError, match=quoted(text)) as info:
        sc.parse_card(text)
    assert why in str(info.value)


def test_card_that_is_not_text() -> None:
    with pytest.raises(sc.CardError, match="12"):
        sc.parse_card(12)  # type: ignore[arg-type]
    with pytest.raises(sc.CardError, match="44"):
        sc.card(44)


def full_deck_text() -> list[str]:
    return [str(c) for c in sc.deal(3)]


def test_bad_card_in_deck() -> None:
    deck = full_deck_text()
    deck[10] = "QH"
    with pytest.raises(sc.CardError, match=quoted("QH")):
        sc.new_game(deck=deck)


def test_duplicate_card_in_deck() -> None:
    deck = full_deck_text()
    deck[5] = deck[0]
    with pytest.raises(sc.DeckError, match=f"duplicate cards: {deck[0]}$"):
        sc.new_game(deck=" ".join(deck))


def test_missing_card() -> None:
    deck = full_deck_text()
    gone = deck.pop(17)
    with pytest.raises(sc.DeckError, match=f"deck has 43 cards.*missing: {gone}$"):
        sc.new_game(deck=deck)


def test_45_cards() -> None:
    # Only 44 cards exist, so a 45th is always a duplicate.
    deck = [*full_deck_text(), "AS"]
    with pytest.raises(sc.DeckError, match="duplicate cards: AS"):
        sc.new_game(deck=deck)


def test_empty_deck() -> None:
    with pytest.raises(sc.DeckError, match="empty"):
        sc.new_game(deck="", partial=True)


def test_seed_and_deck_together_or_neither() -> None:
    with pytest.raises(sc.DeckError, match="exactly one of seed= or deck="):
        sc.new_game(seed=1, deck=full_deck_text())
    with pytest.raises(sc.DeckError, match="exactly one of seed= or deck="):
        sc.new_game()


# -- variants and seeds ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["medium", "Hardcore", "", "classic/loose"])
def test_unknown_variant(name: str) -> None:
    with pytest.raises(sc.VariantError, match=r"unknown (variant|weapon rule)"):
        sc.new_game(seed=1, variant=name)


def test_unknown_variant_is_quoted() -> None:
    with pytest.raises(sc.VariantError, match=quoted("medium") + ".*classic, easy, hard"):
        sc.new_game(seed=1, variant="medium")
    with pytest.raises(sc.VariantError, match="unknown variant " + quoted("medium")):
        sc.Variant("medium")


@pytest.mark.parametrize("rule", ["loose", "weaker", ""])
def test_unknown_weapon_rule(rule: str) -> None:
    with pytest.raises(sc.VariantError, match=f"unknown weapon rule {quoted(rule)}"):
        sc.new_game(seed=1, weapon_rule=rule)


@pytest.mark.parametrize("seed", [-1, -(2**63), 2**64, 2**70])
def test_seed_out_of_range(seed: int) -> None:
    with pytest.raises(sc.SeedError, match=f"seed {seed} is out of range"):
        sc.new_game(seed=seed)
    with pytest.raises(sc.SeedError, match=f"seed {seed} "):
        sc.deal(seed)


@pytest.mark.parametrize("seed", ["7", 1.5, True, [1]])
def test_seed_not_an_integer(seed: object) -> None:
    with pytest.raises(sc.SeedError, match=f"seed {quoted(seed)} is not an integer"):
        sc.new_game(seed=seed)  # type: ignore[arg-type]


def test_largest_seed_is_fine() -> None:
    assert sc.new_game(seed=2**64 - 1).dungeon_size == 40
    assert sc.new_game(seed=0).dungeon_size == 40


# -- actions -----------------------------------------------------------------------------

START = sc.new_game(seed=7)  # room: 2D 3H 9S 2S, no weapon


def illegal(text: str, reason: str) -> str:
    return re.escape(f"illegal action {text!r} ({reason})")


def test_card_not_in_room() -> None:
    with pytest.raises(sc.IllegalActionError, match=illegal("KS/f", "KS is not in the room")):
        sc.apply(START, "KS/f")
    with pytest.raises(sc.IllegalActionError, match=illegal("5H", "5H is not in the room")):
        sc.parse_action(START, "5H")


def test_message_names_the_state() -> None:
    with pytest.raises(sc.IllegalActionError) as info:
        sc.apply(START, "KS/f")
    assert str(info.value).endswith("in state: " + START.to_text())


def test_weapon_fight_without_weapon() -> None:
    with pytest.raises(sc.IllegalActionError, match=illegal("9S/w", "no weapon is equipped")):
        sc.apply(START, "9S/w")


def test_weapon_fight_against_wear() -> None:
    s = sc.State.from_parts(room=["10S", "9S", "2H", "3H"], weapon="7D", last_kill=10)
    with pytest.raises(sc.IllegalActionError, match=re.escape("'10S/w' (the weapon's last kill")):
        sc.apply(s, "10S/w")
    assert sc.can_apply(s, "9S/w")


def test_flee_not_allowed() -> None:
    hard = sc.new_game(seed=7, variant="hard")
    with pytest.raises(sc.IllegalActionError, match=r"'flee' .*the hard variant never allows"):
        sc.apply(hard, "flee")
    fled = sc.apply(START, "flee")
    with pytest.raises(sc.IllegalActionError, match=r"'flee' .*twice in a row"):
        sc.apply(fled, "flee")


def test_action_after_game_over() -> None:
    over = sc.apply(sc.State.from_parts(health=2, room=["9S", "3H"]), "9S/f")
    assert over.is_over
    with pytest.raises(sc.IllegalActionError, match=illegal("3H", "the game is over")):
        sc.apply(over, "3H")
    assert sc.why_illegal(over, "3H") == "the game is over"


def test_monster_without_w_or_f() -> None:
    s = sc.State.from_parts(room=["KS", "2H"])
    with pytest.raises(sc.IllegalActionError, match=quoted("KS") + ".*'KS/w' or 'KS/f'"):
        sc.apply(s, "KS")
    with pytest.raises(sc.IllegalActionError, match=quoted("ks")):
        sc.parse_action(s, "ks")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("KS/x", "use /w"),
        ("7D/w", "only monsters take /w or /f"),
        ("5H/f", "only monsters take /w or /f"),
        ("QH", "not in the Scoundrel deck"),
        ("run", "bad action"),
        ("", "bad action"),
    ],
)
def test_unreadable_action_text(text: str, why: str) -> None:
    with pytest.raises(sc.IllegalActionError, match=f"bad action {quoted(text)}") as info:
        sc.parse_action_text(text)
    assert why in str(info.value)
    assert not sc.can_apply(START, text)


@pytest.mark.parametrize("value", [-1, 89, 1000])
def test_action_number_out_of_range(value: int) -> None:
    with pytest.raises(sc.IllegalActionError, match=f"action {value} is not in 0..88"):
        sc.apply(START, value)


def test_line_names_the_failing_step() -> None:
    with pytest.raises(sc.IllegalActionError, match=r"^step 3: illegal action 'flee'"):
        sc.play_line(START, "2D 2S/w flee")
    with pytest.raises(sc.IllegalActionError, match=r"^step 2: bad action 'XX'"):
        sc.parse_line(START, "2D XX")


def test_failed_apply_leaves_state_unchanged() -> None:
    before = START.to_text()
    with pytest.raises(sc.IllegalActionError):
        sc.apply(START, "9S/w")
    assert START.to_text() == before


# -- state text --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "health=20", "classic/strict health=x weapon=- last=-"])
def test_bad_state_text(text: str) -> None:
    with pytest.raises(sc.StateTextError, match=f"bad state text {quoted(text)}"):
        sc.State.from_text(text)


def test_state_text_with_bad_parts() -> None:
    good = START.to_text()
    with pytest.raises(sc.StateTextError, match="health 25 out of range"):
        sc.State.from_text(good.replace("health=20", "health=25"))
    # Errors in a part are reported as bad state text, quoting both.
    with pytest.raises(sc.StateTextError, match="bad card " + quoted("QH")):
        sc.State.from_text(good.replace("room=[2D", "room=[QH"))
    with pytest.raises(sc.StateTextError, match="card 8D is in the position twice"):
        sc.State.from_text(good.replace("room=[2D", "room=[8D"))
    with pytest.raises(sc.StateTextError, match="unknown variant " + quoted("medium/strict")):
        sc.State.from_text(good.replace("classic/strict", "medium/strict"))


# -- issue 8, item 14: every library error is a ScoundrelError ------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: sc.apply("x", 88),  # type: ignore[call-overload]
        lambda: sc.parse_action("x", "flee"),  # type: ignore[arg-type]
        lambda: sc.can_apply("x", "flee"),  # type: ignore[arg-type]
        lambda: sc.why_illegal(None, "flee"),  # type: ignore[arg-type]
        lambda: sc.legal_actions(42),  # type: ignore[arg-type]
        lambda: sc.legal_action_mask("x"),  # type: ignore[arg-type]
        lambda: sc.play_line("x", "flee"),  # type: ignore[arg-type]
        lambda: sc.parse_line(sc.InfoState.initial(START), "flee"),  # type: ignore[arg-type]
    ],
)
def test_a_non_state_is_refused(call: object) -> None:
    with pytest.raises(sc.StateTextError, match="is not a State"):
        call()  # type: ignore[operator]


def test_can_apply_is_false_for_any_bad_action() -> None:
    for bad in ("x", 89, -1, 88.0, True, None, object(), "QH", "KS/x"):
        assert sc.can_apply(START, bad) is False  # type: ignore[arg-type]
        assert sc.why_illegal(START, bad) is not None  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [88.0, True, None, "88"])
def test_apply_refuses_an_action_that_is_no_action(bad: object) -> None:
    with pytest.raises(sc.IllegalActionError, match=re.escape(repr(bad))):
        sc.apply(START, bad)  # type: ignore[arg-type]


def test_card_refuses_bools_and_takes_numpy_integers() -> None:
    with pytest.raises(sc.CardError, match="card id True is not an integer"):
        sc.card(True)
    with pytest.raises(sc.CardError, match=r"card id 3\.0 is not an integer"):
        sc.card(3.0)  # type: ignore[arg-type]
    assert sc.card(np.int64(3)) is sc.card(3)


@pytest.mark.parametrize("deck", [123, 4.5])
def test_new_game_deck_of_the_wrong_type(deck: object) -> None:
    with pytest.raises(sc.DeckError, match=f"deck {re.escape(repr(deck))} is not card text"):
        sc.new_game(deck=deck)  # type: ignore[arg-type]


def test_record_nested_too_deeply(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(sc.RecordError, match="nested too deeply"):
        sc.GameRecord.load(path)


def test_daily_seed_takes_exactly_yyyy_mm_dd() -> None:
    assert sc.daily_seed("2026-11-29") == 20261129
    for bad in ("20261129", "2026-W48-1", "2026-11-29T00:00", "26-11-29", "2026-1-29"):
        with pytest.raises(sc.SeedError, match=f"bad date {re.escape(repr(bad))}: expected YYYY"):
            sc.daily_seed(bad)


# -- the information state: the same conventions as State ----------------------------------


def test_info_state_follows_state_conventions() -> None:
    s = sc.new_game(seed=7)
    info = sc.InfoState.initial(s)
    assert s.last_kill is None and info.last_kill is None
    assert sc.legal_actions(info) == sc.legal_actions(s) == info.legal_actions()
    assert sc.can_apply(info, "2D") and not sc.can_apply(info, "KS/f")
    assert sc.why_illegal(info, "9S/w") == sc.why_illegal(s, "9S/w") == "no weapon is equipped"
    assert sc.parse_action(info, "2D") == sc.parse_action(s, "2D")
    after = sc.apply(info, "2D")
    assert after == info.apply("2D") and isinstance(after, sc.InfoState)
    assert sc.apply(after, "9S/w") == after.apply(sc.parse_action_text("9S/w"))
    with pytest.raises(sc.IllegalActionError, match="illegal action 'KS/f'"):
        sc.apply(info, "KS/f")
    with pytest.raises(sc.StateTextError, match="is not a State"):
        sc.play_line(info, "2D")  # type: ignore[arg-type]


def test_info_text_is_checked_like_state_text() -> None:
    text = (
        "classic/strict health=20 weapon=- last=- potion=0 resolved=0 fled=0 room=[2C] "
        "dungeon=[9H 6S 7S 8S 9S]"
    )
    with pytest.raises(sc.PositionError, match="room \\+ resolved must be 4"):
        sc.InfoState.from_text(text)
    with pytest.raises(sc.StateTextError, match="is not the bottom of the dungeon"):
        sc.InfoState.from_text(START.to_text() + " | bottom=[2D]")


@pytest.mark.parametrize("bad", [None, 12, 1.5, object()])
def test_things_that_are_not_decks_lines_or_paths(bad: object) -> None:
    with pytest.raises(sc.DeckError, match="is not card text or a sequence of cards"):
        sc.parse_deck(bad)  # type: ignore[arg-type]
    with pytest.raises(sc.RecordError, match="is not text or a sequence of actions"):
        sc.GameRecord.from_play(seed=1, line=bad)  # type: ignore[arg-type]
    with pytest.raises(sc.IllegalActionError, match="is not text or a sequence of actions"):
        sc.play_line(START, bad)  # type: ignore[arg-type]
    with pytest.raises(sc.RecordError, match="is not a file name"):
        sc.GameRecord.load(bad)  # type: ignore[arg-type]
    with pytest.raises(sc.StateTextError, match="is not a sequence of cards"):
        sc.InfoState.from_state(START, bad)  # type: ignore[arg-type]
