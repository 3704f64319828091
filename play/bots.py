"""Bots that pick one legal action: uniformly random, random with random trade proposals, and greedy.

A bot is ``choose(state, rng) -> Action`` for the player to move (never at a chance node). Bots use
only the engine's public move generator and legal-action checks; they know no rules of their own
beyond what makes a move good, so they are also realistic position generators for the solvers.
"""

from __future__ import annotations

import random
from collections.abc import Callable

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
    Phase,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    legal_actions,
)
from model.engine import is_listed_proposal, legal_moves
from model.expansions import hooks
from model.state import Field, PlayerState
from play.expansions import bot_hooks

Bot = Callable[[GameState, random.Random], Action]
_TRADE = Phase.TRADE  # read once: an enum member is a slow class attribute on the bots' hot path
_ENDS = tuple(EndPhase(p) for p in range(8))  # made once: actions are values


def random_bot(s: GameState, rng: random.Random) -> Action:
    """Uniform over the legal actions, except that it ends each trading phase at once
    (with an expansion that adds moves to phase 2: uniform over them, proposals aside)."""
    if s.phase == _TRADE and s.pending is None:
        if s.ext is None:  # no expansion adds moves to phase 2
            p = s.to_move
            return _ENDS[p] if p < len(_ENDS) else EndPhase(p)
        acts = legal_moves(s, proposals=False)  # the expansion's phase 2 moves (I3, for one)
        return acts[int(rng.random() * len(acts))]
    acts = legal_moves(s)
    return acts[int(rng.random() * len(acts))]


def random_trader_bot(s: GameState, rng: random.Random) -> Action:
    """As ``random_bot``, but while trading it makes uniformly random proposals half of the time."""
    if s.phase == _TRADE and s.pending is None and s.to_move == s.active:
        rules = s.setup.rules
        if s.offers < rules.max_offers and not s.setup.duel and rng.random() < 0.5:
            offer = _random_proposal(s, rng)
            if offer is not None:
                return offer
        if s.ext is None:  # no expansion adds moves to phase 2
            return EndPhase(s.to_move)
        acts = legal_actions(s, proposals=False)
        return acts[int(rng.random() * len(acts))]
    acts = legal_actions(s)
    return acts[int(rng.random() * len(acts))]


def _random_proposal(s: GameState, rng: random.Random) -> Propose | None:
    a = s.active
    k = s.setup.rules.max_deal_cards
    partner = rng.choice([q for q in range(len(s.players)) if q != a])
    hand = range(len(s.players[a].hand)) if hooks(s.setup).trade_hand_cards else range(0)  # T3; I3
    cards = [("h", i) for i in hand] + [("u", i) for i in range(len(s.face_up))]
    give = rng.sample(cards, rng.randint(0, min(k, len(cards))))
    ask = tuple(sorted(rng.choice(s.setup.beans) for _ in range(rng.randint(0, k))))
    hs = tuple(sorted(i for w, i in give if w == "h"))
    us = tuple(sorted(i for w, i in give if w == "u"))
    if not (hs or us or ask):
        return None
    return Propose(a, partner, hs, us, ask)


# ------------------------------------------------------------------ greedy


def _home(pl: PlayerState, b: int) -> int | None:
    """The field a card of type ``b`` should go to: its largest field of that type, else an empty one."""
    best, empty = None, None
    for i, f in enumerate(pl.fields):
        if f.count and f.bean == b and (best is None or f.count > pl.fields[best].count):
            best = i
        elif f.count == 0 and empty is None:
            empty = i
    return best if best is not None else empty


def _fits(pl: PlayerState, b: int) -> bool:
    return _home(pl, b) is not None


def _grows(pl: PlayerState, b: int) -> bool:
    return any(f.count and f.bean == b for f in pl.fields)


def _harvest_value(s: GameState, f: Field) -> tuple[int, int]:
    return (s.setup.payout[f.bean][f.count], f.count)


def _best_harvest(s: GameState, legal: list[Action]) -> Action | None:
    """The legal harvest paying the most coins (then the fuller field), for a forced harvest (H3)."""
    p = s.to_move
    options = [a for a in legal if isinstance(a, Harvest)]
    if not options:
        return None
    return max(options, key=lambda a: _harvest_value(s, s.players[p].fields[a.field]))


def _card_value(pl: PlayerState, b: int) -> int:
    """+2 for a card that grows a field, +1 for one that fits an empty field, -1 for one that does not."""
    if _grows(pl, b):
        return 2
    return 1 if _fits(pl, b) else -1


