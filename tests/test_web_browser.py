"""scoundrel-web in a real Chromium: one server subprocess and one browser for the module.

The browser is Playwright's own when installed, else the system Chromium
(Debian's ``chromium``). Without one the tests skip, except under ``CI=true``
where they fail. ``SCOUNDREL_SCREENSHOTS=DIR`` keeps the screenshots of every
page (desktop and phone) in DIR.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest

pytest.importorskip("starlette")
playwright_api = pytest.importorskip("playwright.sync_api")

import scoundrel_core as sc  # noqa: E402
from scoundrel_solver import solve  # noqa: E402
from scoundrel_solver.fair import FairAgent  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-dev-shm-usage"]
SYSTEM_CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Deals whose optimal line wins (checked in the tests): one for clicks, one for keys.
CLICK_SEED = 42
KEY_SEED = 7


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
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's output (its access log included): a file, so it never fills a pipe."""
    return tmp_path_factory.mktemp("server") / "out.log"


@pytest.fixture(scope="module")
def server(browser: Any, server_log: Path) -> Iterator[str]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = server_log.open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "scoundrel_solver.cli.web", "--port", str(port),
         "--workers", "2", "--max-seconds", "5", "--data", str(ROOT / "data"),
         "--access-log", "--database", str(server_log.parent / "ranked.sqlite3"),
         "--rate-limit", "none"],
        stdout=log, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 240
        while True:
            if proc.poll() is not None:
                out = server_log.read_text()
                pytest.fail(f"scoundrel-web exited with {proc.returncode}: {out}")
            try:
                with urllib.request.urlopen(f"{base}/api/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("scoundrel-web did not become ready in 240 s")
            time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


class Page:
    """A page in a fresh context that records console errors and page errors."""

    def __init__(self, browser: Any, base: str, viewport: dict[str, int]) -> None:
        self.base = base
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("dialog", lambda d: (self.errors.append(f"dialog: {d.message}"),
                                          d.dismiss()))
        self.page.set_default_timeout(60_000)

    def go(self, path: str) -> Any:
        self.page.goto(self.base + path)
        return self.page

    def line(self) -> list[str]:
        q = parse_qs(urlsplit(self.page.url).query)
        return [t for t in q.get("line", [""])[0].split(",") if t]

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def tab(browser: Any, server: str) -> Iterator[Page]:
    p = Page(browser, server, DESKTOP)
    yield p
    errors = list(p.errors)
    p.close()
    assert not errors, f"console errors: {errors}"


def _room_texts(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".board .room .card .rank").all_inner_texts()]


def _best_line(seed: int) -> tuple[list[str], int]:
    r = solve(seed)
    assert r.proven and r.best_score > 0, "the test wants a deal whose best line wins"
    return list(r.line), r.best_score


def test_a_whole_deal_by_clicks(tab: Page) -> None:
    line, best = _best_line(CLICK_SEED)
    page = tab.go(f"/play?seed={CLICK_SEED}")
    for step, action in enumerate(line, 1):
        button = page.locator(f'button.act[data-action="{action}"]')
        assert button.count() == 1, (step, action)
        with page.expect_navigation():
            button.click()
        assert tab.line() == line[:step]
    final = page.locator("[data-final-score]")
    assert final.get_attribute("data-final-score") == str(best)
    assert sc.play_line(sc.new_game(seed=CLICK_SEED), line).score == best


def test_a_whole_deal_by_keyboard(tab: Page) -> None:
    line, best = _best_line(KEY_SEED)
    page = tab.go(f"/play?seed={KEY_SEED}")
    for step, action in enumerate(line, 1):
        key = page.locator(f'button.act[data-action="{action}"]').get_attribute("data-key")
        with page.expect_navigation():
            page.keyboard.press(_press(str(key)))
        assert tab.line() == line[:step], (step, action)
    assert page.locator("[data-final-score]").get_attribute("data-final-score") == str(best)


def _press(key: str) -> str:
    """Playwright's name for a button's data-key: "3", "shift+3" or "f"."""
    return f"Shift+Digit{key[-1]}" if key.startswith("shift+") else key


def test_keys_are_numbered_left_to_right_and_kept_within_a_room(tab: Page) -> None:
    page = tab.go("/play?seed=42&line=flee")
    def keys_by_x() -> list[tuple[float, str, str]]:
        out = []
        for slot in page.locator(".board .room .slot").all():
            box = slot.bounding_box()
            assert box is not None
            card = slot.locator(".card .rank").inner_text().strip()
            keys = slot.locator("button.act").evaluate_all(
                "bs => bs.map(b => b.dataset.key)")
            plain = [k for k in keys if not k.startswith("shift+")]
            assert len(plain) == 1, keys
            out.append((box["x"] + box["y"] * 10_000, card, plain[0]))  # reading order
        return sorted(out)
    first = keys_by_x()
    assert [k for _, _, k in first] == ["1", "2", "3", "4"]
    # play the second card: the others keep their numbers
    with page.expect_navigation():
        page.keyboard.press("2")
    after = {card: k for _, card, k in keys_by_x()}
    assert after == {card: k for _, card, k in first if k != "2"}
    shown = [k for _, _, k in keys_by_x()]
    assert shown == sorted(shown)


