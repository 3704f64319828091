"""Helpers that build test positions for the rule tests (tests/test_rules_*.py).

Two ways to get a position:
- ``stacked_game``: a real ``new_game`` whose deck is stacked so that the hands and the top of the
  draw pile are what the test names (dealing is one card at a time in seat order, S2);
- ``position``: a new game edited with ``_replace`` (players, piles, phase, active seat ...), for
  positions deep in a game that would take many moves to reach.

Nothing here knows a rule beyond the dealing order of S2; the tests state the rules themselves.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

import model
from model import EMPTY, Bean, Field, GameState, IllegalAction, Phase, PlayerState
from model.validate import check_state
from schemas.state_json import state_from_json

B = Bean  # short alias for card lists in tests
ROOT = Path(__file__).resolve().parent.parent

# Names of files a clone does not have (the workspace's rules and design texts, issue 43): no page,
# published schema or ``--help`` text may cite them (tests/test_docs.py, tests/test_sigint.py).
OUTSIDE = re.compile(r"\.\./shared|DESIGN\.md|RULES\.md|shared folder")


def rules(name: str = "rio-grande", **options: Any) -> model.Ruleset:
    """The preset ``name`` with ``options`` (Ruleset field names) applied."""
    return model.ruleset(name, options)


def stack_deck(
    ruleset: model.Ruleset | str,
    players: int,
    hands: Sequence[Sequence[int]] = (),
    draw: Sequence[int] = (),
) -> list[int]:
    """A full deck (top first) that deals ``hands[seat]`` to each seat and then has ``draw`` on top.

    Seats not named (or named with fewer cards than the setup deals) get filler cards. The filler
    and the rest of the draw pile are the remaining cards, in catalog order.
    """
    r = model.ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    su = model.setup(r, players)
    left = Counter(su.deck)
    want = [list(map(int, hands[s])) if s < len(hands) else [] for s in range(players)]
    for h, n in zip(want, su.hands, strict=True):
        assert len(h) <= n, f"a hand of {len(h)} cards, but the setup deals {n}"
    named = [c for h in want for c in h] + list(map(int, draw))
    need = Counter(named)
    for card, k in need.items():
        assert left[card] >= k, f"the deck has only {left[card]} {Bean(card).id}"
    left.subtract(need)
    filler = [c for c in sorted(left.elements())]
    full_hands = []
    for h, n in zip(want, su.hands, strict=True):
        h = list(h)
        while len(h) < n:
            h.append(filler.pop())
        full_hands.append(h)
    deck: list[int] = []
    for r_ in range(max(su.hands)):  # S2: one card at a time, in seat order
        for seat in range(players):
            if r_ < su.hands[seat]:
                deck.append(full_hands[seat][r_])
    deck += list(map(int, draw)) + filler
    assert sorted(deck) == sorted(su.deck)
    return deck


def stacked_game(
    ruleset: model.Ruleset | str = "rio-grande",
    players: int = 4,
    hands: Sequence[Sequence[int]] = (),
    draw: Sequence[int] = (),
) -> GameState:
    """``new_game`` with a deck stacked by ``stack_deck``."""
    return model.new_game(ruleset, players, deck=stack_deck(ruleset, players, hands, draw))


def fields(*specs: tuple[int, int] | None) -> tuple[Field, ...]:
    """``fields((B.RED, 2), None)`` -> (Field(red, 2), EMPTY)."""
    return tuple(EMPTY if sp is None or sp[1] == 0 else Field(int(sp[0]), sp[1]) for sp in specs)


def player(
    hand: Iterable[int] = (),
    fields_: tuple[Field, ...] | None = None,
    coins: Iterable[int] = (),
    aside: Iterable[int] = (),
    n_fields: int = 2,
) -> PlayerState:
    return PlayerState(
        tuple(map(int, hand)),
        fields_ if fields_ is not None else (EMPTY,) * n_fields,
        tuple(map(int, coins)),
        tuple(sorted(map(int, aside))),
    )


def position(
    ruleset: model.Ruleset | str = "rio-grande",
    players: int = 4,
    **changes: Any,
) -> GameState:
    """A new game (seed 0) with ``changes`` applied by ``_replace``.

    ``players`` may also be passed in ``changes`` as a tuple of PlayerState (it then replaces the
    dealt players; its length must equal the player count). Bean lists are converted to ints.
    ``to_move`` defaults to ``active``.
    """
    s = model.new_game(ruleset, players, seed=0)
    for key in ("draw", "discard", "out"):
        if key in changes:
            changes[key] = tuple(map(int, changes[key]))
    if "face_up" in changes:
        changes["face_up"] = tuple(sorted(map(int, changes["face_up"])))
    if "seats" in changes:
        seats = changes.pop("seats")
        assert len(seats) == players
        changes["players"] = tuple(seats)
    if "phase" in changes:
        changes["phase"] = Phase(changes["phase"])
    if "active" in changes and "to_move" not in changes:
        changes["to_move"] = changes["active"]
    return s._replace(**changes)


def play(s: GameState, *actions: model.Action) -> GameState:
    """Apply the actions in order, with every check on."""
    for a in actions:
        s = model.apply(s, a)
    return s


def reshuffle_in_order(s: GameState) -> GameState:
    """Resolve a chance node with the discard pile, as it lies, as the new draw pile (bottom card on top)."""
    assert s.phase == Phase.CHANCE
    return model.apply(s, model.Reshuffle(tuple(s.discard)))


def illegal(
    s: GameState, action: model.Action, rule: str, who: int | None = None, names_player: bool = True
) -> IllegalAction:
    """Assert that ``action`` is illegal in ``s`` for ``rule`` and that the message names ``who``.

    ``who`` defaults to the acting player; ``names_player=False`` skips the message check (used where
    another test already checks that message). Returns the exception for further checks.
    """
    with pytest.raises(IllegalAction) as info:
        model.apply(s, action)
    err = info.value
    assert err.rule == rule, f"expected rule {rule}, got {err.rule}: {err}"
    if who is None:
        who = getattr(action, "player", None)
    if who is not None and names_player:
        assert re.search(rf"\bp{who}\b", str(err)), f"the message does not name p{who}: {err}"
    return err


def state_unchanged_by_error(s: GameState, action: model.Action) -> None:
    """An illegal action raises and leaves ``s`` as it was (states are values)."""
    before = s
    with pytest.raises(IllegalAction):
        model.apply(s, action)
    assert s == before


def total_cards(s: GameState) -> int:
    """Every card in the state: hands, fields, coins, set-aside areas, piles and the out pile."""
    n = len(s.draw) + len(s.discard) + len(s.face_up) + len(s.out)
    for p in s.players:
        n += len(p.hand) + sum(f.count for f in p.fields) + len(p.coins) + len(p.aside)
    return n


def plays_of(s: GameState, kind: type) -> list[Any]:
    return [a for a in model.legal_actions(s) if isinstance(a, kind)]


def run_to_end(s: GameState, limit: int = 20000) -> GameState:
    """Play ``step`` moves (no trades) until the game is over."""
    for _ in range(limit):
        if s.is_over:
            return s
        s = step(s)
    raise AssertionError("the game did not end")


def step(s: GameState) -> GameState:
    """One plain move: plant where possible (harvesting only when nothing fits), end phases at once,
    never trade, discard nothing in the duel; chance nodes get a seeded shuffle."""
    import random

    if s.phase == Phase.CHANCE:
        return model.apply(s, model.chance_outcome(s, random.Random(s.turn)))
    if s.phase == Phase.TRADE and s.pending is None:
        return model.apply(s, model.EndPhase(s.active))
    acts = model.legal_actions(s)
    ends = [a for a in acts if isinstance(a, model.EndPhase)]
    if ends and (s.phase != Phase.PLANT and s.phase != Phase.OFFER):
        return model.apply(s, ends[0])
    if ends and s.phase == Phase.PLANT:
        return model.apply(s, ends[0])
    for kind in (model.Plant, model.PlantAside, model.PlantUp, model.DiscardUp, model.Harvest):
        for a in acts:
            if isinstance(a, kind):
                return model.apply(s, a)
    raise AssertionError(f"no move in\n{s}")


def pass_turn(s: GameState) -> GameState:
    """Play ``step`` until the active seat changes or the game ends."""
    a, t = s.active, s.turn
    for _ in range(200):
        if s.is_over or s.turn != t:
            return s
        s = step(s)
    raise AssertionError(f"turn of p{a} did not end")


def run_script(script: str | Path, *args: str | Path, stdin: str = "", cwd: Path | None = None,
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``scripts/SCRIPT`` (a name or a path) with ``args``, run in this process through its
    ``main()`` and reported as ``subprocess.run(..., capture_output=True, text=True)`` would: the
    exit code, stdout and stderr. A process of its own costs 0.3-1 s of start-up and imports a
    run; the tests that check what a script prints and returns run it here, those that check a
    process (Ctrl-C, worker pools, ``--help`` of every script: tests/test_sigint.py) start one.
    ``sys.argv``, the standard streams (not terminals, as under ``capture_output``), the working
    directory (default: the repository) and ``env`` (added to the environment) are restored after."""
    path = Path(script) if Path(script).is_absolute() else ROOT / "scripts" / Path(script).name
    argv = [str(path), *map(str, args)]
    out, err = io.TextIOWrapper(io.BytesIO(), "utf-8"), io.TextIOWrapper(io.BytesIO(), "utf-8")
    saved = (sys.argv, sys.stdin, sys.stdout, sys.stderr, os.getcwd(), dict(os.environ),
             sys.unraisablehook)
    sys.argv, sys.stdin, sys.stdout, sys.stderr = argv, io.StringIO(stdin), out, err
    os.chdir(cwd or ROOT)
    os.environ.update(env or {})
    try:
        code = _exit_code(lambda: load_script(path.stem).main())
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.argv, sys.stdin, sys.stdout, sys.stderr, cwd_was, env_was, sys.unraisablehook = saved
        os.chdir(cwd_was)
        os.environ.clear()
        os.environ.update(env_was)
    return subprocess.CompletedProcess(argv, code, _text(out), _text(err))


