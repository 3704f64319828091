"""solvers.endgame, the Python entry point (docs/python.md): the answer the command line gives.

Past a limit the best line found, feasible, with its proved bound (not an exception); the default
method from the registry, La Isla Bohnita's included (I1-I9); a ``Solution`` that reads in a REPL.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from builders import IDLE, NO_SHIP, P0, isla_seat, isla_state

import model
from model import format_action
from model.errors import ArgumentError, BohnanzaError, MissingFile, UnknownName
from solvers.api import EXPANSION_REGISTRY, Limits, served
from solvers.api import solve as solve_by
from solvers.contract import DUEL, SOLO
from solvers.endgame import load, solve

ROOT = Path(__file__).resolve().parent.parent


def test_exact_search_past_the_time_limit_answers_feasible_with_its_proved_bound() -> None:
    """``solve(s, "coop", method="exact", time_limit=...)`` on rio4-8cards raised
    TimeLimitExceeded; the command line prints the best line found and its bound."""
    sol = solve(load("rio4-8cards"), "coop", method="exact", time_limit=1.0)
    assert sol.status == "feasible" and sol.stats.stopped_by == "time", repr(sol)
    assert sol.bound is not None and sol.bound >= sol.value == sum(sol.per_player)


def test_a_solo_search_past_its_time_limit_answers_the_default_line_feasible() -> None:
    """Exact solo search keeps no line: past its limit P plays the others' default policy (a
    feasible line, no bound proved) instead of raising TimeLimitExceeded."""
    s = load("rio4-18cards")
    sol = solve(s, "solo", method="exact", time_limit=0.001)
    assert (sol.status, sol.stats.stopped_by, sol.bound) == ("feasible", "time", None), repr(sol)
    assert sol.value <= solve(s, "solo", method="exact").value == 8


@pytest.mark.parametrize(("name", "player"), [("duel-9cards", 0), ("duel-9cards", 1), ("isla-duel-7cards", 0),
                                            ("isla-duel-2cards", 1)])
def test_a_duel_past_its_node_limit_answers_a_line_with_its_proved_bound(name: str, player: int) -> None:
    """Both duel searches stopped by a limit: both seats' default policy, feasible, and a bound on
    P's margin that holds (at least the optimum where that is known)."""
    s = load(name)
    sol = solve_by(s, DUEL, "exact", player, Limits(nodes=5), anytime=True)
    assert (sol.status, sol.stats.stopped_by, sol.player) == ("feasible", "nodes", player), repr(sol)
    assert sol.value == sol.per_player[player] - sol.per_player[1 - player]
    assert sol.bound is not None and sol.bound >= sol.value, repr(sol)
    if name != "isla-duel-7cards":  # too large to solve here
        assert sol.bound >= solve(s, "duel", player=player).value


def test_isla_solo_past_its_node_limit_answers_the_policy_line_with_its_proved_bound() -> None:
    s = load("isla-rio4-5cards")
    sol = solve_by(s, SOLO, "exact", None, Limits(nodes=3), anytime=True)
    assert (sol.status, sol.stats.stopped_by) == ("feasible", "nodes"), repr(sol)
    assert sol.bound is not None and sol.bound >= solve(s, "solo").value >= sol.value, repr(sol)


def test_the_default_method_on_an_isla_position_is_the_registry_s() -> None:
    """coop and best on a La Isla Bohnita position: exact search (``EXPANSION_REGISTRY``), as the
    command line picks it, not the flow solver's refusal. p0's last turn turns up two green; given
    to p1 (I3), p1's 3 green become 5: coop 3 (tests/test_isla_open.py works it out)."""
    s = isla_state([P0, isla_seat([], [["green", 3], None]), IDLE, IDLE], [NO_SHIP] * 4, ([], []),
                   ["green", "green"])
    coop, best = solve(s, "coop"), solve(s, "best", player=1)
    assert (coop.value, coop.status, coop.stats.kind) == (3, "optimal", "exact")
    assert coop.per_player == [1, 2, 0, 0]
    assert (best.value, best.status, best.stats.kind) == (2, "optimal", "exact")


def test_a_larger_isla_coop_answers_the_best_line_found_and_its_bound() -> None:
    """isla-amigo3-5cards (docs/python.md's example): feasible within the limit, with its bound."""
    sol = solve(load("isla-amigo3-5cards"), "coop", time_limit=2.0)
    assert sol.stats.kind == "exact" and sol.status in ("feasible", "optimal"), repr(sol)
    assert sol.bound is not None and sol.bound >= sol.value


def test_a_solution_s_repr_is_one_readable_line() -> None:
    sol = solve(load("rio4-last-turn"), "solo", player=1)
    text = repr(sol)
    assert " at 0x" not in text and "\n" not in text, text
    assert text.startswith("Solution(solo p1: value 6, optimal, bound 6, per_player [11, 6, 3, 6], "), text
    assert repr(sol.objective) == "OBJECTIVES['solo']"


