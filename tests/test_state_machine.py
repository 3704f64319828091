"""Random legal games under every preset, player count and option mix, with the invariants of
RULES.md checked after every action (a hypothesis ``RuleBasedStateMachine``), plus complete seeded
bot games for every preset and player count that check the same invariants at each step.

Checked after every action (``check_state`` / ``check_step``):
- card conservation: hands + fields + face-up + set-aside + draw + discard + coins + out = the deck;
- H1: a hand only loses cards (keeping the order of the rest) and gains them at the back, and the
  gained cards are exactly the cards taken from the top of the draw pile (or of a reshuffled pile);
- H2: every field holds one type (``Field(bean, count)``: count 0 iff bean -1);
- T4: set-aside cards leave the set-aside area only through their owner's ``PlantAside``, onto a
  field; they arrive only by a deal (T3) or at the end of trading (T5);
- F1/H5: a coin stack only grows on top, except on its owner's ``BuyField``, by exactly the cost;
- T1: at most two phase-1 plantings per turn;
- H6: a player's fields change only when that player acts (or at the final harvest, E3);
- E1: the draw pile only loses its top cards, and is refilled only by a reshuffle of the discard pile;
- the JSON round trip of the state is exact.
Illegal actions (built to break one rule each, and arbitrary generated ones) must raise
``IllegalAction`` naming a rule; every action of ``legal_actions`` must be accepted, with and without
the checks (the unchecked fast path gives the same state).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import event, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import model
from model import (
    EMPTY,
    Accept,
    Action,
    BuyField,
    Decline,
    Discard,
    DiscardUp,
    EndPhase,
    Field,
    GameState,
    Harvest,
    IllegalAction,
    Phase,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
    apply,
    chance_outcome,
    coins_for,
    legal_actions,
    new_game,
    scores,
    state_to_json,
    winners,
)
from model.cards import Bean
from model.engine import is_listed_proposal
from model.isla import isla_of, isla_setup
from model.isla.actions import Attack, BuyShip, HarvestOnto, MoveCargo, PlantCargo, Sail, Sell, Yield
from play.bots import greedy_bot, random_bot, random_trader_bot
from schemas.state_json import state_from_json

# Every preset with every player count it allows.
CONFIGS: list[tuple[str, int]] = [
    (name, n) for name, r in model.PRESETS.items() for n in range(r.min_players, r.max_players + 1)
]
# La Isla Bohnita: 2-7 players with the rio-grande deck, 2-5 with the amigo deck (I2).
ISLA_CONFIGS: list[tuple[str, int]] = (
    [("rio-grande", n) for n in range(2, 8)] + [("amigo", n) for n in range(2, 6)])
MACHINE_CONFIGS: list[tuple[str, int, bool]] = (
    [(name, n, False) for name, n in CONFIGS] + [(name, n, True) for name, n in ISLA_CONFIGS])
DECISION_PHASES = (Phase.PLANT, Phase.TRADE, Phase.PLANT_ASIDE, Phase.OFFER, Phase.DISCARD, Phase.TURNED)
ALL_BEANS = tuple(int(b) for b in Bean)

# Option variations (V1-V3, H4, E4, F1, the trading protocol limits). max_deal_cards stays <= 2:
# legal_actions enumerates every deal up to that size, and 3 makes the list too long to test often.
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "harvest": st.sampled_from(["lenient", "strict"]),
        "quick": st.booleans(),
        "distinct_fields": st.booleans(),
        "tie_break": st.sampled_from(["hand", "seat", "none"]),
        "third_field": st.booleans(),
        "fields": st.integers(1, 3),
        "max_offers": st.integers(0, 4),
        "max_deal_cards": st.integers(0, 2),
    },
)


# ------------------------------------------------------------------ invariants of one state


def cards_in_play(s: GameState) -> Counter[int]:
    """Every card of the state, by bean type: the multiset card conservation compares with the deck."""
    c: Counter[int] = Counter()
    for pl in s.players:
        c.update(pl.hand)
        c.update(pl.coins)
        c.update(pl.aside)
        for f in pl.fields:
            if f.count:
                c[f.bean] += f.count
    c.update(s.draw)
    c.update(s.discard)
    c.update(s.face_up)
    c.update(s.out)
    if s.ext is not None:  # ships and island rows (I1-I4)
        for row in isla_of(s).rows:
            c.update(row)
        for fleet in isla_of(s).fleets:
            for _, ship in fleet.ships():
                if ship.count:
                    c[ship.bean] += ship.count
    return c


def json_round_trip(s: GameState) -> GameState:
    return state_from_json(json.loads(json.dumps(state_to_json(s))))


def check_state(s: GameState, moves: bool = True, json_too: bool = True) -> None:
    """Invariants of a single state. ``moves``: also check that a decision point has a legal move;
    ``json_too``: also check the JSON round trip (the costliest check)."""
    su = s.setup
    n = len(s.players)
    # Card conservation: one copy of every card in play, wherever it is.
    assert cards_in_play(s) == Counter(su.deck), "card conservation broken"
    for p, pl in enumerate(s.players):
        assert su.fields <= len(pl.fields) <= max(su.fields, 3), f"p{p} has {len(pl.fields)} fields"
        for i, f in enumerate(pl.fields):
            # H2: one type per field; an empty field has no type.
            assert f.count >= 0
            assert (f.count == 0) == (f.bean == -1), f"H2: p{p} field {i} is {f}"
            if f.count:
                assert f.bean in su.beans, f"p{p} field {i} holds a bean not in play"
        assert list(pl.aside) == sorted(pl.aside)
    assert list(s.face_up) == sorted(s.face_up)
    assert 0 <= s.planted <= 2, "T1: more than two phase-1 plantings"
    assert 0 <= s.exhaustions <= su.final_exhaustion
    assert 0 <= s.active < n
    if s.phase in (Phase.CHANCE, Phase.OVER):
        assert s.to_move == -1
    else:
        assert s.phase in DECISION_PHASES
        assert 0 <= s.to_move < n
    if s.phase == Phase.CHANCE:
        assert s.draw == () and s.discard, "E1: a reshuffle is due only with an empty draw pile"
        assert su.final_exhaustion > 1, "V1/D: no reshuffle when the first exhaustion ends the game"
    attack = isla_of(s).attack if s.ext is not None else None
    if s.pending is not None:
        assert s.phase == Phase.TRADE and s.to_move == s.pending.partner != s.active
        assert attack is None, "I7: an attack and an offer pending at once"
    elif attack is not None:
        assert s.phase == Phase.TRADE and s.to_move == attack[0] != s.active, "I7: the owner answers"
    elif s.phase in (Phase.PLANT, Phase.TRADE, Phase.OFFER, Phase.DISCARD, Phase.TURNED):
        assert s.to_move == s.active
    if s.phase == Phase.PLANT:
        assert s.players[s.active].hand, "T1: phase 1 with an empty hand is skipped"
    if s.phase == Phase.PLANT_ASIDE:
        assert s.players[s.to_move].aside
    if s.phase not in (Phase.TRADE, Phase.PLANT_ASIDE):
        # T4/T6: set-aside cards exist only from trading until they are planted in phase 3.
        assert all(not pl.aside for pl in s.players), f"set-aside cards left over in {s.phase.name}"
    if s.ext is not None:
        check_isla_state(s)
    if su.duel and s.ext is not None:
        assert s.phase not in (Phase.OFFER, Phase.TURNED), "I9: the Isla duel plants what it turns up"
        assert s.pending is None, "I9: no trading in the Isla duel"
    elif su.duel:
        assert s.phase not in (Phase.TRADE, Phase.PLANT_ASIDE), "D1: no trading in the duel"
        assert all(not pl.aside for pl in s.players)
    else:
        assert s.out == (), "only the duel removes cards from the game (F1)"
        assert s.phase not in (Phase.OFFER, Phase.DISCARD, Phase.TURNED)
    if s.phase == Phase.OVER:
        # E3: every field is harvested at the end.
        assert all(f.count == 0 for pl in s.players for f in pl.fields), "E3: a field left unharvested"
        if s.ext is not None:  # the Isla reading of E3: every cargo is sold at the end
            assert all(ship.count == 0 for f in isla_of(s).fleets for _, ship in f.ships()), "E3: cargo left"
        assert legal_actions(s) == []
        ws = winners(s)
        assert ws and all(0 <= w < n for w in ws)
    elif moves and s.phase != Phase.CHANCE:
        assert legal_actions(s), f"no legal action in {s.phase.name}: the game is stuck"
    # The JSON round trip is exact.
    if json_too:
        back = json_round_trip(s)
        assert back == s, "state JSON round trip changed the state"


def check_isla_state(s: GameState) -> None:
    """Ships and rows (I1-I7): one type per ship, rows of at most 5, attacks counted once a turn."""
    isla = isla_of(s)
    assert isla is not None
    su = s.setup
    assert len(isla.fleets) == len(s.players)
    for p, fleet in enumerate(isla.fleets):
        assert 1 <= len(fleet.merchants) <= 2, f"I1: p{p} has {len(fleet.merchants)} merchant ships"
        for k, ship in fleet.ships():
            assert ship.count >= 0 and (ship.count == 0) == (ship.bean == -1), f"I4: p{p} ship {k} is {ship}"
            if ship.count:
                assert ship.bean in su.beans
            assert ship.at in (0, 1, 2) and (k != 2 or ship.at == 0), f"p{p} ship {k} at {ship.at}"
    assert all(len(row) <= 5 for row in isla.rows), "I2: a row holds 5 cards"
    assert list(isla.attacked) == sorted(set(isla.attacked)), "I7: attacked ships listed once"
    assert all(q != s.active for q, _ in isla.attacked), "I7: only other players' ships are attacked"
    assert isla.attack is None or isla.attack in isla.attacked
    assert 0 <= isla.sails <= isla_setup(su).max_sails
    if s.phase == Phase.PLANT and s.planted == 0 and not isla.discarded:
        assert not isla.attacked and not isla.captured and isla.sails == 0, "per-turn counts not reset"


# ------------------------------------------------------------------ invariants of one step


def kept_hand(before: GameState, action: Action, q: int) -> tuple[int, ...]:
    """Seat q's hand after ``action`` removed the cards it names (H1: the rest keep their order)."""
    hand = before.players[q].hand
    drop: set[int] = set()
    if isinstance(action, Plant) and action.player == q:
        drop = {0}  # T1: the front card
    elif isinstance(action, Discard) and action.player == q:
        drop = {action.index}
    elif isinstance(action, Accept):
        offer = before.pending
        assert offer is not None
        if q == offer.player:
            drop |= set(offer.give_hand)
        if q == action.player:
            drop |= set(action.hand)
    return tuple(c for i, c in enumerate(hand) if i not in drop)


