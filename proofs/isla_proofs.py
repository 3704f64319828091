"""Z3 proofs of La Isla Bohnita's invariants on the spec (proofs/isla_spec.py), its mutants, and the
engine-vs-spec check on states from simulated Isla games.

State invariants are proved by induction: Inv(S) and one step S -> S' imply each clause of Inv(S')
(UNSAT of the negation). Two-state properties are proved for every transition. Every query first
checks that its premise (Inv, the guard, the bounds) is satisfiable, and every property names the
situations it speaks about (a ship losing cargo, a field gaining a card, ...): each must be reached
by some transition (SAT), or the property counts as vacuous, not proved.

Bounds (``Caps``): a symbolic row has one slot more than a row may hold (so an overfull row is
representable and refuted, not excluded); the draw pile has ``Caps.draw`` slots. Counts on fields
and ships, coins, hands and the discard pile are unbounded integers (linear arithmetic). The active
seat is fixed to 0: no rule names an absolute seat (the turn passes from seat a to a + 1 mod n), so
by rotating seats this covers every active seat. Ship, port, field and seat arguments are
instantiated one by one; load counts, planted beans and the coins paid stay symbolic.

``python -m proofs.isla_proofs`` runs the proofs, the mutants and the differential check and prints
one line per proof (name, rule ID, result, seconds) and the differential counts; exit 0 only if
every proof holds, every mutant is refuted and the engine and spec agree everywhere.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import z3

from model import (
    Action,
    BuyField,
    GameState,
    Harvest,
    IllegalAction,
    Phase,
    Plant,
    PlantAside,
    PlantUp,
    apply,
    legal_actions,
)
from model.actions import Attack, BuyShip, HarvestOnto, MoveCargo, PlantCargo, Sail, Sell, Yield
from model.cards import BEAN_NAMES
from model.rules import ruleset, setup
from model.steps import STEPS
from proofs.isla_spec import (
    ALL_PHASES,
    ATTACK,
    BUY_FIELD,
    BUY_PIRATE,
    BUY_SHIP,
    CHANCE,
    DECISION_PHASES,
    DISCARD,
    ENDTURN,
    FINAL_SALE,
    FINISH,
    HARVEST,
    HARVEST_ONTO,
    HOME,
    M0,
    MERCHANTS,
    MOVE,
    NF,
    OVER,
    PIRATE,
    PLANT_CARGO,
    PLANT_LAND,
    PORTS,
    ROW,
    SAIL,
    SELL,
    SELL_DEFENCE,
    SHIPS,
    TRADE,
    YIELD,
    IAction,
    IPlayer,
    IslaConfig,
    IslaSpec,
    IState,
    SShip,
    Transition,
    Unsupported,
    iff,
)
from proofs.isla_spec import (
    MUTANTS as MUTANTS,
)
from proofs.symbolic import Cond, Seq, Val, all_of, any_of, implies, ite, neg, seq_var, total

# ------------------------------------------------------------------ the symbolic state


@dataclass(frozen=True)
class Caps:
    row: int = ROW + 1  # one slot more than a row may hold: an overfull row is refuted, not excluded
    draw: int = 3


def sym_state(cfg: IslaConfig, caps: Caps = Caps(), name: str = "s") -> IState:
    """A state with every field a Z3 variable (the active seat fixed to 0)."""

    def iv(x: str) -> Any:
        return z3.Int(f"{name}.{x}")

    def bv(x: str) -> Any:
        return z3.Bool(f"{name}.{x}")

    n = cfg.players
    players = []
    for p in range(n):
        ships = tuple(SShip(iv(f"p{p}.s{k}.bean"), iv(f"p{p}.s{k}.count"), iv(f"p{p}.s{k}.at"),
                            True if k == M0 else bv(f"p{p}.s{k}.owned")) for k in SHIPS)
        players.append(IPlayer(
            fb=tuple(iv(f"p{p}.fb{f}") for f in range(NF)), fc=tuple(iv(f"p{p}.fc{f}") for f in range(NF)),
            nf=iv(f"p{p}.nf"), land=tuple(iv(f"p{p}.land{b}") for b in cfg.beans),
            coins=tuple(iv(f"p{p}.coins{b}") for b in cfg.beans), ships=ships))
    return IState(
        players=tuple(players), rows=tuple(seq_var(f"{name}.row{r}", caps.row) for r in range(2)),
        draw=seq_var(f"{name}.draw", caps.draw), discard=tuple(iv(f"discard{b}") for b in cfg.beans),
        out=tuple(iv(f"out{b}") for b in cfg.beans),
        attacked=tuple(tuple(bv(f"attacked{q}.{i}") for i in MERCHANTS) for q in range(n)),
        under=tuple(tuple(bv(f"under{q}.{i}") for i in MERCHANTS) for q in range(n)),
        captured=bv("captured"), sails=iv("sails"),
        hits=tuple(tuple(iv(f"hits{q}.{i}") for i in MERCHANTS) for q in range(n)),
        active=0, to_move=iv("to_move"), phase=iv("phase"), pend=bv("pend"), final=bv("final"),
        exh=iv("exh"), todo=iv("todo"), refill=(iv("refill0"), iv("refill1")))


def bounded(s: IState) -> Cond:
    """The proofs' bound: every sequence within its capacity."""
    return all_of(*[q.in_bounds() for q in (*s.rows, s.draw)])


# ------------------------------------------------------------------ state invariants


def inv_ships(spec: IslaSpec, s: IState) -> Cond:
    """I4: a ship holds one type: count 0 iff no bean, a bean in play when loaded; a ship not yet
    bought is empty in its harbour; every ship is in a port; the pirate ship stays home (I7)."""
    parts = []
    for pl in s.players:
        for k, sh in enumerate(pl.ships):
            parts += [sh.count >= 0, iff(sh.count == 0, sh.bean == -1),
                      implies(sh.count > 0, spec.is_bean(sh.bean)),
                      implies(neg(sh.owned), all_of(sh.count == 0, sh.at == HOME)),
                      any_of(*[sh.at == port for port in PORTS])]
            if k == PIRATE:
                parts.append(sh.at == HOME)
    return all_of(*parts)


def inv_rows(spec: IslaSpec, s: IState) -> Cond:
    """I2: an island row holds at most 5 cards of beans in play; a refill deals at most up to 5."""
    parts = []
    for r, row in enumerate(s.rows):
        parts += [row.n >= 0, s.refill[r] >= 0, row.n + s.refill[r] <= ROW]
        parts += [implies(i < row.n, spec.is_bean(x)) for i, x in enumerate(row.slots)]
    return all_of(*parts)


