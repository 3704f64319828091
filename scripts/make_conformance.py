"""Write the conformance suite (tests/conformance/, described in docs/conformance.md): perft positions,
game records (legal and illegal, with what a referee must say) and endgame values, from seeded games.

Every file is made from fixed seeds and written atomically (a temporary file and a rename), so
running this twice gives byte-identical files. Each illegal record is checked, as it is made,
against the rule its mutation breaks; each endgame value is proved by the repo's solvers.

Examples:
  python scripts/make_conformance.py                  # rewrite tests/conformance/
  python scripts/make_conformance.py --out /tmp/conf  # write elsewhere (the test compares the two)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from check_record import check as check_record  # noqa: E402

from model import (  # noqa: E402
    Accept,
    Action,
    Attack,
    BuyField,
    BuyShip,
    Discard,
    EndPhase,
    GameState,
    Harvest,
    HarvestOnto,
    MoveCargo,
    Phase,
    Plant,
    PlantAside,
    PlantCargo,
    Propose,
    Reshuffle,
    Sail,
    Sell,
    apply,
    legal_actions,
    new_game,
    ruleset,
    winners,
)
from model.actions import PIRATE  # noqa: E402
from model.cards import BEAN_NAMES  # noqa: E402
from model.isla import HOME  # noqa: E402
from model.perft import perft  # noqa: E402
from model.records import action_line, atomic_write_text, header  # noqa: E402
from model.rules import Ruleset  # noqa: E402
from model.state import PlayerState, state_from_json, state_to_json  # noqa: E402
from model.validate import check_state  # noqa: E402
from play.bots import BOTS  # noqa: E402
from play.playout import play_game, playout  # noqa: E402

DEFAULT_OUT = ROOT / "tests" / "conformance"
PERFT_DEPTHS = (1, 2, 3)
PARTS = ("perft", "records/legal", "records/illegal", "endgames")


class GenerationError(RuntimeError):
    """A fixture could not be made as specified (no such state in the seeded game, or a referee
    verdict that differs from the rule the mutation breaks)."""


# ---------------------------------------------------------------- JSON text


def dumps(value: Any, indent: int = 0) -> str:
    """JSON text: objects and lists of objects one item a line, other lists on one line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [f"{pad}{json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list) and any(isinstance(v, dict) for v in value):
        return "[\n" + ",\n".join(pad + dumps(v, indent + 1) for v in value) + "\n" + "  " * indent + "]"
    return json.dumps(value)


# ---------------------------------------------------------------- seeded games


def rules_of(name: str, options: dict[str, Any] | None = None) -> Ruleset:
    return ruleset(name, options or {})


def game_states(rules: Ruleset, players: int, seed: int, bot: str) -> Iterator[GameState]:
    """Every state of a game: the deck shuffled by ``seed``, the bots and reshuffles drawn from
    ``random.Random(seed)``; the last one is over."""
    for s, _ in playout(new_game(rules, players, seed), BOTS[bot], random.Random(seed)):
        yield s


def find(rules: Ruleset, players: int, seed: int, bot: str, pred: Callable[[GameState], bool],
         what: str) -> GameState:
    """The first state of the seeded game where ``pred`` holds."""
    for s in game_states(rules, players, seed, bot):
        if pred(s):
            return s
    raise GenerationError(f"no state where {what} in {rules.name} {players}p seed {seed} ({bot} bots)")


def last_state(rules: Ruleset, players: int, seed: int, bot: str) -> GameState:
    for s in game_states(rules, players, seed, bot):
        last = s
    return last


def reaches(s: GameState, phases: tuple[int, ...], depth: int) -> bool:
    """Some sequence of at most ``depth`` actions (proposals left out) reaches one of ``phases``."""
    if s.phase in phases:
        return True
    if depth == 0 or s.phase in (Phase.CHANCE, Phase.OVER):
        return False
    return any(reaches(apply(s, a, False), phases, depth - 1) for a in legal_actions(s, proposals=False))


def with_options(s: GameState, options: dict[str, Any]) -> GameState:
    """The same position under other ruleset options (through the state JSON)."""
    obj = state_to_json(s)
    obj["options"] = {**obj["options"], **options}
    return state_from_json(obj)


def mover(s: GameState) -> PlayerState:
    """The seat to move (a decision point)."""
    return s.players[s.to_move]


# ---------------------------------------------------------------- perft positions


@dataclass(frozen=True)
class PerftSpec:
    name: str
    description: str
    build: Callable[[], GameState]


def _trade(s: GameState) -> bool:
    return s.phase == Phase.TRADE and s.pending is None and (s.isla is None or s.isla.attack is None)


def _pending_with_choice(s: GameState) -> GameState | None:
    """A listed one-card proposal of a face-up card for a bean the partner holds twice or more."""
    if not (_trade(s) and s.face_up):
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


def _can(kind: type) -> Callable[[GameState], bool]:
    return lambda s: s.to_move >= 0 and any(isinstance(a, kind) for a in legal_actions(s, proposals=False))


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


def _isla_attack_possible(s: GameState) -> bool:
    return _trade(s) and _can(Attack)(s)


def _isla_sail_more(s: GameState) -> bool:
    return _trade(s) and s.turn >= 3 and any(
        isinstance(a, Sail) and a.take > 1 for a in legal_actions(s, proposals=False))


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
                           lambda s: s.phase == Phase.PLANT and s.planted == 0 and _can(BuyField)(s),
                           "a third field for sale")),
    PerftSpec("rio-grande-6p-plant", "rio-grande, 6 players (hands 3, 4, 5, 6...; draw 4): phase 1 at "
              "turn >= 12; seed 6, random bots, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"max_deal_cards": 1}), 6, 6, "random",
                           lambda s: s.phase == Phase.PLANT and s.planted == 0 and s.turn >= 12,
                           "phase 1")),
    PerftSpec("rio-grande-7p-trade", "rio-grande, 7 players: the trading phase, no offer pending "
              "(T3); seed 7, random bots, max_deal_cards=1, max_offers=2",
              lambda: find(rules_of("rio-grande", {"max_deal_cards": 1, "max_offers": 2}), 7, 7, "random",
                           lambda s: _trade(s) and s.turn >= 9, "trading")),
    PerftSpec("rio-grande-4p-trade", "rio-grande, 4 players: the trading phase, no offer pending (T3); "
              "seed 11, greedy bots, turn >= 6, max_deal_cards=1",
              lambda: find(rules_of("rio-grande", {"max_deal_cards": 1}), 4, 11, "greedy",
                           lambda s: _trade(s) and s.turn >= 6, "trading")),
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
                           lambda s: s.phase == Phase.PLANT and _can(BuyField)(s), "a third field for sale")),
    PerftSpec("amigo-3p-plant", "amigo, 3 players (three fields, no third field to buy): phase 1 at "
              "turn >= 8; seed 31, random bots, max_deal_cards=1",
              lambda: find(rules_of("amigo", {"max_deal_cards": 1}), 3, 31, "random",
                           lambda s: s.phase == Phase.PLANT and s.planted == 0 and s.turn >= 8, "phase 1")),
    PerftSpec("amigo-5p-trade", "amigo, 5 players: the trading phase, no offer pending; seed 32, greedy "
              "bots, max_deal_cards=1, max_offers=2",
              lambda: find(rules_of("amigo", {"max_deal_cards": 1, "max_offers": 2}), 5, 32, "greedy",
                           lambda s: _trade(s) and s.turn >= 7, "trading")),
    PerftSpec("amigo-1997-3p-buy", "amigo-1997, 3 players (two fields each, a third for 3 coins): "
              "phase 1 where the player to move can buy it (F1); seed 34, random bots, max_deal_cards=1",
              lambda: find(rules_of("amigo-1997", {"max_deal_cards": 1}), 3, 34, "random",
                           lambda s: s.phase == Phase.PLANT and _can(BuyField)(s), "a third field for sale")),
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
                           lambda s: s.isla is not None and s.isla.attack is not None
                           and len(legal_actions(s)) == 2, "a pending attack on a cargo that sells")),
    PerftSpec("isla-duel-plant", "La Isla Bohnita duel (2 players): phase 1, where the once-a-turn hand "
              "discard may come before or after planting (I9); seed 44, greedy bots",
              lambda: find(rules_of("rio-grande", {"isla": True}), 2, 44, "greedy",
                           lambda s: s.phase == Phase.PLANT and s.turn >= 6, "phase 1")),
    PerftSpec("isla-duel-phase2", "La Isla Bohnita duel: phase 2, the turned-up cards (with matching "
              "discards) to plant, ship moves and sales on one's own turn (I9); seed 45, greedy bots",
              lambda: find(rules_of("rio-grande", {"isla": True}), 2, 45, "greedy",
                           lambda s: _trade(s) and s.turn >= 6 and bool(s.face_up), "phase 2")),
    PerftSpec("isla-amigo-3p-trade", "La Isla Bohnita with the amigo deck (garden removed), 3 players: "
              "phase 2; seed 46, greedy bots, max_deal_cards=1",
              lambda: find(rules_of("amigo", {"isla": True, "max_deal_cards": 1}), 3, 46, "greedy",
                           lambda s: _trade(s) and s.turn >= 5, "phase 2")),
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


