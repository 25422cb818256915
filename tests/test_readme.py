"""The README a newcomer reads: short, the real commands, code that runs, links that resolve."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()

INSTALL_AND_RUN = ('python3 -m venv .venv && . .venv/bin/activate && pip install -e . && '
                   'scoundrel-solve --seed 42')
INSTALL_AND_TEST = ('python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[test]" '
                    '&& pytest')


def test_the_readme_stays_a_short_introduction() -> None:
    assert len(README.splitlines()) <= 200


def test_the_two_commands_come_first_and_ci_runs_the_test_one() -> None:
    first_block = README.split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in first_block.splitlines() if line and not line.startswith("#")]
    assert commands == [INSTALL_AND_RUN, INSTALL_AND_TEST]
    # CI makes its own venv, then must run the rest of the README's test command
    ci = (ROOT / ".ci" / "run").read_text()
    assert INSTALL_AND_TEST.split(" && ", 2)[2] in ci


def test_the_rules_are_linked_before_the_commands() -> None:
    assert README.index("docs/rules.md") < README.index(INSTALL_AND_RUN)


@pytest.mark.usefixtures("warm_solver")
def test_the_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_every_relative_link_points_to_a_file_in_the_repository() -> None:
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [link for link in links if "://" not in link]
    assert local
    missing = [link for link in local if not (ROOT / link).exists()]
    assert not missing, f"README links to missing files: {missing}"


def test_every_docs_page_is_linked_from_the_readme() -> None:
    pages = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))
    unlinked = [p for p in pages if f"]({p})" not in README]
    assert not unlinked, (f"add a row for {unlinked} to the README's table of pages "
                          "(\"Where to go next\")")
