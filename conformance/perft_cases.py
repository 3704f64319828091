"""The perft positions: where each is taken from and what it covers (docs/conformance.md)."""

from __future__ import annotations

from typing import Any

from conformance.common import (
    PERFT_DEPTHS,
    GenerationError,
    find,
    game_states,
    last_state,
    mover,
    reaches,
    rules_of,
    with_options,
)
from conformance.expansions import EXPANSION_PERFT
from conformance.kinds import PerftSpec, can, in_trade
from model import BuyField, GameState, Phase, Propose, apply, legal_actions, new_game
from model.perft import perft
from model.state import state_to_json
from model.validate import check_state

# ---------------------------------------------------------------- perft positions


def _pending_with_choice(s: GameState) -> GameState | None:
    """A listed one-card proposal of a face-up card for a bean the partner holds twice or more."""
    if not (in_trade(s) and s.face_up):
        return None
    for a in legal_actions(s):
        if isinstance(a, Propose) and a.give_up and len(a.ask) == 1 and not a.give_hand:
            if s.players[a.partner].hand.count(a.ask[0]) >= 2:
                return apply(s, a)
    return None


def _pending_position() -> GameState:
    rules = rules_of("rio-grande", {"max_deal_cards": 1})
    for s in game_states(rules, 4, 14, "random"):
        if s.turn >= 4:
            t = _pending_with_choice(s)
            if t is not None:
                return t
    raise GenerationError("no pending offer with a choice of cards")


def _empty_on_demand(s: GameState) -> bool:
    """E1 on-demand: phase 1 before any planting, the draw pile empty but not yet exhausted."""
    return s.phase == Phase.PLANT and s.planted == 0 and not s.draw and not s.final


def _h4_differs(s: GameState) -> bool:
    """The player to move (phase 1) holds a one-card field and an empty field and nothing fuller:
    the lenient reading lets it harvest the single, the strict one does not (H4)."""
    if s.phase != Phase.PLANT or s.turn < 3:
        return False
    counts = sorted(f.count for f in mover(s).fields)
    return counts[0] == 0 and counts[-1] == 1


def _strict_pair() -> GameState:
    return find(rules_of("rio-grande"), 4, 8, "random", _h4_differs, "a single beside an empty field")


def _field_beans(s: GameState) -> bool:
    """V5: the player to move holds exactly two field beans on a field (harvest: a third field)."""
    return (s.to_move >= 0 and s.phase != Phase.TRADE and len(mover(s).fields) == 2
            and any(f.bean == 11 and f.count == 2 for f in mover(s).fields))


