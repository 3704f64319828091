"""The docs a fresh clone relies on: every rule ID the code cites is explained in docs/rules.md."""

from __future__ import annotations

import ast
import json
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest
from builders import OUTSIDE

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules.md"
PACKAGES = ("model", "schemas", "drawing", "records", "console", "proofs", "play", "solvers", "conformance",
            "adapters", "viewer", "scripts")

RULE_ID = re.compile(r"[A-Z][0-9]{0,2}")
NUMBERED = re.compile(r"\b([CSHTEFDVI][0-9]{1,2})\b")  # C1, T3, I9... anywhere in the source
BRACKETED = re.compile(r"\[([A-Z][0-9]{0,2})\]")  # "... [T1]" in a message
HEADING = re.compile(r"^#{2,3} ([A-Z][0-9]{0,2})\. ", re.MULTILINE)  # "### T1. ..." or "## S. ..."
# the calls that carry a rule ID, and the position of that argument
RULE_ARG = {"IllegalAction": 1, "RuleError": 1, "PositionError": 2, "IllegalStep": 3}


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _rule_arguments(tree: ast.AST) -> list[ast.AST]:
    out: list[ast.AST] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if name in RULE_ARG and len(node.args) > RULE_ARG[name]:
            out.append(node.args[RULE_ARG[name]])
        out.extend(k.value for k in node.keywords if k.arg == "rule")
    return out


def ids_in_source(text: str) -> set[str]:
    """Rule IDs one Python source cites: rule arguments (``IllegalAction(..., "T1")``,
    ``rule="E3"``, any constant in such an argument), ``[ID]`` in a message, and numbered IDs
    like ``H4`` anywhere (comments, docstrings, names of proofs)."""
    tree = ast.parse(text)
    found = set(NUMBERED.findall(text))
    for arg in _rule_arguments(tree):
        for node in ast.walk(arg):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and RULE_ID.fullmatch(node.value):
                found.add(node.value)
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found.update(BRACKETED.findall(node.value))
    return found


@cache
def cited_ids() -> dict[str, set[str]]:
    """Every rule ID the code cites -> the files citing it; also the rule IDs the illegal records
    of the conformance suite name (a referee must give them)."""
    where: dict[str, set[str]] = defaultdict(set)
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for rule in ids_in_source(path.read_text(encoding="utf-8")):
                where[rule].add(path.relative_to(ROOT).as_posix())
    for path in sorted((ROOT / "tests" / "conformance" / "records" / "illegal").glob("*.expect.json")):
        rule = json.loads(path.read_text(encoding="utf-8"))["rule"]
        where[rule].add(path.relative_to(ROOT).as_posix())
    return dict(where)


def documented_ids(text: str) -> set[str]:
    return set(HEADING.findall(text))


def missing(cited: dict[str, set[str]], doc: str) -> dict[str, set[str]]:
    known = documented_ids(doc)
    return {rule: files for rule, files in cited.items() if rule not in known}


def test_every_cited_rule_id_is_explained_in_docs_rules_md() -> None:
    gaps = missing(cited_ids(), RULES_DOC.read_text(encoding="utf-8"))
    assert not gaps, "rule IDs cited in the code but without a heading in docs/rules.md: " + "; ".join(
        f"{rule} ({', '.join(sorted(files)[:3])})" for rule, files in sorted(gaps.items()))


def test_the_scan_finds_rule_arguments_messages_and_numbered_ids() -> None:
    cited = cited_ids()
    # "S" and "T" are cited only as rule arguments; E3 also as a keyword; the rest appear everywhere
    assert {"S", "T", "C1", "C2", "C3", "S1", "S2", "H4", "T6", "E1", "E4", "F1", "D2", "V2", "V5",
            "I1", "I9"} <= set(cited)
    assert "model/engine.py" in cited["S"] and "model/engine.py" in cited["T"]
    assert all(RULE_ID.fullmatch(rule) for rule in cited)
    sample = 'def f(s):\n    """floors[Q] in a docstring is no citation."""\n' \
             '    raise IllegalAction("p0 cannot" , "D2" if s else "T")\n' \
             'x = f"{n} cards [E2]"\nRuleError("why", rule="E3")\n# (V4) in a comment\n'
    assert ids_in_source(sample) == {"D2", "T", "E2", "E3", "V4"}


