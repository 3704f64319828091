"""One error taxonomy (model/errors.py): every error the project raises on purpose is a
``BohnanzaError`` (a ``ValueError``); input errors say where, rule errors end with ``[ID]``."""

from __future__ import annotations

import pytest

from model import legal_actions, new_game, ruleset
from model.actions import EndPhase, NotationError, Plant, parse_action
from model.cards import UnknownBean, bean
from model.engine import IllegalAction, apply
from model.errors import BohnanzaError, InputError, RuleError
from model.isla import IslaFormatError
from model.rules import RulesetError
from model.state import StateFormatError, state_to_json
from model.validate import PositionError, check_state
from records.game import IllegalStep, RecordFormatError, parse_record
from schemas.position_io import PositionInputError
from schemas.state_json import state_from_json
from solvers.contract import NodeLimitExceeded, SolveError
from studies.trade_network import TradeRecordError

INPUT = [NotationError, UnknownBean, RecordFormatError, RulesetError, StateFormatError, IslaFormatError,
         PositionInputError, TradeRecordError]
RULE = [IllegalAction, PositionError]


@pytest.mark.parametrize("cls", INPUT + RULE + [IllegalStep, SolveError, NodeLimitExceeded])
def test_every_error_has_the_one_base(cls: type[Exception]) -> None:
    assert issubclass(cls, BohnanzaError) and issubclass(cls, ValueError)


@pytest.mark.parametrize("cls", INPUT)
def test_input_errors(cls: type[Exception]) -> None:
    assert issubclass(cls, InputError) and not issubclass(cls, RuleError)


@pytest.mark.rule("H1")
def test_an_illegal_action_names_its_rule_in_brackets() -> None:
    s = new_game(ruleset("rio-grande"), 4, 1)
    with pytest.raises(IllegalAction) as e:
        apply(s, Plant(1, 0))  # p0 is to move
    assert e.value.rule and str(e.value).endswith(f"[{e.value.rule}]")


@pytest.mark.rule("F1")
def test_a_bad_position_names_its_field_and_rule_in_brackets() -> None:
    obj = state_to_json(new_game(ruleset("rio-grande"), 4, 1))
    obj["players"][0]["fields"] = [None, None, None, None]
    with pytest.raises(PositionError) as e:
        check_state(state_from_json(obj))
    assert (e.value.field, e.value.rule) == ("players[0].fields", "F1")
    assert str(e.value).startswith("players[0].fields: ") and str(e.value).endswith(" [F1]")


def test_input_errors_say_what_and_where() -> None:
    with pytest.raises(NotationError):
        parse_action("p0 fly away")
    with pytest.raises(UnknownBean):
        bean("moonbean")
    with pytest.raises(RecordFormatError) as e:
        parse_record('{"format": "bohnanza-record"}\nnot json\n')
    assert str(e.value).startswith("line ")


@pytest.mark.parametrize("value", ["false", "true", 0, 1, None, [False]])
def test_a_flag_that_is_not_a_json_boolean_is_refused_not_read_as_true(value: object) -> None:
    """``"final": "false"`` once read as true and solved a game start as a final pass (E2)."""
    obj = state_to_json(new_game("amigo", 3, seed=1))
    obj["final"] = value
    with pytest.raises(StateFormatError, match=r"final.*expected true or false"):
        state_from_json(obj)


@pytest.mark.parametrize("key", ["captured", "discarded"])
def test_an_isla_flag_that_is_not_a_json_boolean_is_refused(key: str) -> None:
    obj = state_to_json(new_game(ruleset("rio-grande", {"isla": True}), 4, seed=1))
    obj["isla"][key] = "false"
    with pytest.raises(StateFormatError, match=rf"isla\.{key}: expected true or false"):
        state_from_json(obj)


@pytest.mark.parametrize(("change", "field", "rule"), [
    ({"first_field": 9}, "first_field", "T1"),
    ({"todo": [99]}, "todo[0]", "E1"),
    ({"todo": [-2]}, "todo[0]", "E1"),  # an island row, without the expansion
])
def test_an_impossible_dealing_state_is_refused(change: dict[str, object], field: str, rule: str) -> None:
    """These were solved with exit 0 (issue 15): a field the seat lacks, a seat that does not exist."""
    obj = state_to_json(new_game(ruleset("rio-grande"), 4, 1))
    obj.update(change)
    with pytest.raises(PositionError) as e:
        check_state(state_from_json(obj))
    assert (e.value.field, e.value.rule) == (field, rule)


def test_v2_needs_the_field_of_the_first_planting() -> None:
    s = new_game(ruleset("rio-grande", {"distinct_fields": True}), 4, 1)
    obj = state_to_json(s)
    obj.update(planted=1, first_field=-1)
    with pytest.raises(PositionError, match=r"^first_field: .* \[V2\]$"):
        check_state(state_from_json(obj))
    obj.update(first_field=0)
    check_state(state_from_json(obj))


@pytest.mark.parametrize("bad", [[3, 2], ["red", True], ["red", 2.0]])
def test_a_field_needs_a_bean_name_and_a_whole_count(bad: list[object]) -> None:
    obj = state_to_json(new_game(ruleset("rio-grande"), 4, 1))
    obj["players"][0]["fields"] = [bad, None]
    with pytest.raises(StateFormatError, match=r"players\[0\]\.fields\[0\]"):
        state_from_json(obj)


def test_a_bean_given_as_a_number_is_refused() -> None:
    obj = state_to_json(new_game(ruleset("rio-grande"), 4, 1))
    obj["draw"][0] = 3
    with pytest.raises(StateFormatError, match=r"^draw\[0\]: expected a bean name, got 3 \(C\)$"):
        state_from_json(obj)


def _trading(players: int = 4) -> dict[str, object]:
    s = new_game(ruleset("rio-grande"), players, 1)
    while s.phase.name != "TRADE":
        s = apply(s, next(a for a in legal_actions(s) if isinstance(a, (Plant, EndPhase))))
    return state_to_json(s)


@pytest.mark.parametrize(("change", "field", "rule"), [
    ({"to_move": 2}, "to_move", "T3"),  # trading with nothing pending: the active player moves
    ({"pending": "p0 offer p9 give u0 ask red"}, "pending", "T3"),
    ({"pending": "p0 offer p1 give u0 ask red", "to_move": 2}, "to_move", "T3"),
])
def test_who_moves_in_trading_follows_what_is_pending(change: dict[str, object], field: str,
                                                      rule: str) -> None:
    obj = _trading()
    obj.update(change)
    with pytest.raises(PositionError) as e:
        check_state(state_from_json(obj))
    assert (e.value.field, e.value.rule) == (field, rule)


def test_the_duel_steps_are_the_active_players() -> None:
    obj = state_to_json(new_game(ruleset("rio-grande"), 2, 1))
    obj.update(phase="discard", to_move=1)
    with pytest.raises(PositionError, match=r"^to_move: in discard the active player moves \[D2\]$"):
        check_state(state_from_json(obj))
