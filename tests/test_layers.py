"""The layers (docs/architecture.md): imports flow one way,
``scripts -> solvers, proofs, conformance, adapters -> play -> model``, and the rules engine
(``model``) imports only the standard library. Read from the source with ``ast``, every import
(inside functions too), so a late import cannot hide an arrow that runs back up."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANK = {"model": 0, "play": 1, "solvers": 2, "proofs": 2, "conformance": 2, "adapters": 2, "scripts": 3}
# The builder records values the solvers prove (DESIGN.md); the fuzzer's SPEC oracle asks the second
# referee (proofs.referee) to replay the records the engine judges legal (conformance/fuzz.py).
ALLOWED = {("conformance", "solvers"), ("conformance", "proofs")}
# The rules engine is standard library only; two edge modules use a required dependency, each imported
# only when that module is (the engine, ``import model``, loads neither): the input schemas validate
# with pydantic (issue 15: published schemas, one typed definition) and progress bars are tqdm's.
MODEL_EDGE = {"model/schemas.py": {"pydantic", "pydantic_core", "typing_extensions"},
              "model/progress.py": {"tqdm"}}


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


def test_the_rules_engine_imports_only_the_standard_library() -> None:
    wrong = []
    for path in _files("model"):
        edge = MODEL_EDGE.get(path.relative_to(ROOT).as_posix(), set())
        for line, top in _imports(path):
            if top != "model" and top not in sys.stdlib_module_names and top != "__future__" \
                    and top not in edge:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: imports {top}")
    assert not wrong, "\n".join(wrong)


def test_importing_the_engine_loads_no_dependency() -> None:
    """``import model`` (the engine, its state and records) pulls in no third-party package."""
    import subprocess

    code = ("import sys, model, model.records, model.state, model.cli; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'tqdm', 'numpy'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
