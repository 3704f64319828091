"""Check a state against the rules: a position read from a file must be one the rules allow.

``schemas.state_json.state_from_json`` checks the format; ``check_state`` checks the content and raises
``PositionError`` naming the first bad field and the rule it breaks, e.g.
``players[1].fields[2]: a third field, but rio-grande sells at most one (F1)``.
"""

from __future__ import annotations

from collections import Counter

from model.cards import BEAN_NAMES
from model.dealing import Deal, Resume
from model.errors import PositionError as PositionError
from model.expansions import hooks
from model.state import GameState, Phase

DUEL_PHASES = (Phase.OFFER, Phase.DISCARD, Phase.TURNED)


def _zones(s: GameState) -> list[tuple[str, tuple[int, ...]]]:
    zones = [("draw", s.draw), ("discard", s.discard), ("face_up", s.face_up), ("out", s.out)]
    for i, p in enumerate(s.players):
        zones += [(f"players[{i}].hand", p.hand), (f"players[{i}].coins", p.coins),
                  (f"players[{i}].aside", p.aside)]
        zones += [(f"players[{i}].fields[{j}]", (f.bean,) * f.count) for j, f in enumerate(p.fields)]
    return zones + hooks(s.setup).card_zones(s)


def check_state(s: GameState) -> None:
    """Raise PositionError at the first part of ``s`` the rules forbid, in this order: the cards
    (C2), the fields (F1), the seats and the phase (S1, E1, D2, T1), the turn's counters (T1, V2, E1,
    E2), the pending offer (T3), who moves in phase 2 and the set-aside cards (T3, T6), then what
    the turn's sequence makes of the state."""
    _check_cards(s)
    _check_fields(s)
    _check_seats_and_phase(s)
    _check_counters(s)
    _check_pending(s)
    _check_trade(s)
    _check_reachable(s)


def _check_cards(s: GameState) -> None:
    """Every card is a bean in play, and no bean has more cards than the deck holds (C2)."""
    su = s.setup
    n = len(s.players)
    in_play = set(su.beans)
    name = su.rules.name
    for i, p in enumerate(s.players):  # before the cards are counted one by one (a count of 2**64)
        for j, f in enumerate(p.fields):
            if f.count > len(su.deck):
                raise PositionError(f"players[{i}].fields[{j}]", f"{f.count} cards; the {name} deck has "
                                    f"{len(su.deck)}", "C2")
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


def _check_fields(s: GameState) -> None:
    """Each seat has the ruleset's fields, and a third only where one can be bought or earned (F1)."""
    su = s.setup
    n = len(s.players)
    name = su.rules.name
    third = su.third_cost is not None or su.rules.field_beans
    for i, p in enumerate(s.players):
        most = 3 if third else su.fields
        if not su.fields <= len(p.fields) <= most:
            raise PositionError(f"players[{i}].fields", f"{len(p.fields)} fields; {name} with {n} players "
                                f"allows {su.fields}" + (f" to {most}" if most > su.fields else ""), "F1")


def _check_seats_and_phase(s: GameState) -> None:
    """The active seat and the seat to move exist (S1), no one moves at a chance node or at the end
    (E1), the phase exists in this game (D2, the expansion's own check) and its mover is the one
    the rules name (T1, D2)."""
    su = s.setup
    n = len(s.players)
    if not 0 <= s.active < n:
        raise PositionError("active", f"seat p{s.active} does not exist ({n} players)", "S1")
    if s.phase == Phase.OVER or s.phase == Phase.CHANCE:
        if s.to_move != -1:
            raise PositionError("to_move", f"no one moves in phase {s.phase.name.lower()}", "E1")
    elif not 0 <= s.to_move < n:
        raise PositionError("to_move", f"seat p{s.to_move} does not exist ({n} players)", "S1")
    hooks(su).check_position(s)
    if not su.duel and s.phase in DUEL_PHASES:
        raise PositionError("phase", f"{s.phase.name.lower()} exists only in the bean duel", "D2")
    if s.phase == Phase.PLANT and s.to_move != s.active:
        raise PositionError("to_move", "in phase 1 the active player moves", "T1")
    if s.phase in DUEL_PHASES and s.to_move != s.active:
        raise PositionError("to_move", f"in {s.phase.name.lower()} the active player moves", "D2")
    if s.phase == Phase.PLANT and not s.players[s.active].hand:
        raise PositionError(f"players[{s.active}].hand", "phase 1 with an empty hand is skipped", "T1")


