"""A second referee for La Isla Bohnita records: the expansion's spec (proofs/isla/spec.py) judges them.

The Isla spec abstracts the base game (trading, turning up, phase changes: see its docstring), so it
cannot carry a whole game by itself as proofs/spec.py does for the base game. The reading chosen:
the engine's replay carries the state from line to line, and at every line the specs judge, on the
engine's state mapped to them (``proofs.isla.differential.to_spec_state``, ``proofs.bridge``), what
they model:

- an Isla move (I1, I4-I7), a harvest (H4-H5) and the third field (I1) are legal exactly when the
  Isla spec's guard holds, and its successor must equal the engine's on the expansion's part of
  the state (otherwise the spec names that line: the referees disagree);
- a planting must satisfy the Isla spec's abstract planting guard (H3, I5: land cards only) and
  reach the engine's fields (ships and coins, and the rest while its phase goes on); no other step
  is taken while an attack awaits its answer (I7); a reshuffle changes no one's coins (E1);
- every end of a turn (draw I3, row refill I2, E1 exhaustion) and the end of the game (E3), run by
  the Isla spec's internal steps from the engine's state, must reach the engine's next state; the
  end line's coins must be the spec's;
- a step of the base game (a planting, a deal, ending a phase, a duel's discard) must satisfy the
  base game's spec (proofs/spec.py) where Isla only narrows the base rules (I3: the active player
  offers turned-up cards only; I9: the duel does not trade), not where Isla's readings widen them
  (model/isla/state.py: face-up and received cards planted during phase 2; the duel's hand discard
  before or between the phase-1 plantings, I9).

What neither spec has a counterpart for (I3's and I9's narrowing, a reshuffle's order, the E4
tie-break) is read as the base referee reads bean annotations: the engine's verdict on those lines
stands for both. ``scripts/check_record.py --z3`` compares the two verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from model import GameState, IllegalAction, Phase, apply
from model.actions import (
    Accept,
    Action,
    BuyField,
    Decline,
    Discard,
    DiscardUp,
    EndPhase,
    Harvest,
    Plant,
    PlantAside,
    PlantUp,
    Propose,
    Reshuffle,
    format_action,
)
from model.isla.actions import Attack, BuyShip, HarvestOnto, MoveCargo, PlantCargo, Sail, Sell, Yield
from model.steps import STEPS
from proofs.bridge import NoSpecAction, action_to_spec, state_to_spec
from proofs.isla.differential import observable, to_spec_action, to_spec_state
from proofs.isla.spec import PLANT_LAND, IslaConfig, IslaSpec, IState
from proofs.kernel import CHANCE, ENDTURN, FINISH
from proofs.referee import SpecVerdict
from proofs.spec import Spec, SpecConfig
from records.game import Record, end_problems

JUDGED = (Sail, HarvestOnto, Sell, MoveCargo, Attack, Yield, BuyShip, PlantCargo, Harvest, BuyField)
PLANTS = (Plant, PlantAside, PlantUp)
END_KEYS = ("fields", "ships", "coins", "discard", "out", "phase")  # compared at the end of the game
# compared when the new turn went on at once (an empty hand: the engine turned up, T2, which the Isla
# spec leaves to the base game; the turn-up may take cards, match discards (D2) or exhaust the pile)
WENT_ON_KEYS = ("fields", "ships", "coins", "rows", "active")
BASE = (Propose, Accept, Decline, EndPhase, Discard, DiscardUp, Plant, PlantAside, PlantUp)
BASE_RULES = {"plant": "T1", "plant-aside": "T6", "plant-up": "T6, D2", "end-phase": "T5", "propose": "T3",
              "accept": "T3", "decline": "T3", "discard": "D2", "discard-up": "D2"}


@contextmanager
def _turn_ends(log: list[tuple[str, GameState, GameState]]) -> Iterator[None]:
    """The engine's ends of a turn and of the game while applying a line: (step, before, after)."""
    with STEPS.traced("end_turn", "finish") as steps:
        yield
    log += [(name, args[0], out) for name, args, out in steps]