def test_the_tutorial_to_its_end(tab: Page) -> None:
    from scoundrel_solver.web.learn import LESSONS

    page = tab.go("/")
    with page.expect_navigation():
        page.locator('nav a[href="/learn"]').click()
    assert page.locator("#rules h2").first.inner_text().startswith("The rules of Scoundrel")
    for i, (action, _) in enumerate(LESSONS):
        tut = page.locator("#tutorial")
        assert tut.get_attribute("data-tutorial-done") is None
        assert tut.get_attribute("data-step") == str(i + 1)
        lit = page.locator("#tutorial button.act:not([disabled])")
        assert lit.count() == 1 and lit.get_attribute("data-action") == action
        with page.expect_navigation():
            if i % 2:  # by its key, as on /play
                page.keyboard.press(_press(lit.get_attribute("data-key") or ""))
            else:
                lit.click()
    assert page.locator("#tutorial").get_attribute("data-tutorial-done") == "1"
    end = sc.play_line(sc.new_game(deck="KS QC 5S 2H 7D 9S 5C 6H 4H 8C 3S 10D", partial=True),
                       [a for a, _ in LESSONS])
    got = page.locator("[data-score-explained]").get_attribute("data-score-explained")
    assert got == str(end.score)
    assert f"your health, {end.health}" in page.locator(".score-parts").inner_text()


def test_share_copies_the_link_to_the_clipboard(browser: Any, server: str) -> None:
    p = Page(browser, server, DESKTOP)
    try:
        p.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
        page = p.go("/play?seed=9&line=flee")
        url_before = page.url
        page.locator("#share").click()
        status = page.locator("#share-status")
        status.filter(has_text="copied").wait_for()
        assert page.url == url_before  # no reload
        copied = page.evaluate("navigator.clipboard.readText()")
        want = server + (page.locator("#share").get_attribute("href") or "")
        assert copied == want
        assert parse_qs(urlsplit(copied).query)["line"] == ["flee"]
        assert not p.errors
    finally:
        p.close()


def test_game_over_says_how_the_score_came_about(tab: Page) -> None:
    line = _played_out(3)
    end = sc.play_line(sc.new_game(seed=3), line)
    page = tab.go(f"/play?seed=3&line={','.join(line)}")
    parts = page.locator(".final .score-parts")
    assert parts.get_attribute("data-score-explained") == str(end.score)
    text = parts.inner_text()
    left = sum(c.value for c in (*end.room, *end.dungeon) if c.is_monster)
    if end.won:
        assert f"your health, {end.health}" in text
    else:
        assert f"your health, {end.health}, minus {left}" in text
        assert f"score {end.score}" in text
        assert parts.locator(".left .card").count() == sum(
            c.is_monster for c in (*end.room, *end.dungeon))


def test_hints_come_best_first_with_their_keys(tab: Page) -> None:
    page = tab.go("/play?seed=11&line=flee")
    page.keyboard.press("h")
    rows = page.locator("#hint-body table.hints tbody tr")
    rows.first.wait_for()
    assert "best" in (rows.first.get_attribute("class") or "")
    assert "agent's choice" in rows.first.inner_text()
    for i in range(rows.count()):
        action = rows.nth(i).get_attribute("data-hint-action")
        key = rows.nth(i).locator("kbd").get_attribute("data-hint-key")
        button = page.locator(f'button.act[data-action="{action}"]')
        assert key == button.get_attribute("data-key"), action


def test_the_access_log_has_one_line_per_request(tab: Page, server_log: Path) -> None:
    marker = f"access-{time.monotonic_ns()}"
    for _ in range(3):
        with urllib.request.urlopen(f"{tab.base}/api/health?{marker}=1", timeout=10) as r:
            assert r.status == 200
    deadline = time.monotonic() + 10
    while True:
        lines = [ln for ln in server_log.read_text().splitlines() if marker in ln]
        if len(lines) >= 3 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(lines) == 3, lines
    assert all('"GET /api/health?' in ln and " 200" in ln for ln in lines), lines


