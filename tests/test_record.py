"""Game records: building, replaying, JSON and files."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings

import scoundrel_core as sc
from scoundrel_core.record import RECORD_FORMAT, GameRecord
from test_examples import WIN_LINE, WIN_SEED
from test_rules import policies, random_line, seeds


@pytest.fixture
def won() -> GameRecord:
    return GameRecord.from_play(seed=WIN_SEED, line=WIN_LINE)


def test_from_play_normalises(won: GameRecord) -> None:
    assert won.seed == WIN_SEED
    assert won.deck == tuple(str(c) for c in sc.deal(WIN_SEED))
    assert (won.variant, won.weapon_rule) == ("classic", "strict")
    assert won.line == tuple(WIN_LINE.split())
    lower = GameRecord.from_play(seed=WIN_SEED, line=WIN_LINE.lower().replace("10", "t"))
    assert lower == won
    start = sc.new_game(seed=WIN_SEED)
    as_actions = GameRecord.from_play(seed=WIN_SEED, line=sc.parse_line(start, WIN_LINE))
    assert as_actions == won
    as_ints = GameRecord.from_play(
        deck=sc.format_deck(sc.deal(WIN_SEED)),
        line=[int(a) for a in sc.parse_line(start, WIN_LINE)],
    )
    assert as_ints == dataclasses.replace(won, seed=None)


def test_record_is_a_frozen_value(won: GameRecord) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        won.seed = 3  # type: ignore[misc]
    assert hash(won) == hash(GameRecord.from_play(seed=WIN_SEED, line=WIN_LINE))


def test_replay_gives_every_state(won: GameRecord) -> None:
    states = won.replay()
    assert len(states) == len(won.line) + 1 == sc.DECK_SIZE + 1
    assert states[0] == sc.new_game(seed=WIN_SEED)
    for before, action, after in zip(states[:-1], won.line, states[1:], strict=True):
        assert sc.apply(before, action) == after
    assert won.final_state == states[-1]
    assert won.final_state.won
    assert won.final_state.score == 14


def test_unfinished_game(won: GameRecord) -> None:
    rec = GameRecord.from_play(seed=9, variant="easy", weapon_rule="equal", line="flee flee")
    assert not rec.final_state.is_over
    assert rec.final_state.variant == sc.get_variant("easy", "equal")
    assert rec.to_json()["score"] is None
    assert GameRecord.from_json(rec.to_json()) == rec
    empty = GameRecord.from_play(seed=9)
    assert empty.line == ()
    assert empty.replay() == [sc.new_game(seed=9)]


def test_tampered_line_names_the_step(won: GameRecord) -> None:
    line = list(won.line)
    line[4] = "AS/w"  # AS is not in the room at step 5
    bad = dataclasses.replace(won, line=tuple(line))
    with pytest.raises(sc.RecordError, match=r"^step 5 \('AS/w'\) .*AS is not in the room"):
        bad.replay()
    with pytest.raises(sc.RecordError, match=r"^step 5 \('AS/w'\)"):
        GameRecord.from_play(seed=WIN_SEED, line=line)
    with pytest.raises(sc.RecordError, match=r"step 5 \('AS/w'\)"):
        GameRecord.from_json({**won.to_json(), "line": " ".join(line)})


def test_line_past_the_end_is_illegal(won: GameRecord) -> None:
    longer = dataclasses.replace(won, line=(*won.line, "flee"))
    with pytest.raises(sc.RecordError, match=r"step 45 \('flee'\).*the game is over"):
        longer.replay()


def test_unreadable_action_names_the_step() -> None:
    with pytest.raises(sc.RecordError, match=r"^step 2 \('KS'\).*'KS/w' or 'KS/f'"):
        GameRecord.from_play(seed=0, line="10C/f KS")


def test_seed_must_deal_the_deck(won: GameRecord) -> None:
    other = dataclasses.replace(won, seed=WIN_SEED + 1)
    with pytest.raises(sc.RecordError, match=f"seed {WIN_SEED + 1} deals .*not the recorded deck"):
        other.replay()
    with pytest.raises(sc.RecordError, match="seed 8 deals"):
        GameRecord.from_json({**won.to_json(), "seed": 8})
    with pytest.raises(sc.RecordError, match="seed 8 deals"):
        GameRecord.from_play(seed=8, deck=sc.deal(WIN_SEED))


def test_bad_start_is_a_record_error() -> None:
    with pytest.raises(sc.RecordError, match="seed -1 is out of range"):
        GameRecord.from_play(seed=-1)
    with pytest.raises(sc.RecordError, match="needs a seed= or a deck="):
        GameRecord.from_play()
    with pytest.raises(sc.RecordError, match="unknown variant 'medium'"):
        GameRecord.from_play(seed=1, variant="medium")
    with pytest.raises(sc.RecordError, match="deck has 43 cards"):
        GameRecord.from_play(deck=sc.deal(1)[:43])


def test_json_round_trip(won: GameRecord) -> None:
    data = won.to_json()
    assert data["format"] == RECORD_FORMAT == "scoundrel-record/1"
    assert data["seed"] == WIN_SEED
    assert data["line"] == WIN_LINE
    assert data["score"] == 14
    assert json.loads(json.dumps(data)) == data
    assert GameRecord.from_json(data) == won
    # The deck may be left out when the seed deals it, and lists are read too.
    short = {k: v for k, v in data.items() if k not in ("deck", "score")}
    assert GameRecord.from_json({**short, "line": WIN_LINE.split()}) == won


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "scoundrel-record/2"}, "record format 'scoundrel-record/2'"),
        ({"format": None}, "record format None"),
        ({"seed": "0"}, "record seed '0' is not an integer"),
        ({"seed": True}, "record seed True is not an integer"),
        ({"variant": 3}, "record variant 3 is not text"),
        ({"line": 12}, "record line 12 is not text"),
        ({"deck": "2C 3C"}, "deck has 2 cards"),
        ({"score": 13}, "record says score 13, but its line replays to 14"),
    ],
)
def test_garbled_json(won: GameRecord, change: dict[str, object], message: str) -> None:
    with pytest.raises(sc.RecordError, match=message):
        GameRecord.from_json({**won.to_json(), **change})


def test_json_missing_fields(won: GameRecord) -> None:
    data = won.to_json()
    del data["line"]
    with pytest.raises(sc.RecordError, match="record has no 'line'"):
        GameRecord.from_json(data)
    no_deck = {k: v for k, v in won.to_json().items() if k != "deck"}
    with pytest.raises(sc.RecordError, match="record has no 'deck'"):
        GameRecord.from_json({**no_deck, "seed": None})
    with pytest.raises(sc.RecordError, match="a record is a JSON object"):
        GameRecord.from_json([1, 2])  # type: ignore[arg-type]


def test_save_and_load(won: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    won.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "scoundrel-record/1"
    assert GameRecord.load(path) == won
    assert GameRecord.load(str(path)) == won


def test_load_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(
        sc.RecordError, match=re.escape(f"cannot read record '{path}': No such file")
    ):
        GameRecord.load(path)


def test_save_where_it_cannot_write(won: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "no-such-folder" / "game.json"
    with pytest.raises(
        sc.RecordError, match=re.escape(f"cannot write record '{path}': No such file")
    ):
        won.save(path)
    with pytest.raises(sc.RecordError, match=re.escape(f"cannot write record '{tmp_path}'")):
        won.save(tmp_path)  # a folder


@pytest.mark.parametrize("text", ["", "{", "not json", '{"format": "scoundrel-record/1"'])
def test_load_garbled_file(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(sc.RecordError, match=re.escape(f"record '{path}' is not JSON")):
        GameRecord.load(path)


def test_load_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(sc.RecordError, match="is not JSON"):
        GameRecord.load(path)


def test_load_tampered_file_names_path_and_step(won: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    won.save(path)
    text = path.read_text(encoding="utf-8").replace('"5D KS/w 10C/w', '"5D KS/w QS/w', 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(sc.RecordError, match=re.escape(f"record '{path}': step 3 ('QS/w')")):
        GameRecord.load(path)


def test_load_wrong_seed_file(won: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**won.to_json(), "seed": 1}), encoding="utf-8")
    with pytest.raises(sc.RecordError, match=r"seed 1 deals .* not the recorded deck"):
        GameRecord.load(path)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, policy=policies)
def test_random_game_replays_to_same_score(seed: int, policy: int) -> None:
    start, line = random_line(seed, random.Random(policy))
    end = sc.play_line(start, line)
    assert end.is_over
    v = start.variant
    rec = GameRecord.from_play(seed=seed, variant=v.name, weapon_rule=v.weapon_rule, line=line)
    assert rec.line == tuple(map(str, line))
    assert rec.final_state == end
    assert rec.final_state.score == end.score
    back = GameRecord.from_json(json.loads(json.dumps(rec.to_json())))
    assert back == rec
    assert back.final_state.score == end.score
