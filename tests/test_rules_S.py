"""Section S of RULES.md: the setup table for every preset and player count (S, S1) and dealing (S2)."""

from __future__ import annotations

from collections import Counter

import pytest
from builders import B, illegal, pass_turn, stack_deck

import model
from model import BuyField, Phase, RulesetError, new_game, setup
from model.cards import COUNTS

ALL = tuple(range(B.COFFEE, B.COCOA + 1))  # the rio-grande catalog
AMIGO = tuple(range(B.BLUE, B.GARDEN + 1))


def without(beans, *removed):
    return tuple(b for b in beans if b not in removed)


# The table of section S (rio-grande) and S1 (amigo), V4 (amigo-v1), V5 (amigo-v2), seed 001 (amigo-1997),
# written out from RULES.md:
# preset, players: (bean types, cards, fields, hands, face-up, draw, final exhaustion, third-field cost)
EXPECTED = {
    ("rio-grande", 2): (without(ALL, B.GARDEN, B.COCOA), 144, 2, (5, 5), 3, 2, 1, 3),
    ("rio-grande", 3): (without(ALL, B.COCOA), 150, 3, (5,) * 3, 2, 3, 2, None),
    ("rio-grande", 4): (without(ALL, B.COFFEE), 130, 2, (5,) * 4, 2, 3, 3, 3),
    ("rio-grande", 5): (without(ALL, B.COFFEE), 130, 2, (5,) * 5, 2, 3, 3, 3),
    ("rio-grande", 6): (without(ALL, B.COCOA, B.GARDEN), 144, 2, (3, 4, 5, 6, 6, 6), 2, 4, 3, 2),
    ("rio-grande", 7): (without(ALL, B.COCOA, B.GARDEN), 144, 2, (3, 4, 5, 6, 6, 6, 6), 2, 4, 3, 2),
    ("amigo", 3): (AMIGO, 104, 3, (5,) * 3, 2, 3, 3, None),
    ("amigo", 4): (AMIGO, 104, 2, (5,) * 4, 2, 3, 3, None),
    ("amigo", 5): (AMIGO, 104, 2, (5,) * 5, 2, 3, 3, None),
    ("amigo-1997", 3): (AMIGO, 104, 2, (5,) * 3, 2, 3, 3, 3),
    ("amigo-1997", 4): (AMIGO, 104, 2, (5,) * 4, 2, 3, 3, 3),
    ("amigo-1997", 5): (AMIGO, 104, 2, (5,) * 5, 2, 3, 3, 3),
    ("amigo-v1", 3): (without(ALL, B.COCOA), 150, 3, (5,) * 3, 2, None, 2, None),
    ("amigo-v1", 4): (without(ALL, B.COFFEE), 130, 2, (5,) * 4, 2, None, 3, None),
    ("amigo-v1", 5): (without(ALL, B.COFFEE), 130, 2, (5,) * 5, 2, None, 3, None),
    ("amigo-v2", 4): ((B.WAX, *AMIGO, B.FIELD), 129, 2, (5,) * 4, 2, None, 3, None),
    ("amigo-v2", 5): ((B.WAX, *AMIGO, B.FIELD), 129, 2, (5,) * 5, 2, None, 3, None),
}


@pytest.mark.rule("S1")
@pytest.mark.rule("S")
@pytest.mark.parametrize(("preset", "players"), sorted(EXPECTED))
def test_S_setup_table_every_preset_and_player_count(preset, players):
    beans, cards, n_fields, hands, face_up, draw, final, cost = EXPECTED[(preset, players)]
    su = setup(model.ruleset(preset), players)
    assert set(su.beans) == set(beans)
    assert len(su.deck) == cards
    assert Counter(su.deck) == Counter({b: COUNTS[b] for b in beans})
    assert su.fields == n_fields
    assert su.hands == hands
    assert su.face_up == face_up
    if draw is not None:  # V4/V5 presets draw one each instead (tested in V)
        assert su.draw == draw
    assert su.final_exhaustion == final
    assert su.third_cost == cost
    assert su.duel == (players == 2)


@pytest.mark.rule("S")
@pytest.mark.parametrize(("preset", "players"), sorted(EXPECTED))
def test_S_new_game_deals_the_table(preset, players):
    _, cards, n_fields, hands, _, _, _, _ = EXPECTED[(preset, players)]
    s = new_game(preset, players, seed=7)
    assert tuple(len(p.hand) for p in s.players) == hands
    assert all(len(p.fields) == n_fields and all(f.count == 0 for f in p.fields) for p in s.players)
    assert all(p.coins == () and p.aside == () for p in s.players)
    assert len(s.draw) == cards - sum(hands)
    assert s.discard == () and s.face_up == () and s.out == ()
    assert s.exhaustions == 0


@pytest.mark.rule("S")
@pytest.mark.parametrize(("preset", "players"), [
    ("rio-grande", 1), ("rio-grande", 8), ("amigo", 2), ("amigo", 6), ("amigo-1997", 2),
    ("amigo-1997", 6), ("amigo-v1", 2), ("amigo-v1", 6), ("amigo-v2", 3), ("amigo-v2", 6),
])
def test_S_player_counts_outside_the_edition_are_refused(preset, players):
    with pytest.raises(RulesetError):
        setup(model.ruleset(preset), players)


