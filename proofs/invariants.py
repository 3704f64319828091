"""The rule invariants, proved on the spec with Z3 for every transition kind.

State invariants are proved by induction: Inv(S) and one step S -> S' imply each clause of Inv(S')
(UNSAT of the negation). Two-state properties are proved for every transition. Bounded model
checking covers what spans a turn (at most two phase-1 plantings). Every query also checks that
its premise is satisfiable, so that no proof passes vacuously.

Bounds (``Caps``): the symbolic state has ``hand`` hand slots per player, ``draw``, ``discard``
and ``coins`` slots, 3 field slots and ``max_deal_cards`` deal slots; properties are proved for all
states and successors within these bounds. The active seat is fixed to 0: no rule names an
absolute seat (turn order is relative to the active player), so by rotating seats this covers
every active seat.

Card conservation is proved over ghost tallies (``Seq.tally``): each sequence operation updates
a per-bean count by a short formula, proved exact by proofs/ghost.py for every (operation,
capacity) the proofs use; the queries are then linear integer arithmetic.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from itertools import combinations
from typing import Any

import z3

from console.cli import ignore_interrupts
from console.progress import ProgressFn
from model.cards import payout_table
from model.rules import ruleset, setup
from proofs.ghost import prove_lemmas
from proofs.kernel import (
    ASIDE_NEXT,
    CHANCE,
    DISCARD,
    DRAW,
    ENDTURN,
    FINISH,
    MATCH,
    NB,
    NF,
    OFFER,
    OVER,
    PLANT,
    PLANT_ASIDE,
    START,
    TRADE,
    TURNED,
    TURNUP,
    Transition,
    bean_name,
    decision_phase,
    field_bean_grant,
    fields_text,
    is_bean,
)
from proofs.runner import (
    BACKSTOP_MS,
    Case,
    Goal,
    Part,
    ProofsInterrupted,
    Query,
    Result,
    Triggers,
    checked,
    evaluator,
    merge,
    run,
    solver,
)
from proofs.spec import (
    ACCEPT_K,
    ALL_PHASES,
    BUY_K,
    DISCARD_K,
    HARVEST_K,
    PLANT_ASIDE_K,
    PLANT_K,
    SAction,
    Spec,
    SpecConfig,
    SPlayer,
    SState,
    _pick_state,
    action_var,
)
from proofs.symbolic import (
    GHOST_USES,
    Seq,
    all_of,
    any_of,
    count_if,
    implies,
    int_var,
    neg,
    select,
    seq_var,
    total,
)

Step = Transition[SState, SAction]


@dataclass(frozen=True)
class Caps:
    hand: int = 5
    draw: int = 4
    discard: int = 6
    coins: int = 6


def sym_state(cfg: SpecConfig, caps: Caps, name: str = "s") -> SState:
    k = cfg.k

    def iv(x: str) -> Any:
        return int_var(f"{name}.{x}")

    players = []
    for p in range(cfg.players):
        players.append(SPlayer(
            hand=seq_var(f"{name}.p{p}.hand", caps.hand, NB),
            fb=tuple(iv(f"p{p}.fb{f}") for f in range(NF)),
            fc=tuple(iv(f"p{p}.fc{f}") for f in range(NF)),
            nf=iv(f"p{p}.nf"),
            coins=seq_var(f"{name}.p{p}.coins", caps.coins, NB),
            aside=tuple(iv(f"p{p}.aside{b}") for b in range(NB)),
        ))
    return SState(
        players=tuple(players), draw=seq_var(f"{name}.draw", caps.draw, NB),
        discard=seq_var(f"{name}.discard", caps.discard, NB),
        up=tuple(iv(f"up{b}") for b in range(NB)), out=tuple(iv(f"out{b}") for b in range(NB)),
        active=0, phase=iv("phase"), to_move=iv("to_move"), planted=iv("planted"),
        first=iv("first"), offers=iv("offers"), exh=iv("exh"), final=z3.Bool(f"{name}.final"),
        todo=iv("todo"), drawer=iv("drawer"), resume=iv("resume"), turn=iv("turn"),
        pend=z3.Bool(f"{name}.pend"), pp=0, pq=iv("pq"),
        pgh=tuple(iv(f"pgh{j}") for j in range(k)), pghn=iv("pghn"),
        pgu=tuple(iv(f"pgu{j}") for j in range(k)), pgun=iv("pgun"),
        pask=tuple(iv(f"pask{j}") for j in range(k)), paskn=iv("paskn"),
    )


def _is_bean(cfg: SpecConfig, x: Any) -> Any:
    return is_bean(cfg.beans, x)


def _seqs(s: SState) -> list[Seq]:
    out = [s.draw, s.discard]
    for p in s.players:
        out += [p.hand, p.coins]
    return out


LIMIT = 12  # the proofs' bound on any one count (field, set-aside, face-up, out of the game)


def bounded(s: SState) -> Any:
    """The proofs' bound: every sequence within its capacity, every count at most LIMIT."""
    parts = [q.in_bounds() for q in _seqs(s)]
    parts += [s.offers <= 100, s.todo <= 20, s.drawer <= 20, s.turn <= 400, s.exh <= 20]
    parts += [x <= LIMIT for x in s.up + s.out]
    for p in s.players:
        parts += [x <= LIMIT for x in p.fc + p.aside]
    return all_of(*parts)


