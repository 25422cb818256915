"""Scoundrel as an OpenSpiel game: one player, explicit chance, imperfect information.

The state of the game *is* what the player knows, an
:class:`~scoundrel_core.InfoState`, plus the cards still to be drawn when it
is a chance node. The dungeon's order does not exist yet: each card drawn is a
chance node over the unseen cards (uniform), or over the one card at the top
of the known bottom once every unseen card is out. So no state holds more
than a player sees, and a search that samples the chance nodes plays fair by
construction.

Actions (player 0) are the library's encoding (``scoundrel_core.actions``):
``2 * card id`` resolves a card (equip, drink, fight barehanded), ``2 * card
id + 1`` fights a monster with the weapon, 88 flees. Chance outcomes are card
ids 0..43. ``action_to_string`` writes the project's notation: ``7D``,
``KS/w``, ``KS/f``, ``flee``; ``QS`` for a card drawn.

Game parameters: ``variant`` (``classic`` or ``hard``), ``weapon_rule``
(``strict`` or ``equal``), and ``seed`` (-1 = none, else 0..2**31 - 1:
OpenSpiel's integer parameters are 32-bit C++ ints, so a larger deal seed is
refused with a :class:`~scoundrel_core.SeedError` saying so; ``play_deal``
plays every deal seed). ``easy`` is refused: it allows fleeing forever, and an
OpenSpiel game must have a bounded length.

A state's ``serialize()`` is plain text (:data:`SERIAL_FORMAT`): the line of
actions and chance outcomes from the opening, then the position it reaches.
``deserialize_state`` replays that line with the library's checks and compares
the position, so a crafted text can only be refused; OpenSpiel's default for
Python games is a pickle, which runs whatever code it names when loaded.
A game loaded with a seed deals that seed's cards through
:meth:`ScoundrelSpielState.dealt_outcome` (for running the deal); its chance
nodes still list every unseen card, so a search cannot see the deal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

import pyspiel

from ..actions import NUM_ACTIONS, Action
from ..cards import DECK_SIZE, FULL_DECK, card
from ..deal import MAX_SEED
from ..errors import IllegalActionError, SeedError, StateTextError, VariantError
from ..info import ChanceNode, InfoState
from ..rules import apply as apply_rules
from ..rules import new_game
from ..state import MAX_HEALTH, State
from ..variants import Variant, get_variant

__all__ = [
    "GAME_TYPE",
    "MAX_CHANCE_NODES",
    "MAX_DECISIONS",
    "MAX_SPIEL_SEED",
    "SERIAL_FORMAT",
    "SHORT_NAME",
    "ScoundrelSpielGame",
    "ScoundrelSpielState",
    "game_info",
]

SHORT_NAME: Final = "python_scoundrel"
"""The name the game is registered under in OpenSpiel (``pyspiel.load_game``)."""

WORST_SCORE: Final = MAX_HEALTH - sum(c.value for c in FULL_DECK if c.is_monster)
"""-188: dying at once with every monster left (see ``env.observation.WORST_SCORE``)."""
BEST_SCORE: Final = 30
"""A win at 20 health with the 10 of hearts last."""

MAX_FLEES: Final = 15
"""Under classic a fled-into room must be played (three cards resolved, or the
game ends) before the next flee, so 44 cards allow at most 15 flees."""
MAX_DECISIONS: Final = DECK_SIZE + MAX_FLEES
"""59: every card resolved once, plus the flees."""
MAX_CHANCE_NODES: Final = DECK_SIZE + 4 * MAX_FLEES
"""104: every card drawn once, plus the fled cards drawn again from the bottom."""
MAX_SPIEL_SEED: Final = 2**31 - 1
"""The largest ``seed`` parameter: OpenSpiel keeps integer parameters as 32-bit C++ ints."""
SERIAL_FORMAT: Final = "scoundrel-openspiel-state/1"
"""The first line of a serialised state; then ``line=`` and ``position=`` (see
:meth:`ScoundrelSpielState.serialize`)."""
_MAX_SERIAL: Final = 64 * 1024  # bytes: a whole game's line and position fit in 2 KB

GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Scoundrel v0 (the rules, observation and reward of Scoundrel-v0)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "classic", "weapon_rule": "strict", "seed": -1},
)
"""OpenSpiel's description of the game: one player, explicit chance, imperfect information,
terminal reward.
"""


def game_info() -> pyspiel.GameInfo:
    """OpenSpiel's sizes of the game: actions, chance outcomes, players, utilities and length."""
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=DECK_SIZE,
        num_players=1,
        min_utility=float(WORST_SCORE),
        max_utility=float(BEST_SCORE),
        utility_sum=None,
        max_game_length=MAX_DECISIONS,
    )


