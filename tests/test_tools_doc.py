"""Every command docs/tools.md shows is run: the short ones here, as the page gives them, the long
ones by ``scripts/bench.py docs`` (their seconds and exit codes), and a command added to the page
that says neither fails (issue 61). The declarations are benchmarks/doc_commands.py's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from builders import load_script

from benchmarks import doc_commands
from benchmarks.doc_commands import LONG, NEEDS, SHORT, Ran, commands, outputs, plan, uncovered

bench = load_script("bench")
CHROMIUM = "chromium --headless"


def test_every_command_of_docs_tools_md_is_run_by_a_test_or_by_bench_docs() -> None:
    shown = commands()
    assert len(shown) >= 30, shown  # the parse found the page's blocks
    assert not uncovered(), "\n".join(uncovered())


def test_a_command_added_to_the_page_without_coverage_fails_the_check() -> None:
    page = doc_commands.PAGE.read_text(encoding="utf-8") + (
        "\n```bash\npython scripts/simulate.py --games 7   # a new example\n```\n")
    assert commands(page)[-1] == "python scripts/simulate.py --games 7"
    assert uncovered(commands(page)) == [
        "neither SHORT nor LONG (no test or benchmark runs it): python scripts/simulate.py --games 7"]
    gone = [c for c in commands() if c != "python scripts/bench.py engine"]
    assert uncovered(gone) == ["declared but not on the page: python scripts/bench.py engine"]


def test_a_command_runs_after_what_it_reads() -> None:
    """``NEEDS`` first (setup), each command once, the page's order otherwise."""
    order = plan(["python scripts/show.py line.json --svg position.svg --step 5",
                  "python scripts/check_record.py out/duels/*.jsonl"])
    assert [role for _, role in order] == ["setup", "timed", "setup", "timed"]
    assert order[0][0] == NEEDS["python scripts/check_record.py out/duels/*.jsonl"][0]
    assert order[2][0].startswith("python scripts/solve_endgame.py --json > line.json")
    assert len(plan(commands())) == len(commands()) + 1  # the one setup not on the page: out/games


def test_every_short_command_of_docs_tools_md_runs_and_writes_its_files(tmp_path: Path) -> None:
    """Run in page order in a scratch directory, each to exit 0 (chromium's screenshot where
    chromium is installed); every file a command names as its output is there and not empty."""
    todo = sorted(c for c in SHORT if shutil.which("chromium") or not c.startswith(CHROMIUM))
    where = doc_commands.scratch(str(tmp_path))
    runs = doc_commands.run_page(todo, where, cap=300)
    failed = [f"{r.command}: exit {r.code}: {r.last}" for r in runs if r.code != 0 or r.stopped]
    assert not failed, "\n".join(failed)
    assert {r.command for r in runs if r.role == "timed"} == set(todo)
    made = [(r.command, where / name) for r in runs for name in outputs(r.command)]
    missing = [f"{c}: {p.name}" for c, p in made if not p.exists() or p.is_file() and not p.stat().st_size]
    assert not missing, missing
    assert not [p for p in Path(doc_commands.ROOT).glob("*.html")]  # nothing landed in the repository
    listed = json.loads((where / "stdout-01.txt").read_text())  # the first command's stdout, kept
    assert listed["games"] == 600


def _fake_runs(fail: str | None = None, stop_after: int | None = None) -> object:
    seen: list[str] = []

    def run_one(command: str, cwd: Path, cap: float, role: str = "timed", log: str | None = None) -> Ran:
        if stop_after is not None and len(seen) == stop_after:
            raise KeyboardInterrupt
        seen.append(command)
        code = 1 if command == fail else 0
        return Ran(command, 1.5, code, command.endswith("--mutants"), role, "boom" if code else "")

    return run_one


def test_bench_docs_prints_each_long_command_with_its_seconds_and_exit_code(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setattr(doc_commands, "run_one", _fake_runs())
    assert bench.main(["docs", "--json", "--cap", "60", "--out", str(tmp_path)]) == 0
    res = json.loads(capsys.readouterr().out)
    timed = [r["command"] for r in res["commands"] if r["role"] == "timed"]
    assert sorted(timed) == sorted(LONG) and res["cap_s"] == 60 and "partial" not in res
    setup = [r["command"] for r in res["commands"] if r["role"] == "setup"]
    assert setup == list(NEEDS["python scripts/check_record.py --z3 out/duels/*.jsonl"])
    assert Path(res["scratch"]).parent == tmp_path and (Path(res["scratch"]) / "scripts").is_dir()
    monkeypatch.setattr(doc_commands, "run_one", _fake_runs(fail="python scripts/bench.py engine"))
    assert bench.main(["docs", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "      1.5     1  python scripts/bench.py engine\n" in out and "boom" in out
    assert "1.5     0  python scripts/prove_rules.py --mutants  (stopped at the cap)" in out


def test_bench_docs_interrupted_prints_the_rows_so_far(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setattr(doc_commands, "run_one", _fake_runs(stop_after=2))
    assert bench.main(["docs", "--json", "--out", str(tmp_path)]) == 130
    captured = capsys.readouterr()
    res = json.loads(captured.out)
    assert res["partial"] is True and len(res["commands"]) == 2 and res["commands_asked"] == len(LONG) + 1
    assert "the rows of the 2 commands finished so far are printed, marked partial" in captured.err
