"""The README's findings table and the tables of docs/census.md and docs/fair.md, from data/.

    python scripts/readme_findings.py           # rewrite the three blocks
    python scripts/readme_findings.py --check   # exit 1 if any is stale

docs/census.md's table, between ``<!-- census-table: start -->`` and
``<!-- census-table: end -->``, is ``scoundrel-census summary``'s table of
``data/census-summary.json``. docs/fair.md's table of today's numbers, between
``<!-- fair-table: start -->`` and ``<!-- fair-table: end -->``, is what
``python scripts/fair_games.py --table data/fair-games.parquet`` prints: per
variant, the agent revision that played its games; its table of the agent's
settings, between ``<!-- agent-settings: start -->`` and ``<!-- agent-settings:
end -->``, is ``scoundrel_solver.fair.AGENT_CONFIGS``.

The table sits between ``<!-- findings-table: start -->`` and
``<!-- findings-table: end -->``. Its columns come from two files:

- ``data/census-summary.json`` (``scoundrel-census summary --json`` of the
  whole census store): deals solved exactly and the winnable share with its
  95% interval, per variant and weapon rule;
- ``data/fair-games.parquet`` (``scripts/fair_games.py``): the fair agent's
  games, won or not, per variant, with a Wilson 95% interval and the seeds
  played; the winnable-loss rate (of the deals the census proves winnable,
  the share the agent lost: its ``winnable`` and ``winnable_loss`` columns).
  The agent revisions that played them are in docs/fair.md's table.

``tests/test_readme_findings.py`` fails when a block differs from what this
script writes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scoundrel_solver.runs.summary import wilson

ROOT = Path(__file__).resolve().parents[1]
START = "<!-- findings-table: start -->"
END = "<!-- findings-table: end -->"
CENSUS_START = "<!-- census-table: start -->"
CENSUS_END = "<!-- census-table: end -->"
SETTINGS_START = "<!-- agent-settings: start -->"
SETTINGS_END = "<!-- agent-settings: end -->"
FAIR_START = "<!-- fair-table: start -->"
FAIR_END = "<!-- fair-table: end -->"
ORDER = [("classic", "strict"), ("classic", "equal"), ("hard", "strict"), ("hard", "equal"),
         ("easy", "strict"), ("easy", "equal")]


def percent(share: float, low: float, high: float, decimals: int) -> str:
    """``share`` and its interval in percent, with enough decimals to tell them apart.

    A low end of 99.996% is not written as 100.00%, nor 0.04% as 0.0%:
    decimals are added (up to three more) until each end that differs from the
    share shows differently, and a share above zero shows above zero.

    >>> percent(0.98940, 0.98874, 0.99002, 2)
    '98.94% (98.87-99.00%)'
    >>> percent(1.0, 0.99996, 1.0, 2)
    '100% (99.996-100%)'
    >>> percent(0.0004, 0.0001, 0.0012, 1)
    '0.04% (0.01-0.12%)'
    """
    def fmt(x: float, d: int) -> str:
        return "100" if x == 1 else "0" if x == 0 else f"{100 * x:.{d}f}"

    def hidden(d: int) -> bool:
        shown = round(100 * share, d)
        return (any(e != share and round(100 * e, d) == shown for e in (low, high))
                or (share > 0 and shown == 0))

    d = decimals
    while d < decimals + 3 and hidden(d):
        d += 1
    return f"{fmt(share, d)}% ({fmt(low, d)}-{fmt(high, d)}%)"


def seeds_text(seeds: list[int]) -> str:
    """``seeds 0-9999`` for a run of consecutive seeds, else how many and their span."""
    lo, hi = min(seeds), max(seeds)
    if len(set(seeds)) == hi - lo + 1:
        return f"seeds {lo}-{hi}"
    return f"{len(set(seeds)):,} seeds in {lo}-{hi}"


def census_rows(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    return {(s["variant"], s["weapon_rule"]): s for s in json.loads(path.read_text())}


@dataclass
class FairRow:
    """One variant's fair games: wins, seeds, and the census-winnable deals lost."""

    wins: int = 0
    seeds: list[int] = field(default_factory=list)
    winnable: int = 0  # deals the census proves winnable (0: no winnable column)
    winnable_lost: int = 0  # of those, the ones the agent lost

    @property
    def games(self) -> int:
        return len(self.seeds)


def fair_rows(path: Path) -> dict[tuple[str, str], FairRow]:
    """Per (variant, weapon rule): the fair agent's games in ``path``."""
    import pyarrow.parquet as pq

    names = set(pq.read_schema(path).names)
    cols = ["variant", "weapon_rule", "seed", "won"]
    cols += [c for c in ("winnable", "winnable_loss") if c in names]
    table = pq.read_table(path, columns=cols).to_pydict()
    n = len(table["seed"])
    winnable = table.get("winnable", [None] * n)
    lost = table.get("winnable_loss", [None] * n)
    out: dict[tuple[str, str], FairRow] = {}
    for i in range(n):
        r = out.setdefault((table["variant"][i], table["weapon_rule"][i]), FairRow())
        r.seeds.append(table["seed"][i])
        r.wins += bool(table["won"][i])
        r.winnable += bool(winnable[i])
        r.winnable_lost += bool(lost[i])
    return out


