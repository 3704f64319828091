"""Which rule a difference between another engine and ours is about (the rule IDs of RULES.md).

- an action the engine lists or accepts that ours refuses: the rule our engine names (``IllegalAction.rule``);
- an action ours lists that the engine lacks or refuses: the rule that allows it (``allowing``);
- a state that differs after an action: the rule of the step that made the difference
  (``records.claims.state_rule``, from the action, the phase and the part of the state that differs).
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
    """The notation as ``format_action`` writes it (indices and beans in order: a proposal's or an
    accept's cards are a set, T3); unparsable text is returned as it is."""
    try:
        a = parse_action(text)
    except NotationError:
        return text
    if isinstance(a, Propose):
        a = Propose(a.player, a.partner, tuple(sorted(a.give_hand)), tuple(sorted(a.give_up)),
                    tuple(sorted(a.ask)), tuple(sorted(a.give_aside)))
    elif isinstance(a, Accept):
        a = Accept(a.player, tuple(sorted(a.hand)))
    return str(a)


def refusal(s: GameState, text: str) -> tuple[str | None, str]:
    """(the rule, ``": "`` and the reason) our engine gives in refusing ``text`` at ``s``, as
    scripts/check_record.py says them; (None, "") if it is legal."""
    try:
        apply(s, parse_action(text))
    except IllegalAction as e:
        return e.rule, f": {e.reason}"
    except (NotationError, BohnanzaError) as e:
        return NOTATION, f": {e}"
    return None, ""


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
