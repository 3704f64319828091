"""The command-line frame (console/cli.py, issue 15): exit codes, one line per error, output targets
refused before the work starts."""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from builders import run_script

from console import cli
from model.errors import RuleError, UsageError
from solvers.cpsat_run import interruptible

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_script(*args)


def one_line(proc: subprocess.CompletedProcess[str], code: int) -> str:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def body(error: BaseException) -> int:
    raise error


@pytest.mark.parametrize(("error", "code"), [(UsageError("bad --x"), 2), (RuleError("no", "H4"), 2),
                                              (KeyboardInterrupt(), 130), (ZeroDivisionError("boom"), 70)])
def test_the_frame_maps_each_outcome_to_its_exit_code(error: BaseException, code: int,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run("tool.py", argparse.Namespace(), lambda frame: body(error)) == code
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tool.py: ")


def test_an_internal_error_is_one_line_and_the_traceback_needs_debug(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run("tool.py", argparse.Namespace(), lambda frame: body(KeyError("k"))) == 70
    err = capsys.readouterr().err
    assert "internal error: KeyError" in err and "please report it" in err and "--debug" in err
    assert "Traceback" not in err
    assert cli.run("tool.py", argparse.Namespace(debug=True), lambda frame: body(KeyError("k"))) == 70
    assert "Traceback" in capsys.readouterr().err


@pytest.mark.parametrize(("module", "extra"), [("pyspiel", "openspiel"), ("matplotlib.pyplot", "plots"),
                                             ("ray", "cluster"), ("pettingzoo.utils", "pettingzoo")])
def test_an_optional_extra_not_installed_is_one_line_naming_it_exit_2(
        capsys: pytest.CaptureFixture[str], module: str, extra: str) -> None:
    error = ModuleNotFoundError(f"No module named {module!r}", name=module)
    assert cli.run("tool.py", argparse.Namespace(), lambda frame: body(error)) == 2
    top = module.split(".")[0]
    assert capsys.readouterr().err == (f"tool.py: this needs {top}, from the optional extra {extra!r}: "
                                       f"pip install -e '.[{extra}]'\n")
    nosuch = ModuleNotFoundError("No module named 'nosuch'", name="nosuch")  # not an extra: a bug
    assert cli.run("tool.py", argparse.Namespace(), lambda frame: body(nosuch)) == 70
    assert "internal error: ModuleNotFoundError" in capsys.readouterr().err


def test_an_interrupt_says_what_it_kept(capsys: pytest.CaptureFixture[str]) -> None:
    def work(frame: cli.Frame) -> int:
        frame.kept = "3 records written"
        raise KeyboardInterrupt

    assert cli.run("tool.py", argparse.Namespace(), work) == 130
    assert capsys.readouterr().err.strip() == "tool.py: interrupted; 3 records written"


def test_sigterm_is_an_interrupt_while_the_work_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """SIGTERM (``timeout``) in the work: 130 and what was kept, as Ctrl-C; a search's own Ctrl-C
    handler gets it; after the work the caller's SIGTERM handler is back."""
    before = signal.getsignal(signal.SIGTERM)

    def work(frame: cli.Frame) -> int:
        frame.kept = "2 positions summarised"
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises here
        return 0

    assert cli.run("tool.py", argparse.Namespace(), work) == 130
    assert capsys.readouterr().err.strip() == "tool.py: interrupted; 2 positions summarised"
    assert signal.getsignal(signal.SIGTERM) is before
    seen: list[int] = []

    def searching(frame: cli.Frame) -> int:
        old = signal.signal(signal.SIGINT, lambda signum, f: seen.append(signum))  # a search's handler
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.2)
        finally:
            signal.signal(signal.SIGINT, old)
        with interruptible() as stop:  # SIGTERM ends the run: a search after it starts interrupted
            return 0 if stop.hit and cli.terminated() else 1

    assert cli.run("tool.py", argparse.Namespace(), searching) == 0 and seen == [signal.SIGINT]
    assert not cli.terminated()  # the run is over: the next one (a test's) starts afresh


def test_a_usage_error_is_one_line() -> None:
    line = one_line(run("simulate.py", "--games", "-1"), 2)
    assert line.startswith("simulate.py: error: argument --games") and "(see --help)" in line


def test_simulate_refuses_records_that_exist_before_playing(tmp_path: Path) -> None:
    assert run("simulate.py", "--players", "3", "--games", "2", "--record", str(tmp_path)).returncode == 0
    before = {p: p.read_bytes() for p in tmp_path.iterdir()}
    line = one_line(run("simulate.py", "--players", "3", "--games", "2", "--seed", "9", "--record",
                        str(tmp_path)), 2)
    assert "game-00000.jsonl exists" in line and "--force" in line
    assert {p: p.read_bytes() for p in tmp_path.iterdir()} == before
    again = run("simulate.py", "--players", "3", "--games", "2", "--seed", "9", "--record", str(tmp_path),
                "--force")
    assert again.returncode == 0 and {p: p.read_bytes() for p in tmp_path.iterdir()} != before


def test_simulate_refuses_a_file_and_an_unwritable_place_as_its_record_directory(tmp_path: Path) -> None:
    afile = tmp_path / "x.jsonl"
    afile.write_text("")
    assert "is not a directory" in one_line(run("simulate.py", "--games", "1", "--record", str(afile)), 2)
    assert "cannot write" in one_line(run("simulate.py", "--games", "1", "--record", "/sys/games"), 2)


def test_trade_graph_refuses_its_drawing_target_before_the_work(tmp_path: Path) -> None:
    assert "is a directory" in one_line(run("trade_graph.py", "--png", str(tmp_path)), 2)
    there = tmp_path / "g.png"
    there.write_bytes(b"old")
    assert "exists; use --force" in one_line(run("trade_graph.py", "--png", str(there)), 2)
    assert "cannot write" in one_line(run("trade_graph.py", "--graphml", "/sys/g.graphml"), 2)
    assert there.read_bytes() == b"old"


def test_make_conformance_refuses_before_building(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    assert "--force" in one_line(run("make_conformance.py", "--out", str(tmp_path)), 2)
    assert "cannot write" in one_line(run("make_conformance.py", "--out", "/sys/conf"), 2)
    assert "not a directory" in one_line(run("make_conformance.py", "--out", str(tmp_path / "keep.txt")), 2)


def test_check_record_goes_on_after_a_bad_file_and_exits_with_the_worst(tmp_path: Path) -> None:
    made = run("simulate.py", "--players", "3", "--games", "1", "--record", str(tmp_path / "g"))
    assert made.returncode == 0
    good = str(tmp_path / "g" / "game-00000.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{\n")
    proc = run("check_record.py", str(bad), good, str(tmp_path / "missing.jsonl"), good)
    assert proc.returncode == 2
    assert proc.stdout.count(": legal, ") == 2  # the files after the bad one were checked
    assert proc.stderr.strip().splitlines()[-1] == "4 records: 2 legal, 2 malformed"


def test_a_help_text_that_states_its_default_is_not_given_a_second_one() -> None:
    """Issue 43: ``--out DIR  the study's directory (default: out/study-NAME) (default: None)``."""
    p = cli.parser("x")
    p.add_argument("--out", help="the directory (default: out/NAME)")
    p.add_argument("--seed", type=int, default=3, help="the seed")
    text = p.format_help()
    assert "(default: out/NAME)" in text and "(default: None)" not in text
    assert "the seed (default: 3)" in text
    proc = run("study.py", "run", "--help")
    assert proc.returncode == 0 and proc.stdout.count("default: out/study-NAME") == 1
    assert "out/study-NAME)\n                        (default" not in proc.stdout


def test_require_proved_exits_1_when_a_limit_stops_the_solve_unproved() -> None:
    """Issue 43: ``best`` stopped by its time limit exited 0 like a proved one; --require-proved
    asks for exit 1 then (and changes nothing for a proved answer)."""
    stopped = ("rio4-final-pass", "--objective", "coop", "--time-limit", "1", "--work-limit", "0.05")
    plain = run("solve_endgame.py", *stopped)
    assert plain.returncode == 0 and "feasible" in plain.stdout, plain.stderr
    asked = run("solve_endgame.py", *stopped, "--require-proved")
    assert "not proved optimal" in one_line(asked, 1) and "feasible" in asked.stdout
    proved = run("solve_endgame.py", "--require-proved", "--json")
    assert proved.returncode == 0 and json.loads(proved.stdout)["status"] == "optimal", proved.stderr


def test_a_cut_from_a_game_says_it_is_the_final_pass() -> None:
    """Issue 43: ``--cards-left 500`` said "at most 500 cards left" and cut the final pass (23 cards)."""
    proc = run("solve_endgame.py", "--from-game", "1", "--players", "4", "--cards-left", "500",
               "--objective", "solo")
    assert proc.returncode == 0, proc.stderr
    head = proc.stdout.splitlines()
    assert "the first turn of the final pass with at most 500 cards left" in head[0]
    assert re.search(r"draw pile (\d+) cards", proc.stdout) is not None


def test_a_cards_left_above_the_deck_is_stated_in_one_line() -> None:
    """Issue 61: ``--cards-left 100000`` was read as "at most" in silence; now one line on stderr
    names the flag, the deck's size and the cut made instead."""
    proc = run("solve_endgame.py", "--from-game", "1", "--players", "4", "--cards-left", "100000",
               "--objective", "solo")
    assert proc.returncode == 0, proc.stderr
    drawn = re.search(r"draw pile (\d+) cards", proc.stdout)
    assert drawn is not None
    assert proc.stderr.splitlines() == [
        "solve_endgame.py: --cards-left 100000 is more than the 130 cards of the deck (rio-grande 4p "
        f"seed 1): cut at the first turn of the final pass, {drawn.group(1)} cards left"]
    within = run("solve_endgame.py", "--from-game", "1", "--players", "4", "--cards-left", "20",
                 "--objective", "solo")
    assert within.returncode == 0 and within.stderr == "", within.stderr


class _FailsWhenFreed:
    def __init__(self, e: BaseException) -> None:
        self.e = e

    def __del__(self) -> None:
        raise self.e


def test_a_ctrl_c_inside_a_destructor_is_not_printed(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # Z3 frees its terms in ``__del__``; a Ctrl-C landing in Z3_dec_ref arrives wrapped by ctypes.
    monkeypatch.setattr(sys, "unraisablehook", cli._unraisable)

    def report(e: BaseException) -> None:
        _FailsWhenFreed(e)  # freed at once: its __del__ raises, the hook hears of it

    report(ctypes.ArgumentError("argument 2: KeyboardInterrupt: "))
    report(KeyboardInterrupt())
    assert capsys.readouterr().err == ""
    report(ValueError("a real one"))
    assert "ValueError: a real one" in capsys.readouterr().err


def test_an_error_raised_while_a_ctrl_c_is_handled_is_an_interrupt(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A Ctrl-C inside ``threading.Condition.wait`` can surface as "RuntimeError: release unlocked
    lock" with the KeyboardInterrupt as its context: exit 130 and "interrupted", not a bug report;
    the same error without a Ctrl-C behind it stays an internal error (70)."""
    def body(frame: cli.Frame) -> int:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise RuntimeError("release unlocked lock")  # noqa: B904  # the context is the point

    def bug(frame: cli.Frame) -> int:
        raise RuntimeError("release unlocked lock")

    args = argparse.Namespace(debug=False)
    assert cli.run("t", args, body) == cli.INTERRUPTED
    assert capsys.readouterr().err.strip() == "t: interrupted"
    assert cli.run("t", args, bug) == cli.INTERNAL
    assert "internal error: RuntimeError" in capsys.readouterr().err


def test_off_a_terminal_a_long_run_says_what_it_does_on_stderr_and_json_stays_clean() -> None:
    """Issue 61: off a terminal (stderr piped) a status line comes every STATUS_EVERY seconds (here
    shortened by $BOHNANZA_STATUS_EVERY): the work, its count, the time elapsed; never on stdout;
    ``--quiet`` silences it."""
    env = {**os.environ, "BOHNANZA_STATUS_EVERY": "0.2"}
    cmd = [sys.executable, str(SCRIPTS / "simulate.py"), "--games", "200", "--players", "3", "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games"] == 200
    lines = proc.stderr.splitlines()
    assert lines and all(re.fullmatch(r"simulate\.py: games \d+/200 games, \d+ s elapsed", x) for x in lines)
    quiet = subprocess.run([*cmd, "--quiet"], capture_output=True, text=True, env=env, timeout=120)
    assert quiet.returncode == 0 and quiet.stderr == "" and json.loads(quiet.stdout)["games"] == 200
