"""The trade network of many games (studies/trade_network.py): graphs from records count exactly the
cards of the accepted deals (T3, T4), a hand-made game's statistics, grouping and error lines."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from builders import B, stacked_game

import model
from model import Accept, Decline, EndPhase, Harvest, Plant, PlantAside, Propose
from model.cards import BEAN_NAMES
from play.bots import BOTS
from play.playout import play_game
from records.game import header, read_record, replay_steps, write_record
from studies.trade_network import (
    DealRecord,
    GameDeals,
    TradeRecordError,
    by_group,
    deals_in_game,
    deals_in_record,
    network,
    network_from_records,
    read_game,
    simulated_game,
    summary,
)


def _sim_record(tmp_path: Path, name: str, players: int, seed: int, **options: object) -> Path:
    """A random-trader game written as a record (docs/records.md) into ``tmp_path``."""
    rules = model.ruleset(name, options)
    result, s0, final, actions = play_game(rules, players, seed, [BOTS["random-trader"]] * players)
    path = tmp_path / f"{name}-{players}p-{seed}.jsonl"
    write_record(path, header(s0, ["random-trader"] * players, seed=seed), actions, final)
    return path


def _cards_moved(path: Path) -> tuple[int, Counter[tuple[int, int]], Counter[str]]:
    """(accepted deals, cards per ordered pair, cards per bean), counted from the record's actions and
    replayed states alone: the cards a deal moves are what the receivers' set-aside areas gain (T4)."""
    rec = read_record(path)
    s, deals = rec.initial_state(), 0
    pairs: Counter[tuple[int, int]] = Counter()
    beans: Counter[str] = Counter()
    for _, action, after in replay_steps(rec):
        if isinstance(action, Accept):
            deals += 1
            assert s.pending is not None
            act, partner = s.pending.player, s.pending.partner
            for giver, receiver in ((act, partner), (partner, act)):
                gained = Counter(after.players[receiver].aside) - Counter(s.players[receiver].aside)
                pairs[(giver, receiver)] += gained.total()
                beans.update({BEAN_NAMES[b]: k for b, k in gained.items()})
        s = after
    return deals, pairs, beans


@pytest.mark.rule("T3")
@pytest.mark.parametrize(("name", "players"), [("rio-grande", 3), ("amigo", 4), ("rio-grande", 5)])
def test_graph_from_records_counts_every_card_of_every_deal(tmp_path: Path, name: str, players: int) -> None:
    paths = [_sim_record(tmp_path, name, players, seed) for seed in range(3)]
    G, info = network_from_records(paths)
    deals = cards = 0
    pairs: Counter[tuple[int, int]] = Counter()
    beans: Counter[str] = Counter()
    for p in paths:
        d, pr, bn = _cards_moved(p)
        deals, cards = deals + d, cards + pr.total()
        pairs += pr
        beans += bn
    assert deals > 0 and cards > 0  # random traders do make deals
    assert G.number_of_edges() == cards == info["cards"]
    assert info["deals"] == deals == info["gifts"] + info["swaps"]
    assert Counter((u, v) for u, v in G.edges()) == pairs
    assert Counter(b for _, _, b in G.edges(data="bean")) == beans
    assert info["pairs"] == {f"p{u}->p{v}": pairs[(u, v)]
                             for u in range(players) for v in range(players) if u != v}
    assert info["beans"] == dict(beans)
    assert sorted(G.nodes) == list(range(players))
    assert [G.nodes[p]["label"] for p in range(players)] == [f"p{p}" for p in range(players)]
    assert info["games"] == 3 and set(info["hubs"]) == {str(p) for p in paths}
    for s in info["seats"].values():
        assert s["given"] + s["received"] > 0 or cards == 0
    assert sum(s["given"] for s in info["seats"].values()) == cards
    assert sum(info["centrality"]["degree_share"].values()) == pytest.approx(1.0)


@pytest.mark.rule("T3")
def test_simulator_helper_gives_the_record_deals(tmp_path: Path) -> None:
    rules = model.ruleset("amigo")
    out = play_game(rules, 4, 7, [BOTS["random-trader"]] * 4)
    path = tmp_path / "g.jsonl"
    write_record(path, header(out[1]), out[3], out[2])
    sim, rec = simulated_game(out), read_game(path)
    assert (sim.game, sim.ruleset, sim.players) == ("seed 7", "amigo", 4)
    assert (rec.game, rec.ruleset, rec.players) == (str(path), "amigo", 4)
    assert len(sim.deals) == out[0].deals > 0  # the simulator counts accepts too
    strip = [(d.turn, d.active, d.partner, d.active_gave, d.partner_gave) for d in sim.deals]
    assert strip == [(d.turn, d.active, d.partner, d.active_gave, d.partner_gave) for d in rec.deals]
    assert all(d.line > 0 for d in rec.deals) and all(d.line == 0 for d in sim.deals)


