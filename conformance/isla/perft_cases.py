"""La Isla Bohnita's perft positions (I3-I9): ship moves, pirate attacks, the duel, the amigo deck."""

from __future__ import annotations

from conformance.common import find, rules_of
from conformance.kinds import PerftSpec, can, in_trade
from model import Attack, GameState, Phase, Sail, legal_actions
from model.isla import isla_of


def _isla_attack_possible(s: GameState) -> bool:
    return in_trade(s) and can(Attack)(s)


def _isla_sail_more(s: GameState) -> bool:
    return in_trade(s) and s.turn >= 3 and any(
        isinstance(a, Sail) and a.take > 1 for a in legal_actions(s, proposals=False))


PERFT: list[PerftSpec] = [
    PerftSpec("isla-4p-phase2", "La Isla Bohnita, rio-grande, 4 players: phase 2 with ship moves "
              "(loading more than one card of a row's front type, I4), deals and planting in any order "
              "(I3); seed 41, random bots, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"isla": True, "max_deal_cards": 1}), 4, 41, "random",
                           _isla_sail_more, "phase 2 with loading choices")),
    PerftSpec("isla-3p-pirate", "La Isla Bohnita, rio-grande, 3 players: phase 2, the active player's "
              "pirate ship can attack (I7); seed 43, greedy bots, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"isla": True, "max_deal_cards": 1}), 3, 43, "greedy",
                           _isla_attack_possible, "a possible attack")),
    PerftSpec("isla-4p-attack", "La Isla Bohnita, rio-grande, 4 players: a pirate attack awaits the "
              "attacked player's answer: sell that cargo (it pays) or yield a card (I7); seed 44, greedy "
              "bots, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"isla": True, "max_deal_cards": 1}), 4, 44, "greedy",
                           lambda s: s.ext is not None and isla_of(s).attack is not None
                           and len(legal_actions(s)) == 2, "a pending attack on a cargo that sells")),
    PerftSpec("isla-duel-plant", "La Isla Bohnita duel (2 players): phase 1, where the once-a-turn hand "
              "discard may come before or after planting (I9); seed 44, greedy bots",
              lambda: find(rules_of("rio-grande", {"isla": True}), 2, 44, "greedy",
                           lambda s: s.phase == Phase.PLANT and s.turn >= 6, "phase 1")),
    PerftSpec("isla-duel-phase2", "La Isla Bohnita duel: phase 2, the turned-up cards (with matching "
              "discards) to plant, ship moves and sales on one's own turn (I9); seed 45, greedy bots",
              lambda: find(rules_of("rio-grande", {"isla": True}), 2, 45, "greedy",
                           lambda s: in_trade(s) and s.turn >= 6 and bool(s.face_up), "phase 2")),
    PerftSpec("isla-amigo-3p-trade", "La Isla Bohnita with the amigo deck (garden removed), 3 players: "
              "phase 2; seed 46, greedy bots, max_deal_cards=1",
              lambda: find(rules_of("amigo", {"isla": True, "max_deal_cards": 1}), 3, 46, "greedy",
                           lambda s: in_trade(s) and s.turn >= 5, "phase 2")),
]
