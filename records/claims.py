"""An engine's claimed state (the driver protocol's ``state`` reply, docs/engine-protocol.md)
compared with ours, and the rule of the step that made them differ (RULES.md IDs).

A record line may carry such a claim (``claims``, docs/records.md): the state the writer's engine
was in after the line. The referee flags a claim the rules contradict as an illegal step with the
rule ``state_rule`` names, so a reproducer shows a divergence of state (coins, piles, the phase) on
the line that made it; scripts/diff_engine.py compares its engine's replies the same way.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from model.actions import (
    Accept,
    Action,
    BuyField,
    EndPhase,
    FieldHarvest,
    Harvest,
    Plant,
    PlantAside,
    Reshuffle,
)
from model.cards import BEAN_NAMES
from model.engine import apply
from model.state import GameState, Phase


def _names(cards: tuple[int, ...]) -> list[str]:
    return [BEAN_NAMES[c] for c in cards]


class Diff(NamedTuple):
    """One part of the state that differs: ``ours`` and ``theirs`` as shown, and for a collection of
    cards the cards only ours has and those only theirs has (a multiset difference, else None)."""

    part: str
    ours: Any
    theirs: Any
    only_ours: tuple[str, ...] | None = None
    only_theirs: tuple[str, ...] | None = None

    def text(self, us: str = "ours", them: str = "the engine") -> str:
        """``discard: ours has 2x Chili, 1x Soy the engine lacks`` for cards, else ``part is X, ours Y``."""
        if self.only_ours is None or self.only_theirs is None or not (self.only_ours or self.only_theirs):
            return f"{self.part} is {self.theirs}, {us} {self.ours}"
        seat = isinstance(self.ours, str) and self.ours[:1] == "p"
        where = f"{self.part} of {self.ours}" if seat else self.part
        said = [f"{us} {'has' if us == 'ours' else 'give'} {counted(self.only_ours)} {them} lacks"
                if self.only_ours else "",
                f"{them} has {counted(self.only_theirs)} {us} {'lacks' if us == 'ours' else 'do not'}"
                if self.only_theirs else ""]
        return f"{where}: " + "; ".join(x for x in said if x)


def counted(cards: tuple[str, ...]) -> str:
    """``2x Chili, 1x Soy`` (catalog order)."""
    n = Counter(cards)
    return ", ".join(f"{n[b]}x {b.capitalize()}" for b in BEAN_NAMES if n[b])


def _minus(a: list[str], b: list[str]) -> tuple[str, ...]:
    return tuple((Counter(a) - Counter(b)).elements())


def _cards(part: str, ours: list[str], theirs: list[str], seat: int | None = None) -> Diff:
    who = f"p{seat}" if seat is not None else None
    shown_ours = who if who else f"{len(ours)} cards"
    shown_theirs = who if who else f"{len(theirs)} cards, other cards"
    return Diff(part, shown_ours, shown_theirs, _minus(ours, theirs), _minus(theirs, ours))


def _field_cards(fields: list[Any]) -> list[str]:
    return [f[0] for f in fields if f for _ in range(f[1])]


def compare_state(s: GameState, view: dict[str, Any]) -> list[Diff]:
    """The parts the engine's view gives and ours differs in. Hands in order (``hand order``: the
    same cards in another order), face-up and set-aside cards as multisets, ``field count`` when a
    seat has another number of fields, coins as counts, piles as counts or (given as lists) their
    cards; a collection of cards names the cards that differ."""
    out: list[Diff] = []
    seats = view.get("players")
    if seats is not None:
        if len(seats) != len(s.players):
            return [Diff("players", len(s.players), len(seats))]
        for p, (pl, v) in enumerate(zip(s.players, seats, strict=True)):
            hand = _names(pl.hand)
            if v.get("hand") is not None and v["hand"] != hand:
                if sorted(v["hand"]) == sorted(hand):
                    out.append(Diff("hand order", f"p{p} {hand}", f"p{p} {v['hand']}"))
                else:
                    out.append(_cards("hand", hand, v["hand"], p))
            fields = [[BEAN_NAMES[f.bean], f.count] if f.count else None for f in pl.fields]
            theirs = v.get("fields")
            if theirs is not None and len(theirs) != len(fields):
                out.append(Diff("field count", f"p{p} {len(fields)}", f"p{p} {len(theirs)}"))
            elif theirs is not None and [list(f) if f else None for f in theirs] != fields:
                d = _cards("fields", _field_cards(fields), _field_cards(theirs), p)
                shown = Diff("fields", f"p{p} {fields}", f"p{p} {theirs}")
                out.append(d if d.only_ours or d.only_theirs else shown)
            if v.get("coins") is not None and v["coins"] != len(pl.coins):
                out.append(Diff("coins", f"p{p} {len(pl.coins)}", f"p{p} {v['coins']}"))
            if v.get("aside") is not None and sorted(v["aside"]) != sorted(_names(pl.aside)):
                out.append(_cards("aside", _names(pl.aside), v["aside"], p))
    if view.get("face_up") is not None and sorted(view["face_up"]) != sorted(_names(s.face_up)):
        out.append(_cards("face_up", _names(s.face_up), view["face_up"]))
    for part, pile, ordered in (("draw", s.draw, True), ("discard", s.discard, False)):
        theirs = view.get(part)
        if isinstance(theirs, int):
            if theirs != len(pile):
                out.append(Diff(part, len(pile), theirs))
        elif theirs is not None:
            ours = _names(pile)
            if sorted(theirs) != sorted(ours):
                out.append(_cards(part, ours, theirs))
            elif ordered and theirs != ours:
                out.append(Diff(f"{part} order", f"{len(ours)} cards", f"{len(theirs)} in another order"))
    phase = s.phase.name.lower()
    for part, ours_v in (("phase", phase), ("to_move", s.to_move), ("active", s.active)):
        theirs_v = view.get(part)
        if isinstance(theirs_v, list) and part == "to_move" and theirs_v == [ours_v]:
            continue  # the seats that may act: only ours
        if theirs_v is not None and theirs_v != ours_v:
            out.append(Diff(part, ours_v, theirs_v))
    return out


def _went_on(s: GameState, engine_phase: str) -> bool:
    """Whether ``engine_phase`` is the phase our engine reaches from the chance node ``s`` once the
    discard pile is reshuffled (the engine went on without, or before, the reshuffle: E1)."""
    try:
        return apply(s, Reshuffle(s.discard), False).phase.name.lower() == engine_phase
    except (ValueError, IndexError):
        return False


def coin_gain(before: GameState, after: GameState, action: Action,
               view: dict[str, Any]) -> tuple[int, int] | None:
    if not isinstance(action, Harvest):
        return None
    p = action.player
    seats = view.get("players") or []
    theirs = seats[p].get("coins") if p < len(seats) else None
    if theirs is None:
        return None
    was = len(before.players[p].coins)
    return len(after.players[p].coins) - was, theirs - was


def state_rule(before: GameState, action: Action, after: GameState, keys: list[str],
               engine_phase: str | None, coin_gain: tuple[int, int] | None = None) -> str:
    """The rule behind a state that differs in ``keys`` (``hand``: other cards, ``hand order``: the
    same cards, ``fields``, ``field count``, ``coins``, ``aside``, ``face_up``, ``draw``, ``draw
    order``, ``discard``, ``phase``, ``to_move``, ``active``) after ``action`` took our engine from
    ``before`` to ``after``: named by what differs (a reshuffle's timing E1, a purchase F1, the number
    of fields S, hand order H1, when the game ends E2, its final harvests E3 but what they pay C1), else
    by the step.
    ``coin_gain`` is (ours, theirs) for the seat that harvested."""
    kind = type(action)
    ours = after.phase.name.lower()
    hand = "hand" in keys or "hand order" in keys
    if set(keys) == {"hand order"}:
        return "H1"  # the same cards in another order, whatever the step (also the last draw)
    if after.phase == Phase.OVER:
        if "phase" in keys and engine_phase != "over":
            return "E2"
        if {"hand", "draw", "draw order"} & set(keys):
            return "E2"  # when it ends: the draws
        # E3: every field harvested at the end, C1 applies: with the fields alike, only the pay differs
        return "C1" if set(keys) <= {"coins", "discard"} else "E3"
    if engine_phase == "over":
        return "E2"
    if engine_phase == "chance" and ours != "chance":
        return "E2" if after.final else "E1"  # a reshuffle where the final exhaustion ends the game
    if ours == "chance" and "phase" in keys and engine_phase is not None and _went_on(after, engine_phase):
        return "E1"  # the engine went on as if the pile were reshuffled: when it is reshuffled
    if kind is Reshuffle:
        return "E1"
    if kind is BuyField:
        return "F1"  # the price, the coins that pay, the field bought
    if "field count" in keys:
        return "S"  # fields from the start (S, S1), none bought on this step
    if isinstance(action, (Harvest, FieldHarvest)):
        if "coins" in keys and coin_gain is not None:
            ours_gain, theirs_gain = coin_gain
            f = before.players[action.player].fields[action.field]
            row = before.setup.payout[f.bean]
            if theirs_gain == f.count - ours_gain and theirs_gain != row[min(f.count + 1, len(row) - 1)]:
                return "H5"  # the coins and the discarded cards swapped
            return "C1"
        return "H5"
    if kind is Accept:  # other face-up cards left the display: not the cards the deal named (T3)
        return "T4" if ("hand" in keys or "aside" in keys) and "face_up" not in keys else "T3"
    if kind is Plant and ("phase" in keys or "to_move" in keys) and before.planted >= 1:
        return "T1"
    if kind is Plant and (hand or "fields" in keys) and before.turn == after.turn:
        return "H1"
    if kind is EndPhase and before.phase == Phase.TRADE:
        if {"aside", "face_up", "discard"} & set(keys):
            return "T5"
        if after.phase == Phase.PLANT_ASIDE and "phase" in keys:
            return "T6"
    if kind is PlantAside and {"phase", "to_move", "fields", "aside"} & set(keys):
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
