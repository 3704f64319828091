"""La Isla Bohnita through the command-line tools: simulate.py reports ship sales and raids (per game
and in total) for 4 players and the Isla duel, the records it writes pass check_record.py, an
illegal Isla step is named with its rule ID, --z3 agrees on them, and Isla input the tools do not
cover is refused in one line (exit 2)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from builders import run_script

from records.game import read_record

ROOT = Path(__file__).resolve().parent.parent
SIMULATE = ROOT / "scripts" / "simulate.py"
CHECK = ROOT / "scripts" / "check_record.py"
SOLVE = ROOT / "scripts" / "solve_endgame.py"


def one_line_error(proc: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.fixture(scope="module", params=[4, 2], ids=["4p", "duel"])
def isla_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
             ) -> tuple[int, dict[str, Any], Path]:
    players = request.param
    folder = tmp_path_factory.mktemp(f"isla{players}")
    proc = run_script(SIMULATE, "--players", players, "--games", 6, "--seed", 1, "--option", "isla=true",
               "--bots", "greedy", "--json", "--record", folder)
    assert proc.returncode == 0, proc.stderr
    return players, json.loads(proc.stdout), folder


def test_simulate_reports_ship_sales_and_raids(isla_run: tuple[int, dict[str, Any], Path]) -> None:
    players, out, _ = isla_run
    assert out["options"]["isla"] is True and out["players"] == players
    games = out["results"]
    assert len(games) == 6
    for g in games:
        for key in ("ship_sales", "raids", "captures"):
            assert isinstance(g[key], int) and g[key] >= 0, (key, g)
        assert g["captures"] <= g["raids"], "a raid takes at most one card (I7)"
    summary = out["summary"]
    for key in ("ship_sales", "raids", "captures"):
        assert summary[key] == sum(g[key] for g in games), key
    # The greedy bots sail, sell and raid: these seeded runs have sales and raids.
    assert summary["ship_sales"] > 0 and summary["raids"] > 0, summary


def test_isla_records_pass_the_referee(isla_run: tuple[int, dict[str, Any], Path]) -> None:
    players, out, folder = isla_run
    paths = sorted(folder.glob("*.jsonl"))
    assert len(paths) == 6
    proc = run_script(CHECK, "--json", *paths)
    assert proc.returncode == 0, proc.stderr
    verdicts = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [v["status"] for v in verdicts] == ["legal"] * 6
    assert [v["coins"] for v in verdicts] == [g["coins"] for g in out["results"]]
    rec = read_record(paths[0])
    assert rec.rules.option("isla") and rec.players == players


def _inject(src: Path, dst: Path, line_no: int, action: str) -> None:
    lines = src.read_text(encoding="utf-8").splitlines()
    lines.insert(line_no - 1, json.dumps({"action": action}))
    dst.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_planting_cargo_is_named_I5(isla_run: tuple[int, dict[str, Any], Path], tmp_path: Path) -> None:
    """A record (from any implementation) that plants island beans onto a field is illegal (I5)."""
    _, _, folder = isla_run
    bad = tmp_path / "bad.jsonl"
    _inject(sorted(folder.glob("*.jsonl"))[0], bad, 2, "p0 plant m0 0")
    err = one_line_error(run_script(CHECK, bad), code=1)
    assert err.startswith(f"{bad}:2: illegal p0 plant m0 0:") and err.endswith("[I5]"), err


def test_isla_step_before_its_time_is_named(isla_run: tuple[int, dict[str, Any], Path],
                                             tmp_path: Path) -> None:
    """Sailing in phase 1 (I3), attacking without a pirate ship (I7): the referee names the rule."""
    _, _, folder = isla_run
    src = sorted(folder.glob("*.jsonl"))[0]
    for action, rule in (("p0 sail m0 bohnbay 1", "I3"), ("p0 attack p1 m0", "I7"),
                         ("p0 sell m0", "I6"), ("p0 move pirate m0", "I6")):
        bad = tmp_path / "bad.jsonl"
        _inject(src, bad, 2, action)
        err = one_line_error(run_script(CHECK, bad), code=1)
        assert err.startswith(f"{bad}:2: illegal {action}:") and err.endswith(f"[{rule}]"), err


def test_z3_referee_agrees_on_isla_records(isla_run: tuple[int, dict[str, Any], Path]) -> None:
    """--z3 replays Isla records with the expansion's spec (proofs/isla/referee.py): both agree."""
    _, _, folder = isla_run
    proc = run_script(CHECK, "--z3", *sorted(folder.glob("*.jsonl")))
    assert "Traceback" not in proc.stderr and proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 6 and all(x.endswith("(the spec agrees)") for x in lines), lines


def test_base_game_json_has_no_isla_keys() -> None:
    proc = run_script(SIMULATE, "--players", "3", "--games", "1", "--seed", "1", "--json")
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert "ship_sales" not in out["results"][0] and "raids" not in out["summary"]


@pytest.mark.parametrize("args", [
    ["--players", "6", "--ruleset", "amigo"],  # I2: 6-7 players need the big deck
    ["--players", "8"],
], ids=lambda a: " ".join(a))
def test_simulate_refuses_impossible_isla_counts(args: list[str]) -> None:
    err = one_line_error(run_script(SIMULATE, "--games", "1", "--option", "isla=true", *args))
    assert err.startswith("simulate.py: ")


def test_solver_refuses_an_isla_position(tmp_path: Path) -> None:
    from model import new_game, ruleset

    s = new_game(ruleset("rio-grande", {"isla": True}), 3, seed=4)
    pos = tmp_path / "isla.json"
    pos.write_text(json.dumps(s.to_json()), encoding="utf-8")
    err = one_line_error(run_script(SOLVE, pos, "--solver", "cpsat"))  # read and validated, then refused
    assert err == ("solve_endgame.py: best by the flow solver covers the base game; La Isla Bohnita "
                   "(I1-I9) positions (isla=true) are solved only by solo by exact search or CP-SAT, "
                   "coop by exact search, best by exact search, duel by exact search")
