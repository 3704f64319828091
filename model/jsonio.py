"""Reading JSON input: the one place where text and files become JSON values, so that a broken or
hostile input is one ``JSONInputError`` line and never a traceback.

Refused here: text that is not JSON, nesting deeper than the parser's recursion limit (``"[" *
100000``), integers of more than 4300 digits (Python's int-string limit), ``NaN`` and
``Infinity`` (not JSON, though ``json`` reads them), bytes that are not UTF-8, and paths that
cannot be read (missing, a directory). What the value means is checked later, by schemas/shapes.py.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from model.errors import InputError


class JSONInputError(InputError):
    """Input that is not a JSON value: ``reason`` says why; ``line`` and ``column`` (1-based, 0 if
    unknown) say where in the text, ``where`` names the source."""

    def __init__(self, where: str, reason: str, line: int = 0, column: int = 0) -> None:
        place = f"{where}:{line}" if where and line else where
        super().__init__(f"{place}: {reason}" if place else reason)
        self.where, self.reason, self.line, self.column = where, reason, line, column


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)  # json.loads(text, **kw) builds one per call


def loads(text: str, where: str = "") -> Any:
    """The JSON value of ``text``; JSONInputError (``not JSON: ...``) for anything else."""
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as e:
        raise JSONInputError(where, f"not JSON: {e.msg}", e.lineno, e.colno) from None
    except RecursionError:
        raise JSONInputError(where, "not JSON: nested too deeply") from None
    except ValueError as e:  # NaN / Infinity, or an integer beyond the int-string limit
        why = str(e)
        if "digits" in why:
            why = f"an integer with more than {sys.get_int_max_str_digits()} digits"
        raise JSONInputError(where, f"not JSON: {why}") from None


def decode(data: bytes, where: str = "") -> str:
    """``data`` as UTF-8 text; JSONInputError naming the first bad byte otherwise."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JSONInputError(where, f"not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})") \
            from None


def read_text(source: str | os.PathLike[str], where: str | None = None) -> str:
    """The UTF-8 text of a file (``-``: standard input); JSONInputError if it cannot be read."""
    name = str(source)
    label = where if where is not None else ("stdin" if name == "-" else name)
    try:
        if name == "-":
            stream = sys.stdin
            buffer = getattr(stream, "buffer", None)
            return decode(buffer.read(), label) if buffer is not None else stream.read()
        with open(source, "rb") as f:
            data = f.read()
    except OSError as e:
        raise JSONInputError(label, f"cannot read: {e.strerror or e}") from None
    return decode(data, label)


def read_json(source: str | os.PathLike[str], where: str | None = None) -> Any:
    """The JSON value in a file (``-``: standard input); JSONInputError if it cannot be read."""
    name = str(source)
    label = where if where is not None else ("stdin" if name == "-" else name)
    return loads(read_text(source, label), label)
