"""The ranked daily in-process: its store (SQLite and a real PostgreSQL), every refusal, the
secrecy of the deal, the leaderboard, bad and hostile input, and the per-client rate limit.

The PostgreSQL tests start a throwaway cluster in a temporary folder (initdb and pg_ctl on a
free port, as the ``postgres`` user when run as root) when the binaries are on this machine;
without them they skip with one line, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("slowapi")
try:  # Starlette's TestClient takes httpx2 from 1.10 on, httpx before it
    import httpx2  # noqa: F401
except ModuleNotFoundError:
    pytest.importorskip("httpx")

import sqlalchemy as sa
from starlette.testclient import TestClient

import scoundrel_core as sc
from scoundrel_solver.web.app import create_app
from scoundrel_solver.web.common import Settings
from scoundrel_solver.web.ranked import (
    COOKIE,
    Ranked,
    SecretError,
    load_secret,
)
from scoundrel_solver.web.store import (
    Conflict,
    Published,
    Store,
    StoreError,
)

DAY = "2026-12-02"
NOON = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.timezone.utc)
SECRET = b"0123456789abcdef0123456789abcdef-test-secret"
# Debian's PostgreSQL binaries (any version; the newest when several are installed)
PG_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"),
             key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
             default=Path("/usr/lib/postgresql/15/bin"))


class Clock:
    """A settable clock (UTC) for the ranked daily."""

    def __init__(self, at: dt.datetime = NOON) -> None:
        self.at = at

    def __call__(self) -> dt.datetime:
        return self.at


# ---- a real PostgreSQL ------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {reason}")
    print(f"skipping the PostgreSQL store tests: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a free port: its URL (trust auth, 127.0.0.1 only)."""
    initdb = PG_BIN / "initdb"
    pg_ctl = PG_BIN / "pg_ctl"
    if not (initdb.exists() and pg_ctl.exists()):
        _missing(f"no PostgreSQL binaries in {PG_BIN} (apt-get install postgresql)")
    pytest.importorskip("psycopg")
    # a folder of its own under the system's temp folder: pytest's is private to this user,
    # and the cluster may run as another
    root = Path(tempfile.mkdtemp(prefix="scoundrel-pg-"))
    data = root / "data"
    # initdb refuses to run as root: then the cluster is the postgres user's
    as_user: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            _missing("running as root without runuser to start PostgreSQL as postgres")
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    done = subprocess.run([*as_user, str(initdb), "-D", str(data), "-A", "trust", "-U",
                           "scoundrel", "--no-sync", "-E", "UTF8"], capture_output=True,
                          text=True, timeout=120)
    if done.returncode != 0:
        pytest.fail(f"initdb failed: {done.stderr.strip()[-500:]}")
    opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run([*as_user, str(pg_ctl), "-D", str(data), "-o", opts, "-l",
                    str(root / "log"), "-w", "-t", "60", "start"],
                   check=True, capture_output=True, timeout=90)
    try:
        yield f"postgresql://scoundrel@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, str(pg_ctl), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store's URL: a SQLite file, or a fresh database on the throwaway cluster."""
    if request.param == "sqlite":
        yield str(tmp_path / "ranked.sqlite3")
        return
    base: str = request.getfixturevalue("postgres")
    name = f"t{abs(hash(request.node.nodeid)) % 10**9}"
    admin = sa.create_engine(base.replace("postgresql://", "postgresql+psycopg://"),
                             isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f"DROP DATABASE IF EXISTS {name}"))
        c.execute(sa.text(f"CREATE DATABASE {name}"))
    admin.dispose()
    yield base.rsplit("/", 1)[0] + "/" + name


def _dump(store: Store) -> list[Any]:
    """Every row of every table, to check a refusal changed nothing."""
    out: list[Any] = []
    with store.engine.connect() as c:
        for table in ("ranked_games", "leaderboard", "published_days"):
            out.append(sorted(tuple(r) for r in c.execute(sa.text(f"SELECT * FROM {table}"))))
    return out


# ---- the app ------------------------------------------------------------------------------

def _app(store: Store, clock: Clock | None = None, secret: bytes = SECRET,
         **settings: Any) -> tuple[TestClient, Ranked]:
    r = Ranked(store, secret, clock or Clock())
    app = create_app(Settings(workers=1, max_seconds=2.0, queue=8, **settings), ranked_daily=r)
    return TestClient(app, raise_server_exceptions=False, follow_redirects=False), r


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = Store(store_url)
    yield s
    s.close()


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    s = Store(str(tmp_path / "ranked.sqlite3"), busy_seconds=0.2)
    yield s
    s.close()


