"""The referee (records/referee.py, scripts/check_record.py): every deviation with --all and where the
replay stops; the one-line formats and --json fields; bean annotations (records/annotations.py) and
desynchronised lines; records from a state (records/game.py); the messages of T3, T4, E1, E2; and
records with unknown cards (records/unknown.py): public views of seeded games of every edition are
legal, a changed card is illegal at its line, a pool exceeded names S, a time limit gives undecided."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from builders import run_script
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.games import jsonl, played
from conformance.kinds import Game, GameSpec, in_trade
from conformance.views import annotated, public_view
from model import (
    Accept,
    Action,
    Discard,
    DiscardUp,
    Harvest,
    Phase,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
    apply,
    winners,
)
from model.cards import BEAN_NAMES
from model.isla import isla_of
from model.state import GameState, state_to_json
from play.bots import BOTS
from play.playout import play_game
from records.game import action_line, header
from records.referee import Verdict, check_record

ROOT = Path(__file__).resolve().parent.parent
REFEREE = ROOT / "tests" / "conformance" / "records" / "referee"
Line = dict[str, Any]


def write(tmp_path: Path, lines: list[Line], name: str = "r.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(jsonl(lines), encoding="utf-8")
    return path


def judge(tmp_path: Path, lines: list[Line], every: bool = True, time_limit: float = 60.0) -> Verdict:
    return check_record(str(write(tmp_path, lines)), every=every, time_limit=time_limit)


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_script("check_record.py", *args)


def one_line(proc: subprocess.CompletedProcess[str], code: int) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def lines_of(g: Game) -> list[Line]:
    return [dict(x) for x in g.lines]


def at(g: Game, pred: Callable[[GameState, Action], bool], after: int = -1) -> int:
    return g.at(lambda s, a: s.turn > after and pred(s, a))


def insert(lines: list[Line], i: int, *new: Line) -> int:
    """Insert before action ``i`` (line object i + 1); the first new line's number."""
    lines[i + 1:i + 1] = list(new)
    return i + 2


def trading(s: GameState, a: Action) -> bool:
    return in_trade(s) and s.to_move == s.active


def with_aside(s: GameState, a: Action) -> bool:
    return trading(s, a) and bool(s.players[s.active].aside)


def devs(v: Verdict) -> list[tuple[int, str, str]]:
    return [(d.line, d.kind, d.rule) for d in v.deviations]


# ---------------------------------------------------------------- --all: where a replay stops


def test_all_stops_where_the_game_is_over_and_the_record_goes_on(tmp_path: Path) -> None:
    """E2: after the end nothing applies; the end line after it is not judged any more."""
    g = played("amigo-3p")
    lines = lines_of(g)
    lines[-1] = {"end": {"coins": [0, 0, 0], "winners": [0]}}  # wrong, but past the stop
    lines.insert(len(lines) - 1, {"action": "p1 plant 0"})
    v = judge(tmp_path, lines)
    assert devs(v) == [(len(lines) - 1, "illegal", "E2")]
    assert (v.stopped, v.why) == (len(lines) - 1, "the game is over and the record goes on")
    assert v.over and v.actions == len(g.actions)


def test_all_stops_where_a_reshuffle_is_due_and_the_line_is_not_one(tmp_path: Path) -> None:
    """E1: a deleted chance line; the next action is illegal and cannot be followed."""
    g = played("amigo-3p")
    i = next(k for k, a in enumerate(g.actions) if isinstance(a, Reshuffle))
    lines = lines_of(g)
    del lines[i + 1]
    v = judge(tmp_path, lines)
    nxt = str(g.actions[i + 1])
    assert devs(v) == [(i + 2, "illegal", "E1")] and v.stopped == i + 2
    assert v.why == f"a reshuffle is due (E1) and the line is {nxt!r}"


def test_all_stops_at_a_reshuffle_that_is_not_due(tmp_path: Path) -> None:
    g = played("amigo-3p")
    i = at(g, lambda s, a: s.phase == Phase.PLANT and len(s.discard) >= 2, 3)
    lines = lines_of(g)
    no = insert(lines, i, action_line(Reshuffle(g.states[i].discard)))
    v = judge(tmp_path, lines)
    assert devs(v) == [(no, "illegal", "E1")] and v.stopped == no
    assert v.why.startswith("no reshuffle is due (E1): the replay is at turn ")
    assert "phase plant" in v.why and "cards in the draw pile" in v.why


@pytest.mark.parametrize(("action", "rule"), [("plant 7", "H3"), ("harvest 7", "H5")])
def test_all_stops_at_an_action_that_does_not_apply(tmp_path: Path, action: str, rule: str) -> None:
    g = played("amigo-3p")
    i = at(g, lambda s, a: s.phase == Phase.PLANT and s.planted == 0, 2)
    p = g.states[i].active
    lines = lines_of(g)
    no = insert(lines, i, {"action": f"p{p} {action}"})
    v = judge(tmp_path, lines)
    assert devs(v) == [(no, "illegal", rule)] and v.stopped == no
    assert v.why.startswith(f"'p{p} {action}' does not apply to the state (the replay is at turn ")
    assert v.lines()[-1] == (f"{tmp_path / 'r.jsonl'}: 1 deviation ({rule} 1); stopped at line {no}: the "
                             f"record cannot be followed: {v.why}")