def test_the_check_fails_when_an_entry_is_deleted() -> None:
    doc = RULES_DOC.read_text(encoding="utf-8")
    cited = cited_ids()
    assert not missing(cited, doc)
    without_h4 = re.sub(r"^### H4\. .*$", "", doc, flags=re.MULTILINE)
    assert set(missing(cited, without_h4)) == {"H4"}
    without_setup = re.sub(r"^## S\. .*$", "", doc, flags=re.MULTILINE)
    assert set(missing(cited, without_setup)) == {"S"}


def test_docs_rules_md_has_one_heading_per_rule() -> None:
    heads = HEADING.findall(RULES_DOC.read_text(encoding="utf-8"))
    assert len(heads) == len(set(heads))
    numbered = {h for h in heads if len(h) > 1}
    expected = {f"C{i}" for i in range(1, 4)} | {"S1", "S2"} | {f"H{i}" for i in range(1, 8)} | \
        {f"T{i}" for i in range(1, 8)} | {f"E{i}" for i in range(1, 5)} | {"F1", "D1", "D2"} | \
        {f"V{i}" for i in range(1, 6)} | {f"I{i}" for i in range(1, 10)}
    assert numbered == expected


# ---------------------------------------------------------------- the state format and its examples

STATE_DOC = ROOT / "docs" / "state-format.md"
EXAMPLE_STATE = ROOT / "docs" / "examples" / "state.json"
EXAMPLE_RECORD = ROOT / "docs" / "examples" / "record.jsonl"
EXAMPLE_LINE = 257  # docs/examples/state.json is the state after this line of the record


def _explained(doc: str) -> set[str]:
    """The keys and values a row of a table in docs/state-format.md explains: ``| `key` | ...``."""
    return set(re.findall(r"^\| `([a-z_0-9-]+)`", doc, flags=re.MULTILINE))


def _isla_state() -> dict[str, object]:
    from model import new_game, ruleset, state_to_json

    return state_to_json(new_game(ruleset("rio-grande", {"isla": True}), 4, 1))


def test_the_example_record_is_legal() -> None:
    from records.referee import check_record

    verdict = check_record(str(EXAMPLE_RECORD))
    assert verdict.status == "legal" and verdict.over, verdict


def test_the_example_state_is_the_engine_state_after_its_line_of_the_record() -> None:
    from model import Phase, state_to_json
    from records.game import read_record, replay_steps
    from schemas.position_io import state_of
    from solvers.positions import read_position

    written = json.loads(EXAMPLE_STATE.read_text(encoding="utf-8"))
    s = read_position(str(EXAMPLE_STATE))  # checked against the rules, a position the solvers take
    assert s == state_of(written, "example") and s.phase == Phase.TRADE and s.pending is not None
    steps = replay_steps(read_record(str(EXAMPLE_RECORD)))
    replayed = next(t for line, _, t in steps if line == EXAMPLE_LINE)
    assert state_to_json(replayed) == written


def test_every_key_of_the_state_json_is_explained() -> None:
    doc = STATE_DOC.read_text(encoding="utf-8")
    explained = _explained(doc)
    state = json.loads(EXAMPLE_STATE.read_text(encoding="utf-8"))
    isla = _isla_state()
    keys = set(state) | set(isla) | set(state["players"][0])
    isla_part = isla["isla"]
    assert isinstance(isla_part, dict)
    keys |= set(isla_part) | set(isla_part["fleets"][0]) | set(isla_part["fleets"][0]["merchants"][0])
    from model import Phase

    keys |= {p.name.lower() for p in Phase}  # the values of "phase"
    assert not keys - explained, f"not explained in docs/state-format.md: {sorted(keys - explained)}"