def inv_attacked_once(spec: IslaSpec, s: IState) -> Cond:
    """I7: the ghost count of attacks on each merchant ship this turn is at most 1."""
    return all_of(*[all_of(h >= 0, h <= 1) for row in s.hits for h in row])


def inv_sold_at_end(spec: IslaSpec, s: IState) -> Cond:
    """E3 (reading for ships): when the game is over every field is harvested and every cargo sold."""
    empty = [pl.fc[f] == 0 for pl in s.players for f in range(NF)]
    empty += [sh.count == 0 for pl in s.players for sh in pl.ships]
    return implies(s.phase == OVER, all_of(*empty))


def well_formed(spec: IslaSpec, s: IState) -> Cond:
    """The auxiliary invariant that makes the named ones inductive."""
    cfg, n = spec.cfg, spec.n
    assert isinstance(s.active, int) and 0 <= s.active < n
    decision = any_of(*[s.phase == ph for ph in DECISION_PHASES])
    parts = [any_of(*[s.phase == ph for ph in ALL_PHASES]),
             implies(decision, all_of(s.to_move >= 0, s.to_move < n)),
             s.sails >= 0, s.sails <= cfg.max_sails, s.todo >= 0, s.exh >= 0,
             implies(s.phase == CHANCE, s.draw.n == 0)]  # E1: a reshuffle replaces an empty pile
    if not cfg.duel:
        parts += [s.phase != DISCARD, *[x == 0 for x in s.out]]
    parts += [x >= 0 for x in (*s.discard, *s.out)]
    parts += [implies(i < s.draw.n, spec.is_bean(x)) for i, x in enumerate(s.draw.slots)]
    for pl in s.players:  # H2 and the tallies
        parts += [pl.nf >= cfg.fields, pl.nf <= NF, *[x >= 0 for x in (*pl.land, *pl.coins)]]
        for f in range(NF):
            parts += [pl.fc[f] >= 0, iff(pl.fc[f] == 0, pl.fb[f] == -1),
                      implies(pl.fc[f] > 0, spec.is_bean(pl.fb[f])), implies(f >= pl.nf, pl.fc[f] == 0)]
    # attacks (I7): the ghost counts match the flags; never the active player's own ships; the
    # pending attack is on a loaded merchant ship at home whose cargo the active pirate can take
    raider = s.players[s.active].ships[PIRATE]
    pending = [u for row in s.under for u in row]
    for q in range(n):
        for i in MERCHANTS:
            ship = s.players[q].ships[i]
            parts.append(s.hits[q][i] == ite(s.attacked[q][i], 1, 0))
            if q == s.active:
                parts += [neg(s.attacked[q][i]), neg(s.under[q][i])]
                continue
            parts.append(implies(s.under[q][i], all_of(
                s.attacked[q][i], s.phase == TRADE, neg(s.pend), s.to_move == q, ship.owned, ship.count >= 1,
                ship.at == HOME, raider.owned, spec.fits(raider, ship.bean))))
    parts += [neg(all_of(u, v)) for j, u in enumerate(pending) for v in pending[j + 1:]]
    parts.append(implies(s.captured, raider.owned))
    parts.append(implies(all_of(s.phase == TRADE, neg(s.pend), spec.no_attack(s)), s.to_move == s.active))
    return all_of(*parts)


StateInvariant = Callable[[IslaSpec, IState], Cond]
STATE_INVARIANTS: dict[str, tuple[str, StateInvariant]] = {
    "ship-holds-one-type-I4": ("I4", inv_ships),
    "island-rows-I2": ("I2", inv_rows),
    "attacked-once-per-turn-I7": ("I7", inv_attacked_once),
    "cargo-sold-at-end-E3": ("E3", inv_sold_at_end),
    "well-formed": ("I1-I7", well_formed),
}


def inv(spec: IslaSpec, s: IState) -> Cond:
    return all_of(*[f(spec, s) for _, f in STATE_INVARIANTS.values()])


# ------------------------------------------------------------------ two-state properties

Triggers = list[tuple[str, Cond]]  # situations a property speaks about: each must be reachable


def _idx(spec: IslaSpec, b: int) -> int:
    return spec.cfg.beans.index(b)


def _ship_cards(sh: SShip, b: int) -> Val:
    return ite(sh.bean == b, sh.count, 0)


def _field_cards(pl: IPlayer, f: int, b: int) -> Val:
    return ite(pl.fb[f] == b, pl.fc[f], 0)


def _delta(pairs: list[tuple[Any, Any]], count: Callable[[Any], Val]) -> Val:
    """Gained minus lost over zones (old, new); zones a step leaves alone (the very same terms)
    are skipped, which keeps the arithmetic small."""
    return total([count(y) - count(x) for x, y in pairs if x is not y])


def _ships(s: IState) -> list[SShip]:
    return [sh for pl in s.players for sh in pl.ships]


def _island(spec: IslaSpec, s: IState, s2: IState, b: int) -> Val:
    """Cards of ``b`` gained minus lost on ships and in the rows."""
    return (_delta(list(zip(_ships(s), _ships(s2), strict=True)), lambda sh: _ship_cards(sh, b))
            + _delta(list(zip(s.rows, s2.rows, strict=True)), lambda row: row.count(b)))


def _sinks(spec: IslaSpec, s: IState, s2: IState, b: int) -> Val:
    """Cards of ``b`` gained minus lost on coin stacks, the discard pile and the duel's set-aside coins."""
    j = _idx(spec, b)
    coins = [(p.coins[j], q.coins[j]) for p, q in zip(s.players, s2.players, strict=True)]
    return _delta(coins + [(s.discard[j], s2.discard[j]), (s.out[j], s2.out[j])], lambda v: v)


def _field_gain(s: IState, s2: IState, p: int, b: int) -> Val:
    old, new = s.players[p], s2.players[p]
    return total([_field_cards(new, f, b) - _field_cards(old, f, b) for f in range(NF)
                  if old.fb[f] is not new.fb[f] or old.fc[f] is not new.fc[f]])


def _same_ship(a: SShip, b: SShip) -> Cond:
    if a is b:
        return True
    return all_of(a.count == b.count, a.bean == b.bean)


def _same_island(s: IState, s2: IState) -> Cond:
    ships = [_same_ship(a, b) for a, b in zip(_ships(s), _ships(s2), strict=True)]
    rows = [True if a is b else b.same(a) for a, b in zip(s.rows, s2.rows, strict=True)]
    return all_of(*ships, *rows)


