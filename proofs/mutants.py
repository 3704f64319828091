"""Mutants: deliberate, named, reversible rule breakages, and the checks that must catch them.

Each mutant replaces steps of ``model.steps.STEPS`` for as long as ``activate(id)`` is open (the
engine's code is never edited; a patch wraps or replaces one named step, so it breaks that rule
wherever the engine or an expansion uses it) and, where the spec has a counterpart, names the
same breakage in ``proofs.spec.Spec(cfg, mutant)``. A mutant is caught when

- its spec side is refuted by a proof (``proofs.invariants.prove``, the transitions it breaks
  first) or disagrees with the clean engine on sampled states, and
- its engine side disagrees with the clean spec on sampled states or on the states before each
  exhaustion and each game's end (``proofs.differential``), or makes the test suite fail (run in a
  subprocess with ``BOHNANZA_MUTANT=<id>``, which tests/conftest.py activates before any test
  module is imported).
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import model.engine as engine
from console.cli import ignore_interrupts
from model.actions import Accept, Offers, Plant, Reshuffle
from model.core import evolve
from model.dealing import Resume
from model.state import Field, GameState, Phase, PlayerState
from model.steps import STEPS
from proofs import invariants  # invariants.prove looked up at the call (tests patch it)
from proofs.differential import check_state, end_states, sample_states

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutant:
    id: str
    rule: str
    what: str
    patch: Callable[[], dict[str, Any]]  # the steps to replace: name -> new value
    spec: bool = True  # the spec has the same breakage under the same id
    tests: tuple[str, ...] = ("tests/test_rules_H.py", "tests/test_rules_T.py", "tests/test_rules_E.py",
                              "tests/test_rules_C.py", "tests/test_rules_F.py", "tests/test_rules_D.py")
    options: dict[str, Any] = field(default_factory=dict)  # the ruleset options it breaks a rule under
    steps: tuple[str, ...] = ()  # the spec's transitions it breaks: proved first (``judge``)
    at_end: bool = False  # the engine-vs-spec check on ``end_states`` before the sampled states

    def configs(self) -> list[tuple[str, int, dict[str, Any]]]:
        """The proof configurations, those with the mutant's ``options`` first: the proofs stop at
        the first refutation, and one under other options is never found there."""
        mine = [c for c in invariants.PROOF_CONFIGS if self.options.items() <= c[2].items()]
        return mine + [c for c in invariants.PROOF_CONFIGS if c not in mine]


# ------------------------------------------------------------------ the engine patches


Handler = Callable[..., GameState]


def _handler(kind: type, wrap: Callable[[Handler], Handler]) -> dict[str, Any]:
    handlers = dict(STEPS.handlers)
    handlers[kind] = wrap(handlers[kind])
    return {"handlers": handlers}


def _set_player(s: GameState, p: int, pl: PlayerState) -> GameState:
    return s._replace(players=s.players[:p] + (pl,) + s.players[p + 1:])


def _plant_from_back() -> dict[str, Any]:
    def wrap(do: Callable[..., GameState]) -> Callable[..., GameState]:
        def plant(s: GameState, a: Plant, check: bool) -> GameState:
            pl = s.players[a.player]
            if not pl.hand:
                return do(s, a, check)
            rotated = pl._replace(hand=pl.hand[-1:] + pl.hand[:-1])  # the back card planted
            return do(_set_player(s, a.player, rotated), a, check)
        return plant
    return _handler(Plant, wrap)


def _retrade_received() -> dict[str, Any]:
    def wrap(do: Callable[..., GameState]) -> Callable[..., GameState]:
        def accept(s: GameState, a: Accept, check: bool) -> GameState:
            out = do(s, a, check)
            for p, (old, new) in enumerate(zip(s.players, out.players, strict=True)):
                got = list(new.aside)
                for b in old.aside:
                    got.remove(b)
                if got:  # received cards go to the back of the hand instead of aside (T4 broken)
                    out = _set_player(out, p, new._replace(hand=new.hand + tuple(got), aside=old.aside))
            return out
        return accept
    return _handler(Accept, wrap)


def _non_active_trade() -> dict[str, Any]:
    proposals = STEPS.proposals

    def more(s: GameState) -> list[Offers]:
        out = list(proposals(s))
        n = len(s.players)
        for p in range(n):
            for q in range(n):
                if s.active not in (p, q) and p != q and s.players[p].hand:
                    out.append(Offers(p, (q,), (((0,), ()),), ((),)))  # p offers q its front card
        return out
    return {"proposals": more}


def _third_planting() -> dict[str, Any]:
    def wrap(do: Callable[..., GameState]) -> Callable[..., GameState]:
        def plant(s: GameState, a: Plant, check: bool) -> GameState:
            if s.planted == 2:  # T1 broken: a third card, then planting ends
                pl = s.players[a.player]
                new = pl._replace(hand=pl.hand[1:], fields=STEPS.plant_on(pl, a.field, pl.hand[0]))
                return STEPS.end_planting(_set_player(s, a.player, new)._replace(planted=3))
            out = do(s, a, check)
            if s.planted == 1 and out.phase != Phase.PLANT and out.players[a.player].hand:
                return evolve(s, players=out.players, planted=2, first_field=s.first_field)
            return out
        return plant
    return _handler(Plant, wrap)


_SHIFTED: dict[int, Any] = {}


def _with_setup(fn: Callable[..., GameState], change: Callable[[Any], Any]) -> Callable[..., GameState]:
    """``fn`` run on a state whose setup is changed by ``change``; the result gets the old setup."""
    def run(s: GameState, *args: Any) -> GameState:
        su = s.setup
        key = id(su)
        if key not in _SHIFTED:
            _SHIFTED[key] = (su, change(su))
        out = fn(s._replace(setup=_SHIFTED[key][1]), *args)
        return out._replace(setup=su)
    return run


def _beanometer_off_by_one() -> dict[str, Any]:
    def shift(su: Any) -> Any:  # C1 broken: each coin one card early
        payout = tuple(row[1:] + row[-1:] for row in su.payout)
        return dataclasses.replace(su, payout=payout)
    _SHIFTED.clear()
    return {"cash_in": _with_setup(STEPS.cash_in, shift)}  # fields (H5) and cargo (I6) alike


def _split_swapped() -> dict[str, Any]:
    def swapped(s: GameState, p: int, fields: tuple[Field, ...], b: int, n: int) -> GameState:
        k = n - s.setup.payout[b][n]  # H5 broken: the beanometer's coins are discarded, the rest paid
        pl = s.players[p]
        new = pl._replace(fields=fields, coins=pl.coins + (b,) * k)
        return evolve(s, players=s.players[:p] + (new,) + s.players[p + 1:],
                      discard=s.discard + (b,) * (n - k))
    return {"cash_in": swapped}


def _reshuffle_forever() -> dict[str, Any]:
    _SHIFTED.clear()
    return {"take_cards": _with_setup(STEPS.take_cards,
                                      lambda su: dataclasses.replace(su, final_exhaustion=10**6))}


def _on_demand_at_last_card() -> dict[str, Any]:
    _SHIFTED.clear()  # E1 broken: an on-demand game exhausts and reshuffles at the last card
    return {"take_cards": _with_setup(STEPS.take_cards, lambda su: dataclasses.replace(su, on_demand=False))}


def _draw_to_front() -> dict[str, Any]:
    take = STEPS.take_cards

    def front(s: GameState) -> GameState:
        before = [len(p.hand) for p in s.players]
        out = take(s)
        players = tuple(p._replace(hand=p.hand[n:] + p.hand[:n]) if len(p.hand) > n else p
                        for p, n in zip(out.players, before, strict=True))
        return out._replace(players=players)
    return {"take_cards": front}


def _lose_face_up() -> dict[str, Any]:
    end = STEPS.end_trading

    def lose(s: GameState) -> GameState:  # T5 broken: untraded face-up cards are discarded
        return end(s._replace(discard=s.discard + s.face_up, face_up=()))
    return {"end_trading": lose}


def _skip_aside() -> dict[str, Any]:
    return {"next_planter": lambda s, start: STEPS.end_turn(s)}  # T6 broken: nobody plants


def _skip_final_harvest() -> dict[str, Any]:
    def finish(s: GameState) -> GameState:  # E3 broken
        return evolve(s, phase=Phase.OVER, to_move=-1, pending=None, todo=(), resume=Resume.NONE)
    return {"finish": finish}


def _reshuffle_coins() -> dict[str, Any]:
    def wrap(do: Callable[..., GameState]) -> Callable[..., GameState]:
        def reshuffle(s: GameState, a: Reshuffle, check: bool) -> GameState:
            coins = tuple(c for p in s.players for c in p.coins)
            if check:
                do(s, a, True)  # the same checks
            poor = tuple(p._replace(coins=()) for p in s.players)
            return do(s._replace(players=poor), Reshuffle(a.order + coins), False)
        return reshuffle
    return _handler(Reshuffle, wrap)


def _wrong_tie_break() -> dict[str, Any]:
    def winners(s: GameState) -> tuple[int, ...]:  # E4 broken: ties always shared
        sc = engine.scores(s)
        return tuple(p for p, c in enumerate(sc) if c == max(sc))
    return {"winners": winners}


# The rules a live harness (scripts/diff_engine.py) may name for a mutant's break besides its own: H2
# (a field holds one type) is broken by a planting that H3 forbids, and our engine names H3; H5 swapped
# (coins to the discard, the rest to the coins) pays count - coins, which an off-by-one beanometer (C1)
# also pays where the row allows it, so the coin and discard counts cannot tell them apart there.
FOUND_AS: dict[str, set[str]] = {"H2": {"H2", "H3"}, "H5": {"H5", "C1"}}

MUTANTS: dict[str, Mutant] = {m.id: m for m in [
    Mutant("plant-from-back", "H1", "phase 1 plants the back card of the hand", _plant_from_back,
           steps=("plant",)),
    Mutant("harvest-protected-single", "H4", "a one-bean field may be harvested while another holds more",
           lambda: {"singles_harvestable": lambda fields, strict: True}, steps=("harvest",)),
    Mutant("retrade-received", "T4", "received cards go to the hand, where they can be traded again",
           _retrade_received, steps=("accept",)),
    Mutant("non-active-trade", "T3", "two players other than the active one may deal", _non_active_trade,
           steps=("propose",)),
    Mutant("third-planting", "T1", "a third card may be planted in phase 1", _third_planting,
           steps=("plant",)),
    Mutant("mix-types", "H2", "a card may be planted on a field of another type",
           lambda: {"fits": lambda f, b: True}, steps=("plant",)),
    Mutant("beanometer-off-by-one", "C1", "every coin is paid one card early", _beanometer_off_by_one,
           steps=("harvest",)),
    Mutant("split-swapped", "H5", "a harvest's or a cargo sale's coins go to the discard pile, the rest "
           "to the coin stack", _split_swapped, spec=False,
           tests=("tests/test_rules_C.py", "tests/test_rules_H.py", "tests/test_rules_I.py")),
    Mutant("skip-aside", "T6", "set-aside cards are never planted", _skip_aside, steps=("phase3-next",)),
    Mutant("draw-to-front", "H1", "drawn cards go to the front of the hand", _draw_to_front,
           steps=("draw",)),
    Mutant("skip-final-harvest", "E3", "the game ends without the final harvest", _skip_final_harvest,
           steps=("final-harvest", "game-over"), at_end=True),
    Mutant("wrong-tie-break", "E4", "a tie for most coins is always shared", _wrong_tie_break, spec=False,
           tests=("tests/test_rules_E.py",)),
    Mutant("reshuffle-coins", "E1", "the reshuffle takes every coin back into the draw pile",
           _reshuffle_coins, steps=("reshuffle",)),
    Mutant("lose-face-up", "T5", "face-up cards nobody took are discarded, not set aside", _lose_face_up,
           steps=("end-phase",)),
    Mutant("reshuffle-forever", "E2", "the draw pile is reshuffled at every exhaustion",
           _reshuffle_forever, steps=("turn-up", "draw"), at_end=True),
    Mutant("on-demand-at-last-card", "E1", "with reshuffle=on-demand the pile is still exhausted and "
           "reshuffled when its last card is taken", _on_demand_at_last_card,
           options={"reshuffle": "on-demand"}, steps=("turn-up", "draw"), at_end=True),
]}


@contextmanager
def activate(mutant_id: str) -> Iterator[Mutant]:
    """The engine's steps replaced by mutant ``mutant_id``'s until the block ends."""
    if mutant_id not in MUTANTS:
        raise KeyError(f"unknown mutant {mutant_id!r}; known: {', '.join(MUTANTS)}")
    m = MUTANTS[mutant_id]
    with STEPS.replaced(**m.patch()):
        yield m


# ------------------------------------------------------------------ catching them


@dataclass
class Verdict:
    id: str
    rule: str
    what: str
    status: str = "survived"  # caught / survived
    caught_by: list[str] = field(default_factory=list)
    detail: list[str] = field(default_factory=list)
    seconds: float = 0.0


def sample(count: int = 120, seed: int = 3) -> list[GameState]:
    """States from seeded games with the clean engine (drawn before any patch)."""
    return list(sample_states(count, seed))


def ends() -> list[GameState]:
    """The states before each exhaustion and each game's end (``end_states``), clean engine."""
    return list(end_states())