def well_formed(cfg: SpecConfig, s: SState) -> Any:
    """The auxiliary invariant that makes the named ones inductive."""
    n, k = cfg.players, cfg.k
    parts = [s.active >= 0, s.active < n, any_of(*[s.phase == ph for ph in ALL_PHASES]),
             implies(decision_phase(s.phase), all_of(s.to_move >= 0, s.to_move < n)),
             s.offers >= 0, s.todo >= 0, s.drawer >= 0, s.turn >= 0, s.first >= -1,
             s.first < NF, s.exh >= 0]
    for q in _seqs(s):
        parts += [implies(i < q.n, _is_bean(cfg, x)) for i, x in enumerate(q.slots)]
    for b in range(NB):
        parts += [s.up[b] >= 0, s.out[b] >= 0]
        if b not in cfg.beans:
            parts += [s.up[b] == 0, s.out[b] == 0]
    for p in s.players:
        parts += [p.nf >= cfg.fields, p.nf <= NF]
        for b in range(NB):
            parts += [p.aside[b] >= 0]
            if b not in cfg.beans:
                parts.append(p.aside[b] == 0)
    # a pending proposal names real cards of its proposer, the active player, to a real partner
    pend = [s.phase == TRADE, s.pp == s.active, s.pq >= 0, s.pq < n, s.pq != s.pp, s.to_move == s.pq,
            s.pghn >= 0, s.pghn <= k, s.pgun >= 0, s.pgun <= k, s.paskn >= 0, s.paskn <= k]
    hand_active = Spec(cfg).player_at(s, s.active).hand
    for j in range(k):
        pend.append(implies(j < s.pghn, all_of(s.pgh[j] >= 0, s.pgh[j] < hand_active.n)))
        if j:
            pend.append(implies(j < s.pghn, s.pgh[j] > s.pgh[j - 1]))
        pend.append(implies(j < s.paskn, _is_bean(cfg, s.pask[j])))
    for b in range(NB):
        pend.append(count_if([all_of(j < s.pgun, s.pgu[j] == b) for j in range(k)]) <= s.up[b])
    parts.append(implies(s.pend, all_of(*pend)))
    parts.append(implies(all_of(s.phase == TRADE, neg(s.pend)), s.to_move == s.active))
    parts.append(implies(s.phase == PLANT, s.to_move == s.active))
    # the bean duel's steps exist only in the duel, trading and phase 3 only outside it (D1-D2)
    never = (TRADE, PLANT_ASIDE, ASIDE_NEXT) if cfg.duel else (OFFER, DISCARD, TURNED, MATCH)
    parts += [s.phase != ph for ph in never]
    parts.append(implies(s.phase == ASIDE_NEXT, s.todo <= n))
    parts.append(implies(s.phase == CHANCE, s.draw.n == 0))  # E1: a reshuffle replaces an empty pile
    parts.append(implies(s.phase == CHANCE, any_of(s.resume == TURNUP, s.resume == DRAW)))
    # after the final exhaustion nothing more is taken from the pile (E2)
    later = (PLANT, DISCARD, START, DRAW, CHANCE, OFFER)
    parts.append(implies(s.final, all_of(*[s.phase != ph for ph in later],
                                         implies(s.phase == TURNUP, s.todo == 0))))
    draws = n if cfg.draw_each and not cfg.duel else cfg.draw
    drawing = any_of(s.phase == DRAW, all_of(s.phase == CHANCE, s.resume == DRAW))
    parts.append(implies(drawing, s.drawer + s.todo <= draws))
    parts.append(implies(any_of(s.phase == TURNUP, s.phase == DRAW), s.draw.n >= 0))
    return all_of(*parts)


# ------------------------------------------------------------------ named state invariants


def inv_homogeneous(cfg: SpecConfig, s: SState) -> Any:
    """H2: a field holds one bean type; an empty field has none; fields past the owned ones are empty."""
    parts = []
    for p in s.players:
        for f in range(NF):
            parts += [p.fc[f] >= 0, (p.fc[f] == 0) == (p.fb[f] == -1),
                      implies(p.fc[f] > 0, _is_bean(cfg, p.fb[f])), implies(f >= p.nf, p.fc[f] == 0)]
    return all_of(*parts)


def inv_planted(cfg: SpecConfig, s: SState) -> Any:
    """T1: never more than two phase-1 plantings in a turn."""
    return all_of(s.planted >= 0, s.planted <= 2)


def inv_aside_planted(cfg: SpecConfig, s: SState) -> Any:
    """T4/T6: set-aside cards exist only during trading and phase 3; all are planted by its end
    (phase 3 goes seat by seat from the active player: the seats already passed hold none)."""
    busy = any_of(s.phase == TRADE, s.phase == PLANT_ASIDE, s.phase == ASIDE_NEXT)
    n = cfg.players
    parts = [implies(neg(busy), total(list(p.aside)) == 0) for p in s.players]
    for q, p in enumerate(s.players):
        offset = (q - s.active) % n
        empty = total(list(p.aside)) == 0
        parts.append(implies(all_of(s.phase == ASIDE_NEXT, offset < s.todo), empty))
        parts.append(implies(all_of(s.phase == PLANT_ASIDE, offset < (s.to_move - s.active) % n), empty))
    return all_of(*parts)


def inv_final_harvest(cfg: SpecConfig, s: SState) -> Any:
    """E3: when the game is over every field has been harvested."""
    return implies(s.phase == OVER, all_of(*[p.fc[f] == 0 for p in s.players for f in range(NF)]))


def inv_exhaustions(cfg: SpecConfig, s: SState) -> Any:
    """E1-E2: the pile is exhausted at most as often as the ruleset's final exhaustion."""
    return all_of(s.exh <= cfg.final_exhaustion,
                  implies(s.exh == cfg.final_exhaustion,
                          any_of(s.final, s.phase == FINISH, s.phase == OVER)))


