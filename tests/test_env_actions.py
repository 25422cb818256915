"""Both envs take integer actions only: anything else is a ScoundrelError naming it."""

from __future__ import annotations

import math

import numpy as np
import pytest

import scoundrel_core as sc
from scoundrel_core.env import ScoundrelEnv, ScoundrelVectorEnv
from scoundrel_core.env.vector import MAX_NUM_ENVS

NOT_INTEGERS = [26.5, 26.0, "26", "flee", None, True, np.float64(26.0), np.array([26]),
                np.array(26.5), [26], b"26", math.nan, complex(26, 0)]


@pytest.mark.parametrize("action", NOT_INTEGERS, ids=repr)
@pytest.mark.parametrize("mode", ["loss", "raise"])
def test_scalar_env_refuses_non_integers(action: object, mode: str) -> None:
    env = ScoundrelEnv(illegal_action=mode)
    env.reset(seed=3)
    with pytest.raises(sc.ScoundrelError, match="is not an integer"):
        env.step(action)  # type: ignore[arg-type]
    # nothing was played: the game goes on from the same position
    legal = env.action_masks().nonzero()[0]
    *_, info = env.step(int(legal[0]))
    assert not info["illegal_action"]


@pytest.mark.parametrize("action", [np.int64(0), np.array(0, np.int32), 0])
def test_scalar_env_takes_integers(action: object) -> None:
    env = ScoundrelEnv()
    env.reset(seed=3)
    legal = int(env.action_masks().nonzero()[0][0])
    _, _, _, _, info = env.step(action + legal)  # type: ignore[operator]
    assert not info["illegal_action"]


@pytest.mark.parametrize("action", [2**70, -(2**70), 89, -1])
def test_scalar_env_far_integers_are_illegal_actions(action: int) -> None:
    env = ScoundrelEnv()
    env.reset(seed=3)
    _, _, terminated, _, info = env.step(action)
    assert terminated and info["illegal_action"]
    env = ScoundrelEnv(illegal_action="raise")
    env.reset(seed=3)
    with pytest.raises(sc.IllegalActionError):
        env.step(action)


VECTOR_BAD = [
    [26.5, 0], ["26", 0], ["flee", 0], [None, 0], np.array([1.0, 2.0]),
    np.array(["1", "2"]), [math.nan, 0], [True, False], [[1, 2], [3]], 7, None, "ab",
]


@pytest.mark.parametrize("actions", VECTOR_BAD, ids=repr)
def test_vector_env_refuses_non_integers(actions: object) -> None:
    envs = ScoundrelVectorEnv(2)
    envs.reset(seed=0)
    with pytest.raises(sc.ScoundrelError):
        envs.step(actions)  # type: ignore[arg-type]


@pytest.mark.parametrize("big", [2**70, -(2**70), 2**63, np.uint64(2**64 - 1)], ids=repr)
def test_vector_env_far_integers_are_illegal(big: int) -> None:
    envs = ScoundrelVectorEnv(2)
    _, info = envs.reset(seed=0)
    ok = int(np.flatnonzero(info["action_mask"][1])[0])
    _, _, terminated, _, info = envs.step(np.array([big, ok], dtype=object))
    assert terminated.tolist() == [True, False]
    assert info["illegal_action"].tolist() == [True, False]
    envs = ScoundrelVectorEnv(2, illegal_action="raise")
    envs.reset(seed=0)
    with pytest.raises(sc.IllegalActionError, match="environment 0"):
        envs.step([big, ok])


def test_vector_env_takes_integer_arrays() -> None:
    envs = ScoundrelVectorEnv(2)
    _, info = envs.reset(seed=0)
    legal = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
    for arr in (legal, np.array(legal, np.int8), np.array(legal, np.uint64), tuple(legal)):
        envs.reset(seed=0)
        _, _, _, _, info = envs.step(arr)
        assert not info["illegal_action"].any()


def test_vector_env_refuses_actions_of_the_wrong_shape() -> None:
    """Issue 39 item 17: one action per game, shape (n,) exactly; (1, n) and (n, 1) were
    flattened and played."""
    envs = ScoundrelVectorEnv(2)
    _, info = envs.reset(seed=0)
    legal = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
    for arr in (np.array([legal]), np.array(legal).reshape(2, 1), [legal], [[a] for a in legal],
                np.array(legal[:1]), legal * 2, np.int64(legal[0])):
        with pytest.raises(sc.ScoundrelError, match="for 2 environments: give 2 integers"):
            envs.step(arr)
    _, _, _, _, info = envs.step(legal)  # nothing was played by the refused steps
    assert not info["illegal_action"].any()


def test_num_envs_is_bounded_before_allocating() -> None:
    with pytest.raises(sc.ScoundrelError, match="num_envs 1099511627776 is more than"):
        ScoundrelVectorEnv(2**40)
    with pytest.raises(sc.ScoundrelError, match="num_envs"):
        ScoundrelVectorEnv(2.5)  # type: ignore[arg-type]
    assert MAX_NUM_ENVS >= 65536
