"""La Isla Bohnita CP-SAT ``solo``: how many actions of P's a phase suffice for an optimal line (a
sound bound), so that a model with that many steps is exact.

The argument, phase by phase of one of P's turns (P's actions in the model: plant, plant a face-up
card, harvest for coins or onto a ship, sell a cargo, move a cargo, buy, sail, attack; the
counts below are the most an optimal line needs, over every state the turn can start in):

- Phase 1 ends with its last planting: an action after it moves unchanged to the start of
  phase 2 (the turn-up touches nothing of P's, and every phase-1 action is a phase-2 action too).
  So with no planting (an empty hand, T1) phase 1 needs no step.
- Plantings: at most 2 in phase 1 and at most the hand's cards (T1), exactly the face-up cards in
  phase 2 (T5; I3: no hand card then).
- Harvests (for coins or onto a ship, H5, I5) empty a non-empty field, and only a planting fills
  an empty one (H3): at most the fields filled at the phase's start plus its plantings (phase 1:
  the plantings but its last, the argument above).
- Sails: at most ``max_sails`` a turn (I4 reading). Attacks: at most one per enemy merchant ship
  a turn (I7), none without a pirate to own or buy. Purchases: each of the third field, the second
  merchant ship and the pirate once a game (I1), so at most those P lacks.
- A move of a whole cargo from a merchant ship onto an empty merchant ship in the same port only
  swaps the two ships' names (I1, I6: the ships are alike; ``isla_policy`` picks its target by
  cargo, ties by the lower ship only between equal cargos): an optimal line without it exists, with
  the later actions renamed. The pirate's cargo moves at most once a turn: the pirate is loaded only
  by captures (I5, I7: no harvest or merchant cargo onto it), and captured cargo may not move in the
  turn (the model's I6 reading). A move onto a non-empty merchant ship (a merge) lowers the number of
  loaded merchant ships by one, which only a load onto an empty one raises (a harvest onto it, a
  sail to an island port, the pirate's cargo): at most the loaded merchant ships at the start plus
  those loads.
- A sale empties a loaded ship (I6), which only a load makes loaded again (a harvest onto it, a
  sail, a move, a capture): at most the loaded ships at the start plus those loads.

Each count bounds one kind of action in a line without renaming moves, so their sum bounds its
actions in the phase, and a model with that many steps (and ``max_sails`` sails) holds an optimal
line. The bound is loose (with 6 sails and two face-up cards, 47 to 54 steps in phase 2 on the
cross-check's positions, where the caps give 16), which is why the solver caps the steps
(``PHASE1_STEPS``, ``PHASE2_EXTRA``) and claims an optimum only when the caps reach this bound.
"""

from __future__ import annotations

from dataclasses import dataclass

from model import GameState
from model.isla import isla_of
from solvers.isla.cpsat.timeline import TurnInfo


@dataclass(frozen=True)
class PhaseSteps:
    """The steps of one of P's turns: phase 1's, and phase 2's in all (plantings and sails too)."""

    phase1: int
    phase2: int


def sound_steps(s: GameState, p: int, info: TurnInfo, first: bool, max_sails: int) -> PhaseSteps:
    """The actions an optimal line needs at most in each phase of P's turn ``info`` (the module's
    argument). ``first``: the first of P's turns ahead, whose start is read from ``s`` (the other
    seats' raids before it only empty or lighten P's ships, I7); a later one assumes every field and
    ship P can own filled."""
    pl = s.players[p]
    fleet = isla_of(s).fleets[p]
    third = len(pl.fields) == 3 or s.setup.third_cost is not None  # F1, I1
    fields_max = 3 if third else 2
    buys = (1 if len(pl.fields) < 3 and s.setup.third_cost is not None else 0) \
        + (1 if len(fleet.merchants) < 2 else 0) + (1 if fleet.pirate is None else 0)
    enemies = sum(len(fl.merchants) for q, fl in enumerate(isla_of(s).fleets) if q != p)
    if first:
        filled = sum(1 for f in pl.fields if f.count)
        loaded = sum(1 for _, ship in fleet.ships() if ship.count)
        merchants = sum(1 for ship in fleet.merchants if ship.count)
    else:
        filled, loaded, merchants = fields_max, 3, 2
    hand = min(2, info.hand_available)
    phase1 = 0
    if hand:
        harvests = filled + hand - 1
        sales = loaded + harvests + 1  # loads: harvests onto ships, the pirate's cargo moved
        moves = merchants + harvests + 1 + 1  # merges, and the pirate's cargo once
        phase1 = hand + harvests + sales + moves + buys
    up = len(info.face_up)
    harvests = min(fields_max, filled + hand) + up
    attacks = enemies
    sales = 3 + harvests + max_sails + 1 + attacks
    moves = 2 + harvests + max_sails + 1 + 1
    phase2 = up + max_sails + attacks + buys + harvests + sales + moves
    return PhaseSteps(phase1, phase2)
