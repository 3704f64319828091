"""The La Isla Bohnita spec referee (proofs/isla/referee.py, ``check_record.py --z3``): every Isla
record of tests/conformance agrees with the engine's verdict, so does a seeded sample of simulated
Isla games (every player count, both E1 readings, the amigo deck), hand-made illegal records are
named at the same line by both referees, and a broken spec (a mutant) makes them disagree."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from builders import load_script, run_script

from model import apply
from model.rules import ruleset
from model.state import state_to_json
from play.bots import BOTS
from play.playout import play_game
from proofs.isla.referee import isla_replay
from proofs.mutants import activate
from records.game import (
    RECORD_FORMAT,
    RECORD_VERSION,
    Record,
    action_line,
    header,
    parse_record,
    read_record,
    record_lines,
)
from records.referee import first_illegal

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / "scripts" / "check_record.py"
RECORDS = ROOT / "tests" / "conformance" / "records"
ISLA = sorted(p for p in RECORDS.glob("*/*.jsonl") if read_record(p).rules.option("isla"))


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_script(CHECK, *args)


def agree(rec: Record) -> int | None:
    """The first illegal line both referees name (fails when they differ)."""
    spec, engine = isla_replay(rec), first_illegal(rec)
    assert spec.line == engine, (engine, spec)
    return engine


def test_the_conformance_isla_records_are_all_covered() -> None:
    names = {p.parent.name for p in ISLA}
    assert len(ISLA) >= 20 and names == {"legal", "illegal"}, ISLA


@pytest.mark.parametrize("path", ISLA, ids=[f"{p.parent.name}/{p.stem}" for p in ISLA])
def test_conformance_isla_record_agrees(path: Path) -> None:
    line = agree(read_record(path))
    assert (line is None) == (path.parent.name == "legal")


def test_check_record_z3_on_the_conformance_isla_records() -> None:
    proc = run("--z3", "--json", *ISLA)
    assert "Traceback" not in proc.stderr and proc.returncode == 1, proc.stderr
    verdicts = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(verdicts) == len(ISLA) and all(v["agree"] for v in verdicts), verdicts
    judged = [v for v in verdicts if v["z3"]["status"] == "illegal" and "guard" in v["z3"]["reason"]]
    assert len(judged) >= 7, verdicts  # the specs' own guards name most of the illegal Isla lines
    duel = next(v for v in verdicts if v["record"].endswith("i9-duel-trade.jsonl"))
    assert duel["z3"]["reason"] == "the base game's spec: its propose guard does not hold (D1)", duel


# (ruleset, players, options, bot): every player count, both E1 readings, the amigo deck
SAMPLE = [("rio-grande", 2, {}, "greedy"), ("rio-grande", 3, {}, "greedy"), ("rio-grande", 4, {}, "greedy"),
          ("rio-grande", 5, {}, "random-trader"), ("rio-grande", 6, {}, "greedy"),
          ("rio-grande", 7, {}, "random"), ("rio-grande", 4, {"reshuffle": "on-demand"}, "greedy"),
          ("rio-grande", 2, {"reshuffle": "on-demand"}, "random"), ("amigo", 3, {}, "random-trader"),
          ("amigo", 4, {}, "greedy"), ("rio-grande", 3, {}, "random"), ("rio-grande", 4, {}, "random-trader")]


def simulated(name: str, players: int, options: dict[str, object], bot: str, seed: int) -> str:
    rules = ruleset(name, {**options, "isla": True})
    _, s0, final, actions = play_game(rules, players, seed, [BOTS[bot]] * players)
    return record_lines(header(s0, [bot] * players), actions, final)


@pytest.mark.parametrize(("k", "game"), list(enumerate(SAMPLE)),
                         ids=[f"{r}-{n}p-{b}{'-od' if o else ''}" for r, n, o, b in SAMPLE])
def test_simulated_isla_games_agree(k: int, game: tuple[str, int, dict[str, object], str]) -> None:
    rec = parse_record(simulated(*game, seed=4100 + k))
    assert agree(rec) is None and isla_replay(rec).reason == ""


def test_a_turn_that_goes_on_at_once_agrees() -> None:
    """A new active player with an empty hand turns up at once (T1, T2): the spec's end of the turn
    stops before the turn-up, so it is compared on what turning up leaves alone (this game, line 246)."""
    rec = parse_record(simulated("rio-grande", 3, {}, "random-trader", 22 * 1_000_003))
    assert agree(rec) is None and isla_replay(rec).reason == ""


@pytest.mark.parametrize(("name", "cut"), [("isla-4p", 100), ("isla-2p-duel", 250),
                                         ("isla-4p-stopped-attack", 152)])
def test_a_record_from_header_state_agrees(name: str, cut: int) -> None:
    """A game segment (docs/records.md: header.state) mid-turn, while an attack awaits its answer."""
    rec = read_record(RECORDS / "legal" / f"{name}.jsonl")
    s = rec.initial_state()
    for a in rec.actions[:cut]:
        s = apply(s, a)
    lines = [json.dumps({"format": RECORD_FORMAT, "version": RECORD_VERSION, "state": state_to_json(s)})]
    lines += [json.dumps(action_line(a)) for a in rec.actions[cut:]]
    lines += [json.dumps({"end": rec.end})] if rec.end else []
    segment = parse_record("\n".join(lines) + "\n")
    assert segment.start is not None and agree(segment) is None


@pytest.fixture(scope="module")
def four() -> list[str]:
    return simulated("rio-grande", 4, {}, "greedy", 4103).splitlines()


def test_hand_made_illegal_lines_are_named_by_both(four: list[str], tmp_path: Path) -> None:
    """A sail off turn (I4), an attack without a pirate ship (I7), a sale of an empty ship (I6), a
    phase ended by a player not to move (T5: the base game's spec) at line 2, and end coins the game
    does not give (E3): both referees name the same line."""
    for action in ("p1 sail m0 bohnbay 1", "p0 attack p1 m0", "p0 sell m0", "p1 end"):
        lines = four[:1] + [json.dumps({"action": action})] + four[1:]
        path = tmp_path / "bad.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        rec = read_record(path)
        assert agree(rec) == 2 and "guard does not hold" in isla_replay(rec).reason, action
        proc = run("--z3", path)
        assert proc.returncode == 1 and proc.stderr.startswith(f"{path}:2: illegal {action}:"), proc.stderr
        assert proc.stderr.rstrip().endswith("(the spec agrees)"), proc.stderr
    end = json.loads(four[-1])
    end["end"]["coins"][0] += 1
    path = tmp_path / "coins.jsonl"
    path.write_text("\n".join(four[:-1] + [json.dumps(end)]) + "\n", encoding="utf-8")
    rec = read_record(path)
    assert agree(rec) == len(four) and "the spec's coins are" in isla_replay(rec).reason


@pytest.mark.parametrize(("mutant", "record"), [("sell-for-nothing", "illegal/i6-sell-for-nothing"),
                                                 ("load-other-type", "illegal/i4-load-second-type"),
                                                 ("refill-any-row", "legal/isla-4p")])
def test_a_broken_spec_disagrees(mutant: str, record: str) -> None:
    rec = read_record(RECORDS / f"{record}.jsonl")
    assert isla_replay(rec, mutant).line != first_illegal(rec)


@pytest.mark.parametrize("mutant", ["plant-from-back", "beanometer-off-by-one", "split-swapped",
                                    "skip-final-harvest", "reshuffle-coins", "reshuffle-forever"])
def test_a_broken_engine_disagrees_with_the_spec(mutant: str) -> None:
    """Engine mutants (proofs/mutants.py) the rules-only replay accepts: the spec sees what they change
    (a planted bean, coins of a harvest or a sale, the end of the game, a reshuffle)."""
    rec = read_record(RECORDS / "legal" / "isla-3p.jsonl")
    with activate(mutant):
        assert isla_replay(rec).line != first_illegal(rec)


@pytest.mark.parametrize(("mutant", "record", "said"), [
    ("sell-for-nothing", "illegal/i6-sell-for-nothing",
     "engine line 7, spec legal (the spec allows line 7, which the engine refuses: p0's m0 holds 1 chili"),
    ("refill-any-row", "legal/isla-4p", "engine legal, spec line ")])
def test_check_record_reports_a_disagreement_exit_3(mutant: str, record: str, said: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """check_record.py --z3 with a broken Isla spec: 'the referees disagree: ...', exit 3."""
    monkeypatch.setattr("proofs.isla.referee.isla_replay", lambda rec: isla_replay(rec, mutant))
    path = RECORDS / f"{record}.jsonl"
    code, line, info = load_script("check_record").check(str(path), z3=True)
    assert code == 3 and info["agree"] is False, line
    assert line.startswith(f"{path}: the referees disagree: {said}"), line


def test_a_ruleset_the_spec_does_not_model_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "v5.jsonl"
    path.write_text(simulated("amigo-v2", 4, {"field_beans": True}, "greedy", 7), encoding="utf-8")
    proc = run("--z3", path)
    assert "Traceback" not in proc.stderr and proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"{path}: --z3: the La Isla Bohnita spec does not cover this record: V5 field beans are not "
        "modelled"], proc.stderr
    proc = run("--z3", path, RECORDS / "legal" / "isla-3p.jsonl")
    assert proc.returncode == 2 and proc.stderr.strip().splitlines()[-1] == (
        "2 records: 1 legal, 1 not covered by --z3"), proc.stderr
