"""The illegal records: a legal record with one step changed so that it breaks one rule, and the
first illegal line and rule ID a referee must name (each is checked by the referee as it is made)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conformance.common import GenerationError, mover
from conformance.expansions import EXPANSION_ILLEGAL
from conformance.games import jsonl, played
from conformance.kinds import Game, Illegal, decision, delete, in_trade, ins, insert, other, rep, replace
from model import (
    Accept,
    Action,
    BuyField,
    Discard,
    EndPhase,
    GameState,
    Harvest,
    Phase,
    Plant,
    PlantAside,
    Propose,
    Reshuffle,
)
from model.cards import BEAN_NAMES
from records.game import action_line
from records.referee import check_record

# -- T: turn structure and trading


def m_t1_out_of_turn(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT and isinstance(a, Plant) and s.turn >= 2)
    s = g.states[i]
    q = other(s, s.active)
    return rep(g, i, Plant(q, 0), f"p{q} plants while p{s.active} is in phase 1: only the active player "
                "plants from the hand")


def m_t1_third_planting(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.TRADE and s.pending is None and s.planted == 2
             and bool(s.players[s.active].hand) and s.offers == 0)
    s = g.states[i]
    return ins(g, i, Plant(s.active, 0), f"p{s.active} plants a third card from the hand after two "
                "(never a third)")


def m_t1_end_unplanted(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT and s.planted == 0 and s.turn >= 1)
    s = g.states[i]
    return ins(g, i, EndPhase(s.active), f"p{s.active} ends phase 1 without planting its front card")


def m_h3_wrong_field(g: Game) -> Any:
    def fits(s: GameState, a: Action) -> bool:
        return (s.phase == Phase.PLANT and isinstance(a, Plant)
                and any(f.count and f.bean != mover(s).hand[0] for f in mover(s).fields))
    i = g.at(fits)
    s = g.states[i]
    f = next(k for k, f in enumerate(mover(s).fields) if f.count and f.bean != mover(s).hand[0])
    b, held = BEAN_NAMES[mover(s).hand[0]], BEAN_NAMES[mover(s).fields[f].bean]
    return rep(g, i, Plant(s.to_move, f), f"p{s.to_move} plants a {b} on field {f}, which holds {held}")


def m_t3_out_of_turn_end(g: Game) -> Any:
    i = g.at(lambda s, a: in_trade(s) and s.turn >= 2)
    s = g.states[i]
    q = other(s, s.active)
    return ins(g, i, EndPhase(q), f"p{q} ends p{s.active}'s trading phase")


def m_t3_non_active_deal(g: Game) -> Any:
    i = g.at(lambda s, a: in_trade(s) and s.turn >= 2)
    s = g.states[i]
    q = other(s, s.active)
    r = other(s, s.active, q)
    return ins(g, i, Propose(q, r, (0,), (), ()), f"p{q} offers a card to p{r}: two non-active players "
                "never trade with each other")


def m_t3_retrade(g: Game) -> Any:
    i = g.at(lambda s, a: in_trade(s) and bool(s.players[s.active].aside))
    s = g.states[i]
    a = s.active
    got = BEAN_NAMES[s.players[a].aside[0]]
    q = other(s, a)
    h = len(s.players[a].hand)
    return ins(g, i, Propose(a, q, (h,), (), ()), f"T4: p{a} offers the {got} it received in a deal this "
                f"turn; received cards lie in the set-aside area, so h{h} names no hand card and the engine "
                "rejects the proposal under T3")


def m_t3_wrong_bean(g: Game) -> Any:
    def wrong(s: GameState, a: Action) -> bool:
        if s.pending is None or len(s.pending.ask) != 1:
            return False
        hand = s.players[s.pending.partner].hand
        return any(c not in s.pending.ask for c in hand)
    i = g.at(wrong)
    s = g.states[i]
    assert s.pending is not None
    q = s.pending.partner
    h = next(k for k, c in enumerate(s.players[q].hand) if c not in s.pending.ask)
    asked = BEAN_NAMES[s.pending.ask[0]]
    return rep(g, i, Accept(q, (h,)),
                f"p{q} accepts giving a {BEAN_NAMES[s.players[q].hand[h]]} where a {asked} was asked")


def m_t3_max_offers(g: Game) -> Any:
    i = g.at(lambda s, a: in_trade(s) and s.offers >= s.setup.rules.max_offers and s.to_move == s.active)
    s = g.states[i]
    q = other(s, s.active)
    return ins(g, i, Propose(s.active, q, (), (), (s.setup.beans[0],)),
                f"p{s.active} makes a second proposal this turn; the record's max_offers is 1")


def m_t3_offer_while_pending(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.TRADE and s.pending is not None)
    s = g.states[i]
    assert s.pending is not None
    r = other(s, s.active, s.pending.partner)
    return ins(g, i, Propose(s.active, r, (), (), (s.setup.beans[0],)),
                f"p{s.active} proposes to p{r} while its offer to p{s.pending.partner} awaits an answer")


def m_t6_out_of_turn(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT_ASIDE and isinstance(a, PlantAside))
    s = g.states[i]
    q = other(s, s.to_move)
    return ins(g, i, PlantAside(q, s.players[s.to_move].aside[0], 0),
                f"p{q} plants in phase 3 while it is p{s.to_move}'s turn to plant its set-aside cards")


def m_t6_not_aside(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT_ASIDE and isinstance(a, PlantAside))
    s = g.states[i]
    a = g.actions[i]
    assert isinstance(a, PlantAside)
    b = next(b for b in s.setup.beans if b not in mover(s).aside)
    return rep(g, i, PlantAside(a.player, b, a.field),
                f"p{a.player} plants a {BEAN_NAMES[b]} it has not set aside")


def m_t6_end_phase_3(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT_ASIDE)
    s = g.states[i]
    return ins(g, i, EndPhase(s.to_move), f"p{s.to_move} ends phase 3 with set-aside cards unplanted")


# -- H, F, V, S


def m_h4_protected(g: Game) -> Any:
    def single(s: GameState, a: Action) -> bool:
        counts = [f.count for f in mover(s).fields] if decision(s) else []
        return 1 in counts and max(counts, default=0) > 1
    i = g.at(single)
    s = g.states[i]
    f = [x.count for x in mover(s).fields].index(1)
    return ins(g, i, Harvest(s.to_move, f), f"p{s.to_move} harvests the one-card field {f} while another "
                "field holds more than one card")


def m_h4_strict(g: Game) -> Any:
    def single(s: GameState, a: Action) -> bool:
        counts = sorted(f.count for f in mover(s).fields) if decision(s) else []
        return bool(counts) and counts[0] == 0 and counts[-1] == 1
    i = g.at(single)
    s = g.states[i]
    f = [x.count for x in mover(s).fields].index(1)
    return ins(g, i, Harvest(s.to_move, f), f"p{s.to_move} harvests the one-card field {f} beside an empty "
                "field: the strict reading allows it only when every field holds exactly one card (the "
                "lenient reading would allow it)")


def m_h5_empty(g: Game) -> Any:
    i = g.at(lambda s, a: decision(s) and s.turn >= 1 and any(f.count == 0 for f in mover(s).fields))
    s = g.states[i]
    f = [x.count for x in mover(s).fields].index(0)
    return ins(g, i, Harvest(s.to_move, f), f"p{s.to_move} harvests the empty field {f}")


def m_f1_none_for_sale(g: Game) -> Any:
    i = g.at(lambda s, a: decision(s) and s.turn >= 3)
    s = g.states[i]
    return ins(g, i, BuyField(s.to_move), f"p{s.to_move} buys a third field, which {s.setup.rules.name} "
                f"does not sell with {len(s.players)} players")


def m_f1_coins(g: Game) -> Any:
    i = g.at(lambda s, a: decision(s) and s.turn >= 3 and len(mover(s).fields) == 2
             and len(mover(s).coins) < (s.setup.third_cost or 0))
    s = g.states[i]
    return ins(g, i, BuyField(s.to_move), f"p{s.to_move} buys the third field with "
                f"{len(mover(s).coins)} coins; it costs {s.setup.third_cost}")


def m_v2_same_field(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT and s.planted == 1
             and mover(s).hand[0] == mover(s).fields[s.first_field].bean)
    s = g.states[i]
    return ins(g, i, Plant(s.active, s.first_field), f"p{s.active} plants its second card on field "
                f"{s.first_field}, where the first went (distinct_fields)")


def m_s_no_seat(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.PLANT and s.turn >= 1)
    n = len(g.states[i].players)
    return ins(g, i, Plant(n, 0), f"p{n} plants, but the game has seats p0-p{n - 1}")


# -- D: the bean duel


def m_d1_trade(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.TURNED and bool(s.face_up))
    s = g.states[i]
    return ins(g, i, Propose(s.active, 1 - s.active, (), (0,), ()),
                f"p{s.active} offers a turned-up card to p{1 - s.active}: there is no trading in the duel")


def m_d1_off_turn_harvest(g: Game) -> Any:
    i = g.at(lambda s, a: decision(s) and any(f.count > 1 for f in s.players[1 - s.active].fields))
    s = g.states[i]
    q = 1 - s.active
    f = next(k for k, x in enumerate(s.players[q].fields) if x.count > 1)
    return ins(g, i, Harvest(q, f), f"p{q} harvests on p{s.active}'s turn: in the duel only on your own")


def m_d2_end_offer(g: Game) -> Any:
    i = g.at(lambda s, a: s.phase == Phase.OFFER)
    s = g.states[i]
    return ins(g, i, EndPhase(s.active), f"p{s.active} ends step 1 with cards still on offer")


def m_d2_second_discard(g: Game) -> Any:
    i = next((k for k in range(1, len(g.actions)) if g.states[k].phase == Phase.TURNED
              and isinstance(g.actions[k - 1], Discard) and mover(g.states[k]).hand), -1)
    if i < 0:
        raise GenerationError(f"{g.spec.name}: no discard followed by turned-up cards")
    s = g.states[i]
    return ins(g, i, Discard(s.active, 0), f"p{s.active} discards a second hand card after turning up")


# -- E: exhaustion, reshuffle and the end


def _chance_index(g: Game) -> int:
    return g.at(lambda s, a: isinstance(a, Reshuffle))


def m_e1_wrong_cards(g: Game) -> Any:
    i = _chance_index(g)
    order = list(g.lines[i + 1]["order"])
    swap = next(BEAN_NAMES[b] for b in g.states[i].setup.beans if BEAN_NAMES[b] != order[0])
    was, order[0] = order[0], swap
    lines, no = replace(g, i, {"chance": "reshuffle", "order": order})
    return lines, no, f"the reshuffle's top card {was} changed to {swap}", (
        "the new draw pile is not a permutation of the discard pile")


def m_e1_missing(g: Game) -> Any:
    i = _chance_index(g)
    lines, no = delete(g, i)
    return lines, no, "deleted the reshuffle line", (
        f"{g.actions[i + 1]} is played where the exhausted draw pile must first be reshuffled")


def m_e1_not_due(g: Game) -> Any:
    i = g.at(lambda s, a: decision(s) and s.turn >= 3 and len(s.discard) >= 2)
    s = g.states[i]
    lines, no = insert(g, i, action_line(Reshuffle(s.discard)))
    return lines, no, "inserted a reshuffle of the discard pile", (
        "a reshuffle while the draw pile still holds cards")


def _reading(g: Game, reshuffle: str) -> list[dict[str, Any]]:
    """The record's lines with the header's E1 reading set to ``reshuffle`` (same deck, same actions)."""
    head = dict(g.lines[0])
    head["options"] = {**head["options"], "reshuffle": reshuffle}
    return [head] + g.lines[1:]


def m_e1_read_at_exhaustion(g: Game) -> Any:
    """An on-demand game read at-exhaustion: where its pile runs out at the end of a draw, the
    other reading wants the reshuffle at once, and the next action comes first."""
    i = g.at(lambda s, a: decision(s) and not s.draw and not s.final)
    return _reading(g, "at-exhaustion"), i + 2, "the header's reshuffle on-demand changed to at-exhaustion", (
        f"{g.actions[i]} is played where the pile, exhausted at its last card, must first be reshuffled")


def m_e1_read_on_demand(g: Game) -> Any:
    """An at-exhaustion game read on-demand: its first reshuffle after a pile that ran out with no
    card still to take comes before any card is needed from the empty pile."""
    i = g.at(lambda s, a: isinstance(a, Reshuffle) and not s.todo)
    return _reading(g, "on-demand"), i + 2, "the header's reshuffle at-exhaustion changed to on-demand", (
        "a reshuffle before a card is needed from the empty draw pile")


def _end(g: Game, claim: dict[str, Any], change: str, why: str) -> Any:
    if g.final.phase != Phase.OVER:
        raise GenerationError(f"{g.spec.name}: the game is not over")
    lines = g.lines[:-1] + [{"end": claim}]
    return lines, len(lines), change, why


def m_e3_coins(g: Game) -> Any:
    end = g.lines[-1]["end"]
    coins = list(end["coins"])
    coins[0] += 1
    return _end(g, {"coins": coins, "winners": end["winners"]}, "p0's coins in the end line raised by one",
                "the end line claims coins the replay does not give (E3: the final harvest)")


def m_e4_winners(g: Game) -> Any:
    end = g.lines[-1]["end"]
    loser = next(q for q in range(len(end["coins"])) if q not in end["winners"])
    return _end(g, {"coins": end["coins"], "winners": [loser]}, f"the end line names p{loser} the winner",
                f"p{loser} does not have the most coins")


def m_e4_tie_break(g: Game) -> Any:
    end = g.lines[-1]["end"]
    best = max(end["coins"])
    tied = [q for q, c in enumerate(end["coins"]) if c == best]
    other = [q for q in tied if q not in end["winners"]]
    if not other:
        raise GenerationError(f"{g.spec.name}: no tie to break")
    rule = g.final.setup.rules.tie_break
    who = " and ".join(f"p{q}" for q in tied)
    claim = {"coins": end["coins"], "winners": other[:1]}
    return _end(g, claim, f"the end line names p{other[0]} the winner",
                f"{who} tie on {best} coins; tie_break={rule} names p{end['winners'][0]}, not p{other[0]}")


def m_e2_early_end(g: Game) -> Any:
    lines = g.lines[:-2] + g.lines[-1:]
    return lines, len(lines), f"deleted the last action ({g.actions[-1]})", (
        "the end line claims a result before the game is over")


def m_e2_after_end(g: Game) -> Any:
    lines = g.lines[:-1] + [action_line(Plant(0, 0))] + g.lines[-1:]
    return lines, len(lines) - 1, "inserted p0 plant 0 after the last action", (
        "p0 acts after the game is over")


ILLEGAL: list[Illegal] = [
    Illegal("t1-out-of-turn-plant", "rio-grande-4p", "T1", m_t1_out_of_turn),
    Illegal("t1-third-planting", "rio-grande-3p", "T1", m_t1_third_planting),
    Illegal("t1-end-before-planting", "amigo-3p", "T1", m_t1_end_unplanted),
    Illegal("h3-plant-on-other-type", "amigo-5p", "H3", m_h3_wrong_field),
    Illegal("t3-out-of-turn-end", "rio-grande-5p", "T3", m_t3_out_of_turn_end),
    Illegal("t3-deal-between-non-active", "rio-grande-6p", "T3", m_t3_non_active_deal),
    Illegal("t3-retrade-received-card", "rio-grande-4p", "T3", m_t3_retrade, "names hand card"),
    Illegal("t3-accept-wrong-bean", "amigo-4p", "T3", m_t3_wrong_bean),
    Illegal("t3-too-many-offers", "rio-grande-4p-one-offer", "T3", m_t3_max_offers, "allowed this turn"),
    Illegal("t3-offer-while-pending", "amigo-v1-5p", "T3", m_t3_offer_while_pending),
    Illegal("t6-out-of-turn-plant-aside", "rio-grande-4p", "T6", m_t6_out_of_turn),
    Illegal("t6-plant-card-not-set-aside", "amigo-5p", "T6", m_t6_not_aside),
    Illegal("t6-end-phase-3-early", "amigo-v2-4p", "T6", m_t6_end_phase_3),
    Illegal("h4-protected-single", "amigo-4p", "H4", m_h4_protected),
    Illegal("h4-strict-single", "rio-grande-4p-strict", "H4", m_h4_strict, "strict"),
    Illegal("h5-harvest-empty-field", "amigo-1997-3p", "H5", m_h5_empty),
    Illegal("f1-no-third-field-for-sale", "amigo-4p", "F1", m_f1_none_for_sale),
    Illegal("f1-third-field-too-few-coins", "rio-grande-4p", "F1", m_f1_coins),
    Illegal("v2-second-planting-same-field", "rio-grande-4p-distinct", "V2", m_v2_same_field),
    Illegal("s-no-such-seat", "amigo-v1-4p", "S", m_s_no_seat),
    Illegal("d1-duel-trade", "rio-grande-2p-duel", "D1", m_d1_trade),
    Illegal("d1-duel-off-turn-harvest", "rio-grande-2p-duel", "D1", m_d1_off_turn_harvest),
    Illegal("d2-end-with-cards-on-offer", "rio-grande-2p-duel", "D2", m_d2_end_offer),
    Illegal("d2-second-discard", "rio-grande-2p-duel", "D2", m_d2_second_discard),
    Illegal("e1-reshuffle-wrong-cards", "rio-grande-4p", "E1", m_e1_wrong_cards),
    Illegal("e1-reshuffle-missing", "amigo-3p", "E1", m_e1_missing),
    Illegal("e1-reshuffle-not-due", "amigo-v2-5p", "E1", m_e1_not_due),
    Illegal("e1-on-demand-read-at-exhaustion", "rio-grande-4p-on-demand", "E1", m_e1_read_at_exhaustion),
    Illegal("e1-at-exhaustion-read-on-demand", "rio-grande-4p", "E1", m_e1_read_on_demand),
    Illegal("e3-wrong-coins", "amigo-v1-3p", "E3", m_e3_coins),
    Illegal("e4-wrong-winner", "rio-grande-6p", "E4", m_e4_winners),
    Illegal("e4-seat-tie-break", "rio-grande-4p-seat-tie-break", "E4", m_e4_tie_break),
    Illegal("e4-hand-tie-break", "rio-grande-4p-hand-tie-break", "E4", m_e4_tie_break),
    Illegal("e2-end-before-game-over", "amigo-1997-4p", "E2", m_e2_early_end),
    Illegal("e2-action-after-game-over", "amigo-1997-5p", "E2", m_e2_after_end),
    *EXPANSION_ILLEGAL,
]


def illegal_fixture(spec: Illegal) -> tuple[str, dict[str, Any]]:
    game = played(spec.base)
    lines, no, change, why = spec.make(game)
    expect = {"status": "illegal", "line": no, "rule": spec.rule, "why": why,
              "base": f"legal/{spec.base}.jsonl", "change": change}
    return jsonl(lines[:no]), expect  # the record stops at its first illegal line


def verify_records(files: dict[str, str]) -> None:
    """Every record gets the verdict its sidecar states from ``records.referee.check_record`` (the referee),
    and an illegal one's reason names what its mutation breaks; GenerationError otherwise."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in files.items():
            if not rel.endswith(".jsonl"):
                continue
            path = Path(tmp) / Path(rel).name
            path.write_text(text, encoding="utf-8")
            expect = json.loads(files[rel.replace(".jsonl", ".expect.json")])
            verdict = check_record(str(path))
            said, info = verdict.text(), verdict.summary()
            illegal = expect["status"] == "illegal"
            keys = ("status", "line", "rule") if illegal else ("status", "coins", "winners")
            got = {k: info.get(k) for k in keys}
            want = {k: expect.get(k) for k in keys}
            if got != want:
                raise GenerationError(f"{rel}: the referee says {got}, the fixture {want}: {said}")
            reason = ILLEGAL_BY_NAME[Path(rel).stem].reason if expect["status"] == "illegal" else ""
            if reason and reason not in str(info.get("reason")):
                raise GenerationError(f"{rel}: the referee's reason {info.get('reason')!r} lacks {reason!r}")


ILLEGAL_BY_NAME = {x.name: x for x in ILLEGAL}
