"""CP-SAT loaded when a solver first uses it: ``cp_model`` for every solver module, and ``callback``,
a solution callback made then.

Importing ortools' ``cp_model`` takes about 0.35 s (it loads numpy and pandas). Every front end
that imports the solvers (``solve_endgame.py``, ``cross_check.py``, the studies) paid it at start-up,
also for exact search, which never builds a model: ``solve_endgame.py NAME --solver exact
--node-limit 10`` spent most of its second importing. Here ``cp_model`` is the module itself once
something has imported it, and otherwise a lazy module (``importlib.util.LazyLoader``) that loads
on its first attribute read. So a solver module reads ``cp_model`` only inside functions, never
at import (no class statement derives from it: ``solution_callback`` makes the solution callback's class
when a search starts).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

CP_MODEL = "ortools.sat.python.cp_model"


def lazy_module(name: str) -> ModuleType:
    """The module ``name``: as imported, or a lazy module (registered as imported) that runs the
    module's code on its first attribute read. The parent packages are imported now (cheap)."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    return module


if TYPE_CHECKING:
    from ortools.sat.python import cp_model as cp_model
else:
    cp_model = lazy_module(CP_MODEL)


def solution_callback(on_solution: Callable[[cp_model.CpSolverSolutionCallback], None]
             ) -> cp_model.CpSolverSolutionCallback:
    """A CP-SAT solution callback that calls ``on_solution(itself)`` at every solution (its class is
    made here, when CP-SAT is loaded)."""

    class Callback(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            on_solution(self)

    return Callback()
