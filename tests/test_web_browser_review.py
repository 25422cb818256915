"""The review that teaches and the puzzles, in a real Chromium (the fixtures of
``test_web_browser``: one server subprocess and one browser for the module).

``SCOUNDREL_SCREENSHOTS=DIR`` keeps the review's and the puzzles' screenshots (desktop
and phone) in DIR; the ones in ``docs/img/`` come from there.
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("starlette")
pytest.importorskip("playwright.sync_api")

from test_web_browser import DESKTOP, PHONE, Page, browser, server, server_log

__all__ = ["browser", "server", "server_log"]  # the fixtures, used by name

# A 51-step game on seed 5: the fair agent's moves but for three greedy ones (two of them
# cost the game), lost with -5.
LINE = (
    "flee,2C/f,2S/f,7S/f,7D,KS/w,10H,7C/w,6C/w,3H,7H,3C/w,JS/f,9D,9C/w,4C/w,9H,"
    "8D,QC/w,flee,4H,3S/f,8C/w,flee,4D,6H,5D,10S/w,9S/w,5S/w,flee,10D,AC/w,JC/w,"
    "10C/w,6D,8H,flee,AS/w,5H,KC/w,flee,8S/w,6S/w,5C/w,flee,4S/w,2D,3D,2H,QS/w"
)


def _shots(tmp_path: Path) -> Path:
    out = Path(os.environ.get("SCOUNDREL_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def test_a_review_shows_its_key_moments_drawn_and_they_become_puzzles(
        browser: Any, server: str, tmp_path: Path) -> None:
    out = _shots(tmp_path)
    heights = {}
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        tab = Page(browser, server, viewport)
        try:
            page = tab.go(f"/review?seed=5&line={LINE}")
            moments = page.locator("[data-key-moment]")
            assert 1 <= moments.count() <= 3
            for i in range(moments.count()):
                m = moments.nth(i)
                assert m.locator(".position .room .card").count() >= 1  # drawn as on /play
                assert m.locator(".position [data-health]").count() == 1
                assert m.locator("table.compare tr[data-compare]").count() == 2
                assert "%" in m.locator("tr[data-compare=agent] td.win").inner_text()
            assert page.locator("[data-turning]").count() == 1
            assert not page.locator("li.decision").first.is_visible()  # collapsed
            heights[size] = page.evaluate("document.documentElement.scrollHeight")
            top = moments.first.bounding_box()
            assert top is not None
            if size == "phone":  # the first key moment starts on the first screen
                assert top["y"] < viewport["height"]
            page.screenshot(path=str(out / f"review-moments-{size}.png"), full_page=True)
            assert not tab.errors, tab.errors
        finally:
            tab.close()
    # the puzzles: kept by the review in this browser context
    tab = Page(browser, server, PHONE)
    try:
        page = tab.go(f"/review?seed=5&line={LINE}")
        want = page.locator("[data-key-moment]").evaluate_all(
            "els => els.map(e => [e.dataset.puzzleState, e.dataset.puzzleAgent])")
        page = tab.go("/puzzles")
        mine = page.locator("#my-puzzles li")
        assert mine.count() == len(want)
        page.screenshot(path=str(out / "puzzles-phone.png"), full_page=True)
        state, agent = want[0]
        page.locator(f'#my-puzzles li[data-my-puzzle="{state}"] a').click()
        page.wait_for_load_state()
        assert page.locator(f'.puzzle[data-puzzle-state="{state}"]').count() == 1
        page.locator(f'button.act[data-action="{agent}"]').click()
        page.wait_for_load_state()
        assert page.locator('[data-puzzle-result="solved"]').count() == 1
        page = tab.go("/puzzles")
        assert page.locator("#my-puzzles li.solved").count() == 1
        assert not tab.errors, tab.errors
    finally:
        tab.close()


def test_the_daily_puzzle_is_solved_by_its_answer(
        browser: Any, server: str, tmp_path: Path) -> None:
    out = _shots(tmp_path)
    tab = Page(browser, server, DESKTOP)
    try:
        page = tab.go("/puzzles")
        daily = page.locator("[data-daily-puzzle]")
        assert daily.count() == 1
        state = daily.get_attribute("data-puzzle-state")
        assert state and "bottom=" in state  # what a player sees: the unseen cards as a set
        actions = page.locator("button.act[data-action]").evaluate_all(
            "els => els.filter(e => !e.disabled).map(e => e.dataset.action)")
        page.screenshot(path=str(out / "puzzles-desktop.png"), full_page=True)
        verdicts = {}
        for a in actions:
            with urllib.request.urlopen(
                    f"{server}/api/puzzle?state={quote(state)}&line={quote(a)}") as r:
                verdicts[a] = json.load(r)
        right = [a for a, v in verdicts.items() if v["right"]]
        assert len(right) == 1
        wrong = next(a for a in actions if a not in right)
        page.locator(f'button.act[data-action="{wrong}"]').click()
        page.wait_for_load_state()
        assert page.locator('[data-puzzle-result="missed"]').count() == 1
        key = page.locator(f'button.act[data-action="{right[0]}"]').get_attribute("data-key")
        assert key
        # the puzzle's buttons answer to the play page's keys
        with page.expect_navigation():
            page.keyboard.press("f" if key == "f" else key.replace("shift+", "Shift+"))
        assert page.locator('[data-puzzle-result="solved"]').count() == 1
        page.screenshot(path=str(out / "puzzles-solved-desktop.png"), full_page=True)
        assert not tab.errors, tab.errors
    finally:
        tab.close()
