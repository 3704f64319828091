"""The CP-SAT (OR-Tools) model of ``solo P``, from the start of a turn (coop and best with deals:
solvers/cpsat_deals.py; one seat's fields: solvers/cpsat_fields.py).

The model is written from the rules, not from the engine's code; the engine is used only to
read P's card stream (which cards reach P, and when: with no trades, nothing anyone decides
changes it) and to replay the answer.

``solo`` model, time-indexed by P's placements: each of P's turns has up to two hand plantings
(T1: the first is forced while the hand is not empty, the second optional; cards from the front
of the hand, H1) and the turned-up cards (T5-T6: without trades they are all P's to plant, in
an order the model picks). Before each placement a batch of harvests (H5, C1; H4 lenient: a
one-card field goes only if every other field holding more goes in the same batch first) and
the purchase of a third field (F1). At the end every field is harvested (E3).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from console.progress import ProgressFn
from model import Action, BuyField, EndPhase, GameState, Harvest, Phase, Plant, PlantAside, apply
from solvers.contract import (
    DEFAULT_LIMITS,
    RESHUFFLE_AHEAD,
    SOLO,
    Limits,
    Objective,
    Solution,
    SolveError,
    Status,
    calls,
)
from solvers.cpsat_fields import Seat, Step, read_step
from solvers.cpsat_lazy import cp_model
from solvers.cpsat_run import Tick, reporting, run_model
from solvers.exact import default_policy, open_player


@dataclass
class Turn:
    """One of P's turns: the hand cards available at its start, the cards turned up."""

    hand_available: int
    face_up: tuple[int, ...]
    turn: int


@dataclass
class Stream:
    hand: tuple[int, ...]  # P's hand now, then every card P will draw, in order
    turns: list[Turn] = field(default_factory=list)


def card_stream(s: GameState, p: int) -> Stream:
    """P's future cards (P's own choices cannot change them in ``solo``: a fixed number of cards
    is taken each turn from a known pile); read by playing the default policy for every seat.

    P's face-up cards are read from the trading phase of P's turn (T2 done, nothing traded in
    ``solo``), not from the action that turned them up: with an empty hand P's phase 1 is
    skipped (T1), and the previous seat's last action (its draw, T7) also turns up P's cards."""
    stream = Stream(s.players[p].hand)
    t = s
    while t.phase != Phase.OVER:
        if t.phase == Phase.CHANCE:
            raise SolveError(RESHUFFLE_AHEAD)
        if t.active == p:
            if not stream.turns or stream.turns[-1].turn != t.turn:
                stream.turns.append(Turn(len(stream.hand), (), t.turn))
            if t.phase == Phase.TRADE and not stream.turns[-1].face_up:
                stream.turns[-1].face_up = t.face_up  # all P's to plant (T5)
        before = t
        t = apply(t, default_policy(t), check=False)
        if len(t.draw) < len(before.draw):
            got = len(t.players[p].hand) - len(before.players[p].hand)
            if got > 0:
                stream.hand += t.players[p].hand[-got:]  # drawn to the back (H1)
    return stream


def _turn_start(s: GameState) -> bool:
    """Phase 1 with nothing planted, or phase 2 with no offer open when the active seat's empty
    hand skipped phase 1 (T1: the engine then starts the turn in trading, its cards turned up)."""
    if s.phase == Phase.PLANT:
        return s.planted == 0
    return (s.phase == Phase.TRADE and s.planted == 0 and not s.players[s.active].hand
            and s.pending is None)