@pytest.mark.rule("S")
def test_S_three_players_rio_grande_have_three_fields_and_cannot_buy():
    s = new_game("rio-grande", 3, seed=1)
    p0 = s.players[0]._replace(coins=(B.RED,) * 5)
    s = s._replace(players=(p0,) + s.players[1:])
    illegal(s, BuyField(0), "F1", names_player=False)  # message: test_rules_F


@pytest.mark.rule("S")
def test_S_six_and_seven_players_third_field_costs_two():
    for n in (6, 7):
        s = new_game("rio-grande", n, seed=1)
        p0 = s.players[0]._replace(coins=(B.RED, B.SOY))
        s = s._replace(players=(p0,) + s.players[1:])
        s = model.apply(s, BuyField(0))
        assert len(s.players[0].fields) == 3
        assert s.players[0].coins == ()


@pytest.mark.rule("S1")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_S1_amigo_sells_no_third_field(players):
    s = new_game("amigo", players, seed=2)
    p0 = s.players[0]._replace(coins=(B.RED,) * 6)
    s = s._replace(players=(p0,) + s.players[1:])
    assert BuyField(0) not in model.legal_actions(s)
    illegal(s, BuyField(0), "F1", names_player=False)  # message: test_rules_F


@pytest.mark.rule("S1")
def test_S1_amigo_turn_shows_two_face_up_and_draws_three():
    s = new_game("amigo", 4, seed=3)
    s = model.apply(s, model.Plant(0, 0))
    s = model.apply(s, model.EndPhase(0))
    assert s.phase == Phase.TRADE and len(s.face_up) == 2
    hand_before = len(s.players[0].hand)
    s = pass_turn(s)
    assert s.active == 1
    assert len(s.players[0].hand) == hand_before + 3


@pytest.mark.rule("S2")
@pytest.mark.parametrize(("preset", "players"), [("rio-grande", 2), ("rio-grande", 4), ("amigo", 5)])
def test_S2_cards_dealt_one_at_a_time_in_seat_order_rest_is_draw_pile(preset, players):
    deck = list(setup(model.ruleset(preset), players).deck)
    # a deck whose order is visible: sort it so that consecutive cards differ often
    deck = deck[::2] + deck[1::2]
    s = new_game(preset, players, deck=deck)
    for seat in range(players):
        assert s.players[seat].hand == tuple(deck[seat:players * 5:players])
    assert s.draw == tuple(deck[players * 5:])


@pytest.mark.rule("S2")
@pytest.mark.parametrize("players", [6, 7])
def test_S2_uneven_hands_are_dealt_round_by_round(players):
    deck = list(setup(model.ruleset("rio-grande"), players).deck)
    deck = deck[::3] + deck[1::3] + deck[2::3]
    s = new_game("rio-grande", players, deck=deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    sizes = [3, 4, 5] + [6] * (players - 3)
    pos = 0
    for rnd in range(6):
        for seat in range(players):
            if rnd < sizes[seat]:
                hands[seat].append(deck[pos])
                pos += 1
    assert [list(p.hand) for p in s.players] == hands
    assert s.draw == tuple(deck[pos:])


@pytest.mark.rule("S2")
def test_S2_stacked_deck_helper_and_new_game_agree():
    deck = stack_deck("rio-grande", 3, hands=[[B.RED, B.SOY], [B.BLUE]], draw=[B.CHILI, B.WAX])
    s = new_game("rio-grande", 3, deck=deck)
    assert s.players[0].hand[:2] == (B.RED, B.SOY)
    assert s.players[1].hand[0] == B.BLUE
    assert s.draw[:2] == (B.CHILI, B.WAX)


@pytest.mark.rule("S2")
def test_S2_deck_is_shuffled_and_reproducible():
    a = new_game("rio-grande", 4, seed=1)
    b = new_game("rio-grande", 4, seed=1)
    c = new_game("rio-grande", 4, seed=2)
    assert a == b
    assert (a.players, a.draw) != (c.players, c.draw)
    unshuffled = list(setup(model.ruleset("rio-grande"), 4).deck)
    dealt = [c_ for p in a.players for c_ in p.hand] + list(a.draw)
    assert sorted(dealt) == sorted(unshuffled)
    assert dealt != unshuffled


@pytest.mark.rule("S2")
def test_S2_a_deck_that_is_not_the_edition_is_refused():
    deck = list(setup(model.ruleset("amigo"), 4).deck)
    with pytest.raises(ValueError):
        new_game("amigo", 4, deck=deck[:-1])
    with pytest.raises(ValueError):
        new_game("amigo", 4, deck=deck[:-1] + [B.COFFEE])


@pytest.mark.rule("S2")
@pytest.mark.parametrize(("preset", "players"), [("rio-grande", 4), ("rio-grande", 2), ("amigo", 3)])
def test_S2_starting_player_is_seat_0_and_turns_go_clockwise(preset, players):
    s = new_game(preset, players, seed=5)
    assert s.active == 0 and s.to_move == 0 and s.turn == 0
    seen = [s.active]
    for _ in range(2 * players):
        s = pass_turn(s)
        assert not s.is_over
        seen.append(s.active)
    assert seen == [t % players for t in range(2 * players + 1)]
