"""La Isla Bohnita CP-SAT ``solo``: the fixed timeline (P's cards, the turns left, the piles) and
the island rows' reachable states (I2, I4), read before the model is built."""

from __future__ import annotations

from dataclasses import dataclass

from model import (
    GameState,
    Phase,
    apply,
)
from solvers.contract import RESHUFFLE_AHEAD, SolveError
from solvers.isla.exact import isla_policy

NO_BEAN = -1


@dataclass
class TurnInfo:
    """One turn of the timeline: its active seat, P's hand cards by its start, the face-up cards
    of P's turn, and the draw pile left after its draw (-1: the game ended in it)."""

    active: int
    turn: int
    hand_available: int = 0
    face_up: tuple[int, ...] = ()
    left: int = -1
    pile: int = 0  # the draw pile when the turn is first seen
    drawn: int = 0  # the cards P draws in it


def read_timeline(s: GameState, p: int) -> tuple[tuple[int, ...], list[TurnInfo]]:
    """P's hand now and every card P draws, in order (H1), and the turns left, read by playing
    ``isla_policy`` for every seat: it never sails, so no row empties and nothing changes the
    cards to come (attacks and sales move cargo, and the final pass never reshuffles, E2)."""
    hand = s.players[p].hand
    turns: list[TurnInfo] = []
    t = s
    while t.phase != Phase.OVER:
        if t.phase == Phase.CHANCE:
            raise SolveError(RESHUFFLE_AHEAD)
        if not turns or turns[-1].turn != t.turn:
            # the pile before this turn's turn-up (an empty hand skips phase 1 into it, T1)
            up = len(t.face_up) if t.phase == Phase.TRADE else 0
            turns.append(TurnInfo(t.active, t.turn, len(hand), pile=len(t.draw) + up))
        if t.active == p and t.phase == Phase.TRADE and not turns[-1].face_up:
            turns[-1].face_up = t.face_up  # all P's to plant (T5)
        before = t
        t = apply(t, isla_policy(t), check=False)
        if len(t.draw) < len(before.draw):
            got = len(t.players[p].hand) - len(before.players[p].hand)
            if got > 0:
                hand += t.players[p].hand[-got:]  # drawn to the back (H1)
                turns[-1].drawn += got
    for k, info in enumerate(turns):  # the pile after the turn's draw, if the game goes on (I2)
        if k + 1 < len(turns):
            info.left = info.pile - len(info.face_up) - info.drawn if info.active == p else turns[k + 1].pile
    return hand, turns


def row_states(row: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[tuple[int, int, int, int, int]]]:
    """I4: the rows reachable from ``row`` (as the indices of the cards left) and the table of
    (sailing, state, take, state after, front bean): sailing there loads the front card and
    ``take - 1`` more of its type, the first ones in row order; an empty row loads nothing;
    not sailing (0) changes nothing (front -2)."""
    start = tuple(range(len(row)))
    seen = {start: 0}
    order = [start]
    table: list[tuple[int, int, int, int, int]] = []
    k = 0
    while k < len(order):
        st = order[k]
        table.append((0, k, 0, k, -2))
        if not st:
            table.append((1, k, 0, k, NO_BEAN))
        else:
            b = row[st[0]]
            same = [j for j in st if row[j] == b]
            for take in range(1, len(same) + 1):
                nxt = tuple(j for j in st if j not in same[:take])
                if nxt not in seen:
                    seen[nxt] = len(order)
                    order.append(nxt)
                table.append((1, k, take, seen[nxt], b))
        k += 1
    return order, table

