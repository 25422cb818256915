"""The README's findings table is generated from data/ and must match it."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import load_script

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_block_is_what_data_gives() -> None:
    findings = load_script("readme_findings")
    readme = (ROOT / "README.md").read_text()
    assert findings.rewrite(readme, findings.render()) == readme, (
        "the README's findings table is stale: run python scripts/readme_findings.py")


def test_the_census_page_table_is_what_data_gives() -> None:
    findings = load_script("readme_findings")
    page = (ROOT / "docs" / "census.md").read_text()
    table = findings.census_table()
    assert findings.rewrite(page, table, findings.CENSUS_START, findings.CENSUS_END) == page, (
        "docs/census.md's table is stale: run python scripts/readme_findings.py")
    assert table.count("\n") >= 7  # the header, the rule and the six rule sets


def test_the_fair_page_table_is_what_data_gives() -> None:
    findings = load_script("readme_findings")
    page = (ROOT / "docs" / "fair.md").read_text()
    table = findings.fair_table()
    assert findings.rewrite(page, table, findings.FAIR_START, findings.FAIR_END) == page, (
        "docs/fair.md's table is stale: run python scripts/readme_findings.py")
    # one row per variant and weapon rule, each naming the agent revision that played it
    rows = table.splitlines()[2:]
    assert len(rows) == 6
    assert all("+fair." in row.split(" | ")[1] for row in rows)


def test_the_fair_page_settings_are_the_agents() -> None:
    findings = load_script("readme_findings")
    page = (ROOT / "docs" / "fair.md").read_text()
    table = findings.settings_table()
    assert findings.rewrite(page, table, findings.SETTINGS_START,
                            findings.SETTINGS_END) == page, (
        "docs/fair.md's settings table is stale: run python scripts/readme_findings.py")
    assert len(table.splitlines()) == 2 + 6  # the header, the rule, every variant


def test_the_formatting_examples_hold() -> None:
    findings = load_script("readme_findings")
    assert doctest.testmod(findings).failed == 0


def test_a_table_from_hand_made_files(tmp_path: Path) -> None:
    findings = load_script("readme_findings")
    summary = [{"variant": v, "weapon_rule": "strict", "deals": 10, "proven": p, "winnable": 5,
                "winnable_share": 0.5, "winnable_ci95": [0.2366, 0.7634]}
               for v, p in (("hard", 10), ("classic", 9))]
    (tmp_path / "census-summary.json").write_text(json.dumps(summary))
    seeds = [0, 1, 2, 3, 7]
    won = [True, False, True, True, False]
    winnable = [True, True, True, True, False]
    pq.write_table(pa.table({"variant": ["classic"] * 5, "weapon_rule": ["strict"] * 5,
                             "seed": seeds, "won": won, "winnable": winnable,
                             "winnable_loss": [w and not x for w, x in zip(winnable, won,
                                                                           strict=True)],
                             "agent_version": ["0.2.0+fair.x"] * 5}),
                   tmp_path / "fair-games.parquet")
    lines = findings.render(tmp_path).splitlines()
    # 4 winnable deals, 1 of them lost (seed 1; seed 7 was lost but is not winnable)
    assert lines[2] == ("| classic/strict | 10 | 50.00% (23.66-76.34%), 1 unproven "
                        "| 60.0% (23.1-88.2%), 5 seeds in 0-7 | 25.0% (1 of 4) |")
    assert lines[3] == "| hard/strict | 10 | 50.00% (23.66-76.34%) | not measured | not measured |"
    # the revisions that played the games are docs/fair.md's business, not the README's
    assert len(lines) == 4 and "0.2.0+fair.x" not in "\n".join(lines)


def test_a_games_file_without_the_newer_columns_still_gives_a_table(tmp_path: Path) -> None:
    """Rows written before the winnable and agent_version columns: no loss rate, no revisions."""
    findings = load_script("readme_findings")
    summary = [{"variant": "classic", "weapon_rule": "strict", "deals": 10, "proven": 10,
                "winnable": 5, "winnable_share": 0.5, "winnable_ci95": [0.2366, 0.7634]}]
    (tmp_path / "census-summary.json").write_text(json.dumps(summary))
    pq.write_table(pa.table({"variant": ["classic"] * 2, "weapon_rule": ["strict"] * 2,
                             "seed": [0, 1], "won": [True, False]}),
                   tmp_path / "fair-games.parquet")
    lines = findings.render(tmp_path).splitlines()
    assert lines[2].endswith("| 50.0% (9.5-90.5%), seeds 0-1 | not measured |")
    assert len(lines) == 3


def test_rewrite_replaces_only_the_block() -> None:
    findings = load_script("readme_findings")
    text = f"a\n{findings.START}\nold\n{findings.END}\nb\n"
    assert findings.rewrite(text, "new") == f"a\n{findings.START}\nnew\n{findings.END}\nb\n"
    with pytest.raises(ValueError, match="no"):
        findings.rewrite("no markers", "new")


def test_refresh_writes_or_reports_a_stale_file(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    findings = load_script("readme_findings")
    page = tmp_path / "page.md"
    page.write_text("old\n")
    # a check writes nothing and says which command mends the page
    assert findings.refresh(page, "new\n", "python scripts/x.py", check=True) == 1
    assert page.read_text() == "old\n"
    assert "page.md is stale: run python scripts/x.py" in capsys.readouterr().err
    assert findings.refresh(page, "new\n", "python scripts/x.py", check=False) == 0
    assert page.read_text() == "new\n"
    assert findings.refresh(page, "new\n", "python scripts/x.py", check=True) == 0
