"""Exact ``duel`` on the Isla duel (I9; issue 41 item 2, ``solvers/isla/duel.py``): the search (its
key, its bound, its one reduction) against a reference minimax over the whole state, the line
replayed through the registry, and the refusals in one line."""

from __future__ import annotations

from typing import Any

import pytest
from builders import isla_fleet, isla_seat, isla_ship

from model import GameState, Phase, apply
from model.errors import ArgumentError
from model.isla import isla_of
from model.validate import check_state
from schemas.state_json import state_from_json
from solvers.api import solve
from solvers.contract import DUEL, Budget, Limits, SolveError
from solvers.isla import duel as isla_duel
from solvers.isla.duel import (
    IslaDuelSearch,
    Key,
    _moves,
    duel_key,
    margin0,
    margin_range,
    reference_duel,
    solve_isla_duel,
    turns_ahead,
)
from solvers.positions import ISLA_LIBRARY

# rio-grande, 2 players, La Isla Bohnita: the Isla duel (I9); coffee, wax, blue, chili, stink in play.
P0 = isla_seat(["coffee"], [["coffee", 3], None, None])  # plants its coffee: 4 coffee, 1 coin at the end
P1 = isla_seat(["wax"], [["wax", 2], None, None])
PIRATE_ONLY = isla_fleet([isla_ship()], isla_ship())  # p0: an empty merchant ship and a pirate
CHILI_CARGO = isla_fleet([isla_ship("chili", 3)])  # p1: 3 chili on its merchant ship


def _duel(rows: tuple[list[str], list[str]], draw: list[str], sails: int,
          fleets: tuple[dict[str, Any], dict[str, Any]] = (PIRATE_ONLY, CHILI_CARGO),
          exhaustions: int = 2, p0: dict[str, Any] = P0) -> GameState:
    """p0 to plant; ``exhaustions`` 2: the final pass (E2, I8)."""
    s = state_from_json({
        "format": "bohnanza-state", "version": 1, "ruleset": "rio-grande",
        "options": {"isla": True, "max_sails": sails}, "players": [p0, P1], "draw": draw,
        "discard": ["blue"], "face_up": [], "out": [], "active": 0, "phase": "plant", "to_move": 0,
        "planted": 0, "first_field": -1, "offers": 0, "pending": None, "exhaustions": exhaustions,
        "final": False, "todo": [], "resume": 0, "turn": 40,
        "isla": {"fleets": list(fleets), "rows": {"bohnbay": rows[0], "bohnaco": rows[1]}, "attacked": [],
                 "attack": None, "captured": False, "sails": 0, "discarded": False}})
    check_state(s)
    return s


# p0's last turn (one card left: turned up, then the game ends after the turn, E2): a chili to
# plant or load; in the second, two chili in Bohnbay's row and two sails, so p0 can sail out, load
# them and attack p1's chili cargo (I4, I7), which p1 answers by selling or yielding.
LAST_TURN = _duel((["chili"], ["blue"]), ["chili"], 1)
RAID_TURN = _duel((["chili", "chili"], ["blue"]), ["chili"], 2)
# p0 may harvest its 3 chili in phase 1 (1 coin): the 2 chili left on the discard pile match the
# turned-up chili and join it (I9), 3 chili again; a harvest that puts no match there can wait
RETURN_TURN = _duel((["blue"], ["stink"]), ["chili"], 0, fleets=(isla_fleet([isla_ship()]), CHILI_CARGO),
                    p0=isla_seat(["coffee"], [["coffee", 3], ["chili", 3], None]))
# p0's last turn, one wax in hand, its merchant ship jammed with one stink (3 stink 1 coin, no other stink
# in reach: it cannot be sold, I6, and p0 cannot pay for a second ship, I9), so Bohnbay's three
# chili stay in the row (I4): margin -1 (p1's chili cargo), and the bound sees it (``ship_beans``).
# With two ships of one stink each, a move joins them (I6) and the emptied ship loads the chili:
# margin 0.
BARE = isla_seat(["wax"], [None, None, None])  # one wax to plant: no coin (4 wax 1)
JAMMED = _duel((["chili"] * 3, ["coffee"]), ["blue"], 1,
               fleets=(isla_fleet([isla_ship("stink", 1)]), CHILI_CARGO), p0=BARE)
JOINED = _duel((["chili"] * 3, ["coffee"]), ["blue"], 1,
               fleets=(isla_fleet([isla_ship("stink", 1), isla_ship("stink", 1)]), CHILI_CARGO), p0=BARE)
CASES = [LAST_TURN, RAID_TURN, RETURN_TURN]
IDS = ["last-turn", "raid-turn", "return-turn"]
# p0's turn, then p1's last (6 cards: 3 turned up and 2 drawn, then 1 turned up, E2), no sails
TWO_TURNS = _duel(([], ["blue"]), ["stink", "chili", "coffee", "wax", "wax", "chili"], 0,
                  fleets=(isla_fleet([isla_ship("chili", 1)]), CHILI_CARGO))


