"""docs/layout.md is generated from the docstrings and the folders' READMEs, and must match them."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from conftest import load_script

ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_page_is_what_the_tree_gives() -> None:
    layout = load_script("layout_doc")
    page = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    assert layout.render() == page, (
        "docs/layout.md is stale: run python scripts/layout_doc.py")


def test_every_module_of_both_packages_is_on_the_page() -> None:
    page = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    for package in ("scoundrel_core", "scoundrel_solver"):
        assert f"## `src/{package}/`" in page
        for path in (ROOT / "src" / package).rglob("*.py"):
            name = path.parent.name + "/" if path.name == "__init__.py" else path.stem
            if path.parent.name == package and path.name == "__init__.py":
                continue
            assert f"- `{name}`" in page, f"{path} is not on docs/layout.md"


def test_the_formatting_examples_hold() -> None:
    layout = load_script("layout_doc")
    assert doctest.testmod(layout).failed == 0


def _tree(root: Path) -> None:
    """A small repository: one package with a subpackage, a README'd folder and a bare one."""
    pkg = root / "src" / "mypkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text('"""mypkg: the whole of it.\n\nMore text."""\n')
    (pkg / "alpha.py").write_text('"""Alpha does one thing. Then another."""\n')
    (pkg / "nodoc.py").write_text("x = 1\n")
    (pkg / "sub" / "__init__.py").write_text('"""The subpackage, with a\nwrapped line."""\n')
    (pkg / "sub" / "beta.py").write_text('"""Beta: a :class:`~mypkg.alpha.Thing`."""\n')
    (root / "docs").mkdir()
    (root / "docs" / "page.md").write_text("# A page\n\ntext\n")
    (root / "scripts").mkdir()
    (root / "scripts" / "README.md").write_text("# scripts/\n\nTools that write things.\n")
    (root / "scripts" / "make.py").write_text('"""Make the thing."""\n')
    (root / "tests").mkdir()


def test_a_page_from_a_hand_made_tree(tmp_path: Path) -> None:
    layout = load_script("layout_doc")
    _tree(tmp_path)
    page = layout.render(tmp_path)
    body = page.split("## `src/mypkg/`\n", 1)[1].split("\n## ", 1)[0]
    assert body.strip().splitlines() == [
        "The whole of it.",
        "",
        "- `alpha`: Alpha does one thing.",
        "- `nodoc`: (no docstring)",
        "- `sub/`: The subpackage, with a wrapped line.",
        "    - `beta`: Beta: a `Thing`.",
    ]
    assert "- `docs/`: " + layout.FOLDERS["docs"] in page  # no README: the script's own line
    assert "    - `page.md`: A page" in page
    assert "- `scripts/`: Tools that write things." in page  # the README's first sentence
    assert "    - `make.py`: Make the thing." in page
    assert "- `tests/`: " + layout.FOLDERS["tests"] in page
    assert "examples/" not in page  # a folder the tree does not have is left out
    assert page.endswith(layout.TAIL)


def test_check_reports_a_stale_page_with_a_diff(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    layout = load_script("layout_doc")
    _tree(tmp_path)
    assert layout.main(["--root", str(tmp_path)]) == 0  # written
    assert layout.main(["--root", str(tmp_path), "--check"]) == 0
    (tmp_path / "src" / "mypkg" / "gamma.py").write_text('"""Gamma, new."""\n')
    capsys.readouterr()
    assert layout.main(["--root", str(tmp_path), "--check"]) == 1
    out = capsys.readouterr()
    assert "+- `gamma`: Gamma, new." in out.out
    assert "stale" in out.err
    assert "gamma" not in (tmp_path / "docs" / "layout.md").read_text()  # --check writes nothing
