"""The documentation site builds strictly, and the API it documents has docstrings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import load_script

ROOT = Path(__file__).resolve().parents[1]


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    # strict (mkdocs.yml): a broken link, a page left out of the nav or an API
    # reference that does not resolve fails the build. Not --quiet: it silences the
    # warnings before strict mode counts them, and the build then passes anyway.
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "--site-dir", str(tmp_path / "site")], cwd=ROOT,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    problems = [line for line in done.stderr.splitlines() if not line.startswith("INFO")]
    assert done.returncode == 0, "\n".join(problems)[-4000:]
    assert not [line for line in problems if line.startswith("WARNING")], problems
    site = tmp_path / "site"
    assert (site / "index.html").is_file()
    for package in ("scoundrel_core", "scoundrel_solver"):
        page = (site / "api" / package / "index.html").read_text()
        assert f"{package}.rules" in page or f"{package}.solve" in page
    assert (site / "notebooks" / "01-tour" / "index.html").is_file()
    # offline: no page asks another site for fonts (mkdocs-material does unless font: false)
    for page in site.rglob("*.html"):
        text = page.read_text(errors="replace")
        assert "fonts.googleapis.com" not in text and "fonts.gstatic.com" not in text, page


def _undocumented(package: str) -> list[str]:
    import griffe

    missing: list[str] = []

    def walk(obj: griffe.Object) -> None:
        for name, member in obj.members.items():
            if member.is_alias or name.startswith("_") or not member.is_public:
                continue
            if not member.docstring and (member.is_module or member.is_class
                                         or member.is_function
                                         or (member.is_attribute and obj.is_module)):
                missing.append(member.path)
            if member.is_module or member.is_class:
                walk(member)  # type: ignore[arg-type]

    root = griffe.load(package, search_paths=[str(ROOT / "src")])
    assert isinstance(root, griffe.Object)  # a package, not an alias of one
    if not root.docstring:
        missing.append(package)
    walk(root)
    return missing


@pytest.mark.parametrize("package", ["scoundrel_core", "scoundrel_solver"])
def test_every_public_name_has_a_docstring(package: str) -> None:
    # public: not underscored, and in __all__ where a module has one
    assert not _undocumented(package)


def test_docstrings_become_markdown() -> None:
    hooks = load_script("mkdocs_hooks")
    text = "See :class:`~a.b.C` and :func:`f`.\n\n>>> f()\n[1, 2]\n\nDone."
    assert hooks.docstring_markdown(text) == (
        "See `C` and `f`.\n\n```pycon\n>>> f()\n[1, 2]\n```\n\nDone.")
    assert hooks.docstring_markdown("    >>> x\n    1") == "```pycon\n    >>> x\n    1\n```"


def test_the_reference_lists_every_public_module() -> None:
    hooks = load_script("mkdocs_hooks")
    core = hooks.public_modules("scoundrel_core")
    assert core[0] == "scoundrel_core" and "scoundrel_core.rules" in core
    assert not [m for m in core if "._" in m]
    page = hooks.api_page("scoundrel_solver")
    assert "::: scoundrel_solver.provenance.fingerprint" in page
