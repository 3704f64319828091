"""The CP-SAT (OR-Tools) model of Isla ``solo P`` (issue 41 item 3): P's fields, ships, cargo and
coins, the island rows and the other seats' pirate attacks, over the fixed timeline.

Written from the rules I1-I8 (and H2-H5, C1, E2-E3), not from the engine's code; the engine only
reads the timeline (which cards reach P and when: with no trades and no row emptied, nothing
anyone decides changes it) and replays the answer. ``solo`` is read as in ``solvers/isla/exact.py``:
the other seats play ``isla_policy`` (never sail, buy, load or trade; a pirate attacks in its
owner's phase 2 while it can, the fullest cargo first; an attacked seat sells when the cargo pays).

The model, event by event in time order:

- P's turns (I3): phase 1 is ``PHASE1_STEPS`` steps, phase 2 ``PHASE2_EXTRA`` plus the face-up
  cards and the sails allowed (``max_sails``), each at most ``sound_steps`` (``bounds.py``). Each
  step is one action or nothing (the nothings last): plant the hand's front card (phase 1: the
  first forced while the hand holds one, at most two, T1, H1), plant a face-up card (phase 2; all
  of them by its end, T5), harvest a field for coins (H4 lenient, H5, C1) or onto a merchant ship
  at home (I5), sell a cargo that pays (I6), move a whole cargo onto a merchant ship in the same
  port (I6; not pirate cargo captured this turn), buy the third field, the second merchant ship or
  the pirate ship (I1), sail a merchant ship (phase 2, I4: loading the row's front card and more
  of its type), attack with the pirate (phase 2, I7: once per enemy ship a turn; the owner sells
  when the cargo pays, else yields).
- Another seat's turn with a pirate ship (I7): attack rounds, each taking the valid target with
  the largest (cargo, -seat, -bean, -ship); P answers an attack on its ship by selling (if it
  pays) or yielding, a choice of the model.
- A row emptied in P's turn is refilled after P's draw (I2): from a pile of 1-5 cards that is the
  final exhaustion and the game ends at once (E2); a pile of more than 5 would change every card to
  come, and the model refuses such a position (one line naming I2).
- The end (E3, I8): every field and every cargo sold by the beanometer.

The step caps make the model's optimum the best over lines with that many actions a phase;
``sound_steps`` (``bounds.py``) is how many an optimal line needs at most, argued from the rules,
so a model whose caps reach it in every turn of P's is exact, and only then is a proved optimum
called optimal (with no turn of P's left, always). The sound bound is loose (tens of steps in
phase 2), too large for CP-SAT to search within seconds, so by default the caps fall short and a
turn of P's is answered by a real line, ``feasible``, checked against exact search by
``scripts/cross_check.py --expansion isla``. A turn of P's is hard for CP-SAT (a loose LP bound,
the orders of the same actions left to the search): a ladder of models (``LADDER``: 2/0, 3/4
steps, then the full model), each starting from the best line so far, finds it. A relaxation
(``relax.py``: each planting, sail or attack preceded by a run of cash actions as a regrouping)
bounds every legal line from above; when it has no line worth more, the line is proved."""

from solvers.isla.cpsat.base import PHASE1_STEPS, PHASE2_EXTRA, ModelBase
from solvers.isla.cpsat.bounds import PhaseSteps, sound_steps
from solvers.isla.cpsat.entry import FIRST_STEPS, LADDER, check_isla_cpsat, replay, solve, solve_isla_cpsat
from solvers.isla.cpsat.raids import RaidModel
from solvers.isla.cpsat.relax import RelaxedModel, prove, relaxed_steps
from solvers.isla.cpsat.state import RATE, ROW_CARDS, LInt, Segment, ShipVars, State, Step, hi
from solvers.isla.cpsat.timeline import NO_BEAN, TurnInfo, read_timeline, row_states
from solvers.isla.cpsat.turns import IslaModel

__all__ = ["FIRST_STEPS", "LADDER", "NO_BEAN", "PHASE1_STEPS", "PHASE2_EXTRA", "RATE", "ROW_CARDS",
           "IslaModel", "LInt", "ModelBase", "PhaseSteps", "RaidModel", "RelaxedModel", "Segment", "ShipVars",
           "State", "Step", "TurnInfo", "check_isla_cpsat", "hi", "prove", "read_timeline", "relaxed_steps",
           "replay", "row_states", "solve", "solve_isla_cpsat", "sound_steps"]