# ------------------------------------------------------------------ a hand-made game

HANDS = [[B.BLUE, B.CHILI, B.STINK, B.GREEN, B.SOY],
         [B.RED, B.RED, B.WAX, B.COFFEE, B.BLACKEYED],
         [B.GARDEN, B.GARDEN, B.SOY, B.SOY, B.WAX]]
DRAW = [B.COFFEE, B.WAX,  # turned up on turn 0 (T2): u0 coffee, u1 wax
        B.BLUE, B.BLUE, B.BLUE,  # p0 draws (T7)
        B.CHILI, B.CHILI]  # turned up on turn 1

ACTIONS = [
    Plant(0, 0), EndPhase(0),  # p0 plants blue; hand chili stink green soy
    Propose(0, 1, (), (1,), (B.RED,)), Accept(1, (0,)),  # deal 0, swap: wax -> p1, red -> p0
    Propose(0, 2, (0,), (), ()), Accept(2, ()),  # deal 1, gift from the active player: chili -> p2
    Propose(0, 2, (), (), (B.SOY, B.SOY)), Accept(2, (2, 3)),  # deal 2, gift to the active player: soy x2
    Propose(0, 1, (), (), (B.GARDEN,)), Decline(1),  # declined: nothing moves
    EndPhase(0),  # the face-up coffee stays with p0 (T5)
    PlantAside(0, B.RED, 1), PlantAside(0, B.SOY, 2), PlantAside(0, B.SOY, 2), Harvest(0, 2),
    PlantAside(0, B.COFFEE, 2), PlantAside(1, B.WAX, 0), PlantAside(2, B.CHILI, 0),
    Plant(1, 1), EndPhase(1),  # turn 1: p1 plants red; hand wax coffee blackeyed; face up chili chili
    Propose(1, 0, (), (0, 1), (B.BLUE,)), Accept(0, (3,)),  # deal 3, swap: chili x2 -> p0, blue -> p1
    Propose(1, 2, (1,), (), ()), Accept(2, ()),  # deal 4, gift from the active player: coffee -> p2
    EndPhase(1),
]


def _hand_game() -> model.GameState:
    return stacked_game("rio-grande", 3, HANDS, DRAW)


def _expected_deals(game: str, lines: list[int]) -> list[DealRecord]:
    return [
        DealRecord(game, 0, 0, 1, (B.WAX,), (B.RED,), lines[0]),
        DealRecord(game, 0, 0, 2, (B.CHILI,), (), lines[1]),
        DealRecord(game, 0, 0, 2, (), (B.SOY, B.SOY), lines[2]),
        DealRecord(game, 1, 1, 0, (B.CHILI, B.CHILI), (B.BLUE,), lines[3]),
        DealRecord(game, 1, 1, 2, (B.COFFEE,), (), lines[4]),
    ]


