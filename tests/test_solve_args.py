"""solve() checks its arguments up front and raises ScoundrelErrors naming them."""

from __future__ import annotations

import re

import numpy as np
import pytest

import scoundrel_core as sc
from scoundrel_solver import SolverError, solve
from scoundrel_solver.fair import advise

pytestmark = pytest.mark.usefixtures("warm_solver")

SMALL = sc.new_game(deck="5C 9D 3H QS 2S 7H", partial=True)
HARD_TEXT = (
    "hard/strict health=20 weapon=- last=- potion=0 resolved=0 fled=0 room=[2C 3C 4C 5C] "
    "dungeon=[9H 6S 7S 8S 9S]"
)


def test_solver_errors_are_scoundrel_errors() -> None:
    assert issubclass(SolverError, sc.ScoundrelError)


def test_numpy_integer_seeds_are_seeds() -> None:
    by_numpy = solve(np.int64(42), variant="hard", max_nodes=3000)
    by_int = solve(42, variant="hard", max_nodes=3000)
    assert by_numpy.seed == 42 and type(by_numpy.seed) is int
    assert by_numpy.deck == by_int.deck and by_numpy.best_score == by_int.best_score


@pytest.mark.parametrize("seed", [42.0, True, np.float64(3), None, 3j])
def test_floats_and_bools_are_not_seeds(seed: object) -> None:
    with pytest.raises(sc.SeedError, match=f"seed {re.escape(repr(seed))} is not an integer"):
        solve(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"max_nodes": True}, "max_nodes True must be a positive integer"),
        ({"max_nodes": 0}, "max_nodes 0 must be a positive integer"),
        ({"max_nodes": 1.5}, "max_nodes 1.5 must be a positive integer"),
        ({"max_seconds": "5"}, "max_seconds '5' must be a positive number"),
        ({"max_seconds": True}, "max_seconds True must be a positive number"),
        ({"max_seconds": 0}, "max_seconds 0 must be positive"),
        ({"max_seconds": float("nan")}, "max_seconds nan must be positive"),
        ({"table_mib": 0}, "table_mib 0 must be a positive integer"),
        ({"table_mib": 2.5}, "table_mib 2.5 must be a positive integer"),
        ({"table_mib": 10**30}, "table_mib 10000000000"),
    ],
)
def test_bad_options_are_named(kwargs: dict[str, object], why: str) -> None:
    with pytest.raises(SolverError, match=re.escape(why)):
        solve(SMALL, **kwargs)  # type: ignore[arg-type]


def test_huge_node_limit_means_no_limit() -> None:
    for huge in (2**62, 2**70, 10**30):
        result = solve(SMALL, max_nodes=huge)
        assert result.proven and result.stopped_by is None
        assert result.best_score == solve(SMALL).best_score
    assert solve(SMALL, max_nodes=np.int64(10**6)).proven


def test_variant_comes_from_the_position() -> None:
    s = sc.State.from_text(HARD_TEXT)
    result = solve(s)
    assert (result.variant, result.weapon_rule) == ("hard", "strict")
    assert solve(s, variant="hard").best_score == result.best_score
    assert solve(s, variant="hard/strict", weapon_rule="strict").best_score == result.best_score
    contradictions = (("classic", None), ("easy", None), ("hard", "equal"), ("hard/equal", None))
    for variant, rule in contradictions:
        with pytest.raises(sc.VariantError, match="the position is hard/strict; it cannot be"):
            solve(s, variant=variant, weapon_rule=rule)


def test_variant_none_means_classic_for_seeds_and_decks() -> None:
    assert solve(3, max_nodes=500).variant == "classic"
    assert solve(3, variant=None, weapon_rule="equal", max_nodes=500).weapon_rule == "equal"


def test_advise_refuses_an_impossible_position() -> None:
    bad = (
        "classic/strict health=20 weapon=- last=- potion=0 resolved=0 fled=0 room=[2C] "
        "dungeon=[9H 6S 7S 8S 9S]"
    )
    with pytest.raises(sc.PositionError, match="room \\+ resolved must be 4"):
        advise(bad)
    with pytest.raises(sc.StateTextError, match="is not text"):
        advise(42)  # type: ignore[arg-type]
    good = advise(HARD_TEXT)
    legal = sc.legal_actions(sc.State.from_text(HARD_TEXT))
    assert [a for a, _, _ in good] == [str(a) for a in legal]
    assert all(-221 <= v <= 30 and exact for _, v, exact in good)
