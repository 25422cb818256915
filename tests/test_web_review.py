"""scoundrel-web in-process: the review's key moments and turning point, and /puzzles."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("starlette")
try:  # Starlette's TestClient takes httpx2 from 1.10 on, httpx before it
    import httpx2  # noqa: F401
except ModuleNotFoundError:
    pytest.importorskip("httpx")

from starlette.testclient import TestClient

import scoundrel_core as sc
from scoundrel_solver.coach.hindsight import turning_point_slow
from scoundrel_solver.web.app import create_app
from scoundrel_solver.web.common import Settings, today

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(Settings(workers=1, max_seconds=5.0, queue=8, data_dir=ROOT / "data"))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def _first_listed(seed: int) -> tuple[sc.State, list[str]]:
    s, line = sc.new_game(seed=seed), []
    while not s.is_over:
        a = sc.legal_actions(s)[0]
        line.append(str(a))
        s = sc.apply(s, a)
    return sc.new_game(seed=seed), line


def test_the_review_shows_key_moments_drawn_and_the_turning_point(client: TestClient) -> None:
    start, line = _first_listed(3)
    q = f"seed=3&line={','.join(line)}"
    body = client.get(f"/api/review?{q}").json()
    steps = body["key_moments"]
    assert 0 < len(steps) <= 3
    labelled = {d["step"]: d for d in body["decisions"] if d["label"]}
    assert set(steps) <= set(labelled)
    want = turning_point_slow(start, [sc.parse_action_text(t) for t in line])
    assert (body["turning_point"]["outcome"], body["turning_point"]["step"]) == (
        want.outcome, want.step)
    page = client.get(f"/review?{q}").text
    shown = [int(s) for s in re.findall(r'data-key-moment="(\d+)"', page)]
    assert shown == steps
    for step in steps:  # each drawn: the room's cards, health, and the two actions
        part = page.split(f'data-key-moment="{step}"')[1].split("</section>")[0]
        s = sc.play_line(start, line[:step - 1])
        for c in s.room:
            kind = "monster" if c.is_monster else "weapon" if c.is_weapon else "potion"
            assert f'title="{kind} {c.value}"' in part
        assert f'data-health="{s.health}"' in part
        d = labelled[step]
        assert f'data-compare="played" data-action="{d["played"]}"' in part
        assert f'data-compare="agent" data-action="{d["agent"]}"' in part
        assert "sampled orders" in part or "exact" in part or "estimated" in part
    assert f'data-turning-step="{want.step}"' in page
    fair = re.search(r'href="([^"]+)" data-fair-game', page)
    assert fair and ",".join(body["fair"]["line"]) in fair.group(1).replace("%2C", ",")
    # the full list is collapsed below the key moments
    assert page.index("data-key-moment") < page.index('<details class="all-decisions">')


def test_the_puzzle_page_sends_the_position_only_then_judges_an_answer(
        client: TestClient) -> None:
    api = client.get("/api/puzzle").json()
    assert set(api) == {"date", "state"} and api["date"] == today()
    info = sc.InfoState.from_text(api["state"])
    page = client.get("/puzzles")
    assert page.status_code == 200 and f'data-daily-puzzle="{today()}"' in page.text
    assert "data-best" not in page.text and "data-puzzle-result" not in page.text
    assert "seed" not in page.text.split('<section class="my-puzzles">')[0].lower()
    legal = [str(a) for a in info.legal_actions()]
    verdicts = {a: client.get(f"/api/puzzle?state={quote(api['state'])}&line={quote(a)}").json()
                for a in legal}
    best = {v["best"] for v in verdicts.values()}
    assert len(best) == 1
    answer = best.pop()
    assert verdicts[answer]["right"] and verdicts[answer]["daily"]["answer"] == answer
    assert sum(v["right"] for v in verdicts.values()) == 1  # clearly best: the others are not
    shown = client.get(f"/puzzles?state={quote(api['state'])}&line={quote(answer)}").text
    assert 'data-puzzle-result="solved"' in shown and "sampled orders" in shown


def test_a_players_own_puzzle_and_bad_puzzle_input(client: TestClient) -> None:
    start, line = _first_listed(3)
    body = client.get(f"/api/review?seed=3&line={','.join(line)}").json()
    moment = next(d for d in body["decisions"] if d["step"] == body["key_moments"][0])
    q = f"state={quote(moment['info'])}"
    page = client.get(f"/puzzles?{q}").text
    assert "Your puzzle" in page and 'data-action="' in page
    got = client.get(f"/api/puzzle?{q}&line={quote(moment['played'])}").json()
    assert not got["right"] and got["label"] == moment["label"]
    assert got["best"] == moment["agent"]
    for bad, field in ((f"{q}&line=ZZ", "line"), (f"{q}", "line"),
                       ("state=nonsense&line=flee", "state"),
                       (f"date=2999-01-01&{q}&line=flee", "date"),
                       ("date=2001-01-01", "date"),
                       ("date=2026-13-45", "date")):
        r = client.get(f"/api/puzzle?{bad}")
        assert r.status_code == 400 and r.json()["field"] == field, bad
    over = sc.play_line(start, line)
    r = client.get(f"/api/puzzle?state={quote(over.to_text())}&line=flee")
    assert r.status_code == 400 and r.json()["field"] == "state"
    hostile = client.get("/puzzles?state=" + quote("<script>alert(1)</script>"))
    assert hostile.status_code == 400 and "<script>alert" not in hostile.text


def test_a_position_given_as_a_player_saw_it_has_no_turning_point(client: TestClient) -> None:
    fled = sc.apply(sc.new_game(seed=5), sc.FLEE)
    info = sc.InfoState.from_state(fled, fled.dungeon[-4:])  # the fled room at the bottom
    first = str(sc.legal_actions(fled)[0])
    body = client.get(f"/api/review?state={quote(info.to_text())}&line={quote(first)}").json()
    assert body["turning_point"]["outcome"] == "unknown"  # the unseen cards have no order
    known = client.get(f"/api/review?state={quote(fled.to_text())}&line={quote(first)}").json()
    assert known["turning_point"]["outcome"] != "unknown"
