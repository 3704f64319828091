"""La Isla Bohnita endgame positions (issue 41 item 1): read and validated against I1-I9 and the
base rules, cut from seeded Isla games (2-5 players with the amigo deck, 2-7 with rio-grande), built
in as ``isla-`` names, round-tripped through JSON, and refused by every solver but Isla ``solo`` by
exact search (``tests/test_isla_exact.py``) in one line naming the solver, I1-I9 and what does
solve them."""

from __future__ import annotations

import copy
import json
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import run_script
from hypothesis import given
from hypothesis import strategies as st

from model import GameState, Phase, state_to_json
from model.cards import Bean
from model.isla import isla_of
from solvers import duel, endgame, exact, expected
from solvers.api import EXPANSION_REGISTRY, POLICIES, REGISTRY, solve, solve_policy
from solvers.contract import COOP, Objective, SolveError
from solvers.positions import (
    BUILTINS,
    ISLA_LIBRARY,
    LIBRARY,
    PositionInputError,
    cut,
    in_final_pass,
    position_from_json,
    read_position,
)
from solvers.trade_graph import trade_map

ROOT = Path(__file__).resolve().parent.parent
SOLVE = ROOT / "scripts" / "solve_endgame.py"
SHOW = ROOT / "scripts" / "show.py"
ISLA = {"isla": True}
B = Bean

# I2, written out from RULES.md: the bean types in play with La Isla Bohnita.
AMIGO_IN_PLAY = {B.BLUE, B.CHILI, B.STINK, B.GREEN, B.SOY, B.BLACKEYED, B.RED}  # garden removed
RIO_IN_PLAY = {
    2: {B.COFFEE, B.WAX, B.BLUE, B.CHILI, B.STINK},
    3: {B.COFFEE, B.WAX, B.BLUE, B.CHILI, B.STINK, B.GREEN},
    4: {B.COFFEE, B.WAX, B.BLUE, B.CHILI, B.STINK, B.GREEN, B.SOY},
    5: {B.COFFEE, B.WAX, B.BLUE, B.CHILI, B.STINK, B.GREEN, B.SOY, B.BLACKEYED},
    6: {B.COFFEE, B.WAX, B.BLUE, B.CHILI, B.STINK, B.GREEN, B.SOY},
    7: {B.COFFEE, B.WAX, B.BLUE, B.CHILI, B.STINK, B.GREEN, B.SOY, B.BLACKEYED},
}


def in_play(ruleset: str, players: int) -> set[int]:
    return AMIGO_IN_PLAY if ruleset == "amigo" else RIO_IN_PLAY[players]


def cards(s: GameState) -> Iterator[int]:
    """Every card of the position, wherever it lies (the base zones, the rows and every cargo)."""
    for p in s.players:
        yield from (*p.hand, *p.coins, *p.aside)
        for f in p.fields:
            yield from (f.bean,) * f.count
    yield from (*s.draw, *s.discard, *s.face_up, *s.out)
    isla = isla_of(s)
    for row in isla.rows:
        yield from row
    for fleet in isla.fleets:
        for _, ship in fleet.ships():
            yield from (ship.bean,) * ship.count


def cargo(s: GameState) -> int:
    return sum(ship.count for fleet in isla_of(s).fleets for _, ship in fleet.ships())


def check_cut(s: GameState, ruleset: str, players: int, cards_left: int) -> None:
    """What a cut promises: an Isla game of that ruleset and size, the first turn start of the final
    pass (E2) within the threshold, only I2's bean types, and a JSON round trip to the same state."""
    assert s.setup.expansion == "isla" and s.setup.rules.name == ruleset and len(s.players) == players
    assert s.setup.duel == (players == 2)  # I9
    assert s.phase == Phase.PLANT and s.to_move == s.active and not s.final
    assert in_final_pass(s) and len(s.draw) <= cards_left
    assert set(cards(s)) <= in_play(ruleset, players)
    obj = json.loads(json.dumps(state_to_json(s)))
    assert obj["options"]["isla"] is True and "isla" in obj
    assert position_from_json(obj, "cut") == s


# ---------------------------------------------------------------- cut from seeded games


