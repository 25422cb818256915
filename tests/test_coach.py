"""The coaching layer both front ends share: one hint agent, one review, one game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoundrel_core as sc
from scoundrel_solver.coach import Deal, Game, Session, room_numbers
from scoundrel_solver.coach.hints import Hints, best_row, hint_rows
from scoundrel_solver.coach.review import review
from scoundrel_solver.fair.agent import FairAgent, ranked
from scoundrel_solver.fair.api import play_fair
from scoundrel_solver.play.render import Palette, render_hint, render_review
from scoundrel_solver.play.session import Session as TerminalSession

tasks = pytest.importorskip("scoundrel_solver.web.tasks")


def fair_positions(seed: int, variant: str, every: int) -> list[sc.GameRecord]:
    """Records of the fair agent's game cut every ``every`` steps (the positions to hint at)."""
    line = play_fair(seed, variant=variant).actions
    return [sc.GameRecord.from_play(seed=seed, variant=variant, line=line[:n])
            for n in range(0, len(line) - 1, every)]


@pytest.mark.parametrize("variant", ["classic", "hard", "easy"])
def test_the_terminals_hint_is_the_webs_and_the_agents_own_choice(variant: str) -> None:
    checked = 0
    for seed in (2, 7):
        for rec in fair_positions(seed, variant, 11):
            game = TerminalSession.from_record(rec)
            if len(game.legal()) < 2:
                continue
            values = Hints().values(game)  # the terminal's hint
            web_rows, web_best = tasks.hint(game.info)  # the web's (a worker's agent)
            assert hint_rows(ranked(game.info, values)) == web_rows  # the web's, best first
            move = FairAgent().choose(game.info)[0]
            assert web_best is not None and web_best == best_row(values, game.info)
            assert web_best["action"] == str(move)
            # the terminal lists the agent's choice first
            first = render_hint(game, values, Palette())[2]
            assert first.split()[1] == str(move)
            checked += 1
    assert checked >= 4


def first_listed_game(seed: int, variant: str) -> sc.GameRecord:
    """A player who always takes the first action listed (many labelled decisions)."""
    game = TerminalSession(sc.new_game(seed=seed, variant=variant), seed)
    while not game.is_over:
        game.play(game.legal()[0])
    return game.record()


@pytest.mark.parametrize(("seed", "variant"), [(8, "hard"), (3, "classic")])
def test_the_terminal_and_the_web_review_a_game_alike(seed: int, variant: str) -> None:
    rec = first_listed_game(seed, variant)
    terminal = review(Game.from_record(rec), solve_seconds=30.0)
    web = tasks.review(rec.start(), list(rec.line), (), 30.0)
    mine = terminal.to_json()
    for side in (mine, web):  # the solver's clock is the only thing that may differ
        side["best"].pop("seconds")
    assert mine == web
    labelled = [d for d in web["decisions"] if d["label"]]
    assert labelled, "the first-listed player makes mistakes"
    text = "\n".join(render_review(terminal, Palette()))
    for d in terminal.worst:
        assert f"played {d.played!s:<6}" in text and f"   {d.label}" in text
    counts = terminal.counts()
    assert sum(counts.values()) == len(labelled)
    assert [d.to_json()["label"] for d in terminal.decisions] == [
        d["label"] for d in web["decisions"]]
    assert f"accuracy {web['accuracy']:.1f}% over" in text


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(sorted(sc.VARIANTS)),
       moves=st.lists(st.tuples(st.integers(0, 99), st.booleans()), max_size=60))
def test_undo_room_numbers_and_the_weapon_stack_agree_with_a_replay(
    seed: int, variant: str, moves: list[tuple[int, bool]]
) -> None:
    game = Session(Deal.seeded(seed, variant))
    for pick, undo in moves:
        if undo and game.steps:
            game.undo(1 + pick % game.steps)
        elif not game.is_over:
            legal = game.legal()
            game.play(legal[pick % len(legal)])
        fresh = Game.begin(game.deal)
        states, stack = [fresh.state], list[sc.Card]()
        for a in game.actions:
            fresh = fresh.then(a)
            states.append(fresh.state)
            if a.card is not None and a.card.is_weapon:
                stack = []
            elif a.card is not None and a.card.is_monster and a.with_weapon:
                stack.append(a.card)
        assert game.game == fresh
        assert game.state == states[-1] and game.info == fresh.info
        assert game.game.stack == tuple(stack)
        assert game.room_number() == room_numbers(states, game.actions)[-1]
        assert sc.play_line(game.start, game.game.line) == game.state


def test_a_weapon_stack_holds_the_monsters_it_slew_and_a_new_weapon_empties_it() -> None:
    s = sc.new_game(deck="5D KS 3C 8D 2S 9H 10S 4C", partial=True)
    g = Game.begin(Deal(s))
    for text in ("5D", "3C/w"):
        g = g.then(sc.parse_action(g.state, text))
    assert g.stack == (sc.parse_card("3C"),)
    g = g.then(sc.parse_action(g.state, "KS/f"))  # the room's last decision: a refill
    assert g.room == 2 and g.stack == (sc.parse_card("3C"),)
    g = g.then(sc.parse_action(g.state, "8D"))
    assert g.stack == ()


def test_deals_name_themselves_and_a_position_keeps_its_fled_bottom() -> None:
    seeded = Deal.seeded(42, "easy")
    daily = Deal.daily("2026-12-02")
    assert daily.seed == sc.daily_seed("2026-12-02") and daily.daily_date == "2026-12-02"
    assert Deal.seeded(daily.seed or 0, "hard").daily_date is None  # the daily is classic's
    assert seeded.daily_date is None
    assert seeded.query() == {"seed": "42", "variant": "easy", "weapon_rule": "strict"}
    fled = Game.begin(Deal.seeded(5)).then(sc.FLEE)
    text = fled.info.to_text()
    deal = Deal.of_position(text)
    assert deal.bottom == fled.info.bottom and deal.bottom
    assert deal.initial_info() == fled.info and deal.query() == {"state": text}
    deck = Deal.of_deck("5D KS 3C 8D", "hard")
    assert deck.query() == {"deck": "5D KS 3C 8D", "variant": "hard", "weapon_rule": "strict"}
    with pytest.raises(sc.ScoundrelError, match="empty"):
        Deal.of_deck("")
    record = Game.begin(seeded).then(sc.FLEE).record()
    assert Game.from_record(record) == Game.begin(seeded).then(sc.FLEE)
