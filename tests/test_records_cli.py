"""The command-line tools: scripts/check_record.py (the referee) and scripts/simulate.py.

check_record.py exits 0 when every record is legal (one summary line each), 1 at an illegal step
(``RECORD:LINE: illegal <action>: <reason> [RULE]``), 2 for malformed input; simulate.py writes
records the referee accepts, prints reproducible JSON, and rejects bad arguments with one line.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from builders import run_script

import model
from model import (
    Accept,
    Action,
    EndPhase,
    GameState,
    Harvest,
    Phase,
    Plant,
    PlantAside,
    Propose,
    Reshuffle,
    apply,
    format_action,
    parse_action,
)
from model.cards import BEAN_NAMES
from records.game import read_record

ROOT = Path(__file__).resolve().parent.parent
SIMULATE = ROOT / "scripts" / "simulate.py"
CHECK = ROOT / "scripts" / "check_record.py"


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout, proc.stderr


# ------------------------------------------------------------------ records written by simulate.py


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """Legal records by simulate.py --record: a 4-player game with trades, a 3-player Amigo game
    (with reshuffles) and bean duels."""
    base = tmp_path_factory.mktemp("records")
    out: dict[str, list[Path]] = {}
    for key, args in {
        "four": ["--players", "4", "--games", "2", "--seed", "3", "--bots", "random-trader"],
        "amigo": ["--players", "3", "--games", "1", "--seed", "5", "--ruleset", "amigo",
                  "--bots", "greedy,random-trader,random", "--option", "harvest=strict"],
        "duel": ["--players", "2", "--games", "2", "--seed", "9", "--bots", "greedy,random"],
    }.items():
        folder = base / key
        proc = run_script(SIMULATE, *args, "--record", folder)
        assert proc.returncode == 0, proc.stderr
        out[key] = sorted(folder.glob("game-*.jsonl"))
        assert out[key], f"simulate.py wrote no records for {key}"
    return out


def record_parts(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None]:
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    head, body = lines[0], lines[1:]
    end = body.pop() if body and "end" in body[-1] else None
    return head, body, end


def write_parts(path: Path, head: dict[str, Any], body: list[dict[str, Any]],
                end: dict[str, Any] | None = None) -> Path:
    lines = [head, *body] + ([end] if end is not None else [])
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def line_action(obj: dict[str, Any]) -> Action:
    if "chance" in obj:
        return Reshuffle(tuple(int(model.bean(b)) for b in obj["order"]))
    return parse_action(obj["action"])


def to_line(action: Action) -> dict[str, Any]:
    if isinstance(action, Reshuffle):
        return {"chance": "reshuffle", "order": [BEAN_NAMES[b] for b in action.order]}
    return {"action": format_action(action)}


def states_before(path: Path) -> list[GameState]:
    """The state before each body line of a legal record."""
    rec = read_record(path)
    s = rec.initial_state()
    out = []
    for a in rec.actions:
        out.append(s)
        s = apply(s, a)
    return out


def check_main(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, str, str]:
    """scripts/check_record.py's main(), imported: (exit code, stdout, stderr)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("check_record_script", CHECK)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    code = mod.main([str(p) for p in paths])
    out, err = capsys.readouterr()
    return code, out, err


def test_legal_records_pass(records: dict[str, list[Path]]) -> None:
    paths = [p for group in records.values() for p in group]
    proc = run_script(CHECK, *paths)
    assert proc.returncode == 0, proc.stderr
    no_traceback(proc)
    lines = proc.stdout.splitlines()
    assert len(lines) == len(paths)
    for path, line in zip(paths, lines, strict=True):
        _, body, end = record_parts(path)
        assert end is not None
        m = re.fullmatch(rf"{re.escape(str(path))}: legal, (\d+) actions, final coins \[([\d, ]*)\], "
                         r"winners \[(.*)\]", line)
        assert m, line
        assert int(m.group(1)) == len(body)
        assert [int(c) for c in m.group(2).split(",")] == end["end"]["coins"]
        assert m.group(3) == ", ".join(f"'p{w}'" for w in end["end"]["winners"])


def test_records_have_reshuffles_and_deals(records: dict[str, list[Path]]) -> None:
    """The fixtures exercise what the referee must follow: chance lines and accepted deals."""
    bodies = [record_parts(p)[1] for group in records.values() for p in group]
    assert any("chance" in x for b in bodies for x in b)
    assert any("accept" in x.get("action", "") for b in bodies for x in b)