def test_the_state_format_is_linked_from_the_records_doc_and_the_readme() -> None:
    for path in (ROOT / "docs" / "records.md", ROOT / "README.md"):
        assert "state-format.md" in path.read_text(encoding="utf-8"), path


def test_every_ruleset_option_has_a_row_in_the_records_options_table() -> None:
    """docs/records.md "Ruleset options" names every option a header may carry, with its values
    (e.g. ``reshuffle``: ``at-exhaustion``, ``on-demand``, E1)."""
    import model
    from model.rules import HARVEST_READINGS, RESHUFFLE_READINGS, TIE_BREAKS

    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.split("## Ruleset options", 1)[1].split("\n## ", 1)[0].splitlines():
        if line.startswith("| `"):
            cells = line.split(" | ")
            for name in re.findall(r"`([a-z_]+)`", cells[0]):
                rows[name] = cells[1]
    missing = [k for k in model.ruleset("rio-grande").options() if k not in rows]
    assert not missing, f"options without a row in docs/records.md: {missing}"
    for key, values in (("reshuffle", RESHUFFLE_READINGS), ("harvest", HARVEST_READINGS),
                        ("tie_break", TIE_BREAKS)):
        assert all(f"`{v}`" in rows[key] for v in values), (key, rows[key])


# ---------------------------------------------------------------- the guide for other engines

GUIDE = ROOT / "docs" / "verify-your-engine.md"
CHECK = ROOT / "scripts" / "check_record.py"
# a record of the guide: "`NAME.jsonl`:", a blank line, then a ```jsonl block
GUIDE_RECORD = re.compile(r"^`([\w.-]+\.jsonl)`:\n\n```jsonl\n(.*?)^```$", re.MULTILINE | re.DOTALL)
CONSOLE = re.compile(r"^```console\n(.*?)^```$", re.MULTILINE | re.DOTALL)
SHOWN_COMMAND = "$ python scripts/check_record.py "


def shown_runs(text: str, records: set[str]) -> list[tuple[list[str], list[str], int | None]]:
    """The check_record.py runs the guide shows on its own records: (arguments, the output lines,
    the exit code a following ``$ echo $?`` shows, or None)."""
    runs: list[tuple[list[str], list[str], int | None]] = []
    for block in CONSOLE.findall(text):
        lines = block.splitlines()
        k = 0
        while k < len(lines):
            line = lines[k]
            k += 1
            if not line.startswith(SHOWN_COMMAND):
                continue
            args = line.removeprefix(SHOWN_COMMAND).split()
            out = []
            while k < len(lines) and not lines[k].startswith("$ "):
                out.append(lines[k])
                k += 1
            code = None
            if k + 1 < len(lines) and lines[k] == "$ echo $?":
                code = int(lines[k + 1])
                k += 2
            if {a for a in args if not a.startswith("--")} <= records:  # not RECORD.jsonl
                runs.append((args, out, code))
    return runs


