"""The Bohnanza rules engine: cards, rulesets, state, actions, engine and views (the layers above it:
the input schemas and their loaders, ``schemas``; the state's SVG picture, ``drawing``; game records
and the referee, ``records``).

``model`` imports nothing from ``solvers`` or ``proofs``, and its core needs only the standard library.
"""

from model.actions import (
    Accept,
    Action,
    BuyField,
    Decline,
    Discard,
    DiscardUp,
    EndPhase,
    Harvest,
    NotationError,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
    format_action,
    parse_action,
)
from model.cards import BEAN_NAMES, Bean, UnknownBean, bean, coins_for
from model.display import describe
from model.engine import (
    IllegalAction,
    apply,
    chance_outcome,
    legal_actions,
    new_game,
    scores,
    winners,
)
from model.expansions import BUILT_IN, install
from model.isla import Fleet, Isla, Ship
from model.isla.actions import Attack, BuyShip, HarvestOnto, MoveCargo, PlantCargo, Sail, Sell, Yield
from model.rules import PRESETS, Ruleset, RulesetError, Setup, ruleset, setup
from model.state import DRAWINGS, EMPTY, Field, GameState, Phase, PlayerState, state_to_json

# What importing the package sets up, in one place: the built-in expansions made playable (every
# registry below them filled from each, ``model.expansions.install``) and ``str(state)`` drawn by
# model/display.py (the state names neither; the SVG picture joins when ``drawing`` is imported).
for _x in BUILT_IN:
    install(_x)
DRAWINGS["text"] = describe

__all__ = [
    "Accept", "Action", "Attack", "BEAN_NAMES", "Bean", "BuyField", "BuyShip", "Decline", "Discard",
    "DiscardUp", "EMPTY", "EndPhase", "Field", "Fleet", "GameState", "Harvest", "HarvestOnto",
    "IllegalAction", "Isla", "MoveCargo", "NotationError", "PRESETS", "Phase", "Plant", "PlantAside",
    "PlantCargo", "PlantUp", "PlayerState", "Propose", "Reshuffle", "Ruleset", "RulesetError", "Sail",
    "Sell", "Setup", "Ship", "UnknownBean", "Yield", "apply", "bean", "chance_outcome", "coins_for",
    "format_action", "legal_actions", "new_game", "parse_action", "ruleset", "scores", "setup",
    "state_to_json", "winners",
]
