"""Section T of RULES.md: a turn with 3+ players (T1-T7) and the trading protocol."""

from __future__ import annotations

from collections import Counter

import pytest
from builders import B, fields, illegal, play, player, plays_of, position, stacked_game, total_cards

import model
from model import (
    EMPTY,
    Accept,
    Decline,
    EndPhase,
    Field,
    Harvest,
    Phase,
    Plant,
    PlantAside,
    Propose,
    apply,
    legal_actions,
)

HAND0 = [B.RED, B.BLUE, B.SOY, B.CHILI, B.STINK]

# ---------------------------------------------------------------- T1 phase 1


@pytest.mark.rule("T1")
def test_T1_the_front_card_must_be_planted_first():
    s = stacked_game("rio-grande", 4, hands=[HAND0])
    assert s.phase == Phase.PLANT and s.to_move == 0
    assert EndPhase(0) not in legal_actions(s)
    err = illegal(s, EndPhase(0), "T1")
    assert "front" in str(err)
    assert set(legal_actions(s)) == {Plant(0, 0), Plant(0, 1)}


@pytest.mark.rule("T1")
def test_T1_may_stop_after_one_planting():
    s = stacked_game("rio-grande", 4, hands=[HAND0], draw=[B.GREEN, B.WAX])
    s = apply(s, Plant(0, 0))
    assert s.phase == Phase.PLANT and EndPhase(0) in legal_actions(s)
    s = apply(s, EndPhase(0))
    assert s.phase == Phase.TRADE
    assert s.players[0].hand == tuple(HAND0[1:])
    assert s.players[0].fields == (Field(B.RED, 1), EMPTY)


@pytest.mark.rule("T1")
def test_T1_second_planting_then_never_a_third():
    s = stacked_game("rio-grande", 4, hands=[HAND0], draw=[B.GREEN, B.WAX])
    s = play(s, Plant(0, 0), Plant(0, 1))
    # after two plantings, phase 1 is over: the cards are turned up (T2)
    assert s.phase == Phase.TRADE
    assert s.players[0].hand == tuple(HAND0[2:])
    assert not plays_of(s, Plant)
    err = illegal(s, Plant(0, 0), "T1")
    assert "phase 1" in str(err)


@pytest.mark.rule("T1")
def test_T1_empty_hand_skips_planting():
    # p0 finishes its turn; p1 starts with an empty hand and goes straight to phase 2.
    p0 = player(hand=[B.RED], fields_=fields((B.BLUE, 2), None), aside=[B.BLUE])
    s = position("rio-grande", 4, seats=(p0, player(), player(hand=[B.RED]), player(hand=[B.RED])),
                 phase=Phase.PLANT_ASIDE, active=0,
                 draw=[B.SOY, B.SOY, B.SOY, B.GREEN, B.WAX] + [B.CHILI] * 10)
    s = apply(s, PlantAside(0, B.BLUE, 0))
    assert s.active == 1 and s.to_move == 1
    assert s.phase == Phase.TRADE
    assert s.planted == 0
    assert s.face_up == tuple(sorted((B.GREEN, B.WAX)))
    assert s.players[1].fields == (EMPTY, EMPTY)


@pytest.mark.rule("T1")
def test_T1_one_card_hand_plants_it_and_moves_on():
    p0 = player(hand=[B.RED])
    s = position("rio-grande", 4, seats=(p0, player(hand=[B.RED]), player(), player()),
                 phase=Phase.PLANT, active=0, draw=[B.GREEN, B.WAX] + [B.CHILI] * 10)
    s = apply(s, Plant(0, 0))
    assert s.phase == Phase.TRADE and s.players[0].hand == ()


@pytest.mark.rule("T1")
def test_T1_only_the_active_player_plants_from_the_hand():
    s = stacked_game("rio-grande", 4, hands=[HAND0])
    illegal(s, Plant(1, 0), "T1")


# ---------------------------------------------------------------- T2 turning up


@pytest.mark.rule("T2")
def test_T2_two_top_cards_are_turned_face_up():
    s = stacked_game("rio-grande", 4, hands=[HAND0], draw=[B.GREEN, B.WAX, B.BLACKEYED])
    n = len(s.draw)
    s = play(s, Plant(0, 0), EndPhase(0))
    assert sorted(s.face_up) == sorted([B.GREEN, B.WAX])
    assert len(s.draw) == n - 2
    assert s.draw[0] == B.BLACKEYED
    assert s.phase == Phase.TRADE and s.to_move == 0