def expected_fields(before: GameState, action: Action, q: int) -> tuple[Field, ...] | None:
    """Seat q's fields after ``action`` (before any final harvest); None if the action plants a card
    whose identity depends on state we do not model here."""
    su = before.setup
    fields = list(before.players[q].fields)
    actor = getattr(action, "player", None)
    if actor != q:
        return tuple(fields)  # H6: only the acting player's fields change
    if isinstance(action, Plant):
        b = before.players[q].hand[0]
        fields[action.field] = Field(b, fields[action.field].count + 1)
    elif isinstance(action, PlantAside):
        fields[action.field] = Field(action.bean, fields[action.field].count + 1)
    elif isinstance(action, PlantUp):
        b = before.face_up[action.index]
        fields[action.field] = Field(b, fields[action.field].count + 1)
    elif isinstance(action, Harvest):
        f = fields[action.field]
        fields[action.field] = EMPTY
        if su.rules.field_beans and f.bean == Bean.FIELD and f.count == 2 and len(fields) < 3:
            fields.append(EMPTY)  # V5: two field beans give a third field
    elif isinstance(action, BuyField):
        fields.append(EMPTY)
    elif isinstance(action, HarvestOnto):  # I5: the whole field goes onto the ship
        fields[action.field] = EMPTY
    return tuple(fields)


def harvest_coins(su: model.Setup, f: Field) -> int:
    """C1 (and V5) for a harvest of field ``f``, from the setup's beanometers."""
    if su.rules.field_beans and f.bean == Bean.FIELD and f.count == 2:
        return 0
    return coins_for(su.meters[f.bean], f.count)


