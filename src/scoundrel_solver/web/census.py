"""The census page's figures, read once from the project's ``data/`` files.

``census.parquet`` holds one exact solve per deal; ``fair-games.parquet`` one
fair-agent game per deal. The server reads them at start (the path is its
``--data`` option, never a request's) and keeps the summary; without pyarrow
or the files, or with a file that does not read (not Parquet, damaged, columns
missing), the page says so and the rest of the site is served as usual. What
visitors read names the files, never the server's folders; the server's own
log line has the path and pyarrow's words.
"""

from __future__ import annotations

import math
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Final

from ..runs.summary import wilson, win_interval

__all__ = ["load_census", "percent"]


def percent(x: float) -> str:
    """A share as a percentage, with two digits after the point, more near 0% and
    100% (up to four) so that 99.996% is not shown as 100.00%.

    >>> percent(0.34676), percent(0.99081), percent(0.99996158), percent(1.0)
    ('34.68', '99.08', '99.9962', '100.00')
    """
    p = 100 * x
    gap = min(p, 100 - p)
    digits = 2 if gap <= 0 or gap >= 1 else min(4, max(2, 1 - math.floor(math.log10(gap))))
    text = f"{p:.{digits}f}"
    if gap > 0 and float(text) in (0.0, 100.0):  # never round a share to 0% or 100%
        text = f"{(0.0001 if p < 50 else 99.9999):.4f}"
    return text


_LEFT: Final = 22
"""Room left of the bars for the scale's labels (SVG units)."""


def _scale(c: int, top: int) -> float:
    """A bar's height, 0..100, on a log scale: one bar must not hide the others."""
    return round(100 * math.log10(1 + c) / math.log10(1 + top), 2)


def _histogram(counts: Counter[int]) -> dict[str, Any]:
    """Bars for an SVG: every lost deal in one bar, then each winning score 1..30, on a log
    scale with its powers of ten drawn and labelled.

    The same layout for every variant, so the histograms compare at a glance.
    """
    lost = sum(c for score, c in counts.items() if score <= 0)
    groups = [("lost", 0, lost)] + [(str(s), s, counts.get(s, 0)) for s in range(1, 31)]
    top = max(max(c for _, _, c in groups), 1)
    w = 8
    bars = []
    for i, (name, score, c) in enumerate(groups):
        x = _LEFT + i * w + (6 if i else 0)  # a gap between the lost bar and the wins
        bars.append({"label": name, "score": score, "count": c, "x": x, "w": w - 1.5,
                     "h": _scale(c, top)})
    ticks = [{"x": b["x"], "label": b["label"]} for b in bars
             if b["label"] in ("lost", "1", "10", "20", "30")]
    grid = [{"y": round(100 - _scale(10**k, top), 2), "label": f"{10**k:,}"}
            for k in range(int(math.log10(top)) + 1)]
    return {"bars": bars, "width": _LEFT + len(groups) * w + 8, "ticks": ticks,
            "grid": grid, "left": _LEFT, "low": min(counts)}


def load_census(data_dir: Path) -> tuple[list[dict[str, Any]], str | None]:
    """One row per variant/weapon rule, and an error text when something could not be
    read (shown to visitors: it names the file, not the server's folders)."""
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return [], "pyarrow is not installed (pip install 'scoundrel-solver[census]')"
    census = data_dir / "census.parquet"
    if not census.is_file():
        return [], "no census data on this server (census.parquet in its --data folder)"
    try:
        hist, won, undecided = _read_census(census)
    except _UNREADABLE as err:
        _log(census, err)
        return [], "the census data (census.parquet) on this server is unreadable"
    error = None
    fair: dict[str, dict[str, Any]] = {}
    games = data_dir / "fair-games.parquet"
    if games.is_file():
        try:
            fair = _read_fair(games)
        except _UNREADABLE as err:
            _log(games, err)
            error = "the fair agent's games (fair-games.parquet) on this server are unreadable"
    rows = []
    for key in sorted(hist):
        n = sum(hist[key].values())
        low, high = win_interval(won[key], n, undecided[key])  # undecided counted both ways
        rows.append({"variant": key, "deals": n, "share": won[key] / n, "low": low,
                     "high": high, "mean_best": sum(k * c for k, c in hist[key].items()) / n,
                     "hist": _histogram(hist[key]), "fair": fair.get(key)})
    return rows, error


# What a file that is not Parquet, is damaged or lacks a column raises (pyarrow's errors
# are OSError or ValueError; a null or text where a number belongs, TypeError or ValueError).
_UNREADABLE = (OSError, ValueError, TypeError, KeyError, ArithmeticError)


def _log(path: Path, err: BaseException) -> None:
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    print(f"scoundrel-web: {path} is unreadable, the census page says so: {text}",
          file=sys.stderr, flush=True)


def _read_census(path: Path) -> tuple[dict[str, Counter[int]], Counter[str], Counter[str]]:
    import pyarrow.parquet as pq

    t = pq.read_table(path, columns=["variant", "weapon_rule", "best_score", "winnable"])
    hist: dict[str, Counter[int]] = defaultdict(Counter)
    won: Counter[str] = Counter()
    undecided: Counter[str] = Counter()
    cols = t.to_pydict()
    for v, r, best, win in zip(cols["variant"], cols["weapon_rule"], cols["best_score"],
                               cols["winnable"], strict=True):
        key = f"{v}/{r}"
        hist[key][int(best)] += 1
        won[key] += bool(win)
        undecided[key] += win is None  # a stopped search without a winning line
    return hist, won, undecided


def _read_fair(path: Path) -> dict[str, dict[str, Any]]:
    import pyarrow.parquet as pq

    g = pq.read_table(path, columns=["variant", "weapon_rule", "score", "won"]).to_pydict()
    scores: dict[str, list[int]] = defaultdict(list)
    wins: Counter[str] = Counter()
    for v, r, score, w in zip(g["variant"], g["weapon_rule"], g["score"], g["won"],
                              strict=True):
        scores[f"{v}/{r}"].append(int(score))
        wins[f"{v}/{r}"] += bool(w)
    fair = {}
    for key, s in scores.items():
        low, high = wilson(wins[key], len(s))
        fair[key] = {"games": len(s), "share": wins[key] / len(s), "low": low,
                     "high": high, "mean": sum(s) / len(s)}
    return fair