def p_conservation(spec: IslaSpec, s: IState, a: IAction, t: Transition, s2: IState) -> tuple[Cond, Triggers]:
    """Card conservation: every step keeps the number of cards of each bean over all zones: land
    (hands, set-aside, face-up), fields, coin stacks, ships, rows, discard pile, duel set-aside coins
    and draw pile."""
    goals = []
    for b in spec.cfg.beans:
        j = _idx(spec, b)

        def land_and_fields(pl: IPlayer, j: int = j, b: int = b) -> Val:
            return pl.land[j] + total([_field_cards(pl, f, b) for f in range(NF)])

        d = _island(spec, s, s2, b) + _sinks(spec, s, s2, b) + _delta(
            list(zip(s.players, s2.players, strict=True)), land_and_fields)
        d = d + (s2.draw.count(b) - s.draw.count(b) if s.draw is not s2.draw else 0)
        goals.append(d == 0)
    return all_of(*goals), [("the island changes", neg(_same_island(s, s2)))]


def p_ship_type(spec: IslaSpec, s: IState, a: IAction, t: Transition, s2: IState) -> tuple[Cond, Triggers]:
    """I4: a ship never holds two types: a loaded ship that still holds cargo after a step holds the
    same type (a new type only after it was emptied)."""
    parts, grow = [], []
    for sh, sh2 in zip(_ships(s), _ships(s2), strict=True):
        if sh is sh2:
            continue
        parts.append(implies(all_of(sh.count > 0, sh2.count > 0), sh2.bean == sh.bean))
        grow.append(all_of(sh.count > 0, sh2.count > sh.count))
    return all_of(*parts), [("a loaded ship takes more cargo", any_of(*grow))]


def p_island(spec: IslaSpec, s: IState, a: IAction, t: Transition, s2: IState) -> tuple[Cond, Triggers]:
    """I5, I7: island beans never reach a field. For every bean b: (i) if a player's fields gain k > 0
    cards of b, that player's land (hand, set-aside, face-up) loses exactly k cards of b, and no
    ship or row changes in that step; (ii) if the ships and rows together lose k > 0 cards of b, the
    coin stacks, discard pile and set-aside coins together gain exactly k cards of b."""
    parts = []
    gains, losses = [], []
    for b in spec.cfg.beans:
        j = _idx(spec, b)
        for p in range(spec.n):
            g = _field_gain(s, s2, p, b)
            if isinstance(g, int) and g == 0:
                continue
            lost = s.players[p].land[j] - s2.players[p].land[j]
            parts.append(implies(g > 0, all_of(lost == g, _same_island(s, s2))))
            gains.append(g > 0)
        isl = _island(spec, s, s2, b)
        if isinstance(isl, int) and isl == 0:
            continue
        parts.append(implies(isl < 0, _sinks(spec, s, s2, b) == 0 - isl))
        losses.append(isl < 0)
    return all_of(*parts), [("a field gains a card", any_of(*gains)),
                            ("the island loses cards", any_of(*losses))]


def p_cargo(spec: IslaSpec, s: IState, a: IAction, t: Transition, s2: IState) -> tuple[Cond, Triggers]:
    """I6: cargo is never thrown overboard. A ship loses cards only (a) by a sale of the whole
    cargo: its owner's coins gain the beanometer's value, at least one coin except in the final
    sale at the end (E3), and the discard pile the rest; (b) by a move of the whole cargo onto
    another of its owner's merchant ships, which gains exactly those cards of that type; or (c) by a
    capture: another player's merchant ship loses one card and the active player's pirate ship
    gains it."""
    parts: list[Cond] = []
    sold_w, moved_w, taken_w = [], [], []
    raider, raider2 = s.players[s.active].ships[PIRATE], s2.players[s.active].ships[PIRATE]
    for p in range(spec.n):
        pl, pl2 = s.players[p], s2.players[p]
        for k in SHIPS:
            sh, sh2 = pl.ships[k], pl2.ships[k]
            if sh is sh2:
                continue
            b, c = sh.bean, sh.count
            pay = spec.coins_for(b, c)
            enough = True if t.kind == FINAL_SALE else pay >= 1
            sold = all_of(sh2.count == 0, spec.tally(pl2.coins, b) - spec.tally(pl.coins, b) == pay,
                          spec.tally(s2.discard, b) - spec.tally(s.discard, b) == c - pay, enough)
            moved = any_of(*[all_of(sh2.count == 0, pl2.ships[j].bean == b,
                                    pl2.ships[j].count == pl.ships[j].count + c)
                             for j in MERCHANTS if j != k])
            taken: Cond = False
            if k in MERCHANTS and p != s.active:
                taken = all_of(sh2.count == c - 1, raider2.count == raider.count + 1, raider2.bean == b)
            lose = sh2.count < c
            parts.append(implies(lose, any_of(sold, moved, taken)))
            sold_w.append(all_of(lose, sold))
            moved_w.append(all_of(lose, moved))
            taken_w.append(all_of(lose, taken))
    return all_of(*parts), [("a cargo is sold", any_of(*sold_w)), ("a cargo is moved", any_of(*moved_w)),
                            ("a card is captured", any_of(*taken_w))]


def p_pirate(spec: IslaSpec, s: IState, a: IAction, t: Transition, s2: IState) -> tuple[Cond, Triggers]:
    """I7: merchant cargo never goes onto a pirate ship and pirate cargo never onto a field. A pirate
    ship gains cards only by a capture: exactly one card, of the type another player's merchant ship
    loses in the same step, onto the active player's pirate; when a pirate ship loses cards no field
    changes."""
    parts: list[Cond] = []
    gains, losses = [], []
    fields_same = all_of(*[all_of(x.fc[f] == y.fc[f], x.fb[f] == y.fb[f])
                           for x, y in zip(s.players, s2.players, strict=True) if x is not y
                           for f in range(NF) if x.fc[f] is not y.fc[f] or x.fb[f] is not y.fb[f]])
    for p in range(spec.n):
        sh, sh2 = s.players[p].ships[PIRATE], s2.players[p].ships[PIRATE]
        if sh is sh2:
            continue
        victims = [all_of(s2.players[q].ships[i].count == s.players[q].ships[i].count - 1,
                          s.players[q].ships[i].bean == sh2.bean)
                   for q in range(spec.n) if q != p for i in MERCHANTS]
        captured = all_of(p == s.active, sh2.count == sh.count + 1, any_of(*victims))
        parts.append(implies(sh2.count > sh.count, captured))
        parts.append(implies(sh2.count < sh.count, fields_same))
        gains.append(sh2.count > sh.count)
        losses.append(sh2.count < sh.count)
    return all_of(*parts), [("a pirate ship takes a card", any_of(*gains)),
                            ("a pirate ship's cargo leaves", any_of(*losses))]


