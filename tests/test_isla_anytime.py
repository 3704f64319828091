"""Every Isla run ends with a line and its proved bound (issue 64 item 1): ``coop`` and ``best`` by
the open search (``solvers/isla/open_search.py``: a quick line at once, improved as the search goes) and
the Isla duel (``solvers/isla/duel.py``), stopped by a node limit (deterministic: no wall clock),
answer through ``solvers.api.solve(..., anytime=True)`` with a feasible line that the engine
replays to its claimed value (``verify_line``, I1-I9) and a bound at least that value; on small
positions solved exactly the bound is at least the optimum and the line at most it. The checks
can fail: a bound made too low on purpose is caught."""

from __future__ import annotations

import pytest
from builders import IDLE, NO_SHIP, P0, isla_state
from builders import isla_fleet as _fleet
from builders import isla_seat as _seat
from builders import isla_ship as _ship

from model import Action, GameState, apply
from solvers.api import solve, verify_line
from solvers.contract import (
    BEST,
    COOP,
    DUEL,
    Budget,
    Limits,
    NodeLimitExceeded,
    Objective,
    SearchLimitExceeded,
    Solution,
    SolveError,
    Status,
)
from solvers.exact import policy_line
from solvers.isla import open_search
from solvers.isla.cpsat import check_isla_cpsat
from solvers.isla.duel import IslaDuelSearch
from solvers.isla.exact import IslaSoloSearch, isla_policy
from solvers.isla.open_search import IslaOpenSearch, cpsat_floor, solve_isla_open
from solvers.positions import ISLA_LIBRARY


def _anytime(s: GameState, goal: Objective, nodes: int, player: int | None = None) -> Solution:
    """The answer past ``nodes`` nodes, checked: the line replays by the engine to the claimed
    value (``solve`` verifies it, and so does this, independently), the bound is at least it."""
    sol = solve(s, goal, "exact", player, Limits(nodes=nodes), anytime=True)
    coins = verify_line(s, sol)
    assert sol.per_player == coins and sol.value == goal.value(coins, sol.player)
    assert sol.bound is not None and sol.bound >= sol.value
    return sol


# The built-ins whose runs used to end with an error or no line (issue 64): under a small node
# limit each now ends with a feasible line. ``best`` where the other seats' floors (each one's solo
# optimum) are proved within the limit: P's own solo optimum, a seed only, gets a share of it
# (``isla-rio3-8cards`` and ``isla-amigo4-6cards`` used to stop there, "too large", no line); the
# duels at a few hundred nodes.
RUNS = [("isla-rio4-last-turn", COOP, 300), ("isla-rio4-last-turn", BEST, 3000),
        ("isla-rio3-8cards", BEST, 9000), ("isla-amigo4-6cards", BEST, 3000),
        ("isla-amigo3-5cards", COOP, 300), ("isla-rio4-5cards", COOP, 300), ("isla-rio7-2cards", COOP, 100),
        ("isla-amigo4-6cards", COOP, 100), ("isla-rio3-8cards", COOP, 100),
        ("isla-amigo-duel-5cards", DUEL, 300), ("isla-duel-7cards", DUEL, 300)]


@pytest.mark.parametrize(("name", "goal", "nodes"), RUNS, ids=[f"{n}-{g}" for n, g, _ in RUNS])
def test_a_run_stopped_by_its_node_limit_ends_with_a_feasible_line_and_its_bound(
        name: str, goal: Objective, nodes: int) -> None:
    sol = _anytime(ISLA_LIBRARY[name].position(), goal, nodes)
    assert sol.status == Status.FEASIBLE and sol.stats.stopped_by == "nodes"


def test_best_starts_from_a_line_that_meets_every_floor() -> None:
    """``isla-rio4-last-turn`` ``best p1``: the seats' solo lines played together leave every seat
    its solo optimum (floors 6, 6, 3, 4), so p1's 6 is the line at once, before any node of the
    open search."""
    sol = _anytime(ISLA_LIBRARY["isla-rio4-last-turn"].position(), BEST, 3000, 1)
    assert sol.stats.floors == [6, 6, 3, 4]
    assert sol.value == 6 and all(c >= f for c, f in zip(sol.per_player, sol.stats.floors, strict=True))


def test_p_s_own_solo_optimum_past_its_share_is_no_floor_and_ends_no_run() -> None:
    """``isla-amigo4-6cards`` ``best p3``: p3's solo optimum (4, about 32,000 nodes) is no floor of
    ``best p3``; past its share of 3,000 nodes p3's entry is its policy line's 4 coins, the other
    seats' floors are proved (7, 6, 4), and the seats' solo lines played together meet them."""
    sol = _anytime(ISLA_LIBRARY["isla-amigo4-6cards"].position(), BEST, 3000)
    assert sol.player == 3 and sol.stats.floors == [7, 6, 4, 4]
    assert sol.per_player[:3] == [7, 6, 4] and sol.bound is not None and sol.bound >= 7


