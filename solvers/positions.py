"""Endgame positions: read from JSON (checked against the rules), or cut from seeded bot games.

A position is an engine state at a decision point. Open objectives need the final pass: the draw
pile now in play is the last one (no reshuffle ahead, E2), so its order is the whole future.
La Isla Bohnita positions (I1-I9) are read, validated, cut and built in like the base game's
(``ISLA_LIBRARY``, solvers/isla/positions.py); the solvers refuse them at their edge
(``solvers.contract.base_game_only``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from model import GameState, Phase, new_game, ruleset
from model.validate import check_state
from play.bots import greedy_bot
from play.playout import playout
from schemas.position_io import PositionInputError as PositionInputError  # one class: the model's
from schemas.position_io import read_json, state_of
from solvers.isla.positions import library as isla_library


def in_final_pass(s: GameState) -> bool:
    """No reshuffle ahead: the pile in play is exhausted for the last time (E2), or already was."""
    return s.final or s.phase == Phase.OVER or s.exhaustions >= s.setup.final_exhaustion - 1


def read_position(source: str) -> GameState:
    """A position from a JSON file (``-``: stdin), checked against the rules."""
    return position_from_json(read_json(source), "stdin" if source == "-" else source)


def position_from_json(obj: Any, where: str = "position") -> GameState:
    """A decision point checked against the rules: the base game's (H, T, E, F, D) and, with
    ``options.isla``, La Isla Bohnita's ships, rows and attack (I1-I9, ``model/isla/position.py``)."""
    s = state_of(obj, where, fixtures=False)
    if s.phase in (Phase.OVER, Phase.CHANCE):
        raise PositionInputError(f"{where}: phase: the position must be a decision point, not "
                                 f"{s.phase.name.lower()}")
    return s