@pytest.mark.parametrize(("game", "plant"), [
    ("rio-grande-4p", lambda a, q: [f"p{a} offer p{q} give u7", f"p{q} accept"]),  # T3, then the accept
    ("isla-4p", lambda a, q: [f"p{a} attack p{q} m0", f"p{q} yield"]),  # I7 (no pirate ship), the yield
])
def test_all_stops_where_a_forced_line_left_a_state_the_next_line_cannot_use(
        tmp_path: Path, game: str, plant: Callable[[int, int], list[str]]) -> None:
    """A forced proposal naming a face-up card that is not there, or an attack without a pirate
    ship, leaves a state the rules never reach; the answer to it cannot be followed: the referee
    stops there (it once crashed: internal error, exit 70)."""
    g = played(game)
    i = at(g, lambda s, a: trading(s, a) and (s.ext is None or isla_of(s).fleets[s.active].pirate is None), 1)
    a = g.states[i].active
    q = (a + 1) % len(g.states[i].players)
    lines = lines_of(g)
    no = insert(lines, i, *({"action": x} for x in plant(a, q)))
    v = judge(tmp_path, lines)
    assert [d.line for d in v.deviations] == [no] and v.stopped == no + 1, v.lines()
    assert v.why.startswith(f"'p{q} ") and " does not apply to the state the unchecked steps before it " \
        "left (the replay is at turn " in v.why
    assert run("--all", tmp_path / "r.jsonl").returncode == 1


def test_all_stops_at_a_seat_that_does_not_exist(tmp_path: Path) -> None:
    g = played("amigo-3p")
    lines = lines_of(g)
    no = insert(lines, 10, {"action": "p3 plant 0"})
    v = judge(tmp_path, lines)
    assert devs(v) == [(no, "illegal", "S")] and (v.stopped, v.why) == (no, "there is no seat p3")


# ---------------------------------------------------------------- --all: text, JSON, without --all


def three(tmp_path: Path) -> tuple[Path, list[tuple[int, str, str]], Game]:
    """T3 (a non-active proposal, declined), T4 (a0 offered, declined), a desync (a planting's bean)."""
    g = played("rio-grande-5p")
    i1 = at(g, trading, 1)
    i2 = at(g, with_aside, g.states[i1].turn)
    i3 = at(g, lambda s, a: isinstance(a, Plant), g.states[i2].turn)
    lines = lines_of(g)
    s3 = g.states[i3]
    wrong = next(b for b in s3.setup.beans if b != s3.players[s3.to_move].hand[0])
    lines[i3 + 1]["bean"] = BEAN_NAMES[wrong]
    s2 = g.states[i2]
    a2, q2 = s2.active, (s2.active + 1) % 5
    insert(lines, i2, {"action": f"p{a2} offer p{q2} give a0"}, {"action": f"p{q2} decline"})
    s1 = g.states[i1]
    q, r = (s1.active + 1) % 5, (s1.active + 2) % 5
    insert(lines, i1, {"action": f"p{q} offer p{r} give h0"}, {"action": f"p{r} decline"})
    want = [(i1 + 2, "illegal", "T3"), (i2 + 4, "illegal", "T4"), (i3 + 6, "desync", "")]
    return write(tmp_path, lines), want, g


def test_all_lists_every_deviation_one_line_each_and_a_summary(tmp_path: Path) -> None:
    path, want, g = three(tmp_path)
    v = check_record(str(path), every=True)
    assert devs(v) == want and v.status == "illegal" and v.code == 1
    out = v.lines()
    assert len(out) == 4
    (t3, _, _), (t4, _, _), (ds, _, _) = want
    assert out[0].startswith(f"{path}:{t3}: illegal p") and " offer p" in out[0] and out[0].endswith("[T3]")
    assert out[1].startswith(f"{path}:{t4}: illegal p") and " give a0: " in out[1] and out[1].endswith("[T4]")
    assert out[2].startswith(f"{path}:{ds}: desync: the record says ")
    final = g.final
    assert out[3] == (f"{path}: 3 deviations (T3 1, T4 1, desync 1); followed to the end, "
                      f"{len(g.actions) + 4} actions, final coins {list(final.coins())}")
    assert v.winners == tuple(winners(final))


