"""The HTML pages, rendered on the server (Jinja2, autoescaped: typed text stays text)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

import scoundrel_core as sc

from ..coach import labels
from ..coach.game import Game
from . import api
from .census import percent
from .common import game_from, params, today
from .game import BadInput, link, parse_deal, parse_line_text, replay
from .pool import Busy, Overrun
from .review_view import key_moments, turning_view
from .view import board, card_view

__all__ = ["render", "routes"]

_env = jinja2.Environment(
    loader=jinja2.PackageLoader("scoundrel_solver.web", "templates"),
    autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
)
_env.filters["count_of"] = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"
_env.filters["percent"] = percent


def render(request: Request, name: str, page: str, status: int = 200, **ctx: Any) -> Response:
    """A page from its template, with the date and version every page shows."""
    html = _env.get_template(name).render(page=page, today=today(), version=sc.__version__,
                                          **ctx)
    return HTMLResponse(html, status_code=status)


def _title(game: Game) -> str:
    d = game.deal
    if d.seed is not None:
        return f"seed {d.seed}"
    return "custom deck" if d.deck is not None else "position"


async def home(request: Request) -> Response:
    return render(request, "home.html", "home", daily_seed=sc.daily_seed(today()),
                  random_seed=random.randrange(1_000_000), variants=sc.VARIANTS,
                  weapon_rules=sc.WEAPON_RULES)


async def play(request: Request) -> Response:
    game = game_from(request)
    b = board(game, "/play")
    return render(request, "play.html", "play", b=b, hidden=game.deal.query(),
                  title=_title(game), room_no=game.room, deal_key=link(game, ""),
                  self_url=link(game, "/play"), hint_url=link(game, "/api/hint"),
                  review_url=link(game, "/review"), analysis_url=link(game, "/analysis"),
                  record_url=link(game, "/api/record") if game.deal.state_text is None else "",
                  daily=game.deal.daily_date)


async def daily(request: Request) -> Response:
    date = request.path_params["date"]
    try:
        seed = sc.daily_seed(date)
    except sc.ScoundrelError as err:
        raise BadInput("date", str(err)) from None
    return RedirectResponse(f"/play?seed={seed}&variant=classic&weapon_rule=strict", 302)


async def review(request: Request) -> Response:
    game = game_from(request)
    r = await api.review_for(request, game)
    counts = Counter(d["label"] for d in r["decisions"])
    for d in r["decisions"]:
        d["analysis_url"] = link(game, "/analysis", game.line[: d["step"] - 1])
    rooms = []
    for room in r["rooms"]:
        s = sc.parse_state(room["state"])
        rooms.append({"health": s.health, "cards": [card_view(c) for c in s.room],
                      "weapon": None if s.weapon is None else card_view(s.weapon),
                      "actions": room["actions"]})
    return render(request, "review.html", "review", r=r, rooms=rooms, title=_title(game),
                  moments=key_moments(game, r), turning=turning_view(game, r),
                  fair_url=link(game, "/analysis", r["fair"]["line"]),
                  variant=str(game.deal.start.variant),
                  counts={k: counts.get(k, 0) for k in ("inaccuracy", "mistake", "blunder")},
                  play_url=link(game, "/play"), self_url=link(game, "/review"),
                  record_url=link(game, "/api/record") if game.deal.state_text is None else "")


def _form(q: dict[str, str]) -> dict[str, str]:
    return {"seed": q.get("seed", ""), "deck": q.get("deck", ""), "state": q.get("state", ""),
            "variant": q.get("variant", "classic"), "weapon_rule": q.get("weapon_rule", "strict")}


async def analysis(request: Request) -> Response:
    q = params(request)
    ctx: dict[str, Any] = {
        "form": _form(q), "variants": sc.VARIANTS, "weapon_rules": sc.WEAPON_RULES,
        "all_cards": [card_view(c) for c in sc.FULL_DECK], "error": None, "b": None,
    }
    if not any(q.get(k, "").strip() for k in ("seed", "deck", "state")):
        return render(request, "analysis.html", "analysis", **ctx)
    # the setup form sends every field; the empty ones are not meant
    q = {k: v for k, v in q.items() if v.strip()}
    try:
        game = replay(parse_deal(q), parse_line_text(q.get("line")))
    except BadInput as err:
        ctx["error"] = {"field": err.field, "message": err.message}
        return render(request, "analysis.html", "analysis", status=400, **ctx)
    b = board(game, "/analysis")
    ctx.update(b=b, hidden=game.deal.query(), self_url=link(game, "/analysis"),
               play_url=link(game, "/play"), exact=None, exact_error=None, best_steps=[],
               forward_href=None, hint_rows=None, hint_keys={}, hint_error=None, hint_best=None,
               position_win=0.0)
    if not game.state.is_over:
        try:
            exact = await api.solve_for(request, game)
            ctx["exact"] = exact
            steps = list(game.line)
            for a in exact["line"]:
                steps.append(a)
                ctx["best_steps"].append({"action": a, "href": link(game, "/analysis", steps)})
            if ctx["best_steps"]:
                ctx["forward_href"] = ctx["best_steps"][0]["href"]
        except (Busy, Overrun) as err:
            ctx["exact_error"] = f"busy: {err}; reload in a moment"
        try:
            h = await api.hint_for(request, game)
            ctx["hint_rows"] = h["actions"]  # best first, each with its key on the board
            ctx["hint_keys"] = {a["action"]: a for a in b["actions"]}
            ctx["hint_best"] = {"action": h["best"]}
            ctx["position_win"] = h["win_chance"] or 0.0
        except (Busy, Overrun) as err:
            ctx["hint_error"] = f"busy: {err}; reload in a moment"
    return render(request, "analysis.html", "analysis", **ctx)


async def census(request: Request) -> Response:
    rows, error = request.app.state.census
    # The files by name only: the server's folders are not the visitors' business.
    return render(request, "census.html", "census", rows=rows, error=error,
                  source="census.parquet and fair-games.parquet")


async def api_page(request: Request) -> Response:
    from .ranked import API_ROWS

    return render(request, "api.html", "api",
                  endpoints=[{"method": "GET", "path": p, "summary": s}
                             for p, _, s in api.ENDPOINTS]
                  + [{"method": m, "path": p, "summary": s} for m, p, s in API_ROWS])


async def about(request: Request) -> Response:
    t = {"inaccuracy": labels.INACCURACY, "mistake": labels.MISTAKE,
         "blunder": labels.BLUNDER, "scale": labels.ACCURACY_SCALE, "live": labels.LIVE,
         "noise": labels.NOISE}
    return render(request, "about.html", "about", t=t)


async def learn_page(request: Request) -> Response:
    from . import learn  # markdown is loaded only when the page is asked for

    q = params(request)
    return render(request, "learn.html", "learn", t=learn.lesson(q.get("line")),
                  rules=learn.rules_html())


routes = [
    Route("/", home, methods=["GET"]),
    Route("/learn", learn_page, methods=["GET"]),
    Route("/play", play, methods=["GET"]),
    Route("/daily/{date}", daily, methods=["GET"]),
    Route("/review", review, methods=["GET"]),
    Route("/analysis", analysis, methods=["GET"]),
    Route("/census", census, methods=["GET"]),
    Route("/api", api_page, methods=["GET"]),
    Route("/about", about, methods=["GET"]),
]
"""The site's HTML pages."""