def check_step(before: GameState, action: Action, after: GameState) -> None:
    """Two-state invariants of one transition ``before --action--> after``."""
    su = before.setup
    n = len(before.players)
    over = after.phase == Phase.OVER
    assert after.setup == su
    # E1: cards leave the draw pile only from the top; it is refilled only by a reshuffle.
    if isinstance(action, Reshuffle):
        assert before.phase == Phase.CHANCE and before.draw == ()
        assert sorted(action.order) == sorted(before.discard)
        pile = action.order
    else:
        pile = before.draw
    taken_n = len(pile) - len(after.draw)
    assert taken_n >= 0 and after.draw == pile[taken_n:], "E1: the draw pile changed other than at its top"
    taken = pile[:taken_n]
    # H1: hands lose only the cards the action names (order kept) and gain cards at the back.
    appended: dict[int, tuple[int, ...]] = {}
    for q in range(n):
        kept = kept_hand(before, action, q)
        new = after.players[q].hand
        assert new[: len(kept)] == kept, f"H1: p{q}'s hand {new} does not start with {kept}"
        appended[q] = new[len(kept):]
    drawn = sum(len(v) for v in appended.values())
    assert drawn <= taken_n, "H1: cards appeared in a hand that were not drawn"
    dealt = taken[:drawn]  # within one action, drawing (T7) comes before the next turn-up (T2)
    receivers = [q for q in range(n) if appended[q]]
    if su.rules.draw_each and not su.duel:
        # V4: every player draws 1, active player first, then clockwise (resumed after a reshuffle).
        start = before.todo[0] if isinstance(action, Reshuffle) and before.todo else before.active
        order = [(start + i) % n for i in range(drawn)]
        assert sorted(order) == sorted(receivers), f"V4: drew for {receivers}, expected {order}"
        for i, q in enumerate(order):
            assert appended[q] == (dealt[i],), f"H1/V4: p{q} drew {appended[q]}, the pile gave {dealt[i]}"
    else:
        assert len(receivers) <= 1, f"cards drawn for several seats {receivers} in one step"
        if receivers:
            q = receivers[0]
            assert appended[q] == dealt, f"H1: p{q} got {appended[q]} but the top of the pile was {dealt}"
    refilled: tuple[int, ...] = ()
    if before.ext is not None and after.ext is not None and not isinstance(action, Sail):
        for row_before, row_after in zip(isla_of(before).rows, isla_of(after).rows, strict=True):
            assert row_after[:len(row_before)] == row_before, "I2: a row lost cards without a ship move"
            refilled += row_after[len(row_before):]
        # I2: refills come after the draw, from the top of the pile, Bohnbay first.
        assert taken[drawn:drawn + len(refilled)] == refilled, "I2: a row got cards not from the pile top"
    turned = taken[drawn + len(refilled):]
    if turned:
        if su.duel:  # D2 step 3: turned-up cards, plus matching discards
            assert not (Counter(turned) - Counter(after.face_up))
        else:  # T2: the trade area was emptied at the end of the last trading phase (T5), unless
            # this reshuffle resumes a turn-up.
            base = Counter(before.face_up) if isinstance(action, Reshuffle) else Counter()
            assert Counter(after.face_up) == base + Counter(turned), (
                "T2: the trade area is not the turned-up cards")
    # Coins (H5, F1): a stack only grows on top, except on its owner's purchase, by exactly the cost.
    buying = isinstance(action, (BuyField, BuyShip))
    for q in range(n):
        bc, ac = before.players[q].coins, after.players[q].coins
        if buying and action.player == q:  # type: ignore[union-attr]
            if isinstance(action, BuyShip):
                cost = isla_setup(su).pirate_cost if action.pirate else isla_setup(su).ship_cost
            else:
                cost = su.third_cost  # type: ignore[assignment]
            assert cost is not None and len(bc) >= cost
            assert ac == bc[: len(bc) - cost], f"F1/I1: p{q} paid {len(bc) - len(ac)} coins, cost {cost}"
            paid = bc[len(bc) - cost:]
            if su.duel:
                assert after.out == before.out + paid, "F1/I9: duel purchases are set aside"
            else:
                assert after.discard == before.discard + paid, "F1/I1: paid coins go to the discard pile"
        else:
            assert ac[: len(bc)] == bc, f"coins of p{q} decreased or were reordered by {action}"
        if isinstance(action, Sell) and action.player == q:
            assert len(ac) > len(bc), "I6: a cargo is sold only for at least one coin"
    isla_comeback = su.duel and before.ext is not None and after.exhaustions > before.exhaustions
    if isla_comeback:  # I9: the set-aside coins join the discard pile when the draw pile runs out
        assert after.out == ()
    elif not (buying and su.duel):
        assert after.out == before.out
    # T4: set-aside cards leave only by their owner's PlantAside; they arrive only by deals (T3)
    # and at the end of trading (T5).
    offer = before.pending
    for q in range(n):
        ba, aa = Counter(before.players[q].aside), Counter(after.players[q].aside)
        lost, gained = ba - aa, aa - ba
        if isinstance(action, PlantAside) and action.player == q:
            assert lost == Counter({action.bean: 1}) and not gained, f"T4: p{q} aside {ba} -> {aa}"
        else:
            assert not lost, f"T4: set-aside cards {dict(lost)} of p{q} left without being planted ({action})"
        if isinstance(action, Accept):
            assert offer is not None
            if q == offer.partner:
                given = [before.players[offer.player].hand[h] for h in offer.give_hand]
                given += [before.face_up[u] for u in offer.give_up]
                assert gained == Counter(given), f"T4: p{q} received {dict(gained)}, was given {given}"
            elif q == offer.player:
                assert gained == Counter(offer.ask), f"T3: p{q} received {dict(gained)}, asked {offer.ask}"
            else:
                assert not gained
        elif isinstance(action, EndPhase) and before.phase == Phase.TRADE and q == before.active:
            assert gained == Counter(before.face_up), "T5: face-up cards go to the active player's aside"
        else:
            assert not gained, f"T4: p{q} gained set-aside cards {dict(gained)} by {action}"
    # H6: fields change only for the acting player, as the action says (E3 harvests all at the end).
    if not over:
        for q in range(n):
            exp = expected_fields(before, action, q)
            assert after.players[q].fields == exp, (
                f"p{q}'s fields changed from {before.players[q].fields} to "
                f"{after.players[q].fields} by {action}, expected {exp}")
    # H5/C1: a harvest pays the beanometer value; the rest goes on the discard pile.
    if isinstance(action, Harvest):
        f = before.players[action.player].fields[action.field]
        assert f.count > 0, "H5: an empty field was harvested"
        assert not h4_protected(before.players[action.player].fields, action.field, su.strict_harvest), (
            f"H4: {action} harvested a protected single bean")
        k = harvest_coins(su, f)
        assert after.players[action.player].coins == before.players[action.player].coins + (f.bean,) * k
        assert after.discard == before.discard + (f.bean,) * (f.count - k), "H5: the rest is discarded"
    if before.ext is not None:
        check_isla_step(before, action, after)
    # T1: phase-1 plantings only in phase 1, at most two.
    if isinstance(action, Plant):
        assert before.phase == Phase.PLANT and before.planted < 2
    assert after.turn in (before.turn, before.turn + 1)
    assert before.exhaustions <= after.exhaustions <= before.exhaustions + 1
    if su.final_exhaustion == 1:
        assert after.phase != Phase.CHANCE, "V1/D: no reshuffle"
    if over and before.phase != Phase.OVER:
        check_end(after)


def check_isla_step(before: GameState, action: Action, after: GameState) -> None:
    """Ship cargo changes only as the action says (I4-I7); rows lose cards only to a ship move."""
    bi, ai = isla_of(before), isla_of(after)
    assert bi is not None and ai is not None
    over = after.phase == Phase.OVER
    turn_changed = after.turn != before.turn
    for p, (bf, af) in enumerate(zip(bi.fleets, ai.fleets, strict=True)):
        for k, ship in bf.ships():
            new = af.ship(k)
            assert new is not None, f"p{p} lost ship {k}"
            if new == ship or over:
                continue
            actor = getattr(action, "player", None)
            moved = (
                (isinstance(action, Sail) and actor == p and action.ship == k)
                or (isinstance(action, HarvestOnto) and actor == p and action.ship == k)
                or (isinstance(action, Sell) and actor == p and action.ship == k and new.count == 0)
                or (isinstance(action, MoveCargo) and actor == p and k in (action.source, action.target))
                or (isinstance(action, Yield) and (p, k) in ((actor, bi.attack[1] if bi.attack else -1),
                                                             (before.active, 2)))
            )
            assert moved, f"p{p}'s ship {k} changed from {ship} to {new} by {action}"
            if new.count and ship.count:
                assert new.bean == ship.bean, "I4: a ship holds one type"
    if isinstance(action, Sail):
        row_before = bi.rows[action.port - 1] if action.port else ()
        taken = Counter(row_before) - Counter(ai.rows[action.port - 1] if action.port else ())
        assert sum(taken.values()) == action.take and (not taken or set(taken) == {row_before[0]}), (
            "I4: a ship loads the front card and more of its type")
        assert ai.sails == bi.sails + 1
    elif not turn_changed:
        for rb, ra in zip(bi.rows, ai.rows, strict=True):
            assert ra[:len(rb)] == rb, "I2: rows lose cards only to a ship move"
    if isinstance(action, Attack):
        assert (action.target, action.ship) not in bi.attacked, "I7: a ship attacked twice in a turn"
        assert ai.attacked == tuple(sorted(bi.attacked + ((action.target, action.ship),)))
    elif not turn_changed:
        assert ai.attacked == bi.attacked