def test_all_json_fields(tmp_path: Path) -> None:
    path, want, g = three(tmp_path)
    info = json.loads(run("--all", "--json", path).stdout)
    assert [(d["line"], d["status"], d.get("rule", "")) for d in info["deviations"]] == want
    assert all(set(d) >= {"line", "action", "status", "reason"} for d in info["deviations"])
    assert info["by_rule"] == {"T3": 1, "T4": 1, "desync": 1}
    assert info["followed"] == {"actions": len(g.actions) + 4, "coins": list(g.final.coins()), "over": True,
                                "stopped": None}
    assert (info["status"], info["line"], info["rule"]) == ("illegal", want[0][0], "T3")


def test_all_json_says_where_it_stopped(tmp_path: Path) -> None:
    g = played("amigo-3p")
    lines = lines_of(g)
    lines.insert(len(lines) - 1, {"action": "p0 plant 0"})
    proc = run("--all", "--json", write(tmp_path, lines))
    assert proc.returncode == 1
    info = json.loads(proc.stdout)
    assert info["followed"]["stopped"] == {"line": len(lines) - 1,
                                           "reason": "the game is over and the record goes on"}


def test_without_all_only_the_first_deviation(tmp_path: Path) -> None:
    path, want, _ = three(tmp_path)
    v = check_record(str(path))
    assert devs(v) == want[:1] and v.lines() == [v.text()] and v.text().endswith("[T3]")
    proc = run("--json", path)
    info = json.loads(proc.stdout)
    assert proc.returncode == 1 and (info["line"], info["rule"]) == (want[0][0], "T3")
    assert "deviations" not in info and "followed" not in info
    text = run(path)
    assert text.returncode == 1 and text.stderr.strip() == v.text()


def test_a_desync_alone_is_status_desync_exit_1(tmp_path: Path) -> None:
    g = played("amigo-3p")
    lines = lines_of(g)
    i = at(g, lambda s, a: isinstance(a, Plant), 2)
    s = g.states[i]
    lines[i + 1]["bean"] = BEAN_NAMES[next(b for b in s.setup.beans if b != s.players[s.to_move].hand[0])]
    proc = run("--all", write(tmp_path, lines))
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1].startswith(f"{tmp_path / 'r.jsonl'}: 1 deviation (desync 1); ")
    assert json.loads(run("--json", tmp_path / "r.jsonl").stdout)["status"] == "desync"


def test_z3_compares_the_first_illegal_line_not_a_desync(tmp_path: Path) -> None:
    """--z3: the spec reads no annotations, so it is compared with the rules-only first illegal line."""
    g = played("amigo-3p")
    lines = lines_of(g)
    i = at(g, lambda s, a: isinstance(a, Plant), 2)
    s = g.states[i]
    lines[i + 1]["bean"] = BEAN_NAMES[next(b for b in s.setup.beans if b != s.players[s.to_move].hand[0])]
    proc = run("--z3", write(tmp_path, lines))
    assert proc.returncode == 1 and "disagree" not in proc.stderr, proc.stderr


def test_a_legal_record_with_all_is_one_line(tmp_path: Path) -> None:
    g = played("amigo-3p")
    v = judge(tmp_path, lines_of(g))
    assert v.status == "legal" and v.lines() == [v.text()] and not v.deviations
    info = v.summary()
    followed = info["followed"]
    assert info["deviations"] == [] and info["by_rule"] == {}
    assert isinstance(followed, dict) and followed["stopped"] is None


# ---------------------------------------------------------------- bean annotations


def careful(name: str) -> tuple[Game, list[Line]]:
    """The game's record as a careful writer annotates it, with every hand after every 7th line."""
    g = played(name)
    body = annotated(g.states, g.actions)
    for i, line in enumerate(body):
        if i % 7 == 3:
            after = g.states[i + 1].players
            line["hands"] = {f"p{q}": [BEAN_NAMES[c] for c in p.hand] for q, p in enumerate(after)}
    return g, [dict(g.lines[0]), *body, *lines_of(g)[len(g.actions) + 1:]]


def other(bean: str, not_too: str = "") -> str:
    return next(b for b in ("wax", "blue", "chili", "stink") if b not in (bean, not_too))


def change_first(items: list[str]) -> list[str]:
    return [other(items[0], items[0]), *items[1:]]


KINDS: list[tuple[str, str, type, str, str]] = [  # id, game, action type, key, the mismatch's words
    ("plant", "rio-grande-4p", Plant, "bean", "front card is"),
    ("plant-aside", "rio-grande-4p", PlantAside, "bean", "the action plants"),
    ("harvest", "rio-grande-4p", Harvest, "bean", "field"),
    ("plant-up", "rio-grande-2p-duel", PlantUp, "bean", "face-up card u"),
    ("discard-hand", "rio-grande-2p-duel", Discard, "bean", "hand card h"),
    ("discard-up", "rio-grande-2p-duel", DiscardUp, "bean", "face-up card u"),
    ("propose-give", "rio-grande-4p", Propose, "give", "the proposal names"),
    ("propose-take", "rio-grande-4p", Propose, "take", "the proposal asks for"),
    ("accept-give", "rio-grande-4p", Accept, "give", "it names"),
    ("accept-take", "rio-grande-4p", Accept, "take", "the offer gives"),
    ("up", "rio-grande-4p", object, "up", "the face-up cards are"),
    ("up-duel", "rio-grande-2p-duel", object, "up", "the face-up cards are"),
    ("hands", "rio-grande-4p", object, "hands", "hand card h"),
]