def inv_empty_pile(cfg: SpecConfig, s: SState) -> Any:
    """E1-E2: a reshuffle is due only with cards to shuffle, and after the final exhaustion the pile
    stays empty. At-exhaustion: outside a reshuffle an empty draw pile means the final pass (E2) or
    the end. On-demand: the pile may lie empty until the next need, and a reshuffle is due only at a
    need (a card still to take)."""
    parts = [implies(s.phase == CHANCE, s.discard.n > 0), implies(s.final, s.draw.n == 0)]
    if cfg.on_demand:
        parts.append(implies(s.phase == CHANCE, s.todo > 0))
    else:
        parts.append(implies(all_of(s.draw.n == 0, s.phase != CHANCE),
                             any_of(s.final, s.phase == FINISH, s.phase == OVER)))
    return all_of(*parts)


STATE_INVARIANTS: dict[str, Callable[[SpecConfig, SState], Any]] = {
    "field-homogeneity-H2": inv_homogeneous,
    "at-most-two-plantings-T1": inv_planted,
    "set-aside-planted-T6": inv_aside_planted,
    "final-harvest-E3": inv_final_harvest,
    "exhaustions-bounded-E2": inv_exhaustions,
    "empty-draw-pile-E1": inv_empty_pile,
    "well-formed": well_formed,
}


def inv(cfg: SpecConfig, s: SState) -> Any:
    return all_of(*[f(cfg, s) for f in STATE_INVARIANTS.values()])


# ------------------------------------------------------------------ two-state properties


def _field_cards(fb: Any, fc: Any, b: int) -> Any:
    return z3.If(fb == b, fc, 0) if not isinstance(fb, int) else (fc if fb == b else 0)


def _bean_delta(s: SState, s2: SState, b: int) -> Any:
    """Cards of bean ``b`` gained minus lost over all zones, sequences by their ghost tallies; zones
    a step leaves untouched (the very same terms) are skipped, which keeps the arithmetic small."""
    parts: list[Any] = []

    def zone(x: Any, y: Any, count: Callable[[Any], Any]) -> None:
        if x is not y:
            parts.append(count(y) - count(x))

    def tally(q: Seq) -> Any:
        return q.tally_of(b)

    zone(s.up[b], s2.up[b], lambda v: v)
    zone(s.out[b], s2.out[b], lambda v: v)
    zone(s.draw, s2.draw, tally)
    zone(s.discard, s2.discard, tally)
    for p, q in zip(s.players, s2.players, strict=True):
        zone(p.hand, q.hand, tally)
        zone(p.coins, q.coins, tally)
        zone(p.aside[b], q.aside[b], lambda v: v)
        for f in range(NF):
            if p.fb[f] is not q.fb[f] or p.fc[f] is not q.fc[f]:
                parts.append(_field_cards(q.fb[f], q.fc[f], b) - _field_cards(p.fb[f], p.fc[f], b))
    return total(parts)


def tallies_exact(cfg: SpecConfig, s: SState) -> Any:
    """The ghost tallies of a symbolic state's sequences are their real counts (the premise that
    makes tallies stand for cards; proofs.ghost carries it through every operation)."""
    return all_of(*[q.tally[b] == q.count(b) for q in _seqs(s) if q.tally is not None for b in cfg.beans])


def p_conservation(cfg: SpecConfig, s: SState, a: SAction, t: Step, s2: SState) -> Any:
    """Card conservation: every step keeps the number of cards of each bean in play. Proved over
    ghost tallies: each changed sequence's operations met their preconditions (``ok``), under
    which proofs.ghost proves the tallies exact."""
    oks = [q.ok for q, q0 in zip(_seqs(s2), _seqs(s), strict=True) if q is not q0]
    return all_of(*oks, *[_bean_delta(s, s2, b) == 0 for b in cfg.beans])


def _subsequences(old: Seq, new: Seq, draw: Seq) -> Any:
    """``new`` is ``old`` with some cards removed (order kept), plus at most one card drawn from the
    top of ``draw`` appended at the back."""
    cap = old.cap
    options = []
    for r in range(cap + 1):
        for removed in combinations(range(cap), r):
            kept = [i for i in range(cap) if i not in removed]
            left = old.n - r
            body = [(max(removed) < old.n) if removed else True, left >= 0]
            for i, src in enumerate(kept):
                body.append(implies(i < left, select(list(new.slots), i, -1) == old.slots[src]))
            base = all_of(*body)
            options.append(all_of(base, new.n == left))
            drawn = select(list(new.slots), left, -1) == draw.slots[0] if draw.cap else False
            options.append(all_of(base, new.n == left + 1, draw.n > 0, drawn))
    return any_of(*options)


def p_hand_order(cfg: SpecConfig, s: SState, a: SAction, t: Step, s2: SState) -> Any:
    """H1: a hand only loses cards (order kept) or gains the top card of the draw pile at its back;
    and outside trades and the duel's discard, a hand loses only its front card."""
    parts = []
    for p, q in zip(s.players, s2.players, strict=True):
        if q.hand is p.hand:
            continue  # the step leaves this hand alone
        parts.append(_subsequences(p.hand, q.hand, s.draw))
        if t.kind not in (ACCEPT_K, DISCARD_K):
            front = all_of(q.hand.n == p.hand.n - 1,
                           *[implies(i < q.hand.n, q.hand.slots[i] == p.hand.slots[i + 1])
                             for i in range(min(q.hand.cap, p.hand.cap - 1))])
            parts.append(implies(q.hand.n < p.hand.n, front))
    return all_of(*parts)


