"""A seat P with an empty hand in every endgame solver: its phase 1 is skipped (T1), so the engine
turns up P's cards (T2) inside the previous seat's last action, its draw (T7). The CP-SAT ``solo``
model once missed those cards (its card stream read them only from an action of P's) and crashed
replaying its line (IllegalAction ... [T6]).

Every position is in the final pass (2 exhaustions of 3) and built from state JSON, checked against
the rules. The values are worked out by hand in the comments; every solver that accepts a position
must find them, CP-SAT must equal exact search, and every line must replay through the checked
engine to the coins it claims. Beanometer (C1), the cards needed for 1 / 2 coins: blue 4/6, chili
3/6, stink 3/5, green 3/5, soy 2/4, blackeyed 2/4, red 2/3, wax 4/7; garden 2 -> 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from model import GameState, Phase, apply, bean
from solvers.contract import BEST, COOP, Limits, Solution, SolveError
from solvers.cpsat import card_stream, solve_solo_cpsat
from solvers.cpsat_deals import solve_deals_cpsat
from solvers.exact import solve_open, solve_solo
from solvers.expected import solve_expected
from solvers.flow.solver import solve_flow
from solvers.positions import position_from_json

NO_FIELDS = [None, None, None]  # amigo with 3 players: 3 fields (S1)


def _seat(hand: list[str], fields: list[Any], coins: int = 0, coin: str = "blue") -> dict[str, Any]:
    return {"hand": hand, "fields": fields, "coins": [coin] * coins, "aside": []}


def _position(rules: str, players: list[dict[str, Any]], draw: list[str], phase: str = "plant",
              face_up: tuple[str, ...] = ()) -> GameState:
    """p0 active at turn 40, exhaustion 2 of 3: the pile in play is the last one (E2)."""
    return position_from_json({
        "format": "bohnanza-state", "version": 1, "ruleset": rules, "options": {},
        "players": players, "draw": draw, "discard": [], "face_up": list(face_up), "out": [],
        "active": 0, "phase": phase, "to_move": 0, "planted": 0, "first_field": -1, "offers": 0,
        "pending": None, "exhaustions": 2, "final": False, "todo": [], "resume": 0, "turn": 40})


@dataclass(frozen=True)
class Case:
    s: GameState
    p: int
    stream: list[tuple[int, tuple[str, ...]]]  # P's turns: (turn, cards turned up), as the engine shows them
    solo: int
    coop: int
    best: int
    expected: Fraction
    deals_cpsat: bool = True  # solvers/cpsat_deals.py starts only in phase 1 (T1)


CASES = {
    # The issue: amigo, 3 players; p0 holds a blue, p1 (P) nothing, fields [2 green, -, -], p2 a red.
    # p0 plants its blue (T1), turns up soy, soy (T2), plants them (T5, T6) and draws soy, soy, soy
    #   (T7). P's hand is empty, so P's phase 1 is skipped (T1) and the last card, a green, is turned
    #   up in that same draw action; the pile is then exhausted for the last time while turning up
    #   (E2): P's turn is finished, then the game ends (E3). The green makes P's greens 3 -> 1 coin.
    #   solo 1.
    # coop: 5 soys pay at most 2 in any grouping (5: 2; 4+1: 2; 3+2: 1+1), 3 greens 1, one blue and
    #   one red nothing: at most 3, reached when p0 gives 2 of its drawn soys to P in P's turn (T3:
    #   a gift to the active seat; T4, T6: P plants them) and keeps its two turned-up soys.
    # best P: p0's solo optimum is 1 (2 soys), p2's 0; p0 keeps a soy field of 2, so at most 3 soys
    #   reach P: 1 coin, with the green 2.
    # expected: P sees none of the 8 other cards (H7: blue, red, green, 5 soy, the draw pile and the
    #   hands in random order); P gets a coin iff the last card is the green: 1/8.
    "issue": Case(
        _position("amigo", [_seat(["blue"], NO_FIELDS), _seat([], [["green", 2], None, None]),
                            _seat(["red"], NO_FIELDS)], ["soy"] * 5 + ["green"]),
        1, [(41, ("green",))], solo=1, coop=3, best=2, expected=Fraction(1, 8)),
    # P active first with an empty hand: the engine starts P's turn in trading with its cards
    #   turned up (T1, T2): green, soy. P plants the green (3 greens -> 1 coin) and the soy on an
    #   empty field (T5, T6), draws soy, soy, blue (T7) and has no turn left; p1 plants its blue and
    #   turns up soy, green, the last cards (E2). solo 1; expected 1 (P has seen every card it can
    #   ever plant).
    # coop: 4 greens pay at most 1, 4 soys at most 2, 2 blues and a red nothing: at most 3. Reached
    #   in p1's turn: P gives p1 its two drawn soys (T3) and p1 gives P its turned-up soy (2 + 2).
    # best P: p1's and p2's solo optima are 0. P's drawn soys never reach P's fields (P has no
    #   phase 1 left), so P can have at most its soy and p1's: 1 coin, with the green 2.
    # The CP-SAT coop/best model starts only in phase 1 and refuses the position.
    "active-empty": Case(
        _position("amigo", [_seat([], [["green", 2], None, None]), _seat(["blue"], NO_FIELDS),
                            _seat(["red"], NO_FIELDS)], ["soy", "soy", "blue", "soy", "green"],
                  phase="trade", face_up=("green", "soy")),
        0, [(40, ("green", "soy"))], solo=1, coop=3, best=2, expected=Fraction(1), deals_cpsat=False),
    # P (p2) waits with an empty hand, fields [2 green, 1 soy, -], while p0 and p1 play a turn each
    #   (plant, turn up 2, draw 3); P's turn is skipped to its turn-up (T1) inside p1's draw: the
    #   last two cards, green and soy (E2). Greens 3 -> 1, soys 2 -> 1: solo 2.
    # coop and best: no other type has enough cards in play to pay (3 blues, 2 chilis, 2 stinks,
    #   one garden, blackeyed and red), a 4th green or 3rd soy adds nothing: 2.
    # expected: P's two cards are 2 of the 14 it cannot see (2 greens, 2 soys among them); each of
    #   green and soy adds 1 if at least one comes: 2 * (1 - C(12,2)/C(14,2)) = 2 * 25/91 = 50/91.
    "waits-two": Case(
        _position("amigo", [_seat(["blue"], NO_FIELDS), _seat(["red"], NO_FIELDS),
                            _seat([], [["green", 2], ["soy", 1], None])],
                  ["chili", "stink", "blue", "chili", "stink", "blue", "garden", "blackeyed", "green", "soy",
                   "green", "soy"]),
        2, [(42, ("green", "soy"))], solo=2, coop=2, best=2, expected=Fraction(50, 91)),
    # rio-grande, 4 players (2 fields, a third costs 3, F1): p1 (P) has 3 coins, fields [2 chili,
    #   2 stink] and an empty hand. p0 plants its blue, turns up blue, blue, draws wax, wax, wax; P's
    #   turn-up, in that draw, is red, red (E2). No field fits (H3): harvesting the chilis or the
    #   stinks pays 0 and frees a field for both reds (2 -> 1 coin): 4. A third field would cost 3 to
    #   save a field worth 0. coop and best: no chili or stink comes, 3 blues and 3 waxes pay
    #   nothing: 4.
    # expected: the 8 unseen cards are 3 blue, 3 wax, 2 red; only red, red gains: 3 + 1/28 = 85/28.
    "rio4": Case(
        _position("rio-grande", [_seat(["blue"], [None, None]),
                                 _seat([], [["chili", 2], ["stink", 2]], coins=3, coin="wax"),
                                 _seat([], [None, None]), _seat([], [None, None])],
                  ["blue", "blue", "wax", "wax", "wax", "red", "red"]),
        1, [(41, ("red", "red"))], solo=4, coop=4, best=4, expected=Fraction(85, 28)),
    # P active first with a hand of one card: p0 plants its green (T1: 3 greens -> 1); the hand is
    #   then empty, so phase 1 ends and soy, soy are turned up in the same action (2 soys -> 1).
    #   solo 2. expected: 1 + P(the two turned-up cards are soys) = 1 + 3/9 * 2/8 = 13/12.
    # coop: 4 greens 1, 3 soys 1, 4 blues 1 (p1's planted blue and p0's three drawn ones, given to
    #   p1 in its turn, T3), a red 0: 3. best P: p0's drawn blues never reach p0's fields: 2.
    "one-card": Case(
        _position("amigo", [_seat(["green"], [["green", 2], None, None]), _seat(["blue"], NO_FIELDS),
                            _seat(["red"], NO_FIELDS)],
                  ["soy", "soy", "blue", "blue", "blue", "soy", "green"]),
        0, [(40, ("soy", "soy"))], solo=2, coop=3, best=2, expected=Fraction(13, 12)),
}
NAMES = list(CASES)


def _replays(s: GameState, sol: Solution) -> list[int]:
    """The line through the checked engine: it ends the game with the coins the solution claims."""
    t = s
    for a in sol.line:
        t = apply(t, a)  # check=True: an illegal step raises IllegalAction
    assert t.phase == Phase.OVER
    coins = [len(pl.coins) for pl in t.players]
    assert coins == sol.per_player
    assert (sum(coins) if sol.objective.name == "coop" else coins[sol.player]) == sol.value
    return coins


@pytest.mark.rule("T1")
@pytest.mark.parametrize("name", NAMES)
def test_T1_card_stream_reads_the_cards_turned_up_in_p_turn(name):
    c = CASES[name]
    want = [(turn, tuple(bean(b) for b in ups)) for turn, ups in c.stream]
    assert [(tn.turn, tn.face_up) for tn in card_stream(c.s, c.p).turns] == want


@pytest.mark.rule("T1")
def test_T1_card_stream_with_one_card_later():
    # The position with a soy in P's hand: P's phase 1 plants it (T1), the hand is then
    #   empty and the green is turned up in P's own action. Soy 1 pays nothing, greens 3 -> 1.
    s = _position("amigo", [_seat(["blue"], NO_FIELDS), _seat(["soy"], [["green", 2], None, None]),
                            _seat(["red"], NO_FIELDS)], ["soy"] * 5 + ["green"])
    stream = card_stream(s, 1)
    assert stream.hand == (bean("soy"),)
    assert [(tn.turn, tn.hand_available, tn.face_up) for tn in stream.turns] == [(41, 1, (bean("green"),))]
    sol = solve_solo_cpsat(s, 1, Limits(workers=1))
    assert sol.value == solve_solo(s, 1).value == 1
    _replays(s, sol)


@pytest.mark.rule("T6")
@pytest.mark.parametrize("name", NAMES)
def test_T6_solo_cpsat_equals_exact_and_both_lines_replay(name):
    c = CASES[name]
    exact = solve_solo(c.s, c.p)
    cp = solve_solo_cpsat(c.s, c.p, Limits(5, workers=1))
    assert cp.status == "optimal"
    assert exact.value == cp.value == c.solo
    _replays(c.s, exact)
    _replays(c.s, cp)


@pytest.mark.rule("T3")
@pytest.mark.parametrize("objective", [COOP, BEST], ids=str)
@pytest.mark.parametrize("name", NAMES)
def test_T3_open_objectives_exact_and_cpsat(name, objective):
    c = CASES[name]
    want = c.coop if objective == COOP else c.best
    exact = solve_open(c.s, objective, c.p)
    assert exact.value == want
    _replays(c.s, exact)
    if not c.deals_cpsat:
        with pytest.raises(SolveError, match="start of a turn"):
            solve_deals_cpsat(c.s, objective, c.p, Limits(5, workers=1))
        return
    cp = solve_deals_cpsat(c.s, objective, c.p, Limits(5, workers=1))
    assert cp.status == "optimal"
    assert cp.value == want
    _replays(c.s, cp)
    flow = solve_flow(c.s, objective, c.p, Limits(10, workers=1))
    assert flow.status == "optimal"
    assert flow.value == want
    _replays(c.s, flow)


@pytest.mark.rule("H7")
@pytest.mark.parametrize("name", NAMES)
def test_H7_expected_solo(name):
    c = CASES[name]
    sol = solve_expected(c.s, c.p)
    assert sol.value == c.expected
    assert sol.value <= sol.open_average  # seeing every card cannot hurt P
