"""docs/rules.md stays true: its examples run, and the code cites files that exist."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"


def test_every_example_of_the_rules_runs() -> None:
    result = doctest.testfile(
        str(RULES), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.failed == 0
    # Every worked example carries code, so none of them is prose only.
    blocks = re.findall(r"```python\n(.*?)```", RULES.read_text(encoding="utf-8"), re.S)
    assert blocks and all(">>> " in b for b in blocks)
    assert result.attempted >= 30


def test_documents_cited_in_the_code_exist() -> None:
    """Every ``*.md`` a module or test names is a file of the repository."""
    cited: set[str] = set()
    for folder in ("src", "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            cited |= set(re.findall(r"\b(?:docs/[\w/-]+|[A-Z][A-Z-]+)\.md\b", text))
    missing = sorted(c for c in cited if not (ROOT / c).exists())
    assert not missing, missing
