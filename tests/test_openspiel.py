"""The OpenSpiel game ``python_scoundrel``, checked through OpenSpiel's own API.

- OpenSpiel's generic checks: ``random_sim_test`` with serialization, and a
  committed playthrough (OpenSpiel's regression format) replayed identically;
- the rules: random OpenSpiel games replayed through ``scoundrel_core`` with the
  same legal actions, knowledge and scores;
- no peeking: deals that agree on the cards seen so far give identical
  information states, tensors and observations.

Regenerate the playthrough after a deliberate change with
``python tests/test_openspiel.py --write-playthrough`` (and say why in the commit).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from absl import flags
from hypothesis import given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import generate_playthrough, ismcts, mcts

import scoundrel_core as sc
import scoundrel_core.openspiel
from scoundrel_core.env.observation import encode
from scoundrel_core.openspiel.deals import deal_outcome, play_deal
from scoundrel_core.openspiel.game import MAX_CHANCE_NODES, MAX_DECISIONS

PLAYTHROUGH = Path(__file__).parent / "data" / "openspiel" / "python_scoundrel.txt"
PLAYTHROUGH_GAME = "python_scoundrel(variant=classic,weapon_rule=strict)"
PLAYTHROUGH_SEED = 2  # a deal the fair agent wins, fleeing on the way


def load(params: str = "") -> pyspiel.Game:
    return pyspiel.load_game(f"python_scoundrel({params})" if params else "python_scoundrel")


def careful(state: pyspiel.State, rng: random.Random) -> int:
    """A policy that lives long enough to reach the bottom: mostly least damage, often flee."""
    legal = state.legal_actions()
    if rng.random() < 0.3:
        return rng.choice(legal)
    if sc.FLEE in legal and rng.random() < 0.4:
        return int(sc.FLEE)
    info = state.info

    def damage(a: int) -> int:
        act = sc.Action(a)
        c = act.card
        if c is None or not c.is_monster:
            return -1 if c is not None and c.kind is sc.Kind.POTION else 0
        return max(0, c.value - info.weapon_value) if act.with_weapon else c.value

    return min(legal, key=lambda a: (damage(a), a))


# -- OpenSpiel's own checks ------------------------------------------------------------


@pytest.mark.parametrize("params", ["", "variant=hard,weapon_rule=equal", "seed=42"])
def test_random_sim_test_with_serialization(params: str) -> None:
    pyspiel.random_sim_test(load(params), num_sims=30, serialize=True, verbose=False)


def test_game_facts() -> None:
    g = load()
    t = g.get_type()
    assert t.short_name == "python_scoundrel"
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert g.num_players() == 1
    assert (g.min_utility(), g.max_utility()) == (-188.0, 30.0)
    assert g.num_distinct_actions() == sc.NUM_ACTIONS
    assert g.max_chance_outcomes() == 44
    assert g.information_state_tensor_shape() == [102]
    assert g.observation_tensor_shape() == [86]


def _write_playthrough() -> None:
    """A full game of the fair agent on deal PLAYTHROUGH_SEED (a won game reaches
    the fled cards at the bottom), every action and chance outcome by name."""
    from scoundrel_solver.fair import FairAgent

    agent = FairAgent()
    game = pyspiel.load_game(PLAYTHROUGH_GAME)
    true = sc.new_game(seed=PLAYTHROUGH_SEED)
    state = game.new_initial_state()
    names: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            a = deal_outcome(true, state)
        else:
            a = int(agent.choose(state.info)[0])
            true = sc.apply(true, a)
        names.append(state.action_to_string(state.current_player(), a))
        state.apply_action(a)
    text = generate_playthrough.playthrough(
        PLAYTHROUGH_GAME, action_sequence=names, seed=PLAYTHROUGH_SEED
    )
    PLAYTHROUGH.parent.mkdir(parents=True, exist_ok=True)
    PLAYTHROUGH.write_text(text, encoding="utf-8")


def test_playthrough_replays_identically() -> None:
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()  # replay() reads one absl flag (its default)
    original, regenerated = generate_playthrough.replay(str(PLAYTHROUGH))
    assert original.startswith(f"game: {PLAYTHROUGH_GAME}\n")
    assert "IsTerminal() = True" in original and "flee" in original
    assert regenerated == original


# -- the same rules as scoundrel_core --------------------------------------------------


def random_game(game: pyspiel.Game, rng: random.Random) -> tuple[list[int], list[int], list[int]]:
    """Play at random (chance from its outcomes); return the cards drawn from the
    unseen ones in order, every chance outcome, and the player's actions."""
    state = game.new_initial_state()
    from_unseen: list[int] = []
    outcomes: list[int] = []
    actions: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1.0) < 1e-9
            c = rng.choices(ids, weights=probs)[0]
            if state.info.unseen:
                from_unseen.append(c)
            outcomes.append(c)
            state.apply_action(c)
        else:
            a = careful(state, rng)
            actions.append(a)
            state.apply_action(a)
    assert len(actions) <= MAX_DECISIONS and len(outcomes) <= MAX_CHANCE_NODES
    return from_unseen, outcomes, actions


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(["classic", "hard"]),
       weapon_rule=st.sampled_from(["strict", "equal"]))