def test_hints_show_the_chance_of_winning_and_the_expected_score(tab: Page) -> None:
    page = tab.go("/play?seed=11&line=flee")
    page.keyboard.press("h")
    rows = page.locator("#hint-body table.hints tbody tr")
    rows.first.wait_for()
    legal = sc.legal_actions(sc.play_line(sc.new_game(seed=11), ["flee"]))
    assert rows.count() == len(legal)
    assert "fair agent" in page.locator("#hints .who").inner_text()
    for i in range(rows.count()):
        win = rows.nth(i).locator("td.win").inner_text()
        score = rows.nth(i).locator("td.score").inner_text()
        assert win.endswith("%") and 0 <= float(win[:-1]) <= 100, win
        float(score)  # a number, not "n/a"
    bar = page.locator("#hint-body .evalbar")
    assert 0 <= float(bar.get_attribute("data-win-chance") or "nan") <= 1


def test_endgame_hints_say_they_are_sampled(tab: Page) -> None:
    # seed 42 after these 14 steps: room 7, 20 cards unseen, in classic/strict's endgame
    line = "flee,3D,10D,4H,KC/w,2S/f,6H,10S/w,7C/w,3S/f,4C/w,7D,AS/w,flee"
    info = sc.InfoState.initial(sc.new_game(seed=42))
    s = sc.new_game(seed=42)
    for text in line.split(","):
        a = sc.parse_action(s, text)
        nxt = sc.apply(s, a)
        info, s = sc.observe(info, a, nxt), nxt
    assert len(info.unseen) == 20
    page = tab.go(f"/play?seed=42&line={line}")
    page.keyboard.press("h")
    rows = page.locator("#hint-body table.hints tbody tr")
    rows.first.wait_for()
    note = page.locator("#hint-body .sampled-note").inner_text()
    assert "optimistic" in note and "calibrated" in note  # classic/strict's chance is
    notes = [rows.nth(i).locator("td").nth(3).inner_text() for i in range(rows.count())]
    # each row says how many orders its chance rests on: the agent's own count (8, or
    # more where classic/strict's race drew more because the choice was close)
    said = sorted(int(m.group(1)) for n in notes
                  if (m := re.search(r"won in \d+ of (\d+) sampled orders", n)))
    assert said == sorted(v.samples for v in FairAgent().evaluate(info)), notes
    assert sum("agent's choice" in n for n in notes) == 1


def test_undo_to_any_depth(tab: Page) -> None:
    page = tab.go("/play?seed=3")
    start_room = _room_texts(page)
    played = []
    for _ in range(3):
        button = page.locator("button.act:not([disabled])").first
        played.append(button.get_attribute("data-action"))
        with page.expect_navigation():
            button.click()
    assert tab.line() == played
    for depth in (2, 1, 0):
        with page.expect_navigation():
            page.keyboard.press("u")
        assert tab.line() == played[:depth]
    assert _room_texts(page) == start_room
    assert page.locator("#undo").count() == 0


def _play(tab: Page, actions: list[str]) -> Any:
    for action in actions:
        with tab.page.expect_navigation():
            tab.page.locator(f'button.act[data-action="{action}"]').click()
    return tab.page


def test_a_reload_restores_the_game(tab: Page) -> None:
    tab.go(f"/play?seed={KEY_SEED}")
    page = _play(tab, _best_line(KEY_SEED)[0][:2])
    before, room = tab.line(), _room_texts(page)
    page.reload()
    assert tab.line() == before and _room_texts(page) == room
    url = page.url
    home = tab.go("/")
    link = home.locator("#resume-link")
    link.wait_for()
    assert tab.base + (link.get_attribute("href") or "") == url


def test_a_share_link_reproduces_the_game(tab: Page, browser: Any) -> None:
    tab.go("/play?seed=9&variant=hard&weapon_rule=equal")
    line = list(solve(9, variant="hard", weapon_rule="equal").line)
    page = _play(tab, line[:3])
    share = page.locator("#share").get_attribute("href")
    room, health = _room_texts(page), page.locator(".health").get_attribute("data-health")
    other = Page(browser, tab.base, PHONE)  # a fresh context: nothing in its storage
    try:
        p2 = other.go(share or "")
        assert _room_texts(p2) == room
        assert p2.locator(".health").get_attribute("data-health") == health
        assert other.line() == tab.line()
        assert not other.errors
    finally:
        other.close()


def _played_out(seed: int) -> list[str]:
    """A weak but legal whole game: always the first legal action."""
    s, line = sc.new_game(seed=seed), []
    while not s.is_over:
        a = sc.legal_actions(s)[0]
        line.append(str(a))
        s = sc.apply(s, a)
    return line