def _start(c: TestClient, nickname: str = "Ada") -> Any:
    r = c.post("/api/ranked/start", data={"nickname": nickname})
    assert r.status_code == 201, r.text
    return r.json()


def _move(c: TestClient, n: int, action: str) -> Any:
    return c.post("/api/ranked/move", data={"n": str(n), "action": action})


def _first_choice(game: dict[str, Any]) -> str:
    """A legal action: the first card's (so the game ends), else flee."""
    acts = [a["action"] for a in game["actions"]]
    cards = [a for a in acts if a != "flee"]
    return (cards or acts)[0]


def _greedy(r: Ranked, line: list[str]) -> str:
    """The test's own player (it knows the deal): the action that keeps the most health,
    a card before a flee, so that games last a while."""
    from scoundrel_solver.web.game import replay

    s = replay(r.deal(DAY), line).state
    acts = sc.legal_actions(s)
    return str(max(acts, key=lambda a: (sc.apply(s, a).health, not a.is_flee)))


def _play_out(c: TestClient, seen: list[str] | None = None) -> dict[str, Any]:
    state = c.get("/api/ranked").json()
    while not state["game"]["over"]:
        if seen is not None:
            seen.append(c.get("/ranked").text)
            seen.append(c.get("/api/ranked").text)
        g = state["game"]
        r = _move(c, g["step"] + 1, _first_choice(g))
        assert r.status_code == 200, r.text
        if seen is not None and not r.json()["game"]["over"]:
            seen.append(r.text)
        state = r.json()
    return state


# ---- the store -------------------------------------------------------------------------------

def test_the_store_keeps_one_game_a_player_a_day_and_moves_at_their_step(store: Store) -> None:
    g = store.start("p" * 22, DAY, "Ada", "deal")
    with pytest.raises(Conflict, match="one a day"):
        store.start("p" * 22, DAY, "Ada again", "deal")
    store.start("p" * 22, "2026-12-03", "Ada", "deal")  # the next day is another game
    g1 = store.advance(g, ("flee",), "playing", None)
    with pytest.raises(Conflict, match="already played"):
        store.advance(g, ("7D",), "playing", None)  # stale: the store is at step 1
    store.advance(g1, ("flee", "7D"), "won", 17)
    with pytest.raises(Conflict):
        store.advance(g1, ("flee", "8D"), "won", 30)  # a replay of step 2
    assert store.game("p" * 22, DAY) is not None
    assert [(r.nickname, r.score) for r in store.leaders(DAY)] == [("Ada", 17)]
    assert store.count() == 2


def test_the_leaderboard_ranks_by_score_then_time(store: Store) -> None:
    t0 = dt.datetime(2026, 12, 2, 8, 0)
    for i, (nick, score, minutes) in enumerate([("slow", 10, 30), ("best", 15, 20),
                                                ("fast", 10, 5), ("dead", -40, 1)]):
        g = store.start(f"{i:022d}", DAY, nick, "deal", now=t0)
        store.advance(g, ("flee",), "won" if score > 0 else "lost", score,
                      now=t0 + dt.timedelta(minutes=minutes))
    assert [r.nickname for r in store.leaders(DAY)] == ["best", "fast", "slow", "dead"]
    assert store.leaders("2026-12-01") == []


