"""La Isla Bohnita's spec mutants judged by the proofs: each deliberate breakage of
``proofs.isla.spec.IslaSpec(cfg, mutant)`` (the catalog ``MUTANTS`` lives there, beside the switches it
names) must be refuted by the property it breaks (``MUTANT_PROPERTY``), proved on the first proof
configuration of proofs/isla/invariants.py (or the one ``MUTANT_CONFIG`` names: an on-demand
mutant needs an on-demand configuration). The engine-side mutants of the base game are
proofs/mutants.py.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from proofs.isla.invariants import PROOF_CONFIGS, Config, prove
from proofs.isla.spec import MUTANTS as MUTANTS


@dataclass
class MutantVerdict:
    id: str
    rule: str
    what: str
    expected: str  # the property that must fail
    status: str  # refuted / survived
    seconds: float
    detail: str = ""


MUTANT_PROPERTY: dict[str, str] = {
    "load-other-type": "ship-type-kept-I4",
    "harvest-onto-pirate": "pirate-cargo-I7",
    "attack-twice": "attacked-once-per-turn-I7",
    "sell-for-nothing": "cargo-never-overboard-I6",
    "move-onto-pirate": "pirate-cargo-I7",
    "plant-cargo": "island-beans-never-planted-I5",
    "yield-overboard": "cargo-never-overboard-I6",
    "paid-coins-vanish": "card-conservation-I1",
    "refill-any-row": "island-rows-I2",
    "on-demand-at-last-card": "exhaustion-moment-E1-E2",
}
MUTANT_CONFIG: dict[str, Config] = {
    "on-demand-at-last-card": next(c for c in PROOF_CONFIGS if c[2].get("reshuffle") == "on-demand"),
}


def judge_mutant(mutant: str) -> MutantVerdict:
    """Run the property the mutant breaks on its proof configuration: it must be refuted."""
    t0 = time.perf_counter()
    rule, what = MUTANTS[mutant]
    prop = MUTANT_PROPERTY[mutant]
    configs = [MUTANT_CONFIG.get(mutant, PROOF_CONFIGS[0])]
    results = prove(configs, mutant=mutant, only={prop}, stop_at_first=True)
    (r,) = [x for x in results if x.id == prop]
    status = "refuted" if r.status == "refuted" else "survived"
    return MutantVerdict(mutant, rule, what, prop, status, time.perf_counter() - t0,
                         r.counterexample.splitlines()[0] if r.counterexample else "")