def test_a_solution_shows_its_line_in_a_notebook() -> None:
    """``_repr_html_``: the answer, every step with the coins it earns, the final position's picture."""
    s = load("rio4-last-turn")
    sol = solve(s, "solo", player=1)
    html = sol._repr_html_()
    steps = re.findall(r"<li><code>([^<]*)</code>( \[[^]]*\])?</li>", html)
    assert [a for a, _ in steps] == [format_action(a) for a in sol.line]
    earned = sum(int(g) for _, gains in steps for g in re.findall(r"\+(\d+)", gains))
    assert earned == sum(sol.per_player) - sum(len(p.coins) for p in s.players)
    assert html.count("<svg") == 1 and "value 6, optimal" in html


def _pages() -> dict[str, str]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return {str(p.relative_to(ROOT)): re.sub(r"\s+", " ", p.read_text(encoding="utf-8")) for p in pages}


def test_the_docs_say_what_the_registry_solves_on_isla_positions() -> None:
    """Every page agrees with ``EXPANSION_REGISTRY``: the ``--list`` marks quoted anywhere are the
    registry's (``served``), docs/python.md and docs/tools.md name what it serves, the README's
    objective table names for each objective exactly the Isla methods registered for it, and no
    page (nor solve_endgame.py's help) says the Isla objectives but solo are refused."""
    marks = {f"[Isla: {served('isla', duel=False)} only]", f"[Isla duel: {served('isla', duel=True)} only]"}
    pages = _pages()
    for page, text in pages.items():
        for quoted in re.findall(r"\[Isla(?: duel)?: [^]]*\]", text):
            assert quoted in marks, (page, quoted)
        assert "every other objective is refused" not in text, page
        assert not re.search(r"`--objective solo`[^.]*, and every other solver refuses", text), page
    helptext = re.sub(r"\s+", " ", (ROOT / "scripts" / "solve_endgame.py").read_text(encoding="utf-8"))
    assert not re.search(r"`--objective solo`[^.]*, and every other solver refuses", helptext)
    assert served("isla") in pages["docs/python.md"]
    assert served("isla", duel=False) in pages["docs/tools.md"]
    titles = {"exact": "exact search", "cpsat": "CP-SAT"}
    rows = dict(re.findall(r"^\| `(\w+)[ P]*` \|[^|]*\| ([^|]*) \|$",
                           (ROOT / "README.md").read_text(encoding="utf-8"), re.MULTILINE))
    for objective in ("solo", "coop", "best", "duel"):
        isla = re.split(r"La Isla Bohnita:|the Isla duel:", rows[objective])[1]
        have = {m for x, o, m in EXPANSION_REGISTRY if x == "isla" and o.name == objective}
        for method, title in titles.items():
            assert (title in isla) == (method in have), (objective, method, isla)



S = load("rio4-last-turn")
CALLS: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    ("a missing name", lambda: load("no-such-position"), FileNotFoundError, "no-such-position: no such file"),
    ("a missing file", lambda: load("no-such.json"), FileNotFoundError, "no-such.json: no such file"),
    ("an unknown objective", lambda: solve(S, "fastest"), LookupError, "objective='fastest': one of solo, "),
    ("an unknown method", lambda: solve(S, "best", method="magic"), LookupError,
     "method='magic': best has no magic solver"),
    ("a seat out of range", lambda: solve(S, "best", player=9), ArgumentError, "player=9: there are 4 seats"),
    ("no time", lambda: solve(S, "best", time_limit=0), ArgumentError, "time_limit=0: must be more than 0"),
    ("a duel seat", lambda: solve(load("duel-4cards"), "duel", player=2), ArgumentError,
     "player=2: the bean duel has seats 0 and 1"),
    ("an unknown ruleset", lambda: model.new_game("zzz", players=4, seed=1), ValueError,
     "unknown ruleset 'zzz'"),
    ("an illegal action", lambda: model.apply(S, model.parse_action("p3 plant 0")), ValueError,
     "p3 cannot act"),
]


@pytest.mark.parametrize(("what", "call", "kind", "message"), CALLS, ids=[c[0] for c in CALLS])
def test_every_error_a_caller_can_cause_is_one_family_in_python_s_terms(
        what: str, call: Callable[[], object], kind: type[Exception], message: str) -> None:
    """A ``BohnanzaError`` of the kind Python users catch (``FileNotFoundError``, ``LookupError``,
    ``ValueError``), its message naming the argument as Python does, never a command-line flag."""
    with pytest.raises(BohnanzaError) as e:
        call()
    assert isinstance(e.value, kind), type(e.value).__mro__
    assert str(e.value).startswith(message), str(e.value)
    assert "--" not in str(e.value), str(e.value)
    assert issubclass(MissingFile, FileNotFoundError) and issubclass(UnknownName, LookupError)


def test_the_command_line_names_the_flag_for_the_same_error() -> None:
    """``solve_endgame.py --player 9`` keeps its one line in the command line's terms, exit 2."""
    proc = subprocess.run([sys.executable, "scripts/solve_endgame.py", "rio4-last-turn", "--objective",
                           "best", "--player", "9"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == "solve_endgame.py: --player 9: there are 4 seats", proc.stderr
