"""The ranked daily's store: games in progress, finished games and the leaderboard.

SQLAlchemy Core on SQLite by default (one file, embedded) or on PostgreSQL
when the server is given a ``postgresql://`` URL; the same statements run on
both. Several server processes may share one store: every change is one
transaction, a player has at most one ranked game a day (a unique
constraint, so two processes racing to start it cannot both win), and a
move is written only if the game is still at the step the player saw (the
update names the step it expects, so a stale or replayed submission changes
nothing even when two processes receive it at once).

Nothing here deletes or rewrites a stored game: a store that cannot be read
(not a database, a table with columns missing, locked too long) raises
:class:`StoreError` with a message naming the store, and the file is left as
it was.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

__all__ = [
    "MEMORY",
    "Conflict",
    "LeaderRow",
    "Published",
    "RankedGame",
    "Store",
    "StoreBusy",
    "StoreError",
    "describe_url",
    "store_url",
]

MEMORY: Final = "sqlite://"
"""An in-memory store (tests, and a server started without ``--database``)."""
NICKNAME_MAX: Final = 24
LINE_MAX: Final = 8000
"""Characters of a stored line (a classic game is under 60 steps of at most 5 characters)."""
LEADERBOARD_MAX: Final = 500
"""Rows a leaderboard answer holds at most."""

_meta = sa.MetaData()

games = sa.Table(
    "ranked_games", _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player", sa.String(64), nullable=False),
    sa.Column("day", sa.String(10), nullable=False),
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    sa.Column("deal_id", sa.String(32), nullable=False),
    sa.Column("line", sa.String(LINE_MAX), nullable=False, default=""),
    sa.Column("steps", sa.Integer, nullable=False, default=0),
    sa.Column("state", sa.String(8), nullable=False, default="playing"),
    sa.Column("score", sa.Integer, nullable=True),
    sa.Column("started", sa.DateTime, nullable=False),
    sa.Column("ended", sa.DateTime, nullable=True),
    sa.UniqueConstraint("player", "day", name="one_ranked_game_a_day"),
)
"""One row per ranked game; ``state`` is ``playing``, ``won`` or ``lost``."""

leaderboard = sa.Table(
    "leaderboard", _meta,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("ranked_games.id"), primary_key=True),
    sa.Column("day", sa.String(10), nullable=False, index=True),
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("ended", sa.DateTime, nullable=False),
)
"""One row per finished ranked game, written in the transaction of its last move."""

published = sa.Table(
    "published_days", _meta,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("seed", sa.String(20), nullable=False),
    sa.Column("best_score", sa.Integer, nullable=False),
    sa.Column("proven", sa.Boolean, nullable=False),
    sa.Column("fair_score", sa.Integer, nullable=False),
)
"""A past day's deal with the exact solver's and the fair agent's scores (computed once)."""


class StoreError(RuntimeError):
    """The store cannot be used (not a database, damaged, unreachable); the message says
    which store and why, without its password."""


class StoreBusy(StoreError):
    """The store is locked by another process for longer than the wait allowed."""


class Conflict(ValueError):
    """A change the store refuses: a second game the same day, or a stale move."""


@dataclass(frozen=True)
class RankedGame:
    """A stored ranked game."""

    id: int
    player: str
    day: str
    nickname: str
    deal_id: str
    line: tuple[str, ...]
    state: str
    score: int | None
    started: _dt.datetime
    ended: _dt.datetime | None

    @property
    def over(self) -> bool:
        return self.state != "playing"


@dataclass(frozen=True)
class LeaderRow:
    """A finished game on a day's leaderboard."""

    nickname: str
    score: int
    seconds: float
    ended: _dt.datetime


@dataclass(frozen=True)
class Published:
    """A past day's deal and what the exact solver and the fair agent score on it."""

    day: str
    seed: int
    best_score: int
    proven: bool
    fair_score: int


def store_url(text: str) -> URL:
    """The SQLAlchemy URL of ``--database``: a path is a SQLite file, ``sqlite://...`` and
    ``postgresql://...`` URLs are taken as they are (PostgreSQL through psycopg 3)."""
    if "://" not in text:
        return URL.create("sqlite", database=str(Path(text).expanduser()))
    try:
        url = make_url(text)
    except ArgumentError:
        raise StoreError(f"--database {text[:80]!r} is not a database URL") from None
    backend = url.get_backend_name()
    if backend == "postgresql" and url.drivername == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
    elif backend not in ("sqlite", "postgresql"):
        raise StoreError(f"--database {describe_url(url)}: only SQLite files and PostgreSQL "
                         "URLs are supported (sqlite:///path, postgresql://user@host/db)")
    return url


