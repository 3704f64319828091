"""An independent symbolic specification of the Bohnanza rules as small steps.

Written from the rules (docs/rules.md), not from model/engine.py: it reads only the ruleset's
resolved numbers and the card tables (``SpecConfig.from_setup``). Every transition is a pair
``guard(S, A)`` / ``after(S, A)`` over hybrid values (proofs/symbolic.py): Python values for a
concrete state, Z3 terms for a symbolic one. Decisions (plant, harvest, propose, ...) are taken by
the player to move; internal steps (turn up one card, draw one card, start a turn, ...) fire by
themselves in the internal phases, exactly one at a time, until the next decision point, so one
engine action equals one decision followed by the internal steps it triggers.

E1 has two readings (``SpecConfig.on_demand``): at-exhaustion, the last card taken exhausts the
pile (``exhaust``); on-demand, the pile may lie empty until a card must be taken from it, and the
internal step ``exhaust-at-need`` exhausts it then (``n_need``). Both apply E2 at that moment.

Bounds: a symbolic state has fixed capacities (``Caps``): hand, draw pile, discard pile and coin
stack slots, 3 field slots, ``max_deal_cards`` slots per side of a deal. Proofs hold for every
state and successor within those capacities; the engine-vs-spec check sizes the capacities to each
sampled state, so it never skips one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from model.cards import Meter
from model.rules import Setup
from proofs.kernel import (
    ASIDE_NEXT,
    CHANCE,
    DECISION_PHASES,
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
    decision_phase,
    field_bean_grant,
    field_fits,
    harvestable,
    settle,
    step_table,
)
from proofs.kernel import coins_for as meter_coins
from proofs.symbolic import (
    Cond,
    Seq,
    Val,
    all_of,
    any_of,
    count_if,
    implies,
    int_var,
    ite,
    neg,
    pick_seq,
    select,
    seq_var,
    total,
)

# Phases and bean ids: proofs/kernel.py. The internal phases of the base game:
INTERNAL_PHASES = (DRAW, TURNUP, MATCH, START, ENDTURN, FINISH, ASIDE_NEXT)
ALL_PHASES = DECISION_PHASES + INTERNAL_PHASES + (CHANCE, OVER)


@dataclass(frozen=True)
class SpecConfig:
    """The numbers the rules need for one ruleset and player count (section S), plus bounds."""

    players: int
    beans: tuple[int, ...]
    fields: int
    third_cost: int | None
    face_up: int
    draw: int
    final_exhaustion: int
    duel: bool
    strict: bool
    distinct_fields: bool
    draw_each: bool
    field_beans: bool
    max_offers: int
    k: int  # max_deal_cards: slots per side of a deal
    meters: tuple[Meter, ...]
    tie_break: str = "hand"  # E4: hand / seat / none
    on_demand: bool = False  # E1 reading reshuffle=on-demand: exhausted when a card is needed

    @staticmethod
    def from_setup(su: Setup) -> SpecConfig:
        r = su.rules
        return SpecConfig(
            players=su.players, beans=su.beans, fields=su.fields, third_cost=su.third_cost,
            face_up=su.face_up, draw=su.draw, final_exhaustion=su.final_exhaustion, duel=su.duel,
            strict=su.strict_harvest, distinct_fields=r.distinct_fields, draw_each=r.draw_each,
            field_beans=r.field_beans, max_offers=r.max_offers, k=r.max_deal_cards,
            meters=tuple(su.meters), tie_break=r.tie_break, on_demand=r.reshuffle == "on-demand",
        )


@dataclass(frozen=True)
class SPlayer:
    hand: Seq
    fb: tuple[Val, ...]  # field bean, -1 when empty (NF slots; slots >= nf unused)
    fc: tuple[Val, ...]  # field count
    nf: Val  # fields owned
    coins: Seq  # coin stack, top last
    aside: tuple[Val, ...]  # set-aside cards: count per bean id


@dataclass(frozen=True)
class SState:
    players: tuple[SPlayer, ...]
    draw: Seq  # top first
    discard: Seq  # top last
    up: tuple[Val, ...]  # face-up / offered cards: count per bean id
    out: tuple[Val, ...]  # removed from the game: count per bean id
    active: Val
    phase: Val
    to_move: Val
    planted: Val
    first: Val
    offers: Val
    exh: Val
    final: Cond
    todo: Val  # cards still to take (TURNUP, DRAW) or the phase-3 cursor (ASIDE_NEXT)
    drawer: Val  # V4: how many seats have drawn this phase 4
    resume: Val  # at CHANCE: TURNUP or DRAW
    turn: Val
    pend: Cond  # a proposal is pending (T3)
    pp: Val  # its proposer
    pq: Val  # its partner
    pgh: tuple[Val, ...]  # the active player's hand positions, strictly increasing
    pghn: Val
    pgu: tuple[Val, ...]  # face-up beans given, non-decreasing
    pgun: Val
    pask: tuple[Val, ...]  # bean types asked, non-decreasing
    paskn: Val

    def replace(self, **kw: Any) -> SState:
        return dataclasses.replace(self, **kw)


# Decision kinds, then internal kinds.
PLANT_K, PLANT_ASIDE_K, PLANT_UP_K, HARVEST_K, BUY_K, END_K = 1, 2, 3, 4, 5, 6
PROPOSE_K, ACCEPT_K, DECLINE_K, DISCARD_K, DISCARD_UP_K, RESHUFFLE_K = 7, 8, 9, 10, 11, 12
DECISION_KINDS = {
    PLANT_K: "plant", PLANT_ASIDE_K: "plant-aside", PLANT_UP_K: "plant-up", HARVEST_K: "harvest",
    BUY_K: "buy-field", END_K: "end-phase", PROPOSE_K: "propose", ACCEPT_K: "accept",
    DECLINE_K: "decline", DISCARD_K: "discard", DISCARD_UP_K: "discard-up", RESHUFFLE_K: "reshuffle",
}


@dataclass(frozen=True)
class SAction:
    kind: Val
    player: Val = 0
    field: Val = 0
    bean: Val = 0
    pos: Val = 0
    partner: Val = 0
    gh: tuple[Val, ...] = ()
    ghn: Val = 0
    gu: tuple[Val, ...] = ()
    gun: Val = 0
    ask: tuple[Val, ...] = ()
    askn: Val = 0
    acc: tuple[Val, ...] = ()
    accn: Val = 0
    order: Seq | None = None


def action_var(name: str, k: int, order_cap: int = 0) -> SAction:
    def iv(s: str) -> Any:
        return int_var(f"{name}.{s}")

    return SAction(
        kind=iv("kind"), player=iv("player"), field=iv("field"), bean=iv("bean"), pos=iv("pos"),
        partner=iv("partner"),
        gh=tuple(iv(f"gh{i}") for i in range(k)), ghn=iv("ghn"),
        gu=tuple(iv(f"gu{i}") for i in range(k)), gun=iv("gun"),
        ask=tuple(iv(f"ask{i}") for i in range(k)), askn=iv("askn"),
        acc=tuple(iv(f"acc{i}") for i in range(k)), accn=iv("accn"),
        order=seq_var(f"{name}.order", order_cap) if order_cap else None,
    )


# ------------------------------------------------------------------ rule helpers


class Spec:
    """The transition system for one configuration; ``mutant`` names a deliberate rule breakage."""

    def __init__(self, cfg: SpecConfig, mutant: str | None = None) -> None:
        self.cfg = cfg
        self.mutant = mutant
        self.n = cfg.players

    def coins_for(self, b: Val, n: Val) -> Val:
        """C1: the beanometer, from the card table (every bean id: proofs/kernel.py)."""
        return meter_coins(self.cfg.meters, b, n, late_first=self.mutant == "beanometer-off-by-one")

    def fits(self, pl: SPlayer, f: Val, b: Val) -> Cond:
        """H3: an empty field, or one of the card's type (H2)."""
        if self.mutant == "mix-types":
            return all_of(f >= 0, f < pl.nf)
        return field_fits(pl, f, b)

    def plant_on(self, pl: SPlayer, f: Val, b: Val) -> SPlayer:
        fb = tuple(ite(f == i, b, pl.fb[i]) for i in range(NF))
        fc = tuple(ite(f == i, pl.fc[i] + 1, pl.fc[i]) for i in range(NF))
        return dataclasses.replace(pl, fb=fb, fc=fc)

    def harvestable(self, pl: SPlayer, f: Val) -> Cond:
        """H4 (proofs/kernel.py), lenient or strict by the ruleset."""
        return harvestable(pl, f, self.cfg.strict, protect=self.mutant != "harvest-protected-single")

    def harvest(self, s: SState, p: int, f: Val) -> tuple[SPlayer, Seq]:
        """H5 (and V5): coins to the stack, the rest to the discard pile; the field empties."""
        pl = s.players[p]
        b = select(list(pl.fb), f, -1)
        n = select(list(pl.fc), f, 0)
        grant: Cond = False
        k = self.coins_for(b, n)
        if self.cfg.field_beans:
            grant = field_bean_grant(b, n)
            k = ite(grant, 0, k)
        fb = tuple(ite(f == i, -1, pl.fb[i]) for i in range(NF))
        fc = tuple(ite(f == i, 0, pl.fc[i]) for i in range(NF))
        nf = ite(all_of(grant, pl.nf < 3), pl.nf + 1, pl.nf) if self.cfg.field_beans else pl.nf
        new = dataclasses.replace(pl, fb=fb, fc=fc, nf=nf, coins=pl.coins.push_copies(b, k))
        return new, s.discard.push_copies(b, n - k)

    def with_player(self, s: SState, p: Val, new: SPlayer) -> tuple[SPlayer, ...]:
        """Replace seat ``p`` (a symbolic seat picks per field)."""
        if isinstance(p, int):
            return s.players[:p] + (new,) + s.players[p + 1:]
        return tuple(_pick_player(p == q, new, old) for q, old in enumerate(s.players))

    def player_at(self, s: SState, p: Val) -> SPlayer:
        if isinstance(p, int):
            return s.players[p]
        out = s.players[-1]
        for q in range(self.n - 2, -1, -1):
            out = _pick_player(p == q, s.players[q], out)
        return out

    def decision(self, s: SState, a: SAction) -> Cond:
        return all_of(decision_phase(s.phase), a.player == s.to_move, a.player >= 0, a.player < self.n)

    # ------------------------------------------------------------------ decisions

    def g_plant(self, s: SState, a: SAction) -> Cond:
        pl = self.player_at(s, a.player)
        limit = 3 if self.mutant == "third-planting" else 2
        ok = all_of(self.decision(s, a), s.phase == PLANT, a.player == s.active, pl.hand.n > 0,
                    s.planted < limit, self.fits(pl, a.field, pl.hand.at(0)))
        if self.cfg.distinct_fields:
            ok = all_of(ok, implies(s.planted == 1, a.field != s.first))
        return ok

    def n_plant(self, s: SState, a: SAction) -> SState:
        p = a.player
        pl = self.player_at(s, p)
        if self.mutant == "plant-from-back":
            card, hand = pl.hand.at(pl.hand.n - 1), pl.hand.drop_back(1)
        else:
            card, hand = pl.hand.at(0), pl.hand.drop_front()
        new = dataclasses.replace(self.plant_on(pl, a.field, card), hand=hand)
        planted = s.planted + 1
        s = s.replace(players=self.with_player(s, p, new), planted=planted,
                      first=ite(s.planted == 0, a.field, s.first))
        limit = 3 if self.mutant == "third-planting" else 2
        done = any_of(planted >= limit, hand.n == 0)
        after = self.end_planting(s, hand.n)
        return _pick_state(done, after, s)

    def end_planting(self, s: SState, hand_n: Val) -> SState:
        """T1 done: the duel may discard (D2 step 2); otherwise turn up (T2)."""
        to_discard = all_of(self.cfg.duel, hand_n > 0)
        return s.replace(phase=ite(to_discard, DISCARD, TURNUP),
                         todo=ite(to_discard, s.todo, self.cfg.face_up))

    def g_plant_aside(self, s: SState, a: SAction) -> Cond:
        pl = self.player_at(s, a.player)
        return all_of(self.decision(s, a), s.phase == PLANT_ASIDE, a.bean >= 0, a.bean < NB,
                      select(list(pl.aside), a.bean, 0) > 0, self.fits(pl, a.field, a.bean))

    def n_plant_aside(self, s: SState, a: SAction) -> SState:
        pl = self.player_at(s, a.player)
        aside = tuple(ite(a.bean == b, pl.aside[b] - 1, pl.aside[b]) for b in range(NB))
        new = dataclasses.replace(self.plant_on(pl, a.field, a.bean), aside=aside)
        s = s.replace(players=self.with_player(s, a.player, new))
        emptied = total(list(aside)) == 0
        nxt = s.replace(phase=ASIDE_NEXT, todo=(a.player - s.active + self.n) % self.n + 1)
        return _pick_state(emptied, nxt, s)

    def g_plant_up(self, s: SState, a: SAction) -> Cond:
        pl = self.player_at(s, a.player)
        return all_of(self.decision(s, a), any_of(s.phase == OFFER, s.phase == TURNED),
                      a.bean >= 0, a.bean < NB, select(list(s.up), a.bean, 0) > 0,
                      self.fits(pl, a.field, a.bean))

    def n_plant_up(self, s: SState, a: SAction) -> SState:
        pl = self.player_at(s, a.player)
        up = tuple(ite(a.bean == b, s.up[b] - 1, s.up[b]) for b in range(NB))
        s = s.replace(players=self.with_player(s, a.player, self.plant_on(pl, a.field, a.bean)), up=up)
        return _pick_state(all_of(s.phase == OFFER, total(list(up)) == 0), s.replace(phase=START), s)

    def g_discard_up(self, s: SState, a: SAction) -> Cond:
        return all_of(self.decision(s, a), s.phase == OFFER, a.bean >= 0, a.bean < NB,
                      select(list(s.up), a.bean, 0) > 0)

    def n_discard_up(self, s: SState, a: SAction) -> SState:
        up = tuple(ite(a.bean == b, s.up[b] - 1, s.up[b]) for b in range(NB))
        s = s.replace(up=up, discard=s.discard.push_back(a.bean))
        return _pick_state(total(list(up)) == 0, s.replace(phase=START), s)

    def g_discard(self, s: SState, a: SAction) -> Cond:
        pl = self.player_at(s, a.player)
        return all_of(self.decision(s, a), s.phase == DISCARD, a.pos >= 0, a.pos < pl.hand.n)

    def n_discard(self, s: SState, a: SAction) -> SState:
        pl = self.player_at(s, a.player)
        card = pl.hand.at(a.pos)
        new = dataclasses.replace(pl, hand=pl.hand.remove_sorted([a.pos], 1))
        return s.replace(players=self.with_player(s, a.player, new), discard=s.discard.push_back(card),
                         phase=TURNUP, todo=self.cfg.face_up)

    def g_harvest(self, s: SState, a: SAction) -> Cond:
        pl = self.player_at(s, a.player)
        return all_of(self.decision(s, a), self.harvestable(pl, a.field))

    def n_harvest(self, s: SState, a: SAction) -> SState:
        if isinstance(a.player, int):
            new, discard = self.harvest(s, a.player, a.field)
            return s.replace(players=self.with_player(s, a.player, new), discard=discard)
        out = None
        for q in range(self.n - 1, -1, -1):
            new, discard = self.harvest(s, q, a.field)
            cand = s.replace(players=self.with_player(s, q, new), discard=discard)
            out = cand if out is None else _pick_state(a.player == q, cand, out)
        assert out is not None
        return out

    def g_buy(self, s: SState, a: SAction) -> Cond:
        cost = self.cfg.third_cost
        if cost is None:
            return False
        pl = self.player_at(s, a.player)
        return all_of(self.decision(s, a), pl.nf == 2, pl.coins.n >= cost)

    def n_buy(self, s: SState, a: SAction) -> SState:
        """F1: the top coins pay, onto the discard pile (out of the game in the duel)."""
        cost = self.cfg.third_cost or 0
        pl = self.player_at(s, a.player)
        start = pl.coins.n - cost
        new = dataclasses.replace(pl, nf=pl.nf + 1, coins=pl.coins.drop_back(cost))
        s2 = s.replace(players=self.with_player(s, a.player, new))
        if self.cfg.duel:
            paid = [pl.coins.at(start + j) for j in range(cost)]
            out = tuple(s.out[b] + count_if([c == b for c in paid]) for b in range(NB))
            return s2.replace(out=out)
        return s2.replace(discard=s.discard.push_range(pl.coins, start, cost))

    def g_end(self, s: SState, a: SAction) -> Cond:
        return all_of(self.decision(s, a), any_of(
            all_of(s.phase == PLANT, s.planted >= 1),
            all_of(s.phase == TRADE, neg(s.pend)),
            s.phase == DISCARD,
            s.phase == TURNED,
        ))

    def n_end(self, s: SState, a: SAction) -> SState:
        pl = self.player_at(s, s.active)
        from_plant = self.end_planting(s, pl.hand.n)
        aside = tuple(pl.aside[b] + s.up[b] for b in range(NB))
        if self.mutant == "lose-face-up":
            aside = pl.aside
        from_trade = s.replace(
            players=self.with_player(s, s.active, dataclasses.replace(pl, aside=aside)),
            up=(0,) * NB, phase=ASIDE_NEXT, todo=0, pend=False)
        from_discard = s.replace(phase=TURNUP, todo=self.cfg.face_up)
        from_turned = s.replace(phase=ENDTURN)
        return _pick_state(s.phase == PLANT, from_plant, _pick_state(
            s.phase == TRADE, from_trade, _pick_state(s.phase == DISCARD, from_discard, from_turned)))

    def g_propose(self, s: SState, a: SAction) -> Cond:
        k = self.cfg.k
        if self.cfg.duel:
            return False
        pl = self.player_at(s, a.player)
        parts = [self.decision(s, a), s.phase == TRADE, neg(s.pend), a.player == s.active,
                 a.partner >= 0, a.partner < self.n, a.partner != a.player,
                 s.offers < self.cfg.max_offers,
                 a.ghn >= 0, a.ghn <= k, a.gun >= 0, a.gun <= k, a.askn >= 0, a.askn <= k,
                 a.ghn + a.gun <= k, any_of(a.ghn > 0, a.gun > 0, a.askn > 0)]
        if self.mutant == "non-active-trade":
            # a pending offer's partner may pass it on to a third seat (two non-active players)
            parts[2] = True
            parts[3] = any_of(a.player == s.active, all_of(s.pend, a.player == s.pq, a.partner != s.pp))
        for j in range(k):
            used = j < a.ghn
            parts.append(implies(used, all_of(a.gh[j] >= 0, a.gh[j] < pl.hand.n)))
            if j:
                parts.append(implies(used, a.gh[j] > a.gh[j - 1]))
            parts.append(implies(j < a.askn, any_of(*[a.ask[j] == b for b in self.cfg.beans])))
            if j:
                parts.append(implies(j < a.askn, a.ask[j] >= a.ask[j - 1]))
                parts.append(implies(j < a.gun, a.gu[j] >= a.gu[j - 1]))
            parts.append(implies(j < a.gun, all_of(a.gu[j] >= 0, a.gu[j] < NB)))
        for b in range(NB):  # the face-up cards given must be there
            parts.append(count_if([all_of(j < a.gun, a.gu[j] == b) for j in range(k)]) <= s.up[b])
        return all_of(*parts)

    def n_propose(self, s: SState, a: SAction) -> SState:
        to_move = a.partner
        return s.replace(pend=True, pp=a.player, pq=a.partner, pgh=a.gh, pghn=a.ghn, pgu=a.gu, pgun=a.gun,
                         pask=a.ask, paskn=a.askn, to_move=to_move, offers=s.offers + 1)

    def g_accept(self, s: SState, a: SAction) -> Cond:
        k = self.cfg.k
        pl = self.player_at(s, a.player)
        parts = [self.decision(s, a), s.phase == TRADE, s.pend, a.player == s.pq,
                 a.accn == s.paskn]
        for j in range(k):
            used = j < a.accn
            parts.append(implies(used, all_of(a.acc[j] >= 0, a.acc[j] < pl.hand.n)))
            if j:
                parts.append(implies(used, a.acc[j] > a.acc[j - 1]))
        for b in self.cfg.beans:  # the hand cards given are exactly the asked types
            gives = count_if([all_of(j < a.accn, pl.hand.at(a.acc[j]) == b) for j in range(k)])
            asked = count_if([all_of(j < s.paskn, s.pask[j] == b) for j in range(k)])
            parts.append(gives == asked)
        return all_of(*parts)

    def n_accept(self, s: SState, a: SAction) -> SState:
        """T3-T4: the cards change hands into the set-aside areas; hands keep their order (H1)."""
        k = self.cfg.k
        act, q = s.pp, a.player
        apl, qpl = self.player_at(s, act), self.player_at(s, q)
        to_q = [(j < s.pghn, apl.hand.at(s.pgh[j])) for j in range(k)] + \
               [(j < s.pgun, s.pgu[j]) for j in range(k)]
        to_a = [(j < a.accn, qpl.hand.at(a.acc[j])) for j in range(k)]
        a_aside = tuple(apl.aside[b] + count_if([all_of(u, c == b) for u, c in to_a]) for b in range(NB))
        q_aside = tuple(qpl.aside[b] + count_if([all_of(u, c == b) for u, c in to_q]) for b in range(NB))
        new_a = dataclasses.replace(apl, hand=apl.hand.remove_sorted(list(s.pgh), s.pghn), aside=a_aside)
        new_q = dataclasses.replace(qpl, hand=qpl.hand.remove_sorted(list(a.acc), a.accn), aside=q_aside)
        if self.mutant == "retrade-received":
            # received cards go to the back of the hand, where they could be traded again (breaks T4)
            def to_hand(new: SPlayer, old: SPlayer, got: list[tuple[Cond, Val]]) -> SPlayer:
                hand = new.hand
                for used, c in got:
                    hand = pick_seq(used, hand.push_back(c), hand)
                return dataclasses.replace(new, hand=hand, aside=old.aside)
            new_a, new_q = to_hand(new_a, apl, to_a), to_hand(new_q, qpl, to_q)
        players = self.with_player(s, act, new_a)
        players = self.with_player(s.replace(players=players), q, new_q)
        up = tuple(s.up[b] - count_if([all_of(j < s.pgun, s.pgu[j] == b) for j in range(k)])
                   for b in range(NB))
        return s.replace(players=players, up=up, pend=False, to_move=s.active)

    def g_decline(self, s: SState, a: SAction) -> Cond:
        return all_of(self.decision(s, a), s.phase == TRADE, s.pend, a.player == s.pq)

    def n_decline(self, s: SState, a: SAction) -> SState:
        return s.replace(pend=False, to_move=s.active)

    def g_reshuffle(self, s: SState, a: SAction) -> Cond:
        if a.order is None:
            return False
        same = [a.order.count(b) == s.discard.count(b) for b in range(NB)]
        return all_of(s.phase == CHANCE, a.order.n == s.discard.n, *same)

    def n_reshuffle(self, s: SState, a: SAction) -> SState:
        assert a.order is not None
        empty = s.discard.emptied()
        if self.mutant == "reshuffle-coins":  # coins go back into the deck (breaks C1/E1)
            draw, players = a.order, []
            for pl in s.players:
                draw = draw.push_range(pl.coins, 0, pl.coins.n)
                players.append(dataclasses.replace(pl, coins=pl.coins.emptied()))
            return s.replace(draw=draw, discard=empty, phase=s.resume, players=tuple(players))
        return s.replace(draw=a.order, discard=empty, phase=s.resume)

    # ------------------------------------------------------------------ internal steps

    def g_take_up(self, s: SState) -> Cond:
        return all_of(s.phase == TURNUP, s.todo > 0, s.draw.n > 0)

    def n_take_up(self, s: SState) -> SState:
        """T2: one card from the top of the draw pile face up; E1/E2 at the last card."""
        card = s.draw.at(0)
        up = tuple(ite(card == b, s.up[b] + 1, s.up[b]) for b in range(NB))
        draw = s.draw.drop_front()
        out = self.exhaust(s.replace(up=up, draw=draw, todo=s.todo - 1), turning_up=True)
        return out

    def exhaust(self, s: SState, turning_up: bool) -> SState:
        """E1-E2 after taking a card: at the last card, reshuffle (chance) or the final exhaustion.
        On-demand (E1), taking the last card exhausts nothing: that waits for the next need
        (``n_need``); the mutant on-demand-at-last-card keeps the at-exhaustion moment."""
        if self.cfg.on_demand and self.mutant != "on-demand-at-last-card":
            return s
        exhausted = s.draw.n == 0
        exh = s.exh + ite(exhausted, 1, 0)
        is_final = all_of(exhausted, any_of(exh >= self.cfg.final_exhaustion, s.discard.n == 0))
        if self.mutant == "reshuffle-forever":
            is_final = all_of(exhausted, s.discard.n == 0)
        shuffle = all_of(exhausted, neg(is_final))
        s = s.replace(exh=exh)
        resume = TURNUP if turning_up else DRAW
        chance = s.replace(phase=CHANCE, resume=resume, to_move=-1)
        if turning_up:
            ended = s.replace(final=True, todo=0)
        else:
            ended = s.replace(phase=FINISH, todo=0)
        return _pick_state(shuffle, chance, _pick_state(is_final, ended, s))

    def g_up_done(self, s: SState) -> Cond:
        if self.cfg.on_demand:  # E1 on-demand: an empty pile with cards to take is a need
            return all_of(s.phase == TURNUP, s.todo == 0)
        return all_of(s.phase == TURNUP, any_of(s.todo == 0, s.draw.n == 0))

    def n_up_done(self, s: SState) -> SState:
        if self.cfg.duel:
            return s.replace(phase=MATCH, todo=0)
        return s.replace(phase=TRADE, to_move=s.active, pend=False, todo=0, resume=0)

    def g_match(self, s: SState) -> Cond:
        return all_of(s.phase == MATCH, s.discard.n > 0,
                      select(list(s.up), s.discard.at(s.discard.n - 1), 0) > 0)

    def n_match(self, s: SState) -> SState:
        """D2 step 3: the top discard joins the turned-up cards while it matches one of them."""
        top = s.discard.at(s.discard.n - 1)
        up = tuple(ite(top == b, s.up[b] + 1, s.up[b]) for b in range(NB))
        return s.replace(up=up, discard=s.discard.drop_back(1))

    def g_match_done(self, s: SState) -> Cond:
        return all_of(s.phase == MATCH, neg(self.g_match(s)))

    def n_match_done(self, s: SState) -> SState:
        return s.replace(phase=TURNED, to_move=s.active, resume=0)

    def g_aside_next(self, s: SState) -> Cond:
        return s.phase == ASIDE_NEXT

    def n_aside_next(self, s: SState) -> SState:
        """T6: the next seat, in turn order from the active player, with set-aside cards plants."""
        n = self.n
        seat = (s.active + s.todo) % n
        has = total(list(self.player_at(s, seat).aside)) > 0
        if self.mutant == "skip-aside":
            has = False
        go = s.replace(phase=PLANT_ASIDE, to_move=seat)
        return _pick_state(s.todo >= n, s.replace(phase=ENDTURN, todo=0),
                           _pick_state(has, go, s.replace(todo=s.todo + 1)))

    def g_endturn(self, s: SState) -> Cond:
        return s.phase == ENDTURN

    def n_endturn(self, s: SState) -> SState:
        """T7: draw, unless the final exhaustion came while turning up (E2)."""
        each = self.cfg.draw_each and not self.cfg.duel
        todo = self.n if each else self.cfg.draw
        return _pick_state(s.final, s.replace(phase=FINISH),
                           s.replace(phase=DRAW, todo=todo, drawer=0, to_move=s.active))

    def g_take_draw(self, s: SState) -> Cond:
        return all_of(s.phase == DRAW, s.todo > 0, s.draw.n > 0)

    def n_take_draw(self, s: SState) -> SState:
        """T7 / V4: one card from the top of the draw pile to the back of a hand (H1)."""
        each = self.cfg.draw_each and not self.cfg.duel
        seat = (s.active + s.drawer) % self.n if each else s.active
        card = s.draw.at(0)
        pl = self.player_at(s, seat)
        if self.mutant == "draw-to-front":
            hand = pl.hand.push_front(card)
        else:
            hand = pl.hand.push_back(card)
        s = s.replace(players=self.with_player(s, seat, dataclasses.replace(pl, hand=hand)),
                      draw=s.draw.drop_front(), todo=s.todo - 1, drawer=s.drawer + 1)
        return self.exhaust(s, turning_up=False)

    def g_draw_done(self, s: SState) -> Cond:
        if self.cfg.on_demand:
            return all_of(s.phase == DRAW, s.todo == 0)
        return all_of(s.phase == DRAW, any_of(s.todo == 0, s.draw.n == 0))

    def n_draw_done(self, s: SState) -> SState:
        return s.replace(active=(s.active + 1) % self.n, turn=s.turn + 1, phase=START, todo=0,
                         resume=0, drawer=0)

    def g_need(self, s: SState) -> Cond:
        """E1 on-demand: a card must be taken (turning up or drawing) and the draw pile is empty."""
        if not self.cfg.on_demand:
            return False
        return all_of(any_of(s.phase == TURNUP, s.phase == DRAW), s.todo > 0, s.draw.n == 0)

    def n_need(self, s: SState) -> SState:
        """E1-E2 on-demand: the pile is exhausted now (exh+1). The final exhaustion (the count of S,
        or an empty discard pile) ends the turning up (the turn finishes with fewer face-up cards) or
        the game at once (drawing); otherwise a reshuffle (chance) of the discard pile as it is now,
        after which the same card is still to take (``todo`` unchanged)."""
        exh = s.exh + 1
        is_final = any_of(exh >= self.cfg.final_exhaustion, s.discard.n == 0)
        up = s.phase == TURNUP
        s = s.replace(exh=exh)
        chance = s.replace(phase=CHANCE, resume=s.phase, to_move=-1)
        ended = _pick_state(up, s.replace(final=True, todo=0), s.replace(phase=FINISH, todo=0))
        return _pick_state(is_final, ended, chance)

    def g_start(self, s: SState) -> Cond:
        return s.phase == START

    def n_start(self, s: SState) -> SState:
        """T1 / D2: a turn starts: the duel's offered cards first; an empty hand skips planting."""
        hand_n = self.player_at(s, s.active).hand.n
        offer = all_of(self.cfg.duel, total(list(s.up)) > 0)
        base = s.replace(planted=0, first=-1, offers=0, to_move=s.active)
        turnup = self.end_planting(base, hand_n)
        return _pick_state(offer, base.replace(phase=OFFER),
                           _pick_state(hand_n == 0, turnup, base.replace(phase=PLANT)))

    def _nonempty(self, s: SState, p: int, f: int) -> Cond:
        pl = s.players[p]
        return all_of(f < pl.nf, pl.fc[f] > 0)

    def g_finish(self, s: SState, a: SAction) -> Cond:
        """E3: the final harvest takes the fields one per step, in seat order then field order:
        field ``a.field`` of seat ``a.player`` (concrete) is the first non-empty one."""
        if self.mutant == "skip-final-harvest":
            return False
        p, f = a.player, a.field
        assert isinstance(p, int) and isinstance(f, int), "the final harvest is instantiated per field"
        earlier = [self._nonempty(s, q, g) for q in range(p + 1) for g in range(NF) if (q, g) < (p, f)]
        return all_of(s.phase == FINISH, self._nonempty(s, p, f), *[neg(e) for e in earlier])

    def n_finish(self, s: SState, a: SAction) -> SState:
        """E3: harvest it (C1, V5; not H4)."""
        p = a.player
        new, discard = self.harvest(s, p, a.field)
        return s.replace(players=self.with_player(s, p, new), discard=discard)

    def g_over(self, s: SState) -> Cond:
        if self.mutant == "skip-final-harvest":
            return s.phase == FINISH
        return all_of(s.phase == FINISH,
                      *[neg(self._nonempty(s, p, f)) for p in range(self.n) for f in range(NF)])

    def n_over(self, s: SState) -> SState:
        """E3-E4: every field harvested, the game is over."""
        return s.replace(phase=OVER, to_move=-1, pend=False)

    def winners(self, s: SState) -> tuple[int, ...]:
        """E4 (concrete state): most coins; ties broken by cards in hand (rio-grande), by the seat
        farthest clockwise from the starting seat 0 (amigo), or not at all; what survives shares."""
        coins = [p.coins.n for p in s.players]
        tied = [i for i, c in enumerate(coins) if c == max(coins)]
        if len(tied) > 1 and self.cfg.tie_break == "hand":
            most = max(s.players[i].hand.n for i in tied)
            tied = [i for i in tied if s.players[i].hand.n == most]
        elif len(tied) > 1 and self.cfg.tie_break == "seat":
            tied = tied[-1:]
        return tuple(tied)

    # ------------------------------------------------------------------ the transition table

    def transitions(self) -> list[Transition[SState, SAction]]:
        return [
            Transition(PLANT_K, "plant", self.g_plant, self.n_plant),
            Transition(PLANT_ASIDE_K, "plant-aside", self.g_plant_aside, self.n_plant_aside),
            Transition(PLANT_UP_K, "plant-up", self.g_plant_up, self.n_plant_up),
            Transition(HARVEST_K, "harvest", self.g_harvest, self.n_harvest),
            Transition(BUY_K, "buy-field", self.g_buy, self.n_buy),
            Transition(END_K, "end-phase", self.g_end, self.n_end),
            Transition(PROPOSE_K, "propose", self.g_propose, self.n_propose),
            Transition(ACCEPT_K, "accept", self.g_accept, self.n_accept),
            Transition(DECLINE_K, "decline", self.g_decline, self.n_decline),
            Transition(DISCARD_K, "discard", self.g_discard, self.n_discard),
            Transition(DISCARD_UP_K, "discard-up", self.g_discard_up, self.n_discard_up),
            Transition(RESHUFFLE_K, "reshuffle", self.g_reshuffle, self.n_reshuffle),
            Transition(20, "turn-up", _i(self.g_take_up), _n(self.n_take_up), True),
            Transition(21, "turn-up-done", _i(self.g_up_done), _n(self.n_up_done), True),
            Transition(22, "duel-match", _i(self.g_match), _n(self.n_match), True),
            Transition(23, "duel-match-done", _i(self.g_match_done), _n(self.n_match_done), True),
            Transition(24, "phase3-next", _i(self.g_aside_next), _n(self.n_aside_next), True),
            Transition(25, "end-turn", _i(self.g_endturn), _n(self.n_endturn), True),
            Transition(26, "draw", _i(self.g_take_draw), _n(self.n_take_draw), True),
            Transition(27, "draw-done", _i(self.g_draw_done), _n(self.n_draw_done), True),
            Transition(28, "turn-start", _i(self.g_start), _n(self.n_start), True),
            Transition(29, "final-harvest", self.g_finish, self.n_finish, True, per_field=True),
            Transition(30, "game-over", _i(self.g_over), _n(self.n_over), True),
        ] + ([Transition(31, "exhaust-at-need", _i(self.g_need), _n(self.n_need), True)]
             if self.cfg.on_demand else [])

    def internal_args(self, t: Transition[SState, SAction]) -> list[SAction]:
        """The arguments an internal step is taken with: none, or each (seat, field)."""
        if t.per_field:
            return [SAction(kind=0, player=p, field=f) for p in range(self.n) for f in range(NF)]
        return [SAction(kind=0)]

    def settle(self, s: SState, limit: int = 200) -> SState:
        """Run the internal steps (concrete state) until a decision point, chance node or the end;
        exactly one is enabled at a time (proofs/kernel.py)."""
        return settle(s, step_table(self.transitions(), self.internal_args), INTERNAL_PHASES, limit)



