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
from solvers.exact import Solution, SolveError, default_policy
from solvers.positions import in_final_pass


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
    p = s.to_move if player is None else player
    if su.duel:
        raise SolveError("solo does not apply to the bean duel (D1): use duel")
    if not in_final_pass(s):
        raise SolveError(f"a reshuffle lies ahead (exhaustion {s.exhaustions} of "
                         f"{su.final_exhaustion}): open endgames need the final pass (E2)")
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

    beans = [model.NewIntVar(-1, 11, f"b{f}_init") for f in range(3)]
    counts = [model.NewIntVar(0, total_cards, f"c{f}_init") for f in range(3)]
    for f in range(3):
        fld = pl.fields[f] if f < nf0 else None
        model.Add(beans[f] == (fld.bean if fld and fld.count else -1))
        model.Add(counts[f] == (fld.count if fld else 0))
    owned3 = model.NewBoolVar("owned3_init")
    model.Add(owned3 == (1 if nf0 == 3 else 0))
    coins = model.NewIntVar(0, 10 * total_cards, "coins_init")
    model.Add(coins == len(pl.coins))
    pos = model.NewIntVar(0, len(hand), "pos0")
    model.Add(pos == 0)
    bought = []
    events: list[dict[str, object]] = []

    def pay(bean: cp_model.IntVar, count: cp_model.IntVar, name: str) -> cp_model.IntVar:
        idx = model.NewIntVar(0, len(table) - 1, f"{name}_idx")
        model.Add(idx == (bean + 1) * width + count)
        out = model.NewIntVar(0, 4, name)
        model.AddElement(idx, table, out)
        return out

    def placement(name: str, card: object, happens: cp_model.IntVar | int) -> None:
        nonlocal beans, counts, owned3, coins
        ev: dict[str, object] = {"name": name, "card": card, "happens": happens}
        hv = [model.NewBoolVar(f"{name}_h{f}") for f in range(3)]
        if not isinstance(happens, int):  # a placement not made harvests nothing: the harvest
            for h in hv:  # can wait for the next placement, where the fields are the same
                model.AddImplication(h, happens)
        gain = []
        for f in range(3):
            own = 1 if f < nf0 else owned3
            model.AddImplication(hv[f], own) if f >= nf0 else None
            model.Add(counts[f] >= 1).OnlyEnforceIf(hv[f])
            value = pay(beans[f], counts[f], f"{name}_pay{f}")
            g = model.NewIntVar(0, 4, f"{name}_gain{f}")
            model.Add(g == value).OnlyEnforceIf(hv[f])
            model.Add(g == 0).OnlyEnforceIf(hv[f].Not())
            gain.append(g)
            # H4 (lenient): a one-card field goes only if every fuller field goes in the batch
            single = model.NewBoolVar(f"{name}_single{f}")
            model.Add(counts[f] == 1).OnlyEnforceIf(single)
            model.Add(counts[f] != 1).OnlyEnforceIf(single.Not())
            for g2 in range(3):
                if g2 != f:
                    big = model.NewBoolVar(f"{name}_big{f}{g2}")
                    model.Add(counts[g2] >= 2).OnlyEnforceIf(big)
                    model.Add(counts[g2] <= 1).OnlyEnforceIf(big.Not())
                    model.AddBoolOr([hv[f].Not(), single.Not(), big.Not(), hv[g2]])
        mid_b = [model.NewIntVar(-1, 11, f"{name}_mb{f}") for f in range(3)]
        mid_c = [model.NewIntVar(0, total_cards, f"{name}_mc{f}") for f in range(3)]
        for f in range(3):
            model.Add(mid_b[f] == -1).OnlyEnforceIf(hv[f])
            model.Add(mid_c[f] == 0).OnlyEnforceIf(hv[f])
            model.Add(mid_b[f] == beans[f]).OnlyEnforceIf(hv[f].Not())
            model.Add(mid_c[f] == counts[f]).OnlyEnforceIf(hv[f].Not())
        coins_mid = model.NewIntVar(0, 10 * total_cards, f"{name}_coins_mid")
        model.Add(coins_mid == coins + sum(gain))
        buy = model.NewBoolVar(f"{name}_buy")
        if not isinstance(happens, int):
            model.AddImplication(buy, happens)
        if can_buy:
            cost = su.third_cost or 0
            model.AddImplication(buy, owned3.Not())
            model.Add(coins_mid >= cost).OnlyEnforceIf(buy)
            new_owned = model.NewBoolVar(f"{name}_owned3")
            model.AddBoolOr([owned3, buy]).OnlyEnforceIf(new_owned)
            model.AddImplication(owned3, new_owned)
            model.AddImplication(buy, new_owned)
            model.AddBoolAnd([owned3.Not(), buy.Not()]).OnlyEnforceIf(new_owned.Not())
            coins_after = model.NewIntVar(0, 10 * total_cards, f"{name}_coins")
            model.Add(coins_after == coins_mid - cost * buy)
            bought.append(buy)
        else:
            model.Add(buy == 0)
            new_owned = owned3
            coins_after = coins_mid
        x = [model.NewBoolVar(f"{name}_x{f}") for f in range(3)]
        model.Add(sum(x) == happens)
        nb = [model.NewIntVar(-1, 11, f"{name}_b{f}") for f in range(3)]
        nc = [model.NewIntVar(0, total_cards, f"{name}_c{f}") for f in range(3)]
        for f in range(3):
            if f >= nf0:
                model.AddImplication(x[f], new_owned)
            fits = model.NewBoolVar(f"{name}_fits{f}")  # H3: empty, or the card's own type
            model.Add(mid_c[f] == 0).OnlyEnforceIf([x[f], fits.Not()])
            model.Add(mid_b[f] == card).OnlyEnforceIf([x[f], fits])  # type: ignore[arg-type]
            model.Add(nb[f] == card).OnlyEnforceIf(x[f])  # type: ignore[arg-type]
            model.Add(nc[f] == mid_c[f] + 1).OnlyEnforceIf(x[f])
            model.Add(nb[f] == mid_b[f]).OnlyEnforceIf(x[f].Not())
            model.Add(nc[f] == mid_c[f]).OnlyEnforceIf(x[f].Not())
        ev.update(hv=hv, buy=buy, x=x)
        events.append(ev)
        beans, counts, owned3, coins = nb, nc, new_owned, coins_after

    for k, turn in enumerate(stream.turns):
        n = turn.hand_available
        # T1: the first planting is forced while the hand holds a card; the second is optional
        first = model.NewBoolVar(f"t{k}_first")
        model.Add(pos < n).OnlyEnforceIf(first)
        model.Add(pos >= n).OnlyEnforceIf(first.Not())
        second = model.NewBoolVar(f"t{k}_second")
        model.AddImplication(second, first)
        model.Add(pos + 1 < n).OnlyEnforceIf(second)
        for j, flag in enumerate((first, second)):
            card = model.NewIntVar(-1, 11, f"t{k}_hand{j}")
            at = model.NewIntVar(0, max(len(hand) - 1, 0), f"t{k}_at{j}")
            model.Add(at == pos + j).OnlyEnforceIf(flag)
            model.Add(at == 0).OnlyEnforceIf(flag.Not())
            model.AddElement(at, hand or [-1], card)
            placement(f"t{k}_p{j}", card, flag)
        nxt = model.NewIntVar(0, len(hand), f"pos{k + 1}")
        model.Add(nxt == pos + first + second)
        pos = nxt
        ups = list(turn.face_up)
        if len(ups) == 2 and ups[0] != ups[1]:  # T6: in either order
            swap = model.NewBoolVar(f"t{k}_swap")
            for j in range(2):
                card = model.NewIntVar(-1, 11, f"t{k}_up{j}")
                model.Add(card == ups[j]).OnlyEnforceIf(swap.Not())
                model.Add(card == ups[1 - j]).OnlyEnforceIf(swap)
                placement(f"t{k}_u{j}", card, 1)
                events[-1]["swap"] = swap
        else:
            for j, b in enumerate(ups):
                placement(f"t{k}_u{j}", b, 1)
    final = [pay(beans[f], counts[f], f"final{f}") for f in range(3)]  # E3
    objective = model.NewIntVar(0, 10 * total_cards, "objective")
    model.Add(objective == coins + sum(final))
    model.Maximize(objective)

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolveError(f"CP-SAT found no solution ({solver.StatusName(status)})")
    value = int(solver.Value(objective))
    plan = [{"harvest": [f for f in range(3) if solver.Value(ev["hv"][f])],  # type: ignore[index]
             "buy": bool(solver.Value(ev["buy"])),  # type: ignore[arg-type]
             "field": next((f for f in range(3) if solver.Value(ev["x"][f])), None),  # type: ignore[index]
             "card": int(solver.Value(ev["card"])) if not isinstance(ev["card"], int) else ev["card"]}
            for ev in events]
    line, end = _replay(s, p, plan)
    coins_end = [len(q.coins) for q in end.players]
    if coins_end[p] != value:
        raise SolveError(f"the CP-SAT plan replays to {coins_end[p]} coins, not its value {value}")
    return Solution("solo", p, value, line, coins_end,
                    status="optimal" if status == cp_model.OPTIMAL else "feasible",
                    stats={"seconds": time.perf_counter() - t0, "bound": solver.BestObjectiveBound(),
                           "branches": solver.NumBranches()})


