"""The static surface checked against the imported package (POLICY.md section 3,
"Verification"; issue 35 item 3).

:func:`check_surface` imports each public module of a :class:`~apisurface.model.Surface`
in an :class:`~apisurface.verify.environments.Environment` (in the sandbox, through
:mod:`apisurface.verify.probe`) and compares, by POLICY section 2 as it applies at run
time, what each module serves with what the static reader found:

- **missing**: a name public at run time that the surface lacks: listed in ``__all__`` (also
  one a module ``__getattr__`` serves), a documented class or function the module defines
  (without ``__all__``; docstrings as the import sees them, so a docstring set at run time or
  copied by a decorator counts), a documented member a public class defines (or, for a class
  of declared exports, POLICY 2.11, inherits from anywhere);
- **unresolved**: a path of the surface that does not resolve at run time (instance
  attributes, which exist only on an instance, are counted as unchecked instead);
- **kind**: a path whose kind at run time disagrees with the static one (a function that
  is a class, an attribute that is a property or a function).

Each gap is a ``surface gap`` :class:`~apisurface.model.Problem` at the file and line of
its binding (found in the module's source as installed; else where the object's code
starts) with the digest of that file, so it scopes like any unknown
(:func:`apisurface.compare.report.scope_unknowns`): blocking where the file differs
between OLD and NEW, a note where it does not. A module that cannot be imported (it fails,
hangs, exits the interpreter, prints megabytes) is *not checked*, with the reason.

Names the run time cannot judge are not guessed: a re-export without ``__all__`` (its
import form is gone at run time), an undocumented plain value, a dunder member.
"""

from __future__ import annotations

import ast
import contextlib
import json
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from apisurface.model import ExclusionReason, Problem, Surface, Symbol, SymbolKind
from apisurface.project.config import Config
from apisurface.project.safeio import read_regular
from apisurface.surface.collect import content_digest
from apisurface.surface.policy import name_exclusion, path_exclusion
from apisurface.verify.environments import Environment
from apisurface.verify.sandbox import Confinement, Limits, Outcome, Run, run_python

__all__ = [
    "GAP_PREFIX",
    "Gap",
    "ImportCheck",
    "Tally",
    "check_surface",
    "with_gaps",
]

GAP_PREFIX = "surface gap: "
"""How every gap's problem message starts (the ``surface_gap`` problems)."""
_PROBE = Path(__file__).with_name("probe.py")
_MODULE_SECONDS = 60
_MAX_RUNS = 20
_MAX_SOURCE = 8 << 20
# Static kinds and the run-time kinds that agree with them.
_AGREES: dict[SymbolKind, frozenset[str]] = {
    SymbolKind.MODULE: frozenset({"module"}),
    SymbolKind.CLASS: frozenset({"class"}),
    SymbolKind.FUNCTION: frozenset({"function", "callable", "method"}),
    SymbolKind.METHOD: frozenset({"method", "function", "callable"}),
    SymbolKind.CLASSMETHOD: frozenset({"classmethod", "method"}),
    SymbolKind.STATICMETHOD: frozenset({"staticmethod"}),
    SymbolKind.PROPERTY: frozenset({"property", "descriptor"}),
    SymbolKind.ATTRIBUTE: frozenset({"data", "enum_member", "descriptor"}),
    SymbolKind.ENUM_MEMBER: frozenset({"enum_member"}),
}
# Members Python makes static or class methods whatever their definition says.
_IMPLICIT = {
    "__new__": "staticmethod",
    "__init_subclass__": "classmethod",
    "__class_getitem__": "classmethod",
}
# Exclusions that rest on what the static reader read (docstrings, export lists), which the
# import may contradict; the others (names, configuration) apply alike at run time.
_READ_EXCLUSIONS = frozenset({ExclusionReason.UNDOCUMENTED, ExclusionReason.NOT_EXPORTED})


@dataclass(frozen=True, slots=True)
class Gap:
    """One disagreement between the static surface and the import. ``kind``: ``missing``,
    ``unresolved`` or ``kind``; ``why``: what makes the path public at run time (``listed
    in __all__``, ``documented``, ``documented member``) or what failed; ``file`` and
    ``line``: the binding, relative like the surface's locations ("" and 0: not found)."""

    kind: str
    path: str
    why: str
    static_kind: str = ""
    runtime_kind: str = ""
    file: str = ""
    line: int = 0
    related: tuple[str, ...] = ()

    def message(self) -> str:
        if self.kind == "missing":
            what = _a(self.runtime_kind) if self.runtime_kind else "a name"
            return (
                f"{GAP_PREFIX}{self.path} is public at run time ({self.why}, {what}) "
                "but not in the static surface"
            )
        if self.kind == "unresolved":
            return (
                f"{GAP_PREFIX}{self.path} ({self.static_kind}) does not resolve at run "
                f"time ({self.why})"
            )
        return (
            f"{GAP_PREFIX}{self.path} is {_a(self.static_kind)} statically but "
            f"{_a(self.runtime_kind)} at run time"
        )


