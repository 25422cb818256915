"""Which exact solver made a result: the package version plus a hash of its source.

The package version alone cannot tell two solver revisions apart (the census
held rows of three solvers, all "0.1.0"). The hash covers the source of every
module the exact solver's facade imports, followed through the project's own
packages (``scoundrel_solver`` and ``scoundrel_core``): the kernel, its table
and bound, the encoding and the rules and deals they use. It is found by
reading the import statements, so it follows the modules wherever they move.

>>> v = solver_version()
>>> v.startswith(__version__ + "+exact.") and len(v.split(".")[-1]) == 12
True
"""

from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path

from scoundrel_core import __version__

__all__ = ["exact_source_hash", "exact_source_modules", "solver_version"]

_ROOTS = ("scoundrel_solver", "scoundrel_core")
_FACADE = "scoundrel_solver.exact.solve"
# both packages sit side by side (src/ or site-packages); this file is in scoundrel_solver/
_ROOT_DIRS = {root: Path(__file__).resolve().parents[1] / root for root in _ROOTS}


def _module_file(name: str) -> Path | None:
    """The source file of a project module, found without importing anything."""
    parts = name.split(".")
    if parts[0] not in _ROOTS:
        return None
    base = _ROOT_DIRS[parts[0]].joinpath(*parts[1:])
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None  # an attribute imported by name, not a module


def _imports(name: str, path: Path) -> set[str]:
    """The project modules a module imports, by absolute name (its package's too)."""
    tree = ast.parse(path.read_bytes(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(base_parts)
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            found.add(target)
            # ``from . import _kernel`` names a module, not an attribute
            found.update(f"{target}.{alias.name}" for alias in node.names)
    # a module's packages run first on import: their __init__ counts too
    for mod in list(found):
        parts = mod.split(".")
        found.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return {m for m in found if m.split(".")[0] in _ROOTS}


@lru_cache(maxsize=1)
def exact_source_modules() -> tuple[str, ...]:
    """Every project module the exact solver's facade imports, directly or not, sorted."""
    seen: dict[str, Path] = {}
    todo = [_FACADE]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = _module_file(name)
        if path is None:
            continue
        seen[name] = path
        todo.extend(_imports(name, path) - seen.keys())
    return tuple(sorted(seen))


@lru_cache(maxsize=1)
def exact_source_hash() -> str:
    """SHA-256 (first 12 hex digits) over the names and sources of :func:`exact_source_modules`."""
    digest = hashlib.sha256()
    for name in exact_source_modules():
        path = _module_file(name)
        assert path is not None
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def solver_version() -> str:
    """``VERSION+exact.HASH``: recorded with each census result, it tells solver revisions apart."""
    return f"{__version__}+exact.{exact_source_hash()}"
