"""The project's errors: one base, input errors and rule errors, one ``[ID]`` format.

``BohnanzaError`` is a ``ValueError`` so callers that caught ``ValueError`` keep working. An
``InputError`` is input that cannot be read (a file, a JSON field, a notation, an option): its
message says where. A ``RuleError`` is a move or a position the rules forbid: ``rule`` is its
RULES.md ID and the message ends ``[ID]``.
"""

from __future__ import annotations


class BohnanzaError(ValueError):
    """Every error the project raises on purpose (a user's mistake or a rule, never a bug)."""


class InputError(BohnanzaError):
    """Input that cannot be read; the message names the source, line or field."""


class UsageError(InputError):
    """A command line the tools cannot run (arguments that contradict, a missing file or package)."""


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
