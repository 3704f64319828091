"""The ``duel`` objective (solvers/duel.py): exact minimax on the coin margin in the bean duel.

The search keys its table on a reduced state (coins out, fields sorted, hands and the discard pile
cut to what can still matter, D2) and cuts a seat's last turn off by bounds. Each of these is
checked against a search without any of them: plain minimax where the tree is small enough, an
exhaustive search with a table on the complete engine state otherwise.
"""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest
from builders import ROOT, run_script

import solvers.contract as contract
import solvers.duel as duel
from model import (
    EMPTY,
    Bean,
    EndPhase,
    Field,
    GameState,
    Phase,
    PlayerState,
    apply,
    legal_actions,
    new_game,
    ruleset,
)
from model.validate import check_state
from play.bots import greedy_bot
from solvers.contract import Limits, SolveError
from solvers.duel import DuelSearch, minimax_duel, solve_duel
from solvers.positions import LIBRARY, cut, in_final_pass, position_from_json

PALETTE = [int(b) for b in (Bean.RED, Bean.BLACKEYED, Bean.SOY, Bean.GREEN, Bean.STINK, Bean.CHILI,
                            Bean.BLUE)]


def tiny_duel(seed: int, options: dict[str, int], draw: int, hand: int = 2, coins: int = 4,
              discard: int = 3) -> GameState:
    """A random small duel position in the final pass: four bean types, two fields each (empty or
    holding one or two cards), short hands and piles, at most one card on offer."""
    rng = random.Random(seed)
    base = new_game(ruleset("rio-grande", options), 2, seed=0)
    palette = rng.sample(PALETTE, 4)

    def pick(n: int) -> tuple[int, ...]:
        return tuple(rng.choice(palette) for _ in range(n))

    players = []
    for _ in range(2):
        fields = [EMPTY if rng.random() < 0.4 else Field(rng.choice(palette), rng.randint(1, 2))
                  for _ in range(2)]
        players.append(PlayerState(pick(rng.randint(0, hand)), tuple(fields),
                                   (int(Bean.COFFEE),) * rng.randint(0, coins), ()))
    active = rng.randint(0, 1)
    face_up = tuple(sorted(pick(rng.randint(0, 1))))
    if not face_up and not players[active].hand:
        players[active] = players[active]._replace(hand=pick(1))
    s = base._replace(players=tuple(players), draw=pick(draw), discard=pick(rng.randint(0, discard)),
                      face_up=face_up, active=active, to_move=active,
                      phase=Phase.OFFER if face_up else Phase.PLANT, turn=20)
    check_state(s)
    return s


def last_step3(seed: int) -> GameState:
    """A real duel's last turn at step 3 (D2): cut with 4 cards left, played on by the greedy bot."""
    s = cut("rio-grande", 2, seed, 4)
    rng = random.Random(seed)
    while s.phase != Phase.TURNED:
        s = apply(s, greedy_bot(s, rng))
    return s


def full_state_minimax(s: GameState, p: int) -> int:
    """Minimax with a table keyed by the complete engine state: no reduction can be wrong here."""
    table: dict[GameState, int] = {}

    def value(t: GameState) -> int:
        if t.phase == Phase.OVER:
            return len(t.players[p].coins) - len(t.players[1 - p].coins)
        v = table.get(t)
        if v is None:
            vals = [value(apply(t, a, check=False)) for a in legal_actions(t)]
            v = max(vals) if t.to_move == p else min(vals)
            table[t] = v
        return v

    return value(s)


# ---------------------------------------------------------------- the value is the minimax value


@pytest.mark.parametrize("seed", [19, 23, 28])
def test_duel_equals_plain_minimax_in_a_real_last_turn(seed):
    s = last_step3(seed)
    assert solve_duel(s).value == minimax_duel(s)


# Two turns, one card turned up and one drawn each (ruleset options): what the first seat leaves on
# offer and pushes on the discard pile reaches the second seat (D2 steps 1 and 3).
@pytest.mark.parametrize("seed", [21, 42, 48, 52, 61, 96, 108, 144])
def test_duel_equals_plain_minimax_over_two_turns(seed):
    s = tiny_duel(seed, {"face_up": 1, "draw": 1}, 3 + seed % 3, hand=1, coins=2, discard=2)
    assert DuelSearch(s).outlook(s).other.turns == 1
    value = minimax_duel(s, 0)
    assert solve_duel(s, 0).value == value
    assert solve_duel(s, 1).value == -value


# Two turns of the real duel (3 up, 2 drawn), or three shorter ones: too many lines for plain minimax.
@pytest.mark.parametrize(("seed", "options", "draw", "hand"), [
    (44, {}, 6, 2), (45, {}, 7, 2), (60, {}, 6, 2),
    (4, {"face_up": 1, "draw": 1}, 4, 1), (11, {"face_up": 1, "draw": 1}, 5, 1),
])
def test_duel_equals_full_state_minimax(seed, options, draw, hand):
    s = tiny_duel(seed, options, draw, hand=hand, coins=4 if hand > 1 else 2, discard=3 if hand > 1 else 2)
    p = seed % 2
    assert solve_duel(s, p).value == full_state_minimax(s, p)