def _diff(mine: dict[str, Any], theirs: dict[str, Any], keep: Any) -> str:
    bad = [k for k in sorted(set(mine) | set(theirs)) if keep(k) and mine.get(k) != theirs.get(k)]
    return "; ".join(f"{k}: engine {theirs.get(k)}, spec {mine.get(k)}" for k in bad)


def _boundary(spec: IslaSpec, kind: str, x: GameState, y: GameState) -> tuple[str, IState | None]:
    """The spec's end of a turn (T7, I2, I3, E1) or of the game (E3) from the engine's ``x``, against
    the engine's ``y``: (the differences, the spec's state). A new turn that went on at once (an
    empty hand turns up) is compared on what turning up leaves alone (``WENT_ON_KEYS``)."""
    start = to_spec_state(x, spec.cfg).replace(phase=ENDTURN if kind == "end_turn" else FINISH)
    ss = spec.settle(start)
    mine, theirs = observable(spec, ss), observable(spec, to_spec_state(y, spec.cfg))
    went_on = kind == "end_turn" and y.turn != x.turn and y.phase != Phase.PLANT
    if kind == "end_turn" and not went_on:
        resting = y.phase not in (Phase.CHANCE, Phase.OVER)
        return _diff(mine, theirs, lambda k: k != "to_move" or resting), ss
    keys = WENT_ON_KEYS if went_on else END_KEYS
    return _diff(mine, theirs, lambda k: k.split()[-1] in keys), ss


def isla_replay(rec: Record, mutant: str | None = None) -> SpecVerdict:
    """Replay the Isla record ``rec``; the first line the spec refuses, or whose result it does not
    reach (the reason says which rule). ``Unsupported`` for a ruleset the spec does not model;
    ``mutant`` breaks the spec on purpose (``proofs.isla.spec.MUTANTS``: the referees must disagree)."""
    s = rec.initial_state()
    spec = IslaSpec(IslaConfig.from_setup(s.setup), mutant)
    table = {t.kind: t for t in spec.transitions() if not t.internal}
    base = Spec(SpecConfig.from_setup(s.setup))
    base_table = {t.kind: t for t in base.transitions() if not t.internal}
    finish: IState | None = None
    for line, action in zip(rec.lines, rec.actions, strict=True):
        name = format_action(action)
        if s.phase == Phase.OVER:
            return SpecVerdict(line, name, "the game is over (spec, E3)")
        ss = to_spec_state(s, spec.cfg)
        if isinstance(action, Reshuffle) != (ss.phase == CHANCE):
            why = "a reshuffle is due" if ss.phase == CHANCE else "no reshuffle is due"
            return SpecVerdict(line, name, f"{why} (spec, E1)")
        log: list[tuple[str, GameState, GameState]] = []
        try:
            with _turn_ends(log):
                after: GameState | None = apply(s, action)
            refused = ""
        except IllegalAction as exc:
            after, refused = None, exc.reason
        why = _base(base, base_table, s, action)
        judged, why = (True, why) if why else _judge(spec, table, s, ss, action, after)
        if why:
            return SpecVerdict(line, name, why)
        if after is None:
            if judged:  # the spec allows what the engine refuses: it cannot follow the record further
                return SpecVerdict(None, name, f"the spec allows line {line}, which the engine refuses: "
                                               f"{refused}; the spec's replay stops there")
            return SpecVerdict(line, name, f"{refused} (the engine's verdict: the specs do not model it)")
        for kind, x, y in log:
            text, out = _boundary(spec, kind, x, y)
            if text:
                return SpecVerdict(line, name, f"the spec's {kind.replace('_', ' ')} reaches another "
                                               f"state: {text}")
            if kind == "finish":
                finish = out
        s = after
    if rec.end is not None:
        if s.phase != Phase.OVER or finish is None:
            reshuffle = s.phase == Phase.CHANCE
            return SpecVerdict(rec.end_line, "end", "the record ends where a reshuffle is due (spec, E1)"
                               if reshuffle else "the record claims an end but the game is not over (spec)")
        coins = [sum(int(c) for c in p.coins) for p in finish.players]
        if [int(c) for c in rec.end.get("coins", [])] != coins:
            return SpecVerdict(rec.end_line, "end", f"the spec's coins are {coins} (E3)")
        for why, rule in end_problems(rec, s):  # E4's tie-break: the engine's verdict
            return SpecVerdict(rec.end_line, "end", f"{why} [{rule}] (the engine's verdict: the specs "
                                                    "do not model it)")
    return SpecVerdict(None)


