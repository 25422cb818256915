"""docs/value.md's tables, from the decisions and the model in data/.

    python scripts/value_tables.py           # rewrite the blocks and the figure
    python scripts/value_tables.py --check   # exit 1 if a block is stale

Between ``<!-- calibration-table: start -->`` and ``<!-- calibration-table: end -->``:
``scoundrel-value calibration data/value-decisions-eval.parquet`` (the shown
chances of the held-out games against their outcomes). Between ``<!-- model-table:
start -->`` and ``<!-- model-table: end -->``: the same with ``--model
data/value-model.json`` (the learned value on the same decisions), and the model's
record of its fit. Between ``<!-- shown-table: start -->`` and ``<!-- shown-table:
end -->``: the same with ``--shown`` and the shipped calibration (the chances a player
is shown on the same decisions, and the expected scores, the search's and the shown,
against the games' final scores). Between ``<!-- shown-explored-table: start -->`` and
``<!-- shown-explored-table: end -->``: the shipped calibration on held-out games that
open with random moves (``data/value-decisions-explored-eval.parquet``). Between
``<!-- shown-variants-table: start -->`` and
``<!-- shown-variants-table: end -->``: the same for each other calibrated variant
(``OTHERS``), on its own held-out decisions
(``data/value-decisions-VARIANT-eval.parquet``) with its own calibration. The
README's line on the shown chance, between ``<!-- calibration-line: start -->`` and
``<!-- calibration-line: end -->``, comes from the same figures. The reliability
figure, ``docs/img/value-reliability.png``, is
:func:`~scoundrel_solver.fair.value.calibration.plot_reliability` of the same report
(written, not checked: its pixels are matplotlib's). ``tests/test_value_tables.py``
fails when a block differs from what this script writes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from scoundrel_solver.fair.config import SHOWN as SHOWN_VARIANTS
from scoundrel_solver.fair.value.calibration import calibration_report, format_report

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "value.md"
README = ROOT / "README.md"
FIGURE = ROOT / "docs" / "img" / "value-reliability.png"
EVAL = ROOT / "data" / "value-decisions-eval.parquet"
EXPLORED = ROOT / "data" / "value-decisions-explored-eval.parquet"
"""Held-out classic/strict games that open with random moves: a player's mistakes."""
MODEL = ROOT / "data" / "value-model.json"
SHOWN = ROOT / "src" / "scoundrel_solver" / "fair" / "value" / "shown-classic-strict.json"
OTHERS = tuple(v for v in SHOWN_VARIANTS if v != "classic/strict")
"""The other calibrated variants: each has its own held-out decisions in data/."""


def _slug(variant: str) -> str:
    return variant.replace("/", "-")


def other_eval(variant: str) -> Path:
    """The held-out decisions of a calibrated variant other than classic/strict."""
    return ROOT / "data" / f"value-decisions-{_slug(variant)}-eval.parquet"


def other_shown(variant: str) -> Path:
    return ROOT / "src" / "scoundrel_solver" / "fair" / "value" / f"shown-{_slug(variant)}.json"


def figure() -> None:
    """Write the reliability figure of the held-out decisions (search, learned, shown)."""
    from scoundrel_solver.fair.value.calibration import plot_reliability

    report = calibration_report(EVAL, bins=10, model=MODEL, shown=SHOWN)
    fig = plot_reliability(report)
    fig.savefig(FIGURE, dpi=90, metadata={"Software": None})