@pytest.mark.parametrize(("ruleset", "players", "seed", "cards_left"), [
    ("amigo", 2, 42, 6), ("amigo", 5, 44, 12), ("rio-grande", 2, 47, 8), ("rio-grande", 7, 41, 5),
], ids=lambda x: str(x))
def test_I2_a_position_cut_from_a_seeded_isla_game(ruleset: str, players: int, seed: int,
                                                   cards_left: int) -> None:
    s = cut(ruleset, players, seed, cards_left, ISLA)
    check_cut(s, ruleset, players, cards_left)
    assert cut(ruleset, players, seed, cards_left, ISLA) == s  # reproducible from the seed
    base = ruleset == "rio-grande" or players != 2  # the amigo deck has no 2-player base game (S1)
    if base:
        assert cut(ruleset, players, seed, cards_left) != s


def test_a_game_that_ends_before_the_cut_is_refused_in_one_line() -> None:
    # 7 players: the second pass is short, and this game ends before a final-pass turn starts
    with pytest.raises(PositionInputError) as e:
        cut("rio-grande", 7, 1, 10, ISLA)
    assert str(e.value) == ("rio-grande isla=true 7p seed 1: the game ended before a turn started with "
                            "at most 10 cards left")


@given(ruleset=st.sampled_from(["amigo", "rio-grande"]), players=st.integers(2, 7),
       seed=st.integers(0, 10**6), cards_left=st.integers(0, 30))
def test_every_isla_cut_is_a_valid_final_pass_position_or_one_line(ruleset: str, players: int, seed: int,
                                                                    cards_left: int) -> None:
    players = min(players, 5) if ruleset == "amigo" else players  # I2: amigo, 2-5 players
    try:
        s = cut(ruleset, players, seed, cards_left, ISLA)
    except PositionInputError as e:
        assert "\n" not in str(e) and f"isla=true {players}p seed {seed}:" in str(e)
        return
    check_cut(s, ruleset, players, cards_left)


# ---------------------------------------------------------------- reading and validating


@pytest.fixture(scope="module")
def isla_json() -> dict[str, Any]:
    """rio-grande, 3 players: every card of the deck is in the position, ships hold cargo."""
    return state_to_json(ISLA_LIBRARY["isla-rio3-8cards"].position())


def _ship(x: dict[str, Any], fleet: int, kind: str = "m0") -> dict[str, Any]:
    f = x["isla"]["fleets"][fleet]
    return f["merchants"][int(kind[1])] if kind != "pirate" else f["pirate"]


BAD: list[tuple[str, Callable[[dict[str, Any]], Any], str, str]] = [
    ("a fleet short", lambda x: x["isla"]["fleets"].pop(), "isla.fleets", "I1"),
    ("too many sails", lambda x: x["isla"].update(sails=9), "isla.sails", "I4"),
    ("a pirate ship at a port", lambda x: _ship(x, 0, "pirate").update(at="bohnbay"),
     "isla.fleets[0].pirate", "I4"),
    ("cargo without a bean", lambda x: _ship(x, 0).update(bean=None),
     "isla.fleets[0].merchants[0].bean", "I4"),
    ("ships in a base game", lambda x: x["options"].update(isla=False), "isla", "I1"),
    ("no ships in an Isla game", lambda x: x.pop("isla"), "isla", "I1"),
    ("a removed type in a row", lambda x: x["isla"]["rows"].update(bohnbay=["garden"]),
     "isla.rows.bohnbay[0]", "C2"),
    ("a card more than the deck", lambda x: _ship(x, 0).update(count=_ship(x, 0)["count"] + 1),
     "coffee", "C2"),
    ("a finished game", lambda x: x.update(phase="over"), "to_move", "E1"),
]