@pytest.mark.rule("I9")
@pytest.mark.parametrize("s", CASES, ids=IDS)
def test_the_search_agrees_with_the_reference(s: GameState) -> None:
    # the reference keys the whole state (fields in seat order, the discard pile) and neither cuts
    # nor bounds; without the reduction every cargo move is made (cycles cut on the path)
    want = reference_duel(s, 0, reduce=False)
    assert reference_duel(s, 0) == want
    assert IslaDuelSearch(Budget("no bound"), bound=False).value(s) == want
    sol = solve_isla_duel(s)
    assert (sol.value, sol.status) == (want, "optimal")
    assert solve_isla_duel(s, 1).value == -want


@pytest.mark.rule("I9")
@pytest.mark.parametrize("s", [*CASES, TWO_TURNS], ids=[*IDS, "two-turns"])
def test_every_reachable_state_s_value_lies_in_its_margin_range(s: GameState) -> None:
    # minimax by hand over every state reachable with the reduction (no cycle is left then)
    values: dict[Key, int] = {}
    states: list[GameState] = []

    def value(t: GameState) -> int:
        if t.phase == Phase.OVER:
            return margin0(t)
        key = duel_key(t)
        if key not in values:
            vals = [value(apply(t, a, check=False)) for a in _moves(t)]
            values[key] = max(vals) if t.to_move == 0 else min(vals)
            states.append(t)
        return values[key]

    assert IslaDuelSearch(Budget("bounded")).value(s) == value(s)
    for t in states:
        low, high = margin_range(t)
        assert low <= values[duel_key(t)] <= high, t


@pytest.mark.rule("I6")
def test_a_jammed_ship_loads_no_row_card_and_two_joined_cargos_free_one() -> None:
    assert reference_duel(JAMMED, 0) == -1 == margin_range(JAMMED)[1]  # tight: the row's chili left out
    assert reference_duel(JOINED, 0) == 0 <= margin_range(JOINED)[1]


@pytest.mark.rule("I6")
def test_a_bound_that_misses_the_join_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutant: ``ship_beans`` taking every full fleet as jammed (no join, no sale, no purchase)."""

    def jams(s: GameState, q: int, cards: dict[int, int]) -> set[int] | None:
        ships = isla_of(s).fleets[q].merchants
        return {sh.bean for sh in ships} if all(sh.count for sh in ships) else None

    monkeypatch.setattr(isla_duel, "ship_beans", jams)
    assert margin_range(JOINED)[1] < reference_duel(JOINED, 0)  # a "bound" below the minimax value


@pytest.mark.rule("I7")
def test_the_built_in_raid_cannot_pay() -> None:
    # isla-duel-2cards: p0 plants its coffee (4 coffee: 1 coin) and the turned-up chili and stink,
    # sails out for Bohnbay's two chili and loads its field's chili onto them (3 chili: 1 coin);
    # p1's 3 chili pay 1 whether p1 keeps them or sells them when p0 attacks (a yield would leave
    # it 2 chili, nothing), and its 2 wax nothing: margin 2 - 1 = 1
    s = ISLA_LIBRARY["isla-duel-2cards"].position()
    sol = solve(s, DUEL, "exact", 0)
    assert (sol.value, sol.per_player) == (1, [2, 1])
    assert solve_isla_duel(s, 1).value == -1


@pytest.mark.rule("I9")
def test_the_registry_replays_the_line_and_reports_the_margin() -> None:
    sol = solve(RAID_TURN, DUEL, "exact", 1)
    assert sol.per_player[1] - sol.per_player[0] == sol.value == -reference_duel(RAID_TURN, 0)
    assert len(sol.line) > 0


@pytest.mark.rule("I9")
def test_turns_ahead_counts_the_pile() -> None:
    # I9: a turn turns up 3 and draws 2; the pile's last card taken ends the game (E2)
    assert turns_ahead(LAST_TURN) == (0,)
    assert turns_ahead(_duel((["chili"], ["blue"]), ["chili"] * 6, 1)) == (0, 1)
    assert turns_ahead(_duel((["chili"], ["blue"]), ["chili"] * 11, 1)) == (0, 1, 0)


@pytest.mark.rule("I9")
def test_refusals_are_one_line() -> None:
    with pytest.raises(SolveError, match=r"reshuffle lies ahead \(exhaustion 1 of 3\)"):
        solve_isla_duel(_duel((["chili"], ["blue"]), ["chili"], 1, exhaustions=1))
    with pytest.raises(SolveError, match=r"covers the Isla duel only"):
        solve_isla_duel(ISLA_LIBRARY["isla-rio4-5cards"].position())
    with pytest.raises(ArgumentError, match=r"^player=2: the Isla duel has seats 0 and 1$"):
        solve_isla_duel(LAST_TURN, 2)
    with pytest.raises(SolveError, match=r"passed its node limit"):
        solve(ISLA_LIBRARY["isla-duel-7cards"].position(), DUEL, "exact", None, Limits(nodes=50))
