"""The ranked daily in a real Chromium (Playwright; Debian's chromium when Playwright has no
browser of its own): a whole game played by clicks and keys to its end and found on the
leaderboard, with every response the browser received before the end checked for the
unseen cards. ``SCOUNDREL_SCREENSHOTS=DIR`` keeps the screenshots (desktop and phone).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
playwright_api = pytest.importorskip("playwright.sync_api")

import re  # noqa: E402

import scoundrel_core as sc  # noqa: E402
from scoundrel_solver.web.game import replay  # noqa: E402
from scoundrel_solver.web.ranked import Ranked, load_secret  # noqa: E402
from scoundrel_solver.web.store import Store  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-dev-shm-usage"]
SYSTEM_CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
_SYMBOL = {"\u2663": "C", "\u2660": "S", "\u2666": "D", "\u2665": "H"}
_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([CSDH])(?![A-Za-z0-9])")
_DRAWN = re.compile(r'class="rank">(10|[2-9AJQK])</span><span class="suit"[^>]*>(.)</span>')


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    pw = playwright_api.sync_playwright().start()
    try:
        try:
            b = pw.chromium.launch(args=FLAGS)
        except Exception:
            path = next((p for p in SYSTEM_CHROMIUM if Path(p).exists()),
                        shutil.which("chromium"))
            if path is None:
                _missing("no browser: neither Playwright's Chromium nor /usr/bin/chromium "
                         "(apt-get install chromium)")
            b = pw.chromium.launch(executable_path=path, args=FLAGS)
        yield b
        b.close()
    finally:
        pw.stop()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        tuple[str, Path]]:
    """scoundrel-web on a free port with its ranked store in a temporary folder: its address
    and the store's path (its secret is beside it)."""
    folder = tmp_path_factory.mktemp("ranked-server")
    db = folder / "ranked.sqlite3"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = folder / "out.log"
    log = log_path.open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "scoundrel_solver.cli.web", "--port", str(port),
         "--workers", "1", "--max-seconds", "5", "--data", str(ROOT / "data"),
         "--database", str(db), "--rate-limit", "none"],
        stdout=log, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 240
        while True:
            if proc.poll() is not None:
                pytest.fail(f"scoundrel-web exited with {proc.returncode}: "
                            f"{log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"{base}/api/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("scoundrel-web did not become ready in 240 s")
            time.sleep(0.3)
        yield base, db
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def _cards_named(text: str) -> set[str]:
    found = {a + b for a, b in _TOKEN.findall(text)}
    return found | {a + _SYMBOL.get(b, "?") for a, b in _DRAWN.findall(text)}


def _best_line(seed: int) -> list[str]:
    """The test's own player knows the deal: it plays the exact solver's best line."""
    from scoundrel_solver import solve

    return list(solve(seed, max_seconds=20.0).line)


def _forgeries_change_nothing(page: Any, base: str, game: Any) -> None:
    """From the browser's own session (its cookie): a replayed move, an illegal one, a
    changed score and a second start are refused with a 4xx, and the page is as before."""
    page.goto(f"{base}/ranked")
    before = page.content()
    n = len(game.actions)
    shown = {b.get_attribute("data-action") for b in page.locator("button.act").all()}
    illegal = next(str(c) for c in sc.FULL_DECK if str(c) not in shown)
    url = f"{base}/api/ranked/move"
    for form, status in (({"n": str(n), "action": game.line[-1]}, 409),
                         ({"n": str(n + 1), "action": illegal}, 400),
                         ({"n": str(n + 1), "action": "flee", "score": "99"}, 400)):
        assert page.request.post(url, form=form).status == status, form
    assert page.request.post(f"{base}/api/ranked/start",
                             form={"nickname": "Again"}).status == 409
    page.goto(f"{base}/ranked")
    assert page.content() == before


def test_a_whole_ranked_daily_in_chromium_ends_on_the_leaderboard(
        browser: Any, server: tuple[str, Path], tmp_path: Path) -> None:
    base, db = server
    shots = Path(os.environ.get("SCOUNDREL_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    # the test reads the server's secret to know the deal the browser must never see
    ranked = Ranked(Store(), load_secret(Path(f"{db}.secret")))
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    seen: list[tuple[int, str, str]] = []  # (moves made, url, body) of every response
    moves = [0]

    def record(route: Any) -> None:
        # the browser's own requests, made by Playwright (redirects followed: a request a
        # redirect leads to is not routed) and kept, then handed to the page
        resp = route.fetch()
        seen.append((moves[0], route.request.url, resp.text()))
        route.fulfill(response=resp)

    page.route("**/*", record)
    try:
        page.goto(f"{base}/ranked")
        day = page.locator("#ranked").get_attribute("data-date")
        assert day is not None
        deal = ranked.deal(day)
        page.screenshot(path=str(shots / "ranked-start-desktop.png"), full_page=True)
        page.fill("#nickname", "Ada Lovelace")
        page.click("#start")
        page.wait_for_selector("#move-form")
        game = replay(deal, [])
        plan = _best_line(ranked.seed(day))
        while not game.is_over:
            # nothing but the moves: no undo, no hint, no analysis, no review
            assert page.locator("#undo, #hint-button, #ranked a[href*='/analysis'], "
                                "#ranked a[href*='/review']").count() == 0
            assert page.locator("#undo-off").is_visible()
            a = sc.parse_action(game.state, plan[len(game.actions)])
            if len(game.actions) == 4:
                _forgeries_change_nothing(page, base, game)
            button = page.locator(f'button.act[data-action="{a}"]')
            key = button.get_attribute("data-key")
            moves[0] += 1
            if moves[0] == 3:
                page.screenshot(path=str(shots / "ranked-playing-desktop.png"),
                                full_page=True)
            with page.expect_navigation():
                if moves[0] % 2 == 0 and key:
                    page.keyboard.press("Shift+" + key[6:] if key.startswith("shift+")
                                        else key.upper() if key == "f" else key)
                else:
                    button.click()
            game = game.then(a)
            seen.append((moves[0], page.url, page.content()))
            assert page.locator("#ranked").get_attribute("data-over") == (
                "1" if game.is_over else "0")
        score = page.locator("[data-final-score]").get_attribute("data-final-score")
        assert score == str(game.state.score)
        assert moves[0] == len(game.actions) > 5
        # every response before the end: no card the player had not seen, nor the seed
        deal_text = sc.format_deck(deal.start.room + deal.start.dungeon)
        before_end = [x for x in seen if x[0] < moves[0]]
        assert len(before_end) > 3 * (moves[0] - 1)
        for made, url, body in before_end:
            at = replay(deal, [str(x) for x in game.actions[:made]])
            hidden = ({str(c) for c in at.state.dungeon} - {str(c) for c in at.info.bottom})
            assert not _cards_named(body) & hidden, (made, url)
            assert str(ranked.seed(day)) not in body and deal_text not in body, (made, url)
        page.screenshot(path=str(shots / "ranked-finished-desktop.png"), full_page=True)
        assert page.locator("#share-text").input_value().startswith(
            f"Scoundrel ranked daily {day}: ")
        page.click("#leaderboard-link")
        row = page.locator('table.ranks tr[data-nickname="Ada Lovelace"]')
        assert row.get_attribute("data-score") == score
        page.screenshot(path=str(shots / "leaderboard-desktop.png"), full_page=True)
        # the same pages on a phone, in the same browser session (the same player)
        page.set_viewport_size(PHONE)
        for name, path in (("ranked-finished", "/ranked"),
                           ("leaderboard", f"/ranked/leaderboard?date={day}")):
            page.goto(base + path)
            page.screenshot(path=str(shots / f"{name}-phone.png"), full_page=True)
        # a second game the same day is refused
        page.goto(f"{base}/ranked")
        assert page.locator("#start").count() == 0
        assert not errors, errors
    finally:
        page.unroute_all(behavior="ignoreErrors")
        context.close()


def test_the_ranked_start_and_a_game_under_way_on_a_phone(
        browser: Any, server: tuple[str, Path], tmp_path: Path) -> None:
    base, _ = server
    shots = Path(os.environ.get("SCOUNDREL_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(f"{base}/ranked")
        page.screenshot(path=str(shots / "ranked-start-phone.png"), full_page=True)
        page.fill("#nickname", "Grace")
        page.click("#start")
        page.wait_for_selector("#move-form")
        for _ in range(2):
            with page.expect_navigation():
                page.locator("button.act[data-action]:not([disabled])").last.click()
        page.screenshot(path=str(shots / "ranked-playing-phone.png"), full_page=True)
        assert page.locator("#ranked").get_attribute("data-over") == "0"
        assert page.locator("#undo-off").is_visible()
        assert not errors, errors
    finally:
        context.close()


def test_yesterdays_leaderboard_publishes_the_deal(
        browser: Any, server: tuple[str, Path], tmp_path: Path) -> None:
    """A game of yesterday written into the server's store by this process (another
    process on the same SQLite file): the server publishes yesterday's deal beside it."""
    import datetime as dt

    from scoundrel_solver import solve

    base, db = server
    shots = Path(os.environ.get("SCOUNDREL_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    store = Store(str(db))
    try:
        ranked = Ranked(store, load_secret(Path(f"{db}.secret")))
        day = (dt.date.fromisoformat(ranked.today()) - dt.timedelta(days=1)).isoformat()
        best = solve(ranked.seed(day), max_seconds=20.0)
        game = replay(ranked.deal(day), [])
        stored = store.start("y" * 22, day, "Yesterday's Grace", ranked.deal_id(day),
                             dt.datetime.fromisoformat(day + "T20:00:00"))
        for text in best.line:
            game = game.then(sc.parse_action(game.state, text))
            s = game.state
            stored = store.advance(stored, (*stored.line, text),
                                   "playing" if not s.is_over else ("won" if s.won else "lost"),
                                   s.score if s.is_over else None,
                                   dt.datetime.fromisoformat(day + "T20:09:30"))
    finally:
        store.close()
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(120_000)
    try:
        page.goto(f"{base}/ranked/leaderboard?date={day}")
        assert page.locator("[data-best-score]").get_attribute("data-best-score") == str(
            best.best_score)
        assert page.locator("code.deck").inner_text() == sc.format_deck(
            ranked.deal(day).start.room + ranked.deal(day).start.dungeon)
        row = page.locator('table.ranks tr[data-nickname="Yesterday\'s Grace"]')
        assert row.get_attribute("data-score") == str(game.state.score)
        page.screenshot(path=str(shots / "leaderboard-published-desktop.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(shots / "leaderboard-published-phone.png"), full_page=True)
    finally:
        context.close()
