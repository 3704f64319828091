"""scripts/show.py and viewer/ (and solve_endgame.py --html): the page's embedded steps are the
engine's states (each step's picture is drawing/svg.py's picture of the state the referee's replay
reaches at that line), its deviations are check_record --all's, a solved line reaches the solver's
value, --seat hides what H7 hides, bad input writes no page and exits 2 with one line."""

from __future__ import annotations

import base64
import gzip
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from builders import run_script

from drawing.svg import parts, svg
from model import apply
from records.game import parse_record
from records.referee import check_record
from viewer.build import build

ROOT = Path(__file__).resolve().parent.parent
SHOW = ROOT / "scripts" / "show.py"
SOLVE = ROOT / "scripts" / "solve_endgame.py"
REFEREE = ROOT / "tests" / "conformance" / "records" / "referee"
LEGAL = ROOT / "tests" / "conformance" / "records" / "legal"


def page_data(html: str) -> dict[str, Any]:
    """The viewer's data as the page's script unpacks it (base64, gzip, JSON)."""
    m = re.search(r'<script id="data" type="application/octet-stream">([^<]*)</script>', html)
    assert m, "no data block"
    return json.loads(gzip.decompress(base64.b64decode(m.group(1))))


def replayed(path: Path) -> list[Any]:
    """The states a replay as check_record --all follows it reaches, the start first."""
    from records.referee import follow

    rec = parse_record(path.read_text())
    states = [rec.initial_state()]
    follow(rec, every=True, on_step=lambda k, s: states.append(s))
    return states


def test_a_record_page_holds_every_replayed_state_and_the_referees_deviations() -> None:
    path = REFEREE / "three-deviations.jsonl"
    data = page_data(build(str(path)).html())
    states = replayed(path)
    assert len(data["steps"]) == len(states)
    for st, s in zip(data["steps"], states, strict=True):
        assert [data["parts"][k] for k in st["p"]] == parts(s)
    verdict = check_record(str(path), every=True)
    assert [(d["line"], d["kind"], d["rule"]) for d in data["devs"]] == \
        [(d.line, d.kind, d.rule) for d in verdict.deviations]
    expect = json.loads((REFEREE / "three-deviations.expect.json").read_text())["deviations"]
    assert [d["line"] for d in data["devs"]] == [d["line"] for d in expect]
    for k, d in enumerate(data["devs"]):  # each deviation sits at its own line's step
        assert data["steps"][d["step"]]["l"] == d["line"] and k in data["steps"][d["step"]]["x"]
    assert data["start"] == data["devs"][0]["step"]


def test_a_record_that_cannot_be_followed_says_where_it_stops() -> None:
    path = REFEREE / "stop-after-game-over.jsonl"
    data = page_data(build(str(path)).html())
    expect = json.loads((REFEREE / "stop-after-game-over.expect.json").read_text())
    assert expect["stopped"] and f"line {expect['stopped']}" in data["steps"][-1]["s"]


@pytest.mark.rule("H7")
def test_H7_a_seat_page_shows_other_hands_as_backs_and_hides_their_coins() -> None:
    path = LEGAL / "rio-grande-4p.jsonl"
    data = page_data(build(str(path), seat=2).html())
    states = replayed(path)
    for st, s in zip(data["steps"][::25], states[::25], strict=True):
        assert [data["parts"][k] for k in st["p"]] == parts(s, 2)
        over = s.is_over
        assert [c is None for c in st["c"]] == [q != 2 and not over for q in range(4)]
    beans_of_others = re.compile(r'data-zone="p[013]\.hand"[^>]*data-bean=')
    assert not any(beans_of_others.search(x) for x in data["parts"])
    assert all("reason is hidden" in d["reason"] for d in data["devs"])


def test_a_600_line_record_stays_light() -> None:
    path = LEGAL / "isla-5p.jsonl"
    lines = len(path.read_text().splitlines())
    html = build(str(path)).html()
    assert lines > 600 and len(html.encode()) < 400_000  # 5 MB of pictures before sharing and gzip


def test_a_solved_isla_line_page_shows_the_ships_and_the_raids(tmp_path: Path) -> None:
    # La Isla Bohnita (issue 41 item 5): the line of an Isla solo, drawn with the rows and the fleets
    page = tmp_path / "isla.html"
    out = run_script(SOLVE, "isla-rio4-last-turn", "--objective", "solo", "--html", page)
    assert out.returncode == 0, out.stderr
    data = page_data(page.read_text())
    steps = data["steps"]
    assert steps[-1]["v"] == 6 and any(" attack " in st["t"] for st in steps[1:])
    pictures = " ".join(str(x) for x in data["parts"]).lower()
    assert "bohnbay" in pictures and "pirate" in pictures and "cargo" in pictures


