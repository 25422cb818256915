"""The ranked daily at ``/ranked``: one game a player a day, fair by construction.

- **The deal** comes from a server secret: the seed is an HMAC-SHA256 of the
  date under the secret (:meth:`Ranked.seed`), so nobody can compute it from
  the date, and it never leaves the server before the player's game ends. The
  browser gets only what a player sees (:func:`player_view`: the room, health,
  weapon, counts of the unseen cards, the fled cards known at the bottom).
- **The game lives on the server** (:mod:`.store`). The browser submits one
  action at a time with its move number; the server replays the stored game,
  checks the action is legal at that step, and writes it only if the stored
  game is still at that step. An illegal, stale or repeated submission gets a
  4xx and changes nothing; the score is the server's, never the browser's.
  Undo, hints and analysis are not offered until the game ends.
- **The player** is a random id in a cookie signed with an HMAC of the secret
  (``HttpOnly``, ``SameSite=Lax``); a forged or foreign cookie is refused (403)
  and cleared. The nickname is checked (letters, digits, space and ``_-.'``, at
  most 24 characters) and always shown as escaped text.
- **After the day** (the server's clock, UTC) the deal is published beside the
  day's leaderboard with the exact solver's best score and the fair agent's.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import hashlib
import hmac
import os
import re
import secrets
import tempfile
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qsl, urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

import scoundrel_core as sc

from ..coach.deal import Deal
from ..coach.game import Game
from . import tasks
from .common import pool, settings
from .game import BadInput, replay
from .ratelimit import StartLimit
from .store import (
    MEMORY,
    NICKNAME_MAX,
    Conflict,
    Published,
    RankedGame,
    Store,
    StoreError,
    store_url,
)
from .view import board

__all__ = [
    "API_ROWS",
    "COOKIE",
    "MAX_FORM",
    "POST_PATHS",
    "Forged",
    "Ranked",
    "SecretError",
    "load_secret",
    "openapi_paths",
    "player_view",
    "routes",
    "valid_nickname",
]

COOKIE: Final = "scoundrel_player"
"""The player cookie's name (its value: the player id and its HMAC under the secret)."""
MAX_FORM: Final = 1024
"""Bytes of a submitted form (a nickname, or a move number and an action)."""
POST_PATHS: Final = frozenset({"/ranked/start", "/ranked/move",
                               "/api/ranked/start", "/api/ranked/move"})
"""The only paths that take a POST (and a small form body); every other is GET only."""
VARIANT: Final = ("classic", "strict")
_PLAYER = re.compile(r"[A-Za-z0-9_-]{22}")
_SIG = re.compile(r"[0-9a-f]{64}")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_NICK_PUNCT: Final = " _-.'"
_COOKIE_AGE: Final = 400 * 24 * 3600


class SecretError(RuntimeError):
    """The secret file cannot be read or made."""


class Forged(ValueError):
    """A player cookie this server did not sign."""


def load_secret(path: Path) -> bytes:
    """The server secret kept in ``path``; made (64 random hex digits, mode 0600) if missing.
    Several processes starting at once agree: the file appears whole (written aside, then
    linked in place, which fails if another process linked its own first), and every
    process reads the one that is there."""
    if not path.exists():
        try:
            fd, aside = tempfile.mkstemp(prefix=".secret-", dir=path.parent)
        except OSError as err:
            raise SecretError(f"secret file {path}: cannot create it ({err.strerror})") from None
        try:
            with os.fdopen(fd, "w") as f:  # mkstemp makes it 0600
                f.write(secrets.token_hex(32) + "\n")
            os.link(aside, path)
        except FileExistsError:
            pass
        except OSError as err:
            raise SecretError(f"secret file {path}: cannot create it ({err.strerror})") from None
        finally:
            with contextlib.suppress(OSError):
                os.unlink(aside)
    try:
        text = path.read_text("ascii").strip()
    except (OSError, UnicodeDecodeError) as err:
        raise SecretError(f"secret file {path}: cannot read it ({err})") from None
    if len(text) < 32:
        raise SecretError(f"secret file {path}: it holds {len(text)} characters; at least 32 "
                          "are needed (delete it to have a new one made)")
    return text.encode("ascii", "replace")