def p_single_bean(cfg: SpecConfig, s: SState, a: SAction, t: Step, s2: SState) -> Any:
    """H4: no step empties a one-card field while another field holds more (lenient reading) /
    unless every field holds exactly one (strict reading); the final harvest (E3) is exempt."""
    if t.name == "final-harvest":
        return True
    parts = []
    for p, q in zip(s.players, s2.players, strict=True):
        for f in range(NF):
            if cfg.strict:
                ok = all_of(*[implies(g < p.nf, p.fc[g] == 1) for g in range(NF)])
            else:
                ok = all_of(*[implies(g < p.nf, p.fc[g] <= 1) for g in range(NF) if g != f])
            parts.append(implies(all_of(p.fc[f] == 1, q.fc[f] == 0), ok))
    return all_of(*parts)


def p_never_retraded(cfg: SpecConfig, s: SState, a: SAction, t: Step, s2: SState) -> Any:
    """T4: set-aside (received) cards leave the set-aside area only by being planted by their owner
    on a field of their type; a deal's received cards go to the set-aside area, never to a hand."""
    parts = []
    for i, (p, q) in enumerate(zip(s.players, s2.players, strict=True)):
        for b in cfg.beans:
            planted_here = all_of(t.kind == PLANT_ASIDE_K, a.player == i, a.bean == b,
                                  q.aside[b] == p.aside[b] - 1,
                                  any_of(*[all_of(q.fb[f] == b, q.fc[f] == p.fc[f] + 1) for f in range(NF)]))
            parts.append(implies(q.aside[b] < p.aside[b], planted_here))
        if t.kind == ACCEPT_K:
            parts.append(q.hand.n <= p.hand.n)
    return all_of(*parts)


def p_coins(cfg: SpecConfig, s: SState, a: SAction, t: Step, s2: SState) -> Any:
    """C1/F1: coin stacks only grow by a harvest (by the beanometer) and only shrink by the third
    field's price; coins already on a stack never change."""
    cost = cfg.third_cost or 0
    table = payout_table(cfg.meters, 40)
    parts = []
    for i, (p, q) in enumerate(zip(s.players, s2.players, strict=True)):
        keep = min(p.coins.cap, q.coins.cap)
        prefix = all_of(*[implies(j < all_of_n(p.coins.n, q.coins.n), q.coins.slots[j] == p.coins.slots[j])
                          for j in range(keep)])
        parts.append(prefix)
        grew = q.coins.n > p.coins.n
        shrank = q.coins.n < p.coins.n
        harvesting = t.kind == HARVEST_K or t.name == "final-harvest"
        parts.append(implies(grew, all_of(harvesting, a.player == i)))
        parts.append(implies(shrank, all_of(t.kind == BUY_K, a.player == i, q.coins.n == p.coins.n - cost)))
        if harvesting:
            parts.append(implies(a.player == i, q.coins.n == p.coins.n + _payout(cfg, table, p, a.field)))
    return all_of(*parts)


_PAYOUTS: dict[tuple[Any, ...], tuple[Any, Any]] = {}  # the same fields and field: the same term


def _payout(cfg: SpecConfig, table: tuple[tuple[int, ...], ...], p: SPlayer, field: Any) -> Any:
    """The beanometer's coins for harvesting field ``field`` of ``p`` (C1, V5's field beans pay
    none), by table lookup. Built once per player state and field term: every harvest instance of
    a configuration asks for the same one, and the lookup is large to build (the terms are
    hash-consed by Z3 anyway, so the cache changes no query)."""
    key = (cfg, *(_term_id(x) for x in (*p.fb, *p.fc, field)))
    hit = _PAYOUTS.get(key)  # Z3 ids are unique among live terms, and the entry keeps them alive
    if hit is not None:
        return hit[1]
    b = select(list(p.fb), field, -1)
    n = select(list(p.fc), field, 0)
    pay = select([select(list(row), n, row[-1]) for row in table], b, 0)
    if cfg.field_beans:
        pay = z3.If(field_bean_grant(b, n), 0, pay)
    if len(_PAYOUTS) > 256:
        _PAYOUTS.clear()
    _PAYOUTS[key] = ((p.fb, p.fc, field), pay)
    return pay


def _term_id(x: Any) -> Any:
    return ("z3", x.get_id()) if isinstance(x, z3.ExprRef) else x


def all_of_n(x: Any, y: Any) -> Any:
    return z3.If(x < y, x, y)


def p_active_deals(cfg: SpecConfig, s: SState, a: SAction, t: Step, s2: SState) -> Any:
    """T3: cards pass from one player to another only in a deal with the active player."""
    parts = []
    for i, (p, q) in enumerate(zip(s.players, s2.players, strict=True)):
        for j, (p2, q2) in enumerate(zip(s.players, s2.players, strict=True)):
            if i == j:
                continue
            moved = all_of(q.hand.n < p.hand.n, total(list(q2.aside)) > total(list(p2.aside)))
            parts.append(implies(moved, any_of(s.active == i, s.active == j)))
    return all_of(*parts)


def p_two_plantings(cfg: SpecConfig, s: SState, a: SAction, t: Step, s2: SState) -> Any:
    """T1: a phase-1 planting happens only before the second one and counts."""
    if t.kind != PLANT_K:
        return True
    return all_of(s.planted < 2, s2.planted == s.planted + 1)