def _differential(states: list[GameState], spec_mutant: str | None) -> str | None:
    for i, s in enumerate(states):
        try:
            problems = check_state(s, random.Random(i), mutant=spec_mutant)
        except Exception as exc:  # a broken engine may crash on a state: that is a catch too
            return f"state {i}: {type(exc).__name__}: {exc}"
        if problems:
            return f"state {i}: {problems[0].what}"
    return None


def _tests(m: Mutant) -> str | None:
    env = {**os.environ, "BOHNANZA_MUTANT": m.id, "CI": "1"}
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *m.tests]
    run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    failed = [line.split(" ", 1)[1].split(" - ")[0] for line in run.stdout.splitlines()
              if line.startswith("FAILED ")]
    if run.returncode == 1 and failed:
        return failed[0]
    if run.returncode not in (0, 1) or (run.returncode == 1 and not failed):
        # not a failing test: pytest did not run (missing, bad arguments, collection error)
        last = (run.stderr.strip() or run.stdout.strip()).splitlines()[-1:] or [""]
        raise RuntimeError(f"the test suite did not run (exit {run.returncode}): {last[0]}")
    return None


def judge(m: Mutant, states: list[GameState], proofs: bool = True,
          at_end: list[GameState] | None = None) -> Verdict:
    """Run the checks on one mutant: spec side (proofs, the mutant's ``steps`` first; then
    engine-vs-spec), engine side (engine-vs-spec on ``states`` and on ``at_end``, the states before
    exhaustions and ends (``ends()``; first for a mutant marked ``at_end``), then the test suite)."""
    t0 = time.perf_counter()
    v = Verdict(m.id, m.rule, m.what)
    spec_caught = not m.spec
    if m.spec and proofs:
        refuted = [r for r in invariants.prove(m.configs(), mutant=m.id, stop_at_first=True, first=m.steps)
                   if r.status != "proved"]
        if refuted:
            spec_caught = True
            v.caught_by += [f"proof {r.id}" for r in refuted]
            v.detail.append(refuted[0].counterexample.splitlines()[0])
    if m.spec and not spec_caught:
        why = _differential(states, m.id)
        if why:
            spec_caught = True
            v.caught_by.append("engine-vs-spec (spec side)")
            v.detail.append(why)
    checks = [("engine-vs-spec", states), ("engine-vs-spec at exhaustions and ends", at_end or [])]
    if m.at_end:
        checks.reverse()
    why = None
    with activate(m.id):
        for name, some in checks:
            why = _differential(some, None)
            if why:
                v.caught_by.append(name)
                v.detail.append(why)
                break
    engine_caught = why is not None
    if not engine_caught:
        failed = _tests(m)
        if failed:
            engine_caught = True
            v.caught_by.append(f"tests {failed}")
    v.status = "caught" if spec_caught and engine_caught else "survived"
    v.seconds = time.perf_counter() - t0
    return v


