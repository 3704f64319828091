"""The trade graph of a position (solvers/trade_graph.py, scripts/trade_graph.py).

Two last-turn positions are worked by hand (the game ends when the active player draws, E2, so a
seat's value is its coins plus its fields' final harvest, E3); on larger positions every edge is
checked against the engine (the deal is legal, T3-T4) and against a fresh re-solve, and the best
matching against brute force over every compatible set.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import networkx as nx
import pytest
from builders import load_script, run_script

from model import Phase, apply, new_game
from model.cards import Bean
from solvers import trade_graph as tg
from solvers.contract import EXPECTED, SolveError
from solvers.exact import SoloSearch
from solvers.positions import LIBRARY, cut, small
from solvers.trade_graph import Deal, apply_deals, deal_graph, to_json, to_trading, trade_map, undominated

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "trade_graph.py"
B = Bean


def trading(s):
    """The active player's default planting, up to its trading phase."""
    s, _ = to_trading(s)
    assert s.phase == Phase.TRADE
    return s


def by_cards(tm: tg.TradeMap) -> dict[tuple[int, tuple[int, ...], tuple[int, ...]], Deal]:
    return {(d.partner, d.give, d.take): d for d in tm.deals}


# ------------------------------------------------------------------ worked by hand


def test_trade_ask_worked_by_hand() -> None:
    """rio-grande, 3 players, last turn: p0 (coins 11; fields 1 wax, 2 green, 1 coffee; no hand)
    trades with the face-up chili, chili. p1 (coins 10; 1 chili, 2 blue, 1 garden; hand green),
    p2 (coins 8; 3 coffee, 1 soy, 1 blackeyed; hand blue). Hand cards are never played again.

    p0 gains 1 from a green (3 green pay 1); p1 gains 1 from two chili (3 chili pay 1), nothing
    from one; p0 gains nothing from p2's blue, p2 nothing from chili. So the Pareto deals are those
    with p1 where p0 gets the green or p1 gets both chili; the best for p0 that p1 accepts is both
    chili for the green (+1, +1); the best compatible set gains 2 in total."""
    s = trading(LIBRARY["trade-ask"].position())
    assert s.active == 0 and s.face_up == (B.CHILI, B.CHILI)
    tm = trade_map(s)
    assert tm.values == [11, 10, 8]
    assert len(tm.deals) == 10  # per partner: {}, {u0}, {u0,u1} x {}, {h0}, minus the empty deal
    got = {(d.partner, d.give, d.take): (d.gain_active, d.gain_partner) for d in tm.pareto}
    assert got == {
        (1, (), (B.GREEN,)): (1, 0),
        (1, (B.CHILI,), (B.GREEN,)): (1, 0),
        (1, (B.CHILI, B.CHILI), ()): (0, 1),
        (1, (B.CHILI, B.CHILI), (B.GREEN,)): (1, 1),
    }
    assert all(d.gain_active == 0 == d.gain_partner for d in tm.deals if d.partner == 2)
    best = tm.best_for_active
    assert best is not None and (best.give, best.take) == ((B.CHILI, B.CHILI), (B.GREEN,))
    assert tm.matching.predicted == 2 and tm.matching.realised_total == 2


def test_trade_gift_worked_by_hand() -> None:
    """amigo, 3 players, last turn: p1 (coins 7; fields 2 green, 9 blue, 7 chili; no hand) holds
    the face-up green and garden. Keeping the garden forces it to harvest a field; giving it to p0
    (1 garden on a field: 2 garden pay 2) costs p1 nothing. p2's blue (never played by p2) makes
    p1's 10 blue pay 4 instead of 3. The two deals use different cards: together they gain 3."""
    s = trading(LIBRARY["trade-gift"].position())
    assert s.active == 1 and s.face_up == (B.GREEN, B.GARDEN)
    tm = trade_map(s)
    assert tm.values == [10, 13, 10]
    deals = by_cards(tm)
    gift = deals[(0, (B.GARDEN,), ())]
    ask = deals[(2, (), (B.BLUE,))]
    assert (gift.gain_active, gift.gain_partner) == (0, 2) and gift.pareto
    assert (ask.gain_active, ask.gain_partner) == (1, 0) and ask.pareto
    assert deals[(0, (B.GREEN,), ())].gain_active == -1  # the green grows p1's green field: keep it
    assert tm.matching.predicted == 3
    assert tm.matching.realised == {0: 2, 1: 1, 2: 0}
    assert {(d.partner, d.give, d.take) for d in tm.matching.deals} in (
        {(0, (B.GARDEN,), ()), (2, (), (B.BLUE,))},
        {(0, (B.GARDEN,), (B.STINK,)), (2, (), (B.BLUE,))},
    )


# ------------------------------------------------------------------ every edge, checked


@pytest.fixture(scope="module")
def positions() -> list:
    out = [trading(LIBRARY["trade-map"].position())]
    for seed in (203, 215):
        out.append(trading(small(cut("amigo" if seed == 215 else "rio-grande", 4, seed, 8), 3, 5)))
    return out


