"""The conformance suite (tests/conformance/, docs/conformance.md) against this engine.

- perft: every stored count, at every stored depth, is the number of legal action sequences
  ``model.perft`` counts from the stored position (a divide is in the message on a mismatch);
- records: ``records.referee.check_record`` (behind ``scripts/check_record.py``) gives every record
  the verdict of its sidecar (legal with those coins and winners; illegal at that line with that
  rule ID), in-process and in one run of the command over them all; every referee record gets, with
  ``every=True`` and from ``check_record.py --all --json``, exactly the planted deviations (line,
  status, rule ID), the stop line and the exit code of its status;
- endgames: every stored value is re-solved by the solver the fixture names;
- the suite is what ``scripts/make_conformance.py`` writes, byte for byte, and covers what the
  docs promise (every phase, preset, player count, objective and the listed rules).
"""

from __future__ import annotations

import importlib
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from builders import run_script

from model.isla import isla_of
from model.perft import divide, perft
from model.rules import PRESETS, ruleset, setup
from model.state import GameState
from records.referee import check_record
from schemas.position_io import state_of
from solvers.contract import OBJECTIVES, Limits

ROOT = Path(__file__).resolve().parent.parent

CONF = ROOT / "tests" / "conformance"
PERFT = sorted((CONF / "perft").glob("*.json"))
LEGAL = sorted((CONF / "records" / "legal").glob("*.jsonl"))
ILLEGAL = sorted((CONF / "records" / "illegal").glob("*.jsonl"))
REFEREE = sorted((CONF / "records" / "referee").glob("*.jsonl"))
ENDGAMES = sorted((CONF / "endgames").glob("*.json"))


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def sidecar(record: Path) -> dict[str, Any]:
    result: dict[str, Any] = load(record.with_name(record.stem + ".expect.json"))
    return result


def position(path: Path) -> GameState:
    """The fixture's state, checked against the rules (model.validate.check_state)."""
    return state_of(load(path), str(path))


# ---------------------------------------------------------------- perft


@pytest.mark.parametrize("path", PERFT, ids=lambda p: p.stem)
def test_perft_counts(path: Path) -> None:
    """Each stored count is the number of action sequences of that length (leaves: chance, over)."""
    fixture = load(path)
    s = position(path)
    assert fixture["phase"] == fixture["state"]["phase"] and fixture["to_move"] == s.to_move
    for depth_text, want in fixture["perft"].items():
        depth = int(depth_text)
        got = perft(s, depth)
        if got != want:
            parts = "\n".join(f"  {a}: {n}" for a, n in divide(s, depth))
            pytest.fail(f"{path.stem} depth {depth}: {got} sequences, the fixture says {want}; "
                        f"divide:\n{parts}")


@pytest.mark.parametrize("path", PERFT, ids=lambda p: p.stem)
def test_perft_divide_sums_to_the_count(path: Path) -> None:
    """divide splits perft by first action: the parts sum to the count, each action listed once."""
    s = position(path)
    want = load(path)["perft"]["2"]
    parts = divide(s, 2)
    assert len({a for a, _ in parts}) == len(parts)
    assert (sum(n for _, n in parts) if parts else 1) == want


