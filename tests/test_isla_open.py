"""Exact ``coop`` and ``best`` on La Isla Bohnita positions (issue 41 item 2, solvers/isla/open_search.py):
hand-made positions whose values are worked out by hand below (I3, I7), the search against a
reference without its deal order and its bound on generated small positions, and the registry:
served through ``solvers.api`` with the line replayed, refused in one line for what is not."""

from __future__ import annotations

from typing import Any

import pytest
from builders import IDLE, NO_SHIP, P0, isla_state
from builders import isla_fleet as _fleet
from builders import isla_seat as _seat
from builders import isla_ship as _ship
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model import GameState, Phase, apply, legal_actions
from model.actions import parse_action
from model.cards import BEAN_INDEX
from model.isla import isla_of
from schemas.state_json import state_from_json
from solvers.api import solve
from solvers.contract import BEST, COOP, SOLO, Budget, Objective, SolveError
from solvers.isla import reach as isla_reach
from solvers.isla.exact import solve_isla_solo
from solvers.isla.open_search import IslaOpenSearch, reference_open, solve_isla_open
from solvers.isla.reach import raid_beans, reach, turns_ahead
from solvers.positions import ISLA_LIBRARY, LIBRARY

# rio-grande, 4 players, Isla: coffee 4 cards 1 coin; green 3:1 5:2 6:3; soy 2:1 4:2 (I2).
# P0 (tests/test_isla_exact.py) plants its coffee in phase 1: 4 coffee, 1 coin at the end.
GREEN3 = _seat([], [["green", 3], None])


def _deal() -> GameState:
    """p0's last turn turns up two green. Kept, they lie on p0's empty field and pay nothing; given
    to p1 (I3: the active seat offers turned-up cards), p1's 3 green become 5: 2 coins, not 1."""
    return isla_state([P0, GREEN3, IDLE, IDLE], [NO_SHIP] * 4, ([], []), ["green", "green"])


def _raid() -> GameState:
    """p0's pirate holds a soy, p1's merchant ship a soy: one soy sells for nothing (I6), so p0's
    attack (I7; p1 cannot sell, its cargo pays nothing, and yields the card) makes a cargo of two: 1
    coin."""
    fleets = [_fleet([_ship()], _ship("soy", 1)), _fleet([_ship("soy", 1)]), NO_SHIP, NO_SHIP]
    return isla_state([P0, IDLE, IDLE, IDLE], fleets, ([], []), ["green", "green"])


def _run(s: GameState, objective: Objective, p: int) -> list[int]:
    sol = solve(s, objective, "exact", p)  # the registry: the line replayed through the engine
    assert sol.status == "optimal"
    return sol.per_player


def test_a_deal_of_turned_up_cards_pays_in_coop_and_for_the_partner() -> None:
    s = _deal()
    assert [solve_isla_solo(s, q).value for q in range(4)] == [1, 1, 0, 0]  # nobody trades
    assert _run(s, COOP, 0) == [1, 2, 0, 0]  # the deal: 3 coins, not 2
    assert _run(s, BEST, 1)[1] == 2  # p1 gains; p0 keeps its floor of 1
    assert _run(s, BEST, 0)[0] == 1  # p0 cannot gain by giving its green away


def test_a_pirate_attack_that_pays_is_made() -> None:
    s = _raid()
    assert _run(s, COOP, 0) == [2, 0, 0, 0]  # coffee 1 + two soy on the pirate 1
    assert _run(s, BEST, 0)[0] == 2


def _small(draw: list[str], p1_field: list[Any], rows: tuple[list[str], list[str]], ship: str | None,
           pirate: str | None) -> GameState:
    fleets = [_fleet([_ship()], _ship(pirate, 1) if pirate else None),
              _fleet([_ship(ship, 1) if ship else _ship()]), NO_SHIP, NO_SHIP]
    return isla_state([P0, _seat([], [p1_field, None]), IDLE, IDLE], fleets, rows, draw, sails=1)


BEANS = st.sampled_from(["green", "soy", "coffee"])


