"""E1's two readings in the independent specs (proofs/spec.py, proofs/isla/spec.py), their proofs,
mutants, the engine-vs-spec check and the spec referee.

``reshuffle=at-exhaustion`` (the default): the pile is exhausted when its last card is taken.
``reshuffle=on-demand``: only when a card must be taken from the empty pile; the exhaustion is
counted and E2 applied at that moment (an empty discard pile then is the final exhaustion). The full
proof runs are ``scripts/prove_rules.py [--isla] [--mutants]``; the sweep is ``scripts/check_spec.py``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from model import EndPhase, GameState, Phase, Plant, apply, new_game, ruleset
from model.rules import setup
from play.bots import greedy_bot
from play.playout import playout
from proofs.bridge import action_to_spec, observable, state_to_spec
from proofs.differential import check_state, check_states, sample_states, waiting_for_need
from proofs.invariants import STATE_INVARIANTS, prove
from proofs.isla.differential import differential
from proofs.isla.spec import IslaConfig, IslaSpec
from proofs.mutants import MUTANTS, activate, judge, sample
from proofs.spec import Spec, SpecConfig

ROOT = Path(__file__).resolve().parent.parent
ON_DEMAND = {"reshuffle": "on-demand", "max_deal_cards": 1}
RIO4_OD = [("rio-grande", 4, {"reshuffle": "on-demand"})]


def _start(players: int = 4, **options: object) -> GameState:
    return new_game(ruleset("rio-grande", {**ON_DEMAND, **options}), players, seed=1)


def _spec_successor(s: GameState, a: object) -> dict[str, object]:
    """The spec's decision for engine action ``a`` followed by its internal steps (concrete)."""
    spec = Spec(SpecConfig.from_setup(s.setup))
    ss, sa = state_to_spec(s), action_to_spec(s, a)  # type: ignore[arg-type]
    (t,) = [t for t in spec.transitions() if t.kind == sa.kind]
    assert t.guard(ss, sa) is True
    return observable(spec.settle(t.after(ss, sa)), len(s.players))


def test_the_spec_reads_the_reshuffle_option_from_the_setup():
    for options, on_demand in (({}, False), ({"reshuffle": "at-exhaustion"}, False), (ON_DEMAND, True)):
        cfg = SpecConfig.from_setup(setup(ruleset("rio-grande", options), 4))
        isla = IslaConfig.from_setup(setup(ruleset("rio-grande", {**options, "isla": True}), 3))
        assert cfg.on_demand is on_demand and isla.on_demand is on_demand
        # the step that exhausts the pile at a need exists only in the on-demand reading
        assert ("exhaust-at-need" in {t.name for t in Spec(cfg).transitions()}) is on_demand
        assert ("exhaust-at-need" in {t.name for t in IslaSpec(isla).transitions()}) is on_demand


@pytest.mark.rule("E1")
@pytest.mark.parametrize("reading", ["at-exhaustion", "on-demand"])
def test_the_spec_follows_a_whole_game_step_by_step(reading):
    # every engine step of a game (reshuffles included) equals the spec's successor; on-demand the
    # pile lies empty between its last card and the next need, and the reshuffle comes at the need
    rules = ruleset("rio-grande", {"reshuffle": reading, "max_deal_cards": 1})
    rng = random.Random(7)
    prev = None
    waiting = needs = 0
    for s, a in playout(new_game(rules, 3, seed=7), greedy_bot, rng):
        if prev is not None:
            assert _spec_successor(prev, a) == observable(state_to_spec(s), 3), (prev.turn, a)
            if s.exhaustions > prev.exhaustions:
                # E1: at-exhaustion the step took the last card; on-demand the pile was empty before
                assert (not prev.draw) is (reading == "on-demand")
        waiting += waiting_for_need(s)
        needs += s.phase == Phase.CHANCE and reading == "on-demand" and len(s.todo) > 0
        prev = s
    assert prev is not None and prev.phase == Phase.OVER and prev.exhaustions >= 2
    assert (waiting > 0) is (reading == "on-demand")
    assert (needs > 0) is (reading == "on-demand")


@pytest.mark.rule("E2")
@pytest.mark.parametrize(("discard", "phase", "final"), [((0, 1), Phase.CHANCE, False),
                                                         ((), Phase.TRADE, True)])
def test_a_need_while_turning_up_reshuffles_or_is_the_final_exhaustion(discard, phase, final):
    # the pile is empty before phase 2: turning up needs a card now; with an empty discard pile this
    # is the final exhaustion, and the turn's trading and planting finish with no face-up card
    s = apply(_start()._replace(draw=(), discard=discard), Plant(0, 0))
    assert not check_state(s)
    after = apply(s, EndPhase(0))
    assert after.phase == phase and after.exhaustions == 1 and after.final is final
    assert after.face_up == () and (len(after.todo) == 2) is (phase == Phase.CHANCE)


