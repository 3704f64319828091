"""The expansion seam (model/expansion.py, model/expansions.py) and the step table (model/steps.py).

The base engine names no expansion; an expansion changes the game through hooks only; mutants and
checkers reach the rules through ``STEPS`` and nowhere else.
"""

from __future__ import annotations

import ast
import dataclasses
import pickle
import random
import re
from pathlib import Path

import pytest

from drawing.canvas import Canvas
from drawing.picture import Picture
from drawing.pictures import PICTURES
from drawing.svg import svg
from model import GameState, RulesetError, new_game, ruleset, scores, setup, state_to_json, winners
from model.actions import Action, ExpansionAction, NotationError, Plant, parse_action, parse_number
from model.core import evolve
from model.expansion import BASE, Expansion
from model.expansions import EXPANSIONS, hooks, installed
from model.isla.hooks import ISLA
from model.rules import OptionRange, Ruleset
from model.state import SLOT_CODECS, SlotCodec, StateFormatError
from model.steps import STEPS
from model.views import view
from play.bots import greedy_bot, random_bot
from play.expansions import BOT_HOOKS, bot_hooks
from play.hook import BASE_BOTS
from play.isla import ISLA_BOTS
from play.playout import play_game, playout

ROOT = Path(__file__).resolve().parent.parent


def test_the_base_engine_names_no_expansion():
    text = (ROOT / "model" / "engine.py").read_text()
    assert not re.search(r"isla|ship|pirate|cargo", text, re.IGNORECASE)


def _registry_lookups(f: ast.AST) -> int:
    return sum(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == "EXPANSIONS"
               for n in ast.walk(f))


def test_the_engine_looks_its_expansion_up_once_per_call_path():
    """A public entry or a step of ``STEPS`` (each separately replaceable: its own call path) looks
    the game's expansion up once and hands it to the helpers it calls; a helper it reaches by a
    direct call never looks it up again."""
    tree = ast.parse((ROOT / "model" / "engine.py").read_text())
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}

    def called(name: str, seen: set[str]) -> set[str]:  # direct calls only: ``_S.step(...)`` is a seam
        for n in ast.walk(funcs[name]):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in funcs \
                    and n.func.id not in seen:
                seen.add(n.func.id)
                called(n.func.id, seen)
        return seen

    looking = {name for name, f in funcs.items() if _registry_lookups(f)}
    assert len(looking) >= 10 and "apply" in looking
    twice = [name for name in looking if _registry_lookups(funcs[name]) > 1]
    again = {name: sorted(called(name, set()) & looking) for name in looking}
    assert not twice and not {k: v for k, v in again.items() if v}


# every module of model/ but the registry and the package's API (model/__init__.py re-exports)
BASE_MODULES = sorted(p.stem for p in (ROOT / "model").glob("*.py")
                      if p.stem not in ("__init__", "expansions"))


@pytest.mark.parametrize("name", BASE_MODULES)
def test_no_base_module_imports_an_expansion(name):
    """The expansions own their parts: the base reaches them through ``model.expansions`` only."""
    tree = ast.parse((ROOT / "model" / f"{name}.py").read_text())
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m.startswith("model.isla")]


# the bots' modules and the simulator, which reach an expansion's bots through the hook only
BOTS_BASE = [*sorted(p for p in (ROOT / "play").glob("*.py") if p.stem != "expansions"),
             ROOT / "scripts" / "simulate.py"]


