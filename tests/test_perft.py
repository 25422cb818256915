"""Golden counts, perft-style: lines of play and positions to depth N from fixed deals.

``tests/data/perft.json`` holds, for seeds 0, 1 and 42 and the variants
classic, easy and hard (strict weapon rule) and classic/equal, the number of
legal action sequences of each length 1..N from the opening and the number of
distinct positions they reach. The numbers were produced by both twins (the
packed fast path and ``scoundrel_core.reference``) and checked equal; the test
recomputes them with the fast path. Any change to the rules, the deal or state
equality shows up here as a changed number.

Regenerate (after a deliberate rule change) with::

    python tests/test_perft.py      # from the repository root, scoundrel installed

Convention: a line that ends the game before depth d counts as one line of
length d (it stays a leaf at its end), and its final position is one of the
positions at depth d.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import scoundrel_core as sc
from scoundrel_core.reference import ref_apply, ref_legal_actions, ref_new_game, to_state

DATA = Path(__file__).parent / "data" / "perft.json"
SEEDS = (0, 1, 42)
VARIANTS = (("classic", "strict"), ("easy", "strict"), ("hard", "strict"), ("classic", "equal"))
DEPTH = 8
# The reference is walked line by line, which is slow; in the test it only
# checks the shallow end of each table.
REFERENCE_DEPTH = 4

CONVENTION = (
    "lines[d-1] = number of legal action sequences of length d from the opening "
    "(State of new_game(seed=seed, variant=variant, weapon_rule=weapon_rule)); "
    "a game that ends before depth d counts once, as a leaf at its end. "
    "distinct[d-1] = number of distinct positions (State values) at those leaves. "
    "room = the opening room, so that a changed deal is told apart from a changed rule. "
    "Computed by the fast path (merging equal positions and walking every line) and by "
    "scoundrel_core.reference (walking every line), all three equal."
)


def perft(start: sc.State, depth: int) -> tuple[list[int], list[int]]:
    """Lines and distinct positions at each depth 1..depth, on the fast path.

    Lines that reach the same position are merged and carried as a count, so
    the work grows with the number of positions, not of lines.
    """
    frontier: dict[sc.State, int] = {start: 1}
    lines: list[int] = []
    distinct: list[int] = []
    for _ in range(depth):
        deeper: dict[sc.State, int] = {}
        for s, n in frontier.items():
            if s.is_over:
                deeper[s] = deeper.get(s, 0) + n
                continue
            for a in sc.legal_actions(s):
                child = sc.apply(s, a)
                deeper[child] = deeper.get(child, 0) + n
        frontier = deeper
        lines.append(sum(frontier.values()))
        distinct.append(len(frontier))
    return lines, distinct


def perft_by_lines(
    start: Any,
    depth: int,
    actions: Callable[[Any], list[int]],
    step: Callable[[Any, int], Any],
    position: Callable[[Any], sc.State],
) -> tuple[list[int], list[int]]:
    """The same counts by walking every line one by one (python-chess style).

    Works for either twin through ``actions``/``step``/``position``; no merging,
    so it is an independent check of :func:`perft`.
    """
    lines = [0] * depth
    seen: list[set[sc.State]] = [set() for _ in range(depth)]

    def walk(node: Any, d: int) -> None:
        legal = actions(node)
        if d > 0:
            here = position(node)
            # An ended game stays a leaf at every depth from its end to the last.
            for k in range(d, d + 1 if legal else depth + 1):
                lines[k - 1] += 1
                seen[k - 1].add(here)
        if d < depth:
            for a in legal:
                walk(step(node, a), d + 1)

    walk(start, 0)
    return lines, [len(x) for x in seen]


def fast_by_lines(start: sc.State, depth: int) -> tuple[list[int], list[int]]:
    return perft_by_lines(
        start,
        depth,
        lambda s: [int(a) for a in sc.legal_actions(s)],
        sc.apply,
        lambda s: s,
    )


def reference_by_lines(start: sc.State, depth: int) -> tuple[list[int], list[int]]:
    v = start.variant
    game = ref_new_game(list(start.room + start.dungeon), v.name, v.weapon_rule)
    return perft_by_lines(game, depth, ref_legal_actions, ref_apply, to_state)


def opening(seed: int, variant: str, weapon_rule: str) -> sc.State:
    return sc.new_game(seed=seed, variant=variant, weapon_rule=weapon_rule)


def load() -> dict[str, Any]:
    with DATA.open() as f:
        data: dict[str, Any] = json.load(f)
    return data


def _case_id(entry: dict[str, Any]) -> str:
    return f"seed{entry['seed']}-{entry['variant']}-{entry['weapon_rule']}"


GOLDEN = load()["counts"] if DATA.exists() else []


def test_golden_table_is_complete() -> None:
    data = load()
    assert data["depth"] == DEPTH
    cases = {(e["seed"], e["variant"], e["weapon_rule"]) for e in data["counts"]}
    assert cases == {(s, v, w) for s in SEEDS for v, w in VARIANTS}


@pytest.mark.parametrize("entry", GOLDEN, ids=_case_id)
def test_perft_matches_golden(entry: dict[str, Any]) -> None:
    start = opening(entry["seed"], entry["variant"], entry["weapon_rule"])
    # A changed deal would change every count; say so plainly.
    assert sc.format_deck(start.room) == entry["room"]
    lines, distinct = perft(start, DEPTH)
    assert lines == entry["lines"]
    assert distinct == entry["distinct"]


@pytest.mark.slow
@pytest.mark.parametrize("entry", GOLDEN, ids=_case_id)
def test_both_twins_walk_to_golden_counts(entry: dict[str, Any]) -> None:
    start = opening(entry["seed"], entry["variant"], entry["weapon_rule"])
    expected = (entry["lines"][:REFERENCE_DEPTH], entry["distinct"][:REFERENCE_DEPTH])
    assert fast_by_lines(start, REFERENCE_DEPTH) == expected
    assert reference_by_lines(start, REFERENCE_DEPTH) == expected


def regenerate() -> None:
    """Compute every count three ways, check they agree, and write the JSON."""
    counts = []
    for seed in SEEDS:
        for variant, weapon_rule in VARIANTS:
            start = opening(seed, variant, weapon_rule)
            merged = perft(start, DEPTH)
            fast = fast_by_lines(start, DEPTH)
            slow = reference_by_lines(start, DEPTH)
            if not merged == fast == slow:
                raise SystemExit(
                    f"twins disagree on seed {seed} {variant}/{weapon_rule}:\n"
                    f"  merged {merged}\n  fast   {fast}\n  ref    {slow}"
                )
            counts.append(
                {
                    "seed": seed,
                    "variant": variant,
                    "weapon_rule": weapon_rule,
                    "room": sc.format_deck(start.room),
                    "lines": merged[0],
                    "distinct": merged[1],
                }
            )
            print(
                f"seed {seed:2} {variant}/{weapon_rule}: {merged[0][-1]} lines, "
                f"{merged[1][-1]} positions at depth {DEPTH}"
            )
    header = {"convention": CONVENTION, "depth": DEPTH}
    body = ",\n".join("    " + json.dumps(e) for e in counts)
    text = json.dumps(header, indent=2)[:-2] + ',\n  "counts": [\n' + body + "\n  ]\n}\n"
    json.loads(text)  # still valid JSON
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(text)


if __name__ == "__main__":
    regenerate()
