"""The Z3 proofs of La Isla Bohnita's invariants (proofs/isla/invariants.py on proofs/isla/spec.py).

Every property must be proved and reach the situations it speaks about. The proofs run here on
``COVERING``, three of the four configurations of ``PROOF_CONFIGS`` in which every branch of the
spec is taken; the full run (``PROOF_CONFIGS`` and ``EXTRA_CONFIGS``) is
``scripts/prove_rules.py --isla --mutants --differential``. The mutants, the checks of the proof
runner and the engine-vs-spec sample are tests/test_isla_mutants.py: apart, the two files run on the
two workers of the suite side by side.
"""

from __future__ import annotations

import pytest

from proofs.isla import invariants as isla_invariants
from proofs.isla.invariants import PROOF_CONFIGS, Result, format_results, prove
from proofs.isla.spec import IslaSpec

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