PERFT: list[PerftSpec] = [
    PerftSpec("rio-grande-4p-start", "rio-grande, 4 players, default options: the first decision of a "
              "new game (seed 1); depth 3 reaches the first trading phase with every proposal listed",
              lambda: new_game(rules_of("rio-grande"), 4, 1)),
    PerftSpec("rio-grande-3p-plant-second", "rio-grande, 3 players (three fields): phase 1 after one "
              "planting (the player may plant again or end, T1); seed 3, random bots, turn >= 10",
              lambda: find(rules_of("rio-grande"), 3, 3, "random",
                           lambda s: s.phase == Phase.PLANT and s.planted == 1 and s.turn >= 10,
                           "phase 1 after one planting")),
    PerftSpec("rio-grande-5p-buy", "rio-grande, 5 players: phase 1 where the player to move can buy "
              "the third field (F1); seed 5, random bots",
              lambda: find(rules_of("rio-grande", {"max_deal_cards": 1}), 5, 5, "random",
                           lambda s: s.phase == Phase.PLANT and s.planted == 0 and can(BuyField)(s),
                           "a third field for sale")),
    PerftSpec("rio-grande-6p-plant", "rio-grande, 6 players (hands 3, 4, 5, 6...; draw 4): phase 1 at "
              "turn >= 12; seed 6, random bots, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"max_deal_cards": 1}), 6, 6, "random",
                           lambda s: s.phase == Phase.PLANT and s.planted == 0 and s.turn >= 12,
                           "phase 1")),
    PerftSpec("rio-grande-7p-trade", "rio-grande, 7 players: the trading phase, no offer pending "
              "(T3); seed 7, random bots, max_deal_cards=1, max_offers=2",
              lambda: find(rules_of("rio-grande", {"max_deal_cards": 1, "max_offers": 2}), 7, 7, "random",
                           lambda s: in_trade(s) and s.turn >= 9, "trading")),
    PerftSpec("rio-grande-4p-trade", "rio-grande, 4 players: the trading phase, no offer pending (T3); "
              "seed 11, greedy bots, turn >= 6, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"max_deal_cards": 1}), 4, 11, "greedy",
                           lambda s: in_trade(s) and s.turn >= 6, "trading")),
    PerftSpec("rio-grande-4p-pending", "rio-grande, 4 players: an offer is pending and the partner "
              "holds the asked bean twice, so it can accept in more than one way (T3); seed 14, "
              "max_deal_cards=1", _pending_position),
    PerftSpec("rio-grande-4p-plant-aside", "rio-grande, 4 players: phase 3, two seats with set-aside "
              "cards, the player to move with two types (T6); seed 12, greedy bots",
              lambda: find(rules_of("rio-grande", {"max_deal_cards": 1}), 4, 12, "greedy",
                           lambda s: s.phase == Phase.PLANT_ASIDE and len(set(mover(s).aside)) >= 2
                           and sum(bool(p.aside) for p in s.players) >= 2, "phase 3")),
    PerftSpec("rio-grande-4p-chance", "rio-grande, 4 players: a chance node, a reshuffle is due (E1): "
              "a leaf at every depth; seed 13, random bots",
              lambda: find(rules_of("rio-grande"), 4, 13, "random", lambda s: s.phase == Phase.CHANCE,
                           "a reshuffle")),
    PerftSpec("rio-grande-4p-over", "rio-grande, 4 players: the game is over (E3): a leaf at every "
              "depth; seed 13, random bots", lambda: last_state(rules_of("rio-grande"), 4, 13, "random")),
    PerftSpec("rio-grande-4p-reshuffle-ahead", "rio-grande, 4 players: phase 3 where some sequences "
              "reach a reshuffle within two actions (they stop there, E1); seed 15, greedy bots",
              lambda: find(rules_of("rio-grande", {"max_deal_cards": 1}), 4, 15, "greedy",
                           lambda s: s.phase == Phase.PLANT_ASIDE and reaches(s, (Phase.CHANCE,), 2),
                           "a reshuffle two actions ahead")),
    PerftSpec("rio-grande-3p-end-ahead", "rio-grande, 3 players: the last turn, where some sequences "
              "end with the game within two actions (E2); seed 16, greedy bots, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"max_deal_cards": 1}), 3, 16, "greedy",
                           lambda s: s.phase != Phase.TRADE and reaches(s, (Phase.OVER,), 2)
                           and s.phase != Phase.OVER, "the end two actions ahead")),
    PerftSpec("rio-grande-4p-on-demand-empty-pile", "rio-grande, 4 players, reshuffle=on-demand (E1): "
              "phase 1 of turn 22 with an empty draw pile not yet exhausted (the last card was drawn "
              "at the end of turn 21); harvests before the turn-up add to the pile the need then "
              "reshuffles (a chance node, a leaf); seed 198, greedy bots, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"reshuffle": "on-demand", "max_deal_cards": 1}), 4, 198,
                           "greedy", lambda s: _empty_on_demand(s) and s.exhaustions == 0,
                           "phase 1 with an empty pile")),
    PerftSpec("rio-grande-4p-on-demand-chance", "rio-grande, 4 players, reshuffle=on-demand (E1): the "
              "chance node at the need, while turning up (both face-up cards still to come): a leaf at "
              "every depth; seed 198, greedy bots, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"reshuffle": "on-demand", "max_deal_cards": 1}), 4, 198,
                           "greedy", lambda s: s.phase == Phase.CHANCE and len(s.todo) == 2, "a need")),
    PerftSpec("rio-grande-4p-on-demand-final-need", "rio-grande, 4 players, reshuffle=on-demand (E1, "
              "E2): phase 1 in the final pass with an empty pile: the turn-up needs a card, which is "
              "the final exhaustion, and the turn goes on to trading with no face-up card (at-exhaustion "
              "the game ended at the last card); seed 198, greedy bots, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"reshuffle": "on-demand", "max_deal_cards": 1}), 4, 198,
                           "greedy", lambda s: _empty_on_demand(s) and s.exhaustions == 2,
                           "phase 1 with an empty final pile")),
    PerftSpec("duel-offer", "the bean duel (rio-grande, 2 players): step 1, cards left on offer to "
              "plant or discard (D2); seed 21, random bots",
              lambda: find(rules_of("rio-grande"), 2, 21, "random",
                           lambda s: s.phase == Phase.OFFER and len(set(s.face_up)) >= 2, "an offer")),
    PerftSpec("duel-discard", "the bean duel: step 2, the optional hand discard after planting (D2); "
              "seed 22, random bots",
              lambda: find(rules_of("rio-grande"), 2, 22, "random",
                           lambda s: s.phase == Phase.DISCARD and s.turn >= 4, "the discard step")),
    PerftSpec("duel-turned", "the bean duel: step 3, turned-up cards (with matching discards) to plant "
              "or leave on offer (D2); seed 23, random bots",
              lambda: find(rules_of("rio-grande"), 2, 23, "random",
                           lambda s: s.phase == Phase.TURNED and len(s.face_up) >= 3, "turned-up cards")),
    PerftSpec("duel-plant-buy", "the bean duel: phase 1 where a third field can be bought (its coins "
              "leave the game, F1); seed 35, random bots",
              lambda: find(rules_of("rio-grande"), 2, 35, "random",
                           lambda s: s.phase == Phase.PLANT and can(BuyField)(s), "a third field for sale")),
    PerftSpec("amigo-3p-plant", "amigo, 3 players (three fields, no third field to buy): phase 1 at "
              "turn >= 8; seed 31, random bots, max_deal_cards=1",
              lambda: find(rules_of("amigo", {"max_deal_cards": 1}), 3, 31, "random",
                           lambda s: s.phase == Phase.PLANT and s.planted == 0 and s.turn >= 8, "phase 1")),
    PerftSpec("amigo-5p-trade", "amigo, 5 players: the trading phase, no offer pending; seed 32, greedy "
              "bots, max_deal_cards=1, max_offers=2",
              lambda: find(rules_of("amigo", {"max_deal_cards": 1, "max_offers": 2}), 5, 32, "greedy",
                           lambda s: in_trade(s) and s.turn >= 7, "trading")),
    PerftSpec("amigo-1997-3p-buy", "amigo-1997, 3 players (two fields each, a third for 3 coins): "
              "phase 1 where the player to move can buy it (F1); seed 34, random bots, max_deal_cards=1",
              lambda: find(rules_of("amigo-1997", {"max_deal_cards": 1}), 3, 34, "random",
                           lambda s: s.phase == Phase.PLANT and can(BuyField)(s), "a third field for sale")),
    PerftSpec("amigo-v1-4p-plant-aside", "amigo-v1 (V4: everyone draws 1 card in phase 4), 4 players: "
              "phase 3; seed 34, greedy bots, max_deal_cards=1",
              lambda: find(rules_of("amigo-v1", {"max_deal_cards": 1}), 4, 34, "greedy",
                           lambda s: s.phase == Phase.PLANT_ASIDE and s.turn >= 5, "phase 3")),
    PerftSpec("amigo-v2-5p-field-beans", "amigo-v2 (V5), 5 players: the player to move holds two field "
              "beans on a field (harvesting them gives a third field, no coins); seed 84, random bots, "
              "max_deal_cards=1",
              lambda: find(rules_of("amigo-v2", {"max_deal_cards": 1}), 5, 84, "random", _field_beans,
                           "two field beans")),
    PerftSpec("v2-distinct-fields-4p", "rio-grande, 4 players, option distinct_fields (V2): phase 1 "
              "after one planting, the front card of the same type as the first field's (V2 sends it "
              "elsewhere); seed 36, random bots, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"distinct_fields": True, "max_deal_cards": 1}), 4, 36,
                           "random", lambda s: s.phase == Phase.PLANT and s.planted == 1
                           and mover(s).hand[0] == mover(s).fields[s.first_field].bean, "a V2 choice")),
    PerftSpec("h4-strict-4p", "rio-grande, 4 players, option harvest=strict (H4): the player to move "
              "holds a one-card field and an empty field, so the single may not be harvested (compare "
              "h4-lenient-4p, the same position); seed 8, random bots, max_deal_cards=1",
              lambda: with_options(_strict_pair(), {"harvest": "strict", "max_deal_cards": 1})),
    PerftSpec("h4-lenient-4p", "rio-grande, 4 players, harvest=lenient (H4, the default): the position "
              "of h4-strict-4p, where the single may be harvested; seed 8, max_deal_cards=1",
              lambda: with_options(_strict_pair(), {"max_deal_cards": 1})),
    *EXPANSION_PERFT,
]


def perft_fixture(spec: PerftSpec) -> dict[str, Any]:
    s = spec.build()
    check_state(s)
    return {
        "format": "bohnanza-perft",
        "version": 1,
        "name": spec.name,
        "description": spec.description,
        "ruleset": s.setup.rules.name,
        "players": len(s.players),
        "phase": s.phase.name.lower(),
        "to_move": s.to_move,
        "perft": {str(d): perft(s, d) for d in PERFT_DEPTHS},
        "state": state_to_json(s),
    }
