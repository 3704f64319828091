"""The referee's verdict on one record file and the deviations it lists (RULES.md's IDs in each):
shared by the referee (records/referee.py) and the unknown-card search (records/unknown.py), so neither
imports the other back."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from records.game import Record

DESYNC = "desync"  # the status, and the summary's key, of a line whose annotation the replay contradicts


@dataclass(frozen=True)
class Deviation:
    """One line where the record and the rules (``illegal``, with a rule ID) or the record and its
    own annotations (``desync``) part."""

    line: int
    action: str
    kind: str  # "illegal" or "desync"
    reason: str
    rule: str = ""

    def text(self, path: str) -> str:
        if self.kind == DESYNC:
            return f"{path}:{self.line}: desync: {self.reason}"
        return f"{path}:{self.line}: illegal {self.action}: {self.reason} [{self.rule}]"

    def summary(self) -> dict[str, object]:
        out: dict[str, object] = {"line": self.line, "action": self.action, "status": self.kind,
                                  "reason": self.reason}
        if self.rule:
            out["rule"] = self.rule
        return out




@dataclass(frozen=True)
class Verdict:
    """The referee's verdict on one record file: ``legal`` (every step replays; ``over`` says whether
    the game ended), ``illegal`` (an illegal step: line, action, reason, rule ID), ``desync`` (a line
    whose annotation the replay contradicts), ``undecided`` (unknown cards the time limit left
    undecided) or ``malformed`` (the file cannot be read as a record). ``deviations`` holds every one
    found (one without ``every``)."""

    path: str
    status: str
    line: int | None = None
    action: str | None = None
    reason: str = ""
    rule: str = ""
    actions: int = 0
    coins: tuple[int, ...] = ()
    over: bool = False
    winners: tuple[int, ...] = ()
    record: Record | None = None  # parsed, unless malformed
    deviations: tuple[Deviation, ...] = ()
    every: bool = False
    stopped: int = 0  # with ``every``: the line where the record could not be followed (0: none)
    why: str = ""
    unknown: dict[str, object] | None = None  # the unknown cards' verdict (records/unknown.py)

    @property
    def code(self) -> int:
        """The exit code: 0 legal, 1 illegal or desync, 2 malformed, 4 undecided."""
        return {"legal": 0, "illegal": 1, DESYNC: 1, "undecided": 4}.get(self.status, 2)

    def text(self) -> str:
        """One line: ``PATH: legal, ...``, ``PATH:LINE: illegal ACTION: REASON [RULE]``,
        ``PATH:LINE: desync: REASON`` or the reason a file is malformed."""
        if self.status == "malformed":
            return f"{self.path}:{self.line}: malformed record: {self.reason}" if self.line else self.reason
        if self.status in ("illegal", DESYNC) and self.deviations:
            return self.deviations[0].text(self.path)
        if self.status == "undecided":
            return f"{self.path}: undecided: {self.reason}"
        out = f"{self.path}: legal"
        if self.unknown is not None:
            out += f" for some assignment of the {self.unknown['unknown']} unknown cards ({self.reason})"
        out += f", {self.actions} actions, final coins {list(self.coins)}"
        if self.over:
            return out + f", winners {['p' + str(w) for w in self.winners]}"
        return out + " (game in progress)"

    def lines(self) -> list[str]:
        """With ``every``: each deviation in the one-line format, then a summary line."""
        if not self.every or self.status in ("malformed", "undecided") or self.unknown is not None:
            return [self.text()]
        out = [d.text(self.path) for d in self.deviations]
        if not self.deviations:
            return [self.text()]
        tally = ", ".join(f"{k} {n}" for k, n in self.by_rule().items())
        n = len(self.deviations)
        end = (f"stopped at line {self.stopped}: the record cannot be followed: {self.why}" if self.stopped
               else f"followed to the end, {self.actions} actions, final coins {list(self.coins)}")
        out.append(f"{self.path}: {n} deviation{'s' if n > 1 else ''} ({tally}); {end}")
        return out

    def by_rule(self) -> dict[str, int]:
        """How many deviations name each rule ID (``desync`` for desynchronised lines), most first."""
        c = Counter(d.rule if d.kind != DESYNC else DESYNC for d in self.deviations)
        return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))

    def summary(self) -> dict[str, object]:
        """The JSON object ``check_record.py --json`` prints (docs/records.md)."""
        if self.status == "malformed":
            if self.line is None:  # the file cannot be read: the reason names it
                return {"record": self.path, "status": "malformed", "reason": self.reason}
            return {"record": self.path, "status": "malformed", "line": self.line, "reason": self.reason}
        info: dict[str, object] = {"record": self.path, "status": self.status}
        if self.status in ("illegal", DESYNC):
            info.update(line=self.line, action=self.action, reason=self.reason)
            if self.rule:
                info["rule"] = self.rule
        elif self.status == "undecided":
            info["reason"] = self.reason
        else:
            info.update(actions=self.actions, coins=list(self.coins), over=self.over)
            if self.over:
                info["winners"] = list(self.winners)
        if self.unknown is not None:
            info["unknown"] = self.unknown
        if self.every and self.unknown is None:
            info["deviations"] = [d.summary() for d in self.deviations]
            info["by_rule"] = self.by_rule()
            stopped = {"line": self.stopped, "reason": self.why} if self.stopped else None
            info["followed"] = {"actions": self.actions, "coins": list(self.coins), "over": self.over,
                                "stopped": stopped}
        return info
