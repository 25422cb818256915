"""Game records: a deal, a rule set and a line of play, checked by replaying.

A record is stored as JSON in the notation of docs/rules.md::

    {"format": "scoundrel-record/1", "seed": 42,
     "deck": "KS QS 5C ...", "variant": "classic", "weapon_rule": "strict",
     "line": "KS/f QS/f 5C/f ...", "score": -150}

``seed`` is null for a deck that was not dealt from a seed; ``score`` is the final
score (null while the game goes on) and is checked on reading when present.
Anything wrong with a record, from an unreadable file to an illegal step, raises
:class:`RecordError` quoting the problem.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

from .actions import Action, parse_action_text
from .cards import Card, format_deck, parse_deck
from .deal import deal
from .errors import RecordError, ScoundrelError
from .files import check_output, replacing
from .rules import apply, line_items, new_game
from .state import State
from .variants import Variant, get_variant

__all__ = ["RECORD_FORMAT", "GameRecord"]

RECORD_FORMAT: Final = "scoundrel-record/1"
"""The ``format`` field of a game record's JSON."""
MAX_RECORD_BYTES: Final = 1 << 20


@dataclass(frozen=True)
class GameRecord:
    """One game: where it started and every action taken, as notation text."""

    seed: int | None
    deck: tuple[str, ...]
    variant: str
    weapon_rule: str
    line: tuple[str, ...]

    @classmethod
    def from_play(
        cls,
        *,
        seed: int | None = None,
        deck: str | Iterable[str | Card] | None = None,
        variant: str | Variant = "classic",
        weapon_rule: str | None = None,
        line: str | Iterable[str | Action | int] = (),
    ) -> GameRecord:
        """The record of a game, checked by replaying it.

        Give ``seed``, ``deck`` or both (then the seed must deal that deck).
        Actions may be text, :class:`Action` or ints; they are stored as text.
        """
        with _bad_record():
            v = get_variant(variant, weapon_rule)
            if deck is not None:
                cards = parse_deck(deck)
            elif seed is not None:
                cards = tuple(deal(seed))
            else:
                raise RecordError("a record needs a seed= or a deck=")
        rec = cls(seed, tuple(map(str, cards)), v.name, v.weapon_rule, ())
        s = rec.start()
        texts: list[str] = []
        with _bad_record():
            items = line_items(line)
        for i, item in enumerate(items, 1):
            try:
                a = parse_action_text(item) if isinstance(item, str) else Action(item)
            except ScoundrelError as err:
                raise RecordError(f"step {i} ({item!r}) of the record: {err}") from None
            s = _step(s, i, a)
            texts.append(str(a))
        return cls(seed, rec.deck, rec.variant, rec.weapon_rule, tuple(texts))

    def start(self) -> State:
        """The opening state, after checking the seed deals the recorded deck."""
        with _bad_record():
            s = new_game(deck=self.deck, variant=self.variant, weapon_rule=self.weapon_rule)
            if self.seed is not None:
                dealt = tuple(deal(self.seed))
                if dealt != s.room + s.dungeon:
                    raise RecordError(
                        f"seed {self.seed} deals [{format_deck(dealt)}], not the recorded "
                        f"deck [{' '.join(self.deck)}]"
                    )
        return s

    def replay(self) -> list[State]:
        """Every state from the opening one to the last, each step checked."""
        states = [self.start()]
        for i, text in enumerate(self.line, 1):
            states.append(_step(states[-1], i, text))
        return states

    @property
    def final_state(self) -> State:
        return self.replay()[-1]

    # -- JSON ----------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        """The record as a JSON object (``format`` ``scoundrel-record/1``)."""
        return {
            "format": RECORD_FORMAT,
            "seed": self.seed,
            "deck": " ".join(self.deck),
            "variant": self.variant,
            "weapon_rule": self.weapon_rule,
            "line": " ".join(self.line),
            "score": self.final_state.score,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> GameRecord:
        """Read the form written by :meth:`to_json`, checking it replays."""
        if not isinstance(data, Mapping):
            raise RecordError(f"a record is a JSON object, not {data!r:.80}")
        fmt = data.get("format")
        if fmt != RECORD_FORMAT:
            raise RecordError(f"record format {fmt!r} is not {RECORD_FORMAT!r}")
        raw_seed = data.get("seed")
        seed = raw_seed if isinstance(raw_seed, int) and not isinstance(raw_seed, bool) else None
        if seed is None and raw_seed is not None:
            raise RecordError(f"record seed {raw_seed!r} is not an integer")
        rec = cls.from_play(
            seed=seed,
            deck=_text_list(data, "deck", required=seed is None),
            variant=_text(data, "variant", "classic"),
            weapon_rule=_text(data, "weapon_rule", "strict"),
            line=_text_list(data, "line", required=True) or (),
        )
        score = data.get("score")
        if score is not None and score != rec.final_state.score:
            raise RecordError(
                f"record says score {score!r}, but its line replays to {rec.final_state.score}"
            )
        return rec

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the JSON form, whole or not at all (a temporary file renamed over ``path``:
        a full disk leaves the previous file as it was); a file that cannot be written, or
        a target that is not a regular file, is a RecordError naming it."""
        text = json.dumps(self.to_json(), indent=1) + "\n"
        try:
            with replacing(path, "record") as tmp, open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as err:  # OutputError: the message names the file and the reason
            raise RecordError(str(err)) from None

    @staticmethod
    def check_writable(path: str | os.PathLike[str]) -> None:
        """Refuse now a path :meth:`save` could not write later (RecordError naming it)."""
        try:
            check_output(path, "record")
        except OSError as err:
            raise RecordError(str(err)) from None

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read a record from a JSON file, replaying and checking every step."""
        if not isinstance(path, (str, os.PathLike)):  # an int would open a file descriptor
            raise RecordError(f"record path {path!r:.80} is not a file name")
        try:
            # A FIFO would block and /dev/full read forever: only a regular file, read
            # up to a bound (a whole game's record is a few KB).
            if not stat.S_ISREG(os.stat(path).st_mode):
                raise RecordError(f"cannot read record {os.fspath(path)!r}: it is not a "
                                  "regular file")
            with open(path, "rb") as f:
                raw = f.read(MAX_RECORD_BYTES + 1)
            if len(raw) > MAX_RECORD_BYTES:
                raise RecordError(f"record {os.fspath(path)!r} is larger than "
                                  f"{MAX_RECORD_BYTES:,} bytes: not a game record")
            data = json.loads(raw.decode("utf-8"))
        except OSError as err:
            raise RecordError(f"cannot read record {os.fspath(path)!r}: {err.strerror}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise RecordError(f"record {os.fspath(path)!r} is not JSON: {err}") from None
        except RecursionError:
            raise RecordError(f"record {os.fspath(path)!r} is JSON nested too deeply") from None
        try:
            return cls.from_json(data)
        except RecordError as err:
            raise RecordError(f"record {os.fspath(path)!r}: {err}") from None


@contextmanager
def _bad_record() -> Iterator[None]:
    """Any other library error met while building a record becomes a RecordError saying so."""
    try:
        yield
    except RecordError:
        raise
    except ScoundrelError as err:
        raise RecordError(f"bad record: {err}") from None


def _step(s: State, i: int, action: str | Action) -> State:
    try:
        return apply(s, action)
    except ScoundrelError as err:
        raise RecordError(f"step {i} ({str(action)!r}) of the record is illegal: {err}") from None


def _text(data: Mapping[str, object], key: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise RecordError(f"record {key} {value!r} is not text")
    return value


def _text_list(data: Mapping[str, object], key: str, *, required: bool) -> list[str] | None:
    """A field written as space-separated text (a list of strings is also read)."""
    if key not in data:
        if required:
            raise RecordError(f"record has no {key!r}")
        return None
    value = data[key]
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        return list(value)
    raise RecordError(f"record {key} {value!r:.80} is not text")