TwoState = Callable[[IslaSpec, IState, IAction, Transition, IState], tuple[Cond, Triggers]]
TWO_STATE: dict[str, tuple[str, TwoState]] = {
    "card-conservation-I1": ("I1-I7", p_conservation),
    "ship-type-kept-I4": ("I4", p_ship_type),
    "island-beans-never-planted-I5": ("I5", p_island),
    "cargo-never-overboard-I6": ("I6", p_cargo),
    "pirate-cargo-I7": ("I7", p_pirate),
}

INDUCTION_TRIGGERS: dict[str, Callable[[IState, IState], Triggers]] = {
    "attacked-once-per-turn-I7": lambda s, s2: [("an attack is made", any_of(*[
        h2 > h for r, r2 in zip(s.hits, s2.hits, strict=True) for h, h2 in zip(r, r2, strict=True)
        if h is not h2]))],
    "island-rows-I2": lambda s, s2: [("a row is refilled", any_of(*[
        r2.n > r.n for r, r2 in zip(s.rows, s2.rows, strict=True) if r is not r2]))],
    "cargo-sold-at-end-E3": lambda s, s2: [("the game ends", all_of(s.phase != OVER, s2.phase == OVER))],
}


# ------------------------------------------------------------------ running the proofs


@dataclass
class Result:
    id: str
    rule: str
    method: str
    status: str  # proved / refuted / vacuous
    seconds: float = 0.0
    per_kind: dict[str, float] = field(default_factory=dict)
    counterexample: str = ""
    witnessed: dict[str, bool] = field(default_factory=dict)


Config = tuple[str, int, dict[str, Any]]
PROOF_CONFIGS: list[Config] = [
    ("rio-grande", 3, {"isla": True}),  # 3 players: 3 fields, 6 bean types, ship 4 coins
    ("rio-grande", 3, {"isla": True, "fields": 2}),  # two fields: the third for sale (I1)
    ("rio-grande", 2, {"isla": True}),  # the Isla duel (I9): own-turn sales, paid coins set aside
]
EXTRA_CONFIGS: list[Config] = [  # also proved by ``python -m proofs.isla_proofs``
    ("rio-grande", 4, {"isla": True}),
    ("amigo", 3, {"isla": True, "harvest": "strict"}),  # H4's strict reading, the amigo deck
]
TIMEOUT_MS = 30_000  # per query; "unknown" counts as refuted


def config(name: str, players: int, options: dict[str, Any]) -> IslaConfig:
    return IslaConfig.from_setup(setup(ruleset(name, options), players))


def _solver() -> z3.Solver:
    solver = z3.SolverFor("QF_LIA")
    solver.set("timeout", TIMEOUT_MS)
    return solver


def _check(solver: z3.Solver, *extra: Any) -> Any:
    """Is the solver's premise plus ``extra`` satisfiable? (the solver is left as it was)"""
    solver.push()
    solver.add(*[z3.BoolVal(x) if isinstance(x, bool) else x for x in extra])
    out = solver.check()
    model = solver.model() if out == z3.sat else None
    solver.pop()
    return out, model


def goals(spec: IslaSpec, s: IState, a: IAction, t: Transition,
          s2: IState) -> Iterator[tuple[str, str, str, Cond, Triggers]]:
    """(property id, rule, method, goal, triggers) for one transition instance."""
    for pid, (rule, f) in STATE_INVARIANTS.items():
        trig = INDUCTION_TRIGGERS[pid](s, s2) if pid in INDUCTION_TRIGGERS else []
        yield pid, rule, "induction", f(spec, s2), trig
    for pid, (rule, g) in TWO_STATE.items():
        goal, trig = g(spec, s, a, t, s2)
        yield pid, rule, "two-state", goal, trig


def proof_instances(spec: IslaSpec) -> list[tuple[Transition, IAction]]:
    """Each transition once per concrete seat, ship, port, field and target; the load count, the
    planted bean and the coins paid symbolic."""
    take, bean = z3.Int("a.take"), z3.Int("a.bean")
    pay = tuple(z3.Int(f"a.pay{b}") for b in spec.cfg.beans)
    return [(t, a) for t in spec.transitions() for a in spec.instances(t, take, bean, pay)]


def prove(
    configs: list[Config] | None = None,
    mutant: str | None = None,
    only: set[str] | None = None,
    stop_at_first: bool = False,
    caps: Caps = Caps(),
) -> list[Result]:
    """Prove every property for every transition instance of every configuration; then that every
    transition is satisfiable somewhere and that no property holds vacuously."""
    results: dict[str, Result] = {}
    satisfiable: dict[str, bool] = {}
    premises = Result("transitions-satisfiable", "I1-I9", "sat check", "proved")
    for name, players, options in PROOF_CONFIGS if configs is None else configs:
        cfg = config(name, players, options)
        spec = IslaSpec(cfg, mutant)
        label = f"{name} {players}p" + "".join(f" {k}={v}" for k, v in options.items() if k != "isla")
        s = sym_state(cfg, caps)
        premise = all_of(inv(spec, s), bounded(s))
        for t, a in proof_instances(spec):
            guard = t.guard(s, a)
            if guard is False:
                continue
            satisfiable.setdefault(t.name, False)
            t0 = time.perf_counter()
            s2 = t.after(s, a)
            solver = _solver()
            solver.add(premise, guard, bounded(s2))
            reachable = solver.check()
            premises.seconds += time.perf_counter() - t0
            if reachable == z3.unsat:
                continue  # e.g. the active seat answering an attack on itself
            satisfiable[t.name] = satisfiable[t.name] or reachable == z3.sat
            if only is not None and only <= {premises.id}:
                continue
            for pid, rule, method, goal, triggers in goals(spec, s, a, t, s2):
                if only is not None and pid not in only:
                    continue
                r = results.setdefault(pid, Result(pid, rule, method, "proved"))
                t1 = time.perf_counter()
                for what, cond in triggers:
                    if not r.witnessed.get(what) and cond is not False:
                        r.witnessed[what] = _check(solver, cond)[0] == z3.sat
                    r.witnessed.setdefault(what, False)
                if goal is not True:
                    outcome, model = _check(solver, z3.Not(goal) if not isinstance(goal, bool) else not goal)
                    if outcome != z3.unsat and r.status == "proved":
                        r.status = "refuted"
                        r.counterexample = (f"{label}, {t.name} {_action_text(a)}: the solver answered "
                                            f"{outcome}" if model is None else
                                            describe_model(model, spec, s, a, t, s2, label))
                dt = time.perf_counter() - t1
                r.seconds += dt
                r.per_kind[t.name] = r.per_kind.get(t.name, 0.0) + dt
            if stop_at_first and any(r.status != "proved" for r in results.values()):
                return list(results.values())
    for r in results.values():
        missing = [w for w, ok in r.witnessed.items() if not ok]
        if r.status == "proved" and missing:
            r.status = "vacuous"
            r.counterexample = "never reached: " + ", ".join(missing)
    if only is None or premises.id in only:
        never = sorted(k for k, ok in satisfiable.items() if not ok)
        if never:
            premises.status = "refuted"
            premises.counterexample = "never satisfiable: " + ", ".join(never)
        results[premises.id] = premises
    return list(results.values())


