"""The proof kernel: what the base spec (proofs/spec.py) and La Isla Bohnita's (proofs/isla/spec.py)
share: bean ids, field slots, phase numbers, the beanometer (C1), field fit (H2-H3) and harvest
protection (H4) as hybrid terms (proofs/symbolic.py: Python values for a concrete state, Z3 terms for
a symbolic one), the transition record, the spec's own error and the loop that runs internal steps.

It restates rules from RULES.md and reads only the card tables and ``model.state.Phase`` (the engine's
public phase numbers, part of the state JSON); it never imports model/engine.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from model.cards import BEAN_NAMES, COUNTS
from model.state import Phase
from proofs.symbolic import Cond, Val, all_of, any_of, implies, ite, select

NB = len(COUNTS)  # bean ids 0..11
NEVER = 100  # a beanometer threshold for "no such value" (more cards than any field can hold)
NF = 3  # field slots (the third field is the maximum, F1)
FIELD_BEAN = 11  # V5: harvesting two field beans gives a third field

# Decision phases: the engine's public numbers (model.state.Phase, part of the state JSON).
PLANT, TRADE, PLANT_ASIDE = int(Phase.PLANT), int(Phase.TRADE), int(Phase.PLANT_ASIDE)
CHANCE, OVER = int(Phase.CHANCE), int(Phase.OVER)
OFFER, DISCARD, TURNED = int(Phase.OFFER), int(Phase.DISCARD), int(Phase.TURNED)
DECISION_PHASES = (PLANT, TRADE, PLANT_ASIDE, OFFER, DISCARD, TURNED)
# Internal phases: the specs' own numbers. Phase 4 (drawing, T7) keeps the rules' number; the engine
# never rests in it, so model.state.Phase has no member for it.
DRAW = 4
TURNUP, MATCH, START, ENDTURN, FINISH, ASIDE_NEXT, REFILL = 10, 11, 12, 13, 14, 15, 16


def decision_phase(phase: Val) -> Cond:
    """The game waits for a player's choice (a chance node and the end are not decisions)."""
    return any_of(*[phase == ph for ph in DECISION_PHASES])


def is_bean(beans: Iterable[int], x: Val) -> Cond:
    """``x`` is one of the beans in play (C2, S: the ruleset's bean set)."""
    return any_of(*[x == b for b in beans])


# ------------------------------------------------------------------ the beanometer and fields (C1, H2-H4)


def coins_for(meters: Sequence[Sequence[int | None]], b: Val, n: Val, beans: Sequence[int] | None = None,
              late_first: bool = False) -> Val:
    """C1: the largest coin value whose threshold ``n`` cards of bean ``b`` reach (0 if none).

    ``meters`` is indexed by bean id. With ``beans`` None the threshold is chosen among every bean id
    (proofs/spec.py: a bean not in play still has its printed meter); with ``beans`` given, among
    those only (proofs/isla/spec.py: any other bean pays nothing, and the term is smaller). Each spec
    keeps the term it had before the kernel existed, so its proofs meet the same queries.
    ``late_first``: the mutant beanometer-off-by-one (the first coin needs one card more)."""
    out: Val = 0
    for value in (1, 2, 3, 4):
        need: Val
        if beans is None:
            need = select([m[value - 1] if m[value - 1] is not None else NEVER for m in meters], b, NEVER)
        else:
            need = NEVER
            for bj in beans:
                m = meters[bj][value - 1]
                need = ite(b == bj, m if m is not None else NEVER, need)
        if late_first and value == 1:
            need = need + 1
        out = ite(n >= need, value, out)
    return out


def field_bean_grant(b: Val, n: Val) -> Cond:
    """V5: a harvest of exactly two field beans pays no coin and gives a third field."""
    return all_of(b == FIELD_BEAN, n == 2)


class Fields(Protocol):
    """A player's fields: bean (-1 when empty) and count per slot (NF slots), ``nf`` of them owned."""

    @property
    def fb(self) -> tuple[Val, ...]: ...
    @property
    def fc(self) -> tuple[Val, ...]: ...
    @property
    def nf(self) -> Val: ...


