"""The report of a live run (scripts/diff_engine.py, docs/engine-protocol.md "Report"): what a run
found as causes (the rule, the kind, and the move or state part that differs), each with the games
it touched, its first example and one reproducer, and the raw counts per rule ID and kind (``--json``);
the protocol section (choices of the engine, never rule breaks: conformance/live/protocol.py); the
text and ``--json`` forms."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from conformance.live.protocol import HINTS, RULE_OF, pattern_of


@dataclass
class Found:
    """What a run found: per (kind, rule) the raw count; per cause (rule, kind, pattern) the count,
    the games and the first divergence; failures, skips."""

    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    cause_counts: Counter[Cause] = field(default_factory=Counter)
    first: dict[Cause, Any] = field(default_factory=dict)
    first_at: dict[Cause, float] = field(default_factory=dict)  # seconds into the run
    games_of: dict[Cause, set[int]] = field(default_factory=dict)  # the games a cause touched
    games: int = 0
    positions: int = 0  # of the games, those started from a perft position
    steps: int = 0
    failures: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # games the engine does not play, seeded and positions
    skipped_positions: int = 0  # of them, those from a perft position
    refused: set[tuple[tuple[str, Any], ...]] = field(default_factory=set)  # their option values
    unchecked: Counter[str] = field(default_factory=Counter)
    reproducers: dict[Cause, Any] = field(default_factory=dict)
    masked: Counter[Cause] = field(default_factory=Counter)  # causes the run went past (--ignore)
    masked_games: dict[Cause, set[int]] = field(default_factory=dict)
    notes: Counter[str] = field(default_factory=Counter)  # protocol choice -> times seen
    first_note: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def mask(self, d: Any) -> None:
        """Count divergence ``d`` of a cause the run ignores."""
        self.masked[d.cause] += d.count
        self.masked_games.setdefault(d.cause, set()).add(d.spec.index)

    def add(self, d: Any, seconds: float) -> None:
        """Count divergence ``d`` (``d.count`` of them) under its cause."""
        self.counts[d.key] += d.count
        self.cause_counts[d.cause] += d.count
        self.games_of.setdefault(d.cause, set()).add(d.spec.index)
        if d.cause not in self.first:
            self.first[d.cause] = d
            self.first_at[d.cause] = seconds

    def grouped(self) -> dict[Cause, list[Cause]]:
        """Each cause the report names (a bug) with its consequences: a cause of the same move (the
        action at issue: the one played for a state divergence, listed, accepted or refused else;
        none at the end) seen only in games where the bug shows is counted as the bug's consequence
        (what the same wrong move gives at another step, state field or phase, or in the legal
        lists), not as a cause of its own. The bug is the one of that move in the most games (then
        the most often, then the first): its rule names the cause. One of another move, or seen in a
        game without it, stays a cause of its own (an independent bug; --ignore the first to see a
        second one of the same move)."""
        def move(c: Cause) -> str:
            return move_of(self.first[c])

        ranked = sorted(self.first, key=lambda c: (-len(self.games_of[c]), -self.cause_counts[c],
                                                   self.first_at[c]))
        out: dict[Cause, list[Cause]] = {}
        for c in ranked:
            lead = next((b for b in out if move(b) == move(c) and self.games_of[c] <= self.games_of[b]), None)
            if lead is None:
                out[c] = []
            else:
                out[lead].append(c)
        return out

    def by_rule(self) -> dict[str, Counter[str]]:
        out: dict[str, Counter[str]] = {}
        for (kind, rule), n in self.counts.items():
            out.setdefault(rule, Counter())[kind] += n
        return dict(sorted(out.items()))


Cause = tuple[str, str, str]  # rule, kind, pattern (a move, or the state part that differs)


def move_of(d: Any) -> str:
    """The move a divergence is about (``plant``, ``harvest``): of the action played for a state
    divergence, listed, accepted or refused else; ``""`` at the end (coins, winners)."""
    return pattern_of(d.action)


def cause_name(cause: Cause) -> str:
    """``T3 missing offer``: a cause as the report names it."""
    return " ".join(x for x in cause if x)


Ranked = dict[str, Any]  # the readings judged by the engine (readings.Judged.summary), {} if not asked


def protocol_section(found: Found, declared: dict[str, Any]) -> dict[str, Any]:
    """The protocol section: what the engine declares, and each protocol difference seen (never a
    rule break), with a hint to declare the undeclared ones."""
    seen: dict[str, Any] = {}
    for choice, n in sorted(found.notes.items()):
        first = found.first_note[choice]
        entry = {"count": n, "declared": choice in declared, "rule": RULE_OF[choice], "first": first.line()}
        if choice not in declared:
            entry["hint"] = f'declare it in hello: "declares": {{{HINTS[choice]}}}'
        seen[choice] = entry
    return {"declared": declared, "differences": seen}


def summary(found: Found, hello: dict[str, Any], readings: Ranked,
            declared: dict[str, Any] | None = None, ignored: list[str] | None = None) -> dict[str, Any]:
    def example(cause: Cause) -> dict[str, Any]:
        d = found.first[cause]
        ex: dict[str, Any] = {"kind": cause[1], "what": d.what, "game": d.spec.label(), "step": d.step,
                              "seconds_to_first": round(found.first_at[cause], 2)}
        if cause in found.reproducers:
            rep, verdict = found.reproducers[cause]
            ex["shrunk"] = rep.summary()
            ex["check_record"] = {k: verdict.get(k) for k in ("status", "line", "rule", "reason")}
        return ex

    order = sorted(found.first, key=lambda c: found.first_at[c])
    groups = found.grouped()
    causes = [{"name": cause_name(c), "rule": c[0], "kind": c[1], "pattern": c[2],
               "count": found.cause_counts[c], "games": sorted(found.games_of[c]), "first": example(c),
               "consequences": [{"name": cause_name(x), "count": found.cause_counts[x],
                                 "games": sorted(found.games_of[x])}
                                for x in sorted(groups[c], key=lambda x: found.first_at[x])]}
              for c in order if c in groups]
    rules: dict[str, Any] = {}
    for rule, kinds in found.by_rule().items():
        entry: dict[str, Any] = {"count": sum(kinds.values()), "kinds": dict(kinds), "examples": []}
        for kind in kinds:  # the kind's first cause
            entry["examples"].append(example(next(c for c in order if c[:2] == (rule, kind))))
        rules[rule] = entry
    return {"engine": hello.get("name"), "games": found.games, "from_positions": found.positions,
            "steps": found.steps,
            "divergences": found.total, "causes": causes, "by_rule": rules, "ignored": ignored or [],
            "masked": [{"name": cause_name(c), "count": n, "games": sorted(found.masked_games[c])}
                       for c, n in sorted(found.masked.items())], "failures": found.failures,
            "skipped": found.skipped, "skipped_positions": found.skipped_positions,
            "unchecked": dict(found.unchecked),
            "protocol": protocol_section(found, declared or {}),
            "readings": readings}


def print_report(info: dict[str, Any]) -> None:
    seeded, positions = info["games"] - info["from_positions"], info["from_positions"]
    causes = info["causes"]
    named = ": " + ", ".join(c["name"] for c in causes) if causes else ""
    print(f"{info['engine']}: {info['games']} games played ({seeded} seeded, {positions} from the perft "
          f"positions){_not_played(info)}, {info['steps']} steps, {len(causes)} "
          f"cause{'' if len(causes) == 1 else 's'} of divergence{named}")
    for cause in causes:
        ex, n = cause["first"], len(cause["games"])
        print(f"{cause['name']}: in {n} game{'' if n == 1 else 's'}; first: {ex['game']}, step {ex['step']}: "
              f"{ex['what']} ({ex['seconds_to_first']} s into the run)")
        if "shrunk" in ex:
            sh, cr = ex["shrunk"], ex["check_record"]
            opts = "".join(f" {k}={json.dumps(v)}" for k, v in sh["options"].items())
            rule = f" [{cr['rule']}]" if cr["rule"] else ""
            verdict = (f"check_record: line {cr['line']} {cr['status']}{rule}"
                       if cr["status"] != "legal" else "check_record: legal (a record cannot show it)")
            done = "shrunk" if sh.get("shrunk", True) else "reproducer (not shrunk: interrupted)"
            print(f"  {done}: {sh['players']} players{opts}, {sh['actions']} actions, "
                  f"{sh['deck_used']} deck cards used; {verdict}; shown by {sh['shown_by']}")
            for line in sh["divide"]:
                print(f"  divide: {line}")
    if info.get("ignored"):
        masked = "; ".join(f"{m['name']} in {len(m['games'])} game{'' if len(m['games']) == 1 else 's'}"
                           for m in info["masked"]) or "none seen"
        print(f"masked (--ignore {', '.join(info['ignored'])}; the run went past them): {masked}")
    proto = info["protocol"]
    if proto["declared"] or proto["differences"]:
        decl = ", ".join(f"{k}={json.dumps(v)}" for k, v in proto["declared"].items()) or "nothing"
        seen = "" if proto["differences"] else "; no other protocol difference seen"
        print(f"protocol (choices of the engine, not rule breaks; declared: {decl}{seen})"
              + (":" if proto["differences"] else ""))
        for choice, entry in proto["differences"].items():
            how = "declared" if entry["declared"] else "not declared"
            print(f"  {choice} ({how}; {entry['rule']} allows it): {entry['count']}; first: {entry['first']}")
            if "hint" in entry:
                print(f"    {entry['hint']}")
    for part, n in info["unchecked"].items():
        print(f"not checked in {n} games: {part}")
    if info["skipped"]:
        print(f"{_not_played(info).removeprefix(', ')}; the first: {info['skipped'][0]}")
    if info["readings"]:
        print(readings_text(info["readings"]))


def readings_text(readings: dict[str, Any]) -> str:
    """The readings lines: the reading (or the tie, ``A = B``) the engine agrees with at the most
    states where the readings differ, or that none agrees; then the others; what the judging cost;
    then, for each tie, what would separate its readings (docs/engine-protocol.md, Readings)."""
    groups: list[list[dict[str, Any]]] = []
    for r in readings["ranked"]:
        if r["tied"] and groups:
            groups[-1].append(r)
        else:
            groups.append([r])

    def names(group: list[dict[str, Any]]) -> str:
        return " = ".join(r["label"] for r in group)

    def score(r: dict[str, Any]) -> str:
        refused = f", {r['refused']} starts refused" if r["refused"] else ""
        other = f", {r['unexplained']} answered as no reading" if r.get("unexplained") else ""
        return f"agrees at {r['agreed']} of {r['judged']} states{refused}{other}"

    n = readings["states_judged"]
    cost = (f"judged at {n} of the {readings['states_differing']} states where the readings differ "
            f"(--readings-states {readings['limit']}), of {readings['states_seen']} seen; "
            f"{readings['engine_calls']} engine calls, {readings.get('seconds', 0)} s")
    best = groups[0][0]
    if not n:
        head = "readings: no state in these games where the readings differ: nothing separates them"
        shown = groups[1:]
    elif best["agreed"] == 0:
        head = f"readings: none agrees with the engine at any of the {n} states judged"
        shown = groups
    else:
        tie = " (tied)" if len(groups[0]) > 1 else ""
        head = f"readings: the engine follows {names(groups[0])}{tie} best: {score(best)}"
        shown = groups[1:]
    rest = "; ".join(f"{names(g)} {score(g[0])}" for g in shown)
    lines = [f"{head}{'; then ' if best['agreed'] else '; '}{rest} ({cost})" if rest else f"{head} ({cost})"]
    for g in groups:
        if len(g) < 2:
            continue
        notes = [g[0]["separated_by"][r["label"]] for r in g[1:]]
        more = f"; and {len(notes) - 4} more (--json: separated_by)" if len(notes) > 4 else ""
        lines.append(f"  tie {names(g)}: " + "; ".join(notes[:4]) + more)
    if readings.get("unchecked"):
        lines.append(f"  readings not checked: {'; '.join(sorted(set(readings['unchecked'])))}")
    return "\n".join(lines)


def _not_played(info: dict[str, Any]) -> str:
    """``, 3 games not played by the engine (2 seeded, 1 from the perft positions)``, or nothing: the
    same count in the headline and in the line of the first such game."""
    n, positions = len(info["skipped"]), info.get("skipped_positions", 0)
    if not n:
        return ""
    return (f", {n} games not played by the engine ({n - positions} seeded, {positions} from the perft "
            "positions)")


def options_text(opts: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in opts.items()) or "the presets' own options"