def _utc_now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


class Ranked:
    """The ranked daily's server side: the store, the secret and the clock (UTC)."""

    def __init__(self, store: Store, secret: bytes,
                 clock: Callable[[], _dt.datetime] = _utc_now) -> None:
        if len(secret) < 32:
            raise SecretError("the secret must be at least 32 bytes")
        self.store = store
        self._secret = secret
        self.clock = clock

    @classmethod
    def open(cls, database: str | None, secret_file: Path | None,
             busy_seconds: float = 5.0) -> Ranked:
        """The store named by ``--database`` (memory when None) and the secret of
        ``--secret-file`` (by default beside a SQLite file; random, kept in memory, for a
        memory store)."""
        url = store_url(database) if database is not None else None
        if secret_file is None and url is not None and url.get_backend_name() == "sqlite" \
                and url.database not in (None, "", ":memory:"):
            secret_file = Path(f"{url.database}.secret")
        if secret_file is None and url is not None and url.get_backend_name() != "sqlite":
            raise SecretError("a server --database needs --secret-file (a file every server "
                              "process reads, so that they all deal the same game)")
        # the secret before the store: a bad secret file opens no connection
        secret = (load_secret(secret_file) if secret_file is not None
                  else secrets.token_hex(32).encode())
        store = Store(url or MEMORY, busy_seconds=busy_seconds)
        return cls(store, secret)

    def _mac(self, what: str) -> bytes:
        return hmac.new(self._secret, what.encode(), hashlib.sha256).digest()

    def today(self) -> str:
        """Today's date on the server's clock, UTC."""
        return self.clock().astimezone(_dt.timezone.utc).date().isoformat()

    def now(self) -> _dt.datetime:
        """The time to store (naive UTC)."""
        return self.clock().astimezone(_dt.timezone.utc).replace(tzinfo=None)

    def seed(self, day: str) -> int:
        """The seed of ``day``'s ranked deal: 64 bits of an HMAC of the date under the secret."""
        return int.from_bytes(self._mac(f"scoundrel ranked deal {day}")[:8], "big")

    def deal_id(self, day: str) -> str:
        """A name of ``day``'s deal that says nothing of it (it changes with the secret)."""
        return self._mac(f"scoundrel ranked deal id {day}")[:8].hex()

    def deal(self, day: str) -> Deal:
        """``day``'s ranked deal (classic, strict) from :meth:`seed`."""
        return Deal.seeded(self.seed(day), *VARIANT)

    def sign(self, player: str) -> str:
        """The cookie's value for ``player``: the id and its HMAC."""
        return f"{player}.{self._mac('player ' + player).hex()}"

    def player_of(self, cookie: str | None) -> str | None:
        """The player a cookie names (None without one); :class:`Forged` if unsigned."""
        if cookie is None or cookie == "":
            return None
        player, _, sig = cookie.partition(".")
        if not (_PLAYER.fullmatch(player) and _SIG.fullmatch(sig)):
            raise Forged("the player cookie is malformed")
        if not hmac.compare_digest(sig, self._mac("player " + player).hex()):
            raise Forged("the player cookie was not signed by this server")
        return player

    def game(self, stored: RankedGame) -> Game:
        """The stored game replayed on the server (the day's deal, every step checked)."""
        if stored.deal_id != self.deal_id(stored.day):
            raise Conflict("this game was dealt under another server secret: it cannot go on")
        return replay(self.deal(stored.day), list(stored.line))