@pytest.mark.parametrize("name", ["rio-grande-4p", "rio-grande-2p-duel", "amigo-3p"])
def test_annotations_that_match_the_replay_are_legal(tmp_path: Path, name: str) -> None:
    g, lines = careful(name)
    keys = {k for line in lines[1:] for k in line}
    assert keys >= {"bean", "up", "hands"} | ({"give", "take"} if name != "rio-grande-2p-duel" else set())
    v = judge(tmp_path, lines)
    assert v.status == "legal" and v.coins == tuple(g.final.coins()), v.text()


@pytest.mark.parametrize(("kind", "game", "cls", "key", "words"), KINDS, ids=[k[0] for k in KINDS])
def test_an_annotation_the_replay_contradicts_is_a_desync_at_its_line(
        tmp_path: Path, kind: str, game: str, cls: type, key: str, words: str) -> None:
    """Each kind (bean on a planting, a phase-3 or face-up planting, a discard, a harvest; give and
    take on a proposal and an answer; up; hands) matches as written, and one changed card is a
    desync at its line (the replay goes on: no rule is broken)."""
    g, lines = careful(game)
    i = next(k for k, a in enumerate(g.actions) if isinstance(a, cls) and lines[k + 1].get(key))
    assert judge(tmp_path, lines).status == "legal"  # as the replay has it, the annotation matches
    line = lines[i + 1]
    if key == "bean":
        line["bean"] = other(line["bean"])
    elif key == "hands":
        seat, hand = next((q, h) for q, h in line["hands"].items() if h)
        line["hands"] = {**line["hands"], seat: change_first(hand)}
    else:
        line[key] = change_first(line[key])
    v = judge(tmp_path, lines)
    assert devs(v) == [(i + 2, "desync", "")], v.lines()
    assert v.status == "desync" and v.code == 1 and words in v.reason, v.reason
    assert v.text() == f"{tmp_path / 'r.jsonl'}:{i + 2}: desync: {v.reason}"


def test_a_hand_of_the_wrong_length_or_seat_is_a_desync(tmp_path: Path) -> None:
    g, lines = careful("amigo-3p")
    lines[5]["hands"] = {"p0": ["blue"]}
    lines[9]["hands"] = {"p5": []}
    v = judge(tmp_path, lines)
    n = len(g.states[4].players[0].hand)
    assert [(d.line, d.reason) for d in v.deviations] == [
        (6, f"the record says p0 holds 1 cards, it holds {n}"),
        (10, "the record shows a hand for p5; there are 3 seats")]


@pytest.mark.parametrize(("action", "key"), [("p0 end", "bean"), ("p0 plant 0", "give"),
                                              ("p0 buy", "take"), ("p1 decline", "bean")])
def test_an_annotation_on_an_action_that_moves_no_such_card_is_malformed(
        tmp_path: Path, action: str, key: str) -> None:
    g = played("amigo-3p")
    lines = lines_of(g)
    lines.insert(3, {"action": action, key: ["red"] if key != "bean" else "red"})
    v = judge(tmp_path, lines)
    assert (v.status, v.code, v.line) == ("malformed", 2, 4)
    assert v.text().startswith(f"{tmp_path / 'r.jsonl'}:4: malformed record: {key}: ")
    assert repr(action) in v.text()
    assert one_line(run("--all", tmp_path / "r.jsonl"), 2) == v.text()


def test_unknown_keys_on_a_line_are_still_ignored(tmp_path: Path) -> None:
    g = played("amigo-3p")
    lines = lines_of(g)
    for line in lines[1:]:
        line["comment"] = "seen by the bot"
        line["bean_guess"] = 7
    v = judge(tmp_path, lines)
    assert v.status == "legal" and v.coins == tuple(g.final.coins())


# ---------------------------------------------------------------- the messages


def test_T3_a_non_active_seat_proposing_has_its_own_message(tmp_path: Path) -> None:
    g = played("amigo-4p")
    i = at(g, trading, 2)
    a = g.states[i].active
    q, r = (a + 1) % 4, (a + 2) % 4
    lines = lines_of(g)
    no = insert(lines, i, {"action": f"p{q} offer p{r} ask red"}, {"action": f"p{r} decline"})
    v = judge(tmp_path, lines)
    assert devs(v) == [(no, "illegal", "T3")]
    assert v.reason == f"p{q} cannot propose a deal: only the active player, p{a}, proposes"