def test_the_review_labels_decisions_and_steps_the_optimal_line(tab: Page) -> None:
    line = _played_out(21)
    page = tab.go(f"/review?seed=21&line={','.join(line)}")
    final = sc.play_line(sc.new_game(seed=21), line).score
    assert page.locator('[data-score="player"]').inner_text() == str(final)
    best = solve(21)
    assert page.locator('[data-score="best"]').inner_text() == str(best.best_score)
    page.locator("details.all-decisions > summary").click()  # the full list is collapsed
    page.locator("details.optimal-rooms > summary").click()
    decisions = page.locator("li.decision")
    assert decisions.count() > 0
    labels = set(decisions.evaluate_all("els => els.map(e => e.dataset.label)"))
    assert labels <= {"ok", "inaccuracy", "mistake", "blunder"}
    assert labels - {"ok"}, "a first-legal-action game should have labelled decisions"
    first = decisions.first
    first.locator("summary").click()
    assert first.locator(".agent-move").inner_text().strip()
    assert "Hindsight" in page.locator(".hindsight").inner_text()
    rooms = page.locator(".room-step")
    assert rooms.count() >= 2
    assert rooms.nth(0).is_visible() and not rooms.nth(1).is_visible()
    page.locator("#room-next").click()
    assert rooms.nth(1).is_visible() and not rooms.nth(0).is_visible()
    page.locator("#room-prev").click()
    assert rooms.nth(0).is_visible()
    shown = " ".join(rooms.locator(".optimal-actions").all_text_contents()).split()
    assert shown == list(best.line)


def test_the_analysis_board_solves_a_typed_deck(tab: Page) -> None:
    deck = sc.format_deck(sc.deal(123))
    page = tab.go("/analysis")
    page.fill("#deck-text", deck)
    with page.expect_navigation():
        page.locator("#setup button[type=submit]").click()
    best = solve(sc.new_game(deck=deck))
    got = page.locator("[data-best-score]")
    assert got.get_attribute("data-best-score") == str(best.best_score)
    assert page.locator(".fair table.hints tbody tr").count() == len(
        sc.legal_actions(sc.new_game(deck=deck)))
    with page.expect_navigation():
        page.locator("#forward").click()
    assert tab.line() == [best.line[0]]
    assert page.locator("[data-best-score]").get_attribute("data-best-score") == str(
        best.best_score)
    with page.expect_navigation():
        page.locator("#back").click()
    assert tab.line() == []


def test_a_hostile_deck_text_is_shown_not_run(tab: Page) -> None:
    evil = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'
    page = tab.go("/analysis")
    page.fill("#deck-text", evil)
    with page.expect_navigation():
        page.locator("#setup button[type=submit]").click()
    assert page.evaluate("window.pwned") is None
    assert "<script>window.pwned" in page.locator(".error-text").inner_text()
    page2 = tab.go(f"/play?deck={quote(evil)}")
    assert page2.evaluate("window.pwned") is None
    assert "<script>" in page2.locator(".error .message").inner_text()
    page3 = tab.go(f"/learn?line={quote(evil)}")
    assert page3.evaluate("window.pwned") is None
    assert "<script>" in page3.locator(".error .message").inner_text()
    # the 400 answers themselves are logged by the browser; nothing else may be
    tab.errors[:] = [e for e in tab.errors if "status of 400" not in e]


PAGES = {
    "home": "/",
    "play": "/play?seed=42&line=flee,3D,10D,4H,KC/w,2S/f,6H,10S/w",
    "play-over": None,  # filled in below: a finished game
    "play-lost": None,  # a lost game: the score minus the monsters left
    "review": None,  # a finished weak game, below
    "analysis": "/analysis?seed=42&line=flee",
    "census": "/census",
    "api": "/api",
    "about": "/about",
    "puzzles": "/puzzles",
    "learn": "/learn",
    "learn-done": "/learn?line=flee,7D,9S/w,5C/w,8C/f,6H,3S/w,10D,KS/w,QC/w,5S/w,4H,2H",
    "learn-step": "/learn?line=flee,7D,9S/w,5C/w,8C/f,6H#tutorial",
}


def test_every_page_at_desktop_and_phone_size_without_console_errors(
        browser: Any, server: str, tmp_path: Path) -> None:
    out = Path(os.environ.get("SCOUNDREL_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    line, _ = _best_line(CLICK_SEED)
    pages = dict(PAGES, **{"play-over": f"/play?seed={CLICK_SEED}&line={','.join(line)}",
                           "play-lost": f"/play?seed=3&line={','.join(_played_out(3))}",
                           "review": f"/review?seed=5&line={','.join(_played_out(5))}"})
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        tab = Page(browser, server, viewport)
        try:
            for name, path in pages.items():
                assert path is not None
                page = tab.go(path)
                page.wait_for_load_state("networkidle")
                if name == "play":
                    page.keyboard.press("h")
                    page.locator("#hint-body table").wait_for()
                # the learn page is mostly the rules' long text: its shots show the
                # first screen (the tutorial)
                page.screenshot(path=str(out / f"{name}-{size}.png"),
                                full_page=not name.startswith("learn"))
            assert not tab.errors, (size, tab.errors)
        finally:
            tab.close()
