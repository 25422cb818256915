"""MkDocs hooks: the pages that live outside ``docs/`` join the site, with their links fixed.

- ``README.md`` becomes the home page, ``CHANGELOG.md`` the changelog and
  ``data/README.md`` the data page; their links into ``docs/`` are rewritten
  to the site's pages.
- The notebooks of ``notebooks/`` are added as they are (mkdocs-jupyter renders
  them with their committed outputs).
- The API reference is written here, one section per public module of both
  packages, found by walking ``src/``: a module that moves or appears is in
  the reference without anyone editing a page.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoundrel_core", "scoundrel_solver")

# (page in the site, file in the repository, link rewrites)
_OUTSIDE = (
    ("index.md", "README.md", (("](docs/", "]("), ("](CHANGELOG.md)", "](changelog.md)"),
                               ("](data/)", "](data.md)"), ("](notebooks/)", "](notebooks.md)"))),
    ("changelog.md", "CHANGELOG.md", (("](docs/)", "](index.md)"), ("](docs/", "]("))),
    ("data.md", "data/README.md", (("](../docs/", "]("),)),
)


def public_modules(package: str) -> list[str]:
    """Every module of ``package`` without a ``_`` in its dotted name's parts, sorted."""
    base = ROOT / "src" / package
    names = []
    for path in sorted(base.rglob("*.py")):
        parts = [package, *path.relative_to(base).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(p.startswith("_") for p in parts):
            continue
        names.append(".".join(parts))
    return names


def api_page(package: str) -> str:
    lines = [f"# `{package}`", "", f"::: {package}", "    options:", "      members: false", ""]
    for name in public_modules(package)[1:]:
        lines += [f"::: {name}", "    options:", "      heading_level: 2", ""]
    return "\n".join(lines)


def _rewrite(text: str, rules: tuple[tuple[str, str], ...]) -> str:
    for old, new in rules:
        text = text.replace(old, new)
    return text


@event_priority(100)  # before mkdocs-jupyter looks for notebooks among the files
def on_files(files: Files, config: Any) -> Files:
    for page, source, rules in _OUTSIDE:
        files.append(File.generated(config, page, content=_rewrite(
            (ROOT / source).read_text(), rules)))
    for package in PACKAGES:
        files.append(File.generated(config, f"api/{package}.md", content=api_page(package)))
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        files.append(File(f"notebooks/{notebook.name}", str(ROOT), config["site_dir"],
                          config["use_directory_urls"]))
    return files


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Keep the README's HTML comments (the findings markers) out of the way of the TOC."""
    return re.sub(r"<!-- findings-table: (start|end) -->\n", "", markdown)


# --- docstrings as Markdown ------------------------------------------------------------------

_ROLE = re.compile(r":(?:class|func|meth|data|attr|mod|exc|obj):`~?([^`]+)`")


def docstring_markdown(text: str) -> str:
    """A docstring written for the terminal (reST roles, doctests) as Markdown.

    Doctest blocks become ``pycon`` code blocks (else their ``[...]`` outputs
    read as links), and ``:class:`~a.b.C``` becomes ```C```.
    (tests/test_docs_site.py has examples.)
    """
    text = _ROLE.sub(lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`", text)
    out: list[str] = []
    in_block = False
    for line in text.split("\n"):
        if not in_block and line.lstrip().startswith(">>>"):
            out.append("```pycon")
            in_block = True
        elif in_block and not line.strip():
            out.append("```")
            in_block = False
        out.append(line)
    if in_block:
        out.append("```")
    return "\n".join(out)
