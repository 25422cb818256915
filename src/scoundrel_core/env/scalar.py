"""One game of Scoundrel as a gymnasium environment, over the library's rules.

The environment keeps the true :class:`~scoundrel_core.State` (to play the
rules) and the player's view of it (:class:`.view.PlayerView`: the
observation of the player's :class:`~scoundrel_core.InfoState`, kept up to
date step by step and tested equal to encoding what
:func:`~scoundrel_core.observe` gives). Observations come from what the player
sees only, so no policy can learn the dungeon order; the legal actions are
the rules' own, which are the same in the true and the information state.

>>> import gymnasium
>>> import scoundrel_core.env
>>> env = gymnasium.make("scoundrel_core.env:Scoundrel-v0", variant="hard")
>>> obs, info = env.reset(seed=0)
>>> int(obs[4]), int(info["action_mask"].sum()), info["deal_seed"]
(20, 4, 0)
"""

from __future__ import annotations

from typing import Any, Final

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..actions import ACTIONS, NUM_ACTIONS
from ..cards import DECK_SIZE, parse_deck
from ..deal import check_seed
from ..errors import IllegalActionError, ScoundrelError
from ..info import InfoState
from ..jit import deal_into
from ..rules import ROOM_SIZE, apply_trusted, legal_ids
from ..state import State, dealt_state
from ..variants import Variant, get_variant
from ._vector_kernel import MAX_LEGAL
from .action_input import action_index
from .observation import OBS_HIGH, OBS_LOW, WORST_SCORE
from .view import PlayerView

__all__ = ["ILLEGAL_ACTION_MODES", "ScoundrelEnv", "check_options", "room_text"]

ILLEGAL_ACTION_MODES: Final = ("loss", "raise")
"""What an illegal action may do: end the game as a loss (default) or raise."""

ObsArray = npt.NDArray[np.int8]


def check_options(render_mode: str | None, illegal_action: str, modes: list[str]) -> None:
    """Reject an unknown render mode or illegal-action mode, naming it."""
    if render_mode is not None and render_mode not in modes:
        raise ScoundrelError(f"render_mode {render_mode!r} is not one of {modes}")
    if illegal_action not in ILLEGAL_ACTION_MODES:
        raise ScoundrelError(
            f"illegal_action {illegal_action!r} is not one of {list(ILLEGAL_ACTION_MODES)}"
        )


_NO_LIST: Final = bytes([0xFF] * MAX_LEGAL)  # -1 as int8


def mask_of(ids: list[int]) -> npt.NDArray[np.bool_]:
    """A fresh mask of length ``NUM_ACTIONS``, true at the ids."""
    mask = bytearray(NUM_ACTIONS)
    for a in ids:
        mask[a] = 1
    return np.frombuffer(mask, np.bool_)


def listed(ids: list[int]) -> npt.NDArray[np.int8]:
    """The ids ascending, padded with -1 to ``MAX_LEGAL`` entries."""
    return np.frombuffer(bytearray(bytes(sorted(ids)) + _NO_LIST[len(ids) :]), np.int8)


def room_text(info: InfoState) -> str:
    """The room, health and weapon of a position, as one line of text."""
    weapon = f"{info.weapon_value}D" if info.weapon_value else "-"
    if info.weapon_value and info.last_kill:
        weapon += f" (last kill {info.last_kill})"
    room = " ".join(map(str, info.room)) or "-"
    end = "" if not info.is_over else f" | over, score {info.score}"
    return (
        f"room [{room}] | health {info.health} | weapon {weapon} | dungeon "
        f"{info.dungeon_size} ({len(info.unseen)} unseen, {len(info.bottom)} fled){end}"
    )