def valid_nickname(text: str | None) -> str:
    """A nickname as stored: NFC, spaces trimmed, 1..24 letters, digits, spaces and
    ``_-.'``; anything else is a BadInput naming the first bad character."""
    if text is None:
        raise BadInput("nickname", "give a nickname")
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise BadInput("nickname", "give a nickname")
    if len(name) > NICKNAME_MAX:
        raise BadInput("nickname", f"the nickname has {len(name)} characters; at most "
                       f"{NICKNAME_MAX}")
    for ch in name:
        if not (ch.isalnum() or ch in _NICK_PUNCT):
            raise BadInput("nickname", f"the nickname may hold letters, digits, spaces and "
                           f"_-.' only, not {ch!r}")
    return re.sub(r"\s+", " ", name)


# ---- what the browser is shown -------------------------------------------------------------

_ACTION_KEYS: Final = ("n", "key", "kbd", "action", "label")
_CARD_KEYS: Final = ("text", "rank", "suit", "symbol", "colour", "kind", "value")
_BOARD_KEYS: Final = ("health", "max_health", "health_pct", "weapon", "slain", "last_kill",
                      "reach", "potion_used", "dungeon_size", "unseen", "unseen_total",
                      "bottom", "flee_reason", "step", "line", "over", "won", "score",
                      "score_parts", "variant")


def _action(row: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if row is None else {k: row[k] for k in _ACTION_KEYS}


def player_view(game: Game) -> dict[str, Any]:
    """The position as the player sees it, and nothing else: a whitelist of the board's
    fields, without its links (a link names the deal)."""
    b = board(game, "/ranked")
    out = {k: b[k] for k in _BOARD_KEYS}
    out["room"] = [{**{k: c[k] for k in _CARD_KEYS},
                    "actions": [_action(a) for a in c["actions"]]} for c in b["room"]]
    out["actions"] = [_action(a) for a in b["actions"]]
    out["flee"] = _action(b["flee"])
    out["room_no"] = game.room
    return out


def share_text(day: str, game: Game) -> str:
    """The result to share: no card, no move, nothing that helps someone yet to play."""
    s = game.state
    flees = sum(1 for a in game.actions if a.is_flee)
    how = "cleared the dungeon" if s.won else "died"
    return (f"Scoundrel ranked daily {day}: {how}, score {s.score}, "
            f"{game.room} room{'s' if game.room != 1 else ''}, "
            f"{flees} flee{'s' if flees != 1 else ''}.")


# ---- requests -------------------------------------------------------------------------------

def ranked_of(request: Request) -> Ranked:
    r: Ranked = request.app.state.ranked
    return r


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def _form(request: Request, allowed: tuple[str, ...]) -> dict[str, str]:
    """The submitted form: url-encoded, at most MAX_FORM bytes, each field once, and no
    field but ``allowed`` (a submitted score or line is refused, not ignored)."""
    origin = request.headers.get("origin")
    # a form posted from another site is refused (the cookie is SameSite=Lax as well); the
    # scheme is not compared, as a proxy may end TLS. The pages' no-referrer policy makes
    # browsers send "null" for the site's own forms: that says nothing, the cookie decides.
    if origin not in (None, "null") and \
            urlsplit(origin).netloc != request.headers.get("host", ""):
        raise _Refused(403, "origin", f"a submission from {origin[:80]} is not accepted")
    body = await request.body()
    if len(body) > MAX_FORM:
        raise BadInput("body", f"the form is longer than {MAX_FORM} bytes")
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(body),
                          max_num_fields=8)
    except (UnicodeDecodeError, ValueError):
        raise BadInput("body", "the form is not url-encoded UTF-8") from None
    out: dict[str, str] = {}
    for k, v in pairs:
        if k not in allowed:
            raise BadInput(k[:40], f"field {k[:40]!r} is not accepted here (only "
                           f"{', '.join(allowed)}): the server keeps the game and its score")
        if k in out:
            raise BadInput(k, f"{k} is given more than once")
        out[k] = v
    return out