def game_label(name: str, players: int, seed: int, options: dict[str, Any] | None = None) -> str:
    """A seeded game named in messages: ``rio-grande isla=true 4p seed 7``."""
    opts = "".join(f" {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in (options or {}).items())
    return f"{name}{opts} {players}p seed {seed}"


def cut(name: str, players: int, seed: int, cards_left: int,
        options: dict[str, Any] | None = None) -> GameState:
    """The first turn start in the final pass with at most ``cards_left`` cards in the draw pile,
    in a game of greedy bots from ``new_game(.., seed)`` (reproducible from the seed); ``options``
    as ``model.ruleset`` takes them (``{"isla": True}``: La Isla Bohnita, the greedy bots sail)."""
    rules = ruleset(name, options or {})
    turn = -1
    for s, _ in playout(new_game(rules, players, seed), greedy_bot, random.Random(seed)):
        if s.phase in (Phase.CHANCE, Phase.OVER):
            continue
        if s.turn != turn:
            turn = s.turn
            if in_final_pass(s) and not s.final and len(s.draw) <= cards_left:
                return s
    raise PositionInputError(f"{game_label(name, players, seed, options)}: the game ended before a turn "
                             f"started with at most {cards_left} cards left")


def game_seeds(seed: int) -> Iterator[int]:
    """Game seeds drawn one per try, ``random.Random(seed).randrange(10**6)``: the stream the
    benchmarks cut their positions from."""
    rng = random.Random(seed)
    while True:
        yield rng.randrange(10**6)


MAX_SKIPS = 100  # ``sample_cuts``: seeds in a row whose games end too early before it gives up


def sample_cuts(seeds: Iterable[int], players: int, cards_left: int, count: int | None = None,
                rulesets: Sequence[str] = ("rio-grande", "amigo"), hand: int | None = None,
                draw: int = 99, max_skips: int = MAX_SKIPS) -> Iterator[GameState]:
    """``count`` positions (None: as many as ``seeds`` gives) cut from games of ``players`` at
    ``cards_left`` cards (``cut``), one seed per try; the k-th position comes from
    ``rulesets[k % len(rulesets)]``. A seed whose game ends too early is skipped (the next seed
    tries the same ruleset), at most ``max_skips`` in a row: then PositionInputError, one line.
    ``hand``: each position made ``small(s, hand, draw)``."""
    made = skipped = 0
    it = iter(seeds)
    while count is None or made < count:  # no seed drawn after the last position
        seed = next(it, None)
        if seed is None:
            return
        name = rulesets[made % len(rulesets)]
        try:
            s = cut(name, players, seed, cards_left)
        except PositionInputError:
            skipped += 1
            if skipped > max_skips:
                raise PositionInputError(
                    f"{name} {players}p: {skipped} games in a row ended before a turn started with at most "
                    f"{cards_left} cards left (the last seed {seed}): no position to cut") from None
            continue
        made += 1
        skipped = 0
        yield s if hand is None else small(s, hand, draw)


@dataclass(frozen=True)
class Entry:
    name: str
    about: str
    ruleset: str
    players: int
    seed: int
    cards_left: int
    hand: int | None = None  # small(): hands cut to this many cards
    draw: int | None = None  # small(): draw pile cut to this many cards
    state: str | None = None  # a hand-made position (state JSON) instead of a cut
    options: tuple[tuple[str, Any], ...] = ()  # ruleset options of the cut game (an expansion: its switch)

    def position(self) -> GameState:
        return _library_position(self)

    @property
    def expansion(self) -> str:
        """The expansion its game plays (``Setup.expansion``, "" none): its own solvers answer it."""
        return ruleset(self.ruleset, dict(self.options)).expansion


@cache
def _library_position(e: Entry) -> GameState:
    if e.state is not None:
        return position_from_json(json.loads(e.state), e.name)
    s = cut(e.ruleset, e.players, e.seed, e.cards_left, dict(e.options))  # immutable: safe to share
    if e.hand is not None or e.draw is not None:
        s = small(s, e.hand if e.hand is not None else 99, e.draw if e.draw is not None else 99)
    return s


# Names say what a position holds: players and cards left in the draw pile (``rio4-8cards``), or
# the part of the game (``rio4-last-turn``, ``rio4-final-pass``); ``cards_left`` is only the cut's
# threshold (``tests/test_position_names.py`` checks the names against the positions).
LIBRARY: dict[str, Entry] = {e.name: e for e in [
    Entry("rio3-6cards", "rio-grande, 3 players", "rio-grande", 3, 11, 6),
    Entry("rio3-9cards", "rio-grande, 3 players", "rio-grande", 3, 12, 12),
    Entry("rio4-8cards", "rio-grande, 4 players", "rio-grande", 4, 13, 10),
    Entry("rio4-18cards", "rio-grande, 4 players", "rio-grande", 4, 14, 20),
    Entry("rio5-15cards", "rio-grande, 5 players", "rio-grande", 5, 15, 15),
    Entry("amigo3-5cards", "amigo, 3 players (three fields)", "amigo", 3, 21, 8),
    Entry("amigo4-6cards", "amigo, 4 players", "amigo", 4, 22, 10),
    Entry("amigo5-12cards", "amigo, 5 players", "amigo", 5, 23, 20),
    Entry("duel-4cards", "the bean duel", "rio-grande", 2, 31, 8),
    Entry("duel-9cards", "the bean duel", "rio-grande", 2, 32, 12),
    Entry("rio4-final-pass", "rio-grande, 4 players, the first turn of the final pass", "rio-grande", 4, 16,
          40),
    # the default: real hands (14-20 cards), the last turn; deals add 20 coins to the table and
    # 8 to the active player's best, both proved by the flow solver in about a second
    Entry("rio4-last-turn", "rio-grande, 4 players, real hands, the last turn: deals pay",
          "rio-grande", 4, 103, 6),
    # small positions (hands of one card, the last turn) where deals pay: exact search solves
    # coop and best here in about a second
    Entry("trade-gift", "amigo, 3 players, last turn: a gift and two deals earn the active player a coin",
          "amigo", 3, 106, 8, hand=1, draw=5),
    Entry("trade-ask", "rio-grande, 3 players, last turn: asking for one card earns a coin",
          "rio-grande", 3, 100, 8, hand=1, draw=5),
    Entry("trade-answer", "amigo, 3 players, last turn: a deal that helps the asker",
          "amigo", 3, 107, 8, hand=1, draw=5),
    # the trade graph's built-in position (scripts/trade_graph.py): hands of three cards, 228 deals
    Entry("trade-map", "rio-grande, 4 players, hands of 3: many deals, three partners worth trading with",
          "rio-grande", 4, 209, 8, hand=3, draw=5),
]}



def _hand_made(p0: dict[str, Any], p1: dict[str, Any], draw: list[str]) -> str:
    """rio-grande, 4 players, the last turn (2 exhaustions of 3): p0 to plant; the draw pile
    holds just the two cards to turn up, so the game ends after this turn's phase 3 (E2)."""
    idle = {"hand": [], "fields": [None, None], "coins": [], "aside": []}
    return json.dumps({
        "format": "bohnanza-state", "version": 1, "ruleset": "rio-grande", "options": {},
        "players": [p0, p1, idle, idle], "draw": draw, "discard": ["garden"], "face_up": [], "out": [],
        "active": 0, "phase": "plant", "to_move": 0, "planted": 0, "first_field": -1, "offers": 0,
        "pending": None, "exhaustions": 2, "final": False, "todo": [], "resume": 0, "turn": 40})


def _seat(hand: list[str], fields: list[Any], coins: int = 0) -> dict[str, Any]:
    return {"hand": hand, "fields": fields, "coins": ["wax"] * coins, "aside": []}


_EMPTY = _seat([], [None, None])

for _e in [
    Entry("forced-harvest", "hand-made: the front card fits no field, so a field must go (T1, H3)",
          "rio-grande", 4, 0, 2,
          state=_hand_made(_seat(["blue"], [["red", 3], ["soy", 2]]), _EMPTY, ["wax", "wax"])),
    Entry("protected-single", "hand-made: a one-bean field is protected, the five blues must go (H4)",
          "rio-grande", 4, 0, 2,
          state=_hand_made(_seat(["soy", "soy"], [["chili", 1], ["blue", 5]]), _EMPTY, ["blue", "blue"])),
    Entry("six-reds", "hand-made: six reds pay at most 4 coins however they are harvested (C1)",
          "rio-grande", 4, 0, 2,
          state=_hand_made(_seat(["red"], [["red", 3], ["soy", 3]], coins=2), _EMPTY, ["red", "red"])),
    Entry("split-gardens", "hand-made: four gardens pay more as two harvests of two than as one (C1)",
          "rio-grande", 4, 0, 2,
          state=_hand_made(_seat(["chili", "red"], [["chili", 2], ["garden", 2]]), _EMPTY,
                           ["garden", "garden"])),
    Entry("deal-helps-both", "hand-made: giving the turned-up cards for a chili helps both (T3-T5)",
          "rio-grande", 4, 0, 2,
          state=_hand_made(_seat(["stink"], [["chili", 2], ["stink", 2]]),
                           _seat(["chili"], [["soy", 3], ["red", 2]]), ["soy", "red"])),
]:
    LIBRARY[_e.name] = _e

DEFAULT = "rio4-last-turn"

# Every expansion's built-in positions, one line each: a function of ``Entry`` giving its entries by
# name, apart from ``LIBRARY`` (the solvers take every position there, not these).
EXPANSION_LIBRARIES: dict[str, dict[str, Entry]] = {
    "isla": isla_library(Entry),  # La Isla Bohnita (I1-I9), solvers/isla/positions.py
}
ISLA_LIBRARY: dict[str, Entry] = EXPANSION_LIBRARIES["isla"]  # the name the Isla tests import

BUILTINS: dict[str, Entry] = LIBRARY | {  # every name a front end takes
    name: e for lib in EXPANSION_LIBRARIES.values() for name, e in lib.items()}


def unknown_position(name: str) -> str:
    """The one-line message for a name that is neither a file nor a built-in position."""
    return f"{name}: no such file or built-in position; the built-in positions are {', '.join(BUILTINS)}"


def small(s: GameState, hand: int = 2, draw: int = 5) -> GameState:
    """A small variant of ``s`` for exact search and cross-checks: each hand cut to its first
    ``hand`` cards and the draw pile to its top ``draw`` cards (the rest leave the game; the
    position stays legal, with fewer cards than the catalog)."""
    players = tuple(p._replace(hand=p.hand[:hand]) for p in s.players)
    out = s._replace(players=players, draw=s.draw[:draw])
    check_state(out)
    return out