class ScoundrelEnv(gym.Env[ObsArray, np.int64]):
    """A single game: ``Discrete(89)`` actions, the observation of :mod:`.observation`.

    Rewards are sparse: 0 on every step but the last, which pays the final
    score, so an episode's return is the game's score. An illegal action ends
    the episode with the reward :data:`~.observation.WORST_SCORE` (-188, the
    worst score of any game) and ``info["illegal_action"] = True``, or raises
    :class:`~scoundrel_core.IllegalActionError` with ``illegal_action="raise"``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        variant: str | Variant = "classic",
        weapon_rule: str | None = None,
        render_mode: str | None = None,
        illegal_action: str = "loss",
    ) -> None:
        check_options(render_mode, illegal_action, self.metadata["render_modes"])
        self.variant = get_variant(variant, weapon_rule)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(OBS_LOW, OBS_HIGH, dtype=np.int8)
        self._state: State | None = None
        self._view = PlayerView()
        self._legal: list[int] = []  # the legal actions now, ascending
        self._ended = True
        self._deck = np.zeros(DECK_SIZE, np.int64)

    # -- the gymnasium API ----------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsArray, dict[str, Any]]:
        """Deal seed ``seed``, an explicit ``options["deck"]``, or a seed drawn from
        ``np_random``; ``info["deal_seed"]`` is the seed dealt (None for a deck)."""
        if seed is not None:  # numpy integers too, as a plain int from here on
            seed = check_seed(seed)
        unknown = sorted(set(options or {}) - {"deck"})
        if unknown:
            raise ScoundrelError(f"unknown reset options {unknown}; known: ['deck']")
        deck = (options or {}).get("deck")
        if deck is not None:
            cards = parse_deck(deck)
            deal_seed: int | None = None
            state = State.from_parts(
                dungeon=cards[ROOM_SIZE:], room=cards[:ROOM_SIZE], variant=self.variant
            )
        else:
            # Without a seed, np_random (seeded by the last reset(seed=...)) draws one,
            # so the deals that follow a seeded reset are reproducible too.
            rng = self.np_random
            deal_seed = seed
            if deal_seed is None:
                deal_seed = int(rng.bit_generator.random_raw())  # uniform over 64 bits
            check_seed(deal_seed)
            # The kernel's deal (tested equal to scoundrel_core.deal) is 10x faster.
            deal_into(np.uint64(deal_seed), self._deck)
            state = dealt_state(self._deck.tolist(), self.variant)
        super().reset(seed=seed)
        self._state = state
        self._view.start(state)  # what the player knows: the room, the rest unseen
        self._legal = legal_ids(state)
        self._ended = False
        return self._obs(), {
            "action_mask": mask_of(self._legal),
            "legal_actions": listed(self._legal),
            "deal_seed": deal_seed,
            "illegal_action": False,
        }

    def step(self, action: int | np.integer[Any]) -> tuple[
        ObsArray, float, bool, bool, dict[str, Any]
    ]:
        """Play one action: observation, reward (the score on the last step), terminated,
        truncated, info.
        """
        if self._state is None:
            raise ScoundrelError("step() before reset(): call reset() first")
        if self._ended:
            raise ScoundrelError("step() after the episode ended: call reset() first")
        a = action_index(action)
        if a not in self._legal:
            return self._illegal(a)
        # The legal actions are the rules' own, so the rules' check is skipped.
        before = self._state
        self._state = after = apply_trusted(before, a)
        self._view.follow(before, a, after)
        score = after.score
        self._legal = legal_ids(after)
        self._ended = over = score is not None
        return self._obs(), 0.0 if score is None else float(score), over, False, {
            "action_mask": mask_of(self._legal),
            "legal_actions": listed(self._legal),
            "illegal_action": False,
        }

    def _illegal(self, a: int) -> tuple[ObsArray, float, bool, bool, dict[str, Any]]:
        if self.illegal_action == "raise":
            name = str(ACTIONS[a]) if 0 <= a < NUM_ACTIONS else "not an action"
            raise IllegalActionError(
                f"illegal action {a} ({name}) in {self.info_state.to_text()}"
            )
        # Rewards before the last step are 0, so this reward is the whole return.
        self._ended = True
        self._legal = []
        return self._obs(), float(WORST_SCORE), True, False, {
            "action_mask": mask_of([]),
            "legal_actions": listed([]),
            "illegal_action": True,
        }

    def _obs(self) -> ObsArray:
        return np.frombuffer(bytearray(self._view.slots), np.int8)  # a fresh copy

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now (all false once the episode has ended)."""
        return mask_of(self._legal)

    def render(self) -> str | None:
        """The position as text in ``render_mode="ansi"``, else None."""
        if self.render_mode != "ansi" or self._state is None:
            return None
        return room_text(self.info_state)

    # -- for agents and tests -----------------------------------------------------------

    @property
    def info_state(self) -> InfoState:
        """The player's information state (what the observation encodes)."""
        if self._state is None:
            raise ScoundrelError("no game yet: call reset() first")
        return self._view.info_state(self._state)
