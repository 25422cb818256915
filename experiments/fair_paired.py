"""Two agents on the same deals: wins both ways, a sign test and a paired interval.

    python experiments/fair_paired.py data/fair-games.parquet fair-games.jsonl \
        --variant classic --weapon-rule strict

Each side is a Parquet file or a JSON-lines cache of ``scripts/fair_games.py``
(or of ``scripts/pimc_games.py`` or ``experiments/pimc_hybrids.py``: rows with seed and won); with
``--a-version`` / ``--b-version`` only the rows of that agent_version count,
and with ``--a-where KEY=VALUE`` / ``--b-where`` (repeatable) only the rows
whose KEY is VALUE (as JSON, else text): ``--b-where samples=8`` picks PIMC's
8-sample games out of a file that also holds 32-sample ones.
Only the seeds both sides played are compared. The output (one JSON object):
the deals paired, the wins of each side, ``a_only`` and ``b_only`` (deals one
side won and the other lost), the two-sided exact sign test on those, and
the difference in win rate (B minus A) with a 95% normal interval for paired
outcomes, and ``same_score_and_decisions``: the paired deals whose games end
with the same score after as many decisions (null if a side does not record
them), and ``a_cost`` and ``b_cost``: each side's median and mean CPU seconds of a
game over the deals paired, and its decisions and those over a CPU second where
the rows count them (``experiments/fair_ab.py``'s do; null if a row lacks ``cpu``).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scoundrel_solver.runs.jsonl import read_json_lines
from scoundrel_solver.runs.summary import Z95


def parse_where(items: list[str] | None) -> dict[str, Any]:
    """``KEY=VALUE`` filters; a VALUE that reads as JSON (8, true) is taken as such."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise SystemExit(f"fair_paired: --where {item!r} is not KEY=VALUE")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def load(path: Path, variant: str | None, rule: str | None,
         version: str | None, where: dict[str, Any] | None = None) -> dict[int, bool]:
    """seed -> won, for the rows of one side (a seed twice: the last row counts)."""
    return wins(load_rows(path, variant, rule, version, where))


def wins(rows: dict[int, dict[str, Any]]) -> dict[int, bool]:
    """seed -> won, of rows by seed."""
    return {s: bool(r["won"]) for s, r in rows.items()}


def same_games(a: dict[int, dict[str, Any]], b: dict[int, dict[str, Any]]) -> int | None:
    """How many deals both sides played end with the same score after as many decisions
    (two agents that play alike agree on every one); None if a side's rows lack them."""
    seeds = sorted(set(a) & set(b))
    if not all("score" in r and "decisions" in r for side in (a, b) for r in side.values()):
        return None
    return sum((a[s]["score"], a[s]["decisions"]) == (b[s]["score"], b[s]["decisions"])
               for s in seeds)


def cost(rows: dict[int, dict[str, Any]], seeds: list[int]) -> dict[str, Any] | None:
    """One side's cost over the paired deals: the median and mean CPU seconds of a game,
    and, where the rows count them, the decisions and how many took over a CPU second
    (under 1% of them: the decisions' 99th percentile is under a second); None if a row
    lacks ``cpu``."""
    if not seeds or not all("cpu" in rows[s] for s in seeds):
        return None
    cpu = sorted(float(rows[s]["cpu"]) for s in seeds)
    out: dict[str, Any] = {"cpu_median": round(statistics.median(cpu), 3),
                           "cpu_mean": round(statistics.fmean(cpu), 3)}
    if all("decisions" in rows[s] and "over_1s" in rows[s] for s in seeds):
        out["decisions"] = sum(int(rows[s]["decisions"]) for s in seeds)
        out["over_1s"] = sum(int(rows[s]["over_1s"]) for s in seeds)
    return out


def load_rows(path: Path, variant: str | None, rule: str | None,
              version: str | None, where: dict[str, Any] | None = None
              ) -> dict[int, dict[str, Any]]:
    """seed -> row, for the rows of one side (a seed twice: the last row counts)."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        # a key a JSON line lacked is null in Parquet: left out, so that r.get() defaults
        rows: list[dict[str, Any]] = [{k: v for k, v in r.items() if v is not None}
                                      for r in pq.read_table(path).to_pylist()]
    else:
        rows = [row for _, row in read_json_lines(path)]
    out: dict[int, dict[str, Any]] = {}
    for r in rows:
        if variant and r.get("variant", variant) != variant:
            continue
        if rule and r.get("weapon_rule", rule) != rule:
            continue
        if version and r.get("agent_version") != version:
            continue
        if any(r.get(k) != v for k, v in (where or {}).items()):
            continue
        out[int(r["seed"])] = r
    return out


def load_parts(paths: Iterable[Path]) -> dict[int, dict[str, Any]]:
    """seed -> row of an arm played as several processes, one JSON-lines file each. A file
    not yet written is skipped, so that a round's table prints while its arms run."""
    out: dict[int, dict[str, Any]] = {}
    for path in paths:
        if path.exists():
            out.update(load_rows(path, None, None, None))
    return out

