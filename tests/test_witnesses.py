"""Every witness of every case file, judged by an oracle (POLICY.md section 3, "Evidence").

A proven MAJOR change carries a witness: user code that works on OLD and fails on NEW.
The oracle depends on what the witness observes (:func:`apisurface.compare.witness.runs`):

- type-level witnesses (imports, attribute access, calls, annotated values) go through
  mypy: they must type-check against OLD and not against NEW. All of them go through two
  ``mypy.api.run`` calls (one over the OLD trees, one over the NEW trees): each case's
  package is copied under a name of its own (``pkg_c17``) and its witnesses rewritten to
  import it;
- witnesses that observe a value (a default, where an argument lands, the method
  resolution order) or await a call are run with Python against the same trees, all in
  one process per side (the trees are our own fixtures): they must run on OLD and raise on
  NEW.

Kinds that break the documented contract and no code (``CONTRACT_ONLY``: the object still
resolves on NEW) have none, nor have paths of generated API modules the case's tree does not
hold (declared exports), nor have obligations on a class deriving from one the surface
does not hold (a standard-library ABC, whose abstract methods no witness here can list: the
cases of ``NO_WITNESS``); every other proven MAJOR change of a case without one fails here.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from casefile import CHANGE_CASES, parse_case, write_tree
from mypy.api import run as mypy_run
from typeoracle import explicit_reexports

from apisurface.changes import Change, Level
from apisurface.compare.diff import diff_surfaces
from apisurface.compare.obligations import OBLIGATIONS, members_unlisted
from apisurface.compare.witness import CONTRACT_ONLY, runs
from apisurface.model import Surface, SymbolKind
from apisurface.surface.collect import load_surface


@dataclass
class Witness:
    case: str
    path: str
    kind: str
    module: str  # the file's module name in both trees
    text: str


_PKG = re.compile(r"\bpkg\b")


def _rename(text: str, name: str) -> str:
    # Not inside a protocol buffer descriptor: its bytes are length-prefixed.
    return "\n".join(
        line if "AddSerializedFile(" in line else _PKG.sub(name, line) for line in text.split("\n")
    )


def _virtual(changes_path: str, old: Surface) -> bool:
    """Whether the path is served by a generated API module the tree does not hold."""
    module = changes_path.partition("(")[0]
    while module and not (module in old.symbols and old.symbols[module].kind is SymbolKind.MODULE):
        module = module.rpartition(".")[0]
    return module in old.symbols and old.symbols[module].location is None


# Cases whose obligation is on a class whose members the surface cannot tell (a
# standard-library ABC's): no code written from what it records is sure to fit OLD, so
# they have no witness, and must have none.
NO_WITNESS = frozenset({"abstract_method_added__standard_abstract_base"})


def _unlisted(case: str, change: Change, old: Surface) -> bool:
    """Whether the change is the obligation of a case of :data:`NO_WITNESS`, checked
    against the rule that drops its witness."""
    owner = change.path.partition("(")[0].rpartition(".")[0]
    listed = change.kind in OBLIGATIONS and members_unlisted(change.kind, owner, old)
    assert listed == (case in NO_WITNESS), (case, change.path)
    return listed


@pytest.fixture(scope="module")
def witnesses(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Witness], Path]:
    root = tmp_path_factory.mktemp("witnesses")
    found: list[Witness] = []
    missing: list[str] = []
    for number, path in enumerate(CHANGE_CASES):
        case = parse_case(path)
        base = root / "cases" / path.stem
        old = load_surface(write_tree(base / "old", case.old))
        new = load_surface(write_tree(base / "new", case.new))
        name = f"pkg_c{number}"
        for side, files in (("old", case.old), ("new", case.new)):
            package = {
                _rename(relative, name): _rename(
                    explicit_reexports(text) if relative.endswith("__init__.py") else text, name
                )
                for relative, text in files.items()
                if relative.startswith("pkg/")
            }
            write_tree(root / side, package)
        changes = diff_surfaces(old, new)
        contract_only = {change.path for change in changes if change.kind in CONTRACT_ONLY}
        for index, change in enumerate(changes):
            if change.kind.rule.level is not Level.MAJOR or not change.evidence.proven:
                continue
            if change.evidence.witness is None:
                # "Removed without deprecation" is shown by its removal's witness.
                if (
                    change.kind not in CONTRACT_ONLY
                    and change.path not in contract_only
                    and not _virtual(change.path, old)
                    and not _unlisted(path.stem, change, old)
                ):
                    missing.append(f"{path.stem}: {change.path} {change.kind.value}")
                continue
            module = f"w_c{number}_{index}"
            text = _rename(change.evidence.witness, name)
            found.append(Witness(path.stem, change.path, change.kind.value, module, text))
            for side in ("old", "new"):
                (root / side / f"{module}.py").write_text(text + "\n", encoding="utf-8")
    assert missing == [], "proven MAJOR changes without a witness"
    return found, root


def _mypy_errors(folder: Path, modules: list[str], cache: Path) -> dict[str, list[str]]:
    files = [str(folder / f"{module}.py") for module in modules]
    config = folder / "mypy.ini"
    config.write_text("[mypy]\n", encoding="utf-8")  # mypy's defaults, not the project's
    limit = sys.getrecursionlimit()  # mypy raises it, and later tests meet the deeper stack
    try:
        stdout, stderr, _ = mypy_run(
            [
                "--config-file",
                str(config),
                "--follow-imports=silent",
                # The typing spec's re-export rules, which POLICY.md 2.8 follows.
                "--no-implicit-reexport",
                "--no-error-summary",
                "--show-error-codes",
                "--cache-dir",
                str(cache),
                "--python-version",
                f"{sys.version_info[0]}.{sys.version_info[1]}",
                *files,
            ]
        )
    finally:
        sys.setrecursionlimit(limit)
    assert "error: cannot" not in stderr.lower(), stderr
    errors: dict[str, list[str]] = {module: [] for module in modules}
    for line in stdout.splitlines():
        file, _, rest = line.partition(":")
        module = Path(file).stem
        if module in errors and ": error:" in line:
            errors[module].append(rest)
    return errors


def test_type_witnesses_hold_on_old_and_fail_on_new(
    witnesses: tuple[list[Witness], Path],
) -> None:
    found, root = witnesses
    typed = [item for item in found if not runs(item.text)]
    assert typed
    started = time.perf_counter()
    modules = [item.module for item in typed]
    old = _mypy_errors(root / "old", modules, root / "cache-old")
    new = _mypy_errors(root / "new", modules, root / "cache-new")
    print(f"mypy judged {len(typed)} witnesses in {time.perf_counter() - started:.1f} s")
    wrong = [
        f"{item.case}: {item.path} {item.kind}: "
        + (f"fails on OLD {old[item.module]}" if old[item.module] else "passes on NEW")
        + "\n"
        + item.text
        for item in typed
        if old[item.module] or not new[item.module]
    ]
    assert wrong == []


_RUNNER = """
import json, sys, traceback
results = {}
for module in sys.argv[1:]:
    try:
        __import__(module)
        results[module] = ""
    except BaseException as error:  # noqa: BLE001 - the witness's failure is the answer
        results[module] = type(error).__name__ + ": " + str(error)
print(json.dumps(results))
"""


def _run(folder: Path, modules: list[str]) -> dict[str, str]:
    completed = subprocess.run(
        [sys.executable, "-c", _RUNNER, *modules],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={"PYTHONPATH": str(folder), "PYTHONDONTWRITEBYTECODE": "1"},
    )
    result: dict[str, str] = json.loads(completed.stdout)
    return result


def test_run_witnesses_hold_on_old_and_fail_on_new(witnesses: tuple[list[Witness], Path]) -> None:
    found, root = witnesses
    ran = [item for item in found if runs(item.text)]
    assert ran
    modules = [item.module for item in ran]
    old, new = _run(root / "old", modules), _run(root / "new", modules)
    wrong = [
        f"{item.case}: {item.path} {item.kind}: "
        + (f"fails on OLD ({old[item.module]})" if old[item.module] else "runs on NEW")
        + "\n"
        + item.text
        for item in ran
        if old[item.module] or not new[item.module]
    ]
    assert wrong == []