def render(data: Path = ROOT / "data") -> str:
    """The findings table, as Markdown, from the files in ``data``."""
    census = census_rows(data / "census-summary.json")
    fair = fair_rows(data / "fair-games.parquet")
    lines = [
        "| variant | deals solved exactly | winnable with perfect information (95% CI) "
        "| won by the fair agent, no peeking (95% CI) | winnable deals the fair agent lost |",
        "|---|---:|---|---|---|",
    ]
    keys = [k for k in ORDER if k in census] + sorted(set(census) - set(ORDER))
    for key in keys:
        s = census[key]
        low, high = s["winnable_ci95"]
        perfect = percent(float(s["winnable_share"]), low, high, 2)
        if s["proven"] != s["deals"]:
            perfect += f", {s['deals'] - s['proven']:,} unproven"
        won = lost = "not measured"
        if key in fair:
            r = fair[key]
            lo, hi = wilson(r.wins, r.games)
            won = f"{percent(r.wins / r.games, lo, hi, 1)}, {seeds_text(r.seeds)}"
            if r.winnable:
                share = 100 * r.winnable_lost / r.winnable
                lost = f"{share:.1f}% ({r.winnable_lost:,} of {r.winnable:,})"
        lines.append(f"| {key[0]}/{key[1]} | {s['deals']:,} | {perfect} | {won} | {lost} |")
    return "\n".join(lines)


def census_table(data: Path = ROOT / "data") -> str:
    """``scoundrel-census summary``'s Markdown table of ``data/census-summary.json``."""
    from scoundrel_solver.census.summary import format_table

    return format_table(json.loads((data / "census-summary.json").read_text()))


def fair_table(data: Path = ROOT / "data") -> str:
    """``scripts/fair_games.py --table``'s Markdown table of ``data/fair-games.parquet``."""
    import importlib.util

    # fair_games.py is a script beside this one, not a module of the package
    spec = importlib.util.spec_from_file_location("fair_games", Path(__file__).with_name(
        "fair_games.py"))
    assert spec is not None and spec.loader is not None
    fair_games = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fair_games)
    return "\n".join(fair_games.table(data / "fair-games.parquet"))


def _count(n: float, unit: str) -> str:
    """``n`` of ``unit``, "1 win" or "2 wins"."""
    return f"{n:g} {unit}" + ("" if n == 1 else "s")


def settings_table() -> str:
    """The fair agent's settings per variant, from ``scoundrel_solver.fair.AGENT_CONFIGS``."""
    from scoundrel_solver.fair.config import AGENT_CONFIGS

    rows = ["| variant | win bonus | deepens at or below | node budget | endgame | win model "
            "| shown chance |", "|---|---:|---|---:|---|---|---|"]
    for variant, c in AGENT_CONFIGS.items():
        race = ""
        if c.endgame_cap > c.endgame_samples:  # the race: more orders where the choice is close
            scored = ""
            if c.endgame_scored > c.endgame_samples:
                scored = f"; ties of wins broken on up to {c.endgame_scored}"
                if math.isfinite(c.endgame_score_margin):
                    scored += f", raced within {_count(c.endgame_score_margin, 'point')} an order"
            race = (f" (up to {c.endgame_cap} while actions are within "
                    f"{_count(c.endgame_margin, 'win')}{scored})")
        endgame = (f"{c.endgame_samples} sampled orders{race}, from {c.endgame} unseen cards"
                   if c.endgame else "none")
        shown = f"calibrated ({c.shown})" if c.shown else "the search's"
        rows.append(f"| {variant} | {c.win_bonus:g} | {c.deepen_at} unseen cards | "
                    f"{c.node_budget:,} | {endgame} | {c.win_model} | {shown} |")
    return "\n".join(rows)


def rewrite(text: str, table: str, start: str = START, end: str = END) -> str:
    """``text`` with what lies between the markers replaced by ``table``."""
    head, found_start, rest = text.partition(start)
    _, found_end, tail = rest.partition(end)
    if not found_start or not found_end:
        raise ValueError(f"no {start} ... {end} block")
    return f"{head}{start}\n{table}\n{end}{tail}"


def refresh(path: Path, new: str, command: str, check: bool) -> int:
    """Write ``new`` over ``path``; with ``check``, write nothing and return 1 (saying
    so, with the ``command`` that rewrites it) if the file differs from ``new``."""
    if not check:
        path.write_text(new)
        return 0
    if new == path.read_text():
        return 0
    print(f"{path.name} is stale: run {command}", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="exit 1 if a table is stale")
    p.add_argument("--readme", type=Path, default=ROOT / "README.md")
    p.add_argument("--census-page", type=Path, default=ROOT / "docs" / "census.md")
    p.add_argument("--fair-page", type=Path, default=ROOT / "docs" / "fair.md")
    p.add_argument("--data", type=Path, default=ROOT / "data")
    args = p.parse_args(argv)
    stale = 0
    for path, table, start, end in (
            (args.readme, render(args.data), START, END),
            (args.census_page, census_table(args.data), CENSUS_START, CENSUS_END),
            (args.fair_page, fair_table(args.data), FAIR_START, FAIR_END),
            (args.fair_page, settings_table(), SETTINGS_START, SETTINGS_END)):
        old = path.read_text()
        new = rewrite(old, table, start, end)
        if new == old:
            continue
        if args.check:
            print(f"{path}: its table is stale; run python scripts/readme_findings.py",
                  file=sys.stderr)
            stale += 1
        else:
            path.write_text(new)
            print(f"{path}: table rewritten")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