def test_T4_a_set_aside_card_offered_names_the_card(tmp_path: Path) -> None:
    g = played("amigo-4p")
    i = at(g, with_aside, 1)
    s = g.states[i]
    a = s.active
    got = BEAN_NAMES[s.players[a].aside[0]]
    lines = lines_of(g)
    q = (a + 1) % 4
    no = insert(lines, i, {"action": f"p{a} offer p{q} give a0,a5"}, {"action": f"p{q} decline"})
    v = judge(tmp_path, lines)
    assert devs(v) == [(no, "illegal", "T4")]
    assert v.reason == (f"p{a} offers set-aside cards a0 ({got}), a5: cards received in a trade are set "
                        "aside to be planted, never traded again")


def test_T4_a_set_aside_card_given_away_and_accepted_is_followed(tmp_path: Path) -> None:
    """With --all the trade happens: the partner's accept annotation names the card it receives."""
    g = played("amigo-4p")
    i = at(g, with_aside, 1)
    s = g.states[i]
    a, q = s.active, (s.active + 1) % 4
    got = BEAN_NAMES[s.players[a].aside[0]]
    lines = lines_of(g)[:i + 1] + [{"action": f"p{a} offer p{q} give a0", "give": [got]},
                                   {"action": f"p{q} accept", "give": [], "take": [got]}]
    v = judge(tmp_path, lines)
    assert devs(v) == [(i + 2, "illegal", "T4")] and v.stopped == 0 and v.actions == i + 2
    assert v.record is not None
    lines[-1]["take"] = [other(got)]
    assert devs(judge(tmp_path, lines)) == [(i + 2, "illegal", "T4"), (i + 3, "desync", "")]


def test_T3_a_gift_of_a_card_planted_this_turn(tmp_path: Path) -> None:
    """A writer that still counts the planted card: the annotation names a bean the giver holds no
    more (desync, saying it planted), and a hand position one past the hand (T3, saying it planted)."""
    g = played("rio-grande-4p")

    def fits(s: GameState, a: Action) -> bool:
        pl = s.players[s.active]
        return trading(s, a) and s.planted > 0 and bool(pl.hand) and any(
            f.count and f.bean not in pl.hand and f.bean not in s.face_up for f in pl.fields)
    i = at(g, fits, 1)
    s = g.states[i]
    a, q = s.active, (s.active + 1) % 4
    pl = s.players[a]
    bean = BEAN_NAMES[next(f.bean for f in pl.fields if f.count and f.bean not in pl.hand + s.face_up)]
    n = len(pl.hand)
    lines = lines_of(g)
    no = insert(lines, i, {"action": f"p{a} offer p{q} give h0", "give": [bean]}, {"action": f"p{q} decline"},
                {"action": f"p{a} offer p{q} give h{n}"}, {"action": f"p{q} decline"})
    v = judge(tmp_path, lines)
    assert devs(v) == [(no, "desync", ""), (no + 2, "illegal", "T3")]
    front = BEAN_NAMES[pl.hand[0]]
    cards = "card" if s.planted == 1 else "cards"
    assert v.deviations[0].reason == (f"the record says p{a} gives {bean}, the proposal names {front} "
                                      f"(p{a} holds no {bean}: it planted {s.planted} {cards} this turn, "
                                      f"and a field holds {bean})")
    assert v.deviations[1].reason == (f"p{a} names hand card h{n} but holds {n} (h0-h{n - 1}); "
                                      f"it planted {s.planted} this turn")


def test_E1_a_reshuffle_order_that_is_not_the_discard_pile_gives_the_counts(tmp_path: Path) -> None:
    """E1: the message counts the difference by bean; --all adopts the order and goes on."""
    g = played("amigo-3p")
    i = next(k for k, a in enumerate(g.actions) if isinstance(a, Reshuffle))
    lines = lines_of(g)
    order = lines[i + 1]["order"]
    was, now = order[-1], other(order[-1])
    lines[i + 1] = {"chance": "reshuffle", "order": [*order[:-1], now]}
    v = judge(tmp_path, lines, every=False)
    n = len(order)
    plus, minus = sorted([(BEAN_NAMES.index(now), f"+1 {now}"), (BEAN_NAMES.index(was), f"-1 {was}")])
    assert (v.line, v.rule) == (i + 2, "E1")
    assert v.reason == f"the order has {plus[1]}, {minus[1]} against the discard pile ({n} cards for {n})"
    lines[i + 1] = {"chance": "reshuffle", "order": order[:-1]}
    short = judge(tmp_path, lines, every=False)
    assert short.reason == f"the order has -1 {was} against the discard pile ({n - 1} cards for {n})"


def test_E2_an_end_line_before_the_end_says_where_the_replay_stands(tmp_path: Path) -> None:
    g = played("amigo-3p")
    lines = lines_of(g)
    del lines[-2]
    v = judge(tmp_path, lines)
    s = g.states[-2]
    assert devs(v) == [(len(lines), "illegal", "E2")]
    assert v.reason == (f"the record claims an end but the game is not over: the replay is at turn "
                        f"{s.turn}, phase {s.phase.name.lower()}, p{s.to_move} to move, {len(s.draw)} cards "
                        f"in the draw pile, exhaustion {s.exhaustions} of {s.setup.final_exhaustion}"
                        + (", the final pass" if s.final else ""))


