"""The harness side of the engine driver protocol (docs/engine-protocol.md): one engine process,
spoken to in JSON lines, and ``serve``, the loop a Python shim runs on the other side.

An engine is a command line (``python my_shim.py``, run in a subprocess) or a Python entry point
``module:factory`` (run in a subprocess too, ``python -m conformance.live.client module:factory``,
so that timeouts and crashes are the same for both and a shim that patches the engine, as the
mutant shim does, never patches the harness's reference). Every reply is checked against its
command's schema (schemas/shapes.py). A reply that does not come within the timeout, a process that
ends, a line that is not JSON or not the reply asked for, or an ``error`` reply is an
``EngineFailure``: one line naming the request; the caller restarts the engine for the next game.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import selectors
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from model.errors import BohnanzaError, UsageError
from model.jsonio import JSONInputError, decode, loads
from schemas.shapes import problem

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = 1
ENTRY_POINT = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
MOST_LINE = 64 * 1024 * 1024  # a reply longer than this is garbage (a shim printing forever)

Handler = Callable[[dict[str, Any]], dict[str, Any]]


class EngineFailure(BohnanzaError):
    """The engine did not answer a request as the protocol says: ``request`` names it."""

    def __init__(self, request: str, why: str) -> None:
        super().__init__(f"engine failed on {request}: {why}")
        self.request, self.why = request, why


def describe(req: dict[str, Any]) -> str:
    """A request in a few words for a message: ``apply p0 plant 0``, ``start amigo 3p``."""
    cmd = str(req.get("cmd"))
    if cmd == "apply":
        return f"apply {req.get('action')}"
    if cmd == "start":
        return "start from a state" if req.get("state") is not None else \
            f"start {req.get('ruleset')} {req.get('players')}p"
    if cmd == "reshuffle":
        return f"reshuffle of {len(req.get('order') or ())} cards"
    if cmd == "legal" and req.get("proposals"):
        return "legal with proposals"
    return cmd


def command_of(engine: str) -> list[str]:
    """The argv that runs ``engine``: a command line, or an entry point served by this module."""
    text = engine.strip()
    if ENTRY_POINT.match(text):
        return [sys.executable, "-m", "conformance.live.client", text]
    try:
        argv = shlex.split(text)
    except ValueError as e:
        raise UsageError(f"--engine {engine!r}: {e}") from None
    if not argv:
        raise UsageError("--engine is empty: give a command line or module:factory")
    return argv


class Engine:
    """One running engine; ``ask(cmd, **fields)`` returns the reply (a dict, ``unsupported`` kept)."""

    def __init__(self, engine: str, timeout: float = 10.0, start_timeout: float = 30.0) -> None:
        self.spec, self.timeout, self.start_timeout = engine, timeout, start_timeout
        self.argv = command_of(engine)
        self.proc: subprocess.Popen[bytes] | None = None
        self._err: IO[bytes] | None = None
        self._buf = b""
        self._id = 0
        self.hello: dict[str, Any] = {}

    # ------------------------------------------------------------ process

    def open(self) -> dict[str, Any]:
        """Start the process and ask ``hello``; the reply is kept in ``self.hello``."""
        self.close()
        self._err = tempfile.TemporaryFile()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._err, env=env, start_new_session=True)
        except OSError as e:
            raise EngineFailure("hello", f"cannot run {self.argv[0]!r}: {e.strerror or e}") from None
        self._buf = b""
        self.hello = self.ask("hello", timeout=self.start_timeout)
        if "unsupported" in self.hello:
            raise EngineFailure("hello", "the engine must answer hello")
        return self.hello

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            try:
                if proc.poll() is None and proc.stdin is not None:
                    proc.stdin.write(b'{"id": 0, "cmd": "quit"}\n')
                    proc.stdin.flush()
                proc.wait(0.5)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    try:
                        stream.close()
                    except OSError:  # a quit line the ended engine never read (seen once under load)
                        pass
        if self._err is not None:
            self._err.close()
            self._err = None

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ requests

    def ask(self, cmd: str, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
        """Send one request and read its reply; EngineFailure (the engine is then closed) if the
        reply is late, missing, not JSON, for another request, of the wrong shape, or an error."""
        self._id += 1
        req = {"id": self._id, "cmd": cmd, **{k: v for k, v in fields.items() if v is not None}}
        what = describe(req)
        try:
            reply = self._exchange(req, what, self.timeout if timeout is None else timeout)
        except EngineFailure:
            self._kill()
            raise
        return reply

    def _exchange(self, req: dict[str, Any], what: str, timeout: float) -> dict[str, Any]:
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise EngineFailure(what, "the engine is not running")
        try:
            proc.stdin.write((json.dumps(req) + "\n").encode())
            proc.stdin.flush()
        except OSError:
            raise EngineFailure(what, self._ended(proc)) from None
        line = self._line(proc, what, timeout)
        try:
            reply = loads(decode(line))
        except JSONInputError as e:
            raise EngineFailure(what, f"the reply is {e.reason}: {_clip(line)}") from None
        if not isinstance(reply, dict):
            raise EngineFailure(what, f"the reply is not a JSON object: {_clip(line)}")
        if reply.get("id") != req["id"]:
            raise EngineFailure(what, f"the reply has id {reply.get('id')!r}, the request {req['id']}")
        if "error" in reply:
            raise EngineFailure(what, f"the engine says: {_clip(str(reply['error']).encode())}")
        if "unsupported" in reply:
            why = problem("engine-unsupported", reply)
        else:
            why = problem(f"engine-{req['cmd']}", reply)
        if why is not None:
            raise EngineFailure(what, f"malformed reply: {why}")
        return reply

    def _line(self, proc: subprocess.Popen[bytes], what: str, timeout: float) -> bytes:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise EngineFailure(what, f"no reply within {timeout:g} s")
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise EngineFailure(what, self._ended(proc))
                self._buf += chunk
                if len(self._buf) > MOST_LINE:
                    raise EngineFailure(what, f"a reply line longer than {MOST_LINE} bytes")
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def _ended(self, proc: subprocess.Popen[bytes]) -> str:
        try:
            code = proc.wait(2)
        except subprocess.TimeoutExpired:
            return "the engine closed its output"
        last = ""
        if self._err is not None:
            self._err.seek(0)
            lines = [x for x in self._err.read().decode(errors="replace").splitlines() if x.strip()]
            last = f"; its last words: {lines[-1].strip()[:200]}" if lines else ""
        return f"the engine exited with code {code}{last}"

    def _kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        self.close()


def _clip(line: bytes, most: int = 80) -> str:
    text = line.decode(errors="replace")
    return repr(text if len(text) <= most else text[:most] + "...")


# ---------------------------------------------------------------- the shim side


def serve(handle: Handler, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
    """Answer requests, one JSON line each, with ``handle(request)`` until ``quit`` or the end of
    input. An exception in ``handle`` becomes an ``error`` reply naming it (the harness stops that
    game); a line that is not JSON gets an ``error`` reply with id 0."""
    inp, out = stdin or sys.stdin, stdout or sys.stdout
    for text in inp:
        if not text.strip():
            continue
        try:
            req = json.loads(text)
            if not isinstance(req, dict):
                raise ValueError("a request is a JSON object")
        except ValueError as e:
            out.write(json.dumps({"id": 0, "error": f"not a request: {e}"}) + "\n")
            out.flush()
            continue
        if req.get("cmd") == "quit":
            return
        try:
            reply = handle(req)
        except Exception as e:  # the shim's own bug: said, and the harness moves on
            reply = {"error": f"{type(e).__name__}: {e}"}
        out.write(json.dumps({"id": req.get("id", 0), **reply}) + "\n")
        out.flush()


def load_entry_point(spec: str) -> Handler:
    """``module:factory`` -> the handler: ``factory()`` returns a callable, or an object whose
    ``handle`` method takes a request and returns the reply (without ``id``)."""
    module, _, name = spec.partition(":")
    try:
        made = getattr(importlib.import_module(module), name)()
    except (ImportError, AttributeError) as e:
        raise UsageError(f"--engine {spec}: {e}") from None
    handle = getattr(made, "handle", made)
    if not callable(handle):
        raise UsageError(f"--engine {spec}: {name}() returned no handler")
    return handle  # type: ignore[no-any-return]


if __name__ == "__main__":
    if len(sys.argv) != 2 or not ENTRY_POINT.match(sys.argv[1]):
        print("usage: python -m conformance.live.client module:factory", file=sys.stderr)
        sys.exit(2)
    sys.path.insert(0, os.getcwd())
    try:
        serve(load_entry_point(sys.argv[1]))
    except UsageError as e:
        print(e, file=sys.stderr)
        sys.exit(2)
