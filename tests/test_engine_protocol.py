"""Protocol choices are not rule breaks (issue 42, docs/engine-protocol.md "Protocol choices"): shims
written as an outside author would, for engines with several open offers (and one real T3 bug), a
phase 3 played at once, and a third field paid with the oldest coins. The rules are compared, the
protocol is mapped and reported in its own section, and each difference names its rule and cards."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conformance.live.client import Engine
from conformance.live.diff import Checks, GameSpec, claimed, plan, run_game
from conformance.live.protocol import from_hello
from conformance.live.readings import Judged, Reading, collect, judge, tried
from conformance.live.report import readings_text
from model import BEAN_NAMES, Action, GameState, Phase, Reshuffle, apply, chance_outcome, new_game, ruleset
from play.bots import BOTS
from records.claims import compare_state, state_rule

ROOT = Path(__file__).resolve().parent.parent
SHIMS = ROOT / "tests" / "engine_shims"
SCRIPT = ROOT / "scripts" / "diff_engine.py"


def _shim(name: str, *flags: str) -> str:
    return " ".join([sys.executable, str(SHIMS / f"{name}_shim.py"), *flags])


def _diff(engine: str, *args: str) -> tuple[int, dict[str, Any]]:
    run = subprocess.run([sys.executable, str(SCRIPT), "--engine", engine, "--no-positions", "--json", *args],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert "Traceback" not in run.stderr, run.stderr
    return run.returncode, json.loads(run.stdout)


def test_T3_open_offers_are_protocol_and_the_non_active_deal_is_the_only_rule_break() -> None:
    with Engine(_shim("bazaar")) as engine:
        hello = engine.open()
        checks = Checks(protocol=from_hello(hello))
        runs = [run_game(engine, spec, checks) for spec in plan(claimed(hello), 3, 1, positions=False)]
    flags = [d for r in runs for d in r.divergences]
    notes = [n for r in runs for n in r.notes]
    assert flags and {d.key for d in flags} == {("accepted", "T3")}
    assert flags[0].what == ("the engine accepts p1 offer p2 give h0 (gives 1x Blue), which our engine "
                             "refuses: p1 cannot propose a deal: only the active player, p0, proposes")
    for d in flags:  # the bug: two non-active players trade, and nothing else
        assert d.action is not None and " offer " in d.action
        seat, partner = int(d.action.split()[0][1:]), int(d.action.split()[2][1:])
        assert d.before.active not in (seat, partner), d.line()
    assert notes and {n.choice for n in notes} == {"concurrent_offers"} and all(n.declared for n in notes)


def test_T3_undeclared_open_offers_go_to_the_protocol_section_with_a_hint() -> None:
    code, info = _diff(_shim("bazaar", "--undeclared", "--fixed"), "--games", "3")
    assert code == 0 and info["divergences"] == 0 and info["by_rule"] == {}
    entry = info["protocol"]["differences"]["concurrent_offers"]
    assert entry["count"] > 0 and not entry["declared"] and entry["rule"] == "T3"
    assert '"concurrent_offers": true' in entry["hint"] and " offer " in entry["first"]


def test_T6_phase_3_at_once_is_protocol() -> None:
    code, info = _diff(_shim("together"), "--games", "3")
    assert code == 0 and info["divergences"] == 0
    assert info["protocol"]["declared"] == {"simultaneous_phase3": True}
    entry = info["protocol"]["differences"]["simultaneous_phase3"]
    assert entry["declared"] and entry["rule"] == "T6" and "hint" not in entry
    code, info = _diff(_shim("together", "--undeclared"), "--games", "3")
    assert code == 0 and info["divergences"] == 0
    assert "simultaneous_phase3" in info["protocol"]["differences"]["simultaneous_phase3"]["hint"]


def test_F1_the_oldest_coins_pay_and_a_fixed_tie_break_is_played() -> None:
    code, info = _diff(_shim("oldcoins"), "--games", "4")
    assert code == 0 and info["divergences"] == 0 and not info["skipped"] and info["games"] == 4
    assert info["protocol"]["declared"] == {"coin_payment": "oldest", "options": {"tie_break": "hand"}}
    code, info = _diff(_shim("oldcoins", "--undeclared"), "--games", "4")
    assert code == 0 and info["divergences"] == 0
    entry = info["protocol"]["differences"]["coin_payment"]
    assert entry["rule"] == "F1" and '"coin_payment": "oldest"' in entry["hint"]
    assert "the engine pays with other coin cards (2x Soy, 1x Garden; ours the top ones: " in entry["first"]


def test_a_declared_option_no_preset_plays_is_one_line(tmp_path: Path) -> None:
    shim = tmp_path / "odd.py"
    shim.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        "    out = {'name': 'odd', 'protocol': 1, 'declares': {'options': {'tie_break': 'coin-flip'}}}\n"
        "    print(json.dumps({'id': req['id'], **out}), flush=True)\n")
    argv = [sys.executable, str(SCRIPT), "--engine", f"{sys.executable} {shim}", "--games", "1"]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and 'declares.options.tie_break' in run.stderr, run.stderr


# ---------------------------------------------------------------- rule IDs by what differs, named cards


def _first(info: dict[str, Any], rule: str, kind: str = "state") -> dict[str, Any]:
    return next(ex for ex in info["by_rule"][rule]["examples"] if ex["kind"] == kind)


def test_T6_a_set_aside_card_that_vanishes_is_named() -> None:
    code, info = _diff(_shim("together", "--lose-aside"), "--games", "2", "--shrink-time", "5")
    assert code == 1 and set(info["by_rule"]) == {"T6"} and info["by_rule"]["T6"]["kinds"].keys() == {"state"}
    ex = _first(info, "T6")
    assert ex["what"] == "after p0 plant blue 2: fields of p0: ours has 1x Blue the engine lacks", ex
    assert ex["check_record"]["rule"] == "T6" and ex["shrunk"]["divide"] == []  # equal divide lines: none


def test_F1_paid_coins_that_leave_the_game_are_named() -> None:
    code, info = _diff(_shim("oldcoins", "--lose-coins"), "--games", "2", "--shrink-time", "5")
    assert code == 1 and set(info["by_rule"]) == {"F1"}
    ex = _first(info, "F1")
    assert ex["what"].endswith("after p4 buy: discard: ours has 2x Soy, 1x Garden the engine lacks"), ex
    assert ex["check_record"]["rule"] == "F1"
    assert not info["protocol"]["differences"]  # declared: the oldest coins pay, mapped


Step = tuple[GameState, Action, GameState]


def _reach(preset: str, players: int, seed: int, want: Callable[[GameState], bool]) -> Step:
    """(before, action, after) of the first step of a seeded greedy game whose state after it ``want``s."""
    rng = random.Random(seed)
    s = new_game(ruleset(preset), players, seed)
    while s.phase != Phase.OVER:
        a = chance_outcome(s, rng) if s.phase == Phase.CHANCE else BOTS["greedy"](s, rng)
        t = apply(s, a)
        if want(t):
            return s, a, t
        s = t
    raise AssertionError("not reached")


def test_state_rules_name_what_differs() -> None:
    before, a, after = _reach("amigo", 3, 1, lambda t: t.phase == Phase.CHANCE)
    went_on = apply(after, Reshuffle(after.discard)).phase.name.lower()  # where the engine went without it
    assert state_rule(before, a, after, ["phase", "to_move"], went_on) == "E1"  # the engine went on
    assert state_rule(before, a, after, ["phase", "to_move"], "plant_aside") != "E1"  # stayed: not E1
    before, a, after = _reach("amigo", 3, 1, lambda t: t.phase == Phase.TRADE)
    assert state_rule(before, a, after, ["field count"], "trade") == "S"
    before, a, after = _reach("amigo", 3, 1, lambda t: t.phase == Phase.OVER)
    assert state_rule(before, a, after, ["hand"], "over") == "E2"  # cards drawn or not: when it ends
    assert state_rule(before, a, after, ["fields", "coins"], "over") == "E3"  # a field left at the end
    assert state_rule(before, a, after, ["coins", "discard"], "over") == "C1"  # all harvested, paid otherwise
    before, a, after = _reach("amigo", 3, 1, lambda t: t.pending is None and t.offers > 0)
    assert state_rule(before, a, after, ["hand order"], after.phase.name.lower()) == "H1"


def test_a_card_difference_is_a_multiset_difference() -> None:
    s = new_game(ruleset("amigo"), 3, 4)
    view = {"discard": ["chili", "soy", "red"], "players": [
        {"hand": [BEAN_NAMES[c] for c in s.players[0].hand[1:]] + ["red"]}, {}, {}]}
    texts = [d.text() for d in compare_state(s, view)]
    lost = BEAN_NAMES[s.players[0].hand[0]]
    assert f"hand of p0: ours has 1x {lost.capitalize()} the engine lacks; the engine has 1x Red ours lacks" \
        in texts or lost == "red"
    assert "discard: the engine has 1x Chili, 1x Soy, 1x Red ours lacks" in texts


# ---------------------------------------------------------------- readings judged by the engine


def test_E1_readings_judged_at_the_same_states_put_the_engines_reshuffle_first() -> None:
    """An engine on the on-demand reshuffle (E1) with a T3 bug, started at the same states under each
    reading: it agrees with on-demand where the readings differ on the reshuffle, and with the
    presets' own at-exhaustion reading nowhere there."""
    readings = tried({}, ({}, {"fields": 2}, {"reshuffle": "on-demand"}))
    games = [(g.label(), g.preset, g.players, g.seed, g.bot)
             for g in plan([("amigo", 3), ("amigo", 4)], 4, 1, positions=False)]
    points, seen = collect(games, readings)
    assert seen > len(points) > 0
    with Engine(_shim("bazaar", "--on-demand")) as engine:
        engine.open()
        judged = judge(engine, points, readings, limit=30, seen=seen)
    first = judged.ranked()[0]
    assert readings[first].own == (("reshuffle", "on-demand"),), judged.entries()
    assert judged.agreed[first] == judged.at[first] > 0 and judged.judged == min(30, len(points))
    assert judged.agreed[0] < judged.at[0]  # the presets' own reading is contradicted
    assert judged.calls >= judged.judged * 2