def greedy_bot(s: GameState, rng: random.Random) -> Action:
    """Plants to keep chains, gives away cards it cannot use, accepts deals that help it."""
    legal = legal_actions(s, proposals=False)  # its own proposals are checked one by one
    x = bot_hooks(s.setup.expansion) if s.ext is not None else None  # its moves first (its bots' hook)
    choice = x.greedy(s, legal) if x is not None else None
    if choice is None:
        choice = _greedy_choice(s, legal)
    if isinstance(choice, Harvest) and x is not None:
        choice = x.harvest(s, legal, choice)
    if isinstance(choice, Propose):
        if is_listed_proposal(s, choice):
            return choice
    elif choice is not None and choice in legal:
        return choice
    # Fallback: a planting or phase end before a harvest, so the game moves on.
    for a in legal:
        if not isinstance(a, (Harvest, BuyField, Propose)):
            return a
    return legal[0]


def _greedy_choice(s: GameState, legal: list[Action]) -> Action | None:
    p = s.to_move
    pl = s.players[p]
    phase = s.phase
    cost = s.setup.third_cost
    if cost is not None and len(pl.fields) == 2 and len(pl.coins) >= cost + 2:
        return BuyField(p)
    if phase == Phase.PLANT:
        b = pl.hand[0]
        home = _home(pl, b)
        if s.planted == 0:
            return Plant(p, home) if home is not None else _best_harvest(s, legal)
        if home is not None and (_grows(pl, b) or sum(f.count == 0 for f in pl.fields) > 1):
            return Plant(p, home)
        return EndPhase(p)
    if phase == Phase.TRADE:
        if s.pending is None:
            return _greedy_offer(s)
        return _greedy_answer(s, legal)
    if phase == Phase.PLANT_ASIDE:
        for b in sorted(set(pl.aside), key=lambda b: -_card_value(pl, b)):
            home = _home(pl, b)
            if home is not None:
                return PlantAside(p, b, home)
        return _best_harvest(s, legal)
    if phase in (Phase.OFFER, Phase.TURNED):
        for u, b in enumerate(s.face_up):
            if _grows(pl, b) or (phase == Phase.OFFER and _fits(pl, b)):
                home = _home(pl, b)
                assert home is not None
                return PlantUp(p, u, home)
        if phase == Phase.OFFER:
            return DiscardUp(p, 0)
        return EndPhase(p)
    if phase == Phase.DISCARD:
        for h, b in enumerate(pl.hand):
            if h > 0 and not _fits(pl, b):
                return Discard(p, h)
        return EndPhase(p)
    return None


def _greedy_offer(s: GameState) -> Action:
    """Offer face-up cards it cannot use: as gifts to a seat growing that bean, else for its own bean."""
    a = s.active
    me = s.players[a]
    wanted = sorted({f.bean for f in me.fields if f.count}, key=lambda b: -max(
        f.count for f in me.fields if f.bean == b))
    candidates: list[Propose] = []
    for u, b in enumerate(s.face_up):
        if _grows(me, b):
            continue
        for q, other in enumerate(s.players):
            if q != a and _grows(other, b):
                if wanted:
                    candidates.append(Propose(a, q, (), (u,), (wanted[0],)))
                candidates.append(Propose(a, q, (), (u,), ()))
    if s.offers < len(candidates) and s.offers < s.setup.rules.max_offers:
        return candidates[s.offers]
    return EndPhase(a)


def _greedy_answer(s: GameState, legal: list[Action]) -> Action:
    offer = s.pending
    assert offer is not None
    p = offer.partner
    me = s.players[p]
    active = s.players[offer.player]
    received = [active.hand[h] for h in offer.give_hand] + [s.face_up[u] for u in offer.give_up]
    gain = sum(_card_value(me, b) for b in received)
    best: Action = Decline(p)
    best_score = 0
    for act in legal:
        if isinstance(act, Accept):
            # Giving a card that fits costs its value; giving one that does not fit is a relief.
            score = gain - sum(_card_value(me, me.hand[h]) for h in act.hand)
            if score > best_score:
                best, best_score = act, score
    return best


BOTS: dict[str, Bot] = {
    "random": random_bot,
    "random-trader": random_trader_bot,
    "greedy": greedy_bot,
}


def bot(name: str) -> Bot:
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(BOTS)}") from None
