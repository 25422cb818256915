"""One game of Scoundrel as a gymnasium environment, over the library's rules.

The environment keeps the true :class:`~scoundrel_core.State` (to play the
rules) and the player's :class:`~scoundrel_core.InfoState` (updated with
:func:`~scoundrel_core.observe`); observations and masks are built from the
information state only, so no policy can learn the dungeon order.

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

from ..actions import ACTIONS, FLEE_ID, NUM_ACTIONS
from ..cards import DECK_SIZE, FULL_DECK, Kind, parse_deck
from ..deal import check_seed
from ..errors import IllegalActionError, ScoundrelError
from ..info import InfoState, observe
from ..rules import ROOM_SIZE, _apply_legal
from ..state import MAX_HEALTH, State
from ..variants import Variant, get_variant
from ._vector_kernel import MAX_LEGAL, deal_into
from .observation import OBS_HIGH, OBS_LOW, WORST_SCORE, Encoder

__all__ = ["ILLEGAL_ACTION_MODES", "ScoundrelEnv", "check_options", "legal_ids", "room_text"]

ILLEGAL_ACTION_MODES: Final = ("loss", "raise")

ObsArray = npt.NDArray[np.int8]


def check_options(render_mode: str | None, illegal_action: str, modes: list[str]) -> None:
    """Reject an unknown render mode or illegal-action mode, naming it."""
    if render_mode is not None and render_mode not in modes:
        raise ScoundrelError(f"render_mode {render_mode!r} is not one of {modes}")
    if illegal_action not in ILLEGAL_ACTION_MODES:
        raise ScoundrelError(
            f"illegal_action {illegal_action!r} is not one of {list(ILLEGAL_ACTION_MODES)}"
        )


_NO_ACTIONS: Final = np.zeros(NUM_ACTIONS, np.bool_)
_NO_LIST: Final = np.full(MAX_LEGAL, -1, np.int8)


def legal_ids(info: InfoState) -> list[int]:
    """The legal actions of an information state as ints (none once over).

    The same actions as :func:`scoundrel_core.legal_action_mask`, without
    building Action objects.
    """
    if info.is_over:
        return []
    reach = info.weapon_reach
    ids = []
    for c in info.room:
        ids.append(2 * c.id)
        if c.kind is Kind.MONSTER and c.value <= reach:
            ids.append(2 * c.id + 1)
    if info.can_flee():
        ids.append(FLEE_ID)
    return ids


def mask_of(ids: list[int]) -> npt.NDArray[np.bool_]:
    mask = bytearray(NUM_ACTIONS)
    for a in ids:
        mask[a] = 1
    return np.frombuffer(mask, np.bool_)


def listed(ids: list[int]) -> npt.NDArray[np.int8]:
    """The ids ascending, padded with -1 to ``MAX_LEGAL`` entries."""
    out = _NO_LIST.copy()
    out[: len(ids)] = sorted(ids)
    return out


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
        self._info: InfoState | None = None
        self._mask = _NO_ACTIONS.copy()  # handed out: never read back
        self._legal: frozenset[int] = frozenset()
        self._listed = _NO_LIST.copy()
        self._ended = True
        self._encode = Encoder()
        self._deck = np.zeros(DECK_SIZE, np.int64)

    # -- the gymnasium API ----------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsArray, dict[str, Any]]:
        """Deal seed ``seed``, an explicit ``options["deck"]``, or a seed drawn from
        ``np_random``; ``info["deal_seed"]`` is the seed dealt (None for a deck)."""
        unknown = sorted(set(options or {}) - {"deck"})
        if unknown:
            raise ScoundrelError(f"unknown reset options {unknown}; known: ['deck']")
        deck = (options or {}).get("deck")
        if deck is not None:
            cards = parse_deck(deck)
            deal_seed: int | None = None
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
            cards = tuple(FULL_DECK[i] for i in self._deck.tolist())
        super().reset(seed=seed)
        room, dungeon = cards[:ROOM_SIZE], cards[ROOM_SIZE:]
        self._state = State.from_parts(dungeon=dungeon, room=room, variant=self.variant)
        # What the player knows of a new deal: the room, and that the rest is unseen.
        self._info = InfoState(
            variant=self.variant, room=room, health=MAX_HEALTH, weapon_value=0, last_kill=None,
            potion_used=False, resolved_in_room=0, fled_last=False,
            unseen=frozenset(dungeon), bottom=(),
        )
        self._set_legal(legal_ids(self._info))
        self._ended = False
        return self._encode(self._info, new_game=True), {
            "action_mask": self._mask,
            "legal_actions": self._listed,
            "deal_seed": deal_seed,
            "illegal_action": False,
        }

    def step(self, action: int | np.integer[Any]) -> tuple[
        ObsArray, float, bool, bool, dict[str, Any]
    ]:
        if self._state is None or self._info is None:
            raise ScoundrelError("step() before reset(): call reset() first")
        if self._ended:
            raise ScoundrelError("step() after the episode ended: call reset() first")
        a = int(action)
        if a not in self._legal:
            return self._illegal(a)
        # The mask is the legal actions, so the rules' own check is skipped.
        self._state = _apply_legal(self._state, a)
        self._info = observe(self._info, ACTIONS[a], self._state)
        over = self._info.is_over
        reward = float(self._info.score) if over and self._info.score is not None else 0.0
        self._set_legal(legal_ids(self._info))
        self._ended = over
        return self._encode(self._info), reward, over, False, {
            "action_mask": self._mask,
            "legal_actions": self._listed,
            "illegal_action": False,
        }

    def _illegal(self, a: int) -> tuple[ObsArray, float, bool, bool, dict[str, Any]]:
        assert self._info is not None
        if self.illegal_action == "raise":
            name = str(ACTIONS[a]) if 0 <= a < NUM_ACTIONS else "not an action"
            raise IllegalActionError(
                f"illegal action {a} ({name}) in {self._info.to_text()}"
            )
        # Rewards before the last step are 0, so this reward is the whole return.
        self._ended = True
        self._set_legal([])
        return self._encode(self._info), float(WORST_SCORE), True, False, {
            "action_mask": self._mask,
            "legal_actions": self._listed,
            "illegal_action": True,
        }

    def _set_legal(self, ids: list[int]) -> None:
        # Legality is checked against the ids; the mask array is only handed out
        # (a fresh one each step), so a caller writing into it changes nothing here.
        self._legal = frozenset(ids)
        self._mask = mask_of(ids)
        self._listed = listed(ids)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now (all false once the episode has ended)."""
        return self._mask.copy()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._info is None:
            return None
        return room_text(self._info)

    # -- for agents and tests -----------------------------------------------------------

    @property
    def info_state(self) -> InfoState:
        """The player's information state (what the observation encodes)."""
        if self._info is None:
            raise ScoundrelError("no game yet: call reset() first")
        return self._info
