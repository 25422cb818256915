"""The Starlette application: routes, limits, security headers, errors, the worker pool.

Every response carries a Content-Security-Policy without inline scripts
(scripts and styles load only from ``/static``), and the pages never put
typed text anywhere but in escaped markup. Requests are GET only, bodies are
refused (but the ranked daily's small forms, :data:`~.ranked.POST_PATHS`), the
query's length is capped, and each client's rate is limited (:mod:`.ratelimit`).

A path with a trailing slash is redirected to the same path without it by a
relative ``Location`` (Starlette's own redirect builds an absolute URL from the
request's ``Host`` header, so a forged Host chose where it pointed). uvicorn
answers a request it cannot parse (a malformed request line or header) with
its own 400 before any of this runs: those replies carry none of the headers
here, and cannot be given them from the app (docs/robustness.md).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Final
from urllib.parse import quote

from slowapi.errors import RateLimitExceeded
from slowapi.middleware import SlowAPIASGIMiddleware
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..coach.review import ReviewTooLong
from . import api, pages, puzzles, ranked
from .census import load_census
from .common import Settings
from .game import BadInput
from .pool import Busy, ClientGone, Overrun, Pool
from .ranked import MAX_FORM, POST_PATHS, Ranked
from .ratelimit import StartLimit, limiter, too_many

__all__ = ["CSP", "MAX_BODY", "MAX_QUERY", "create_app"]

MAX_QUERY: Final = 8192
"""Bytes of query string accepted (a 2000-step line in notation fits)."""
MAX_BODY: Final = 0
"""No GET endpoint takes a body (the ranked daily's POST forms: ``ranked.MAX_FORM``)."""
RETRY_AFTER: Final = "2"

CSP: Final = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
              "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
"""The Content-Security-Policy of every response: nothing from outside the site."""
_HEADERS: Final = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class Guard:
    """Limits before routing (query length, GET/HEAD only and no body, but for the ranked
    daily's few POST paths a small form), headers after."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(scope)
        if refusal is not None:
            status, field, text = refusal
            resp: Response = JSONResponse({"error": text, "field": field}, status_code=status)
            await resp(scope, receive, self._with_headers(send))
            return
        path = scope.get("path", "/")
        if path != "/" and path.endswith("/"):
            resp = RedirectResponse(self._without_slash(scope), status_code=307)
            await resp(scope, receive, self._with_headers(send))
            return
        await self.app(scope, receive, self._with_headers(send))

    @staticmethod
    def _without_slash(scope: Scope) -> str:
        """The relative URL of the path without its trailing slashes (and with one leading
        slash, so ``//host/`` cannot become a link to another site), query kept."""
        # The decoded path, quoted again (a backslash, which browsers read as a slash,
        # and "%" become escapes), then one leading slash.
        target = "/" + quote(scope["path"].strip("/"), safe="/:@!$&'()*+,;=-._~")
        query = scope.get("query_string", b"")
        return target + ("?" + query.decode("latin-1") if query else "")

    @staticmethod
    def _refusal(scope: Scope) -> tuple[int, str, str] | None:
        if len(scope.get("query_string", b"")) > MAX_QUERY:
            return 414, "query", f"the query is longer than {MAX_QUERY} bytes"
        post = scope["method"] == "POST" and scope["path"] in POST_PATHS
        if scope["method"] not in ("GET", "HEAD") and not post:
            return 405, "method", f"method {scope['method']} is not allowed: GET only"
        for name, value in scope["headers"]:
            if name == b"content-length" and value.strip() not in (b"", b"0"):
                if not post:
                    return 413, "body", "requests take no body"
                if not value.strip().isdigit() or int(value) > MAX_FORM:
                    return 413, "body", f"a form takes at most {MAX_FORM} bytes"
            if name == b"transfer-encoding":
                return 413, "body", "requests take no chunked body"
        return None

    @staticmethod
    def _with_headers(send: Send) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _HEADERS
            await send(message)
        return wrapped


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def _bad_input(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadInput)
    if _is_api(request):
        return JSONResponse({"error": exc.message, "field": exc.field}, status_code=400)
    return pages.render(request, "error.html", "error", status=400, field=exc.field,
                        message=exc.message)


async def _busy(request: Request, exc: Exception) -> Response:
    headers = {"Retry-After": RETRY_AFTER}
    text = f"the server is busy ({exc}); retry in {RETRY_AFTER} s"
    if _is_api(request):
        return JSONResponse({"error": text, "field": None}, status_code=503, headers=headers)
    resp = pages.render(request, "error.html", "error", status=503, field="", message=text)
    resp.headers["Retry-After"] = RETRY_AFTER
    return resp


async def _overrun(request: Request, exc: Exception) -> Response:
    cap = request.app.state.settings.request_seconds
    text = (f"this request needs more than {cap:g} s of the server's work, the most one "
            "request gets; it was stopped")
    if _is_api(request):
        return JSONResponse({"error": text, "field": None}, status_code=503)
    return pages.render(request, "error.html", "error", status=503, field="", message=text)


async def _too_long(request: Request, exc: Exception) -> Response:
    if _is_api(request):
        return JSONResponse({"error": str(exc), "field": "line"}, status_code=413)
    return pages.render(request, "error.html", "error", status=413, field="line",
                        message=str(exc))


async def _gone(request: Request, exc: Exception) -> Response:
    # Nobody reads this: the client left, and its work was stopped.
    return PlainTextResponse("the client closed the connection", status_code=499)


async def _http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    text = {404: "no such page", 405: "method not allowed"}.get(exc.status_code, exc.detail)
    if _is_api(request) or request.url.path.startswith("/static/"):
        return JSONResponse({"error": text, "field": "path"}, status_code=exc.status_code)
    return pages.render(request, "error.html", "error", status=exc.status_code, field="path",
                        message=f"{text}: {request.url.path[:200]}")


async def _crash(request: Request, exc: Exception) -> Response:
    # The last resort: a bug, reported in one line (never a traceback to the client).
    print(f"scoundrel-web: internal error on {request.url.path}: {exc!r}", file=sys.stderr)
    return PlainTextResponse("internal error", status_code=500)


def create_app(settings: Settings | None = None, *, pool: Pool | None = None,
               on_ready: Callable[[], None] | None = None,
               ranked_daily: Ranked | None = None) -> Starlette:
    """The app; with ``pool`` given (tests) the app uses it and leaves it running. The ranked
    store is opened here (a bad one raises :class:`~.store.StoreError` before anything
    starts) unless ``ranked_daily`` is given."""
    cfg = settings or Settings()
    daily = ranked_daily or Ranked.open(cfg.database, cfg.secret_file)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.census = load_census(cfg.data_dir)
        own = pool is None
        app.state.pool = Pool(cfg.workers, cfg.queue) if own else pool
        await app.state.pool.start()
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            if own:
                app.state.pool.close()
            if ranked_daily is None:
                daily.store.close()

    app = Starlette(
        routes=[*pages.routes, *api.routes, *puzzles.routes, *ranked.routes,
                Mount("/static", StaticFiles(packages=[("scoundrel_solver.web", "static")]),
                      name="static")],
        exception_handlers={BadInput: _bad_input, Busy: _busy, Overrun: _overrun,
                            ReviewTooLong: _too_long, ClientGone: _gone,
                            RateLimitExceeded: too_many, HTTPException: _http,
                            Exception: _crash},
        # the guard's cheap refusals first, then the client's rate, then the routes
        middleware=[Middleware(Guard), Middleware(SlowAPIASGIMiddleware)],
        lifespan=lifespan,
    )
    app.router.redirect_slashes = False  # Guard redirects, relative to the site (above)
    app.state.settings = cfg
    app.state.ranked = daily
    app.state.limiter = limiter(cfg.rate_limit, cfg.rate_limit_storage)
    app.state.start_limit = StartLimit(cfg.ranked_start_limit, cfg.rate_limit_storage)
    return app
