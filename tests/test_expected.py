"""``expected solo P`` (solvers/expected.py): P's best expected coins when the unseen cards (the
draw pile and the other hands, H7) lie in uniformly random order, no trades, the others on the
default policy.

The reference is ``brute_force_expected``: every arrangement of the unseen cards as a concrete
engine state, split by P's view after every step. The expectimax must give the same Fraction.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from model import GameState, Phase, apply, legal_actions, new_game
from solvers.contract import SolveError
from solvers.exact import SoloSearch, default_policy, solve_solo
from solvers.expected import (
    HIDDEN,
    ExpectedSearch,
    ExpectedSolution,
    brute_force_expected,
    hide,
    reveal_odds,
    solve_expected,
    timeline,
    worlds,
)
from solvers.positions import LIBRARY, cut, position_from_json, small


def _seat(hand: list[str], fields: list[Any]) -> dict[str, Any]:
    return {"hand": hand, "fields": fields, "coins": [], "aside": []}


def hand_made(p0: dict[str, Any], p1: dict[str, Any], draw: list[str]) -> GameState:
    """rio-grande, 4 players, the final pass (2 exhaustions of 3), p0 to plant; p2, p3 idle."""
    idle = _seat([], [None, None])
    return position_from_json({
        "format": "bohnanza-state", "version": 1, "ruleset": "rio-grande", "options": {},
        "players": [p0, p1, idle, idle], "draw": draw, "discard": [], "face_up": [], "out": [],
        "active": 0, "phase": "plant", "to_move": 0, "planted": 0, "first_field": -1, "offers": 0,
        "pending": None, "exhaustions": 2, "final": False, "todo": [], "resume": 0, "turn": 40})


# p0 holds a wax that fits neither field, so p0 must harvest the 3 soy or the 3 red first (T1, H3),
# then turns up two of {red, soy, garden}; the third is p1's hand card. The right harvest is the
# bean that will not come up (the one p1 holds): the other field then takes its turned-up card.
# Seeing the order, p0 makes 4 coins every time; blind, either harvest is wrong one time in three.
BLIND_HARVEST = hand_made(_seat(["wax"], [["soy", 3], ["red", 3]]), _seat(["garden"], [None, None]),
                          ["red", "soy"])

# P is p1. p0 (default policy) holds two unseen cards and has no empty field: it plants its second
# card only if that fits a field (T1), so "p0 kept its second card" tells p1 it is none of the
# fitting types. The card stays hidden with those types excluded, which changes p1's odds for the
# last card (E2: p1 turns up the one card left). Six reds, a chili and a blue are unseen (56
# arrangements).
SECOND_CARD = hand_made(_seat(["red", "red"], [["chili", 2], ["stink", 2]]),
                        _seat(["blue", "red"], [["soy", 1], ["blue", 3]]),
                        ["red", "chili", "red", "red", "red", "blue"])

# P is p1 again; p0 plants its chili, turns up two of the six pile cards {red, soy, 4 wax} and draws
# three; p1 then holds a wax that fits neither field (soy 3, red 3) and turns up the last card. If
# the red (or the soy) came up in p0's turn, it cannot be p1's card: p1 keeps the other field.
OTHERS_TURN_UP = hand_made(_seat(["chili"], [["chili", 2], ["stink", 2]]),
                           _seat(["wax"], [["soy", 3], ["red", 3]]),
                           ["red", "soy", "wax", "wax", "wax", "wax"])


def _cut(ruleset: str, players: int, seed: int, left: int, options: dict[str, Any] | None,
         hand: int, draw: int) -> GameState:
    return small(cut(ruleset, players, seed, left, options), hand=hand, draw=draw)


# (ruleset, players, seed, cards left, options, hand, draw, P or None for the seat to move)
TINY = [
    ("rio-grande", 3, 11, 6, None, 1, 4, None),
    ("amigo", 3, 21, 8, None, 1, 4, None),
    ("rio-grande", 4, 13, 10, None, 1, 4, None),
    ("amigo", 4, 22, 10, None, 1, 3, None),
    ("rio-grande", 5, 15, 15, None, 1, 2, None),
    ("amigo", 5, 23, 20, None, 1, 2, None),
    # one card drawn a turn: P moves after another seat's turn (its plantings and turn-ups seen)
    ("amigo", 3, 4, 14, {"draw": 1}, 2, 4, 1),
    ("amigo", 4, 2, 8, {"draw": 1}, 2, 3, 2),
    # V4: every seat draws 1, so P draws in the others' turns; information has value here
    ("amigo-v1", 4, 3, 14, None, 1, 3, 2),
]


Tiny = list[tuple[str, GameState, int, ExpectedSolution]]


@pytest.fixture(scope="module")
def tiny() -> Tiny:
    out = [(f"{r} {n}p seed {seed} left {left} {opt or ''} hand {h} draw {d}", s,
            s.to_move if p is None else p)
           for r, n, seed, left, opt, h, d, p in TINY
           for s in [_cut(r, n, seed, left, opt, h, d)]]
    out += [("blind-harvest", BLIND_HARVEST, 0), ("second-card", SECOND_CARD, 1),
            ("others-turn-up", OTHERS_TURN_UP, 1)]
    return [(name, s, p, solve_expected(s, p)) for name, s, p in out]


def test_expected_equals_the_brute_force_over_every_arrangement(tiny: Tiny) -> None:
    for name, s, p, sol in tiny:
        assert len(worlds(s, p)) <= 420, name
        assert sol.value == brute_force_expected(s, p), name
        assert sol.value <= sol.open_average, name  # seeing everything cannot hurt


def test_the_open_average_is_the_average_of_the_open_optimum_over_every_arrangement(tiny: Tiny) -> None:
    for name, s, p, sol in tiny[:3] + tiny[6:]:
        ws = worlds(s, p)
        average = Fraction(sum(solve_solo(w, p).value for w in ws), len(ws))
        assert sol.open_average == average, name
        assert sol.arrangements == len(ws), name


def test_information_has_value_when_p_must_choose_before_the_cards_come() -> None:
    sol = solve_expected(BLIND_HARVEST)
    assert sol.value == Fraction(11, 3) and sol.open_average == 4
    assert sol.information_value == Fraction(1, 3)
    assert sorted(str(a) for a, _ in sol.actions) == ["p0 harvest 0", "p0 harvest 1"]
    assert all(v == Fraction(11, 3) for _, v in sol.actions)  # either harvest: right 2 times in 3
    for w in worlds(BLIND_HARVEST, 0):
        assert solve_solo(w).value == 4


def test_cards_turned_up_in_another_players_turn_inform_p() -> None:
    """T2: p0's turn-ups are public; a P who ignores them (and the others' fields) does worse."""
    def blind(s: GameState, p: int) -> tuple[object, ...]:
        pl = s.players[p]
        return (pl.hand, pl.fields, len(pl.coins), pl.aside, s.face_up if s.active == p else (),
                len(s.draw), s.active, s.phase, s.to_move, s.planted, s.first_field, s.final)

    sol = solve_expected(OTHERS_TURN_UP, 1)
    assert sol.value == brute_force_expected(OTHERS_TURN_UP, 1) == Fraction(45, 14)
    assert brute_force_expected(OTHERS_TURN_UP, 1, sees=blind) == Fraction(22, 7) < sol.value
    assert sol.open_average == Fraction(23, 7)


def test_T1_a_second_card_kept_is_none_of_the_fitting_types() -> None:
    s = SECOND_CARD
    h, pool = hide(s, 1)
    search = ExpectedSearch(1)
    assert search.value(h, pool) == brute_force_expected(s, 1)

    def constrained(x: object) -> bool:
        if isinstance(x, tuple):
            return any(constrained(y) for y in x)
        return isinstance(x, int) and x < HIDDEN

    assert any(len(k) > 13 and constrained(k[13]) for k in search.table), "p0 keeps a second card"
    # the odds behind it: 6 red, 1 chili, 1 blue unseen; one hidden card is known to be no chili
    chili, blue, red = 3, 2, 8
    pool = tuple(6 if b == red else 1 if b in (chili, blue) else 0 for b in range(11))
    t = h._replace(players=(h.players[0]._replace(hand=(-2 - (1 << chili), HIDDEN)),) + h.players[1:])
    assert dict(reveal_odds(t, pool, -2 - (1 << chili))) == {blue: Fraction(1, 7), red: Fraction(6, 7)}
    assert dict(reveal_odds(t, pool, HIDDEN)) == {chili: Fraction(1, 7), blue: Fraction(6, 49),
                                                   red: Fraction(36, 49)}


def test_nothing_unseen_that_matters_gives_the_open_optimum() -> None:
    s = LIBRARY["forced-harvest"].position()  # the unseen cards are two wax: one arrangement
    sol = solve_expected(s)
    assert sol.arrangements == 1 and sol.value == sol.open_average == solve_solo(s).value
    # E2: the last card turned up, p0 trades and plants, then the game ends; only hands are unseen
    t = small(cut("rio-grande", 3, 11, 6), hand=2, draw=2)
    p = t.to_move
    while t.phase != Phase.TRADE:
        t = apply(t, SoloSearch(p).choices(t)[0])
    assert t.final and not t.draw
    sol = solve_expected(t)
    assert sol.value == sol.open_average == solve_solo(t).value


def test_best_is_a_legal_action_of_p_with_the_highest_value(tiny: Tiny) -> None:
    for name, s, p, sol in tiny:
        if s.to_move != p:
            continue
        assert sol.best in legal_actions(s), name
        assert [a for a, _ in sol.actions] == SoloSearch(p).choices(s), name
        assert max(v for _, v in sol.actions) == sol.value == dict(sol.actions)[sol.best], name


def test_p_not_to_move_has_no_best_action_when_a_card_is_revealed_first() -> None:
    sol = solve_expected(SECOND_CARD, 1)  # p0 plants an unseen card before p1 decides anything
    assert sol.best is None and sol.actions == []
    assert sol.value == Fraction(7, 4)


def test_E2_the_timeline_is_where_the_engine_sends_each_pile_card(tiny: Tiny) -> None:
    for name, s, _, _ in tiny:
        line = timeline(s)
        cards = s.draw
        assert len(line) == len(cards), name  # the final pass uses up the pile
        t, used = s, 0
        while t.phase != Phase.OVER:
            u = apply(t, default_policy(t))
            k = len(t.draw) - len(u.draw)
            dests, got = line[used:used + k], cards[used:used + k]
            assert all(q == u.active for kind, q in dests if kind == "up"), name
            pairs = list(zip(dests, got, strict=True))
            assert not Counter(b for (kind, _), b in pairs if kind == "up") - Counter(u.face_up), name
            for q, pl in enumerate(u.players):
                drawn = tuple(b for (kind, r), b in pairs if kind == "hand" and r == q)
                assert pl.hand[len(pl.hand) - len(drawn):] == drawn, name
            t, used = u, used + k
        assert used == len(line), name


def test_expected_refuses_the_duel_and_positions_before_the_final_pass() -> None:
    with pytest.raises(SolveError, match="D1"):
        solve_expected(LIBRARY["duel-4cards"].position())
    with pytest.raises(SolveError, match="E2"):
        solve_expected(new_game("rio-grande", 4, seed=1))


def test_the_hand_made_positions_are_legal_json_round_trips() -> None:
    for s in (BLIND_HARVEST, SECOND_CARD, OTHERS_TURN_UP):
        assert position_from_json(json.loads(json.dumps(s.to_json()))) == s