def test_random_games_follow_the_library_rules(
    seed: int, variant: str, weapon_rule: str
) -> None:
    game = load(f"variant={variant},weapon_rule={weapon_rule}")
    from_unseen, outcomes, actions = random_game(game, random.Random(seed))
    # The deck the chance outcomes dealt: drawn cards in order, the never-drawn ones after.
    rest = sorted(set(range(44)) - set(from_unseen))
    deck = [sc.card(i) for i in from_unseen + rest]
    true = sc.new_game(deck=deck, variant=variant, weapon_rule=weapon_rule)
    info = sc.InfoState.initial(true)
    state = game.new_initial_state()
    for _ in range(4):
        state.apply_action(outcomes.pop(0))
    for a in actions:
        assert state.current_player() == 0
        assert state.legal_actions() == [int(x) for x in sc.legal_actions(true)]
        assert state.info == info
        assert state.observation_tensor(0) == encode(info).astype(np.float32).tolist()
        nxt = sc.apply(true, a)
        info = sc.observe(info, a, nxt)
        true = nxt
        state.apply_action(a)
        while state.is_chance_node():
            c = outcomes.pop(0)
            assert c == deal_outcome(true, state)
            state.apply_action(c)
    assert not outcomes
    assert state.is_terminal() and true.is_over
    assert state.returns() == [float(true.score)]
    assert state.info == info


def test_a_seeded_game_deals_that_seed() -> None:
    game = load("variant=classic,seed=11")
    rng = random.Random(0)
    state = game.new_initial_state()
    true = sc.new_game(seed=11)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.dealt_outcome())
            continue
        assert state.info == sc.InfoState.from_state(true, state.info.bottom)
        a = careful(state, rng)
        true = sc.apply(true, a)
        state.apply_action(a)
    assert state.returns() == [float(true.score)]


def test_the_seeded_deal_is_not_in_what_the_player_sees() -> None:
    a, b = load("seed=1").new_initial_state(), load("seed=2").new_initial_state()
    for s in (a, b):
        for c in (0, 1, 2, 3):  # the same four cards, whatever the deal says
            s.apply_action(c)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_string(0) == b.observation_string(0)
    # the chance model lists every unseen card either way
    assert load("seed=1").new_initial_state().chance_outcomes() == (
        load().new_initial_state().chance_outcomes()
    )
    resampled = a.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert resampled.information_state_string(0) == a.information_state_string(0)
    with pytest.raises(sc.IllegalActionError, match="no deal"):
        resampled.apply_action(resampled.legal_actions()[0])
        while not resampled.is_chance_node():
            resampled.apply_action(resampled.legal_actions()[0])
        resampled.dealt_outcome()


# -- no peeking --------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), shared=st.integers(4, 40))
def test_deals_sharing_the_cards_seen_give_the_same_information_states(
    seed: int, shared: int
) -> None:
    """Deal B agrees with deal A on the first ``shared`` cards drawn, then differs:
    every decision before B's first different card sees the same thing."""
    game = load()
    a_deck = list(sc.deal(seed))
    tail = a_deck[shared:]
    random.Random(seed).shuffle(tail)
    b_deck = a_deck[:shared] + tail
    Seen = list[tuple[int, str, list[float], str]]

    def player(into: Seen) -> Callable[[pyspiel.State], int]:
        rng = random.Random(seed)

        def choose(state: pyspiel.State) -> int:
            drawn = 44 - len(state.info.unseen)
            into.append((drawn, state.information_state_string(0),
                         state.information_state_tensor(0), state.observation_string(0)))
            return careful(state, rng)

        return choose

    seen_a: Seen = []
    seen_b: Seen = []
    play_deal(game, player(seen_a), sc.new_game(deck=a_deck))
    play_deal(game, player(seen_b), sc.new_game(deck=b_deck))
    compared = 0
    for a, b in zip(seen_a, seen_b, strict=False):
        if a[0] > shared:
            break
        assert a == b
        compared += 1
    assert compared >= 1  # the first room is always among the shared cards


# -- bots run on it ---------------------------------------------------------------------