def _action_text(a: IAction) -> str:
    return (f"p{a.player} ship {a.ship} port {a.port} field {a.field} target {a.target}")


def describe_model(m: Any, spec: IslaSpec, s: IState, a: IAction, t: Transition, s2: IState,
                   label: str) -> str:
    """A Z3 model as text: the state, the action and the next state, beans by name."""

    def ev(x: Any) -> Any:
        if isinstance(x, (int, bool)):
            return x
        v = m.eval(x, model_completion=True)
        return v.as_long() if z3.is_int_value(v) else z3.is_true(v)

    def bean(b: int) -> str:
        return BEAN_NAMES[b] if 0 <= b < len(BEAN_NAMES) else f"?{b}"

    def tally(xs: tuple[Val, ...]) -> str:
        items = [f"{ev(x)} {bean(b)}" for b, x in zip(spec.cfg.beans, xs, strict=True) if ev(x)]
        return "[" + " ".join(items) + "]"

    def seq(q: Seq) -> str:
        n = max(0, min(ev(q.n), q.cap))
        return "[" + " ".join(bean(ev(x)) for x in q.slots[:n]) + "]"

    def show(st: IState) -> str:
        lines = [f"phase {ev(st.phase)}, active p{st.active}, to move p{ev(st.to_move)}, "
                 f"sails {ev(st.sails)}, captured {ev(st.captured)}; rows {seq(st.rows[0])} "
                 f"{seq(st.rows[1])}; draw {seq(st.draw)}; discard {tally(st.discard)}"]
        for p, pl in enumerate(st.players):
            fields = ", ".join(f"{ev(pl.fc[f])} {bean(ev(pl.fb[f]))}" if ev(pl.fc[f]) else "empty"
                               for f in range(min(max(ev(pl.nf), 0), NF)))
            ships = ", ".join(f"{'m0 m1 pirate'.split()[k]} "
                              + (f"{ev(sh.count)} {bean(ev(sh.bean))}" if ev(sh.count) else "empty")
                              + f" at {ev(sh.at)}" for k, sh in enumerate(pl.ships) if ev(sh.owned))
            marks = [f"m{i}" + ("!" if ev(st.under[p][i]) else "")
                     for i in MERCHANTS if ev(st.attacked[p][i])]  # "!": the attack awaiting an answer
            lines.append(f"  p{p}: fields ({fields}) ships ({ships}) land {tally(pl.land)} "
                         f"coins {tally(pl.coins)}" + (f" attacked {' '.join(marks)}" if marks else ""))
        return "\n".join(lines)

    act = f"{t.name}: {_action_text(a)} take {ev(a.take)} bean {bean(ev(a.bean))}"
    if a.pay:
        act += f" pay {tally(a.pay)}"
    return f"{label}\nstate: {show(s)}\naction: {act}\nnext: {show(s2)}"


# ------------------------------------------------------------------ mutants


@dataclass
class MutantVerdict:
    id: str
    rule: str
    what: str
    expected: str  # the property that must fail
    status: str  # refuted / survived
    seconds: float
    detail: str = ""


MUTANT_PROPERTY: dict[str, str] = {
    "load-other-type": "ship-type-kept-I4",
    "harvest-onto-pirate": "pirate-cargo-I7",
    "attack-twice": "attacked-once-per-turn-I7",
    "sell-for-nothing": "cargo-never-overboard-I6",
    "move-onto-pirate": "pirate-cargo-I7",
    "plant-cargo": "island-beans-never-planted-I5",
    "yield-overboard": "cargo-never-overboard-I6",
    "paid-coins-vanish": "card-conservation-I1",
    "refill-any-row": "island-rows-I2",
}


def judge_mutant(mutant: str) -> MutantVerdict:
    """Run the property the mutant breaks on the first proof configuration: it must be refuted."""
    t0 = time.perf_counter()
    rule, what = MUTANTS[mutant]
    prop = MUTANT_PROPERTY[mutant]
    results = prove(PROOF_CONFIGS[:1], mutant=mutant, only={prop}, stop_at_first=True)
    (r,) = [x for x in results if x.id == prop]
    status = "refuted" if r.status == "refuted" else "survived"
    return MutantVerdict(mutant, rule, what, prop, status, time.perf_counter() - t0,
                         r.counterexample.splitlines()[0] if r.counterexample else "")


# ------------------------------------------------------------------ engine vs spec

ISLA_KINDS = (Sail, HarvestOnto, Sell, MoveCargo, Attack, Yield, BuyShip, PlantCargo)
CHECKED_KINDS = ISLA_KINDS + (Harvest, BuyField)  # guards compared both ways
PLANT_KINDS = (Plant, PlantAside, PlantUp)  # the spec over-approximates: engine-legal => spec guard


def _tally(cfg: IslaConfig, cards: Sequence[int]) -> tuple[int, ...]:
    c = Counter(cards)
    return tuple(c[b] for b in cfg.beans)


