"""Run the notebooks, and check that their committed outputs are still what they compute.

    python scripts/notebooks.py run 01 03        # re-execute notebooks 01 and 03, save in place
    python scripts/notebooks.py run              # all of them
    python scripts/notebooks.py check [01 ...]   # re-execute in memory, compare, exit 1 if stale

Each notebook runs top to bottom in a fresh kernel with its own folder as the
working directory (as Jupyter runs it). ``check`` compares every code cell's
text outputs with the committed ones: printed text, the plain-text form of
tables and results, and for figures their titles (``notebooks/nbhelp.py``
makes a figure's plain-text form list them). Timings are masked: a number
followed by ``s``, ``ms`` or ``seconds``, and every decimal number in the
output of a cell tagged ``timing`` (whose runs of spaces count as one, as a
table's alignment follows its numbers' widths). Images are compared only by their
presence. ``tests/test_notebooks.py`` runs ``check`` on every notebook, so a
change that moves a number a notebook shows fails until that notebook is
run again and committed.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
TIMEOUT_S = 1800  # per cell

_TIME = re.compile(r"\b\d+(?:\.\d+)?(?:e-?\d+)? ?(?:s|ms|µs|seconds)\b")
_DECIMAL = re.compile(r"-?\b\d+\.\d+(?:e-?\d+)?\b")
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def notebook_paths(names: list[str] | None = None) -> list[Path]:
    """The notebooks named by number or name prefix (``01``, ``02-how``), or all, in order."""
    every = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
    if not names:
        return every
    chosen = []
    for name in names:
        found = [p for p in every if p.name.startswith(name)]
        if len(found) != 1:
            raise SystemExit(f"notebooks.py: {name!r} matches {len(found)} notebooks")
        chosen += found
    return chosen


def execute(path: Path) -> Any:
    """The notebook at ``path`` executed top to bottom in a fresh kernel (not saved)."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=TIMEOUT_S, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    return nb


def _text(output: dict[str, Any]) -> str:
    if output.get("output_type") == "stream":
        return f"[{output.get('name')}] {''.join(output.get('text', ''))}"
    if output.get("output_type") == "error":
        return f"[error] {output.get('ename')}: {output.get('evalue')}"
    data = output.get("data", {})
    plain = "".join(data.get("text/markdown", "")) or "".join(data.get("text/plain", ""))
    kinds = ",".join(sorted(k for k in data if k.startswith("image/")))
    return f"[{kinds or 'data'}] {plain}"


def _joined_streams(outputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive printed text of one stream as one output: how a kernel splits what a
    cell prints into messages depends on timing (one line can come in two pieces on a
    loaded machine), not on what was printed.

    >>> [o.get("text") for o in _joined_streams([
    ...     {"output_type": "stream", "name": "stdout", "text": "a"},
    ...     {"output_type": "stream", "name": "stdout", "text": "\\n"},
    ...     {"output_type": "display_data", "data": {}}])]
    ['a\\n', None]
    """
    out: list[dict[str, Any]] = []
    for o in outputs:
        last = out[-1] if out else {}
        if (o.get("output_type") == "stream" and last.get("output_type") == "stream"
                and last.get("name") == o.get("name")):
            out[-1] = {**out[-1], "text": "".join(out[-1].get("text", ""))
                       + "".join(o.get("text", ""))}
        else:
            out.append(dict(o))
    return out


def cell_texts(nb: Any) -> list[str]:
    """Per code cell, its text outputs joined, timings masked (see the module docstring)."""
    texts = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        # stderr carries progress bars and warnings, which vary from run to run
        outputs = [o for o in cell.get("outputs", [])
                   if not (o.get("output_type") == "stream" and o.get("name") == "stderr")]
        text = "\n".join(_text(o) for o in _joined_streams(outputs))
        text = _ADDRESS.sub("", _TIME.sub("<time>", text))
        if "timing" in cell.get("metadata", {}).get("tags", []):
            # the numbers vary, and with their widths a table's alignment
            text = re.sub(r"[ \t]+", " ", _DECIMAL.sub("<decimal>", text))
        texts.append(text)
    return texts


def differences(committed: Any, fresh: Any) -> list[str]:
    """What changed between the committed outputs and a fresh run, as unified diffs per cell."""
    old, new = cell_texts(committed), cell_texts(fresh)
    if len(old) != len(new):
        return [f"{len(old)} code cells committed, {len(new)} run"]
    out = []
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        if a != b:
            diff = difflib.unified_diff(a.splitlines(), b.splitlines(), "committed", "fresh",
                                        lineterm="", n=1)
            out.append(f"code cell {i + 1}:\n" + "\n".join(diff))
    return out


def main(argv: list[str] | None = None) -> int:
    import nbformat

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("action", choices=["run", "check"])
    p.add_argument("names", nargs="*", help="notebook numbers or name prefixes (default: all)")
    args = p.parse_args(argv)
    stale = 0
    for path in notebook_paths(args.names):
        fresh = execute(path)
        if args.action == "run":
            nbformat.write(fresh, path)
            print(f"{path.relative_to(ROOT)}: executed and saved")
            continue
        diffs = differences(nbformat.read(path, as_version=4), fresh)
        if diffs:
            stale += 1
            print(f"{path.relative_to(ROOT)}: outputs differ from the committed ones; run "
                  f"python scripts/notebooks.py run {path.name[:2]}\n" + "\n".join(diffs))
        else:
            print(f"{path.relative_to(ROOT)}: outputs as committed")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
