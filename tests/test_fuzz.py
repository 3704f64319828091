"""The fuzz suite (conformance/fuzz.py) on a CI-sized sample, and one regression test per crash or
unreachable state it found (named after the rule the fix enforces; each fails on the old code).

The sample runs in this process (no worker processes, no timeout): a hang would show as a slow test.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import fuzz
from model import EMPTY, Field, GameState, Phase, legal_actions, new_game, ruleset
from model.actions import NotationError, parse_action
from model.dealing import Deal, Resume
from model.errors import PositionError
from model.state import state_to_json
from model.validate import check_state
from play.bots import BOTS
from play.playout import playout
from records.referee import check_record
from schemas.state_json import state_from_json

ROOT = Path(__file__).resolve().parent.parent
SEED = 7


def _outcome(kind: str, n: int, tmp_path: Path) -> fuzz.Outcome:
    out = fuzz.run_case(fuzz.Case(SEED, kind, n), str(tmp_path))
    assert out.status == "verdict", out.line()
    return out


@settings(max_examples=40)
@given(st.integers(0, 10**6))
def test_fuzz_records_no_crash_no_wrong_verdict(tmp_path_factory: pytest.TempPathFactory, n: int) -> None:
    _outcome("records", n, tmp_path_factory.mktemp("records"))


@settings(max_examples=25)
@given(st.integers(0, 10**6))
def test_fuzz_states_no_crash_no_wrong_verdict(tmp_path_factory: pytest.TempPathFactory, n: int) -> None:
    _outcome("states", n, tmp_path_factory.mktemp("states"))


@settings(max_examples=10)
@given(st.integers(0, 10**6))
def test_fuzz_positions_no_crash_no_wrong_verdict(tmp_path_factory: pytest.TempPathFactory, n: int) -> None:
    _outcome("positions", n, tmp_path_factory.mktemp("positions"))


@settings(max_examples=15)
@given(st.integers(0, 10**6))
def test_fuzz_options_no_crash_no_wrong_verdict(tmp_path_factory: pytest.TempPathFactory, n: int) -> None:
    _outcome("options", n, tmp_path_factory.mktemp("options"))


def test_fuzz_cases_are_reproducible_and_workers_catch_hangs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same id makes the same case; a case that never answers is a hang and the run goes on."""
    case = fuzz.Case(SEED, "records", 3)
    assert fuzz.make_record(case)[0] == fuzz.make_record(fuzz.parse_case(case.id))[0]
    slow = fuzz.RUNNERS["options"]

    def hang(c: fuzz.Case, workdir: str) -> fuzz.Outcome:
        if c.n == 1:
            while True:
                pass
        return slow(c, workdir)

    monkeypatch.setitem(fuzz.RUNNERS, "options", hang)  # the forked workers inherit it
    out = {o.case: o.status for o in fuzz.run_cases([fuzz.Case(SEED, "options", n) for n in range(3)],
                                                    workers=1, timeout=1.0, batch=3)}
    assert out == {f"{SEED}-options-0": "verdict", f"{SEED}-options-1": "hang",
                   f"{SEED}-options-2": "verdict"}


# ---------------------------------------------------------------- every reachable state passes


@pytest.mark.rule("E1")
@pytest.mark.parametrize(("name", "n", "options"), [
    ("rio-grande", 2, {}), ("rio-grande", 3, {}), ("rio-grande", 7, {}), ("amigo", 4, {}),
    ("amigo-v2", 5, {}), ("amigo-1997", 3, {}), ("rio-grande", 4, {"isla": True}),
    ("rio-grande", 2, {"isla": True}), ("rio-grande", 4, {"distinct_fields": True}),
])
def test_every_state_of_a_seeded_game_passes_check_state(name: str, n: int, options: dict[str, bool]) -> None:
    """check_state refuses only what the rules cannot reach: no state of a played game is refused."""
    for bot in ("random", "random-trader"):
        for s, _ in playout(new_game(ruleset(name, options), n, 11), BOTS[bot], random.Random(11)):
            check_state(s)


# ---------------------------------------------------------------- impossible states (item 2)


def _mid_game(phase: Phase, n: int = 4, options: dict[str, bool] | None = None,
              pending: bool = False) -> GameState:
    """The first state in ``phase`` of a seeded game (with an offer pending, if asked)."""
    for s, _ in playout(new_game(ruleset("rio-grande", options or {}), n, 5), BOTS["random-trader"],
                        random.Random(5)):
        if s.phase == phase and (s.pending is not None) == pending:
            check_state(s)
            return s
    raise AssertionError(f"no {phase} state")


