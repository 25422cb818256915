"""Public facade of the exact solver: validate, convert once, run the kernel, explain.

``solve`` accepts a State (any position), a deck (text or cards, top first) or
a seed; it returns a :class:`SolveResult` whose line replays through
``scoundrel_core`` to the reported score (the kernel plays by the rules; the
tests replay the lines).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from numbers import Integral, Real

import numpy as np

import scoundrel_core as sc
from scoundrel_core import Card, State
from scoundrel_core.encoding import (
    FLEE_ANY,
    FLEE_NEVER,
    FLEE_NOT_TWICE,
    TYPE_BITS,
    TYPE_BY_ID,
    card_type,
)
from scoundrel_core.steps import resolve_card

from ..errors import SolverError
from . import _kernel as k
from ._layout import (
    DUNGEON_WORDS,
    NP,
    P_CAP,
    P_D0,
    P_FLED,
    P_HP,
    P_ND,
    P_NR,
    P_PU,
    P_R0,
    P_REM,
    P_RES,
    P_W,
    PER_WORD,
    REM_BIT,
)
from ._phi import upper_bound
from .result import SolveResult
from .table import DEFAULT_TABLE_MIB, TranspositionTable, check_table_mib

__all__ = ["SolveGroup", "card_type", "is_winnable", "solve", "solve_value", "state_row"]

_tables: dict[int, TranspositionTable] = {}
_workspace: list[tuple[np.ndarray, ...]] = []


def _scratch() -> tuple[np.ndarray, ...]:
    if not _workspace:
        _workspace.append(k.make_workspace())
    return _workspace[0]


_REM_BIT_BY_ID = [int(REM_BIT[t]) for t in TYPE_BY_ID]
# Per place in a dungeon word, each card's type shifted into that place.
_TYPE_SHIFTED = [[t << (i * TYPE_BITS) for t in TYPE_BY_ID] for i in range(PER_WORD)]
_CARD_TEXT = tuple(str(c) for c in sc.FULL_DECK)

Cards = tuple[list[int], list[int]]
"""A position's room and dungeon as card ids (top of the dungeon first)."""


def _card_ids(s: State) -> Cards:
    return [c.id for c in s.room], [c.id for c in s.dungeon]


