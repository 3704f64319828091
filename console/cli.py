"""The command-line frame every script shares (STYLE.md "Command-line tools").

One parser style (the docstring with its examples, every default shown), one set of exit codes, one
line per error, Ctrl-C answered with what was kept, and output targets checked before any work:

  0 ok, 1 the answer is "no" (illegal, disagreement, mutant survived), 2 bad input or usage,
  3 the two referees disagree, 70 an internal error (a bug: one line, the traceback with --debug),
  130 interrupted by Ctrl-C or SIGTERM (one line saying which partial results were kept).

A ``BohnanzaError`` reaching the frame is the user's (exit 2), and so is an optional extra that is
not installed (``EXTRAS``: one line naming the extra to install); anything else is ours (exit 70).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import signal
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from console.progress import STATUS_EVERY, Heartbeat, Progress, enabled
from model.errors import BohnanzaError, UsageError, command_line

OK, NO, BAD_INPUT, DISAGREE, INTERNAL, INTERRUPTED = 0, 1, 2, 3, 70, 130
UNDECIDED = 4  # a search ran out of time before it could say yes or no (check_record's unknown cards)
# The cyclic garbage collector less often than Python's default (700, 10, 10): the searches and the
# engine allocate millions of small objects, few of them in cycles, and the collections cost exact
# search about a tenth of its CPU (solve_endgame.py rio4-8cards --objective coop --solver exact
# --node-limit 100000, side by side: CPU ratio 0.88, the same peak memory). The test suite too.
GC_THRESHOLDS = (10_000, 10, 10)
# The optional extras (pyproject.toml), by the top-level module a tool imports from each: a tool that
# reaches one that is not installed says which extra to install, in one line, exit 2 (``run``).
EXTRAS = {"pyspiel": "openspiel", "open_spiel": "openspiel", "pettingzoo": "pettingzoo",
          "matplotlib": "plots", "ray": "cluster", "playwright": "test"}


class OutputError(UsageError):
    """An output target that is a directory, exists (without --force) or cannot be written."""


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """The module docstring as written (with its examples) and every option's default, once: a help
    text that already says its default (``default: out/study-NAME``) gets no second one."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text:
            return text
        return super()._get_help_string(action)


def ignore_interrupts() -> None:
    """A worker process's initializer: Ctrl-C reaches the whole process group, but only the parent
    acts on it (it stops the pool and reports what it kept), so a worker prints no traceback. SIGTERM
    keeps its default in a worker (a forked one inherits the parent's ``terminate_as_interrupt``):
    the parent's pool ends its workers with it, at once, even inside a C call."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


_MAIN_PID: list[int] = []  # the process that installed ``terminate_as_interrupt``'s handler
_TERMINATED = threading.Event()  # a SIGTERM came: the run ends, no new search starts


def terminated() -> bool:
    """Whether this process got SIGTERM (``terminate_as_interrupt``). A Ctrl-C stops the search in
    progress; SIGTERM stops the run: a search block entered after it starts interrupted
    (``solvers.cpsat_run.interruptible``), so a loop of searches ends too."""
    return _TERMINATED.is_set()


SignalHandler = Callable[[int, FrameType | None], Any] | int | None  # what signal.signal takes and returns


def terminate_as_interrupt() -> SignalHandler:
    """SIGTERM (what ``timeout``, ``kill`` and CI runners send) ends the run as Ctrl-C does: it is
    handed to the SIGINT handler in force (Python's KeyboardInterrupt, or a search's own handler
    that stops at a safe point), so the script reports what it kept and exits 130. ``run`` installs
    it; off the main thread it does nothing. A process forked from this one that kept the handler
    (not through ``ignore_interrupts``) gets SIGTERM's default back: it ends at once, as it would
    have without the handler. Returns the handler it replaced (None off the main thread), which
    ``run`` puts back when the script's work is over (a test calling ``main`` keeps its own)."""
    try:
        old = signal.signal(signal.SIGTERM, _sigterm)
    except ValueError:  # not the main thread: Python gives signals to the main thread only
        return None
    _TERMINATED.clear()  # a new run (a test runs several in one process)
    _MAIN_PID[:] = [os.getpid()]
    return old


def _sigterm(signum: int, frame: FrameType | None) -> None:
    if _MAIN_PID != [os.getpid()]:  # a forked child: end as an unhandled SIGTERM would
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    _TERMINATED.set()
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
        return
    raise KeyboardInterrupt  # SIGINT ignored (a background job of a shell script) or at its default