_WORDS = {
    "data": "value",
    "callable": "callable object",
    "enum_member": "enum member",
    "type_alias": "type alias",
}


def _a(kind: str) -> str:
    """A kind with its article, in words: "a class", "an attribute", "a value"."""
    word = _WORDS.get(kind, kind)
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


@dataclass(slots=True)
class Tally:
    """Found and missed names of one class (for the recall measurements)."""

    found: int = 0
    missed: int = 0

    def add(self, found: bool) -> None:
        if found:
            self.found += 1
        else:
            self.missed += 1

    @property
    def recall(self) -> float | None:
        total = self.found + self.missed
        return self.found / total if total else None


@dataclass(frozen=True, slots=True)
class ImportCheck:
    """What :func:`check_surface` found. ``checked`` names the modules imported;
    ``not_checked`` maps the others to why (one line); ``notes`` are other things the run
    did (printed megabytes, wrote into its folder); ``counts`` tally, per class of names
    (``__all__ names``, ``documented names``, ``documented class members``, ``static
    paths``), the found and missed; ``unchecked`` counts static paths the import cannot
    judge (instance attributes)."""

    gaps: tuple[Gap, ...]
    checked: tuple[str, ...]
    not_checked: tuple[tuple[str, str], ...]
    notes: tuple[str, ...] = ()
    counts: Mapping[str, Tally] = field(default_factory=dict)
    unchecked: int = 0
    confinement: Confinement = field(default_factory=Confinement)
    seconds: float = 0.0
    digests: Mapping[str, str] = field(default_factory=dict)

    @property
    def problems(self) -> tuple[Problem, ...]:
        """Each gap as a problem of the surface (file, line, path, digest of its file)."""
        found = {
            Problem(
                gap.file,
                gap.message(),
                gap.line,
                gap.path,
                gap.related,
                self._digest(gap.file, gap.related),
            ): None
            for gap in self.gaps
        }
        return tuple(sorted(found, key=lambda problem: problem.sort_key))

    def _digest(self, file: str, related: tuple[str, ...]) -> str | None:
        names = (file, *related)
        if not all(name in self.digests for name in names):
            return None
        return content_digest((name, self.digests[name]) for name in names)


def with_gaps(surface: Surface, check: ImportCheck) -> Surface:
    """``surface`` with the gaps as problems: incomplete where they are."""
    problems = dict.fromkeys([*surface.problems, *check.problems])
    return replace(surface, problems=tuple(sorted(problems, key=lambda item: item.sort_key)))


def check_surface(
    surface: Surface,
    environment: Environment,
    *,
    config: Config | None = None,
    module_seconds: int = _MODULE_SECONDS,
    run_seconds: float | None = None,
) -> ImportCheck:
    """Import the public modules of ``surface`` in ``environment`` and compare (see the
    module's docstring). ``module_seconds`` bounds each module (an alarm in the child);
    ``run_seconds`` one child process (default: 120 s more than two modules' time), past
    which it is killed and the module it was in is not checked. Never raises for what the
    package does."""
    config = config or Config()
    modules = _public_modules(surface)
    paths = _paths_by_module(surface, modules)
    classes = sorted(
        path for path, symbol in surface.symbols.items() if symbol.kind is SymbolKind.CLASS
    )
    request = {
        "modules": modules,
        "paths": paths,
        "classes": classes,
        "inherited": bool(surface.declared_by),
        "seconds": module_seconds,
    }
    limits = Limits(
        seconds=run_seconds or module_seconds * 2 + 120,
        cpu_seconds=int(run_seconds or module_seconds * 2 + 120),
        output_bytes=1 << 20,
    )
    records, not_checked, notes, confinement, seconds = _run_probe(environment, request, limits)
    comparison = _Comparison(surface, config, environment, records)
    comparison.compare()
    return ImportCheck(
        gaps=tuple(sorted(comparison.gaps, key=lambda gap: (gap.path, gap.kind))),
        checked=tuple(sorted(comparison.imported)),
        not_checked=tuple(sorted(not_checked.items())),
        notes=tuple(notes),
        counts=comparison.counts,
        unchecked=comparison.unchecked,
        confinement=confinement,
        seconds=seconds,
        digests=comparison.texts,
    )


