"""La Isla Bohnita's endgame positions (I1-I9) and how their values are proved: ``solo`` by exact
search, and again by the CP-SAT model for every seat with no turn left (the two must agree)."""

from __future__ import annotations

from typing import Any

from conformance.common import GenerationError
from conformance.kinds import EXACT_SECONDS, EndgameSpec, library, solver_name
from console.progress import ProgressFn
from model import GameState
from solvers.api import solve as api_solve
from solvers.contract import DUEL, SOLO, Limits, Status
from solvers.isla.cpsat import read_timeline

ISLA_CPSAT_SECONDS = 60.0  # it proves a seat with no turn left in well under a second


def isla_solve(s: GameState, player: int, progress: ProgressFn | None = None) -> list[dict[str, Any]]:
    """Isla ``solo`` for ``player`` by exact search, and by the CP-SAT model too where it proves its
    answer (a seat with no turn left): two entries of one value, each re-solved by the suite. Proved
    values that differ are a GenerationError (the two solvers disagree)."""
    sol = api_solve(s, SOLO, "exact", player, Limits(time=EXACT_SECONDS, nodes=5_000_000), progress)
    out = [{"objective": SOLO.name, "player": player, "value": sol.value,
            "solver": solver_name(s, SOLO, "exact")}]
    if player in {t.active for t in read_timeline(s, player)[1]}:
        return out  # a turn of P's: the CP-SAT model gives a line, not a proof (docs/endgames.md)
    second = api_solve(s, SOLO, "cpsat", player, Limits(time=ISLA_CPSAT_SECONDS, workers=1), progress)
    if second.status != Status.OPTIMAL or second.value != sol.value:
        raise GenerationError(f"solo p{player}: exact search proves {sol.value}, CP-SAT gives {second.value} "
                              f"({second.status})")
    out.append({**out[0], "solver": solver_name(s, SOLO, "cpsat")})
    return out


METHODS = {"isla": isla_solve}  # EndgameSpec.method -> the values of one seat

ENDGAMES: list[EndgameSpec] = [
    # La Isla Bohnita (I1-I9): solo for every seat, by exact search and, where it proves it, CP-SAT
    *(EndgameSpec(n, f"built-in position {n} (solvers/positions.py): La Isla Bohnita, {about}; solo for "
                  "every seat by exact search, and by the CP-SAT model for every seat with no turn left",
                  library(n), ((SOLO, None),), "isla")
      for n, about in [
          ("isla-rio4-5cards", "rio-grande, 4 players, hands of 1 card, 5 cards left"),
          ("isla-amigo3-5cards", "amigo, 3 players, hands of 2 cards, 5 cards left"),
          ("isla-rio7-2cards", "rio-grande, 7 players, 2 cards left"),
          ("isla-rio4-last-turn", "rio-grande, 4 players, real hands, the last turn"),
      ]),
    EndgameSpec("isla-duel-2cards", "built-in position isla-duel-2cards (solvers/positions.py): the Isla "
                "duel (I9), hand-made, p0's last turn with a raid p1 answers by selling; duel for both seats",
                library("isla-duel-2cards"), ((DUEL, None),)),
]