def test_perft_command_line() -> None:
    """perft.py prints what it measured; bad input is one line on stderr and exit code 2."""
    fixture = load(CONF / "perft" / "isla-4p-attack.json")
    proc = run_script("perft.py", "isla-4p-attack", "3", "--divide", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["count"] == fixture["perft"]["3"] and sum(out["divide"].values()) == out["count"]
    offer = CONF / "perft" / "duel-offer.json"
    proc = run_script("perft.py", str(offer), "2")
    assert proc.returncode == 0 and f"perft depth 2: {load(offer)['perft']['2']} sequences" in proc.stdout
    for args, words in [(("no-such-fixture", "2"), "no such file or perft fixture"),
                        (("duel-offer", "-1"), "depth must be a whole number"),
                        (("duel-offer", "two"), "depth must be a whole number"),
                        ((str(CONF / "README.md"), "1"), "not JSON")]:
        proc = run_script("perft.py", *args)
        assert proc.returncode == 2 and proc.stdout == "", (args, proc.stdout)
        assert words in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


# ---------------------------------------------------------------- records


def verdict_matches(info: dict[str, Any], code: int, expect: dict[str, Any]) -> None:
    if expect["status"] == "legal":
        assert (code, info["status"]) == (0, "legal"), info
        assert info["coins"] == expect["coins"] and info["over"] == expect["over"], info
        assert info.get("winners") == expect.get("winners"), info
    else:
        assert (code, info["status"]) == (1, "illegal"), info
        assert (info["line"], info["rule"]) == (expect["line"], expect["rule"]), (info, expect["why"])


@pytest.mark.parametrize("path", LEGAL + ILLEGAL, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_record_verdict(path: Path) -> None:
    """records.referee.check_record gives the sidecar's verdict: status, first illegal line and rule ID."""
    expect = sidecar(path)
    assert expect["status"] == path.parent.name
    verdict = check_record(str(path))
    line = verdict.text()
    verdict_matches(verdict.summary(), verdict.code, expect)
    if expect["status"] == "illegal":
        assert line.startswith(f"{path}:{expect['line']}: illegal ") and line.endswith(f"[{expect['rule']}]")


def test_check_record_command_over_every_record() -> None:
    """One run of check_record.py --json over all records: one verdict each, exit 1 (some illegal)."""
    paths = [str(p) for p in LEGAL + ILLEGAL]
    proc = run_script("check_record.py", "--json", *paths)
    assert proc.returncode == 1, proc.stderr
    verdicts = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [v["record"] for v in verdicts] == paths
    for v in verdicts:
        expect = sidecar(Path(v["record"]))
        verdict_matches(v, 0 if v["status"] == "legal" else 1, expect)


# ---------------------------------------------------------------- referee records (--all)


EXIT = {"legal": 0, "illegal": 1, "desync": 1, "malformed": 2, "undecided": 4}  # docs/records.md


def planted(expect: dict[str, Any]) -> list[tuple[int, str, str | None]]:
    return [(d["line"], d["status"], d.get("rule")) for d in expect["deviations"]]


def referee_matches(info: dict[str, Any], code: int, expect: dict[str, Any]) -> None:
    """The JSON verdict of ``--all`` (``Verdict.summary``) is the sidecar's: status and exit code,
    every deviation in line order, where the replay stopped; unknown cards: the first failing line."""
    assert (info["status"], code) == (expect["status"], EXIT[expect["status"]]), (info, expect)
    assert ("unknown" in info) == expect["unknown"], info
    if expect["status"] == "legal":
        assert (info["coins"], info["over"]) == (expect["coins"], expect["over"]), info
        assert info.get("winners") == expect.get("winners"), info
    if expect["unknown"]:
        assert "deviations" not in info  # the search judges every line; --all does not apply
        got = [(info["line"], info["status"], info.get("rule"))] if expect["deviations"] else []
        assert got == planted(expect), info
        return
    assert [(d["line"], d["status"], d.get("rule")) for d in info["deviations"]] == planted(expect), info
    stopped = info["followed"]["stopped"]
    assert (stopped["line"] if stopped else None) == expect["stopped"], info
    tally: dict[str, int] = {}
    for _, status, rule in planted(expect):
        key = rule if status == "illegal" and rule else status
        tally[key] = tally.get(key, 0) + 1
    assert info["by_rule"] == tally, info
    if expect["deviations"]:  # the first deviation of the verdict's status (illegal before desync)
        first = next(d for d in expect["deviations"] if d["status"] == expect["status"])
        assert (info["line"], info.get("rule")) == (first["line"], first.get("rule")), info


@pytest.mark.parametrize("path", REFEREE, ids=lambda p: p.stem)
def test_referee_record_every_deviation(path: Path) -> None:
    """check_record(path, every=True) lists exactly the planted deviations; without every, the first."""
    expect = sidecar(path)
    verdict = check_record(str(path), every=True)
    referee_matches(verdict.summary(), verdict.code, expect)
    lines = verdict.lines()
    if expect["deviations"] and not expect["unknown"]:
        assert len(lines) == len(expect["deviations"]) + 1
        for line, (no, status, rule) in zip(lines, planted(expect), strict=False):
            assert line.startswith(f"{path}:{no}: {status}"), line
            assert line.endswith(f"[{rule}]") if rule else line.startswith(f"{path}:{no}: desync: "), line
        n = len(expect["deviations"])
        assert lines[-1].startswith(f"{path}: {n} deviation{'s' if n > 1 else ''} ("), lines[-1]
        stop = expect["stopped"]
        assert (f"stopped at line {stop}:" if stop else "followed to the end") in lines[-1], lines[-1]
    else:
        assert len(lines) == 1
    first = check_record(str(path))
    if expect["deviations"]:
        d = expect["deviations"][0]
        assert (first.status, first.line, len(first.deviations)) == (d["status"], d["line"], 1)
    else:
        assert first.status == "legal" and first.code == 0


def test_check_record_all_json_over_every_referee_record() -> None:
    """One run of check_record.py --all --json: one object each, the sidecar's verdict, exit 1."""
    paths = [str(p) for p in REFEREE]
    proc = run_script("check_record.py", "--all", "--json", *paths)
    assert proc.returncode == 1, proc.stderr
    verdicts = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [v["record"] for v in verdicts] == paths
    for v in verdicts:
        expect = sidecar(Path(v["record"]))
        referee_matches(v, EXIT[v["status"]], expect)
    for path in REFEREE:  # each alone: its own exit code
        if sidecar(path)["status"] == "legal":
            assert run_script("check_record.py", "--all", str(path)).returncode == 0


# ---------------------------------------------------------------- endgames


def resolve(s: GameState, entry: dict[str, Any]) -> Any:
    """Solve again with the solver the fixture names (a dotted function name)."""
    module, name = entry["solver"].rsplit(".", 1)
    solver = getattr(importlib.import_module(module), name)
    objective = OBJECTIVES[entry["objective"]]  # the fixture's name, read once
    if name == "solve_flow":  # it stops once proved; 10 s ran out under load (3.4 s idle)
        return solver(s, objective, entry["player"], Limits(300))
    if name.startswith("solve_isla"):  # La Isla Bohnita's own functions, with their own limits
        return solver(s, entry["player"])
    limits = Limits(900.0, 5_000_000)  # the builder's exact limits (conformance/endgames.py)
    if name == "solve_open":
        return solver(s, objective, entry["player"], limits)
    return solver(s, entry["player"], limits)


@pytest.mark.parametrize("path", ENDGAMES, ids=lambda p: p.stem)
def test_endgame_values(path: Path) -> None:
    """Every stored value is the proved optimum the named solver finds again."""
    s = position(path)
    for entry in load(path)["values"]:
        ans = resolve(s, entry)
        assert ans.player == entry["player"]
        if entry["objective"] == "expected":
            assert ans.value == Fraction(entry["value"]), entry
            assert ans.open_average == Fraction(entry["open_average"]), entry
            assert round(float(ans.value), 6) == entry["approx"]
        else:
            got = (ans.objective.name, ans.status, ans.value)
            assert got == (entry["objective"], "optimal", entry["value"])


# ---------------------------------------------------------------- what the suite holds


def test_suite_covers_what_the_docs_promise() -> None:
    """Sizes, every phase, preset, player count and objective, and the rules of the illegal records."""
    assert len(PERFT) >= 20 and len(LEGAL) >= 30 and len(ILLEGAL) >= 30 and len(ENDGAMES) >= 20
    states = [position(p) for p in PERFT]
    phases = {load(p)["phase"] for p in PERFT}
    assert phases >= {"plant", "trade", "plant_aside", "offer", "discard", "turned", "chance", "over"}
    trading = [s for s in states if s.phase == 2 and s.ext is None]
    assert any(s.pending is not None for s in trading) and any(s.pending is None for s in trading)
    assert {s.setup.rules.name for s in states} == set(PRESETS)
    assert {len(s.players) for s in states} == set(range(2, 8))
    assert any(s.setup.duel and s.ext is None for s in states)
    assert any(s.setup.rules.distinct_fields for s in states) and any(s.setup.strict_harvest for s in states)
    isla = [s for s in states if s.ext is not None]
    assert any(isla_of(s).attack is not None for s in isla if s.ext is not None)
    assert any(s.setup.duel for s in isla) and any(len(s.players) > 2 and s.phase == 2 for s in isla)

    games = set()
    for path in LEGAL:
        head = load_head(path)
        games.add((head["ruleset"], head["players"], bool(head["options"].get("isla"))))
    for name, rules in PRESETS.items():
        for n in range(rules.min_players, rules.max_players + 1):
            assert (name, n, False) in games, (name, n)
    assert {n for r, n, isla_game in games if isla_game} == set(range(2, 8))
    assert any(not sidecar(p)["over"] for p in LEGAL) and any(sidecar(p)["over"] for p in LEGAL)

    rules = {sidecar(p)["rule"] for p in ILLEGAL}
    assert rules >= {"T1", "T3", "T6", "H3", "H4", "F1", "V2", "D1", "D2", "E1", "E2", "E3", "E4",
                     "I1", "I3", "I4", "I5", "I6", "I7", "I9"}
    referee = [sidecar(p) for p in REFEREE]
    assert {e["status"] for e in referee} == {"legal", "illegal", "desync"}
    assert any(e["unknown"] for e in referee) and any(e["stopped"] for e in referee)
    assert any(len(e["deviations"]) >= 3 for e in referee if not e["unknown"])
    planted_rules = {d.get("rule") for e in referee for d in e["deviations"]}
    assert planted_rules >= {"T3", "T4", "E1", "E2", "E3", "E4", "H3", "S"}
    assert any("state" in load_head(p) for p in REFEREE)
    objectives = {v["objective"] for p in ENDGAMES for v in load(p)["values"]}
    assert objectives == {"solo", "coop", "best", "duel", "expected"}


def load_head(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as f:
        head: dict[str, Any] = json.loads(f.readline())
    setup(ruleset(head["ruleset"], head["options"]), head["players"])  # a header the rules allow
    return head


# ---------------------------------------------------------------- regeneration


def test_regenerating_gives_byte_identical_files(tmp_path: Path) -> None:
    """make_conformance.py writes exactly the committed suite (seeded, deterministic)."""
    proc = run_script("make_conformance.py", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "wrote" in proc.stdout
    made = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    kept = {p.relative_to(CONF).as_posix() for p in CONF.rglob("*") if p.is_file()}
    assert made == kept, (sorted(made - kept), sorted(kept - made))
    differ = [rel for rel in sorted(made) if (tmp_path / rel).read_bytes() != (CONF / rel).read_bytes()]
    assert not differ, f"regenerated files differ from tests/conformance/: {differ}"
