"""scoundrel-web's command line: its options, its one-line errors and the optional extra.

The server itself is driven by tests/test_web_browser.py; here nothing starts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scoundrel_solver.cli.web import main

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.mark.parametrize(("argv", "needle"), [
    (["--port", "70000"], "port 70000 is not in 0 to 65535"),
    (["--port", "http"], "'http' is not a port"),
    (["--port", "-1"], "port -1 is not in 0 to 65535"),
    (["--workers", "0"], "--workers: '0' is not a positive integer"),
    (["--queue", "many"], "--queue: 'many' is not a positive integer"),
    (["--max-seconds", "0"], "--max-seconds: '0' is not a positive number"),
    (["--max-seconds", "inf"], "--max-seconds: 'inf' is not a finite number"),
    (["--max-seconds", "nan"], "--max-seconds: 'nan' is not a positive number"),
    (["8000"], "unrecognized arguments: 8000"),
])
def test_bad_options_end_with_one_line_and_exit_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1, err
    assert err.startswith("scoundrel-web: error: argument" if argv[0].startswith("--")
                          else "scoundrel-web: error: ") and needle in err, err


@pytest.mark.parametrize("missing", ["uvicorn", "starlette"])
def test_without_the_web_extra_it_says_how_to_install_it(missing: str) -> None:
    # a fresh interpreter in which the package cannot be imported, as if not installed
    # (in this one, other tests have imported it and its submodules already)
    probe = (f"import sys\nsys.modules[{missing!r}] = None\n"
             "from scoundrel_solver.cli.web import main\n"
             "raise SystemExit(main(['--port', '0']))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    err = done.stderr
    assert len(err.splitlines()) == 1, err
    assert err.startswith("scoundrel-web: error: the web extra is not installed (")
    assert missing in err and "pip install 'scoundrel-solver[web]'" in err


def test_the_options_are_read_without_the_web_extra() -> None:
    """Parsing (and --help, --version) loads neither the server nor the app."""
    probe = ("import sys\nimport scoundrel_solver.cli.web\n"
             "print(sorted({'starlette', 'uvicorn', 'jinja2', 'scoundrel_solver.web'}"
             " & set(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(SRC)}, check=True).stdout
    assert out.strip() == "[]"


def test_help_lists_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--workers", "--max-seconds", "--queue", "--data",
                   "--open", "--access-log", "--version"):
        assert option in out, option
