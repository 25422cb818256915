"""How well shown chances of winning match the games' outcomes: calibration error per phase.

A chance of winning is calibrated when, among the decisions where it showed
about p, about p of the games were won. The measure is the expected
calibration error (ECE) over equal-width bins of the shown chance::

    ECE = sum over bins b of (n_b / n) * |mean shown chance in b - share of games won in b|

in points (percent). The outcome of a decision is its game's (won or not): the
chance shown at a decision is the agent's chance of winning under its own play
from there, and that play is what the game then was. Rows are counted overall
and per phase of the game (:func:`~.features.phase`: more than 30 unseen cards,
13-30, 12 or fewer), and the first decision of each game gets its own line: the
mean chance shown there against the share of games won (games whose opening was
explored, ``scoundrel-value data --explore``, have no first decision of the agent's).

The expected score shown is measured the same way against the game's final
score (with a calibration file, the search's and the shown side by side): the
mean shown against the mean realised, the binned mean absolute gap (the
decisions binned by the score shown, equal-width bins over the scores a game
can end with, each bin's gap between its mean shown and mean final score,
weighted by its decisions; in points of score), and the root mean square error.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from ...errors import SolverError
from ...runs.result_rows import BEST_SCORE, WORST_SCORE

__all__ = ["MAX_BINS", "PHASES", "calibration_report", "ece", "format_report", "log_loss",
           "plot_reliability", "reliability", "score_gap"]

MAX_BINS: Final = 100
"""The most bins a report may ask for."""
PHASES: Final = ("open", "middle", "end")
"""The phases by unseen cards: more than 30, 13-30, 12 or fewer."""
_PHASE_WORDS: Final = {"all": "every decision", "open": "more than 30 unseen",
                       "middle": "13-30 unseen", "end": "12 or fewer unseen",
                       "first": "first decision"}


def reliability(p: np.ndarray, y: np.ndarray, bins: int) -> list[dict[str, float]]:
    """Per equal-width bin of ``p`` (0..1; 1 falls in the last): its rows, mean chance and
    share won (bins with no rows are left out)."""
    if p.shape != y.shape:
        raise SolverError(f"{p.shape[0]} chances against {y.shape[0]} outcomes")
    idx = np.minimum((p * bins).astype(np.int64), bins - 1)
    out = []
    for b in range(bins):
        m = idx == b
        n = int(m.sum())
        if n:
            out.append({"low": b / bins, "high": (b + 1) / bins, "rows": n,
                        "shown": float(p[m].mean()), "won": float(y[m].mean())})
    return out


def ece(p: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """The expected calibration error of chances ``p`` against outcomes ``y`` (0/1), in
    points, over ``bins`` equal-width bins.

    >>> ece(np.array([0.2, 0.2, 0.9, 0.9]), np.array([0, 1, 1, 1]))
    20.0
    """
    if len(p) == 0:
        return math.nan
    table = reliability(p, y, bins)
    return round(100.0 * sum(r["rows"] * abs(r["shown"] - r["won"]) for r in table) / len(p), 10)


def score_gap(s: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """The binned mean absolute gap of expected scores ``s`` against final scores ``y``,
    in points of score: ``bins`` equal-width bins over the scores a game can end with.

    >>> score_gap(np.array([-100.0, -100.0, 10.0]), np.array([-80, -100, 14]))
    8.0
    """
    if s.shape != y.shape:
        raise SolverError(f"{s.shape[0]} scores against {y.shape[0]} outcomes")
    if len(s) == 0:
        return math.nan
    width = (BEST_SCORE - WORST_SCORE) / bins
    idx = np.clip(((s - WORST_SCORE) / width).astype(np.int64), 0, bins - 1)
    gap = 0.0
    for b in np.unique(idx):
        m = idx == b
        gap += int(m.sum()) * abs(float(s[m].mean()) - float(y[m].mean()))
    return round(gap / len(s), 10)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """The mean negative log-likelihood of outcomes ``y`` under chances ``p`` (clipped
    to 1e-6..1-1e-6: a shown 0% of a won game costs about 13.8, not infinity)."""
    if len(p) == 0:
        return math.nan
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def _load(path: Path) -> dict[str, np.ndarray]:
    """The columns the report needs, from a Parquet file of decisions or a games file."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        t = pq.read_table(path)
        rows = t.to_pylist()
    else:
        from .selfplay import decision_rows, games_in

        rows = [r for g in games_in(path) for r in decision_rows(g)]
    if not rows:
        raise SolverError(f"{path} holds no decisions")
    return {"rows": np.array(rows, dtype=object),
            "p": np.array([r["win_chance"] for r in rows], np.float64),
            "y": np.array([r["won"] for r in rows], np.float64),
            "s": np.array([r["expected_score"] for r in rows], np.float64),
            "final": np.array([r["score"] for r in rows], np.float64),
            "phase": np.array([r["phase"] for r in rows]),
            "decision": np.array([r["decision"] for r in rows], np.int64),
            "sampled": np.array([r["samples"] > 0 for r in rows]),
            "exact": np.array([r["exact"] for r in rows]),
            "variant": np.array([r["variant"] for r in rows]),
            "seed": np.array([r["seed"] for r in rows], np.uint64)}


