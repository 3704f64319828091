"""Ctrl-C on every long tool (issue 15): SIGINT in the middle of the work ends the run with exit
130 within 2 s, one line on stderr saying what was kept, no traceback, and the partial results
intact (records written so far are whole and legal)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from builders import OUTSIDE

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"


def interrupt(args: list[str], ready: str, cwd: Path = ROOT, wait: float = 60.0, delay: float = 0.0,
              sig: int = signal.SIGINT) -> tuple[float, str, str]:
    """Start a script, send SIGINT (or ``sig``) once its stderr matches ``ready`` (the work has begun;
    with ``delay``, that many seconds after the start instead), and return (seconds from the signal
    to exit, stdout, stderr); the exit code must be 130."""
    proc = subprocess.Popen([sys.executable, str(SCRIPTS / args[0]), *args[1:]], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stderr is not None and proc.stdout is not None
    err: list[str] = []
    seen = threading.Event()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            err.append(line)
            if re.search(ready, line):
                seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    out_parts: list[str] = []
    pump = threading.Thread(target=lambda: out_parts.append(proc.stdout.read() if proc.stdout else ""),
                            daemon=True)
    pump.start()
    if delay:
        time.sleep(delay)
    elif not seen.wait(wait):
        proc.kill()
        raise AssertionError(f"{args[0]} never showed {ready!r}: {''.join(err)[-500:]}")
    proc.send_signal(sig)
    t0 = time.monotonic()
    try:
        code = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError(f"{args[0]} ignored signal {sig} for 10 s") from None
    seconds = time.monotonic() - t0
    reader.join(5)
    pump.join(5)
    stderr = "".join(err)
    assert code == 130, f"{args[0]}: exit {code}: {stderr[-800:]}"
    assert "Traceback" not in stderr, stderr
    return seconds, "".join(out_parts), stderr


def last_line(stderr: str, name: str) -> str:
    lines = [x for x in stderr.splitlines() if x.startswith(f"{name}: ")]
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"{name}: interrupted"), lines[0]
    return lines[0]


def test_simulate_keeps_whole_records(tmp_path: Path) -> None:
    out = tmp_path / "games"
    seconds, _, err = interrupt(["simulate.py", "--players", "4", "--games", "5000", "--seed", "3",
                                 "--record", str(out), "--progress"], r"games: [1-9]")
    assert seconds < 2
    line = last_line(err, "simulate.py")
    assert str(out) in line
    written = sorted(out.glob("game-*.jsonl"))
    assert written and not list(out.glob(".*"))  # no temporary file left behind
    from records.referee import check_record

    for path in written:  # every record written before the interrupt is whole and legal
        assert check_record(str(path)).status == "legal", path


def test_simulate_prints_the_statistics_of_the_games_it_finished() -> None:
    """Issue 61: without --record an interrupt threw the games played away; now their statistics
    are printed, marked partial (text, and --json's one object)."""
    args = ["simulate.py", "--players", "4", "--games", "200000", "--progress"]
    seconds, out, err = interrupt([*args, "--json"], r"games: [1-9]")
    assert seconds < 2
    run = json.loads(out)
    assert run["partial"] is True and run["games_asked"] == 200000
    assert 1 <= run["games"] == len(run["results"]) < 200000
    assert f"the statistics of the {run['games']} games finished" in last_line(err, "simulate.py")
    _, out, err = interrupt(args, r"games: [1-9]")
    finished = re.match(r"partial \(interrupted\): the (\d+) of 200000 games finished, rio-grande", out)
    assert finished is not None and "seat  mean coins" in out, out
    assert f"the statistics of the {finished.group(1)} games finished" in last_line(err, "simulate.py")


def test_simulate_on_sigterm_prints_the_statistics_of_the_games_it_finished() -> None:
    seconds, out, err = interrupt(["simulate.py", "--players", "4", "--games", "200000", "--progress",
                                   "--json"], r"games: [1-9]", sig=signal.SIGTERM)
    assert seconds < 2
    run = json.loads(out)
    assert run["partial"] is True and 1 <= run["games"] < 200000
    assert f"the statistics of the {run['games']} games finished" in last_line(err, "simulate.py")


def test_bench_engine_on_sigterm_prints_the_rows_measured_so_far() -> None:
    """Issue 61: an interrupted benchmark kept nothing; now SIGTERM (``timeout``) after the first row
    prints the rows measured so far, marked partial (--json: one object), and exits 130."""
    args = ["bench.py", "engine", "--runs", "1", "--games", "20", "--progress"]
    _, out, err = interrupt([*args, "--json"], r"bench engine: [1-9]", sig=signal.SIGTERM)
    res = json.loads(out)
    assert res["partial"] is True and 1 <= len(res["cases"]) < res["planned"] == 24
    assert "acceptance" not in res and all(c["games"] == 20 for c in res["cases"])
    assert "the rows measured so far are printed, marked partial" in last_line(err, "bench.py")
    _, out, err = interrupt(args, r"bench engine: [1-9]", sig=signal.SIGTERM)
    rows = re.match(r"partial \(interrupted\): the (\d+) of 24 rows measured so far\n"
                    r"engine: full games per second", out)
    assert rows is not None and int(rows.group(1)) >= 1, out
    assert "\namigo             3 " in out and "acceptance" not in out
    last_line(err, "bench.py")


def test_bench_solvers_coop_on_sigterm_prints_the_rows_measured_so_far() -> None:
    """The rows of the sizes finished; a position the signal stopped in its search is not one."""
    _, out, err = interrupt(["bench.py", "solvers", "--objective", "coop", "--positions", "1",
                             "--time-limit", "1", "--node-limit", "100", "--progress", "--json"],
                            r"bench coop: ([2-9]|1\d)/", sig=signal.SIGTERM)  # from 2: the first row is in
    res = json.loads(out)
    assert res["partial"] is True and 1 <= len(res["rows"]) < res["planned"] == 12
    assert res["objective"] == "coop" and all(r["positions"] == 1 for r in res["rows"])
    assert "largest_within_10s" not in res
    assert "marked partial" in last_line(err, "bench.py")


def test_bench_solvers_real_on_sigterm_prints_its_table_so_far() -> None:
    _, out, err = interrupt(["bench.py", "solvers", "--objective", "coop", "--real", "--positions", "1",
                             "--time-limit", "1", "--progress"], r"bench coop real: [1-9]",
                            sig=signal.SIGTERM)
    assert re.match(r"partial \(interrupted\): the \d of 4 rows measured so far\n"
                    r"coop on real hands, one worker, 1 s a position", out), out
    assert "marked partial" in last_line(err, "bench.py")


def test_check_record_keeps_the_verdicts_printed(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(SCRIPTS / "simulate.py"), "--players", "3", "--games", "4",
                    "--seed", "2", "--record", str(tmp_path)], check=True, capture_output=True)
    paths = [str(p) for p in sorted(tmp_path.glob("*.jsonl"))] * 400
    seconds, out, err = interrupt(["check_record.py", "--progress", *paths], r"records: [1-9]")
    assert seconds < 2
    assert "verdicts of the first" in last_line(err, "check_record.py")
    assert out.count(": legal, ") >= 1


