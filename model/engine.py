"""The rules of play: ``new_game``, ``legal_actions``, ``apply`` and the automatic steps between.

Rules H, T, E, F, D and V live here, each in one place: ``fits`` (H3) and ``harvestable`` (H4) in
``model/core.py``, ``_harvest`` (H5, V5), ``_take_cards`` (T2, T7, E1, E2), ``_finish`` (E3),
``winners`` (E4). The engine calls its steps through ``model.steps.STEPS`` (the seam mutants and
tracers use) and asks the game's expansion (``model/expansion.py``) wherever an expansion may
change the turn; the base game is the expansion that changes nothing.
``apply`` checks every action and raises ``IllegalAction`` naming the rule; with ``check=False``
it trusts the caller (actions from ``legal_actions``) and skips the checks.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from typing import Any

from model.actions import (
    Accept,
    Action,
    BuyField,
    Decline,
    Discard,
    DiscardUp,
    EndPhase,
    Harvest,
    Offers,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
)
from model.cards import BEAN_NAMES, Bean, difference
from model.core import evolve as _evolve
from model.core import fits as _FITS
from model.core import harvestable as _harvestable
from model.core import pay as _pay
from model.core import singles_harvestable as _SINGLES
from model.core import with_player as _with_player
from model.core import with_seat as _with_seat
from model.dealing import Deal, Resume
from model.errors import IllegalAction as IllegalAction
from model.errors import InputError
from model.expansion import BASE, Expansion, Handler
from model.expansions import EXPANSIONS  # by Setup.expansion (model.expansions.hooks, inlined: hot)
from model.rules import Ruleset, Setup, setup
from model.rules import ruleset as _ruleset
from model.state import EMPTY, Field, GameState, Phase, PlayerState
from model.steps import STEPS as _S

PLANT, TRADE, PLANT_ASIDE, CHANCE, OVER = (
    Phase.PLANT, Phase.TRADE, Phase.PLANT_ASIDE, Phase.CHANCE, Phase.OVER)
OFFER, DISCARD, TURNED = Phase.OFFER, Phase.DISCARD, Phase.TURNED
FIELD_BEAN = int(Bean.FIELD)
# Enum members read once: ``Resume.NONE`` is a class attribute lookup (about 0.2 us) on the hot path
_FACE_UP = Deal.FACE_UP
_NO_RESUME, _TURNING_UP, _DRAWING = Resume.NONE, Resume.TURNING_UP, Resume.DRAWING
_new = tuple.__new__  # a NamedTuple built without its Python-level ``__new__`` (hot)
# The state's fields by position: the hot steps rebuild a state from the list of its values
# (``v = list(s); v[_PHASE] = TRADE; _new(GameState, v)``), without ``evolve``'s keywords
(_SETUP, _PLAYERS, _DRAW, _DISCARD, _FACE_UP_CARDS, _OUT, _ACTIVE, _PHASE, _TO_MOVE, _PLANTED, _FIRST_FIELD,
 _OFFERS, _PENDING, _EXHAUSTIONS, _FINAL, _TODO, _RESUME, _TURN, _EXT) = range(len(GameState._fields))
assert GameState._fields == ("setup", "players", "draw", "discard", "face_up", "out", "active", "phase",
                             "to_move", "planted", "first_field", "offers", "pending", "exhaustions", "final",
                             "todo", "resume", "turn", "ext")

# Interned actions for the move generator: legal_actions builds no new objects for these.
_MAX_SEATS, _MAX_FIELDS = 8, 4
_PLANT = [[Plant(p, f) for f in range(_MAX_FIELDS)] for p in range(_MAX_SEATS)]
_HARVEST = [[Harvest(p, f) for f in range(_MAX_FIELDS)] for p in range(_MAX_SEATS)]
_END = [EndPhase(p) for p in range(_MAX_SEATS)]
_BUY = [BuyField(p) for p in range(_MAX_SEATS)]
_DECLINE = [Decline(p) for p in range(_MAX_SEATS)]
_PLANT_ASIDE = [[[PlantAside(p, b, f) for f in range(_MAX_FIELDS)] for b in range(len(BEAN_NAMES))]
                for p in range(_MAX_SEATS)]


# ---------------------------------------------------------------- setup


def new_game(
    rules: Ruleset | str = "rio-grande",
    players: int = 4,
    seed: int | None = 0,
    deck: Sequence[int] | None = None,
    check: bool = True,
) -> GameState:
    """Shuffle (or take ``deck``, top first), deal one card at a time in seat order (S2), start turn 0.

    With ``check=False`` a ``deck`` that is not the deck in play is dealt as it is (the referee's
    unseen cards, records/unknown.py)."""
    r = _ruleset(rules) if isinstance(rules, str) else rules
    su = setup(r, players)
    if deck is None:
        cards = list(su.deck)
        random.Random(seed).shuffle(cards)
    else:
        cards = [int(c) for c in deck]
        if check and sorted(cards) != sorted(su.deck):
            raise InputError(
                f"deck is not the {len(su.deck)} cards of {r.name} with {players} players (S)")
    x = EXPANSIONS[su.expansion]
    hands: list[list[int]] = [[] for _ in range(players)]
    first = pos = x.reserved(su)  # cards the expansion is dealt before the hands
    sizes = su.hands
    for turn in range(max(sizes, default=0)):  # S2: one card at a time, in seat order
        for seat, size in enumerate(sizes):
            if turn < size:
                hands[seat].append(cards[pos])
                pos += 1
    ps = tuple(PlayerState(tuple(h), (EMPTY,) * su.fields, (), ()) for h in hands)
    s = GameState(
        setup=su, players=ps, draw=tuple(cards[pos:]), discard=(), face_up=(), out=(),
        active=0, phase=PLANT, to_move=0, planted=0, first_field=-1, offers=0, pending=None,
        exhaustions=0, final=False, todo=(), resume=_NO_RESUME, turn=0,
    )
    return _start_turn(list(x.on_deal(s, cards[:first])), x)


# ---------------------------------------------------------------- rules as functions


def _h4_reason(s: GameState, p: int, i: int) -> str:
    fields = s.players[p].fields
    f = fields[i]
    if f.count == 0:
        return f"p{p} cannot harvest field {i}: it is empty"
    name = BEAN_NAMES[f.bean]
    if s.setup.strict_harvest:
        return (f"p{p} cannot harvest field {i} (one {name}) unless every field holds exactly "
                "one card (strict reading)")
    j = next(j for j, g in enumerate(fields) if g.count > 1)
    return f"p{p} cannot harvest field {i} (one {name}) while field {j} holds {fields[j].count} cards"


def _harvest(s: GameState, p: int, i: int) -> GameState:
    """H5: the field's coin value (C1) goes to the coin stack, the rest to the discard pile.

    V5: exactly two field beans give a third field (if not yet owned) and no coins.
    """
    pl = s.players[p]
    b, n = pl.fields[i]
    fields = pl.fields[:i] + (EMPTY,) + pl.fields[i + 1:]
    if b == FIELD_BEAN and n == 2 and s.setup.rules.field_beans:
        if len(fields) < 3:
            fields = fields + (EMPTY,)
        new = _new(PlayerState, (pl.hand, fields, pl.coins, pl.aside))
        return _with_seat(s, p, new, s.discard + (b,) * n)
    return _S.cash_in(s, p, fields, b, n)


def _can_buy(s: GameState, p: int) -> bool:
    """F1: the ruleset sells a third field, the player has two, and has the coins."""
    cost = s.setup.third_cost
    pl = s.players[p]
    return cost is not None and len(pl.fields) == 2 and len(pl.coins) >= cost


def _buy(s: GameState, p: int) -> GameState:
    """F1: the third field, paid by the top coins (``core.pay``)."""
    cost = s.setup.third_cost
    assert cost is not None
    s = _pay(s, p, cost)
    pl = s.players[p]
    grown = PlayerState(pl.hand, pl.fields + (EMPTY,), pl.coins, pl.aside)
    return _evolve(s, players=_with_player(s, p, grown))


def _plant_on(pl: PlayerState, i: int, b: int) -> tuple[Field, ...]:
    f = pl.fields[i]
    return pl.fields[:i] + (_new(Field, (b, f.count + 1)),) + pl.fields[i + 1:]


# ---------------------------------------------------------------- automatic steps


def _start_turn(v: list[Any], x: Expansion) -> GameState:
    """T1 / D2: a new turn for the active seat (``v``: the values of the state it starts from; ``x``:
    its expansion); in the duel, first the cards left on offer."""
    su = v[_SETUP]
    a = v[_ACTIVE]
    if x is not BASE:  # the base game counts nothing per turn
        v = list(x.start_turn(_new(GameState, v)))
    offer = su.duel and v[_FACE_UP_CARDS]
    v[_PHASE] = OFFER if offer else PLANT
    v[_TO_MOVE], v[_PLANTED], v[_FIRST_FIELD], v[_OFFERS] = a, 0, -1, 0
    s: GameState = _new(GameState, v)
    if not offer and not v[_PLAYERS][a].hand:  # T1: skip planting with an empty hand
        return _S.end_planting(s)
    return s


def _end_planting(s: GameState) -> GameState:
    if s.setup.duel and s.players[s.active].hand and EXPANSIONS[s.setup.expansion].may_discard(s):
        return _evolve(s, phase=DISCARD)  # D2 step 2: may discard one hand card
    return _turn_up(s)


def _turn_up(s: GameState) -> GameState:
    """T2 / D2 step 3: turn up cards from the draw pile into the trade area."""
    v = list(s)
    v[_TODO], v[_RESUME] = (_FACE_UP,) * s.setup.face_up, _TURNING_UP
    return _S.take_cards(_new(GameState, v))


def _take_cards(s: GameState) -> GameState:
    """Deal the cards in ``s.todo`` one at a time (a ``Deal`` code, or a seat: to the back of its hand, H1).

    E1: taking the last card exhausts the pile; a reshuffle follows (a chance node) unless this is
    the final exhaustion or the discard pile is empty (E2), which ends the game at once when drawing
    and after this turn's trading and planting when turning up. With ``reshuffle=on-demand`` the
    pile is exhausted (and E2 applies) only when a card must be taken from it while it is empty, so
    the cards discarded since its last card was taken join the new pile.
    """
    x = EXPANSIONS[s.setup.expansion]
    draw, todo = s.draw, s.todo
    face_up = s.face_up
    players = s.players
    n = len(todo)
    if n < len(draw) and n:  # E1 cannot come on the way: the cards are dealt at once
        dest = todo[0]
        if todo.count(dest) == n and dest >= _FACE_UP:  # one place: the trade area or one hand
            v = list(s)
            v[_DRAW], v[_TODO] = draw[n:], ()
            if dest == _FACE_UP:
                v[_FACE_UP_CARDS] = tuple(sorted(face_up + draw[:n]))
            else:
                pl = players[dest]  # H1: to the back of the hand
                drawn = _new(PlayerState, (pl.hand + draw[:n], pl.fields, pl.coins, pl.aside))
                v[_PLAYERS] = players[:dest] + (drawn,) + players[dest + 1:]
                if face_up:
                    v[_FACE_UP_CARDS] = tuple(sorted(face_up))
            return _after_turn_up(v, x) if s.resume == _TURNING_UP else _next_turn(v, x)
    exhaustions, final = s.exhaustions, s.final
    on_demand = s.setup.on_demand
    over = False
    taken = 0  # cards taken from the top of the draw pile so far
    k = 0  # the next card of ``todo`` to deal
    while k < len(todo):
        dest = todo[k]
        if not (on_demand and taken == len(draw)):  # on-demand: a card is needed, the pile is empty
            card = draw[taken]
            taken += 1
            k += 1
            if dest == _FACE_UP:
                face_up = face_up + (card,)
            elif dest >= 0:
                pl = players[dest]
                drawn = PlayerState(pl.hand + (card,), pl.fields, pl.coins, pl.aside)  # H1: to the back
                players = players[:dest] + (drawn,) + players[dest + 1:]
            else:  # a place only the expansion deals to
                s = x.deal_card(s, dest, card)
            if on_demand or taken < len(draw):
                continue
        exhaustions += 1  # E1: at the last card taken, or (on-demand) at the card needed now
        s = x.exhausted(s)
        if exhaustions >= s.setup.final_exhaustion or not s.discard:
            if dest == _FACE_UP:
                final = True  # E2: finish trading and planting, then end
            else:
                over = True  # E2: drawing (or an expansion's dealing) ends the game at once
            break
        return _evolve(s, draw=(), face_up=tuple(sorted(face_up)), players=players,
                       exhaustions=exhaustions, todo=todo[k:], phase=CHANCE, to_move=-1)
    s = _evolve(s, draw=draw[taken:], face_up=tuple(sorted(face_up)), players=players,
                   exhaustions=exhaustions, final=final, todo=())
    if over:
        return _S.finish(s)
    if s.resume == _TURNING_UP:
        return _after_turn_up(list(s), x)
    return _next_turn(list(s), x)


def _after_turn_up(v: list[Any], x: Expansion) -> GameState:
    """T2 / D2 step 3: the cards are turned up (``v``: the values of the state with them dealt)."""
    a = v[_ACTIVE]
    if v[_SETUP].duel:
        s: GameState = _new(GameState, v)
        # D2 step 3: while the top discard matches a turned-up type, it joins them.
        face_up, discard = s.face_up, s.discard
        while discard and discard[-1] in face_up:
            face_up, discard = face_up + (discard[-1],), discard[:-1]
        return _evolve(s, face_up=tuple(sorted(face_up)), discard=discard,
                          phase=x.turned_up_phase(s), to_move=a,
                          pending=None, resume=_NO_RESUME)
    v[_PHASE], v[_TO_MOVE], v[_PENDING], v[_RESUME] = TRADE, a, None, _NO_RESUME
    return _new(GameState, v)


def _end_trading(s: GameState) -> GameState:
    """T5: face-up cards not traded away go to the active player's set-aside area; phase 3 starts."""
    a = s.active
    v = list(s)
    if s.face_up:
        pl = s.players[a]
        pl = _new(PlayerState, (pl.hand, pl.fields, pl.coins, tuple(sorted(pl.aside + s.face_up))))
        v[_PLAYERS], v[_FACE_UP_CARDS] = _with_player(s, a, pl), ()
    v[_PHASE], v[_PENDING] = PLANT_ASIDE, None
    return _S.next_planter(_new(GameState, v), a)