def _public_modules(surface: Surface) -> list[str]:
    """The modules to import: those at their own path (``pkg.core.types`` that re-exports
    the module ``pkg.types`` is a path to resolve, not a module to import)."""
    modules = {
        path
        for path, symbol in surface.symbols.items()
        if symbol.kind is SymbolKind.MODULE and symbol.target in (path, "")
    }
    modules.add(surface.package)
    return sorted(modules, key=lambda name: (name.count("."), name))


def _paths_by_module(surface: Surface, modules: Sequence[str]) -> dict[str, list[str]]:
    """Each static path under the longest public module that holds it."""
    known = set(modules)
    found: dict[str, list[str]] = {}
    for path in sorted(surface.symbols):
        parts = path.split(".")
        for end in range(len(parts), 0, -1):
            module = ".".join(parts[:end])
            if module in known:
                found.setdefault(module, []).append(path)
                break
    return found


def _run_probe(
    environment: Environment, request: dict[str, Any], limits: Limits
) -> tuple[list[dict[str, Any]], dict[str, str], list[str], Confinement, float]:
    """Run the probe until every module was reached: a module during which the child
    died (it hung, exited the interpreter, printed megabytes) is not checked, and the
    child starts again after it."""
    records: list[dict[str, Any]] = []
    not_checked: dict[str, str] = {}
    notes: list[str] = []
    confinement = Confinement()
    seconds = 0.0
    done: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="apisurface-probe-") as folder:
        for _ in range(_MAX_RUNS):
            request_file = Path(folder) / "request.json"
            request_file.write_text(json.dumps({**request, "skip": sorted(done)}), "utf-8")
            run = run_python(
                environment.python, _PROBE, [str(request_file)], limits=limits, read=[Path(folder)]
            )
            confinement, seconds = run.confinement, seconds + run.seconds
            finished, current = _take(run, records, done)
            if run.wrote_here:
                notes.append(
                    "importing wrote into the current folder (a temporary one, discarded): "
                    + ", ".join(run.wrote_here[:5])
                )
            if finished:
                break
            if current is None:
                reason = run.reason or run.result_problem or "the probe stopped"
                for module in request["modules"]:
                    if module not in done:
                        not_checked[module] = _died(run, reason)
                break
            not_checked[current] = _died(run, run.reason)
            done.add(current)
    for record in records:
        if record.get("event") == "module" and isinstance(record.get("error"), str):
            limit = int(request.get("seconds", _MODULE_SECONDS))
            not_checked[str(record["module"])] = _import_error(str(record["error"]), limit)
        printed = record.get("printed")
        if isinstance(printed, int) and printed > (1 << 20):
            notes.append(f"{record.get('module')} printed {printed >> 20} MiB while imported (cut)")
    return records, not_checked, notes, confinement, seconds


def _take(run: Run, records: list[dict[str, Any]], done: set[str]) -> tuple[bool, str | None]:
    """Add the run's well-formed records; whether it finished, and the module it was in
    when it stopped."""
    current: str | None = None
    for value in run.results:
        if not isinstance(value, dict) or not isinstance(value.get("event"), str):
            continue
        event = value["event"]
        if event == "done":
            return True, None
        if event == "start" and isinstance(value.get("module"), str):
            current = value["module"]
            done.add(current)
            continue
        records.append(value)
    return False, current


def _died(run: Run, reason: str) -> str:
    if run.outcome is Outcome.TIMEOUT:
        return f"importing it did not end: {reason}"
    if run.outcome is Outcome.OUTPUT:
        return f"importing it {reason}"
    if run.outcome is Outcome.FAILED:
        return f"importing it ended the interpreter ({reason})"
    if run.outcome is Outcome.KILLED:
        return f"importing it {reason}"
    return reason or "the probe stopped"


def _import_error(error: str, seconds: int) -> str:
    if error == "timeout":
        return f"importing it took longer than {seconds} s"
    if error.startswith("PermissionError"):
        return f"import failed: {error} (the sandbox refuses writes outside its temporary folder)"
    if error.startswith(("ModuleNotFoundError", "ImportError")):
        return f"import failed: {error} (an optional dependency? install it beside the release)"
    return f"import failed: {error}"