def test_check_record_all_keeps_the_verdicts_printed() -> None:
    """--all on a batch of referee records (every deviation of each): the verdicts so far stand."""
    referee = ROOT / "tests" / "conformance" / "records" / "referee"
    paths = [str(p) for p in sorted(referee.glob("*.jsonl"), key=lambda p: p.name != "three-deviations.jsonl")
             if "unknown" not in p.name] * 300
    seconds, out, err = interrupt(["check_record.py", "--all", "--progress", *paths], r"records: [1-9]")
    assert seconds < 2
    assert "verdicts of the first" in last_line(err, "check_record.py")
    assert "3 deviations (T3 1, T4 1, desync 1); followed to the end" in err


def test_check_spec_stops(tmp_path: Path) -> None:
    seconds, out, err = interrupt(["check_spec.py", "--states", "100000", "--progress"], r"states: [1-9]")
    assert seconds < 2
    assert "states checked so far are summarised on stdout, marked partial" in last_line(err, "check_spec.py")
    assert re.match(r"partial \(interrupted\): the [1-9]\d* of 100000 states checked\n", out), out
    assert ", 0 disagreements, " in out


def test_check_spec_on_sigterm_reports_the_states_checked() -> None:
    """SIGTERM (``timeout``) as Ctrl-C: the summary of the states checked so far, marked partial."""
    seconds, out, err = interrupt(["check_spec.py", "--states", "100000", "--progress", "--json"],
                                  r"states: [1-9]", sig=signal.SIGTERM)
    assert seconds < 2
    run = json.loads(out)
    assert run["partial"] is True and run["states_asked"] == 100000
    assert 1 <= run["states"] == sum(run["by_phase"].values()) and run["disagreements"] == 0
    assert f"the {run['states']} states checked so far" in last_line(err, "check_spec.py")