def _next_planter(s: GameState, start: int) -> GameState:
    """T6: seats plant their set-aside cards in turn order from the active player."""
    players = s.players
    n = len(players)
    a = s.active
    for step in range((start - a) % n, n):
        seat = (a + step) % n
        if players[seat].aside:
            v = list(s)
            v[_TO_MOVE] = seat
            return _new(GameState, v)
    return _S.end_turn(s)


def _end_turn(s: GameState) -> GameState:
    """T7 / D2 step 4: draw (or V4: everyone draws 1), unless the game ended while turning up (E2)."""
    if s.final:
        return _S.finish(s)
    n = len(s.players)
    a = s.active
    su = s.setup
    if su.rules.draw_each and not su.duel:
        todo = tuple((a + i) % n for i in range(n))
    else:
        todo = (a,) * su.draw
    x = EXPANSIONS[su.expansion]
    if x is not BASE:  # the base game deals nothing more
        todo += x.refill(s)
    v = list(s)
    v[_TODO], v[_RESUME], v[_PHASE], v[_TO_MOVE] = todo, _DRAWING, PLANT, a
    return _S.take_cards(_new(GameState, v))


def _next_turn(v: list[Any], x: Expansion) -> GameState:
    """T7: the next seat's turn (``v``: the values of the state after the draw that ended this one)."""
    v[_ACTIVE] = (v[_ACTIVE] + 1) % len(v[_PLAYERS])
    v[_TURN] += 1
    v[_RESUME] = _NO_RESUME
    return _start_turn(v, x)