def _check_counters(s: GameState) -> None:
    """The turn's counters: plantings (T1), the first planting's field (T1, V2), the dealing codes
    (E1) and the exhaustions (E2)."""
    su = s.setup
    n = len(s.players)
    if not 0 <= s.planted <= 2:
        raise PositionError("planted", f"{s.planted} phase-1 plantings; at most two", "T1")
    active_fields = len(s.players[s.active].fields)
    v2 = su.rules.distinct_fields and s.planted == 1  # V2 needs to know the first planting's field
    if not -1 <= s.first_field < active_fields or (v2 and s.first_field == -1):
        raise PositionError("first_field", f"{s.first_field}: the field of this turn's first planting "
                            f"(0-{active_fields - 1}), or -1" + (" (not after one planting)" if v2 else ""),
                            "V2" if v2 else "T1")
    for k, t in enumerate(s.todo):
        if not (0 <= t < n or t == Deal.FACE_UP or t in hooks(su).todo_codes):
            raise PositionError(f"todo[{k}]", f"{t} is not a seat, the trade area ({int(Deal.FACE_UP)}) or "
                                "a place the expansion deals to", "E1")
    if not 0 <= s.exhaustions <= su.final_exhaustion:
        raise PositionError("exhaustions", f"{s.exhaustions}; the game ends at exhaustion "
                            f"{su.final_exhaustion}", "E2")
    if s.exhaustions == su.final_exhaustion and s.phase != Phase.OVER and not s.final:
        raise PositionError("exhaustions", "the final exhaustion has come but the game goes on", "E2")


def _check_pending(s: GameState) -> None:
    """A pending offer is the active player's, to another seat, of cards the active player has (T3)."""
    n = len(s.players)
    if s.pending is not None and s.pending.player != s.active:
        raise PositionError("pending", "every deal has the active player on one side", "T3")
    if s.pending is not None and not (0 <= s.pending.partner < n and s.pending.partner != s.active):
        raise PositionError("pending", f"p{s.pending.partner} is not another seat ({n} players)", "T3")
    if s.pending is not None:  # the offer names cards the active player has (T3)
        offer, held = s.pending, len(s.players[s.active].hand)
        for name, idx, size in (("h", offer.give_hand, held), ("u", offer.give_up, len(s.face_up))):
            if len(set(idx)) != len(idx) or any(not 0 <= i < size for i in idx):
                where = f"p{s.active} holds {size}" if name == "h" else f"{size} are face up"
                raise PositionError("pending", f"the offer gives {' '.join(f'{name}{i}' for i in idx)} but "
                                    f"{where}", "T3")


def _check_trade(s: GameState) -> None:
    """In phase 2 the partner answers a pending offer, else the active player moves (T3), unless the
    expansion blocks the turn; set-aside cards exist only in phases 2 and 3 (T6)."""
    su = s.setup
    answering = hooks(su).adds_moves and hooks(su).blocked(s)  # e.g. an attacked seat (I7)
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


