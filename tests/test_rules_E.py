"""Section E of RULES.md: deck exhaustion and reshuffles (E1), the end (E2), final harvest (E3),
winners (E4)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from builders import B, fields, illegal, play, player, position, run_to_end, total_cards

import model
from model import (
    EMPTY,
    Accept,
    EndPhase,
    Harvest,
    Phase,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
    apply,
    chance_outcome,
    legal_actions,
    scores,
    winners,
)

# ---------------------------------------------------------------- E1 exhaustion and reshuffle


def drawing_position(draw, discard, exhaustions=0, n=4, ruleset="rio-grande", hand0=(B.RED,)):
    """Active p0 in phase 2 with nothing face up and nothing set aside: EndPhase(0) goes to phase 4."""
    seats = tuple(player(hand=hand0 if i == 0 else [B.RED]) for i in range(n))
    return position(ruleset, n, seats=seats, phase=Phase.TRADE, active=0, face_up=[], draw=draw,
                    discard=discard, exhaustions=exhaustions)


@pytest.mark.rule("E1")
def test_E1_taking_the_last_card_exhausts_the_pile_and_a_reshuffle_follows():
    s = drawing_position(draw=[B.SOY, B.GREEN, B.CHILI], discard=[B.BLUE, B.WAX, B.STINK])
    s = apply(s, EndPhase(0))
    assert s.players[0].hand == (B.RED, B.SOY, B.GREEN, B.CHILI)
    assert s.exhaustions == 1
    assert s.phase == Phase.CHANCE and s.to_move == -1
    assert legal_actions(s) == []
    s = apply(s, Reshuffle((B.STINK, B.BLUE, B.WAX)))
    assert s.draw == (B.STINK, B.BLUE, B.WAX) and s.discard == ()
    assert s.active == 1 and s.phase == Phase.PLANT and s.to_move == 1


@pytest.mark.rule("E1")
def test_E1_drawing_continues_from_the_reshuffled_pile():
    s = drawing_position(draw=[B.SOY], discard=[B.BLUE, B.WAX, B.STINK, B.GREEN])
    s = apply(s, EndPhase(0))
    assert s.phase == Phase.CHANCE
    assert s.players[0].hand == (B.RED, B.SOY)
    s = apply(s, Reshuffle((B.GREEN, B.STINK, B.WAX, B.BLUE)))
    assert s.players[0].hand == (B.RED, B.SOY, B.GREEN, B.STINK)
    assert s.draw == (B.WAX, B.BLUE)
    assert s.exhaustions == 1 and s.active == 1 and s.phase == Phase.PLANT


@pytest.mark.rule("E1")
def test_E1_turning_up_continues_from_the_reshuffled_pile():
    p0 = player(hand=[B.RED, B.BLUE])
    s = position("rio-grande", 4, seats=(p0, player(hand=[B.RED]), player(), player()),
                 phase=Phase.PLANT, active=0, draw=[B.SOY], discard=[B.WAX, B.GREEN])
    s = play(s, Plant(0, 0), EndPhase(0))
    assert s.phase == Phase.CHANCE and s.face_up == (B.SOY,)
    s = apply(s, Reshuffle((B.GREEN, B.WAX)))
    assert s.phase == Phase.TRADE and s.to_move == 0
    assert Counter(s.face_up) == Counter([B.SOY, B.GREEN])
    assert s.draw == (B.WAX,)


@pytest.mark.rule("E1")
def test_E1_reshuffle_must_be_the_discard_pile():
    s = apply(drawing_position(draw=[B.SOY], discard=[B.BLUE, B.WAX]), EndPhase(0))
    with pytest.raises(model.IllegalAction) as info:
        apply(s, Reshuffle((B.BLUE,)))
    assert info.value.rule == "E1"
    with pytest.raises(model.IllegalAction) as info:
        apply(s, Reshuffle((B.BLUE, B.RED)))
    assert info.value.rule == "E1"


@pytest.mark.rule("E1")
def test_E1_no_move_but_the_reshuffle_at_a_chance_node():
    s = apply(drawing_position(draw=[B.SOY], discard=[B.BLUE, B.WAX]), EndPhase(0))
    assert s.phase == Phase.CHANCE
    with pytest.raises(model.IllegalAction) as info:
        apply(s, Plant(1, 0))
    assert info.value.rule == "E1"


@pytest.mark.rule("E1")
def test_E1_no_reshuffle_while_the_draw_pile_lasts():
    s = drawing_position(draw=[B.SOY] * 5, discard=[B.BLUE])
    with pytest.raises(model.IllegalAction) as info:
        apply(s, Reshuffle((B.BLUE,)))
    assert info.value.rule == "E1"


@pytest.mark.rule("E1")
def test_E1_chance_outcome_is_a_permutation_of_the_discard_pile():
    s = apply(drawing_position(draw=[B.SOY], discard=[B.BLUE, B.WAX, B.RED, B.RED, B.GREEN]), EndPhase(0))
    r = chance_outcome(s, random.Random(0))
    assert sorted(r.order) == sorted(s.discard)
    t = apply(s, r)
    assert t.discard == () and len(t.draw) == 3
    assert chance_outcome(s, random.Random(0)) == r  # reproducible


@pytest.mark.rule("E1")
def test_E1_reshuffles_conserve_cards_over_a_whole_game():
    s = model.new_game("rio-grande", 4, seed=4)
    n = total_cards(s)
    s = run_to_end(s)
    assert total_cards(s) == n
    assert s.exhaustions == 3


# ---------------------------------------------------------------- E2 the end


@pytest.mark.rule("E2")
@pytest.mark.parametrize(("preset", "players", "final"), [
    ("rio-grande", 2, 1), ("rio-grande", 3, 2), ("rio-grande", 4, 3), ("rio-grande", 6, 3),
    ("amigo", 3, 3), ("amigo", 5, 3),
])
def test_E2_game_ends_at_the_exhaustion_of_the_table(preset, players, final):
    s = model.new_game(preset, players, seed=9)
    seen = []
    while not s.is_over:
        if s.phase == Phase.CHANCE:
            seen.append(s.exhaustions)
        from builders import step

        s = step(s)
    assert s.exhaustions == final
    assert seen == list(range(1, final))  # a reshuffle after every earlier exhaustion, none after


@pytest.mark.rule("E2")
def test_E2_final_exhaustion_while_turning_up_finishes_trading_and_planting():
    p0 = player(hand=[B.RED, B.BLUE])
    p1 = player(hand=[B.SOY])
    s = position("rio-grande", 4, seats=(p0, p1, player(hand=[B.RED]), player(hand=[B.RED])),
                 phase=Phase.PLANT, active=0, draw=[B.GREEN], discard=[B.WAX, B.WAX], exhaustions=2)
    s = play(s, Plant(0, 0), EndPhase(0))
    # fewer face-up cards, but the turn goes on
    assert s.exhaustions == 3 and not s.is_over
    assert s.phase == Phase.TRADE and s.face_up == (B.GREEN,)
    s = play(s, Propose(0, 1, give_up=(0,), ask=(B.SOY,)), Accept(1, (0,)), EndPhase(0))
    assert s.phase == Phase.PLANT_ASIDE and s.to_move == 0
    s = apply(s, PlantAside(0, B.SOY, 1))
    assert s.to_move == 1
    s = apply(s, PlantAside(1, B.GREEN, 0))
    # then the game ends, without drawing
    assert s.is_over and s.to_move == -1
    assert s.players[0].hand == (B.BLUE,)
    assert s.players[0].fields == (EMPTY, EMPTY) and s.players[1].fields == (EMPTY, EMPTY)


@pytest.mark.rule("E2")
def test_E2_final_exhaustion_while_drawing_ends_the_game_at_once():
    s = drawing_position(draw=[B.SOY, B.GREEN], discard=[B.WAX], exhaustions=2)
    s = apply(s, EndPhase(0))
    assert s.is_over and s.phase == Phase.OVER and s.to_move == -1
    assert s.exhaustions == 3
    assert s.players[0].hand == (B.RED, B.SOY, B.GREEN)
    assert s.players[1].hand == (B.RED,)  # nobody else got a turn


@pytest.mark.rule("E2")
def test_E2_empty_discard_at_reshuffle_is_final_while_drawing():
    s = drawing_position(draw=[B.SOY, B.GREEN], discard=[], exhaustions=0)
    s = apply(s, EndPhase(0))
    assert s.is_over
    assert s.players[0].hand == (B.RED, B.SOY, B.GREEN)


@pytest.mark.rule("E2")
def test_E2_empty_discard_at_reshuffle_is_final_while_turning_up():
    p0 = player(hand=[B.RED, B.BLUE])
    s = position("rio-grande", 4, seats=(p0, player(hand=[B.RED]), player(), player()),
                 phase=Phase.PLANT, active=0, draw=[B.GREEN], discard=[], exhaustions=0)
    s = play(s, Plant(0, 0), EndPhase(0))
    assert not s.is_over and s.phase == Phase.TRADE and s.face_up == (B.GREEN,)
    s = play(s, EndPhase(0), PlantAside(0, B.GREEN, 1))
    assert s.is_over
    assert s.players[0].hand == (B.BLUE,)


@pytest.mark.rule("E2")
def test_E2_nonfinal_exhaustion_with_cards_to_shuffle_is_not_the_end():
    s = drawing_position(draw=[B.SOY, B.GREEN], discard=[B.WAX], exhaustions=1)
    s = apply(s, EndPhase(0))
    assert s.phase == Phase.CHANCE and not s.is_over


@pytest.mark.rule("E2")
@pytest.mark.rule("D2")
def test_E2_duel_exhaustion_while_turning_up_finishes_step_3_then_ends():
    p0 = player(hand=[B.RED, B.BLUE, B.SOY])
    s = position("rio-grande", 2, seats=(p0, player(hand=[B.RED])), phase=Phase.PLANT, active=0,
                 draw=[B.GREEN, B.WAX], discard=[B.CHILI])
    s = play(s, Plant(0, 0), EndPhase(0), EndPhase(0))  # plant one, discard nothing, turn up
    assert s.exhaustions == 1 and not s.is_over
    assert s.phase == Phase.TURNED and Counter(s.face_up) == Counter([B.GREEN, B.WAX])
    s = apply(s, PlantUp(0, s.face_up.index(B.GREEN), 1))
    s = apply(s, EndPhase(0))
    assert s.is_over
    assert s.players[0].hand == (B.BLUE, B.SOY)  # no drawing
    assert s.players[1].hand == (B.RED,)


@pytest.mark.rule("E2")
@pytest.mark.rule("D2")
def test_E2_duel_exhaustion_while_drawing_ends_at_once():
    s = position("rio-grande", 2, seats=(player(hand=[B.RED]), player(hand=[B.BLUE])),
                 phase=Phase.TURNED, active=0, face_up=[B.GREEN], draw=[B.SOY], discard=[B.CHILI])
    s = apply(s, EndPhase(0))
    assert s.is_over
    assert s.players[0].hand == (B.RED, B.SOY)


@pytest.mark.rule("E2")
def test_E2_no_move_after_the_end():
    s = apply(drawing_position(draw=[B.SOY], discard=[], exhaustions=2), EndPhase(0))
    assert s.is_over and legal_actions(s) == []
    illegal(s, Plant(1, 0), "E2", names_player=False)
    illegal(s, Harvest(2, 0), "E2", names_player=False)


@pytest.mark.rule("E2")
def test_E2_error_after_the_end_names_the_player():
    s = apply(drawing_position(draw=[B.SOY], discard=[], exhaustions=2), EndPhase(0))
    illegal(s, Plant(1, 0), "E2")


# ---------------------------------------------------------------- E3 final harvest


@pytest.mark.rule("E3")
def test_E3_every_field_is_harvested_at_the_end_ignoring_H4():
    p0 = player(hand=[B.RED], fields_=fields((B.SOY, 1), (B.BLUE, 4)), coins=[B.WAX])
    p1 = player(hand=[B.RED], fields_=fields((B.RED, 3), (B.CHILI, 1)))
    p2 = player(hand=[B.RED], fields_=fields((B.GARDEN, 3), None))
    seats = (p0, p1, p2, player(hand=[B.RED]))
    s = position("rio-grande", 4, seats=seats, phase=Phase.TRADE, active=0, face_up=[],
                 draw=[B.SOY], discard=[], exhaustions=2)
    discard_before = len(s.discard)
    s = apply(s, EndPhase(0))
    assert s.is_over
    for p in s.players:
        assert all(f == EMPTY for f in p.fields)
    # C1: 1 soy 0, 4 blue 1 (+1 coin before); 3 red 2, 1 chili 0; 3 garden 3
    assert scores(s)[:3] == (2, 2, 3)
    assert Counter(s.players[1].coins) == Counter([B.RED, B.RED])
    # the unpaid cards go to the discard pile: 1 soy, 3 blue, 1 red, 1 chili
    assert len(s.discard) - discard_before == 6


@pytest.mark.rule("E3")
def test_E3_cards_in_hand_score_nothing():
    p0 = player(hand=[B.RED] * 8, fields_=fields((B.RED, 1), None))
    p1 = player(hand=[], fields_=fields((B.RED, 2), None))
    s = position("rio-grande", 4, seats=(p0, p1, player(), player()), phase=Phase.TRADE,
                 active=0, face_up=[], draw=[B.SOY], discard=[], exhaustions=2)
    s = apply(s, EndPhase(0))
    assert s.is_over
    assert scores(s) == (0, 1, 0, 0)
    assert winners(s) == (1,)


@pytest.mark.rule("E3")
def test_E3_whole_game_ends_with_empty_fields_and_coins_as_scores():
    s = run_to_end(model.new_game("amigo", 4, seed=5))
    assert s.is_over
    assert all(f.count == 0 for p in s.players for f in p.fields)
    assert scores(s) == tuple(len(p.coins) for p in s.players)


# ---------------------------------------------------------------- E4 winners


def final(ruleset, coins, hands):
    seats = tuple(player(hand=[B.RED] * h, coins=[B.SOY] * c) for c, h in zip(coins, hands, strict=True))
    return position(ruleset, len(coins), seats=seats, phase=Phase.OVER, to_move=-1)


@pytest.mark.rule("E4")
def test_E4_most_coins_wins():
    s = final("rio-grande", coins=(3, 7, 5, 6), hands=(9, 0, 9, 9))
    assert winners(s) == (1,)


@pytest.mark.rule("E4")
def test_E4_tie_break_hand_most_cards_in_hand_among_the_tied():
    s = final("rio-grande", coins=(7, 5, 7, 7), hands=(2, 9, 4, 3))
    assert s.setup.rules.tie_break == "hand"
    assert winners(s) == (2,)  # p1 has more cards but fewer coins


@pytest.mark.rule("E4")
def test_E4_tie_break_hand_tie_that_survives_is_shared():
    s = final("rio-grande", coins=(7, 7, 2, 7), hands=(4, 4, 9, 1))
    assert winners(s) == (0, 1)


@pytest.mark.rule("E4")
def test_E4_tie_break_seat_farthest_clockwise_from_the_starting_player():
    s = final("amigo", coins=(6, 6, 2, 1), hands=(1, 1, 1, 1))
    assert s.setup.rules.tie_break == "seat"
    assert winners(s) == (1,)
    s = final("amigo", coins=(6, 3, 6, 2, 1), hands=(9, 0, 0, 0, 0))
    assert winners(s) == (2,)  # hand size is irrelevant here
    s = final("amigo", coins=(4, 4, 4), hands=(0, 0, 0))
    assert winners(s) == (2,)


@pytest.mark.rule("E4")
def test_E4_tie_break_none_is_a_shared_win():
    r = model.ruleset("rio-grande", {"tie_break": "none"})
    s = final(r, coins=(5, 2, 5, 5), hands=(1, 2, 3, 4))
    assert winners(s) == (0, 2, 3)


@pytest.mark.rule("E4")
def test_E4_tie_break_applies_only_to_a_tie():
    for rule in ("hand", "seat", "none"):
        r = model.ruleset("rio-grande", {"tie_break": rule})
        s = final(r, coins=(8, 7, 7, 7), hands=(0, 5, 5, 5))
        assert winners(s) == (0,)


@pytest.mark.rule("E4")
def test_E4_presets_use_their_edition_tie_break():
    assert model.ruleset("rio-grande").tie_break == "hand"
    for name in ("amigo", "amigo-1997"):
        assert model.ruleset(name).tie_break == "seat"
    with pytest.raises(model.RulesetError):
        model.ruleset("rio-grande", {"tie_break": "coin-toss"})


@pytest.mark.rule("E4")
def test_E4_hand_tie_break_counts_cards_drawn_before_the_end():
    # The game ends while p0 draws: the cards drawn before the exhaustion count in the tie-break.
    p0 = player(hand=[B.RED], fields_=fields((B.RED, 3), None))
    p1 = player(hand=[B.RED, B.RED], fields_=fields((B.RED, 3), None))
    s = position("rio-grande", 4, seats=(p0, p1, player(), player()), phase=Phase.TRADE, active=0,
                 face_up=[], draw=[B.SOY, B.GREEN], discard=[], exhaustions=2)
    s = apply(s, EndPhase(0))
    assert s.is_over
    assert scores(s)[:2] == (2, 2)
    assert winners(s) == (0,)  # 3 cards in hand against 2