def test_another_seat_s_floor_unproved_is_an_error_with_best_s_proved_bound() -> None:
    """``isla-rio3-8cards`` ``best p0``: p1's floor (its solo optimum, between 6 and 14) is not
    proved in 3,000 nodes, so no line is known to meet it: a SearchLimitExceeded with no line, that
    says what is proved, ``upper`` on the floors' lower ends (a line meeting the floors meets those),
    at least p0's coins on the policy line."""
    s = ISLA_LIBRARY["isla-rio3-8cards"].position()
    with pytest.raises(SearchLimitExceeded, match=r"p1's floor.*between 6 and 14.*proved: best p0 is at most "
                                                  r"(\d+)") as stop:
        solve_isla_open(s, BEST, 0, Limits(nodes=3000))
    assert stop.value.best is None
    top = int(str(stop.value).rsplit(" ", 1)[1].rstrip(")"))
    assert top >= policy_line(s, isla_policy)[1][0]


def test_a_floor_past_exact_search_s_share_is_proved_by_cp_sat_and_best_ends_with_a_line() -> None:
    """``isla-rio4-last-turn`` ``best p1`` on one node: exact search proves p0's floor (6) on it,
    and p3's floor then has no node left (the old code ended there: "too large", no line); the Isla
    CP-SAT solo model proves it (4: p3 has no turn left, so its model is exact; a work limit, so
    deterministic), and the run ends with a line that the engine replays, leaving every other seat
    at least its floor, and a bound at least its value."""
    s = ISLA_LIBRARY["isla-rio4-last-turn"].position()
    with pytest.raises(SearchLimitExceeded) as stop:
        solve_isla_open(s, BEST, 1, Limits(time=120, nodes=1, work=20))
    sol = stop.value.best
    assert sol is not None and sol.status == Status.FEASIBLE and sol.stats.floors == [6, 6, 3, 4]
    coins = verify_line(s, sol)
    assert coins == sol.per_player and sol.value == coins[1]
    assert all(coins[q] >= sol.stats.floors[q] for q in (0, 2, 3))
    assert sol.bound is not None and sol.bound >= sol.value


