"""Every expansion's conformance cases, one line each: a package with ``games.LEGAL``,
``mutations.ILLEGAL`` and ``perft_cases.PERFT``. The base lists end with them, in this order."""

from __future__ import annotations

from types import ModuleType

from conformance import isla
from conformance.kinds import GameSpec, Illegal, PerftSpec

CASES: tuple[ModuleType, ...] = (
    isla,  # La Isla Bohnita (I1-I9)
)

EXPANSION_GAMES: list[GameSpec] = [g for x in CASES for g in x.games.LEGAL]
EXPANSION_ILLEGAL: list[Illegal] = [m for x in CASES for m in x.mutations.ILLEGAL]
EXPANSION_PERFT: list[PerftSpec] = [p for x in CASES for p in x.perft_cases.PERFT]
