"""La Isla Bohnita's proofs (I1-I9): its symbolic spec (``spec``), the Z3 proofs of its invariants
(``invariants``), the spec mutants they must refute (``mutants``), the engine against the spec
(``differential``) and the spec as a second referee of records (``referee``); the same roles as
the base game's modules one level up, sharing ``proofs/kernel.py`` and ``proofs/runner.py``."""
