"""La Isla Bohnita's proofs, continued (tests/test_isla_proofs.py proves the properties): every
mutant of the spec (proofs/isla/mutants.py) must be refuted by the property it breaks, the proof
runner must refute an unsatisfiable transition and a property that never reaches its situation, and
the engine and the spec must agree on sampled states (proofs/isla/differential.py); the checks
themselves must fail on a broken spec or a broken engine. The full run is
``scripts/prove_rules.py --isla --mutants --differential``.
"""

from __future__ import annotations

import pytest
import z3
from builders import load_script
from test_isla_proofs import DUEL, RIO3

import model.isla.moves as isla_moves
from model.isla.hooks import ISLA
from proofs.isla import invariants as isla_invariants
from proofs.isla.differential import differential
from proofs.isla.invariants import prove
from proofs.isla.mutants import MUTANT_CONFIG, MUTANT_PROPERTY, judge_mutant
from proofs.isla.spec import MUTANTS

SAMPLE = [("rio-grande", 3, {}, "greedy"), ("rio-grande", 2, {}, "greedy")]


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_each_mutant_is_refuted_by_the_property_it_breaks(mutant):
    """On the duel, where every mutant's rule is in play, or the configuration ``MUTANT_CONFIG``
    names: the ten take 18 s there, 38 s on rio-grande 3p, where ``judge_mutant`` (and so
    ``scripts/prove_rules.py --isla --mutants``) runs them."""
    prop = MUTANT_PROPERTY[mutant]
    config = MUTANT_CONFIG.get(mutant, DUEL[0])
    (r,) = [x for x in prove([config], mutant=mutant, only={prop}, stop_at_first=True) if x.id == prop]
    assert r.status == "refuted", r
    assert "state:" in r.counterexample and "next:" in r.counterexample


def test_judge_mutant_runs_the_property_a_mutant_breaks_on_its_configuration():
    v = judge_mutant("load-other-type")  # on rio-grande 3p, refuted at its first sail
    assert v.status == "refuted", v
    assert v.expected == MUTANT_PROPERTY["load-other-type"] == "ship-type-kept-I4"
    assert v.rule == MUTANTS["load-other-type"][0] and v.detail.startswith("rio-grande 3p")


def test_a_counterexample_shows_state_action_and_next_state():
    (r,) = prove(RIO3, mutant="load-other-type", only={"ship-type-kept-I4"}, stop_at_first=True)
    assert r.status == "refuted"
    text = r.counterexample
    assert "state:" in text and "action: sail" in text and "next:" in text


def test_an_unsatisfiable_transition_fails_the_premise_check():
    (r,) = prove([("rio-grande", 3, {"isla": True, "max_sails": 0})], only={"transitions-satisfiable"})
    assert r.status == "refuted" and r.counterexample == "never satisfiable: sail"


def test_a_property_whose_situation_is_never_reached_is_vacuous(monkeypatch):
    def never(spec, s, a, t, s2):
        return True, [("an impossible situation", z3.BoolVal(False))]

    monkeypatch.setitem(isla_invariants.TWO_STATE, "never-reached", ("I6", never))
    (r,) = prove(DUEL, only={"never-reached"})  # every transition of the smallest configuration
    assert r.status == "vacuous" and "an impossible situation" in r.counterexample


# ------------------------------------------------------------------ engine vs spec


@pytest.fixture(scope="module")
def sample():
    return differential(games=2, max_states=150, plan=SAMPLE)


def test_engine_and_spec_agree_on_sampled_states(sample):
    assert not sample.problems, "\n".join(sample.problems[:5])
    assert sample.games == 2 and sample.mapped == sample.states == 300 and not sample.skipped
    assert sum(sample.legal.values()) >= 300
    assert sample.perturbed > 0 and sample.others > 0 and sample.successors > 0
    assert sample.turn_ends > 0 and sample.game_ends == 2


def test_unsupported_rulesets_are_counted_as_skipped_with_the_reason():
    r = differential(games=1, max_states=10, plan=[("amigo-v2", 4, {}, "greedy")])
    assert r.states == 10 and r.mapped == 0
    assert r.skipped == {"V5 field beans are not modelled": 10}
    assert "10 skipped (V5 field beans are not modelled: 10)" in r.summary()


@pytest.mark.parametrize("mutant", ["sell-for-nothing", "paid-coins-vanish", "refill-any-row"])
def test_the_check_finds_a_broken_spec(mutant):
    r = differential(games=1, max_states=80, plan=SAMPLE[:1], mutant=mutant)
    assert r.problems


def test_the_check_finds_an_engine_that_loads_two_types(monkeypatch):
    monkeypatch.setattr(isla_moves, "_fits", lambda ship, b: True)
    r = differential(games=1, max_states=80, plan=SAMPLE[:1])
    assert any("the engine allows it, the spec refuses it" in p for p in r.problems)


def test_the_check_finds_an_engine_that_keeps_this_turns_attacks(monkeypatch):
    monkeypatch.setattr(ISLA, "start_turn", lambda s: s)  # the hook that starts I6/I7's counts again
    r = differential(games=1, max_states=20, plan=SAMPLE[:1])
    assert any("end-turn" in p and ("sails" in p or "attacked" in p) for p in r.problems)


def test_prove_rules_runs_the_differential_and_fails_on_a_disagreement(monkeypatch, capsys):
    main = load_script("prove_rules").main
    assert main(["--isla", "--no-proofs", "--differential", "--games", "1", "--max-states", "20"]) == 0
    assert "disagreements: 0" in capsys.readouterr().out
    monkeypatch.setattr(isla_moves, "_fits", lambda ship, b: True)
    assert main(["--isla", "--no-proofs", "--differential", "--games", "1", "--max-states", "80"]) == 1


def test_prove_rules_takes_the_differential_options_only_with_isla(capsys):
    main = load_script("prove_rules").main
    assert main(["--differential"]) == 2
    assert "--differential only with --isla" in capsys.readouterr().err
