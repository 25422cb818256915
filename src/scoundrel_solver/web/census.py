"""The census page's figures, read once from the project's ``data/`` files.

``census.parquet`` holds one exact solve per deal; ``fair-games.parquet`` one
fair-agent game per deal. The server reads them at start (the path is its
``--data`` option, never a request's) and keeps the summary; without pyarrow
or the files, the page says so.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from ..runs.summary import wilson, win_interval

__all__ = ["load_census"]


def _histogram(counts: Counter[int]) -> dict[str, Any]:
    """Bars for an SVG: every lost deal in one bar, then each winning score 1..30.

    The same layout for every variant, so the histograms compare at a glance.
    """
    lost = sum(c for score, c in counts.items() if score <= 0)
    groups = [("lost", 0, lost)] + [(str(s), s, counts.get(s, 0)) for s in range(1, 31)]
    top = max(c for _, _, c in groups) or 1
    w = 8
    bars = []
    for i, (name, score, c) in enumerate(groups):
        x = i * w + (6 if i else 0)  # a gap between the lost bar and the wins
        bars.append({"label": name, "score": score, "count": c, "x": x, "w": w - 1.5,
                     "h": round(100 * c / top, 2)})
    ticks = [{"x": b["x"], "label": b["label"]} for b in bars
             if b["label"] in ("lost", "1", "10", "20", "30")]
    return {"bars": bars, "width": len(groups) * w + 8, "ticks": ticks,
            "low": min(counts)}


def load_census(data_dir: Path) -> tuple[list[dict[str, Any]], str | None]:
    """One row per variant/weapon rule, and an error text when nothing could be read."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        return [], "pyarrow is not installed (pip install 'scoundrel[census]')"
    census = data_dir / "census.parquet"
    if not census.is_file():
        return [], f"no census data at {census}"
    t = pq.read_table(census, columns=["variant", "weapon_rule", "best_score", "winnable"])
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
    fair: dict[str, dict[str, Any]] = {}
    games = data_dir / "fair-games.parquet"
    if games.is_file():
        g = pq.read_table(games, columns=["variant", "weapon_rule", "score", "won"]).to_pydict()
        scores: dict[str, list[int]] = defaultdict(list)
        wins: Counter[str] = Counter()
        for v, r, score, w in zip(g["variant"], g["weapon_rule"], g["score"], g["won"],
                                  strict=True):
            scores[f"{v}/{r}"].append(int(score))
            wins[f"{v}/{r}"] += bool(w)
        for key, s in scores.items():
            low, high = wilson(wins[key], len(s))
            fair[key] = {"games": len(s), "share": wins[key] / len(s), "low": low,
                         "high": high, "mean": sum(s) / len(s)}
    rows = []
    for key in sorted(hist):
        n = sum(hist[key].values())
        low, high = win_interval(won[key], n, undecided[key])  # undecided counted both ways
        rows.append({"variant": key, "deals": n, "share": won[key] / n, "low": low,
                     "high": high, "mean_best": sum(k * c for k, c in hist[key].items()) / n,
                     "hist": _histogram(hist[key]), "fair": fair.get(key)})
    return rows, None