def _i(g: Any) -> Any:
    return lambda s, a: g(s)


def _n(f: Any) -> Any:
    return lambda s, a: f(s)


# ------------------------------------------------------------------ picking between states


def _pick_tuple(c: Cond, a: tuple[Val, ...], b: tuple[Val, ...]) -> tuple[Val, ...]:
    if a is b:
        return a
    return tuple(x if x is y else ite(c, x, y) for x, y in zip(a, b, strict=True))


def _pick_player(c: Cond, a: SPlayer, b: SPlayer) -> SPlayer:
    if isinstance(c, bool):
        return a if c else b
    if a is b:
        return a
    return SPlayer(
        hand=a.hand if a.hand is b.hand else pick_seq(c, a.hand, b.hand),
        fb=_pick_tuple(c, a.fb, b.fb), fc=_pick_tuple(c, a.fc, b.fc),
        nf=a.nf if a.nf is b.nf else ite(c, a.nf, b.nf),
        coins=a.coins if a.coins is b.coins else pick_seq(c, a.coins, b.coins),
        aside=_pick_tuple(c, a.aside, b.aside),
    )


def _pick_state(c: Cond, a: SState, b: SState) -> SState:
    if isinstance(c, bool):
        return a if c else b
    if a is b:
        return a
    kw: dict[str, Any] = {}
    for f in dataclasses.fields(SState):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if x is y:
            kw[f.name] = x
        elif f.name == "players":
            kw[f.name] = tuple(_pick_player(c, p, q) for p, q in zip(x, y, strict=True))
        elif isinstance(x, Seq):
            kw[f.name] = pick_seq(c, x, y)
        elif isinstance(x, tuple):
            kw[f.name] = _pick_tuple(c, x, y)
        else:
            kw[f.name] = ite(c, x, y)
    return SState(**kw)