def check_end(s: GameState) -> None:
    """E3/E4 at the end: coins are the scores; winners by most coins, then the tie-break."""
    sc = scores(s)
    assert sc == tuple(len(p.coins) for p in s.players)
    best = max(sc)
    tied = [p for p, c in enumerate(sc) if c == best]
    rule = s.setup.rules.tie_break
    if rule == "hand" and len(tied) > 1:
        most = max(len(s.players[p].hand) for p in tied)
        tied = [p for p in tied if len(s.players[p].hand) == most]
    elif rule == "seat" and len(tied) > 1:
        tied = [max(tied, key=lambda p: (p - 0) % len(s.players))]
    assert winners(s) == tuple(tied), f"E4: winners {winners(s)}, expected {tied}"


# ------------------------------------------------------------------ a reference for legality


def proposal_is_legal(s: GameState, a: Propose) -> bool:
    """T3 and the trading protocol, written out independently of the engine."""
    if s.phase != Phase.TRADE or s.setup.duel or s.pending is not None:
        return False
    if s.ext is not None and (isla_of(s).attack is not None or a.give_hand):
        return False  # I7: an attack is answered first; I3: only the turned-up cards are offered
    if not (a.player == s.active == s.to_move):
        return False
    if not (0 <= a.partner < len(s.players)) or a.partner == a.player:
        return False
    if s.offers >= s.setup.rules.max_offers:
        return False
    hand = s.players[a.player].hand
    if len(set(a.give_hand)) != len(a.give_hand) or not all(0 <= h < len(hand) for h in a.give_hand):
        return False
    if len(set(a.give_up)) != len(a.give_up) or not all(0 <= u < len(s.face_up) for u in a.give_up):
        return False
    if not all(b in s.setup.beans for b in a.ask):
        return False
    return bool(a.give_hand or a.give_up or a.ask)


def accept_is_legal(s: GameState, a: Accept) -> bool:
    offer = s.pending
    if s.phase != Phase.TRADE or offer is None or not (a.player == s.to_move == offer.partner):
        return False
    hand = s.players[a.player].hand
    if len(set(a.hand)) != len(a.hand) or not all(0 <= h < len(hand) for h in a.hand):
        return False
    return sorted(hand[h] for h in a.hand) == sorted(offer.ask)


def canonical(s: GameState, a: Action) -> Action | None:
    """The form in which ``legal_actions`` lists an action it enumerates (None: not enumerated).

    Identical face-up cards are listed once (lowest index); deals up to ``max_deal_cards`` a side.
    """
    if isinstance(a, (PlantUp, DiscardUp)):
        if 0 <= a.index < len(s.face_up):
            return dataclasses.replace(a, index=s.face_up.index(s.face_up[a.index]))
        return a
    if isinstance(a, Propose):
        k = s.setup.rules.max_deal_cards
        if len(a.give_hand) + len(a.give_up) > k or len(a.ask) > k:
            return None
        if not all(0 <= u < len(s.face_up) for u in a.give_up) or len(set(a.give_up)) != len(a.give_up):
            return None
        need = Counter(s.face_up[u] for u in a.give_up)
        ups = tuple(sorted(u for b, m in need.items()
                           for u in [i for i, c in enumerate(s.face_up) if c == b][:m]))
        return Propose(a.player, a.partner, tuple(sorted(a.give_hand)), ups, tuple(sorted(a.ask)))
    if isinstance(a, Accept):
        return Accept(a.player, tuple(sorted(a.hand)))
    return a


def expected_turn_rule(s: GameState) -> str:
    """The rule named when a seat that is not to move acts."""
    if s.setup.duel:
        return "D2"
    return {Phase.PLANT: "T1", Phase.TRADE: "T3", Phase.PLANT_ASIDE: "T6"}[s.phase]


def h4_protected(fields: tuple[Field, ...], i: int, strict: bool) -> bool:
    """H4, written out: a single bean is protected while another field holds more than one card
    (strict: unless every field holds exactly one)."""
    if fields[i].count != 1:
        return False
    if strict:
        return any(f.count != 1 for f in fields)
    return any(f.count > 1 for j, f in enumerate(fields) if j != i)