def to_spec_state(s: GameState, cfg: IslaConfig) -> IState:
    """The spec's view of an engine state (concrete values)."""
    isla = s.isla
    assert isla is not None
    n = len(s.players)
    players = []
    for p, pl in enumerate(s.players):
        fleet = isla.fleets[p]
        ships = []
        for k in SHIPS:
            sh = fleet.ship(k)
            ships.append(SShip(-1, 0, HOME, False) if sh is None else
                         SShip(sh.bean if sh.count else -1, sh.count, sh.at, True))
        land = pl.hand + pl.aside + (s.face_up if p == s.active else ())
        players.append(IPlayer(
            fb=tuple(f.bean if f.count else -1 for f in pl.fields) + (-1,) * (NF - len(pl.fields)),
            fc=tuple(f.count for f in pl.fields) + (0,) * (NF - len(pl.fields)), nf=len(pl.fields),
            land=_tally(cfg, land), coins=_tally(cfg, pl.coins), ships=tuple(ships)))
    attacked = tuple(tuple((q, i) in isla.attacked for i in MERCHANTS) for q in range(n))
    return IState(
        players=tuple(players), rows=tuple(Seq(tuple(row), len(row)) for row in isla.rows),
        draw=Seq(tuple(s.draw), len(s.draw)), discard=_tally(cfg, s.discard), out=_tally(cfg, s.out),
        attacked=attacked, under=tuple(tuple(isla.attack == (q, i) for i in MERCHANTS) for q in range(n)),
        captured=bool(isla.captured), sails=isla.sails,
        hits=tuple(tuple(int(x) for x in row) for row in attacked),
        active=s.active, to_move=s.to_move, phase=int(s.phase), pend=s.pending is not None,
        final=bool(s.final), exh=s.exhaustions, todo=0, refill=(0, 0))


def _pay(cfg: IslaConfig, coins: tuple[int, ...], cost: int) -> tuple[int, ...]:
    """Some ``cost`` of these coins (fewer if there are not that many: the guard then refuses)."""
    out, left = [], cost
    for c in coins:
        x = min(c, left)
        out.append(x)
        left -= x
    return tuple(out)


def to_spec_action(s: GameState, a: Action, cfg: IslaConfig,
                   after: GameState | None = None) -> IAction | None:
    """The spec's action for an engine action (None: not an Isla action, harvest, purchase or planting).
    A purchase pays the coins the engine's successor paid, or (no successor) any coins."""
    isla = s.isla
    assert isla is not None
    if isinstance(a, Sail):
        return IAction(SAIL, a.player, a.ship, a.port, take=a.take)
    if isinstance(a, HarvestOnto):
        return IAction(HARVEST_ONTO, a.player, a.ship, field=a.field)
    if isinstance(a, Harvest):
        return IAction(HARVEST, a.player, field=a.field)
    if isinstance(a, Sell):
        return IAction(SELL_DEFENCE if isla.attack == (a.player, a.ship) else SELL, a.player, a.ship)
    if isinstance(a, MoveCargo):
        return IAction(MOVE, a.player, a.source, target=a.target)
    if isinstance(a, Attack):
        return IAction(ATTACK, a.player, a.ship, target=a.target)
    if isinstance(a, Yield):
        return IAction(YIELD, a.player)
    if isinstance(a, (BuyShip, BuyField)):
        kind = BUY_FIELD if isinstance(a, BuyField) else BUY_PIRATE if a.pirate else BUY_SHIP
        cost = {BUY_FIELD: cfg.third_cost or 0, BUY_PIRATE: cfg.pirate_cost, BUY_SHIP: cfg.ship_cost}[kind]
        if not 0 <= a.player < len(s.players):
            return IAction(kind, a.player, pay=(0,) * len(cfg.beans))
        coins = _tally(cfg, s.players[a.player].coins)
        if after is not None:
            left = _tally(cfg, after.players[a.player].coins)
            pay = tuple(x - y for x, y in zip(coins, left, strict=True))
        else:
            pay = _pay(cfg, coins, cost)
        return IAction(kind, a.player, pay=pay)
    if isinstance(a, Plant):
        return IAction(PLANT_LAND, a.player, field=a.field, bean=s.players[a.player].hand[0])
    if isinstance(a, PlantAside):
        return IAction(PLANT_LAND, a.player, field=a.field, bean=a.bean)
    if isinstance(a, PlantUp):
        return IAction(PLANT_LAND, a.player, field=a.field, bean=s.face_up[a.index])
    if isinstance(a, PlantCargo):  # only the mutant plant-cargo has this transition
        return IAction(PLANT_CARGO, a.player, a.ship, field=a.field)
    return None


def observable(spec: IslaSpec, s: IState) -> dict[str, Any]:
    """The expansion's part of a concrete spec state, beans by name, for comparison."""
    beans = spec.cfg.beans

    def tally(xs: tuple[Val, ...]) -> dict[str, int]:
        return {BEAN_NAMES[b]: x for b, x in zip(beans, xs, strict=True) if x}

    out: dict[str, Any] = {}
    for p, pl in enumerate(s.players):
        out[f"p{p} fields"] = tuple((BEAN_NAMES[pl.fb[f]] if pl.fc[f] else None, pl.fc[f])
                                    for f in range(pl.nf))
        out[f"p{p} land"] = tally(pl.land)
        out[f"p{p} coins"] = tally(pl.coins)
        out[f"p{p} ships"] = tuple((BEAN_NAMES[sh.bean] if sh.count else None, sh.count, sh.at)
                                   for sh in pl.ships if sh.owned)
    out["rows"] = tuple(tuple(BEAN_NAMES[c] for c in row.items()) for row in s.rows)
    out["draw"] = tuple(BEAN_NAMES[c] for c in s.draw.items())
    out["discard"] = tally(s.discard)
    out["out"] = tally(s.out)
    out["attacked"] = tuple((q, i) for q, row in enumerate(s.attacked) for i, x in enumerate(row) if x)
    out["attack"] = tuple((q, i) for q, row in enumerate(s.under) for i, x in enumerate(row) if x)
    out["captured"] = s.captured
    out["sails"] = s.sails
    out["active"] = s.active
    out["to_move"] = s.to_move
    out["phase"] = s.phase
    out["exhaustions"] = s.exh
    return out


PLANT_KEYS = ("fields", "ships", "coins")  # compared when a planting ends a phase (base steps follow)
END_KEYS = ("fields", "ships", "coins", "discard", "out", "phase")  # compared at the end of the game


def _diff(mine: dict[str, Any], theirs: dict[str, Any], keys: Callable[[str], bool]) -> str:
    bad = [k for k in sorted(set(mine) | set(theirs)) if keys(k) and mine.get(k) != theirs.get(k)]
    return "; ".join(f"{k}: engine {theirs.get(k)} spec {mine.get(k)}" for k in bad)