def test_an_engine_that_cannot_start_from_a_state_is_warned_of_the_cost() -> None:
    code, info = _diff(_shim("bazaar", "--no-state"), "--games", "1", "--no-shrink")
    assert code == 1 and set(info["by_rule"]) == {"T3"}  # the bug is still found, replaying from the deck
    assert any(part.startswith("a start from a state (the engine cannot)") for part in info["unchecked"])


def test_H6_harvests_while_another_seat_is_to_move_are_protocol() -> None:
    code, info = _diff(_shim("bazaar", "--any-time", "--fixed"), "--games", "2")
    assert code == 0 and info["divergences"] == 0
    entry = info["protocol"]["differences"]["off_turn_harvests"]
    assert entry["rule"] == "H6" and not entry["declared"] and '"off_turn_harvests": true' in entry["hint"]
    assert " harvest " in entry["first"]


def test_E1_declared_option_values_are_played_in_the_perft_positions_too() -> None:
    with Engine(_shim("bazaar", "--on-demand", "--declare-on-demand", "--fixed")) as engine:
        hello = engine.open()
        protocol = from_hello(hello)
        pairs = claimed(hello)
        specs = plan(pairs, 2, 1, claimed_presets={p for p, _ in pairs}, fixed=protocol.options)
        positions = [s for s in specs if s.position is not None]
        assert positions and all(dict(s.options) == {"reshuffle": "on-demand"} for s in specs)
        assert all(s.initial().setup.rules.reshuffle == "on-demand" for s in positions)
        runs = [run_game(engine, spec, Checks(protocol=protocol)) for spec in specs]
    assert all(r.skipped is None for r in runs)
    assert not [d.line() for r in runs for d in r.divergences]