def test_cross_check_stops_its_workers() -> None:
    seconds, _, err = interrupt(["cross_check.py", "--objective", "coop", "--positions", "500", "--jobs", "2",
                                 "--progress"], r"positions: [1-9]")
    assert seconds < 2
    last_line(err, "cross_check.py")


def test_cross_check_on_sigterm_reports_the_positions_finished() -> None:
    """Issue 61: ``timeout`` (SIGTERM) at 193 of 200 positions left an empty --json and no report;
    now the positions finished so far are reported, marked partial, and the exit is 130."""
    args = ["cross_check.py", "--objective", "best", "--positions", "200", "--seed", "1", "--jobs", "1",
            "--progress"]
    seconds, out, err = interrupt([*args, "--json"], r"positions: [1-9]", sig=signal.SIGTERM)
    assert seconds < 2
    run = json.loads(out)
    assert run["partial"] is True and run["positions_asked"] == 200
    assert 1 <= run["positions"] < 200 and run["disagreements"] == 0 and run["cpsat_not_proved"] == 0
    line = last_line(err, "cross_check.py")
    assert f"the {run['positions']} positions compared so far" in line and "marked partial" in line


def test_cross_check_on_sigterm_with_workers_ends_them() -> None:
    """SIGTERM to the parent with a pool of 2: the pool's workers end with it (no hang, no leak)."""
    seconds, out, err = interrupt(["cross_check.py", "--objective", "solo", "--positions", "500", "--jobs",
                                   "2", "--progress"], r"positions: [1-9]", sig=signal.SIGTERM)
    assert seconds < 2
    finished = re.match(r"partial \(interrupted\): the (\d+) of 500 positions finished\n", out)
    assert finished is not None, out
    assert f"{finished.group(1)} solo positions, 0 disagreements" in out
    assert "leaked" not in err and "KeyboardInterrupt" not in err, err