def _exit_code(main: Callable[[], int | None]) -> int:
    """What the interpreter would exit with: ``main()``'s code, a SystemExit's (a text is printed
    on stderr, code 1), or 1 and the traceback on stderr for an exception ``main`` let through."""
    try:
        return main() or 0
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)
        return 1
    except Exception:
        traceback.print_exc()
        return 1


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    raw = stream.buffer
    assert isinstance(raw, io.BytesIO)
    return raw.getvalue().decode("utf-8")


def load_script(name: str) -> Any:
    """A script of scripts/ as a module (scripts are not a package)."""
    import importlib.util

    path = ROOT / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------- La Isla Bohnita positions (I1-I9)
# rio-grande with 4 players and La Isla Bohnita: coffee, wax, blue, chili, stink, green, soy (I2).
# Beanometer: coffee 4 cards 1 coin; green 3:1 5:2 6:3 7:4 (8 still 4); soy 2:1 4:2 6:3.


def isla_ship(bean: str | None = None, count: int = 0, at: str = "home") -> dict[str, Any]:
    return {"bean": bean, "count": count, "at": at}


def isla_seat(hand: list[str], fields: list[Any]) -> dict[str, Any]:
    return {"hand": hand, "fields": fields, "coins": [], "aside": []}


def isla_fleet(merchants: list[dict[str, Any]], pirate: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"merchants": merchants, "pirate": pirate}


IDLE = isla_seat([], [None, None])
P0 = isla_seat(["coffee"], [["coffee", 3], None])  # plants its coffee: 4 coffee, 1 coin at the end
NO_SHIP = isla_fleet([isla_ship()])


def isla_state(players: list[dict[str, Any]], fleets: list[dict[str, Any]], rows: tuple[list[str], list[str]],
               draw: list[str], active: int = 0, sails: int = 6) -> GameState:
    """rio-grande, 4 players, the final pass (2 exhaustions of 3), ``active`` to plant, no coins."""
    s = state_from_json({
        "format": "bohnanza-state", "version": 1, "ruleset": "rio-grande",
        "options": {"isla": True, "max_sails": sails}, "players": players, "draw": draw,
        "discard": ["blue"], "face_up": [], "out": [], "active": active, "phase": "plant", "to_move": active,
        "planted": 0, "first_field": -1, "offers": 0, "pending": None, "exhaustions": 2, "final": False,
        "todo": [], "resume": 0, "turn": 40,
        "isla": {"fleets": fleets, "rows": {"bohnbay": rows[0], "bohnaco": rows[1]}, "attacked": [],
                 "attack": None, "captured": False, "sails": 0, "discarded": False}})
    check_state(s)
    return s