def p_exhaustion_moment(cfg: SpecConfig, s: SState, a: SAction, t: Step, s2: SState) -> Any:
    """E1-E2: the exhaustion count rises by one, only while turning up or drawing: at-exhaustion
    exactly when a step takes the last card, on-demand exactly when a card must be taken from the
    empty pile. Then a reshuffle is due unless this is the final exhaustion (the count of S, or an
    empty discard pile); the final one ends the turning up (the turn finishes) or the game at once
    (drawing)."""
    if s.exh is s2.exh:
        rise: Any = False
    else:
        rise = s2.exh == s.exh + 1
    took_last = all_of(s.draw.n > 0, s2.draw.n == 0) if s.draw is not s2.draw else False
    taking = any_of(s.phase == TURNUP, s.phase == DRAW)
    if cfg.on_demand:
        moment = all_of(taking, s.todo > 0, s.draw.n == 0)
    else:
        moment = all_of(taking, took_last)
    chance = all_of(s2.phase == CHANCE, s.phase != CHANCE)
    due = all_of(s2.exh < cfg.final_exhaustion, s.discard.n > 0)
    return all_of(
        any_of(s2.exh == s.exh, rise), rise == moment,
        implies(rise, chance == due),
        implies(all_of(rise, neg(due), s.phase == TURNUP),
                all_of(s2.final, s2.phase == TURNUP, s2.todo == 0)),
        implies(all_of(rise, neg(due), s.phase == DRAW), s2.phase == FINISH),
    )


TwoState = Callable[[SpecConfig, SState, SAction, Step, SState], Any]
TWO_STATE: dict[str, TwoState] = {
    "hand-order-H1": p_hand_order,
    "single-bean-harvest-H4": p_single_bean,
    "traded-never-retraded-T4": p_never_retraded,
    "card-conservation": p_conservation,
    "coins-by-harvest-or-purchase-C1-F1": p_coins,
    "deals-with-active-player-T3": p_active_deals,
    "plantings-counted-T1": p_two_plantings,
    "exhaustion-moment-E1-E2": p_exhaustion_moment,
}


# Situations each property speaks about (proofs/runner.py): some step must reach each one, or the
# property holds vacuously (e.g. a hand-order property that no step ever changes a hand under).
# Each is built only while it has not been reached (building terms costs more than checking them).

def _changed(s: SState, s2: SState) -> list[tuple[SPlayer, SPlayer]]:
    return [(p, q) for p, q in zip(s.players, s2.players, strict=True) if p is not q]


def _fields(s: SState, s2: SState, cond: Callable[[Any, Any], Any]) -> Any:
    return any_of(*[cond(p.fc[f], q.fc[f]) for p, q in _changed(s, s2) for f in range(NF)
                    if p.fc[f] is not q.fc[f]])


def _sizes(s: SState, s2: SState, zone: Callable[[SPlayer], Seq], grows: bool) -> Any:
    return any_of(*[zone(q).n > zone(p).n if grows else zone(q).n < zone(p).n
                    for p, q in _changed(s, s2) if zone(p) is not zone(q)])


def _aside_planted(s: SState, s2: SState) -> Any:
    return any_of(*[total(list(q.aside)) < total(list(p.aside)) for p, q in _changed(s, s2)
                    if p.aside is not q.aside])


def _deal(s: SState, s2: SState) -> Any:
    return any_of(*[all_of(q.hand.n < p.hand.n, total(list(q2.aside)) > total(list(p2.aside)))
                    for i, (p, q) in enumerate(zip(s.players, s2.players, strict=True))
                    for j, (p2, q2) in enumerate(zip(s.players, s2.players, strict=True))
                    if i != j and p is not q and p2 is not q2])


def _hand(p: SPlayer) -> Seq:
    return p.hand


def _coins(p: SPlayer) -> Seq:
    return p.coins


