"""CP-SAT (OR-Tools) models of open endgames. So far: ``solo P`` from the start of a turn.

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

from ortools.sat.python import cp_model

from model import Action, BuyField, EndPhase, GameState, Harvest, Phase, Plant, PlantAside, apply
from solvers.exact import Solution, SolveError, default_policy, open_player


@dataclass
class Turn:
    """One of P's turns: the hand cards available at its start, the cards turned up."""

    hand_available: int
    face_up: tuple[int, ...]
    turn: int


@dataclass
class Event:
    """One placement in the model: its harvest batch, purchase and field choice (CP-SAT literals)."""

    card: cp_model.IntVar | int
    hv: list[cp_model.IntVar]
    buy: cp_model.IntVar
    x: list[cp_model.IntVar]


@dataclass
class Step:
    """One placement of the solution: fields harvested before it, a purchase, where it goes."""

    harvest: list[int]
    buy: bool
    field: int | None  # None: this planting is not made
    card: int


@dataclass
class Stream:
    hand: tuple[int, ...]  # P's hand now, then every card P will draw, in order
    turns: list[Turn] = field(default_factory=list)


def card_stream(s: GameState, p: int) -> Stream:
    """P's future cards (P's own choices cannot change them in ``solo``: a fixed number of cards
    is taken each turn from a known pile); read by playing the default policy for every seat."""
    stream = Stream(s.players[p].hand)
    t = s
    while t.phase != Phase.OVER:
        if t.phase == Phase.CHANCE:
            raise SolveError("a reshuffle lies ahead: open endgames need the final pass (E2)")
        if t.active == p and (not stream.turns or stream.turns[-1].turn != t.turn):
            stream.turns.append(Turn(len(stream.hand), (), t.turn))
        before = t
        t = apply(t, default_policy(t), check=False)
        if len(t.draw) < len(before.draw):
            if before.active == p and not before.face_up and t.face_up:
                stream.turns[-1].face_up = t.face_up  # turned up in P's turn: P's to plant (T5)
            got = len(t.players[p].hand) - len(before.players[p].hand)
            if got > 0:
                stream.hand += t.players[p].hand[-got:]  # drawn to the back (H1)
    return stream