class _Comparison:
    """The probe's records against the static surface."""

    def __init__(
        self,
        surface: Surface,
        config: Config,
        environment: Environment,
        records: Iterable[dict[str, Any]],
    ) -> None:
        self.surface = surface
        self.config = config
        self.site = environment.site_packages
        self.records = list(records)
        self.gaps: list[Gap] = []
        self.imported: set[str] = set()
        self.counts: dict[str, Tally] = {}
        self.unchecked = 0
        self.texts: dict[str, str] = {}
        self.module_files: dict[str, str] = {}
        self.prefix = _location_prefix(surface)

    def compare(self) -> None:
        for record in self.records:
            event = record.get("event")
            if event == "module" and record.get("error") is None:
                self._module(record)
            elif event == "path":
                self._path(record)
            elif event == "members":
                self._members(record)

    # -- what each module serves ----------------------------------------------------------

    def _module(self, record: dict[str, Any]) -> None:
        module = record.get("module")
        if not isinstance(module, str):
            return
        self.imported.add(module)
        file = self._relative(record.get("file"))
        if file:
            self.module_files[module] = file
        listed = record.get("all")
        has_all = isinstance(listed, list)
        for info in _infos(record.get("names")):
            name = info["name"]
            path = f"{module}.{name}"
            if not self._eligible(path, name, info.get("kind") == "module"):
                continue
            if has_all:
                if info.get("kind") is None:
                    continue  # listed but not served: the static side says what it knows
                self._count("__all__ names", path)
                why = "listed in __all__"
            else:
                if info.get("documented") is not True:
                    continue
                self._count("documented names", path)
                why = "documented"
            if not self._known(path):
                self._missing(path, why, info, module, file)

    def _members(self, record: dict[str, Any]) -> None:
        holder = record.get("class")
        symbol = self.surface.symbols.get(holder) if isinstance(holder, str) else None
        if symbol is None or not isinstance(holder, str):
            return
        for info in _infos(record.get("members")):
            name = info["name"]
            path = f"{holder}.{name}"
            if name.startswith("__") or info.get("documented") is not True:
                continue
            if not self._eligible(path, name, False, in_class=True):
                continue
            self._count("documented class members", path)
            if not self._known(path):
                where = symbol.target or holder  # the class where it is defined
                self._missing(path, "a documented member", info, where, self._file_of(holder))

    def _path(self, record: dict[str, Any]) -> None:
        path = record.get("path")
        symbol = self.surface.symbols.get(path) if isinstance(path, str) else None
        if symbol is None or not isinstance(path, str):
            return
        kind = record.get("kind")
        if kind is None:
            if symbol.kind is SymbolKind.ATTRIBUTE and self._in_class(symbol):
                self.unchecked += 1  # an instance attribute: only an instance has it
                return
            self._count("static paths", path, found=False)
            error = record.get("error")
            why = str(error)[:200] if isinstance(error, str) else "no such attribute"
            self.gaps.append(self._at(Gap("unresolved", path, why, symbol.kind.value), symbol))
            return
        self._count("static paths", path, found=True)
        agreeing = _AGREES.get(symbol.kind)
        if agreeing is None or kind in agreeing or not isinstance(kind, str):
            return  # unknown and type-alias kinds agree with anything
        if symbol.kind is SymbolKind.ATTRIBUTE and kind == "callable":
            return  # a callable instance is still an attribute
        if _IMPLICIT.get(symbol.name) == kind and symbol.kind is SymbolKind.METHOD:
            return
        self.gaps.append(self._at(Gap("kind", path, "", symbol.kind.value, kind), symbol))

    # -- helpers -----------------------------------------------------------------------------

    def _count(self, what: str, path: str, *, found: bool | None = None) -> None:
        tally = self.counts.setdefault(what, Tally())
        tally.add(self._known(path) if found is None else found)

    def _known(self, path: str) -> bool:
        return path in self.surface.symbols

    def _eligible(self, path: str, name: str, is_module: bool, *, in_class: bool = False) -> bool:
        """Whether POLICY's rules on names and the configuration let ``path`` be public,
        and the static reader did not exclude it (or an enclosing path) for a reason that
        does not rest on what it read."""
        if name_exclusion(name, is_module=is_module, config=self.config, in_class=in_class):
            return False
        if path_exclusion(path, self.config) is not None:
            return False
        parts = path.split(".")
        for end in range(len(parts), 1, -1):
            reason = self.surface.excluded.get(".".join(parts[:end]))
            if reason is not None and (reason not in _READ_EXCLUSIONS or end < len(parts)):
                return False
        return True

    def _in_class(self, symbol: Symbol) -> bool:
        parent = self.surface.symbols.get(symbol.parent)
        return parent is not None and parent.kind is SymbolKind.CLASS

    def _missing(self, path: str, why: str, info: dict[str, Any], holder: str, file: str) -> None:
        kind = info.get("kind")
        name = info["name"]
        line = self._binding(file, name, holder) if file else 0
        related: tuple[str, ...] = ()
        code_file = self._relative(info.get("file"))
        if not line and code_file:
            file, line = code_file, int(info.get("line") or 0)
        elif code_file and code_file != file:
            related = (code_file,)
            self._text(code_file)
        self.gaps.append(
            Gap("missing", path, why, "", str(kind) if kind else "", file, line, related)
        )

    def _at(self, gap: Gap, symbol: Symbol) -> Gap:
        if symbol.location is None:
            return gap
        self._text(symbol.location.file)
        return replace(gap, file=symbol.location.file, line=symbol.location.line)

    def _file_of(self, path: str) -> str:
        symbol = self.surface.symbols.get(path)
        if symbol is not None and symbol.location is not None:
            return symbol.location.file
        return ""

    def _relative(self, file: object) -> str:
        """A file of the environment as the surface names it ("" outside the package)."""
        if not isinstance(file, str) or not file:
            return ""
        try:
            relative = Path(file).resolve().relative_to(self.site.resolve())
        except (ValueError, OSError):
            return ""
        return self.prefix + relative.as_posix()

    def _text(self, file: str) -> str | None:
        if file in self.texts:
            return self.texts[file]
        local = self.site / file.removeprefix(self.prefix)
        try:
            text = read_regular(local, _MAX_SOURCE).decode("utf-8", "surrogateescape")
        except OSError:
            return None
        self.texts[file] = text
        return text

    def _binding(self, file: str, name: str, holder: str) -> int:
        """The line where ``name`` is bound in ``file``: at module level, or in the body of
        the class ``holder`` names (by its last components)."""
        text = self._text(file)
        if text is None:
            return 0
        with contextlib.suppress(SyntaxError, ValueError, RecursionError):
            tree = ast.parse(text)
            qualname = _qualname_in_file(holder, self.module_files, file)
            return _find_binding(tree, name, qualname)
        return 0