def _variant_of(params: dict[str, Any]) -> Variant:
    v = get_variant(str(params["variant"]), str(params["weapon_rule"]))
    if v.may_flee_twice:
        raise VariantError(
            "variant 'easy' is not offered as an OpenSpiel game: it allows fleeing "
            "every room forever, and an OpenSpiel game must have a bounded length; "
            "use 'classic' or 'hard'"
        )
    return v


# The state keeps its InfoState packed into small integers: OpenSpiel copies a
# Python state by pickling its __dict__, and a tuple of ints pickles about ten
# times faster than an InfoState of Card objects.
Packed = tuple[int, tuple[int, ...], int, int, int, int, int, int, int, tuple[int, ...], int, int]


def pack(info: InfoState, mask: int | None = None) -> Packed:
    """An InfoState as small integers (unseen cards as a 44-bit mask; score 999 = none).

    ``mask``, when the caller knows it, is the unseen mask (saves a loop over the cards).
    """
    if mask is None:
        mask = 0
        for c in info.unseen:
            mask |= 1 << c.id
    return (
        info.variant.code, tuple(c.id for c in info.room), info.health, info.weapon_value,
        info.last_kill or 0, int(info.potion_used), info.resolved_in_room,
        int(info.fled_last), mask, tuple(c.id for c in info.bottom), int(info.is_over),
        999 if info.score is None else info.score,
    )


_KNOWN: dict[Packed, InfoState] = {}
"""Recently packed or unpacked positions, so that reading ``info`` back is a lookup."""
_KNOWN_CAP: Final = 1 << 16


def remember(p: Packed, info: InfoState) -> None:
    if len(_KNOWN) >= _KNOWN_CAP:
        _KNOWN.clear()
    _KNOWN[p] = info


def unpack(p: Packed) -> InfoState:
    """The InfoState of :func:`pack`."""
    info = _KNOWN.get(p)
    if info is None:
        info = _unpack(p)
        remember(p, info)
    return info


def _unpack(p: Packed) -> InfoState:
    code, room, health, weapon, last, potion, resolved, fled, mask, bottom, over, score = p
    return InfoState(
        variant=Variant.from_code(code), room=tuple(FULL_DECK[i] for i in room),
        health=health, weapon_value=weapon, last_kill=last or None,
        potion_used=bool(potion), resolved_in_room=resolved, fled_last=bool(fled),
        unseen=frozenset(c for c in FULL_DECK if mask >> c.id & 1),
        bottom=tuple(FULL_DECK[i] for i in bottom), is_over=bool(over),
        score=None if score == 999 else score,
    )