def _check_reachable(s: GameState) -> None:
    """What the turn's sequence makes of the state in each phase (T1-T7, D2, E1-E3): who is to move,
    what is pending, the trade area, the set-aside areas, the dealing codes and the draw pile, as
    the engine leaves them when a decision (or a reshuffle) is due."""
    su = s.setup
    n = len(s.players)
    phase = s.phase
    where = phase.name.lower()
    if any(isinstance(t, bool) or not isinstance(t, int) for t in s.todo):  # true is not seat 1
        raise PositionError("todo", "the cards still to deal are seat numbers or place codes", "E1")
    chance = phase == Phase.CHANCE
    if chance != (s.resume != Resume.NONE):
        raise PositionError("resume", f"{s.resume}: a dealing step is resumed only at a reshuffle "
                            f"({int(Resume.TURNING_UP)} turning up, {int(Resume.DRAWING)} drawing)", "E1")
    if s.todo and not chance:
        raise PositionError("todo", f"cards still to deal in {where}: dealing stops only for a reshuffle",
                            "E1")
    if s.pending is not None and phase != Phase.TRADE:
        raise PositionError("pending", f"an offer pending in {where}: offers exist only in phase 2", "T3")
    if s.offers > su.rules.max_offers:
        raise PositionError("offers", f"{s.offers} offers; max_offers is {su.rules.max_offers}", "T3")
    if s.offers and phase in (Phase.PLANT, Phase.OFFER, Phase.DISCARD, Phase.TURNED):
        raise PositionError("offers", f"{s.offers} offers made in {where}: offers are made in phase 2 "
                            "and counted from the start of the turn", "T3")
    if (s.planted == 0) != (s.first_field == -1):
        raise PositionError("first_field", f"{s.first_field} after {s.planted} phase-1 plantings: the "
                            "field of the first planting, -1 before it", "T1")
    hand = s.players[s.active].hand
    if s.face_up and phase in (Phase.PLANT, Phase.DISCARD, Phase.PLANT_ASIDE):
        raise PositionError("face_up", f"face-up cards in {where}: they are turned up after planting and "
                            "set aside when trading ends", "T5")
    if phase == Phase.PLANT and s.planted >= 2:
        raise PositionError("planted", "two plantings end phase 1", "T1")
    if phase == Phase.TRADE and s.planted == 0 and hand:
        raise PositionError("planted", "phase 2 with no planting: only an empty hand skips phase 1", "T1")
    if phase == Phase.OFFER and (not s.face_up or s.planted):
        raise PositionError("face_up" if not s.face_up else "planted", "the duel's step 1 plants or "
                            "discards the cards left on offer, before any planting", "D2")
    if phase == Phase.DISCARD and (not s.planted or not hand):
        raise PositionError("planted" if not s.planted else f"players[{s.active}].hand",
                            "the duel's step 2 discard comes after planting, from a hand with cards", "D2")
    if phase == Phase.PLANT_ASIDE:
        for step in range(n):
            seat = (s.active + step) % n
            if seat == s.to_move:
                break
            if s.players[seat].aside:
                raise PositionError(f"players[{seat}].aside", f"p{seat} plants its set-aside cards before "
                                    f"p{s.to_move}: phase 3 goes in turn order", "T6")
        if not s.players[s.to_move].aside:
            raise PositionError(f"players[{s.to_move}].aside", f"p{s.to_move} plants in phase 3 but has "
                                "nothing set aside", "T6")
    if phase == Phase.OVER:
        for i, p in enumerate(s.players):
            for j, f in enumerate(p.fields):
                if f.count:
                    raise PositionError(f"players[{i}].fields[{j}]", "a field still planted when the game "
                                        "is over: every field is harvested at the end", "E3")
        return
    if chance:
        _check_chance(s)
        return
    if s.final and phase not in (Phase.TRADE, Phase.PLANT_ASIDE, Phase.TURNED):
        raise PositionError("final", f"the game ends after this turn's trading and planting, not in "
                            f"{where}: the final exhaustion comes while turning up", "E2")
    if s.final and not s.exhaustions:
        raise PositionError("final", "the game ends after this turn but the draw pile was never "
                            "exhausted", "E2")
    if not s.draw and not s.final and not s.setup.on_demand:  # on-demand: exhausted at the next need
        raise PositionError("draw", f"an empty draw pile in {where} without a reshuffle due (phase "
                            "chance) or the final pass (final: true)", "E1")
    if s.draw and s.final:
        raise PositionError("final", f"{len(s.draw)} cards left to draw after the final exhaustion", "E2")


def _check_chance(s: GameState) -> None:
    """E1: a reshuffle is due: the draw pile has just run out, before the final exhaustion, and
    the discard pile holds the cards of the new pile."""
    su = s.setup
    if s.draw:
        raise PositionError("draw", f"{len(s.draw)} cards left in the draw pile; a reshuffle comes when "
                            "it is exhausted", "E1")
    if not s.discard:
        raise PositionError("discard", "a reshuffle of an empty discard pile: that is the final "
                            "exhaustion", "E2")
    if s.final or not 1 <= s.exhaustions < su.final_exhaustion:
        raise PositionError("exhaustions", f"a reshuffle after exhaustion {s.exhaustions}: only the "
                            f"exhaustions before number {su.final_exhaustion} reshuffle", "E1")
    if s.pending is not None:
        raise PositionError("pending", "an offer pending at a reshuffle", "T3")
    if s.resume not in (Resume.TURNING_UP, Resume.DRAWING):
        raise PositionError("resume", f"{s.resume}: a reshuffle resumes turning up "
                            f"({int(Resume.TURNING_UP)}) "
                            f"or drawing ({int(Resume.DRAWING)})", "E1")
    turning = s.resume == Resume.TURNING_UP
    if any((t == Deal.FACE_UP) != turning for t in s.todo):
        raise PositionError("todo", "cards to turn up go to the trade area while turning up (T2), to the "
                            "seats (and the expansion's places) while drawing (T7)", "E1")
    if turning and len(s.face_up) + len(s.todo) != su.face_up:
        raise PositionError("face_up", f"{len(s.face_up)} cards turned up and {len(s.todo)} to come; "
                            f"{su.face_up} are turned up", "T2")
    if not turning and s.face_up and not su.duel:
        raise PositionError("face_up", "face-up cards while drawing: trading set them aside", "T5")