def describe_url(url: URL) -> str:
    """The URL without its password (for messages)."""
    return url.render_as_string(hide_password=True)


def _now() -> _dt.datetime:
    # naive UTC: SQLite keeps no time zone, so both back ends store the same thing
    return _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None)


class Store:
    """The ranked games and the leaderboard, in one database shared by every server process.

    ``busy_seconds`` is how long a write waits for another process's lock before
    :class:`StoreBusy`.
    """

    def __init__(self, url: str | URL = MEMORY, *, busy_seconds: float = 5.0) -> None:
        self.url = store_url(url) if isinstance(url, str) and url != MEMORY else make_url(url)
        self.name = describe_url(self.url)
        self.engine = self._engine(busy_seconds)
        try:
            # checkfirst: existing tables (and the games in them) are kept as they are
            _meta.create_all(self.engine, checkfirst=True)
            self._check_schema()
        except SQLAlchemyError as err:
            self.engine.dispose()
            raise self._error(err) from None
        except StoreError:
            self.engine.dispose()
            raise

    def _engine(self, busy_seconds: float) -> Engine:
        url = self.url
        if url.get_backend_name() == "sqlite":
            db = url.database
            if db and db != ":memory:":
                parent = Path(db).parent
                if not parent.is_dir():
                    raise StoreError(f"store {self.name}: folder {parent} does not exist")
                engine = sa.create_engine(url, connect_args={"timeout": busy_seconds})

                @sa.event.listens_for(engine, "connect")
                def _pragmas(dbapi: Any, _record: Any) -> None:
                    cur = dbapi.cursor()
                    # several processes: readers do not wait for the writer, and a
                    # writer waits busy_seconds for another before giving up
                    cur.execute("PRAGMA journal_mode=WAL")
                    # in WAL mode, NORMAL never corrupts the file; a power cut may lose
                    # the last moves, not the games before them, and a move costs no fsync
                    cur.execute("PRAGMA synchronous=NORMAL")
                    cur.execute("PRAGMA foreign_keys=ON")
                    cur.close()

                return engine
            return sa.create_engine(url, poolclass=StaticPool,
                                    connect_args={"check_same_thread": False})
        # a server: a lock waits at most busy_seconds, then the statement fails
        ms = max(1, int(busy_seconds * 1000))
        return sa.create_engine(url, pool_pre_ping=True, connect_args={
            "connect_timeout": max(1, int(busy_seconds)),
            "options": f"-c lock_timeout={ms} -c statement_timeout={max(ms, 10_000)}"})

    def _check_schema(self) -> None:
        have = sa.inspect(self.engine)
        for table in _meta.sorted_tables:
            cols = {c["name"] for c in have.get_columns(table.name)}
            missing = [c.name for c in table.columns if c.name not in cols]
            if missing:
                raise StoreError(f"store {self.name}: table {table.name} lacks column(s) "
                                 f"{', '.join(missing)}: it was not made by this version; "
                                 "its games are kept, use another --database")

    def _error(self, err: SQLAlchemyError) -> StoreError:
        text = str(getattr(err, "orig", None) or err).strip().splitlines()[0][:200]
        low = text.lower()
        if "locked" in low or "lock timeout" in low or "canceling statement" in low:
            return StoreBusy(f"store {self.name} is locked by another process ({text})")
        if "not a database" in low or "malformed" in low or "corrupt" in low:
            return StoreError(f"store {self.name} is damaged or not a database ({text}); "
                              "its file is left as it was")
        return StoreError(f"store {self.name}: {text}")

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        try:
            with self.engine.begin() as conn:
                yield conn
        except IntegrityError:
            raise
        except SQLAlchemyError as err:
            raise self._error(err) from None

    def close(self) -> None:
        """Close the store's connections (the games stay stored)."""
        self.engine.dispose()

    # ---- games ---------------------------------------------------------------------------

    @staticmethod
    def _game(row: Any) -> RankedGame:
        line = tuple(t for t in row.line.split(",") if t)
        return RankedGame(row.id, row.player, row.day, row.nickname, row.deal_id, line,
                          row.state, row.score, row.started, row.ended)

    def game(self, player: str, day: str) -> RankedGame | None:
        """The player's ranked game of ``day``, if any."""
        with self._tx() as conn:
            row = conn.execute(sa.select(games).where(games.c.player == player,
                                                      games.c.day == day)).first()
        return None if row is None else self._game(row)

    def start(self, player: str, day: str, nickname: str, deal_id: str,
              now: _dt.datetime | None = None) -> RankedGame:
        """A new ranked game; :class:`Conflict` if the player has one that day already."""
        if len(nickname) > NICKNAME_MAX:
            raise ValueError(f"nickname longer than {NICKNAME_MAX}")
        try:
            with self._tx() as conn:
                conn.execute(sa.insert(games).values(
                    player=player, day=day, nickname=nickname, deal_id=deal_id, line="",
                    steps=0, state="playing", score=None, started=now or _now(), ended=None))
        except IntegrityError:
            raise Conflict(f"you already have a ranked game on {day}: one a day") from None
        game = self.game(player, day)
        assert game is not None
        return game

    def advance(self, game: RankedGame, line: tuple[str, ...], state: str, score: int | None,
                now: _dt.datetime | None = None) -> RankedGame:
        """Write ``line`` (the stored line plus one step) and the game's state after it; a
        finished game goes on the leaderboard in the same transaction. :class:`Conflict` if
        the stored game is no longer at ``game``'s step (another submission came first)."""
        assert len(line) == len(game.line) + 1 and line[:-1] == game.line
        text = ",".join(line)
        if len(text) > LINE_MAX:
            raise Conflict(f"the game is longer than {LINE_MAX} characters of notation")
        ended = (now or _now()) if state != "playing" else None
        with self._tx() as conn:
            done = conn.execute(
                sa.update(games)
                .where(games.c.id == game.id, games.c.steps == len(game.line),
                       games.c.state == "playing")
                .values(line=text, steps=len(line), state=state, score=score, ended=ended))
            if done.rowcount != 1:
                raise Conflict(f"move {len(line)} was already played (a stale or repeated "
                               "submission): reload the game")
            if ended is not None:
                assert score is not None
                conn.execute(sa.insert(leaderboard).values(
                    game_id=game.id, day=game.day, nickname=game.nickname, score=score,
                    seconds=max(0.0, (ended - game.started).total_seconds()), ended=ended))
        return RankedGame(game.id, game.player, game.day, game.nickname, game.deal_id, line,
                          state, score, game.started, ended)

    def played(self, day: str) -> bool:
        """Whether any ranked game was started on ``day``."""
        with self._tx() as conn:
            row = conn.execute(sa.select(games.c.id).where(games.c.day == day).limit(1)).first()
        return row is not None

    def count(self) -> int:
        """Ranked games stored (every day)."""
        with self._tx() as conn:
            n = conn.execute(sa.select(sa.func.count()).select_from(games)).scalar_one()
        return int(n)

    # ---- the leaderboard -----------------------------------------------------------------

    def leaders(self, day: str, limit: int = LEADERBOARD_MAX) -> list[LeaderRow]:
        """The finished games of ``day``, best first: the score, then the time taken, then
        who finished first."""
        q = (sa.select(leaderboard.c.nickname, leaderboard.c.score, leaderboard.c.seconds,
                       leaderboard.c.ended)
             .where(leaderboard.c.day == day)
             .order_by(leaderboard.c.score.desc(), leaderboard.c.seconds.asc(),
                       leaderboard.c.ended.asc(), leaderboard.c.game_id.asc())
             .limit(min(limit, LEADERBOARD_MAX)))
        with self._tx() as conn:
            return [LeaderRow(r.nickname, r.score, r.seconds, r.ended) for r in conn.execute(q)]

    def published(self, day: str) -> Published | None:
        """A past day's published results, if computed."""
        with self._tx() as conn:
            r = conn.execute(sa.select(published).where(published.c.day == day)).first()
        if r is None:
            return None
        return Published(r.day, int(r.seed), r.best_score, bool(r.proven), r.fair_score)

    def publish(self, p: Published) -> None:
        """Keep a past day's results (a second process computing them too is harmless)."""
        try:
            with self._tx() as conn:
                conn.execute(sa.insert(published).values(
                    day=p.day, seed=str(p.seed), best_score=p.best_score, proven=p.proven,
                    fair_score=p.fair_score))
        except IntegrityError:
            pass