# ---------------------------------------------------------------- game records


@dataclass(frozen=True)
class GameSpec:
    """A seeded simulated game (``play.playout.play_game``), written as a record."""

    name: str
    about: str
    ruleset: str
    players: int
    seed: int
    bot: str
    options: tuple[tuple[str, Any], ...] = ()
    stop: Callable[[GameState], bool] | None = None  # stop the record before the first such state

    def rules(self) -> Ruleset:
        return rules_of(self.ruleset, dict(self.options))


@dataclass
class Game:
    """A played game: its record's lines (header, one per action, the end line when over) and the
    state before each action (``states[i]`` before ``actions[i]``; the last one after them all)."""

    spec: GameSpec
    lines: list[dict[str, Any]]
    actions: list[Action]
    states: list[GameState]

    @property
    def final(self) -> GameState:
        return self.states[-1]

    def at(self, pred: Callable[[GameState, Action], bool], nth: int = 0) -> int:
        """The index of the ``nth`` action whose state and action satisfy ``pred``."""
        for i, (s, a) in enumerate(zip(self.states, self.actions, strict=False)):
            if pred(s, a):
                if nth == 0:
                    return i
                nth -= 1
        raise GenerationError(f"{self.spec.name}: no step where the mutation applies")


def _stop_at_pending(s: GameState) -> bool:
    return s.phase == Phase.TRADE and s.pending is not None and s.turn >= 3


def _stop_at_chance(s: GameState) -> bool:
    return s.phase == Phase.CHANCE


def _stop_at_attack(s: GameState) -> bool:
    return s.isla is not None and s.isla.attack is not None


LEGAL: list[GameSpec] = [
    GameSpec("rio-grande-2p-duel", "the bean duel (D1-D2), greedy bots", "rio-grande", 2, 101, "greedy"),
    GameSpec("rio-grande-3p", "rio-grande, 3 players (three fields, ends at the 2nd exhaustion), greedy "
             "bots", "rio-grande", 3, 102, "greedy"),
    GameSpec("rio-grande-4p", "rio-grande, 4 players, greedy bots (gifts and deals, two reshuffles)",
             "rio-grande", 4, 103, "greedy"),
    GameSpec("rio-grande-5p", "rio-grande, 5 players, random proposals", "rio-grande", 5, 104,
             "random-trader"),
    GameSpec("rio-grande-6p", "rio-grande, 6 players (hands 3-6, draw 4)", "rio-grande", 6, 105, "greedy"),
    GameSpec("rio-grande-7p", "rio-grande, 7 players, random bots", "rio-grande", 7, 106, "random"),
    GameSpec("amigo-3p", "amigo, 3 players, greedy bots", "amigo", 3, 111, "greedy"),
    GameSpec("amigo-4p", "amigo, 4 players, random proposals", "amigo", 4, 112, "random-trader"),
    GameSpec("amigo-5p", "amigo, 5 players, greedy bots", "amigo", 5, 113, "greedy"),
    GameSpec("amigo-1997-3p", "amigo-1997, 3 players (two fields, a third to buy)", "amigo-1997", 3, 121,
             "random"),
    GameSpec("amigo-1997-4p", "amigo-1997, 4 players, greedy bots", "amigo-1997", 4, 122, "greedy"),
    GameSpec("amigo-1997-5p", "amigo-1997, 5 players, random bots", "amigo-1997", 5, 123, "random"),
    GameSpec("amigo-v1-3p", "amigo-v1 (V4), 3 players, greedy bots", "amigo-v1", 3, 131, "greedy"),
    GameSpec("amigo-v1-4p", "amigo-v1 (V4), 4 players, random bots", "amigo-v1", 4, 132, "random"),
    GameSpec("amigo-v1-5p", "amigo-v1 (V4), 5 players, random proposals", "amigo-v1", 5, 133,
             "random-trader"),
    GameSpec("amigo-v2-4p", "amigo-v2 (V5, field beans), 4 players, greedy bots", "amigo-v2", 4, 141,
             "greedy"),
    GameSpec("amigo-v2-5p", "amigo-v2 (V5), 5 players, random bots", "amigo-v2", 5, 142, "random"),
    GameSpec("rio-grande-4p-strict", "rio-grande, 4 players, harvest=strict (H4), random bots",
             "rio-grande", 4, 151, "random", (("harvest", "strict"),)),
    GameSpec("rio-grande-4p-distinct", "rio-grande, 4 players, distinct_fields (V2), random bots",
             "rio-grande", 4, 152, "random", (("distinct_fields", True),)),
    GameSpec("rio-grande-3p-quick", "rio-grande, 3 players, quick (V1: ends at the first exhaustion)",
             "rio-grande", 3, 153, "greedy", (("quick", True),)),
    GameSpec("rio-grande-4p-one-offer", "rio-grande, 4 players, max_offers=1, random proposals",
             "rio-grande", 4, 154, "random-trader", (("max_offers", 1),)),
    GameSpec("rio-grande-4p-seat-tie-break", "rio-grande, 4 players, tie_break=seat (E4), greedy bots",
             "rio-grande", 4, 155, "greedy", (("tie_break", "seat"),)),
    GameSpec("rio-grande-4p-hand-tie-break", "rio-grande, 4 players, tie_break=hand (E4, the default): two "
             "seats tie on coins, the one with more cards in hand wins", "rio-grande", 4, 172, "greedy"),
    GameSpec("isla-2p-duel", "La Isla Bohnita duel (I9), greedy bots", "rio-grande", 2, 161, "greedy",
             (("isla", True),)),
    GameSpec("isla-2p-duel-random", "La Isla Bohnita duel (I9), random bots (hand discards before "
             "planting)", "rio-grande", 2, 168, "random", (("isla", True),)),
    GameSpec("isla-3p", "La Isla Bohnita, 3 players, greedy bots", "rio-grande", 3, 162, "greedy",
             (("isla", True),)),
    GameSpec("isla-4p", "La Isla Bohnita, 4 players, greedy bots (raids)", "rio-grande", 4, 163, "greedy",
             (("isla", True),)),
    GameSpec("isla-5p", "La Isla Bohnita, 5 players, random proposals", "rio-grande", 5, 164,
             "random-trader", (("isla", True),)),
    GameSpec("isla-6p", "La Isla Bohnita, 6 players, greedy bots", "rio-grande", 6, 165, "greedy",
             (("isla", True),)),
    GameSpec("isla-7p", "La Isla Bohnita, 7 players, random bots", "rio-grande", 7, 166, "random",
             (("isla", True),)),
    GameSpec("isla-amigo-3p", "La Isla Bohnita with the amigo deck, 3 players, greedy bots", "amigo", 3,
             167, "greedy", (("isla", True),)),
    GameSpec("rio-grande-5p-stopped-pending", "rio-grande, 5 players, stopped while an offer is pending "
             "(a game in progress)", "rio-grande", 5, 171, "random-trader", stop=_stop_at_pending),
    GameSpec("amigo-4p-stopped-reshuffle", "amigo, 4 players, stopped where a reshuffle is due (E1; a "
             "game in progress)", "amigo", 4, 172, "greedy", stop=_stop_at_chance),
    GameSpec("isla-4p-stopped-attack", "La Isla Bohnita, 4 players, stopped while an attack awaits its "
             "answer (I7; a game in progress)", "rio-grande", 4, 173, "greedy", (("isla", True),),
             stop=_stop_at_attack),
]
GAMES = {g.name: g for g in LEGAL}