class Parser(argparse.ArgumentParser):
    """argparse with a usage error on one line (``prog: error: ... (see --help)``), exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(BAD_INPUT, f"{self.prog}: error: {message} (see --help)\n")


def parser(doc: str | None, *, progress: bool = False, force: bool = False) -> Parser:
    """The script's parser with the frame's own options: --debug, --quiet, and --progress / --force."""
    p = Parser(description=doc, formatter_class=HelpFormatter)
    p.add_argument("--debug", action="store_true",
                   help="on an internal error, print the traceback (please include it in a report)")
    p.add_argument("--quiet", action="store_true",
                   help=f"no progress and no status lines (off a terminal or with --json: a line on "
                        f"stderr every {STATUS_EVERY:.0f} s while the work runs)")
    if progress:
        p.add_argument("--progress", action="store_true",
                       help="show progress even off a terminal (one line on stderr per update)")
    if force:
        p.add_argument("--force", action="store_true", help="overwrite output files that exist")
    return p


class Frame:
    """What the body of a script shares with the frame: progress displays, and ``kept``: what an
    interrupt leaves (the partial results, said in the one line printed on Ctrl-C). In mode
    'status' (off a terminal or with ``--json``, without ``--quiet``) a heartbeat says on stderr
    what runs, its count and the time elapsed, every ``console.progress.status_every()`` seconds."""

    def __init__(self, name: str, args: argparse.Namespace) -> None:
        self.name = name
        self.debug = bool(getattr(args, "debug", False))
        self.mode = enabled(bool(getattr(args, "json", False)), bool(getattr(args, "progress", False)),
                            quiet=bool(getattr(args, "quiet", False)))
        self.kept = ""
        self._shown: list[Progress] = []
        self._heartbeat = Heartbeat(name, self._status).start() if self.mode == "status" else None

    @property
    def shows(self) -> bool:
        """Whether progress is drawn (a bar, or lines with ``--progress``)."""
        return self.mode in ("bar", "lines")

    def _status(self) -> str:
        running = [bar for bar in self._shown if not bar.closed]
        return running[-1].status() if running else "working"

    def stop(self) -> None:
        """Close the displays and stop the heartbeat: the work is over."""
        self.close()
        if self._heartbeat is not None:
            self._heartbeat.stop()
            self._heartbeat = None

    def progress(self, desc: str, total: int | None = None, unit: str = "it") -> Progress:
        bar = Progress(desc, self.mode, total, unit)
        self._shown.append(bar)
        return bar

    def close(self) -> None:
        for bar in self._shown:
            bar.close()
        self._shown.clear()

    def say(self, text: str) -> None:
        """One line on stderr, prefixed with the script's name."""
        self.close()
        print(f"{self.name}: {text}", file=sys.stderr, flush=True)


def _interrupted(frame: Frame) -> int:
    frame.say("interrupted" + (f"; {frame.kept}" if frame.kept else ""))
    # An object the interrupt caught half made (a Z3 term without its context) fails in its
    # __del__ as the process ends; Python would print that as "Exception ignored in ...".
    sys.unraisablehook = lambda unraisable: None
    return INTERRUPTED


def _is_ctrl_c(e: BaseException) -> bool:
    """A Ctrl-C that landed inside a ctypes call (Z3's): ctypes hands it on as an ArgumentError; or
    one that an error raised while it was being handled hides: a Ctrl-C inside a lock's wait
    (``concurrent.futures.wait``) can leave ``threading.Condition`` to fail with "release unlocked
    lock", the KeyboardInterrupt its context (seen once in a CI run of tests/test_sigint.py)."""
    seen: set[int] = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt) or (type(e).__name__ == "ArgumentError"
                                                and "KeyboardInterrupt" in str(e)):
            return True
        seen.add(id(e))
        e = e.__cause__ or e.__context__  # type: ignore[assignment]
    return False


def exit(code: int) -> NoReturn:
    """End a script with ``code``. After an interrupt the process ends at once, its output flushed:
    the interpreter's teardown would free Z3 objects the interrupt left half made, which can crash
    the process (exit -11 instead of 130) after the verdicts are printed. A stopped worker pool's
    semaphores are released first (multiprocessing's exit hooks, which ``os._exit`` skips), so the
    resource tracker warns of no leak."""
    if code == INTERRUPTED:
        mp_util = sys.modules.get("multiprocessing.util")
        if mp_util is not None:
            mp_util._run_finalizers(0)  # what multiprocessing runs at a normal exit: unlink, join
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


# The interrupts ``run`` caught, with their tracebacks: freeing the frames they hold would free Z3
# objects the interrupt left half made, which crashed prove_rules (exit -11 after its verdicts, one
# run in three); ``exit`` then ends the process before the interpreter frees anything.
_KEPT: list[BaseException] = []


def run(name: str, args: argparse.Namespace, body: Callable[[Frame], int]) -> int:
    """``body(frame)``'s exit code; errors, interrupts and bugs become one line and their code."""
    gc.set_threshold(*GC_THRESHOLDS)
    old_sigterm = terminate_as_interrupt()
    frame = Frame(name, args)
    sys.unraisablehook = _unraisable
    try:
        return _run(frame, body)
    finally:
        frame.stop()
        if old_sigterm is not None:
            signal.signal(signal.SIGTERM, old_sigterm)
            _TERMINATED.clear()