def test_openspiel_mcts_and_ismcts_play_legal_moves() -> None:
    game = load()
    rollouts = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [
        mcts.MCTSBot(game, uct_c=100.0, max_simulations=20, evaluator=rollouts,
                     random_state=np.random.RandomState(0)),
        ismcts.ISMCTSBot(game, rollouts, uct_c=100.0, max_simulations=20,
                         random_state=np.random.RandomState(0)),
    ]
    for bot in bots:
        played = play_deal(game, bot.step, 5)
        s = sc.new_game(seed=5)
        for text in played.actions:
            s = sc.apply(s, text)
        assert s.score == played.score


if __name__ == "__main__" and sys.argv[1:] == ["--write-playthrough"]:
    _write_playthrough()
    print(f"wrote {PLAYTHROUGH}")


def test_loading_a_crafted_state_runs_no_code(tmp_path: Path) -> None:
    """`deserialize_state` of OpenSpiel's pickled form (crafted to write a file when
    unpickled) is refused, and nothing runs; the text a state serialises to is plain."""
    import os
    import subprocess

    marker = tmp_path / "ran"
    probe = f"""
import base64, os, pickle, pyspiel
import scoundrel_core.openspiel

class Payload:
    def __reduce__(self):
        return (os.mkdir, ({str(marker)!r},))

game = pyspiel.load_game("python_scoundrel(variant=hard)")
crafted = ("history=\\nmove_number=0\\n__dict__="
           + base64.b64encode(pickle.dumps({{"x": Payload()}})).decode())
try:
    game.deserialize_state(crafted)
    print("loaded")
except Exception as err:
    print(type(err).__name__, err)
state = game.new_initial_state()
state.apply_action(state.legal_actions()[0])
print(repr(state.serialize()))
"""
    src = str(Path(__file__).resolve().parents[1] / "src")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": src})
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    assert done.stdout.startswith("StateTextError not a serialised python_scoundrel state")
    assert "'scoundrel-openspiel-state/1\\nline=0\\nposition=hard/strict" in done.stdout


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(0, 2**32 - 1), st.sampled_from(["", "hard"]))
def test_a_serialised_state_reads_back_as_itself(seed: int, rng_seed: int, variant: str
                                                 ) -> None:
    """Every state of a game, serialised, reads back with the same history and position;
    a text edited anywhere (a step, the position, the header) is a StateTextError."""
    game = load(f"seed={seed}" + (",variant=hard" if variant else ""))
    state, rng = game.new_initial_state(), random.Random(rng_seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.dealt_outcome())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        text = state.serialize()
        back = game.deserialize_state(text)
        assert back.history() == state.history() and str(back) == str(state)
    header, line, position = text.split("\n")
    steps = line[len("line="):].split(",")
    edits = [
        "\n".join([header, line, position.replace("health=", "health=1")]),
        "\n".join([header, "line=" + ",".join([*steps[:-1], "88"]), position]),
        "\n".join([header, "line=" + ",".join([*steps, steps[-1]]), position]),
        "\n".join(["scoundrel-openspiel-state/2", line, position]),
        "\n".join([header, "line=" + ",".join([*steps[:-1], "-1"]), position]),
        text + "\n",
    ]
    for edited in edits:
        with pytest.raises(sc.StateTextError):
            game.deserialize_state(edited)


def test_chance_outcomes_at_a_decision_node_is_a_clear_error() -> None:
    state = load("seed=3").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.dealt_outcome())
    with pytest.raises(sc.IllegalActionError, match=r"chance_outcomes\(\) is asked at a "
                       "chance node only; here it is the player's turn"):
        state.chance_outcomes()


def test_a_seed_beyond_openspiels_ints_is_refused_clearly() -> None:
    """OpenSpiel's integer parameters are 32-bit: seeds up to 2**31 - 1 load and deal; a
    larger deal seed is a SeedError naming the bound and play_deal, which plays any seed."""
    from scoundrel_core.openspiel.game import MAX_SPIEL_SEED, ScoundrelSpielGame

    game = ScoundrelSpielGame({"seed": MAX_SPIEL_SEED})
    assert game.deal == sc.new_game(seed=MAX_SPIEL_SEED)
    for seed in (MAX_SPIEL_SEED + 1, sc.MAX_SEED):
        with pytest.raises(sc.SeedError, match=f"seed {seed} is above 2147483647.*play_deal"):
            ScoundrelSpielGame({"seed": seed})
    played = play_deal(load(), lambda s: s.legal_actions()[0], sc.MAX_SEED)
    assert played.score == sc.play_line(sc.new_game(seed=sc.MAX_SEED), played.actions).score