def _finish(s: GameState) -> GameState:
    """E3: every field is harvested (C1 and V5 apply, H4 does not); cards in hand score nothing."""
    harvest = _S.harvest
    for p, pl in enumerate(s.players):
        for i, f in enumerate(pl.fields):
            if f.count:
                s = harvest(s, p, i)
    s = EXPANSIONS[s.setup.expansion].final_scoring(s)
    return _evolve(s, phase=OVER, to_move=-1, pending=None, todo=(), resume=_NO_RESUME)


# ---------------------------------------------------------------- the move generator


def legal_actions(s: GameState, proposals: bool = True) -> list[Action]:
    """Every action the player to move may take (deals up to ``max_deal_cards`` a side).

    With ``proposals=False`` the trading proposals are left out (they are most of the list in an
    open trading phase; ``is_listed_proposal`` tells whether one would be listed). At a chance node
    this is empty: use ``chance_outcome`` (a Reshuffle) instead.
    """
    acts = legal_moves(s, proposals)
    return acts if type(acts) is list else list(acts)


def legal_moves(s: GameState, proposals: bool = True) -> Sequence[Action]:
    """``legal_actions(s, proposals)``, the same actions in the same order, as a sequence that may be
    shared between calls: read it, never change it (the random bots' way: no copy per call)."""
    phase, p = s.phase, s.to_move
    if p < 0:
        return []
    su = s.setup
    x = EXPANSIONS[su.expansion]
    moves = x.adds_moves
    if moves and x.blocked(s):
        return x.forced(s)
    pl = s.players[p]
    if (phase == PLANT or phase == PLANT_ASIDE) and not moves and _S.fits is _FITS \
            and _S.singles_harvestable is _SINGLES:
        # Phases 1 and 3 with the rules' own steps (no mutant, no tracer): the list but the purchase
        # is a function of the key, so it is made once per key (most calls find it made)
        if phase == PLANT:  # T1, V2: the front card, the fields, plantings so far, the field to skip
            key: tuple[object, ...] = (
                p, pl.hand[0], pl.fields, s.planted,
                s.first_field if s.planted == 1 and su.rules.distinct_fields else -1, su.strict_harvest)
        else:  # T6: the set-aside cards and the fields
            key = (p, pl.aside, pl.fields, su.strict_harvest)
        made = _MADE.get(key)
        if made is None:
            if len(_MADE) >= _MADE_MOST:
                _MADE.clear()
            made = _MADE[key] = tuple(_listed(s, phase, p, pl, su, x, False, False, False))
        if su.third_cost is not None and _can_buy(s, p):
            return made + (_BUY[p],)
        return made
    return _listed(s, phase, p, pl, su, x, moves, proposals, True)


