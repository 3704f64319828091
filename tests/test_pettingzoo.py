"""The PettingZoo adapter (adapters/pettingzoo_env.py, docs/adapters.md): PettingZoo's own API
and seed tests, whole games played from the action mask (zero-sum rewards equal to the engine's
coins, the same game from the same seed, a replay through the engine), hidden information (H7) and
the refusal of La Isla Bohnita.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import replace

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from adapters.encoding import EncodedState, expansion_refused, num_distinct_actions
from adapters.observation import observation_pieces
from adapters.pettingzoo_env import chance_rng, env, raw_env
from model import Phase, apply, chance_outcome, new_game, ruleset
from model.engine import IllegalAction, scores
from model.rules import setup

QUICK = {"quick": True, "max_offers": 2}
# What api_test says of every Dict observation of an environment it does not know by name.
EXPECTED_WARNINGS = ("Observation is not a NumPy array",
                     "Observation space for each agent probably should be gymnasium.spaces.box")


def _piece(obs: np.ndarray, su, name: str) -> np.ndarray:
    at = 0
    for piece, shape in observation_pieces(su):
        k = int(np.prod(shape))
        if piece == name:
            return obs[at:at + k].reshape(shape)
        at += k
    raise KeyError(name)


def _play(e, seed: int, action_seed: int, check=None):
    """Play a whole game from the mask with seeded random choices; the ids chosen and the
    observations seen (agent, tensor) in order. ``check(e, agent, obs)`` runs before each move."""
    e.reset(seed=seed)
    rng = random.Random(action_seed)
    ids, seen = [], []
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        seen.append((agent, obs["observation"].tobytes()))
        if term or trunc:
            e.step(None)
            continue
        if check is not None:
            check(e, agent, obs)
        i = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        ids.append(i)
        e.step(i)
    return ids, seen


# ---------------------------------------------------------------- PettingZoo's tests


@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_pettingzoo_api_test(players):
    """api_test plays a whole quick game (each seat steps out at the end) and checks the API."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(players=players, options=QUICK), num_cycles=1000, verbose_progress=False)
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert not unexpected


@pytest.mark.parametrize("players,options", [(4, QUICK), (4, {"max_offers": 2}), (2, {})])
def test_pettingzoo_seed_test(players, options):
    """Same seed, same sampled actions: the same game, reshuffles (E1) included in the full games."""
    seed_test(lambda: env(players=players, options=options), num_cycles=800)


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("players,options,seed", [
    (4, {"max_offers": 2}, 3),  # three exhaustions: reshuffles resolved inside step
    (3, QUICK, 4),
    (2, {}, 5),  # the duel
    (7, QUICK, 6),
    (4, {"max_offers": 2, "reshuffle": "on-demand"}, 7),  # E1: reshuffles at the need
])
def test_random_game_is_zero_sum_and_matches_the_engine(players, options, seed):
    e = env(players=players, options=options)
    raw = e.unwrapped
    su = raw.setup
    masks = 0

    def check(e, agent, obs):
        nonlocal masks
        legal = raw.encoded.legal_ids()
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal and legal
        assert e.infos[agent]["legal_moves"] == legal
        for other in e.agents:
            o = raw.observe(other)
            assert e.observation_space(other).contains(o)
            if other != agent:
                assert not o["action_mask"].any() and e.infos[other]["legal_moves"] == []
        masks += 1

    e.reset(seed=seed)
    rewards = {}
    rng = random.Random(seed)
    ids = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        assert not trunc
        if term:
            rewards[agent] = reward
            e.step(None)
            continue
        check(e, agent, obs)
        i = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        ids.append(i)
        e.step(i)
    final = raw.game_state
    assert final.phase == Phase.OVER and e.agents == [] and masks == len(ids)
    coins = scores(final)
    assert coins == final.coins()
    mean = sum(coins) / players
    assert rewards == {f"player_{p}": pytest.approx(c - mean) for p, c in enumerate(coins)}
    assert sum(rewards.values()) == pytest.approx(0)
    if not options:
        assert final.exhaustions >= 1

    # The same ids through the engine alone, reshuffles by chance_rng(seed): the same final state.
    enc = EncodedState(new_game(su.rules, players, seed=seed))
    chance = chance_rng(seed)
    for i in ids:
        enc = enc.apply_id(i)
        while enc.state.phase == Phase.CHANCE:
            enc = enc.with_state(apply(enc.state, chance_outcome(enc.state, chance)))
    assert enc.state == final


def test_same_seed_same_trajectory_and_reset_without_seed_continues_the_sequence():
    a, b = env(players=4, options={"max_offers": 2}), env(players=4, options={"max_offers": 2})
    ids_a, seen_a = _play(a, seed=11, action_seed=1)
    ids_b, seen_b = _play(b, seed=11, action_seed=1)
    assert ids_a == ids_b and seen_a == seen_b
    assert a.unwrapped.game_state == b.unwrapped.game_state
    assert a.unwrapped.game_state.exhaustions == 3  # reshuffled twice: chance is seeded too
    _, seen_c = _play(a, seed=12, action_seed=1)
    assert seen_c[0] != seen_a[0]  # another deal

    a.reset(seed=11)
    first = a.unwrapped.game_state
    a.reset()
    b.reset(seed=11)
    b.reset()
    assert a.unwrapped.game_state == b.unwrapped.game_state != first
    assert a.unwrapped.game_state.players != first.players