def _refused(s: GameState, rule: str, field: str = "") -> PositionError:
    with pytest.raises(PositionError) as e:
        check_state(s)
    assert e.value.rule == rule, str(e.value)
    if field:
        assert e.value.field == field, str(e.value)
    assert "\n" not in str(e.value)
    return e.value


@pytest.mark.rule("E1")
def test_E1_an_empty_draw_pile_without_final_is_refused() -> None:
    """The issue's engine IndexError: an empty draw pile with final: false in phase 1."""
    s = _mid_game(Phase.PLANT)
    _refused(s._replace(draw=()), "E1", "draw")


@pytest.mark.rule("E2")
def test_E2_final_in_phase_1_or_with_cards_left_to_draw_is_refused() -> None:
    s = _mid_game(Phase.PLANT)
    _refused(s._replace(final=True, exhaustions=1), "E2", "final")
    t = _mid_game(Phase.TRADE)
    _refused(t._replace(final=True, exhaustions=1), "E2", "final")  # cards still in the draw pile


@pytest.mark.rule("T6")
def test_T6_phase_3_with_nothing_set_aside_is_refused() -> None:
    """The issue's StopIteration: phase plant_aside for a seat that has nothing set aside."""
    s = _mid_game(Phase.PLANT_ASIDE)
    players = tuple(p._replace(aside=()) if i == s.to_move else p for i, p in enumerate(s.players))
    _refused(s._replace(players=players), "T6", f"players[{s.to_move}].aside")


@pytest.mark.rule("T6")
def test_T6_phase_3_goes_in_turn_order() -> None:
    """A seat before the one to move (from the active seat, clockwise) has planted all it set aside."""
    for s, _ in playout(new_game("rio-grande", 4, 5), BOTS["random-trader"], random.Random(5)):
        if s.phase == Phase.PLANT_ASIDE and s.to_move != s.active:
            break
    else:
        raise AssertionError("no phase 3 with another seat to move")
    card = s.draw[-1:]  # a card of the draw pile set aside by the active seat, which planted before
    players = tuple(p._replace(aside=tuple(sorted(p.aside + card))) if i == s.active else p
                    for i, p in enumerate(s.players))
    _refused(s._replace(players=players, draw=s.draw[:-1]), "T6", f"players[{s.active}].aside")


@pytest.mark.rule("T3")
def test_T3_a_pending_offer_outside_phase_2_is_refused() -> None:
    s = _mid_game(Phase.TRADE, pending=True)
    t = _mid_game(Phase.PLANT)
    _refused(t._replace(pending=s.pending), "T3", "pending")


@pytest.mark.rule("T5")
def test_T5_face_up_cards_in_phase_1_are_refused() -> None:
    s = _mid_game(Phase.PLANT)
    _refused(s._replace(face_up=s.draw[:1], draw=s.draw[1:]), "T5", "face_up")


@pytest.mark.rule("E1")
def test_E1_cards_to_deal_and_a_resumed_step_only_at_a_reshuffle() -> None:
    s = _mid_game(Phase.PLANT)
    _refused(s._replace(todo=(Deal.FACE_UP,)), "E1", "todo")
    _refused(s._replace(resume=Resume.DRAWING), "E1", "resume")
    c = _mid_game(Phase.CHANCE)
    _refused(c._replace(resume=3), "E1", "resume")
    _refused(c._replace(draw=c.discard[-1:], discard=c.discard[:-1]), "E1", "draw")
    _refused(c._replace(todo=(True,)), "E1", "todo")  # a JSON true is not seat 1


@pytest.mark.rule("E3")
def test_E3_a_game_over_with_planted_fields_is_refused() -> None:
    s = _mid_game(Phase.OVER)
    p0 = s.players[0]
    grown = p0._replace(fields=(Field(s.discard[-1], 1),) + p0.fields[1:])  # the top discard planted
    t = s._replace(players=(grown,) + s.players[1:], discard=s.discard[:-1])
    _refused(t, "E3", "players[0].fields[0]")


@pytest.mark.rule("T1")
def test_T1_plantings_and_the_first_field_agree() -> None:
    s = _mid_game(Phase.PLANT)
    _refused(s._replace(planted=0, first_field=1), "T1", "first_field")
    t = _mid_game(Phase.TRADE)
    if t.players[t.active].hand:
        _refused(t._replace(planted=0, first_field=-1), "T1", "planted")