def _line(p: np.ndarray, y: np.ndarray, bins: int, **extra: Any) -> dict[str, Any]:
    return {"rows": len(p), "ece": ece(p, y, bins), "log_loss": log_loss(p, y),
            "mean_shown": float(p.mean()) if len(p) else math.nan,
            "won": float(y.mean()) if len(p) else math.nan, **extra,
            "reliability": reliability(p, y, bins)}


def _lines(p: np.ndarray, y: np.ndarray, cols: dict[str, np.ndarray], bins: int
           ) -> dict[str, dict[str, Any]]:
    out = {"all": _line(p, y, bins, sampled=float(cols["sampled"].mean()),
                        exact=float(cols["exact"].mean()))}
    for ph in PHASES:
        m = cols["phase"] == ph
        out[ph] = _line(p[m], y[m], bins, sampled=float(cols["sampled"][m].mean())
                        if m.any() else math.nan,
                        exact=float(cols["exact"][m].mean()) if m.any() else math.nan)
    first = cols["decision"] == 0
    out["first"] = _line(p[first], y[first], bins)
    return out


def _score_line(s: np.ndarray, y: np.ndarray, bins: int) -> dict[str, Any]:
    return {"rows": len(s), "mean_shown": float(s.mean()) if len(s) else math.nan,
            "mean_final": float(y.mean()) if len(s) else math.nan,
            "gap": score_gap(s, y, bins),
            "rmse": float(np.sqrt(np.mean((s - y) ** 2))) if len(s) else math.nan}


def _score_lines(s: np.ndarray, y: np.ndarray, cols: dict[str, np.ndarray], bins: int
                 ) -> dict[str, dict[str, Any]]:
    out = {"all": _score_line(s, y, bins)}
    for ph in PHASES:
        m = cols["phase"] == ph
        out[ph] = _score_line(s[m], y[m], bins)
    out["first"] = _score_line(s[cols["decision"] == 0], y[cols["decision"] == 0], bins)
    return out


def calibration_report(path: str | Path, bins: int = 10, model: str | Path | None = None,
                       shown: str | Path | None = None) -> dict[str, Any]:
    """The calibration of the search's chances in a decisions file (and of a learned value
    model's chances on the same decisions, given its JSON file, and of the chances a
    calibration file of :mod:`.shown` shows for them; with that file, also the expected
    scores, the search's and the shown, against the final scores)."""
    if not 1 <= bins <= MAX_BINS:
        raise SolverError(f"bins {bins} must be 1..{MAX_BINS}")
    path = Path(path)
    cols = _load(path)
    y = cols["y"]
    variants = sorted(set(cols["variant"].tolist()))
    seeds = cols["seed"]
    report: dict[str, Any] = {
        "file": str(path), "bins": bins, "variants": variants,
        "games": len(set(zip(cols["variant"].tolist(), seeds.tolist(), strict=True))),
        "seeds": [int(seeds.min()), int(seeds.max())],
        # games whose opening was explored: their first recorded decision is not the first
        "explored": len(set(zip(cols["variant"].tolist(), seeds.tolist(), strict=True))
                        - set(zip(cols["variant"][cols["decision"] == 0].tolist(),
                                  seeds[cols["decision"] == 0].tolist(), strict=True))),
        "shown": _lines(cols["p"], y, cols, bins),
    }
    if model is not None:
        from .features import features_of_row
        from .model import load_model

        m = load_model(model)
        x = np.stack([features_of_row(r, r["variant"]) for r in cols["rows"]])
        report["model"] = {"file": str(model), **{"lines": _lines(m.win(x), y, cols, bins)}}
    if shown is not None:
        from .features import features_of_row
        from .shown import load_shown

        cal = load_shown(shown)
        x = np.stack([features_of_row(r, r["variant"]) for r in cols["rows"]])
        unseen = np.array([r["unseen"] for r in cols["rows"]], np.int64)
        sampled, exact = cols["sampled"].astype(float), cols["exact"].astype(float)
        p = cal.chances(cols["p"], cal.model.win(x), unseen, sampled, exact)
        report["calibrated"] = {"file": str(shown), "lines": _lines(p, y, cols, bins)}
        s = cal.scores(cols["s"], cal.model.score(x), unseen, sampled, exact)
        report["score"] = {"search": _score_lines(cols["s"], cols["final"], cols, bins),
                           "shown": _score_lines(s, cols["final"], cols, bins),
                           "calibrated": cal.score_coefficients is not None}
    return report


