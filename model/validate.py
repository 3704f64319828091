"""Check a state against the rules: a position read from a file must be one the rules allow.

``state_from_json`` checks the format; ``check_state`` checks the content and raises
``PositionError`` naming the first bad field and the rule it breaks, e.g.
``players[1].fields[2]: a third field, but rio-grande sells at most one (F1)``.
"""

from __future__ import annotations

from collections import Counter

from model.cards import BEAN_NAMES
from model.dealing import Deal
from model.errors import PositionError as PositionError
from model.state import GameState, Phase

DUEL_PHASES = (Phase.OFFER, Phase.DISCARD, Phase.TURNED)


def _zones(s: GameState) -> list[tuple[str, tuple[int, ...]]]:
    zones = [("draw", s.draw), ("discard", s.discard), ("face_up", s.face_up), ("out", s.out)]
    for i, p in enumerate(s.players):
        zones += [(f"players[{i}].hand", p.hand), (f"players[{i}].coins", p.coins),
                  (f"players[{i}].aside", p.aside)]
        zones += [(f"players[{i}].fields[{j}]", (f.bean,) * f.count) for j, f in enumerate(p.fields)]
    return zones + s.setup.hooks.card_zones(s)


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
    su.hooks.check_position(s)
    if not su.duel and s.phase in DUEL_PHASES:
        raise PositionError("phase", f"{s.phase.name.lower()} exists only in the bean duel", "D2")
    if s.phase == Phase.PLANT and s.to_move != s.active:
        raise PositionError("to_move", "in phase 1 the active player moves", "T1")
    if s.phase in DUEL_PHASES and s.to_move != s.active:
        raise PositionError("to_move", f"in {s.phase.name.lower()} the active player moves", "D2")
    if s.phase == Phase.PLANT and not s.players[s.active].hand:
        raise PositionError(f"players[{s.active}].hand", "phase 1 with an empty hand is skipped", "T1")
    if not 0 <= s.planted <= 2:
        raise PositionError("planted", f"{s.planted} phase-1 plantings; at most two", "T1")
    active_fields = len(s.players[s.active].fields)
    v2 = su.rules.distinct_fields and s.planted == 1  # V2 needs to know the first planting's field
    if not -1 <= s.first_field < active_fields or (v2 and s.first_field == -1):
        raise PositionError("first_field", f"{s.first_field}: the field of this turn's first planting "
                            f"(0-{active_fields - 1}), or -1" + (" (not after one planting)" if v2 else ""),
                            "V2" if v2 else "T1")
    for k, t in enumerate(s.todo):
        if not (0 <= t < n or t == Deal.FACE_UP or t in su.hooks.todo_codes):
            raise PositionError(f"todo[{k}]", f"{t} is not a seat, the trade area ({int(Deal.FACE_UP)}) or "
                                "a place the expansion deals to", "E1")
    if not 0 <= s.exhaustions <= su.final_exhaustion:
        raise PositionError("exhaustions", f"{s.exhaustions}; the game ends at exhaustion "
                            f"{su.final_exhaustion}", "E2")
    if s.exhaustions == su.final_exhaustion and s.phase != Phase.OVER and not s.final:
        raise PositionError("exhaustions", "the final exhaustion has come but the game goes on", "E2")
    if s.pending is not None and s.pending.player != s.active:
        raise PositionError("pending", "every deal has the active player on one side", "T3")
    if s.pending is not None and not (0 <= s.pending.partner < n and s.pending.partner != s.active):
        raise PositionError("pending", f"p{s.pending.partner} is not another seat ({n} players)", "T3")
    answering = su.hooks.adds_moves and su.hooks.blocked(s)  # e.g. an attacked seat (I7)
    if s.phase == Phase.TRADE and not answering:
        who = s.pending.partner if s.pending is not None else s.active
        if s.to_move != who:
            raise PositionError("to_move", f"in phase 2 p{who} moves: " + (
                "the partner answers the pending offer" if s.pending is not None
                else "the active player, nothing is pending"), "T3")
    asides = [i for i, p in enumerate(s.players) if p.aside]
    if asides and s.phase not in (Phase.TRADE, Phase.PLANT_ASIDE):
        raise PositionError(f"players[{asides[0]}].aside", "set-aside cards exist only in phases 2 and 3",
                            "T6")
