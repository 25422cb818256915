"""data/README.md records every published file: what it holds, its command, commit and date."""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess
from pathlib import Path

import pytest

from scoundrel_solver.provenance import read_provenance

DATA = Path(__file__).resolve().parents[1] / "data"
README = (DATA / "README.md").read_text()


def _sections() -> dict[str, str]:
    parts = re.split(r"^## (\S+)\n", README, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def _published() -> list[str]:
    """The files in data/ that git would publish (not the ignored ones)."""
    names = sorted(p.name for p in DATA.iterdir() if p.is_file() and p.name != "README.md")
    ignored = subprocess.run(["git", "check-ignore", *names], cwd=DATA, capture_output=True,
                             text=True).stdout.split()
    return [n for n in names if n not in ignored]


def test_every_file_in_data_has_a_section() -> None:
    missing = [name for name in _published() if name not in _sections()]
    assert not missing, f"data/README.md has no section for {missing}"


def test_no_section_names_a_file_that_is_gone() -> None:
    assert not [name for name in _sections() if not (DATA / name).is_file()]


@pytest.mark.parametrize("name", sorted(_sections()))
def test_each_section_says_command_commit_and_date(name: str) -> None:
    text = _sections()[name]
    assert "- Command: `" in text
    assert re.search(r"- Commit and date: [0-9a-f]{7,40}, 20\d\d-\d\d-\d\d", text), name


def _stamp(path: Path) -> dict[str, str]:
    """A file's record of the command that made it: a Parquet or CSV file's provenance
    stamp, or a model file's record of its fit (its ``fit``)."""
    if path.suffix in (".parquet", ".csv"):
        return read_provenance(path)
    if path.suffix == ".json":
        held = json.loads(path.read_text())
        fit = held.get("fit") if isinstance(held, dict) else None
        return fit if isinstance(fit, dict) and "command" in fit else {}
    return {}


@pytest.mark.parametrize("name", sorted(_sections()))
def test_a_stamped_file_was_made_by_the_command_its_section_names(name: str) -> None:
    stamp = _stamp(DATA / name)
    if not stamp:
        pytest.skip(f"{name} carries no provenance stamp (written before the stamps)")
    # "python scripts/x.py" or "scoundrel-census export"
    producer = " ".join(stamp["command"].split()[:2])
    assert producer in _sections()[name]


ROUNDS = sorted(p for p in (DATA / "experiments").iterdir() if p.is_dir())


def test_the_experiments_folder_holds_one_folder_per_round_each_listed() -> None:
    index = (DATA / "experiments" / "README.md").read_text()
    assert ROUNDS and all(p.name.startswith("round-") for p in ROUNDS)
    assert not [p.name for p in ROUNDS if f"]({p.name}/README.md)" not in index]
    assert not [p.name for p in (DATA / "experiments").iterdir() if p.is_file()
                and p.name != "README.md"], "records belong in a round's folder"


@pytest.mark.parametrize("round_dir", ROUNDS, ids=lambda p: p.name)
def test_a_round_says_its_question_arms_and_verdict_and_records_every_file(
        round_dir: Path) -> None:
    text = (round_dir / "README.md").read_text()
    for part in ("- Question: ", "- Arms", "- Verdict: "):
        assert part in text, f"{round_dir.name}/README.md has no {part.strip()!r}"
    files = re.findall(r"^### (\S+)\n", text, flags=re.M)
    # a heading may name a family of files by a pattern (``model-*.json``): each file is
    # named by a heading, and each heading names a file
    held = sorted(p.name for p in round_dir.iterdir() if p.name != "README.md")
    assert not [f for f in held if not any(fnmatch.fnmatchcase(f, h) for h in files)]
    assert not [h for h in files if not any(fnmatch.fnmatchcase(f, h) for f in held)]
    for name, body in zip(files, re.split(r"^### \S+\n", text, flags=re.M)[1:], strict=True):
        assert "- Command: `" in body and "- Commit and date: " in body, name