@dataclass
class DiffReport:
    games: int = 0
    states: int = 0  # states met while replaying
    mapped: int = 0  # mapped to the spec and checked
    skipped: Counter[str] = field(default_factory=Counter)  # reason -> states not mapped
    legal: Counter[str] = field(default_factory=Counter)  # engine-legal actions checked, by kind
    perturbed: int = 0  # illegal actions made by perturbing a legal one
    others: int = 0  # further actions of the per-state universe, legal or not
    successors: int = 0  # successors compared in full
    partial: int = 0  # plantings that ended a phase: compared on fields, ships, coins, discard
    ending: int = 0  # plantings that ended the game: compared as game ends
    turn_ends: int = 0
    turn_ends_skipped: Counter[str] = field(default_factory=Counter)
    game_ends: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        skipped = ", ".join(f"{k}: {v}" for k, v in sorted(self.skipped.items())) or "none"
        tskip = ", ".join(f"{k}: {v}" for k, v in sorted(self.turn_ends_skipped.items())) or "none"
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.legal.items()))
        return (f"differential: {self.games} games, {self.states} states, {self.mapped} mapped, "
                f"{sum(self.skipped.values())} skipped ({skipped})\n"
                f"  legal actions checked: {sum(self.legal.values())} ({kinds})\n"
                f"  illegal by perturbation: {self.perturbed}; other actions of the universe: {self.others}\n"
                f"  successors compared: {self.successors} in full, {self.partial} plantings in part, "
                f"{self.ending} ending the game (as game ends)\n"
                f"  turn ends compared: {self.turn_ends} (skipped: {tskip}); game ends compared: "
                f"{self.game_ends}\n  disagreements: {len(self.problems)}")


def _universe(s: GameState) -> list[Action]:
    """Every Isla action (and harvest, third field) of the player to move and the next seat, with
    indices one past their ranges."""
    n = len(s.players)
    me = s.to_move if s.to_move >= 0 else 0
    out: list[Action] = []
    for p in sorted({me, (me + 1) % n}):
        out += [Sail(p, i, port, k) for i in SHIPS for port in PORTS for k in range(ROW + 2)]
        out += [HarvestOnto(p, f, i) for f in range(NF + 1) for i in SHIPS]
        out += [Harvest(p, f) for f in range(NF + 1)]
        out += [Sell(p, i) for i in SHIPS]
        out += [MoveCargo(p, i, j) for i in SHIPS for j in SHIPS]
        out += [Attack(p, q, i) for q in range(n) for i in SHIPS]
        out += [Yield(p), BuyShip(p, False), BuyShip(p, True), BuyField(p)]
        out += [PlantCargo(p, k, f) for k in SHIPS for f in range(NF)]
    return out


def _perturb(a: Action, n: int) -> list[Action]:
    """Actions one step away from ``a``: each number changed by one, another seat or ship."""
    out: list[Action] = []
    slots: tuple[str, ...] = a.__slots__
    for name in slots:
        if name == "pirate":
            continue
        value = getattr(a, name)
        for v in (value - 1, value + 1):
            out.append(type(a)(**{**{x: getattr(a, x) for x in slots}, name: v}))
    if isinstance(a, BuyShip):
        out.append(BuyShip(a.player, not a.pirate))
    return out


def _engine_ok(s: GameState, a: Action) -> tuple[bool, GameState | None, str]:
    try:
        return True, apply(s, a), ""
    except IllegalAction as exc:
        return False, None, str(exc)


def check_state(s: GameState, spec: IslaSpec, report: DiffReport, limit: int = 20) -> None:
    """Compare engine and spec on ``s``: each action of the universe and each perturbation of a legal
    action is legal for the engine exactly when the spec's guard holds; each legal action's
    successor agrees on the expansion's part. Engine-legal plantings must satisfy the spec's
    abstract planting guard."""
    cfg = spec.cfg
    ss = to_spec_state(s, cfg)
    where = f"turn {s.turn}, {s.phase.name}, p{s.to_move} to move"
    problems: list[str] = []
    wf = inv(spec, ss)
    if wf is not True:
        problems.append(f"{where}: the engine's state breaks the spec's invariant (the proofs' premise)")
    listed = legal_actions(s)
    legal = set(listed)
    if len(legal) != len(listed):
        problems.append(f"{where}: the engine lists an action twice")
    table = {t.kind: t for t in spec.transitions()}
    universe = _universe(s)
    seen = set(universe)
    extra: list[Action] = []
    for a in listed:
        if isinstance(a, CHECKED_KINDS):
            for b in _perturb(a, len(s.players)):
                if b not in legal and b not in seen:
                    seen.add(b)
                    extra.append(b)
    rest = [a for a in listed if isinstance(a, CHECKED_KINDS + PLANT_KINDS) and a not in seen]
    for a in [*universe, *extra, *rest]:
        is_listed = a in legal
        try:
            ok, after, why = _engine_ok(s, a)
        except Exception as exc:  # an engine crash is a finding
            problems.append(f"{where}: {a}: the engine crashed: {type(exc).__name__}: {exc}")
            continue
        if ok != is_listed and not isinstance(a, PLANT_KINDS):
            problems.append(f"{where}: {a}: legal_actions {'lists' if is_listed else 'omits'} it but apply "
                            f"{'refuses' if not ok else 'accepts'} it {why}")
        sa = to_spec_action(s, a, cfg, after if ok else None)
        guard = table[sa.kind].guard(ss, sa) if sa is not None and sa.kind in table else False
        if not isinstance(guard, bool):
            raise TypeError(f"the spec's guard is not concrete for {a}")
        if isinstance(a, PLANT_KINDS):
            if is_listed and not guard:
                problems.append(f"{where}: {a}: the engine allows this planting; the spec's guard refuses it")
        elif guard != is_listed:
            problems.append(f"{where}: {a}: the engine {'allows' if is_listed else 'refuses'} it, the spec "
                            f"{'allows' if guard else 'refuses'} it" + (f" ({why})" if why else ""))
        if a in extra:
            report.perturbed += 1
        elif not is_listed:
            report.others += 1
        if not (is_listed and ok and guard and sa is not None and after is not None):
            continue
        report.legal[type(a).__name__ + (" (attacked)" if sa.kind == SELL_DEFENCE else "")] += 1
        mine = observable(spec, spec.settle(table[sa.kind].after(ss, sa)))
        theirs = observable(spec, to_spec_state(after, cfg))
        if isinstance(a, PLANT_KINDS):
            if after.turn == s.turn and after.draw == s.draw and after.phase == s.phase:
                report.successors += 1
                text = _diff(mine, theirs, lambda k: k not in ("to_move",))
            elif after.phase == Phase.OVER:
                report.ending += 1  # its end of the game is compared by check_boundary
                text = ""
            else:
                report.partial += 1
                text = _diff(mine, theirs, lambda k: k.split()[-1] in PLANT_KEYS)
        else:
            report.successors += 1
            text = _diff(mine, theirs, lambda k: True)
        if text:
            problems.append(f"{where}: {a}: successors differ: {text}")
    report.problems += problems[:limit]