def field_fits(pl: Fields, f: Val, b: Val) -> Cond:
    """H3: field ``f`` is owned and empty, or holds the card's type (H2)."""
    if isinstance(f, int) and not 0 <= f < NF:
        return False
    return all_of(f >= 0, f < pl.nf, any_of(select(list(pl.fc), f, 0) == 0, select(list(pl.fb), f, -1) == b))


def harvestable(pl: Fields, f: Val, strict: bool, protect: bool = True) -> Cond:
    """H4: an owned field with cards; a one-card field is protected while another field holds more
    (lenient reading) / unless every field holds exactly one (``strict``). ``protect`` False: the
    mutant harvest-protected-single (no protection)."""
    if isinstance(f, int) and not 0 <= f < NF:
        return False
    c = select(list(pl.fc), f, 0)
    if not protect:
        singles: Cond = True
    elif strict:
        singles = all_of(*[implies(g < pl.nf, pl.fc[g] == 1) for g in range(NF)])
    else:
        singles = all_of(*[implies(g < pl.nf, pl.fc[g] <= 1) for g in range(NF)])
    return all_of(f >= 0, f < pl.nf, c >= 1, any_of(c >= 2, singles))


def bean_name(b: int) -> str:
    """A bean id by name, for counterexamples (``?id`` for no bean)."""
    return BEAN_NAMES[b] if 0 <= b < NB else f"?{b}"


def fields_text(pl: Fields, ev: Callable[[Val], int]) -> str:
    """A player's owned fields in a model, e.g. ``2 red, empty``."""
    return ", ".join(f"{ev(pl.fc[f])} {bean_name(ev(pl.fb[f]))}" if ev(pl.fc[f]) else "empty"
                     for f in range(min(max(ev(pl.nf), 0), NF)))


# ------------------------------------------------------------------ transitions and internal steps

S = TypeVar("S")
A = TypeVar("A")


class SpecError(RuntimeError):
    """The spec itself is stuck or ambiguous: a bug in the spec, not in a game. Not a
    ``model.errors.BohnanzaError``: those are a user's mistakes, and a script reports this one as a
    bug."""


@dataclass(frozen=True)
class Transition(Generic[S, A]):
    """One step of a spec: ``guard(S, A)`` says when it may be taken, ``after(S, A)`` what follows.
    ``internal`` steps fire by themselves (no player decides); ``per_field``: an internal step of
    proofs/spec.py taken once per (seat, field); ``rule``: the RULES.md ID it restates, if named."""

    kind: int
    name: str
    guard: Callable[[S, A], Cond]
    after: Callable[[S, A], S]
    internal: bool = False
    per_field: bool = False
    rule: str = ""


class Phased(Protocol):
    @property
    def phase(self) -> Val: ...


P = TypeVar("P", bound=Phased)


def settle(s: P, steps: Sequence[tuple[Transition[P, A], A]], internal: Iterable[int], limit: int,
           any_order: Iterable[int] = ()) -> P:
    """Run the internal ``steps`` (concrete state) until a decision point, a chance node or the end:
    exactly one step is enabled in an internal phase; in the ``any_order`` phases several may be,
    and the first in table order is taken (La Isla Bohnita's end of the game: fields and ships sold
    in any order give the same tallies). SpecError when stuck, ambiguous or not done in ``limit``."""
    internal, any_order = set(internal), set(any_order)
    for _ in range(limit):
        if s.phase not in internal:
            return s
        enabled = [(t, a) for t, a in steps if t.guard(s, a) is True]
        if not enabled or (len(enabled) > 1 and s.phase not in any_order):
            names = ", ".join(t.name for t, _ in enabled) or "none"
            raise SpecError(f"phase {s.phase}: {len(enabled)} internal steps enabled ({names})")
        t, a = enabled[0]
        s = t.after(s, a)
    raise SpecError("internal steps did not reach a decision point")


def step_table(transitions: Iterable[Transition[S, A]],
               args: Callable[[Transition[S, A]], Iterable[A]]) -> list[tuple[Transition[S, A], A]]:
    """Every internal transition with each argument it is taken with."""
    return [(t, a) for t in transitions if t.internal for a in args(t)]
