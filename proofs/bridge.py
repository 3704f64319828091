"""Translate between the engine's values and the spec's: states, actions, and back.

Engine actions name face-up cards by index into the sorted trade area; the spec names them by
bean (identical cards are interchangeable), so the translation maps ``u`` to ``face_up[u]``.
"""

from __future__ import annotations

from typing import Any

from model import (
    Accept,
    Action,
    BuyField,
    Decline,
    Discard,
    DiscardUp,
    EndPhase,
    GameState,
    Harvest,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
)
from model.actions import ExpansionAction
from model.dealing import Resume
from proofs.kernel import CHANCE, DRAW, NB, NF, OVER, PLANT, TRADE, TURNUP
from proofs.spec import (
    ACCEPT_K,
    BUY_K,
    DECLINE_K,
    DISCARD_K,
    DISCARD_UP_K,
    END_K,
    HARVEST_K,
    PLANT_ASIDE_K,
    PLANT_K,
    PLANT_UP_K,
    PROPOSE_K,
    RESHUFFLE_K,
    SAction,
    SPlayer,
    SState,
)
from proofs.symbolic import Seq, seq_of


def _counts(cards: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * NB
    for c in cards:
        out[c] += 1
    return tuple(out)


def _pad(values: tuple[int, ...], k: int) -> tuple[int, ...]:
    return tuple(values) + (0,) * (k - len(values))


def state_to_spec(s: GameState) -> SState:
    """The spec's view of an engine state at a decision point or chance node (concrete values)."""
    k = s.setup.rules.max_deal_cards
    players = []
    for p in s.players:
        fb = tuple(f.bean if f.count else -1 for f in p.fields) + (-1,) * (NF - len(p.fields))
        fc = tuple(f.count for f in p.fields) + (0,) * (NF - len(p.fields))
        players.append(SPlayer(hand=seq_of(p.hand), fb=fb, fc=fc, nf=len(p.fields),
                               coins=seq_of(p.coins), aside=_counts(p.aside)))
    pend = s.pending
    n = len(s.players)
    chance = s.phase == CHANCE
    # T7 / V4: the cards phase 4 draws; at a reshuffle while drawing the rest are still in todo
    # (at-exhaustion after the card that emptied the pile, on-demand from the card that is needed)
    draws = n if s.setup.rules.draw_each and not s.setup.duel else s.setup.draw
    return SState(
        players=tuple(players), draw=seq_of(s.draw), discard=seq_of(s.discard),
        up=_counts(s.face_up), out=_counts(s.out), active=s.active, phase=int(s.phase),
        to_move=s.to_move, planted=s.planted, first=s.first_field, offers=s.offers,
        exh=s.exhaustions, final=bool(s.final), todo=len(s.todo) if chance else 0,
        drawer=(draws - len(s.todo)) if chance and s.resume == Resume.DRAWING else 0,
        resume=(TURNUP if s.resume == Resume.TURNING_UP else DRAW) if chance else 0, turn=s.turn,
        pend=pend is not None, pp=pend.player if pend else 0, pq=pend.partner if pend else 0,
        pgh=_pad(tuple(sorted(pend.give_hand)), k) if pend else (0,) * k,
        pghn=len(pend.give_hand) if pend else 0,
        pgu=_pad(tuple(sorted(s.face_up[u] for u in pend.give_up)), k) if pend else (0,) * k,
        pgun=len(pend.give_up) if pend else 0,
        pask=_pad(tuple(sorted(pend.ask)), k) if pend else (0,) * k,
        paskn=len(pend.ask) if pend else 0,
    )


def action_to_spec(s: GameState, a: Action) -> SAction:
    """The spec action for engine action ``a`` taken in ``s`` (canonical: unused fields are 0)."""
    return spec_action(a, s.face_up, s.setup.rules.max_deal_cards)


def face_up_of(ss: SState) -> tuple[int, ...]:
    """The spec's face-up counts as the engine's sorted trade area."""
    return tuple(b for b in range(NB) for _ in range(ss.up[b]))


class NoSpecAction(IndexError):
    """An engine action with no spec action: a face-up index that names no card, or a move of
    La Isla Bohnita (I1-I9), which the base game's spec does not have."""


def spec_action(a: Action, face_up: tuple[int, ...], k: int) -> SAction:
    """The spec action for engine action ``a`` given the sorted face-up cards; NoSpecAction when a
    face-up index is out of range or ``a`` is no move of the base game."""
    def up(u: int) -> int:
        if not 0 <= u < len(face_up):
            raise NoSpecAction(f"face-up card u{u} does not exist ({len(face_up)} face up)")
        return face_up[u]

    z = (0,) * k
    if isinstance(a, Plant):
        return SAction(PLANT_K, a.player, field=a.field, gh=z, gu=z, ask=z, acc=z)
    if isinstance(a, PlantAside):
        return SAction(PLANT_ASIDE_K, a.player, field=a.field, bean=a.bean, gh=z, gu=z, ask=z, acc=z)
    if isinstance(a, PlantUp):
        return SAction(PLANT_UP_K, a.player, field=a.field, bean=up(a.index),
                       gh=z, gu=z, ask=z, acc=z)
    if isinstance(a, Harvest):
        return SAction(HARVEST_K, a.player, field=a.field, gh=z, gu=z, ask=z, acc=z)
    if isinstance(a, BuyField):
        return SAction(BUY_K, a.player, gh=z, gu=z, ask=z, acc=z)
    if isinstance(a, EndPhase):
        return SAction(END_K, a.player, gh=z, gu=z, ask=z, acc=z)
    if isinstance(a, Decline):
        return SAction(DECLINE_K, a.player, gh=z, gu=z, ask=z, acc=z)
    if isinstance(a, Discard):
        return SAction(DISCARD_K, a.player, pos=a.index, gh=z, gu=z, ask=z, acc=z)
    if isinstance(a, DiscardUp):
        return SAction(DISCARD_UP_K, a.player, bean=up(a.index), gh=z, gu=z, ask=z, acc=z)
    if isinstance(a, Propose):
        if a.give_aside:
            raise NoSpecAction("the spec's deals give hand and face-up cards only: set-aside cards "
                               "are never traded (T4)")
        gu = tuple(sorted(up(u) for u in a.give_up))
        return SAction(PROPOSE_K, a.player, partner=a.partner,
                       gh=_pad(tuple(sorted(a.give_hand)), k), ghn=len(a.give_hand),
                       gu=_pad(gu, k), gun=len(gu), ask=_pad(tuple(sorted(a.ask)), k),
                       askn=len(a.ask), acc=z)
    if isinstance(a, Accept):
        return SAction(ACCEPT_K, a.player, gh=z, gu=z, ask=z,
                       acc=_pad(tuple(sorted(a.hand)), k), accn=len(a.hand))
    if isinstance(a, Reshuffle):
        return SAction(RESHUFFLE_K, 0, gh=z, gu=z, ask=z, acc=z, order=seq_of(a.order))
    if isinstance(a, ExpansionAction):
        raise NoSpecAction(f"{a} is an expansion's move, not one of the base game")
    raise TypeError(f"not an action: {a!r}")


def spec_key(a: SAction) -> tuple[Any, ...]:
    """A hashable canonical form of a concrete spec action (for comparing sets of actions)."""
    if a.kind == PROPOSE_K:
        return (a.kind, a.player, a.partner, tuple(a.gh[: a.ghn]), tuple(a.gu[: a.gun]),
                tuple(a.ask[: a.askn]))
    if a.kind == ACCEPT_K:
        return (a.kind, a.player, tuple(a.acc[: a.accn]))
    if a.kind in (PLANT_ASIDE_K, PLANT_UP_K):
        return (a.kind, a.player, a.bean, a.field)
    if a.kind == DISCARD_UP_K:
        return (a.kind, a.player, a.bean)
    if a.kind == DISCARD_K:
        return (a.kind, a.player, a.pos)
    if a.kind in (PLANT_K, HARVEST_K):
        return (a.kind, a.player, a.field)
    return (a.kind, a.player)


def observable(s: SState, n_players: int) -> dict[str, Any]:
    """The parts of a concrete spec state that the engine must reproduce exactly."""
    def seq(q: Seq) -> tuple[int, ...]:
        return tuple(q.slots[: q.n])

    out: dict[str, Any] = {
        "phase": s.phase, "active": s.active, "turn": s.turn, "exhaustions": s.exh,
        "final": bool(s.final), "draw": seq(s.draw), "discard": seq(s.discard), "face_up": s.up,
        "out": s.out,
    }
    for i, p in enumerate(s.players):
        out[f"p{i}.hand"] = seq(p.hand)
        out[f"p{i}.fields"] = tuple((p.fb[f] if p.fc[f] else -1, p.fc[f]) for f in range(p.nf))
        out[f"p{i}.coins"] = seq(p.coins)
        out[f"p{i}.aside"] = p.aside
    if s.phase not in (CHANCE, OVER):
        out["to_move"] = s.to_move
    if s.phase in (PLANT, TRADE):
        out["planted"], out["offers"] = s.planted, s.offers
    if s.phase == PLANT:
        out["first_field"] = s.first
    if s.phase == TRADE:
        out["pending"] = (bool(s.pend),) + ((s.pp, s.pq, tuple(s.pgh[: s.pghn]), tuple(s.pgu[: s.pgun]),
                                             tuple(s.pask[: s.paskn])) if s.pend else ())
    if s.phase == CHANCE:
        out["todo"], out["resume"] = s.todo, s.resume
    return out