@pytest.mark.rule("C2")
def test_C2_a_field_of_2_64_cards_is_refused_not_an_overflow() -> None:
    s = new_game("rio-grande", 4, 1)
    p0 = s.players[0]
    huge = p0._replace(fields=(Field(s.setup.beans[0], 2**64), EMPTY))
    _refused(s._replace(players=(huge,) + s.players[1:]), "C2", "players[0].fields[0]")


@pytest.mark.rule("E1")
def test_E1_an_impossible_state_file_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    """scripts/perft.py (via read_position) on a state with an empty draw pile and final: false."""
    obj = state_to_json(_mid_game(Phase.PLANT)._replace(draw=()))
    path = tmp_path / "s.json"
    path.write_text(json.dumps(obj))
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "perft.py"), str(path), "1"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and "[E1]" in run.stderr


def test_every_conformance_state_still_loads() -> None:
    for path in sorted((ROOT / "tests" / "conformance").glob("*/*.json")):
        obj = json.loads(path.read_text())
        check_state(state_from_json(obj["state"] if "state" in obj else obj))


# ---------------------------------------------------------------- notation and the --z3 referee


@pytest.mark.rule("S")
@pytest.mark.parametrize("text", ["p0 plant " + "9" * 5000, "p" + "9" * 30 + " end",
                                  "p0 accept h1,h" + "9" * 12, "p0 plant u" + "9" * 10 + " 0",
                                  "p0 offer p1 give h" + "9" * 4400],
                         ids=["field-5000-digits", "seat-30", "hand-12", "face-up-10", "give-4400"])
def test_S_a_huge_index_in_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_action(text)
    assert len(str(e.value)) < 300
    assert parse_action("p0 plant 123456789").field == 123456789  # type: ignore[union-attr]


def _z3(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "check_record.py"), "--z3", str(path)],
                          capture_output=True, text=True, cwd=ROOT)


@pytest.mark.rule("S")
def test_S_z3_names_a_seat_that_does_not_exist() -> None:
    """The project's own fixture crashed check_record.py --z3 (IndexError in proofs/spec.py)."""
    run = _z3(ROOT / "tests" / "conformance" / "records" / "illegal" / "s-no-such-seat.jsonl")
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr and "the spec agrees" in run.stderr + run.stdout


@pytest.mark.rule("I1")
def test_I1_z3_refuses_an_isla_move_in_a_base_game_record(tmp_path: Path) -> None:
    """A TypeError in proofs/bridge.py before: both referees now name the line (I1)."""
    legal = sorted((ROOT / "tests" / "conformance" / "records" / "legal").glob("*.jsonl"))
    base = next(p for p in legal if '"isla":false' in p.read_text().splitlines()[0].replace(" ", ""))
    lines = base.read_text().splitlines()
    lines.insert(2, json.dumps({"action": "p0 sail m0 bohnbay 1"}))
    path = tmp_path / "isla-move.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert check_record(str(path)).rule == "I1"
    run = _z3(path)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr and "the spec agrees" in run.stderr + run.stdout


def test_legal_actions_of_a_reachable_state_all_apply() -> None:
    """The REACH oracle on one state of each phase of a seeded game (a few hundred actions)."""
    seen = set()
    for s, _ in playout(new_game("rio-grande", 4, 9), BOTS["random-trader"], random.Random(9)):
        if s.phase not in seen:
            seen.add(s.phase)
            fuzz.closure(s, random.Random(0))
            assert s.phase in (Phase.CHANCE, Phase.OVER) or legal_actions(s)



@pytest.mark.rule("T3")
def test_T3_a_pending_offer_of_cards_the_active_player_does_not_hold_is_refused() -> None:
    """Found by ``scripts/fuzz.py --seed 1`` (case 1-states-952): with hand and set-aside swapped, the
    pending offer named hand positions past the hand, and accepting it raised IndexError."""
    import dataclasses

    s = _mid_game(Phase.TRADE, pending=True)
    held = len(s.players[s.active].hand)
    assert s.pending is not None
    past = dataclasses.replace(s.pending, give_hand=(held,), give_up=())
    assert "the offer gives h" in str(_refused(s._replace(pending=past), "T3", "pending"))
    twice = dataclasses.replace(s.pending, give_hand=(), give_up=(0, 0))
    _refused(s._replace(pending=twice), "T3", "pending")