def solve_solo_cpsat(s: GameState, player: int | None = None, limits: Limits = DEFAULT_LIMITS,
                     tick: Tick | None = None) -> Solution:
    """The optimal ``solo`` value by CP-SAT within ``limits.time`` seconds on ``limits.workers``
    workers, with the line replayed through the engine."""
    time_limit, workers = limits.time, limits.workers
    su = s.setup
    p = open_player(s, SOLO, player)
    if not _turn_start(s) or any(pl.aside for pl in s.players):
        raise SolveError("the CP-SAT solo model starts at the start of a turn (phase 1, nothing planted; "
                         "phase 2, nothing traded, when an empty hand skips phase 1, T1)")
    if su.strict_harvest or su.rules.distinct_fields or su.rules.field_beans:
        raise SolveError("the CP-SAT solo model covers H4's lenient reading without V2/V5 so far")
    t0 = time.perf_counter()
    stream = card_stream(s, p)
    model = cp_model.CpModel()
    beans = set(stream.hand) | {b for tn in stream.turns for b in tn.face_up}
    seat = Seat(model, s.players[p], su, f"p{p}", beans)
    hand = list(stream.hand)
    pos = model.new_int_var(0, len(hand), "pos0")
    model.add(pos == 0)

    for k, turn in enumerate(stream.turns):
        n = turn.hand_available
        # T1: the first planting is forced while the hand holds a card; the second is optional
        first = model.new_bool_var(f"t{k}_first")
        model.add(pos < n).only_enforce_if(first)
        model.add(pos >= n).only_enforce_if(first.negated())
        second = model.new_bool_var(f"t{k}_second")
        model.add_implication(second, first)
        model.add(pos + 1 < n).only_enforce_if(second)
        for j, flag in enumerate((first, second)):
            card = model.new_int_var(-1, 11, f"t{k}_hand{j}")
            at = model.new_int_var(0, max(len(hand) - 1, 0), f"t{k}_at{j}")
            model.add(at == pos + j).only_enforce_if(flag)
            model.add(at == 0).only_enforce_if(flag.negated())
            model.add_element(at, hand or [-1], card)
            seat.place(f"t{k}_p{j}", card, flag)
        nxt = model.new_int_var(0, len(hand), f"pos{k + 1}")
        model.add(nxt == pos + first + second)
        pos = nxt
        ups = list(turn.face_up)
        if len(ups) == 2 and ups[0] != ups[1]:  # T6: in either order
            swap = model.new_bool_var(f"t{k}_swap")
            for j in range(2):
                card = model.new_int_var(-1, 11, f"t{k}_up{j}")
                model.add(card == ups[j]).only_enforce_if(swap.negated())
                model.add(card == ups[1 - j]).only_enforce_if(swap)
                seat.place(f"t{k}_u{j}", card, 1)
        else:
            for j, b in enumerate(ups):
                seat.place(f"t{k}_u{j}", b, 1)
    objective = seat.final()
    model.maximize(objective)

    run = run_model(model, time_limit, workers, tick)
    solver = run.solver
    value = int(solver.value(objective))
    plan = [read_step(solver, ev) for ev in seat.events]
    line, end = _replay(s, p, plan)
    coins_end = [len(q.coins) for q in end.players]
    if coins_end[p] != value:
        raise SolveError(f"the CP-SAT plan replays to {coins_end[p]} coins, not its value {value}")
    return Solution(SOLO, p, value, line, coins_end, status=Status(run.status), stats=run.stats(t0))


def _replay(s: GameState, p: int, plan: list[Step]) -> tuple[list[Action], GameState]:
    """Play the model's placements through the engine (checked), the other seats by default."""
    line: list[Action] = []
    steps = iter(plan)
    step: Step | None = None
    while s.phase != Phase.OVER:
        a: Action
        if s.to_move != p:
            a = default_policy(s)
        elif s.phase == Phase.TRADE:
            a = EndPhase(p)
        else:
            if step is None:
                step = next(steps, None)
                while step is not None and step.field is None:  # a planting not made
                    if s.phase == Phase.PLANT and s.planted >= 1:
                        break
                    step = next(steps, None)
            if step is None or step.field is None:
                a, step = EndPhase(p), None
            elif step.harvest:
                # the fuller fields first: H4 lets a single go only once they are gone
                fields = s.players[p].fields
                f = max(step.harvest, key=lambda g: fields[g].count)
                step.harvest.remove(f)
                a = Harvest(p, f)
            elif step.buy:
                step.buy = False
                a = BuyField(p)
            else:
                a = Plant(p, step.field) if s.phase == Phase.PLANT else PlantAside(p, step.card, step.field)
                step = None
        line.append(a)
        s = apply(s, a)
    return line, s


@calls(solve_solo_cpsat)
def solve(s: GameState, objective: Objective, player: int | None, limits: Limits,
          progress: ProgressFn | None) -> Solution:
    """``solve_solo_cpsat`` behind the one solver signature (``solvers.contract.Solver``; ``solo``)."""
    with reporting(progress, limits.time, "CP-SAT solo") as tick:
        return solve_solo_cpsat(s, player, limits, tick)
