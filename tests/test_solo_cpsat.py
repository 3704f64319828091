"""The CP-SAT ``solo`` model (solvers/cpsat.py) against exact search, on seeded positions.

The full sweep is ``scripts/cross_check.py --positions 200``; here 20 positions with one worker
(deterministic), every built-in position, and the model's refusals.
"""

from __future__ import annotations

import pytest
from builders import load_script

from model import Phase, apply
from solvers.contract import SOLO, Limits, SolveError
from solvers.cpsat import card_stream, solve_solo_cpsat
from solvers.cross_check import positions as cross_check_positions
from solvers.exact import solve_solo
from solvers.positions import LIBRARY

POSITIONS = cross_check_positions(SOLO, 20, seed=7)


@pytest.mark.parametrize(("label", "s", "p"), POSITIONS, ids=[x[0] for x in POSITIONS])
def test_cpsat_and_exact_agree_on_seeded_positions(label, s, p):
    a = solve_solo(s, p)
    b = solve_solo_cpsat(s, p, Limits(60, workers=1))
    assert b.status == "optimal"
    assert a.value == b.value, label


@pytest.mark.parametrize("name", [n for n, e in LIBRARY.items() if e.players > 2])
def test_cpsat_line_replays_to_its_value_on_built_in_positions(name):
    s = LIBRARY[name].position()
    sol = solve_solo_cpsat(s, limits=Limits(workers=1))
    t = s
    for a in sol.line:
        t = apply(t, a)  # checked
    assert t.phase == Phase.OVER and len(t.players[sol.player].coins) == sol.value == solve_solo(s).value


def test_card_stream_is_the_same_whatever_p_does():
    s = LIBRARY["rio4-final-pass"].position()
    assert s.active == 2
    stream = card_stream(s, 2)
    assert stream.hand[: len(s.players[2].hand)] == s.players[2].hand
    assert len(stream.turns) >= 2 and all(len(t.face_up) <= 2 for t in stream.turns)
    sol = solve_solo(s, 2)  # a different line for P, the same cards reach P
    t = s
    drawn = list(s.players[2].hand)
    for a in sol.line:
        before = t
        t = apply(t, a)
        got = len(t.players[2].hand) - len(before.players[2].hand)
        if got > 0:
            drawn += t.players[2].hand[-got:]
    assert tuple(drawn) == stream.hand


def test_cpsat_refuses_what_it_does_not_model():
    with pytest.raises(SolveError, match="D1"):
        solve_solo_cpsat(LIBRARY["duel-4cards"].position())
    s = LIBRARY["rio4-8cards"].position()
    for a in solve_solo(s).line:
        s = apply(s, a)
        if s.planted == 1:
            break
    mid = s  # one planting made: not a turn start
    with pytest.raises(SolveError, match="start of a turn"):
        solve_solo_cpsat(mid)


@pytest.mark.parametrize("flag", ["--node-limit", "--positions", "--jobs"])
def test_cross_check_refuses_a_limit_below_one(flag, capsys):
    """``--node-limit 0`` once replaced every cut and looped forever; now one line and exit 2."""
    with pytest.raises(SystemExit) as stop:  # argparse refuses it before any work
        load_script("cross_check").main([flag, "0"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{flag} must be a whole number >= 1" in err
