"""The JSON endpoints. Each reads a deal and a line from its query (see :mod:`.game`).

Bad input answers 400 with ``{"error": ..., "field": ...}``; a full worker
queue answers 503 with ``Retry-After``. Solver and agent calls run in the
worker pool; the position itself is replayed here (cheap, pure Python).
"""

from __future__ import annotations

import json
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..coach.game import Game
from ..coach.review import check_reviewable
from . import puzzles, tasks
from .common import game_from, pool, settings, work
from .game import BadInput
from .view import board

__all__ = ["ENDPOINTS", "hint_for", "openapi", "review_for", "routes", "solve_for"]


async def solve_for(request: Request, game: Game) -> dict[str, Any]:
    """The exact solve of the game's position (the same object as ``scoundrel-solve --json``)."""
    s = game.state
    if s.is_over:
        raise BadInput("line", "the game is over: nothing to solve")
    v = s.variant
    start: Any = game.deal.seed if game.deal.seed is not None and not game.actions else s
    return await work(request, tasks.solve_json, start, v.name, v.weapon_rule,
                      settings(request).max_seconds)


async def hint_for(request: Request, game: Game) -> dict[str, Any]:
    """The fair agent's rows at the game's position, and the position's chance of winning."""
    if game.state.is_over:
        raise BadInput("line", "the game is over: no hints")
    rows, best = await work(request, tasks.hint, game.info)
    out: dict[str, Any] = {"agent": "fair", "actions": rows,
                           "best": None if best is None else best["action"]}
    # the position's numbers are its best row's, shown and searched alike
    for key in ("win_chance", "expected_score", "search_win_chance", "search_expected_score"):
        out[key] = None if best is None else best[key]
    return out


async def review_for(request: Request, game: Game) -> dict[str, Any]:
    """The review of a game, computed in a worker; a game of more decisions than a review
    values is refused here (:class:`~scoundrel_solver.coach.review.ReviewTooLong`, 413)."""
    check_reviewable(game.deal.start, game.actions)
    out: dict[str, Any] = await work(
        request, tasks.review, game.deal.start, game.line, game.deal.bottom,
        settings(request).max_seconds, game.deal.state_text, stoppable=True)
    return out


async def api_state(request: Request) -> Response:
    game = game_from(request)
    b = board(game, "/play")
    for key in ("undo_href", "restart_href"):
        b.pop(key)
    return JSONResponse(b)


async def api_solve(request: Request) -> Response:
    return JSONResponse(await solve_for(request, game_from(request)))


async def api_hint(request: Request) -> Response:
    return JSONResponse(await hint_for(request, game_from(request)))


async def api_review(request: Request) -> Response:
    return JSONResponse(await review_for(request, game_from(request)))


async def api_record(request: Request) -> Response:
    game = game_from(request)
    if game.deal.state_text is not None:
        raise BadInput("state", "a record starts from a seed or a deck, not a position")
    return Response(json.dumps(game.record().to_json(), indent=1) + "\n",
                    media_type="application/json",
                    headers={"Content-Disposition": 'attachment; filename="scoundrel-record.json"'})


async def api_census(request: Request) -> Response:
    rows, error = request.app.state.census
    return JSONResponse({"variants": [{k: v for k, v in r.items() if k != "hist"}
                                      | {"histogram": {b["label"]: b["count"]
                                                       for b in r["hist"]["bars"]
                                                       if b["count"]}}
                                      for r in rows], "error": error})


async def api_health(request: Request) -> Response:
    p = pool(request)
    return JSONResponse({"ok": True, "workers": p.workers, "in_flight": p.in_flight})


DEAL_PARAMS: Final = [
    {"name": "seed", "in": "query", "schema": {"type": "integer", "minimum": 0},
     "description": "a seeded deal (0..2**64-1)"},
    {"name": "deck", "in": "query", "schema": {"type": "string"},
     "description": "cards top of the dungeon first, separated by spaces"},
    {"name": "state", "in": "query", "schema": {"type": "string"},
     "description": "a position: State.to_text(), or an info-state text with | bottom=[...]"},
    {"name": "variant", "in": "query", "schema": {"enum": ["classic", "easy", "hard"]}},
    {"name": "weapon_rule", "in": "query", "schema": {"enum": ["strict", "equal"]}},
    {"name": "line", "in": "query", "schema": {"type": "string"},
     "description": "actions in the project's notation separated by commas: 7D,KS/w,flee"},
]

ENDPOINTS: Final = [
    ("/api/state", api_state, "the position after the line, as the player sees it"),
    ("/api/solve", api_solve, "the exact best score and line (as scoundrel-solve --json)"),
    ("/api/hint", api_hint, "each legal action's win_chance, expected_score and exact "
     "from the fair agent"),
    ("/api/review", api_review, "three scores, labelled decisions, accuracy, optimal line"),
    ("/api/record", api_record, "the game as a scoundrel-record/1 file"),
    ("/api/puzzle", puzzles.api_puzzle, "the day's puzzle position (no answer); with state "
     "and line (one action): whether it keeps the chances, and the fair agent's values"),
    ("/api/census", api_census, "winnable share per variant and the fair agent's rates"),
    ("/api/health", api_health, "the server is up; worker count and requests in flight"),
]
"""Every JSON endpoint: path, handler and what it returns (the OpenAPI document is made from it)."""


def openapi() -> dict[str, Any]:
    """The OpenAPI document of the JSON API."""
    errors: dict[str, Any] = {
        "400": {"description": "bad input: {error, field}"},
        "413": {"description": "a review of more decisions than a review values: "
                "{error, field}"},
        "503": {"description": "the worker queue is full (Retry-After says when to retry), "
                "or the request needed more of the workers' time than one request gets"},
    }
    paths = {
        path: {"get": {"summary": summary,
                       "parameters": [] if path in ("/api/census", "/api/health")
                       else DEAL_PARAMS,
                       "responses": {"200": {"description": "JSON"}} | errors}}
        for path, _, summary in ENDPOINTS
    }
    from .ranked import openapi_paths

    return {"openapi": "3.0.3", "info": {"title": "scoundrel-web", "version": "1"},
            "paths": paths | openapi_paths()}


async def api_openapi(request: Request) -> Response:
    return JSONResponse(openapi())


routes = [Route(path, fn, methods=["GET"]) for path, fn, _ in ENDPOINTS]
"""The JSON API's routes, the OpenAPI document's included."""
routes.append(Route("/api/openapi.json", api_openapi, methods=["GET"]))