_PLAYED: dict[str, Game] = {}


def played(name: str) -> Game:
    """The game of the legal record ``name`` (played once, then kept)."""
    if name not in _PLAYED:
        spec = GAMES[name]
        n = spec.players
        bots = [BOTS[spec.bot]] * n
        _, s0, final, actions = play_game(spec.rules(), n, spec.seed, bots)
        states = [s0]
        for a in actions:
            states.append(apply(states[-1], a, False))
        assert states[-1] == final
        if spec.stop is not None:
            k = next(i for i, s in enumerate(states) if spec.stop(s))
            actions, states = actions[:k], states[:k + 1]
        head = header(s0, [spec.bot] * n, seed=spec.seed, about=spec.about)
        lines = [head] + [action_line(a) for a in actions]
        end = states[-1]
        if end.phase == Phase.OVER:
            lines.append({"end": {"coins": list(end.coins()), "winners": list(winners(end))}})
        _PLAYED[name] = Game(spec, lines, list(actions), states)
    return _PLAYED[name]


def jsonl(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines)


def legal_expect(game: Game) -> dict[str, Any]:
    end = game.final
    out: dict[str, Any] = {"status": "legal", "over": end.phase == Phase.OVER,
                           "steps": len(game.actions), "coins": list(end.coins())}
    if end.phase == Phase.OVER:
        out["winners"] = list(winners(end))
    out["about"] = game.spec.about
    return out


@dataclass(frozen=True)
class Illegal:
    """A legal record with one step changed, and what a referee must say about it."""

    name: str
    base: str
    rule: str
    make: Callable[[Game], tuple[list[dict[str, Any]], int, str, str]]  # lines, line, change, why
    reason: str = ""  # a word the referee's reason must contain (checked as the record is made)


