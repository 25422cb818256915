"""scoundrel-web in-process: the JSON API, the pages, bad input, limits and security headers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("starlette")
try:  # Starlette's TestClient takes httpx2 from 1.10 on, httpx before it
    import httpx2  # noqa: F401
except ModuleNotFoundError:
    pytest.importorskip("httpx")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import scoundrel_core as sc
from scoundrel_core import GameRecord, InfoState
from scoundrel_solver import solve
from scoundrel_solver.coach.hints import hint_rows
from scoundrel_solver.coach.score import explain
from scoundrel_solver.fair import FairAgent
from scoundrel_solver.fair.agent import choice, ranked
from scoundrel_solver.web.app import CSP, MAX_QUERY, create_app
from scoundrel_solver.web.census import percent
from scoundrel_solver.web.common import Settings
from scoundrel_solver.web.learn import DECK, LESSONS, rules_text

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
SHORT_DECK = "5C 9D 3H QS 2S 7H 4C 8S"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(Settings(workers=1, max_seconds=2.0, queue=8, data_dir=DATA))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def _legal_texts(state: sc.State) -> list[str]:
    return [str(a) for a in sc.legal_actions(state)]


def test_state_shows_room_and_legal_actions(client: TestClient) -> None:
    s = sc.new_game(seed=42)
    r = client.get("/api/state?seed=42")
    assert r.status_code == 200
    body = r.json()
    assert [c["text"] for c in body["room"]] == [str(c) for c in s.room]
    shown = [a["action"] for a in body["actions"]]
    assert shown == _legal_texts(s)
    assert body["health"] == 20 and body["dungeon_size"] == 40 and not body["over"]


def test_state_never_shows_the_dungeon_order(client: TestClient) -> None:
    line = ["flee"]
    s = sc.play_line(sc.new_game(seed=7), line)
    body = client.get("/api/state?seed=7&line=flee").json()
    text = str(body)
    visible = {str(c) for c in s.room} | {c["text"] for c in body["bottom"]}
    hidden = [str(c) for c in s.dungeon if str(c) not in visible]
    # the bottom holds the fled room; every other dungeon card is only counted by kind
    assert all(f"'text': '{c}'" not in text for c in hidden)
    assert sum(body["unseen"].values()) == len(hidden)


def test_solve_matches_the_command_json(client: TestClient) -> None:
    r = client.get("/api/solve?seed=42&variant=classic&weapon_rule=strict")
    assert r.status_code == 200
    got = r.json()
    want = solve(42).to_json()
    assert set(got) == set(want)
    for key in ("format", "seed", "best_score", "proven", "line", "deck", "start"):
        assert got[key] == want[key], key


def test_solve_after_a_line_and_from_a_state(client: TestClient) -> None:
    s = sc.play_line(sc.new_game(seed=3), ["flee"])
    got = client.get("/api/solve?seed=3&line=flee").json()
    assert got["best_score"] == solve(s).best_score
    by_text = client.get("/api/solve", params={"state": s.to_text()}).json()
    assert by_text["best_score"] == got["best_score"]


def test_hint_gives_the_fair_agents_rows(client: TestClient) -> None:
    line = "flee"
    r = client.get(f"/api/hint?seed=11&line={line}")
    assert r.status_code == 200
    body = r.json()
    game = sc.play_line(sc.new_game(seed=11), ["flee"])
    info = sc.observe(InfoState.initial(sc.new_game(seed=11)), sc.FLEE, game)
    values = FairAgent().evaluate(info)
    want = hint_rows(ranked(info, values))
    # best first: the agent's own choice on top, then the others by its order of choice
    assert sorted(row["action"] for row in body["actions"]) == sorted(_legal_texts(game))
    assert body["actions"][0]["action"] == body["best"] == str(choice(info, values).action)
    for got_row, want_row in zip(body["actions"], want, strict=True):
        assert got_row["action"] == want_row["action"]
        assert got_row["value"] == pytest.approx(want_row["value"])
        assert got_row["exact"] == want_row["exact"]
        assert set(got_row) >= {"action", "win_chance", "expected_score", "exact"}
        if got_row["win_chance"] is not None:
            assert 0.0 <= got_row["win_chance"] <= 1.0
    # the position's own numbers are the best row's, shown and searched
    for key in ("win_chance", "expected_score", "search_win_chance", "search_expected_score"):
        assert body[key] == body["actions"][0][key]
    assert body["search_expected_score"] == pytest.approx(
        choice(info, values).searched_expected_score)
    assert body["agent"] == "fair"


def test_review_of_a_short_game(client: TestClient) -> None:
    start = sc.new_game(deck=SHORT_DECK, partial=True)
    s, line = start, []
    while not s.is_over:
        a = sc.legal_actions(s)[0]
        line.append(str(a))
        s = sc.apply(s, a)
    q = f"deck={quote(SHORT_DECK)}&line={','.join(line)}"
    body = client.get(f"/api/review?{q}").json()
    assert body["player"]["score"] == s.score
    assert body["best"]["best_score"] == solve(start).best_score
    assert body["best"]["best_score"] >= body["fair"]["score"]
    assert body["best"]["best_score"] >= s.score
    assert {d["step"] for d in body["decisions"]} <= set(range(1, len(line) + 1))
    # the optimal line cut into rooms replays to the best score
    flat = [a for room in body["rooms"] for a in room["actions"]]
    assert flat == body["best"]["line"]
    assert sc.play_line(start, flat).score == body["best"]["best_score"]
    page = client.get(f"/review?{q}")
    assert page.status_code == 200 and "Hindsight" in page.text


def test_record_download_reads_back(client: TestClient) -> None:
    r = client.get("/api/record?seed=5&line=flee")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    rec = GameRecord.from_json(r.json())
    assert rec.seed == 5 and rec.line == ("flee",)


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ("seed=abc", "seed", "whole number"),
        ("seed=-1", "seed", "whole number"),
        (f"seed={2**64}", "seed", "out of range"),
        ("deck=ZZ", "deck", "ZZ"),
        ("deck=5C&seed=1", "deck", "only one"),
        ("", "seed", "give a seed"),
        ("seed=1&variant=nope", "variant", "nope"),
        ("seed=1&weapon_rule=soft", "weapon_rule", "soft"),
        ("seed=1&line=zz", "line", "step 1"),
        ("seed=42&line=flee,flee", "line", "step 2"),
        ("seed=1&seed=2", "seed", "more than once"),
        ("state=garbage", "state", "garbage"),
    ],
)
def test_bad_input_names_the_field(client: TestClient, query: str, field: str,
                                   words: str) -> None:
    for path in ("/api/state", "/api/hint", "/api/solve"):
        r = client.get(f"{path}?{query}")
        assert r.status_code == 400, (path, query)
        body = r.json()
        assert body["field"] == field, (path, body)
        assert words in body["error"], body
    page = client.get(f"/play?{query}")
    assert page.status_code == 400 and "That did not work" in page.text


def test_the_line_of_an_ended_game_cannot_go_on(client: TestClient) -> None:
    s = sc.new_game(deck="5C 3H", partial=True)
    line = ",".join(str(a) for a in [sc.legal_actions(s)[0]])
    s2 = sc.apply(s, sc.legal_actions(s)[0])
    more = ",".join([line, str(sc.legal_actions(s2)[0]), "5C/f"])
    r = client.get(f"/api/state?deck={quote('5C 3H')}&line={more}")
    assert r.status_code == 400 and "over" in r.json()["error"]


def test_limits_and_methods(client: TestClient) -> None:
    r = client.get("/api/state?seed=1&line=" + "x" * (MAX_QUERY + 1))
    assert r.status_code == 414 and r.json()["field"] == "query"
    r = client.post("/api/state?seed=1", content=b"{}")
    assert r.status_code in (405, 413)
    assert "error" in r.json()
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/static/../pyproject.toml").status_code == 404


def test_busy_pool_answers_503_with_retry_after(client: TestClient) -> None:
    pool = client.app.state.pool  # type: ignore[attr-defined]
    saved = pool.in_flight
    pool.in_flight = pool.queue_limit
    try:
        r = client.get("/api/hint?seed=1")
    finally:
        pool.in_flight = saved
    assert r.status_code == 503
    assert r.headers["retry-after"].isdigit()
    assert "busy" in r.json()["error"]


def test_pages_carry_the_csp_and_no_inline_script(client: TestClient) -> None:
    for path in ("/", "/play?seed=1", "/analysis", "/analysis?seed=1", "/census", "/api",
                 "/about", "/play?seed=oops", "/learn", "/learn?line=flee,7D", "/learn?line=7D"):
        r = client.get(path)
        assert r.headers["content-security-policy"] == CSP
        assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
        html = r.text
        # every script element loads a file; none carries code
        for chunk in html.split("<script")[1:]:
            assert chunk.lstrip().startswith("src=")
            assert chunk.split(">", 1)[1].startswith("</script>")


def test_hostile_text_is_escaped(client: TestClient) -> None:
    evil = "<script>alert(1)</script>"
    for path in ("/play", "/analysis"):
        for name in ("deck", "state", "seed"):
            r = client.get(path, params={name: evil})
            assert r.status_code == 400
            assert evil not in r.text
            assert "&lt;script&gt;" in r.text


def test_hostile_text_on_the_learn_page_is_escaped(client: TestClient) -> None:
    evil = "<script>alert(1)</script>"
    for line in (evil, f"flee,{evil}", "flee," * 20, "flee,7D,9S/w,5C/w,8C/f,6H,3S/w,10D,KS/w,"
                 "QC/w,5S/w,4H,2H,2H", "x" * 3000):
        r = client.get("/learn", params={"line": line})
        assert r.status_code == 400, line
        assert evil not in r.text and 'data-field="line"' in r.text
    assert "&lt;script&gt;" in client.get("/learn", params={"line": evil}).text


def _enabled_actions(html: str) -> list[str]:
    """The data-action of every enabled action button of a page."""
    return [b.split('data-action="', 1)[1].split('"', 1)[0]
            for b in html.split("<button")[1:]
            if 'class="act' in b.split(">", 1)[0] and " disabled" not in b.split(">", 1)[0]]


def test_the_tutorial_plays_to_its_end_one_lit_button_a_step(client: TestClient) -> None:
    script = [a for a, _ in LESSONS]
    s = sc.new_game(deck=DECK, partial=True)
    for k in range(len(script) + 1):
        r = client.get("/learn", params={"line": ",".join(script[:k])} if k else None)
        assert r.status_code == 200
        if k < len(script):
            # the lesson's action, and only it, can be played, with the /play buttons
            assert _enabled_actions(r.text) == [script[k]], k
            assert "data-tutorial-done" not in r.text
            assert str(sc.parse_action(s, script[k])) in _legal_texts(s)
            s = sc.apply(s, sc.parse_action(s, script[k]))
    assert s.is_over and s.won
    assert "data-tutorial-done" in r.text and _enabled_actions(r.text) == []
    assert f'data-score-explained="{s.score}"' in r.text


def test_the_learn_page_shows_the_rules_of_docs_rules_md(client: TestClient) -> None:
    html = client.get("/learn").text
    source = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    # one source: the page is the file's text (the package ships that very file)
    assert rules_text() == source
    headings = [ln.lstrip("#").strip() for ln in source.splitlines() if ln.startswith("#")]
    assert len(headings) > 5
    for h in headings:
        assert h.replace("&", "&amp;") in html, h
    for sentence in ("Only the **first** potion you drink in a room heals",
                     "Your\nscore is your health"):
        words = sentence.replace("**", "").replace("\n", " ").split()
        assert " ".join(words) in " ".join(html.replace("<strong>", "").replace(
            "</strong>", "").split()), sentence
    # the code examples and the notes for programmers are left out
    assert "<pre>" not in html and "import scoundrel_core" not in html
    assert "For programmers" not in html and "sc.new_game" not in html
    assert 'id="the-end-and-the-score"' in html


def test_every_page_links_the_learn_and_about_pages(client: TestClient) -> None:
    for path in ("/", "/play?seed=1", "/analysis", "/census", "/api", "/about", "/learn",
                 "/play?seed=oops"):
        html = client.get(path).text
        nav = html.split("<nav>", 1)[1].split("</nav>", 1)[0]
        assert 'href="/learn"' in nav and 'href="/about"' in nav, path


def test_the_end_of_a_game_says_how_its_score_came_about(client: TestClient) -> None:
    # a loss: seed 3 played by its first legal action until dead
    s, line = sc.new_game(seed=3), []
    while not s.is_over:
        a = sc.legal_actions(s)[0]
        line.append(str(a))
        s = sc.apply(s, a)
    assert not s.won
    html = client.get(f"/play?seed=3&line={','.join(line)}").text
    parts = explain(s, sc.parse_action_text(line[-1]))
    assert f'data-score-explained="{s.score}"' in html
    assert f"<strong>{s.health}</strong>" in html and f"<strong>{parts.left_total}</strong>" in html
    assert s.health - parts.left_total == s.score
    # a win with the potion bonus: the last card is a potion drunk at full health
    deck = "2H 3H"
    won = sc.play_line(sc.new_game(deck=deck, partial=True), ["2H", "3H"])
    assert won.won and won.score == won.health + 3
    html = client.get("/play", params={"deck": deck, "line": "2H,3H"}).text
    assert f'data-score-explained="{won.score}"' in html
    assert f"<strong>{won.health}</strong>, plus <strong>3</strong>" in html


def test_the_analysis_hints_come_best_first_with_their_keys(client: TestClient) -> None:
    html = client.get("/analysis?seed=11&line=flee").text
    table = html.split('<table class="hints">', 1)[1].split("</table>", 1)[0]
    rows = table.split("<tr")[2:]  # after the head
    assert rows[0].startswith(' class="best"') and "agent's choice" in rows[0]
    buttons = {b.split('data-action="', 1)[1].split('"', 1)[0]:
               b.split('data-key="', 1)[1].split('"', 1)[0]
               for b in html.split("<button")[1:] if 'data-key="' in b.split(">", 1)[0]}
    assert len(rows) == len(buttons)
    for row in rows:
        action = row.split("<code>", 1)[1].split("</code>", 1)[0]
        assert f'data-hint-key="{buttons[action]}"' in row, action


def test_census_shares_near_100_percent_keep_their_digits(client: TestClient) -> None:
    body = client.get("/api/census").json()
    if body["error"]:
        pytest.skip(body["error"])
    html = client.get("/census").text
    for v in body["variants"]:
        for x in (v["share"], v["low"], v["high"]):
            shown = percent(x)
            assert f"{shown}%" in html or f"{shown}–" in html, (v["variant"], x)
            assert x == 1.0 or shown != "100.00", (v["variant"], x)
            assert abs(float(shown) - 100 * x) <= 0.005
    assert "log scale" in html and 'class="grid"' in html


def test_daily_redirects_to_the_seed(client: TestClient) -> None:
    r = client.get("/daily/2026-11-29", follow_redirects=False)
    assert r.status_code == 302
    assert r.headers["location"].startswith("/play?seed=20261129&")
    assert client.get("/daily/2026-13-01").status_code == 400


def test_census_from_data(client: TestClient) -> None:
    body = client.get("/api/census").json()
    if body["error"]:
        pytest.skip(body["error"])
    names = {v["variant"] for v in body["variants"]}
    assert "classic/strict" in names
    for v in body["variants"]:
        assert 0 <= v["low"] <= v["share"] <= v["high"] <= 1
        assert sum(v["histogram"].values()) == v["deals"]
    assert client.get("/census").status_code == 200


def test_openapi_lists_every_endpoint(client: TestClient) -> None:
    doc = client.get("/api/openapi.json").json()
    assert {"/api/solve", "/api/hint", "/api/state", "/api/review"} <= set(doc["paths"])


FIELDS = st.sampled_from(["seed", "deck", "state", "variant", "weapon_rule", "line", "x"])
VALUES = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["42", "flee", "7D", "KS/w", "classic", "equal", SHORT_DECK, "-", "1e9"]),
)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(FIELDS, VALUES, max_size=4),
       st.sampled_from(["/api/state", "/api/solve", "/api/hint", "/play", "/analysis",
                        "/learn"]))
def test_any_query_gets_an_answer_not_a_crash(client: TestClient, query: dict[str, str],
                                              path: str) -> None:
    r = client.get(path, params=query)
    assert r.status_code in (200, 400, 414), (path, query, r.status_code)
    if r.status_code == 400 and path.startswith("/api/"):
        assert r.json()["error"]
