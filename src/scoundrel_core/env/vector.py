"""Many games at once: a gymnasium ``VectorEnv`` stepped by a numba kernel.

Same observations, rewards, masks and endings as :class:`.ScoundrelEnv`
(tested step by step against it). Autoreset follows gymnasium 1.x's default,
``AutoresetMode.NEXT_STEP``: the step that ends a game returns its last
observation with ``terminated`` (or ``truncated``) set; on the next call that
game ignores its action and starts a new deal, returning the new first
observation with reward 0 and neither flag set.

Seeds: ``reset(seed=N)`` deals seeds N, N+1, ..., N+num_envs-1 (gymnasium's
convention for vector seeds) and seeds the generator (``np_random``, with N)
that draws the deal seeds of later games; a list of seeds deals them, None
entries drawn (the first seed given seeds the generator). ``info["deal_seed"]``
always holds each game's seed; ``info["action_mask"]`` (N, 89) and
``info["legal_actions"]`` (N, 9, ascending, -1 after the last) the legal
actions of every game.

>>> import gymnasium
>>> import scoundrel_core.env
>>> envs = gymnasium.make_vec("scoundrel_core.env:Scoundrel-v0", num_envs=3,
...                           vectorization_mode="vector_entry_point")
>>> obs, info = envs.reset(seed=0)
>>> obs.shape, info["action_mask"].shape, [int(s) for s in info["deal_seed"]]
((3, 86), (3, 89), [0, 1, 2])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..actions import ACTIONS, NUM_ACTIONS
from ..deal import check_seed
from ..errors import IllegalActionError, ScoundrelError
from ..variants import Variant, get_variant
from . import _vector_kernel as K
from .action_input import action_array
from .observation import OBS_HIGH, OBS_LOW, OBS_SIZE, WORST_SCORE, decode, variant_slots
from .scalar import check_options, room_text

__all__ = [
    "MAX_LEGAL",
    "MAX_NUM_ENVS",
    "ScoundrelVectorEnv",
    "random_legal_actions",
    "random_listed_actions",
]

RING = K.RING_MASK + 1
MAX_LEGAL = K.MAX_LEGAL
"""Most legal actions a position can have: the width of the legal-action lists."""
MAX_NUM_ENVS = 1 << 20
"""The most games one vector env holds (about 300 MiB of arrays at that size)."""


class ScoundrelVectorEnv(VectorEnv[npt.NDArray[np.int8], npt.NDArray[np.int64], Any]):
    """``num_envs`` games of one variant, in integer arrays.

    ``max_episode_steps`` (default: none) truncates a game after that many
    actions (``easy`` lets a player flee forever). ``copy=False`` returns the
    live observation and mask arrays instead of copies: faster, but they
    change on the next step.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        variant: str | Variant = "classic",
        weapon_rule: str | None = None,
        render_mode: str | None = None,
        illegal_action: str = "loss",
        max_episode_steps: int | None = None,
        copy: bool = True,
    ) -> None:
        check_options(render_mode, illegal_action, self.metadata["render_modes"])
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ScoundrelError(f"num_envs {num_envs!r:.60} is not a positive integer")
        if num_envs > MAX_NUM_ENVS:
            # Checked before anything is allocated: each game holds about 300 bytes of arrays.
            raise ScoundrelError(f"num_envs {num_envs} is more than {MAX_NUM_ENVS:,}")
        if max_episode_steps is not None and (
            not isinstance(max_episode_steps, int) or max_episode_steps < 1
        ):
            raise ScoundrelError(
                f"max_episode_steps {max_episode_steps!r} is not a positive integer"
            )
        self.num_envs = num_envs
        self.variant = get_variant(variant, weapon_rule)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.max_episode_steps = max_episode_steps
        self.copy = copy
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_observation_space = spaces.Box(OBS_LOW, OBS_HIGH, dtype=np.int8)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._flee_rule, self._equal = variant_slots(self.variant)
        n = num_envs
        self._obs = np.zeros((n, OBS_SIZE), np.int8)
        self._mask = np.zeros((n, NUM_ACTIONS), np.bool_)
        self._legal = np.full((n, MAX_LEGAL), -1, np.int8)
        self._ring = np.zeros((n, RING), np.int8)
        self._head = np.zeros(n, np.int64)
        self._steps = np.zeros(n, np.int64)
        self._pending = np.zeros(n, np.bool_)
        self._reset_seeds = np.zeros(n, np.uint64)
        self._seeds = np.zeros(n, np.uint64)
        self._reward = np.zeros(n, np.float64)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._illegal = np.zeros(n, np.bool_)
        self._deck = np.zeros(K.DECK, np.int64)  # the kernel's room to deal in
        self._started = False

    def _draw_seeds(self, k: int) -> npt.NDArray[np.uint64]:
        return self.np_random.bit_generator.random_raw(size=k)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[npt.NDArray[np.int8], dict[str, Any]]:
        """Deal every game afresh (see the module docstring for the seeds)."""
        if options:
            raise ScoundrelError(
                f"the vector env takes no reset options, got {sorted(options)}"
                " (explicit decks: use the scalar env)"
            )
        n = self.num_envs
        if isinstance(seed, Sequence):
            if len(seed) != n:
                raise ScoundrelError(f"{len(seed)} seeds for {n} environments")
            wanted: list[int | None] = [None if s is None else check_seed(s) for s in seed]
            given = [s for s in wanted if s is not None]
            if given:
                self._np_random, self._np_random_seed = seeding.np_random(given[0])
        else:
            if seed is not None:
                seed = check_seed(seed)  # numpy integers too, as a plain int from here on
                check_seed(seed + n - 1)
                self._np_random, self._np_random_seed = seeding.np_random(seed)
            wanted = [None if seed is None else seed + i for i in range(n)]
        seeds = self._draw_seeds(n)
        for i, s in enumerate(wanted):
            if s is not None:
                seeds[i] = s
        self._seeds[:] = seeds
        K.reset_all(
            self._seeds, self._obs, self._mask, self._legal, self._ring, self._head, self._steps,
            self._pending, self._flee_rule, self._equal, self._deck,
        )
        self._illegal[:] = False
        self._started = True
        return self._out(self._obs), self._info()

    def step(self, actions: npt.ArrayLike) -> tuple[
        npt.NDArray[np.int8], npt.NDArray[np.float64], npt.NDArray[np.bool_],
        npt.NDArray[np.bool_], dict[str, Any],
    ]:
        """Step every game with its action; finished games reset on the next step (gymnasium's
        next-step autoreset).
        """
        if not self._started:
            raise ScoundrelError("step() before reset(): call reset() first")
        a = action_array(actions, self.num_envs)
        if self.illegal_action == "raise":
            k = K.first_illegal(a, self._mask, self._pending)
            if k >= 0:
                name = str(ACTIONS[a[k]]) if 0 <= a[k] < NUM_ACTIONS else "not an action"
                raise IllegalActionError(
                    f"illegal action {a[k]} ({name}) in environment {k}: "
                    f"{room_text(decode(self._obs[k]))}"
                )
        k = int(np.count_nonzero(self._pending))
        if k:
            self._reset_seeds[self._pending] = self._draw_seeds(k)
        K.step_all(
            a, self._obs, self._mask, self._legal, self._ring, self._head, self._steps,
            self._pending, self._reset_seeds, self._seeds, self._reward, self._terminated,
            self._truncated, self._illegal, self._flee_rule, self._equal,
            self.max_episode_steps or 0, float(WORST_SCORE), self._deck,
        )
        return (
            self._out(self._obs),
            self._reward.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            self._info(),
        )

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self._out(self._mask),
            "legal_actions": self._out(self._legal),
            "deal_seed": self._seeds.copy(),
            "illegal_action": self._illegal.copy(),
        }

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game, ``(num_envs, NUM_ACTIONS)``."""
        return self._mask.copy()

    def render(self) -> tuple[str, ...] | None:
        """One line per game (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or not self._started:
            return None
        return tuple(room_text(decode(o)) for o in self._obs)


def random_legal_actions(
    mask: npt.NDArray[np.bool_], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """A uniformly random legal action per row of an ``(N, NUM_ACTIONS)`` mask, in numpy.

    A row without legal actions (a game that just ended) gets action 0, which
    the next-step autoreset ignores. :func:`random_listed_actions` makes the
    same choice from ``info["legal_actions"]``, several times faster.

    >>> mask = np.zeros((2, 89), np.bool_)
    >>> mask[0, [4, 9]] = True
    >>> [int(a) for a in random_legal_actions(mask, np.random.default_rng(0))]
    [9, 0]
    """
    n, width = mask.shape
    legal = np.flatnonzero(mask)  # row * width + action, row by row
    u = rng.random(n)
    if not len(legal):
        return np.zeros(n, np.int64)
    rows = legal // width
    counts = np.bincount(rows, minlength=n)  # far faster than counting along rows
    pick = np.cumsum(counts) - counts
    pick += (u * counts).astype(np.int64)
    chosen = legal.take(np.minimum(pick, len(legal) - 1)) % width
    return np.where(counts > 0, chosen, 0)


def random_listed_actions(
    legal_actions: npt.NDArray[np.int8], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """A uniformly random legal action per game, from ``info["legal_actions"]``.

    The same choice as :func:`random_legal_actions` from the lists of legal
    actions (``(N, MAX_LEGAL)``, ascending, -1 after the last) instead of the
    mask: one uniform draw per game picks an entry among its listed ones. A
    game without legal actions gets 0.

    >>> legal = np.array([[4, 9, -1], [-1, -1, -1]], np.int8)
    >>> [int(a) for a in random_listed_actions(legal, np.random.default_rng(0))]
    [9, 0]
    """
    n, width = legal_actions.shape
    # einsum sums the flags of each short row in one pass, several times faster
    # than count_nonzero along the rows (int8 holds the count: at most MAX_LEGAL).
    counts = np.einsum("ij->i", (legal_actions >= 0).view(np.int8))
    pick = (rng.random(n) * counts).astype(np.intp)
    pick += np.arange(0, n * width, width)
    chosen: npt.NDArray[np.int64] = legal_actions.reshape(-1).take(pick).astype(np.int64)
    np.maximum(chosen, 0, out=chosen)  # -1: a game without legal actions
    return chosen
