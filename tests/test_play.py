"""The library side of scoundrel-play: session and undo, commands, hints, review, rendering."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_core import InfoState
from scoundrel_solver.coach.game import Game, room_numbers
from scoundrel_solver.coach.hints import Hints, hint_rows
from scoundrel_solver.coach.labels import LIVE, judge_rows
from scoundrel_solver.coach.review import TOP_DECISIONS, review
from scoundrel_solver.fair.agent import FairAgent, choice_key
from scoundrel_solver.fair.api import play_fair
from scoundrel_solver.play.commands import Command, UnknownCommand, parse_command
from scoundrel_solver.play.render import (
    Palette,
    render_actions,
    render_hint,
    render_position,
    render_review,
)
from scoundrel_solver.play.session import Session

# -- session and undo: the slow twin is a replay from the start ------------------------------


def replayed(start: sc.State, actions: tuple[sc.Action, ...]) -> tuple[sc.State, InfoState]:
    s, info = start, InfoState.initial(start)
    for a in actions:
        nxt = sc.apply(s, a)
        info = sc.observe(info, a, nxt)
        s = nxt
    return s, info


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.sampled_from(sc.FLEE_RULES),
    moves=st.lists(st.tuples(st.integers(0, 99), st.integers(0, 3)), max_size=60),
)
def test_undo_agrees_with_a_replay_from_the_start(
    seed: int, variant: str, moves: list[tuple[int, int]]
) -> None:
    game = Session(sc.new_game(seed=seed, variant=variant), seed)
    for pick, undo in moves:
        if undo == 0 and game.steps:
            game.undo(1 + pick % game.steps)
        elif not game.is_over:
            legal = game.legal()
            game.play(game.read_action(str(1 + pick % len(legal))))
        state, info = replayed(game.start, game.actions)
        assert game.state == state and game.info == info
    rec = game.record()
    assert rec.final_state == game.state and rec.seed == seed
    assert Session.from_record(rec).actions == game.actions


def test_read_action_takes_numbers_and_notation_and_says_why_not() -> None:
    game = Session(sc.new_game(seed=42), 42)
    legal = game.legal()
    assert [game.read_action(str(i)) for i in range(1, len(legal) + 1)] == list(legal)
    assert [game.read_action(str(a).lower()) for a in legal] == list(legal)
    with pytest.raises(sc.IllegalActionError, match=r"no action '0': choose 1\.\.5"):
        game.read_action("0")
    with pytest.raises(sc.IllegalActionError, match="'KS/w' is not legal here: no weapon"):
        game.read_action("KS/w")
    with pytest.raises(sc.IllegalActionError, match="'7D' is not legal here: 7D is not in"):
        game.read_action("7D")
    with pytest.raises(sc.IllegalActionError, match="say how to fight"):
        game.read_action("KS")
    with pytest.raises(sc.IllegalActionError, match="cannot undo 1 step: only 0"):
        game.undo()


def careful(game: Session) -> sc.Action:
    """The legal action leaving the most health (a simple player that lasts a while)."""
    return max(game.legal(), key=lambda a: (sc.apply(game.state, a).health, -int(a)))


def test_room_numbers_count_refills_and_flees() -> None:
    s = sc.new_game(seed=3, variant="easy")
    acts = [sc.FLEE, sc.FLEE]
    game = Session(s)
    for a in acts:
        game.play(a)
    for _ in range(3):  # three decisions empty a room of four: the refill starts room 4
        game.play(careful(game))
    assert not game.is_over
    states = [replayed(s, game.actions[:i])[0] for i in range(game.steps + 1)]
    assert room_numbers(states, game.actions) == [1, 2, 3, 3, 3, 4]
    assert game.room_number() == 4


# -- commands ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("", Command("empty")),
        ("hint", Command("hint")),
        (" HINT ", Command("hint")),
        ("undo", Command("undo", "1")),
        ("undo 4", Command("undo", "4")),
        ("save my game.json", Command("save", "my game.json")),
        ("?", Command("help")),
        ("q", Command("quit")),
        ("3", Command("action", "3")),
        ("10C/w", Command("action", "10C/w")),
        ("ks/f", Command("action", "ks/f")),
        ("flee", Command("action", "flee")),
        ("7X", Command("action", "7X")),  # the action's own error message says what is wrong
    ],
)
def test_parse_command(line: str, command: Command) -> None:
    assert parse_command(line) == command


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("dance", "unknown command 'dance'"),
        ("undo many", "undo takes a number of steps, not 'many'"),
        ("save", "save needs a file name"),
        ("hint now", "hint takes nothing after it"),
        ("KS KC", "unknown command 'KS KC'"),
    ],
)
def test_parse_command_rejects_with_one_line(line: str, why: str) -> None:
    with pytest.raises(UnknownCommand, match=why) as err:
        parse_command(line)
    assert "\n" not in str(err.value)


# -- hints and review ---------------------------------------------------------------------------


def test_hints_are_the_fair_agents_values_of_the_information_state() -> None:
    game = Session(sc.new_game(seed=11), 11)
    for _ in range(5):
        game.play(careful(game))
    got = Hints().values(game)
    want = FairAgent().evaluate(game.info)
    assert [(v.action, v.value, v.exact) for v in got] == [
        (v.action, v.value, v.exact) for v in want
    ]
    # Another dungeon order behind the same room: the same hints, so no peeking.
    deck = sc.deal(11)
    again = Session(sc.new_game(deck=deck[:4] + deck[:3:-1]))
    first = Session(sc.new_game(seed=11), 11)
    assert again.state != first.state and again.info == first.info
    assert [v.value for v in Hints().values(again)] == [v.value for v in Hints().values(first)]


def fair_record(seed: int, variant: str) -> sc.GameRecord:
    g = play_fair(seed, variant=variant)
    return sc.GameRecord.from_play(seed=seed, variant=variant, line=g.actions)


def states(rec: sc.GameRecord) -> list[sc.State]:
    """The states of a record before each of its actions."""
    s, out = rec.start(), []
    for text in rec.line:
        out.append(s)
        s = sc.apply(s, sc.parse_action(s, text))
    return out


def test_playing_the_fair_agents_own_line_earns_no_label() -> None:
    rev = review(Game.from_record(fair_record(5, "hard")))
    assert rev.decisions and all(d.label is None for d in rev.decisions)
    assert all(d.played == d.choice and not d.drop for d in rev.decisions)
    assert rev.accuracy in (None, 100.0)
    text = "\n".join(render_review(rev, Palette()))
    assert "0 inaccuracies, 0 mistakes, 0 blunders" in text
    assert "None cost 2 points or more of the fair agent's chance of winning" in text


def test_review_labels_the_players_decisions_by_the_drop_in_the_chance_of_winning() -> None:
    seed = 8
    start = sc.new_game(seed=seed, variant="hard")
    game = Session(start, seed)
    while not game.is_over:  # a player who always takes the first action listed
        game.play(game.legal()[0])
    rec = game.record()
    rev = review(Game.from_record(rec))
    assert rev.final.score == game.state.score
    assert rev.fair.score == play_fair(start).score
    assert rev.best.proven
    assert sc.play_line(start, rev.best.line).score == rev.best.best_score
    assert rev.best.best_score >= max(rev.fair.score, game.state.score or 0)
    # Each drop is the agent's own choice's chance of winning minus the played one's,
    # at the player's knowledge; a decision is live where the chances differ.
    agent = FairAgent()
    replay = Session(start, seed)
    for d in rev.decisions:
        while replay.steps < d.step - 1:
            replay.play(sc.parse_action_text(rec.line[replay.steps]))
        vals = agent.evaluate(replay.info)
        rows = {v.action: v for v in vals}
        choice = max(vals, key=choice_key).action
        wins = [v.win_chance for v in vals]
        assert d.before == replay.state and d.room == replay.room_number()
        assert d.choice == choice
        if max(wins) - min(wins) >= LIVE:
            assert d.drop == max(0.0, rows[choice].win_chance - rows[d.played].win_chance)
            assert d.label == judge_rows(*hint_rows([rows[choice], rows[d.played]]))
        else:
            assert d.drop is None and d.label is None
        assert d.row(d.played)["expected_score"] == rows[d.played].expected_score
    assert len(rev.decisions) == sum(len(sc.legal_actions(s)) > 1 for s in states(rec))
    worst = rev.worst
    assert 0 < len(worst) <= TOP_DECISIONS and all(d.label for d in worst)
    assert [d.drop for d in worst] == sorted((d.drop or 0.0 for d in worst), reverse=True)
    text = "\n".join(render_review(rev, Palette()))
    assert f"Your score:          {game.state.score}" in text
    top = worst[0]
    played, agent_row = top.row(top.played), top.row(top.choice)
    assert (f"played {top.played!s:<6} win {100 * played['win_chance']:5.1f}%  "
            f"expected score {played['expected_score']:6.1f}   {top.label}") in text
    assert (f"agent  {top.choice!s:<6} win {100 * agent_row['win_chance']:5.1f}%  "
            f"expected score {agent_row['expected_score']:6.1f}   "
            f"drop {100 * (top.drop or 0.0):4.1f} points") in text
    assert rev.accuracy is not None and f"accuracy {rev.accuracy:.1f}%" in text


# -- rendering ------------------------------------------------------------------------------


def test_position_shows_what_a_player_can_know() -> None:
    game = Session(sc.new_game(seed=0), 0)
    game.play(sc.FLEE)
    lines = render_position(game, Palette())
    text = "\n".join(lines)
    info = game.info
    kinds = [sum(c.kind is k for c in info.unseen) for k in sc.Kind]
    assert (f"{len(info.unseen)} unseen ({kinds[0]} monsters, {kinds[1]} weapons, "
            f"{kinds[2]} potions)") in text
    assert f"the fled cards {' '.join(map(str, info.bottom))}" in text
    assert "Room 2 (step 2)" in text
    actions = render_actions(game, Palette())
    assert len(actions) == len(game.legal())
    assert not any("flee" in line for line in actions)  # classic: never twice in a row


def test_colour_only_when_asked() -> None:
    game = Session(sc.new_game(seed=0), 0)
    vals = Hints().values(game)
    for render in (render_position(game, Palette()), render_actions(game, Palette()),
                   render_hint(game, vals, Palette())):
        assert not any("\x1b" in line for line in render)
    coloured = "\n".join(render_position(game, Palette(colour=True)))
    assert "\x1b[1;31mKS\x1b[0m" in coloured  # a monster of seed 0's first room
    hint = render_hint(game, vals, Palette())
    assert len(hint) == 2 + len(game.legal())
    assert "win chance" in hint[1] and "expected score" in hint[1]
    assert all(line.rstrip().endswith(("exact", "estimated")) for line in hint[2:])
    for v, line in zip(sorted(vals, key=lambda v: (-v.value, int(v.action))), hint[2:],
                       strict=True):
        assert f"{100 * v.win_chance:.1f}%" in line and f"{v.expected_score:.1f}" in line
