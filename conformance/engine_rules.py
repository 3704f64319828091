"""Which rule a difference between another engine and ours is about (the rule IDs of RULES.md).

- an action the engine lists or accepts that ours refuses: the rule our engine names (``IllegalAction.rule``);
- an action ours lists that the engine lacks or refuses: the rule that allows it (``allowing``);
- a state that differs after an action: the rule of the step that made the difference
  (``state_rule``, from the action, the phase and the part of the state that differs).
"""

from __future__ import annotations

from model import (
    Accept,
    Action,
    Attack,
    BuyField,
    BuyShip,
    Decline,
    Discard,
    DiscardUp,
    EndPhase,
    GameState,
    Harvest,
    HarvestOnto,
    IllegalAction,
    MoveCargo,
    NotationError,
    Phase,
    Plant,
    PlantAside,
    PlantCargo,
    PlantUp,
    Propose,
    Reshuffle,
    Sail,
    Sell,
    Yield,
    apply,
    parse_action,
)
from model.errors import BohnanzaError

NOTATION = "notation"  # not an action of docs/records.md at all: no rule of the game

_KIND_RULE: dict[type, str] = {
    PlantAside: "T6", PlantUp: "D2", DiscardUp: "D2", Discard: "D2", BuyField: "F1",
    Propose: "T3", Accept: "T3", Decline: "T3", Reshuffle: "E1", Sail: "I4", HarvestOnto: "I5",
    Sell: "I6", MoveCargo: "I6", Attack: "I7", Yield: "I7", BuyShip: "I1", PlantCargo: "I5",
}


def canonical(text: str) -> str:
    """The notation as ``format_action`` writes it (indices and beans in order); unparsable text
    is returned as it is."""
    try:
        return str(parse_action(text))
    except NotationError:
        return text


def illegal_rule(s: GameState, text: str) -> str | None:
    """The rule our engine names in refusing ``text`` at ``s``; None if it is legal."""
    try:
        action = parse_action(text)
    except NotationError:
        return NOTATION
    try:
        apply(s, action)
    except IllegalAction as e:
        return e.rule
    except BohnanzaError:
        return NOTATION
    return None


def allowing(s: GameState, action: Action) -> str:
    """The rule that allows ``action`` at ``s`` (an action our engine lists)."""
    kind = type(action)
    if kind is Plant:
        return "T1"
    if kind is Harvest:
        assert isinstance(action, Harvest)
        return "H4" if s.players[action.player].fields[action.field].count == 1 else "H6"
    if kind is EndPhase:
        return {Phase.PLANT: "T1", Phase.TRADE: "T5"}.get(s.phase, "D2")
    return _KIND_RULE.get(kind, "T1")


def state_rule(before: GameState, action: Action, after: GameState, keys: list[str],
               engine_phase: str | None, coin_gain: tuple[int, int] | None = None) -> str:
    """The rule behind a state that differs in ``keys`` (``hand``: other cards, ``hand order``: the
    same cards, ``fields``, ``coins``, ``aside``,
    ``face_up``, ``draw``, ``discard``, ``phase``, ``to_move``, ``active``) after ``action`` took our
    engine from ``before`` to ``after``. ``coin_gain`` is (ours, theirs) for the seat that harvested."""
    kind = type(action)
    ours = after.phase.name.lower()
    hand = "hand" in keys or "hand order" in keys
    if after.phase == Phase.OVER:
        return "E2" if "phase" in keys and engine_phase != "over" else "E3"
    if engine_phase == "over":
        return "E2"
    if engine_phase == "chance" and ours != "chance":
        return "E2" if after.final else "E1"  # a reshuffle where the final exhaustion ends the game
    if kind is Reshuffle:
        return "E1"
    if isinstance(action, (Harvest, HarvestOnto)):
        if "coins" in keys and coin_gain is not None:
            ours_gain, theirs_gain = coin_gain
            f = before.players[action.player].fields[action.field]
            row = before.setup.payout[f.bean]
            if theirs_gain == f.count - ours_gain and theirs_gain != row[min(f.count + 1, len(row) - 1)]:
                return "H5"  # the coins and the discarded cards swapped
            return "C1"
        return "H5"
    if kind is Accept:
        return "T4" if hand or "aside" in keys else "T3"
    if kind is Plant and ("phase" in keys or "to_move" in keys) and before.planted >= 1:
        return "T1"
    if kind is Plant and (hand or "fields" in keys) and before.turn == after.turn:
        return "H1"
    if kind is EndPhase and before.phase == Phase.TRADE:
        if {"aside", "face_up", "discard"} & set(keys):
            return "T5"
        if after.phase == Phase.PLANT_ASIDE and "phase" in keys:
            return "T6"
    if kind is PlantAside and ("phase" in keys or "to_move" in keys):
        return "T6"
    if after.phase == Phase.PLANT_ASIDE and "phase" in keys:
        return "T6"
    if after.turn != before.turn:  # the turn ended: drawing (T7), the next turn
        return "H1" if "hand order" in keys else "T7"
    if "face_up" in keys:
        return "T2"
    if "fields" in keys:
        return "H2"
    if hand:
        return "H1"
    if "coins" in keys:
        return "C1"
    if "aside" in keys:
        return "T4"
    return {Phase.PLANT: "T1", Phase.TRADE: "T3", Phase.PLANT_ASIDE: "T6"}.get(after.phase, "T1")