def test_every_edge_is_legal_and_its_gains_equal_a_fresh_re_solve(positions: list) -> None:
    """Each deal replays in the engine with every check (T3-T4); each side's gain equals a solve
    of the position after the deal by a new search (no shared table, no cached value)."""
    checked = 0
    for s in positions:
        tm = trade_map(s)
        assert tm.deals
        for d in tm.deals:
            assert d.active == s.active != d.partner  # T3: the active player on one side
            after = apply(apply(s, d.propose), d.accept)
            assert after.pending is None and after.phase == Phase.TRADE
            for seat, gain in ((d.active, d.gain_active), (d.partner, d.gain_partner)):
                assert SoloSearch(seat).value(after) - tm.values[seat] == gain, (d.text(), seat)
            others = [q for q in range(len(s.players)) if q not in (d.active, d.partner)]
            for q in others[:1]:  # a third seat's value never changes
                assert SoloSearch(q).value(after) == tm.values[q]
            checked += 1
    assert checked > 300


def test_received_cards_are_never_offered_again(positions: list) -> None:
    """T4: after a deal the received cards are set aside; no deal of the new position gives them."""
    s = positions[0]
    tm = trade_map(s)
    d = next(x for x in tm.deals if x.take)
    after = apply(apply(s, d.propose), d.accept)
    hand = after.players[after.active].hand
    assert len(hand) == len(s.players[s.active].hand) - len(d.propose.give_hand)
    for e in trade_map(after).deals:
        given = [hand[h] for h in e.propose.give_hand] + [after.face_up[u] for u in e.propose.give_up]
        assert len(given) == len(e.give)  # only hand and face-up cards, never set-aside ones


def test_max_cards_bounds_both_sides(positions: list) -> None:
    s = positions[0]
    assert trade_map(s, max_cards=0).deals == []
    one = trade_map(s, max_cards=1).deals
    assert one and all(len(d.give) <= 1 and len(d.take) <= 1 for d in one)
    assert len(one) < len(trade_map(s).deals)


# ------------------------------------------------------------------ the best set of compatible deals


def brute_best(cands: list[Deal], offers: int) -> int | Fraction:
    best = 0
    for size in range(1, min(offers, len(cands)) + 1):
        for combo in combinations(cands, size):
            used = [c for d in combo for c in d.cards]
            if len(used) == len(set(used)):
                best = max(best, sum(d.total for d in combo))
    return best


def test_matching_is_the_best_compatible_set(positions: list) -> None:
    """The chosen set is compatible, within the offers left, and as good as brute force over the
    Pareto deals (with and without the dominance pruning, which must keep the optimum)."""
    for s in positions:
        tm = trade_map(s)
        chosen = tm.matching.deals
        used = [c for d in chosen for c in d.cards]
        assert len(used) == len(set(used))
        offers = s.setup.rules.max_offers - s.offers
        assert len(chosen) <= offers
        pruned = undominated(tm.pareto)
        assert brute_best(pruned, offers) == tm.matching.predicted
        if len(tm.pareto) <= 18:
            assert brute_best(tm.pareto, offers) == tm.matching.predicted


def test_clique_and_cp_sat_agree(positions: list, monkeypatch: pytest.MonkeyPatch) -> None:
    for s in positions:
        clique = trade_map(s).matching
        monkeypatch.setattr(tg, "CLIQUE_LIMIT", 0)
        packing = trade_map(s).matching
        monkeypatch.undo()
        assert clique.method == "max_weight_clique" and packing.method == "cp-sat"
        assert clique.predicted == packing.predicted


def test_offers_left_limit_the_matching() -> None:
    """With one offer left (max_offers) only one deal can be made: the best single deal."""
    s = trading(LIBRARY["trade-map"].position())
    limited = s._replace(offers=s.setup.rules.max_offers - 1)
    tm = trade_map(limited)
    assert len(tm.matching.deals) == 1
    assert tm.matching.predicted == max(d.total for d in tm.pareto)
    assert len(trade_map(s).matching.deals) > 1


def test_applying_a_set_maps_positions_as_cards_leave() -> None:
    """apply_deals plays each deal at the positions the cards have by then (H1)."""
    s = trading(LIBRARY["trade-map"].position())
    tm = trade_map(s)
    chosen = tm.matching.deals
    assert len(chosen) >= 2
    after = apply_deals(s, chosen)
    assert after.offers == s.offers + len(chosen)
    for d in chosen:
        got = sorted(after.players[d.partner].aside)
        assert all(got.count(b) >= list(d.give).count(b) for b in d.give)


