"""docs/architecture.md matches the tree: every module of every layer is named in it (by its path
or its file name), and every ``*.py`` file it names exists. A module added without a line there,
or one moved or removed while the page still names it, fails here."""

from __future__ import annotations

import re
from pathlib import Path

from test_layers import RANK

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def _modules() -> list[Path]:
    return sorted(p for layer in RANK for p in (ROOT / layer).rglob("*.py") if "__pycache__" not in p.parts)


def _unnamed(doc: str) -> list[str]:
    """The layers' modules (``__init__.py`` aside) that ``doc`` names neither by path, nor by file
    name, nor as a name in backquotes (the studies' list: `spec`, `tasks`, ...)."""
    return [p.relative_to(ROOT).as_posix() for p in _modules()
            if p.name != "__init__.py" and p.name not in doc and f"`{p.stem}`" not in doc
            and p.relative_to(ROOT).as_posix() not in doc]


def _missing(doc: str) -> list[str]:
    """The ``*.py`` names in ``doc`` that are no file of the layers or the tests."""
    paths = {p.relative_to(ROOT).as_posix() for p in [*_modules(), *(ROOT / "tests").rglob("*.py")]}
    files = {p.rsplit("/", 1)[-1] for p in paths}
    return [n for n in sorted(set(re.findall(r"[\w./-]+\.py\b", doc)))
            if not (any(p == n or p.endswith("/" + n) for p in paths) if "/" in n else n in files)]


def test_every_module_of_every_layer_is_named() -> None:
    unnamed = _unnamed(DOC)
    assert not unnamed, f"docs/architecture.md does not name: {', '.join(unnamed)}"


def test_every_module_named_exists() -> None:
    missing = _missing(DOC)
    assert not missing, f"docs/architecture.md names modules that do not exist: {', '.join(missing)}"


def test_both_checks_see_a_change() -> None:
    """A module dropped from the page, and a module the tree does not have, are each reported."""
    assert _unnamed(DOC.replace("relax.py", "")) == ["solvers/isla/cpsat/relax.py"]
    assert _missing(DOC + "\n`solvers/flow/nowhere.py`\n") == ["solvers/flow/nowhere.py"]