class ScoundrelSpielGame(pyspiel.Game):  # type: ignore[misc]
    """``pyspiel.load_game("python_scoundrel(variant=hard,weapon_rule=equal)")``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = dict(GAME_TYPE.parameter_specification)
        p.update(params or {})
        self.variant = _variant_of(p)
        seed = p["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not -1 <= seed <= MAX_SEED:
            raise SeedError(f"seed {seed!r} is not -1 (no deal) or a deal seed")
        if seed > MAX_SPIEL_SEED:
            raise SeedError(
                f"seed {seed} is above {MAX_SPIEL_SEED}, the largest OpenSpiel game parameter "
                "(a 32-bit int); play that deal with scoundrel_core.openspiel.deals.play_deal("
                f"game, choose, {seed}) on the unseeded game")
        self.seed: int | None = None if seed < 0 else seed
        self.opening = pack(InfoState(
            variant=self.variant, room=(), health=MAX_HEALTH, weapon_value=0, last_kill=None,
            potion_used=False, resolved_in_room=0, fled_last=False,
            unseen=frozenset(FULL_DECK), bottom=(),
        ))
        """The packed knowledge before the first card is drawn: all 44 cards unseen."""
        self.deal: State | None = (
            None if self.seed is None else new_game(seed=self.seed, variant=self.variant)
        )
        """The seeded deal's opening position (None without a seed)."""
        super().__init__(GAME_TYPE, game_info(), params or {})

    def new_initial_state(self) -> ScoundrelSpielState:
        """The start of a game: the seeded deal's opening, or chance dealing the first room."""
        return ScoundrelSpielState(self)

    def deserialize_state(self, text: str) -> ScoundrelSpielState:
        """The state of :meth:`ScoundrelSpielState.serialize`, rebuilt by replaying its line
        from the opening with the library's checks; the position it reaches must be the
        one written. Anything else is a :class:`~scoundrel_core.StateTextError`: no text
        runs code (OpenSpiel's own form for Python games is a pickle, refused here).

        (``pyspiel.deserialize_game_and_state`` calls OpenSpiel's C++ loader, which
        unpickles whatever it is given before any Python code of this game can check it:
        never give it text you did not write; see docs/openspiel.md.)
        """
        if not isinstance(text, str):
            raise StateTextError(f"a serialised state is text, not {type(text).__name__}")
        if len(text) > _MAX_SERIAL:
            raise StateTextError(f"a serialised state of {len(text):,} characters (at most "
                                 f"{_MAX_SERIAL:,}); not one this game wrote")
        lines = text.split("\n")
        if (len(lines) != 3 or lines[0] != SERIAL_FORMAT or not lines[1].startswith("line=")
                or not lines[2].startswith("position=")):
            raise StateTextError(
                f"not a serialised {SHORT_NAME} state (expected '{SERIAL_FORMAT}', then "
                "'line=' and 'position=' lines); OpenSpiel's pickled form is refused")
        body = lines[1][len("line="):]
        items = body.split(",") if body else []
        if len(items) > MAX_DECISIONS + MAX_CHANCE_NODES:
            raise StateTextError(f"a line of {len(items)} steps is longer than any game")
        state = self.new_initial_state()
        for i, item in enumerate(items):
            if not (item.isascii() and item.isdigit() and len(item) <= 2):
                raise StateTextError(f"step {i + 1} of the line, {item[:20]!r}, is not an "
                                     "action or card number")
            if state.is_terminal():
                raise StateTextError(f"step {i + 1} of the line comes after the game ended")
            try:
                state.apply_action(int(item))
            except (IllegalActionError, RuntimeError, ValueError) as err:
                raise StateTextError(f"step {i + 1} of the line: {err}") from None
        if lines[2][len("position="):] != state.info_text():
            raise StateTextError("the position written is not the one its line reaches")
        return state

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> Any:
        """The observer OpenSpiel asks for: the information state or the observation."""
        from .observer import make_observer

        return make_observer(iig_obs_type, params)