def sign_test(a_only: int, b_only: int) -> float:
    """Two-sided exact binomial test of a_only against b_only at p = 1/2."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    # 1 << n, not 2**n: an int power mypy can type (2**n may be a float for negative n)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / (1 << n)
    return min(1.0, 2 * tail)


def paired(a: dict[int, bool], b: dict[int, bool]) -> dict[str, Any]:
    seeds = sorted(set(a) & set(b))
    n = len(seeds)
    a_only = sum(a[s] and not b[s] for s in seeds)
    b_only = sum(b[s] and not a[s] for s in seeds)
    diff = (b_only - a_only) / n if n else 0.0
    # the variance of the mean of per-deal differences (each -1, 0 or 1)
    var = ((a_only + b_only) / n - diff**2) / n if n else 0.0
    half = Z95 * math.sqrt(max(var, 0.0))
    return {
        "deals": n, "seeds": [seeds[0], seeds[-1]] if seeds else [],
        "a_wins": sum(a[s] for s in seeds), "b_wins": sum(b[s] for s in seeds),
        "a_only": a_only, "b_only": b_only, "sign_test_p": round(sign_test(a_only, b_only), 6),
        "b_minus_a": round(diff, 6), "b_minus_a_ci95": [round(diff - half, 6),
                                                        round(diff + half, 6)],
    }


HEADER = ("| deals | seeds | games | won: arm / shipped | only arm / only shipped "
          "| paired diff, points (95%) | p | CPU s a game, median: arm (shipped) "
          "| the arm's decisions over 1 s | games alike |")
"""The header line of a round's paired table (:func:`print_rows`) for an arm against the
agent as shipped: a first column naming the deals, then :func:`table_cells`'s columns."""


def table_cells(arm: dict[int, dict[str, Any]], shipped: dict[int, dict[str, Any]]
                ) -> list[str] | None:
    """The cells of one row of a round's paired table, an arm against the agent as shipped
    on the deals both played: seeds, deals, wins, wins only one side has, the difference
    in points with its 95% interval, the sign test, each side's median CPU seconds of a
    game (the shipped side's ``cpu`` or, from a Parquet record, ``cpu_seconds``), the
    arm's decisions over a CPU second, and the games played alike ("-" where a side does
    not count its decisions). None if no deal is shared."""
    seeds = sorted(set(arm) & set(shipped))
    if not seeds:
        return None

    def median_cpu(rows: dict[int, dict[str, Any]]) -> str:
        # fair_ab rows say "cpu", Parquet records "cpu_seconds"; scoundrel-eval's say neither
        cpu = [rows[s].get("cpu", rows[s].get("cpu_seconds")) for s in seeds]
        known = [float(c) for c in cpu if c is not None]
        return f"{statistics.median(known):.2f}" if len(known) == len(cpu) else "-"

    def over_1s(row: dict[str, Any]) -> int:
        if "over_1s" in row:
            return int(row["over_1s"])
        return sum(ms > 1000.0 for ms in row["decision_cpu_ms"])  # a Parquet record's

    p = paired(wins(shipped), wins(arm))
    lo, hi = (100 * x for x in p["b_minus_a_ci95"])
    same = same_games(arm, shipped)
    return [f"{seeds[0]}-{seeds[-1]}", str(p["deals"]), f"{p['b_wins']} / {p['a_wins']}",
            f"{p['b_only']} / {p['a_only']}",
            f"{100 * p['b_minus_a']:+.1f} ({lo:+.1f} to {hi:+.1f})",
            # a p-value under 0.01 keeps a digit that shows it is not zero
            p_cell(p["sign_test_p"]),
            f"{median_cpu(arm)} ({median_cpu(shipped)})",
            f"{sum(over_1s(arm[s]) for s in seeds):,} of "
            f"{sum(arm[s]['decisions'] for s in seeds):,}",
            "-" if same is None else f"{same:,}"]


def p_cell(p: float) -> str:
    """A sign test's p as a table shows it: two decimals, three below 0.01, and a bound
    below 0.001 (three decimals would print 0.000, a p no test gives)."""
    if p < 0.001:
        return "< 0.001"
    return f"{p:.{3 if p < 0.01 else 2}f}"


def print_rows(header: str,
               rows: list[tuple[str, dict[int, dict[str, Any]], dict[int, dict[str, Any]]]]
               ) -> None:
    """Print a round's paired table: its ``header`` line (a first column naming the deals,
    then :func:`table_cells`'s), then one line per (deals, arm, shipped) sharing a deal."""
    print(header)
    print("|---|---|---:|---|---|---|---:|---|---|---:|")
    for name, arm, shipped in rows:
        cells = table_cells(arm, shipped)
        if cells is not None:
            print(f"| {name} | " + " | ".join(cells) + " |")


Rows = dict[int, dict[str, Any]]
"""seed -> row: one side's games (:func:`load_rows`, :func:`load_parts`)."""


def halves(arm: Rows, shipped: Rows, split: int) -> list[tuple[str, Rows, Rows]]:
    """The rows of :func:`print_rows` for an arm played on seeds below ``split`` and from
    it (each half of the deals, then both)."""
    low = {s: r for s, r in arm.items() if s < split}
    high = {s: r for s, r in arm.items() if s >= split}
    return [("first half", low, shipped), ("second half", high, shipped), ("both", arm, shipped)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("a", type=Path)
    p.add_argument("b", type=Path)
    p.add_argument("--variant", default="classic")
    p.add_argument("--weapon-rule", default="strict")
    p.add_argument("--a-version")
    p.add_argument("--b-version")
    p.add_argument("--a-where", action="append", metavar="KEY=VALUE")
    p.add_argument("--b-where", action="append", metavar="KEY=VALUE")
    args = p.parse_args(argv)
    a = load_rows(args.a, args.variant, args.weapon_rule, args.a_version,
                  parse_where(args.a_where))
    b = load_rows(args.b, args.variant, args.weapon_rule, args.b_version,
                  parse_where(args.b_where))
    out = paired(wins(a), wins(b))
    out["same_score_and_decisions"] = same_games(a, b)
    seeds = sorted(set(a) & set(b))
    out["a_cost"], out["b_cost"] = cost(a, seeds), cost(b, seeds)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
