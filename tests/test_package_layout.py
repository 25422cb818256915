"""Where things live: the exact search in its own package, light modules that stay light,
and the commands' help."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def _loaded_after(statement: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``statement``."""
    probe = f"import sys\n{statement}\nprint('\\n'.join(sys.modules))\n"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(SRC)}, check=True).stdout
    return set(out.split())


@pytest.mark.parametrize("module", [
    "scoundrel_solver", "scoundrel_solver.fair", "scoundrel_solver.fair.protocol",
    "scoundrel_solver.fair.optimum", "scoundrel_solver.runs.jsonl", "scoundrel_solver.play.explain",
    "scoundrel_solver.coach", "scoundrel_solver.coach.words",
])
def test_light_modules_do_not_import_numba_or_a_search_kernel(module: str) -> None:
    loaded = _loaded_after(f"import {module}")
    heavy = {"numba", "scoundrel_solver.exact._kernel", "scoundrel_solver.fair._kernel"}
    assert not heavy & loaded, sorted(heavy & loaded)


def test_the_package_root_keeps_its_public_names() -> None:
    import scoundrel_solver
    from scoundrel_solver import SolverError, SolveResult, exact, solve

    assert solve is exact.solve and SolveResult is exact.SolveResult
    assert issubclass(SolverError, ValueError)
    assert solve(0).best_score == exact.solve(0).best_score
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = scoundrel_solver.nothing  # type: ignore[attr-defined]


def test_the_census_command_does_not_import_the_entry_points() -> None:
    """``cli/entry.py`` imports the commands, never the other way round (no cycle)."""
    assert "scoundrel_solver.cli.entry" not in _loaded_after("import scoundrel_solver.cli.census")


@pytest.mark.parametrize("command", ["run", "summary", "export", "import"])
def test_census_subcommands_describe_themselves(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from scoundrel_solver.cli.census import main

    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    lines = capsys.readouterr().out.split("\n\n")
    # usage, then a description paragraph, then the options
    assert len(lines) >= 3 and not lines[1].startswith(("options", "positional")), lines


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, module, names) of each import statement in a source file, by absolute name."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    package = parts[:-1]
    out: list[tuple[int, str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            out.append((node.lineno, module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out.extend((node.lineno, a.name, []) for a in node.names)
    return out


def test_no_module_imports_a_private_name_of_another() -> None:
    """Modules meet through public doors: no private name is imported from another
    module, and a private module (``_kernel``) only from inside its own package."""
    bad: list[str] = []
    files = sorted(SRC.rglob("*.py"))
    assert len(files) > 50
    for path in files:
        package = ".".join(path.relative_to(SRC).parts[:-1])
        for line, module, names in _imports(path):
            where = f"{path.relative_to(SRC)}:{line}"
            steps = module.split(".")
            for i, step in enumerate(steps):
                if _private(step) and ".".join(steps[:i]) != package:
                    bad.append(f"{where}: private module {module}")
                    break
            # ``from . import _kernel``: a private module of the importer's own package
            bad.extend(f"{where}: private name {module}.{n}" for n in names
                       if _private(n) and module != package)
    assert not bad, "\n".join(bad)


def test_argparse_lives_only_in_cli() -> None:
    """Commands parse their arguments in ``scoundrel_solver/cli/`` and nowhere else (the
    web server's included), so every one has the shared options, errors and exit codes."""
    cli = SRC / "scoundrel_solver" / "cli"
    users = {path.relative_to(SRC).as_posix() for path in SRC.rglob("*.py")
             if any(module == "argparse" for _, module, _ in _imports(path))}
    assert users and not {u for u in users if not u.startswith("scoundrel_solver/cli/")}, users
    assert (cli / "web.py").relative_to(SRC).as_posix() in users


def test_every_console_script_enters_through_cli_entry() -> None:
    """One door for every command: the entry points that end quietly on a closed pipe."""
    import tomllib

    from scoundrel_solver.cli import entry

    scripts = tomllib.loads((SRC.parent / "pyproject.toml").read_text())["project"]["scripts"]
    assert "scoundrel-web" in scripts
    for name, target in scripts.items():
        module, func = target.split(":")
        assert module == "scoundrel_solver.cli.entry" and callable(getattr(entry, func)), name


def test_the_import_check_reads_relative_imports() -> None:
    """The check above reads relative imports right (a guard against a check that
    passes because it reads nothing)."""
    pkg = SRC / "scoundrel_core" / "env" / "scalar.py"
    found = {(m, tuple(n)) for _, m, n in _imports(pkg)}
    assert ("scoundrel_core.rules", ("ROOM_SIZE", "apply_trusted", "legal_ids")) in found


def test_the_versions_are_read_without_loading_a_search() -> None:
    """The census stamps rows with the solver's version and results files with the
    agent's: reading them loads neither numba nor a kernel (the records are found by
    path, the packages' ``__init__`` not run)."""
    loaded = _loaded_after("from scoundrel_solver.census.store import solver_version; "
                           "from scoundrel_solver.fair.version import agent_version; "
                           "print(solver_version(), agent_version())")
    assert not {"numba", "scoundrel_solver.exact", "scoundrel_solver.fair.agent"} & loaded