# ---------------------------------------------------------------- proposals at every trading state


@pytest.mark.parametrize("form", ["parts", "flat"])
def test_T3_a_proposal_bug_of_a_later_trading_state_is_found(form: str) -> None:
    """An engine that keeps the turn's first gives after a trade took the cards (stale_shim.py)
    agrees at every turn's first trading state; the proposals are compared at every trading state,
    as parts or one by one, and the gone cards are found as extra proposals, under T3."""
    with Engine(_shim("stale", *(["--flat"] if form == "flat" else []))) as engine:
        found = None
        for spec in plan(claimed(engine.open()), 6, 1, positions=False):
            run = run_game(engine, spec, Checks(probes=False), stop=lambda d: True)
            assert run.failure is None and not run.skipped
            if run.divergences:
                found = run.divergences[0]
                break
    assert found is not None
    assert found.kind == "extra" and found.rule == "T3" and found.action and " offer " in found.action
    s = found.before
    assert s.phase == Phase.TRADE and s.offers > 0  # not the turn's first trading state
    assert found.count > 0 and "which our engine refuses" in found.what


def test_T3_a_face_up_gift_that_takes_a_hand_card_instead_breaks_T3_not_T4() -> None:
    from docs.examples.engine_shim import ReferenceShim
    from model import Accept, Propose

    _, _, s = _reach("amigo", 3, 1, lambda t: t.phase == Phase.TRADE and t.pending is None
                     and len(t.face_up) > 0 and len(t.players[t.active].hand) > 0)
    p, q = s.active, (s.active + 1) % 3
    deal, taken = Propose(p, q, give_up=(0,)), Propose(p, q, give_hand=(0,))  # the engine gives h0
    ours, theirs = apply(apply(s, deal), Accept(q)), apply(apply(s, taken), Accept(q))
    keys = [d.part for d in compare_state(ours, ReferenceShim._view(theirs))]
    assert "face_up" in keys
    assert state_rule(apply(s, deal), Accept(q), ours, keys, ours.phase.name.lower()) == "T3"


