"""La Isla Bohnita CP-SAT ``solo``: what the model covers, the solve (the first model, then the full
one) and the line replayed through the engine; the registry's ``solve``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from console.progress import ProgressFn
from model import (
    Action,
    EndPhase,
    GameState,
    Phase,
    Sell,
    Yield,
    apply,
)
from model.isla import isla_of
from solvers.contract import (
    DEFAULT_LIMITS,
    SOLO,
    Budget,
    Limits,
    Objective,
    Solution,
    SolveError,
    Status,
    calls,
)
from solvers.cpsat_run import Interrupt, Tick, interruptible, reporting, run_model
from solvers.isla.cpsat.base import PHASE1_STEPS, PHASE2_EXTRA
from solvers.isla.cpsat.relax import prove
from solvers.isla.cpsat.timeline import read_timeline
from solvers.isla.cpsat.turns import IslaModel
from solvers.isla.exact import check_isla_solo, isla_policy


def check_isla_cpsat(s: GameState, player: int | None) -> int:
    """P, if the model covers ``s``: a turn start (nothing planted, no attack, no sail, no capture),
    H4 lenient, no V2/V5, no row empty now (I2); a SolveError in one line otherwise."""
    p = check_isla_solo(s, player)
    su = s.setup
    isla = isla_of(s)
    if su.strict_harvest or su.rules.distinct_fields or su.rules.field_beans:
        raise SolveError("the Isla CP-SAT solo model covers H4's lenient reading without V2/V5 so far")
    skipped = s.phase == Phase.TRADE and not s.players[s.active].hand and s.pending is None  # T1
    start = s.planted == 0 and (s.phase == Phase.PLANT or skipped)
    if not start or any(pl.aside for pl in s.players) or isla.attack or isla.attacked or isla.sails \
            or isla.captured:
        raise SolveError("the Isla CP-SAT solo model starts at the start of a turn (nothing planted, no ship "
                         "moved, no attack made, I3-I7)")
    if not all(isla.rows):
        raise SolveError("the Isla CP-SAT solo model needs both island rows filled (I2)")
    return p


def solve_isla_cpsat(s: GameState, player: int | None = None, limits: Limits = DEFAULT_LIMITS,
                     tick: Tick | None = None, phase1_steps: int = PHASE1_STEPS,
                     phase2_extra: int = PHASE2_EXTRA) -> Solution:
    """The Isla ``solo`` value by CP-SAT, with the line replayed through the engine: proved optimal
    when the model is exact (P has no turn left, or the step caps reach ``sound_steps`` in every
    turn of P's) and CP-SAT proves it, or when the relaxation (``relax.prove``) has no better
    line; otherwise a line, ``feasible``, with no bound (CP-SAT's holds only within the caps).
    With a turn of P's ahead, the models of ``LADDER`` find a line fast, and the full model starts
    from it (a hint, and only lines worth as much) to look for a better one. Within ``limits``:
    seconds, CP-SAT workers and work (deterministic seconds for the whole run, shared as the time
    is, ``Budget``; the time limit a guard: with one worker the same answer on any machine while
    the work limit binds)."""
    p = check_isla_cpsat(s, player)
    time_limit, workers, work_limit = limits.time, limits.workers, limits.work
    clock = Budget("the Isla CP-SAT solo model", None, time_limit, work_limit=work_limit)
    with interruptible() as stop:  # one Ctrl-C for every model of the run
        if any(t.active == p for t in read_timeline(s, p)[1]):
            return _with_turn(s, p, clock, workers, tick, phase1_steps, phase2_extra, stop)
        sol, _, _ = _solve_model(s, p, clock, 1.0, workers, tick, phase1_steps, phase2_extra)
        return sol


def _with_turn(s: GameState, p: int, clock: Budget, workers: int, tick: Tick | None, phase1_steps: int,
               phase2_extra: int, stop: Interrupt) -> Solution:
    """``_ladder``, then the relaxation's try to prove its line; after Ctrl-C the best line so far,
    ``interrupted`` (KeyboardInterrupt with none)."""
    found: list[Solution] = []  # the ladder's lines, each better than the one before
    try:
        best = _ladder(s, p, clock, workers, tick, phase1_steps, phase2_extra, stop, found)
        unproved = best.status != Status.OPTIMAL and not stop.hit
        if unproved and prove(s, p, best.value, 1.0, workers, clock):
            stats = replace(best.stats, seconds=clock.elapsed(), bound=float(best.value))
            best = replace(best, status=Status.OPTIMAL, stats=stats)
    except KeyboardInterrupt:
        if not found:
            raise
        best = found[-1]
    if stop.hit:
        best = replace(best, stats=replace(best.stats, interrupted=True))
    return best


def _ladder(s: GameState, p: int, clock: Budget, workers: int, tick: Tick | None, phase1_steps: int,
            phase2_extra: int, stop: Interrupt, found: list[Solution]) -> Solution:
    """A turn of P's ahead: the models of ``LADDER`` smaller than the full one, then the full one,
    each starting from the best line so far (a hint, and only lines worth as much) with its share
    of what is left; the best line found. An exact model proved optimal ends the ladder. The
    ladder has all but ``PROOF_SHARE`` of the run; the rest goes to the relaxation (``relax.prove``),
    which proves the best line when it has no better one. A model that finds no line while none is
    known hands the ladder's share left to the smallest one."""
    ladder = 1 - PROOF_SHARE  # the rest: the relaxation's try to prove the best line
    best: Solution | None = None
    hint: dict[str, int] | None = None
    steps = [(a, b, share) for a, b, share in LADDER if (a, b) < (phase1_steps, phase2_extra)]
    for a, b, share in [*steps, (phase1_steps, phase2_extra, 1.0)]:
        until = clock.fraction() + (ladder - clock.fraction()) * share
        try:
            sol, values, _ = _solve_model(s, p, clock, until, workers, tick, a, b,
                                          at_least=best.value if best is not None else None, hint=hint)
        except SolveError as e:
            if str(e).startswith("internal error"):
                raise
            if best is None:  # no line yet: the smallest model, the likeliest to find one, gets what is left
                a, b, _ = steps[0] if steps else (phase1_steps, phase2_extra, 1.0)
                best = _solve_model(s, p, clock, ladder, workers, tick, a, b)[0]
                break
            continue  # nothing better in time: the best line so far stands
        if sol.status == Status.OPTIMAL:  # an exact model (``sound_steps``), proved
            best = sol
            break
        if best is None or sol.value > best.value:
            best, hint = sol, values
            found.append(best)
        if stop.hit:
            break
    assert best is not None
    return best


# The smaller models solved first (phase-1 steps, phase-2 steps beyond plantings and sails, the share
# of the time left): each finds a line fast and hands it to the next as its start.
LADDER = ((2, 0, 0.1), (3, 4, 0.2))
PROOF_SHARE = 2 / 3  # of the run (work or time): the relaxation's try to prove the ladder's line (relax.py)
FIRST_STEPS = LADDER[0][:2]


def _solve_model(s: GameState, p: int, clock: Budget, until: float, workers: int, tick: Tick | None,
                 phase1_steps: int, phase2_extra: int, at_least: int | None = None,
                 hint: dict[str, int] | None = None) -> tuple[Solution, dict[str, int], bool]:
    """One model solved until fraction ``until`` of ``clock`` and its line replayed, and the values
    of its named variables (a hint for a larger model: the same names mean the same things, its
    extra steps do nothing). ``at_least``: only lines worth that much or more. ``optimal`` only
    when the model is exact (``sound_steps``); otherwise ``feasible`` and no bound. Also whether
    CP-SAT proved it the best within the caps."""
    model = IslaModel(s, p, phase1_steps, phase2_extra)
    objective = model.build()
    if at_least is not None:
        model.m.add(objective >= at_least)
    model.m.maximize(objective)
    names = [(v.name, model.m.get_int_var_from_proto_index(i)) for i, v in enumerate(model.m.proto.variables)
             if v.name]
    if hint is not None:
        for name, var in names:
            if name in hint:
                model.m.add_hint(var, hint[name])
            elif name.endswith("_noop"):
                model.m.add_hint(var, 1)
    run = run_model(model.m, 1.0, workers, tick, clock=(clock, until))
    model.solver = run.solver
    value = int(run.solver.value(objective))
    line, end = replay(s, p, model)
    coins = [len(q.coins) for q in end.players]
    if coins[p] != value:
        raise SolveError(f"internal error: the Isla CP-SAT plan replays to {coins[p]} coins, not its value "
                         f"{value}")
    stats = replace(run.stats(0.0), seconds=clock.elapsed())
    sol = Solution(SOLO, p, value, line, coins, status=Status(run.status), stats=stats)
    if not model.exact:  # the step caps fall short of ``sound_steps``: a real line, its optimum unproved
        sol = replace(sol, status=Status.FEASIBLE, stats=replace(sol.stats, bound=None))
    return sol, {name: int(run.solver.value(var)) for name, var in names}, run.status == Status.OPTIMAL


def replay(s: GameState, p: int, model: IslaModel) -> tuple[list[Action], GameState]:
    """Play the model's actions through the engine (checked), the other seats by ``isla_policy``."""
    solver = model.solver
    assert solver is not None
    plan: dict[tuple[int, Phase], list[Callable[[GameState], Action]]] = {}
    for seg in model.segments:
        plan[(seg.turn, seg.phase)] = [st.make for step in seg.steps for st in step if solver.value(st.lit)]
    answers = [bool(solver.value(sold)) for lit, sold in model.answers if solver.value(lit)]
    line: list[Action] = []
    while s.phase != Phase.OVER:
        a: Action
        if s.to_move != p:
            a = isla_policy(s)
        elif isla_of(s).attack is not None:
            if not answers:
                raise SolveError("internal error: the Isla CP-SAT model foresaw no attack on P's ship here")
            a = Sell(p, isla_of(s).attack[1]) if answers.pop(0) else Yield(p)  # type: ignore[index]
        elif s.active == p and s.phase in (Phase.PLANT, Phase.TRADE):
            todo = plan.get((s.turn, Phase.PLANT), [])
            if s.phase == Phase.TRADE and not todo:  # phase 1's last actions may follow it (anytime)
                todo = plan.get((s.turn, Phase.TRADE), [])
            a = todo.pop(0)(s) if todo else EndPhase(p)
        else:
            a = isla_policy(s)
        line.append(a)
        s = apply(s, a)
    return line, s


@calls(solve_isla_cpsat)
def solve(s: GameState, objective: Objective, player: int | None, limits: Limits,
          progress: ProgressFn | None) -> Solution:
    """``solve_isla_cpsat`` behind the one solver signature (``solvers.contract.Solver``; ``solo``)."""
    if objective is not SOLO:
        raise SolveError(f"{objective.name}: CP-SAT on La Isla Bohnita positions solves solo only")
    with reporting(progress, limits.time, "Isla CP-SAT solo") as tick:
        return solve_isla_cpsat(s, player, limits, tick)
