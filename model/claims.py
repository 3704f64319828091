"""An engine's claimed state (the driver protocol's ``state`` reply, docs/engine-protocol.md)
compared with ours, and the rule of the step that made them differ (RULES.md IDs).

A record line may carry such a claim (``claims``, docs/records.md): the state the writer's engine
was in after the line. The referee flags a claim the rules contradict as an illegal step with the
rule ``state_rule`` names, so a reproducer shows a divergence of state (coins, piles, the phase) on
the line that made it; scripts/diff_engine.py compares its engine's replies the same way.
"""

from __future__ import annotations

from typing import Any

from model.actions import Accept, Action, EndPhase, Harvest, HarvestOnto, Plant, PlantAside, Reshuffle
from model.cards import BEAN_NAMES
from model.state import GameState, Phase


def _names(cards: tuple[int, ...]) -> list[str]:
    return [BEAN_NAMES[c] for c in cards]


def compare_state(s: GameState, view: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """(part, ours, theirs) for every part the engine's view gives and ours differs in. Hands in
    order (``hand order``: the same cards in another order), face-up and set-aside cards as
    multisets, coins as counts, piles as counts or (given as lists) their cards."""
    out: list[tuple[str, Any, Any]] = []
    seats = view.get("players")
    if seats is not None:
        if len(seats) != len(s.players):
            return [("players", len(s.players), len(seats))]
        for p, (pl, v) in enumerate(zip(s.players, seats, strict=True)):
            hand = _names(pl.hand)
            if v.get("hand") is not None and v["hand"] != hand:
                part = "hand order" if sorted(v["hand"]) == sorted(hand) else "hand"
                out.append((part, f"p{p} {hand}", f"p{p} {v['hand']}"))
            fields = [[BEAN_NAMES[f.bean], f.count] if f.count else None for f in pl.fields]
            theirs = v.get("fields")
            if theirs is not None and [list(f) if f else None for f in theirs] != fields:
                out.append(("fields", f"p{p} {fields}", f"p{p} {theirs}"))
            if v.get("coins") is not None and v["coins"] != len(pl.coins):
                out.append(("coins", f"p{p} {len(pl.coins)}", f"p{p} {v['coins']}"))
            if v.get("aside") is not None and sorted(v["aside"]) != sorted(_names(pl.aside)):
                out.append(("aside", f"p{p} {_names(pl.aside)}", f"p{p} {v['aside']}"))
    if view.get("face_up") is not None and sorted(view["face_up"]) != sorted(_names(s.face_up)):
        out.append(("face_up", _names(s.face_up), view["face_up"]))
    for part, pile, ordered in (("draw", s.draw, True), ("discard", s.discard, False)):
        theirs = view.get(part)
        if isinstance(theirs, int):
            if theirs != len(pile):
                out.append((part, len(pile), theirs))
        elif theirs is not None:
            ours = _names(pile)
            if (theirs != ours) if ordered else (sorted(theirs) != sorted(ours)):
                out.append((part, f"{len(ours)} cards", f"{len(theirs)} cards, other cards"))
    phase = s.phase.name.lower()
    for part, ours_v in (("phase", phase), ("to_move", s.to_move), ("active", s.active)):
        theirs_v = view.get(part)
        if isinstance(theirs_v, list) and part == "to_move" and theirs_v == [ours_v]:
            continue  # the seats that may act: only ours
        if theirs_v is not None and theirs_v != ours_v:
            out.append((part, ours_v, theirs_v))
    return out


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