def blocks() -> dict[str, str]:
    """The text of each block, by its marker's name."""
    shown = calibration_report(EVAL, bins=10)
    shown["file"] = str(EVAL.relative_to(ROOT))  # the page names it from the repository
    out = {"calibration-table": "\n".join([
        "As `scoundrel-value calibration data/value-decisions-eval.parquet` prints it:",
        "", format_report(shown)])}
    if MODEL.exists():
        both = calibration_report(EVAL, bins=10, model=MODEL)
        both["file"] = shown["file"]
        from scoundrel_solver.fair.value.model import load_model

        record = load_model(MODEL).fit
        out["model-table"] = "\n".join([
            "The model of `data/value-model.json`, fitted by "
            f"`{record.get('command', '?')}` on {record['decisions']:,} decisions of "
            f"{record['games']:,} games (seeds {record['seeds']}, commit "
            f"{record.get('commit', '?')}), on the same held-out decisions, as "
            "`scoundrel-value calibration data/value-decisions-eval.parquet --model "
            "data/value-model.json` prints it (\"shown\": today's numbers; \"learned\": "
            "the model's):", "", format_report(both)])
    if SHOWN.exists():
        cal = calibration_report(EVAL, bins=10, shown=SHOWN)
        cal["file"] = shown["file"]
        from scoundrel_solver.fair.value.shown import load_shown

        fit = load_shown(SHOWN).fit
        name = str(SHOWN.relative_to(ROOT))
        out["shown-table"] = "\n".join([
            f"The calibration shipped as `{name}`, fitted by `{fit.get('command', '?')}` on "
            f"{fit['decisions']:,} decisions of {fit['games']:,} games (seeds {fit['seeds']}, "
            f"commit {fit.get('commit', '?')}), on the held-out decisions, as "
            "`scoundrel-value calibration data/value-decisions-eval.parquet --shown "
            f"{name}` prints it (\"search\": the search's numbers; \"shown\": what a "
            "player now reads; the chances against the outcomes, then the expected scores "
            "against the final scores):", "", format_report(cal)])
        shown_lines, search_lines = cal["calibrated"]["lines"], cal["shown"]
        out["calibration-line"] = (
            "- **the chance of winning shown** (classic/strict) is calibrated: an expected "
            f"calibration error of {shown_lines['all']['ece']:.1f} points over "
            f"{shown_lines['all']['rows']:,} decisions of {cal['games']:,} held-out games "
            f"(by phase {shown_lines['open']['ece']:.1f} / {shown_lines['middle']['ece']:.1f}"
            f" / {shown_lines['end']['ece']:.1f}: more than 30 unseen cards, 13-30, 12 or "
            f"fewer), against {search_lines['all']['ece']:.1f} for the search's own chance"
            + _score_clause(cal) +
            " ([docs/value.md](docs/value.md), `python scripts/value_tables.py`).")
    if SHOWN.exists() and EXPLORED.exists():
        explored = calibration_report(EXPLORED, bins=10, shown=SHOWN)
        explored["file"] = str(EXPLORED.relative_to(ROOT))
        out["shown-explored-table"] = _explored_table(explored)
        lines = explored["calibrated"]["lines"]
        out["calibration-line"] = out["calibration-line"].replace(" ([docs/value.md]", (
            f"; after a player's mistakes (held-out games opened with random moves, "
            f"{explored['explored']:,} of {explored['games']:,}) {lines['all']['ece']:.1f}, "
            f"and {lines['open']['ece']:.1f} while more than 30 cards are unseen"
            " ([docs/value.md]"), 1)
    others = [v for v in OTHERS if other_eval(v).exists() and other_shown(v).exists()]
    if others:
        reports = {v: _other_report(v) for v in others}  # each read once
        out["shown-variants-table"] = "\n\n".join(_other_table(v, c) for v, c in reports.items())
        if "calibration-line" in out:
            out["calibration-line"] = out["calibration-line"].replace(
                " ([docs/value.md]", _others_clause(reports) + " ([docs/value.md]", 1)
    return out


def _explored_table(cal: dict[str, Any]) -> str:
    """The shipped classic/strict calibration on the explored held-out games (``cal``)."""
    name = str(SHOWN.relative_to(ROOT))
    return "\n".join([
        f"As `scoundrel-value calibration {cal['file']} --shown {name}` prints it:", "",
        format_report(cal)])


def _other_report(variant: str) -> dict[str, Any]:
    cal = calibration_report(other_eval(variant), bins=10, shown=other_shown(variant))
    cal["file"] = str(other_eval(variant).relative_to(ROOT))
    return cal


def _other_table(variant: str, cal: dict[str, Any]) -> str:
    """One calibrated variant's held-out table (``cal``), with where its data and fit
    come from."""
    from scoundrel_solver.fair.value.shown import load_shown

    fit = load_shown(other_shown(variant)).fit
    name = str(other_shown(variant).relative_to(ROOT))
    return "\n".join([
        f"**{variant}**: the calibration shipped as `{name}`, fitted by "
        f"`{fit.get('command', '?')}` on {fit['decisions']:,} decisions of {fit['games']:,} "
        f"games (seeds {fit['seeds']}, commit {fit.get('commit', '?')}), on held-out "
        f"decisions, as `scoundrel-value calibration {cal['file']} --shown {name}` prints it:",
        "", format_report(cal)])


def _others_clause(reports: dict[str, dict[str, Any]]) -> str:
    """The README line's words on the other calibrated variants, from their reports."""
    parts = []
    for v, cal in reports.items():
        lines, search = cal["calibrated"]["lines"], cal["shown"]
        opened = (f", {cal['explored']:,} of them opened with random moves"
                  if cal.get("explored") else "")
        parts.append(f"{v} {lines['all']['ece']:.1f} over {cal['games']:,} held-out games"
                     f"{opened} (the search's own: {search['all']['ece']:.1f})")
    return "; under " + ", ".join(parts[:-1]) + " and " + parts[-1]


def _score_clause(cal: dict[str, Any]) -> str:
    """The README line's words on the expected score shown, if the calibration maps it."""
    score = cal.get("score")
    if not score or not score.get("calibrated"):
        return ""
    first, shown = score["search"]["first"], score["shown"]["first"]
    return ("; so is the expected score shown: at the first decision it averages "
            f"{shown['mean_shown']:.1f} against a mean final score of "
            f"{shown['mean_final']:.1f}, where the search's own says {first['mean_shown']:.1f}")


def rewrite(text: str, name: str, body: str) -> str:
    start, end = f"<!-- {name}: start -->", f"<!-- {name}: end -->"
    head, rest = text.split(start)
    _, tail = rest.split(end)
    return f"{head}{start}\n{body}\n{end}{tail}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    stale = []
    made = blocks()
    for page, names in ((PAGE, ["calibration-table", "model-table", "shown-table",
                                "shown-explored-table", "shown-variants-table"]),
                        (README, ["calibration-line"])):
        text = page.read_text()
        new = text
        for name in names:
            if name in made:
                new = rewrite(new, name, made[name])
        if new != text:
            stale.append(page)
            if not args.check:
                page.write_text(new)
    if not args.check:
        figure()
    if args.check and stale:
        print(f"{', '.join(map(str, stale))} stale: run python scripts/value_tables.py",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