def _replay(s: GameState, p: int, plan: list[dict[str, object]]) -> tuple[list[Action], GameState]:
    """Play the model's placements through the engine (checked), the other seats by default."""
    line: list[Action] = []
    steps = iter(plan)
    pending: dict[str, object] | None = None
    while s.phase != Phase.OVER:
        if s.to_move != p:
            a = default_policy(s)
        elif s.phase == Phase.TRADE:
            a = EndPhase(p)
        else:
            if pending is None:
                pending = next(steps, None)
                while pending is not None and pending["field"] is None:  # a planting not taken
                    if s.phase == Phase.PLANT and s.planted >= 1:
                        break
                    pending = next(steps, None)
            if pending is None or pending["field"] is None:
                a = EndPhase(p)
                pending = None
            elif pending["harvest"]:
                f = pending["harvest"][0]  # type: ignore[index]
                # the fuller fields first: H4 lets a single go only once they are gone
                order = sorted(pending["harvest"], key=lambda g: -s.players[p].fields[g].count)  # type: ignore[arg-type, union-attr]
                f = order[0]
                pending["harvest"] = [g for g in order if g != f]
                a = Harvest(p, f)
            elif pending["buy"]:
                pending["buy"] = False
                a = BuyField(p)
            else:
                f = int(pending["field"])  # type: ignore[call-overload]
                a = Plant(p, f) if s.phase == Phase.PLANT else PlantAside(p, int(pending["card"]), f)  # type: ignore[call-overload]
                pending = None
        line.append(a)
        s = apply(s, a)
    return line, s
