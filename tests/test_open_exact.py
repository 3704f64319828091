"""Exact ``coop`` and ``best`` search (solvers/exact.py) and the command scripts/solve_endgame.py.

The search makes each deal one move, orders a trading phase's deals by partner, defers harvests
and purchases to the next placing decision and prunes by an upper bound. Each reduction is
checked here against the engine or against a search without it.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from builders import run_script
from hypothesis import settings

from model import Accept, Decline, GameState, Phase, Propose, apply, legal_actions
from solvers.contract import BEST, COOP, Limits, SearchLimitExceeded, SolveError
from solvers.exact import OpenSearch, _full_key, deals, solve_open, solve_solo
from solvers.positions import LIBRARY, cut, small

ROOT = Path(__file__).resolve().parent.parent


def trading_states() -> list[GameState]:
    """Trading-phase states (no offer pending) reached from small positions."""
    out = []
    for rs, n, seed in [("rio-grande", 3, 100), ("amigo", 3, 106), ("amigo", 4, 5)]:
        s = small(cut(rs, n, seed, 8), 2, 5)
        while s.phase != Phase.OVER and len(out) < 12:
            if s.phase == Phase.TRADE and s.pending is None:
                out.append(s)
            acts = legal_actions(s, proposals=False)
            s = apply(s, acts[0])
    return out


def test_deals_reach_exactly_the_states_the_engine_reaches_by_accepted_offers():
    states = trading_states()
    assert len(states) >= 3
    for s in states:
        engine = set()
        for a in legal_actions(s):
            if isinstance(a, Propose):
                t = apply(s, a)
                engine |= {apply(t, x) for x in legal_actions(t) if isinstance(x, Accept)}
        mine = set()
        for m in deals(s):
            t = s
            for a in m:
                t = apply(t, a)  # checked: every deal is legal
            mine.add(t)
        assert mine == engine


class Plain(OpenSearch):
    """The search without its reductions: any deal order, harvests and purchases whenever the
    engine allows them, no pruning."""

    def moves(self, s, last):
        if s.phase == Phase.TRADE and s.pending is None:
            return [((a,), -1) for a in legal_actions(s) if not isinstance(a, (Propose, Decline))] + \
                [(m, -1) for m in deals(s)]
        return [((a,), -1) for a in legal_actions(s)]

    def upper(self, s):
        return 10**9


@pytest.mark.parametrize(("rs", "n", "seed"),
                         [("rio-grande", 3, 100), ("amigo", 3, 107), ("rio-grande", 3, 103)])
@pytest.mark.parametrize("objective", [COOP, BEST], ids=str)
def test_reductions_keep_the_optimum(rs, n, seed, objective):
    s = small(cut(rs, n, seed, 8, {"max_deal_cards": 1}), 1, 5)
    sol = solve_open(s, objective)
    plain = Plain(objective, sol.player, sol.stats.floors)
    assert plain.value(s) == sol.value
    assert plain.nodes >= sol.stats.nodes


@pytest.mark.parametrize("name", ["trade-gift", "trade-ask", "trade-answer"])
def test_trading_positions_gain_by_deals_and_lines_replay(name):
    s = LIBRARY[name].position()
    best = solve_open(s, BEST)
    coop = solve_open(s, COOP)
    solo = solve_solo(s)
    floors = best.stats.floors
    assert best.value > solo.value  # deals earn P a coin the solo optimum cannot
    assert coop.value >= sum(floors) and coop.value >= sum(best.per_player)
    others = [q for q in range(len(floors)) if q != best.player]
    assert all(best.per_player[q] >= floors[q] for q in others)
    assert any(isinstance(a, Accept) for a in best.line)
    for sol in (best, coop):
        t = s
        for a in sol.line:
            t = apply(t, a)
        assert [len(p.coins) for p in t.players] == sol.per_player and t.phase == Phase.OVER


# The deals of a trading node checked below: all of a node of up to 1,000, else 1,000 spread evenly
# through the move order and the last (rio4's nodes list 44,000-99,000 deals each: all of them took
# 33 s of the suite). The long hypothesis profile (tests/conftest.py) checks every deal.
DEALS_A_NODE = None if settings().max_examples >= 1000 else 1_000


@pytest.mark.parametrize("name", ["trade-gift", "trade-ask", "trade-map", "rio4-last-turn", "rio4-8cards"])
@pytest.mark.parametrize("objective", [COOP, BEST], ids=str)
def test_every_deal_keeps_the_trading_nodes_bound(name, objective):
    # OpenSearch._trading searches a trading node's children in move order, on the ground that a
    # deal changes no field, coin or free card (T3-T5), so every child has the node's bound
    s = LIBRARY[name].position()
    search = OpenSearch(objective, 0, [0] * len(s.players))
    nodes = deals_seen = 0
    while s.phase != Phase.OVER and nodes < 3:
        if s.phase == Phase.TRADE and s.pending is None:
            nodes += 1
            top = search.upper(s)
            moves = [m for m, _ in search.moves(s, -1)]
            step = 1 if DEALS_A_NODE is None else max(1, len(moves) // DEALS_A_NODE)
            kids = [search.child(s, m) for m in moves[::step] + ([] if (len(moves) - 1) % step == 0
                                                                 else moves[-1:])]
            assert all(search.upper(t) == top for t in kids)
            deals_seen += len(kids) - 1
            s = kids[-1]  # the last deal: the next trading node has something dealt
        else:
            s = apply(s, legal_actions(s)[0])
    assert deals_seen


def test_node_limit_bounds_the_work_at_a_trading_node():
    # rio4-final-pass opens on a trading node of about 137,000 deals: with the node limit of 10
    # the search stops after a handful of them, not after listing and bounding them all
    s = LIBRARY["rio4-final-pass"].position()
    made = []

    class Counting(OpenSearch):
        def child(self, s, m):
            made.append(m)
            return super().child(s, m)

    search = Counting(COOP, 0, node_limit=10)
    with pytest.raises(SolveError, match="more than 10 nodes"):
        search.value(s)
    assert 0 < len(made) < 1000


def test_exact_search_gives_up_loudly_past_its_node_limit():
    # trade-map (4 players, 3 cards each, trading) passes 1,000 nodes in a fraction of a second; the
    # real hands of rio4-8cards took 35 s of the suite to get there (~400 deals at each trading node)
    with pytest.raises(SolveError, match=r"more than 1,000 nodes\): too large for exact search"):
        solve_open(LIBRARY["trade-map"].position(), COOP, limits=Limits(nodes=1000))


@pytest.mark.parametrize("objective", [COOP, BEST], ids=str)
def test_a_search_stopped_by_its_limit_hands_out_its_best_line_with_a_proved_bound(objective):
    """Anytime: past the node limit the search gives the best finished line met so far (replayed
    with checks, status "feasible"), never above the optimum, under the root's bound."""
    s = LIBRARY["trade-ask"].position()
    full = solve_open(s, objective)
    seen = 0
    for limit in range(1, 1000):  # best's floors count against the limit too
        try:
            solve_open(s, objective, limits=Limits(nodes=limit))
            break
        except SearchLimitExceeded as stop:
            best = stop.best
        if best is None:
            continue
        seen += 1
        assert best.status == "feasible" and best.stats.stopped_by == "nodes"
        assert best.value <= full.value <= (best.bound or 0)
        end = s
        for a in best.line:
            end = apply(end, a)  # checked
        assert end.phase == Phase.OVER and [len(p.coins) for p in end.players] == best.per_player
    assert seen > 0