# ---------------------------------------------------------------- deals by type, no offer or deal-size limit


def test_T3_deals_named_by_type_are_compared_by_type_and_a_wrong_count_is_still_caught() -> None:
    # faq_shim --front-names lists the gives of the front-most cards of each type only (deals named by
    # bean type): declared, compared by type (no cause); undeclared, protocol with a hint. Listing no give
    # of two cards of one type (--one-of-a-type) is wrong by type too: T3, one cause
    code, info = _diff(_shim("faq", "--front-names"), "--games", "3", "--no-shrink")
    assert code == 0 and info["causes"] == [] and info["protocol"]["declared"] == {"deals": "by-type"}
    assert info["protocol"]["differences"] == {}
    code, info = _diff(_shim("faq", "--front-names", "--undeclared"), "--games", "3", "--no-shrink")
    assert code == 0 and info["causes"] == []
    entry = info["protocol"]["differences"]["deals"]
    assert entry["count"] > 0 and entry["rule"] == "T3" and '"deals": "by-type"' in entry["hint"]
    code, info = _diff(_shim("faq", "--front-names", "--one-of-a-type"), "--games", "3", "--no-shrink")
    assert code == 1 and [c["name"] for c in info["causes"]] == ["T3 missing offer"], info["causes"]
    with Engine(_shim("faq", "--front-names", "--one-of-a-type")) as engine:
        hello = engine.open()
        runs = [run_game(engine, spec, Checks(protocol=from_hello(hello)), stop=lambda d: True)
                for spec in plan(claimed(hello), 3, 1, positions=False)]
    d = next(d for r in runs for d in r.divergences)
    assert d.action is not None
    hand = d.before.players[d.before.active].hand
    gives = [hand[int(x[1:])] for x in d.action.split(" give ")[1].split()[0].split(",") if x[0] == "h"]
    assert len(gives) > len(set(gives)), d.line()  # what it lacks gives two cards of one type


