"""The package's layout shows the pipeline: imports go one way, from later stages to earlier.

Stages, first to last: the vocabulary (``model``, ``rows``, ``grades``, ``changes``,
``errors``, ``progress``), ``project``, ``store``, ``surface``, ``compare``, ``verify``
(the only code that runs analysed code, under ``--verify``), ``release``, ``census``,
``output``, ``cli``. A module imports only from its own stage or an earlier one, at module
level or inside a function (a lazy import is still a dependency). The package ``__init__``
is the library's front door: it re-exports names from every stage, lazily, and is exempt.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import apisurface

PACKAGE = Path(apisurface.__file__).parent

STAGES = (
    "vocabulary",
    "project",
    "store",
    "surface",
    "compare",
    "verify",
    "release",
    "census",
    "output",
    "cli",
)
_VOCABULARY = frozenset({"model", "rows", "grades", "changes", "errors", "progress"})
# ``python -m apisurface`` runs the CLI; _cli_parser describes its command line.
_TOP_LEVEL = {"cli": "cli", "_cli_parser": "cli", "__main__": "cli"}

# Imports that still cross a stage the wrong way, each as (importer, imported): who removes
# it. Empty: surface.link's import of compare.annotations went when the "split" change moved
# annotation text normalisation to surface/annotationtext.py.
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {}


def stage_of(module: str) -> str | None:
    """The stage of a dotted module name inside apisurface (``None`` outside it)."""
    parts = module.split(".")
    if parts[0] != "apisurface":
        return None
    if len(parts) == 1:
        return "vocabulary"  # ``from apisurface import __version__``: the package itself
    head = parts[1]
    if head in _VOCABULARY:
        return "vocabulary"
    if head in _TOP_LEVEL:
        return _TOP_LEVEL[head]
    if head in STAGES:
        return head
    raise AssertionError(f"{module}: in no stage; add it to STAGES in tests/test_layout.py")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, module: str | None = None) -> list[tuple[str, int]]:
    """Every apisurface module ``path`` (module ``module``) imports, anywhere in the file
    (inside functions too), with the line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = module or _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            # ``from apisurface.project import locate`` imports a module of that stage.
            found.append((target, node.lineno))
    return [(name, line) for name, line in found if name.split(".")[0] == "apisurface"]


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def violations() -> list[tuple[str, str, int]]:
    """(importer, imported, line) for each import that reaches a later stage."""
    found: list[tuple[str, str, int]] = []
    for path in modules():
        if path == PACKAGE / "__init__.py":
            continue  # the front door re-exports the library API from every stage, lazily
        module = _module_name(path)
        own = STAGES.index(stage_of(module) or "vocabulary")
        for target, line in imports_of(path):
            stage = stage_of(target)
            if stage is not None and STAGES.index(stage) > own:
                found.append((module, target, line))
    return found


def test_every_module_is_in_a_stage() -> None:
    for path in modules():
        assert stage_of(_module_name(path)) is not None, path


def test_imports_go_from_later_stages_to_earlier() -> None:
    unexpected = [
        f"{module}:{line} imports {target} (stage {stage_of(target)!r}, after {stage_of(module)!r})"
        for module, target, line in violations()
        if (module, target) not in KNOWN_EXCEPTIONS
    ]
    assert not unexpected, "\n".join(unexpected)


# Inside the surface stage, two steps (issue 19): the per-file visit (surface/visit/) reads one
# file and hands on its summary; the package link (surface/link/) reads those summaries. The
# visit never imports the link; the link imports from the visit only the summary itself.
VISIT = "apisurface.surface.visit"
LINK = "apisurface.surface.link"
# The summary and the types of its parts (exportcalls: a file's export candidates).
SUMMARY = frozenset({f"{VISIT}.facts", f"{VISIT}.summary", f"{VISIT}.exportcalls"})
# Link modules that still use a visit module other than the summary: (importer, imported): why.
KNOWN_CROSSINGS: dict[tuple[str, str], str] = {}


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def crossings() -> list[tuple[str, str, int]]:
    """(importer, imported, line) for each import between the visit and the link."""
    found = []
    for path in modules():
        module = _module_name(path)
        for target, line in imports_of(path):
            visit_to_link = _within(module, VISIT) and _within(target, LINK)
            link_to_visit = _within(module, LINK) and _within(target, VISIT)
            if visit_to_link or (link_to_visit and target not in SUMMARY):
                found.append((module, target, line))
    return found