def _check_hand_summary(info: dict[str, object]) -> None:
    # Cards by ordered pair: p0->p1 wax, blue; p1->p0 red, chili, chili; p0->p2 chili;
    # p2->p0 soy, soy; p1->p2 coffee; p2->p1 nothing. 9 cards in 5 deals (3 gifts, 2 swaps).
    assert info["players"] == 3 and info["games"] == 1
    assert (info["deals"], info["gifts"], info["swaps"], info["cards"]) == (5, 3, 2, 9)
    assert (info["gifts_from_active"], info["gifts_to_active"]) == (2, 1)
    assert info["pairs"] == {"p0->p1": 2, "p0->p2": 1, "p1->p0": 3, "p1->p2": 1, "p2->p0": 2, "p2->p1": 0}
    assert info["beans"] == {"coffee": 1, "wax": 1, "blue": 1, "chili": 3, "soy": 2, "red": 1}
    # given / received: p0 3 / 5, p1 4 / 2, p2 2 / 2; weighted degrees 8, 6, 4 of 2 * 9 = 18.
    assert info["seats"] == {"p0": {"given": 3, "received": 5}, "p1": {"given": 4, "received": 2},
                             "p2": {"given": 2, "received": 2}}
    # Reciprocated: {p0,p1} min(2,3) = 2, {p0,p2} min(1,2) = 1, {p1,p2} min(1,0) = 0: 2 * 3 = 6 of 9
    # cards; the collapsed DiGraph has 5 directed edges, 4 of them with their reverse (not p1->p2).
    rec = info["reciprocity"]
    assert isinstance(rec, dict)
    assert rec["reciprocated_cards"] == 6
    assert rec["weighted"] == pytest.approx(6 / 9)
    assert rec["overall"] == pytest.approx(4 / 5)
    cen = info["centrality"]
    assert isinstance(cen, dict)
    assert cen["degree_share"] == pytest.approx({"p0": 8 / 18, "p1": 6 / 18, "p2": 4 / 18})
    assert cen["partners"] == {"p0": 1.0, "p1": 1.0, "p2": 1.0}  # everyone traded with both others
    # Eigenvector centrality of the symmetric weights (p0-p1 5, p0-p2 3, p1-p2 1), by numpy.
    vals, vecs = np.linalg.eigh(np.array([[0, 5, 3], [5, 0, 1], [3, 1, 0]], dtype=float))
    top = np.abs(vecs[:, int(np.argmax(vals))])
    assert cen["eigenvector"] == pytest.approx({f"p{p}": float(top[p]) for p in range(3)}, abs=1e-4)
    assert list(info["hubs"].values()) == [["p0"]]  # type: ignore[attr-defined]
    assert info["hub_counts"] == {"p0": 1, "p1": 0, "p2": 0}


@pytest.mark.rule("T3")
def test_hand_made_game_deals_and_statistics() -> None:
    s0 = _hand_game()
    deals = deals_in_game(s0, ACTIONS, game="hand")
    assert deals == _expected_deals("hand", [0] * 5)
    assert [d.kind for d in deals] == ["swap", "gift", "gift", "swap", "gift"]
    G = network(deals, 3)
    assert G.number_of_edges() == sum(d.cards for d in deals) == 9
    edges = sorted((u, v, a["bean"], a["deal"], a["turn"], a["kind"], a["game"])
                   for u, v, a in G.edges(data=True))
    assert edges == sorted([
        (0, 1, "wax", 0, 0, "swap", "hand"), (1, 0, "red", 0, 0, "swap", "hand"),
        (0, 2, "chili", 1, 0, "gift", "hand"), (2, 0, "soy", 2, 0, "gift", "hand"),
        (2, 0, "soy", 2, 0, "gift", "hand"), (1, 0, "chili", 3, 1, "swap", "hand"),
        (1, 0, "chili", 3, 1, "swap", "hand"), (0, 1, "blue", 3, 1, "swap", "hand"),
        (1, 2, "coffee", 4, 1, "gift", "hand")])
    _check_hand_summary(summary(G, deals, 3))


@pytest.mark.rule("T3")
def test_hand_made_game_from_its_record(tmp_path: Path) -> None:
    path = tmp_path / "hand.jsonl"
    s0 = _hand_game()
    write_record(path, header(s0, game="hand"), ACTIONS)
    accept_lines = [i + 2 for i, a in enumerate(ACTIONS) if isinstance(a, Accept)]  # line 1: header
    assert deals_in_record(path) == _expected_deals(str(path), accept_lines)
    G, info = network_from_records([path])
    assert not isinstance(G, dict) and G.number_of_edges() == 9
    assert info["ruleset"] == "rio-grande" and info["hubs"] == {str(path): ["p0"]}
    _check_hand_summary(info)
    assert json.loads(json.dumps(info)) == info  # plain JSON: string keys, lists, numbers, None


def test_hubs_ties_and_games_without_deals() -> None:
    s0 = _hand_game()
    deals = deals_in_game(s0, ACTIONS, game="g1") + [DealRecord("g2", 4, 1, 2, (B.RED,), ())]
    info = summary(network(deals, 3), deals, 3, games=["g1", "g2", "g3"])
    # g1: p0 (8 cards); g2: one gift p1 -> p2, a tie; g3 had no deal.
    assert info["games"] == 3
    assert info["hubs"] == {"g1": ["p0"], "g2": ["p1", "p2"], "g3": []}
    assert info["hub_counts"] == {"p0": 1, "p1": 1, "p2": 1}
    assert (info["deals"], info["gifts"], info["cards"]) == (6, 4, 10)
    empty = summary(network([], 4), [], 4, games=["x"])
    assert (empty["cards"], empty["hubs"], empty["reciprocity"]["weighted"]) == (0, {"x": []}, None)
    assert empty["centrality"]["eigenvector"] == {f"p{p}": None for p in range(4)}
    assert json.loads(json.dumps(empty)) == empty
    with pytest.raises(ValueError, match="p3"):
        network([DealRecord("g", 0, 0, 3, (B.RED,), ())], 3)


