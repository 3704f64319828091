"""Exact ``solo`` search (solvers/exact.py) and endgame positions (solvers/positions.py).

The search keys its table on the time and P's zones only (the others' moves cannot touch P's
cards without trades); a plain search without a table must find the same values.
"""

from __future__ import annotations

import json

import pytest

from model import EndPhase, GameState, Harvest, Phase, Plant, apply, legal_actions, state_to_json
from solvers.contract import SolveError
from solvers.exact import SoloSearch, solve_solo
from solvers.positions import LIBRARY, PositionInputError, cut, in_final_pass, position_from_json


def brute_force(s: GameState, p: int, search: SoloSearch) -> int:
    """Every line of P's choices, no table (small positions only)."""
    while s.phase != Phase.OVER and s.to_move != p:
        s = apply(s, search.policy(s))
    if s.phase == Phase.OVER:
        return len(s.players[p].coins)
    return max(brute_force(apply(s, a), p, search) for a in search.choices(s))


@pytest.mark.parametrize(("ruleset", "players", "seed", "left"), [
    ("amigo", 3, 21, 5), ("amigo", 4, 5, 5), ("rio-grande", 3, 11, 5), ("rio-grande", 4, 2, 5),
    ("rio-grande", 5, 3, 5), ("amigo", 5, 7, 5), ("amigo", 4, 8, 5), ("rio-grande", 4, 9, 5),
])
def test_solo_table_search_equals_brute_force(ruleset, players, seed, left):
    s = cut(ruleset, players, seed, left)
    sol = solve_solo(s)
    assert sol.value == brute_force(s, sol.player, SoloSearch(sol.player))


@pytest.mark.parametrize("name", [n for n, e in LIBRARY.items() if e.players > 2])
def test_solo_line_replays_to_its_value(name):
    s = LIBRARY[name].position()
    sol = solve_solo(s)
    for a in sol.line:
        assert a in legal_actions(s) or isinstance(a, EndPhase)
        s = apply(s, a)  # checked
    assert s.phase == Phase.OVER
    assert len(s.players[sol.player].coins) == sol.value == sol.per_player[sol.player]


def test_solo_is_at_least_the_default_policy():
    s = LIBRARY["rio4-18cards"].position()
    sol = solve_solo(s)
    search = SoloSearch(sol.player)
    t = s
    while t.phase != Phase.OVER:
        t = apply(t, search.policy(t))
    assert sol.value >= len(t.players[sol.player].coins)


def test_solo_refuses_the_duel_and_positions_before_the_final_pass():
    with pytest.raises(SolveError, match="D1"):
        solve_solo(LIBRARY["duel-4cards"].position())
    from model import new_game

    s = new_game("rio-grande", 4, seed=1)
    assert not in_final_pass(s)
    with pytest.raises(SolveError, match="E2"):
        solve_solo(s)


def test_library_has_ten_positions_of_the_kinds_asked():
    assert len(LIBRARY) >= 10
    kinds = {(e.ruleset, e.players) for e in LIBRARY.values()}
    assert {("rio-grande", 2), ("rio-grande", 3), ("rio-grande", 4), ("rio-grande", 5)} <= kinds
    assert {("amigo", 3), ("amigo", 4), ("amigo", 5)} <= kinds
    for e in LIBRARY.values():
        s = e.position()
        assert in_final_pass(s) and len(s.draw) <= e.cards_left and s.phase in (Phase.PLANT, Phase.OFFER)


# ------------------------------------------------------------------ positions that break the rules


def _json(s: GameState) -> dict:
    return json.loads(json.dumps(state_to_json(s)))


@pytest.mark.parametrize(("change", "message"), [
    (lambda o: o["players"][0]["hand"].insert(0, "coffee"), "players[0].hand[0]: coffee is not in play"),
    (lambda o: o["players"][1]["coins"].extend(["red"] * 30), "red: 3"),
    (lambda o: o["players"][0]["fields"].extend([None, None]), "players[0].fields: 5 fields"),
    (lambda o: o.update(active=7), "active: seat p7 does not exist"),
    (lambda o: o["players"][2]["hand"].append("purple"), "players[2].hand"),
    (lambda o: o.update(phase="offer"), "phase: offer exists only in the bean duel [D2]"),
    (lambda o: o.update(planted=3), "planted: 3 phase-1 plantings; at most two [T1]"),
    (lambda o: o.update(exhaustions=5), "exhaustions: 5; the game ends at exhaustion 3 [E2]"),
    (lambda o: o.update(exhaustions=3), "the final exhaustion has come but the game goes on [E2]"),
    (lambda o: o.update(to_move=(o["active"] + 1) % 3), "to_move: in phase 1 the active player moves [T1]"),
    (lambda o: o["players"][0]["aside"].append(o["players"][0]["hand"].pop()),
     "set-aside cards exist only in phases 2 and 3 [T6]"),
    (lambda o: o.update(phase="trade", to_move=o["active"], pending="p0 offer p1 give h0"),
     "pending: every deal has the active player on one side [T3]"),
])
def test_a_position_that_breaks_the_rules_is_rejected_naming_the_field(change, message):
    o = _json(LIBRARY["amigo3-5cards"].position())
    position_from_json(o)  # the unchanged position is fine
    change(o)
    with pytest.raises(PositionInputError, match=None) as e:
        position_from_json(o, "pos.json")
    assert str(e.value).startswith("pos.json: ")
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_fields_must_be_harvestable_cards_of_one_type():
    o = _json(LIBRARY["amigo3-5cards"].position())
    o["players"][0]["fields"][0] = ["blue", -2]
    with pytest.raises(PositionInputError, match=r"players\[0\]\.fields\[0\]"):
        position_from_json(o)


@pytest.mark.parametrize("name", ["amigo3-5cards", "rio4-18cards", "rio5-15cards"])
def test_a_solo_line_makes_no_deal_and_plants_from_the_front(name):
    s = LIBRARY[name].position()
    sol = solve_solo(s)
    assert not any(type(a).__name__ in ("Propose", "Accept") for a in sol.line)
    assert any(isinstance(a, Plant) for a in sol.line)
    assert any(isinstance(a, Harvest) for a in sol.line) or sol.value == len(s.players[sol.player].coins)


def test_every_state_of_real_games_passes_the_rules_check():
    from model.validate import check_state
    from proofs.differential import sample_states

    states = list(sample_states(300, seed=5))
    for s in states:
        check_state(s)  # raises PositionError on a false rejection
    assert len({len(s.players) for s in states}) >= 5


def test_a_duel_position_cannot_be_in_a_trading_phase():
    o = _json(LIBRARY["duel-4cards"].position())
    o.update(phase="trade")
    with pytest.raises(PositionInputError, match=r"phase: trade does not exist in the bean duel \[D1\]"):
        position_from_json(o)