def _run(frame: Frame, body: Callable[[Frame], int]) -> int:
    try:
        code = body(frame)
        frame.close()
        return code
    except BohnanzaError as e:
        frame.say(command_line(e))  # an argument's error names the flag, not the Python argument
        return BAD_INPUT
    except KeyboardInterrupt as e:
        _KEPT.append(e)  # its frames' Z3 objects stay alive until ``exit`` leaves at once
        return _interrupted(frame)
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly
        frame.close()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return OK
    except RecursionError:
        frame.say("internal error: the input nests too deeply for this tool; please report it")
        return INTERNAL
    except Exception as e:  # a bug: one line, the traceback only on request
        if _is_ctrl_c(e):
            _KEPT.append(e)
            return _interrupted(frame)
        extra = missing_extra(e)
        if extra:
            frame.say(extra)
            return BAD_INPUT
        if frame.debug:
            frame.close()
            traceback.print_exc()
        where = _where(e)
        frame.say(f"internal error: {type(e).__name__}: {e}{where}; please report it"
                  + ("" if frame.debug else " (rerun with --debug for the traceback)"))
        return INTERNAL


def missing_extra(e: BaseException, what: str = "this") -> str:
    """The one line for an import of an optional extra's module that is not installed (``EXTRAS``),
    or "" when ``e`` is not one."""
    top = (e.name or "").split(".")[0] if isinstance(e, ImportError) else ""
    extra = EXTRAS.get(top)
    if extra is None:
        return ""
    return f"{what} needs {top}, from the optional extra {extra!r}: pip install -e '.[{extra}]'"


def need_extra(module: str, what: str) -> None:
    """Import an optional extra's ``module`` before the work that needs it: a UsageError naming
    ``what`` needs it and the extra to install when it is not installed."""
    try:
        importlib.import_module(module)
    except ImportError as e:
        raise UsageError(missing_extra(e, what) or f"{what} needs {module}: {e}") from None


def _unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    """A Ctrl-C that lands in a ``__del__`` (Z3 frees its terms there all the time) cannot be
    raised; the interrupt handlers also record it, so it is not printed as "Exception ignored". In
    Z3's ``Z3_dec_ref`` it arrives wrapped by ctypes (``_is_ctrl_c``: seen once in a CI run of
    tests/test_sigint.py)."""
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        return
    if unraisable.exc_value is not None and _is_ctrl_c(unraisable.exc_value):
        return
    sys.__unraisablehook__(unraisable)


def _where(e: BaseException) -> str:
    tb = traceback.extract_tb(e.__traceback__)
    if not tb:
        return ""
    last = tb[-1]
    return f" at {Path(last.filename).name}:{last.lineno}"


# ---------------------------------------------------------------- output targets, before the work


def _probe(folder: Path, shown: str) -> None:
    """Create and remove a file in ``folder``: the one sure test that it can be written."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".probe-")
    except OSError as e:
        raise OutputError(f"{shown}: cannot write there: {e.strerror}") from None
    os.close(fd)
    os.unlink(tmp)


def _existing_ancestor(path: Path) -> Path:
    p = path.absolute()
    while not p.exists():
        p = p.parent
    return p


def output_file(path: str | None, force: bool) -> Path | None:
    """Check a file the script will write: not a directory, not there already unless ``force``,
    in a folder that can be written (or created)."""
    if path is None:
        return None
    target = Path(path)
    if target.is_dir():
        raise OutputError(f"{path}: is a directory; give a file name")
    if target.exists() and not force:
        raise OutputError(f"{path}: exists; use --force to overwrite it")
    folder = _existing_ancestor(target.parent)
    if not folder.is_dir():
        raise OutputError(f"{path}: {folder} is not a directory")
    _probe(folder, path)
    return target


def output_dir(path: str, force: bool, names: Iterable[str] = ()) -> Path:
    """Check a directory the script will write ``names`` into (``names`` empty: any file): it is
    a directory or can be made, none of the files exists unless ``force``, and it can be written.
    A directory that does not exist yet is created."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise OutputError(f"{path}: exists and is not a directory")
    if target.is_dir() and not force:
        wanted = list(names)
        there = ([n for n in wanted if (target / n).exists()] if wanted
                 else [p.name for p in target.iterdir()])
        if there:
            more = f" (and {len(there) - 1} more)" if len(there) > 1 else ""
            what = f"{there[0]} exists{more}" if wanted else f"holds {there[0]}{more} already"
            raise OutputError(f"{path}: {what}; use --force to overwrite")
    folder = _existing_ancestor(target)
    if not folder.is_dir():
        raise OutputError(f"{path}: {folder} is not a directory")
    _probe(folder, path)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"{path}: cannot create the directory: {e.strerror}") from None
    return target


def positive(kind: type[int] | type[float], name: str) -> Callable[[str], int | float]:
    """An argparse type: a number > 0 (``--time-limit``, ``--node-limit``, ``--workers``)."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number > 0, got {text!r}") from None
        if not value > 0 or value != value or value == float("inf"):
            raise argparse.ArgumentTypeError(f"{name} must be a number > 0, got {text!r}")
        return value

    return parse


def at_least(low: int, name: str) -> Callable[[str], int]:
    """An argparse type: a whole number >= ``low``."""

    def parse(text: str) -> int:
        wrong = argparse.ArgumentTypeError(f"{name} must be a whole number >= {low}, got {text!r}")
        try:
            value = int(text)
        except ValueError:
            raise wrong from None
        if value < low:
            raise wrong
        return value

    return parse
