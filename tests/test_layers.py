"""The layers (docs/architecture.md): imports flow one way, ``scripts -> benchmarks -> studies, viewer ->
solvers, proofs, conformance, adapters -> records -> schemas, drawing, play, console -> model``, and
the rules engine (``model``) imports only the standard library. Read from the source with ``ast``,
every import (inside functions too), so a late import cannot hide an arrow that runs back up, and no
two first-party modules import each other, directly or round a circle."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANK = {"model": 0, "schemas": 1, "drawing": 1, "play": 1, "console": 1, "records": 2,
        "solvers": 3, "proofs": 3, "conformance": 3, "adapters": 3, "studies": 4, "viewer": 4,
        "benchmarks": 5, "scripts": 6}
# The builder records values the solvers prove (docs/conformance.md); the fuzzer's SPEC oracle asks the second
# referee (proofs.referee) to replay the records the engine judges legal (conformance/fuzz.py).
ALLOWED = {("conformance", "solvers"), ("conformance", "proofs")}
# The rules engine is standard library only. The input schemas (pydantic, issue 15: published schemas,
# one typed definition) are the layer above it, with the loaders that check every input against them
# before the rules read it (schemas.state_json, schemas.position_io; records.game above). Progress bars
# (tqdm) and the command-line frame are ``console``'s.
SCHEMA_LIBRARIES = {"pydantic", "pydantic_core", "typing_extensions"}


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module) of every absolute import in a file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name.split(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module.split(".")[0]))
    return out


def _files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_every_layer_is_a_directory_with_modules() -> None:
    missing = [p for p in RANK if not _files(p)]
    assert not missing


def test_imports_only_run_down_the_layers() -> None:
    """A module imports its own package or a lower layer, never a sibling or a higher one (one
    exception: the conformance builder calls the solvers)."""
    wrong = []
    for package, rank in RANK.items():
        for path in _files(package):
            for line, top in _imports(path):
                if top in RANK and top != package and RANK[top] >= rank and (package, top) not in ALLOWED:
                    wrong.append(f"{path.relative_to(ROOT)}:{line}: {package} imports {top}")
    assert not wrong, "\n".join(wrong)


def _foreign(package: str, allowed: set[str]) -> list[str]:
    """Every import in ``package`` of a module outside the standard library and ``allowed``."""
    return [f"{path.relative_to(ROOT)}:{line}: imports {top}" for path in _files(package)
            for line, top in _imports(path)
            if top not in sys.stdlib_module_names and top not in allowed | {"__future__"}]


def test_the_rules_engine_imports_only_the_standard_library() -> None:
    """Every module of model/ imports the standard library and model/ only: no pydantic, no tqdm, no
    command-line frame, no layer above."""
    wrong = _foreign("model", {"model"})
    assert not wrong, "\n".join(wrong)


def test_the_schemas_import_the_engine_and_pydantic() -> None:
    """schemas/ sits just above the engine: it reads its catalogs and option ranges and validates
    with pydantic, nothing more."""
    wrong = _foreign("schemas", {"schemas", "model"} | SCHEMA_LIBRARIES)
    assert not wrong, "\n".join(wrong)


def test_the_console_imports_the_standard_library_the_engine_and_tqdm() -> None:
    """console/ (the command-line frame, progress) sits just above the engine: it may draw with tqdm
    and raise the engine's errors, nothing more."""
    wrong = _foreign("console", {"console", "model", "tqdm"})
    assert not wrong, "\n".join(wrong)