class _Refused(Exception):
    """A refusal with its status: 403 (cookie, origin), 409 (conflict), 429 (too many starts,
    with the seconds to wait)."""

    def __init__(self, status: int, field: str, message: str,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status, self.field, self.message = status, field, message
        self.retry_after = retry_after


def _player(request: Request) -> str | None:
    try:
        return ranked_of(request).player_of(request.cookies.get(COOKIE))
    except Forged as err:
        raise _Refused(403, "cookie", f"{err}: it was cleared, reload the page") from None


async def _stored(request: Request, player: str | None) -> RankedGame | None:
    if player is None:
        return None
    r = ranked_of(request)
    return await run_in_threadpool(r.store.game, player, r.today())


def _state_json(r: Ranked, stored: RankedGame | None) -> dict[str, Any]:
    day = r.today()
    if stored is None:
        return {"date": day, "nickname": None, "game": None, "share": None}
    game = r.game(stored)
    out: dict[str, Any] = {"date": day, "nickname": stored.nickname, "game": player_view(game),
                           "share": share_text(day, game) if game.is_over else None}
    if game.is_over:
        # the player's own game is over: its deal may be reviewed now
        out["review"] = f"/review?seed={r.seed(day)}&variant=classic&weapon_rule=strict" + (
            f"&line={','.join(stored.line)}" if stored.line else "")
    return out


def _set_cookie(request: Request, resp: Response, player: str) -> None:
    resp.set_cookie(COOKIE, ranked_of(request).sign(player), max_age=_COOKIE_AGE,
                    httponly=True, samesite="lax", secure=request.url.scheme == "https",
                    path="/")


async def _start(request: Request) -> tuple[RankedGame, str | None]:
    """Start the player's game of today; the new player id when the cookie was missing."""
    q = await _form(request, ("nickname",))
    nickname = valid_nickname(q.get("nickname"))
    r = ranked_of(request)
    player = _player(request)
    limit: StartLimit = request.app.state.start_limit
    wait = limit.wait(request.client.host if request.client else "")
    if wait is not None:
        raise _Refused(429, "nickname", f"too many ranked games started from this address; "
                       f"try again in {wait} s", retry_after=wait)
    new = None
    if player is None:
        player = new = secrets.token_urlsafe(16)
    day = r.today()
    stored = await run_in_threadpool(r.store.start, player, day, nickname, r.deal_id(day),
                                     r.now())
    return stored, new


async def _move(request: Request) -> RankedGame:
    """Play the submitted action on the stored game (every check on the server)."""
    q = await _form(request, ("n", "action"))
    r = ranked_of(request)
    player = _player(request)
    if player is None:
        raise _Refused(403, "cookie", "no ranked game: start one first")
    stored = await _stored(request, player)
    if stored is None:
        raise _Refused(409, "date", f"no ranked game on {r.today()} (a game of an earlier "
                       "day ended with it): start today's")
    n_text = q.get("n", "")
    if not (n_text.isascii() and n_text.isdigit() and len(n_text) <= 6):
        raise BadInput("n", "n, the move number, must be a whole number")
    n = int(n_text)
    if stored.over:
        raise _Refused(409, "n", "the game is over")
    if n != len(stored.line) + 1:
        raise _Refused(409, "n", f"move {n} is not the next move ({len(stored.line) + 1}): "
                       "a stale or repeated submission; reload the game")
    game = r.game(stored)
    text = q.get("action", "").strip()
    try:
        a = sc.parse_action_text(text)
    except sc.ScoundrelError as err:
        raise BadInput("action", f"move {n} ({text[:20]!r}): {err}") from None
    reason = sc.why_illegal(game.state, a)
    if reason is not None:
        raise BadInput("action", f"move {n} ({text[:20]!r}) is illegal: {reason}")
    after = game.then(a)
    s = after.state
    state = "playing" if not s.is_over else ("won" if s.won else "lost")
    return await run_in_threadpool(r.store.advance, stored, (*stored.line, str(a)), state,
                                   s.score if s.is_over else None, r.now())


def _refusal(request: Request, status: int, field: str, message: str,
             retry_after: int | None = None) -> Response:
    from .pages import render

    if _is_api(request):
        resp: Response = JSONResponse({"error": message, "field": field}, status_code=status)
    else:
        resp = render(request, "error.html", "error", status=status, field=field,
                      message=message)
    if field == "cookie":
        resp.delete_cookie(COOKIE, path="/")
    if status == 503:
        resp.headers["Retry-After"] = "2"
    if retry_after is not None:
        resp.headers["Retry-After"] = str(retry_after)
    return resp


def _guarded(fn: Callable[[Request], Any]) -> Callable[[Request], Any]:
    """A handler whose refusals become 4xx answers (JSON under /api/, a page elsewhere)."""
    async def wrapped(request: Request) -> Response:
        try:
            resp: Response = await fn(request)
            return resp
        except _Refused as err:
            return _refusal(request, err.status, err.field, err.message, err.retry_after)
        except Conflict as err:
            return _refusal(request, 409, "n", str(err))
        except BadInput as err:
            return _refusal(request, 400, err.field, err.message)
        except StoreError as err:
            return _refusal(request, 503, "store", f"the ranked store is unavailable: {err}")
    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = fn.__doc__
    return wrapped


# ---- pages ----------------------------------------------------------------------------------

async def ranked_page(request: Request) -> Response:
    from .pages import render

    r = ranked_of(request)
    stored = await _stored(request, _player(request))
    state = _state_json(r, stored)
    g = state["game"]
    return render(request, "ranked.html", "ranked", s=state, b=g, day=state["date"],
                  nickname_max=NICKNAME_MAX)


async def ranked_start(request: Request) -> Response:
    stored, new = await _start(request)
    resp: Response
    if _is_api(request):
        resp = JSONResponse(_state_json(ranked_of(request), stored), status_code=201)
    else:
        resp = RedirectResponse("/ranked", status_code=303)
    if new is not None:
        _set_cookie(request, resp, new)
    return resp


async def ranked_move(request: Request) -> Response:
    stored = await _move(request)
    if _is_api(request):
        return JSONResponse(_state_json(ranked_of(request), stored))
    return RedirectResponse("/ranked", status_code=303)


async def api_ranked(request: Request) -> Response:
    stored = await _stored(request, _player(request))
    return JSONResponse(_state_json(ranked_of(request), stored))


def _day(request: Request) -> str:
    r = ranked_of(request)
    text = request.query_params.get("date") or r.today()
    if len(request.query_params.getlist("date")) > 1:
        raise BadInput("date", "date is given more than once")
    if not _DATE.fullmatch(text):
        raise BadInput("date", f"date {text[:20]!r} is not YYYY-MM-DD")
    try:
        _dt.date.fromisoformat(text)
    except ValueError:
        raise BadInput("date", f"date {text} does not exist") from None
    return text


_publishing: dict[str, asyncio.Lock] = {}
"""One computation of a day's results at a time in this process (the first visitors after
midnight wait for it rather than each asking the workers)."""


async def _published(request: Request, day: str) -> Published | None:
    """A past day's deal with the exact solver's and the fair agent's scores (computed in a
    worker the first time it is asked for, then kept in the store). Only days on which
    ranked games were played: any other date costs the workers nothing."""
    r = ranked_of(request)
    if day >= r.today():
        return None
    done = await run_in_threadpool(r.store.published, day)
    if done is not None:
        return done
    if not await run_in_threadpool(r.store.played, day):
        return None
    if len(_publishing) > 64:
        _publishing.clear()
    async with _publishing.setdefault(day, asyncio.Lock()):
        done = await run_in_threadpool(r.store.published, day)
        if done is not None:
            return done
        seed = r.seed(day)
        best = await pool(request).run(tasks.solve_json, seed, *VARIANT,
                                       settings(request).max_seconds)
        fair = await pool(request).run(tasks.fair_score, seed, *VARIANT)
        p = Published(day, seed, int(best["best_score"]), bool(best["proven"]), fair)
        await run_in_threadpool(r.store.publish, p)
    return p


def _published_json(p: Published | None) -> dict[str, Any] | None:
    if p is None:
        return None
    start = Deal.seeded(p.seed, *VARIANT).start
    return {"seed": str(p.seed), "variant": VARIANT[0], "weapon_rule": VARIANT[1],
            "deck": sc.format_deck(start.room + start.dungeon),
            "best_score": p.best_score, "best_proven": p.proven, "fair_score": p.fair_score}


async def _board_rows(request: Request, day: str) -> list[dict[str, Any]]:
    rows = await run_in_threadpool(ranked_of(request).store.leaders, day)
    return [{"rank": i, "nickname": x.nickname, "score": x.score,
             "seconds": round(x.seconds, 1)} for i, x in enumerate(rows, 1)]


async def api_leaderboard(request: Request) -> Response:
    day = _day(request)
    rows = await _board_rows(request, day)
    out: dict[str, Any] = {"date": day, "rows": rows}
    if day < ranked_of(request).today():
        # null for a past day on which nobody played (nothing was computed for it)
        out["published"] = _published_json(await _published(request, day))
    return JSONResponse(out)


async def leaderboard_page(request: Request) -> Response:
    from .pages import render

    r = ranked_of(request)
    day = _day(request)
    rows = await _board_rows(request, day)
    pub = _published_json(await _published(request, day)) if day < r.today() else None
    prev = (_dt.date.fromisoformat(day) - _dt.timedelta(days=1)).isoformat()
    nxt = (_dt.date.fromisoformat(day) + _dt.timedelta(days=1)).isoformat()
    return render(request, "leaderboard.html", "leaderboard", day=day, rows=rows, pub=pub,
                  prev=prev, next=nxt if nxt <= r.today() else None, is_today=day == r.today())


API_ROWS: Final = [
    ("GET", "/api/ranked", "your ranked game of today as you see it (no game: null)"),
    ("POST", "/api/ranked/start", "start today's ranked game: form nickname=..."),
    ("POST", "/api/ranked/move", "play move n of your ranked game: form n=...&action=..."),
    ("GET", "/api/leaderboard", "?date=YYYY-MM-DD: the day's finished ranked games, best "
     "first; after the day, the deal with the solver's and the agent's scores"),
]
"""The ranked daily's JSON endpoints: method, path and what they do (for the API page)."""


def openapi_paths() -> dict[str, Any]:
    """The ranked daily's part of the OpenAPI document."""
    refusals = {"400": {"description": "bad input: {error, field}"},
                "403": {"description": "a forged cookie or another site's form"},
                "409": {"description": "a second game the same day, or a stale move number"},
                "429": {"description": "over the client's rate; Retry-After says when"}}
    form = {"content": {"application/x-www-form-urlencoded": {"schema": {"type": "object"}}}}
    out: dict[str, Any] = {}
    for method, path, summary in API_ROWS:
        op: dict[str, Any] = {"summary": summary,
                              "responses": {"200": {"description": "JSON"}} | refusals}
        if method == "POST":
            op["requestBody"] = form
        if path == "/api/leaderboard":
            op["parameters"] = [{"name": "date", "in": "query",
                                 "schema": {"type": "string", "format": "date"}}]
        out.setdefault(path, {})[method.lower()] = op
    return out


routes = [
    Route("/ranked", _guarded(ranked_page), methods=["GET"]),
    Route("/ranked/start", _guarded(ranked_start), methods=["POST"]),
    Route("/ranked/move", _guarded(ranked_move), methods=["POST"]),
    Route("/ranked/leaderboard", _guarded(leaderboard_page), methods=["GET"]),
    Route("/api/ranked", _guarded(api_ranked), methods=["GET"]),
    Route("/api/ranked/start", _guarded(ranked_start), methods=["POST"]),
    Route("/api/ranked/move", _guarded(ranked_move), methods=["POST"]),
    Route("/api/leaderboard", _guarded(api_leaderboard), methods=["GET"]),
]
"""The ranked daily's pages and endpoints."""
