"""Every expansion's conformance cases, one line each: a package with ``games.LEGAL``,
``mutations.ILLEGAL``, ``perft_cases.PERFT``, ``endgames.ENDGAMES`` and ``endgames.METHODS`` (its
own ways to prove an endgame's values, by ``EndgameSpec.method``), and ``fuzz`` (``MOVES``, its
options, ``spec_covers``, ``spec_replay``: the fuzzer's part, keyed by the expansion's name). The
base lists end with them."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from conformance import isla
from conformance.kinds import EndgameSpec, GameSpec, Illegal, PerftSpec

CASES: dict[str, ModuleType] = {
    "isla": isla,  # La Isla Bohnita (I1-I9)
}

EXPANSION_GAMES: list[GameSpec] = [g for x in CASES.values() for g in x.games.LEGAL]
EXPANSION_ILLEGAL: list[Illegal] = [m for x in CASES.values() for m in x.mutations.ILLEGAL]
EXPANSION_PERFT: list[PerftSpec] = [p for x in CASES.values() for p in x.perft_cases.PERFT]
EXPANSION_ENDGAMES: list[EndgameSpec] = [e for x in CASES.values() for e in x.endgames.ENDGAMES]
EXPANSION_METHODS: dict[str, Callable[..., list[dict[str, Any]]]] = {
    name: fn for x in CASES.values() for name, fn in x.endgames.METHODS.items()}
EXPANSION_FUZZ: dict[str, ModuleType] = {name: x.fuzz for name, x in CASES.items()}
EXPANSION_MOVES: list[str] = [m for x in CASES.values() for m in x.fuzz.MOVES]
