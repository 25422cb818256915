"""What every route needs: the server's settings, the query read into a game, errors."""

from __future__ import annotations

import datetime as _dt
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from starlette.requests import Request

from ..coach.game import Game
from .game import BadInput, parse_deal, parse_line_text, replay
from .pool import Pool

__all__ = ["Settings", "game_from", "params", "pool", "settings", "today", "work"]

T = TypeVar("T")


@dataclass(frozen=True)
class Settings:
    """The server's settings: worker processes, the per-solve limit, the limit on all the
    workers' time one request may take (``request_seconds``), the ranked daily's store,
    and the per-client rate limit."""
    workers: int = 2
    max_seconds: float = 10.0
    queue: int = 64
    data_dir: Path = Path("data")
    request_seconds: float = 60.0
    database: str | None = None
    """The ranked store: a SQLite file's path or a database URL (None: in memory)."""
    secret_file: Path | None = None
    """The file of the secret the ranked deals come from (None: beside a SQLite store)."""
    rate_limit: str | None = None
    """Requests a client may make, as ``20/second;600/minute`` (None: no limit)."""
    rate_limit_storage: str = "memory://"
    ranked_start_limit: str | None = None
    """Ranked games a client may start, as ``20/hour`` (None: no limit)."""


def settings(request: Request) -> Settings:
    """The app's settings, from a request."""
    s: Settings = request.app.state.settings
    return s


def pool(request: Request) -> Pool:
    """The app's worker pool, from a request."""
    p: Pool = request.app.state.pool
    return p


async def _gone(request: Request) -> None:
    """Returns once the client has closed the connection (no route reads a body, so the
    only message left to receive is the disconnect)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def work(request: Request, fn: Callable[..., T], *args: Any, stoppable: bool = False) -> T:
    """``fn(*args)`` in the pool for this request: every call of one request shares one
    deadline (``request_seconds`` from its first call), and is given up when its client
    leaves (see :meth:`~.pool.Pool.run`)."""
    deadline: float | None = getattr(request.state, "deadline", None)
    if deadline is None:
        deadline = request.state.deadline = time.monotonic() + settings(request).request_seconds
    return await pool(request).run(fn, *args, deadline=deadline, gone=lambda: _gone(request),
                                   stoppable=stoppable)


def params(request: Request) -> dict[str, str]:
    """The query as one value per name; a repeated name is refused (ambiguous)."""
    out: dict[str, str] = {}
    for k, v in request.query_params.multi_items():
        if k in out:
            raise BadInput(k, f"{k} is given more than once")
        out[k] = v
    return out


def game_from(request: Request) -> Game:
    """The deal and line of the query, replayed (BadInput on anything wrong)."""
    q = params(request)
    return replay(parse_deal(q), parse_line_text(q.get("line")))


def today() -> str:
    """Today's date as ``YYYY-MM-DD`` (the daily dungeon's)."""
    return _dt.date.today().isoformat()