@pytest.mark.rule("T2")
def test_T2_face_up_count_follows_the_ruleset():
    r = model.ruleset("rio-grande", {"face_up": 4})
    s = stacked_game(r, 4, hands=[HAND0], draw=[B.GREEN, B.WAX, B.BLACKEYED, B.SOY, B.CHILI])
    s = play(s, Plant(0, 0), EndPhase(0))
    assert sorted(s.face_up) == sorted([B.GREEN, B.WAX, B.BLACKEYED, B.SOY])
    assert s.draw[0] == B.CHILI


# ---------------------------------------------------------------- T3 trading


def trade_position(active=0, n=4, face_up=(B.STINK, B.COFFEE)):
    hands = {
        0: [B.RED, B.BLUE, B.SOY, B.CHILI],
        1: [B.GREEN, B.WAX, B.GREEN],
        2: [B.BLACKEYED, B.RED, B.SOY],
        3: [B.CHILI, B.CHILI],
    }
    seats = tuple(player(hand=hands[i % 4]) for i in range(n))
    return position("rio-grande", n, seats=seats, phase=Phase.TRADE, active=active,
                    face_up=list(face_up), draw=[B.WAX] * 20)


def up(s, bean):
    return s.face_up.index(bean)


@pytest.mark.rule("T3")
def test_T3_active_gives_face_up_and_hand_cards_partner_gives_hand_cards():
    s = trade_position()
    before = total_cards(s)
    offer = Propose(0, 1, give_hand=(2,), give_up=(up(s, B.STINK),), ask=(B.GREEN, B.GREEN))
    s = apply(s, offer)
    assert s.pending == offer and s.to_move == 1
    s = apply(s, Accept(1, (0, 2)))
    assert s.pending is None and s.to_move == 0
    assert Counter(s.players[1].aside) == Counter([B.SOY, B.STINK])
    assert Counter(s.players[0].aside) == Counter([B.GREEN, B.GREEN])
    assert s.players[0].hand == (B.RED, B.BLUE, B.CHILI)
    assert s.players[1].hand == (B.WAX,)
    assert s.face_up == (B.COFFEE,)
    assert total_cards(s) == before


@pytest.mark.rule("T3")
def test_T3_active_may_give_any_hand_position_not_only_the_front():
    s = trade_position()
    s = play(s, Propose(0, 2, give_hand=(3,), ask=(B.RED,)), Accept(2, (1,)))
    assert s.players[0].hand == (B.RED, B.BLUE, B.SOY)
    assert s.players[2].aside == (B.CHILI,)
    assert s.players[0].aside == (B.RED,)


@pytest.mark.rule("T3")
def test_T3_uneven_trades_are_allowed():
    s = trade_position()
    s = play(s, Propose(0, 3, give_hand=(0, 1), give_up=(0, 1), ask=(B.CHILI,)), Accept(3, (1,)))
    assert Counter(s.players[3].aside) == Counter([B.RED, B.BLUE, B.STINK, B.COFFEE])
    assert s.players[0].aside == (B.CHILI,)
    assert s.players[3].hand == (B.CHILI,)
    assert s.face_up == ()


@pytest.mark.rule("T3")
def test_T3_gift_from_the_active_player():
    s = trade_position()
    s = apply(s, Propose(0, 2, give_up=(up(s, B.COFFEE),)))
    assert Accept(2, ()) in legal_actions(s)
    s = apply(s, Accept(2))
    assert s.players[2].aside == (B.COFFEE,)
    assert s.players[2].hand == (B.BLACKEYED, B.RED, B.SOY)
    assert s.players[0].aside == ()


@pytest.mark.rule("T3")
def test_T3_gift_to_the_active_player():
    s = trade_position()
    s = play(s, Propose(0, 1, ask=(B.WAX,)), Accept(1, (1,)))
    assert s.players[0].aside == (B.WAX,)
    assert s.players[1].hand == (B.GREEN, B.GREEN)
    assert s.players[0].hand == (B.RED, B.BLUE, B.SOY, B.CHILI)


@pytest.mark.rule("T3")
def test_T3_both_sides_must_agree_decline_changes_nothing():
    s0 = trade_position()
    s = play(s0, Propose(0, 1, give_up=(0,), ask=(B.GREEN,)), Decline(1))
    assert s.players == s0.players and s.face_up == s0.face_up
    assert s.pending is None and s.to_move == 0 and s.phase == Phase.TRADE


