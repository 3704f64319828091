"""Section F of RULES.md: buying the third field (F1)."""

from __future__ import annotations

from collections import Counter

import pytest
from builders import B, fields, illegal, play, player, position, total_cards

import model
from model import (
    EMPTY,
    Accept,
    BuyField,
    EndPhase,
    Field,
    Phase,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
    apply,
    legal_actions,
)

COINS = [B.SOY, B.RED, B.RED, B.BLUE, B.GREEN]  # bottom first; the top coin is the green


def plant_position(ruleset="rio-grande", n=4, coins=COINS, hand=(B.SOY, B.RED), f=None):
    p0 = player(hand=hand, fields_=f or fields((B.RED, 3), (B.BLUE, 2)), coins=coins)
    seats = (p0,) + tuple(player(hand=[B.RED]) for _ in range(n - 1))
    return position(ruleset, n, seats=seats, phase=Phase.PLANT, active=0, discard=[B.CHILI],
                    draw=[B.WAX] * 20)


@pytest.mark.rule("F1")
def test_F1_buying_gives_a_third_empty_field_usable_at_once():
    s = plant_position()
    assert BuyField(0) in legal_actions(s)
    s = apply(s, BuyField(0))
    assert s.players[0].fields == (Field(B.RED, 3), Field(B.BLUE, 2), EMPTY)
    assert s.phase == Phase.PLANT and s.to_move == 0  # buying is not a planting
    s = apply(s, Plant(0, 2))
    assert s.players[0].fields[2] == Field(B.SOY, 1)


@pytest.mark.rule("F1")
def test_F1_paid_coins_are_the_top_of_the_stack_and_go_to_the_discard_pile():
    s = plant_position()
    before = total_cards(s)
    s = apply(s, BuyField(0))
    assert s.players[0].coins == (B.SOY, B.RED)  # the bottom two stay
    assert s.discard[0] == B.CHILI
    assert Counter(s.discard[1:]) == Counter([B.RED, B.BLUE, B.GREEN])  # bean side up, on top
    assert s.out == ()
    assert total_cards(s) == before


@pytest.mark.rule("F1")
def test_F1_paid_coins_return_to_play_at_the_next_reshuffle():
    s = plant_position()._replace(draw=(B.WAX,))
    s = play(s, BuyField(0), Plant(0, 2), EndPhase(0))  # turning up exhausts the pile
    assert s.phase == Phase.CHANCE
    assert Counter(s.discard) == Counter([B.CHILI, B.RED, B.BLUE, B.GREEN])
    order = (B.GREEN, B.BLUE, B.RED, B.CHILI)
    s = apply(s, Reshuffle(order))
    assert s.discard == ()
    assert Counter(s.face_up) == Counter([B.WAX, B.GREEN])
    assert s.draw == (B.BLUE, B.RED, B.CHILI)


@pytest.mark.rule("F1")
def test_F1_in_the_duel_paid_coins_leave_the_game():
    s = plant_position("rio-grande", n=2)
    before = total_cards(s)
    s = apply(s, BuyField(0))
    assert s.players[0].coins == (B.SOY, B.RED)
    assert Counter(s.out) == Counter([B.RED, B.BLUE, B.GREEN])
    assert s.discard == (B.CHILI,)
    assert len(s.players[0].fields) == 3
    assert total_cards(s) == before  # conservation counts the removed pile


@pytest.mark.rule("F1")
def test_F1_in_the_duel_the_field_may_be_bought_in_any_step_of_ones_own_turn():
    p0 = player(hand=[B.RED], fields_=fields((B.RED, 3), (B.BLUE, 2)), coins=COINS)
    s = position("rio-grande", 2, seats=(p0, player(hand=[B.RED])), phase=Phase.TURNED, active=0,
                 face_up=[B.SOY], draw=[B.WAX] * 10)
    assert BuyField(0) in legal_actions(s)
    s = play(s, BuyField(0), PlantUp(0, 0, 2))
    assert s.players[0].fields[2] == Field(B.SOY, 1)
    assert len(s.out) == 3