def test_E3_E4_a_wrong_end_line_is_two_deviations_with_all(tmp_path: Path) -> None:
    g = played("amigo-3p")
    lines = lines_of(g)
    coins = list(g.final.coins())
    loser = next(q for q in range(3) if q not in winners(g.final))
    lines[-1] = {"end": {"coins": [coins[0] + 1, *coins[1:]], "winners": [loser]}}
    v = judge(tmp_path, lines)
    assert devs(v) == [(len(lines), "illegal", "E3"), (len(lines), "illegal", "E4")]
    claimed = [coins[0] + 1, *coins[1:]]
    assert v.deviations[0].reason == f"the record claims coins {claimed} but the replay gives {coins}"
    assert devs(judge(tmp_path, lines, every=False)) == [(len(lines), "illegal", "E3")]


# ---------------------------------------------------------------- records from a state


def segment(g: Game, k: int, **head: Any) -> list[Line]:
    s = g.states[k]
    first = {"format": "bohnanza-record", "version": 1, "ruleset": s.setup.rules.name,
             "options": s.setup.rules.options(), "players": len(s.players), "state": state_to_json(s), **head}
    return [{k2: v for k2, v in first.items() if v is not None}, *lines_of(g)[k + 1:]]


def test_a_record_from_a_state_replays_to_the_same_end(tmp_path: Path) -> None:
    g = played("amigo-v1-4p")
    for k in (0, len(g.actions) // 2, len(g.actions) - 1):
        v = judge(tmp_path, segment(g, k))
        assert v.status == "legal" and v.coins == tuple(g.final.coins()) and v.actions == len(g.actions) - k
    bare = judge(tmp_path, segment(g, 40, ruleset=None, options=None, players=None))
    assert bare.status == "legal"


@pytest.mark.parametrize(("change", "words"), [
    (lambda h, s: h.update(deck=["red"] * 10), "header: give a deck or a state, not both"),
    (lambda h, s: h.update(ruleset="amigo"), "header.ruleset: 'amigo', but header.state has 'amigo-v1'"),
    (lambda h, s: h.update(players=5), "header.players: 5, but header.state has 4"),
    (lambda h, s: h.update(options={**h["options"], "max_offers": 3}), "header.options: not the options of "
     "header.state"),
])
def test_a_header_state_that_disagrees_is_malformed_in_one_line(
        tmp_path: Path, change: Callable[[Line, Any], None], words: str) -> None:
    g = played("amigo-v1-4p")
    lines = segment(g, 30)
    change(lines[0], None)
    v = judge(tmp_path, lines)
    assert (v.status, v.code, v.line) == ("malformed", 2, 1)
    assert v.reason == words
    path = tmp_path / "r.jsonl"
    assert one_line(run("--all", path), 2) == f"{path}:1: malformed record: {words}"


def test_a_record_from_a_state_with_a_deviation(tmp_path: Path) -> None:
    g = played("amigo-v2-4p")
    k = len(g.actions) // 3
    i = at(g, with_aside, g.states[k].turn)
    lines = segment(g, k)
    a = g.states[i].active
    q = (a + 1) % 4
    insert(lines, i - k, {"action": f"p{a} offer p{q} give a0"}, {"action": f"p{q} decline"})
    v = judge(tmp_path, lines)
    assert devs(v) == [(i - k + 2, "illegal", "T4")] and v.coins == tuple(g.final.coins())


# ---------------------------------------------------------------- unknown cards


EDITIONS = ["rio-grande-2p-duel", "rio-grande-3p", "rio-grande-4p", "rio-grande-5p", "rio-grande-6p",
            "rio-grande-7p", "amigo-3p", "amigo-4p", "amigo-5p", "amigo-1997-3p", "amigo-1997-4p",
            "amigo-1997-5p", "amigo-v1-3p", "amigo-v1-4p", "amigo-v1-5p", "amigo-v2-4p", "amigo-v2-5p",
            "rio-grande-3p-quick"]


def view(g: Game, seat: int) -> list[Line]:
    return public_view(g.lines[0], g.states, g.actions, seat) + lines_of(g)[len(g.actions) + 1:]


@pytest.mark.parametrize("name", EDITIONS)
def test_a_public_view_of_a_seeded_game_is_legal(tmp_path: Path, name: str) -> None:
    """Every edition and player count: one seat's log (unseen cards null) has an assignment."""
    g = played(name)
    seat = g.spec.seed % g.spec.players
    lines = view(g, seat)
    assert None in lines[0]["deck"]
    v = judge(tmp_path, lines)
    assert v.status == "legal", v.text()
    assert v.coins == tuple(g.final.coins()) and v.winners == tuple(winners(g.final))
    assert v.unknown is not None and v.unknown["unknown"] == sum(x is None for x in lines[0]["deck"]) + sum(
        x is None for line in lines[1:] for x in line.get("order", []))
    assert v.text().startswith(f"{tmp_path / 'r.jsonl'}: legal for some assignment of the ")


def fresh(ruleset: str, players: int, seed: int, options: tuple[tuple[str, Any], ...] = ()) -> Game:
    spec = GameSpec(f"fresh-{seed}", "", ruleset, players, seed, "random", options)
    _, s0, final, actions = play_game(spec.rules(), players, seed, [BOTS["random"]] * players)
    states = [s0]
    for a in actions:
        states.append(apply(states[-1], a, False))
    head = header(s0, ["random"] * players, seed=seed)
    lines = [head, *[action_line(a) for a in actions],
             {"end": {"coins": list(final.coins()), "winners": list(winners(final))}}]
    return Game(spec, lines, list(actions), states)


PRESETS_PLAYERS = ([("rio-grande", n) for n in range(2, 8)]
                   + [(r, n) for r in ("amigo", "amigo-1997", "amigo-v1") for n in (3, 4, 5)]
                   + [("amigo-v2", 4), ("amigo-v2", 5)])


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(PRESETS_PLAYERS), st.integers(0, 10_000), st.integers(0, 6), st.booleans())
def test_public_views_of_random_games_are_legal(tmp_path: Path, game: tuple[str, int], seed: int, seat: int,
                                                 quick: bool) -> None:
    ruleset, n = game
    g = fresh(ruleset, n, seed, (("quick", True),) if quick else ())
    v = judge(tmp_path, view(g, seat % n))
    assert v.status == "legal" and v.coins == tuple(g.final.coins()), v.text()


