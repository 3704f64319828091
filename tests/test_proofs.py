"""The Z3 proofs of the rule invariants (proofs/invariants.py), their lemmas, and the mutant catalog.

Every property must be proved; and, so that no proof passes vacuously, each transition must be
satisfiable, and proofs must fail on a spec with a broken rule (tests/test_proofs_mutants.py).
Here the proofs run on ``COVERING``, five of the seven built-in configurations in which every
branch of the spec is taken (the duel, H4 strict, E1 on-demand, amigo's three fields, the v2
ruleset); ``scripts/prove_rules.py`` proves every property on all of ``PROOF_CONFIGS``, and
``scripts/prove_rules.py --mutants`` runs the full mutant catalog.

``COVERING`` is proved in two halves, ``FIRST`` here and ``SECOND`` in
tests/test_proofs_second_half.py (about 35 s of proofs each): with ``--dist loadfile`` a file runs
on one worker, and the two halves run on the two workers side by side. Each half alone proves every
property it is asked, reaches every situation the properties speak about and takes every transition
its mode has (more than the one run on ``COVERING`` asked); the transitions proved are checked
against the union of the two halves' lists, ``KINDS``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from proofs import invariants
from proofs.invariants import PROOF_CONFIGS, Result, prove
from proofs.symbolic import GHOST_USES

ROOT = Path(__file__).resolve().parent.parent
RIO4 = [("rio-grande", 4, {})]
# The configurations proved here. Left out of PROOF_CONFIGS: rio-grande 4p (its steps are those of
# the strict and the on-demand rio-grande 4p, which differ from it only in H4's reading and E1's;
# about 18 s of proofs) and the on-demand duel (the duel's steps are the at-exhaustion duel's, the
# need's those of on-demand 4p; about 8 s). The whole run is scripts/prove_rules.py.
FIRST = [
    ("rio-grande", 4, {"harvest": "strict"}),  # two fields and a third to buy, trading; H4 strict
    ("amigo", 3, {}),  # three fields from the start; H4 lenient
    ("rio-grande", 2, {}),  # the bean duel: offers, discards, matches, coins out of the game
]
SECOND = [
    ("amigo-v2", 4, {}),  # V4 draws and V5 field beans
    ("rio-grande", 4, {"reshuffle": "on-demand"}),  # E1 on-demand: a reshuffle at a need
]
COVERING = FIRST + SECOND

EXPECTED = {
    "field-homogeneity-H2", "at-most-two-plantings-T1", "set-aside-planted-T6", "final-harvest-E3",
    "exhaustions-bounded-E2", "well-formed", "hand-order-H1", "single-bean-harvest-H4",
    "single-bean-harvest-H4-strict", "traded-never-retraded-T4", "card-conservation",
    "coins-by-harvest-or-purchase-C1-F1", "deals-with-active-player-T3", "plantings-counted-T1",
    "transitions-satisfiable", "ghost-tally-lemmas", "two-plantings-per-turn-T1", "empty-draw-pile-E1",
    "exhaustion-moment-E1-E2",
}
EXTRAS = {"ghost-tally-lemmas", "two-plantings-per-turn-T1"}  # no configuration's: proved here only
# SECOND has no strict configuration (its H4 proofs are the lenient reading's) and leaves the
# extras to this file.
EXPECTED_SECOND = EXPECTED - EXTRAS - {"single-bean-harvest-H4-strict"}
NOT_WITNESSED = {"well-formed", "transitions-satisfiable", *EXTRAS}
# The transitions the proofs must cover: the union of what each half takes. The duel's own steps
# are in FIRST only, E1 on-demand's exhaustion at a need in SECOND only.
KINDS_BOTH = {"plant", "plant-aside", "harvest", "buy-field", "end-phase", "propose", "accept",
              "decline", "reshuffle", "turn-up", "draw", "phase3-next", "final-harvest", "game-over",
              "turn-start"}
KINDS_FIRST = KINDS_BOTH | {"plant-up", "discard", "discard-up", "duel-match"}
KINDS_SECOND = KINDS_BOTH | {"exhaust-at-need"}
KINDS = KINDS_FIRST | KINDS_SECOND


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {r.id: r for r in prove(FIRST)}


def check_proved(results: dict[str, Result], expected: set[str]) -> None:
    """Every property asked is proved (none refuted, none vacuous, every transition satisfiable)."""
    assert set(results) == expected
    refuted = {r.id: r.counterexample for r in results.values() if r.status != "proved"}
    assert not refuted, refuted


def check_reached(results: dict[str, Result], expected: set[str]) -> None:
    """Every property with situations reached each of them (``expected``: the properties asked)."""
    witnessed = {r.id: r.witnessed for r in results.values() if r.witnessed}
    assert set(witnessed) == expected - NOT_WITNESSED
    assert set(witnessed["coins-by-harvest-or-purchase-C1-F1"]) == {"a harvest pays coins",
                                                                    "coins pay for a field"}
    assert all(all(w.values()) for w in witnessed.values()), witnessed


def test_every_property_is_proved_on_the_covering_configurations(results):
    check_proved(results, EXPECTED)


def test_proofs_cover_every_transition_kind_and_configuration(results):
    assert KINDS_FIRST <= set(results["card-conservation"].per_kind)
    assert KINDS == {"plant", "plant-aside", "plant-up", "harvest", "buy-field", "end-phase", "propose",
                     "accept", "decline", "discard", "discard-up", "reshuffle", "turn-up", "draw",
                     "phase3-next", "final-harvest", "game-over", "duel-match", "turn-start",
                     "exhaust-at-need"}
    assert {name for name, _, _ in PROOF_CONFIGS} == {"rio-grande", "amigo", "amigo-v2"}
    assert any(n == 2 for _, n, _ in PROOF_CONFIGS)  # the bean duel
    assert any(o.get("harvest") == "strict" for _, _, o in PROOF_CONFIGS)
    on_demand = [(name, n) for name, n, o in PROOF_CONFIGS if o.get("reshuffle") == "on-demand"]
    assert ("rio-grande", 4) in on_demand and ("rio-grande", 2) in on_demand  # E1's other reading
    # the configurations proved here are built-in ones and cover each dimension
    assert all(c in PROOF_CONFIGS for c in COVERING)
    assert len(set(map(repr, COVERING))) == len(COVERING)  # the halves are disjoint
    assert {name for name, _, _ in COVERING} == {"rio-grande", "amigo", "amigo-v2"}
    assert any(n == 2 for _, n, _ in COVERING)
    assert any(o.get("harvest") == "strict" for _, _, o in COVERING)
    assert any(o.get("reshuffle") == "on-demand" and n > 2 for _, n, o in COVERING)  # with reshuffles


def test_every_property_reaches_what_it_speaks_about(results):
    check_reached(results, EXPECTED)


def test_ghost_lemmas_cover_every_operation_the_proofs_used(results):
    ops = {op.split("(")[0] for op, _ in GHOST_USES}
    assert {"drop_front", "push_back", "push_copies", "remove_sorted", "pick_seq", "emptied"} <= ops


def test_prove_rules_json_for_one_ruleset(results, monkeypatch, capsys):
    """prove_rules.py --ruleset NAME --json: the preset at its smallest player count and at four,
    and one JSON object of the verdicts. The verdicts are the module's proofs (proving amigo-1997
    again here took 51 s of the suite; scripts/prove_rules.py --ruleset amigo-1997 proves it)."""
    from builders import load_script

    asked = []

    def proved(configs, progress=None, **options):
        asked.append(configs)
        return list(results.values())

    monkeypatch.setattr(invariants, "prove", proved)
    code = load_script("prove_rules").main(["--ruleset", "amigo-1997", "--json"])
    assert code == 0 and asked == [[("amigo-1997", 3, {}), ("amigo-1997", 4, {})]]
    out = json.loads(capsys.readouterr().out)
    ids = {r["id"]: r["status"] for r in out["invariants"]}
    assert ids["hand-order-H1"] == "proved"
    assert ids["traded-never-retraded-T4"] == "proved"
    assert ids["single-bean-harvest-H4"] == "proved"
    assert set(ids.values()) == {"proved"}
    assert "mutants" not in out
