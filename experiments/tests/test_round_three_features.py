"""The round-three features kept for a future refit are what their docstring says."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lab import load_experiment
from scoundrel_core import FULL_DECK, Card, Kind

features = load_experiment("round_three_features")


@given(st.lists(st.sampled_from(FULL_DECK), unique=True, max_size=20), st.integers(1, 20),
       st.integers(0, 10), st.integers(0, 14))
@settings(max_examples=60, deadline=None)
def test_each_feature_counts_what_it_names(pool: list[Card], health: int, weapon: int,
                                           reach: int) -> None:
    got = dict(zip(features.NAMES, features.round_three_features(pool, health, weapon, reach),
                   strict=True))
    monsters = [c.value for c in pool if c.kind is Kind.MONSTER]
    assert got["big_count"] == sum(v >= features.BIG for v in monsters)
    assert got["over_reach"] == sum(v for v in monsters if v > reach)
    assert got["potion_count"] == sum(c.kind is Kind.POTION for c in pool)
    assert got["weapon_count"] == sum(c.kind is Kind.WEAPON for c in pool)
    assert got["excess"] <= sum(monsters) and got["health_monsters"] == health * sum(
        monsters) / 100
