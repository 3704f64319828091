"""Check a state against the rules: a position read from a file must be one the rules allow.

``state_from_json`` checks the format; ``check_state`` checks the content and raises
``PositionError`` naming the first bad field and the rule it breaks, e.g.
``players[1].fields[2]: a third field, but rio-grande sells at most one (F1)``.
"""

from __future__ import annotations

from collections import Counter

from model.actions import PORT_NAMES, SHIP_NAMES
from model.cards import BEAN_NAMES
from model.errors import RuleError
from model.isla import HOME, ROW
from model.state import GameState, Phase

DUEL_PHASES = (Phase.OFFER, Phase.DISCARD, Phase.TURNED)
TRADING_PHASES = (Phase.TRADE, Phase.PLANT_ASIDE)


class PositionError(RuleError):
    """A state the rules do not allow; ``field`` names where, ``rule`` the rule ID."""

    def __init__(self, field: str, reason: str, rule: str) -> None:
        super().__init__(reason, rule, field)
        self.field = field


def _zones(s: GameState) -> list[tuple[str, tuple[int, ...]]]:
    zones = [("draw", s.draw), ("discard", s.discard), ("face_up", s.face_up), ("out", s.out)]
    for i, p in enumerate(s.players):
        zones += [(f"players[{i}].hand", p.hand), (f"players[{i}].coins", p.coins),
                  (f"players[{i}].aside", p.aside)]
        zones += [(f"players[{i}].fields[{j}]", (f.bean,) * f.count) for j, f in enumerate(p.fields)]
    if s.isla is not None:
        zones += [(f"isla.rows.{PORT_NAMES[1 + r]}", row) for r, row in enumerate(s.isla.rows)]
        for i, fleet in enumerate(s.isla.fleets):
            zones += [(f"isla.fleets[{i}].{SHIP_NAMES[k]}", (ship.bean,) * ship.count)
                      for k, ship in fleet.ships()]
    return zones


def check_state(s: GameState) -> None:
    """Raise PositionError at the first part of ``s`` the rules forbid."""
    su = s.setup
    n = len(s.players)
    in_play = set(su.beans)
    name = su.rules.name
    totals: Counter[int] = Counter()
    for where, cards in _zones(s):
        for k, b in enumerate(cards):
            if b not in in_play:
                raise PositionError(f"{where}[{k}]" if "fields" not in where else where,
                                    f"{BEAN_NAMES[b]} is not in play in {name} with {n} players", "C2")
        totals.update(cards)
    catalog = Counter(su.deck)
    for b, count in sorted(totals.items()):
        if count > catalog[b]:
            raise PositionError(BEAN_NAMES[b], f"{count} cards in the position, the {name} deck has "
                                f"{catalog[b]}", "C2")
    third = su.third_cost is not None or su.rules.field_beans
    for i, p in enumerate(s.players):
        most = 3 if third else su.fields
        if not su.fields <= len(p.fields) <= most:
            raise PositionError(f"players[{i}].fields", f"{len(p.fields)} fields; {name} with {n} players "
                                f"allows {su.fields}" + (f" to {most}" if most > su.fields else ""), "F1")
    if not 0 <= s.active < n:
        raise PositionError("active", f"seat p{s.active} does not exist ({n} players)", "S1")
    if s.phase == Phase.OVER or s.phase == Phase.CHANCE:
        if s.to_move != -1:
            raise PositionError("to_move", f"no one moves in phase {s.phase.name.lower()}", "E1")
    elif not 0 <= s.to_move < n:
        raise PositionError("to_move", f"seat p{s.to_move} does not exist ({n} players)", "S1")
    if s.isla is not None:
        _check_isla(s)
    elif su.duel and s.phase in TRADING_PHASES:
        raise PositionError("phase", f"{s.phase.name.lower()} does not exist in the bean duel", "D1")
    if not su.duel and s.phase in DUEL_PHASES:
        raise PositionError("phase", f"{s.phase.name.lower()} exists only in the bean duel", "D2")
    if s.phase == Phase.PLANT and s.to_move != s.active:
        raise PositionError("to_move", "in phase 1 the active player moves", "T1")
    if s.phase == Phase.PLANT and not s.players[s.active].hand:
        raise PositionError(f"players[{s.active}].hand", "phase 1 with an empty hand is skipped", "T1")
    if not 0 <= s.planted <= 2:
        raise PositionError("planted", f"{s.planted} phase-1 plantings; at most two", "T1")
    if not 0 <= s.exhaustions <= su.final_exhaustion:
        raise PositionError("exhaustions", f"{s.exhaustions}; the game ends at exhaustion "
                            f"{su.final_exhaustion}", "E2")
    if s.exhaustions == su.final_exhaustion and s.phase != Phase.OVER and not s.final:
        raise PositionError("exhaustions", "the final exhaustion has come but the game goes on", "E2")
    if s.pending is not None and s.pending.player != s.active:
        raise PositionError("pending", "every deal has the active player on one side", "T3")
    asides = [i for i, p in enumerate(s.players) if p.aside]
    if asides and s.phase not in TRADING_PHASES:
        raise PositionError(f"players[{asides[0]}].aside", "set-aside cards exist only in phases 2 and 3",
                            "T6")


def _check_isla(s: GameState) -> None:
    """Ships, rows and the attack of La Isla Bohnita (I1-I9)."""
    isla = s.isla
    assert isla is not None
    n = len(s.players)
    if s.setup.duel and s.phase in (Phase.OFFER, Phase.TURNED):
        raise PositionError("phase", "the Isla duel plants its turned-up cards in phase 2 and 3", "I9")
    if len(isla.fleets) != n:
        raise PositionError("isla.fleets", f"{len(isla.fleets)} fleets for {n} players", "I1")
    for i, fleet in enumerate(isla.fleets):
        if not 1 <= len(fleet.merchants) <= 2:
            raise PositionError(f"isla.fleets[{i}].merchants", f"{len(fleet.merchants)} merchant ships; "
                                "one, and a second one to buy", "I1")
        for k, ship in fleet.ships():
            where = f"isla.fleets[{i}].{SHIP_NAMES[k]}"
            if (ship.count == 0) != (ship.bean == -1) or ship.count < 0:
                raise PositionError(where, "a ship holds cards of one type, or none", "I4")
            if not 0 <= ship.at < len(PORT_NAMES) or (k == 2 and ship.at != HOME):
                raise PositionError(where, f"port {ship.at} is not one it can be at", "I4")
    for r, row in enumerate(isla.rows):
        if len(row) > ROW:
            raise PositionError(f"isla.rows.{PORT_NAMES[1 + r]}", f"{len(row)} cards; a row holds 5", "I2")
    if isla.sails > s.setup.rules.max_sails:
        raise PositionError("isla.sails", f"{isla.sails} ship moves; max_sails is {s.setup.rules.max_sails}",
                            "I4")
    if isla.attack is not None:
        q, k = isla.attack
        if s.phase != Phase.TRADE or s.to_move != q or isla.attack not in isla.attacked:
            raise PositionError("isla.attack", "an attack is answered by the attacked player in phase 2, "
                                "and is counted as made", "I7")
        target = isla.fleets[q].ship(k) if 0 <= q < n else None
        if target is None or target.count == 0 or isla.fleets[s.active].pirate is None:
            raise PositionError("isla.attack", "the attacked ship must exist and hold cargo, and the "
                                "active player must own a pirate ship", "I7")
