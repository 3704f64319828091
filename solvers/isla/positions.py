"""La Isla Bohnita's built-in positions (I1-I9), listed once in
``solvers.positions.EXPANSION_LIBRARIES``: cut from seeded greedy-bot games with the option ``isla``
on, and one hand-made Isla duel."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol, TypeVar


class Named(Protocol):
    """What the library is keyed by: an entry's name."""

    @property
    def name(self) -> str: ...


E = TypeVar("E", bound=Named)


def _seat(hand: list[str], fields: list[Any], coins: int = 0) -> dict[str, Any]:
    """A seat of the hand-made state JSON: its hand, fields and coins (as wax cards)."""
    return {"hand": hand, "fields": fields, "coins": ["wax"] * coins, "aside": []}


# The hand-made Isla duel (I9) of ``isla-duel-2cards``: rio-grande, 2 players, the final pass; p0 plants
# its coffee (4 coffee: 1 coin), turns up the last two cards and may sail twice (max_sails 2).
DUEL_STATE = json.dumps({
    "format": "bohnanza-state", "version": 1, "ruleset": "rio-grande",
    "options": {"isla": True, "max_sails": 2},
    "players": [_seat(["coffee"], [["coffee", 3], None, None]), _seat(["wax"], [["wax", 2], None, None])],
    "draw": ["chili", "stink"], "discard": ["blue"], "face_up": [], "out": [], "active": 0, "phase": "plant",
    "to_move": 0, "planted": 0, "first_field": -1, "offers": 0, "pending": None, "exhaustions": 2,
    "final": False, "todo": [], "resume": 0, "turn": 40,
    "isla": {"fleets": [{"merchants": [{"bean": None, "count": 0, "at": "home"}],
                         "pirate": {"bean": None, "count": 0, "at": "home"}},
                        {"merchants": [{"bean": "chili", "count": 3, "at": "home"}], "pirate": None}],
             "rows": {"bohnbay": ["chili", "chili"], "bohnaco": ["blue"]}, "attacked": [], "attack": None,
             "captured": False, "sails": 0, "discarded": False}})

OPTIONS: tuple[tuple[str, Any], ...] = (("isla", True),)  # the ruleset option of every cut

# La Isla Bohnita (I1-I9), cut from seeded greedy-bot games as the base ones are and named the same
# way with ``isla-`` in front (``tests/test_isla_positions.py`` checks the names against the
# positions). Apart from ``LIBRARY``: every position there is one the solvers take, and none of them
# takes these yet. Whole hands unless ``hand`` says otherwise; every one has cargo on its ships.
def library(entry: Callable[..., E]) -> dict[str, E]:
    """The entries by name, each made by ``entry`` (``solvers.positions.Entry``)."""
    o = OPTIONS
    return {e.name: e for e in [
        entry("isla-rio4-last-turn", "La Isla Bohnita, rio-grande, 4 players, real hands (10-20 cards), the "
              "last turn; 7 ships, 3 of them pirates, with 7 cargo cards", "rio-grande", 4, 44, 6, options=o),
        entry("isla-rio3-8cards", "La Isla Bohnita, rio-grande, 3 players", "rio-grande", 3, 40, 8,
              options=o),
        entry("isla-amigo4-6cards", "La Isla Bohnita, amigo, 4 players", "amigo", 4, 44, 8, options=o),
        entry("isla-rio7-2cards", "La Isla Bohnita, rio-grande, 7 players", "rio-grande", 7, 41, 5,
              options=o),
        entry("isla-duel-7cards", "the Isla duel (I9), rio-grande", "rio-grande", 2, 47, 8, options=o),
        entry("isla-amigo-duel-5cards", "the Isla duel (I9), amigo", "amigo", 2, 42, 6, options=o),
        # small enough for the Isla duel's exact search (solvers/isla/duel.py): hand-made, p0's last turn
        entry("isla-duel-2cards", "hand-made Isla duel (I9), rio-grande: p0's last turn, a raid that cannot "
              "pay (p1 sells its chili first, I7); margin 1", "rio-grande", 2, 0, 2, state=DUEL_STATE,
              options=o),
        # small: hands cut to a card or two, for the exact search of issue 41 item 2
        entry("isla-amigo3-5cards", "La Isla Bohnita, amigo, 3 players, hands of 2 cards", "amigo", 3, 40, 8,
              hand=2, options=o),
        entry("isla-rio4-5cards", "La Isla Bohnita, rio-grande, 4 players, hands of 1 card", "rio-grande", 4,
              41, 6, hand=1, draw=5, options=o),
    ]}
