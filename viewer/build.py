"""The viewer's page for a source: a game record (every line replayed as ``check_record.py --all``
does, its deviations at their lines), a solved line (``solve_endgame.py --json``: the coins each step
earns, the objective's running value) or a position (with its trade graph on request)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from model import apply, format_action, jsonio, parse_action
from model.engine import IllegalAction
from model.errors import InputError, UsageError
from model.state import GameState
from model.steps import STEPS
from records.game import RecordFormatError, parse_record
from records.referee import action_name, follow
from schemas.position_io import PositionInputError, read_json, state_of
from solvers.contract import OBJECTIVES
from solvers.positions import BUILTINS, read_position, unknown_position
from viewer.page import Page, check_seat, deal_of, deal_svg, steps_text
from viewer.trade_graph import trade_graph_html


def record_page(path: str, seat: int | None) -> Page:
    """Every line of the record, replayed as ``check_record.py --all`` does (records.referee.follow):
    its deviations at their lines, and where the replay stopped."""
    try:
        rec = parse_record(jsonio.read_text(path))
    except RecordFormatError as e:
        raise InputError(f"{path}:{e.line}: malformed record: {e.reason}") from None
    if rec.unknown:
        raise InputError(f"{path}: {rec.unknown} unknown cards (null): show.py draws records whose every "
                         "card is known (check_record.py judges the others)")
    check_seat(seat, rec.players, path)
    page = Page(f"{Path(path).name}: {rec.rules.name}, {rec.players} players", seat, unit="line")
    s0 = rec.initial_state()
    states: list[GameState] = [s0]
    run = follow(rec, every=True, on_step=lambda k, s: states.append(s))
    first = rec.lines[0] - 1 if rec.lines else 1
    start = " (the header's state)" if rec.start is not None else ""
    page.add(s0, f"line {first}: the start{start}", first)
    for k, s in enumerate(states[1:]):
        action = rec.actions[k]
        deal = deal_of(states[k], action)
        page.add(s, f"line {rec.lines[k]}: {action_name(action)}", rec.lines[k],
                 **({"d": deal_svg(*deal)} if deal else {}))
    if run.stopped:
        page.steps[-1]["s"] = (f"the replay stops at line {run.stopped}: the record cannot be followed: "
                               f"{run.why}")
    by_line = {st["l"]: i for i, st in enumerate(page.steps)}
    last = len(page.steps) - 1
    for k, d in enumerate(run.deviations):
        step = by_line.get(d.line, last)  # a line not replayed (the stop, the end line): the last state
        reason = d.reason if seat is None else f"(the reason is hidden in p{seat}'s view: it may name cards)"
        page.devs.append({"line": d.line, "step": step, "kind": d.kind, "rule": d.rule, "action": d.action,
                          "reason": reason})
        page.steps[step].setdefault("x", []).append(k)
    tally = ", ".join(f"{r} {n}" for r, n in _by_rule(run.deviations).items())
    n = len(run.deviations)
    verdict = f"{n} deviation{'s' * (n != 1)} ({tally})" if n else "legal"
    page.verdict = f"{n} deviation{'s' * (n != 1)}" if n else "legal"
    page.summary.append(f"{path}: {len(rec.actions)} lines after the header, {len(states) - 1} replayed; "
                        f"{verdict} (check_record.py --all)")
    if run.stopped:
        page.summary.append(f"stopped at line {run.stopped}: {run.why}")
    page.start = page.devs[0]["step"] if page.devs else 0
    return page


def _by_rule(devs: list[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in devs:
        key = d.rule if d.kind != "desync" else "desync"
        out[key] = out.get(key, 0) + 1
    return out


# The objectives answered by a line (solvers/contract.py): what a line page draws.
LINE_OBJECTIVES = {name: o for name, o in OBJECTIVES.items() if not o.policy}


def line_page(sol: dict[str, Any], s0: GameState, where: str, seat: int | None) -> Page:
    """The solver's line step by step: coins each step earns, the objective's running value."""
    check_seat(seat, len(s0.players), where)
    objective, player = sol.get("objective"), sol.get("player")
    goal = LINE_OBJECTIVES.get(str(objective))
    if goal is None or not isinstance(player, int) or not 0 <= player < len(s0.players):
        names = list(LINE_OBJECTIVES)
        raise InputError(f"{where}: objective/player: a line of {', '.join(names[:-1])} or {names[-1]} for a "
                         f"seat of the position, got {objective!r} p{player!r}")
    line = sol.get("line")
    if not isinstance(line, list) or not all(isinstance(x, str) for x in line):
        raise InputError(f"{where}: line: a list of actions in notation")
    page = Page(f"{where}: {objective} p{player}, value {sol.get('value')} ({sol.get('status')})", seat)

    def value(s: GameState) -> int | None:
        c = [len(p.coins) for p in s.players]
        if seat is not None and not all(page.sees_coins(s, q) for q in range(len(c))) \
                and (goal.duel or not goal.needs_player):
            return None  # H7: the others' coins are hidden (coop's sum, the duel's margin)
        if goal.duel and len(c) != 2:
            return c[player]  # not a duel position: the seat's coins
        return goal.value(c, player)

    s = s0
    page.add(s, "the position", 0, v=value(s))
    for k, text in enumerate(line):
        try:
            a = parse_action(text)
            with STEPS.traced("finish") as ended:  # the final harvest (E3), if this step ends the game
                nxt = apply(s, a)
        except IllegalAction as e:
            raise InputError(f"{where}: line[{k}]: illegal {text}: {e.reason} [{e.rule}]") from None
        except ValueError as e:
            raise InputError(f"{where}: line[{k}]: {e}") from None
        own = ended[0][1][0] if ended else nxt  # the state before the final harvest: the step's own coins
        earned = "earns " + (_gains(page, s, own, nxt) or "nothing")
        if ended:
            earned += "; the game ends: final harvest (E3) " + (_gains(page, own, nxt, nxt) or "pays nothing")
        deal = deal_of(s, a)
        turn = f"turn {s.turn}, p{s.active} active"
        page.add(nxt, f"{k + 1}. {turn}: {format_action(a)}", k + 1, u=turn, r=f"{k + 1}. {format_action(a)}",
                 g=earned, v=value(nxt), **({"d": deal_svg(*deal)} if deal else {}))
        s = nxt
    final = value(s)
    page.verdict = f"{objective} p{player} reaches {final} ({sol.get('status')})"
    page.summary.append(f"{steps_text(len(line))}; objective {objective} p{player}: the line reaches "
                        f"{final}, the solver says {sol.get('value')} ({sol.get('status')}, "
                        f"bound {sol.get('bound')})")
    return page


def _gains(page: Page, before: GameState, after: GameState, shown: GameState) -> str:
    """The coins each seat gained from ``before`` to ``after``, as far as the page's seat sees them in
    ``shown`` (H7): "p1 +2, p3 +1", or ""."""
    was = [len(p.coins) for p in before.players]
    return ", ".join(f"p{q} +{len(p.coins) - was[q]}" for q, p in enumerate(after.players)
                     if len(p.coins) != was[q] and page.sees_coins(shown, q))


def _line_state(sol: dict[str, Any], where: str) -> tuple[GameState, str]:
    """The position a solved line starts from: its ``state`` (solve_endgame.py --json writes it), else
    the built-in position or file its ``position`` names."""
    if "state" in sol:
        return state_of(sol["state"], f"{where}: state"), str(sol.get("position", where))
    name = str(sol.get("position", "")).split(":", 1)[0]
    if name in BUILTINS:
        return BUILTINS[name].position(), name
    if name and Path(name).is_file():
        return read_position(name), name
    raise InputError(f"{where}: state: missing, and position {sol.get('position')!r} is neither a built-in "
                     "position nor a file (solve_endgame.py --json writes the state)")


def position_page(s: GameState, where: str, seat: int | None, graph: bool) -> Page:
    check_seat(seat, len(s.players), where)
    page = Page(f"{where}", seat)
    page.add(s, "the position", 0)
    page.summary.append(f"{where}: {s.setup.rules.name}, {len(s.players)} players")
    page.verdict = f"a position ({s.setup.rules.name}, {len(s.players)} players, p{s.active} active)"
    if graph:
        page.extra = trade_graph_html(s, where)
    return page


def build(source: str, seat: int | None = None, graph: bool = False) -> Page:
    """The page for ``source``: a record (*.jsonl), a solved line's JSON, a position or a built-in name."""
    if source.endswith(".jsonl"):
        if graph:
            raise UsageError("--trade-graph maps a position, not a record")
        return record_page(source, seat)
    if source in BUILTINS and not Path(source).exists():
        return position_page(BUILTINS[source].position(), source, seat, graph)
    if source != "-" and not Path(source).is_file():
        raise UsageError(unknown_position(source))
    obj = read_json(source)
    if isinstance(obj, dict) and "line" in obj and "objective" in obj:
        s, where = _line_state(obj, source)
        page = line_page(obj, s, where, seat)
        if graph:  # the deals of the line's starting position
            page.extra = trade_graph_html(s, where)
        return page
    try:
        s = state_of(obj, source)
    except PositionInputError:
        raise
    return position_page(s, source, seat, graph)