def test_fuzz_on_sigterm_reports_the_cases_finished() -> None:
    """SIGTERM (``timeout``) in a fuzz run: the summary of the cases finished, marked partial, the
    workers ended; Ctrl-C the same in text."""
    args = ["fuzz.py", "--records", "20000", "--positions", "0", "--states", "0", "--options", "0",
            "--progress"]
    seconds, out, err = interrupt([*args, "--json"], r"fuzz: [1-9]", sig=signal.SIGTERM)
    assert seconds < 2
    run = json.loads(out)
    assert run["partial"] is True and run["cases_asked"] == 20000
    assert 1 <= run["cases"] == run["kinds"]["records"]["cases"] < 20000
    assert f"the {run['cases']} of 20000 cases run so far" in last_line(err, "fuzz.py")
    _, out, err = interrupt(args, r"fuzz: [1-9]")
    assert re.match(r"partial \(interrupted\): the [1-9]\d* of 20000 cases finished\n", out), out
    assert "marked partial" in last_line(err, "fuzz.py")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_solve_endgame_cpsat_stops_in_its_search(sig: int) -> None:
    """Interrupted before its first solution (rio4-8cards takes about 10 s to one): nothing kept.
    SIGTERM too (console.cli hands it to the search's own Ctrl-C handler)."""
    seconds, out, err = interrupt(["solve_endgame.py", "rio4-8cards", "--objective", "coop", "--solver",
                                   "cpsat-cards", "--time-limit", "120", "--progress"],
                                  r"solving: [1-9]/120", sig=sig)  # searching (not a fixed delay: imports)
    assert seconds < 2
    last_line(err, "solve_endgame.py")


def test_solve_endgame_isla_cpsat_keeps_its_line_across_its_models() -> None:
    """Isla solo by CP-SAT runs several models (the ladder, then the relaxation's proof): a Ctrl-C
    after the first line ends the run there with that line, not only the model then searching."""
    seconds, out, err = interrupt(["solve_endgame.py", "isla-amigo4-6cards", "--objective", "solo",
                                   "--solver", "cpsat", "--time-limit", "300", "--progress"],
                                  r"Isla CP-SAT solo: best")
    assert seconds < 2
    assert "value:" in out and "line:" in out
    assert last_line(err, "solve_endgame.py").endswith("printed above (feasible, not proved)")


def test_solve_endgame_exact_stops_in_its_search() -> None:
    seconds, out, err = interrupt(["solve_endgame.py", "rio3-6cards", "--objective", "coop", "--solver",
                                 "exact", "--node-limit", "100000000", "--time-limit", "600", "--progress"],
                                r"solving")
    assert seconds < 2
    line = last_line(err, "solve_endgame.py")  # the best line found so far (anytime), if any yet
    if "value:" in out:
        assert "(feasible (interrupted), proved bound" in out and "line:" in out
        assert line.endswith("the best line found so far is printed above (feasible, not proved)")
    else:
        assert "no line yet" in line


def test_prove_rules_prints_the_verdicts_so_far() -> None:
    seconds, out, err = interrupt(["prove_rules.py", "--progress", "--jobs", "1"], r"proofs: [1-9]")
    assert seconds < 2
    line = last_line(err, "prove_rules.py")  # one property done is "1 property"
    assert re.search(r"\((1 property|\d+ properties), after \d+ of \d+ instances\)", line), line
    assert "INTERRUPTED" in out and "all proofs:" in out


def test_prove_rules_on_sigterm_prints_the_verdicts_so_far() -> None:
    """SIGTERM reaches the proofs' own Ctrl-C handler (a safe point between Z3 queries)."""
    seconds, out, err = interrupt(["prove_rules.py", "--progress", "--jobs", "1"], r"proofs: [1-9]",
                                  sig=signal.SIGTERM)
    assert seconds < 2
    assert "the verdicts so far" in last_line(err, "prove_rules.py")
    assert "INTERRUPTED" in out and "all proofs:" in out


def test_prove_rules_stops_its_worker_processes_quietly() -> None:
    """Issue 43: with 2 jobs a worker printed its own traceback, the resource tracker warned of leaked
    semaphores, and the line said "the verdicts of 1 properties after 0 instances"."""
    seconds, out, err = interrupt(["prove_rules.py", "--progress", "--jobs", "2"], "", delay=3)
    assert seconds < 2
    line = last_line(err, "prove_rules.py")
    assert re.search(r"\((1 property|\d+ properties), after \d+ of \d+ tasks\)", line), line
    assert "leaked" not in err and "KeyboardInterrupt" not in err, err
    assert "INTERRUPTED" in out