def test_importing_the_engine_loads_no_dependency() -> None:
    """``import model`` (the engine, its state), the loaders, the records and the referee load no
    third-party package (pydantic waits for the first file read)."""
    import subprocess

    code = ("import sys, model, records.game, records.referee, schemas.state_json, schemas.position_io, "
            "model.state, console.cli; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'tqdm', 'numpy'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_importing_the_solvers_loads_neither_cp_sat_nor_networkx() -> None:
    """The solvers' front ends start without CP-SAT (numpy, pandas) or networkx: ``cp_model`` is
    loaded by the first model built (solvers/cpsat_lazy.py), networkx by the trade graph's matching."""
    import subprocess

    code = ("import sys, solvers.api, solvers.trade_graph, viewer.build; "
            "from solvers.cpsat_lazy import cp_model; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'pandas', 'numpy', 'networkx'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_scripts_are_front_ends_over_the_installed_package() -> None:
    """A script imports the installed package (no ``sys.path`` change), never another script (what
    two share is library code in a layer), and stays short enough to read in one sitting."""
    scripts = _files("scripts")
    names = {p.stem for p in scripts}
    wrong = []
    for path in scripts:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        wrong += [f"{path.name}:{node.lineno}: changes sys.path" for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and node.attr == "path"
                  and isinstance(node.value, ast.Name) and node.value.id == "sys"]
        wrong += [f"{path.name}:{line}: imports the script {top}" for line, top in _imports(path)
                  if top in names]
        size = len(path.read_text(encoding="utf-8").splitlines())
        if size >= 300:
            wrong.append(f"{path.name}: {size} lines (a script stays under 300; move library code down)")
    assert not wrong, "\n".join(wrong)


# Every layer, scripts included: a script is a leaf (nothing imports it), but its imports are arrows of
# the graph like any other and must name modules that exist.
FIRST_PARTY = list(RANK)


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for package in FIRST_PARTY for p in _files(package)}


def _targets(path: Path, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The first-party modules one import statement loads (``from a import b`` is the module ``a.b``
    when that is a module, else ``a``); relative imports resolved against the file's package."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = _module(path).split(".")
            package = package if path.name == "__init__.py" else package[:-1]
            package = package[:len(package) - node.level + 1]
            base = ".".join(package + ([base] if base else []))
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
    for name in names:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name:
            yield name


def _graph() -> dict[str, set[str]]:
    """module -> the first-party modules it imports anywhere in its body (its own package's
    ``__init__`` excluded: loading a submodule always runs it first, that is no arrow back)."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        graph[name] = {t for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                       for t in _targets(path, node) if t != name and not name.startswith(t + ".")}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    m = stack.pop()
                    on.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def _named(path: Path, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The first-party module or package each absolute import statement names (``from a.b import c``
    names ``a.b``; ``c`` may be a module of it or a name defined in it)."""
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names if a.name.split(".")[0] in RANK)
    elif node.level == 0 and node.module and node.module.split(".")[0] in RANK:
        yield node.module


def test_every_first_party_import_names_a_module_that_exists() -> None:
    """No import, at the top or inside a function, in a library module or a script, names a module
    that is not there (a module moved to another layer leaves no stale late import behind)."""
    wrong = [f"{path.relative_to(ROOT)}:{node.lineno}: no module {name}"
             for path in MODULES.values()
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path)))
             if isinstance(node, (ast.Import, ast.ImportFrom))
             for name in _named(path, node) if name not in MODULES]
    assert not wrong, "\n".join(wrong)


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_between_first_party_modules() -> None:
    circles = _circles(_graph())
    assert not circles, "\n".join(" <-> ".join(c) for c in circles)


def _late_imports(path: Path) -> Iterator[tuple[int, str, bool]]:
    """(line, module, first party) of every import inside a function body."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    yield from ((node.lineno, a.name, a.name.split(".")[0] in RANK) for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    mod = node.module or ""
                    yield node.lineno, mod, node.level > 0 or mod.split(".")[0] in RANK


# The edge module stands for pydantic: the loaders of schemas/ and records/ import it inside the
# function that reads a file, so that importing a loader loads no third-party package.
LATE_EDGE = {"schemas.shapes"}
LOADERS = {"schemas", "records"}


def test_no_function_level_import_of_a_first_party_module() -> None:
    """A library module's late import may only load an optional extra (ortools, z3, matplotlib, ray,
    ...; or pydantic through the edge module, with the reason on its line), never a first-party
    module: that would hide an arrow of the graph above. Scripts are the exception: they import the
    library inside the command that needs it, so that ``--help`` starts at once; nothing imports a
    script, so no arrow hides behind it (the arrows are in the graph all the same)."""
    wrong = [f"{path.relative_to(ROOT)}:{line}: imports {mod} inside a function"
             for path in MODULES.values() if path.relative_to(ROOT).parts[0] != "scripts"
             for line, mod, ours in _late_imports(path)
             if ours and not (mod in LATE_EDGE and path.relative_to(ROOT).parts[0] in LOADERS
                              and "# the pydantic edge" in path.read_text().splitlines()[line - 1])]
    assert not wrong, "\n".join(wrong)
