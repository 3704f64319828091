"""CP-SAT ``coop`` and ``best`` (solvers/cpsat_deals.py) against exact search, and the bounds both use.

The positions are seeded cuts made small enough for exact search (hands of one or two cards, the
last turns of the final pass), chosen so both solvers finish in about a second each; CP-SAT runs
with one worker (deterministic). ``scripts/cross_check.py --objective coop|best`` runs hundreds.
"""

from __future__ import annotations

import pytest

from model import Phase, apply, legal_actions
from solvers.bounds import gain_table, hull
from solvers.contract import BEST, COOP, SOLO, Limits, SolveError
from solvers.cpsat_deals import DealsModel, solve_deals_cpsat
from solvers.exact import OpenSearch, solve_open, solve_solo
from solvers.positions import LIBRARY, cut, small
from solvers.timeline import timeline

# (ruleset, players, game, hand, cards left, P): `small(cut(ruleset, players, game, 8), hand, left)`
POSITIONS = [
    ("amigo", 4, 468286, 1, 4, 1), ("amigo", 3, 685687, 1, 3, 2), ("rio-grande", 4, 66233, 1, 2, 0),
    ("amigo", 3, 619665, 1, 4, 2), ("amigo", 3, 976942, 1, 5, 1), ("rio-grande", 4, 794810, 1, 3, 2),
    ("amigo", 4, 31197, 1, 2, 0), ("amigo", 3, 70072, 1, 3, 0), ("rio-grande", 4, 429969, 1, 2, 1),
    ("amigo", 3, 715210, 1, 5, 2), ("rio-grande", 3, 414033, 2, 4, 0), ("amigo", 4, 44153, 1, 3, 1),
    ("rio-grande", 3, 462990, 2, 3, 2), ("rio-grande", 4, 77889, 1, 2, 1), ("amigo", 4, 657713, 1, 3, 2),
    ("amigo", 4, 632851, 1, 2, 3), ("amigo", 3, 400179, 1, 5, 1), ("amigo", 3, 949981, 1, 3, 2),
    ("rio-grande", 3, 565696, 2, 4, 2), ("rio-grande", 4, 274269, 1, 4, 2),
]


def position(ruleset: str, players: int, game: int, hand: int, left: int):
    return small(cut(ruleset, players, game, 8), hand=hand, draw=left)


def replayed(s, sol):
    for a in sol.line:
        s = apply(s, a)  # checked: raises on an illegal step
    assert s.phase == Phase.OVER
    return [len(p.coins) for p in s.players]


@pytest.mark.parametrize("objective", [COOP, BEST], ids=str)
@pytest.mark.parametrize(("ruleset", "players", "game", "hand", "left", "p"), POSITIONS)
def test_cpsat_agrees_with_exact_search(objective, ruleset, players, game, hand, left, p):
    s = position(ruleset, players, game, hand, left)
    a = solve_open(s, objective, p)
    b = solve_deals_cpsat(s, objective, p, Limits(60, workers=1))
    assert b.status == "optimal"
    assert a.value == b.value
    for sol in (a, b):
        coins = replayed(s, sol)
        assert coins == sol.per_player
        assert (sum(coins) if objective == COOP else coins[p]) == sol.value
    if objective == BEST:  # nobody ends below their own solo optimum
        floors = [solve_solo(s, q).value for q in range(players)]
        assert all(c >= f for q, (c, f) in enumerate(zip(b.per_player, floors, strict=True)) if q != p)
        assert b.value >= floors[p]


def test_coop_is_at_least_the_sum_of_no_trade_play():
    s = LIBRARY["trade-gift"].position()
    coop = solve_deals_cpsat(s, COOP, limits=Limits(workers=1))
    solo = [solve_solo(s, q).value for q in range(3)]
    # every seat playing its own solo line at once is one legal no-trade line (solo lines never
    # touch another seat's cards), so coop >= the sum; here the deals add coins on top
    assert coop.value > sum(solo) - 1


def test_the_timeline_follows_the_draw_pile():
    s = LIBRARY["trade-gift"].position()
    turns = timeline(s)
    assert [t.active for t in turns] == [s.active]  # 5 cards: a turn-up of 2, then 3 draws end it (E2)
    assert turns[0].face_up == tuple(sorted(s.draw[:2]))
    dm = DealsModel(s)
    # each seat's cards: its hand now, then what it draws, to the back in draw order (H1, T7);
    # the active seat draws the last 3 cards, which exhausts the pile and ends the game (E2)
    want = [list(p.hand) for p in s.players]
    want[s.active] += list(s.draw[2:5])
    assert [[c.bean for c in cards] for cards in dm.cards] == want
    assert all(c.since == 1 for c in dm.cards[s.active][len(s.players[s.active].hand):])


def test_cpsat_refuses_positions_it_does_not_model():
    s = LIBRARY["trade-gift"].position()
    mid = apply(s, legal_actions(s)[0])
    with pytest.raises(SolveError, match="start of a turn"):
        solve_deals_cpsat(mid, COOP)
    with pytest.raises(SolveError, match="D1"):
        solve_deals_cpsat(LIBRARY["duel-4cards"].position(), COOP)
    with pytest.raises(SolveError, match="coop and best"):
        solve_deals_cpsat(s, SOLO)


def test_gain_table_is_the_best_grouping():
    garden = (0, 0, 2, 3)  # two gardens pay 2, three pay 3 (C1)
    assert gain_table(garden, [], 4) == [0, 0, 2, 3, 4]  # four: two groups of two
    assert gain_table(garden, [1], 1) == [0, 2]  # a lone garden on a field, topped up
    blue = (0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4)
    assert gain_table(blue, [3, 3], 2) == [0, 1, 2]  # each field of three needs one more blue


def test_hull_is_the_least_concave_majorant():
    segs = hull([0, 1, 1, 2])
    majorant = [min(a * x + b for a, b in segs) for x in range(4)]
    assert majorant[0] == 0 and majorant[3] == 2
    assert all(m >= v for m, v in zip(majorant, [0, 1, 1, 2], strict=True))
    assert majorant[2] == pytest.approx(1.5)


@pytest.mark.parametrize(("ruleset", "players", "game", "hand", "left", "p"), POSITIONS[:4])
def test_the_search_bound_never_undercuts_the_value(ruleset, players, game, hand, left, p):
    s = position(ruleset, players, game, hand, left)
    for objective in (COOP, BEST):
        sol = solve_open(s, objective, p)
        floors = sol.stats.floors
        search = OpenSearch(objective, p, floors)  # type: ignore[arg-type]
        assert search.upper(s) >= sol.value