def illegal_candidates(s: GameState) -> list[tuple[Action, set[str]]]:
    """Actions that break one rule each in ``s``, with the rule IDs an engine may name."""
    n = len(s.players)
    su = s.setup
    out: list[tuple[Action, set[str]]] = []
    if s.phase == Phase.OVER:
        return [(a, {"E2"}) for a in (EndPhase(0), Plant(0, 0), Harvest(0, 0), Reshuffle(tuple(s.discard)))]
    if s.phase == Phase.CHANCE:
        out += [(a, {"E1"}) for a in (EndPhase(s.active), Plant(s.active, 0), Harvest(0, 0))]
        d = tuple(s.discard)
        out.append((Reshuffle(d[1:]), {"E1"}))  # a card short
        out.append((Reshuffle(d + d[:1]), {"E1"}))  # a card too many
        other = next(b for b in ALL_BEANS if b != d[0])
        out.append((Reshuffle((other,) + d[1:]), {"E1"}))  # a card swapped for another bean
        return out
    p = s.to_move
    if s.ext is not None and isla_of(s).attack is not None:
        return isla_attack_candidates(s)
    pl = s.players[p]
    fields = pl.fields
    turn_rule = {expected_turn_rule(s)}
    isla_trade = (s.ext is not None and s.phase == Phase.TRADE and s.pending is None
                  and p == s.active)  # I3: the active player plants in phase 2
    out.append((EndPhase(n), {"S"}))
    out.append((Harvest(-1, 0), {"S"}))
    for q in range(n):
        if q != p:
            out.append((EndPhase(q), turn_rule))
            # D1: in the duel, harvesting is only allowed on one's own turn.
            out.append((Harvest(q, 0), turn_rule | ({"D1", "I9"} if su.duel else set())))
            out.append((Decline(q), turn_rule))
    out.append((Reshuffle(tuple(s.discard)), {"E1"}))
    # Phase 1 (T1, H3, V2).
    if s.phase == Phase.PLANT:
        front = pl.hand[0]
        for i, f in enumerate(fields):
            if f.count and f.bean != front:
                out.append((Plant(p, i), {"H3"}))
        out.append((Plant(p, len(fields)), {"H3", "T1"}))
        if s.planted == 0:
            out.append((EndPhase(p), {"D2", "T1"} if su.duel else {"T1"}))  # D2 step 2 is T1's duel form
        if su.rules.distinct_fields and s.planted == 1:
            out.append((Plant(p, s.first_field), {"V2", "H3"}))
    else:
        out.append((Plant(p, 0), {"T1", "D2"}))
    # H4 / H5: protected singles, empty fields, fields that do not exist.
    for i, f in enumerate(fields):
        if f.count == 0:
            out.append((Harvest(p, i), {"H5", "H4"}))
        elif h4_protected(fields, i, su.strict_harvest):
            out.append((Harvest(p, i), {"H4"}))
    out.append((Harvest(p, len(fields)), {"H5", "H4"}))
    # F1: a third field that cannot be bought.
    cost = su.third_cost
    if cost is None or len(fields) != 2 or len(pl.coins) < cost:
        out.append((BuyField(p), {"F1"}))
    # T3 / D1: proposals outside trading, by the wrong seat, malformed.
    gift = Propose(p, (p + 1) % n, (0,) if pl.hand else (), (), (su.beans[0],))
    if su.duel:
        out.append((gift, {"D1", "I9"}))
    elif s.phase != Phase.TRADE or s.pending is not None:
        out.append((gift, {"T3"}))
    else:
        out.append((Propose(p, p, (), (), (su.beans[0],)), {"T3"}))  # with oneself
        out.append((Propose(p, n, (), (), (su.beans[0],)), {"T3"}))  # with no one
        out.append((Propose(p, (p + 1) % n), {"T3"}))  # nothing for nothing
        out.append((Propose(p, (p + 1) % n, (len(pl.hand),)), {"T3", "I3"}))  # a hand card it lacks
        out.append((Propose(p, (p + 1) % n, (), (len(s.face_up),)), {"T3"}))
        if pl.hand:
            out.append((Propose(p, (p + 1) % n, (0, 0)), {"T3", "I3"}))  # the same card twice
            if s.ext is not None:  # I3: the active player offers only the turned-up cards
                out.append((Propose(p, (p + 1) % n, (0,)), {"I3", "T3"}))
        missing = [b for b in ALL_BEANS if b not in su.beans]
        if missing:
            out.append((Propose(p, (p + 1) % n, (), (), (missing[0],)), {"T3"}))
        if s.offers >= su.rules.max_offers:
            out.append((gift, {"T3"}))
    # T3: answers with no offer, or with the wrong bean types.
    if s.pending is None:
        out.append((Accept(p, ()), {"T3", "D1"}))
        out.append((Decline(p), {"T3", "D1"}))
    else:
        ask = sorted(s.pending.ask)
        for pick in ((), (0,), (0, 1), tuple(range(len(ask)))):
            if all(h < len(pl.hand) for h in pick) and sorted(pl.hand[h] for h in pick) != ask:
                out.append((Accept(p, pick), {"T3"}))
        if pl.hand:
            out.append((Accept(p, (0, 0)), {"T3"}))
        out.append((Accept(p, (len(pl.hand),)), {"T3"}))
        out.append((EndPhase(p), {"T3"}))  # the partner cannot end the trading phase
    # T6: phase 3 cannot be ended early; only set-aside cards can be planted in it.
    if s.phase == Phase.PLANT_ASIDE or isla_trade:
        if not isla_trade:
            out.append((EndPhase(p), {"T6", "T4"}))
        for b in su.beans:
            if b not in pl.aside:
                out.append((PlantAside(p, b, 0), {"T6", "T4"}))
                break
        for b in set(pl.aside):
            for i, f in enumerate(fields):
                if f.count and f.bean != b:
                    out.append((PlantAside(p, b, i), {"H3"}))
    else:
        out.append((PlantAside(p, su.beans[0], 0), {"T6", "T4"}))
    # D2: the duel's steps.
    if s.phase == Phase.OFFER:
        out.append((EndPhase(p), {"D2"}))
    if s.phase not in (Phase.OFFER, Phase.TURNED) and not isla_trade:
        out.append((PlantUp(p, 0, 0), {"D2"}))
    else:
        out.append((PlantUp(p, len(s.face_up), 0), {"D2"}))
    if s.phase != Phase.OFFER:
        out.append((DiscardUp(p, 0), {"D2"}))
    isla_discard = s.ext is not None and su.duel and s.phase == Phase.PLANT  # I9: before planting too
    if isla_discard and s.ext is not None and isla_of(s).discarded:
        out.append((Discard(p, 0), {"I9"}))
    elif s.phase != Phase.DISCARD and not isla_discard:
        out.append((Discard(p, 0), {"D2"}))
    else:
        out.append((Discard(p, len(pl.hand)), {"D2"}))
    out += isla_candidates(s)
    return out


def isla_candidates(s: GameState) -> list[tuple[Action, set[str]]]:
    """Isla moves that break one rule each (I1-I9); without the expansion every one of them is I1."""
    p = s.to_move
    n = len(s.players)
    pl = s.players[p]
    out: list[tuple[Action, set[str]]] = [(PlantCargo(p, 0, 0), {"I5", "I1"})]
    isla = isla_of(s) if s.ext is not None else None
    if isla is None:
        return out + [(a, {"I1"}) for a in (Sail(p, 0, 1, 1), Sell(p, 0), Attack(p, (p + 1) % n, 0),
                                           Yield(p), BuyShip(p), MoveCargo(p, 0, 1), HarvestOnto(p, 0, 0))]
    su = s.setup
    fleet = isla.fleets[p]
    sea = s.phase == Phase.TRADE and s.pending is None and p == s.active
    off_turn = su.duel and p != s.active
    out.append((Yield(p), {"I7"}))
    out.append((Sail(p, 2, 1, 1), {"I7"} if sea else {"I3"}))
    for k, ship in enumerate(fleet.merchants):
        if not sea:
            out.append((Sail(p, k, 1 if ship.at != 1 else 2, 0), {"I3"}))
            continue
        out.append((Sail(p, k, ship.at, 0), {"I4"}))  # sailing nowhere
        if isla.sails >= isla_setup(su).max_sails:
            continue
        for port in (1, 2):
            row = isla.rows[port - 1]
            if port == ship.at:
                continue
            if row and ship.count and ship.bean != row[0]:
                out.append((Sail(p, k, port, 1), {"I4"}))  # a second type
            elif row:
                out.append((Sail(p, k, port, row.count(row[0]) + 1), {"I4"}))  # more than the row has
                out.append((Sail(p, k, port, 0), {"I4"}))  # the front card must be loaded
            else:
                out.append((Sail(p, k, port, 1), {"I4"}))  # nothing to load
    for k, ship in fleet.ships():
        if not (ship.count and su.payout[ship.bean][ship.count]):
            out.append((Sell(p, k), {"I9"} if off_turn else {"I6"}))
        out.append((MoveCargo(p, k, 2), {"I9"} if off_turn else {"I6", "I7"}))
    for f, field in enumerate(pl.fields):
        if field.count:
            out.append((HarvestOnto(p, f, 2), {"I9"} if off_turn else {"I7"}))
            for k, ship in enumerate(fleet.merchants):
                if ship.count and ship.bean != field.bean and not off_turn:
                    out.append((HarvestOnto(p, f, k), {"I5", "H4"}))  # a second type
    if fleet.pirate is None or not sea:
        out.append((Attack(p, (p + 1) % n, 0), {"I7"}))
    for q, k in isla.attacked:
        out.append((Attack(p, q, k), {"I7"}))  # I7: once per turn
    out.append((Attack(p, p, 0), {"I7"}))
    for pirate in (False, True):
        owned = fleet.pirate is not None if pirate else len(fleet.merchants) == 2
        cost = isla_setup(su).pirate_cost if pirate else isla_setup(su).ship_cost
        if owned or len(pl.coins) < cost or off_turn:
            out.append((BuyShip(p, pirate), {"I1", "I9"}))
    return out


def isla_attack_candidates(s: GameState) -> list[tuple[Action, set[str]]]:
    """I7: while an attack waits for its answer, nothing else may happen."""
    assert s.ext is not None and isla_of(s).attack is not None
    q, k = isla_of(s).attack
    out: list[tuple[Action, set[str]]] = [
        (EndPhase(s.active), {"I7"}), (Harvest(q, 0), {"I7"}), (Plant(q, 0), {"I7"}),
        (Sail(s.active, 0, 1, 1), {"I7"}), (Yield(s.active), {"I7"}), (Sell(s.active, 0), {"I7"}),
        (BuyShip(q, True), {"I7"}), (MoveCargo(q, k, 1 - k), {"I7"}),
    ]
    ship = isla_of(s).fleets[q].merchants[k]
    if not s.setup.payout[ship.bean][ship.count]:
        out.append((Sell(q, k), {"I6"}))
    other = isla_of(s).fleets[q].ship(1 - k)
    if other is not None and other.count:
        out.append((Sell(q, 1 - k), {"I7"}))  # only the attacked ship may be sold now
    return out