def test_a_solved_line_page_steps_to_the_solvers_value(tmp_path: Path) -> None:
    out = run_script(SOLVE, "trade-ask", "--objective", "coop", "--solver", "exact", "--json")
    assert out.returncode == 0, out.stderr
    sol = json.loads(out.stdout)
    (tmp_path / "line.json").write_text(out.stdout)
    page = tmp_path / "line.html"
    proc = run_script(SHOW, tmp_path / "line.json", "--out", page)
    assert proc.returncode == 0, proc.stderr
    data = page_data(page.read_text())
    steps = data["steps"]
    assert len(steps) == len(sol["line"]) + 1 and steps[-1]["v"] == sol["value"]
    # the command line, the summary and the page ("step k of N") count the same steps: the actions
    n = len(sol["line"])
    said = f"{page}: {n} steps, coop p{sol['player']} reaches {sol['value']} ({sol['status']}), "
    assert said in proc.stdout and "deviation" not in proc.stdout
    assert data["summary"][0].startswith(f"{n} steps;")
    assert all(st["t"].startswith(f"{k}. ") and st["l"] == k for k, st in enumerate(steps) if k)
    s = build(str(tmp_path / "line.json")).steps  # the same page in process
    assert s == steps
    from model import parse_action
    from schemas.position_io import state_of

    st = state_of(sol["state"], "line.json")
    for k, text in enumerate(sol["line"]):
        before, st = st, apply(st, parse_action(text))
        assert steps[k + 1]["c"] == [len(p.coins) for p in st.players]
        assert ("d" in steps[k + 1]) == (text.split()[1] == "accept")  # T3: each deal is drawn
        if "d" in steps[k + 1]:
            assert f"p{before.active}" in steps[k + 1]["d"]
    assert any("d" in x for x in steps)


def test_step_counts_agree_and_one_step_is_singular(tmp_path: Path) -> None:
    """Issue 43: the command lines counted the pictures (the start too), the page the steps after it;
    a record's steps go by its lines, each step's title naming the line the page says."""
    sol = json.loads(run_script(SOLVE, "trade-ask", "--objective", "solo", "--json").stdout)
    sol["line"] = sol["line"][:1]
    (tmp_path / "one.json").write_text(json.dumps(sol))
    proc = run_script(SHOW, tmp_path / "one.json", "--out", tmp_path / "one.html")
    assert proc.returncode == 0, proc.stderr
    assert "one.html: 1 step, solo p" in proc.stdout and "deviation" not in proc.stdout
    page = build(str(tmp_path / "one.json"))
    assert page.count() == "1 step" and page.summary[0].startswith("1 step;")
    path = REFEREE / "three-deviations.jsonl"
    proc = run_script(SHOW, path, "--out", tmp_path / "rec.html")
    rec = parse_record(path.read_text())
    assert f"{len(rec.actions)} steps, 3 deviations" in proc.stdout
    data = page_data((tmp_path / "rec.html").read_text())
    assert data["unit"] == "line"
    assert [st["l"] for st in data["steps"][1:]] == rec.lines
    assert all(st["t"].startswith(f"line {st['l']}: ") for st in data["steps"])
    proc = run_script(SOLVE, "protected-single", "--objective", "solo", "--html", tmp_path / "p.html")
    assert "(7 steps," in proc.stdout  # its line: 7 actions


def test_solve_endgame_html_writes_the_same_page(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    proc = run_script(SOLVE, "protected-single", "--objective", "solo", "--html", page)
    assert proc.returncode == 0, proc.stderr
    assert f"page written to {page}" in proc.stdout
    data = page_data(page.read_text())
    assert data["steps"][-1]["v"] == 2  # tests/conformance/endgames/protected-single.json: solo 2


@pytest.mark.parametrize("content,message", [
    ('{"format": "bohnanza-record", "version": 1\n', "malformed record"),
    ('{"format": "bohnanza-record", "version": 9, "ruleset": "rio-grande", "players": 3}\n', "version"),
])
def test_bad_records_give_one_line_exit_2_and_no_page(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content)
    proc = run_script(SHOW, bad, "--out", tmp_path / "p.html")
    assert proc.returncode == 2 and message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert not (tmp_path / "p.html").exists() and list(tmp_path.iterdir()) == [bad]


def test_a_position_that_fails_validation_gives_exit_2_and_no_page(tmp_path: Path) -> None:
    obj = json.loads((ROOT / "tests" / "conformance" / "endgames" / "six-reds.json").read_text())
    obj["state"]["players"][0]["fields"][0] = ["red", 12]  # more reds than the deck has, 8 (C2)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(obj))
    proc = run_script(SHOW, bad, "--out", tmp_path / "p.html")
    assert proc.returncode == 2 and "C2" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "p.html").exists()