def test_the_guide_s_worked_example_gives_the_verdicts_it_shows(tmp_path: Path) -> None:
    import subprocess
    import sys

    text = GUIDE.read_text(encoding="utf-8")
    records = dict(GUIDE_RECORD.findall(text))
    assert {"game.jsonl", "game-mistakes.jsonl", "game-p0.jsonl"} <= set(records)
    for name, body in records.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    runs = shown_runs(text, set(records))
    assert len(runs) >= 7 and {a for args, _, _ in runs for a in args} >= {"--all", "--json"} | set(records)
    for args, shown, code in runs:
        proc = subprocess.run([sys.executable, str(CHECK), *args], cwd=tmp_path, text=True, timeout=120,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert proc.stdout.splitlines() == shown, f"check_record.py {' '.join(args)}:\n{proc.stdout}"
        if code is not None:
            assert proc.returncode == code, (args, proc.returncode)


def test_the_guide_s_mistakes_record_differs_from_the_example_where_it_says() -> None:
    records = dict(GUIDE_RECORD.findall(GUIDE.read_text(encoding="utf-8")))
    good, bad = records["game.jsonl"].splitlines(), records["game-mistakes.jsonl"].splitlines()
    assert len(good) == len(bad) == 17
    assert [n for n, (a, b) in enumerate(zip(good, bad, strict=True), start=1) if a != b] == [3, 15, 16]
    assert (bad[14], bad[15]) == (good[15], good[14])


def test_rule_ids_cited_in_the_records_docs_are_explained() -> None:
    known = documented_ids(RULES_DOC.read_text(encoding="utf-8"))
    for path in (GUIDE, ROOT / "docs" / "records.md"):
        cited = set(NUMBERED.findall(path.read_text(encoding="utf-8")))
        assert cited and not cited - known, f"{path.name}: {sorted(cited - known)}"


def test_the_guide_is_linked_from_the_readme_and_the_records_doc() -> None:
    for path in (ROOT / "README.md", ROOT / "docs" / "records.md"):
        assert "verify-your-engine.md" in path.read_text(encoding="utf-8"), path


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _short(message: str) -> str:
    """A reshuffle's order cut as the guide shows it: ``wax,wax,green,...,blackeyed``."""
    return re.sub(r"reshuffle (\w+),(\w+),(\w+),[\w,]*,(\w+):", r"reshuffle \1,\2,\3,...,\4:", message)


def _annotated_example_record() -> list[str]:
    """docs/examples/record.jsonl with every annotation (conformance/views.py), as lines."""
    from conformance.views import annotated
    from records.game import read_record, replay_steps

    rec = read_record(str(EXAMPLE_RECORD))
    states, actions = [rec.initial_state()], []
    for _, a, t in replay_steps(rec):
        states.append(t)
        actions.append(a)
    lines = EXAMPLE_RECORD.read_text(encoding="utf-8").splitlines()
    return [lines[0], *(json.dumps(x) for x in annotated(states, actions)), lines[-1]]


def test_the_guide_s_converter_mistakes_print_the_messages_it_shows(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from model.rules import ruleset
    from play.bots import greedy_bot
    from play.playout import game_seed, play_game
    from records.game import header, record_lines
    from records.referee import check_record

    text = GUIDE.read_text(encoding="utf-8")
    shown = _flat(text[text.index("## 8. Common converter mistakes"):])
    game = dict(GUIDE_RECORD.findall(text))["game.jsonl"].splitlines()
    example = _annotated_example_record()
    assert '"chance"' in example[221] and '"reshuffle":"at-exhaustion"' in example[0]

    def edit(lines: list[str], no: int, old: str, new: str) -> list[str]:
        out = list(lines)
        assert old in out[no - 1], (no, old)
        out[no - 1] = out[no - 1].replace(old, new)
        return out

    head = json.loads(game[0])
    deck = head["deck"]
    head["deck"] = [deck[k] for seat in range(3) for k in range(seat, 15, 3)] + deck[15:]  # in blocks
    swapped = list(game)
    swapped[14], swapped[15] = game[15], game[14]
    s0, final, actions = play_game(ruleset("rio-grande", {"reshuffle": "on-demand"}), 3, game_seed(1, 0),
                                   [greedy_bot] * 3)[1:]
    on_demand = record_lines(header(s0), actions, final).splitlines()
    cases = {
        "game.jsonl": [
            edit(game, 10, "give u0 ask", "give u2 ask"),
            edit(game, 10, "give u0 ask", "give u1 ask"),
            swapped,
            edit(game, 11, "accept h5", "accept h0"),
            [json.dumps(head), *game[1:]],
            game[:11] + ['{"action": "p1 offer p2 give a0"}', '{"action": "p2 accept"}'] + game[11:],
            edit(game, 2, "plant 0", "plant 3"),
        ],
        "record.jsonl": [
            example[:221] + example[222:],  # no reshuffle line
            example[:220] + [example[221], example[220]] + example[222:],  # one line early
            example[:221] + [json.dumps({**json.loads(example[221]),
                                         "order": json.loads(example[221])["order"][::-1]})] + example[222:],
            edit(on_demand, 1, '"reshuffle":"on-demand"', '"reshuffle":"at-exhaustion"'),
            edit(example, 1, '"reshuffle":"at-exhaustion"', '"reshuffle":"on-demand"'),
        ],
    }
    monkeypatch.chdir(tmp_path)
    for name, records in cases.items():
        for lines in records:
            Path(name).write_text("\n".join(lines) + "\n", encoding="utf-8")
            verdict = check_record(name)
            assert verdict.status in ("illegal", "desync"), verdict
            assert _flat(_short(verdict.text())) in shown, verdict.text()


def test_the_guide_s_record_from_a_state_is_legal(tmp_path: Path) -> None:
    """Section 5: docs/examples/state.json as header.state, then lines 258-305 of the example record."""
    from records.referee import check_record

    head = {"format": "bohnanza-record", "version": 1,
            "state": json.loads(EXAMPLE_STATE.read_text(encoding="utf-8"))}
    rest = EXAMPLE_RECORD.read_text(encoding="utf-8").splitlines()[EXAMPLE_LINE:]
    path = tmp_path / "segment.jsonl"
    path.write_text("\n".join([json.dumps(head), *rest]) + "\n", encoding="utf-8")
    verdict = check_record(str(path))
    assert (verdict.status, verdict.actions, verdict.over) == ("legal", 47, True), verdict
    guide = _flat(GUIDE.read_text(encoding="utf-8"))
    assert "lines 258-305 of the record is a legal record of 47 actions" in guide


# ---------------------------------------------------------------- the Python page (docs/python.md)

PYTHON_DOC = ROOT / "docs" / "python.md"
EXAMPLE = re.compile(r"^```python\n(.*?)^```\n\n```text\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def test_every_python_example_prints_what_the_page_shows() -> None:
    import subprocess
    import sys

    text = PYTHON_DOC.read_text(encoding="utf-8")
    examples = EXAMPLE.findall(text)
    assert examples and len(examples) == text.count("```python")  # every block, each with its output
    for code, shown in examples:
        proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, text=True, timeout=300,
                              capture_output=True)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == shown, f"{code}\nprints\n{proc.stdout}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    readme_examples = EXAMPLE.findall(readme)
    assert readme_examples and readme_examples[0] == examples[0]  # the README shows the page's first


# ---------------------------------------------------------------- the README

README = ROOT / "README.md"
COMMANDS = ('python3.11 -m pip install . && python3.11 scripts/solve_endgame.py\n'
            'python3.11 -m pip install -e ".[test,cluster]" && '
            'python3.11 -m pytest -q -n auto --dist loadfile\n')


def test_the_readme_starts_with_the_two_commands_and_ci_runs_the_second() -> None:
    text = README.read_text(encoding="utf-8")
    first_block = text.split("```bash\n", 1)[1].split("```", 1)[0]
    assert first_block == COMMANDS and text.index("```bash") < text.index("\n## ")
    assert COMMANDS.splitlines()[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200


def shown_console(text: str) -> list[tuple[str, list[str]]]:
    """The ``$ command`` lines of a page's console blocks, each with the output lines shown after it."""
    runs: list[tuple[str, list[str]]] = []
    for block in CONSOLE.findall(text):
        for line in block.splitlines():
            if line.startswith("$ "):
                runs.append((line[2:], []))
            else:
                runs[-1][1].append(line)
    return runs


def output_pattern(shown: list[str]) -> re.Pattern[str]:
    """What a shown output allows: a line ``...`` stands for any lines, ``…`` in a line for any text."""
    parts = ["(?:.*\\n)*?" if line == "..." else ".*?".join(map(re.escape, line.split("…"))) + "\\n"
             for line in shown]
    return re.compile("".join(parts))


def test_the_output_pattern_elides_lines_and_text() -> None:
    pat = output_pattern(["a", "...", "value: 6 (…)", "..."])
    assert pat.fullmatch("a\nb\nc\nvalue: 6 (0.1 s)\nz\n") and pat.fullmatch("a\nvalue: 6 ()\n")
    assert not pat.fullmatch("a\nvalue: 7 (0.1 s)\n") and not pat.fullmatch("b\nvalue: 6 (x)\n")


def test_every_command_the_readme_shows_prints_what_it_shows(tmp_path: Path) -> None:
    """Run in a scratch directory that sees the repository's scripts, docs and tests, so that the
    study's ``out/`` lands there; this repository's packages come first on the path."""
    import os
    import shlex
    import subprocess
    import sys

    for part in ("scripts", "docs", "tests"):
        (tmp_path / part).symlink_to(ROOT / part)
    runs = shown_console(README.read_text(encoding="utf-8"))
    shown_scripts = {shlex.split(command)[1] for command, _ in runs}
    assert {"scripts/solve_endgame.py", "scripts/check_record.py", "scripts/diff_engine.py",
            "scripts/study.py"} <= shown_scripts
    python = shlex.quote(sys.executable)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    for command, shown in runs:
        assert command.startswith("python scripts/"), command
        proc = subprocess.run(command.replace("python ", python + " "), shell=True, cwd=tmp_path, text=True,
                              timeout=300, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        assert "Traceback" not in proc.stdout, proc.stdout
        assert output_pattern(shown).fullmatch(proc.stdout), f"$ {command}\n{proc.stdout}"


def test_the_readme_s_numbers_are_the_solver_s() -> None:
    """The main job's explanation: 19 coins with deals, 6 without (issue 43: it said 11)."""
    from solvers.endgame import load, solve

    s = load("rio4-last-turn")
    best, alone = solve(s, "best"), solve(s, "solo", player=1)
    text = _flat(README.read_text(encoding="utf-8"))
    assert (best.player, best.value, alone.value, best.status) == (1, 19, 6, "optimal")
    assert f"The answer is {best.value}, proved optimal" in text
    assert f"Without deals p1's optimum is {alone.value}" in text
    assert f"deals are worth {best.value - alone.value} coins to p1" in text
    floors = best.stats.floors
    assert f"the floors `{floors}`" in text
    above = {q: c - f for q, (c, f) in enumerate(zip(best.per_player, floors, strict=True)) if q != 1}
    if any(above.values()):  # the text says how far above its floor each seat ends, or that none is
        assert all(f"p{q} ends {a} coin{'' if a == 1 else 's'} above" in text
                   for q, a in above.items() if a), above
    else:
        assert "every other seat ends exactly at its floor" in text


def test_the_readme_s_objective_table_has_one_row_per_objective() -> None:
    rows = re.findall(r"^\| `(\w+)[ `]", README.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert rows == ["solo", "coop", "best", "duel", "expected"]


# ---------------------------------------------------------------- what the docs may name and count

def doc_pages() -> list[Path]:
    return [README, *sorted((ROOT / "docs").rglob("*.md"))]


def test_no_doc_names_a_file_outside_the_repository() -> None:
    """Issue 43: the README cited ../shared/RULES.md, docs/endgames.md and solve_endgame.py --help
    DESIGN.md, which a clone does not have. The rules are docs/rules.md; the objectives docs/endgames.md.
    Every script's ``--help`` is checked where it is run once: tests/test_sigint.py."""
    pages = list(doc_pages()) + sorted((ROOT / "docs" / "schemas").glob("*.json"))  # the published schemas
    found = [f"{p.relative_to(ROOT)}: {m}" for p in pages
             for m in OUTSIDE.findall(p.read_text(encoding="utf-8"))]
    assert not found, found


def _conformance(folder: str, pattern: str) -> int:
    return len(list((ROOT / "tests" / "conformance" / folder).glob(pattern)))


@cache
def true_counts() -> dict[str, int]:
    from proofs import mutants
    from proofs.invariants import PROOF_CONFIGS
    from proofs.isla import invariants as isla_invariants
    from proofs.isla import mutants as isla_mutants

    illegal = ROOT / "tests" / "conformance" / "records" / "illegal"
    endgames = sorted((ROOT / "tests" / "conformance" / "endgames").glob("*.json"))
    return {
        "perft": _conformance("perft", "*.json"),
        "legal": _conformance("records/legal", "*.jsonl"),
        "illegal": _conformance("records/illegal", "*.jsonl"),
        "referee": _conformance("records/referee", "*.jsonl"),
        "endgames": len(endgames),
        "values": sum(len(json.loads(p.read_text(encoding="utf-8"))["values"]) for p in endgames),
        "rule IDs": len({json.loads(p.read_text(encoding="utf-8"))["rule"]
                         for p in illegal.glob("*.expect.json")}),
        "mutants": len(mutants.MUTANTS),
        "spec mutants": sum(bool(m.spec) for m in mutants.MUTANTS.values()),
        "isla mutants": len(isla_mutants.MUTANTS),
        "configurations": len(PROOF_CONFIGS),
        "isla configurations": len(isla_invariants.PROOF_CONFIGS) + len(isla_invariants.EXTRA_CONFIGS),
    }


# a count the docs state -> what it counts; each must be stated somewhere, and right wherever it is
STATED = {
    r"\| `perft/` \| (\d+) `NAME\.json`": "perft",
    r"(\d+) perft positions": "perft",
    r"\| `records/legal/` \| (\d+) `NAME\.jsonl`": "legal",
    r"(\d+) legal (?:game )?records": "legal",
    r"\| `records/illegal/` \| (\d+) `NAME\.jsonl`": "illegal",
    r"(\d+) illegal (?:game )?records": "illegal",
    r"\| `records/referee/` \| (\d+) `NAME\.jsonl`": "referee",
    r"\| `endgames/` \| (\d+) `NAME\.json`": "endgames",
    r"(\d+) endgame positions with": "endgames",
    r"(\d+) proved optimal values": "values",
    r"\((\d+) rule IDs\)": "rule IDs",
    r"(\d+) named breakages": "mutants",
    r"[Ee]ach of the (\d+) is found": "mutants",
    r"checks\s+all (\d+)\)": "mutants",
    r"(\d+) have the same breakage in the spec": "spec mutants",
    r"(\d+) mutants each refuted": "isla mutants",
    r"on (\d+) configurations \(`proofs\.invariants\.PROOF_CONFIGS`\)": "configurations",
    r"(\d+) configurations\s+\(`proofs\.isla\.invariants\.PROOF_CONFIGS`": "isla configurations",
}


def test_every_count_the_docs_state_is_the_tree_s() -> None:
    """Issue 43: the README said 14 named breakages (16), 30 perft positions (33), 34 legal and 44
    illegal records (35, 46), 26 rule IDs (22). Every such count is checked here, where it is."""
    counts = true_counts()
    seen: dict[str, int] = defaultdict(int)
    wrong = []
    for page in doc_pages():
        text = page.read_text(encoding="utf-8")
        for pattern, what in STATED.items():
            for m in re.finditer(pattern, text):
                seen[pattern] += 1
                if int(m.group(1)) != counts[what]:
                    wrong.append(f"{page.relative_to(ROOT)}: {m.group(0)!r}: {what} is {counts[what]}")
    assert not wrong, "\n".join(wrong)
    unused = [p for p in STATED if not seen[p]]
    assert not unused, f"patterns no doc states any more (drop them or the text moved): {unused}"


def test_no_doc_states_a_test_count() -> None:
    """Test counts change with every commit: the docs do not state them (``pytest`` says it)."""
    stated = [f"{p.relative_to(ROOT)}: {m}" for p in doc_pages()
              for m in re.findall(r"\b\d[\d,]* (?:tests|expected failures)\b", p.read_text(encoding="utf-8"))]
    assert not stated, stated


def test_every_relative_link_of_the_docs_leads_to_a_file() -> None:
    broken = []
    for page in doc_pages():
        for m in re.finditer(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" not in m.group(1) and not (page.parent / m.group(1)).exists():
                broken.append(f"{page.relative_to(ROOT)}: {m.group(1)}")
    assert not broken, broken