def state_row(s: State, cards: Cards | None = None) -> np.ndarray:
    """The kernel row of a position that is not over (plain Python: no JIT dispatch).

    ``cards``: the position's card ids, when the caller has them already.
    """
    room_ids, dungeon_ids = _card_ids(s) if cards is None else cards
    words = [0] * DUNGEON_WORDS
    rem = 0
    for i, c in enumerate(dungeon_ids):
        words[i // PER_WORD] |= _TYPE_SHIFTED[i % PER_WORD][c]
        rem += _REM_BIT_BY_ID[c]
    room = [TYPE_BY_ID[c] for c in room_ids]
    for c in room_ids:
        rem += _REM_BIT_BY_ID[c]
    weapon, cap = s.weapon_value, s.weapon_reach
    # The same canonical weapon as the kernel's _canonical_weapon.
    if weapon:
        monsters = [v for v in range(2, 15) if (rem >> (2 * (v - 2))) & 3]
        if monsters:
            cap = min(cap, monsters[-1])
        if not monsters or cap < monsters[0]:
            weapon = cap = 0
    else:
        cap = 0
    fields = [0] * NP
    fields[P_D0 : P_D0 + DUNGEON_WORDS] = words
    fields[P_ND] = s.dungeon_size
    fields[P_R0 : P_R0 + len(room)] = room
    fields[P_NR] = len(room)
    fields[P_REM] = rem
    fields[P_HP] = s.health
    fields[P_W] = weapon
    fields[P_CAP] = cap
    fields[P_PU] = int(s.potion_used)
    fields[P_RES] = s.resolved_in_room
    # Under easy a run of flees is one macro move, so any position may start one.
    fields[P_FLED] = int(s.fled_last) if s.variant.flee_code == FLEE_NOT_TWICE else 0
    return np.array(fields, np.int64)


def _table(mib: int) -> TranspositionTable:
    table = _tables.get(mib)
    if table is None:
        _tables.clear()  # keep one table alive at a time: memory is the budget
        table = _tables[mib] = TranspositionTable(mib)
    return table


def _start_state(
    game_or_deck: State | str | Iterable[str | Card] | int,
    variant: str | sc.Variant | None,
    weapon_rule: str | None,
) -> tuple[State, int | None]:
    """The start position and its seed; ``variant=None`` means the state's, or classic."""
    if isinstance(game_or_deck, State):
        s = game_or_deck
        # A flag may repeat the position's own variant, never contradict it.
        asked = sc.get_variant(s.variant.name if variant is None else variant, weapon_rule)
        rule_named = weapon_rule is not None or isinstance(variant, sc.Variant) or (
            isinstance(variant, str) and "/" in variant
        )
        if asked.name != s.variant.name or (rule_named and asked != s.variant):
            shown = asked if rule_named else asked.name
            raise sc.VariantError(f"the position is {s.variant}; it cannot be solved as {shown}")
        return s, None
    v = sc.get_variant("classic" if variant is None else variant, weapon_rule)
    if isinstance(game_or_deck, (bool, float)) or not isinstance(
        game_or_deck, (Integral, str, Iterable)
    ):
        raise sc.SeedError(
            f"seed {game_or_deck!r} is not an integer (nor a deck: card text or cards)"
        )
    if isinstance(game_or_deck, Integral):
        seed = int(game_or_deck)  # numpy integers too
        return sc.new_game(seed=seed, variant=v), seed
    return sc.new_game(deck=game_or_deck, variant=v), None


class SolveGroup:
    """Solves that keep each other's table entries: the positions of one decision of a
    sampled-order player (:mod:`scoundrel_solver.fair.pimc`), whose actions lead to the
    same positions again and again (two room cards taken in either order).

    A solve stores only proven bounds, and what it proves of a position holds for any
    search that asks about that position, with one exception: :func:`is_winnable` caps
    every value at 1, so its bounds are bounds on that capped value. The group hence has
    one stamp for its win questions and another for its values; a solve outside the
    group never sees either. A group's answers are those of solves on their own: the
    table changes how fast a search finishes, never its result (a search that a node
    limit stops may stop later or not at all).

    >>> group = SolveGroup()
    >>> s = sc.new_game(seed=0)
    >>> [solve_value(s, group=group) == solve_value(s) for _ in range(2)]
    [True, True]
    """

    def __init__(self) -> None:
        self._stamps: dict[str, tuple[TranspositionTable, int, int]] = {}

    def stamp(self, table: TranspositionTable, kind: str) -> int:
        """The group's stamp for ``kind`` of question ("win" or "value") in ``table``."""
        held = self._stamps.get(kind)
        if held is None or held[0] is not table or held[1] != table.wraps:
            # a new table, or its stamps wrapped around: another solve may now get ours
            stamp = table.next_stamp()
            held = self._stamps[kind] = (table, table.wraps, stamp)
        return held[2]


def _setup(
    start: State, max_nodes: int | None, deadline_at: float | None = None,
    table_mib: int = DEFAULT_TABLE_MIB, cards: Cards | None = None,
    group: SolveGroup | None = None, kind: str = "value",
) -> tuple[TranspositionTable, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The kernel's inputs for a search from ``start`` (not over): table, globals,
    deadline, line buffers, root row, and the root's static upper bound. The table's
    stamp is ``group``'s for ``kind`` of question, or a fresh one."""
    v = start.variant
    table = _table(table_mib)
    g = np.zeros(k.NG, np.int64)
    g[k.G_STAMP] = table.next_stamp() if group is None else group.stamp(table, kind)
    g[k.G_MAX_NODES] = max_nodes if max_nodes is not None else NO_NODE_LIMIT
    g[k.G_FLEE_RULE] = v.flee_code
    g[k.G_EQUAL] = v.wear_code
    g[k.G_BUCKET_MASK] = table.bucket_mask
    g[k.G_NEXT_CHECK] = 1
    g[k.G_HAS_DEADLINE] = int(deadline_at is not None)
    g[k.G_BEST] = k.NEG_INF
    deadline = np.array([deadline_at or 0.0])
    path = np.zeros(k.MAX_DEPTH, np.int64)
    best_path = np.zeros(k.MAX_DEPTH, np.int64)
    row = state_row(start, cards)
    root_bound = int(upper_bound(row[P_REM], row[P_HP], row[P_W], row[P_CAP], v.wear_code))
    return table, g, deadline, path, best_path, row, root_bound


def solve_value(
    state: State, max_nodes: int | None = None, winnable: bool | None = None,
    group: SolveGroup | None = None, guess: int | None = None,
) -> int | None:
    """The best score from a running position with the whole dungeon known, or None if
    ``max_nodes`` stopped the search first. No line is built: for callers that solve
    many positions and need only the number (:func:`solve` for the line).

    ``winnable``: the answer of :func:`is_winnable` if the caller has it. A lost
    position is then searched once with a full window under the proven bound 0
    (a descent of null-window questions from the top would take many steps down
    to a loss's score, far below 0).

    ``group``: a :class:`SolveGroup` whose value solves share their table entries.
    """
    if state.is_over:
        raise SolverError(f"solve_value needs a running game, not {state}")
    table, g, deadline, path, best_path, row, root_bound = _setup(
        state, max_nodes, group=group, kind="value")
    if winnable is False:
        g[k.G_BETA] = min(root_bound, 0)
        value = _run(row, k.NEG_INF, g, deadline, path, best_path, table)
    else:
        value, _ = _search_value(row, root_bound, g, deadline, path, best_path, table, guess)
    return None if g[k.G_ABORT] else value


def is_winnable(state: State, max_nodes: int | None = None,
                group: SolveGroup | None = None) -> bool | None:
    """Whether some line from a running position wins (scores above 0) with the whole
    dungeon known, or None if ``max_nodes`` stopped the search first.

    One null-window question "is the value at least 1?", capped at 1: a won line
    ends the search at once, and a lost position needs no exact score.

    ``group``: a :class:`SolveGroup` whose win questions share their table entries.
    """
    if state.is_over:
        raise SolverError(f"is_winnable needs a running game, not {state}")
    table, g, deadline, path, best_path, row, root_bound = _setup(
        state, max_nodes, group=group, kind="win")
    if root_bound < 1:
        return False
    # The cap of 1 is not a proven bound on the value, but it caps every position
    # alike: the search then answers the question for min(value, 1), which is ours.
    g[k.G_BETA] = 1
    v = _run(row, 0, g, deadline, path, best_path, table)
    return None if g[k.G_ABORT] else v >= 1


NO_NODE_LIMIT = 1 << 62
"""``max_nodes`` at or above this means no limit (the kernel counts in int64)."""


def _check_limits(max_nodes: object, max_seconds: object) -> tuple[int | None, float | None]:
    """The limits as numbers the kernel takes, or a SolverError naming the option."""
    if max_nodes is not None:
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, Integral) or int(max_nodes) < 1:
            raise SolverError(f"max_nodes {max_nodes!r} must be a positive integer")
        max_nodes = None if int(max_nodes) >= NO_NODE_LIMIT else int(max_nodes)
    if max_seconds is not None:
        if isinstance(max_seconds, bool) or not isinstance(max_seconds, Real):
            raise SolverError(f"max_seconds {max_seconds!r} must be a positive number")
        if not float(max_seconds) > 0:
            raise SolverError(f"max_seconds {max_seconds!r} must be positive")
        max_seconds = float(max_seconds)
    return max_nodes, max_seconds


# The text of every action, by its number: a line is built without creating Actions.
_ACTION_TEXT = tuple(str(sc.Action(a)) for a in range(sc.NUM_ACTIONS))
# Each card's kind and value, by card id, for the rules' steps.
_KIND_BY_ID = tuple(int(c.kind) for c in sc.FULL_DECK)
_VALUE_BY_ID = tuple(c.value for c in sc.FULL_DECK)


def moves_to_actions(s: State, moves: Iterable[int], cards: Cards | None = None) -> list[int]:
    """Kernel room moves as the numbers of the actions they stand for, from ``s``.

    A room move packs up to four card moves (card type * 2 + with weapon, plus
    one, 7 bits each, first lowest), or is ``FLEE_MOVE_BIT | k`` for k flees.
    Each card move resolves the first card of its type in the room, by the rules'
    :func:`~scoundrel_core.steps.resolve_card` (which says when the room is
    refilled); a flee puts the room under the dungeon. The kernel already played
    the line by the rules, and the tests replay every line through
    ``scoundrel_core`` to the reported score. ``cards``: as for ``state_row``.
    """
    room, dungeon = _card_ids(s) if cards is None else (list(cards[0]), list(cards[1]))
    resolved = s.resolved_in_room
    health, weapon, last_kill = s.health, s.weapon_value, s.last_kill or 0
    potion_used = int(s.potion_used)
    acts: list[int] = []
    type_of = TYPE_BY_ID
    sub_mask = (1 << k.SUB_BITS) - 1
    for m in moves:
        if m & k.FLEE_MOVE_BIT:
            for _ in range(m & ~k.FLEE_MOVE_BIT):
                acts.append(sc.FLEE)
                tape = dungeon + room  # the room goes under the dungeon in room order
                room, dungeon = tape[: len(room)], tape[len(room) :]
                resolved = potion_used = 0
            continue
        while m:
            t, with_weapon = divmod((m & sub_mask) - 1, 2)
            m >>= k.SUB_BITS
            i = 0
            while type_of[room[i]] != t:
                i += 1
            cid = room.pop(i)
            acts.append(2 * cid + with_weapon)
            health, weapon, last_kill, potion_used, resolved, _, draw = resolve_card(
                _KIND_BY_ID[cid], _VALUE_BY_ID[cid], with_weapon, health, weapon, last_kill,
                potion_used, resolved, len(room), len(dungeon))
            room += dungeon[:draw]
            del dungeon[:draw]
    return acts


def _greedy_line(s: State) -> list[int]:
    """A quick complete line (keep health high, never flee) for when no line was found."""
    acts: list[int] = []
    while not s.is_over:
        options = [a for a in sc.legal_actions(s) if not a.is_flee]
        a = max(options, key=lambda a: (sc.apply(s, a).health, -int(a)))
        acts.append(a)
        s = sc.apply(s, a)
    return acts


def _run(row: np.ndarray, alpha: int, g: np.ndarray, deadline: np.ndarray, path: np.ndarray,
         best_path: np.ndarray, table: TranspositionTable) -> int:
    return int(k.run_search(row, alpha, g, deadline, path, best_path, table.keys, table.bounds,
                            table.stamp, *_scratch()))


EASY_FIRST_BUDGET = 20_000
"""Under ``easy``, the nodes a question may take in the usual child order before
``_run_easy`` tries the other one."""


def _run_easy(row: np.ndarray, alpha: int, g: np.ndarray, deadline: np.ndarray,
              path: np.ndarray, best_path: np.ndarray, table: TranspositionTable) -> int:
    """``_run`` under ``easy``: the same question, asked in two child orders in turn
    with doubling node budgets (20,000 nodes in each, then 40,000, ...) until one
    answers it.

    Unlimited fleeing gives each fresh room up to ten flee runs whose bound is
    the room's own, so they come first among equal bounds, and on about one
    deal in a thousand that usual order wanders for millions of nodes before it
    finds a line reaching the bound (17 s for easy/equal seed 49142). With the
    flee runs after the room outcomes (``G_FLEE_LAST``) those deals take
    thousands of nodes, but ordinary deals take about twice as many. Both are
    exact searches of the same position: a search stopped by its budget stores
    nothing unproven, and what it stored (bounds of finished positions) holds
    for the next. The caller's own node limit and deadline still stop the
    search as in ``_run``.
    """
    limit = int(g[k.G_MAX_NODES])
    budget = EASY_FIRST_BUDGET
    flee_last = 0
    while True:
        g[k.G_FLEE_LAST] = flee_last
        g[k.G_MAX_NODES] = min(limit, int(g[k.G_NODES]) + budget)
        v = _run(row, alpha, g, deadline, path, best_path, table)
        if g[k.G_ABORT] != 1 or g[k.G_NODES] >= limit:
            g[k.G_MAX_NODES] = limit
            g[k.G_FLEE_LAST] = 0
            return v
        g[k.G_ABORT] = 0  # our budget, not the caller's: ask again in the other order
        flee_last ^= 1
        if not flee_last:
            budget *= 2


NULL_WINDOW_FROM = 29
"""Questions at proven bounds from here up use a null window (see ``_search_value``)."""
WINDOW = 4
"""Below, each search asks for the exact value within this many points of the bound."""


def _search_value(row: np.ndarray, root_bound: int, g: np.ndarray, deadline: np.ndarray,
                  path: np.ndarray, best_path: np.ndarray,
                  table: TranspositionTable, guess: int | None = None) -> tuple[int, int]:
    """(value, proven upper bound): the exact value of the root, or NEG_INF if a
    limit stopped the search; the bound is what the search had proven by then.

    Searches from the top: with ``t`` a proven upper bound on the value (first
    the static bound), search with the window (t - w, t): the result is the
    exact value if it is above t - w, else (fail-soft) a number the value
    cannot exceed, the next ``t``. Since no position can beat the root's value,
    ``t`` caps every node (``G_BETA``). For ``t`` of 29 or 30 the window is
    null (w = 1, "is the value at least t?"): the first line reaching ``t``
    ends the search, and on most classic deals the first question already
    finds 30. Below, one null-window question per point costs more than a
    window of a few points (``WINDOW``; measured on the slowest classic deals,
    about 9% less time): deals that miss their bound by far need fewer searches.
    The table keeps every proven bound from one search to the next.
    """
    target = root_bound
    g[k.G_BETA] = target
    if g[k.G_FLEE_RULE] == FLEE_NEVER:
        # Without fleeing most deals are lost by far: a descent from the top
        # would take many questions, one full-window search is cheaper.
        return _run(row, k.NEG_INF, g, deadline, path, best_path, table), target
    question = _run_easy if g[k.G_FLEE_RULE] == FLEE_ANY else _run
    if guess is not None and guess < target:
        # "is the value at least the guess?": the exact value if it is, and a bound
        # below the guess to go on from if not
        v = question(row, guess - 1, g, deadline, path, best_path, table)
        if g[k.G_ABORT]:
            return v, target
        if v > guess - 1:
            return v, v
        target = v
    while True:
        g[k.G_BETA] = target
        alpha = target - 1 if target >= NULL_WINDOW_FROM else target - WINDOW
        v = question(row, alpha, g, deadline, path, best_path, table)
        if g[k.G_ABORT]:
            return v, target
        if v > alpha:
            return v, min(v, target)  # exact (v <= target: target caps every node)
        if g[k.G_BEST_LEN] and g[k.G_BEST] >= v:
            return v, v  # a line found on the way already reaches the new bound
        target = v


RESCUE_NODES = 20_000


def _rescue(row: np.ndarray, g: np.ndarray, deadline: np.ndarray, path: np.ndarray,
            best_path: np.ndarray, table: TranspositionTable, budget: int) -> None:
    """After a limit stopped the search: a short full-window search for a good line.

    The null-window questions only record lines that reach their target, so a
    search stopped early may hold no line at all. A full-window search records
    every improvement on its first dives; a small node budget keeps it brief.
    """
    g[k.G_ABORT] = 0
    g[k.G_HAS_DEADLINE] = 0
    g[k.G_MAX_NODES] = g[k.G_NODES] + budget
    g[k.G_NEXT_CHECK] = g[k.G_NODES] + 1
    _run(row, k.NEG_INF, g, deadline, path, best_path, table)


def solve(
    game_or_deck: State | str | Iterable[str | Card] | int,
    variant: str | sc.Variant | None = None,
    weapon_rule: str | None = None,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    table_mib: int = DEFAULT_TABLE_MIB,
) -> SolveResult:
    """The best score reachable with the whole dungeon known, and a line reaching it.

    ``game_or_deck``: a position, a deck (text or cards, top of the dungeon
    first; all 44 cards) or a seed (a Python or numpy integer). ``variant``
    and ``weapon_rule`` default to the position's own (classic/strict for a
    seed or deck); for a position they may repeat its variant, never
    contradict it. ``max_nodes``/``max_seconds`` stop the search early; the
    result then says ``proven=False``, carries the best line found (after a
    short rescue search for one: at most as many nodes again as
    ``max_nodes``, and at most 20,000) and the bound the search had proven.
    ``max_nodes`` of 2**62 or more means no limit. ``table_mib`` caps the
    transposition table's memory and must fit in the machine's memory.

    Bad arguments raise a :class:`scoundrel_core.ScoundrelError` naming them:
    :class:`~scoundrel_solver.errors.SolverError` for the options.
    """
    start, seed = _start_state(game_or_deck, variant, weapon_rule)
    max_nodes, max_seconds = _check_limits(max_nodes, max_seconds)
    table_mib = check_table_mib(table_mib)
    v = start.variant
    cards = _card_ids(start)
    deck = tuple(_CARD_TEXT[c] for c in cards[0] + cards[1])
    t0 = time.perf_counter()

    def result(score: int, ub: int, proven: bool, line: list[int], nodes: int,
               stopped: str | None) -> SolveResult:
        return SolveResult(
            seed=seed, variant=v.name, weapon_rule=v.weapon_rule, deck=deck,
            start=start.to_text(), best_score=score, upper_bound=ub,
            winnable=(score > 0) if proven else (True if score > 0 else None),
            proven=proven, line=tuple(_ACTION_TEXT[a] for a in line), nodes=nodes,
            seconds=time.perf_counter() - t0, stopped_by=stopped,
        )

    if start.is_over:
        score = start.score
        assert score is not None
        return result(score, score, True, [], 0, None)

    table, g, deadline, path, best_path, row, root_bound = _setup(
        start, max_nodes, t0 + max_seconds if max_seconds is not None else None, table_mib,
        cards,
    )
    value, proven_bound = _search_value(row, root_bound, g, deadline, path, best_path, table)
    nodes = int(g[k.G_NODES])
    if g[k.G_ABORT]:
        stopped = "max_nodes" if g[k.G_ABORT] == 1 else "max_seconds"
        budget = RESCUE_NODES if max_nodes is None else min(RESCUE_NODES, max_nodes)
        _rescue(row, g, deadline, path, best_path, table, budget)
        found = int(g[k.G_BEST_LEN])
        line = moves_to_actions(start, best_path[:found].tolist(), cards)
        greedy = _greedy_line(start)
        final = sc.play_line(start, greedy).score
        assert final is not None
        if not found or final > int(g[k.G_BEST]):
            line, best = greedy, final
        else:
            best = int(g[k.G_BEST])
        return result(best, max(proven_bound, best), False, line, int(g[k.G_NODES]), stopped)
    found = int(g[k.G_BEST_LEN])
    if not found or int(g[k.G_BEST]) != value:
        raise AssertionError(
            f"internal error: the line found scores {int(g[k.G_BEST])}, the search proved {value} "
            f"(start {start})"
        )
    line = moves_to_actions(start, best_path[:found].tolist(), cards)
    return result(value, value, True, line, nodes, None)