# The move generator's lists of phases 1 and 3 by key (``legal_moves``), emptied when this full
_MADE: dict[tuple[object, ...], tuple[Action, ...]] = {}
_MADE_MOST = 1 << 14  # about 5 MiB at most; 600 four-player amigo games make about 14,000 keys


def _listed(s: GameState, phase: Phase, p: int, pl: PlayerState, su: Setup, x: Expansion, moves: bool,
            proposals: bool, buy: bool) -> list[Action]:
    """``legal_actions(s)``: the phase's moves, the harvests (H4-H6), the purchase (F1) if ``buy``,
    the expansion's moves if ``moves``."""
    fields = pl.fields
    fits = _S.fits
    out: list[Action]
    if phase == PLANT:
        b = pl.hand[0]
        row = _PLANT[p]
        out = []
        skip = s.first_field if s.planted == 1 and su.rules.distinct_fields else -1
        for i, f in enumerate(fields):
            if fits(f, b) and i != skip:
                out.append(row[i])
        if s.planted:
            out.append(_END[p])
    elif phase == PLANT_ASIDE:
        out = []
        arow = _PLANT_ASIDE[p]
        for b in sorted(set(pl.aside)):
            for i, f in enumerate(fields):
                if fits(f, b):
                    out.append(arow[b][i])
    elif phase == TRADE:
        out = [_END[p]]
        if s.pending is None:
            if proposals:
                for o in _S.proposals(s):
                    out.extend(o.actions())
        else:
            out = _answers(s)
    else:
        out = []
        if phase == OFFER or phase == TURNED:
            seen = -1
            for u, b in enumerate(s.face_up):
                if b == seen:
                    continue  # identical cards: one canonical index (face_up is sorted)
                seen = b
                for i, f in enumerate(fields):
                    if fits(f, b):
                        out.append(PlantUp(p, u, i))
                if phase == OFFER:
                    out.append(DiscardUp(p, u))
            if phase == TURNED:
                out.append(_END[p])
        elif phase == DISCARD:
            out.extend(Discard(p, h) for h in range(len(pl.hand)))
            out.append(_END[p])
    if moves:
        out.extend(x.phase_actions(s, p))
    singles = None  # H4 for one-card fields, decided once, when one is there
    hrow = _HARVEST[p]
    for i, f in enumerate(fields):
        n = f.count
        if n > 1:
            out.append(hrow[i])
        elif n == 1:
            if singles is None:
                singles = _S.singles_harvestable(fields, su.strict_harvest)
            if singles:
                out.append(hrow[i])
    if buy and su.third_cost is not None and _can_buy(s, p):
        out.append(_BUY[p])
    if moves:
        out.extend(x.anytime_actions(s, p))
    return out