@pytest.mark.parametrize("path", BOTS_BASE, ids=lambda p: p.name)
def test_no_base_bot_module_names_an_expansion(path):
    """La Isla Bohnita's bots are a package of their own (``play/isla/``) behind ``BotHooks``,
    listed in ``play/expansions.py`` only: no name in the code of the others says it (a
    docstring or a help example may)."""
    tree = ast.parse(path.read_text())
    names = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]
    names += [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    names += [a.name for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names]
    assert not [x for x in names if re.search(r"isla|ship|pirate|cargo|raid", x, re.IGNORECASE)]


def test_the_bots_hook_of_an_expansion_without_bots_is_the_base_game_s():
    assert BOT_HOOKS == {"": BASE_BOTS, "isla": ISLA_BOTS}
    assert bot_hooks("first-seat") is BASE_BOTS and bot_hooks("isla") is ISLA_BOTS
    base = play_game(ruleset("rio-grande"), 4, 3, [greedy_bot] * 4)[0]
    isla = play_game(ruleset("rio-grande", {"isla": True}), 4, 3, [greedy_bot] * 4)[0]
    assert base.counts == () and [k for k, _ in isla.counts] == ["ship_sales", "raids", "captures"]


def test_the_registry_holds_the_base_game_and_la_isla_bohnita_by_name():
    assert EXPANSIONS == {"": BASE, "isla": ISLA}
    assert setup(ruleset("rio-grande"), 4).expansion == ""
    isla = setup(ruleset("rio-grande", {"isla": True}), 4)
    assert isla.expansion == "isla" and hooks(isla) is ISLA
    assert hooks(pickle.loads(pickle.dumps(isla))) is ISLA  # a setup sent to a worker process


def test_every_hook_of_the_base_game_is_a_no_op():
    s = new_game("rio-grande", 4, seed=1)
    assert BASE.reserved(s.setup) == 0 and BASE.on_deal(s, []) is s
    assert BASE.start_turn(s) is s and BASE.exhausted(s) is s and BASE.final_scoring(s) is s
    assert BASE.refill(s) == () and BASE.phase_actions(s, 0) == () and BASE.anytime_actions(s, 0) == ()
    assert not BASE.blocked(s) and BASE.card_zones(s) == []


class _Tithe(Expansion):
    """A made-up expansion for the test: at the end (E3) every seat with coins pays one to the discard."""

    name = "tithe"

    def final_scoring(self, s: GameState) -> GameState:
        players = tuple(p._replace(coins=p.coins[:-1]) if p.coins else p for p in s.players)
        paid = tuple(p.coins[-1] for p in s.players if p.coins)
        return evolve(s, players=players, discard=s.discard + paid)


def _play(start: GameState, seed: int) -> GameState:
    s = start
    for s, _ in playout(start, random_bot, random.Random(seed)):  # noqa: B007 (the last state)
        pass
    return s


@installed(_Tithe())  # made playable for this test, the registries as they were after it
def test_a_new_expansion_changes_the_game_through_a_hook_without_touching_the_engine():
    plain = new_game("amigo", 3, seed=7)
    tithed = plain._replace(setup=dataclasses.replace(plain.setup, expansion="tithe"))
    base_end, tithe_end = _play(plain, 7), _play(tithed, 7)
    assert tithe_end.turn == base_end.turn  # the same game ...
    assert scores(tithe_end) == tuple(max(c - 1, 0) for c in scores(base_end))  # ... but one coin each less
    assert len(tithe_end.discard) == len(base_end.discard) + sum(c > 0 for c in scores(base_end))


class _FirstSeat(Expansion):
    """The smallest expansion: a variant that only changes the tie-break (E4), a coin tie going to
    the tied seat nearest the starting player. One class and one registry line; no engine change."""

    name = "first-seat"

    def break_tie(self, s: GameState, tied: tuple[int, ...]) -> tuple[int, ...]:
        return tied[:1]


@installed(_FirstSeat())
def test_a_variant_that_only_changes_the_tie_break_is_one_class_and_one_registry_line():
    plain = new_game(ruleset("rio-grande", {"tie_break": "none"}), 3, seed=3)
    variant = plain._replace(setup=dataclasses.replace(plain.setup, expansion="first-seat"))
    base_end, variant_end = _play(plain, 3), _play(variant, 3)
    assert variant_end.players == base_end.players  # the same game ...
    coins = base_end.players[2].coins
    tie = tuple(p._replace(coins=coins) for p in base_end.players)
    assert winners(base_end._replace(players=tie)) == (0, 1, 2)  # ... a shared win in the base game
    assert winners(variant_end._replace(players=tie)) == (0,)  # ... the first seat's in the variant
    assert BASE.break_tie(base_end._replace(players=tie), (1, 2)) == (1, 2)


class _ShortHands(Expansion):
    """A made-up expansion with its own setup and option: hands of 3 cards (table S) and, at the
    end (E3), every seat pays ``short_fee`` coins (its own option, default 1) to the discard pile.
    Turned on by its name as a ruleset option, as La Isla Bohnita is by ``isla=true``."""

    name = "short"
    called = "Short Hands"
    rule_ids = "X1-X2"
    options = {"short_fee": (1, OptionRange(0, 3, "X2", "coins each seat pays at the end"))}

    def hands(self, players: int) -> tuple[int, ...]:
        return (3,) * players  # X1

    def setup_of(self, rules: Ruleset, players: int) -> object | None:
        return rules.option("short_fee")  # Setup.ext

    def final_scoring(self, s: GameState) -> GameState:
        fee = s.setup.ext
        assert isinstance(fee, int)
        players = tuple(p._replace(coins=p.coins[fee:]) for p in s.players)
        paid = tuple(c for p in s.players for c in p.coins[:fee])
        return evolve(s, players=players, discard=s.discard + paid)


@installed(_ShortHands())  # its table S and its option published to model/rules.py by ``install``
def test_an_expansion_with_its_own_setup_and_option_is_its_class_and_one_registry_line():
    r = ruleset("rio-grande", {"short": "true", "short_fee": "2"})
    assert r.expansion == "short" and r.option("short_fee") == 2
    assert list(r.options())[-4:] == ["isla", "max_sails", "short", "short_fee"]  # spelled as options
    assert ruleset("rio-grande", r.options()) == r and ruleset("rio-grande", {"short_fee": 1}) == ruleset()
    su, plain = setup(r, 4), setup(ruleset(), 4)
    assert su.hands == (3, 3, 3, 3) and su.ext == 2 and su.expansion == "short"
    assert dataclasses.replace(su, rules=plain.rules, hands=plain.hands, ext=None, expansion="") == plain
    with pytest.raises(RulesetError, match=r"option short_fee: 4 is not within 0-3 \(X2\)"):
        ruleset("rio-grande", {"short_fee": 4})
    with pytest.raises(RulesetError, match="one expansion at a time"):
        ruleset("rio-grande", {"short": True, "isla": True})
    start = new_game(r, 4, seed=5)
    assert [len(p.hand) for p in start.players] == [3, 3, 3, 3] and hooks(start.setup).name == "short"
    free = _play(new_game(ruleset("rio-grande", {"short": True, "short_fee": 0}), 4, seed=5), 5)
    end = _play(start, 5)
    assert end.turn == free.turn and scores(end) == tuple(max(c - 2, 0) for c in scores(free))  # X2


def test_steps_replaced_restores_and_rejects_unknown_names():
    before = dataclasses.replace(STEPS)
    with STEPS.replaced(fits=lambda f, b: False):
        assert not STEPS.fits(new_game("amigo", 3).players[0].fields[0], 0)
    assert STEPS == before
    with pytest.raises(KeyError, match="no step named harvst"):
        with STEPS.replaced(harvst=lambda s, p, i: s):
            pass
    assert STEPS == before


def test_steps_traced_records_every_end_of_turn_with_its_input_and_output():
    with STEPS.traced("end_turn") as log:
        end = _play(new_game("amigo", 3, seed=2), 2)
    assert STEPS.end_turn.__name__ == "_end_turn"  # the tracer is gone after the block
    turns = [args[0].turn for _, args, _ in log]
    assert turns == list(range(end.turn + 1))  # T7 once per turn, the last turn's included (E2)
    assert all(out.turn == args[0].turn + 1 or out.phase.name in ("CHANCE", "OVER") for _, args, out in log)


class _Tokens(Expansion):
    """A made-up expansion with its own part of the state: a token count per seat, kept in
    ``GameState.ext``, written to JSON under "tokens" and drawn by the hooks."""

    name = "tokens"
    codec = SlotCodec("tokens", "tokens", "X1", list, tuple, StateFormatError)

    def on_deal(self, s: GameState, cards) -> GameState:
        return evolve(s, ext=(0,) * len(s.players))

    def seat_text(self, s: GameState, i: int) -> str:
        return f" | tokens {s.ext[i]}"

    def table_text(self, s: GameState) -> list[str]:
        return [f"tokens in play: {sum(s.ext)}"]


class _TokensPicture(Picture):
    """Its part of the SVG picture, in the drawing layer (drawing/pictures.py)."""

    def svg_seat_height(self, s: GameState, i: int) -> int:
        return 20

    def svg_seat(self, c: Canvas, s: GameState, i: int, y: float) -> None:
        c.text(10, y + 12, f"tokens {s.ext[i]}", 9, "cap")


def test_an_expansion_owns_its_state_slot_its_json_and_its_drawing(monkeypatch):
    tokens = _Tokens()
    with installed(tokens):  # its hooks and the codec it publishes (``SLOT_CODECS``) ...
        assert SLOT_CODECS["tokens"] is tokens.codec
        _tokens_drawn(monkeypatch, tokens)
    assert "tokens" not in SLOT_CODECS and "tokens" not in EXPANSIONS  # ... for the block only


def _tokens_drawn(monkeypatch: pytest.MonkeyPatch, tokens: _Tokens) -> None:
    monkeypatch.setitem(PICTURES, "tokens", _TokensPicture())  # drawing/pictures.py: its picture's line
    plain = new_game("amigo", 3, seed=5)
    s = tokens.on_deal(plain._replace(setup=dataclasses.replace(plain.setup, expansion="tokens")), ())
    s = s._replace(ext=(1, 0, 2))
    assert state_to_json(s)["tokens"] == [1, 0, 2] and view(s, 0)["tokens"] == [1, 0, 2]
    assert "tokens" not in state_to_json(plain)
    text = str(s).splitlines()
    assert text[-4].endswith(" | tokens 1") and text[-1] == "tokens in play: 3"
    assert "tokens 2</text>" in svg(s) and "tokens" not in svg(plain)


@dataclasses.dataclass(frozen=True, slots=True)
class _Pay(ExpansionAction):
    """A made-up expansion action: ``p0 pay 2``."""

    player: int
    coins: int

    def __str__(self) -> str:
        return f"p{self.player} pay {self.coins}"


class _Payments(Expansion):
    """A made-up expansion with its own notation."""

    name = "payments"

    def notation(self, p: int, verb: str, args: list[str], text: str) -> Action | None:
        return _Pay(p, parse_number(args[0], text, "coin")) if verb == "pay" and len(args) == 1 else None


def test_an_expansion_reads_its_own_notation_before_the_base_verbs():
    with pytest.raises(NotationError, match="unknown action 'pay'"):
        parse_action("p0 pay 2")
    with installed(_Payments()):  # its notation published to ``model.actions.NOTATIONS``
        _pay_read()
    with pytest.raises(NotationError, match="unknown action 'pay'"):
        parse_action("p0 pay 2")


def _pay_read() -> None:
    assert parse_action("p0 pay 2") == _Pay(0, 2) and str(_Pay(0, 2)) == "p0 pay 2"
    assert parse_action("p0 plant 1") == Plant(0, 1)  # the base verbs are untouched
    with pytest.raises(NotationError, match="'x' is not a coin number"):
        parse_action("p0 pay x")