@pytest.mark.rule("T3")
def test_T3_partner_must_give_exactly_what_was_asked():
    s = apply(trade_position(), Propose(0, 1, give_up=(0,), ask=(B.GREEN,)))
    illegal(s, Accept(1, (1,)), "T3")  # wax, not green
    illegal(s, Accept(1, (0, 2)), "T3")  # two greens for one
    illegal(s, Accept(1, ()), "T3")
    illegal(s, Accept(1, (7,)), "T3")  # no such hand card
    answers = set(legal_actions(s))
    assert answers == {Decline(1), Accept(1, (0,)), Accept(1, (2,))}


@pytest.mark.rule("T3")
def test_T3_partner_without_the_asked_cards_can_only_decline():
    s = apply(trade_position(), Propose(0, 3, give_up=(0,), ask=(B.RED,)))
    assert legal_actions(s) == [Decline(3)]


@pytest.mark.rule("T3")
def test_T3_non_active_players_never_trade_with_each_other():
    s = trade_position()
    illegal(s, Propose(1, 2, give_hand=(0,), ask=(B.RED,)), "T3")
    # not even while answering an offer
    s = apply(s, Propose(0, 1, ask=(B.GREEN,)))
    illegal(s, Propose(1, 2, give_hand=(0,), ask=(B.RED,)), "T3")
    # and the move generator never proposes one
    s = trade_position()
    assert all(a.player == 0 and a.partner != 0 for a in plays_of(s, Propose))


@pytest.mark.rule("T3")
def test_T3_no_trade_with_oneself_or_a_missing_seat():
    s = trade_position()
    illegal(s, Propose(0, 0, give_hand=(0,)), "T3")
    illegal(s, Propose(0, 9, give_hand=(0,)), "T3")


@pytest.mark.rule("T3")
def test_T3_an_empty_offer_is_refused():
    illegal(trade_position(), Propose(0, 1), "T3")


@pytest.mark.rule("T3")
def test_T3_offers_name_real_cards_and_beans_in_play():
    s = trade_position()
    illegal(s, Propose(0, 1, give_hand=(4,)), "T3")
    illegal(s, Propose(0, 1, give_hand=(1, 1)), "T3")
    illegal(s, Propose(0, 1, give_up=(2,)), "T3")
    illegal(s, Propose(0, 1, ask=(B.COFFEE,)), "T3")  # coffee is removed with 4 players


@pytest.mark.rule("T3")
def test_T3_trading_happens_only_in_phase_2():
    s = stacked_game("rio-grande", 4, hands=[HAND0])
    illegal(s, Propose(0, 1, give_hand=(1,)), "T3")


@pytest.mark.rule("T3")
def test_T3_one_offer_at_a_time():
    s = apply(trade_position(), Propose(0, 1, ask=(B.GREEN,)))
    illegal(s, Propose(0, 2, ask=(B.RED,)), "T3")
    illegal(s, EndPhase(0), "T3")


@pytest.mark.rule("T3")
def test_T3_accept_or_decline_needs_a_pending_offer():
    s = trade_position()
    illegal(s, Accept(0, ()), "T3")
    illegal(s, Decline(0), "T3")


# ---------------------------------------------------------------- T4 received cards


@pytest.mark.rule("T4")
def test_T4_received_cards_go_to_the_set_aside_area_never_the_hand():
    s = trade_position()
    hands = [p.hand for p in s.players]
    s = play(s, Propose(0, 2, give_up=(up(s, B.COFFEE),), ask=(B.BLACKEYED,)), Accept(2, (0,)))
    assert s.players[0].hand == hands[0]  # nothing added to the active hand
    assert s.players[2].hand == hands[2][1:]
    assert s.players[0].aside == (B.BLACKEYED,)
    assert s.players[2].aside == (B.COFFEE,)


@pytest.mark.rule("T4")
def test_T4_received_cards_cannot_be_given_away_again():
    s = trade_position()
    # p3 receives a red as a gift; p3 has no red in hand
    s = play(s, Propose(0, 3, give_hand=(0,)), Accept(3))
    assert s.players[3].aside == (B.RED,)
    s = apply(s, Propose(0, 3, ask=(B.RED,)))
    assert legal_actions(s) == [Decline(3)]
    illegal(s, Accept(3, (0,)), "T3")  # h0 is a chili: the set-aside red cannot be named