class FullKeySearch(DuelSearch):
    """The same alpha-beta without any reduction: the table keyed by the complete engine state,
    no solo mode, no cut-offs (``minimax_duel`` checks the alpha-beta itself)."""

    def key(self, s: GameState, solo: bool) -> tuple[object, ...]:
        return (s,)

    def solo(self, s: GameState) -> bool:
        return False

    def potential(self, s: GameState) -> int | None:
        return None


@pytest.mark.parametrize(("seed", "options", "draw", "hand"), [
    (26, {}, 6, 2), (1, {"face_up": 1, "draw": 1}, 5, 3),
])
def test_duel_reductions_keep_the_value(seed, options, draw, hand):
    s = tiny_duel(seed, options, draw, hand=hand)
    g = FullKeySearch(s).gain(s, -duel.INF, duel.INF)
    assert solve_duel(s, s.to_move).value == duel.margin(s, s.to_move) + g


def _edits(s: GameState) -> list[GameState]:
    """Positions that differ from ``s`` in one hand (two cards swapped, or one card changed), in
    one seat's coins, or in one discard (one card changed, or two swapped)."""
    def variants(cards: tuple[int, ...]) -> list[tuple[int, ...]]:
        out = []
        for i, j in combinations(range(len(cards)), 2):
            c = list(cards)
            c[i], c[j] = c[j], c[i]
            out.append(tuple(c))
        out += [cards[:i] + (b,) + cards[i + 1:] for i in range(len(cards)) for b in PALETTE if b != cards[i]]
        return out

    edits = [s._replace(discard=d) for d in variants(s.discard)]
    for q, pl in enumerate(s.players):
        seats = [pl._replace(hand=h) for h in variants(pl.hand)]
        seats += [pl._replace(coins=(0,) * k) for k in range(5)]
        edits += [s._replace(players=(x, s.players[1]) if q == 0 else (s.players[0], x)) for x in seats]
    return edits


@pytest.mark.parametrize(("seed", "draw", "discard"), [(7, 5, 3), (8, 5, 3), (32, 4, 4)])
def test_positions_with_the_same_key_have_the_same_future(seed, draw, discard):
    """The key drops hand order past the cards that can still be planted, bean types no turn-up can
    show, the discard pile under such a type, and coins (D2, H1, F1): wherever it merges two
    positions, a search keyed on the complete state finds the same future gain."""
    s = tiny_duel(seed, {"face_up": 1, "draw": 1}, draw, hand=3, discard=discard)
    search = DuelSearch(s)
    key = search.key(s, search.solo(s))
    gain = FullKeySearch(s).gain(s, -duel.INF, duel.INF)
    merged = [t for t in _edits(s) if search.key(t, search.solo(t)) == key]
    assert merged
    for t in merged:
        assert FullKeySearch(t).gain(t, -duel.INF, duel.INF) == gain


def _turned_up(u: GameState, v: GameState) -> tuple[int, ...] | None:
    """The cards turned up between two consecutive states, None if no turn-up came between."""
    if v.phase != Phase.TURNED or (u.phase == Phase.TURNED and u.turn == v.turn):
        return None
    gone = u.draw[:len(u.draw) - len(v.draw)]
    return gone[u.setup.draw:] if u.turn != v.turn else gone  # after the last turn's draw (D2 step 4)


@pytest.mark.parametrize("seed", range(8))
def test_turns_left_and_live_types_match_what_the_engine_does(seed):
    """The key rests on this (D2, E2): however the seats play, the turns left and the cards still
    to be turned up follow from the pile's length and the phase."""
    options = [{}, {"face_up": 1, "draw": 1}, {"face_up": 2, "draw": 0}, {"face_up": 1, "draw": 3}][seed % 4]
    rng = random.Random(seed)
    s = tiny_duel(seed, options, 10) if options else cut("rio-grande", 2, seed + 1, 12)
    states = [s]
    while s.phase != Phase.OVER:
        s = apply(s, rng.choice(legal_actions(s)))
        states.append(s)
    ups = [_turned_up(u, v) for u, v in zip(states, states[1:], strict=False)]
    search = DuelSearch(states[0])
    for i, t in enumerate(states[:-1]):
        this_turn_done = t.phase == Phase.TURNED  # its step 2 is over
        turns = {(u.turn, u.active) for u in states[i:-1] if not (this_turn_done and u.turn == t.turn)}
        ol = search.outlook(t)
        assert ol.mover.turns == sum(1 for _, a in turns if a == t.active)
        assert ol.other.turns == sum(1 for _, a in turns if a != t.active)
        assert ol.turn_ups == sum(1 for x in ups[i:] if x is not None)
        assert ol.live == frozenset(b for x in ups[i:] if x is not None for b in x)


# ---------------------------------------------------------------- the line and the seats