def test_a_changed_card_makes_a_public_view_illegal_at_its_line(tmp_path: Path) -> None:
    """H3: another seat's planting annotated with a bean its field does not hold; no assignment."""
    g = played("rio-grande-4p")
    i = at(g, lambda s, a: isinstance(a, Plant) and a.player != 0
           and s.players[a.player].fields[a.field].count > 0, 3)
    a = g.actions[i]
    assert isinstance(a, Plant)
    held = BEAN_NAMES[g.states[i].players[a.player].fields[a.field].bean or 0]
    lines = view(g, 0)
    lines[i + 1]["bean"] = "wax" if held != "wax" else "blue"
    v = judge(tmp_path, lines)
    assert (v.status, v.line, v.rule, v.code) == ("illegal", i + 2, "H3", 1), v.text()
    assert v.reason.startswith("no assignment of the unknown cards replays this line: ")
    assert v.text().endswith("[H3]")


def test_a_changed_known_card_makes_a_public_view_a_desync(tmp_path: Path) -> None:
    g = played("amigo-4p")
    lines = view(g, 2)
    k = next(j for j, line in enumerate(lines) if j and "hands" in line)
    hand = lines[k]["hands"]["p2"]
    lines[k]["hands"] = {"p2": change_first(hand)}
    v = judge(tmp_path, lines)
    assert (v.status, v.line, v.code) == ("desync", k + 1, 1), v.text()
    assert v.text().startswith(f"{tmp_path / 'r.jsonl'}:{k + 1}: desync: no assignment")


def test_revealing_more_of_a_bean_than_the_deck_holds_names_S(tmp_path: Path) -> None:
    """p3's 5 dealt cards, unseen by p0, shown as 5 cocoa before p3 ever acts; the deck has 4."""
    g = played("rio-grande-4p")
    lines = view(g, 0)
    i = at(g, lambda s, a: s.turn == 1 and isinstance(a, PlantAside), 0)
    assert len(g.states[i + 1].players[3].hand) == 5 and g.states[i].turn == 1
    lines[i + 1]["hands"] = {**lines[i + 1].get("hands", {}), "p3": ["cocoa"] * 5}
    v = judge(tmp_path, lines)
    assert (v.status, v.line, v.rule) == ("illegal", i + 2, "S"), v.text()
    assert v.reason.endswith(f"{g.actions[i]}: the record would reveal one cocoa more than the deck holds "
                             f"(deck[{v.reason.rsplit('deck[', 1)[-1]}")


def test_revealing_more_of_a_bean_than_a_reshuffle_holds_names_E1(tmp_path: Path) -> None:
    """The first turn-up after the first reshuffle (every card unseen, the order all null) shown
    with a bean the discard pile did not hold at the reshuffle: no assignment (E1)."""
    g = played("rio-grande-4p")
    k = next(j for j, a in enumerate(g.actions) if isinstance(a, Reshuffle))
    discard = g.states[k].discard
    absent = next(b for b in g.states[k].setup.beans if b not in discard)
    lines = view(g, 0)
    i = next(j for j in range(k + 1, len(g.actions)) if not g.states[j].face_up and lines[j + 1].get("up"))
    lines[i + 1]["up"] = [BEAN_NAMES[absent], *lines[i + 1]["up"][1:]]
    v = judge(tmp_path, lines)
    assert (v.status, v.line, v.rule) == ("illegal", i + 2, "E1"), v.text()
    pool = f"the reshuffle of line {k + 2}"
    assert f"one {BEAN_NAMES[absent]} more than {pool} holds (line {k + 2} order[" in v.reason


