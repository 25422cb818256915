"""Per-client rate limits (slowapi, on the ``limits`` library): 429 with ``Retry-After``.

A client is its address as the server sees it: behind a reverse proxy, the
address the proxy forwards once ``scoundrel-web --forwarded-allow-ips`` trusts
it (uvicorn rewrites the client from ``X-Forwarded-For``), else every player
would share the proxy's. The counts live in each server process (``memory://``)
unless ``--rate-limit-storage`` names a shared one (``redis://...``, with the
``redis`` package), so with N processes behind one proxy a client may get up to
N times the limit.
"""

from __future__ import annotations

import math
import time
from typing import Final

from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from slowapi import Limiter
from slowapi.errors import RateLimitExceeded
from slowapi.util import get_remote_address
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

__all__ = ["DEFAULT_LIMIT", "START_LIMIT", "StartLimit", "check_limit", "limiter", "too_many"]

DEFAULT_LIMIT: Final = "20/second;600/minute"
"""Requests a client may make (pages, API calls and static files alike): a player moving
once a second, the page's three static files included, stays well under it."""


START_LIMIT: Final = "20/hour"
"""Ranked games a client may start: each is a row in the store, and each start is a new
player, so this, not the request rate, bounds how fast one client can fill the store."""


def check_limit(text: str) -> str:
    """``text`` if the ``limits`` library reads it (``10/second;300/minute``); else ValueError."""
    try:
        items = parse_many(text)
    except ValueError as err:
        raise ValueError(f"{text[:60]!r} is not a rate limit like '20/second;600/minute' "
                         f"({err})") from None
    if not items:
        raise ValueError(f"{text[:60]!r} is not a rate limit like '20/second;600/minute'")
    return text


def limiter(limit: str | None, storage: str = "memory://") -> Limiter:
    """The app's limiter; ``limit`` None turns it off (every request allowed)."""
    return Limiter(key_func=get_remote_address,
                   # one count per client across every path (default_limits would count
                   # each path apart)
                   application_limits=[check_limit(limit)] if limit else [],
                   headers_enabled=True, storage_uri=storage, enabled=limit is not None,
                   key_prefix="scoundrel-web")


async def too_many(request: Request, exc: Exception) -> Response:
    """429 with ``Retry-After`` (seconds until the client's window lets it in again)."""
    assert isinstance(exc, RateLimitExceeded)
    text = f"too many requests from this client ({exc.detail}); slow down"
    resp: Response
    if request.url.path.startswith("/api/"):
        resp = JSONResponse({"error": text, "field": None}, status_code=429)
    else:
        from .pages import render

        resp = render(request, "error.html", "error", status=429, field="", message=text)
    lim: Limiter = request.app.state.limiter
    out: Response = lim._inject_headers(resp, request.state.view_rate_limit)
    if "retry-after" not in out.headers:
        out.headers["Retry-After"] = "1"
    return out


class StartLimit:
    """Ranked games one client may start (``--ranked-start-limit``), on the ``limits``
    library's moving window, in the same storage as the request counts."""

    def __init__(self, limit: str | None, storage: str = "memory://") -> None:
        self.items = parse_many(check_limit(limit)) if limit else []
        self._window = MovingWindowRateLimiter(storage_from_string(storage))

    def wait(self, client: str) -> int | None:
        """None if ``client`` may start a game now (the start is counted), else the seconds
        until it may."""
        for item in self.items:
            if not self._window.hit(item, "ranked-start", client):
                reset = self._window.get_window_stats(item, "ranked-start", client).reset_time
                return max(1, math.ceil(reset - time.time()))
        return None