def insert(game: Game, i: int, action: Action | dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """The record with ``action`` inserted before action ``i``; the new line's number (1-based)."""
    line = action if isinstance(action, dict) else action_line(action)
    return game.lines[:i + 1] + [line] + game.lines[i + 1:], i + 2


def replace(game: Game, i: int, action: Action | dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    line = action if isinstance(action, dict) else action_line(action)
    return game.lines[:i + 1] + [line] + game.lines[i + 2:], i + 2


def delete(game: Game, i: int) -> tuple[list[dict[str, Any]], int]:
    """The record without action ``i``: the line after it takes its number."""
    return game.lines[:i + 1] + game.lines[i + 2:], i + 2


def _ins(game: Game, i: int, action: Action, why: str) -> tuple[list[dict[str, Any]], int, str, str]:
    lines, no = insert(game, i, action)
    return lines, no, f"inserted {action}", why


def _rep(game: Game, i: int, action: Action, why: str) -> tuple[list[dict[str, Any]], int, str, str]:
    lines, no = replace(game, i, action)
    return lines, no, f"replaced {game.actions[i]} by {action}", why


def _other(s: GameState, *not_these: int) -> int:
    return next(q for q in range(len(s.players)) if q not in not_these)


def _decision(s: GameState) -> bool:
    return s.to_move >= 0


# -- T: turn structure and trading


def m_t1_out_of_turn(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT and isinstance(a, Plant) and s.turn >= 2)
    s = g.states[i]
    q = _other(s, s.active)
    return _rep(g, i, Plant(q, 0), f"p{q} plants while p{s.active} is in phase 1: only the active player "
                "plants from the hand")


def m_t1_third_planting(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.TRADE and s.pending is None and s.planted == 2
             and bool(s.players[s.active].hand) and s.offers == 0)
    s = g.states[i]
    return _ins(g, i, Plant(s.active, 0), f"p{s.active} plants a third card from the hand after two "
                "(never a third)")


def m_t1_end_unplanted(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT and s.planted == 0 and s.turn >= 1)
    s = g.states[i]
    return _ins(g, i, EndPhase(s.active), f"p{s.active} ends phase 1 without planting its front card")


def m_h3_wrong_field(g: Game) -> Any:
    def fits(s: GameState, a: Action) -> bool:
        return (s.phase == Phase.PLANT and isinstance(a, Plant)
                and any(f.count and f.bean != mover(s).hand[0] for f in mover(s).fields))
    i = g.at(fits)
    s = g.states[i]
    f = next(k for k, f in enumerate(mover(s).fields) if f.count and f.bean != mover(s).hand[0])
    b, held = BEAN_NAMES[mover(s).hand[0]], BEAN_NAMES[mover(s).fields[f].bean]
    return _rep(g, i, Plant(s.to_move, f), f"p{s.to_move} plants a {b} on field {f}, which holds {held}")


def m_t3_out_of_turn_end(g: Game) -> Any:
    i = g.at(lambda s, a: _trade(s) and s.turn >= 2)
    s = g.states[i]
    q = _other(s, s.active)
    return _ins(g, i, EndPhase(q), f"p{q} ends p{s.active}'s trading phase")


def m_t3_non_active_deal(g: Game) -> Any:
    i = g.at(lambda s, a: _trade(s) and s.turn >= 2)
    s = g.states[i]
    q = _other(s, s.active)
    r = _other(s, s.active, q)
    return _ins(g, i, Propose(q, r, (0,), (), ()), f"p{q} offers a card to p{r}: two non-active players "
                "never trade with each other")


def m_t3_retrade(g: Game) -> Any:
    i = g.at(lambda s, a: _trade(s) and bool(s.players[s.active].aside))
    s = g.states[i]
    a = s.active
    got = BEAN_NAMES[s.players[a].aside[0]]
    q = _other(s, a)
    h = len(s.players[a].hand)
    return _ins(g, i, Propose(a, q, (h,), (), ()), f"T4: p{a} offers the {got} it received in a deal this "
                f"turn; received cards lie in the set-aside area, so h{h} names no hand card and the engine "
                "rejects the proposal under T3")


def m_t3_wrong_bean(g: Game) -> Any:
    def wrong(s: GameState, a: Action) -> bool:
        if s.pending is None or len(s.pending.ask) != 1:
            return False
        hand = s.players[s.pending.partner].hand
        return any(c not in s.pending.ask for c in hand)
    i = g.at(wrong)
    s = g.states[i]
    assert s.pending is not None
    q = s.pending.partner
    h = next(k for k, c in enumerate(s.players[q].hand) if c not in s.pending.ask)
    asked = BEAN_NAMES[s.pending.ask[0]]
    return _rep(g, i, Accept(q, (h,)),
                f"p{q} accepts giving a {BEAN_NAMES[s.players[q].hand[h]]} where a {asked} was asked")


def m_t3_max_offers(g: Game) -> Any:
    i = g.at(lambda s, a: _trade(s) and s.offers >= s.setup.rules.max_offers and s.to_move == s.active)
    s = g.states[i]
    q = _other(s, s.active)
    return _ins(g, i, Propose(s.active, q, (), (), (s.setup.beans[0],)),
                f"p{s.active} makes a second proposal this turn; the record's max_offers is 1")


def m_t3_offer_while_pending(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.TRADE and s.pending is not None)
    s = g.states[i]
    assert s.pending is not None
    r = _other(s, s.active, s.pending.partner)
    return _ins(g, i, Propose(s.active, r, (), (), (s.setup.beans[0],)),
                f"p{s.active} proposes to p{r} while its offer to p{s.pending.partner} awaits an answer")


def m_t6_out_of_turn(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT_ASIDE and isinstance(a, PlantAside))
    s = g.states[i]
    q = _other(s, s.to_move)
    return _ins(g, i, PlantAside(q, s.players[s.to_move].aside[0], 0),
                f"p{q} plants in phase 3 while it is p{s.to_move}'s turn to plant its set-aside cards")


def m_t6_not_aside(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT_ASIDE and isinstance(a, PlantAside))
    s = g.states[i]
    a = g.actions[i]
    assert isinstance(a, PlantAside)
    b = next(b for b in s.setup.beans if b not in mover(s).aside)
    return _rep(g, i, PlantAside(a.player, b, a.field),
                f"p{a.player} plants a {BEAN_NAMES[b]} it has not set aside")


def m_t6_end_phase_3(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT_ASIDE)
    s = g.states[i]
    return _ins(g, i, EndPhase(s.to_move), f"p{s.to_move} ends phase 3 with set-aside cards unplanted")


# -- H, F, V, S


def m_h4_protected(g: Game) -> Any:
    def single(s: GameState, a: Action) -> bool:
        counts = [f.count for f in mover(s).fields] if _decision(s) else []
        return 1 in counts and max(counts, default=0) > 1
    i = g.at(single)
    s = g.states[i]
    f = [x.count for x in mover(s).fields].index(1)
    return _ins(g, i, Harvest(s.to_move, f), f"p{s.to_move} harvests the one-card field {f} while another "
                "field holds more than one card")


def m_h4_strict(g: Game) -> Any:
    def single(s: GameState, a: Action) -> bool:
        counts = sorted(f.count for f in mover(s).fields) if _decision(s) else []
        return bool(counts) and counts[0] == 0 and counts[-1] == 1
    i = g.at(single)
    s = g.states[i]
    f = [x.count for x in mover(s).fields].index(1)
    return _ins(g, i, Harvest(s.to_move, f), f"p{s.to_move} harvests the one-card field {f} beside an empty "
                "field: the strict reading allows it only when every field holds exactly one card (the "
                "lenient reading would allow it)")


def m_h5_empty(g: Game) -> Any:
    i = g.at(lambda s, a: _decision(s) and s.turn >= 1 and any(f.count == 0 for f in mover(s).fields))
    s = g.states[i]
    f = [x.count for x in mover(s).fields].index(0)
    return _ins(g, i, Harvest(s.to_move, f), f"p{s.to_move} harvests the empty field {f}")


def m_f1_none_for_sale(g: Game) -> Any:
    i = g.at(lambda s, a: _decision(s) and s.turn >= 3)
    s = g.states[i]
    return _ins(g, i, BuyField(s.to_move), f"p{s.to_move} buys a third field, which {s.setup.rules.name} "
                f"does not sell with {len(s.players)} players")


def m_f1_coins(g: Game) -> Any:
    i = g.at(lambda s, a: _decision(s) and s.turn >= 3 and len(mover(s).fields) == 2
             and len(mover(s).coins) < (s.setup.third_cost or 0))
    s = g.states[i]
    return _ins(g, i, BuyField(s.to_move), f"p{s.to_move} buys the third field with "
                f"{len(mover(s).coins)} coins; it costs {s.setup.third_cost}")


def m_v2_same_field(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT and s.planted == 1
             and mover(s).hand[0] == mover(s).fields[s.first_field].bean)
    s = g.states[i]
    return _ins(g, i, Plant(s.active, s.first_field), f"p{s.active} plants its second card on field "
                f"{s.first_field}, where the first went (distinct_fields)")


def m_s_no_seat(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT and s.turn >= 1)
    n = len(g.states[i].players)
    return _ins(g, i, Plant(n, 0), f"p{n} plants, but the game has seats p0-p{n - 1}")


# -- D: the bean duel


def m_d1_trade(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.TURNED and bool(s.face_up))
    s = g.states[i]
    return _ins(g, i, Propose(s.active, 1 - s.active, (), (0,), ()),
                f"p{s.active} offers a turned-up card to p{1 - s.active}: there is no trading in the duel")


def m_d1_off_turn_harvest(g: Game) -> Any:
    i = g.at(lambda s, a: _decision(s) and any(f.count > 1 for f in s.players[1 - s.active].fields))
    s = g.states[i]
    q = 1 - s.active
    f = next(k for k, x in enumerate(s.players[q].fields) if x.count > 1)
    return _ins(g, i, Harvest(q, f), f"p{q} harvests on p{s.active}'s turn: in the duel only on your own")


def m_d2_end_offer(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.OFFER)
    s = g.states[i]
    return _ins(g, i, EndPhase(s.active), f"p{s.active} ends step 1 with cards still on offer")


def m_d2_second_discard(g: Game) -> Any:
    i = next((k for k in range(1, len(g.actions)) if g.states[k].phase == Phase.TURNED
              and isinstance(g.actions[k - 1], Discard) and mover(g.states[k]).hand), -1)
    if i < 0:
        raise GenerationError(f"{g.spec.name}: no discard followed by turned-up cards")
    s = g.states[i]
    return _ins(g, i, Discard(s.active, 0), f"p{s.active} discards a second hand card after turning up")


# -- E: exhaustion, reshuffle and the end


def _chance_index(g: Game) -> int:
    return g.at(lambda s, a: isinstance(a, Reshuffle))


def m_e1_wrong_cards(g: Game) -> Any:
    i = _chance_index(g)
    order = list(g.lines[i + 1]["order"])
    swap = next(BEAN_NAMES[b] for b in g.states[i].setup.beans if BEAN_NAMES[b] != order[0])
    was, order[0] = order[0], swap
    lines, no = replace(g, i, {"chance": "reshuffle", "order": order})
    return lines, no, f"the reshuffle's top card {was} changed to {swap}", (
        "the new draw pile is not a permutation of the discard pile")


def m_e1_missing(g: Game) -> Any:
    i = _chance_index(g)
    lines, no = delete(g, i)
    return lines, no, "deleted the reshuffle line", (
        f"{g.actions[i + 1]} is played where the exhausted draw pile must first be reshuffled")


def m_e1_not_due(g: Game) -> Any:
    i = g.at(lambda s, a: _decision(s) and s.turn >= 3 and len(s.discard) >= 2)
    s = g.states[i]
    lines, no = insert(g, i, action_line(Reshuffle(s.discard)))
    return lines, no, "inserted a reshuffle of the discard pile", (
        "a reshuffle while the draw pile still holds cards")


def _end(g: Game, claim: dict[str, Any], change: str, why: str) -> Any:
    if g.final.phase != Phase.OVER:
        raise GenerationError(f"{g.spec.name}: the game is not over")
    lines = g.lines[:-1] + [{"end": claim}]
    return lines, len(lines), change, why


def m_e3_coins(g: Game) -> Any:
    end = g.lines[-1]["end"]
    coins = list(end["coins"])
    coins[0] += 1
    return _end(g, {"coins": coins, "winners": end["winners"]}, "p0's coins in the end line raised by one",
                "the end line claims coins the replay does not give (E3: the final harvest)")


def m_e4_winners(g: Game) -> Any:
    end = g.lines[-1]["end"]
    loser = next(q for q in range(len(end["coins"])) if q not in end["winners"])
    return _end(g, {"coins": end["coins"], "winners": [loser]}, f"the end line names p{loser} the winner",
                f"p{loser} does not have the most coins")


def m_e4_tie_break(g: Game) -> Any:
    end = g.lines[-1]["end"]
    best = max(end["coins"])
    tied = [q for q, c in enumerate(end["coins"]) if c == best]
    other = [q for q in tied if q not in end["winners"]]
    if not other:
        raise GenerationError(f"{g.spec.name}: no tie to break")
    rule = g.final.setup.rules.tie_break
    who = " and ".join(f"p{q}" for q in tied)
    claim = {"coins": end["coins"], "winners": other[:1]}
    return _end(g, claim, f"the end line names p{other[0]} the winner",
                f"{who} tie on {best} coins; tie_break={rule} names p{end['winners'][0]}, not p{other[0]}")


def m_e2_early_end(g: Game) -> Any:
    lines = g.lines[:-2] + g.lines[-1:]
    return lines, len(lines), f"deleted the last action ({g.actions[-1]})", (
        "the end line claims a result before the game is over")


def m_e2_after_end(g: Game) -> Any:
    lines = g.lines[:-1] + [action_line(Plant(0, 0))] + g.lines[-1:]
    return lines, len(lines) - 1, "inserted p0 plant 0 after the last action", (
        "p0 acts after the game is over")


# -- I: La Isla Bohnita


def _isla_trade(s: GameState) -> bool:
    return s.isla is not None and _trade(s) and s.to_move == s.active


def m_i4_second_type(g: Game) -> Any:
    def loadable(s: GameState) -> tuple[int, int] | None:
        if not _isla_trade(s) or s.isla is None or s.isla.sails >= s.setup.rules.max_sails:
            return None
        for k, ship in enumerate(s.isla.fleets[s.active].merchants):
            for port in (1, 2):
                row = s.isla.rows[port - 1]
                if ship.count and port != ship.at and row and row[0] != ship.bean:
                    return k, port
        return None
    i = g.at(lambda s, a: loadable(s) is not None)
    s = g.states[i]
    k, port = loadable(s) or (0, 0)
    assert s.isla is not None
    ship = s.isla.fleets[s.active].merchants[k]
    front = BEAN_NAMES[s.isla.rows[port - 1][0]]
    return _ins(g, i, Sail(s.active, k, port, 1), f"p{s.active}'s ship m{k} holds {BEAN_NAMES[ship.bean]} "
                f"and loads a {front}: a ship holds one type only")


def m_i5_plant_cargo(g: Game) -> Any:
    def cargo(s: GameState, a: Action) -> bool:
        return (_isla_trade(s) and s.isla is not None
                and any(m.count for m in s.isla.fleets[s.active].merchants))
    i = g.at(cargo)
    s = g.states[i]
    assert s.isla is not None
    k = next(j for j, m in enumerate(s.isla.fleets[s.active].merchants) if m.count)
    return _ins(g, i, PlantCargo(s.active, k, 0), f"p{s.active} plants a card from its ship m{k}: island "
                "beans count as harvested and never go onto a field")


def m_i7_attack_twice(g: Game) -> Any:
    i = g.at(lambda s, a: _isla_trade(s) and s.isla is not None and bool(s.isla.attacked))
    s = g.states[i]
    assert s.isla is not None
    q, k = s.isla.attacked[0]
    return _ins(g, i, Attack(s.active, q, k), f"p{s.active} attacks p{q}'s m{k} a second time this turn")


def m_i6_sell_for_nothing(g: Game) -> Any:
    def worthless(s: GameState) -> tuple[int, int] | None:
        if s.isla is None or not _decision(s) or s.isla.attack is not None:
            return None
        for k, ship in s.isla.fleets[s.to_move].ships():
            if ship.count and s.setup.payout[ship.bean][ship.count] == 0:
                return s.to_move, k
        return None
    i = g.at(lambda s, a: worthless(s) is not None and (not s.setup.duel or s.to_move == s.active))
    s = g.states[i]
    p, k = worthless(s) or (0, 0)
    assert s.isla is not None
    ship = s.isla.fleets[p].ship(k)
    assert ship is not None
    return _ins(g, i, Sell(p, k),
                f"p{p} sells a cargo of {ship.count} {BEAN_NAMES[ship.bean]}, worth no coin")


def m_i3_hand_offer(g: Game) -> Any:
    i = g.at(lambda s, a: _isla_trade(s) and bool(s.players[s.active].hand))
    s = g.states[i]
    q = _other(s, s.active)
    return _ins(g, i, Propose(s.active, q, (0,), (), ()), f"p{s.active} offers a hand card: with the "
                "expansion the active player offers only the turned-up cards")


def m_i9_duel_trade(g: Game) -> Any:
    i = g.at(lambda s, a: _isla_trade(s) and bool(s.face_up))
    s = g.states[i]
    return _ins(g, i, Propose(s.active, 1 - s.active, (), (0,), ()),
                f"p{s.active} offers a turned-up card: the Isla duel has no trading")


def m_i7_harvest_onto_pirate(g: Game) -> Any:
    def ok(s: GameState, a: Action) -> bool:
        return (_decision(s) and s.isla is not None and s.isla.attack is None
                and s.isla.fleets[s.to_move].pirate is not None
                and any(f.count > 1 for f in mover(s).fields))
    i = g.at(ok)
    s = g.states[i]
    f = next(k for k, x in enumerate(mover(s).fields) if x.count > 1)
    return _ins(g, i, HarvestOnto(s.to_move, f, PIRATE), f"p{s.to_move} loads a harvest onto its pirate "
                "ship: merchant cargo never goes onto a pirate ship")


def m_i6_move_captured(g: Game) -> Any:
    def ok(s: GameState, a: Action) -> bool:
        if not (_isla_trade(s) and s.isla is not None and s.isla.captured):
            return False
        fleet = s.isla.fleets[s.active]
        pirate = fleet.pirate
        return pirate is not None and pirate.count > 0 and any(
            m.at == HOME and (m.count == 0 or m.bean == pirate.bean) for m in fleet.merchants)
    i = g.at(ok)
    s = g.states[i]
    assert s.isla is not None
    fleet = s.isla.fleets[s.active]
    pirate = fleet.pirate
    assert pirate is not None
    j = next(k for k, m in enumerate(fleet.merchants)
             if m.at == HOME and (m.count == 0 or m.bean == pirate.bean))
    return _ins(g, i, MoveCargo(s.active, PIRATE, j), f"p{s.active} moves the cargo its pirate captured "
                "this turn onto a merchant ship (the reading: not in the turn of the capture)")


def m_i9_second_discard(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT and s.isla is not None and s.isla.discarded
             and s.planted < 2 and bool(mover(s).hand))
    s = g.states[i]
    return _ins(g, i, Discard(s.active, 0), f"p{s.active} discards a second hand card this turn")


def m_i7_ignore_attack(g: Game) -> Any:
    i = g.at(lambda s, a: s.isla is not None and s.isla.attack is not None)
    s = g.states[i]
    return _ins(g, i, EndPhase(s.to_move), f"p{s.to_move} ends a phase instead of answering the attack on "
                "its ship (sell or yield)")


def m_i1_pirate_coins(g: Game) -> Any:
    i = g.at(lambda s, a: _decision(s) and s.isla is not None and s.turn >= 2
             and s.isla.fleets[s.to_move].pirate is None and len(mover(s).coins) < s.setup.pirate_cost)
    s = g.states[i]
    return _ins(g, i, BuyShip(s.to_move, True), f"p{s.to_move} buys a pirate ship with "
                f"{len(mover(s).coins)} coins; it costs {s.setup.pirate_cost}")


ILLEGAL: list[Illegal] = [
    Illegal("t1-out-of-turn-plant", "rio-grande-4p", "T1", m_t1_out_of_turn),
    Illegal("t1-third-planting", "rio-grande-3p", "T1", m_t1_third_planting),
    Illegal("t1-end-before-planting", "amigo-3p", "T1", m_t1_end_unplanted),
    Illegal("h3-plant-on-other-type", "amigo-5p", "H3", m_h3_wrong_field),
    Illegal("t3-out-of-turn-end", "rio-grande-5p", "T3", m_t3_out_of_turn_end),
    Illegal("t3-deal-between-non-active", "rio-grande-6p", "T3", m_t3_non_active_deal),
    Illegal("t3-retrade-received-card", "rio-grande-4p", "T3", m_t3_retrade, "names hand cards"),
    Illegal("t3-accept-wrong-bean", "amigo-4p", "T3", m_t3_wrong_bean),
    Illegal("t3-too-many-offers", "rio-grande-4p-one-offer", "T3", m_t3_max_offers, "offers allowed"),
    Illegal("t3-offer-while-pending", "amigo-v1-5p", "T3", m_t3_offer_while_pending),
    Illegal("t6-out-of-turn-plant-aside", "rio-grande-4p", "T6", m_t6_out_of_turn),
    Illegal("t6-plant-card-not-set-aside", "amigo-5p", "T6", m_t6_not_aside),
    Illegal("t6-end-phase-3-early", "amigo-v2-4p", "T6", m_t6_end_phase_3),
    Illegal("h4-protected-single", "amigo-4p", "H4", m_h4_protected),
    Illegal("h4-strict-single", "rio-grande-4p-strict", "H4", m_h4_strict, "strict"),
    Illegal("h5-harvest-empty-field", "amigo-1997-3p", "H5", m_h5_empty),
    Illegal("f1-no-third-field-for-sale", "amigo-4p", "F1", m_f1_none_for_sale),
    Illegal("f1-third-field-too-few-coins", "rio-grande-4p", "F1", m_f1_coins),
    Illegal("v2-second-planting-same-field", "rio-grande-4p-distinct", "V2", m_v2_same_field),
    Illegal("s-no-such-seat", "amigo-v1-4p", "S", m_s_no_seat),
    Illegal("d1-duel-trade", "rio-grande-2p-duel", "D1", m_d1_trade),
    Illegal("d1-duel-off-turn-harvest", "rio-grande-2p-duel", "D1", m_d1_off_turn_harvest),
    Illegal("d2-end-with-cards-on-offer", "rio-grande-2p-duel", "D2", m_d2_end_offer),
    Illegal("d2-second-discard", "rio-grande-2p-duel", "D2", m_d2_second_discard),
    Illegal("e1-reshuffle-wrong-cards", "rio-grande-4p", "E1", m_e1_wrong_cards),
    Illegal("e1-reshuffle-missing", "amigo-3p", "E1", m_e1_missing),
    Illegal("e1-reshuffle-not-due", "amigo-v2-5p", "E1", m_e1_not_due),
    Illegal("e3-wrong-coins", "amigo-v1-3p", "E3", m_e3_coins),
    Illegal("e4-wrong-winner", "rio-grande-6p", "E4", m_e4_winners),
    Illegal("e4-seat-tie-break", "rio-grande-4p-seat-tie-break", "E4", m_e4_tie_break),
    Illegal("e4-hand-tie-break", "rio-grande-4p-hand-tie-break", "E4", m_e4_tie_break),
    Illegal("e2-end-before-game-over", "amigo-1997-4p", "E2", m_e2_early_end),
    Illegal("e2-action-after-game-over", "amigo-1997-5p", "E2", m_e2_after_end),
    Illegal("i4-load-second-type", "isla-4p", "I4", m_i4_second_type),
    Illegal("i5-plant-cargo", "isla-3p", "I5", m_i5_plant_cargo),
    Illegal("i7-attack-twice", "isla-4p", "I7", m_i7_attack_twice),
    Illegal("i6-sell-for-nothing", "isla-5p", "I6", m_i6_sell_for_nothing),
    Illegal("i3-offer-hand-card", "isla-6p", "I3", m_i3_hand_offer),
    Illegal("i9-duel-trade", "isla-2p-duel", "I9", m_i9_duel_trade),
    Illegal("i7-harvest-onto-pirate", "isla-3p", "I7", m_i7_harvest_onto_pirate),
    Illegal("i6-move-captured-cargo", "isla-4p", "I6", m_i6_move_captured, "captured"),
    Illegal("i9-second-discard", "isla-2p-duel-random", "I9", m_i9_second_discard),
    Illegal("i7-ignore-attack", "isla-4p", "I7", m_i7_ignore_attack),
    Illegal("i1-pirate-too-few-coins", "isla-7p", "I1", m_i1_pirate_coins),
]


def illegal_fixture(spec: Illegal) -> tuple[str, dict[str, Any]]:
    game = played(spec.base)
    lines, no, change, why = spec.make(game)
    expect = {"status": "illegal", "line": no, "rule": spec.rule, "why": why,
              "base": f"legal/{spec.base}.jsonl", "change": change}
    return jsonl(lines[:no]), expect  # the record stops at its first illegal line


def verify_records(files: dict[str, str]) -> None:
    """Every record gets the verdict its sidecar states from ``check_record.check`` (the referee),
    and an illegal one's reason names what its mutation breaks; GenerationError otherwise."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in files.items():
            if not rel.endswith(".jsonl"):
                continue
            path = Path(tmp) / Path(rel).name
            path.write_text(text, encoding="utf-8")
            expect = json.loads(files[rel.replace(".jsonl", ".expect.json")])
            _, said, info = check_record(str(path))
            illegal = expect["status"] == "illegal"
            keys = ("status", "line", "rule") if illegal else ("status", "coins", "winners")
            got = {k: info.get(k) for k in keys}
            want = {k: expect.get(k) for k in keys}
            if got != want:
                raise GenerationError(f"{rel}: the referee says {got}, the fixture {want}: {said}")
            reason = ILLEGAL_BY_NAME[Path(rel).stem].reason if expect["status"] == "illegal" else ""
            if reason and reason not in str(info.get("reason")):
                raise GenerationError(f"{rel}: the referee's reason {info.get('reason')!r} lacks {reason!r}")


ILLEGAL_BY_NAME = {x.name: x for x in ILLEGAL}


# ---------------------------------------------------------------- endgames


@dataclass(frozen=True)
class EndgameSpec:
    name: str
    description: str
    build: Callable[[], GameState]
    objectives: tuple[tuple[str, int | None], ...]  # (objective, player; None: every seat)
    method: str = "exact"  # "cpsat": coop and best by the flow solver (real hands), proved optimal


FLOW = "solvers.flow.solve_flow"
SOLVERS = {
    "solo": "solvers.exact.solve_solo",
    "coop": "solvers.exact.solve_open",
    "best": "solvers.exact.solve_open",
    "duel": "solvers.duel.solve_duel",
    "expected": "solvers.expected.solve_expected",
}


def solve(s: GameState, objective: str, player: int, method: str = "exact") -> dict[str, Any]:
    """The proved optimal value of ``objective`` for ``player``, by the solver SOLVERS names (or,
    with ``method`` "cpsat", the flow solver: only a value it proves optimal is recorded)."""
    from solvers.api import Limits
    from solvers.api import solve as api_solve
    from solvers.expected import solve_expected

    if objective == "expected":  # a policy and an exact fraction, not a line: its own entry point
        ans = solve_expected(s, player)
        return {"objective": objective, "player": player, "value": str(ans.value),
                "approx": round(float(ans.value), 6), "open_average": str(ans.open_average),
                "solver": SOLVERS[objective]}
    flow = method == "cpsat" and objective in ("coop", "best")
    limits = Limits(time=120.0, workers=1) if flow else Limits(nodes=5_000_000)
    sol = api_solve(s, objective, "cpsat" if flow else "exact", player, limits)
    if sol.status != "optimal":
        raise GenerationError(f"{objective} p{player}: {sol.status}, not proved optimal")
    return {"objective": objective, "player": player, "value": sol.value,
            "solver": FLOW if flow else SOLVERS[objective]}


def _library(name: str) -> Callable[[], GameState]:
    def build() -> GameState:
        from solvers.positions import LIBRARY

        return LIBRARY[name].position()
    return build


def _cut(ruleset_name: str, players: int, seed: int, cards_left: int, hand: int | None = None,
         draw: int | None = None, options: dict[str, Any] | None = None) -> Callable[[], GameState]:
    def build() -> GameState:
        from solvers.positions import cut, small

        s = cut(ruleset_name, players, seed, cards_left, options)
        return small(s, hand, draw) if hand is not None and draw is not None else s
    return build


ALL4: tuple[tuple[str, int | None], ...] = (("solo", -1), ("coop", -1), ("best", -1), ("expected", -1))
DUEL: tuple[tuple[str, int | None], ...] = (("duel", 0), ("duel", 1))
SOLO_EVERY: tuple[tuple[str, int | None], ...] = (("solo", None), ("expected", -1))


def _small_about(ruleset_name: str, players: int, seed: int, hand: int, draw: int, extra: str = "") -> str:
    return (f"{ruleset_name}, {players} players{extra}: cut from a seeded greedy-bot game (seed {seed}, the "
            f"first turn of the final pass with at most 8 cards left), hands cut to {hand} card(s) and the "
            f"draw pile to {draw} (solvers.positions.small)")


ENDGAMES: list[EndgameSpec] = [
    *(EndgameSpec(n, f"built-in position {n} (solvers/positions.py): {about}", _library(n), ALL4)
      for n, about in [
          ("trade-gift", "amigo, 3 players, last turn: a gift and two deals earn the active player a coin"),
          ("trade-ask", "rio-grande, 3 players, last turn: asking for one card earns a coin"),
          ("trade-answer", "amigo, 3 players, last turn: a deal that helps the asker"),
          ("forced-harvest", "hand-made: the front card fits no field, so a field must go (T1, H3)"),
          ("protected-single", "hand-made: a one-bean field is protected, the five blues must go (H4)"),
          ("six-reds", "hand-made: six reds pay at most 4 coins however they are harvested (C1)"),
          ("split-gardens", "hand-made: four gardens pay more as two harvests of two than as one (C1)"),
          ("deal-helps-both", "hand-made: giving the turned-up cards for a chili helps both (T3-T5)"),
      ]),
    EndgameSpec("duel-8", "built-in position duel-8: the bean duel, 4 cards left", _library("duel-8"),
                DUEL),
    EndgameSpec("duel-12", "built-in position duel-12: the bean duel, 9 cards left", _library("duel-12"),
                DUEL),
    *(EndgameSpec(f"duel-seed{seed}", f"the bean duel: cut from a seeded greedy-bot game (seed {seed}, the "
                  f"first turn with at most {left} cards left; no reshuffle in the duel)",
                  _cut("rio-grande", 2, seed, left), DUEL)
      for seed, left in [(33, 10), (34, 10), (36, 14), (38, 10), (39, 10)]),
    *(EndgameSpec(f"{r}-{n}p-seed{seed}", _small_about(r, n, seed, 1, 5, extra),
                  _cut(r, n, seed, 8, 1, 5, opts), ALL4)
      for r, n, seed, opts, extra in [
          ("amigo-1997", 3, 300, None, ""),
          ("amigo-1997", 4, 300, None, ""),
          ("amigo-v1", 4, 303, None, " (V4)"),
          ("amigo-v2", 4, 303, None, " (V5)"),
          ("rio-grande", 5, 300, None, ""),
          ("amigo", 5, 302, None, ""),
      ]),
    EndgameSpec("rio-grande-4p-strict-seed400",
                _small_about("rio-grande", 4, 400, 1, 5, ", harvest=strict (H4)"),
                _cut("rio-grande", 4, 400, 8, 1, 5, {"harvest": "strict"}), ALL4),
    EndgameSpec("rio-grande-4p-distinct-seed401",
                _small_about("rio-grande", 4, 401, 1, 5, ", distinct_fields (V2)"),
                _cut("rio-grande", 4, 401, 8, 1, 5, {"distinct_fields": True}), ALL4),
    EndgameSpec("rio-grande-4p-quick-seed403", _small_about("rio-grande", 4, 403, 1, 5, ", quick (V1)"),
                _cut("rio-grande", 4, 403, 8, 1, 5, {"quick": True}), ALL4),
    EndgameSpec("amigo-5p-seed300-hands2", _small_about("amigo", 5, 300, 2, 4),
                _cut("amigo", 5, 300, 8, 2, 4), (("solo", -1), ("best", -1), ("expected", -1))),
    *(EndgameSpec(n, f"built-in position {n} (solvers/positions.py): {about}; solo for every seat",
                  _library(n), SOLO_EVERY)
      for n, about in [
          ("rio3-6", "rio-grande, 3 players, 6 cards left"),
          ("amigo3-8", "amigo, 3 players (three fields), 8 cards left"),
          ("rio4-10", "rio-grande, 4 players, 10 cards left"),
          ("amigo5-20", "amigo, 5 players, 20 cards left"),
      ]),
    EndgameSpec("rio4-pass", "built-in position rio4-pass: rio-grande, 4 players, the first turn of the "
                "final pass (40 cards left); solo for every seat", _library("rio4-pass"), (("solo", None),)),
    # real hands (14-20 cards a seat), the last turn: coop and best proved by the flow solver
    EndgameSpec("rio4-last", "built-in position rio4-last (the default): rio-grande, 4 players, real "
                "hands, the last turn; coop and best by the flow solver, solo for every seat",
                _library("rio4-last"), (("solo", None), ("coop", -1), ("best", -1)), "cpsat"),
    *(EndgameSpec(f"rio-grande-4p-seed{seed}-real", f"rio-grande, 4 players, real hands: cut from a seeded "
                  f"greedy-bot game (seed {seed}, the first turn of the final pass with at most 6 cards "
                  "left); coop and best by the flow solver, solo for every seat",
                  _cut("rio-grande", 4, seed, 6), (("solo", None), ("coop", -1), ("best", -1)), "cpsat")
      for seed in (105, 107, 108)),
]


def endgame_fixture(spec: EndgameSpec) -> dict[str, Any]:
    s = spec.build()
    check_state(s)
    values: list[dict[str, Any]] = []
    for objective, player in spec.objectives:
        seats = range(len(s.players)) if player is None else [s.to_move if player == -1 else player]
        values.extend(solve(s, objective, p, spec.method) for p in seats)
    return {
        "format": "bohnanza-endgame",
        "version": 1,
        "name": spec.name,
        "description": spec.description,
        "ruleset": s.setup.rules.name,
        "players": len(s.players),
        "phase": s.phase.name.lower(),
        "to_move": s.to_move,
        "values": values,
        "state": state_to_json(s),
    }


# ---------------------------------------------------------------- the whole suite


README = """# Bohnanza conformance suite

Made by `python scripts/make_conformance.py` from fixed seeds (do not edit by hand: regenerate).
The formats, the perft granularity and how to run the suite against another engine are in
`docs/conformance.md`.

- `perft/NAME.json`: a position (state JSON) and its perft counts at depths 1, 2 and 3.
- `records/legal/NAME.jsonl`: legal game records; `NAME.expect.json` holds the result.
- `records/illegal/NAME.jsonl`: records with one step changed; `NAME.expect.json` holds the first
  illegal line, the rule ID a referee must name, and why.
- `endgames/NAME.json`: a position and its proved optimal values per objective.
"""


def build(parts: tuple[str, ...] = PARTS, log: Callable[[str], None] | None = None) -> dict[str, str]:
    """Every fixture file: relative path -> text (deterministic: the same bytes on every run)."""
    files: dict[str, str] = {"README.md": README}
    say = log or (lambda _: None)
    if "perft" in parts:
        t0 = time.perf_counter()
        for ps in PERFT:
            files[f"perft/{ps.name}.json"] = dumps(perft_fixture(ps)) + "\n"
        say(f"perft: {len(PERFT)} positions in {time.perf_counter() - t0:.1f} s")
    if "records/legal" in parts or "records/illegal" in parts:
        t0 = time.perf_counter()
        for gs in LEGAL:
            game = played(gs.name)
            files[f"records/legal/{gs.name}.jsonl"] = jsonl(game.lines)
            files[f"records/legal/{gs.name}.expect.json"] = dumps(legal_expect(game)) + "\n"
        for ill in ILLEGAL:
            text, expect = illegal_fixture(ill)
            files[f"records/illegal/{ill.name}.jsonl"] = text
            files[f"records/illegal/{ill.name}.expect.json"] = dumps(expect) + "\n"
        verify_records({k: v for k, v in files.items() if k.startswith("records/")})
        say(f"records: {len(LEGAL)} legal, {len(ILLEGAL)} illegal, checked by the referee, in "
            f"{time.perf_counter() - t0:.1f} s")
    if "endgames" in parts:
        t0 = time.perf_counter()
        for eg in ENDGAMES:
            files[f"endgames/{eg.name}.json"] = dumps(endgame_fixture(eg)) + "\n"
        say(f"endgames: {len(ENDGAMES)} positions solved in {time.perf_counter() - t0:.1f} s")
    return files


def write(out: Path, files: dict[str, str]) -> list[Path]:
    """Write every file atomically; remove fixture files of the suite's folders that are not made
    any more. Returns the removed paths."""
    for rel, text in sorted(files.items()):
        atomic_write_text(out / rel, text)
    removed = []
    for part in PARTS:
        folder = out / part
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                rel = path.relative_to(out).as_posix()
                if path.is_file() and path.suffix in (".json", ".jsonl") and rel not in files:
                    path.unlink()
                    removed.append(path)
    return removed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", metavar="DIR", default=str(DEFAULT_OUT),
                        help="where to write (default: tests/conformance/)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"make_conformance.py: {out}: not a directory", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        files = build(log=print)
    except GenerationError as e:
        print(f"make_conformance.py: {e}", file=sys.stderr)
        return 1
    removed = write(out, files)
    for path in removed:
        print(f"removed {path}")
    print(f"wrote {len(files)} files to {out} in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
