"""Protocol choices are not rule breaks (issue 42, docs/engine-protocol.md "Protocol choices"): shims
written as an outside author would, for engines with several open offers (and one real T3 bug), a
phase 3 played at once, and a third field paid with the oldest coins. The rules are compared, the
protocol is mapped and reported in its own section, and each difference names its rule and cards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from conformance.engine_client import Engine
from conformance.engine_diff import Checks, claimed, plan, run_game
from conformance.engine_protocol import from_hello

ROOT = Path(__file__).resolve().parent.parent
SHIMS = ROOT / "tests" / "engine_shims"
SCRIPT = ROOT / "scripts" / "diff_engine.py"


def _shim(name: str, *flags: str) -> str:
    return " ".join([sys.executable, str(SHIMS / f"{name}_shim.py"), *flags])


def _diff(engine: str, *args: str) -> tuple[int, dict[str, Any]]:
    run = subprocess.run([sys.executable, str(SCRIPT), "--engine", engine, "--no-positions", "--json", *args],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert "Traceback" not in run.stderr, run.stderr
    return run.returncode, json.loads(run.stdout)


def test_T3_open_offers_are_protocol_and_the_non_active_deal_is_the_only_rule_break() -> None:
    with Engine(_shim("bazaar")) as engine:
        hello = engine.open()
        checks = Checks(protocol=from_hello(hello))
        runs = [run_game(engine, spec, checks) for spec in plan(claimed(hello), 3, 1, positions=False)]
    flags = [d for r in runs for d in r.divergences]
    notes = [n for r in runs for n in r.notes]
    assert flags and {d.key for d in flags} == {("accepted", "T3")}
    for d in flags:  # the bug: two non-active players trade, and nothing else
        assert d.action is not None and " offer " in d.action
        seat, partner = int(d.action.split()[0][1:]), int(d.action.split()[2][1:])
        assert d.before.active not in (seat, partner), d.line()
    assert notes and {n.choice for n in notes} == {"concurrent_offers"} and all(n.declared for n in notes)


def test_T3_undeclared_open_offers_go_to_the_protocol_section_with_a_hint() -> None:
    code, info = _diff(_shim("bazaar", "--undeclared", "--fixed"), "--games", "3")
    assert code == 0 and info["divergences"] == 0 and info["by_rule"] == {}
    entry = info["protocol"]["differences"]["concurrent_offers"]
    assert entry["count"] > 0 and not entry["declared"] and entry["rule"] == "T3"
    assert '"concurrent_offers": true' in entry["hint"] and " offer " in entry["first"]


def test_T6_phase_3_at_once_is_protocol() -> None:
    code, info = _diff(_shim("together"), "--games", "3")
    assert code == 0 and info["divergences"] == 0
    assert info["protocol"]["declared"] == {"simultaneous_phase3": True}
    entry = info["protocol"]["differences"]["simultaneous_phase3"]
    assert entry["declared"] and entry["rule"] == "T6" and "hint" not in entry
    code, info = _diff(_shim("together", "--undeclared"), "--games", "3")
    assert code == 0 and info["divergences"] == 0
    assert "simultaneous_phase3" in info["protocol"]["differences"]["simultaneous_phase3"]["hint"]


def test_F1_the_oldest_coins_pay_and_a_fixed_tie_break_is_played() -> None:
    code, info = _diff(_shim("oldcoins"), "--games", "4")
    assert code == 0 and info["divergences"] == 0 and not info["skipped"] and info["games"] == 4
    assert info["protocol"]["declared"] == {"coin_payment": "oldest", "options": {"tie_break": "hand"}}
    code, info = _diff(_shim("oldcoins", "--undeclared"), "--games", "4")
    assert code == 0 and info["divergences"] == 0
    entry = info["protocol"]["differences"]["coin_payment"]
    assert entry["rule"] == "F1" and '"coin_payment": "oldest"' in entry["hint"]
    assert "the engine pays with other coin cards (soy, soy, garden" in entry["first"]


def test_a_declared_option_no_preset_plays_is_one_line(tmp_path: Path) -> None:
    shim = tmp_path / "odd.py"
    shim.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        "    out = {'name': 'odd', 'protocol': 1, 'declares': {'options': {'tie_break': 'coin-flip'}}}\n"
        "    print(json.dumps({'id': req['id'], **out}), flush=True)\n")
    argv = [sys.executable, str(SCRIPT), "--engine", f"{sys.executable} {shim}", "--games", "1"]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and 'declares.options.tie_break' in run.stderr, run.stderr
