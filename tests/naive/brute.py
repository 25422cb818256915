"""The brute-force oracle: the best score from a position, by exhaustive search.

A slow twin of the exact solver, for the tests only (``scoundrel_solver.solve`` is
what a user calls, exact too). Plain Python over :func:`scoundrel_core.legal_actions`
and :func:`scoundrel_core.apply` only: no bounds, no pruning, no move ordering, no
packed keys. It is slow on purpose and exists to check the fast solver on small
dungeons (see ``tests/test_solver_vs_brute.py``).

Why it is correct
-----------------
With the whole dungeon known, Scoundrel is a one-player game without chance:
each legal action leads to exactly one next state, and a play scores only when
it reaches a finished state (``state.is_over``), whose score is fixed. The
player chooses every step, so the best score from ``s`` is simply

    best(s) = max { t.score : t finished and reachable from s }.

:func:`brute_force` computes exactly that: it visits every state reachable from
``s`` once (breadth first, with a set of visited states) and keeps, for each
state, the action and the state that first reached it, so the line to the best
finished state can be read back. The visited set is sound for every variant,
cycles included: it only records *reachability*, never a value. A state met a
second time has the same successors as the first time, so expanding it again
could not reach anything new. No value is ever computed while part of the graph
is "blocked", which is what makes memoised *value* recursion go wrong in
``easy`` (fleeing again and again rotates the dungeon back to where it was).
Breadth-first order also makes the line a shortest one to that finished state.

:func:`brute_force_recursive` is a second, independent formulation, used to
check the first one on tiny dungeons: the recursion

    V(s) = s.score                               if s is over
    V(s) = max over legal a of V(apply(s, a))    otherwise

evaluated depth first.

- ``classic`` and ``hard``: the state graph is acyclic. Every action except a
  flee resolves a card, so the number of cards left (dungeon + room) never
  grows and drops at every non-flee step; ``hard`` never flees and ``classic``
  forbids fleeing the room a flee dealt, so between two flees a card is
  resolved. Hence no state repeats on a play and ``V`` is well defined by
  induction; a memo keyed on the state (a value type, equal exactly when the
  game goes on identically) is sound.
- ``easy``: cycles exist (flee, flee, ... comes back to the same state), so
  the recursion never enters a state already on the current path, and keeps no
  memo. This is exact: any finite play that visits a state twice can be cut
  short by removing the loop between the two visits; the shortened play is
  legal (same state, same legal actions) and ends at the same finished state.
  So the best over plays without repeated states (what the path-blocked
  search enumerates) equals the best over all plays. A memo would not be
  sound here: a value computed while an ancestor was blocked may be lower than
  the state's true value when it is reached by another route. Blocking never
  leaves a reachable live state without a play: resolving a room card leads to
  a state with fewer cards than every state on the path (cards never come
  back), so that step is never blocked and the game can always be finished. The search is
  exponential: keep it to dungeons of a handful of cards.
"""

from __future__ import annotations

from collections import deque

from scoundrel_core import Action, State, apply, legal_actions

__all__ = ["brute_force", "brute_force_recursive"]


def brute_force(state: State) -> tuple[int, list[Action]]:
    """The best final score reachable from ``state`` and one line of play reaching it.

    Works for every variant (``easy``'s cycles included); the cost is the number
    of states reachable from ``state``, so keep dungeons small (about a dozen
    cards for ``hard``, fewer for ``classic`` and ``easy``).

    >>> import scoundrel_core as sc
    >>> s = sc.State.from_parts(room=["5H"], health=20)
    >>> score, line = brute_force(s)
    >>> score, [str(a) for a in line]
    (25, ['5H'])
    """
    if not isinstance(state, State):
        raise TypeError(f"brute_force needs a scoundrel_core.State, not {state!r}")
    # came_from[t] = (the state that first reached t, the action taken there).
    came_from: dict[State, tuple[State, Action] | None] = {state: None}
    frontier = deque([state])
    best: State | None = None
    best_score = 0
    while frontier:
        s = frontier.popleft()
        if s.is_over:
            score = s.score
            assert score is not None
            if best is None or score > best_score:
                best, best_score = s, score
            continue
        for a in legal_actions(s):
            t = apply(s, a)
            if t not in came_from:
                came_from[t] = (s, a)
                frontier.append(t)
    if best is None:
        raise ValueError(f"no finished game is reachable from state: {state}")
    return best_score, _line_to(best, came_from)


def _line_to(target: State, came_from: dict[State, tuple[State, Action] | None]) -> list[Action]:
    line: list[Action] = []
    step = came_from[target]
    while step is not None:
        parent, action = step
        line.append(action)
        step = came_from[parent]
    line.reverse()
    return line


def brute_force_recursive(state: State) -> tuple[int, list[Action]]:
    """The same answer as :func:`brute_force`, by depth-first value recursion.

    Memoised for ``classic`` and ``hard`` (acyclic); for ``easy`` it blocks the
    states on the current path and keeps no memo, which is exponential: use
    it on dungeons of at most about eight cards.
    """
    if not isinstance(state, State):
        raise TypeError(f"brute_force_recursive needs a scoundrel_core.State, not {state!r}")
    if state.variant.may_flee_twice:
        found = _best_simple_path(state, set())
        if found is None:
            raise ValueError(f"no finished game is reachable from state: {state}")
        score, reversed_line = found
    else:
        score, reversed_line = _best_acyclic(state, {})
    return score, list(reversed(reversed_line))


# Lines are built back to front (child's line, then this action appended) and
# shared between memo entries as tuples, so nothing is copied per state.
_Found = tuple[int, tuple[Action, ...]]


def _best_acyclic(s: State, memo: dict[State, _Found]) -> _Found:
    if s.is_over:
        score = s.score
        assert score is not None
        return score, ()
    hit = memo.get(s)
    if hit is not None:
        return hit
    best: _Found | None = None
    for a in legal_actions(s):
        score, rest = _best_acyclic(apply(s, a), memo)
        if best is None or score > best[0]:
            best = (score, (*rest, a))
    assert best is not None, f"a live state has no legal action: {s}"
    memo[s] = best
    return best


def _best_simple_path(s: State, on_path: set[State]) -> _Found | None:
    """Best over plays from ``s`` that avoid ``on_path``; None if every play is blocked."""
    if s.is_over:
        score = s.score
        assert score is not None
        return score, ()
    on_path.add(s)
    best: _Found | None = None
    for a in legal_actions(s):
        t = apply(s, a)
        if t in on_path:
            continue  # a loop back: never better than the play that skips it
        found = _best_simple_path(t, on_path)
        if found is not None and (best is None or found[0] > best[0]):
            best = (found[0], (*found[1], a))
    on_path.remove(s)
    return best
