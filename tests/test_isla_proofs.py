"""The Z3 proofs of La Isla Bohnita's invariants (proofs/isla_invariants.py on proofs/isla_spec.py),
its mutants (proofs/isla_mutants.py), and a small engine-vs-spec sample (proofs/isla_differential.py).

Every property must be proved (and reach the situations it speaks about), every mutant of the spec
must be refuted by the property it breaks, and the engine and the spec must agree on sampled states;
the checks themselves must fail on a broken spec or a broken engine. The proofs run here on
``COVERING``, three of the four configurations of ``PROOF_CONFIGS`` in which every branch of the
spec is taken; the full run (``PROOF_CONFIGS`` and ``EXTRA_CONFIGS``) is
``scripts/prove_rules.py --isla --mutants --differential``.
"""

from __future__ import annotations

import pytest
import z3
from builders import load_script

import model.isla.moves as isla_moves
from model.isla.hooks import ISLA
from proofs import isla_invariants
from proofs.isla_differential import differential
from proofs.isla_invariants import PROOF_CONFIGS, Result, format_results, prove
from proofs.isla_mutants import MUTANT_CONFIG, MUTANT_PROPERTY, judge_mutant
from proofs.isla_spec import MUTANTS, IslaSpec

EXPECTED = {
    "ship-holds-one-type-I4", "island-rows-I2", "attacked-once-per-turn-I7", "cargo-sold-at-end-E3",
    "well-formed", "card-conservation-I1", "ship-type-kept-I4", "island-beans-never-planted-I5",
    "cargo-never-overboard-I6", "pirate-cargo-I7", "transitions-satisfiable", "empty-draw-pile-E1",
    "exhaustion-moment-E1-E2",
}
RIO3 = PROOF_CONFIGS[:1]
DUEL = [("rio-grande", 2, {"isla": True})]
# Left out of PROOF_CONFIGS: rio-grande 3p with two fields (about 20 s of proofs): the third field
# for sale is bought in both duels here, and each step's non-duel branch is taken in rio-grande 3p.
COVERING = [
    ("rio-grande", 3, {"isla": True}),  # 3 players: 3 fields, 6 bean types, ship 4 coins
    DUEL[0],  # the Isla duel (I9), two fields and the third for sale (I1)
    ("rio-grande", 2, {"isla": True, "reshuffle": "on-demand"}),  # E1 on-demand; I9's coins at the need
]
SAMPLE = [("rio-grande", 3, {}, "greedy"), ("rio-grande", 2, {}, "greedy")]


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {r.id: r for r in prove(COVERING)}


def test_every_property_is_proved_on_the_covering_configurations(results):
    assert set(results) == EXPECTED
    failed = {r.id: r.counterexample for r in results.values() if r.status != "proved"}
    assert not failed, failed
    assert {o.get("fields") for _, _, o in PROOF_CONFIGS} >= {None, 2}  # the third field for sale
    assert any(n == 2 for _, n, _ in PROOF_CONFIGS)  # the Isla duel
    assert {o.get("reshuffle") for _, _, o in PROOF_CONFIGS} == {None, "on-demand"}  # both E1 readings
    # the configurations proved here are built-in ones, with 3 fields and 2 (the third for sale),
    # the duel and both E1 readings in it
    assert all(c in PROOF_CONFIGS for c in COVERING)
    assert {isla_invariants.config(*c).third_cost is None for c in COVERING} == {True, False}
    assert {o.get("reshuffle") for _, n, o in COVERING if n == 2} == {None, "on-demand"}


def test_every_property_reaches_what_it_speaks_about(results):
    witnessed = {r.id: r.witnessed for r in results.values() if r.witnessed}
    assert set(witnessed["cargo-never-overboard-I6"]) == {"a cargo is sold", "a cargo is moved",
                                                          "a card is captured"}
    assert set(witnessed["island-beans-never-planted-I5"]) == {"a field gains a card",
                                                               "the island loses cards"}
    assert witnessed["attacked-once-per-turn-I7"] == {"an attack is made": True}
    assert all(all(w.values()) for w in witnessed.values()), witnessed


def test_proofs_cover_every_transition(results):
    def transitions(configs):
        return {t.name for c in configs for t in IslaSpec(isla_invariants.config(*c)).transitions()}

    names = transitions(COVERING)
    assert names == transitions(PROOF_CONFIGS)
    assert names == set(results["card-conservation-I1"].per_kind)
    assert "exhaust-at-need" in names  # E1 on-demand
    assert {"sail", "harvest-onto-ship", "sell", "sell-attacked", "move-cargo", "attack", "yield", "buy-ship",
            "buy-pirate", "buy-field", "plant", "refill", "turn-change", "final-sale"} <= names


def test_result_lines_name_the_rule_and_the_status(results):
    lines = format_results(list(results.values()))
    line = next(x for x in lines if x.startswith("pirate-cargo-I7"))
    assert line.split()[1:4] == ["I7", "two-state", "PROVED"]
    assert float(line.split()[-1]) >= 0


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