def test_a_floor_neither_exact_search_nor_cp_sat_proves_is_no_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same run with the CP-SAT floor failing (as past its share): no floor is claimed, the
    run ends as before, with no line and the proved range."""
    monkeypatch.setattr(open_search, "cpsat_floor", lambda *args: None)
    with pytest.raises(SearchLimitExceeded, match=r"p3's floor.*proved: best p1 is at most") as stop:
        solve_isla_open(ISLA_LIBRARY["isla-rio4-last-turn"].position(), BEST, 1, Limits(nodes=1))
    assert stop.value.best is None


def test_cp_sat_gives_no_floor_where_its_model_does_not_cover_the_position() -> None:
    """``cpsat_floor``: None off a turn start (the model's reach), never an unproved value."""
    s = ISLA_LIBRARY["isla-rio4-last-turn"].position()
    while True:  # along the policy line to the first state the model does not start from
        s = apply(s, isla_policy(s))
        try:
            check_isla_cpsat(s, 3)
        except SolveError:
            break
    assert cpsat_floor(s, 3, Budget("test", None, 30.0), 0.5) is None


def test_a_cp_sat_line_not_proved_optimal_is_no_floor() -> None:
    """``isla-rio3-8cards`` p1 (a turn ahead; solo optimum between 6 and 14): on half a work unit
    CP-SAT proves nothing, so ``cpsat_floor`` gives no floor (a feasible line is none), and the
    work share is charged to the run whole."""
    budget = Budget("test", None, 60.0, work_limit=1.0)
    assert cpsat_floor(ISLA_LIBRARY["isla-rio3-8cards"].position(), 1, budget, 0.5) is None
    assert budget.work == 0.5


def test_a_part_of_a_budget_has_a_share_of_what_is_left_and_counts_back() -> None:
    """``Budget.part``: a share of the nodes and seconds left, counting on from the whole's nodes,
    taken back by ``absorb``."""
    whole = Budget("whole", 100, 60.0)
    for _ in range(20):
        whole.node()
    part = whole.part(0.25)
    assert part.node_limit == 40 and part.time_limit is not None and part.time_limit <= 15.0
    for _ in range(20):
        part.node()
    with pytest.raises(NodeLimitExceeded):
        part.node()
    whole.absorb(part)
    assert whole.nodes == 41


def _deal() -> GameState:
    """p0's last turn turns up two green, worth a coin more given to p1's 3 green (I3; coop 3)."""
    return isla_state([P0, _seat([], [["green", 3], None]), IDLE, IDLE], [NO_SHIP] * 4, ([], []),
                      ["green", "green"])


def _raid() -> GameState:
    """p0's pirate soy and p1's soy cargo make a paying cargo by a raid (I7; coop 2)."""
    fleets = [_fleet([_ship()], _ship("soy", 1)), _fleet([_ship("soy", 1)]), NO_SHIP, NO_SHIP]
    return isla_state([P0, IDLE, IDLE, IDLE], fleets, ([], []), ["green", "green"])


SMALL = [(_deal, COOP, 0, 3), (_deal, BEST, 1, 2), (_raid, COOP, 0, 2), (_raid, BEST, 0, 2)]


@pytest.mark.parametrize(("make", "goal", "p", "optimum"), SMALL)
def test_on_small_positions_the_line_is_at_most_and_the_bound_at_least_the_optimum(
        make: object, goal: Objective, p: int, optimum: int) -> None:
    s = make()  # type: ignore[operator]
    exact = solve(s, goal, "exact", p)
    assert exact.status == Status.OPTIMAL and exact.value == optimum
    floors = Budget("the floors")  # best spends nodes on its floors first (each seat's solo optimum)
    if goal.floors:
        for q in range(len(s.players)):
            IslaSoloSearch(q, floors).value(s)
    for nodes in (1, 2, 5):
        assert _brackets(_anytime(s, goal, floors.nodes + nodes, p), optimum)


def _brackets(sol: Solution, optimum: int) -> bool:
    """The line at most the optimum, the proved bound at least it."""
    return sol.bound is not None and sol.value <= optimum <= sol.bound


def test_the_seed_line_is_proved_optimal_when_nothing_beats_it() -> None:
    """``_raid`` ``best p0``: the quick lines include p0's solo line, which takes the raid; the
    search proves nothing is worth more (the root searched above the seed's value)."""
    sol = solve_isla_open(_raid(), BEST, 0)
    assert sol.status == Status.OPTIMAL and sol.value == 2


@pytest.mark.parametrize(("make", "goal", "p", "optimum"), SMALL)
def test_a_finished_search_answers_the_line_it_met_without_a_rebuild(
        make: object, goal: Objective, p: int, optimum: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The optimal line is the best line the search met (every exact value is a line met on the way
    there): no rebuild, which could search further and pass a limit after the proof."""
    def no_rebuild(self: IslaOpenSearch, s: GameState) -> None:
        raise AssertionError("rebuilt")

    monkeypatch.setattr(IslaOpenSearch, "line", no_rebuild)
    s = make()  # type: ignore[operator]
    sol = solve(s, goal, "exact", p)
    assert sol.status == Status.OPTIMAL and sol.value == optimum


def test_a_limit_passed_while_rebuilding_p_s_solo_line_leaves_the_other_seeds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rebuilding P's solo line (a seed) may search further; past a limit there the run goes on with
    the seeds it has and still answers (it used to end with "too large" and no line)."""
    def stopped(self: IslaSoloSearch, s: GameState) -> None:
        raise NodeLimitExceeded("Isla best search passed its node limit: too large for exact search")

    monkeypatch.setattr(IslaSoloSearch, "line", stopped)
    sol = solve(_raid(), BEST, "exact", 0, Limits(nodes=10_000), anytime=True)
    assert sol.value == 2 and verify_line(_raid(), sol) == sol.per_player


def test_a_duel_value_proved_at_the_limit_still_gets_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """``isla-duel-2cards``: a limit passed while the principal line is rebuilt, after the value is
    proved, no longer ends the run with "too large": the line is rebuilt past the limits."""
    rebuild = IslaDuelSearch.line
    calls: list[int] = []

    def first_stops(self: IslaDuelSearch, s: GameState, v: int) -> list[Action]:
        calls.append(v)
        if len(calls) == 1:
            raise NodeLimitExceeded("Isla duel search passed its node limit: too large for exact search")
        return rebuild(self, s, v)

    monkeypatch.setattr(IslaDuelSearch, "line", first_stops)
    s = ISLA_LIBRARY["isla-duel-2cards"].position()
    sol = solve(s, DUEL, "exact", None, Limits(nodes=1000))
    assert sol.status == Status.OPTIMAL and sol.value == 1 and len(calls) == 2


def test_a_bound_made_too_low_on_purpose_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutant: ``upper`` as the coins already won (it forgets every card still to sell). The
    stopped run's bound is then below the optimum, which the check above catches."""
    monkeypatch.setattr(IslaOpenSearch, "_upper",
                        lambda self, s: sum(len(pl.coins) for pl in s.players))
    sol = solve(_deal(), COOP, "exact", 0, Limits(nodes=1), anytime=True)
    assert not _brackets(sol, 3)
