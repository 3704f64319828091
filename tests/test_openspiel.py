"""The OpenSpiel adapter (adapters, docs/adapters.md): the finite action encoding and its round
trip with ``legal_actions``, the game ``python_bohnanza`` under ``pyspiel.random_sim_test``, the lazy
chance model, hidden information (H7) in observations and information states, and MCTS playing it.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter

import numpy as np
import pyspiel  # type: ignore[import-not-found]
import pytest
from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
from open_spiel.python.bots.uniform_random import UniformRandomBot
from open_spiel.python.observation import make_observation

import adapters.openspiel_game as osg
from adapters.encoding import EncodedState, enumerate_actions, ids_for, layout, num_distinct_actions
from model import Bean, Phase, Plant, PlantAside, apply, chance_outcome, legal_actions, new_game, ruleset
from model.engine import IllegalAction
from model.rules import setup

GAME = osg.GAME_NAME


def load(players: int, rules: str = "rio-grande", options: str = "") -> osg.BohnanzaGame:
    return pyspiel.load_game(GAME, {"players": players, "ruleset": rules, "options": options})


# ---------------------------------------------------------------- the encoding


def test_layout_size_and_ids_decode_to_distinct_texts():
    su = setup(ruleset("rio-grande"), 4)
    assert num_distinct_actions(su) == 3 * 130 + 9 * 10 + 4 + 11 == 495
    for name, n in (("rio-grande", 2), ("rio-grande", 7), ("amigo", 3), ("amigo-v2", 5)):
        su = setup(ruleset(name), n)
        lay = layout(su)
        assert lay.size == 3 * len(su.deck) + 9 * len(su.beans) + n + 11
        texts = [lay.text(i) for i in range(lay.size)]
        assert len(set(texts)) == lay.size
    with pytest.raises(ValueError):
        lay.decode(lay.size)


def _sampled_states(name: str, players: int, seed: int, count: int, every: int = 1):
    """Engine states along a seeded random game (reshuffles by chance_outcome)."""
    s = new_game(name, players, seed=seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while s.phase != Phase.OVER and len(out) < count:
        if s.phase == Phase.CHANCE:
            s = apply(s, chance_outcome(s, rng))
            continue
        if step % every == 0:
            out.append(s)
        step += 1
        s = apply(s, rng.choice(legal_actions(s)))
    return out


@pytest.mark.parametrize("name,players,seed", [
    ("rio-grande", 4, 1), ("rio-grande", 3, 2), ("rio-grande", 7, 3), ("rio-grande", 2, 4),
    ("amigo", 5, 5), ("amigo-v2", 4, 6), ("amigo-1997", 3, 7),
])
def test_round_trip_every_legal_action_has_exactly_one_id_sequence(name, players, seed):
    """T3 protocol: the engine actions reached through id sequences are exactly legal_actions
    (proposals up to max_deal_cards included), each once; ids_for inverts the map."""
    kinds = Counter()
    for s in _sampled_states(name, players, seed, count=60, every=2):
        enc = EncodedState(s)
        reached = enumerate_actions(enc)
        actions = [a for _, a in reached]
        assert len(set(actions)) == len(actions)
        assert Counter(actions) == Counter(legal_actions(s))
        for path, a in reached[:: max(1, len(reached) // 25)]:
            assert ids_for(enc, a) == path
            e = enc
            for i in path:
                e = e.apply_id(i)
            assert e.state == apply(s, a)
        kinds.update(type(a).__name__ for a in actions)
    assert kinds["Plant"] and kinds["Harvest"] and kinds["EndPhase"]
    if players > 2:
        assert kinds["Propose"] and kinds["Accept"] and kinds["Decline"]
    else:
        assert kinds["PlantUp"] and kinds["Discard"]


def test_building_an_offer_allows_only_building_propose_cancel_and_cancel_uses_an_offer():
    s = new_game(ruleset("rio-grande", {"max_offers": 2}), 4, seed=3)
    while s.phase != Phase.TRADE:
        s = apply(s, legal_actions(s)[0])
    enc = EncodedState(s)
    lay = enc.layout
    st = lay.start
    enc = enc.apply_id(st["ASK"] + lay.index[int(Bean.RED)])
    kinds = {lay.decode(i)[0] for i in enc.legal_ids()}
    assert kinds == {"ASK", "PROPOSE", "CANCEL"}  # asks come last in the canonical order
    with pytest.raises(IllegalAction):
        enc.apply_id(st["END"])
    enc = enc.apply_id(st["CANCEL"])
    assert enc.cancels == 1 and not enc.building
    enc = enc.apply_id(st["OFFER_HAND"] + 1).apply_id(st["PROPOSE"] + 2)
    assert enc.state.pending is not None and enc.state.offers == 1
    enc = enc.apply_id(st["DECLINE"])
    # one proposal and one cancel: max_offers=2 is used up, so no building id is legal
    assert all(lay.decode(i)[0] not in ("OFFER_HAND", "OFFER_UP", "ASK") for i in enc.legal_ids())
    assert st["END"] in enc.legal_ids()


def test_an_illegal_id_is_refused_naming_the_rule():
    enc = EncodedState(new_game("rio-grande", 4, seed=1))
    st = enc.layout.start
    with pytest.raises(IllegalAction) as e:
        enc.apply_id(st["END"])  # T1: the front card must be planted first
    assert e.value.rule == "T1"
    with pytest.raises(IllegalAction) as e:
        enc.apply_id(st["BUY"])
    assert e.value.rule == "F1"
    with pytest.raises(IllegalAction):
        enc.apply_id(st["PROPOSE"] + 1)  # no offer is being built
    with pytest.raises(IllegalAction):
        enc.apply_id(enc.layout.size)


def test_isla_is_refused_with_a_clear_error():
    s = new_game(ruleset("rio-grande", {"isla": True}), 4, seed=1)
    with pytest.raises(ValueError, match="La Isla Bohnita"):
        EncodedState(s)
    with pytest.raises(Exception, match="La Isla Bohnita"):
        load(4, options="isla:true")


def test_core_engine_does_not_import_the_adapters():
    code = ("import sys, model, model.engine, records.game, model.views; "
            "print(any(m.startswith('adapters') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------- the game and random_sim_test


@pytest.mark.parametrize("players,rules,options,sims", [
    (2, "rio-grande", "", 3),
    (3, "rio-grande", "quick:true;max_offers:3", 3),
    (4, "rio-grande", "quick:true;max_offers:3", 3),
    (5, "rio-grande", "quick:true;max_offers:3", 3),
    (6, "rio-grande", "quick:true;max_offers:3", 3),
    (7, "rio-grande", "quick:true;max_offers:3", 3),
    (3, "amigo", "quick:true;max_offers:3", 2),
    (4, "amigo", "quick:true;max_offers:3", 2),
    (5, "amigo", "quick:true;max_offers:3", 2),
    (4, "rio-grande", "max_offers:2", 2),  # three exhaustions: reshuffles by chance
    (3, "rio-grande", "", 1),  # full games with the default max_offers=10
    (7, "rio-grande", "", 1),
    (3, "rio-grande", "beans:red+blackeyed+soy;max_deal_cards:3", 5),
    (5, "amigo-v2", "quick:true;max_offers:2", 2),
    (4, "rio-grande", "reshuffle:on-demand;max_offers:2", 2),  # E1: reshuffles at the need
    (2, "rio-grande", "reshuffle:on-demand", 3),
])
def test_random_sim_test_with_serialization(players, rules, options, sims):
    game = load(players, rules, options)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_parameters_and_game_string_round_trip():
    game = pyspiel.load_game(GAME, {"players": 3, "options": "quick=true,beans=red,soy,blackeyed"})
    assert str(game) == ("python_bohnanza(options=beans:red+soy+blackeyed;quick:true,players=3,"
                         "ruleset=rio-grande)")
    again = pyspiel.load_game(str(game))
    assert again.setup == game.setup and again.setup.beans == (6, 7, 8)
    assert game.num_players() == 3 and game.num_distinct_actions() == layout(game.setup).size
    assert game.max_chance_outcomes() == 12 and game.get_type().min_num_players == 2
    with pytest.raises(Exception, match="unknown option"):
        load(4, options="fast:true")
    with pytest.raises(Exception, match="for 3-5 players"):
        load(2, "amigo")


def _random_play(state, rng, until=None):
    while not state.is_terminal() and not (until and until(state)):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_serialization_and_history_replay_give_the_same_state():
    game = load(4, options="max_offers:3")
    rng = random.Random(5)
    state = game.new_initial_state()
    for stop in (10, 200, 700):
        _random_play(state, rng, until=lambda s, stop=stop: len(s.history()) >= stop)
        text = pyspiel.serialize_game_and_state(game, state)
        _, copy = pyspiel.deserialize_game_and_state(text)
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.information_state_string(1) == state.information_state_string(1)
        replay = game.new_initial_state()
        for a in state.history():
            replay.apply_action(a)
        assert str(replay) == str(state)
        assert replay.observation_tensor(2) == state.observation_tensor(2)


def test_returns_are_coins_minus_the_mean_at_the_end():
    game = load(3, options="quick:true;max_offers:2")
    state = _random_play(game.new_initial_state(), random.Random(2))
    coins = state.engine_state().coins()
    mean = sum(coins) / 3
    assert state.returns() == pytest.approx([c - mean for c in coins])
    assert sum(state.returns()) == pytest.approx(0)
    assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())


# ---------------------------------------------------------------- the chance model


def test_chance_model_deal_card_by_card_then_lazy_draws_with_count_probabilities():
    game = load(4)
    su = game.setup
    state = game.new_initial_state()
    rng = random.Random(0)
    deals = 0
    while state.is_chance_node():  # S2: one chance node per dealt card
        outcomes = dict(state.chance_outcomes())
        if deals == 0:
            assert outcomes == {b: c / len(su.deck) for b, c in Counter(su.deck).items()}
        state.apply_action(rng.choice(list(outcomes)))
        deals += 1
    assert deals == sum(su.hands) == 20
    s = state.engine_state()
    assert list(s.draw) == sorted(s.draw)  # the undealt pile keeps no order
    # the first planting takes no card; the second ends phase 1 and waits for 2 turn-ups (T2)
    state.apply_action(state.legal_actions()[0])
    assert not state.is_chance_node()
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    left = Counter(state.engine_state().draw)
    total = sum(left.values())
    assert dict(state.chance_outcomes()) == pytest.approx({b: c / total for b, c in left.items()})
    state.apply_action(int(Bean.RED))
    left[int(Bean.RED)] -= 1
    assert dict(state.chance_outcomes())[int(Bean.RED)] == pytest.approx(left[int(Bean.RED)] / 109)
    state.apply_action(int(Bean.RED))
    assert state.engine_state().face_up == (Bean.RED, Bean.RED)
    assert state.engine_state().phase == Phase.TRADE


def test_reshuffle_is_decided_by_chance_card_by_card_from_the_discard_pile():
    game = load(4, options="hand:4;max_offers:1")  # 114 cards, 5 a turn: the pile runs out mid-draw
    state = game.new_initial_state()
    rng = random.Random(3)
    seen = 0
    while not state.is_terminal():
        if state.is_chance_node() and state._snap.kind == "reshuffle":
            discard = Counter(state.engine_state().discard)
            if not state._snap.top:
                expected = {b: c / sum(discard.values()) for b, c in discard.items()}
                assert dict(state.chance_outcomes()) == pytest.approx(expected)
                seen += 1
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen >= 1
    assert state.engine_state().exhaustions == 3


# ---------------------------------------------------------------- hidden information (H7)

SEAT0 = [Bean.WAX, Bean.BLUE, Bean.CHILI, Bean.STINK, Bean.GREEN]


def _dealt(game, seat1_bean):
    hands = {0: list(SEAT0), 1: [seat1_bean] * 5, 2: [Bean.WAX] * 5, 3: [Bean.BLUE] * 5}
    state = game.new_initial_state()
    for seat in game.deal_seats:
        state.apply_action(int(hands[seat].pop(0)))
    return state


def _first_turn(state):
    """p0 plants twice, turns up wax and blue, ends trading, plants them, draws three chili."""
    def ids(action):
        return ids_for(state.encoded_state(), action)
    for a in (Plant(0, 0), Plant(0, 1)):
        for i in ids(a):
            state.apply_action(i)
    state.apply_action(int(Bean.WAX))
    state.apply_action(int(Bean.BLUE))
    state.apply_action(layout(state.encoded_state().state.setup).start["END"])
    for a in (PlantAside(0, int(Bean.WAX), 0), PlantAside(0, int(Bean.BLUE), 1)):
        for i in ids(a):
            state.apply_action(i)
    for _ in range(3):
        state.apply_action(int(Bean.CHILI))
    assert state.engine_state().active == 1 and state.current_player() == 1
    return state


def _views(game, state, player):
    obs = make_observation(game)
    obs.set_from(state, player)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    info.set_from(state, player)
    return (state.observation_string(player), obs.tensor.copy().tolist(),
            state.information_state_string(player), info.tensor.copy().tolist())


@pytest.mark.rule("H7")
def test_H7_another_hand_and_the_draw_pile_are_not_observed():
    game = load(4, options="quick:true")
    a, b = _dealt(game, Bean.SOY), _dealt(game, Bean.RED)
    for state_a, state_b in ((a, b), (_first_turn(a), _first_turn(b))):
        assert state_a.engine_state().players[1].hand != state_b.engine_state().players[1].hand
        assert state_a.engine_state().draw != state_b.engine_state().draw
        for p in (0, 2, 3):
            assert _views(game, state_a, p) == _views(game, state_b, p)
        va, vb = _views(game, state_a, 1), _views(game, state_b, 1)
        assert all(x != y for x, y in zip(va, vb, strict=True))
    text = a.observation_string(0)
    assert "hand 5 [soy" not in text and "soy" not in text.split("p1:")[1].split("\n")[0]


@pytest.mark.rule("H7")
def test_H7_coins_of_others_are_hidden_until_the_end():
    game = load(3, options="quick:true;max_offers:2")
    rng = random.Random(11)
    state = game.new_initial_state()
    obs = make_observation(game)
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        coins = state.engine_state().coins()
        obs.set_from(state, 0)
        assert obs.dict["coins"].tolist() == [coins[0], 0, 0]
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 50 and sum(state.engine_state().coins()) > 0
    obs.set_from(state, 0)
    assert obs.dict["coins"].tolist() == list(state.engine_state().coins())
    assert all(f"coins {c}" in state.observation_string(0) for c in state.engine_state().coins())


def test_information_state_is_the_players_record_of_actions_and_own_cards():
    game = load(4, options="quick:true")
    state = _first_turn(_dealt(game, Bean.SOY))
    text = state.information_state_string(0)
    lines = text.split("\n")
    assert lines[0].endswith("| hand [wax blue chili stink green]")  # the deal, own cards only
    assert lines[1:3] == ["p0 plant 0", "p0 plant 1"]
    assert lines[3].startswith("cards: face up [wax blue]")  # the turn-up (T2)
    assert "p0 end" in lines and "hand [chili stink green chili chili chili]" in text  # after drawing
    assert "hand [soy" not in text and "hand [soy" in state.information_state_string(1)


# ---------------------------------------------------------------- an OpenSpiel algorithm plays


@pytest.mark.parametrize("players,options,games", [
    (2, "beans:red+blackeyed+soy+green", 2),  # the bean duel on a 44-card deck
    (3, "beans:red+blackeyed+soy;quick:true;max_offers:2", 3),  # trading, 30 cards
])
def test_mcts_bot_plays_against_uniform_random(players, options, games):
    game = load(players, options=options)
    rng = np.random.RandomState(7)
    total = np.zeros(players)
    for _ in range(games):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=20, evaluator=evaluator, random_state=rng)]
        bots += [UniformRandomBot(p, rng) for p in range(1, players)]
        returns = evaluate_bots(game.new_initial_state(), bots, rng)
        assert sum(returns) == pytest.approx(0)
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        total += returns
    assert total[0] >= max(total[1:])  # seeded: MCTS does at least as well as the random seats