def _limited(flags: tuple[str, ...]) -> tuple[list[Any], list[Any]]:
    """The divergences and protocol notes of faq_shim with ``flags`` from the perft positions whose
    ``max_offers`` is 2, with the bots that make two offers a turn there."""
    with Engine(_shim("faq", *flags)) as engine:
        checks = Checks(protocol=from_hello(engine.open()))
        runs = [run_game(engine, GameSpec(0, "amigo", 5, seed=3, bot=bot, position=name), checks)
                for name in ("amigo-5p-trade", "rio-grande-7p-trade") for bot in ("greedy", "random-trader")]
    return [d for r in runs for d in r.divergences], [n for r in runs for n in r.notes]


@pytest.mark.parametrize("declared", [True, False])
def test_T3_no_offer_limit_is_protocol(declared: bool) -> None:
    flags, notes = _limited(("--no-offer-limit",) + (() if declared else ("--undeclared",)))
    assert not [d.line() for d in flags]
    assert notes and {(n.choice, n.declared) for n in notes} == {("offer_limit", declared)}
    assert all(n.spec.initial().setup.rules.max_offers == 2 for n in notes)


def test_T3_no_deal_size_limit_is_protocol() -> None:
    code, info = _diff(_shim("faq", "--any-deal-size"), "--games", "2", "--no-shrink")
    assert code == 0 and info["causes"] == [] and info["protocol"]["declared"] == {"deal_size_limit": "none"}
    entry = info["protocol"]["differences"]["deal_size_limit"]
    assert entry["count"] > 0 and entry["declared"] and "more than max_deal_cards" in entry["first"]


def test_T3_a_third_offer_gets_the_same_rule_and_reason_from_the_harness_and_check_record() -> None:
    # the turn's max_offers (2 in this position) reached: our engine's reason, which the harness reports
    # for a listed or accepted third offer, is the one check_record.py gives on the record's line
    from conformance.live.rules import refusal
    from conformance.live.shrink import check_lines
    from model import Decline, Propose, format_action, parse_action
    from model.state import state_to_json
    from records.game import RECORD_FORMAT, RECORD_VERSION, action_line

    s0 = GameSpec(0, "amigo", 5, position="amigo-5p-trade").initial()
    s, played = s0, []
    for partner in (1, 2):
        for a in (Propose(s.active, (s.active + partner) % 5, (0,)), Decline((s.active + partner) % 5)):
            s = apply(s, a)
            played.append(a)
    third = format_action(Propose(s.active, (s.active + 3) % 5, (0,)))
    rule, why = refusal(s, third)
    head = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "state": state_to_json(s0)}
    verdict = check_lines([head, *map(action_line, played), action_line(parse_action(third))])
    assert (verdict["status"], verdict["line"], verdict["rule"]) == ("illegal", 6, rule), verdict
    assert why == f": {verdict['reason']}" and "2 offers allowed" in why


def test_E1_every_value_of_a_declared_option_is_a_reading_the_declared_one_marked() -> None:
    # issue 60 item 4: reshuffle=at-exhaustion was never tried once on-demand was declared
    labels = [r.label() for r in tried({"reshuffle": "on-demand"})]
    assert "reshuffle=at-exhaustion" in labels and "reshuffle=on-demand (declared)" in labels
    assert "the presets' own options" not in labels  # it plays what reshuffle=on-demand (declared) plays
    strict = next(r for r in tried({"reshuffle": "on-demand"}) if r.own == (("harvest", "strict"),))
    assert dict(strict.options) == {"harvest": "strict", "reshuffle": "on-demand"} and not strict.declared
    assert [r.label() for r in tried({}, ({}, {"fields": 2}))] == ["the presets' own options", "fields=2"]