def _table(title: str, lines: dict[str, dict[str, Any]], header: bool = True) -> list[str]:
    out = []
    if header:
        out += ["| value | decisions | ECE (points) | log-loss | mean shown | won |",
                "|---|---:|---:|---:|---:|---:|"]
    for key in ("all", *PHASES, "first"):
        r = lines[key]
        out.append(f"| {title}, {_PHASE_WORDS[key]} | {r['rows']:,} | {r['ece']:.2f} | "
                   f"{r['log_loss']:.3f} | {100 * r['mean_shown']:.1f}% | "
                   f"{100 * r['won']:.1f}% |")
    return out


def format_report(report: dict[str, Any]) -> str:
    """The report as a Markdown table (one line per phase, the first decision last)."""
    explored = report.get("explored", 0)
    head = (f"{report['file']}: {report['games']:,} games of "
            f"{', '.join(report['variants'])}"
            + (f" ({explored:,} opened with random moves)" if explored else "")
            + f", seeds {report['seeds'][0]}-{report['seeds'][1]}, "
            f"{report['bins']} equal-width bins")
    lines: Sequence[str] = _table("search", report["shown"])
    if "model" in report:
        lines = [*lines, *_table("learned", report["model"]["lines"], header=False)]
    if "calibrated" in report:
        lines = [*lines, *_table("shown", report["calibrated"]["lines"], header=False)]
    if "score" in report:
        lines = [*lines, "", *_score_table(report["score"])]
    return "\n".join([head, "", *lines])


def _score_table(score: dict[str, Any]) -> list[str]:
    out = ["| expected score | decisions | mean shown | mean final score | binned gap "
           "(points) | RMSE (points) |", "|---|---:|---:|---:|---:|---:|"]
    for title in ("search", "shown"):
        for key in ("all", *PHASES, "first"):
            r = score[title][key]
            out.append(f"| {title}, {_PHASE_WORDS[key]} | {r['rows']:,} | "
                       f"{r['mean_shown']:.1f} | {r['mean_final']:.1f} | {r['gap']:.2f} | "
                       f"{r['rmse']:.1f} |")
    return out


_PHASE_TITLES: Final = {"open": "more than 30 unseen", "middle": "13-30 unseen",
                        "end": "12 or fewer unseen"}


PLOT_MIN_ROWS = 50  # below this a bin's share won swings by more than 7 points


def plot_reliability(report: dict[str, Any]) -> Any:
    """A reliability figure of a report (:func:`calibration_report`): per phase, the
    share of games won against the chance shown, bin by bin, for the search's chances,
    and for the learned value's and the calibrated shown chances where the report has
    them; the diagonal is a calibrated forecast. A bin of fewer than ``PLOT_MIN_ROWS``
    decisions is left out: its share won is mostly noise. Needs matplotlib (the
    ``notebooks`` extra); returns the figure."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as err:
        raise SolverError(f"a reliability figure needs matplotlib: {err}") from None
    series = [("search's chance", report["shown"], "o--")]
    if "model" in report:
        series.append(("learned value", report["model"]["lines"], "^:"))
    if "calibrated" in report:
        series.append(("shown (calibrated)", report["calibrated"]["lines"], "s-"))
    fig, axes = plt.subplots(1, len(PHASES), figsize=(12, 4), sharey=True)
    for ax, ph in zip(axes, PHASES, strict=True):
        for name, lines, style in series:
            rel = [r for r in lines[ph]["reliability"] if r["rows"] >= PLOT_MIN_ROWS]
            ax.plot([100 * r["shown"] for r in rel], [100 * r["won"] for r in rel], style,
                    ms=4, label=f"{name}: ECE {lines[ph]['ece']:.1f}")
        ax.plot([0, 100], [0, 100], color="grey", lw=0.8)
        ax.set_xlim(0, 100)
        ax.set_ylim(0, 100)
        ax.set_xlabel("chance shown (%)")
        ax.set_title(f"{_PHASE_TITLES[ph]} ({lines[ph]['rows']:,} decisions)")
        ax.legend(fontsize=7, loc="upper left")
    axes[0].set_ylabel("games won (%)")
    fig.suptitle(f"Shown chance against outcome: {report['games']:,} games of "
                 f"{', '.join(report['variants'])}, seeds {report['seeds'][0]}-"
                 f"{report['seeds'][1]} (bins of {PLOT_MIN_ROWS} decisions or more)")
    fig.tight_layout()
    return fig