def unannotated_plantings(name: str, seat: int) -> list[Line]:
    g = played(name)
    lines = view(g, seat)
    for line, a in zip(lines[1:], g.actions, strict=False):
        if isinstance(a, Plant):
            line.pop("bean", None)
    return lines


def test_a_search_cut_by_the_time_limit_is_undecided_exit_4(tmp_path: Path) -> None:
    lines = unannotated_plantings("amigo-3p", 0)
    path = write(tmp_path, lines)
    v = check_record(str(path), time_limit=0.05)
    assert (v.status, v.code) == ("undecided", 4)
    assert v.text().startswith(f"{path}: undecided: no assignment of the ")
    assert "within 0.05 s" in v.text()
    proc = run("--time-limit", "0.05", "--json", path)
    assert proc.returncode == 4 and json.loads(proc.stdout)["status"] == "undecided"
    assert check_record(str(path), time_limit=60).status == "legal"  # given the time, it is decided


def test_an_isla_record_with_unknown_cards_is_refused_in_one_line(tmp_path: Path) -> None:
    g = played("isla-3p")
    lines = lines_of(g)
    lines[0]["deck"] = [None, *lines[0]["deck"][1:]]
    path = write(tmp_path, lines)
    v = check_record(str(path), every=True)
    assert (v.status, v.code) == ("malformed", 2)
    assert "La Isla Bohnita" in v.text() and "(I1-I9)" in v.text()
    assert one_line(run("--all", path), 2) == v.text()


def test_z3_on_an_unknown_card_record_is_refused_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, view(played("amigo-3p"), 1))
    line = one_line(run("--z3", path), 2)
    assert line == f"{path}: --z3: the independent spec replays records without unknown cards"


def test_a_state_record_with_unknown_cards_is_refused(tmp_path: Path) -> None:
    g = played("amigo-3p")
    lines = segment(g, 20)
    k = next(j for j, a in enumerate(g.actions) if isinstance(a, Reshuffle))
    lines[k - 20 + 1] = {"chance": "reshuffle", "order": [None] * len(g.states[k].discard)}
    v = judge(tmp_path, lines)
    assert (v.status, v.code) == ("malformed", 2) and "starts from a state" in v.text()


def test_the_referee_fixtures_are_the_ones_the_docs_name() -> None:
    """The example in check_record.py --help is a fixture of the suite."""
    assert (REFEREE / "three-deviations.jsonl").is_file()
    assert (REFEREE / "three-deviations.expect.json").is_file()
    assert "records/referee/three-deviations.jsonl" in run("--help").stdout


def d2_turn_ups(lines: list[Line]) -> list[int]:
    """The duel's lines that turn up unseen cards onto a discard pile (D2 step 3), 1-based."""
    return [k + 1 for k, line in enumerate(lines) if k and len(line.get("up", ())) == 3
            and line["action"].split()[1] == "discard"]


def test_D2_a_turn_up_whose_up_list_lost_a_card_is_a_desync_at_its_line(tmp_path: Path) -> None:
    """fuzz --case 0-records-8322: the duel's turned-up cards, unseen, are chosen within the line's
    ``up`` list; with an item dropped no choice was left and the verdict said line 0."""
    lines = view(played("rio-grande-2p-duel"), 0)
    k = d2_turn_ups(lines)[0]
    said = lines[k - 1]["up"]
    lines[k - 1]["up"] = [said[0], said[2]]
    v = judge(tmp_path, lines)
    assert (v.status, v.line, v.code) == ("desync", k, 1), v.text()
    assert v.text().startswith(f"{tmp_path / 'r.jsonl'}:{k}: desync: no assignment of the unknown cards "
                               f"replays this line: the record says the face-up cards are {said[0]}, "
                               f"{said[2]}, fewer than the 3 cards turned up (deck[")


def test_S_a_turn_up_of_beans_the_duel_deck_lacks_is_illegal_at_its_line(tmp_path: Path) -> None:
    """The duel's deck has no cocoa (S): an ``up`` list of three cocoa leaves the search no bean
    for the turned-up cards; the verdict names the line and S, not line 0."""
    lines = view(played("rio-grande-2p-duel"), 0)
    k = d2_turn_ups(lines)[0]
    lines[k - 1]["up"] = ["cocoa"] * 3
    v = judge(tmp_path, lines)
    assert (v.status, v.line, v.rule, v.code) == ("illegal", k, "S", 1), v.text()
    assert v.reason.startswith("no assignment of the unknown cards replays this line: the record says "
                               "the face-up cards are cocoa, cocoa, cocoa; the deck has no bean left that "
                               "fits deck[")