Trigger = Callable[[SpecConfig, SState, SAction, Step, SState], Any]
ON_DEMAND_ONLY = " (on-demand)"  # a situation of the on-demand reading, sought in its configurations only
TRIGGERS: dict[str, list[tuple[str, Trigger]]] = {
    "field-homogeneity-H2": [("a field gains a card", lambda cfg, s, a, t, s2: _fields(
        s, s2, lambda c, c2: c2 > c))],
    "at-most-two-plantings-T1": [("a second planting", lambda cfg, s, a, t, s2: all_of(
        s.planted == 1, s2.planted == 2) if s.planted is not s2.planted else False)],
    "set-aside-planted-T6": [("a set-aside card is planted", lambda cfg, s, a, t, s2: _aside_planted(s, s2))],
    "final-harvest-E3": [("the game ends", lambda cfg, s, a, t, s2: all_of(
        s.phase != OVER, s2.phase == OVER))],
    "exhaustions-bounded-E2": [("the final exhaustion", lambda cfg, s, a, t, s2: all_of(
        s.exh < cfg.final_exhaustion, s2.exh == cfg.final_exhaustion))],
    "empty-draw-pile-E1": [
        ("the pile is emptied", lambda cfg, s, a, t, s2: all_of(s.draw.n > 0, s2.draw.n == 0)
         if s.draw is not s2.draw else False),
        ("a reshuffle becomes due", lambda cfg, s, a, t, s2: all_of(s.phase != CHANCE, s2.phase == CHANCE))],
    "exhaustion-moment-E1-E2": [
        ("a reshuffle at an exhaustion", lambda cfg, s, a, t, s2: all_of(
            s2.exh > s.exh, s2.phase == CHANCE)),
        ("the final exhaustion turning up", lambda cfg, s, a, t, s2: all_of(
            s2.exh > s.exh, s.phase == TURNUP, s2.phase != CHANCE)),
        ("the final exhaustion drawing", lambda cfg, s, a, t, s2: all_of(
            s2.exh > s.exh, s.phase == DRAW, s2.phase != CHANCE)),
        ("the pile emptied with no exhaustion" + ON_DEMAND_ONLY, lambda cfg, s, a, t, s2: all_of(
            s.draw.n > 0, s2.draw.n == 0, s2.exh == s.exh)
            if s.draw is not s2.draw else False)],
    "hand-order-H1": [("a hand loses a card", lambda cfg, s, a, t, s2: _sizes(s, s2, _hand, False)),
                      ("a hand gains a card", lambda cfg, s, a, t, s2: _sizes(s, s2, _hand, True))],
    "single-bean-harvest-H4": [("a one-card field is emptied", lambda cfg, s, a, t, s2: False
                                if t.name == "final-harvest" else _fields(
                                    s, s2, lambda c, c2: all_of(c == 1, c2 == 0)))],
    "traded-never-retraded-T4": [
        ("a set-aside card is planted", lambda cfg, s, a, t, s2: _aside_planted(s, s2)),
        ("a deal is accepted", lambda cfg, s, a, t, s2: t.kind == ACCEPT_K)],
    "card-conservation": [
        ("a card leaves the draw pile", lambda cfg, s, a, t, s2: s2.draw.n < s.draw.n
         if s.draw is not s2.draw else False),
        ("a field is harvested", lambda cfg, s, a, t, s2: _fields(
            s, s2, lambda c, c2: all_of(c > 0, c2 == 0)))],
    "coins-by-harvest-or-purchase-C1-F1": [
        ("a harvest pays coins", lambda cfg, s, a, t, s2: _sizes(s, s2, _coins, True)),
        ("coins pay for a field", lambda cfg, s, a, t, s2: _sizes(s, s2, _coins, False))],
    "deals-with-active-player-T3": [("cards pass between players", lambda cfg, s, a, t, s2: _deal(s, s2))],
    "plantings-counted-T1": [("a phase-1 planting", lambda cfg, s, a, t, s2: t.kind == PLANT_K)],
}


# ------------------------------------------------------------------ running the proofs


PROOF_CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("rio-grande", 4, {}),  # two fields and a third to buy, trading
    ("rio-grande", 4, {"harvest": "strict"}),  # H4's strict reading
    ("amigo", 3, {}),  # three fields from the start
    ("rio-grande", 2, {}),  # the bean duel: offers, discards, matches, coins out of the game
    ("amigo-v2", 4, {}),  # V4 draws and V5 field beans
    ("rio-grande", 4, {"reshuffle": "on-demand"}),  # E1's on-demand reading
    ("rio-grande", 2, {"reshuffle": "on-demand"}),  # the duel, on-demand: no reshuffle, final at the need
]

# Transitions of one mode only (D1-D2): the invariant excludes their phases in the other mode, so
# they need to be satisfiable only in configurations of their own mode.
DUEL_ONLY = {"discard", "discard-up", "duel-match", "duel-match-done", "plant-up"}
TRADING_ONLY = {"propose", "accept", "decline", "plant-aside", "phase3-next"}

TIMEOUT_MS = BACKSTOP_MS  # per query, a backstop to the resource limit (runner.RLIMIT); "unknown" is refuted


def spec_config(name: str, players: int, options: dict[str, Any], k: int = 2) -> SpecConfig:
    su = setup(ruleset(name, {**options, "max_deal_cards": k}), players)
    return SpecConfig.from_setup(su)


def _solver() -> z3.Solver:
    """Linear integer arithmetic: with ghost tallies only the reshuffle's query counts over
    slots, and LIA decides each query in well under a second."""
    return solver(TIMEOUT_MS)


def goals(cfg: SpecConfig, s: SState, a: SAction, t: Step, s2: SState, exact: Any = None) -> list[Goal]:
    """The goals of one transition instance, each with the situations it speaks about (proofs/runner.py:
    each must be reached somewhere, or the property is vacuous). Card conservation retries with the
    ghost tallies tied to the real counts (the reshuffle's guard speaks of real counts): ``exact``,
    ``tallies_exact(cfg, s)`` built once per configuration."""
    out: list[Goal] = []
    def triggers(pid: str) -> Triggers:
        return [(what, partial(f, cfg, s, a, t, s2)) for what, f in TRIGGERS.get(pid, [])
                if cfg.on_demand or not what.endswith(ON_DEMAND_ONLY)]

    for pid, f in STATE_INVARIANTS.items():
        out.append(Goal(pid, "induction", f(cfg, s2), triggers=triggers(pid)))
    for pid, g in TWO_STATE.items():
        retry = ((tallies_exact(cfg, s) if exact is None else exact),) if pid == "card-conservation" else ()
        trig = triggers(pid)
        if pid == "single-bean-harvest-H4" and cfg.strict:
            pid += "-strict"
        out.append(Goal(pid, "two-state", g(cfg, s, a, t, s2), triggers=trig, retry=retry))
    return out


def _label(name: str, players: int, options: dict[str, Any]) -> str:
    return f"{name} {players}p" + "".join(f" {k}={v}" for k, v in options.items())


