"""The vector environment against its slow twin, the scalar environment over the rules."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.wrappers import TimeLimit
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core.env import (
    MAX_LEGAL,
    ScoundrelEnv,
    ScoundrelVectorEnv,
    decode,
    random_legal_actions,
    random_listed_actions,
)
from scoundrel_core.env.observation import UNSEEN, WORST_SCORE
from scoundrel_core.jit import deal_into

ENV_ID = "scoundrel_core.env:Scoundrel-v0"
RULES = [(v, w) for v in sc.FLEE_RULES for w in sc.WEAPON_RULES]
seeds = st.integers(0, 2**64 - 1)


@settings(max_examples=300, deadline=None)
@given(seed=seeds)
def test_kernel_deals_like_the_library(seed: int) -> None:
    out = np.empty(44, np.int64)
    deal_into(np.uint64(seed), out)
    assert [int(c) for c in out] == [c.id for c in sc.deal(seed)]


@pytest.mark.parametrize("seed", [0, 1, 2**63, 2**64 - 1])
def test_kernel_deals_like_the_library_at_the_edges(seed: int) -> None:
    out = np.empty(44, np.int64)
    deal_into(np.uint64(seed), out)
    assert [int(c) for c in out] == [c.id for c in sc.deal(seed)]


def test_make_vec_gives_the_numba_vector_env() -> None:
    envs = gymnasium.make_vec(
        ENV_ID, num_envs=5, vectorization_mode="vector_entry_point", variant="easy",
        weapon_rule="equal",
    )
    assert isinstance(envs, VectorEnv) and isinstance(envs.unwrapped, ScoundrelVectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert str(envs.unwrapped.variant) == "easy/equal"
    obs, info = envs.reset(seed=10)
    assert obs.shape == (5, 86) and obs.dtype == np.int8
    assert info["action_mask"].shape == (5, sc.NUM_ACTIONS)
    assert list(info["deal_seed"]) == [10, 11, 12, 13, 14]
    assert envs.observation_space.contains(obs)


def test_reset_seeds_lists_and_draws() -> None:
    envs = ScoundrelVectorEnv(3)
    _, info = envs.reset(seed=[7, None, 2**64 - 1])
    assert info["deal_seed"][0] == 7 and info["deal_seed"][2] == 2**64 - 1
    a = ScoundrelVectorEnv(4)
    b = ScoundrelVectorEnv(4)
    a.reset(seed=99)
    b.reset(seed=99)
    oa, ia = a.reset()
    ob, ib = b.reset()
    assert np.array_equal(ia["deal_seed"], ib["deal_seed"]) and np.array_equal(oa, ob)
    with pytest.raises(sc.SeedError, match="out of range"):
        envs.reset(seed=2**64 - 2)  # the third game would need seed 2**64
    with pytest.raises(sc.ScoundrelError, match="2 seeds for 3"):
        envs.reset(seed=[1, 2])
    with pytest.raises(sc.ScoundrelError, match="'deck'"):
        envs.reset(options={"deck": "KS"})


def test_bad_arguments_are_named() -> None:
    with pytest.raises(sc.ScoundrelError, match="num_envs 0"):
        ScoundrelVectorEnv(0)
    with pytest.raises(sc.ScoundrelError, match="max_episode_steps -1"):
        ScoundrelVectorEnv(2, max_episode_steps=-1)
    envs = ScoundrelVectorEnv(2)
    with pytest.raises(sc.ScoundrelError, match="reset"):
        envs.step([0, 0])
    envs.reset(seed=0)
    with pytest.raises(sc.ScoundrelError, match="3 actions for 2"):
        envs.step([0, 0, 0])


def test_illegal_action_raise_names_game_and_action() -> None:
    envs = ScoundrelVectorEnv(2, "hard", illegal_action="raise")
    _, info = envs.reset(seed=0)
    legal = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
    with pytest.raises(sc.IllegalActionError, match=r"illegal action 88 \(flee\) in environment 1"):
        envs.step([legal[0], 88])
    envs.step(legal)  # nothing was played by the refused step


def test_render_ansi() -> None:
    envs = ScoundrelVectorEnv(2, render_mode="ansi")
    envs.reset(seed=0)
    lines = envs.render()
    assert lines is not None and lines[0].startswith("room [10C KS 5D 5S] | health 20")


def _scalar(variant: str, weapon_rule: str, max_steps: int | None) -> gymnasium.Env:  # type: ignore[type-arg]
    env: gymnasium.Env = ScoundrelEnv(variant, weapon_rule)  # type: ignore[type-arg]
    return TimeLimit(env, max_steps) if max_steps else env


def _pick(mask: np.ndarray, rng: np.random.Generator, p_illegal: float) -> int:
    if rng.random() < p_illegal:
        return int(rng.integers(-2, sc.NUM_ACTIONS + 2))
    return int(rng.choice(np.flatnonzero(mask)))


@settings(max_examples=150, deadline=None)
@given(
    rule=st.sampled_from(RULES),
    seed=st.integers(0, 2**64 - 64),
    pick=st.integers(0, 2**32),
    n=st.integers(1, 5),
    p_illegal=st.sampled_from([0.0, 0.0, 0.01, 0.05]),
    max_steps=st.sampled_from([None, None, 7, 40]),
)
def test_vector_env_matches_scalar_env_step_by_step(
    rule: tuple[str, str], seed: int, pick: int, n: int, p_illegal: float, max_steps: int | None
) -> None:
    variant, weapon_rule = rule
    rng = np.random.default_rng(pick)
    vec = ScoundrelVectorEnv(n, variant, weapon_rule, max_episode_steps=max_steps)
    twins = [_scalar(variant, weapon_rule, max_steps) for _ in range(n)]
    obs, info = vec.reset(seed=seed)
    masks = info["action_mask"]
    for i, env in enumerate(twins):
        o, inf = env.reset(seed=int(info["deal_seed"][i]))
        assert np.array_equal(o, obs[i]) and np.array_equal(inf["action_mask"], masks[i])
    ended = np.zeros(n, np.bool_)
    returns = np.zeros(n)
    for _ in range(250):
        actions = np.array([_pick(m, rng, p_illegal) if m.any() else 0 for m in masks])
        obs, reward, terminated, truncated, info = vec.step(actions)
        masks = info["action_mask"]
        for i, env in enumerate(twins):
            if ended[i]:  # next-step autoreset: the action is ignored, a new deal starts
                o, inf = env.reset(seed=int(info["deal_seed"][i]))
                r, te, tr, bad = 0.0, False, False, False
                returns[i] = 0.0
            else:
                o, r, te, tr, inf = env.step(int(actions[i]))
                bad = inf["illegal_action"]
                returns[i] += r
                if te and not bad:
                    assert returns[i] == env.unwrapped.info_state.score  # type: ignore[attr-defined]
            assert np.array_equal(o, obs[i])
            assert np.array_equal(inf["action_mask"], masks[i])
            assert np.array_equal(inf["legal_actions"], info["legal_actions"][i])
            assert (r, te, tr, bad) == (
                reward[i], terminated[i], truncated[i], info["illegal_action"][i]
            )
            if bad:
                assert r == WORST_SCORE
        ended = terminated | truncated


def test_vector_games_end_and_restart_with_next_step_autoreset() -> None:
    envs = ScoundrelVectorEnv(64, "hard")
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    finished = 0
    ended = np.zeros(64, np.bool_)
    for _ in range(400):
        actions = random_legal_actions(info["action_mask"], rng)
        before = info["deal_seed"].copy()
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        assert (reward[ended] == 0).all() and not terminated[ended].any()
        assert (info["deal_seed"][~ended] == before[~ended]).all()
        for i in np.flatnonzero(ended):  # a restarted game shows a fresh deal
            assert decode(obs[i]) == decode(
                ScoundrelEnv("hard").reset(seed=int(info["deal_seed"][i]))[0]
            )
        finished += int(terminated.sum())
        ended = terminated | truncated
    assert finished > 64


def test_random_legal_actions_are_legal_and_uniform() -> None:
    rng = np.random.default_rng(1)
    mask = np.zeros((3, sc.NUM_ACTIONS), np.bool_)
    mask[0, [2, 5, 88]] = True
    mask[2, [0]] = True
    picks = np.array([random_legal_actions(mask, rng) for _ in range(3000)])
    assert set(picks[:, 0]) == {2, 5, 88} and set(picks[:, 1]) == {0} and set(picks[:, 2]) == {0}
    share = [np.mean(picks[:, 0] == a) for a in (2, 5, 88)]
    assert all(abs(x - 1 / 3) < 0.05 for x in share)
    assert list(random_legal_actions(np.zeros((2, 89), np.bool_), rng)) == [0, 0]


def test_random_listed_actions_are_legal_and_uniform() -> None:
    rng = np.random.default_rng(2)
    legal = np.full((3, MAX_LEGAL), -1, np.int8)
    legal[0, :3] = [2, 5, 88]
    legal[2, 0] = 0
    picks = np.array([random_listed_actions(legal, rng) for _ in range(3000)])
    assert set(picks[:, 0]) == {2, 5, 88} and set(picks[:, 1]) == {0} and set(picks[:, 2]) == {0}
    share = [np.mean(picks[:, 0] == a) for a in (2, 5, 88)]
    assert all(abs(x - 1 / 3) < 0.05 for x in share)


@settings(max_examples=60, deadline=None)
@given(
    rule=st.sampled_from(RULES), seed=seeds, pick=st.integers(0, 2**32), k=st.integers(0, 39)
)
def test_vector_games_that_agree_on_the_cards_seen_look_the_same(
    rule: tuple[str, str], seed: int, pick: int, k: int
) -> None:
    """Two copies of a deal whose dungeons differ below the next ``k`` cards: every
    observation, mask and reward is the same until a (k+1)-th card is drawn."""
    rng = np.random.default_rng(pick)
    envs = ScoundrelVectorEnv(2, *rule)
    obs, info = envs.reset(seed=[seed, seed])
    rest = envs._ring[1, k:40].copy()  # the hidden order, below the next k cards
    rng.shuffle(rest)
    envs._ring[1, k:40] = rest
    while True:
        action = int(random_legal_actions(info["action_mask"][:1], rng)[0])
        obs, reward, terminated, _, info = envs.step([action, action])
        if 40 - int(obs[0, UNSEEN]) > k:  # a card from the reshuffled part came up
            break
        assert np.array_equal(obs[0], obs[1]) and reward[0] == reward[1]
        assert np.array_equal(info["action_mask"][0], info["action_mask"][1])
        assert terminated[0] == terminated[1]
        if terminated[0]:
            break
