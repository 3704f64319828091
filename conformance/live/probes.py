"""Probes: the canonical breakages of each rule, offered to another engine where ours refuses them.

The same breakages as the illegal records of ``conformance/mutations.py`` and the mutant catalog
(proofs/mutants.py), built for the state at hand: a third planting (T1), a planting out of turn
(T1), ending phase 1 unplanted (T1), a card on a field of another type (H3), a protected single
harvested (H4), an empty field harvested (H5), a deal between two non-active players (T3), a
proposal while one is pending (T3), an answer with the wrong bean (T3), a received card offered
again (T4), a set-aside card planted out of turn or that is not set aside (T6), phase 3 ended early
(T6), a field bought without the coins or where none is sold (F1), a seat that does not exist (S),
a reshuffle that is not due (E1), an action after the end (E2), a second planting on the first's
field (V2), trading and off-turn harvests in the duel (D1), ending the duel's step 1 early (D2);
and a harvest by a seat not to move outside the duels (H6 allows it; a protocol choice,
conformance/live/protocol.py).
Each probe is kept only if our engine refuses it; the rule is the one our engine names.
"""

from __future__ import annotations

from model import (
    Accept,
    Action,
    BuyField,
    EndPhase,
    GameState,
    Harvest,
    IllegalAction,
    Phase,
    Plant,
    PlantAside,
    Propose,
    Reshuffle,
    apply,
)
from model.core import fits


def _candidates(s: GameState) -> list[Action]:
    n = len(s.players)
    a = s.active
    out: list[Action] = []
    if s.phase == Phase.OVER:
        return [Plant(a, 0)]
    p = s.to_move
    if p < 0:
        return []
    pl = s.players[p]
    others = [q for q in range(n) if q != a]
    duel = s.setup.duel
    if s.phase == Phase.PLANT and not duel:
        out.append(Plant(others[0], 0))
        if s.planted == 0:
            out.append(EndPhase(a))
        if pl.hand:
            out += [Plant(p, i) for i, f in enumerate(pl.fields) if f.count and f.bean != pl.hand[0]][:1]
            if s.setup.rules.distinct_fields and s.planted == 1:
                out.append(Plant(p, s.first_field))
    if s.phase == Phase.TRADE and s.pending is None and not duel:
        if s.planted == 2 and pl.hand:
            home = next((i for i, f in enumerate(pl.fields) if fits(f, pl.hand[0])), 0)
            out.append(Plant(a, home))
        if n >= 3 and s.players[others[0]].hand:
            out.append(Propose(others[0], others[1], (0,), (), ()))
        if pl.aside:
            out.append(Propose(a, others[0], (), (), (), (0,)))
    if s.pending is not None and not duel:
        q = s.pending.partner
        rest = [r for r in others if r != q]
        if rest:
            out.append(Propose(a, rest[0], (), (), (s.setup.beans[0],)))
        hand = s.players[q].hand
        wrong = next((h for h, c in enumerate(hand) if c not in s.pending.ask), None)
        if s.pending.ask and wrong is not None:
            out.append(Accept(q, (wrong,)))
    if s.phase == Phase.PLANT_ASIDE:
        other = next(q for q in range(n) if q != p)
        out.append(PlantAside(other, pl.aside[0], 0))
        missing = next((b for b in s.setup.beans if b not in pl.aside), None)
        if missing is not None:
            out.append(PlantAside(p, missing, 0))
        out.append(EndPhase(p))
    counts = [f.count for f in pl.fields]
    if 1 in counts and max(counts) > 1:
        out.append(Harvest(p, counts.index(1)))
    if 0 in counts:
        out.append(Harvest(p, counts.index(0)))
    out.append(BuyField(p))
    out.append(Plant(n, 0))
    if not duel:  # a harvest by a seat not to move: H6 allows it, our protocol offers it to the mover
        out += [Harvest(q, i) for q in range(n) if q != p
                for i, f in enumerate(s.players[q].fields) if f.count > 1][:1]
    if s.discard:
        out.append(Reshuffle(s.discard))
    if duel:
        q = 1 - a
        out += [Harvest(q, i) for i, f in enumerate(s.players[q].fields) if f.count > 1][:1]
        if s.phase in (Phase.TURNED, Phase.OFFER) and s.face_up:
            out.append(Propose(a, q, (), (0,), ()))
        if s.phase == Phase.OFFER:
            out.append(EndPhase(a))
    return out


def probes(s: GameState) -> list[tuple[Action, str]]:
    """(action, rule) for each canonical breakage our engine refuses at ``s``."""
    out: list[tuple[Action, str]] = []
    seen: set[Action] = set()
    for action in _candidates(s):
        if action in seen:
            continue
        seen.add(action)
        try:
            apply(s, action)
        except IllegalAction as e:
            out.append((action, e.rule))
        except (IndexError, ValueError):
            continue
    return out
