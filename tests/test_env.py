"""The scalar gymnasium environment: API, rewards, illegal actions, and a fair observation."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core.env import MAX_LEGAL, ScoundrelEnv, decode, encode
from scoundrel_core.env.observation import (
    BOTTOM,
    BOTTOM_SIZE,
    CARD_TYPE,
    OBS_HIGH,
    OBS_LOW,
    UNSEEN,
    UNSEEN_BY_TYPE,
    WORST_SCORE,
)
from scoundrel_core.info import InfoState, observe

ENV_ID = "scoundrel_core.env:Scoundrel-v0"
RULES = [(v, w) for v in sc.FLEE_RULES for w in sc.WEAPON_RULES]
seeds = st.integers(0, 2**64 - 1)


def random_legal(mask: np.ndarray, rng: random.Random) -> int:
    return rng.choice([int(a) for a in np.flatnonzero(mask)])


def test_importing_the_library_does_not_import_gymnasium() -> None:
    code = (
        "import sys, scoundrel_core; "
        "print('gymnasium' in sys.modules, 'scoundrel_core.env' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize(("variant", "weapon_rule"), RULES)
def test_check_env_passes(variant: str, weapon_rule: str) -> None:
    env = gymnasium.make(ENV_ID, variant=variant, weapon_rule=weapon_rule, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_make_and_reset_with_seed_plays_that_deal() -> None:
    env = gymnasium.make(ENV_ID, variant="hard", weapon_rule="equal")
    obs, info = env.reset(seed=42)
    s = sc.new_game(seed=42, variant="hard", weapon_rule="equal")
    assert np.array_equal(obs, encode(InfoState.initial(s)))
    assert np.array_equal(info["action_mask"], sc.legal_action_mask(s))
    assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"])  # type: ignore[attr-defined]
    assert info["deal_seed"] == 42 and obs.dtype == np.int8


def test_reset_without_seed_draws_reproducible_deals() -> None:
    a, b = ScoundrelEnv(), ScoundrelEnv()
    a.reset(seed=5)
    b.reset(seed=5)
    drawn = [a.reset()[1]["deal_seed"] for _ in range(3)]
    assert drawn == [b.reset()[1]["deal_seed"] for _ in range(3)]
    assert len(set(drawn)) == 3 and 5 not in drawn
    obs, info = a.reset()
    s = sc.new_game(seed=info["deal_seed"])
    assert np.array_equal(obs, encode(InfoState.initial(s)))


def test_reset_with_an_explicit_deck() -> None:
    deck = sc.format_deck(reversed(sc.FULL_DECK))
    obs, info = ScoundrelEnv().reset(options={"deck": deck})
    assert info["deal_seed"] is None
    assert [sc.card(int(i) - 1) for i in obs[:4]] == list(sc.parse_deck(deck)[:4])
    with pytest.raises(sc.DeckError, match="deck has 2 cards"):
        ScoundrelEnv().reset(options={"deck": "KS 7D"})
    with pytest.raises(sc.ScoundrelError, match="'decks'"):
        ScoundrelEnv().reset(options={"decks": deck})


@settings(max_examples=40, deadline=None)
@given(seed=seeds, rule=st.sampled_from(RULES), pick=st.integers(0, 2**32))
def test_return_is_the_final_score_and_obs_is_the_info_state(
    seed: int, rule: tuple[str, str], pick: int
) -> None:
    variant, weapon_rule = rule
    env = ScoundrelEnv(variant, weapon_rule)
    rng = random.Random(pick)
    obs, info = env.reset(seed=seed)
    s = sc.new_game(seed=seed, variant=variant, weapon_rule=weapon_rule)
    know = InfoState.initial(s)
    total = 0.0
    for _ in range(2000):
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs, encode(know))
        assert np.array_equal(info["action_mask"], sc.legal_action_mask(s))
        listed = [int(a) for a in sc.legal_actions(s)]
        assert list(info["legal_actions"]) == listed + [-1] * (MAX_LEGAL - len(listed))
        a = random_legal(info["action_mask"], rng)
        obs, reward, terminated, truncated, info = env.step(a)
        s = sc.apply(s, a)
        know = observe(know, a, s)
        total += reward
        assert not truncated and not info["illegal_action"]
        assert terminated == s.is_over
        if terminated:
            break
    assert s.is_over and total == s.score and WORST_SCORE <= total <= 30
    assert not info["action_mask"].any()
    with pytest.raises(sc.ScoundrelError, match="call reset"):
        env.step(0)


def test_worst_score_is_reached_by_dying_barehanded() -> None:
    # Monsters only in the first rooms: fight barehanded until dead.
    monsters = [c for c in sc.FULL_DECK if c.is_monster]
    rest = [c for c in sc.FULL_DECK if not c.is_monster]
    env = ScoundrelEnv("hard")
    _, info = env.reset(options={"deck": sc.format_deck(monsters[::-1] + rest)})
    total, done = 0.0, False
    while not done:
        a = int(np.flatnonzero(info["action_mask"])[0])  # 2 * id: barehanded
        _, reward, done, _, info = env.step(a)
        total += reward
    assert total == WORST_SCORE == -188


@pytest.mark.parametrize("action", [88, 1, 0])
def test_illegal_action_ends_as_the_worst_loss(action: int) -> None:
    env = ScoundrelEnv("hard")
    obs, info = env.reset(seed=3)
    assert not info["action_mask"][action]
    obs2, reward, terminated, truncated, info = env.step(action)
    assert terminated and not truncated and info["illegal_action"]
    assert reward == WORST_SCORE and np.array_equal(obs, obs2)
    assert not info["action_mask"].any() and not env.action_masks().any()


def test_illegal_action_raises_when_asked() -> None:
    env = ScoundrelEnv("hard", illegal_action="raise")
    env.reset(seed=3)
    with pytest.raises(sc.IllegalActionError, match=r"illegal action 88 \(flee\)"):
        env.step(88)
    with pytest.raises(sc.IllegalActionError, match=r"illegal action 89 \(not an action\)"):
        env.step(89)


def test_bad_options_are_named() -> None:
    with pytest.raises(sc.ScoundrelError, match="'human'"):
        ScoundrelEnv(render_mode="human")
    with pytest.raises(sc.ScoundrelError, match="'ignore'"):
        ScoundrelEnv(illegal_action="ignore")
    with pytest.raises(sc.VariantError, match="'medium'"):
        ScoundrelEnv("medium")
    with pytest.raises(sc.ScoundrelError, match="reset"):
        ScoundrelEnv().step(0)


def test_render_ansi() -> None:
    env = ScoundrelEnv(render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == (
        "room [10C KS 5D 5S] | health 20 | weapon - | dungeon 40 (40 unseen, 0 fled)"
    )
    env.step(int(sc.parse_action(sc.new_game(seed=0), "5D")))
    env.step(int(sc.parse_action_text("5S/w")))
    assert "weapon 5D (last kill 5)" in str(env.render())
    assert ScoundrelEnv().render() is None


def test_observation_bounds_and_layout() -> None:
    assert OBS_LOW.shape == OBS_HIGH.shape == (86,)
    assert (OBS_LOW <= OBS_HIGH).all()
    env = ScoundrelEnv("easy")
    env.reset(seed=1)
    obs = env.step(88)[0]  # flee: the room goes to the known bottom
    assert obs[BOTTOM_SIZE] == 4 and obs[UNSEEN] == 36
    assert [sc.card(int(i) - 1) for i in obs[BOTTOM][:4]] == list(sc.new_game(seed=1).room)
    assert obs[UNSEEN_BY_TYPE].sum() == 36


@settings(max_examples=60, deadline=None)
@given(seed=seeds, rule=st.sampled_from(RULES), pick=st.integers(0, 2**32), cut=st.integers(0, 80))
def test_deals_that_agree_on_the_cards_seen_give_the_same_observations(
    seed: int, rule: tuple[str, str], pick: int, cut: int
) -> None:
    """Reshuffle what is still unseen after ``cut`` steps: nothing observed up to then changes."""
    variant, weapon_rule = rule
    rng = random.Random(pick)
    deck = sc.deal(seed)
    env = ScoundrelEnv(variant, weapon_rule)
    obs, info = env.reset(seed=seed)
    seen: list[np.ndarray] = [obs]
    actions: list[int] = []
    for _ in range(cut):
        a = random_legal(info["action_mask"], rng)
        obs, _, done, _, info = env.step(a)
        actions.append(a)
        seen.append(obs)
        if done:
            break
    unseen = len(env.info_state.unseen)
    shown = len(deck) - unseen  # cards come up from the deal in order, so these are its top
    hidden = deck[shown:]
    rng.shuffle(hidden)
    other = ScoundrelEnv(variant, weapon_rule)
    obs2, _ = other.reset(options={"deck": sc.format_deck(deck[:shown] + hidden)})
    again = [obs2] + [other.step(a)[0] for a in actions]
    assert all(np.array_equal(x, y) for x, y in zip(seen, again, strict=True))


@settings(max_examples=40, deadline=None)
@given(seed=seeds, rule=st.sampled_from(RULES), pick=st.integers(0, 2**32), cut=st.integers(0, 80))
def test_decode_gives_back_the_information_state(
    seed: int, rule: tuple[str, str], pick: int, cut: int
) -> None:
    rng = random.Random(pick)
    env = ScoundrelEnv(*rule)
    obs, info = env.reset(seed=seed)
    for _ in range(cut):
        if not info["action_mask"].any():
            break
        obs, _, _, _, info = env.step(random_legal(info["action_mask"], rng))
    true = env.info_state
    back = decode(obs)
    # Unseen cards are known by type: which of two equal monsters is unseen is not observed.
    assert sorted(CARD_TYPE[c.id] for c in back.unseen) == sorted(
        CARD_TYPE[c.id] for c in true.unseen
    )
    same = back.__class__(**{**true.__dict__, "unseen": back.unseen, "score": None})
    assert back == same
    assert np.array_equal(encode(back), obs)
    assert back.legal_actions() == true.legal_actions()
