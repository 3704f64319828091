"""The Bohnanza rules engine: cards, rulesets, state, actions, engine, views and game records.

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
from model.engine import (
    IllegalAction,
    apply,
    chance_outcome,
    legal_actions,
    new_game,
    scores,
    winners,
)
from model.rules import PRESETS, Ruleset, RulesetError, Setup, ruleset, setup
from model.state import EMPTY, Field, GameState, Phase, PlayerState, state_from_json, state_to_json

__all__ = [
    "Accept", "Action", "BEAN_NAMES", "Bean", "BuyField", "Decline", "Discard", "DiscardUp", "EMPTY",
    "EndPhase", "Field", "GameState", "Harvest", "IllegalAction", "NotationError", "PRESETS", "Phase",
    "Plant", "PlantAside", "PlantUp", "PlayerState", "Propose", "Reshuffle", "Ruleset", "RulesetError",
    "Setup", "UnknownBean", "apply", "bean", "chance_outcome", "coins_for", "format_action",
    "legal_actions", "new_game", "parse_action", "ruleset", "scores", "setup", "state_from_json",
    "state_to_json", "winners",
]