@pytest.mark.parametrize(("mutate", "field", "rule"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_broken_isla_position_is_refused_naming_the_field_and_the_rule(
        isla_json: dict[str, Any], mutate: Callable[[dict[str, Any]], Any], field: str, rule: str,
        tmp_path: Path) -> None:
    bad = copy.deepcopy(isla_json)
    mutate(bad)
    with pytest.raises(PositionInputError) as e:
        position_from_json(bad, "pos.json")
    msg = str(e.value)
    assert msg.startswith(f"pos.json: {field}: ") and "\n" not in msg, msg
    assert re.search(rf"[\[(]{rule}[\])]$", msg), msg
    path = tmp_path / "pos.json"  # the same through a file and the command line
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(PositionInputError, match=re.escape(msg.split(": ", 1)[1])):
        read_position(str(path))


def test_I9_the_isla_duel_has_no_offer_phase() -> None:
    obj = state_to_json(ISLA_LIBRARY["isla-duel-7cards"].position())
    obj.update(phase="offer")
    with pytest.raises(PositionInputError, match=r"^duel: phase: .*\[I9\]$"):
        position_from_json(obj, "duel")


@given(fleet=st.integers(0, 2), kind=st.sampled_from(["m0", "pirate", "bohnbay", "bohnaco"]),
       extra=st.integers(1, 5))
def test_C2_a_card_added_to_a_ship_or_a_row_of_a_whole_position_is_refused(
        isla_json: dict[str, Any], fleet: int, kind: str, extra: int) -> None:
    """Every card of the deck is already in the position: one more anywhere in the expansion's
    zones breaks card conservation (C2), whatever the ship or row."""
    bad = copy.deepcopy(isla_json)
    if kind in ("bohnbay", "bohnaco"):
        bad["isla"]["rows"][kind] = (bad["isla"]["rows"][kind] + ["stink"] * extra)[-5:]
        grown = len(bad["isla"]["rows"][kind]) > len(isla_json["isla"]["rows"][kind])
    else:
        ship = _ship(bad, fleet, kind)
        ship.update(bean=ship["bean"] or "stink", count=ship["count"] + extra)
        grown = True
    try:
        position_from_json(bad, "pos.json")
    except PositionInputError as e:
        assert str(e).endswith("[C2]") and "\n" not in str(e), e
    else:
        assert not grown, "a card more than the deck holds was accepted"


def test_an_isla_position_round_trips_through_a_file(tmp_path: Path) -> None:
    s = ISLA_LIBRARY["isla-rio4-last-turn"].position()
    path = tmp_path / "isla.json"
    path.write_text(json.dumps(state_to_json(s)), encoding="utf-8")
    assert read_position(str(path)) == s


# ---------------------------------------------------------------- the built-in positions

NAME = re.compile(r"^isla-(?:(?P<rules>rio|amigo)(?P<players>[2-7])|(?P<duel>(?:amigo-)?duel))"
                  r"-(?P<cards>\d+)cards$")


@pytest.mark.parametrize("name", list(ISLA_LIBRARY))
def test_an_isla_built_in_is_a_valid_position_named_after_what_it_holds(name: str) -> None:
    e = ISLA_LIBRARY[name]
    s = e.position()
    assert e.expansion == "isla" and name.startswith("isla-") and name in BUILTINS and name not in LIBRARY
    assert position_from_json(state_to_json(s), name) == s and in_final_pass(s) and not s.final
    assert s.phase == Phase.PLANT and s.setup.expansion == "isla" and cargo(s) > 0
    assert set(cards(s)) <= in_play(e.ruleset, e.players)
    if e.hand is not None:
        assert max(len(p.hand) for p in s.players) <= e.hand
    m = NAME.match(name)
    if m is None:
        assert name == "isla-rio4-last-turn"
        su = s.setup
        # the pile holds this turn's turn-up and draw and no more: the game ends in this turn (E2)
        assert su.face_up < len(s.draw) <= su.face_up + su.draw and len(s.players) == 4
        assert [min(hands := [len(p.hand) for p in s.players]), max(hands)] == [10, 20]  # real hands
        ships = [ship for fleet in isla_of(s).fleets for _, ship in fleet.ships()]
        pirates = sum(fleet.pirate is not None for fleet in isla_of(s).fleets)
        assert (len(ships), pirates, cargo(s)) == (7, 3, 7)  # what its description says
        return
    assert len(s.draw) == int(m["cards"])
    assert len(s.players) == (2 if m["duel"] else int(m["players"]))
    assert s.setup.rules.name == ("amigo" if name.startswith("isla-amigo") else "rio-grande")


def test_the_base_library_holds_only_positions_the_solvers_take() -> None:
    assert BUILTINS == LIBRARY | ISLA_LIBRARY and not any(e.expansion for e in LIBRARY.values())
    assert {e.players for e in ISLA_LIBRARY.values()} >= {2, 3, 4, 7}
    assert {e.ruleset for e in ISLA_LIBRARY.values()} == {"amigo", "rio-grande"}


# ---------------------------------------------------------------- the solvers refuse them


def _refused(call: Callable[[], Any], solver: str) -> None:
    with pytest.raises(SolveError) as e:
        call()
    msg = str(e.value)
    assert msg.startswith(f"{solver} covers the base game; La Isla Bohnita (I1-I9) positions")
    assert "\n" not in msg
    assert msg.endswith(("are solved only by solo by exact search or CP-SAT, coop by exact search, "
                         "best by exact search, duel by exact search",
                         f"but {solver} does not handle them"))


REFUSING = [(o, m) for o, m in [*REGISTRY, *POLICIES] if ("isla", o, m) not in EXPANSION_REGISTRY]


@pytest.mark.parametrize(("objective", "method"), REFUSING, ids=[f"{o}-{m}" for o, m in REFUSING])
def test_every_registered_solver_but_isla_solo_refuses_an_isla_position(objective: Objective,
                                                                          method: str) -> None:
    name = "isla-duel-7cards" if objective.duel else "isla-rio4-5cards"
    s = ISLA_LIBRARY[name].position()
    call = solve_policy if (objective, method) in POLICIES else solve
    title = {"exact": "exact search", "cpsat-cards": "the card-by-card CP-SAT model"}.get(
        method, "the flow solver" if objective.trades else "CP-SAT")
    _refused(lambda: call(s, objective, method), f"{objective} by {title}")


def test_the_python_interface_loads_an_isla_built_in_and_solves_coop_as_the_command_line_does() -> None:
    """The default method comes from the registry with the position's expansion (exact search for
    Isla coop, as ``solve_endgame.py`` picks it); the flow solver, asked by name, refuses."""
    assert set(ISLA_LIBRARY) <= set(endgame.names())
    s = endgame.load("isla-rio4-5cards")
    assert s == ISLA_LIBRARY["isla-rio4-5cards"].position()
    sol = endgame.solve(s, "coop", time_limit=2)
    assert sol.stats.kind == "exact" and sol.status in ("optimal", "feasible")
    assert sol.bound is not None and sol.value <= sol.bound
    _refused(lambda: endgame.solve(s, "coop", method="cpsat"), "coop by the flow solver")


def test_the_solvers_called_directly_refuse_an_isla_position() -> None:
    s = ISLA_LIBRARY["isla-rio4-5cards"].position()
    _refused(lambda: exact.solve_solo(s), "the solo search")
    _refused(lambda: exact.solve_open(s, COOP), "the coop search")
    _refused(lambda: expected.solve_expected(s), "the expected solo search")
    _refused(lambda: trade_map(s), "the trade graph")
    _refused(lambda: duel.solve_duel(ISLA_LIBRARY["isla-duel-7cards"].position()), "the duel search")


# ---------------------------------------------------------------- the command line


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in proc.stderr and proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.mark.parametrize(("ruleset", "players", "seed", "cards_left"), [
    ("amigo", 2, 42, 6), ("rio-grande", 7, 41, 5)], ids=lambda x: str(x))
def test_solve_endgame_cuts_an_isla_position_from_a_seeded_game(ruleset: str, players: int, seed: int,
                                                                 cards_left: int, tmp_path: Path) -> None:
    game = ["--from-game", seed, "--players", players, "--cards-left", cards_left, "--ruleset", ruleset,
            "--option", "isla=true"]
    proc = run_script(SOLVE, *game, "--position-only", "--json")
    assert proc.returncode == 0, proc.stderr
    s = cut(ruleset, players, seed, cards_left, ISLA)
    assert json.loads(proc.stdout) == state_to_json(s)
    path = tmp_path / "cut.json"
    path.write_text(proc.stdout, encoding="utf-8")
    assert read_position(str(path)) == s
    text = run_script(SOLVE, *game, "--position-only")
    assert text.returncode == 0 and text.stdout.startswith(
        f"position: {ruleset} isla=true {players}p seed {seed}, the first turn of the final pass")
    assert "island rows: bohnbay" in text.stdout
    # cut, then refused by the flow solver
    err = one_line_error(run_script(SOLVE, *game, "--solver", "cpsat"))
    assert err.startswith("solve_endgame.py: best by the flow solver covers the base game; La Isla Bohnita "
                          "(I1-I9)")


@pytest.mark.parametrize(("args", "says"), [
    (["--option", "isla=maybe"], "option isla: 'maybe' is not true or false"),
    (["--option", "isla"], "option 'isla' must look like KEY=VALUE"),
    (["--option", "isla=true", "--ruleset", "amigo", "--players", "6"], "with La Isla Bohnita is for 2-5 "
     "players, not 6 (I2)"),
    (["--option", "isla=true", "--players", "8"], "with La Isla Bohnita is for 2-7 players, not 8 (I2)"),
    (["--option", "isla=true", "--from-game", "1", "--players", "7"], "rio-grande isla=true 7p seed 1: the "
     "game ended before a turn started with at most 10 cards left"),
], ids=["not-a-boolean", "no-value", "amigo-6p", "8p", "ends-early"])
def test_solve_endgame_refuses_bad_isla_input_in_one_line(args: list[str], says: str) -> None:
    err = one_line_error(run_script(SOLVE, "--from-game", "2", "--players", "4", "--cards-left", "10", *args,
                             "--position-only"))
    assert err.startswith("solve_endgame.py: ") and err.endswith(says), err


def test_a_broken_isla_file_is_one_line_for_every_tool(isla_json: dict[str, Any], tmp_path: Path) -> None:
    bad = copy.deepcopy(isla_json)
    bad["isla"]["sails"] = 9
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    why = f"{path}: isla.sails: 9 ship moves; max_sails is 6 [I4]"
    assert one_line_error(run_script(SOLVE, path, "--position-only")) == f"solve_endgame.py: {why}"
    assert one_line_error(run_script(SOLVE, path)) == f"solve_endgame.py: {why}"  # read before any solver
    assert one_line_error(run_script(SHOW, path, "--svg", tmp_path / "x.svg")) == f"show.py: {why}"


def test_position_only_draws_no_line() -> None:
    err = one_line_error(run_script(SOLVE, "isla-rio3-8cards", "--position-only", "--html", "x.html"))
    assert err.startswith("solve_endgame.py: --html draws a solved line; --position-only solves nothing")


def test_option_belongs_to_from_game() -> None:
    err = one_line_error(run_script(SOLVE, "rio4-8cards", "--option", "isla=true"))
    assert err == ("solve_endgame.py: --option sets the rules of the --from-game game; "
                   "a position carries its own")


def test_list_marks_the_isla_built_ins_and_solving_one_is_refused() -> None:
    proc = run_script(SOLVE, "--list")
    assert proc.returncode == 0, proc.stderr
    rows = {line.split()[0]: line for line in proc.stdout.splitlines()[1:]}
    assert set(rows) == set(BUILTINS)
    duels = {name for name in ISLA_LIBRARY if "duel" in name}
    mark = "[Isla: solo by exact search or CP-SAT, coop by exact search, best by exact search only]"
    assert all((mark in line) == (name in set(ISLA_LIBRARY) - duels) for name, line in rows.items())
    assert all("[Isla duel: duel by exact search only]" in rows[name] for name in duels)
    err = one_line_error(run_script(SOLVE, "isla-duel-7cards", "--objective", "solo"))
    assert err == "solve_endgame.py: solo does not apply to the Isla duel (I9)"


def test_show_draws_an_isla_built_in(tmp_path: Path) -> None:
    svg = tmp_path / "isla.svg"
    proc = run_script(SHOW, "isla-rio4-last-turn", "--svg", svg)
    assert proc.returncode == 0, proc.stderr
    assert "bohnbay" in svg.read_text(encoding="utf-8").lower()