@pytest.mark.rule("T4")
def test_T4_active_player_cannot_offer_cards_it_received():
    s = trade_position()
    s = play(s, Propose(0, 1, ask=(B.GREEN,)), Accept(1, (0,)))
    assert s.players[0].aside == (B.GREEN,)
    # every offer the move generator makes gives only hand and face-up cards
    hand, ups = s.players[0].hand, s.face_up
    for a in plays_of(s, Propose):
        given = [hand[h] for h in a.give_hand] + [ups[u] for u in a.give_up]
        assert B.GREEN not in given
    illegal(s, Propose(0, 2, give_hand=(len(hand),)), "T3")


@pytest.mark.rule("T4")
def test_T4_received_cards_must_be_planted_in_phase_3():
    s = trade_position()
    s = play(s, Propose(0, 2, give_up=(0, 1)), Accept(2), EndPhase(0))
    assert s.phase == Phase.PLANT_ASIDE
    assert s.to_move == 2  # p0 has nothing set aside
    assert Counter(s.players[2].aside) == Counter([B.STINK, B.COFFEE])
    illegal(s, EndPhase(2), "T6")
    acts = legal_actions(s)
    assert acts and all(isinstance(a, (PlantAside, Harvest)) for a in acts)
    s = play(s, PlantAside(2, B.STINK, 0), PlantAside(2, B.COFFEE, 1))
    assert s.active == 1  # the turn is over: everything was planted
    assert sorted(f.bean for f in s.players[2].fields) == sorted([B.STINK, B.COFFEE])


# ---------------------------------------------------------------- T5 end of phase 2


@pytest.mark.rule("T5")
def test_T5_face_up_cards_not_traded_stay_with_the_active_player():
    s = trade_position()
    s = apply(s, EndPhase(0))
    assert s.face_up == ()
    assert Counter(s.players[0].aside) == Counter([B.STINK, B.COFFEE])
    assert s.players[0].hand == (B.RED, B.BLUE, B.SOY, B.CHILI)
    assert s.phase == Phase.PLANT_ASIDE and s.to_move == 0


@pytest.mark.rule("T5")
def test_T5_leftovers_join_cards_received_in_trades():
    s = trade_position()
    s = play(s, Propose(0, 1, give_up=(up(s, B.STINK),), ask=(B.WAX,)), Accept(1, (1,)), EndPhase(0))
    assert Counter(s.players[0].aside) == Counter([B.WAX, B.COFFEE])
    assert s.players[1].aside == (B.STINK,)


@pytest.mark.rule("T5")
def test_T5_only_the_active_player_ends_trading():
    s = trade_position()
    illegal(s, EndPhase(1), "T3")
    s = apply(s, Propose(0, 1, ask=(B.GREEN,)))
    illegal(s, EndPhase(1), "T3")  # the partner must answer, not end the phase


@pytest.mark.rule("T5")
def test_T5_trading_may_continue_until_the_active_player_ends_it():
    s = trade_position()
    for _ in range(3):
        s = play(s, Propose(0, 1, ask=(B.GREEN,)), Decline(1))
        assert s.phase == Phase.TRADE and s.to_move == 0
    assert EndPhase(0) in legal_actions(s)


# ---------------------------------------------------------------- T6 phase 3


def aside_position(active, asides, n=4, fields_by_seat=None):
    seats = []
    for i in range(n):
        f = (fields_by_seat or {}).get(i)
        seats.append(player(hand=[B.RED], fields_=f, aside=asides.get(i, [])))
    return position("rio-grande", n, seats=tuple(seats), phase=Phase.TRADE, active=active,
                    face_up=[], draw=[B.WAX] * 20)


@pytest.mark.rule("T6")
def test_T6_seats_plant_in_turn_order_from_the_active_player():
    s = aside_position(2, {0: [B.SOY], 2: [B.GREEN], 3: [B.BLUE]})
    s = apply(s, EndPhase(2))
    order = []
    while s.phase == Phase.PLANT_ASIDE:
        order.append(s.to_move)
        s = apply(s, plays_of(s, PlantAside)[0])
    assert order == [2, 3, 0]
    assert s.active == 3


@pytest.mark.rule("T6")
def test_T6_every_set_aside_card_is_planted_in_the_players_order():
    s = aside_position(0, {0: [B.SOY, B.GREEN, B.GREEN]})
    s = apply(s, EndPhase(0))
    # plant the greens first although soy sorts first
    s = play(s, PlantAside(0, B.GREEN, 1), PlantAside(0, B.GREEN, 1))
    assert s.phase == Phase.PLANT_ASIDE and s.to_move == 0
    s = apply(s, PlantAside(0, B.SOY, 0))
    assert s.active == 1
    assert s.players[0].fields == (Field(B.SOY, 1), Field(B.GREEN, 2))
    assert s.players[0].aside == ()