def test_illegal_and_out_of_range_ids_are_refused_and_change_nothing():
    e = env(players=3, options=QUICK)
    e.reset(seed=2)
    raw = e.unwrapped
    before, agent = raw.game_state, e.agent_selection
    legal = set(raw.encoded.legal_ids())
    illegal = next(i for i in range(num_distinct_actions(raw.setup)) if i not in legal)
    with pytest.raises(IllegalAction):
        e.step(illegal)
    assert raw.game_state == before and e.agent_selection == agent
    with pytest.raises(AssertionError):
        e.step(num_distinct_actions(raw.setup))


def test_reset_from_an_engine_state():
    e = env(players=4, options=QUICK)
    e.reset(seed=1)
    s = e.unwrapped.game_state
    for _ in range(5):
        _, _, _, _, info = e.last()
        e.step(info["legal_moves"][0])
    mid = e.unwrapped.game_state
    e.reset(seed=9, options={"state": mid})
    assert e.unwrapped.game_state == mid and e.agent_selection == f"player_{mid.to_move}"
    e.reset(options={"state": e.unwrapped.encoded})
    with pytest.raises(ValueError, match="GameState"):
        e.reset(options={"state": new_game("rio-grande", 3, seed=1)})
    assert s != mid


# ---------------------------------------------------------------- hidden information (H7)


def _swap_hand_card(s, seat: int):
    """``s`` with one of ``seat``'s hand cards exchanged for a draw-pile card of another bean (the
    same cards in play, only that hand and the pile's order differ); None if there is none."""
    hand = s.players[seat].hand
    for h, b in enumerate(hand):
        for k, c in enumerate(s.draw):
            if c != b:
                new_hand = hand[:h] + (c,) + hand[h + 1:]
                draw = s.draw[:k] + (b,) + s.draw[k + 1:]
                players = list(s.players)
                players[seat] = players[seat]._replace(hand=new_hand)
                return s._replace(players=tuple(players), draw=tuple(reversed(draw)))
    return None


@pytest.mark.rule("H7")
def test_H7_another_hand_and_the_draw_pile_are_not_observed():
    """Two states that differ only in seat q's hand (and the draw pile) look the same to every
    other seat, tensor and text; seat q sees the difference."""
    players = 4
    e, alt = env(players=players, options=QUICK), raw_env(players=players, options=QUICK)
    e.reset(seed=21)
    rng = random.Random(21)
    compared = 0
    for step in range(200):
        s = e.unwrapped.game_state
        if s.phase == Phase.OVER:
            break
        if step % 20 == 0:
            q = step // 20 % players
            variant = _swap_hand_card(s, q)
            assert variant is not None
            alt.reset(options={"state": replace(e.unwrapped.encoded, state=variant)})
            for p, agent in enumerate(alt.possible_agents):
                mine, theirs = e.unwrapped.observe(agent), alt.observe(agent)
                same = np.array_equal(mine["observation"], theirs["observation"])
                text_same = e.unwrapped.observation_text(agent) == alt.observation_text(agent)
                assert same == text_same == (p != q), (step, p, q)
            compared += 1
        _, _, _, _, info = e.last()
        e.step(rng.choice(info["legal_moves"]))
    assert compared == 10


@pytest.mark.rule("H7")
def test_H7_coins_of_others_are_hidden_until_the_end():
    e = env(players=3, options=QUICK)
    raw = e.unwrapped
    seen_coins = 0

    def check(e, agent, obs):
        nonlocal seen_coins
        coins = raw.game_state.coins()
        for p, other in enumerate(e.agents):
            shown = _piece(raw.observe(other)["observation"], raw.setup, "coins").tolist()
            assert shown == [coins[k] if k == p else 0 for k in range(3)]
        seen_coins += sum(coins)

    _play(e, seed=8, action_seed=8, check=check)
    assert seen_coins > 0
    coins = list(raw.game_state.coins())
    assert sum(coins) > 0
    for agent in raw.possible_agents:
        assert _piece(raw.observe(agent)["observation"], raw.setup, "coins").tolist() == coins


def test_observation_shows_own_hand_in_order_and_text_hides_other_hands():
    e = env(players=4, options=QUICK)
    e.reset(seed=3)
    raw = e.unwrapped
    s = raw.game_state
    obs = raw.observe("player_2")["observation"]
    hand = _piece(obs, raw.setup, "hand")
    beans = raw.setup.beans
    assert [beans[int(np.argmax(row))] for row in hand[:len(s.players[2].hand)]] == list(s.players[2].hand)
    assert not hand[len(s.players[2].hand):].any()
    assert _piece(obs, raw.setup, "hand_sizes").tolist() == [len(p.hand) for p in s.players]
    text = raw.observation_text("player_2")
    lines = {line.split(":")[0]: line for line in text.split("\n") if line[:1] == "p" and ":" in line[:4]}
    assert "[" in lines["p2"].split("hand")[1] and "[" not in lines["p1"].split("hand")[1]


# ---------------------------------------------------------------- rendering and refusals


def test_render_ansi_and_human(capsys):
    e = env(players=3, options=QUICK, render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert text.startswith(str(e.unwrapped.game_state))
    h = env(players=3, options=QUICK, render_mode="human")
    h.reset(seed=4)
    h.render()
    assert capsys.readouterr().out.strip() == text.strip()
    assert env(players=3, options=QUICK).unwrapped.render() is None
    with pytest.raises(ValueError):
        env(render_mode="rgb_array")


def test_isla_is_refused_in_one_line():
    with pytest.raises(ValueError) as err:
        env(players=4, options={"isla": True})
    refused = "the adapters do not encode La Isla Bohnita moves: use isla=false"
    assert str(err.value) == expansion_refused("isla") == refused
    assert setup(ruleset("rio-grande", {"isla": True}), 4).expansion == "isla"  # the ruleset itself is fine