def proof_instances(
    configs: list[tuple[str, int, dict[str, Any]]] | None = None, mutant: str | None = None,
    caps: Caps = Caps(),
) -> list[tuple[str, SpecConfig, Spec, Step, SAction]]:
    """Every (configuration, transition, symbolic action) the proofs check."""
    out: list[tuple[str, SpecConfig, Spec, Step, SAction]] = []
    for name, players, options in PROOF_CONFIGS if configs is None else configs:
        cfg = spec_config(name, players, options)
        spec = Spec(cfg, mutant)
        out.extend((_label(name, players, options), cfg, spec, t, a) for t, a in _instances(spec, cfg, caps))
    return out


def case(name: str, players: int, options: dict[str, Any], mutant: str | None = None,
         caps: Caps = Caps(), first: tuple[str, ...] = ()) -> Case[SState, SAction]:
    """The proof case of one configuration: Inv(S) within the bounds, every transition instance;
    the transitions named in ``first`` first (a run that stops at the first refutation reaches
    them sooner; every instance is proved all the same)."""
    cfg = spec_config(name, players, options)
    spec = Spec(cfg, mutant)
    label = _label(name, players, options)
    s = sym_state(cfg, caps, "s")

    def describe(m: z3.ModelRef, a: SAction, t: Step, s2: SState) -> str:
        return _counterexample(m, s, a, s2, t, label)

    steps = sorted(_instances(spec, cfg, caps), key=lambda ta: ta[0].name not in first)  # stable
    return Case(label, s, all_of(inv(cfg, s), bounded(s)), bounded, steps,
                goals=partial(goals, cfg, exact=tallies_exact(cfg, s)), describe=describe,
                where=lambda a, t: f"{label}, {t.name}",
                must_fire=lambda t: t.name not in (TRADING_ONLY if cfg.duel else DUEL_ONLY))


def prove(
    configs: list[tuple[str, int, dict[str, Any]]] | None = None,
    mutant: str | None = None,
    caps: Caps = Caps(),
    only: set[str] | None = None,
    stop_at_first: bool = False,
    tick: Callable[[], None] | None = None,
    vacuity: bool = True,
    progress: ProgressFn | None = None,
    jobs: int = 1,
    profile: list[Query] | None = None,
    first: tuple[str, ...] = (),
) -> list[Result]:
    """Prove every property for every transition instance of every configuration (proofs/runner.py:
    no transition and no property may hold vacuously); then the ghost-tally lemmas card
    conservation rests on, and the bounded check of T1. ``tick`` is called once per instance;
    ``progress(instances done, instances, note)`` as each proof starts and at least every 0.25 s
    of a long query. ``jobs`` > 1: each configuration, the lemmas and the bounded check in a
    worker process of their own, ``jobs`` at a time (the same verdicts: ``runner.merge``; ``tick``
    and ``profile`` then unused, ``progress`` once per finished task). ``profile``: every query
    as a ``runner.Query``. ``first``: these transitions first in each configuration (``case``).
    Ctrl-C: ``proofs.runner.ProofsInterrupted`` with the verdicts so far."""
    chosen = PROOF_CONFIGS if configs is None else configs
    if jobs > 1:
        return _prove_parallel(chosen, mutant, caps, only, stop_at_first, vacuity, progress, jobs, first)
    todo = (case(name, players, options, mutant, caps, first) for name, players, options in chosen)
    def bmc(progress: ProgressFn | None) -> Result:
        return bmc_two_plantings(mutant, progress)

    extras = [("ghost-tally-lemmas", _lemmas), ("two-plantings-per-turn-T1", bmc)]
    return run(todo, TIMEOUT_MS, only, stop_at_first, tick, extras, vacuity=vacuity,
               progress=progress, profile=profile)


Task = tuple[str, Any]


def _task(task: Task) -> Part | Result:
    """One task of a parallel ``prove`` (in a worker process): a configuration's part, or an extra."""
    what, arg = task
    if what == "case":
        (name, players, options), mutant, caps, only, stop_at_first, vacuity, first = arg
        fired: dict[str, bool] = {}
        found = run([case(name, players, options, mutant, caps, first)], TIMEOUT_MS, only, stop_at_first,
                    vacuity=vacuity, raw=fired)
        return Part(found, fired)
    if what == "ghost-tally-lemmas":
        return _lemmas()
    return bmc_two_plantings(arg)


def _prove_parallel(configs: list[tuple[str, int, dict[str, Any]]], mutant: str | None, caps: Caps,
                    only: set[str] | None, stop_at_first: bool, vacuity: bool,
                    progress: ProgressFn | None, jobs: int, first: tuple[str, ...] = ()) -> list[Result]:
    tasks: list[Task] = [("case", (c, mutant, caps, only, stop_at_first, vacuity, first)) for c in configs]
    extras = [rid for rid in ("ghost-tally-lemmas", "two-plantings-per-turn-T1")
              if only is None or rid in only]
    tasks += [(rid, mutant) for rid in extras]
    out: list[Part | Result] = []
    # spawn, not fork: the parent may hold Z3 contexts and threads that a forked child must not share
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(min(jobs, len(tasks)), initializer=ignore_interrupts) as pool:
        try:
            for i, found in enumerate(pool.imap(_task, tasks)):
                out.append(found)
                if progress is not None:
                    progress(i + 1, len(tasks), f"{i + 1} of {len(tasks)} tasks done")
        except KeyboardInterrupt:
            pool.terminate()
            parts = [x for x in out if isinstance(x, Part)]
            partial = merge(parts, only, stop_at_first=stop_at_first)
            for r in partial:
                if r.status == "proved":
                    r.status = "interrupted"
            raise ProofsInterrupted(partial, len(out), len(tasks)) from None
    parts = [x for x in out if isinstance(x, Part)]
    results = merge(parts, only, stop_at_first=stop_at_first)
    if stop_at_first and any(r.status != "proved" for r in results):
        return results  # the one run stops before the extras
    return results + [x for x in out if isinstance(x, Result)]