@pytest.mark.parametrize("s", [LIBRARY["duel-4cards"].position(), LIBRARY["duel-9cards"].position(),
                               cut("rio-grande", 2, 7, 12)], ids=["duel-4cards", "duel-9cards", "seed7-12"])
def test_duel_line_replays_legally_to_the_value(s):
    sol = solve_duel(s)
    end = s
    for a in sol.line:
        end = apply(end, a)  # checked
    assert end.is_over
    assert [len(p.coins) for p in end.players] == sol.per_player
    p = sol.player
    assert sol.per_player[p] - sol.per_player[1 - p] == sol.value
    if len(s.draw) > 5:  # two turns left: the line runs on through the opponent's turn
        assert {a.player for a in sol.line} == {0, 1}


@pytest.mark.parametrize("s", [LIBRARY["duel-4cards"].position(), LIBRARY["duel-9cards"].position(),
                               cut("rio-grande", 2, 8, 12)], ids=["duel-4cards", "duel-9cards", "seed8-12"])
def test_duel_value_for_one_seat_is_minus_the_other(s):
    a, b = solve_duel(s, 0), solve_duel(s, 1)
    assert (a.player, b.player) == (0, 1)
    assert a.value == -b.value
    assert a.per_player == b.per_player
    assert solve_duel(s).player == s.to_move


# ---------------------------------------------------------------- a teaching position

LEAVE_RED = {
    "format": "bohnanza-state", "version": 1, "ruleset": "rio-grande", "options": {},
    "players": [
        {"hand": [], "fields": [None, ["blue", 4]], "coins": [], "aside": []},
        {"hand": [], "fields": [["red", 2], ["soy", 2]], "coins": [], "aside": []},
    ],
    "draw": ["coffee", "coffee", "coffee"], "discard": ["stink"], "face_up": ["red"], "out": [],
    "active": 0, "phase": "turned", "to_move": 0, "planted": 2, "first_field": 0, "offers": 0,
    "pending": None, "exhaustions": 0, "final": False, "todo": [], "resume": 0, "turn": 30,
}


def test_D2_leaving_a_card_on_offer_costs_the_margin():
    """p0 is at step 3 with a red turned up, an empty field and four blues (1 coin); p1 holds two
    reds (1 coin) and two soys (1 coin) and no hand. p0 then draws two coffees, and p1's turn turns
    up the last coffee (E2: the game ends after it), which no field of p1 can use for a coin.

    - p0 plants the red: p0 ends with 1 coin (blue 4; a single red pays 0), p1 with 2: margin -1.
    - p0 leaves it on offer: p1 plants it on its reds (3 reds pay 2, C1): 1 against 3, margin -2.
    So the value is -1, and the red must not be left on offer (D2 step 1)."""
    s = position_from_json(json.loads(json.dumps(LEAVE_RED)))
    sol = solve_duel(s)
    assert sol.value == -1 == minimax_duel(s)
    assert sol.per_player == [1, 2]
    assert solve_duel(apply(s, EndPhase(0)), 0).value == -2  # the red left on offer
    assert all(a.player == 0 for a in sol.line[:2])
    after = s
    for a in sol.line:
        after = apply(after, a)
        if after.active == 1:
            break
    assert after.phase != Phase.OFFER  # nothing was left on offer


# ---------------------------------------------------------------- refusals and limits


def test_duel_refuses_a_game_of_three_D1():
    with pytest.raises(SolveError, match=r"\(D1\)"):
        solve_duel(LIBRARY["rio3-6cards"].position())


def test_duel_refuses_a_position_before_the_final_pass_E2():
    s = new_game(ruleset("rio-grande", {"exhaustions": 2}), 2, seed=3)  # the duel played to 2 exhaustions
    assert s.setup.duel and not in_final_pass(s)
    with pytest.raises(SolveError, match=r"\(E2\)"):
        solve_duel(s)


def test_duel_stops_past_the_node_limit_and_reports_progress(monkeypatch):
    s = cut("rio-grande", 2, 8, 12)
    with pytest.raises(SolveError, match="more than 100 nodes"):
        solve_duel(s, limits=Limits(nodes=100))
    monkeypatch.setattr(contract, "PROGRESS_SECONDS", 0.0)  # a report at every node
    seen: list[int] = []
    sol = solve_duel(s, progress=lambda done, total, note: seen.append(done))
    assert seen == list(range(1, sol.stats.nodes + 1))


@pytest.mark.parametrize("limit", [[], ["--node-limit", "5"]], ids=["optimal", "past-the-node-limit"])
def test_the_json_answer_states_one_bound(limit: list[str]) -> None:
    """``--json`` had ``stats.bound`` null while the top-level ``bound`` was -11: one proved bound."""
    proc = run_script(ROOT / "scripts" / "solve_endgame.py", "duel-9cards", "--objective", "duel", "--json",
                      *limit)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["bound"] == out["stats"]["bound"] is not None and out["bound"] >= out["value"], out["stats"]
    assert out["status"] == ("feasible" if limit else "optimal")