# ------------------------------------------------------------------ groups and errors


def test_groups_by_ruleset_and_player_count(tmp_path: Path) -> None:
    paths = [_sim_record(tmp_path, "rio-grande", 3, 1), _sim_record(tmp_path, "amigo", 4, 1),
             _sim_record(tmp_path, "amigo", 4, 2), _sim_record(tmp_path, "rio-grande", 4, 1),
             _sim_record(tmp_path, "rio-grande", 4, 3, isla=True)]
    groups = by_group(paths)
    assert list(groups) == ["amigo/4p", "rio-grande/3p", "rio-grande/4p", "rio-grande+isla/4p"]
    games = [read_game(p) for p in paths]
    for key, info in groups.items():
        mine = [g for g in games if f"{g.ruleset}/{g.players}p" == key]
        assert info["games"] == len(mine) and info["players"] == mine[0].players
        assert info["ruleset"] == mine[0].ruleset
        assert info["deals"] == sum(len(g.deals) for g in mine)
        assert info["cards"] == sum(d.cards for g in mine for d in g.deals)
        assert set(info["hubs"]) == {g.game for g in mine}
    assert groups["amigo/4p"]["games"] == 2
    assert sum(info["deals"] for info in groups.values()) > 0
    assert json.loads(json.dumps(groups)) == groups
    assert by_group(games) == groups  # games already read give the same summaries
    graphs, infos = network_from_records(paths)
    assert isinstance(graphs, dict) and infos == groups
    assert {k: G.number_of_edges() for k, G in graphs.items()} == {k: i["cards"] for k, i in groups.items()}
    assert graphs["rio-grande/3p"].number_of_nodes() == 3
    with pytest.raises(ValueError, match="twice"):
        by_group([games[0], paths[0]])
    with pytest.raises(ValueError, match="no records"):
        network_from_records([])
    assert isinstance(games[0], GameDeals)


def test_illegal_record_one_line_error_names_file_line_and_rule(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    write_record(good, header(_hand_game()), ACTIONS)
    lines = good.read_text().splitlines()
    at = [i for i, a in enumerate(ACTIONS) if a == Accept(0, (3,))][0] + 2  # 1-based, after the header
    assert json.loads(lines[at - 1]) == {"action": "p0 accept h3"}
    bad = tmp_path / "bad.jsonl"
    lines[at - 1] = json.dumps({"action": "p0 accept h0"})  # h0 is a stink bean; blue was asked (T3)
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(TradeRecordError) as info:
        network_from_records([good, bad])
    err = info.value
    assert isinstance(err, ValueError) and "\n" not in str(err)
    assert str(err).startswith(f"{bad}:{at}: illegal p0 accept h0: ") and str(err).endswith("[T3]")
    assert (err.path, err.line, err.rule) == (str(bad), at, "T3")

    lines[at - 1] = '{"action": "p0 accept h3"'  # malformed JSON
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(TradeRecordError, match=rf"^{bad}:{at}: malformed record: bad JSON"):
        deals_in_record(bad)
    with pytest.raises(TradeRecordError, match="cannot read"):
        read_game(tmp_path / "missing.jsonl")


@pytest.mark.rule("T3")
def test_deals_heard_during_play_are_the_deals_of_the_replay() -> None:
    """play_game's on_accept (the study's simulations read deals this way) sees each executed deal
    with the state it was accepted in: the same DealRecords as replaying the game afterwards."""
    from model import ruleset as _ruleset
    from play.bots import BOTS
    from play.playout import play_game
    from studies.trade_network import deal_at, deals_in_game

    for seed in range(3):
        heard: list[DealRecord] = []
        _, s0, _, actions = play_game(_ruleset("amigo"), 4, seed, [BOTS["greedy"]] * 4,
                                      on_accept=lambda before, a, out=heard: out.append(deal_at(before, a)))
        replayed = deals_in_game(s0, actions)
        assert heard == replayed and len(heard) > 5