@contextmanager
def _spy(log: list[tuple[str, GameState, GameState]]) -> Iterator[None]:
    """Record the engine's end of a turn and of the game (``STEPS.traced``): input and output states."""
    with STEPS.traced("end_turn", "finish") as steps:
        yield
    log += [(name.replace("_", "-"), args[0], out) for name, args, out in steps]


def check_boundary(kind: str, x: GameState, y: GameState, spec: IslaSpec, report: DiffReport) -> None:
    """The spec's end of a turn (draw, row refill, turn change: from phase ENDTURN) or end of the
    game (E3: from phase FINISH), run from the engine's state ``x``, must reach the engine's ``y``."""
    cfg = spec.cfg
    if kind == "end-turn" and y.turn != x.turn and y.phase != Phase.PLANT:
        report.turn_ends_skipped["the new turn went on (empty hand: turn-up)"] += 1
        return
    start = to_spec_state(x, cfg).replace(phase=ENDTURN if kind == "end-turn" else FINISH)
    mine = observable(spec, spec.settle(start))
    theirs = observable(spec, to_spec_state(y, cfg))
    resting = y.phase not in (Phase.CHANCE, Phase.OVER)

    def keys(k: str) -> bool:
        if kind == "end-turn":
            return k != "to_move" or resting
        return k.split()[-1] in END_KEYS

    if kind == "end-turn":
        report.turn_ends += 1
    else:
        report.game_ends += 1
    text = _diff(mine, theirs, keys)
    if text:
        report.problems.append(f"turn {x.turn}, {kind}: the spec's steps reach another state: {text}")


# (ruleset, players, options, bot), every game with isla=true: the greedy bots raid, buy and trade;
# the random ones sail and sell in unusual ways; 2 players is the Isla duel (I9).
Plan = list[tuple[str, int, dict[str, Any], str]]
DIFF_PLAN: Plan = [
    ("rio-grande", 3, {}, "greedy"), ("rio-grande", 4, {}, "greedy"), ("rio-grande", 3, {}, "random"),
    ("rio-grande", 5, {}, "greedy"), ("rio-grande", 2, {}, "greedy"), ("rio-grande", 3, {}, "random-trader"),
    ("rio-grande", 6, {}, "greedy"), ("rio-grande", 4, {}, "random"), ("rio-grande", 7, {}, "random-trader"),
    ("amigo", 4, {"harvest": "strict"}, "greedy"), ("amigo-v2", 4, {}, "greedy"),  # skipped: V5
]


def differential(games: int = 10, seed: int = 0, max_states: int | None = None,
                 plan: Plan | None = None, mutant: str | None = None) -> DiffReport:
    """Replay ``games`` simulated Isla games (rulesets, players and bots from ``plan`` in turn) and
    check every state, turn end and game end; at most ``max_states`` states per game (a seeded
    sample). ``mutant`` breaks the spec (the check must then find disagreements). States of a
    ruleset the spec does not model are counted as skipped, with the reason."""
    from play.bots import BOTS
    from play.playout import play_game

    report = DiffReport()
    plan = plan or DIFF_PLAN
    for g in range(games):
        name, players, options, bot = plan[g % len(plan)]
        rules = ruleset(name, {**options, "isla": True})
        _, s, _, actions = play_game(rules, players, seed * 1000 + g, [BOTS[bot]] * players)
        report.games += 1
        why = ""
        try:
            cfg: IslaConfig | None = IslaConfig.from_setup(s.setup)
        except Unsupported as exc:
            cfg, why = None, str(exc)
        spec = IslaSpec(cfg, mutant) if cfg is not None else None
        rng = random.Random(seed * 1000 + g)
        picks = set(range(len(actions)))
        if max_states is not None and len(actions) > max_states:
            picks = set(rng.sample(range(len(actions)), max_states))
        for step, a in enumerate(actions):
            if step in picks:
                report.states += 1
                if spec is None:
                    report.skipped[why] += 1
                else:
                    report.mapped += 1
                    check_state(s, spec, report)
            log: list[tuple[str, GameState, GameState]] = []
            with _spy(log):
                s = apply(s, a)
            if spec is not None:
                for kind, x, y in log:
                    check_boundary(kind, x, y, spec, report)
    return report


# ------------------------------------------------------------------ the command line


def format_results(results: list[Result]) -> list[str]:
    """One line per proof: name, rule ID, method, result, seconds; then each failure's detail."""
    width = max(len(r.id) for r in results)
    lines = [f"{'property':<{width}}  {'rule':<6} {'method':<10} {'result':<8} {'seconds':>7}"]
    lines += [f"{r.id:<{width}}  {r.rule:<6} {r.method:<10} {r.status.upper():<8} {r.seconds:7.2f}"
              for r in results]
    for r in results:
        if r.status != "proved":
            lines.append(f"\n{r.id} {r.status}:\n  " + r.counterexample.replace("\n", "\n  "))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=22, help="simulated games for the differential check")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-states", type=int, default=None, help="states checked per game (default all)")
    parser.add_argument("--quick", action="store_true", help="prove on the test configurations only")
    parser.add_argument("--no-proofs", action="store_true", help="skip the proofs")
    parser.add_argument("--no-mutants", action="store_true", help="skip the mutants")
    parser.add_argument("--no-differential", action="store_true", help="skip the engine-vs-spec check")
    args = parser.parse_args(argv)
    ok = True
    if not args.no_proofs:
        t0 = time.perf_counter()
        configs = PROOF_CONFIGS if args.quick else PROOF_CONFIGS + EXTRA_CONFIGS
        print("configurations: " + "; ".join(f"{n} {p}p {o}" for n, p, o in configs))
        results = prove(configs)
        print("\n".join(format_results(results)))
        print(f"all proofs: {time.perf_counter() - t0:.1f} s")
        ok = all(r.status == "proved" for r in results)
    if not args.no_mutants:
        print(f"\n{'mutant':<22} {'rule':<5} {'must fail':<30} {'result':<8} {'seconds':>7}")
        for m in MUTANTS:
            v = judge_mutant(m)
            ok = ok and v.status == "refuted"
            print(f"{v.id:<22} {v.rule:<5} {v.expected:<30} {v.status.upper():<8} {v.seconds:7.2f}")
    if not args.no_differential:
        t1 = time.perf_counter()
        report = differential(args.games, args.seed, args.max_states)
        print("\n" + report.summary() + f"\n  seconds: {time.perf_counter() - t1:.1f}")
        for p in report.problems[:20]:
            print("  " + p)
        ok = ok and not report.problems
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