def test_a_line_that_does_not_replay_gives_exit_2(tmp_path: Path) -> None:
    out = run_script(SOLVE, "protected-single", "--objective", "solo", "--json")
    sol = json.loads(out.stdout)
    sol["line"].insert(0, "p0 harvest 0")  # the one chili is protected while five blues stand (H4)
    bad = tmp_path / "line.json"
    bad.write_text(json.dumps(sol))
    proc = run_script(SHOW, bad, "--out", tmp_path / "p.html", "--seat", "1")
    assert proc.returncode == 2 and "line[0]: illegal p0 harvest 0" in proc.stderr and "[H4]" in proc.stderr
    assert not (tmp_path / "p.html").exists()


def test_seat_out_of_range_and_an_existing_page_are_refused(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    proc = run_script(SHOW, REFEREE / "three-deviations.jsonl", "--out", page, "--seat", "4")
    assert proc.returncode == 2 and "--seat 4" in proc.stderr and not page.exists()
    page.write_text("mine")
    proc = run_script(SHOW, REFEREE / "three-deviations.jsonl", "--out", page)
    assert proc.returncode == 2 and "--force" in proc.stderr and page.read_text() == "mine"


def test_a_position_page_embeds_its_trade_graph() -> None:
    """One edge per partner of the active player, labelled with the deals trade_map finds (T3-T5)."""
    import xml.etree.ElementTree as ET

    from solvers.positions import LIBRARY
    from solvers.trade_graph import to_trading, trade_map

    page = build("trade-ask", graph=True)
    svg = re.search(r'<svg [^>]*class="tradegraph".*?</svg>', page.extra, re.DOTALL)
    assert svg is not None
    root = ET.fromstring(svg.group(0))
    ns = "{http://www.w3.org/2000/svg}"
    s, _ = to_trading(LIBRARY["trade-ask"].position())
    tm = trade_map(s, s.setup.rules.max_deal_cards)
    assert len(root.findall(f"{ns}line")) == len(s.players) - 1
    texts = [t.text for t in root.iter(f"{ns}text")]
    for q in range(len(s.players)):
        if q != s.active:
            mine = [d for d in tm.deals if d.partner == q]
            assert f"{len(mine)} deals, {sum(d.pareto for d in mine)} Pareto" in texts
    assert f"{len(tm.deals):,} legal deals" in page.extra
    data = page_data(page.html())
    assert len(data["steps"]) == 1 and "tradegraph" in page.html()


def test_svg_writes_one_steps_picture(tmp_path: Path) -> None:
    out = tmp_path / "p.svg"
    proc = run_script(SHOW, REFEREE / "three-deviations.jsonl", "--svg", out, "--step", "20")
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == svg(replayed(REFEREE / "three-deviations.jsonl")[20])
    proc = run_script(SHOW, REFEREE / "three-deviations.jsonl", "--svg", tmp_path / "q.svg", "--step", "9999")
    assert proc.returncode == 2 and "--step 9999" in proc.stderr and not (tmp_path / "q.svg").exists()


def test_show_says_what_a_position_page_holds(tmp_path: Path) -> None:
    """Not "0 deviations" (a record's word) for a position: its table and the seat to move."""
    proc = run_script(SHOW, "rio4-last-turn", "--out", tmp_path / "pos.html")
    assert proc.returncode == 0, proc.stderr
    assert "pos.html: 0 steps, a position (rio-grande, 4 players, p1 active), " in proc.stdout, proc.stdout


def test_the_tools_page_s_viewer_commands_run_in_order(tmp_path: Path) -> None:
    """docs/tools.md's line.html / line.json commands, as the page gives them, one after another in
    one directory (the second page once collided with the first: "exists; use --force")."""
    text = (ROOT / "docs" / "tools.md").read_text(encoding="utf-8")
    block = text.split("## Pictures and the viewer")[1].split("```bash\n")[1].split("```")[0]
    commands = [c.split("  #")[0] for c in block.splitlines() if "line.json" in c or "line.html" in c]
    assert len(commands) >= 3, block
    for command in commands:
        command = command.replace("python scripts/", f"{sys.executable} {ROOT}/scripts/")
        proc = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, (command, proc.stderr)