class ScoundrelSpielState(pyspiel.State):  # type: ignore[misc]
    """A position: the player's :class:`InfoState` and the draws still to come.

    ``info`` is the knowledge now; at a chance node it holds the room dealt so
    far and ``to_draw`` more cards are to come (``fled``: the room is being
    dealt by a flee). Nothing else about the dungeon is kept, except, in a
    game loaded with a seed, the true position of that deal (``dealt_outcome``),
    which no chance node, string or tensor reads.
    """

    # The InfoState object itself sits in a slot, which OpenSpiel's copy (a pickle
    # of __dict__) leaves out: a copy reads it back from the packed form once.
    # (OpenSpiel's copy also runs __init__ first, so __init__ is kept cheap.)
    __slots__ = ("__dict__", "_info", "_info_of")

    def __init__(self, game: ScoundrelSpielGame) -> None:
        super().__init__(game)
        self._packed = game.opening
        self.to_draw = 4
        self.fled = False
        # The seeded deal's true position, while the history follows it.
        self._deal = game.deal

    @property
    def info(self) -> InfoState:
        """What the player knows (at a chance node: with the room dealt so far)."""
        p = self._packed
        if getattr(self, "_info_of", None) is not p:  # a fresh copy: read it back once
            self._info = unpack(p)
            self._info_of = p
        return self._info

    def _set(self, info: InfoState, mask: int | None = None) -> None:
        self._packed = p = pack(info, mask)
        self._info, self._info_of = info, p
        remember(p, info)

    # -- OpenSpiel's state API -----------------------------------------------------

    def current_player(self) -> int:
        """The player to act: 0, chance while cards are to be drawn, or terminal."""
        if self.info.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.to_draw:
            return int(pyspiel.PlayerId.CHANCE)
        return 0

    def _legal_actions(self, player: int) -> list[int]:
        assert player == 0
        return [int(a) for a in self.info.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card drawn: each unseen card with equal probability, or the next fled card
        at the bottom. Only at a chance node (an :class:`IllegalActionError` elsewhere).
        """
        if not self.to_draw or self.info.is_over:
            where = "the game is over" if self.info.is_over else "it is the player's turn"
            raise IllegalActionError(f"chance_outcomes() is asked at a chance node only; "
                                     f"here {where}: {self.info_text()}")
        info = self.info
        if info.unseen:
            p = 1.0 / len(info.unseen)
            return [(c.id, p) for c in sorted(info.unseen, key=lambda c: c.id)]
        return [(info.bottom[0].id, 1.0)]

    def _apply_action(self, action: int) -> None:
        if self.to_draw:
            self._draw(int(action))
            return
        a = Action(action)
        nxt = self.info.apply(a)  # raises IllegalActionError on an illegal action
        if self._deal is not None:
            self._deal = apply_rules(self._deal, a)
        mask = self._packed[8]  # a player's action never changes which cards are unseen
        if isinstance(nxt, ChanceNode):
            self._set(nxt.base, mask)
            self.to_draw, self.fled = nxt.to_draw, nxt.fled
        else:
            self._set(nxt, mask)

    def _draw(self, card_id: int) -> None:
        info = self.info
        mask = self._packed[8]
        if not 0 <= card_id < DECK_SIZE:
            raise IllegalActionError(f"chance outcome {card_id} is not a card id 0..43")
        c = card(card_id)
        if info.unseen:
            if c not in info.unseen:
                raise IllegalActionError(f"card {c} drawn but it is not unseen")
            info = replace(info, room=(*info.room, c), unseen=info.unseen - {c})
            mask &= ~(1 << card_id)
        else:
            if c != info.bottom[0]:
                raise IllegalActionError(f"card {c} drawn but the next card is {info.bottom[0]}")
            info = replace(info, room=(*info.room, c), bottom=info.bottom[1:])
        if self._deal is not None and self._deal.room[len(info.room) - 1] != c:
            self._deal = None  # the history left the seeded deal
        self.to_draw -= 1
        if not self.to_draw:
            info = replace(info, fled_last=self.fled)
            self.fled = False
        self._set(info, mask)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(card(action))
        return str(Action(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.info.is_over

    def returns(self) -> list[float]:
        """The player's return: the final score once the game is over, else 0."""
        score = self.info.score
        return [float(score) if score is not None else 0.0]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the player cannot tell from this one, as ISMCTS needs.

        Every state with this information state has the same future (the
        state is the information state, plus the history that led to it), so
        a copy is a correct sample; the seeded deal, which the player does not
        know, is dropped from it.
        """
        del player_id, probability_sampler
        s = self.clone()
        s._deal = None
        return s

    # -- beyond OpenSpiel's API ----------------------------------------------------

    def dealt_outcome(self) -> int:
        """At a chance node of a game loaded with a seed: the card the deal puts here.

        For running the seeded deal; a search must sample ``chance_outcomes()``
        instead, or it sees the deal. Raises once the history has left the deal.
        """
        if not self.to_draw:
            raise IllegalActionError(f"not a chance node: {self}")
        if self._deal is None:
            raise IllegalActionError(
                "no deal to follow: the game has no seed, or its chance outcomes left the deal"
            )
        return self._deal.room[len(self.info.room)].id

    def serialize(self) -> str:
        """The state as plain text: :data:`SERIAL_FORMAT`, then ``line=`` and the actions and
        chance outcomes from the opening (numbers, comma-separated), then ``position=`` and
        :meth:`info_text`. :meth:`ScoundrelSpielGame.deserialize_state` reads it back."""
        line = ",".join(str(a) for a in self.history())
        return f"{SERIAL_FORMAT}\nline={line}\nposition={self.info_text()}"

    def info_text(self) -> str:
        """The information state as text: ``InfoState.to_text()``, plus the draws
        pending at a chance node."""
        text = self.info.to_text()
        if self.to_draw:
            text += f" | to_draw={self.to_draw} by={'flee' if self.fled else 'refill'}"
        return text

    def __str__(self) -> str:
        return self.info_text()