def give_options(s: GameState, k: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """T3: what the active player can give, at most ``k`` cards: hand positions and face-up indices.

    Identical face-up cards are interchangeable, so only the lowest indices of a type are used.
    The one enumeration of a deal's giving side: the move generator and ``solvers/exact.py`` use it.
    """
    hand_n = len(s.players[s.active].hand) if EXPANSIONS[s.setup.expansion].trade_hand_cards else 0
    ups = s.face_up
    up_sets: list[tuple[int, ...]] = []
    for size in range(0, min(k, len(ups)) + 1):
        seen = set()
        for combo in combinations(range(len(ups)), size):
            key = tuple(ups[i] for i in combo)
            if key not in seen:
                seen.add(key)
                up_sets.append(combo)
    out = []
    for us in up_sets:
        for size in range(0, min(k - len(us), hand_n) + 1):
            for hs in combinations(range(hand_n), size):
                out.append((hs, us))
    return out


def _proposals(s: GameState) -> list[Offers]:
    """T3 and the trading protocol: the active player's offers to each other seat (as parts: every
    give of ``give_options`` with every ask of at most ``max_deal_cards`` types, sorted)."""
    if s.setup.duel or s.offers >= s.setup.rules.max_offers:
        return []
    k = s.setup.rules.max_deal_cards
    a = s.active
    partners = tuple(q for q in range(len(s.players)) if q != a)
    return [Offers(a, partners, tuple(give_options(s, k)), _asks(s.setup.beans, k))]


@lru_cache(maxsize=64)
def _asks(beans: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    return tuple(a for size in range(k + 1) for a in combinations_with_replacement(beans, size))


def proposal_parts(s: GameState) -> list[Offers]:
    """The proposals ``legal_actions(s)`` lists, as parts (``Offers``; empty where it lists none):
    ``[a for o in proposal_parts(s) for a in o.actions()]`` is that part of its list, in its order."""
    if s.phase != TRADE or s.pending is not None or s.to_move < 0:
        return []
    x = EXPANSIONS[s.setup.expansion]
    if x.adds_moves and x.blocked(s):
        return []
    return _S.proposals(s)


def is_listed_proposal(s: GameState, a: Propose) -> bool:
    """Would ``legal_actions(s)`` list ``a``? (The same test as ``a in legal_actions(s)``, without
    building the list: T3, the protocol limits, canonical face-up indices, sorted asks.)"""
    x = EXPANSIONS[s.setup.expansion]
    if (s.phase != TRADE or s.pending is not None or s.setup.duel or s.to_move != s.active
            or x.blocked(s)):
        return False
    rules = s.setup.rules
    k = rules.max_deal_cards
    act = s.active
    if s.offers >= rules.max_offers or a.player != act or not 0 <= a.partner < len(s.players) \
            or a.partner == act:
        return False
    if not (a.give_hand or a.give_up or a.ask) or len(a.give_hand) + len(a.give_up) > k or len(a.ask) > k:
        return False
    hand_n = len(s.players[act].hand) if x.trade_hand_cards else 0
    hs, us, ups = a.give_hand, a.give_up, s.face_up
    if list(hs) != sorted(set(hs)) or any(not 0 <= h < hand_n for h in hs):
        return False
    if list(us) != sorted(set(us)) or any(not 0 <= u < len(ups) for u in us):
        return False
    # face-up cards: the lowest indices of each type (the canonical choice of give_options)
    want = Counter(ups[u] for u in us)
    canon = sorted(u for b, m in want.items() for u in [i for i, c in enumerate(ups) if c == b][:m])
    if list(us) != canon:
        return False
    return list(a.ask) == sorted(a.ask) and all(b in s.setup.beans for b in a.ask)


def _answers(s: GameState) -> list[Action]:
    """The partner's answers: decline, or accept with any hand cards matching the asked types."""
    offer = s.pending
    assert offer is not None
    p = offer.partner
    hand = s.players[p].hand
    out: list[Action] = [_DECLINE[p]]
    need = Counter(offer.ask)
    choices = []
    for b, m in sorted(need.items()):
        where = [i for i, c in enumerate(hand) if c == b]
        if len(where) < m:
            return out
        choices.append(list(combinations(where, m)))
    for pick in product(*choices):
        out.append(Accept(p, tuple(sorted(i for part in pick for i in part))))
    return out


# ---------------------------------------------------------------- applying actions


def chance_outcome(s: GameState, rng: random.Random) -> Reshuffle:
    """E1: a uniformly random order of the discard pile for the reshuffle at this chance node."""
    cards = list(s.discard)
    rng.shuffle(cards)
    return Reshuffle(tuple(cards))


def apply(s: GameState, action: Action, check: bool = True) -> GameState:
    """The state after ``action``; raises IllegalAction (rule ID in the message) when ``check``."""
    kind = type(action)
    handler = _S.handlers.get(kind)
    if handler is None:
        raise IllegalAction(f"{action!r} is not an action", "T")
    if check:
        if s.phase == OVER:
            who = getattr(action, "player", None)
            name = f"p{who}" if who is not None else "chance"
            raise IllegalAction(f"{name} cannot act: the game is over", "E2")
        if kind is Reshuffle:
            if s.phase != CHANCE:
                if s.draw:
                    why = f"the draw pile still holds {len(s.draw)} cards"
                else:  # reshuffle=on-demand: an empty pile waits for the next card needed
                    why = "with reshuffle=on-demand the empty pile is reshuffled when a card is next needed"
                raise IllegalAction(f"no reshuffle is due: {why}", "E1")
        elif s.phase == CHANCE:
            raise IllegalAction("the draw pile is exhausted: a reshuffle must come first", "E1")
        else:
            p = action.player  # type: ignore[union-attr]
            if not 0 <= p < len(s.players):
                raise IllegalAction(f"there is no seat p{p}", "S")
            x = EXPANSIONS[s.setup.expansion]
            if kind is Propose and p != s.active and s.phase == TRADE and not s.setup.duel:
                raise IllegalAction(f"p{p} cannot propose a deal: only the active player, p{s.active}, "
                                    "proposes", "T3")
            if p != s.to_move:
                rule = "D1" if s.setup.duel and kind is Harvest else _turn_rule(s)
                raise IllegalAction(f"p{p} cannot act now: it is p{s.to_move}'s move",
                                    x.seat_rule(s, kind, rule))
            if x.adds_moves:
                x.check_action(s, kind)
    return handler(s, action, check)


def _turn_rule(s: GameState) -> str:
    if s.setup.duel:
        return "D2"
    return {PLANT: "T1", TRADE: "T3", PLANT_ASIDE: "T6"}.get(s.phase, "T1")


def _check_field(s: GameState, p: int, i: int, b: int, rule: str) -> None:
    fields = s.players[p].fields
    if not 0 <= i < len(fields):
        raise IllegalAction(f"p{p} has no field {i}", rule)
    if not _S.fits(fields[i], b):
        f = fields[i]
        raise IllegalAction(
            f"p{p} cannot plant {BEAN_NAMES[b]} on field {i}, which holds {BEAN_NAMES[f.bean]}", "H3")


def _do_plant(s: GameState, a: Plant, check: bool) -> GameState:
    p, i = a.player, a.field
    pl = s.players[p]
    if check:
        if s.phase != PLANT:
            raise IllegalAction(f"p{p} can plant from the hand only in phase 1", "T1")
        if not pl.hand:
            raise IllegalAction(f"p{p} has no cards in hand", "T1")
        if s.planted >= 2:
            raise IllegalAction(f"p{p} has planted twice this turn; never a third", "T1")
        _check_field(s, p, i, pl.hand[0], "H3")
        if s.setup.rules.distinct_fields and s.planted == 1 and i == s.first_field:
            raise IllegalAction(f"p{p} planted on field {i} already; the second card goes elsewhere", "V2")
    new = _new(PlayerState, (pl.hand[1:], _S.plant_on(pl, i, pl.hand[0]), pl.coins, pl.aside))
    planted = s.planted + 1
    v = list(s)
    v[_PLAYERS], v[_PLANTED] = _with_player(s, p, new), planted
    if planted == 1:
        v[_FIRST_FIELD] = i
    s = _new(GameState, v)
    if planted >= 2 or not new.hand:
        return _S.end_planting(s)
    return s


def _do_plant_aside(s: GameState, a: PlantAside, check: bool) -> GameState:
    p, b, i = a.player, a.bean, a.field
    pl = s.players[p]
    if check:
        if s.phase != PLANT_ASIDE and not EXPANSIONS[s.setup.expansion].plants_while_trading(s, p):
            raise IllegalAction(f"p{p} can plant set-aside cards only in phase 3", "T6")
        if b not in pl.aside:
            raise IllegalAction(f"p{p} has no {BEAN_NAMES[b] if 0 <= b < 12 else b} set aside", "T6")
        _check_field(s, p, i, b, "T6")
    k = pl.aside.index(b)
    new = _new(PlayerState, (pl.hand, _S.plant_on(pl, i, b), pl.coins, pl.aside[:k] + pl.aside[k + 1:]))
    s = _with_seat(s, p, new)
    if new.aside or s.phase == TRADE:
        return s
    return _S.next_planter(s, p + 1)


def _do_plant_up(s: GameState, a: PlantUp, check: bool) -> GameState:
    p, u, i = a.player, a.index, a.field
    x = EXPANSIONS[s.setup.expansion]
    if check:
        if s.phase not in (OFFER, TURNED) and not x.plants_while_trading(s, p):
            raise IllegalAction(f"p{p} can plant face-up cards only in the duel's steps 1 and 3", "D2")
        if not 0 <= u < len(s.face_up):
            raise IllegalAction(f"p{p} names face-up card u{u} but there are {len(s.face_up)}", "D2")
        _check_field(s, p, i, s.face_up[u], "D2")
    b = s.face_up[u]
    pl = s.players[p]
    new = PlayerState(pl.hand, _S.plant_on(pl, i, b), pl.coins, pl.aside)
    s = _evolve(s, players=_with_player(s, p, new), face_up=s.face_up[:u] + s.face_up[u + 1:])
    if s.phase == OFFER and not s.face_up:
        return _start_turn(list(s), x)
    return s


def _do_discard_up(s: GameState, a: DiscardUp, check: bool) -> GameState:
    p, u = a.player, a.index
    if check:
        if s.phase != OFFER:
            raise IllegalAction(f"p{p} can discard offered cards only in the duel's step 1", "D2")
        if not 0 <= u < len(s.face_up):
            raise IllegalAction(f"p{p} names offered card u{u} but there are {len(s.face_up)}", "D2")
    s = _evolve(s, discard=s.discard + (s.face_up[u],), face_up=s.face_up[:u] + s.face_up[u + 1:])
    if not s.face_up:
        return _start_turn(list(s), EXPANSIONS[s.setup.expansion])
    return s


def _do_discard(s: GameState, a: Discard, check: bool) -> GameState:
    p, h = a.player, a.index
    pl = s.players[p]
    x = EXPANSIONS[s.setup.expansion]
    if check:
        if s.phase != DISCARD and not x.discards_while_planting(s):
            raise IllegalAction(f"p{p} can discard a hand card only after planting in the duel", "D2")
        x.check_discard(s, p)
        if not 0 <= h < len(pl.hand):
            raise IllegalAction(f"p{p} has no hand card h{h}", "D2")
    new = PlayerState(pl.hand[:h] + pl.hand[h + 1:], pl.fields, pl.coins, pl.aside)  # H1
    s, planting = x.discarded(_evolve(s, players=_with_player(s, p, new), discard=s.discard + (pl.hand[h],)))
    if planting:
        return s if new.hand else _S.end_planting(s)
    return _turn_up(s)


def _do_harvest(s: GameState, a: Harvest, check: bool) -> GameState:
    p, i = a.player, a.field
    if check:
        fields = s.players[p].fields
        if not 0 <= i < len(fields):
            raise IllegalAction(f"p{p} has no field {i}", "H5")
        if fields[i].count == 0:
            raise IllegalAction(f"p{p} cannot harvest field {i}: it is empty", "H5")
        if not _harvestable(fields, i, s.setup.strict_harvest):
            raise IllegalAction(_h4_reason(s, p, i), "H4")
    return _S.harvest(s, p, i)


def _do_buy(s: GameState, a: BuyField, check: bool) -> GameState:
    p = a.player
    if check and not _can_buy(s, p):
        cost = s.setup.third_cost
        pl = s.players[p]
        if cost is None:
            why = f"p{p} cannot buy: {s.setup.rules.name} with {len(s.players)} players sells no third field"
        elif len(pl.fields) != 2:
            why = f"p{p} already has {len(pl.fields)} fields"
        else:
            why = f"p{p} has {len(pl.coins)} coins; the third field costs {cost}"
        raise IllegalAction(why, "F1")
    return _buy(s, p)


def _do_end(s: GameState, a: EndPhase, check: bool) -> GameState:
    p = a.player
    phase = s.phase
    if phase == PLANT:
        if check and s.planted == 0:
            raise IllegalAction(f"p{p} must plant the front card first", "D2" if s.setup.duel else "T1")
        return _S.end_planting(s)
    if phase == TRADE:
        if check and s.pending is not None:
            raise IllegalAction(f"p{s.pending.partner} must first answer the pending offer", "T3")
        return _S.end_trading(s)
    if phase == DISCARD:
        return _turn_up(s)
    if phase == TURNED:
        return _S.end_turn(s)  # D2: the cards not planted stay on offer to the opponent
    if phase == OFFER:
        raise IllegalAction(f"p{p} must plant or discard every card left on offer", "D2")
    raise IllegalAction(f"p{p} must plant every set-aside card", "T6")


def _do_propose(s: GameState, a: Propose, check: bool) -> GameState:
    if check:
        _check_proposal(s, a)
    v = list(s)
    v[_PENDING], v[_TO_MOVE], v[_OFFERS] = a, a.partner, s.offers + 1
    return _new(GameState, v)


def _check_proposal(s: GameState, a: Propose) -> None:
    p, q = a.player, a.partner
    x = EXPANSIONS[s.setup.expansion]
    if s.setup.duel:
        rule, why = x.duel_trading
        raise IllegalAction(f"p{p} cannot trade: {why}", rule)
    if s.phase != TRADE:
        raise IllegalAction(f"p{p} can propose deals only in the trading phase", "T3")
    if s.pending is not None:
        raise IllegalAction(f"an offer to p{s.pending.partner} is still pending", "T3")
    if p != s.active:
        raise IllegalAction(f"p{p} is not the active player", "T3")
    if not 0 <= q < len(s.players) or q == p:
        raise IllegalAction(f"p{p} cannot trade with p{q}", "T3")
    if s.offers >= s.setup.rules.max_offers:
        most = s.setup.rules.max_offers
        plural = "s" if most != 1 else ""
        raise IllegalAction(f"p{p} has made the {most} offer{plural} allowed this turn", "T3")
    x.check_offer(s, a)
    if a.give_aside:
        aside = s.players[p].aside
        named = ", ".join(f"a{i} ({BEAN_NAMES[aside[i]]})" if 0 <= i < len(aside) else f"a{i}"
                          for i in a.give_aside)
        raise IllegalAction(f"p{p} offers set-aside cards {named}: cards received in a trade are set "
                            "aside to be planted, never traded again", "T4")
    hand = s.players[p].hand
    if len(set(a.give_hand)) != len(a.give_hand) or any(not 0 <= h < len(hand) for h in a.give_hand):
        why = f"p{p} names {_named('h', a.give_hand, 'hand card')} but holds {_held('h', len(hand))}"
        if s.planted:
            why += f"; it planted {s.planted} this turn"
        raise IllegalAction(why, "T3")
    if len(set(a.give_up)) != len(a.give_up) or any(not 0 <= u < len(s.face_up) for u in a.give_up):
        raise IllegalAction(f"p{p} names {_named('u', a.give_up, 'face-up card')} but "
                            f"{_held('u', len(s.face_up), 'face up')}", "T3")
    if any(b not in s.setup.beans for b in a.ask):
        raise IllegalAction(f"p{p} asks for a bean that is not in play", "T3")
    if not (a.give_hand or a.give_up or a.ask):
        raise IllegalAction(f"p{p} offers nothing and asks for nothing", "T3")


def _named(prefix: str, idx: Sequence[int], what: str) -> str:
    """``hand cards h3, h7`` / ``hand card h7``: indices as the notation writes them."""
    return f"{what}{'s' if len(idx) != 1 else ''} {', '.join(f'{prefix}{i}' for i in idx)}"


def _held(prefix: str, n: int, where: str = "") -> str:
    """``5 (h0-h4)``, ``2 are face up (u0-u1)``, ``none``."""
    if n == 0:
        return f"none are {where}" if where else "none"
    span = f"{prefix}0" if n == 1 else f"{prefix}0-{prefix}{n - 1}"
    verb = (" is " if n == 1 else " are ") + where if where else ""
    return f"{n}{verb} ({span})"


def _do_accept(s: GameState, a: Accept, check: bool) -> GameState:
    offer = s.pending
    p = a.player
    if check:
        if offer is None:
            raise IllegalAction(f"p{p} has no offer to accept", "T3")
        hand = s.players[p].hand
        if len(set(a.hand)) != len(a.hand) or any(not 0 <= h < len(hand) for h in a.hand):
            raise IllegalAction(f"p{p} names {_named('h', a.hand, 'hand card')} but holds "
                                f"{_held('h', len(hand))}", "T3")
        got = sorted(hand[h] for h in a.hand)
        if got != sorted(offer.ask):
            raise IllegalAction(
                f"p{p} gives {', '.join(BEAN_NAMES[b] for b in got) or 'nothing'} but "
                f"{', '.join(BEAN_NAMES[b] for b in offer.ask) or 'nothing'} was asked", "T3")
    assert offer is not None
    act, q = offer.player, offer.partner
    apl, qpl = s.players[act], s.players[q]
    gh, gu, qh, ga = set(offer.give_hand), set(offer.give_up), set(a.hand), set(offer.give_aside)
    to_q = (tuple(apl.hand[h] for h in sorted(gh)) + tuple(s.face_up[u] for u in sorted(gu))
            + tuple(apl.aside[i] for i in sorted(ga)))  # set-aside cards only unchecked (T4)
    to_a = tuple(qpl.hand[h] for h in sorted(qh))
    kept = tuple(c for i, c in enumerate(apl.aside) if i not in ga)
    # H1: removing cards keeps the order of the rest; T4: received cards are set aside.
    new_a = PlayerState(tuple(c for h, c in enumerate(apl.hand) if h not in gh), apl.fields,
                        apl.coins, tuple(sorted(kept + to_a)))
    new_q = PlayerState(tuple(c for h, c in enumerate(qpl.hand) if h not in qh), qpl.fields,
                        qpl.coins, tuple(sorted(qpl.aside + to_q)))
    players = list(s.players)
    players[act], players[q] = new_a, new_q
    return _evolve(s, players=tuple(players), pending=None, to_move=act,
                      face_up=tuple(c for u, c in enumerate(s.face_up) if u not in gu))


def _do_decline(s: GameState, a: Decline, check: bool) -> GameState:
    if check and s.pending is None:
        raise IllegalAction(f"p{a.player} has no offer to decline", "T3")
    v = list(s)
    v[_PENDING], v[_TO_MOVE] = None, s.active
    return _new(GameState, v)


def _do_reshuffle(s: GameState, a: Reshuffle, check: bool) -> GameState:
    if check and sorted(a.order) != sorted(s.discard):
        raise IllegalAction(f"the order has {difference(a.order, s.discard)} against the discard pile "
                            f"({len(a.order)} cards for {len(s.discard)})", "E1")
    s = _evolve(s, draw=tuple(a.order), discard=(), phase=PLANT if s.resume == _DRAWING else TRADE)
    return _S.take_cards(s)


_HANDLERS: dict[type, Handler] = {
    Plant: _do_plant,
    PlantAside: _do_plant_aside,
    PlantUp: _do_plant_up,
    DiscardUp: _do_discard_up,
    Discard: _do_discard,
    Harvest: _do_harvest,
    BuyField: _do_buy,
    EndPhase: _do_end,
    Propose: _do_propose,
    Accept: _do_accept,
    Decline: _do_decline,
    Reshuffle: _do_reshuffle,
}


# ---------------------------------------------------------------- the end


def scores(s: GameState) -> tuple[int, ...]:
    """Coins per seat (E4)."""
    return tuple(len(p.coins) for p in s.players)


def winners(s: GameState) -> tuple[int, ...]:
    """E4: most coins; ties broken by the ruleset's tie-break; a surviving tie is a shared win."""
    return _S.winners(s)


def _winners(s: GameState) -> tuple[int, ...]:
    sc = scores(s)
    best = max(sc)
    tied = tuple(p for p, c in enumerate(sc) if c == best)
    return EXPANSIONS[s.setup.expansion].break_tie(s, tied) if len(tied) > 1 else tied


# ---------------------------------------------------------------- the step table


_S.set(
    harvest=_harvest, plant_on=_plant_on, end_planting=_end_planting, take_cards=_take_cards,
    proposals=_proposals, end_trading=_end_trading, next_planter=_next_planter, end_turn=_end_turn,
    finish=_finish, winners=_winners,
    handlers=dict(_HANDLERS),  # the base actions'; ``model.expansions.install`` adds an expansion's
)