def assert_illegal(s: GameState, action: Action, rules: set[str]) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        apply(s, action)
    err = info.value
    assert err.rule, f"{action}: IllegalAction without a rule ID"
    assert err.reason, f"{action}: IllegalAction without a reason"
    assert err.rule in rules, (
        f"{action} in {s.phase.name}: rule {err.rule}, expected one of {rules}: {err}")
    assert f"[{err.rule}]" in str(err)
    return err


# ------------------------------------------------------------------ random play


def random_proposal(s: GameState, rng: random.Random) -> Propose:
    """A proposal built from random positions (any size, sometimes beyond max_deal_cards)."""
    a = s.active
    n = len(s.players)
    hand_n, up_n = len(s.players[a].hand), len(s.face_up)
    partner = rng.choice([q for q in range(n) if q != a])
    gh = tuple(sorted(rng.sample(range(hand_n), rng.randint(0, min(3, hand_n)))))
    gu = tuple(sorted(rng.sample(range(up_n), rng.randint(0, up_n))))
    ask = tuple(sorted(rng.choice(s.setup.beans) for _ in range(rng.randint(0, 3))))
    return Propose(a, partner, gh, gu, ask)


def random_move(s: GameState, rng: random.Random) -> Action:
    """A random legal move (proposals half of the time in trading, with random answers)."""
    if s.phase == Phase.CHANCE:
        return chance_outcome(s, rng)
    if s.phase == Phase.TRADE and s.pending is None and s.to_move == s.active:  # (not an attack, I7)
        if s.offers < s.setup.rules.max_offers and rng.random() < 0.6:
            prop = random_proposal(s, rng)
            if proposal_is_legal(s, prop):
                return prop
        if s.ext is not None and rng.random() < 0.6:  # I3: ship moves, raids, planting, sales
            acts = legal_actions(s, proposals=False)
            return rng.choice(acts)
        return EndPhase(s.active)
    acts = legal_actions(s)
    if s.phase == Phase.TRADE:  # an answer: accept a deal the partner can make half of the time
        accepts = [x for x in acts if isinstance(x, Accept)]
        if accepts and rng.random() < 0.5:
            return rng.choice(accepts)
    return rng.choice(acts)


# ------------------------------------------------------------------ the state machine


