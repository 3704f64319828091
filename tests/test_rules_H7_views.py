"""H7 of RULES.md: coins are hidden from other players; only the top discard is visible; fields and trade
areas are public. Tests of ``model.views.view(state, player) -> dict`` (JSON-able).

The view lists the seats under "seats" (one dict per seat); ``seat(v, i)`` is the one place that knows it.
``model.views`` is imported inside the tests, so a missing module fails these tests and not the collection.
"""

from __future__ import annotations

import json

import pytest
from builders import B, fields, player, position

from model import Phase, Propose, apply


def view(s, p):
    from model.views import view as _view

    return _view(s, p)


def seat(v, i):
    seats = v["seats"] if "seats" in v else v["players"]
    return seats[i]


def names(cards):
    return [b.id for b in cards]


def trade_state(hand1=(B.GREEN, B.WAX, B.GREEN), coins1=(B.SOY, B.SOY), draw=(B.CHILI, B.RED, B.BLUE),
                discard=(B.STINK, B.COFFEE, B.BLUE)):
    p0 = player(hand=[B.RED, B.BLUE, B.SOY], fields_=fields((B.CHILI, 3), None), coins=[B.RED] * 3)
    p1 = player(hand=hand1, fields_=fields((B.STINK, 2), (B.SOY, 1)), coins=coins1, aside=[B.RED])
    p2 = player(hand=[B.BLACKEYED], coins=[])
    return position("rio-grande", 3, seats=(p0, p1, p2), phase=Phase.TRADE, active=0,
                    face_up=[B.GARDEN, B.WAX], draw=list(draw), discard=list(discard))


@pytest.mark.rule("H7")
def test_H7_own_hand_in_order_others_only_hand_size():
    s = trade_state()
    v = view(s, 0)
    assert seat(v, 0)["hand"] == names([B.RED, B.BLUE, B.SOY])
    for i, n in ((1, 3), (2, 1)):
        assert seat(v, i).get("hand") is None
        assert seat(v, i)["hand_size"] == n
    v1 = view(s, 1)
    assert seat(v1, 1)["hand"] == names([B.GREEN, B.WAX, B.GREEN])
    assert seat(v1, 0).get("hand") is None and seat(v1, 0)["hand_size"] == 3


@pytest.mark.rule("H7")
def test_H7_coins_are_hidden_from_other_players_own_coins_a_count():
    s = trade_state()
    v = view(s, 0)
    assert seat(v, 0)["coins"] == 3
    assert seat(v, 1).get("coins") is None
    assert seat(v, 2).get("coins") is None
    v1 = view(s, 1)
    assert seat(v1, 1)["coins"] == 2
    assert seat(v1, 0).get("coins") is None


@pytest.mark.rule("H7")
def test_H7_other_players_hands_and_coins_do_not_change_the_view():
    a = trade_state(hand1=(B.GREEN, B.WAX, B.GREEN), coins1=(B.SOY, B.SOY))
    b = trade_state(hand1=(B.RED, B.RED, B.COFFEE), coins1=(B.CHILI,) * 7)
    assert view(a, 0) == view(b, 0)
    assert view(a, 2) == view(b, 2)
    assert view(a, 1) != view(b, 1)  # p1 sees its own hand and coins


@pytest.mark.rule("H7")
def test_H7_draw_pile_only_as_its_size():
    a = trade_state(draw=(B.CHILI, B.RED, B.BLUE))
    b = trade_state(draw=(B.BLUE, B.CHILI, B.RED))
    for p in range(3):
        assert view(a, p) == view(b, p)
        assert view(a, p)["draw_size"] == 3
    c = trade_state(draw=(B.BLUE, B.CHILI))
    assert view(c, 0)["draw_size"] == 2


@pytest.mark.rule("H7")
def test_H7_only_the_top_discard_is_visible():
    a = trade_state(discard=(B.STINK, B.COFFEE, B.BLUE))
    b = trade_state(discard=(B.RED, B.RED, B.BLUE))
    v = view(a, 0)
    assert v["discard_top"] == B.BLUE.id and v["discard_size"] == 3
    assert view(a, 0) == view(b, 0)
    c = trade_state(discard=(B.STINK, B.BLUE, B.COFFEE))
    assert view(c, 0)["discard_top"] == B.COFFEE.id
    empty = trade_state(discard=())
    assert view(empty, 0)["discard_top"] is None and view(empty, 0)["discard_size"] == 0


@pytest.mark.rule("H7")
def test_H7_fields_set_aside_and_trade_area_are_public():
    s = trade_state()
    for p in range(3):
        v = view(s, p)
        assert seat(v, 0)["fields"] == [[B.CHILI.id, 3], None]
        assert seat(v, 1)["fields"] == [[B.STINK.id, 2], [B.SOY.id, 1]]
        assert seat(v, 1)["aside"] == [B.RED.id]
        assert sorted(v["face_up"]) == sorted([B.GARDEN.id, B.WAX.id])


@pytest.mark.rule("H7")
def test_H7_pending_offer_is_public():
    s = apply(trade_state(), Propose(0, 1, give_up=(0,), ask=(B.GREEN,)))
    for p in range(3):
        assert view(s, p)["pending"] is not None


@pytest.mark.rule("H7")
def test_H7_view_is_json():
    v = view(trade_state(), 1)
    assert json.loads(json.dumps(v)) == v


@pytest.mark.rule("H7")
def test_H7_view_names_a_real_seat():
    with pytest.raises(ValueError):
        view(trade_state(), 3)


@pytest.mark.rule("H7")
def test_H7_hidden_cards_never_appear_in_the_view_text():
    # p1's hand and coins are cocoa and coffee only; nothing else in the state is cocoa or coffee.
    p0 = player(hand=[B.RED], fields_=fields((B.CHILI, 3), None))
    p1 = player(hand=[B.COCOA, B.COCOA], coins=[B.COFFEE] * 4)
    s = position("rio-grande", 4, seats=(p0, p1, player(hand=[B.RED]), player(hand=[B.RED])),
                 phase=Phase.PLANT, active=0, draw=[B.RED] * 5, discard=[B.SOY])
    text = json.dumps(view(s, 0))
    assert B.COCOA.id not in text and B.COFFEE.id not in text
    assert B.COCOA.id in json.dumps(view(s, 1))


@pytest.mark.rule("H7")
def test_H7_final_coin_counts_are_shown_when_the_game_is_over():
    s = trade_state()._replace(phase=Phase.OVER, to_move=-1)
    v = view(s, 2)
    assert [seat(v, i)["coins"] for i in range(3)] == [3, 2, 0]