def _base(base: Spec, table: dict[int, Any], s: GameState, action: Action) -> str:
    """Why the base game's spec refuses this step of the base game ('' when it allows it, or the step
    is one Isla widens: a planting from the trade area or set-aside cards during phase 2, a discard
    in the Isla duel, I9)."""
    if not isinstance(action, BASE) or isinstance(action, Discard) and s.setup.duel:
        return ""
    if isinstance(action, (PlantAside, PlantUp)) and s.phase == Phase.TRADE:
        return ""
    try:
        sa = action_to_spec(s, action)
    except NoSpecAction as exc:
        return f"{exc} (base spec)"
    t = table[sa.kind]
    rule = "D1" if s.setup.duel and t.name in ("propose", "accept", "decline") else BASE_RULES[t.name]
    ss = state_to_spec(s)
    if base.decision(ss, sa) is not True or t.guard(ss, sa) is not True:
        return f"the base game's spec: its {t.name} guard does not hold ({rule})"
    return ""


def _plant_keys(s: GameState, after: GameState) -> Callable[[str], bool]:
    """What a planting's successor is compared on (as proofs/isla/differential.py does): all but who
    is to move while the phase goes on; fields, ships and coins when it ended a phase (the base
    game's steps follow, which the Isla spec abstracts); nothing when it ended the game (the end of
    the game is compared by itself)."""
    if after.phase == Phase.OVER:
        return lambda k: False
    if after.turn == s.turn and after.draw == s.draw and after.phase == s.phase:
        return lambda k: k != "to_move"
    return lambda k: k.split()[-1] in ("fields", "ships", "coins")


def _judge(spec: IslaSpec, table: dict[int, Any], s: GameState, ss: IState, action: Action,
           after: GameState | None) -> tuple[bool, str]:
    """(does the spec judge this line, why it refuses it or its result differs: '' when it does not)."""
    if isinstance(action, Reshuffle):  # E1: the discard pile becomes the draw pile; coins stay put
        if after is None or after.phase == Phase.OVER:  # the game ended on (E3: compared by itself)
            return False, ""
        mine, theirs = observable(spec, ss), observable(spec, to_spec_state(after, spec.cfg))
        text = _diff(mine, theirs, lambda k: k.endswith(" coins"))
        return True, f"a reshuffle changes coins (spec, E1): {text}" if text else ""
    if not isinstance(action, JUDGED + PLANTS):
        if spec.no_attack(ss) is not True:
            return True, "an attack awaits its answer: sell or yield first (spec, I7)"
        return False, ""
    try:
        sa = to_spec_action(s, action, spec.cfg, after)
    except IndexError:  # a planting from an empty hand, a face-up card or seat that does not exist
        return True, "the spec's plant guard does not hold: no such card (H3)"
    assert sa is not None
    t = table.get(sa.kind)
    if t is None:  # plant-cargo: a transition of the mutant only
        return True, f"the spec has no {format_action(action)!r} (I5: island beans are never planted)"
    if t.guard(ss, sa) is not True:
        return True, f"the spec's {t.name} guard does not hold ({t.rule})"
    if sa.kind == PLANT_LAND and after is None:  # the abstract guard: T1/T6/D2/I9 are the engine's
        return False, ""
    if after is None:
        return True, ""
    mine = observable(spec, spec.settle(t.after(ss, sa)))
    theirs = observable(spec, to_spec_state(after, spec.cfg))
    keep = _plant_keys(s, after) if sa.kind == PLANT_LAND else (lambda k: True)
    text = _diff(mine, theirs, keep)
    return True, f"the spec's {t.name} ({t.rule}) reaches another state: {text}" if text else ""