@pytest.mark.rule("T6")
def test_T6_phase_3_cannot_end_with_cards_set_aside():
    s = apply(aside_position(0, {0: [B.SOY]}), EndPhase(0))
    illegal(s, EndPhase(0), "T6")


@pytest.mark.rule("T6")
def test_T6_only_set_aside_beans_can_be_planted():
    s = apply(aside_position(0, {0: [B.SOY]}), EndPhase(0))
    illegal(s, PlantAside(0, B.RED, 0), "T6")
    illegal(s, Plant(0, 0), "T1")


@pytest.mark.rule("T6")
def test_T6_set_aside_cards_are_planted_only_in_phase_3():
    s = aside_position(0, {0: [B.SOY]})
    illegal(s, PlantAside(0, B.SOY, 0), "T6")


@pytest.mark.rule("T6")
def test_T6_harvesting_between_plantings():
    f0 = fields((B.RED, 3), (B.BLUE, 2))
    s = apply(aside_position(0, {0: [B.SOY, B.GREEN]}, fields_by_seat={0: f0}), EndPhase(0))
    assert not plays_of(s, PlantAside)
    s = play(s, Harvest(0, 0), PlantAside(0, B.SOY, 0), Harvest(0, 1), PlantAside(0, B.GREEN, 1))
    assert s.players[0].fields == (Field(B.SOY, 1), Field(B.GREEN, 1))
    assert len(s.players[0].coins) == 2  # 3 red pay 2, 2 blue pay 0
    assert s.active == 1


@pytest.mark.rule("T6")
def test_T6_nobody_set_aside_ends_the_turn_at_once():
    s = aside_position(1, {})
    s = apply(s, EndPhase(1))
    assert s.active == 2 and s.phase == Phase.PLANT


# ---------------------------------------------------------------- T7 phase 4


@pytest.mark.rule("T7")
def test_T7_active_player_draws_three_and_the_next_seat_becomes_active():
    s = aside_position(1, {}, n=4)._replace(draw=(B.SOY, B.GREEN, B.CHILI, B.WAX, B.WAX))
    hands = [p.hand for p in s.players]
    s = apply(s, EndPhase(1))
    assert s.players[1].hand == hands[1] + (B.SOY, B.GREEN, B.CHILI)
    for seat in (0, 2, 3):
        assert s.players[seat].hand == hands[seat]
    assert s.draw == (B.WAX, B.WAX)
    assert s.active == 2 and s.to_move == 2 and s.phase == Phase.PLANT and s.turn == 1


@pytest.mark.rule("T7")
@pytest.mark.parametrize("n", [6, 7])
def test_T7_six_and_seven_players_draw_four(n):
    s = aside_position(0, {}, n=n)._replace(draw=(B.SOY, B.GREEN, B.CHILI, B.BLUE, B.WAX))
    s = apply(s, EndPhase(0))
    assert s.players[0].hand == (B.RED, B.SOY, B.GREEN, B.CHILI, B.BLUE)
    assert s.draw == (B.WAX,)


@pytest.mark.rule("T7")
def test_T7_after_the_last_seat_comes_seat_0():
    s = aside_position(3, {}, n=4)
    s = apply(s, EndPhase(3))
    assert s.active == 0 and s.to_move == 0


@pytest.mark.rule("T7")
def test_T7_a_whole_turn_from_a_stacked_deck():
    s = stacked_game("rio-grande", 3, hands=[HAND0],
                     draw=[B.GREEN, B.WAX, B.BLACKEYED, B.SOY, B.CHILI, B.RED])
    s = play(s, Plant(0, 0), Plant(0, 1), EndPhase(0))
    assert Counter(s.players[0].aside) == Counter([B.GREEN, B.WAX])
    s = play(s, PlantAside(0, B.GREEN, 2))
    assert s.phase == Phase.PLANT_ASIDE
    assert not any(isinstance(a, PlantAside) and a.bean == B.WAX for a in legal_actions(s))
    s = play(s, Harvest(0, 0), PlantAside(0, B.WAX, 0))
    assert s.active == 1 and s.phase == Phase.PLANT
    assert s.players[0].hand == (B.SOY, B.CHILI, B.STINK, B.BLACKEYED, B.SOY, B.CHILI)
    assert s.draw[0] == B.RED
