"""La Isla Bohnita (RULES.md I1-I9), an expansion read in its own package:

- ``state.py``: ships, fleets, the island rows (kept in ``GameState.ext``), and the readings
  chosen where the seed is unclear;
- ``setup.py``: what it changes in table S (I2: removed types, hands, draws, the end), its option
  ``max_sails`` and its own setup numbers (``IslaSetup``: the ship prices, kept in ``Setup.ext``);
- ``actions.py``: the expansion's actions and their notation;
- ``codec.py``: that part of the state JSON;
- ``drawing.py``: ships and rows in ``str(state)`` (the SVG picture's part is drawing/isla.py);
- ``moves.py``: the move generator and the handlers of the expansion's actions;
- ``hooks.py``: ``ISLA``, the ``model.expansion.Expansion`` the engine calls where the expansion
  changes the base turn (registered in ``model/expansions.py``).

Importing the package loads its state, setup and JSON only; the moves and hooks load with the
engine (through the registry, ``model/expansions.py``).
"""

from model.isla.codec import IslaFormatError, isla_from_json, isla_to_json
from model.isla.setup import IslaSetup, isla_setup
from model.isla.state import (
    BOHNACO,
    BOHNBAY,
    EMPTY_SHIP,
    HOME,
    REFILL,
    ROW,
    Fleet,
    Isla,
    Ship,
    isla_of,
    new_isla,
    new_turn,
)

__all__ = [
    "BOHNACO", "BOHNBAY", "EMPTY_SHIP", "HOME", "REFILL", "ROW", "Fleet", "Isla", "IslaFormatError",
    "IslaSetup", "Ship", "isla_from_json", "isla_of", "isla_setup", "isla_to_json", "new_isla", "new_turn",
]
