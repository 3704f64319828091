"""La Isla Bohnita's part of the fuzzer (conformance/fuzz.py): its moves, offered in a base game
record (oracle EXPANSION: never legal there), and its spec referee (``proofs.isla.referee.isla_replay``)
for the SPEC oracle, on the rulesets that spec models (no V4 draws, no V5 beans)."""

from __future__ import annotations

from typing import Any

from proofs.isla.referee import isla_replay
from proofs.isla.spec import IslaConfig, Unsupported
from proofs.referee import SpecVerdict
from records.game import Record

MOVES = ["p{p} sail m0 bohnbay 1", "p{p} sail m0 home", "p{p} harvest 0 onto m0", "p{p} sell m0",
         "p{p} move m0 m1", "p{p} attack p{q} m0", "p{p} yield", "p{p} buy ship", "p{p} buy pirate",
         "p{p} plant m0 0"]

# Its games in the fuzzer's run (conformance/fuzz.py ``GAMES``), each at its place in the run's order
GAMES: list[tuple[int, tuple[str, int, dict[str, Any], str]]] = [
    (16, ("rio-grande", 4, {"isla": True}, "random")), (17, ("rio-grande", 2, {"isla": True}, "random")),
    (18, ("amigo", 3, {"isla": True}, "random-trader")), (19, ("rio-grande", 6, {"isla": True}, "greedy")),
    (22, ("rio-grande", 2, {"isla": True, "reshuffle": "on-demand"}, "random")),
]
BOOL_OPTIONS = {"isla"}  # its switch
INT_OPTIONS = {"max_sails"}
SAFE_OPTIONS: dict[str, list[Any]] = {"isla": [True, False], "max_sails": [0, 2, 6]}  # the options cases


def spec_covers(rec: Record) -> bool:
    """Does the Isla spec model this record's ruleset?"""
    try:
        IslaConfig.from_setup(rec.initial_state().setup)
    except Unsupported:
        return False
    return True


def spec_replay(rec: Record) -> SpecVerdict:
    """The record replayed by the Isla spec: the second referee."""
    return isla_replay(rec)