class GameMachine(RuleBasedStateMachine):
    """Plays one random game; hypothesis chooses the moves, including illegal ones."""

    def __init__(self) -> None:
        super().__init__()
        self.s: GameState | None = None
        self.plants: Counter[int] = Counter()
        self.attacks: Counter[tuple[int, int, int]] = Counter()
        self.steps = 0

    # -- helpers

    @property
    def state(self) -> GameState:
        assert self.s is not None
        return self.s

    def do(self, action: Action, trusted: bool = False) -> None:
        """Apply a legal action and check the step; ``trusted``: it came from legal_actions."""
        before = self.state
        after = apply(before, action)
        if trusted:
            assert apply(before, action, False) == after, "the unchecked fast path gives another state"
        check_step(before, action, after)
        if isinstance(action, Plant):
            self.plants[before.turn] += 1
            assert self.plants[before.turn] <= 2, "T1: a third phase-1 planting in one turn"
        if isinstance(action, Attack):
            key = (before.turn, action.target, action.ship)
            self.attacks[key] += 1
            assert self.attacks[key] == 1, "I7: an enemy ship attacked twice in one turn"
        # JSON every third step, and at every chance node, pending offer and end (the invariant
        # after each rule checks it too).
        special = after.phase in (Phase.CHANCE, Phase.OVER) or after.pending is not None
        check_state(after, moves=False, json_too=special or self.steps % 3 == 0)
        if isinstance(action, Reshuffle):
            event("reshuffle")
        if isinstance(action, (Sail, HarvestOnto, Sell, MoveCargo, Attack, Yield, BuyShip)):
            event(f"isla {type(action).__name__}")
        if after.phase == Phase.OVER:
            event("game over")
        self.s = after
        self.steps += 1

    # -- setup

    @initialize(
        config=st.sampled_from(MACHINE_CONFIGS),
        options=OPTIONS,
        seed=st.integers(0, 2**32 - 1),
        warmup=st.integers(0, 600),
    )
    def start(self, config: tuple[str, int, bool], options: dict[str, Any], seed: int, warmup: int) -> None:
        name, n, isla = config
        if isla:
            options = {**options, "isla": True, "max_sails": options.get("max_offers", 6)}
            event("isla")
        rules = model.ruleset(name, options)
        note(f"ruleset {name} {options}, {n} players, seed {seed}, warmup {warmup}")
        event(f"preset {name}")
        self.s = new_game(rules, n, seed)
        check_state(self.s)
        rng = random.Random(seed)
        for _ in range(warmup):
            if self.state.phase == Phase.OVER:
                break
            self.do(random_move(self.state, rng))

    # -- legal moves (every rule is enabled in every state: hypothesis gives up on examples where
    # it cannot find an enabled rule quickly; at the end of the game the rules check E2 instead)

    def game_over_rejects_everything(self) -> None:
        for action, rules in illegal_candidates(self.state):
            assert_illegal(self.state, action, rules)

    @rule(k=st.integers(0, 2**16), data=st.data())
    def legal_step(self, k: int, data: st.DataObject) -> None:
        """Any action of legal_actions (proposals included); at a chance node, a drawn permutation
        of the discard pile (after trying orders that are not one, E1)."""
        s = self.state
        if s.phase == Phase.OVER:
            self.game_over_rejects_everything()
        elif s.phase == Phase.CHANCE:
            assert legal_actions(s) == []
            for action, rules in illegal_candidates(s):
                assert_illegal(s, action, rules)
            order = data.draw(st.permutations(s.discard), label="reshuffle order")
            self.do(Reshuffle(tuple(order)))
        else:
            acts = legal_actions(s)
            self.do(acts[k % len(acts)], trusted=True)

    @rule(k=st.integers(0, 2**16))
    def move_on(self, k: int) -> None:
        """A legal action that is not a proposal (so the game moves on), or a seeded reshuffle."""
        s = self.state
        if s.phase == Phase.OVER:
            self.game_over_rejects_everything()
        elif s.phase == Phase.CHANCE:
            self.do(chance_outcome(s, random.Random(k)))
        else:
            acts = legal_actions(s, proposals=False)
            assert acts, "no way to end the trading phase"
            self.do(acts[k % len(acts)], trusted=True)

    @rule(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 150))
    def fast_forward(self, seed: int, k: int) -> None:
        """Up to ``k`` random moves (so that runs reach reshuffles and the end of the game)."""
        rng = random.Random(seed)
        for _ in range(k):
            if self.state.phase == Phase.OVER:
                break
            self.do(random_move(self.state, rng))

    @rule(data=st.data())
    def trade(self, data: st.DataObject) -> None:
        """With an offer pending: an accept with drawn hand positions, or a decline. Otherwise a
        proposal built from drawn positions (in any phase). Legal iff the reference says so (T3)."""
        s = self.state
        if s.pending is not None:
            self.answer(data)
            return
        n = len(s.players)
        hand_n, up_n = len(s.players[s.active].hand), len(s.face_up)
        player = data.draw(st.sampled_from([s.active, s.to_move, (s.active + 1) % n]), label="player")
        partner = data.draw(st.integers(-1, n), label="partner")
        gh = data.draw(st.lists(st.integers(0, hand_n), max_size=3), label="give_hand")
        gu = data.draw(st.lists(st.integers(0, up_n), max_size=3), label="give_up")
        ask = data.draw(st.lists(st.sampled_from(ALL_BEANS), max_size=3), label="ask")
        a = Propose(player, partner, tuple(gh), tuple(gu), tuple(sorted(ask)))
        self.check_against_reference(a, proposal_is_legal(s, a))

    def answer(self, data: st.DataObject) -> None:
        s = self.state
        p = s.to_move
        hand = s.players[p].hand
        if data.draw(st.booleans(), label="decline"):
            self.do(Decline(p))
            return
        # Either positions of the asked types (when the hand has them) or drawn positions.
        offer = s.pending
        assert offer is not None
        pos: list[int] = []
        for b in offer.ask:
            i = next((i for i, c in enumerate(hand) if c == b and i not in pos), None)
            if i is not None:
                pos.append(i)
        if not data.draw(st.booleans(), label="matching"):
            pos = data.draw(st.lists(st.integers(0, len(hand)), max_size=3), label="hand")
        a = Accept(p, tuple(pos))
        self.check_against_reference(a, accept_is_legal(s, a))

    def check_against_reference(self, a: Propose | Accept, legal: bool) -> None:
        s = self.state
        acts = set(legal_actions(s))
        if isinstance(a, Propose):
            assert is_listed_proposal(s, a) == (a in acts), f"is_listed_proposal is wrong on {a}"
        if legal:
            canon = canonical(s, a)
            if canon is not None:
                assert canon in acts, f"{a} is legal but legal_actions lacks {canon}"
            self.do(a)
        else:
            with pytest.raises(IllegalAction) as info:
                apply(s, a)
            assert info.value.rule and info.value.reason
            assert canonical(s, a) not in acts, f"{a} is rejected ({info.value}) but listed as legal"

    # -- illegal moves

    @rule()
    def illegal_targeted(self) -> None:
        """Actions built to break one rule each are rejected naming that rule."""
        s = self.state
        for action, rules in illegal_candidates(s):
            assert_illegal(s, action, rules)

    @rule(data=st.data())
    def arbitrary(self, data: st.DataObject) -> None:
        """An arbitrary action: apply accepts it iff legal_actions lists it (in canonical form);
        proposals and answers, which apply accepts at any size, are compared with the reference."""
        s = self.state
        seat = st.integers(-1, len(s.players))
        if s.to_move >= 0:
            seat = st.one_of(st.just(s.to_move), seat)
        idx = st.integers(-1, 6)
        pos = st.lists(st.integers(-1, 6), max_size=3).map(tuple)
        b = st.sampled_from(ALL_BEANS)
        action = data.draw(st.one_of(
            st.builds(Plant, seat, idx),
            st.builds(PlantAside, seat, b, idx),
            st.builds(PlantUp, seat, idx, idx),
            st.builds(Harvest, seat, idx),
            st.builds(BuyField, seat),
            st.builds(EndPhase, seat),
            st.builds(Propose, seat, seat, pos, pos, st.lists(b, max_size=3).map(lambda x: tuple(sorted(x)))),
            st.builds(Accept, seat, pos),
            st.builds(Decline, seat),
            st.builds(Discard, seat, idx),
            st.builds(DiscardUp, seat, idx),
            st.builds(Reshuffle, st.lists(b, max_size=4).map(tuple)),
            st.builds(Sail, seat, idx, st.integers(-1, 3), idx),
            st.builds(HarvestOnto, seat, idx, idx),
            st.builds(Sell, seat, idx),
            st.builds(MoveCargo, seat, idx, idx),
            st.builds(Attack, seat, seat, idx),
            st.builds(Yield, seat),
            st.builds(BuyShip, seat, st.booleans()),
            st.builds(PlantCargo, seat, idx, idx),
        ), label="action")
        acts = set(legal_actions(s))
        if isinstance(action, Propose):
            legal = proposal_is_legal(s, action)
        elif isinstance(action, Accept):
            legal = accept_is_legal(s, action)
        elif isinstance(action, Reshuffle):
            legal = s.phase == Phase.CHANCE and sorted(action.order) == sorted(s.discard)
        else:
            legal = canonical(s, action) in acts
        try:
            apply(s, action)
        except IllegalAction as e:
            assert e.rule and e.reason
            assert not legal, f"{action} is legal but was rejected: {e}"
            return
        assert legal, f"{action} was accepted in {s.phase.name}, but it is not legal"
        if isinstance(action, (Propose, Accept)):
            canon = canonical(s, action)
            assert canon is None or canon in acts, f"{action} accepted, but {canon} not in legal_actions"
        self.do(action)

    @rule()
    def every_legal_action_is_accepted(self) -> None:
        """Each action of legal_actions (a sample of long proposal lists) is accepted, and checked."""
        s = self.state
        acts = legal_actions(s)
        if s.phase in (Phase.CHANCE, Phase.OVER):
            assert acts == []
            return
        props = [a for a in acts if isinstance(a, Propose)]
        assert all(is_listed_proposal(s, a) for a in props), "a listed proposal is not recognised"
        assert legal_actions(s, proposals=False) == [a for a in acts if not isinstance(a, Propose)]
        stride = max(1, len(acts) // 40)
        for a in acts[::stride] + acts[-3:]:
            after = apply(s, a)
            assert apply(s, a, False) == after, f"{a}: the unchecked fast path gives another state"
            check_step(s, a, after)

    # -- invariants after every rule

    @invariant()
    def state_invariants(self) -> None:
        check_state(self.state)

    @invariant()
    def at_most_two_plantings_per_turn(self) -> None:
        assert all(v <= 2 for v in self.plants.values())


# Examples are cheap (a few hundred steps each): four times the profile's example count; twice
# under the ci profile, whose examples are the same on every run (derandomized) and whose
# invariants the complete games below check at every step too, on every preset and player count
# (100 examples took 17 s of the suite; ``dev`` and ``long`` keep four times theirs).
_profile = settings()  # the profile conftest.py loaded
GameMachine.TestCase.settings = settings(
    _profile,
    max_examples=(2 if _profile.derandomize else 4) * _profile.max_examples,
    stateful_step_count=50,
)
TestGameMachine = GameMachine.TestCase


# ------------------------------------------------------------------ complete games, every preset


def play_checked(rules: model.Ruleset, n: int, seed: int, bots: list[Any],
                 kinds: Counter[str] | None = None) -> tuple[GameState, int]:
    """A complete game by bots with every step checked; returns the final state and the step count
    (and counts the actions by kind into ``kinds``)."""
    s = new_game(rules, n, seed)
    check_state(s)
    rng = random.Random(seed)
    plants: Counter[int] = Counter()
    attacks: Counter[tuple[int, int, int]] = Counter()
    steps = 0
    while s.phase != Phase.OVER:
        if s.phase == Phase.CHANCE:
            a: Action = chance_outcome(s, rng)
        else:
            a = bots[s.to_move](s, rng)
        after = apply(s, a)
        check_step(s, a, after)
        if kinds is not None:
            kinds[type(a).__name__] += 1
        if isinstance(a, Plant):
            plants[s.turn] += 1
            assert plants[s.turn] <= 2, "T1"
        if isinstance(a, Attack):
            attacks[s.turn, a.target, a.ship] += 1
            assert attacks[s.turn, a.target, a.ship] == 1, "I7: attacked twice in a turn"
        # legal_actions in an open trading phase lists thousands of deals: check it every few steps.
        check_state(after, moves=steps % 7 == 0 or after.phase != Phase.TRADE,
                    json_too=steps % 3 == 0 or after.phase in (Phase.CHANCE, Phase.OVER)
                    or after.pending is not None)
        if steps % 5 == 0 or after.phase == Phase.CHANCE:
            for bad, rule_ids in illegal_candidates(after):
                assert_illegal(after, bad, rule_ids)
        s = after
        steps += 1
        assert steps < 20000, "the game does not end"
    return s, steps


VARIANTS: list[dict[str, Any]] = [
    {},
    {"harvest": "strict"},
    {"quick": True},
    {"distinct_fields": True},
    {"tie_break": "seat"},
    {"tie_break": "none", "harvest": "strict"},
    {"tie_break": "hand", "distinct_fields": True, "quick": True},
    {"third_field": True, "max_deal_cards": 1},
]


@pytest.mark.parametrize(("preset", "players"), CONFIGS, ids=[f"{p}-{n}" for p, n in CONFIGS])
def test_complete_games_keep_the_invariants(preset: str, players: int) -> None:
    """Every preset and player count: random-trader games (one plain, two with option variants)
    and a game with mixed bots, played to the end with every step checked."""
    k = CONFIGS.index((preset, players))
    runs = [({}, [random_trader_bot] * players),
            (VARIANTS[1 + k % (len(VARIANTS) - 1)], [random_trader_bot] * players),
            (VARIANTS[1 + (k + 3) % (len(VARIANTS) - 1)], [random_bot] * players)]
    if k % 4 == 0:  # the greedy bot is slow (it lists every deal): a few configurations only
        runs.append(({}, [greedy_bot, random_trader_bot] * players))
    reshuffles = 0
    for j, (options, bots) in enumerate(runs):
        rules = model.ruleset(preset, options)
        final, steps = play_checked(rules, players, seed=1000 * k + j, bots=bots[:players])
        assert final.phase == Phase.OVER and steps > 0
        setup = final.setup
        if setup.final_exhaustion > 1:
            reshuffles += final.exhaustions >= 1
        assert final.exhaustions <= setup.final_exhaustion


def test_state_machine_reaches_reshuffles_and_the_end() -> None:
    """The random move policy of the machine does reach chance nodes and the end of the game."""
    seen_chance = seen_over = 0
    for seed in range(6):
        name, n = CONFIGS[seed * 3 % len(CONFIGS)]
        s = new_game(model.ruleset(name), n, seed)
        rng = random.Random(seed)
        while s.phase != Phase.OVER:
            a = random_move(s, rng)
            seen_chance += s.phase == Phase.CHANCE
            s = apply(s, a)
        seen_over += 1
    assert seen_chance > 0 and seen_over == 6


def test_check_step_catches_a_reordered_hand() -> None:
    """The H1 check is able to fail: a transition that reorders a hand is reported."""
    s = new_game("rio-grande", 4, 5)
    after = apply(s, legal_actions(s)[0])
    pl = after.players[1]
    reordered = pl._replace(hand=pl.hand[::-1])
    broken = after._replace(players=after.players[:1] + (reordered,) + after.players[2:])
    assert pl.hand != pl.hand[::-1]
    with pytest.raises(AssertionError, match="H1"):
        check_step(s, legal_actions(s)[0], broken)


def test_check_state_catches_a_lost_card() -> None:
    """The conservation check is able to fail: a card dropped from the draw pile is reported."""
    s = new_game("amigo", 3, 5)
    with pytest.raises(AssertionError, match="conservation"):
        check_state(s._replace(draw=s.draw[1:]))


@pytest.mark.parametrize(("preset", "players", "options"), [
    ("rio-grande", 2, {"hand": 72, "face_up": 0}),  # the deal takes the whole deck
    ("rio-grande", 3, {"hand": 50, "face_up": 0}),
    ("rio-grande", 2, {"hand": 71, "face_up": 2}),  # the first turn-up takes the last cards
    ("rio-grande", 4, {"hand": 30, "face_up": 0, "draw": 6}),  # the first draw runs out (E2)
    ("amigo", 4, {"hand": 0}),  # empty hands: phase 1 is skipped (T1)
    ("amigo", 3, {"face_up": 0, "draw": 1, "quick": True}),
    ("rio-grande", 5, {"fields": 1, "third_field_cost": 0, "max_offers": 0}),
    ("amigo-v2", 4, {"exhaustions": 1, "max_deal_cards": 0}),
], ids=lambda v: str(v))
def test_extreme_deal_options_play_to_the_end(preset: str, players: int, options: dict[str, Any]) -> None:
    """Options the ruleset accepts either are refused by ``setup`` (RulesetError) or give a game
    that plays to the end under the same invariants (E1/E2 at the edges of the deck)."""
    try:
        rules = model.ruleset(preset, options)
        model.setup(rules, players)
    except model.RulesetError:
        return
    for seed in range(3):
        final, _ = play_checked(rules, players, seed, [random_trader_bot] * players)
        assert final.phase == Phase.OVER


@pytest.mark.parametrize(("preset", "players"), ISLA_CONFIGS, ids=[f"isla-{p}-{n}" for p, n in ISLA_CONFIGS])
def test_isla_games_keep_the_invariants(preset: str, players: int) -> None:
    """La Isla Bohnita, every player count the seed allows (I2): a greedy game (it sails, sells and
    raids), a random game and a random-trader game with an option variant, every step checked."""
    k = ISLA_CONFIGS.index((preset, players))
    runs = [({}, [greedy_bot] * players), ({}, [random_bot] * players),
            (VARIANTS[1 + k % (len(VARIANTS) - 1)], [random_trader_bot] * players)]
    seen: Counter[str] = Counter()
    for j, (options, bots) in enumerate(runs):
        rules = model.ruleset(preset, {**options, "isla": True})
        final, steps = play_checked(rules, players, seed=7000 + 100 * k + j, bots=bots, kinds=seen)
        assert final.phase == Phase.OVER and final.ext is not None
    # The runs exercise the expansion: ships sail and take harvests.
    for kind in ("Sail", "HarvestOnto"):
        assert seen[kind] > 0, f"no {kind} in {preset} with {players} players: {dict(seen)}"


def test_isla_greedy_games_use_every_ship_move() -> None:
    """Greedy 4-player and duel games, every step checked, reach every Isla move: purchases (I1),
    sailing (I4), loading harvests (I5), sales and cargo moves (I6), raids and yields (I7)."""
    seen: Counter[str] = Counter()
    for seed in range(3):
        for players in (2, 4):
            rules = model.ruleset("rio-grande", {"isla": True})
            play_checked(rules, players, seed=9100 + seed, bots=[greedy_bot] * players, kinds=seen)
    for kind in ("BuyShip", "Sail", "HarvestOnto", "Sell", "MoveCargo", "Attack", "Yield"):
        assert seen[kind] > 0, f"greedy games never made a {kind}: {dict(seen)}"
