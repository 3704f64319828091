"""The commands docs/tools.md shows, run as the page gives them (issue 61: every documented command
run by a test, or by a benchmark with its duration recorded).

``commands`` reads them from the page's ```bash blocks (a trailing ``# comment`` dropped). Each is
declared once, in ``SHORT`` (tests/test_tools_doc.py runs it) or in ``LONG`` (``scripts/bench.py
docs`` runs it once under a cap and prints its seconds and exit code); a command in neither, or in
both, fails tests/test_tools_doc.py, so a command added to the page must say which runs it.
Commands run in page order in a scratch directory that links the repository's ``scripts/``,
``tests/`` and ``docs/`` (their outputs land there, never in the repository); one that reads
another's output (``NEEDS``: ``out/duels``, ``line.json``, ...) has that one run first, untimed.
A command runs in its own process group: at its cap, or on an interrupt, the group gets SIGTERM
(the scripts report what they kept), then SIGKILL 10 s later. Never prints."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "tools.md"
LINKED = ("scripts", "tests", "docs")  # the repository's folders a documented command reads

# The page's long commands (each past about 15 s on this project's 2-core machine, docs/tools.md):
# ``scripts/bench.py docs`` times them.
LONG = frozenset({
    "python scripts/check_record.py --z3 out/duels/*.jsonl",
    "python scripts/bench.py engine",
    "python scripts/check_spec.py --states 1000",
    "python scripts/prove_rules.py --mutants",
    "python scripts/cross_check.py --objective coop --positions 200",
    "python scripts/fuzz.py --records 10000 --positions 2000 --states 1000",
    "python scripts/bench.py solvers --objective coop --node-limit 10000",
    "python scripts/bench.py solvers --objective coop --real",
    "python scripts/bench.py seats --compare 10000",
    "python scripts/trade_graph.py rio4-8cards --json > deals.json",
})
# The short ones (seconds each): tests/test_tools_doc.py runs them, every one to exit 0.
SHORT = frozenset({
    "python scripts/simulate.py --players 4 --games 600 --seed 1 --ruleset amigo --bots random --json",
    "python scripts/simulate.py --players 2 --games 100 --seed 3 --bots greedy --record out/duels",
    "python scripts/check_record.py out/duels/*.jsonl",
    "python scripts/solve_endgame.py --list",
    "python scripts/solve_endgame.py rio4-8cards --objective coop --time-limit 15",
    "python scripts/solve_endgame.py duel-9cards --objective duel --json",
    "python scripts/solve_endgame.py rio3-9cards --objective expected",
    "python scripts/show.py tests/conformance/records/referee/three-deviations.jsonl --out record.html",
    "python scripts/solve_endgame.py --html line.html",
    "python scripts/solve_endgame.py --json > line.json && python scripts/show.py line.json --out "
    "from-json.html",
    "python scripts/show.py tests/conformance/records/legal/rio-grande-4p.jsonl --seat 2 --out p2.html",
    "python scripts/show.py trade-map --trade-graph --out deals.html",
    "python scripts/show.py line.json --svg position.svg --step 5",
    "chromium --headless --no-sandbox --hide-scrollbars --window-size=1000,830 --screenshot=position.png "
    "position.svg",
    "python scripts/trade_graph.py",
    "python scripts/trade_graph.py trade-map --png deals.png --graphml deals.graphml",
    "python scripts/trade_graph.py out/games/*.jsonl --png network.png",
    "python scripts/simulate.py --players 4 --games 50 --seed 1 --option isla=true --bots greedy --json",
    "python scripts/simulate.py --players 2 --games 50 --seed 1 --option isla=true --record out/isla-duels",
    "python scripts/solve_endgame.py --from-game 3 --players 4 --cards-left 10 --option isla=true "
    "--position-only --json > isla.json",
    "python scripts/show.py isla.json --out isla.html",
    "python scripts/solve_endgame.py isla-rio4-5cards --objective solo",
})
# What a command reads that another command makes: run first (untimed) when not run yet. The
# games of ``out/games`` come from a command the page does not show (any simulate.py --record).
NEEDS: dict[str, tuple[str, ...]] = {
    "python scripts/check_record.py out/duels/*.jsonl":
        ("python scripts/simulate.py --players 2 --games 100 --seed 3 --bots greedy --record out/duels",),
    "python scripts/check_record.py --z3 out/duels/*.jsonl":
        ("python scripts/simulate.py --players 2 --games 100 --seed 3 --bots greedy --record out/duels",),
    "python scripts/show.py line.json --svg position.svg --step 5":
        ("python scripts/solve_endgame.py --json > line.json && python scripts/show.py line.json --out "
         "from-json.html",),
    "chromium --headless --no-sandbox --hide-scrollbars --window-size=1000,830 --screenshot=position.png "
    "position.svg": ("python scripts/show.py line.json --svg position.svg --step 5",),
    "python scripts/trade_graph.py out/games/*.jsonl --png network.png":
        ("python scripts/simulate.py --players 4 --games 20 --seed 1 --bots greedy --record out/games",),
    "python scripts/show.py isla.json --out isla.html":
        ("python scripts/solve_endgame.py --from-game 3 --players 4 --cards-left 10 --option isla=true "
         "--position-only --json > isla.json",),
}
KILL_AFTER = 10.0  # seconds from SIGTERM at the cap to SIGKILL


@dataclass(frozen=True)
class Ran:
    """One command's run: its seconds, its exit code (a signal's as minus its number), whether the
    cap stopped it, ``role`` "timed" (asked for) or "setup" (``NEEDS``), and its last stderr line."""

    command: str
    seconds: float
    code: int
    stopped: bool
    role: str
    last: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def commands(text: str | None = None) -> list[str]:
    """The commands of ``text`` (default: docs/tools.md), in page order, each once: every line of
    its ```bash blocks, without a trailing comment."""
    page = PAGE.read_text(encoding="utf-8") if text is None else text
    out: list[str] = []
    for block in re.findall(r"^```bash\n(.*?)^```", page, flags=re.M | re.S):
        for line in block.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and command not in out:
                out.append(command)
    return out


def uncovered(page: list[str] | None = None) -> list[str]:
    """What is wrong with the declarations against the page's commands (default: docs/tools.md's),
    one line each: a command in neither ``SHORT`` nor ``LONG`` or in both, a declared command the
    page no longer shows, a ``NEEDS`` entry for a command it does not show."""
    shown = commands() if page is None else page
    wrong = [f"neither SHORT nor LONG (no test or benchmark runs it): {c}" for c in shown
             if c not in SHORT and c not in LONG]
    wrong += [f"both SHORT and LONG: {c}" for c in shown if c in SHORT and c in LONG]
    wrong += [f"declared but not on the page: {c}" for c in sorted((SHORT | LONG) - set(shown))]
    wrong += [f"NEEDS of a command not on the page: {c}" for c in NEEDS if c not in shown]
    return wrong


WRITES = re.compile(r"(?:--out|--html|--png|--graphml|--svg|--record|>)\s+(\S+)|--screenshot=(\S+)")


def outputs(command: str) -> list[str]:
    """The files (or, for ``--record``, the folder) ``command`` writes, by its options and its
    redirections: ``--out``, ``--html``, ``--png``, ``--graphml``, ``--svg``, ``--screenshot=``, ``>``."""
    return [a or b for a, b in WRITES.findall(command)]


def scratch(where: str | None = None) -> Path:
    """A new scratch directory (in ``where``, default the system's) linking the repository's
    folders the commands read."""
    path = Path(tempfile.mkdtemp(prefix="bohnanza-docs-", dir=where))
    for name in LINKED:
        (path / name).symlink_to(ROOT / name, target_is_directory=True)
    return path


def _env() -> dict[str, str]:
    """The environment of a command: ``python`` is this interpreter (its venv first on PATH)."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def run_one(command: str, cwd: Path, cap: float, role: str = "timed", log: str | None = None) -> Ran:
    """``command`` in a shell in ``cwd``, at most ``cap`` seconds (then SIGTERM to its process
    group, SIGKILL ``KILL_AFTER`` s later). An interrupt of this process ends the group the same
    way before it is raised. ``log``: a file name in ``cwd`` for its stdout (a command stopped at
    the cap prints its partial report there), else it is dropped."""
    err = cwd / f".stderr-{os.getpid()}"
    t0 = time.monotonic()
    with open(err, "w", encoding="utf-8") as sink, open(cwd / log if log else os.devnull, "wb") as out:
        proc = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=_env(), stdin=subprocess.DEVNULL,
                                stdout=out, stderr=sink, start_new_session=True)
        stopped = False
        try:
            try:
                proc.wait(timeout=cap)
            except subprocess.TimeoutExpired:
                stopped = True
                _end(proc)
        except BaseException:  # an interrupt (or an error) here: the command's group ends first
            _end(proc)
            raise
    seconds = time.monotonic() - t0
    lines = err.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    err.unlink()
    return Ran(command, round(seconds, 2), proc.returncode, stopped, role, lines[-1][:300] if lines else "")


def _end(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the process group of ``proc``, SIGKILL after ``KILL_AFTER`` s if it is still there."""
    for sig, wait in ((signal.SIGTERM, KILL_AFTER), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def plan(selected: Iterable[str], page: list[str] | None = None) -> list[tuple[str, str]]:
    """(command, role) in the order they run: the page's order, each command's ``NEEDS`` first
    (role "setup", unless asked for itself), each command once."""
    wanted = set(selected)
    order = commands() if page is None else page
    unknown = wanted - set(order)
    if unknown:
        raise ValueError(f"not a command of docs/tools.md: {sorted(unknown)[0]!r}")
    out: list[tuple[str, str]] = []
    seen: set[str] = set()

    def add(command: str, role: str) -> None:
        if command in seen:
            return
        for need in NEEDS.get(command, ()):
            add(need, "timed" if need in wanted else "setup")
        seen.add(command)
        out.append((command, role))

    for command in order:
        if command in wanted:
            add(command, "timed")
    return out


def run_page(selected: Iterable[str], cwd: Path, cap: float, into: list[Ran] | None = None,
             report: Callable[[Ran], None] | None = None, before: Callable[[str], None] | None = None
             ) -> list[Ran]:
    """Run ``selected`` commands of the page (``plan``) in ``cwd``, each under ``cap`` seconds;
    ``into`` (returned) gets each run as it ends, so an interrupted caller reports those; the
    stdout of the i-th command run is ``cwd/stdout-NN.txt`` (NN: i, two digits).
    ``before(command)`` as each starts, ``report(ran)`` as each ends."""
    runs: list[Ran] = [] if into is None else into
    for i, (command, role) in enumerate(plan(selected), 1):
        if before is not None:
            before(command)
        ran = run_one(command, cwd, cap, role, log=f"stdout-{i:02d}.txt")
        runs.append(ran)
        if report is not None:
            report(ran)
    return runs
