"""docs/value.md's tables are what scripts/value_tables.py computes from data/."""

from __future__ import annotations

import pytest

from conftest import load_script


def test_the_value_page_matches_its_data() -> None:
    pytest.importorskip("pyarrow")
    tables = load_script("value_tables")
    if not tables.EVAL.exists():
        pytest.skip("no data/value-decisions-eval.parquet yet")
    assert tables.main(["--check"]) == 0, "run python scripts/value_tables.py"
