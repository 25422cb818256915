"""What every route needs: the server's settings, the query read into a game, errors."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request

from ..coach.game import Game
from .game import BadInput, parse_deal, parse_line_text, replay
from .pool import Pool

__all__ = ["Settings", "game_from", "params", "pool", "settings", "today"]


@dataclass(frozen=True)
class Settings:
    """The server's settings: worker processes and the per-request solve limit, the ranked
    daily's store, and the per-client rate limit."""
    workers: int = 2
    max_seconds: float = 10.0
    queue: int = 64
    data_dir: Path = Path("data")
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