def _infos(value: object) -> list[dict[str, Any]]:
    """The well-formed name records of a probe's list."""
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict) and isinstance(item.get("name"), str)]


def _location_prefix(surface: Surface) -> str:
    """What the surface's locations put before a module's path below the site folder (a
    ``src/`` layout's ``src/``)."""
    for path, symbol in surface.symbols.items():
        if symbol.kind is not SymbolKind.MODULE or symbol.location is None:
            continue
        file = symbol.location.file
        for tail in (f"{path.replace('.', '/')}/__init__.py", f"{path.replace('.', '/')}.py"):
            if file.endswith(tail):
                return file[: -len(tail)]
    return ""


def _qualname_in_file(holder: str, module_files: Mapping[str, str], file: str) -> list[str]:
    """The components of ``holder`` (a module or a class, by the path where it is defined)
    below the module whose file is ``file`` ([] for the module itself)."""
    modules = [module for module, module_file in module_files.items() if module_file == file]
    stem = file.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    modules += [stem[index + 1 :] for index, char in enumerate(stem) if char == "."]
    modules.append(stem)
    for module in sorted(set(modules), key=len, reverse=True):
        if holder == module or holder.startswith(module + "."):
            rest = holder[len(module) + 1 :]
            return rest.split(".") if rest else []
    return []


def _find_binding(tree: ast.Module, name: str, qualname: list[str]) -> int:
    body: list[ast.stmt] = tree.body
    for part in qualname:
        found = next(
            (
                node
                for node in _statements(body)
                if isinstance(node, ast.ClassDef) and node.name == part
            ),
            None,
        )
        if found is None:
            return 0
        body = found.body
    for node in _statements(body):
        if name in _bound_names(node):
            return node.lineno
    if not qualname:  # a name a star-import binds, or that only __all__ lists
        for node in _statements(body):
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
                return node.lineno
        for node in _statements(body):
            if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                for constant in ast.walk(node):
                    if isinstance(constant, ast.Constant) and constant.value == name:
                        return node.lineno
    return 0


def _statements(body: list[ast.stmt]) -> Iterable[ast.stmt]:
    """The statements of a body, and of the blocks in it (if, try, with, for), not of
    functions or classes."""
    pending = list(reversed(body))
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, ast.If | ast.For | ast.While | ast.With | ast.Try | ast.TryStar):
            nested: list[ast.stmt] = [*node.body, *getattr(node, "orelse", [])]
            for handler in getattr(node, "handlers", []):
                nested += handler.body
            nested += getattr(node, "finalbody", [])
            pending += reversed(nested)


def _bound_names(node: ast.stmt) -> set[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For):
        targets = [node.target]
    names = set()
    for target in targets:
        for item in ast.walk(target):
            if isinstance(item, ast.Name):
                names.add(item.id)
    return names
