"""Lemmas: every sequence operation updates its ghost tally exactly.

``Seq.tally`` counts the cards of each bean id without looking at the slots; card conservation is
proved over tallies (proofs/invariants.py). That is sound only if, for each operation, whenever
the input's tally equals its real count and the operation's precondition (``ok``) holds, the
output's tally equals the output's real count. ``prove_lemmas`` proves exactly that for each
(operation, capacity) the proofs used (``symbolic.GHOST_USES``), with every argument symbolic.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import z3

from console.progress import ProgressFn
from proofs.runner import BACKSTOP_MS, checked, solver
from proofs.symbolic import Seq, all_of, implies, int_var, neg, pick_seq, seq_var

BEANS = 12  # tallies count bean ids 0..11


@dataclass
class Lemma:
    op: str
    cap: int
    status: str  # proved / refuted
    seconds: float
    rlimit: int = 0  # Z3's resource units the query took


def _exact(q: Seq) -> z3.BoolRef:
    assert q.tally is not None
    return all_of(*[q.tally[b] == q.count(b) for b in range(BEANS)])


def apply_op(op: str, q: Seq) -> tuple[Seq, list[Seq]]:
    """``op`` (as recorded in GHOST_USES) on ``q`` with symbolic arguments; also the other input
    sequences it reads, whose tallies the lemma may assume exact."""
    m = re.fullmatch(r"([a-z_]+)(?:\((\d+)(?:,(\d+))?\))?", op)
    if m is None:
        raise ValueError(f"unknown sequence operation {op!r}")
    name = m.group(1)
    arg, arg2 = (int(g) if g else 0 for g in m.group(2, 3))
    x, k = int_var("x"), int_var("k")
    if name == "drop_front":
        return q.drop_front(), []
    if name == "drop_back":
        return q.drop_back(arg), []
    if name == "push_back":
        return q.push_back(x), []
    if name == "push_front":
        return q.push_front(x), []
    if name == "push_copies":
        return q.push_copies(x, k), []
    if name == "push_range":
        other = seq_var("other", arg2, BEANS)
        return q.push_range(other, int_var("start"), arg), [other]
    if name == "remove_sorted":
        return q.remove_sorted([int_var(f"pos{j}") for j in range(arg)], k), []
    if name == "emptied":
        return q.emptied(), []
    if name == "pick_seq":
        other = seq_var("other", arg, BEANS)
        return pick_seq(z3.Bool("c"), q, other), [other]
    raise ValueError(f"unknown sequence operation {op!r}")


def prove_lemma(op: str, cap: int, timeout_ms: int = BACKSTOP_MS, progress: ProgressFn | None = None
                ) -> Lemma:
    """UNSAT of: inputs in bounds with exact tallies, ``ok`` of the output, an inexact output tally.
    Within the runner's resource limit (proofs/runner.py); Ctrl-C raises KeyboardInterrupt."""
    t0 = time.perf_counter()
    q = seq_var("q", cap, BEANS)
    out, others = apply_op(op, q)
    sv = solver(timeout_ms)
    for s in [q, *others]:
        sv.add(s.in_bounds(), _exact(s))
    sv.add(neg(implies(out.ok, _exact(out))))

    def tick(seconds: float) -> None:
        if progress is not None:
            progress(0, None, f"lemma {op} (capacity {cap}): {seconds:.0f} s")

    answer, used = checked(sv, tick)
    return Lemma(op, cap, "proved" if answer == z3.unsat else "refuted", time.perf_counter() - t0, used)


def prove_lemmas(uses: set[tuple[str, int]], progress: ProgressFn | None = None) -> list[Lemma]:
    """Every lemma; ``progress(lemmas done, lemmas, note)`` as each starts."""
    todo = sorted(uses)
    out = []
    for i, (op, cap) in enumerate(todo):
        if progress is not None:
            progress(i, len(todo), f"lemma {op} (capacity {cap})")
        out.append(prove_lemma(op, cap, progress=progress))
    return out
