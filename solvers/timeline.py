"""The final pass as a fixed timeline, and hand cards by identity: what the CP-SAT models of
``coop`` and ``best`` (solvers/cpsat_deals.py, the card-level model, and the flow solver,
solvers/flow/) both read from a position and both use to replay their plans through the engine.

In the final pass nothing anyone decides changes which cards enter play when: each turn turns up
a known number of known cards (T2) and deals a known number to known seats (T7, V4), so the
timeline (active seat, face-up cards, draws per turn) is read by playing every seat's default
policy. A hand card is known by identity (``Card``: its seat, bean, the turn it arrives, its place
in the arrival order, H1); a ``Deal`` is what the active seat and one partner exchange in a turn
(T3), and ``deal_proposals``/``play_deal`` turn planned exchanges into the engine's proposals and
acceptances. Imports ``model`` and the solvers' contract and default policy only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from model import Accept, Action, GameState, Phase, Propose, apply
from solvers.contract import RESHUFFLE_AHEAD, SolveError
from solvers.exact import default_policy


@dataclass
class TurnPlan:
    """One turn of the timeline: who is active, the cards turned up (T2), the draws after it."""

    active: int
    face_up: tuple[int, ...]
    draws: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # (seat, cards) (T7)


@dataclass(frozen=True)
class Card:
    """A hand card by identity: its seat, bean, and the first turn (index) it is in hand."""

    seat: int
    bean: int
    since: int
    index: int  # position in the seat's arrival order (H1)


def timeline(s: GameState) -> list[TurnPlan]:
    """The turns left, read by playing every seat's default policy (nothing decided changes it)."""
    turns: list[TurnPlan] = []
    t = s
    while t.phase != Phase.OVER:
        if t.phase == Phase.CHANCE:
            raise SolveError(RESHUFFLE_AHEAD)
        if not turns or t.turn - s.turn >= len(turns):
            turns.append(TurnPlan(t.active, ()))
        if t.phase == Phase.TRADE and not turns[-1].face_up:
            turns[-1].face_up = t.face_up
        before = t
        t = apply(t, default_policy(t), check=False)
        for q, (p0, p1) in enumerate(zip(before.players, t.players, strict=True)):
            got = len(p1.hand) - len(p0.hand)
            if got > 0 and len(t.draw) < len(before.draw):
                turns[before.turn - s.turn].draws.append((q, p1.hand[-got:]))  # to the back (H1)
    return turns


def hand_cards(s: GameState, turns: list[TurnPlan]) -> list[list[Card]]:
    """Each seat's hand cards now and to come, in hand order (H1)."""
    out = [[Card(q, b, 0, i) for i, b in enumerate(p.hand)] for q, p in enumerate(s.players)]
    for k, turn in enumerate(turns):
        for q, cards in turn.draws:
            out[q] += [Card(q, b, k + 1, len(out[q]) + j) for j, b in enumerate(cards)]
    return out


@dataclass
class Deal:
    """What the active seat and one partner exchange in one turn."""

    partner: int
    give: list[Card]  # the active seat's hand cards
    up: list[int]  # face-up beans
    back: list[Card]  # the partner's hand cards


def track_draws(before: GameState, after: GameState, ids: list[list[Card]],
                arrivals: list[Iterator[Card]]) -> None:
    """Cards drawn by an action join the back of their hand by identity, in draw order (T7, H1)."""
    for q, (p0, p1) in enumerate(zip(before.players, after.players, strict=True)):
        got = len(p1.hand) - len(p0.hand)
        if got > 0 and len(after.draw) < len(before.draw):
            ids[q] += [next(arrivals[q]) for _ in range(got)]


def play_deal(prop: Propose, deals: list[Deal], ids: list[list[Card]],
              act: Callable[[Action], None]) -> None:
    """One proposal of a planned exchange and its acceptance (T3), the partner giving the next
    cards the plan has it give; hand cards are followed by identity (H1)."""
    a, r = prop.player, prop.partner
    give = [ids[a][h] for h in prop.give_hand]
    take = [c for d in deals if d.partner == r for c in d.back][:len(prop.ask)]
    for d in deals:
        if d.partner == r:
            d.back = d.back[len(take):]
    act(prop)
    answer = Accept(r, tuple(sorted(ids[r].index(c) for c in take)))
    for c in give:  # the identities move with the deal, before ``act`` compares them (H1)
        ids[a].remove(c)
    for c in take:
        ids[r].remove(c)
    act(answer)


def deal_proposals(deals: list[Deal], k_cards: int, a: int, ids: list[list[Card]],
                  s: GameState) -> list[Action]:
    """The proposals that make each exchange, at most ``k_cards`` cards a side each (T3), partners
    in seat order. Hand positions are those at the moment of each proposal (H1)."""
    out: list[Action] = []
    hand = list(ids[a])
    face = list(s.face_up)
    for d in sorted(deals, key=lambda d: d.partner):
        mine: list[tuple[str, Any]] = [("h", c) for c in d.give] + [("u", b) for b in d.up]
        count = max(math.ceil(len(mine) / k_cards), math.ceil(len(d.back) / k_cards))
        for i in range(count):
            chunk = mine[i * k_cards:(i + 1) * k_cards]
            hs = tuple(sorted(hand.index(c) for kind, c in chunk if kind == "h"))
            us: list[int] = []
            for kind, b in chunk:
                if kind == "u":
                    us.append(next(j for j, x in enumerate(face) if x == b and j not in us))
            ask = tuple(sorted(c.bean for c in d.back[i * k_cards:(i + 1) * k_cards]))
            out.append(Propose(a, d.partner, hs, tuple(sorted(us)), ask))
            hand = [c for j, c in enumerate(hand) if j not in hs]
            face = [b for j, b in enumerate(face) if j not in us]
    return out