def test_canonical_key_ignores_field_order():
    s = LIBRARY["trade-ask"].position()
    p = s.players[0]
    swapped = s._replace(players=(p._replace(fields=p.fields[::-1]),) + s.players[1:])
    assert _full_key(swapped) == _full_key(s)


# ------------------------------------------------------------------ the command


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_script("solve_endgame.py", *args)


def test_command_with_no_arguments_solves_the_trading_position():
    r = run()
    assert r.returncode == 0, r.stderr
    assert "rio4-last-turn" in r.stdout and "proved optimal" in r.stdout
    assert "accept" in r.stdout and "line:" in r.stdout and "final harvest (E3)" in r.stdout


def test_command_json_has_the_documented_keys():
    r = run("trade-ask", "--objective", "coop", "--solver", "exact", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    keys = {"objective", "player", "solver", "value", "status", "bound", "line", "per_player", "stats"}
    assert keys <= set(out)
    assert out["status"] == "optimal" and out["value"] == sum(out["per_player"])
    assert {"nodes", "seconds"} <= set(out["stats"])


def test_command_prints_the_best_line_found_when_a_limit_stops_exact_search():
    """coop by exact search past --node-limit: the best line so far, "feasible", with the bound
    and the gap (exit 0; --require-proved: 1); with none yet, "too large" (exit 2). The Isla
    search has a line from its first node (its quick lines, issue 64), the base game's not."""
    r = run("isla-rio4-5cards", "--objective", "coop", "--node-limit", "300")
    assert r.returncode == 0, r.stderr
    m = re.search(r"value: (\d+) \(feasible \(stopped by the node limit\), proved bound (\d+), gap (\d+)",
                  r.stdout)
    assert m is not None, r.stdout
    assert int(m[2]) - int(m[1]) == int(m[3]) >= 0 and "line:" in r.stdout
    r = run("isla-rio4-5cards", "--objective", "coop", "--node-limit", "300", "--require-proved", "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["status"] == "feasible"
    r = run("isla-rio4-5cards", "--objective", "coop", "--node-limit", "2")
    assert r.returncode == 0 and "feasible (stopped by the node limit)" in r.stdout, r.stderr
    r = run("rio4-8cards", "--objective", "coop", "--solver", "exact", "--node-limit", "2")
    assert r.returncode == 2 and "too large for exact search" in r.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["nope.json"], "nope.json: no such file or built-in position"),
    (["--time-limit", "0"], "--time-limit must be a number > 0, got '0'"),
    (["--workers", "0"], "--workers must be a whole number >= 1, got '0'"),
    (["duel-4cards", "--objective", "duel", "--solver", "cpsat"], "duel has no cpsat solver"),
    (["--objective", "duel"], "(D1)"),
    (["duel-4cards", "--objective", "solo"], "(D1)"),
    (["--from-game", "3"], "--from-game needs --players and --cards-left"),
])
def test_command_rejects_bad_input_in_one_line(args, message):
    r = run(*args)
    assert r.returncode == 2
    assert message in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_command_reads_a_position_from_stdin_and_rejects_a_broken_one(tmp_path):
    from model import state_to_json

    o = state_to_json(LIBRARY["trade-ask"].position())
    r = run_script("solve_endgame.py", "-", "--objective", "solo", "--json", stdin=json.dumps(o))
    assert r.returncode == 0, r.stderr
    o["players"][0]["fields"] = o["players"][0]["fields"] + [None, None]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(o))
    r = run(str(bad))
    assert r.returncode == 2 and "players[0].fields" in r.stderr and "[F1]" in r.stderr


def test_command_cuts_a_position_from_a_game():
    r = run("--from-game", "7", "--players", "4", "--cards-left", "20", "--objective", "solo", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["status"] == "optimal"
