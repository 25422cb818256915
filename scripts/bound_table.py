"""The table of docs/bound.md: the bound of small decks under three ``V``, against the fair optimum.

Each row is one deck, rule set and objective: the exact fair optimum
(``fair_optimum``), and ``upper_bound`` with ``V = 0`` (the perfect-information
value), with ``V`` the fair agent's leaf evaluation, and with ``V`` the exact
fair value of each information state. Run ``python scripts/bound_table.py`` to
rewrite the page; ``--check`` exits 1 if it is stale. The eight-card row takes
over a minute; ``tests/test_bound_table.py`` computes again only the smaller rows
(``table(max_cards=7)``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path

from readme_findings import refresh, rewrite
from scoundrel_core.info import InfoState
from scoundrel_solver.bound import upper_bound
from scoundrel_solver.fair.config import agent_config
from scoundrel_solver.fair.leaf import config_par, leaf_estimate
from scoundrel_solver.fair.optimum import fair_optimum

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "bound.md"
START = "<!-- bound-table: start -->"
END = "<!-- bound-table: end -->"


@dataclass(frozen=True)
class Row:
    """One deck under one rule set and objective."""

    deck: str
    variant: str
    weapon_rule: str
    objective: str

    @property
    def cards(self) -> int:
        return len(self.deck.split())


ROWS = (
    Row("3C KC 7S 8S 2D 5H", "classic", "strict", "win"),
    Row("3C KC 7S 8S 2D 5H", "classic", "strict", "score"),
    Row("8C 10C QC AS 5D 5H", "hard", "strict", "win"),
    Row("8C KC AC 3S 6D 2H", "classic", "equal", "score"),
    Row("3C JC JS KS 4D 9H 6S", "classic", "strict", "win"),
    Row("9C 9S QS KC 5D 8D 6H 3H", "classic", "strict", "score"),
)


def leaf_value(row: Row) -> Callable[[InfoState], float]:
    """The fair agent's leaf: its chance of winning (objective win) or its score estimate."""
    par = config_par(agent_config(row.variant, row.weapon_rule))
    pick = 1 if row.objective == "win" else 0

    def v(info: InfoState) -> float:
        pool = [*info.room, *info.unseen, *info.bottom]
        return leaf_estimate(pool, info.health, info.weapon_value, info.weapon_reach, par)[pick]

    return v


def exact_value(row: Row) -> Callable[[InfoState], float]:
    """The exact fair value of each information state (one memo for the whole deck)."""
    memo: dict[Hashable, tuple[float, float, float]] = {}
    if row.objective == "win":
        return lambda info: fair_optimum(info, memo=memo).win
    return lambda info: fair_optimum(info, memo=memo).score


def numbers(row: Row) -> tuple[float, float, float, float]:
    """(fair optimum, bound with V = 0, with V = leaf, with V = exact fair value)."""
    best = fair_optimum(row.deck, row.variant, row.weapon_rule)
    fair = best.win if row.objective == "win" else best.score

    def bound(v: Callable[[InfoState], float] | None) -> float:
        return upper_bound(row.deck, v, row.variant, row.weapon_rule, row.objective)

    return fair, bound(None), bound(leaf_value(row)), bound(exact_value(row))


def line(row: Row) -> str:
    """The table row of ``row``: win chances as percentages, scores to four decimals."""
    fmt = "{:.4%}" if row.objective == "win" else "{:.4f}"
    cells = [fmt.format(x).replace("%", " %") for x in numbers(row)]
    rules = f"{row.variant}/{row.weapon_rule}"
    return f"| `{row.deck}` | {row.cards} | {rules} | {row.objective} | " + " | ".join(cells) + " |"


HEADER = (
    "| deck | cards | rules | objective | fair optimum | bound, V = 0 (perfect information) "
    "| bound, V = agent's leaf | bound, V = exact fair value |\n"
    "|---|---:|---|---|---:|---:|---:|---:|"
)


def table(max_cards: int = 8) -> str:
    """The header and one line per row of at most ``max_cards`` cards."""
    return "\n".join([HEADER, *(line(r) for r in ROWS if r.cards <= max_cards)])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    p.add_argument("--page", type=Path, default=PAGE)
    args = p.parse_args(argv)
    new = rewrite(args.page.read_text(), table(), START, END)
    return refresh(args.page, new, "python scripts/bound_table.py", args.check)


if __name__ == "__main__":
    raise SystemExit(main())