@pytest.mark.rule("E2")
@pytest.mark.parametrize(("left", "discard", "exhaustions", "phase"), [
    (1, (), 0, Phase.OVER),  # an empty discard pile at the need: the game ends at once
    (1, (3,), 2, Phase.OVER),  # the final count (3rd exhaustion): the game ends at once
    (1, (3,), 0, Phase.CHANCE),  # a reshuffle, two cards still to draw
    (3, (), 0, Phase.PLANT),  # the last card drawn: no exhaustion yet, the next turn starts
])
def test_a_need_while_drawing_reshuffles_or_ends_the_game_at_once(left, discard, exhaustions, phase):
    s = apply(apply(_start(), Plant(0, 0)), EndPhase(0))
    s = s._replace(face_up=(), draw=s.draw[:left], discard=discard, exhaustions=exhaustions)
    assert not check_state(s)  # the engine's legal actions and successors are the spec's
    after = apply(s, EndPhase(0))
    assert after.phase == phase and not after.draw
    assert after.exhaustions == exhaustions + (left < 3)
    assert len(after.players[0].hand) == 4 + left  # the cards there were are drawn (H1)


def test_the_sampled_states_cover_the_on_demand_moments_and_satisfy_the_proved_invariants():
    # the invariants the proofs take as their premise hold on real engine states of both readings
    states = list(sample_states(200, seed=3))
    assert {s.setup.on_demand for s in states} == {False, True}
    assert any(waiting_for_need(s) for s in states)
    for s in states:
        cfg, ss = SpecConfig.from_setup(s.setup), state_to_spec(s)
        broken = [name for name, f in STATE_INVARIANTS.items() if f(cfg, ss) is not True]
        assert not broken, (s.setup.rules.reshuffle, s.phase, broken)


def test_check_states_counts_the_on_demand_states():
    out = check_states(16, seed=2)
    assert not out.bad and out.states == 16
    assert 0 < out.on_demand < 16 and out.waiting <= out.on_demand


@pytest.mark.rule("E1")
@pytest.mark.parametrize(("config", "prop"), [
    (RIO4_OD, "empty-draw-pile-E1"),  # a reshuffle due with no card to take
    ([("rio-grande", 2, {"reshuffle": "on-demand"})], "exhaustion-moment-E1-E2"),  # the duel ends too early
])
def test_a_proof_fails_on_an_on_demand_spec_that_exhausts_at_the_last_card(config, prop):
    (r,) = prove(config, mutant="on-demand-at-last-card", only={prop}, stop_at_first=True)
    assert r.status == "refuted" and "reshuffle=on-demand" in r.counterexample


@pytest.mark.rule("E1")
def test_the_engine_vs_spec_check_catches_the_on_demand_mutant_on_both_sides():
    states = [s for s in sample() if s.setup.on_demand]
    v = judge(MUTANTS["on-demand-at-last-card"], states, proofs=False)
    assert v.status == "caught"
    assert "engine-vs-spec" in v.caught_by and "engine-vs-spec (spec side)" in v.caught_by


OD_ISLA = [("rio-grande", 3, {"reshuffle": "on-demand"}, "greedy"),
           ("rio-grande", 2, {"reshuffle": "on-demand"}, "greedy")]


@pytest.mark.rule("I9")
def test_isla_engine_and_spec_agree_on_on_demand_games():
    r = differential(games=2, max_states=40, plan=OD_ISLA)
    assert not r.problems, r.problems[:3]
    assert r.mapped == r.states == 80 and r.turn_ends > 0 and r.game_ends == 2


def test_isla_check_finds_an_engine_that_exhausts_at_the_last_card_on_demand():
    with activate("on-demand-at-last-card"):
        r = differential(games=2, plan=OD_ISLA)
    assert any("exhaustions" in p or "phase" in p or "IndexError" in p for p in r.problems), r.problems[:3]


# ------------------------------------------------------------------ the spec referee


def _record(tmp_path: Path) -> Path:
    out = tmp_path / "games"
    subprocess.run([sys.executable, "scripts/simulate.py", "--players", "3", "--games", "1", "--seed", "4",
                    "--bots", "random-trader", "--option", "reshuffle=on-demand", "--record", str(out)],
                   cwd=ROOT, check=True, capture_output=True)
    (path,) = sorted(out.glob("*.jsonl"))
    return path


def _z3(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "scripts/check_record.py", "--z3", str(path)], cwd=ROOT,
                          capture_output=True, text=True)


@pytest.mark.rule("E1")
def test_the_spec_referee_replays_an_on_demand_record_and_rejects_it_read_at_exhaustion(tmp_path):
    path = _record(tmp_path)
    lines = path.read_text().splitlines()
    assert sum('"reshuffle"' in line and "order" in line for line in lines[1:]) >= 1  # chance lines
    run = _z3(path)
    assert run.returncode == 0, run.stderr
    assert "legal" in run.stdout and "(the spec agrees)" in run.stdout
    head = json.loads(lines[0])
    head["options"]["reshuffle"] = "at-exhaustion"  # the same steps under the other reading
    other = tmp_path / "other.jsonl"
    other.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    run = _z3(other)
    assert run.returncode == 1 and "E1" in run.stderr and "(the spec agrees)" in run.stderr