def test_check_record_json_output(records: dict[str, list[Path]]) -> None:
    path = records["four"][0]
    proc = run_script(CHECK, "--json", path)
    assert proc.returncode == 0
    info = json.loads(proc.stdout)
    _, body, end = record_parts(path)
    assert end is not None
    assert info["status"] == "legal" and info["over"] is True
    assert info["actions"] == len(body) and info["coins"] == end["end"]["coins"]


def test_record_in_progress_is_legal(records: dict[str, list[Path]], tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    head, body, _ = record_parts(records["four"][0])
    path = write_parts(tmp_path / "cut.jsonl", head, body[: len(body) // 2])
    code, out, err = check_main(capsys, path)
    assert code == 0, err
    assert re.fullmatch(rf"{re.escape(str(path))}: legal, {len(body) // 2} actions, final coins "
                        r"\[[\d, ]+\] \(game in progress\)\n", out)


# ------------------------------------------------------------------ illegal steps (exit 1)


def inject(src: Path, dst: Path, find: Callable[[GameState], Action | None],
           replace: bool = False, after_chance: bool = False) -> tuple[Path, int, Action]:
    """Put the action ``find`` builds for the first suitable state before that step (or in its
    place); returns the new record, the line of the illegal step and the action."""
    head, body, end = record_parts(src)
    for i, s in enumerate(states_before(src)):
        if after_chance and s.phase != Phase.CHANCE:
            continue
        bad = find(s)
        if bad is not None:
            new_body = body[:i] + [to_line(bad)] + body[i + (1 if replace else 0):]
            return write_parts(dst, head, new_body, end), i + 2, bad
    raise AssertionError(f"no suitable position in {src}")


def expect_illegal(capsys: pytest.CaptureFixture[str], path: Path, line: int, action: Action,
                   rule: str) -> str:
    code, out, err = check_main(capsys, path)
    assert code == 1, (out, err)
    assert out == ""
    text = err.rstrip("\n")
    assert "\n" not in text, err
    # The reason may itself contain ": ", so the action is matched exactly.
    name = f"chance reshuffle of {len(action.order)} cards" if isinstance(action, Reshuffle) \
        else format_action(action)  # a reshuffle is named by its size, not its 100 bean names
    m = re.fullmatch(rf"{re.escape(str(path))}:(\d+): illegal {re.escape(name)}: "
                     r"(.+) \[([A-Z]\d*)\]", text)
    assert m, f"not RECORD:LINE: illegal {name}: <reason> [RULE]: {text}"
    assert int(m.group(1)) == line
    assert m.group(2).strip()
    assert m.group(3) == rule, text
    return m.group(2)


def protected_single(s: GameState) -> Action | None:
    if s.to_move < 0:
        return None
    fields = s.players[s.to_move].fields
    for i, f in enumerate(fields):
        if f.count == 1 and any(g.count > 1 for g in fields):
            return Harvest(s.to_move, i)
    return None


ILLEGAL: dict[str, tuple[str, Callable[[GameState], Action | None], str, dict[str, bool]]] = {
    # H4: a single bean while another field holds more (amigo game, harvest=strict: still H4).
    "H4-protected-single": ("four", protected_single, "H4", {}),
    "H4-strict": ("amigo", protected_single, "H4", {}),
    # T1: a third planting in a turn (phase 1 ended after two).
    "T1-third-planting": ("four", lambda s: Plant(s.active, 0) if (
        s.phase == Phase.TRADE and s.planted == 2 and s.pending is None) else None, "T1", {}),
    # T1: ending phase 1 before planting the front card.
    "T1-end-before-planting": ("four", lambda s: EndPhase(s.active) if (
        s.phase == Phase.PLANT and s.planted == 0) else None, "T1", {}),
    # H3: planting on a field of another type.
    "H3-wrong-field": ("four", lambda s: next((Plant(s.active, i) for i, f in enumerate(
        s.players[s.active].fields) if f.count and f.bean != s.players[s.active].hand[0]), None)
        if s.phase == Phase.PLANT else None, "H3", {}),
    # T3: a proposal outside the trading phase.
    "T3-offer-in-phase-1": ("four", lambda s: Propose(s.active, (s.active + 1) % 4, (0,))
                            if s.phase == Phase.PLANT else None, "T3", {}),
    # T3: two non-active players trading.
    "T3-non-active-pair": ("four", lambda s: Propose((s.active + 1) % 4, (s.active + 2) % 4, (0,))
                           if s.phase == Phase.TRADE and s.pending is None else None, "T3", {}),
    # T3: an accept with the wrong bean types.
    "T3-accept-wrong-types": ("four", lambda s: Accept(s.to_move, ()) if (
        s.pending is not None and s.pending.ask) else None, "T3", {"replace": True}),
    # T6 (T4): ending phase 3 with set-aside cards left.
    "T6-end-phase-3-early": ("four", lambda s: EndPhase(s.to_move)
                             if s.phase == Phase.PLANT_ASIDE else None, "T6", {}),
    # T6: planting a set-aside card that is not there.
    "T6-plant-missing-aside": ("four", lambda s: next((PlantAside(s.to_move, b, 0) for b in s.setup.beans
                                                       if b not in s.players[s.to_move].aside), None)
                               if s.phase == Phase.PLANT_ASIDE else None, "T6", {}),
    # E1: a reshuffle order that is not the discard pile (a card short).
    "E1-bad-reshuffle": ("four", lambda s: Reshuffle(tuple(s.discard[1:])), "E1",
                         {"replace": True, "after_chance": True}),
    # E1: a move where a reshuffle is due.
    "E1-move-before-reshuffle": ("four", lambda s: EndPhase(s.active), "E1", {"after_chance": True}),
    # D1: trading in the bean duel.
    "D1-offer-in-duel": ("duel", lambda s: Propose(s.active, 1 - s.active, (0,))
                         if s.to_move == s.active and s.players[s.active].hand else None, "D1", {}),
}


@pytest.mark.parametrize("case", list(ILLEGAL))
def test_illegal_step_is_named(case: str, records: dict[str, list[Path]], tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    group, find, rule, flags = ILLEGAL[case]
    path, line, action = inject(records[group][0], tmp_path / f"{case}.jsonl", find, **flags)
    expect_illegal(capsys, path, line, action, rule)


def test_illegal_step_through_the_command_line(records: dict[str, list[Path]], tmp_path: Path) -> None:
    """The same format on the real command line, with a legal record before it (worst exit wins)."""
    path, line, action = inject(records["four"][0], tmp_path / "h4.jsonl", protected_single)
    good = records["four"][1]
    proc = run_script(CHECK, good, path)
    no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stdout.startswith(f"{good}: legal, ")
    err = proc.stderr.strip().splitlines()
    assert len(err) == 2  # the verdict, then the count per verdict of the batch
    assert re.fullmatch(rf"{re.escape(str(path))}:{line}: illegal {re.escape(format_action(action))}: "
                        r".+ \[H4\]", err[0])
    assert err[1] == "2 records: 1 legal, 1 illegal"


def test_wrong_end_line_is_illegal(records: dict[str, list[Path]], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    head, body, end = record_parts(records["four"][0])
    assert end is not None
    coins = list(end["end"]["coins"])
    coins[0] += 1
    path = write_parts(tmp_path / "end.jsonl", head, body, {"end": {"coins": coins, "winners": [0]}})
    code, _, err = check_main(capsys, path)
    assert code == 1
    assert re.fullmatch(rf"{re.escape(str(path))}:{len(body) + 2}: illegal end: .+ \[E3\]\n", err)


@pytest.mark.parametrize("end", [{"coins": [1.9]}, {"coins": [True]}, {"coins": ["1"]},
                                 {"coins": [], "winners": "3"}, {"coins": [], "winners": [3.7]},
                                 {"coins": [-1]}])
def test_an_end_line_with_counts_that_are_not_whole_numbers_is_malformed(
        records: dict[str, list[Path]], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        end: dict[str, Any]) -> None:
    """They were read with int() and judged legal (1.9 as 1, true as 1, "3" as [3])."""
    head, body, real = record_parts(records["four"][0])
    assert real is not None
    claim = {**real["end"], **end}
    path = write_parts(tmp_path / "end.jsonl", head, body, {"end": claim})
    code, _, err = check_main(capsys, path)
    assert code == 2
    assert re.fullmatch(rf"{re.escape(str(path))}:{len(body) + 2}: malformed record: end\.(coins|winners)"
                        r"(\[\d+\])?: .*(whole number|expected a list).*\n", err)


# ------------------------------------------------------------------ malformed records (exit 2)


def _malformed_cases(head: dict[str, Any], body: list[dict[str, Any]]) -> dict[str, tuple[str, int, str]]:
    """name -> (file text, line, a word the message must contain)."""
    def text(h: dict[str, Any], b: list[Any]) -> str:
        return "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in [h, *b])

    def with_head(**changes: Any) -> dict[str, Any]:
        return {**head, **changes}

    deck = list(head["deck"])
    return {
        "bad-json": (text(head, body[:3] + ['{"action": "p0 plant 0"'] + body[3:]), 5, "JSON"),
        "not-an-object": (text(head, body[:2] + ["[1, 2]"]), 4, "object"),
        "unknown-ruleset": (text(with_head(ruleset="bohnanza-deluxe"), body), 1, "ruleset"),
        "unknown-bean-in-deck": (text(with_head(deck=["mungbean"] + deck[1:]), body), 1, "mungbean"),
        "deck-missing-a-card": (text(with_head(deck=deck[1:]), body), 1, "deck"),
        "wrong-version": (text(with_head(version=2), body), 1, "version"),
        "wrong-format": (text(with_head(format="chess-pgn"), body), 1, "format"),
        "unknown-option": (text(with_head(options={**head["options"], "turbo": True}), body), 1, "turbo"),
        "bad-option-value": (text(with_head(options={**head["options"], "tie_break": "dice"}), body), 1,
                             "tie_break"),
        "bad-player-count": (text(with_head(players=9), body), 1, "players"),
        "unparseable-action": (text(head, body[:4] + [{"action": "p0 plant the beans"}] + body[4:]), 6,
                               "action"),
        "unknown-line": (text(head, body[:1] + [{"move": "p0 plant 0"}]), 3, "expected"),
        "unknown-chance": (text(head, [{"chance": "dice", "order": []}]), 2, "chance"),
        "bad-reshuffle-bean": (text(head, [{"chance": "reshuffle", "order": ["red", "nosuch"]}]), 2,
                               "nosuch"),
        "line-after-end": (text(head, [{"end": {"coins": [0, 0, 0, 0], "winners": [0]}}, body[0]]), 3, "end"),
        "non-ascii-digit-action": (text(head, body[:1] + [{"action": "p\u00b2 plant 0"}]), 3, "action"),
        "claims-of-another-shape": (text(head, body[:1] + [{**body[1], "claims": {"players": 7}}] + body[2:]),
                                    3, "claims.players"),
        "empty-file": ("", 1, "empty"),
        "blank-lines-only": ("\n\n  \n", 1, "empty"),
    }


MALFORMED = list(_malformed_cases({"deck": [], "options": {}}, [{}] * 5))


@pytest.mark.parametrize("case", MALFORMED)
def test_malformed_record_exits_2(case: str, records: dict[str, list[Path]], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    head, body, _ = record_parts(records["four"][0])
    content, line, word = _malformed_cases(head, body)[case]
    path = tmp_path / f"{case}.jsonl"
    path.write_text(content, encoding="utf-8")
    code, out, err = check_main(capsys, path)
    assert code == 2, (out, err)
    text = err.rstrip("\n")
    assert "\n" not in text
    m = re.fullmatch(rf"{re.escape(str(path))}:(\d+): malformed record: (.+)", text)
    assert m, text
    assert int(m.group(1)) == line
    assert word.lower() in m.group(2).lower(), text


def test_malformed_records_on_the_command_line(tmp_path: Path) -> None:
    """Exit 2 with one clear line each and no traceback: bad JSON, a missing file, not UTF-8."""
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{nope\n", encoding="utf-8")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    missing = tmp_path / "missing.jsonl"
    proc = run_script(CHECK, bad, binary, missing)
    no_traceback(proc)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 4  # every file is checked (issue 15), then the count per verdict
    assert lines[0].startswith(f"{bad}:1: malformed record: bad JSON")
    assert lines[1].startswith(f"{binary}:")
    assert lines[2].startswith(f"{missing}: cannot read")
    assert lines[3] == "3 records: 3 malformed"


def test_check_record_needs_a_record() -> None:
    proc = run_script(CHECK)
    assert proc.returncode == 2
    no_traceback(proc)


# ------------------------------------------------------------------ simulate.py


def test_simulate_json_output() -> None:
    proc = run_script(SIMULATE, "--players", "3", "--games", "3", "--seed", "11", "--ruleset", "amigo",
               "--bots", "random-trader", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert {"games", "players", "ruleset", "seed", "results"} <= set(out)
    assert out["games"] == 3 and out["players"] == 3 and out["ruleset"] == "amigo" and out["seed"] == 11
    assert len(out["results"]) == 3
    for r in out["results"]:
        assert isinstance(r["coins"], list) and len(r["coins"]) == 3
        assert all(isinstance(c, int) and c >= 0 for c in r["coins"])
        assert r["winners"], "every game has a winner (E4)"
        assert all(r["coins"][w] == max(r["coins"]) for w in r["winners"])
    assert model.ruleset("amigo", out["options"]) == model.ruleset("amigo")


def test_simulate_same_seed_same_bytes() -> None:
    args = ["--players", "4", "--games", "3", "--seed", "5", "--bots", "random-trader,greedy,random,random",
            "--json"]
    first, second = run_script(SIMULATE, *args), run_script(SIMULATE, *args)
    assert first.returncode == 0 and first.stdout
    assert first.stdout == second.stdout
    other = run_script(SIMULATE, *args[:5], "6", *args[6:])
    assert other.stdout != first.stdout


def test_simulate_records_are_reproducible(tmp_path: Path) -> None:
    args = ["--players", "5", "--games", "1", "--seed", "2", "--bots", "random-trader"]
    assert run_script(SIMULATE, *args, "--record", tmp_path / "a").returncode == 0
    assert run_script(SIMULATE, *args, "--record", tmp_path / "b").returncode == 0
    a, b = tmp_path / "a" / "game-00000.jsonl", tmp_path / "b" / "game-00000.jsonl"
    assert a.read_bytes() == b.read_bytes()


def test_simulate_plain_summary() -> None:
    proc = run_script(SIMULATE, "--players", "2", "--games", "2", "--seed", "1")
    assert proc.returncode == 0
    assert proc.stdout.startswith("2 games, rio-grande, 2 players, seed 1")


@pytest.mark.parametrize("args", [
    ["--bots", "genius"],
    ["--bots", "random,greedy"],  # two bots for four players
    ["--ruleset", "monopoly"],
    ["--option", "turbo=true"],
    ["--option", "quick"],
    ["--option", "tie_break=dice"],
    ["--option", "quick=maybe"],
    ["--option", "max_offers=lots"],
    ["--players", "9"],
    ["--players", "2", "--ruleset", "amigo"],
    ["--games", "-1"],
], ids=lambda a: " ".join(a))
def test_simulate_bad_arguments(args: list[str]) -> None:
    proc = run_script(SIMULATE, "--games", "1", *args)
    no_traceback(proc)
    assert proc.returncode == 2
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1, proc.stderr
    assert err[0].startswith("simulate.py: ")
    assert proc.stdout == ""


@pytest.mark.parametrize("args", [
    ["--option", "fields=5"],  # more fields than the engine's move tables hold
    ["--option", "max_players=9", "--players", "9"],  # a player count beyond the setup table
], ids=lambda a: " ".join(a))
def test_simulate_options_the_ruleset_accepts_do_not_crash(args: list[str]) -> None:
    """An option value the ruleset accepts either plays (exit 0) or is refused with one line (exit 2)."""
    proc = run_script(SIMULATE, "--games", "1", "--json", *args)
    no_traceback(proc)
    assert proc.returncode in (0, 2), proc.stderr


def test_a_record_that_cannot_be_read_gives_its_reason_in_json_too(tmp_path: Path) -> None:
    """Issue 43: ``--json`` on a missing file printed ``"status": "malformed"`` and no reason."""
    missing = tmp_path / "nosuch.jsonl"
    proc = run_script(CHECK, "--json", missing)
    assert proc.returncode == 2, proc.stderr
    info = json.loads(proc.stdout)
    assert info["status"] == "malformed" and "No such file" in info["reason"] and "line" not in info
    plain = run_script(CHECK, missing)
    assert plain.returncode == 2 and info["reason"] in plain.stderr