def test_readings_that_score_alike_are_shown_as_a_tie_with_what_would_separate_them() -> None:
    # issue 60 item 4: two readings no state separates are a tie, never an order, and the line says
    # so; two that differ at states where the engine agrees with both are a tie that says how often
    rs = [Reading(own, own) for own in ((("harvest", "strict"),), (("fields", 2),), (("tie_break", "none"),))]
    judged = Judged(rs, seen=50, differing=9, judged=9, limit=9, calls=80, agreed=[3, 9, 9], at=[9, 9, 9],
                    refused=[0, 0, 0], apart={(0, 1): 6, (0, 2): 6},
                    apart_judged={(0, 1): (6, 0, 6), (0, 2): (6, 0, 6)})  # fields, tie_break beat strict
    entries = judged.entries()
    assert [e["label"] for e in entries] == ["fields=2", "tie_break=none", "harvest=strict"]
    assert [e["tied"] for e in entries] == [False, True, False]
    assert [e["beats"] for e in entries] == [["harvest=strict"], ["harvest=strict"], []]
    assert entries[0]["separated_by"] == {"tie_break=none": "no state in these games where fields=2 and "
                                          "tie_break=none differ (more games, --reading-games, may)"}
    text = readings_text({**judged.summary(), "seconds": 1.5})
    first, tie = text.splitlines()
    assert first == ("readings: the engine follows fields=2 = tie_break=none (tied) best: agrees at 9 of 9 "
                     "states; then harvest=strict agrees at 3 of 9 states (judged at 9 of the 9 states where "
                     "the readings differ (--readings-states 9), of 50 seen; 80 engine calls, 1.5 s)"), first
    assert tie.startswith("  tie fields=2 = tie_break=none: no state in these games where"), tie
    judged.apart[1, 2] = 4
    judged.apart_judged[1, 2] = (4, 4, 4)
    note = judged.entries()[0]["separated_by"]["tie_break=none"]
    assert note == ("fields=2 and tie_break=none differ at 4 states judged; the engine agrees with fields=2 "
                    "at 4, with tie_break=none at 4")
    none = Judged(rs, seen=50, differing=9, judged=9, limit=9, calls=80, agreed=[0, 0, 0], at=[9, 9, 9],
                  refused=[0, 0, 0])
    text = readings_text(none.summary())
    assert text.startswith("readings: none agrees with the engine at any of the 9 states"), text


def test_a_cause_seen_only_with_a_bug_of_the_same_move_is_its_consequence_not_a_cause() -> None:
    # issue 60: one bug, one cause. Of one move (plant), the cause in the most games names the bug and
    # one seen only in its games is counted as its consequence (--json); one of the same move seen in
    # a game without it, or of another move (the end's coins), stays a cause of its own
    from conformance.live.diff import Divergence
    from conformance.live.report import Found, summary

    s = new_game(ruleset("rio-grande"), 3, 1)
    found = Found()

    def add(kind: str, rule: str, pattern: str, action: str | None, game: int, count: int) -> None:
        spec = GameSpec(game, "rio-grande", 3)
        found.add(Divergence(kind, rule, f"{rule} {kind}", spec, 1, s, action, count=count, pattern=pattern),
                  float(len(found.first_at)))

    for g in range(4):
        add("state", "H1", "hand", "p0 plant 1", g, 5)  # the bug, in every game
        add("end", "E3", "coins", None, g, 1)  # another move: independent
    add("refused", "T1", "plant", "p1 plant 1", 1, 2)  # same move, only where the bug shows
    add("accepted", "H3", "plant", "p1 plant 0", 2, 3)
    for g in (4, 5):
        add("extra", "H4", "harvest", "p0 harvest 0", g, 1)  # another move
    add("missing", "T1", "plant", "p2 plant 0", 6, 1)  # same move, in a game without the bug
    info = summary(found, {"name": "x"}, {})
    named = {c["name"]: c for c in info["causes"]}
    assert list(named) == ["H1 state hand", "E3 end coins", "H4 extra harvest", "T1 missing plant"]
    assert [(x["name"], x["count"], x["games"]) for x in named["H1 state hand"]["consequences"]] == [
        ("T1 refused plant", 2, [1]), ("H3 accepted plant", 3, [2])]
    assert named["H1 state hand"]["count"] == 20 and named["H1 state hand"]["games"] == [0, 1, 2, 3]
    assert all(not named[n]["consequences"] for n in named if n != "H1 state hand")
    assert info["divergences"] == 20 + 4 + 2 + 3 + 2 + 1  # the raw counts stay
