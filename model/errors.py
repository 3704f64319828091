"""The project's errors, one family: every error a user can cause through ``model`` and
``solvers.endgame`` is a ``BohnanzaError``, one subclass per kind, with a message in Python's terms.

``BohnanzaError`` is a ``ValueError`` so callers that caught ``ValueError`` keep working. An
``InputError`` is input that cannot be read (a file, a JSON field, a notation, an option): its
message says where; ``MissingFile`` is also a ``FileNotFoundError``, ``UnknownName`` (an objective, a
method) also a ``LookupError``, and ``ArgumentError`` names the argument (``player=9: there are 4
seats``; ``cli`` says it as the command line's flag). A ``RuleError`` is a move or a position the
rules forbid: ``rule`` is its RULES.md ID and the message ends ``[ID]``. A ``SolveError`` is a
position a solver does not serve; ``SearchLimitExceeded`` a search past its node or time limit.
"""

from __future__ import annotations

from typing import Any


class BohnanzaError(ValueError):
    """Every error the project raises on purpose (a user's mistake or a rule, never a bug)."""


class InputError(BohnanzaError):
    """Input that cannot be read; the message names the source, line or field."""


class UsageError(InputError):
    """A command line the tools cannot run (arguments that contradict, a missing file or package)."""


class MissingFile(InputError, FileNotFoundError):
    """A file (or a built-in's name) that is not there."""


class ArgumentError(InputError):
    """An argument out of its range: ``name=value: reason``; ``cli`` is the command line's line
    for it (``--name value: reason``, or the ``cli`` given)."""

    def __init__(self, name: str, value: object, reason: str, cli: str = "") -> None:
        super().__init__(f"{name}={value!r}: {reason}")
        self.name, self.value, self.reason = name, value, reason
        self.cli = cli or f"--{name.replace('_', '-')} {value}: {reason}"


class UnknownName(ArgumentError, LookupError):
    """A name that is none of the known ones (an objective, a solver method)."""


class RuleError(BohnanzaError):
    """Something the rules forbid: ``reason`` and the RULES.md ID ``rule``; ``where`` (a state
    field or a record line, when there is one) leads the message."""

    def __init__(self, reason: str, rule: str, where: str = "") -> None:
        super().__init__(f"{where}: {reason} [{rule}]" if where else f"{reason} [{rule}]")
        self.reason, self.rule, self.where = reason, rule, where


class PositionError(RuleError):
    """A state the rules do not allow; ``field`` names where, ``rule`` the rule ID."""

    def __init__(self, field: str, reason: str, rule: str) -> None:
        super().__init__(reason, rule, field)
        self.field = field


class IllegalAction(RuleError):
    """An action the rules forbid here; ``rule`` is the rule ID of RULES.md."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__(reason, rule)


class SolveError(BohnanzaError):
    """The position does not fit the objective or the solver (one line, the rule or reason)."""


class SearchLimitExceeded(SolveError):
    """An exact search passed its node or time limit: the position is too large for it (no proved
    answer). ``best``: the best line it found, as a feasible ``solvers.contract.Solution`` with its
    proved bound, where the search keeps one; None otherwise."""

    best: Any = None


class NodeLimitExceeded(SearchLimitExceeded):
    """An exact search passed its node limit."""


class TimeLimitExceeded(SearchLimitExceeded):
    """An exact search passed its time limit."""


def command_line(e: BohnanzaError) -> str:
    """The one line a command-line tool prints for ``e``: an argument's error names the flag."""
    return e.cli if isinstance(e, ArgumentError) else str(e)
