"""La Isla Bohnita's legal game records (I1-I9): seeded games of the bots, the duel and 3-7 players."""

from __future__ import annotations

from conformance.kinds import GameSpec
from model import GameState
from model.isla import isla_of


def _stop_at_attack(s: GameState) -> bool:
    return s.ext is not None and isla_of(s).attack is not None


LEGAL: list[GameSpec] = [
    GameSpec("isla-2p-duel", "La Isla Bohnita duel (I9), greedy bots", "rio-grande", 2, 161, "greedy",
             (("isla", True),)),
    GameSpec("isla-2p-duel-random", "La Isla Bohnita duel (I9), random bots (hand discards before "
             "planting)", "rio-grande", 2, 168, "random", (("isla", True),)),
    GameSpec("isla-3p", "La Isla Bohnita, 3 players, greedy bots", "rio-grande", 3, 162, "greedy",
             (("isla", True),)),
    GameSpec("isla-4p", "La Isla Bohnita, 4 players, greedy bots (raids)", "rio-grande", 4, 163, "greedy",
             (("isla", True),)),
    GameSpec("isla-5p", "La Isla Bohnita, 5 players, random proposals", "rio-grande", 5, 164,
             "random-trader", (("isla", True),)),
    GameSpec("isla-6p", "La Isla Bohnita, 6 players, greedy bots", "rio-grande", 6, 165, "greedy",
             (("isla", True),)),
    GameSpec("isla-7p", "La Isla Bohnita, 7 players, random bots", "rio-grande", 7, 166, "random",
             (("isla", True),)),
    GameSpec("isla-amigo-3p", "La Isla Bohnita with the amigo deck, 3 players, greedy bots", "amigo", 3,
             167, "greedy", (("isla", True),)),
    GameSpec("isla-4p-stopped-attack", "La Isla Bohnita, 4 players, stopped while an attack awaits its "
             "answer (I7; a game in progress)", "rio-grande", 4, 173, "greedy", (("isla", True),),
             stop=_stop_at_attack),
]