def test_the_visit_and_the_link_meet_only_at_the_summary() -> None:
    unexpected = [
        f"{module}:{line} imports {target}"
        for module, target, line in crossings()
        if (module, target) not in KNOWN_CROSSINGS
    ]
    assert not unexpected, "\n".join(unexpected)
    current = {(module, target) for module, target, _ in crossings()}
    stale = sorted(set(KNOWN_CROSSINGS) - current)
    assert not stale, f"remove from KNOWN_CROSSINGS in tests/test_layout.py: {stale}"


def test_a_visit_module_importing_the_link_is_a_crossing(tmp_path: Path) -> None:
    source = tmp_path / "bad.py"
    source.write_text("from apisurface.surface.link.walker import Walker\n", encoding="utf-8")
    assert imports_of(source, f"{VISIT}.bad") == [(f"{LINK}.walker", 1)]
    assert _within(f"{VISIT}.bad", VISIT) and _within(f"{LINK}.walker", LINK)


def test_known_exceptions_still_exist() -> None:
    """An exception that no longer happens is removed from the list, so it cannot return."""
    current = {(module, target) for module, target, _ in violations()}
    stale = sorted(set(KNOWN_EXCEPTIONS) - current)
    assert not stale, f"remove from KNOWN_EXCEPTIONS in tests/test_layout.py: {stale}"


# The modules that may start programs, each with its hardening in one place
# (docs/security.md): git, and the sandbox (every program that runs analysed code or
# installs it, through its launcher, which confines itself and then becomes the program).
PROCESS_STARTERS = {
    PACKAGE / "project" / "git.py": "every git command",
    PACKAGE / "verify" / "sandbox.py": "every child that runs analysed code or installs it",
    PACKAGE / "verify" / "launch.py": "the sandbox's launcher: confines itself, then execs",
}


def test_only_the_git_module_and_the_sandbox_start_processes() -> None:
    """Every git command goes through apisurface.project.git and every other program
    through apisurface.verify.sandbox: no other module imports ``subprocess`` or starts a
    program with ``os`` (process pools that run apisurface's own code are not programs)."""
    starters = ("system", "popen", "posix_spawn", "posix_spawnp")
    for path in modules():
        if path in PROCESS_STARTERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
                if node.module == "os":
                    names += [f"os.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                names = [f"{node.value.id}.{node.attr}"]
            else:
                continue
            for name in names:
                starts = name == "subprocess" or (
                    name.startswith("os.") and name[3:].startswith(("exec", "spawn", *starters))
                )
                assert not starts, (
                    f"{path}:{node.lineno} uses {name}; run git via project.git, anything "
                    "else via verify.sandbox"
                )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from apisurface.compare.diff import diff_surfaces\n", "apisurface.compare.diff"),
        ("def f():\n    from apisurface.output import text\n", "apisurface.output"),
        ("import apisurface.release.checks\n", "apisurface.release.checks"),
        ("from ..compare import diff\n", "apisurface.compare"),
        ("from . import link\n", "apisurface.surface"),
    ],
)
def test_imports_are_found_anywhere_in_a_module(tmp_path: Path, source: str, expected: str) -> None:
    path = tmp_path / "module.py"
    path.write_text(source, encoding="utf-8")
    found = imports_of(path, "apisurface.surface.example")
    assert [name for name, _ in found] == [expected]
    assert stage_of(expected) in STAGES


MAX_FUNCTION_LINES = 100
MAX_MODULE_LINES = 900
"""Issue 24's limits: past them a function or a module stops being readable in one sitting."""


def test_no_function_or_module_is_over_the_limits() -> None:
    too_long = []
    for path in modules():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_MODULE_LINES:
            too_long.append(f"{path.name}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_long.append(f"{path.name}:{node.lineno} {node.name}: {length} lines")
    assert not too_long, "split these (tests/test_layout.py):\n" + "\n".join(too_long)
