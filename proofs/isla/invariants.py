"""Z3 proofs of La Isla Bohnita's invariants on the spec (proofs/isla/spec.py), run by proofs/runner.py.

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
``scripts/prove_rules.py --isla`` prints one line per proof (name, rule ID, method, result, seconds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import z3

from console.progress import ProgressFn
from model.rules import ruleset, setup
from proofs.isla.spec import (
    ALL_PHASES,
    FINAL_SALE,
    HOME,
    M0,
    MERCHANTS,
    PIRATE,
    PORTS,
    ROW,
    SHIPS,
    IAction,
    IPlayer,
    IslaConfig,
    IslaSpec,
    IState,
    SShip,
    Step,
    iff,
)
from proofs.kernel import (
    CHANCE,
    DISCARD,
    DRAW,
    FINISH,
    NF,
    OVER,
    REFILL,
    TRADE,
    bean_name,
    decision_phase,
    fields_text,
)
from proofs.runner import BACKSTOP_MS, Case, Goal, Result, Triggers, evaluator, run
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
    decision = decision_phase(s.phase)
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


def inv_empty_pile(spec: IslaSpec, s: IState) -> Cond:
    """E1-E2: a reshuffle is due only with cards to shuffle (the duel's set-aside coins have joined
    the discard pile, I9), and after the final exhaustion came while turning up the pile stays
    empty. At-exhaustion: outside a reshuffle an empty draw pile means the final pass or the end.
    On-demand: the pile may lie empty until the next need, and a reshuffle is due only at a need
    (a card still to draw or to deal to a row)."""
    parts = [implies(s.phase == CHANCE, total(list(s.discard)) > 0), implies(s.final, s.draw.n == 0)]
    if spec.cfg.duel:
        parts.append(implies(s.phase == CHANCE, all_of(*[x == 0 for x in s.out])))
    if spec.cfg.on_demand:
        parts.append(implies(s.phase == CHANCE, any_of(s.todo > 0, s.refill[0] > 0, s.refill[1] > 0)))
    else:
        parts.append(implies(all_of(s.draw.n == 0, s.phase != CHANCE),
                             any_of(s.final, s.phase == FINISH, s.phase == OVER)))
    return all_of(*parts)


StateInvariant = Callable[[IslaSpec, IState], Cond]
STATE_INVARIANTS: dict[str, tuple[str, StateInvariant]] = {
    "ship-holds-one-type-I4": ("I4", inv_ships),
    "island-rows-I2": ("I2", inv_rows),
    "attacked-once-per-turn-I7": ("I7", inv_attacked_once),
    "cargo-sold-at-end-E3": ("E3", inv_sold_at_end),
    "empty-draw-pile-E1": ("E1", inv_empty_pile),
    "well-formed": ("I1-I7", well_formed),
}


def inv(spec: IslaSpec, s: IState) -> Cond:
    return all_of(*[f(spec, s) for _, f in STATE_INVARIANTS.values()])


# ------------------------------------------------------------------ two-state properties

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


def p_conservation(spec: IslaSpec, s: IState, a: IAction, t: Step, s2: IState) -> tuple[Cond, Triggers]:
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


def p_ship_type(spec: IslaSpec, s: IState, a: IAction, t: Step, s2: IState) -> tuple[Cond, Triggers]:
    """I4: a ship never holds two types: a loaded ship that still holds cargo after a step holds the
    same type (a new type only after it was emptied)."""
    parts, grow = [], []
    for sh, sh2 in zip(_ships(s), _ships(s2), strict=True):
        if sh is sh2:
            continue
        parts.append(implies(all_of(sh.count > 0, sh2.count > 0), sh2.bean == sh.bean))
        grow.append(all_of(sh.count > 0, sh2.count > sh.count))
    return all_of(*parts), [("a loaded ship takes more cargo", any_of(*grow))]


def p_island(spec: IslaSpec, s: IState, a: IAction, t: Step, s2: IState) -> tuple[Cond, Triggers]:
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


def p_cargo(spec: IslaSpec, s: IState, a: IAction, t: Step, s2: IState) -> tuple[Cond, Triggers]:
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


def p_pirate(spec: IslaSpec, s: IState, a: IAction, t: Step, s2: IState) -> tuple[Cond, Triggers]:
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


def p_exhaustion(spec: IslaSpec, s: IState, a: IAction, t: Step, s2: IState) -> tuple[Cond, Triggers]:
    """E1-E2, I8-I9: the exhaustion count rises by one, only while drawing or refilling a row:
    at-exhaustion exactly when a step takes the last card, on-demand exactly when a card must be
    taken from the empty pile. Then the duel's set-aside coins join the discard pile (I9), and a
    reshuffle is due unless this is the final exhaustion (the count of S, or an empty discard
    pile), which ends the game at once."""
    cfg = spec.cfg
    rise: Cond = False if s.exh is s2.exh else s2.exh == s.exh + 1
    took_last = all_of(s.draw.n > 0, s2.draw.n == 0) if s.draw is not s2.draw else False
    moment = all_of(spec.needs(s), s.draw.n == 0) if cfg.on_demand else all_of(
        any_of(s.phase == DRAW, s.phase == REFILL), took_last)
    back = [all_of(d2 == d + o, o2 == 0) for d, d2, o, o2 in zip(s.discard, s2.discard, s.out, s2.out,
                                                                    strict=True)] if cfg.duel else []
    due = all_of(s2.exh < cfg.final_exhaustion, total(list(s2.discard)) > 0)
    goal = all_of(any_of(s2.exh == s.exh, rise), rise == moment, implies(rise, all_of(*back)),
                  implies(rise, (s2.phase == CHANCE) == due),
                  implies(all_of(rise, neg(due)), s2.phase == FINISH))
    return goal, [("a reshuffle at an exhaustion", all_of(rise, s2.phase == CHANCE)),
                  ("the final exhaustion", all_of(rise, s2.phase == FINISH))]


TwoState = Callable[[IslaSpec, IState, IAction, Step, IState], tuple[Cond, Triggers]]
TWO_STATE: dict[str, tuple[str, TwoState]] = {
    "card-conservation-I1": ("I1-I7", p_conservation),
    "ship-type-kept-I4": ("I4", p_ship_type),
    "island-beans-never-planted-I5": ("I5", p_island),
    "cargo-never-overboard-I6": ("I6", p_cargo),
    "pirate-cargo-I7": ("I7", p_pirate),
    "exhaustion-moment-E1-E2": ("E1-E2", p_exhaustion),
}

INDUCTION_TRIGGERS: dict[str, Callable[[IState, IState], Triggers]] = {
    "attacked-once-per-turn-I7": lambda s, s2: [("an attack is made", any_of(*[
        h2 > h for r, r2 in zip(s.hits, s2.hits, strict=True) for h, h2 in zip(r, r2, strict=True)
        if h is not h2]))],
    "island-rows-I2": lambda s, s2: [("a row is refilled", any_of(*[
        r2.n > r.n for r, r2 in zip(s.rows, s2.rows, strict=True) if r is not r2]))],
    "cargo-sold-at-end-E3": lambda s, s2: [("the game ends", all_of(s.phase != OVER, s2.phase == OVER))],
    "empty-draw-pile-E1": lambda s, s2: [("a reshuffle becomes due", all_of(s.phase != CHANCE,
                                                                              s2.phase == CHANCE))],
}



# ------------------------------------------------------------------ running the proofs

Config = tuple[str, int, dict[str, Any]]
PROOF_CONFIGS: list[Config] = [
    ("rio-grande", 3, {"isla": True}),  # 3 players: 3 fields, 6 bean types, ship 4 coins
    ("rio-grande", 3, {"isla": True, "fields": 2}),  # two fields: the third for sale (I1)
    ("rio-grande", 2, {"isla": True}),  # the Isla duel (I9): own-turn sales, paid coins set aside
    ("rio-grande", 2, {"isla": True, "reshuffle": "on-demand"}),  # E1 on-demand; I9's coins at the need
]
EXTRA_CONFIGS: list[Config] = [  # also proved by ``scripts/prove_rules.py --isla``
    ("rio-grande", 4, {"isla": True}),
    ("amigo", 3, {"isla": True, "harvest": "strict"}),  # H4's strict reading, the amigo deck
    ("rio-grande", 3, {"isla": True, "reshuffle": "on-demand"}),  # E1 on-demand with row refills
]
TIMEOUT_MS = BACKSTOP_MS  # per query, a backstop to the resource limit (runner.RLIMIT); "unknown" is refuted


def config(name: str, players: int, options: dict[str, Any]) -> IslaConfig:
    return IslaConfig.from_setup(setup(ruleset(name, options), players))


def goals(spec: IslaSpec, s: IState, a: IAction, t: Step, s2: IState) -> Iterator[Goal]:
    """The goals of one transition instance, each with its rule ID and triggers."""
    for pid, (rule, f) in STATE_INVARIANTS.items():
        trig = INDUCTION_TRIGGERS[pid](s, s2) if pid in INDUCTION_TRIGGERS else []
        yield Goal(pid, "induction", f(spec, s2), rule, trig)
    for pid, (rule, g) in TWO_STATE.items():
        goal, trig = g(spec, s, a, t, s2)
        yield Goal(pid, "two-state", goal, rule, trig)


def proof_instances(spec: IslaSpec) -> list[tuple[Step, IAction]]:
    """Each transition once per concrete seat, ship, port, field and target; the load count, the
    planted bean and the coins paid symbolic."""
    take, bean = z3.Int("a.take"), z3.Int("a.bean")
    pay = tuple(z3.Int(f"a.pay{b}") for b in spec.cfg.beans)
    return [(t, a) for t in spec.transitions() for a in spec.instances(t, take, bean, pay)]


def case(name: str, players: int, options: dict[str, Any], mutant: str | None = None,
         caps: Caps = Caps()) -> Case[IState, IAction]:
    """The proof case of one configuration: Inv(S) within the bounds, every transition instance."""
    spec = IslaSpec(config(name, players, options), mutant)
    label = f"{name} {players}p" + "".join(f" {k}={v}" for k, v in options.items() if k != "isla")
    s = sym_state(spec.cfg, caps)

    def describe(m: z3.ModelRef, a: IAction, t: Step, s2: IState) -> str:
        return describe_model(m, spec, s, a, t, s2, label)

    return Case(label, s, all_of(inv(spec, s), bounded(s)), bounded, proof_instances(spec),
                goals=partial(goals, spec), describe=describe,
                where=lambda a, t: f"{label}, {t.name} {_action_text(a)}")


def prove(
    configs: list[Config] | None = None,
    mutant: str | None = None,
    only: set[str] | None = None,
    stop_at_first: bool = False,
    caps: Caps = Caps(),
    vacuity: bool = True,
    progress: ProgressFn | None = None,
) -> list[Result]:
    """Prove every property for every transition instance of every configuration; then that every
    transition is satisfiable somewhere and that no property holds vacuously (proofs/runner.py).
    ``progress(instances done, instances, note)`` as each proof starts and at least every 0.25 s of a
    long query. Ctrl-C: ``proofs.runner.ProofsInterrupted`` with the verdicts so far."""
    todo = (case(name, players, options, mutant, caps)
            for name, players, options in (PROOF_CONFIGS if configs is None else configs))
    return run(todo, TIMEOUT_MS, only, stop_at_first, premise_rule="I1-I9", vacuity=vacuity,
               progress=progress)


def _action_text(a: IAction) -> str:
    return (f"p{a.player} ship {a.ship} port {a.port} field {a.field} target {a.target}")


def describe_model(m: Any, spec: IslaSpec, s: IState, a: IAction, t: Step, s2: IState,
                   label: str) -> str:
    """A Z3 model as text: the state, the action and the next state, beans by name."""
    ev, bean = evaluator(m), bean_name

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
            fields = fields_text(pl, ev)
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
