"""docs/bound.md's table is what scripts/bound_table.py computes.

The rows of up to seven cards are computed again here (seconds); the
eight-card row takes over a minute, so it is checked for its place and
form only: run ``python scripts/bound_table.py --check`` for all of it.
"""

from __future__ import annotations

from pathlib import Path

from conftest import load_script

ROOT = Path(__file__).resolve().parents[1]


def test_the_small_rows_of_the_page_are_what_the_script_computes() -> None:
    script = load_script("bound_table")
    page = (ROOT / "docs" / "bound.md").read_text()
    block = page.split(script.START)[1].split(script.END)[0].strip().splitlines()
    small = script.table(max_cards=7).splitlines()
    assert block[: len(small)] == small, (
        "docs/bound.md's table is stale: run python scripts/bound_table.py")
    assert len(block) == 2 + len(script.ROWS)
    for row, text in zip(script.ROWS, block[2:], strict=True):
        assert text.startswith(f"| `{row.deck}` | {row.cards} | {row.variant}/{row.weapon_rule} |")


def test_the_exact_value_closes_the_gap_the_leaf_leaves() -> None:
    # what the page says of its rows: V = exact gives the fair optimum, V = leaf and
    # V = 0 give the same number (the leaf is blind to what a draw moves)
    script = load_script("bound_table")
    for row in script.ROWS:
        if row.cards <= 6:
            fair, zero, leaf, exact = script.numbers(row)
            assert abs(exact - fair) < 1e-9 and abs(leaf - zero) < 1e-9 and zero >= fair - 1e-9
