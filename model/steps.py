"""The named steps of the rules: the one seam through which the engine can be changed or watched.

The engine (and an expansion) call these steps through ``STEPS``, never by their private names, so

- a mutant (``proofs/mutants.py``) replaces a step for the length of a ``with STEPS.replaced(...)``
  block and breaks exactly the rule that step holds, wherever it is used (a harvest and a ship sale
  share ``cash_in``);
- a checker records what a step received and returned with ``with STEPS.traced("end_turn") as log``
  (the La Isla Bohnita engine-vs-spec check compares each end of turn with the spec's).

Each step's default is set where the rule is written: the field rules here from ``model/core.py``,
the turn's steps by ``model/engine.py`` when it is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from model import core

if TYPE_CHECKING:
    from model.actions import Offers
    from model.state import Field, GameState, PlayerState

    Handler = Callable[[GameState, Any, bool], GameState]


def _unset(*args: Any) -> Any:
    raise RuntimeError("model.engine is not imported: its steps are not set")


@dataclass
class Steps:
    """The steps, by rule. Replace them only through ``replaced`` (it checks the names and restores)."""

    fits: Callable[[Field, int], bool] = core.fits  # H3
    singles_harvestable: Callable[[tuple[Field, ...], bool], bool] = core.singles_harvestable  # H4
    cash_in: Callable[[GameState, int, tuple[Field, ...], int, int], GameState] = core.cash_in  # H5, I6
    harvest: Callable[[GameState, int, int], GameState] = _unset  # H5, V5
    plant_on: Callable[[PlayerState, int, int], tuple[Field, ...]] = _unset  # H2
    end_planting: Callable[[GameState], GameState] = _unset  # T1, D2
    take_cards: Callable[[GameState], GameState] = _unset  # T2, T7, E1, E2
    proposals: Callable[[GameState], list[Offers]] = _unset  # T3
    end_trading: Callable[[GameState], GameState] = _unset  # T5
    next_planter: Callable[[GameState, int], GameState] = _unset  # T6
    end_turn: Callable[[GameState], GameState] = _unset  # T7
    finish: Callable[[GameState], GameState] = _unset  # E3
    winners: Callable[[GameState], tuple[int, ...]] = _unset  # E4
    handlers: dict[type, Handler] = field(default_factory=dict)  # one per action type

    def set(self, **steps: Any) -> None:
        """Set defaults (the engine at import); unknown names are an error."""
        _known(steps)
        for name, value in steps.items():
            setattr(self, name, value)

    @contextmanager
    def replaced(self, **steps: Any) -> Iterator[None]:
        """The steps named replaced until the block ends."""
        _known(steps)
        saved = {name: getattr(self, name) for name in steps}
        try:
            self.set(**steps)
            yield
        finally:
            for name, value in saved.items():
                setattr(self, name, value)

    @contextmanager
    def traced(self, *names: str) -> Iterator[list[tuple[str, tuple[Any, ...], Any]]]:
        """A log of ``(step, arguments, result)`` for every call of the steps named, in call order."""
        log: list[tuple[str, tuple[Any, ...], Any]] = []

        def tracer(name: str, step: Callable[..., Any]) -> Callable[..., Any]:
            def run(*args: Any) -> Any:
                out = step(*args)
                log.append((name, args, out))
                return out
            return run

        with self.replaced(**{name: tracer(name, getattr(self, name)) for name in names}):
            yield log


_NAMES = frozenset(f.name for f in fields(Steps))


def _known(steps: dict[str, Any]) -> None:
    unknown = sorted(set(steps) - _NAMES)
    if unknown:
        raise KeyError(f"no step named {', '.join(unknown)}; the steps are {', '.join(sorted(_NAMES))}")


STEPS = Steps()
