"""The fair ceiling's figure and README line (scripts/bound_figure.py) and the k-step floor
(scripts/bound_floor.py): what they say comes from data/, and the lowest proven bound wins."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import scoundrel_core as sc
from conftest import load_script
from scoundrel_solver.bound.deal import DealBound
from scoundrel_solver.bound.rows import bound_row, settings_of

figure = load_script("bound_figure")
floor = load_script("bound_floor")


def test_the_readmes_line_is_what_the_script_writes() -> None:
    text = figure.README.read_text()
    assert figure.rewrite(text, figure.sentence(figure.ceilings()), figure.START,
                          figure.END) == text, (
        "README.md's bound line is stale: run python scripts/bound_figure.py")


def test_the_ceiling_is_the_lowest_proven_bound_of_the_published_data() -> None:
    for c in figure.ceilings():
        what, value, upper = c.ceiling
        assert upper <= c.perfect.upper
        assert all(upper <= b.upper for b in c.bounds if b.upper is not None)
        assert c.perfect.low <= c.perfect.share <= c.perfect.upper <= c.perfect.high
        assert c.agent.share < value  # the agent is a fair player: below every ceiling
        assert figure.figure_path(c).is_file(), f"run python scripts/bound_figure.py ({what})"


def _data(tmp: Path, terms: list[float]) -> Path:
    """A data folder: a census of 90 won of 100, the agent 3 won of 4, a floor of 2 deals,
    and a penalised bound whose deals have ``terms``."""
    (tmp / "census-summary.json").write_text(json.dumps([
        {"variant": v, "weapon_rule": "strict", "deals": 100, "winnable": 90}
        for v in ("classic", "hard")]))
    n = 4
    pq.write_table(pa.table({"variant": ["classic"] * n + ["hard"] * n,
                             "weapon_rule": ["strict"] * 2 * n, "seed": list(range(n)) * 2,
                             "won": [True, True, True, False] * 2}), tmp / "fair-games.parquet")
    floor_rows = [{"format": floor.FORMAT, "variant": v, "weapon_rule": "strict", "seed": s,
                   "seen": True, "fair_then_seen": {"1": s == 0}}
                  for v in ("classic", "hard") for s in (0, 1)]
    (tmp / "bound-floor.jsonl").write_text("".join(json.dumps(r) + "\n" for r in floor_rows))
    rows = []
    for v in ("classic", "hard"):
        settings = settings_of(sc.Variant(v, "strict"), 1, "one-room", 100)
        rows += [bound_row(settings, seed, DealBound(t, t, 0.0, True, 0, 1, 1, 1, 0.1))
                 for seed, t in enumerate(terms)]
    (tmp / "bound-x.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return tmp


@pytest.mark.parametrize("tight", [False, True])
def test_a_penalised_bound_below_the_share_becomes_the_ceiling(tmp_path: Path,
                                                               tight: bool) -> None:
    terms = [0.5, 0.6] * 50 if tight else [1.2, 1.0] * 50
    cs = figure.ceilings(_data(tmp_path, terms))
    for c in cs:
        what, value, upper = c.ceiling
        assert c.agent.share == 0.75 and c.floors[1].share == 0.5
        if tight:
            assert (what, value) == ("V = one-room, 1 chance step", pytest.approx(0.55))
            assert upper < c.perfect.share
        else:
            assert (what, value, upper) == ("perfect", 0.9, c.perfect.upper)
    line = figure.sentence(cs)
    assert "75.0%" in line and "50.0%" in line
    assert ("; V = one-room, 1 chance step)" in line) == tight
    assert ("is still the perfect-information share" in line) != tight


def _fair_for(seed: int, variant: sc.Variant, steps: int, agent: object) -> bool:
    """The slow twin: one game for one ``k``, the solver asked at the top of the turn after
    the ``k``-th chance step."""
    from scoundrel_core.info import ChanceNode, InfoState, observe
    from scoundrel_solver.exact import is_winnable
    from scoundrel_solver.fair import FairAgent

    assert isinstance(agent, FairAgent)
    s = sc.new_game(seed=seed, variant=variant)
    info = InfoState.initial(s)
    agent.reset(seed)
    left = steps
    while not s.is_over:
        if left == 0:
            return bool(is_winnable(s))
        a = agent(info)
        if isinstance(info.apply(a), ChanceNode):
            left -= 1
        s2 = sc.apply(s, a)
        info, s = observe(info, a, s2), s2
    return bool(s.health > 0)


@pytest.mark.parametrize(("variant", "deals"), [("classic/strict", 10), ("hard/strict", 3)])
def test_one_game_gives_the_floor_of_every_k_as_a_game_per_k(variant: str, deals: int) -> None:
    from scoundrel_solver.fair import FairAgent

    agent = FairAgent()
    v = sc.Variant(*variant.split("/"))
    for seed in range(deals):  # hard's exact solves take a second or more a deal
        together = floor.fair_then_seen(seed, v, [0, 1, 2, 3], agent)
        assert together == {k: _fair_for(seed, v, k, agent) for k in (0, 1, 2, 3)}
