"""The published JSON Schemas (docs/schemas/, schemas/shapes.py) and the loaders that use them.

- the committed schema files are what scripts/make_schemas.py writes, byte for byte, and every file
  of the conformance suite fits its schema (checked with pydantic, and with a JSON Schema validator
  on the published files);
- loaders refuse a malformed file before any rule check, in one line naming the file, the line (a
  record) and the JSON path: non-boolean flags, counts that are not whole numbers, beans given as
  numbers, hostile JSON (deep nesting, 5000-digit integers, NaN, binary bytes, a directory);
- every count option has one range (``model.rules.OPTION_RANGES``), the same in ``ruleset()``, in
  the schema and in docs/records.md; values that once hung or exhausted memory are refused at once.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from builders import run_script

from model import new_game, ruleset, setup
from model.jsonio import JSONInputError, loads
from model.rules import OPTION_NAMES, OPTION_RANGES, RulesetError
from model.state import StateFormatError, state_to_json
from records.game import RecordFormatError, parse_record
from records.referee import check_record
from schemas.position_io import PositionInputError, read_json, state_of
from schemas.shapes import ADAPTERS, SCHEMAS, json_schemas, problem
from schemas.state_json import state_from_json

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "tests" / "conformance"
SCHEMA_DIR = ROOT / "docs" / "schemas"
RECORD = CONF / "records" / "legal" / "amigo-3p.jsonl"
POSITION = CONF / "endgames" / "trade-gift.json"


def one_line(proc: subprocess.CompletedProcess[str], code: int = 2) -> str:
    """The one line a failing script prints on stderr (no traceback), with its exit code."""
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def fixtures() -> list[tuple[str, Path]]:
    """(schema kind, file) for every JSON file of the conformance suite."""
    out = [("perft", p) for p in sorted((CONF / "perft").glob("*.json"))]
    out += [("endgame", p) for p in sorted((CONF / "endgames").glob("*.json"))]
    out += [("record-expect", p) for p in sorted((CONF / "records").glob("*/*.expect.json"))]
    return out


RECORDS = sorted((CONF / "records").glob("*/*.jsonl"))


def record_values(path: Path) -> list[Any]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def state_json() -> dict[str, Any]:
    result: dict[str, Any] = json.loads(POSITION.read_text(encoding="utf-8"))["state"]
    return result


# ---------------------------------------------------------------- the published files


def test_the_committed_schemas_are_what_the_script_writes(tmp_path: Path) -> None:
    proc = run_script("make_schemas.py", "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    written = {p.name: p.read_bytes() for p in tmp_path.glob("*.json")}
    committed = {p.name: p.read_bytes() for p in SCHEMA_DIR.glob("*.json")}
    assert written == committed, "docs/schemas/ is stale: run python scripts/make_schemas.py --force"
    assert written == {name: text.encode() for name, text in json_schemas().items()}


def test_each_schema_names_its_dialect_id_and_title_and_the_readme_lists_it() -> None:
    readme = (SCHEMA_DIR / "README.md").read_text(encoding="utf-8")
    for name in SCHEMAS:
        schema = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"].endswith(name) and schema["title"] and schema["description"]
        assert f"`{name}`" in readme


@pytest.mark.parametrize(("kind", "path"), fixtures(), ids=lambda x: x.stem if isinstance(x, Path) else x)
def test_every_conformance_fixture_fits_its_schema(kind: str, path: Path) -> None:
    value = json.loads(path.read_text(encoding="utf-8"))
    assert problem(kind, value) is None
    if kind in ("perft", "endgame"):
        assert problem("state", value["state"]) is None
        assert problem("options", value["state"]["options"]) is None


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_conformance_record_line_fits_its_schema(path: Path) -> None:
    head, *body = record_values(path)
    assert problem("record-header", head) is None
    assert all(problem("record-line", line) is None for line in body)


def test_the_published_files_accept_the_suite_and_refuse_a_bad_flag() -> None:
    """Any JSON Schema validator, not only pydantic, reads the files the same way."""
    jsonschema = pytest.importorskip("jsonschema")
    check = {}
    for name, (kind, _, _) in SCHEMAS.items():
        schema = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        check[kind] = jsonschema.Draft202012Validator(schema)
    for kind, path in fixtures():
        check[kind].validate(json.loads(path.read_text(encoding="utf-8")))
    for path in RECORDS:
        head, *body = record_values(path)
        check["record-header"].validate(head)
        for line in body:
            check["record-line"].validate(line)
    bad = {**state_json(), "final": "false"}
    assert not check["state"].is_valid(bad)
    assert not check["record-line"].is_valid({"end": {"coins": [True]}})
    assert not check["options"].is_valid({"face_up": 10**9})


def test_a_schema_refuses_what_it_describes_wrongly() -> None:
    """Each kind has teeth: an empty object misses its required keys."""
    for kind in ADAPTERS:
        if kind != "options":
            assert problem(kind, {}) is not None, kind
    assert str(problem("options", {"turbo": True})).startswith("turbo: unknown option; options are beans, ")


def test_the_schema_enums_are_the_models_own_names() -> None:
    from typing import get_args

    from model.cards import BEAN_NAMES
    from model.isla.actions import PORT_NAMES, SHIP_NAMES
    from model.rules import HARVEST_READINGS, PRESETS, TIE_BREAKS
    from model.state import Phase
    from schemas import isla as isla_schema
    from schemas import shapes as schemas

    assert get_args(schemas.BeanName) == BEAN_NAMES
    assert set(get_args(schemas.PresetName)) == set(PRESETS)
    assert get_args(schemas.PhaseName) == tuple(p.name.lower() for p in Phase)
    assert (get_args(isla_schema.PortName), get_args(isla_schema.ShipName)) == (PORT_NAMES, SHIP_NAMES)
    assert (get_args(schemas.TieBreak), get_args(schemas.HarvestReading)) == (TIE_BREAKS, HARVEST_READINGS)
    assert set(schemas.Options.__annotations__) == set(OPTION_NAMES)


# ---------------------------------------------------------------- states


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s.update(final="false"), 'final: expected true or false, got "false"'),
    (lambda s: s["players"][1]["fields"].__setitem__(0, ["red", True]),
     "players[1].fields[0][1]: expected a whole number, got true"),
    (lambda s: s["players"][1]["fields"].__setitem__(0, ["red", 2.0]), "players[1].fields[0][1]: 2.0 is not"),
    (lambda s: s["players"][0]["hand"].__setitem__(0, 4),
     "players[0].hand[0]: expected a bean name, got 4 (C)"),
    (lambda s: s["draw"].insert(0, "mungbean"), 'draw[0]: unknown bean "mungbean"'),
    (lambda s: s["players"][1]["fields"].__setitem__(0, ["red", 10**9]),
     "players[1].fields[0][1]: expected a whole number <= 24, got 1000000000"),  # once a 8 GB tuple
    (lambda s: s.update(turn=-1), "turn: expected a whole number >= 0, got -1"),
    (lambda s: s.update(phase="PLANT"), 'phase: expected "plant", '),
    (lambda s: s.pop("active"), "active: missing"),
    (lambda s: s.update(fianl=True), "fianl: unknown key"),
    (lambda s: s["options"].update(max_offers=1.7), "options.max_offers: 1.7 is not a whole number"),
    (lambda s: s["options"].update(quick="yes"), 'options.quick: expected true or false, got "yes"'),
    (lambda s: s["options"].update(draw=10**9), "options.draw: 1000000000 is not within 0-157 (T7)"),
    (lambda s: s.update(pending="p0 fly"), "pending: "),
])
def test_a_malformed_state_is_refused_naming_the_json_path(change: Any, message: str) -> None:
    obj = state_json()
    state_from_json(obj)  # the unchanged state reads
    change(obj)
    with pytest.raises(StateFormatError) as e:
        state_from_json(obj)
    assert str(e.value).startswith(message), str(e.value)
    with pytest.raises(PositionInputError) as p:
        state_of(obj, "pos.json")
    assert str(p.value) == f"pos.json: {e.value}"


def test_an_isla_state_is_checked_to_its_ships() -> None:
    obj = state_to_json(new_game(ruleset("rio-grande", {"isla": True}), 4, seed=1))
    state_from_json(obj)
    obj["isla"]["fleets"][0]["merchants"][0].update(count=True)
    ship = r"^isla\.fleets\[0\]\.merchants\[0\]"
    with pytest.raises(StateFormatError, match=ship + r"\.count: expected a whole"):
        state_from_json(obj)
    obj["isla"]["fleets"][0]["merchants"][0].update(count=2, bean=None)
    with pytest.raises(StateFormatError, match=ship + r"\.bean: .* needs its bean"):
        state_from_json(obj)


def test_a_fixture_is_checked_as_a_whole_naming_the_path_inside_it() -> None:
    fixture = json.loads(POSITION.read_text(encoding="utf-8"))
    state_of(fixture, "f.json")
    fixture["values"][0]["value"] = 1.5
    with pytest.raises(PositionInputError, match=r"^f\.json: values\[0\]\.value: 1\.5 is not a whole number"):
        state_of(fixture, "f.json")
    fixture = json.loads(POSITION.read_text(encoding="utf-8"))
    fixture["state"]["final"] = 0
    with pytest.raises(PositionInputError, match=r"^f\.json: state\.final: expected true or false, got 0$"):
        state_of(fixture, "f.json")


# ---------------------------------------------------------------- hostile JSON


@pytest.mark.parametrize(("text", "reason"), [
    ("[" * 100000, "not JSON: nested too deeply"),
    ('{"turn": ' + "7" * 5000 + "}", "not JSON: an integer with more than 4300 digits"),
    ('{"turn": NaN}', "not JSON: NaN is not a JSON number"),
    ('{"turn": -Infinity}', "not JSON: -Infinity is not a JSON number"),
    ('{"turn": 1', "not JSON: Expecting ',' delimiter"),
])
def test_hostile_json_is_one_input_error(text: str, reason: str) -> None:
    with pytest.raises(JSONInputError) as e:
        loads(text, "pos.json")
    assert reason in str(e.value) and str(e.value).startswith("pos.json") and "\n" not in str(e.value)


@pytest.mark.parametrize(("content", "reason"), [
    (b"\xff\xfe\x00garbage", "pos.json: not UTF-8 text (byte 0xff at offset 0)"),
    (b"[" * 100000, "pos.json: not JSON: nested too deeply"),
    (b'{"version": ' + b"1" * 5000 + b"}", "pos.json: not JSON: an integer with more than 4300 digits"),
    (b'{"version": Infinity}', "pos.json: not JSON: Infinity is not a JSON number"),
])
def test_a_hostile_position_file_is_one_line(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "pos.json"
    path.write_bytes(content)
    with pytest.raises(PositionInputError) as e:
        read_json(str(path))
    assert str(e.value) == reason.replace("pos.json", str(path))


def test_a_directory_as_a_position_or_a_record_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(PositionInputError, match=r": cannot read: Is a directory$"):
        read_json(str(tmp_path))
    verdict = check_record(str(tmp_path))
    assert verdict.code == 2 and verdict.text() == f"{tmp_path}: cannot read: Is a directory"


def test_the_endgame_solver_refuses_hostile_files_in_one_line(tmp_path: Path) -> None:
    cases = {"binary.json": b"\xff\xfe\x00garbage", "deep.json": b"[" * 100000,
             "digits.json": b'{"turn": ' + b"9" * 5000 + b"}", "nan.json": b'{"turn": NaN}'}
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
    for name in [*cases, "."]:
        line = one_line(run_script("solve_endgame.py", tmp_path / name))
        assert line.startswith(f"solve_endgame.py: {tmp_path / name}: "), line


# ---------------------------------------------------------------- records


def record_text(head_change: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
                body: list[Any] | None = None) -> str:
    head, *rest = record_values(RECORD)
    head = {**head, **(head_change or {}), "options": {**head["options"], **(options or {})}}
    lines = [head, *(rest if body is None else body)]
    return "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)


@pytest.mark.parametrize(("text", "line", "message"), [
    (record_text(options={"max_offers": 1.7}), 1, "header.options.max_offers: 1.7 is not a whole number"),
    (record_text(options={"max_deal_cards": "8"}), 1,
     'header.options.max_deal_cards: expected a whole number, got "8"'),
    (record_text(options={"max_deal_cards": 10**9}), 1,
     "header.options.max_deal_cards: 1000000000 is not within 0-3 (T3)"),
    (record_text(options={"face_up": 1000000000}), 1,
     "header.options.face_up: 1000000000 is not within 0-157 (T2)"),
    (record_text(options={"draw": 10**9}), 1, "header.options.draw: 1000000000 is not within 0-157 (T7)"),
    (record_text(options={"quick": "true"}), 1, 'header.options.quick: expected true or false, got "true"'),
    (record_text(options={"turbo": 1}), 1, "header.options.turbo: unknown option"),
    (record_text({"players": True}), 1, "header.players: expected a whole number, got true"),
    (record_text({"version": True}), 1, "unsupported format version True"),
    (record_text({"seats": "greedy"}), 1, 'header.seats: expected a list, got "greedy"'),
    (record_text({"deck": [3]}), 1, "header.deck[0]: expected a bean name, got 3 (C)"),
    (record_text(body=[{"action": 3}]), 2, "action: expected a string, got 3"),
    (record_text(body=[{"chance": "reshuffle", "order": ["red", 3]}]), 2, "order[1]: expected a bean name"),
    (record_text(body=[{"end": {"coins": [1.9, 0, 0]}}]), 2, "end.coins[0]: 1.9 is not a whole number"),
    (record_text(body=[{"end": {"coins": [True]}}]), 2, "end.coins[0]: expected a whole number, got true"),
    (record_text(body=[{"end": {"coins": ["1"]}}]), 2, 'end.coins[0]: expected a whole number, got "1"'),
    (record_text(body=[{"end": {"coins": [], "winners": "3"}}]), 2, 'end.winners: expected a list, got "3"'),
    (record_text(body=[{"end": {"coins": [], "winners": [3.7]}}]), 2,
     "end.winners[0]: 3.7 is not a whole number"),
    (record_text(body=["[" * 100000]), 2, "bad JSON: nested too deeply"),
    (record_text(body=['{"action": ' + "1" * 5000 + "}"]), 2,
     "bad JSON: an integer with more than 4300 digits"),
    (record_text(body=['{"end": {"coins": [NaN]}}']), 2, "bad JSON: NaN is not a JSON number"),
])
def test_a_malformed_record_line_names_the_line_and_the_path(text: str, line: int, message: str) -> None:
    with pytest.raises(RecordFormatError) as e:
        parse_record(text)
    assert (e.value.line, e.value.reason[:len(message)]) == (line, message), e.value.reason
    assert "\n" not in str(e.value)


def test_unknown_keys_on_a_record_line_are_ignored() -> None:
    """Keys no line schema names are ignored (writers may add their own); the bean annotations
    (``"bean"``, ``"give"``...) are read and checked by the referee (tests/test_referee.py)."""
    plain = parse_record(RECORD.read_text(encoding="utf-8"))
    head, *body = record_values(RECORD)
    body = [{**x, "note": [1, 2], "by": "engine x"} for x in body]
    annotated = parse_record(record_text(body=body))
    assert (annotated.actions, annotated.lines, annotated.end) == (plain.actions, plain.lines, plain.end)


def test_a_bad_option_in_a_record_header_is_exit_2_from_the_referee(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(record_text(options={"max_offers": 1.7}), encoding="utf-8")
    line = one_line(run_script("check_record.py", path))
    assert line == f"{path}:1: malformed record: header.options.max_offers: 1.7 is not a whole number"


# ---------------------------------------------------------------- option ranges


@pytest.mark.parametrize(("key", "value", "rule"), [
    ("face_up", "1000000000", "T2"), ("draw", str(10**9), "T7"), ("max_deal_cards", str(10**9), "T3"),
    ("max_deal_cards", "8", "T3"), ("max_offers", "31", "T3"), ("hand", "158", "S"),
    ("exhaustions", "0", "E2"),
    ("fields", "4", "F1"), ("third_field_cost", "21", "F1"), ("max_sails", "21", "I4"),
    ("min_players", "1", "S"), ("max_players", "8", "S"),
])
def test_an_option_out_of_its_range_names_option_value_range_and_rule(key: str, value: str,
                                                                      rule: str) -> None:
    bound = OPTION_RANGES[key]
    with pytest.raises(RulesetError) as e:
        ruleset("rio-grande", {key: value})  # a command-line string
    assert str(e.value) == f"option {key}: {value} is not within {bound.low}-{bound.high} ({rule})"


def test_every_option_range_is_the_same_in_the_code_the_schema_and_the_docs() -> None:
    schema = json.loads((SCHEMA_DIR / "options.schema.json").read_text(encoding="utf-8"))["properties"]
    docs = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    for key, bound in OPTION_RANGES.items():
        prop = schema[key]
        number = next(x for x in prop.get("anyOf", [prop]) if x.get("type") == "integer")
        assert (number["minimum"], number["maximum"]) == (bound.low, bound.high), key
        row = next(x for x in docs.splitlines() if x.startswith("| `") and f"`{key}`" in x.split("|")[1])
        assert f"| {bound.low}-{bound.high} |" in row, key
        for good in (bound.low, bound.high):  # both ends load, as a JSON count and as a string
            assert problem("options", {key: good}) is None
            assert ruleset("rio-grande", {key: str(good)}).option(key) == good
        assert problem("options", {key: bound.high + 1}) == (
            f"{key}: {bound.high + 1} is not within {bound.low}-{bound.high} ({bound.rule})")


def test_every_preset_stays_within_the_ranges() -> None:
    from model.rules import PRESETS

    for name, rules in PRESETS.items():
        assert ruleset(name, rules.options()) == rules
        assert problem("options", rules.options()) is None


def test_face_up_and_draw_are_at_most_the_deck_in_play() -> None:
    setup(ruleset("amigo", {"face_up": 80}), 4)
    with pytest.raises(RulesetError, match=r"^option face_up: 150 is more than the 104 cards of the deck"):
        setup(ruleset("amigo", {"face_up": 150}), 4)
    with pytest.raises(RulesetError, match=r"^option draw: 110 is more than the 104 cards of the deck"):
        setup(ruleset("amigo", {"draw": 110}), 4)


@pytest.mark.parametrize("option", ["face_up=1000000000", f"draw={10**9}", f"max_deal_cards={10**9}",
                                    "max_deal_cards=8", "max_offers=1.7"])
def test_options_that_once_hung_are_refused_at_once_by_the_simulator(option: str) -> None:
    t0 = time.perf_counter()
    # a process of its own: a hang is stopped by the timeout
    line = one_line(subprocess.run([sys.executable, str(ROOT / "scripts" / "simulate.py"), "--games", "1",
                                    "--option", option], capture_output=True, text=True, timeout=60))
    assert time.perf_counter() - t0 < 30
    key = option.split("=")[0]
    why = r"(not within \d+-\d+ \([A-Z]\d*\)|not a whole number)"
    assert re.fullmatch(rf"simulate\.py: option {key}: .*{why}", line), line


# ---------------------------------------------------------------- import cost


def test_reading_the_model_does_not_import_pydantic_until_a_file_is_read() -> None:
    code = ("import sys, model, records.game, schemas.position_io, schemas.state_json; "
            "assert 'pydantic' not in sys.modules; "
            "schemas.state_json.state_from_json(model.state_to_json(model.new_game('amigo', 3, seed=1))); "
            "assert 'pydantic' in sys.modules")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable, "-X", "importtime", str(ROOT / "scripts" / "solve_endgame.py"),
                           "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "pydantic" not in proc.stderr