def _lemmas(progress: ProgressFn | None = None) -> Result:
    lemmas = prove_lemmas(set(GHOST_USES), progress)
    r = Result("ghost-tally-lemmas", f"{len(lemmas)} lemmas", "proved", sum(x.seconds for x in lemmas),
               rlimit=max((x.rlimit for x in lemmas), default=0))
    bad = [f"{x.op} (capacity {x.cap})" for x in lemmas if x.status != "proved"]
    if bad:
        r.status = "refuted"
        r.counterexample = "tally not exact for " + ", ".join(bad)
    return r


def _instances(spec: Spec, cfg: SpecConfig, caps: Caps) -> list[tuple[Step, SAction]]:
    """Each transition with a symbolic action; decisions once per acting seat (a concrete seat
    keeps the other seats' zones untouched terms, which keeps the queries small)."""
    out: list[tuple[Step, SAction]] = []
    for t in spec.transitions():
        a = action_var("a", cfg.k, order_cap=caps.draw if t.name == "reshuffle" else 0)
        if t.internal:
            out.extend((t, dataclasses.replace(a, player=x.player, field=x.field)) if t.per_field
                       else (t, a) for x in spec.internal_args(t))
        elif t.name == "reshuffle":
            out.append((t, a))
        else:
            out.extend((t, dataclasses.replace(a, player=p)) for p in range(cfg.players))
    return out


def bmc_two_plantings(mutant: str | None = None, progress: ProgressFn | None = None,
                      steps: int = 4) -> Result:
    """BMC: from the start of phase 1, no run of ``steps`` steps within one turn plants three cards
    from the hand (T1). ``progress``: the query's seconds, every 0.25 s."""
    t0 = time.perf_counter()
    cfg = spec_config("rio-grande", 4, {})
    spec = Spec(cfg, mutant)
    caps = Caps()
    s = sym_state(cfg, caps, "b0")
    solver = _solver()
    solver.add(inv(cfg, s), bounded(s), s.phase == PLANT, s.planted == 0)
    ts = [t for t in spec.transitions() if t.name in ("plant", "harvest", "buy-field")]
    plants = []
    cur = s
    for i in range(steps):
        a = action_var(f"b{i}", cfg.k)
        choice = int_var(f"choice{i}")
        nxt = None
        guards = []
        for j, t in enumerate(ts):
            g = t.guard(cur, a)
            guards.append(all_of(choice == j, g))
            cand = t.after(cur, a)
            nxt = cand if nxt is None else _pick_state(choice == j, cand, nxt)
        assert nxt is not None
        solver.add(any_of(*guards), bounded(nxt), nxt.turn == s.turn)
        plants.append(choice == 0)
        cur = nxt
    solver.add(count_if(plants) >= 3)

    def tick(seconds: float) -> None:
        if progress is not None:
            progress(0, None, f"two-plantings-per-turn-T1: {seconds:.0f} s")

    out, used = checked(solver, tick)
    status = "proved" if out == z3.unsat else "refuted"
    return Result("two-plantings-per-turn-T1", f"bmc {steps} steps", status, time.perf_counter() - t0,
                  counterexample="" if status == "proved" else "a turn with three phase-1 plantings",
                  rlimit=used)


_PHASE_NAMES = {PLANT: "plant (phase 1)", TRADE: "trade (phase 2)", PLANT_ASIDE: "plant set-aside (phase 3)",
                DRAW: "draw (phase 4)", CHANCE: "reshuffle due", OVER: "over", OFFER: "duel offer",
                DISCARD: "duel discard", TURNED: "duel step 3", MATCH: "duel match", TURNUP: "turning up",
                START: "turn start", ENDTURN: "end of turn", FINISH: "final harvest",
                ASIDE_NEXT: "phase 3, next seat"}


def _counterexample(m: z3.ModelRef, s: SState, a: SAction, s2: SState, t: Step, label: str) -> str:
    """A Z3 model as text: the state, the action and the next state, beans by name."""
    ev, bean = evaluator(m), bean_name

    def cards(xs: list[int]) -> str:
        return "[" + " ".join(bean(b) for b in xs) + "]"

    def seq(q: Seq) -> str:
        n = ev(q.n)
        return cards([ev(x) for x in q.slots[: max(0, min(n, q.cap))]])

    def counts(xs: tuple[Any, ...]) -> str:
        return cards([b for b in range(NB) for _ in range(max(0, ev(xs[b])))])

    def show(st: SState) -> str:
        phase = ev(st.phase)
        lines = [f"{_PHASE_NAMES.get(phase, f'phase {phase}')}, active p{ev(st.active)}, to move "
                 f"p{ev(st.to_move)}, planted {ev(st.planted)}; draw {seq(st.draw)} discard "
                 f"{seq(st.discard)} face up {counts(st.up)}"]
        for i, p in enumerate(st.players):
            fields = fields_text(p, ev)
            lines.append(f"  p{i}: hand {seq(p.hand)} fields ({fields}) coins {seq(p.coins)} "
                         f"set aside {counts(p.aside)}")
        return "\n".join(lines)

    act = (f"{t.name}: player p{ev(a.player)} field {ev(a.field)} bean {bean(ev(a.bean))} "
           f"position {ev(a.pos)} partner p{ev(a.partner)}")
    return f"{label}\nstate: {show(s)}\naction: {act}\nnext: {show(s2)}"