_STATES: list[list[GameState]] = []  # a worker's sampled states and end states (``judge_all``)


def _judge_in_worker(mutant_id: str) -> Verdict:
    if not _STATES:
        _STATES.extend((sample(), ends()))
    return judge(MUTANTS[mutant_id], _STATES[0], at_end=_STATES[1])


def judge_all(ids: list[str], jobs: int = 1,
              done: Callable[[int, Verdict], None] | None = None) -> list[Verdict]:
    """``judge`` for each mutant of ``ids``, in order; ``jobs`` > 1: that many worker processes,
    each judging whole mutants on its own copy of the same seeded states (``sample()``, ``ends()``),
    so the verdicts are those of one process. ``done(i, verdict)`` as each verdict comes in, in order."""
    out: list[Verdict] = []
    if jobs <= 1 or len(ids) <= 1:
        states, at_end = sample(), ends()
        for i, mid in enumerate(ids):
            out.append(judge(MUTANTS[mid], states, at_end=at_end))
            if done is not None:
                done(i, out[-1])
        return out
    import multiprocessing

    # spawn, not fork: the parent may hold Z3 contexts and threads that a forked child must not share
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(min(jobs, len(ids)), initializer=ignore_interrupts) as pool:
        for i, v in enumerate(pool.imap(_judge_in_worker, ids)):
            out.append(v)
            if done is not None:
                done(i, v)
    return out