@pytest.mark.rule("F1")
def test_F1_only_once_per_game():
    s = apply(plant_position(coins=COINS * 2), BuyField(0))
    assert BuyField(0) not in legal_actions(s)
    err = illegal(s, BuyField(0), "F1")
    assert "3 fields" in str(err)
    # also after the third field was emptied again
    s = play(s, model.Harvest(0, 0))
    assert BuyField(0) not in legal_actions(s)


@pytest.mark.rule("F1")
def test_F1_needs_enough_coins():
    s = plant_position(coins=[B.RED, B.RED])
    assert BuyField(0) not in legal_actions(s)
    err = illegal(s, BuyField(0), "F1")
    assert "2 coins" in str(err)
    assert s.players[0].coins == (B.RED, B.RED)


@pytest.mark.rule("F1")
@pytest.mark.parametrize(("preset", "n"), [("amigo", 4), ("amigo", 3), ("rio-grande", 3),
                                           ("amigo-v1", 4), ("amigo-v2", 5)])
def test_F1_not_where_the_ruleset_sells_none(preset, n):
    s = plant_position(preset, n=n, f=fields((B.RED, 3), (B.BLUE, 2), None) if n == 3 else None)
    assert BuyField(0) not in legal_actions(s)
    illegal(s, BuyField(0), "F1", names_player=False)  # the message: next test


@pytest.mark.rule("F1")
def test_F1_refusal_where_the_ruleset_sells_none_names_the_player():
    illegal(plant_position("amigo", n=4), BuyField(0), "F1")


@pytest.mark.rule("F1")
@pytest.mark.parametrize(("preset", "n", "cost"), [
    ("rio-grande", 2, 3), ("rio-grande", 4, 3), ("rio-grande", 5, 3), ("rio-grande", 6, 2),
    ("rio-grande", 7, 2), ("amigo-1997", 3, 3), ("amigo-1997", 5, 3),
])
def test_F1_cost_is_the_setup_tables(preset, n, cost):
    s = plant_position(preset, n=n, coins=[B.RED] * cost)
    s = apply(s, BuyField(0))
    assert s.players[0].coins == ()
    s = plant_position(preset, n=n, coins=[B.RED] * (cost - 1))
    illegal(s, BuyField(0), "F1")


@pytest.mark.rule("F1")
def test_F1_any_time_also_off_turn_while_answering_an_offer():
    p1 = player(hand=[B.GREEN], fields_=fields((B.RED, 3), (B.BLUE, 2)), coins=COINS)
    s = position("rio-grande", 4, seats=(player(hand=[B.RED]), p1, player(), player()),
                 phase=Phase.TRADE, active=0, face_up=[B.SOY, B.WAX], draw=[B.WAX] * 10)
    s = apply(s, Propose(0, 1, give_up=(s.face_up.index(B.SOY),), ask=(B.GREEN,)))
    assert BuyField(1) in legal_actions(s)
    s = apply(s, BuyField(1))
    assert len(s.players[1].fields) == 3 and s.to_move == 1 and s.pending is not None
    s = play(s, Accept(1, (0,)), EndPhase(0))
    # p0 plants the green and wax; then p1 plants the soy on the new field
    s = play(s, PlantAside(0, B.GREEN, 0), PlantAside(0, B.WAX, 1))
    assert s.to_move == 1
    s = apply(s, PlantAside(1, B.SOY, 2))
    assert s.players[1].fields[2] == Field(B.SOY, 1)


@pytest.mark.rule("F1")
def test_F1_any_time_also_off_turn_while_planting_set_aside_cards():
    p1 = player(hand=[B.GREEN], fields_=fields((B.RED, 3), (B.BLUE, 2)), coins=COINS, aside=[B.SOY])
    s = position("rio-grande", 4, seats=(player(hand=[B.RED]), p1, player(), player()),
                 phase=Phase.PLANT_ASIDE, active=0, to_move=1, draw=[B.WAX] * 10)
    s = play(s, BuyField(1), PlantAside(1, B.SOY, 2))
    assert s.players[1].fields == (Field(B.RED, 3), Field(B.BLUE, 2), Field(B.SOY, 1))