# The reference sweep: 5 positions in the suite, 200 under the long profile
# (HYPOTHESIS_PROFILE=long python -m pytest tests/test_isla_open.py -k reference). A sixth took
# 12 of the 6's 21 s of CPU; the 5 take every branch of solvers/isla/open_search.py, solvers/isla/exact.py
# and model/ the 6 take (the same arcs, traced with coverage.py).
REFERENCE_SWEEP = max(5, settings.default.max_examples // 5)


@settings(max_examples=REFERENCE_SWEEP, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(BEANS, min_size=2, max_size=2), BEANS, st.integers(1, 4),
       st.lists(BEANS, max_size=1), st.lists(BEANS, max_size=1), st.one_of(st.none(), BEANS),
       st.one_of(st.none(), BEANS))
def test_the_search_agrees_with_a_reference_without_deal_order_or_bound(
        draw: list[str], bean: str, count: int, row0: list[str], row1: list[str], ship: str | None,
        pirate: str | None) -> None:
    s = _small(draw, [bean, count], (row0, row1), ship, pirate)
    assert solve_isla_open(s, COOP, 0).value == reference_open(s, COOP, 0)
    floors = [solve_isla_solo(s, q).value for q in range(4)]
    for p in (0, 1):
        assert solve_isla_open(s, BEST, p).value == reference_open(s, BEST, p, floors)


def _window(max_offers: int = 10, other: list[Any] | None = None) -> GameState:
    """p0's pirate holds two chili, p1's field one (rio-grande chili: 3 cards 1 coin), p1's merchant
    ship is empty in its harbour. p1 is to move only while it answers a proposal (T3): then it may
    harvest its chili onto its ship (I5; H4 allows it, its other field is empty) and decline, and
    p0's attack takes it (I7, p1 yields): three chili on the pirate, 1 coin, and p0's coffee 1.
    ``other``: p1's second field (two coffee, which pay nothing: H4 keeps the chili until they are
    harvested, for no coin, and loaded onto the ship they would block it)."""
    s = isla_state([P0, _seat([], [["chili", 1], other]), IDLE, IDLE],
                   [_fleet([_ship()], _ship("chili", 2)), _fleet([_ship()]), NO_SHIP, NO_SHIP], ([], []),
                   ["blue"] * 5, sails=0)
    o = s.to_json()
    o["options"] |= {"max_offers": max_offers, "max_deal_cards": 1}
    return state_from_json(o)


def _every_line(s: GameState, memo: dict[GameState, int]) -> int:
    """coop by every legal action, proposals and answers one by one: no move of the search's own."""
    if s.phase == Phase.OVER:
        return sum(len(pl.coins) for pl in s.players)
    hit = memo.get(s)
    if hit is None:
        hit = memo[s] = max(_every_line(apply(s, a, check=False), memo) for a in legal_actions(s))
    return hit


def test_a_partner_loads_its_ship_while_it_answers_and_the_raid_pays() -> None:
    """The window (``windows``): the search once paired each proposal with its answer and missed the
    loads, sales and purchases a partner makes before it answers, and proved coop 1 here."""
    s = _window()
    assert [solve_isla_solo(s, q).value for q in range(4)] == [1, 0, 0, 0]
    assert _run(s, COOP, 0) == [2, 0, 0, 0]
    assert _run(s, BEST, 0)[0] == 2
    one = _window(max_offers=1)  # one proposal: every legal line searched in under a second
    assert solve_isla_open(one, COOP, 0).value == _every_line(one, {}) == 2
    h4 = _window(max_offers=1, other=["coffee", 2])  # the harvest that opens H4 does not wait
    assert solve_isla_open(h4, COOP, 0).value == _every_line(h4, {}) == 2


def test_in_the_last_turn_a_partner_joins_its_field_to_its_cargo() -> None:
    """No raid this time (p0 has no pirate and cannot pay for one): p1's two chili on a field and
    one on its ship pay nothing apart (E3), joined (I5) they are a cargo of three, a coin. p1 moves
    again only while it answers a proposal (``windows``) or in phase 3 after a deal gives it a
    turned-up card (T6): both lines are there, as in the search over every legal action."""
    s = isla_state([P0, _seat([], [["chili", 2], None]), IDLE, IDLE],
                   [NO_SHIP, _fleet([_ship("chili", 1)]), NO_SHIP, NO_SHIP], ([], []), ["blue"] * 5, sails=0)
    o = s.to_json()
    o["options"] |= {"max_offers": 1, "max_deal_cards": 1}
    one = state_from_json(o)
    assert solve_isla_open(one, COOP, 0).value == _every_line(one, {}) == 2
    assert _run(s, COOP, 0) == [1, 1, 0, 0]


def test_the_bound_is_above_every_value_on_the_hand_made_positions() -> None:
    for s in (_deal(), _raid(), _window()):
        search = IslaOpenSearch(COOP, 0, None, Budget("the bound"))
        assert search.upper(s) >= solve_isla_open(s, COOP, 0).value


def test_a_merchant_cargo_a_pirate_could_raid_still_counts_for_its_owner() -> None:
    """p1's green field of 3 and green cargo of 1 take the two turned-up cards (I3: soy and green)
    and the harvest onto the ship (I5): 5 green, 2 coins, and p0's coffee 1. p0 has no pirate, and
    its raid could take one card at most (I7): the bound must leave the cargo to p1."""
    s = _small(["soy", "green"], ["green", 3], ([], []), "green", None)
    assert solve_isla_open(s, COOP, 0).value == 3 == reference_open(s, COOP, 0)


def test_the_bound_holds_along_the_lines_and_sees_the_last_turn() -> None:
    """``upper`` is at least the value at every state of the principal lines of the hand-made
    positions; with one turn left (E2: its draw empties the pile) only the active seat trades, so
    a hand card no phase 1 reaches counts for nobody else (I3)."""
    for s in (_deal(), _raid(), _window()):
        search = IslaOpenSearch(COOP, 0, None, Budget("the bound"))
        line, _ = search.line(s)
        for a in line:
            assert search.upper(s) >= search.value(s)
            s = apply(s, a)
    rio4 = ISLA_LIBRARY["isla-rio4-5cards"].position()
    assert turns_ahead(rio4) == [(0, 2)]  # 5 cards: 2 turned up, 3 drawn, no later turn
    assert turns_ahead(rio4._replace(draw=rio4.draw * 2)) == [(0, 2), (1, 2)]
    assert IslaOpenSearch(COOP, 0, None, Budget("the bound")).upper(rio4) <= 21  # every card pooled: 25


def _jammed(draw: list[str], coins: int = 0) -> GameState:
    """p0's last turn; its merchant ship holds one soy (2 soy 1 coin: it cannot be sold, I6), and
    three green (1 coin) lie in the Bohnbay row, which the ship could load only once empty (I4)."""
    s = isla_state([P0, IDLE, IDLE, IDLE], [_fleet([_ship("soy", 1)]), NO_SHIP, NO_SHIP, NO_SHIP],
                   (["green"] * 3, []), draw)
    o = s.to_json()
    o["players"][0]["coins"] = ["blue"] * coins
    return state_from_json(o)


def test_a_ship_jammed_with_cargo_that_cannot_pay_loads_no_row_card_of_another_bean() -> None:
    """I4, I6, I1: with nothing turned up to join the soy, the green stay in the row and only the
    coffee pays (1); a turned-up soy planted and harvested onto the ship (I5) makes a cargo that
    sells, and the emptied ship loads the green: 3 (coffee, soy, green). With the coins for a
    second ship (4, I1) the green are within reach again, at a loss."""
    green = BEAN_INDEX["green"]
    for draw, coins, value, greens in ((["blue", "blue"], 0, 1, 0), (["soy", "blue"], 0, 3, 3),
                                       (["blue", "blue"], 4, 5, 3)):
        s = _jammed(draw, coins)
        assert reach(s)[0][0].get(green, 0) == greens  # the bound counts the row's green or not
        assert solve_isla_open(s, COOP, 0).value == value == reference_open(s, COOP, 0)


def _two_chili() -> GameState:
    """p0's last turn; its two merchant ships hold one chili each (rio-grande chili: 3 cards 1 coin,
    so neither cargo pays, nor both together, I6), and three green (1 coin) lie in the Bohnbay row."""
    fleets = [_fleet([_ship("chili", 1), _ship("chili", 1)]), NO_SHIP, NO_SHIP, NO_SHIP]
    return isla_state([P0, IDLE, IDLE, IDLE], fleets, (["green"] * 3, []), ["blue", "blue"])


HAND_LINE = ["p0 plant 0", "p0 plant u0 1", "p0 plant u0 1", "p0 move m0 m1", "p0 sail m0 bohnbay 3",
             "p0 end"]


def test_two_cargos_of_one_bean_join_and_the_emptied_ship_loads_the_row() -> None:
    """I6: a cargo moves onto a merchant ship of its bean, so joining the two chili empties a ship,
    which loads the three green (I4): coop 2, the coffee's coin and the green's (the hand line,
    replayed by the engine). The bound once took two full ships as jammed whatever their beans and
    cut this line: the search proved coop 1 (the mutant below)."""
    s = t = _two_chili()
    for text in HAND_LINE:
        t = apply(t, parse_action(text))  # checked by the engine
    assert t.phase == Phase.OVER and [len(pl.coins) for pl in t.players] == [2, 0, 0, 0]
    assert IslaOpenSearch(COOP, 0, None, Budget("the bound")).upper(s) >= 2
    assert solve_isla_open(s, COOP, 0).value == 2


def test_a_bound_that_jams_every_full_fleet_misses_the_join(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutant: ``_loadable`` without the join (every merchant ship full: only their beans)."""

    def jams(s: GameState, mine: object, shared: object, taken: object) -> set[int] | None:
        fleet = isla_of(s).fleets[s.active]
        return {sh.bean for sh in fleet.merchants} if all(sh.count for sh in fleet.merchants) else None

    monkeypatch.setattr(isla_reach, "_loadable", jams)
    assert solve_isla_open(_two_chili(), COOP, 0).value == 1


def test_a_pirate_takes_only_beans_whose_cards_can_make_its_cargo_pay() -> None:
    """p0's empty pirate, in the last turn, may raid p1's one soy and p2's one green (I7: one card a
    ship): either capture alone pays nothing (2 soy or 3 green pay 1) and the pirate holds one bean
    at a time, so no raid is worth a coin (``raid_beans``: no bean)."""
    s = isla_state([P0, IDLE, IDLE, IDLE], [_fleet([_ship()], _ship()), _fleet([_ship("soy", 1)]),
                                            _fleet([_ship("green", 1)]), NO_SHIP], ([], []), ["blue", "blue"])
    assert raid_beans(s) == set()
    assert solve_isla_open(s, COOP, 0).value == 1 == reference_open(s, COOP, 0)


def test_with_two_turns_left_the_search_agrees_with_the_reference() -> None:
    """7 cards: p0's turn takes 5 (T2, T7), p1's turns up the last 2 and is finished (E2), so p1
    trades ahead too, and the bound must count what it may still take (I3, I7)."""
    s = _small(["soy", "soy", "green", "coffee", "coffee", "coffee", "green"], ["green", 2], ([], []),
               "soy", None)
    assert turns_ahead(s) == [(0, 2), (1, 2)]
    assert solve_isla_open(s, COOP, 0).value == reference_open(s, COOP, 0) == 2
    floors = [solve_isla_solo(s, q).value for q in range(4)]
    assert solve_isla_open(s, BEST, 1).value == reference_open(s, BEST, 1, floors)


def test_what_it_does_not_serve_is_refused_in_one_line() -> None:
    with pytest.raises(SolveError, match=r"^the Isla coop search covers La Isla Bohnita positions"):
        solve_isla_open(LIBRARY["rio4-8cards"].position(), COOP, 0)
    with pytest.raises(SolveError, match=r"Isla open search solves coop and best"):
        solve_isla_open(_deal(), SOLO, 0)
