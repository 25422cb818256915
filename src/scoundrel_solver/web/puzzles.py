"""``/puzzles``: find the move that keeps your chances.

A puzzle is a position as the player saw it: an information state's text
(``state=``), which holds the unseen cards as a set, never their order. The
player's own puzzles are the key moments of their reviews, kept in the browser
(``localStorage``, by ``static/puzzles.js``); the daily puzzle is the coach's
(:func:`~scoundrel_solver.coach.puzzles.daily_puzzle`), computed in a worker
once per day and kept by the server (:data:`KEEP_DAYS` days). A page or
``/api/puzzle`` sends the position only; the answer and the agent's values
come back once an action is chosen (``line=`` one action).
"""

from __future__ import annotations

import asyncio
import datetime as _dt
from collections import OrderedDict
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import scoundrel_core as sc

from ..coach.game import Game
from ..coach.puzzles import answer_label
from . import tasks
from .common import params, pool, settings, today, work
from .game import BadInput, parse_deal, replay
from .pool import Busy
from .view import board

__all__ = ["KEEP_DAYS", "routes"]

KEEP_DAYS: Final = 8
"""Days whose puzzle the server keeps."""


def _kept(request: Request) -> OrderedDict[str, asyncio.Task[dict[str, Any] | None]]:
    app = request.app
    if not hasattr(app.state, "puzzles"):
        app.state.puzzles = OrderedDict()
    kept: OrderedDict[str, asyncio.Task[dict[str, Any] | None]] = app.state.puzzles
    return kept


async def daily_for(request: Request, date: str) -> dict[str, Any] | None:
    """The puzzle of ``date`` with its answer, computed once (concurrent requests share the
    one computation); None when no deal gave one."""
    kept = _kept(request)
    task = kept.get(date)
    if task is None or (task.done() and task.exception() is not None):
        task = asyncio.ensure_future(pool(request).run(
            tasks.daily_puzzle, date, str(settings(request).data_dir)))
        kept[date] = task
        while len(kept) > KEEP_DAYS:
            kept.popitem(last=False)
    kept.move_to_end(date)
    return await asyncio.shield(task)


def _date(q: dict[str, str]) -> str:
    """The day asked for: today, or one of the :data:`KEEP_DAYS` days before (so at most
    that many puzzles are ever computed in a day)."""
    date = q.get("date") or today()
    try:
        sc.daily_seed(date)
    except sc.ScoundrelError as err:
        raise BadInput("date", str(err)) from None
    if date > today():
        raise BadInput("date", f"date {date} is in the future: no puzzle yet")
    first = (_dt.date.fromisoformat(today()) - _dt.timedelta(days=KEEP_DAYS - 1)).isoformat()
    if date < first:
        raise BadInput("date", f"date {date}: puzzles are kept from {first} on")
    return date


def _position(q: dict[str, str]) -> Game:
    """The puzzle's position: a state text with at least two legal actions."""
    game = replay(parse_deal({"state": q["state"]}), [])
    if game.is_over or len(game.legal()) < 2:
        raise BadInput("state", "a puzzle needs a position with a choice to make")
    return game


async def _verdict(request: Request, game: Game, answer: str,
                   daily: dict[str, Any] | None) -> dict[str, Any]:
    """Whether ``answer`` keeps the chances at the puzzle's position, with the agent's rows."""
    try:
        a = sc.parse_action(game.state, answer)
    except sc.ScoundrelError as err:
        raise BadInput("line", f"answer {answer!r}: {err}") from None
    rows, best = await work(request, tasks.hint, game.info)
    assert best is not None
    is_daily = daily is not None and daily["state"] == game.info.to_text()
    best_action = daily["answer"] if is_daily and daily is not None else best["action"]
    label = answer_label(rows, best_action, str(a))
    return {"answer": str(a), "right": label is None, "label": label, "best": best_action,
            "rows": rows, "daily": daily if is_daily else None}


async def puzzles_page(request: Request) -> Response:
    from .pages import render  # the pages import this module's routes

    q = params(request)
    ctx: dict[str, Any] = {"b": None, "hidden": {}, "verdict": None, "daily": None,
                           "daily_error": None, "is_daily": False, "date": _date(q)}
    daily = None
    try:
        daily = await daily_for(request, ctx["date"])
    except Busy as err:
        ctx["daily_error"] = f"busy: {err}; reload in a moment"
    if daily is None and ctx["daily_error"] is None:
        ctx["daily_error"] = "no daily puzzle today: no deal gave a clear one"
    state = q.get("state") or (daily["state"] if daily is not None else None)
    if state is not None:
        game = _position({"state": state})
        ctx["is_daily"] = daily is not None and daily["state"] == game.info.to_text()
        ctx["b"] = board(game, "/puzzles")
        ctx["hidden"] = game.deal.query()
        ctx["daily"] = daily if ctx["is_daily"] else None
        if q.get("line"):
            ctx["verdict"] = await _verdict(request, game, q["line"], daily)
            ctx["keys"] = {a["action"]: a for a in ctx["b"]["actions"]}
    return render(request, "puzzles.html", "puzzles", **ctx)


async def api_puzzle(request: Request) -> Response:
    """Without ``state``: the day's puzzle position (no answer). With ``state`` and
    ``line`` (one action): the verdict and the agent's values."""
    q = params(request)
    date = _date(q)
    daily = await daily_for(request, date)
    if "state" not in q:
        if daily is None:
            return JSONResponse({"date": date, "state": None})
        return JSONResponse({"date": date, "state": daily["state"]})
    game = _position(q)
    if not q.get("line"):
        raise BadInput("line", "give the answer: line=<one action>")
    got = await _verdict(request, game, q["line"], daily)
    return JSONResponse(got)


routes = [Route("/puzzles", puzzles_page, methods=["GET"])]
"""The puzzle page (its JSON endpoint is among :data:`.api.ENDPOINTS`)."""
