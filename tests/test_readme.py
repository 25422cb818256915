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


def test_skipped_browser_tests_are_named_in_one_line(tmp_path: Path) -> None:
    """Without a browser (here: without Playwright, hidden by an empty stand-in) the browser
    tests skip outside CI, and pytest prints one line saying so and how to run them; the
    README's test command names Chromium."""
    import os
    import subprocess
    import sys

    assert "chromium" in README.split("```bash\n", 1)[1].split("```", 1)[0].lower()
    (tmp_path / "playwright").mkdir()
    (tmp_path / "playwright" / "__init__.py").write_text("")  # no sync_api: import fails
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT / "src")])
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/test_web_browser.py"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 5), done.stdout[-2000:]  # 5: the module skipped whole
    lines = [x for x in done.stdout.splitlines() if x.startswith("browser tests skipped")]
    assert len(lines) == 1, done.stdout[-2000:]
    assert "install Chromium" in lines[0] and "pytest tests/test_web_browser.py" in lines[0]