def test_the_map_reports_its_progress_deal_by_deal() -> None:
    s = trading(LIBRARY["trade-map"].position())
    seen: list[tuple[int, int | None]] = []
    tm = trade_map(s, progress=lambda done, total, note: seen.append((done, total)))
    n = len(tm.deals)
    assert seen[-1] == (n, n) and all(total == n for _, total in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_the_map_stops_at_its_time_limit() -> None:
    with pytest.raises(tg.TimeLimitExceeded, match="passed its time limit of 0.001 s"):
        trade_map(trading(LIBRARY["trade-map"].position()), time_limit=0.001)


# ------------------------------------------------------------------ graphs and values


def test_deal_graph_and_json_hold_every_deal() -> None:
    s = trading(LIBRARY["trade-map"].position())
    tm = trade_map(s)
    g = deal_graph(tm)
    assert isinstance(g, nx.MultiDiGraph) and g.number_of_nodes() == len(s.players)
    assert g.number_of_edges() == len(tm.deals)
    assert all(u == s.active for u, _ in g.edges())
    out = to_json(tm)
    json.dumps(out)
    assert {"nodes", "edges", "pareto", "best_matching"} <= set(out)
    e = out["edges"][0]
    assert {"from", "to", "give", "take", "gain"} <= set(e)
    assert set(e["gain"]) == {e["from"], e["to"]}
    assert sorted(out["pareto"]) == sorted(d.id for d in tm.pareto)


def test_expected_values_equal_direct_expected_solves() -> None:
    """--value expected: each gain is the difference of two expected solo values (Fractions)."""
    from solvers.expected import solve_expected

    s = trading(LIBRARY["trade-ask"].position())
    tm = trade_map(s, value=EXPECTED)
    assert tm.value is EXPECTED
    for d in tm.deals[:6]:
        after = apply(apply(s, d.propose), d.accept)
        assert solve_expected(after, d.partner).value - solve_expected(s, d.partner).value == d.gain_partner
        assert solve_expected(after, d.active).value - solve_expected(s, d.active).value == d.gain_active


def test_positions_outside_trading_are_refused() -> None:
    s = LIBRARY["trade-map"].position()
    with pytest.raises(SolveError, match="T3"):
        trade_map(s)
    with pytest.raises(SolveError, match="final pass"):
        trade_map(trading(new_game("rio-grande", 4, seed=1)))  # turn 0: reshuffles lie ahead


# ------------------------------------------------------------------ the command line


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_script(SCRIPT, *args)


def test_cli_default_position(tmp_path: Path) -> None:
    png, graphml = tmp_path / "d.png", tmp_path / "d.graphml"
    proc = run("--png", png, "--graphml", graphml)
    assert proc.returncode == 0, proc.stderr
    assert "legal deals" in proc.stdout and "Pareto" in proc.stdout and "re-solved" in proc.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    g = nx.read_graphml(graphml)
    assert g.number_of_nodes() == 4 and g.number_of_edges() == 228


def test_cli_json(tmp_path: Path) -> None:
    proc = run("trade-ask", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert len(out["edges"]) == 10 and len(out["pareto"]) == 4
    assert out["best_matching"]["predicted_gain"] == 2
    assert out["advanced_by"] == ["p0 harvest 0", "p0 plant 0"]  # the default planting, said


def test_cli_records(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    sim = subprocess.run([sys.executable, str(ROOT / "scripts" / "simulate.py"), "--players", "3",
                          "--games", "3", "--seed", "2", "--bots", "random-trader", "--record", folder],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert sim.returncode == 0, sim.stderr
    records = sorted(folder.glob("*.jsonl"))
    png = tmp_path / "n.png"
    proc = run(*records, "--json", "--png", png)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["records"] == 3 and out["deals"] > 0 and out["cards"] == sum(out["pairs"].values())
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000


@pytest.mark.parametrize("args", [
    ["nosuch"], ["duel-4cards"], ["trade-map", "--max-cards", "-1"], ["trade-map", "rio4-8cards"],
    ["x.jsonl", "trade-map"], ["missing.jsonl"],
], ids=lambda a: " ".join(a))
def test_cli_bad_input_is_one_line(args: list[str]) -> None:
    proc = run(*args)
    assert proc.returncode == 2, proc.stdout
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("trade_graph.py: ")


def test_a_large_json_answer_says_its_size_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """rio4-8cards --json wrote 23 MB without a word: past ``BIG_JSON`` characters one line on stderr
    gives the size and the deals (here the limit lowered to the small trade-map's answer)."""
    script = load_script("trade_graph")
    monkeypatch.setattr(script, "BIG_JSON", 1000)
    assert script.main(["trade-map", "--json", "--quiet"]) == 0
    out, err = capsys.readouterr()
    deals = len(json.loads(out)["edges"])
    mb = len(out.rstrip("\n")) / 1e6
    said = f"trade_graph.py: --json: {mb:.0f} MB on stdout, {deals:,} deals (--max-cards 1 lists fewer)\n"
    assert err == said
    monkeypatch.setattr(script, "BIG_JSON", 2 * len(out))  # (the answer's timings vary in digits)
    assert script.main(["trade-map", "--json", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
