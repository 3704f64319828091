"""The flow solver: ``coop`` and ``best`` at real size (docs/endgames.md, "The flow solver").

``solver.py`` runs it (``solve_flow``, ``FlowSolver``: the master, the exact seats, the plan
searches, the joint model); ``master.py`` is the counts master (hands, fronts and deals exact, the
fields relaxed); ``seat_plan.py`` one seat's exact fields as a CP-SAT model; ``seat_batch.py`` and
``seat_dp.py`` the seat searches (a batch or a card per move) on the branch and bound they share,
``memo_search.py``. The run's clock (seconds and CP-SAT deterministic work) is solvers/contract.py's
``Budget``, every solver's one clock.
The timeline and hand cards by identity come from solvers/timeline.py, the contract from
solvers/contract.py. ``solvers.flow.solve_flow`` is the name the conformance cases record.
"""

from solvers.flow.solver import FlowSolver, solve_flow

__all__ = ["FlowSolver", "solve_flow"]