def test_two_processes_racing_for_the_same_step_write_it_once(store_url: str) -> None:
    """Two stores on one database (as two server processes): a start and a move raced from
    both sides are written once; the other side gets a Conflict."""
    a, b = Store(store_url), Store(store_url)
    try:
        results: list[str] = []

        def race(fn: Callable[[], Any]) -> None:
            try:
                fn()
                results.append("ok")
            except Conflict:
                results.append("conflict")

        threads = [threading.Thread(target=race, args=(lambda s=s: s.start("x" * 22, DAY,
                                                                            "Ada", "d"),))
                   for s in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == ["conflict", "ok"]
        g = a.game("x" * 22, DAY)
        assert g is not None
        results.clear()
        threads = [threading.Thread(target=race, args=(lambda s=s, act=act: s.advance(
            g, (act,), "playing", None),)) for s, act in ((a, "flee"), (b, "7D"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == ["conflict", "ok"]
        stored = b.game("x" * 22, DAY)
        assert stored is not None and len(stored.line) == 1
    finally:
        a.close()
        b.close()


def test_published_days_are_kept_once(store: Store) -> None:
    p = Published(DAY, 2**64 - 1, 12, True, -3)
    store.publish(p)
    store.publish(Published(DAY, 5, 0, False, 0))  # a second process's copy changes nothing
    assert store.published(DAY) == p


def test_a_damaged_store_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    bad = tmp_path / "ranked.sqlite3"
    bad.write_bytes(b"not a database at all, " * 100)
    before = bad.read_bytes()
    with pytest.raises(StoreError, match="damaged or not a database"):
        Store(str(bad))
    assert bad.read_bytes() == before


def test_a_store_of_another_schema_is_refused_and_its_games_kept(tmp_path: Path) -> None:
    path = tmp_path / "ranked.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE ranked_games (id INTEGER PRIMARY KEY, player TEXT)")
    con.execute("INSERT INTO ranked_games VALUES (1, 'someone')")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="lacks column"):
        Store(str(path))
    con = sqlite3.connect(path)
    assert con.execute("SELECT * FROM ranked_games").fetchall() == [(1, "someone")]
    con.close()


@pytest.mark.parametrize(("url", "needle"), [
    ("mysql://root:hunter2@db/x", "only SQLite files and PostgreSQL"),
    ("postgresql://u:hunter2@127.0.0.1:1/x", "connection"),
    ("sqlite:////no/such/folder/x.db", "does not exist"),
    ("://", "not a database URL"),
])
def test_database_url_errors_are_one_clear_line_without_the_password(url: str,
                                                                     needle: str) -> None:
    with pytest.raises(StoreError) as err:
        Store(url, busy_seconds=1)
    text = str(err.value)
    assert needle in text and "hunter2" not in text and "\n" not in text, text


def test_the_secret_is_made_once_and_shared(tmp_path: Path) -> None:
    path = tmp_path / "s.secret"
    got: list[bytes] = []
    threads = [threading.Thread(target=lambda: got.append(load_secret(path)))
               for _ in range(8)]  # processes starting at once all read one secret
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and len(set(got)) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.secret"]
    first = load_secret(path)
    assert load_secret(path) == first and len(first) >= 32
    assert path.stat().st_mode & 0o777 == 0o600
    path.write_text("short\n")
    with pytest.raises(SecretError, match="at least 32"):
        load_secret(path)


def test_a_server_store_needs_a_secret_file(tmp_path: Path) -> None:
    with pytest.raises(SecretError, match="--secret-file"):
        Ranked.open("postgresql://u@127.0.0.1:1/x", None)
    r = Ranked.open(str(tmp_path / "ranked.sqlite3"), None)
    try:  # beside a SQLite file, by default
        assert (tmp_path / "ranked.sqlite3.secret").exists()
    finally:
        r.store.close()


# ---- the deal ------------------------------------------------------------------------------

def test_the_deal_comes_from_the_secret_not_from_the_date() -> None:
    a = Ranked(Store(), SECRET)
    b = Ranked(Store(), SECRET[::-1])
    assert a.seed(DAY) == Ranked(Store(), SECRET).seed(DAY)
    assert a.seed(DAY) != b.seed(DAY) and a.seed(DAY) != a.seed("2026-12-03")
    assert a.seed(DAY) != sc.daily_seed(DAY)
    assert a.deal_id(DAY) != b.deal_id(DAY)


def _unseen_cards(r: Ranked, line: list[str]) -> tuple[set[str], list[str]]:
    """The cards of the dungeon the player has not seen (the known bottom excluded), and
    texts that would give the deal away (its seed, its deck)."""
    from scoundrel_solver.web.game import replay

    deal = r.deal(DAY)
    game = replay(deal, line)
    hidden = {str(c) for c in game.state.dungeon} - {str(c) for c in game.info.bottom}
    start = deal.start
    return hidden, [str(r.seed(DAY)), sc.format_deck(start.room + start.dungeon)]


_SYMBOL = {"\u2663": "C", "\u2660": "S", "\u2666": "D", "\u2665": "H"}
_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([CSDH])(?![A-Za-z0-9])")
_DRAWN = re.compile(r'class="rank">(10|[2-9AJQK])</span><span class="suit"[^>]*>(.)</span>')


def _cards_named(text: str) -> set[str]:
    """Every card a response names: in notation (7D, KS/w) or drawn (rank and suit)."""
    found = {a + b for a, b in _TOKEN.findall(text)}
    found |= {a + _SYMBOL.get(b, "?") for a, b in _DRAWN.findall(text)}
    return found


def test_no_response_before_the_end_names_an_unseen_card(sqlite_store: Store) -> None:
    c, r = _app(sqlite_store)
    texts = [c.get("/ranked").text, c.get("/api/ranked").text]
    texts.append(c.post("/api/ranked/start", data={"nickname": "Ada"}).text)
    texts.append(c.get("/ranked/leaderboard").text)
    texts.append(c.get(f"/api/leaderboard?date={DAY}").text)
    checked = 0
    state = c.get("/api/ranked").json()
    while not state["game"]["over"]:
        line = state["game"]["line"]
        hidden, giveaways = _unseen_cards(r, line)
        for text in [*texts, c.get("/ranked").text, c.get("/api/ranked").text]:
            named = _cards_named(text)
            assert not named & hidden, (named & hidden, line)
            assert not any(g in text for g in giveaways), line
            checked += 1
        texts = []
        g = state["game"]
        resp = _move(c, g["step"] + 1, _greedy(r, g["line"]))
        assert resp.status_code == 200
        state = resp.json()
        if not state["game"]["over"]:
            texts.append(resp.text)
    assert checked > 20
    # once over, the player's own review opens (it names the deal)
    assert str(r.seed(DAY)) in state["review"]


def test_a_ranked_game_played_to_its_end_is_on_the_leaderboard(store: Store) -> None:
    c, r = _app(store)
    page = c.get("/ranked")
    assert page.status_code == 200 and 'action="/ranked/start"' in page.text
    _start(c, "Ada Lovelace")
    page = c.get("/ranked").text
    # undo, hints and analysis are off until the end
    assert 'id="undo"' not in page and 'id="hint-button"' not in page
    assert "/analysis?" not in page and "/review?" not in page and "data-action=" in page
    state = _play_out(c)
    from scoundrel_solver.web.game import replay

    game = replay(r.deal(DAY), state["game"]["line"])
    assert game.state.is_over and state["game"]["score"] == game.state.score
    page = c.get("/ranked").text
    assert f'data-final-score="{game.state.score}"' in page
    assert state["share"] is not None and not _cards_named(state["share"])
    board = c.get(f"/api/leaderboard?date={DAY}").json()
    assert board == {"date": DAY, "rows": [{"rank": 1, "nickname": "Ada Lovelace",
                                           "score": game.state.score,
                                           "seconds": board["rows"][0]["seconds"]}]}
    lb = c.get(f"/ranked/leaderboard?date={DAY}").text
    assert 'data-nickname="Ada Lovelace"' in lb and 'id="published"' not in lb
    assert "is published here when the day ends" in lb
    # a finished game takes no more moves
    resp = _move(c, len(state["game"]["line"]) + 1, "flee")
    assert resp.status_code == 409


# ---- refusals: each a 4xx that changes nothing -------------------------------------------

def _as(c: TestClient, cookie: str, send: Callable[[], Any]) -> Any:
    """``send()`` with the player cookie replaced by ``cookie`` (the client's own restored)."""
    own = c.cookies.get(COOKIE)
    c.cookies.clear()
    c.cookies.set(COOKIE, cookie)
    try:
        return send()
    finally:
        c.cookies.clear()
        if own is not None:
            c.cookies.set(COOKIE, own)


def _forged(r: Ranked) -> str:
    good = r.sign("a" * 22)
    return good[:-1] + ("0" if good[-1] != "0" else "1")


REFUSALS: list[tuple[str, Callable[[TestClient, Ranked, dict[str, Any]], Any], int]] = [
    ("an illegal action", lambda c, r, g: _move(c, g["step"] + 1, "AH"), 400),
    ("a card not in the room", lambda c, r, g: _move(
        c, g["step"] + 1, next(x for x in ("2C", "3C", "4C", "5C", "6C")
                               if x not in [a["action"] for a in g["actions"]])), 400),
    ("gibberish for an action", lambda c, r, g: _move(c, g["step"] + 1, "<b>x"), 400),
    ("a changed score", lambda c, r, g: c.post("/api/ranked/move", data={
        "n": str(g["step"] + 1), "action": _first_choice(g), "score": "999"}), 400),
    ("a whole line", lambda c, r, g: c.post("/api/ranked/move", data={
        "n": str(g["step"] + 1), "action": _first_choice(g), "line": "flee,7D"}), 400),
    ("a replayed request", lambda c, r, g: _move(c, g["step"], g["line"][-1]), 409),
    ("a move from the future", lambda c, r, g: _move(c, g["step"] + 3, _first_choice(g)), 409),
    ("no move number", lambda c, r, g: c.post("/api/ranked/move",
                                              data={"action": _first_choice(g)}), 400),
    ("a second game the same day", lambda c, r, g: c.post(
        "/api/ranked/start", data={"nickname": "Again"}), 409),
    ("a forged cookie", lambda c, r, g: _as(c, _forged(r), lambda: c.post(
        "/api/ranked/move", data={"n": str(g["step"] + 1), "action": _first_choice(g)})), 403),
    ("another server's cookie", lambda c, r, g: _as(
        c, Ranked(Store(), SECRET[::-1]).sign("b" * 22), lambda: c.post(
            "/api/ranked/move", data={"n": str(g["step"] + 1),
                                      "action": _first_choice(g)})), 403),
    ("a start under a forged cookie", lambda c, r, g: _as(c, _forged(r), lambda: c.post(
        "/api/ranked/start", data={"nickname": "Eve"})), 403),
    ("a form from another site", lambda c, r, g: c.post(
        "/api/ranked/move", data={"n": str(g["step"] + 1), "action": _first_choice(g)},
        headers={"origin": "https://evil.example"}), 403),
    ("a form too long", lambda c, r, g: c.post(
        "/api/ranked/move", content=b"n=1&action=" + b"x" * 2000,
        headers={"content-type": "application/x-www-form-urlencoded"}), 413),
    ("a repeated field", lambda c, r, g: c.post(
        "/api/ranked/move", content=f"n={g['step'] + 1}&n={g['step'] + 1}&action=flee".encode(),
        headers={"content-type": "application/x-www-form-urlencoded"}), 400),
    ("a PUT", lambda c, r, g: c.put("/api/ranked/move", data={"n": "1"}), 405),
    ("a POST to the leaderboard", lambda c, r, g: c.post(
        "/api/leaderboard", data={"nickname": "x", "score": "99"}), 405),
    ("a move through the page", lambda c, r, g: c.post(
        "/ranked/move", data={"n": str(g["step"] + 1), "action": "AH"}), 400),
]


@pytest.mark.parametrize(("what", "send", "status"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_forged_submission_is_refused_and_changes_nothing(
        what: str, send: Callable[[TestClient, Ranked, dict[str, Any]], Any], status: int,
        store: Store) -> None:
    c, r = _app(store)
    _start(c)
    first = _greedy(r, [])
    assert _move(c, 1, first).status_code == 200  # a game under way, one move played
    g = c.get("/api/ranked").json()["game"]
    before = _dump(store)
    resp = send(c, r, g)
    assert resp.status_code == status, (what, resp.status_code, resp.text[:300])
    assert _dump(store) == before, what
    assert c.get("/api/ranked").json()["game"]["line"] == [first]


def test_a_move_without_a_game_or_a_cookie_is_refused(sqlite_store: Store) -> None:
    c, _ = _app(sqlite_store)
    assert _move(c, 1, "flee").status_code == 403
    assert sqlite_store.count() == 0


def test_yesterdays_game_cannot_go_on_after_midnight(sqlite_store: Store) -> None:
    clock = Clock()
    c, _ = _app(sqlite_store, clock)
    _start(c)
    before = _dump(sqlite_store)
    clock.at = NOON + dt.timedelta(days=1)
    resp = _move(c, 1, "flee")
    assert resp.status_code == 409 and "no ranked game on 2026-12-03" in resp.json()["error"]
    assert _dump(sqlite_store) == before


def test_a_locked_store_answers_503_and_loses_nothing(sqlite_store: Store,
                                                     tmp_path: Path) -> None:
    c, _ = _app(sqlite_store)
    _start(c)
    before = _dump(sqlite_store)
    lock = sqlite3.connect(tmp_path / "ranked.sqlite3", timeout=0.1, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        resp = _move(c, 1, "flee")
        assert resp.status_code == 503 and resp.headers["retry-after"]
        assert "locked" in resp.json()["error"]
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert _dump(sqlite_store) == before
    assert _move(c, 1, "flee").status_code == 200  # once free, the same move goes through


# ---- hostile input ---------------------------------------------------------------------------

@pytest.mark.parametrize("nickname", [
    "<script>alert(1)</script>", 'a"><img src=x onerror=alert(1)>', "x' OR '1'='1",
    "Robert'); DROP TABLE ranked_games;--", "", "   ", "a" * 25, "tab\there", "nul\x00",
    "\u202eevil",
])
def test_a_bad_nickname_is_refused_naming_the_field(nickname: str,
                                                    sqlite_store: Store) -> None:
    c, _ = _app(sqlite_store)
    resp = c.post("/api/ranked/start", data={"nickname": nickname})
    assert resp.status_code == 400 and resp.json()["field"] == "nickname", resp.text
    assert sqlite_store.count() == 0
    page = c.post("/ranked/start", data={"nickname": nickname})
    assert page.status_code == 400 and "<script>alert" not in page.text
    assert "<img src=x" not in page.text


@pytest.mark.parametrize(("nickname", "shown"), [
    ("O'Brien", "O&#39;Brien"), ("Zoë -- x", "Zoë -- x"), ("  two   spaces ", "two spaces"),
])
def test_a_nickname_is_kept_as_typed_and_shown_escaped(nickname: str, shown: str,
                                                       sqlite_store: Store) -> None:
    c, _ = _app(sqlite_store)
    _start(c, nickname)
    _play_out(c)
    rows = c.get(f"/api/leaderboard?date={DAY}").json()["rows"]
    assert rows[0]["nickname"] == shown.replace("&#39;", "'")
    assert shown in c.get("/ranked/leaderboard").text


@pytest.mark.parametrize("cookie", [
    "<script>alert(1)</script>", "x' OR 1=1--.sig", "a" * 4000, ".", "a" * 22 + ".",
    "a" * 22 + "." + "g" * 64,
])
def test_a_hostile_cookie_is_refused_cleared_and_not_shown(cookie: str,
                                                           sqlite_store: Store) -> None:
    c, _ = _app(sqlite_store)
    resp = _as(c, cookie, lambda: c.get("/ranked"))
    assert resp.status_code == 403 and "<script>alert" not in resp.text
    assert f"{COOKIE}=" in resp.headers.get("set-cookie", "")  # cleared
    assert _as(c, cookie, lambda: c.post("/api/ranked/start",
                                         data={"nickname": "Eve"})).status_code == 403
    assert sqlite_store.count() == 0


@pytest.mark.parametrize("date", ["yesterday", "2026-02-30", "2026-12-02'--", "<b>", "9" * 50])
def test_a_bad_leaderboard_date_is_400(date: str, sqlite_store: Store) -> None:
    c, _ = _app(sqlite_store)
    resp = c.get("/api/leaderboard", params={"date": date})
    assert resp.status_code == 400 and resp.json()["field"] == "date"
    assert "<b>" not in c.get("/ranked/leaderboard", params={"date": date}).text


def test_the_cookie_is_http_only_and_same_site(sqlite_store: Store) -> None:
    c, r = _app(sqlite_store)
    resp = c.post("/ranked/start", data={"nickname": "Ada"})
    assert resp.status_code == 303 and resp.headers["location"] == "/ranked"
    cookie = resp.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert r.player_of(c.cookies[COOKIE]) is not None


# ---- the rate limit --------------------------------------------------------------------------

def test_a_client_over_its_rate_gets_429_with_retry_after(sqlite_store: Store) -> None:
    r = Ranked(sqlite_store, SECRET, Clock())
    app = create_app(Settings(workers=1, queue=8, rate_limit="3/minute"), ranked_daily=r)
    greedy = TestClient(app, raise_server_exceptions=False, client=("10.0.0.1", 5000))
    other = TestClient(app, raise_server_exceptions=False, client=("10.0.0.2", 5000))
    for _ in range(3):
        assert greedy.get(f"/api/leaderboard?date={DAY}").status_code == 200
    over = greedy.get(f"/api/leaderboard?date={DAY}")
    assert over.status_code == 429 and int(over.headers["retry-after"]) > 0
    assert "too many requests" in over.json()["error"]
    page = greedy.get("/ranked")
    assert page.status_code == 429 and page.headers["content-security-policy"]
    assert other.get(f"/api/leaderboard?date={DAY}").status_code == 200


def test_a_client_may_start_only_so_many_ranked_games(sqlite_store: Store) -> None:
    """Each start is a new player (a fresh cookie) and a new row: the start limit, not the
    request rate, bounds how fast one address fills the store."""
    r = Ranked(sqlite_store, SECRET, Clock())
    app = create_app(Settings(workers=1, queue=8, ranked_start_limit="2/hour"), ranked_daily=r)
    statuses = []
    for i in range(3):  # a fresh client each time: no cookie, so a new player
        c = TestClient(app, raise_server_exceptions=False, client=("10.0.0.7", 1))
        statuses.append(c.post("/api/ranked/start", data={"nickname": f"P{i}"}))
    assert [s.status_code for s in statuses] == [201, 201, 429]
    assert int(statuses[2].headers["retry-after"]) > 0 and sqlite_store.count() == 2
    other = TestClient(app, raise_server_exceptions=False, client=("10.0.0.8", 1))
    assert other.post("/api/ranked/start", data={"nickname": "Q"}).status_code == 201


# ---- after the day: the deal published ---------------------------------------------------------

@pytest.fixture(scope="module")
def published_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        tuple[TestClient, Ranked, Clock]]:
    store = Store(str(tmp_path_factory.mktemp("pub") / "ranked.sqlite3"))
    clock = Clock()
    r = Ranked(store, SECRET, clock)
    app = create_app(Settings(workers=1, max_seconds=20.0, queue=8), ranked_daily=r)
    with TestClient(app, raise_server_exceptions=False, follow_redirects=False) as c:
        yield c, r, clock
    store.close()


def test_after_the_day_the_deal_is_published_with_the_solver_and_the_agent(
        published_client: tuple[TestClient, Ranked, Clock]) -> None:
    from scoundrel_solver import solve
    from scoundrel_solver.coach.hints import hint_agent
    from scoundrel_solver.fair.api import play_fair

    c, r, clock = published_client
    clock.at = NOON
    _start(c, "Ada")
    state = _play_out(c)
    today = c.get(f"/api/leaderboard?date={DAY}").json()
    assert "published" not in today and str(r.seed(DAY)) not in str(today)
    clock.at = NOON + dt.timedelta(days=1)
    past = c.get(f"/api/leaderboard?date={DAY}").json()
    pub = past["published"]
    seed = r.seed(DAY)
    assert pub["seed"] == str(seed)
    best = solve(seed, max_seconds=20.0)
    assert pub["best_score"] == best.best_score and pub["best_proven"] == best.proven
    assert pub["fair_score"] == play_fair(seed, agent=hint_agent()).score
    assert past["rows"][0]["score"] == state["game"]["score"] <= pub["best_score"]
    page = c.get(f"/ranked/leaderboard?date={DAY}").text
    assert f'data-best-score="{pub["best_score"]}"' in page and pub["deck"] in page
    # a day not over publishes nothing, the next day's leaderboard is empty
    assert "published" not in c.get("/api/leaderboard?date=2026-12-03").json()
    # a past day nobody played costs the workers nothing: nothing is published for it
    old = c.get("/api/leaderboard?date=1999-01-01").json()
    assert old == {"date": "1999-01-01", "rows": [], "published": None}


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(
        sqlite_store: Store) -> None:
    """uvicorn's proxy headers (``--forwarded-allow-ips``) make the forwarded address the
    client the limit counts; a proxy not trusted cannot pick the address."""
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    r = Ranked(sqlite_store, SECRET, Clock())
    app = create_app(Settings(workers=1, queue=8, rate_limit="2/minute"), ranked_daily=r)
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="10.9.9.9")
    via_proxy = TestClient(proxied, raise_server_exceptions=False, client=("10.9.9.9", 1))
    url = f"/api/leaderboard?date={DAY}"

    def get(client: TestClient, who: str) -> int:
        return client.get(url, headers={"x-forwarded-for": who}).status_code

    assert [get(via_proxy, "203.0.113.1") for _ in range(3)] == [200, 200, 429]
    assert get(via_proxy, "203.0.113.2") == 200  # another player behind the same proxy
    rogue = TestClient(proxied, raise_server_exceptions=False, client=("10.6.6.6", 1))
    assert [get(rogue, f"198.51.100.{i}") for i in range(3)] == [200, 200, 429]


@pytest.mark.parametrize("action", ["<script>alert(1)</script>", "7D'--", "KS/w\x00"])
def test_a_hostile_action_is_refused_and_shown_escaped(action: str,
                                                      sqlite_store: Store) -> None:
    c, _ = _app(sqlite_store)
    _start(c)
    before = _dump(sqlite_store)
    page = c.post("/ranked/move", data={"n": "1", "action": action})
    assert page.status_code == 400 and "<script>alert" not in page.text
    api = c.post("/api/ranked/move", data={"n": "1", "action": action})
    assert api.status_code == 400 and api.json()["field"] == "action"
    assert _dump(sqlite_store) == before


@pytest.mark.parametrize(("argv", "env", "needle"), [
    (["--rate-limit", "lots"], {}, "argument --rate-limit: 'lots' is not a rate limit"),
    (["--ranked-start-limit", "1/fortnight"], {}, "argument --ranked-start-limit: "),
    (["--database", "mysql://u:hunter2@h/x"], {}, "only SQLite files and PostgreSQL"),
    (["--database", "postgresql://u:hunter2@127.0.0.1:1/x"], {}, "needs --secret-file"),
    (["--database", "/no/such/folder/r.db"], {}, "/no/such/folder/r.db.secret: cannot create"),
    ([], {"NUMBA_CACHE_DIR": "/dev/null/cache"}, "NUMBA_CACHE_DIR /dev/null/cache"),
])
def test_bad_server_options_end_with_one_line(argv: list[str], env: dict[str, str],
                                              needle: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from scoundrel_solver.cli.web import main

    for k, v in env.items():
        monkeypatch.setenv(k, v)
    if "--database" not in argv:
        argv = [*argv, "--database", str(tmp_path / "r.sqlite3")]
    assert main(["--port", "0", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1, err
    assert err.startswith("scoundrel-web: error: ") and needle in err and "hunter2" not in err


def test_a_damaged_store_stops_the_server_before_it_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scoundrel_solver.cli.web import main

    bad = tmp_path / "r.sqlite3"
    bad.write_bytes(b"\x00garbage" * 500)
    before = bad.read_bytes()
    assert main(["--port", "0", "--database", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "damaged or not a database" in err and len(err.splitlines()) == 1
    assert bad.read_bytes() == before


def test_the_api_page_and_document_list_the_ranked_endpoints(sqlite_store: Store) -> None:
    c, _ = _app(sqlite_store)
    doc = c.get("/api/openapi.json").json()["paths"]
    assert "post" in doc["/api/ranked/move"] and "get" in doc["/api/leaderboard"]
    assert "/api/solve" in doc
    assert "POST /api/ranked/move" in c.get("/api").text


FORM_FIELDS = st.sampled_from(["n", "action", "nickname", "score", "line", ""])
FORM_VALUES = st.one_of(st.text(max_size=40),
                        st.sampled_from(["1", "0", "-1", "99999999", "flee", "7D", "KS/w"]))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(FORM_FIELDS, FORM_VALUES), max_size=4),
       st.sampled_from(["/api/ranked/move", "/api/ranked/start", "/ranked/move"]))
def test_any_form_gets_an_answer_not_a_crash(sqlite_store: Store,
                                             form: list[tuple[str, str]], path: str) -> None:
    c, _ = _app(sqlite_store)
    resp = c.post(path, content=urlencode(form).encode(),
                  headers={"content-type": "application/x-www-form-urlencoded"})
    assert resp.status_code in (201, 303, 400, 403, 409, 413), (path, form, resp.status_code)


def test_two_server_processes_share_one_store(store_url: str) -> None:
    """Two apps, each with its own connection pool on one store and the same secret (as two
    server processes behind a proxy): a game started on one goes on on the other, move by
    move, a move replayed on the other is refused, and both show one leaderboard."""
    stores = [Store(store_url), Store(store_url)]
    try:
        apps = [_app(s)[0] for s in stores]
        first, second = apps
        _start(first, "Ada")
        second.cookies.set(COOKIE, first.cookies[COOKIE])
        r = Ranked(stores[0], SECRET, Clock())
        state = first.get("/api/ranked").json()
        step = 0
        while not state["game"]["over"]:
            this, other = apps[step % 2], apps[(step + 1) % 2]
            action = _greedy(r, state["game"]["line"])
            resp = _move(this, step + 1, action)
            assert resp.status_code == 200, resp.text
            assert _move(other, step + 1, action).status_code == 409  # the same move again
            state = resp.json()
            step += 1
        assert step > 3
        boards = [c.get(f"/api/leaderboard?date={DAY}").json() for c in apps]
        assert boards[0] == boards[1] and boards[0]["rows"][0]["nickname"] == "Ada"
        assert _start_status(second, "Ada") == 409  # one game a day, whichever process
    finally:
        for s in stores:
            s.close()


def _start_status(c: TestClient, nickname: str) -> int:
    return c.post("/api/ranked/start", data={"nickname": nickname}).status_code