def solve_solo_cpsat(s: GameState, player: int | None = None, time_limit: float = 10.0,
                     workers: int = 1) -> Solution:
    """The optimal ``solo`` value by CP-SAT, with the line replayed through the engine."""
    su = s.setup
    p = open_player(s, "solo", player)
    if not (s.phase == Phase.PLANT and s.planted == 0) or any(pl.aside for pl in s.players):
        raise SolveError("the CP-SAT solo model starts at the start of a turn (phase 1, nothing planted)")
    if su.strict_harvest or su.rules.distinct_fields or su.rules.field_beans:
        raise SolveError("the CP-SAT solo model covers H4's lenient reading without V2/V5 so far")
    t0 = time.perf_counter()
    stream = card_stream(s, p)
    model = cp_model.CpModel()
    pl = s.players[p]
    nf0 = len(pl.fields)
    can_buy = su.third_cost is not None and nf0 == 2
    total_cards = len(su.deck)
    width = max(len(r) for r in su.payout)
    table = [0] * width  # row for "empty field" (bean -1)
    for row in su.payout:
        table += [row[min(n, len(row) - 1)] for n in range(width)]
    hand = list(stream.hand)

    beans = [model.new_int_var(-1, 11, f"b{f}_init") for f in range(3)]
    counts = [model.new_int_var(0, total_cards, f"c{f}_init") for f in range(3)]
    for f in range(3):
        fld = pl.fields[f] if f < nf0 else None
        model.add(beans[f] == (fld.bean if fld and fld.count else -1))
        model.add(counts[f] == (fld.count if fld else 0))
    owned3 = model.new_bool_var("owned3_init")
    model.add(owned3 == (1 if nf0 == 3 else 0))
    coins = model.new_int_var(0, 10 * total_cards, "coins_init")
    model.add(coins == len(pl.coins))
    pos = model.new_int_var(0, len(hand), "pos0")
    model.add(pos == 0)
    events: list[Event] = []

    def pay(bean: cp_model.IntVar, count: cp_model.IntVar, name: str) -> cp_model.IntVar:
        idx = model.new_int_var(0, len(table) - 1, f"{name}_idx")
        model.add(idx == (bean + 1) * width + count)
        out = model.new_int_var(0, 4, name)
        model.add_element(idx, table, out)
        return out

    def placement(name: str, card: cp_model.IntVar | int, happens: cp_model.IntVar | int) -> None:
        nonlocal beans, counts, owned3, coins
        hv = [model.new_bool_var(f"{name}_h{f}") for f in range(3)]
        if not isinstance(happens, int):  # a placement not made harvests nothing: the harvest
            for h in hv:  # can wait for the next placement, where the fields are the same
                model.add_implication(h, happens)
        gain = []
        for f in range(3):
            if f >= nf0:  # the third field is harvested only once bought
                model.add_implication(hv[f], owned3)
            model.add(counts[f] >= 1).only_enforce_if(hv[f])
            value = pay(beans[f], counts[f], f"{name}_pay{f}")
            g = model.new_int_var(0, 4, f"{name}_gain{f}")
            model.add(g == value).only_enforce_if(hv[f])
            model.add(g == 0).only_enforce_if(hv[f].negated())
            gain.append(g)
            # H4 (lenient): a one-card field goes only if every fuller field goes in the batch
            single = model.new_bool_var(f"{name}_single{f}")
            model.add(counts[f] == 1).only_enforce_if(single)
            model.add(counts[f] != 1).only_enforce_if(single.negated())
            for g2 in range(3):
                if g2 != f:
                    big = model.new_bool_var(f"{name}_big{f}{g2}")
                    model.add(counts[g2] >= 2).only_enforce_if(big)
                    model.add(counts[g2] <= 1).only_enforce_if(big.negated())
                    model.add_bool_or([hv[f].negated(), single.negated(), big.negated(), hv[g2]])
        mid_b = [model.new_int_var(-1, 11, f"{name}_mb{f}") for f in range(3)]
        mid_c = [model.new_int_var(0, total_cards, f"{name}_mc{f}") for f in range(3)]
        for f in range(3):
            model.add(mid_b[f] == -1).only_enforce_if(hv[f])
            model.add(mid_c[f] == 0).only_enforce_if(hv[f])
            model.add(mid_b[f] == beans[f]).only_enforce_if(hv[f].negated())
            model.add(mid_c[f] == counts[f]).only_enforce_if(hv[f].negated())
        coins_mid = model.new_int_var(0, 10 * total_cards, f"{name}_coins_mid")
        model.add(coins_mid == coins + sum(gain))
        buy = model.new_bool_var(f"{name}_buy")
        if not isinstance(happens, int):
            model.add_implication(buy, happens)
        if can_buy:
            cost = su.third_cost or 0
            model.add_implication(buy, owned3.negated())
            model.add(coins_mid >= cost).only_enforce_if(buy)
            new_owned = model.new_bool_var(f"{name}_owned3")
            model.add_bool_or([owned3, buy]).only_enforce_if(new_owned)
            model.add_implication(owned3, new_owned)
            model.add_implication(buy, new_owned)
            model.add_bool_and([owned3.negated(), buy.negated()]).only_enforce_if(new_owned.negated())
            coins_after = model.new_int_var(0, 10 * total_cards, f"{name}_coins")
            model.add(coins_after == coins_mid - cost * buy)
        else:
            model.add(buy == 0)
            new_owned = owned3
            coins_after = coins_mid
        x = [model.new_bool_var(f"{name}_x{f}") for f in range(3)]
        model.add(sum(x) == happens)
        nb = [model.new_int_var(-1, 11, f"{name}_b{f}") for f in range(3)]
        nc = [model.new_int_var(0, total_cards, f"{name}_c{f}") for f in range(3)]
        for f in range(3):
            if f >= nf0:
                model.add_implication(x[f], new_owned)
            fits = model.new_bool_var(f"{name}_fits{f}")  # H3: empty, or the card's own type
            model.add(mid_c[f] == 0).only_enforce_if([x[f], fits.negated()])
            model.add(mid_b[f] == card).only_enforce_if([x[f], fits])
            model.add(nb[f] == card).only_enforce_if(x[f])
            model.add(nc[f] == mid_c[f] + 1).only_enforce_if(x[f])
            model.add(nb[f] == mid_b[f]).only_enforce_if(x[f].negated())
            model.add(nc[f] == mid_c[f]).only_enforce_if(x[f].negated())
        events.append(Event(card, hv, buy, x))
        beans, counts, owned3, coins = nb, nc, new_owned, coins_after

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
            placement(f"t{k}_p{j}", card, flag)
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
                placement(f"t{k}_u{j}", card, 1)
        else:
            for j, b in enumerate(ups):
                placement(f"t{k}_u{j}", b, 1)
    final = [pay(beans[f], counts[f], f"final{f}") for f in range(3)]  # E3
    objective = model.new_int_var(0, 10 * total_cards, "objective")
    model.add(objective == coins + sum(final))
    model.maximize(objective)

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolveError(f"CP-SAT found no solution ({solver.status_name(status)})")
    value = int(solver.value(objective))
    plan = [Step(harvest=[f for f in range(3) if solver.value(ev.hv[f])], buy=bool(solver.value(ev.buy)),
                 field=next((f for f in range(3) if solver.value(ev.x[f])), None),
                 card=ev.card if isinstance(ev.card, int) else int(solver.value(ev.card)))
            for ev in events]
    line, end = _replay(s, p, plan)
    coins_end = [len(q.coins) for q in end.players]
    if coins_end[p] != value:
        raise SolveError(f"the CP-SAT plan replays to {coins_end[p]} coins, not its value {value}")
    return Solution("solo", p, value, line, coins_end,
                    status="optimal" if status == cp_model.OPTIMAL else "feasible",
                    stats={"seconds": time.perf_counter() - t0, "bound": solver.best_objective_bound,
                           "branches": solver.num_branches})


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
