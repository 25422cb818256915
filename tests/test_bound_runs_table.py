"""docs/bound.md's full-deck tables are what scripts/bound_runs_table.py reads from data/."""

from __future__ import annotations

from conftest import load_script


def test_the_pages_tables_are_the_files_summaries() -> None:
    script = load_script("bound_runs_table")
    text = script.PAGE.read_text()
    assert script.rewrite(text) == text, (
        "docs/bound.md's full-deck tables are stale: run python scripts/bound_runs_table.py")