def test_trade_graph_stops_valuing_deals() -> None:
    seconds, _, err = interrupt(["trade_graph.py", "rio4-8cards", "--value", "expected", "--progress"],
                                r"deals valued: [1-9]")
    assert seconds < 2
    last_line(err, "trade_graph.py")


def test_perft_stops() -> None:
    seconds, _, err = interrupt(["perft.py", "rio-grande-4p-trade", "8"], "", delay=2)
    assert seconds < 2
    last_line(err, "perft.py")


def test_make_conformance_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "conf"
    seconds, _, err = interrupt(["make_conformance.py", "--out", str(out), "--progress"], r"fixtures: [1-9]")
    assert seconds < 2
    last_line(err, "make_conformance.py")
    assert not out.exists() or not any(out.rglob("*.json*"))


# Runs a script as ``python SCRIPT ARGS`` would, with every optional extra's module unimportable
# (``console.cli.EXTRAS``): the plain install, without a venv of its own.
WITHOUT_EXTRAS = """import runpy, sys
from console.cli import EXTRAS
for name in EXTRAS:
    sys.modules[name] = None
sys.argv = sys.argv[1:]
sys.path[0] = sys.argv[0].rsplit("/", 1)[0]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def without_extras(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", WITHOUT_EXTRAS, str(SCRIPTS / script), *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("script", sorted(p.name for p in SCRIPTS.glob("*.py")))
def test_every_script_has_help_with_defaults_and_an_example(script: str) -> None:
    """On the plain install too (issue 61: bench.py --help ended in No module named 'pyspiel')."""
    proc = without_extras(script, "--help")
    assert proc.returncode == 0, proc.stderr
    assert "python scripts/" in proc.stdout, f"{script} --help shows no example"
    assert "(default:" in proc.stdout, f"{script} --help shows no default"
    assert "--debug" in proc.stdout
    assert not OUTSIDE.findall(proc.stdout), f"{script} --help names a file outside the repository (issue 43)"


@pytest.mark.parametrize(("args", "extra"), [(["bench.py", "adapters"], "openspiel"),
                                           (["bench.py", "study", "--runs", "1"], "cluster"),
                                           (["trade_graph.py", "trade-map", "--png"], "plots")])
def test_a_command_that_needs_an_extra_names_it_in_one_line(tmp_path: Path, args: list[str],
                                                            extra: str) -> None:
    proc = without_extras(*args, *([str(tmp_path / "deals.png")] if args[-1] == "--png" else []))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert proc.stderr.startswith(f"{args[0]}: ") and f"pip install -e '.[{extra}]'" in proc.stderr


def test_study_keeps_the_finished_tasks_and_resumes(tmp_path: Path) -> None:
    """Ctrl-C in a study on a pool of 2: the journal holds whole lines, results.jsonl the tasks
    finished so far, and the next run skips them."""
    study = tmp_path / "s.toml"
    study.write_text('name = "s"\n[[simulations]]\nname = "g"\nrulesets = ["rio-grande"]\nplayers = [4]\n'
                     'games = 4000\nbatch = 20\n')
    out = tmp_path / "out"
    seconds, _, err = interrupt(["study.py", "run", str(study), "--out", str(out), "--workers", "2",
                                 "--progress"], r"study s: [1-9]")
    assert seconds < 2
    assert "run again to resume" in last_line(err, "study.py")
    lines = (out / "journal.jsonl").read_text().splitlines()
    assert lines and all(json.loads(x)["status"] == "ok" for x in lines)
    head = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert head["tasks"] == 200 and 1 <= head["finished"] < 200
    from studies.executors import Inline
    from studies.runner import run_study
    from studies.spec import load
    from studies.tasks import expand

    done = {json.loads(x)["key"] for x in lines}
    spec = load(str(study))
    again = run_study(spec, out, Inline(), tasks=[t for t in expand(spec) if t.key in done])
    assert again.skipped == len(done) and again.ran == 0
