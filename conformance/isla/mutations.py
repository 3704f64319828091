"""La Isla Bohnita's illegal records (I1-I9): a legal Isla record with one step changed so that it
breaks one rule of the expansion."""

from __future__ import annotations

from typing import Any

from conformance.common import mover
from conformance.kinds import Game, Illegal, decision, in_trade, ins, other
from model import (
    Action,
    Attack,
    BuyShip,
    Discard,
    EndPhase,
    GameState,
    HarvestOnto,
    MoveCargo,
    Phase,
    PlantCargo,
    Propose,
    Sail,
    Sell,
)
from model.cards import BEAN_NAMES
from model.isla import HOME, isla_of, isla_setup
from model.isla.actions import PIRATE


def _own_trade(s: GameState) -> bool:
    return s.ext is not None and in_trade(s) and s.to_move == s.active


def m_i4_second_type(g: Game) -> Any:
    def loadable(s: GameState) -> tuple[int, int] | None:
        if not _own_trade(s) or s.ext is None or isla_of(s).sails >= isla_setup(s.setup).max_sails:
            return None
        for k, ship in enumerate(isla_of(s).fleets[s.active].merchants):
            for port in (1, 2):
                row = isla_of(s).rows[port - 1]
                if ship.count and port != ship.at and row and row[0] != ship.bean:
                    return k, port
        return None
    i = g.at(lambda s, a: loadable(s) is not None)
    s = g.states[i]
    k, port = loadable(s) or (0, 0)
    assert s.ext is not None
    ship = isla_of(s).fleets[s.active].merchants[k]
    front = BEAN_NAMES[isla_of(s).rows[port - 1][0]]
    return ins(g, i, Sail(s.active, k, port, 1), f"p{s.active}'s ship m{k} holds {BEAN_NAMES[ship.bean]} "
                f"and loads a {front}: a ship holds one type only")


def m_i5_plant_cargo(g: Game) -> Any:
    def cargo(s: GameState, a: Action) -> bool:
        return (_own_trade(s) and s.ext is not None
                and any(m.count for m in isla_of(s).fleets[s.active].merchants))
    i = g.at(cargo)
    s = g.states[i]
    assert s.ext is not None
    k = next(j for j, m in enumerate(isla_of(s).fleets[s.active].merchants) if m.count)
    return ins(g, i, PlantCargo(s.active, k, 0), f"p{s.active} plants a card from its ship m{k}: island "
                "beans count as harvested and never go onto a field")


def m_i7_attack_twice(g: Game) -> Any:
    i = g.at(lambda s, a: _own_trade(s) and s.ext is not None and bool(isla_of(s).attacked))
    s = g.states[i]
    assert s.ext is not None
    q, k = isla_of(s).attacked[0]
    return ins(g, i, Attack(s.active, q, k), f"p{s.active} attacks p{q}'s m{k} a second time this turn")


def m_i6_sell_for_nothing(g: Game) -> Any:
    def worthless(s: GameState) -> tuple[int, int] | None:
        if s.ext is None or not decision(s) or isla_of(s).attack is not None:
            return None
        for k, ship in isla_of(s).fleets[s.to_move].ships():
            if ship.count and s.setup.payout[ship.bean][ship.count] == 0:
                return s.to_move, k
        return None
    i = g.at(lambda s, a: worthless(s) is not None and (not s.setup.duel or s.to_move == s.active))
    s = g.states[i]
    p, k = worthless(s) or (0, 0)
    assert s.ext is not None
    ship = isla_of(s).fleets[p].ship(k)
    assert ship is not None
    return ins(g, i, Sell(p, k),
                f"p{p} sells a cargo of {ship.count} {BEAN_NAMES[ship.bean]}, worth no coin")


def m_i3_hand_offer(g: Game) -> Any:
    i = g.at(lambda s, a: _own_trade(s) and bool(s.players[s.active].hand))
    s = g.states[i]
    q = other(s, s.active)
    return ins(g, i, Propose(s.active, q, (0,), (), ()), f"p{s.active} offers a hand card: with the "
                "expansion the active player offers only the turned-up cards")


def m_i9_duel_trade(g: Game) -> Any:
    i = g.at(lambda s, a: _own_trade(s) and bool(s.face_up))
    s = g.states[i]
    return ins(g, i, Propose(s.active, 1 - s.active, (), (0,), ()),
                f"p{s.active} offers a turned-up card: the Isla duel has no trading")


def m_i7_harvest_onto_pirate(g: Game) -> Any:
    def ok(s: GameState, a: Action) -> bool:
        return (decision(s) and s.ext is not None and isla_of(s).attack is None
                and isla_of(s).fleets[s.to_move].pirate is not None
                and any(f.count > 1 for f in mover(s).fields))
    i = g.at(ok)
    s = g.states[i]
    f = next(k for k, x in enumerate(mover(s).fields) if x.count > 1)
    return ins(g, i, HarvestOnto(s.to_move, f, PIRATE), f"p{s.to_move} loads a harvest onto its pirate "
                "ship: merchant cargo never goes onto a pirate ship")


def m_i6_move_captured(g: Game) -> Any:
    def ok(s: GameState, a: Action) -> bool:
        if not (_own_trade(s) and s.ext is not None and isla_of(s).captured):
            return False
        fleet = isla_of(s).fleets[s.active]
        pirate = fleet.pirate
        return pirate is not None and pirate.count > 0 and any(
            m.at == HOME and (m.count == 0 or m.bean == pirate.bean) for m in fleet.merchants)
    i = g.at(ok)
    s = g.states[i]
    assert s.ext is not None
    fleet = isla_of(s).fleets[s.active]
    pirate = fleet.pirate
    assert pirate is not None
    j = next(k for k, m in enumerate(fleet.merchants)
             if m.at == HOME and (m.count == 0 or m.bean == pirate.bean))
    return ins(g, i, MoveCargo(s.active, PIRATE, j), f"p{s.active} moves the cargo its pirate captured "
                "this turn onto a merchant ship (the reading: not in the turn of the capture)")


def m_i9_second_discard(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT and s.ext is not None and isla_of(s).discarded
             and s.planted < 2 and bool(mover(s).hand))
    s = g.states[i]
    return ins(g, i, Discard(s.active, 0), f"p{s.active} discards a second hand card this turn")


def m_i7_ignore_attack(g: Game) -> Any:
    i = g.at(lambda s, a: s.ext is not None and isla_of(s).attack is not None)
    s = g.states[i]
    return ins(g, i, EndPhase(s.to_move), f"p{s.to_move} ends a phase instead of answering the attack on "
                "its ship (sell or yield)")


def m_i1_pirate_coins(g: Game) -> Any:
    i = g.at(lambda s, a: decision(s) and s.ext is not None and s.turn >= 2
             and isla_of(s).fleets[s.to_move].pirate is None
             and len(mover(s).coins) < isla_setup(s.setup).pirate_cost)
    s = g.states[i]
    return ins(g, i, BuyShip(s.to_move, True), f"p{s.to_move} buys a pirate ship with "
                f"{len(mover(s).coins)} coins; it costs {isla_setup(s.setup).pirate_cost}")


ILLEGAL: list[Illegal] = [
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
