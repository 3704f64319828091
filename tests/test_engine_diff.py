"""The live harness (scripts/diff_engine.py, docs/engine-protocol.md): our engine behind the protocol
in another process agrees with itself; each mutant of the catalog is found with its rule ID and
shrunk to a record check_record.py flags; a shim with another vocabulary (1-based fields, German
bean names) maps onto the protocol; a shim with one hard-wired reading is explained by that
reading; shims that crash, hang or answer garbage get one line each and the run goes on."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_sigint import interrupt

from conformance.live.client import Engine, EngineFailure
from conformance.live.diff import GameSpec, claimed, plan, run_game
from conformance.live.shrink import check_reproducer, shrink
from model import BEAN_NAMES, ruleset
from proofs.mutants import FOUND_AS, MUTANTS
from schemas.shapes import problem

ROOT = Path(__file__).resolve().parent.parent
SHIM = f"{sys.executable} {ROOT / 'docs' / 'examples' / 'engine_shim.py'}"
VOCAB = f"{sys.executable} {ROOT / 'tests' / 'engine_shims' / 'vocab_shim.py'}"
SCRIPT = ROOT / "scripts" / "diff_engine.py"
SAME_RULE = FOUND_AS  # the rules a mutant's break may be found under (proofs/mutants.py)


def _diff(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_our_engine_in_another_process_has_no_divergence() -> None:
    run = _diff("--engine", SHIM, "--games", "20", "--json")
    assert run.returncode == 0, run.stderr
    info = json.loads(run.stdout)
    from conformance.live.diff import perft_positions

    # issue 43: the count says how many games came from the perft positions
    assert info["games"] == 20 + len(perft_positions()) and info["from_positions"] == len(perft_positions())
    assert info["divergences"] == 0 and not info["failures"] and not info["skipped"]
    assert info["steps"] > 2000


def test_the_entry_point_form_runs_the_same_shim() -> None:
    run = _diff("--engine", "docs.examples.engine_shim:factory", "--games", "3", "--no-positions")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("bohnanza-reference: 3 games played (3 seeded, 0 from the perft positions)")


def test_protocol_replies_have_their_schema() -> None:
    with Engine(SHIM) as engine:
        hello = engine.open()
        assert problem("engine-hello", hello) is None
        assert ("amigo", 3) in claimed(hello) and ("rio-grande", 7) in claimed(hello)
        assert engine.ask("frobnicate")["unsupported"]
        with pytest.raises(EngineFailure, match="no game started"):
            engine.ask("legal")


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_a_mutant_is_found_with_its_rule_and_shrunk_to_a_flagged_record(mutant: str) -> None:
    """Every mutant of the catalog (STEPS.replaced): found in at most 10 games, shrunk within 60
    replays (a count, not a time) to at most 40 actions, and check_record.py flags the reproducer
    as illegal on the divergent line with the rule of the divergence."""
    m = MUTANTS[mutant]
    with Engine(f"{SHIM} --mutant {mutant}") as engine:
        first = None
        for spec in plan(claimed(engine.open()), 10, 1, positions=False):
            if engine.proc is None:
                engine.open()
            run = run_game(engine, spec)
            assert run.failure is None
            if run.divergences:
                first = run.divergences[0]
                break
        assert first is not None, f"{mutant} survived 10 games"
        assert first.rule in SAME_RULE.get(m.rule, {m.rule}), first.line()
        rep = shrink(engine, first, budget=60, seconds=1e9)
    assert rep is not None and rep.actions <= 40, rep and rep.summary()
    verdict = check_reproducer(rep)
    assert verdict["status"] == "illegal" and verdict["line"] == rep.flagged, verdict
    assert verdict["rule"] == rep.divergence.rule and verdict["rule"] in SAME_RULE.get(m.rule, {m.rule})
    if rep.divergence.kind in ("extra", "accepted"):  # the reason reported is check_record's (issue 60)
        assert rep.divergence.what.endswith(f"which our engine refuses: {verdict['reason']}"), verdict
    assert rep.divergence.spec.players <= first.spec.players
    # no divide shows a result; a state one only where the next legal actions differ (issue 42)
    assert rep.divide or rep.divergence.kind in ("end", "state")
    assert all("ours 0" in line or "the engine 0" in line or "lacks" in line or "adds" in line
               for line in rep.divide), rep.divide  # only differing divide lines


def test_a_shim_with_another_vocabulary_agrees_and_says_what_it_cannot_answer() -> None:
    run = _diff("--engine", VOCAB, "--games", "6", "--json")
    assert run.returncode == 0, run.stderr
    info = json.loads(run.stdout)
    assert info["divergences"] == 0 and info["games"] == 6
    assert any("proposals" in part for part in info["unchecked"])
    assert info["skipped"] and "state" in info["skipped"][0] or "Stapel" in info["skipped"][0]


def _readings(engine: str, *args: str) -> dict[str, Any]:
    run = _diff("--engine", engine, "--games", "3", "--no-positions", "--no-shrink", "--readings",
                "--reading-games", "3", "--json", *args, timeout=300)
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stderr
    readings: dict[str, Any] = json.loads(run.stdout)["readings"]
    return readings


def test_H4_readings_are_judged_at_the_same_states_not_by_how_long_bot_games_last() -> None:
    # issue 60 item 4: an engine whose every harvest is wrong (C1: it pays one card early) and that
    # plays H4's lenient reading whatever it is asked (faq_shim --lenient-only) was ranked harvest=strict
    # first (0 of 20 games to the end, 332 steps agreed against 213): under strict its bots harvest less
    # and meet the bug later. Judged at the same states, the engine lists the harvests strict forbids:
    # the lenient reading (the presets' own) beats strict where the two differ, and strict comes last
    engine = f"{sys.executable} {ROOT / 'tests' / 'engine_shims' / 'faq_shim.py'} --lenient-only "
    engine += "--mutant beanometer-off-by-one"
    info = _readings(engine, "--readings-states", "40")
    by = {r["label"]: r for r in info["ranked"]}
    strict, lenient = by["harvest=strict"], by["the presets' own options"]
    assert info["ranked"][-1]["label"] == "harvest=strict" and not strict["tied"], info["ranked"]
    assert "harvest=strict" in lenient["beats"] and strict["beats"] == [], info["ranked"]
    assert lenient["agreed"] > strict["agreed"] and strict["judged"] > 0, info
    assert info["states_judged"] == 40 and info["states_differing"] > 40 and info["engine_calls"] > 40 * 9
    # the catalog's mutant that allows every harvest of a protected single (H4) under both readings:
    # it agrees with lenient where lenient and strict differ (no field holds more than one card)
    mutant = _readings(f"{SHIM} --mutant harvest-protected-single", "--readings-states", "40")["ranked"]
    assert mutant[-1]["label"] == "harvest=strict" and mutant[0]["label"] != "harvest=strict", mutant
    run = _diff("--engine", engine, "--games", "3", "--no-positions", "--no-shrink", "--readings",
                "--reading-games", "3", "--readings-states", "40", timeout=300)
    line = next(x for x in run.stdout.splitlines() if x.startswith("readings: "))
    assert line.startswith("readings: the engine follows ") and "then harvest=strict agrees at " in line, line
    assert "states where the readings differ (--readings-states 40)" in line and " engine calls, " in line


def test_H4_readings_name_the_reading_of_an_engine_that_cannot_start_from_a_state() -> None:
    # vocab_shim --nur-streng plays H4 strict whatever it is asked and starts from a deck only: each
    # state is reached by replaying its game from the deck under each reading (a move it refuses
    # that ours allows under the reading: it disagrees there), within the calls --readings-states allows
    info = _readings(f"{VOCAB} --nur-streng", "--readings-states", "20")
    ranked = info["ranked"]
    assert ranked[0]["label"] == "harvest=strict" and not ranked[1]["tied"], ranked
    assert "the presets' own options" in ranked[0]["beats"] and ranked[0]["agreed"] == ranked[0]["judged"] > 0
    assert any(x.startswith("a start from a state (the engine cannot)") for x in info["unchecked"])
    assert info["engine_calls"] < 20 * len(ranked) * 4 + 1000  # the budget, and the last state's replays


def test_E1_a_declared_option_value_does_not_hide_its_alternatives() -> None:
    # issue 60 item 4: an engine on the on-demand reshuffle that declares it (E1): reshuffle=at-exhaustion
    # is still judged (it was never tried), and the declared value comes first
    engine = f"{sys.executable} {ROOT / 'tests' / 'engine_shims' / 'bazaar_shim.py'} --on-demand "
    engine += "--declare-on-demand"
    info = _readings(engine, "--readings-states", "30")
    by = {r["label"]: r for r in info["ranked"]}
    declared, other = by["reshuffle=on-demand (declared)"], by["reshuffle=at-exhaustion"]
    assert declared["declared"] and not other["declared"] and other["judged"] > 0
    assert other["played"]["reshuffle"] == "at-exhaustion" and "the presets' own options" not in by
    assert declared["agreed"] > other["agreed"] and info["ranked"][0]["label"] != "reshuffle=at-exhaustion"


def test_E4_readings_no_state_separates_are_a_tie_with_what_would_separate_them() -> None:
    # issue 60 item 4: our engine behind the protocol plays every reading it is asked: every reading
    # agrees wherever judged; readings the games never separate are a tie that says so, never an order
    info = _readings(SHIM, "--readings-states", "20")
    best = info["ranked"][0]
    assert all(r["agreed"] == r["judged"] for r in info["ranked"]) and best["agreed"] > 0
    assert all(r["tied"] for r in info["ranked"][1:]) and not best["tied"]  # one tie: none beats another
    assert all(r["beats"] == [] for r in info["ranked"])
    notes = list(best["separated_by"].values())
    assert len(notes) == len(info["ranked"]) - 1
    assert any(" differ at " in n and " states judged; the engine agrees with " in n for n in notes), notes
    assert any(n.startswith("no state in these games where ") for n in notes), notes
    text = _diff("--engine", SHIM, "--games", "3", "--no-positions", "--no-shrink", "--readings",
                 "--reading-games", "3", "--readings-states", "20", timeout=300).stdout
    tie = next(x for x in text.splitlines() if x.startswith("  tie "))
    assert " differ (more games, --reading-games, may)" in tie, tie


BROKEN = {
    "crash": "if req['cmd'] == 'start':\n        sys.stderr.write('boom\\n'); sys.exit(3)",
    "hang": "if req['cmd'] == 'legal':\n        time.sleep(60)",
    "garbage": "if req['cmd'] == 'start':\n        print('<<not json>>', flush=True); continue",
}


@pytest.mark.parametrize("kind", list(BROKEN))
def test_a_broken_shim_gets_one_line_per_game_and_the_run_goes_on(kind: str, tmp_path: Path) -> None:
    shim = tmp_path / f"{kind}.py"
    shim.write_text(
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        f"    {BROKEN[kind]}\n"
        "    if req['cmd'] == 'hello':\n"
        "        out = {'name': 'broken', 'protocol': 1, 'presets': {'amigo': [3]}}\n"
        "    elif req['cmd'] == 'start':\n"
        "        out = {'ok': True}\n"
        "    else:\n"
        "        out = {'unsupported': 'no'}\n"
        "    print(json.dumps({'id': req['id'], **out}), flush=True)\n")
    run = _diff("--engine", f"{sys.executable} {shim}", "--games", "2", "--no-positions",
                "--timeout", "2")
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("diff_engine.py: game ") for line in lines), lines
    want = {"crash": "engine failed on start amigo 3p: the engine exited with code 3; its last words: boom",
            "hang": "engine failed on legal: no reply within 2 s",
            "garbage": "engine failed on start amigo 3p: the reply is not JSON"}[kind]
    assert want in lines[0] and want in lines[1]


def test_an_engine_that_cannot_start_is_bad_usage(tmp_path: Path) -> None:
    run = _diff("--engine", str(tmp_path / "missing-shim"), "--games", "1")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and "cannot run" in run.stderr


def test_the_hello_after_a_start_obeys_the_timeout() -> None:
    """Issue 61: an engine that never says hello was waited on for 30 s whatever --timeout said."""
    run = _diff("--engine", "sleep 1000", "--games", "1", "--timeout", "0.25")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr == "diff_engine.py: sleep 1000: engine failed on hello: no reply within 0.25 s\n"


def test_a_replayed_game_plays_its_actions_where_legal() -> None:
    spec = GameSpec(0, "amigo", 3, seed=5, actions=(None,) * 3, max_steps=3)
    with Engine(SHIM) as engine:
        engine.open()
        run = run_game(engine, spec)
    assert run.steps == 3 and not run.divergences


def test_ctrl_c_reports_what_was_found() -> None:
    # Ctrl-C once the progress line counts a divergence (exit 130: tests/test_sigint.py's helper)
    engine = f"{SHIM} --mutant harvest-protected-single"
    argv = ["diff_engine.py", "--engine", engine, "--games", "200", "--no-shrink", "--progress"]
    _, out, err = interrupt(argv, r"\([1-9]\d* causes?\)")
    assert "\nH4 extra harvest: in " in out and "reproducer (not shrunk: interrupted): " in out
    assert "Traceback" not in err and "interrupted; " in err and "of divergence found in" in err


def test_claims_on_a_record_line_are_judged_with_the_rule_of_the_step() -> None:
    from conformance.live.shrink import check_lines
    from model import apply, legal_actions, new_game
    from records.game import action_line, header

    s = new_game(ruleset("amigo"), 3, 7)
    first = legal_actions(s, proposals=False)[0]
    after = apply(s, first)
    right = {"players": [{"coins": 0, "hand": [BEAN_NAMES[c] for c in p.hand]} for p in after.players],
             "phase": after.phase.name.lower(), "draw": len(after.draw)}
    lines = [header(s, seed=7), {**action_line(first), "claims": right}]
    assert check_lines(lines)["status"] == "legal"
    for wrong, rule in (({"phase": "over"}, "E2"), ({"players": [{"coins": 1}, {}, {}]}, "C1")):
        verdict = check_lines([lines[0], {**action_line(first), "claims": {**right, **wrong}}])
        assert (verdict["status"], verdict["line"], verdict["rule"]) == ("illegal", 2, rule), verdict


def test_sigterm_keeps_the_partial_report_with_its_reproducers(tmp_path: Path) -> None:
    # SIGTERM (as `timeout` sends it) once a divergence is counted: exit 130, the JSON report and the
    # reproducer files of what was found (tests/engine_shims/faq_shim.py lists no give of two cards of
    # one type, T3)
    engine = f"{sys.executable} {ROOT / 'tests' / 'engine_shims' / 'faq_shim.py'} --one-of-a-type"
    argv = ["diff_engine.py", "--engine", engine, "--games", "200", "--json", "--progress",
            "--out", str(tmp_path / "repro")]
    _, out, err = interrupt(argv, r"\([1-9]\d* causes?\)", sig=signal.SIGTERM)
    info = json.loads(out)
    assert info["divergences"] > 0 and "interrupted; " in err, err
    examples = [ex for entry in info["by_rule"].values() for ex in entry["examples"]]
    assert examples and all("shrunk" in ex and ex["check_record"]["status"] for ex in examples)
    assert sorted(p.name for p in (tmp_path / "repro").iterdir())


def test_a_reproducer_from_a_perft_position_keeps_its_players() -> None:
    spec = GameSpec(0, "amigo", 5, seed=3, position="amigo-5p-trade", max_steps=60)
    with Engine(f"{SHIM} --mutant harvest-protected-single") as engine:
        engine.open()
        d = run_game(engine, spec).divergences[0]
        rep = shrink(engine, d, seconds=20)
    assert rep is not None and rep.summary()["players"] == 5 and len(rep.divergence.before.players) == 5


def test_games_counts_agree_on_an_engine_that_plays_one_reading() -> None:
    # the engine refuses every game but the on-demand reshuffle's (E1): --games 8 still plays 8
    engine = f"{sys.executable} {ROOT / 'tests' / 'engine_shims' / 'faq_shim.py'} --on-demand-only"
    run = _diff("--engine", engine, "--games", "8", "--no-shrink", "--no-positions", "--json")
    info = json.loads(run.stdout)
    assert info["games"] == 8 and info["from_positions"] == 0 and info["skipped"], info
    text = _diff("--engine", engine, "--games", "8", "--no-shrink", "--no-positions").stdout
    n = len(info["skipped"])
    assert f"8 games played (8 seeded, 0 from the perft positions), {n} games not played" in text, text
    assert f"\n{n} games not played by the engine ({n} seeded, 0 from the perft positions); the first" in text


def test_T3_one_naming_restriction_is_one_cause_not_thousands_of_divergences() -> None:
    # no give of two cards of one type (faq_shim --one-of-a-type): every such give is missing (T3),
    # hundreds a trading state; the report names one cause, the games it touched
    engine = f"{sys.executable} {ROOT / 'tests' / 'engine_shims' / 'faq_shim.py'} --one-of-a-type"
    run = _diff("--engine", engine, "--games", "3", "--no-positions", "--json", "--shrink-time", "5")
    assert run.returncode == 1, run.stderr
    info = json.loads(run.stdout)
    assert [c["name"] for c in info["causes"]] == ["T3 missing offer"], info["causes"]
    cause = info["causes"][0]
    assert cause["count"] == info["divergences"] > 100 and cause["games"] and cause["first"]["shrunk"]
    assert info["by_rule"]["T3"]["kinds"] == {"missing": info["divergences"]}  # the raw count stays
    text = _diff("--engine", engine, "--games", "3", "--no-positions", "--no-shrink").stdout
    assert text.splitlines()[0].endswith(", 1 cause of divergence: T3 missing offer"), text
    assert text.splitlines()[1].startswith(f"T3 missing offer: in {len(cause['games'])} game"), text


def test_two_independent_bugs_are_both_found_past_the_first_or_with_ignore() -> None:
    # two independent bugs: every paying harvest pays one card early (C1) and the game ends without
    # the final harvest (E3); the first ends every game at its first harvest, hiding the second
    engine = (f"{sys.executable} {ROOT / 'tests' / 'engine_shims' / 'faq_shim.py'} "
              "--mutant beanometer-off-by-one --mutant skip-final-harvest")
    args = ("--engine", engine, "--games", "4", "--no-positions", "--no-shrink", "--json")
    both = json.loads(_diff(*args).stdout)  # by default: on from our state past each divergence
    assert [c["rule"] for c in both["causes"]] == ["C1", "E3"] and both["masked"] == []
    assert all(len(c["games"]) == 4 for c in both["causes"])
    first = json.loads(_diff(*args, "--first-only").stdout)
    assert [c["rule"] for c in first["causes"]] == ["C1"] and first["masked"] == []
    run = _diff(*args, "--ignore", "C1")
    assert run.returncode == 1, run.stderr
    past = json.loads(run.stdout)
    assert [c["rule"] for c in past["causes"]] == ["E3"] and past["ignored"] == ["C1"]
    assert [m["name"] for m in past["masked"]] == ["C1 state coins"] and past["steps"] > 10 * first["steps"]
    text = _diff(*args[:-1], "--ignore", "C1 state").stdout
    assert "\nmasked (--ignore C1 state; the run went past them): C1 state coins in 4 games\n" in text, text


def test_ignore_takes_a_rule_id_or_a_cause_else_one_line_and_exit_2() -> None:
    run = _diff("--engine", SHIM, "--ignore", "missing T3")
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "is not a cause" in run.stderr


def test_two_independent_bugs_each_one_cause_with_a_reproducer_check_record_flags() -> None:
    # issue 60, done when: an engine with two independent bugs (C1: harvests pay one card early; E3: the
    # game ends without the final harvest), both found in one run, each one cause, each with a shrunk
    # reproducer that check_record.py flags on the line the harness names, with the cause's rule
    engine = (f"{sys.executable} {ROOT / 'tests' / 'engine_shims' / 'faq_shim.py'} "
              "--mutant beanometer-off-by-one --mutant skip-final-harvest")
    run = _diff("--engine", engine, "--games", "4", "--no-positions", "--json", "--shrink-time", "5")
    assert run.returncode == 1, run.stderr
    info = json.loads(run.stdout)
    assert [c["rule"] for c in info["causes"]] == ["C1", "E3"], [c["name"] for c in info["causes"]]
    for cause in info["causes"]:
        first = cause["first"]
        verdict, shrunk = first["check_record"], first["shrunk"]
        assert shrunk["shrunk"] and shrunk["line"] is not None, cause
        flagged = verdict["status"], verdict["line"], verdict["rule"]
        assert flagged == ("illegal", shrunk["line"], cause["rule"]), cause


SEVERAL_BEFORE = [("plant-from-back", 4), ("third-planting", 4), ("split-swapped", 4), ("skip-aside", 4),
                  ("lose-face-up", 4), ("wrong-tie-break", 8)]  # several causes (or none) before issue 60d


@pytest.mark.parametrize(("mutant", "games"), SEVERAL_BEFORE)
def test_a_mutant_is_one_cause_under_its_own_rule(mutant: str, games: int) -> None:
    # issue 60, done when: each catalog mutant found as one cause under its own rule (those that gave
    # several causes before; all 16: bench.py mutants). What the same wrong move gives elsewhere is
    # counted as the cause's consequence; wrong-tie-break needs a tie for most coins (games 4 and 5)
    run = _diff("--engine", f"{SHIM} --mutant {mutant}", "--games", str(games), "--no-positions",
                "--no-shrink", "--json")
    assert run.returncode == 1, run.stderr
    info = json.loads(run.stdout)
    rule = MUTANTS[mutant].rule
    assert [c["rule"] in SAME_RULE.get(rule, {rule}) for c in info["causes"]] == [True], info["causes"]
    cause = info["causes"][0]
    assert cause["count"] + sum(x["count"] for x in cause["consequences"]) == info["divergences"]


def test_a_reproducer_per_cause_named_none_for_its_consequences(tmp_path: Path) -> None:
    # plant-from-back (H1): the plants of the wrong card refused or accepted are the cause's
    # consequences; the one cause gets the reproducer, flagged by check_record.py under H1
    run = _diff("--engine", f"{SHIM} --mutant plant-from-back", "--games", "2", "--no-positions", "--json",
                "--shrink-time", "3", "--out", str(tmp_path))
    info = json.loads(run.stdout)
    (cause,) = info["causes"]
    assert cause["name"] == "H1 state hand" and cause["consequences"], cause
    assert cause["first"]["check_record"]["rule"] == "H1", cause["first"]
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["H1-state-hand.jsonl", "H1-state-hand.position.json"], files
