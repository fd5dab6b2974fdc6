"""TensorFlow wheels, read the way TensorFlow defines its API (issue 21).

The wheels are downloaded beforehand and unpacked (their ``.py``/``.pyi`` files are enough;
nothing is imported or run)::

    pip download --no-deps --only-binary :all: --python-version 3.11 \\
        --platform manylinux_2_17_x86_64 tensorflow-cpu==2.16.1 -d /tmp/tf
    unzip -q /tmp/tf/tensorflow_cpu-2.16.1-*.whl '*.py' '*.pyi' -d /tmp/tf/2.16.1

Then, one heavy step at a time (each builds TensorFlow surfaces):

    python bench/tensorflow.py api /tmp/tf/2.16.1          # (a) and (b)
    python bench/tensorflow.py diff /tmp/tf/2.15.1 /tmp/tf/2.16.1   # (c)
    python bench/tensorflow.py time /tmp/tf/2.16.1         # (d)

(a) reads the generated API modules (``tensorflow/_api/v2/**``: each ``from X import Y
[as Z]`` is a public name) with a regular expression, independently of apisurface, and
compares them with apisurface's module-level surface, for the v2 API and ``tf.compat.v1``,
printing the counts on both sides and each difference grouped by its reason; (b) checks
members of declared classes (inherited, undocumented, namedtuple fields, properties);
(c) lists every MAJOR finding of the diff and whether the generated modules of the two
wheels contradict it; (d) times the snapshot cold and warm, and ``griffe.load``, each in a
child process, with its peak memory.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from apisurface.changes import Level
from apisurface.compare.diff import diff_surfaces
from apisurface.model import Surface, SymbolKind
from apisurface.store.cache import SurfaceCache
from apisurface.surface.collect import load_surface

PACKAGE = "tensorflow"
_IMPORT = re.compile(r"^from ([\w.]+) import (\w+)(?: as (\w+))?", re.MULTILINE)
_TESTS = frozenset({"test", "tests", "conftest"})


def generated(root: Path) -> dict[str, str]:
    """Public path -> ``module.name`` it imports, from the generated modules; submodules
    (``from tensorflow._api.v2 import math``) map to ``"module"``."""
    base = root / PACKAGE / "_api" / "v2"
    names: dict[str, str] = {}
    for file in sorted(base.rglob("*.py")):
        relative = file.relative_to(base)
        if relative.name == "v2.py" and relative.parent == Path():
            namespace = PACKAGE
        elif relative.name == "__init__.py" and relative.parent != Path():
            namespace = ".".join((PACKAGE, *relative.parent.parts))
        else:
            continue
        for module, name, alias in _IMPORT.findall(file.read_text(encoding="utf-8")):
            public = alias or name
            if public.startswith("_") and module.startswith(f"{PACKAGE}._api."):
                continue
            if module.startswith(f"{PACKAGE}._api.v2"):
                names[f"{namespace}.{public}"] = "module"
            elif not public.startswith("_"):
                names[f"{namespace}.{public}"] = f"{module}.{name}"
    return names


def api_of(path: str) -> str | None:
    """ "v2", "v1" (``tf.compat.v1``) or None for the generator's mirrors."""
    parts = path.split(".")[1:]
    if parts[:2] == ["compat", "v2"]:
        return None
    if parts[:2] == ["compat", "v1"]:
        mirror = parts[2:3] == ["compat"] and parts[3:4] in (["v1"], ["v2"]) and len(parts) > 4
        return None if mirror else "v1"
    return "v2"


def policy_reason(path: str) -> str | None:
    """POLICY.md rules 1-4 on a path (what apisurface keeps out of the contract)."""
    for part in path.split(".")[1:]:
        if part.startswith("_"):
            return "private (POLICY rule 1)"
        if "experimental" in part or "Experimental" in part:
            return "experimental (POLICY rule 2)"
        if part == "contrib":
            return "contrib (POLICY rule 3)"
        if part in _TESTS or part.startswith("test_") or part.endswith("_test"):
            return "test module (POLICY rule 4)"
    return None


def module_level(surface: Surface) -> dict[str, SymbolKind]:
    """Paths whose parent is a module: what the generated modules name."""
    symbols = surface.symbols
    return {
        path: symbol.kind
        for path, symbol in symbols.items()
        if path != PACKAGE
        and (parent := symbols.get(path.rpartition(".")[0])) is not None
        and parent.kind is SymbolKind.MODULE
    }


def _problem_index(surface: Surface) -> dict[str, str]:
    """Path -> the problem naming it (``... (a, b, c and N more)`` lists only three)."""
    found: dict[str, str] = {}
    for problem in map(str, surface.problems):
        for word in re.findall(r"tensorflow(?:\.\w+)+", problem):
            found.setdefault(word, problem.split(": ", 1)[1][:90])
    return found


def _problem_kind(problem: str) -> str:
    for words, kind in (
        ("not defined statically", "a declared object not defined statically"),
        ("without a declaration", "exported by the build without a declaration"),
        ("not exported by the generated", "declared, not exported by the build"),
        ("is exported for", "exported for another object than declared"),
        ("PEP 695", "PEP 695 stub read without type parameters"),
    ):
        if words in problem:
            return kind
    return "other"


def compare_api(root: Path, surface: Surface) -> None:
    names = generated(root)
    ours = module_level(surface)
    problems = _problem_index(surface)
    for api in ("v2", "v1"):
        theirs = {path for path in names if api_of(path) == api}
        covered = {path for path in theirs if policy_reason(path) is None}
        mine = {path for path in ours if api_of(path) == api}
        print(f"\n== {api} API: generated {len(theirs)} names, {len(covered)} inside POLICY's")
        print(f"   contract; apisurface module-level paths: {len(mine)}")
        excluded = Counter(policy_reason(path) for path in theirs - covered)
        print(f"   generated, outside the contract: {dict(excluded)}")
        print(f"   in both: {len(covered & mine)}")
        missing = sorted(covered - mine)
        reasons: defaultdict[str, list[str]] = defaultdict(list)
        for path in missing:
            if path in surface.excluded:
                why = f"excluded by apisurface as {surface.excluded[path]}"
            elif path in problems:
                why = f"problem: {problems[path]}"
            elif names[path] == "module":
                why = "a generated namespace apisurface has no path under"
            elif path.rpartition(".")[0] in surface.symbols and (
                surface.symbols[path.rpartition(".")[0]].kind is not SymbolKind.MODULE
            ):
                why = "parent is not a module in apisurface"
            else:
                why = "other"
            reasons[why].append(path)
        print(f"   generated, inside the contract, missing from apisurface: {len(missing)}")
        for why, paths in sorted(reasons.items(), key=lambda item: -len(item[1])):
            print(f"     {len(paths):5d}  {why}: {', '.join(paths[:6])}")
        extra = sorted(mine - covered)
        extra_reasons: defaultdict[str, list[str]] = defaultdict(list)
        for path in extra:
            if path in theirs:
                why = f"generated but {policy_reason(path)}"
            elif ours[path] is SymbolKind.MODULE:
                why = "a module apisurface adds (holds declared paths)"
            else:
                why = "not in the generated modules"
            extra_reasons[why].append(path)
        print(f"   apisurface only: {len(extra)}")
        for why, paths in sorted(extra_reasons.items(), key=lambda item: -len(item[1])):
            print(f"     {len(paths):5d}  {why}: {', '.join(paths[:6])}")


MEMBERS = (
    "tensorflow.IndexedSlicesSpec.cast",
    "tensorflow.DType.is_bool",
    "tensorflow.AggregationMethod.ADD_N",
    "tensorflow.config.LogicalDevice.name",
    "tensorflow.config.LogicalDevice.device_type",
    "tensorflow.config.LogicalDevice.count",
    "tensorflow.config.LogicalDevice.index",
    "tensorflow.TensorSpec.value_type",
    "tensorflow.TypeSpec.value_type",
    "tensorflow.lite.Interpreter",
    "tensorflow.constant",
    "tensorflow.compat.v1.constant",
    "tensorflow.compat.v1.placeholder",
    "tensorflow.placeholder",
)


def check_members(surface: Surface) -> None:
    print("\n== members of declared classes")
    for path in MEMBERS:
        symbol = surface.symbols.get(path)
        shown = "absent" if symbol is None else f"{symbol.kind} (defined at {symbol.target})"
        print(f"   {path}: {shown}")
    symbols = surface.symbols
    inherited = sum(
        1
        for path, symbol in symbols.items()
        if (owner := symbols.get(path.rpartition(".")[0])) is not None
        and owner.kind is SymbolKind.CLASS
        and not symbol.target.startswith(owner.target + ".")
    )
    print(f"   members listed at a class path but defined on a base: {inherited}")
    spelled_any = sorted(
        path
        for path, symbol in symbols.items()
        if symbol.signature and "tensorflow.Any" in repr(symbol.signature)
    )
    print(f"   signatures spelling `tensorflow.Any`: {len(spelled_any)} {spelled_any[:3]}")


def _load(root: Path, cache: SurfaceCache | None = None) -> Surface:
    return load_surface(root, PACKAGE, cache=cache)


# Findings that say a path is gone from the surface (the generated modules can say that).
_REMOVALS = frozenset(
    {
        "symbol_removed",
        "symbol_renamed",
        "symbol_moved",
        "symbol_made_private",
        "symbol_made_experimental",
        "symbol_moved_to_contrib",
        "symbol_no_longer_documented",
        "symbol_unexported",
        "reexport_removed",
        "removed_without_deprecation",
    }
)


def _verdict(change_kind: str, path: str, old: dict[str, str], new: dict[str, str]) -> str:
    """What the two wheels' generated modules say about one finding at ``path``."""
    if path in old or path in new:
        was, now = old.get(path), new.get(path)
        if change_kind in _REMOVALS:
            if was and not now:
                return "agrees: the generated modules drop it"
            if now:
                return f"CONTRADICTED: the new generated modules still export it ({now})"
            return "not in the old generated modules"
        return f"generated modules name it on both sides ({was} -> {now}); silent on this change"
    parts = path.split(".")
    for end in range(len(parts) - 1, 1, -1):
        owner = ".".join(parts[:end])
        if owner in old or owner in new:
            sides = "both sides" if owner in old and owner in new else "one side"
            return (
                f"a member of {owner} (generated on {sides}); the generated modules do not "
                "list members"
            )
    return "not under any generated name"


def diff(old_root: Path, new_root: Path) -> None:
    old, new = _load(old_root), _load(new_root)
    old_names, new_names = generated(old_root), generated(new_root)
    changes = diff_surfaces(old, new)
    major = [change for change in changes if change.kind.rule.level is Level.MAJOR]
    print(f"{len(changes)} changes, {len(major)} MAJOR")
    print(f"MAJOR by kind: {dict(Counter(change.kind.value for change in major))}")
    verdicts: Counter[str] = Counter()
    for change in major:
        path = change.path.partition("(")[0]
        verdict = _verdict(change.kind.value, path, old_names, new_names)
        verdicts[verdict.partition(":")[0].partition(" (")[0]] += 1
        print(f"  {change.kind.value} {change.path} [{change.old} -> {change.new}]: {verdict}")
    print(f"verdicts: {dict(verdicts)}")


_CHILD = """
import resource, sys, time
from pathlib import Path
began = time.perf_counter()
mode, root, cache = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
if mode == "griffe":
    import griffe
    griffe.load("tensorflow", search_paths=[str(root)], resolve_aliases=False)
    count = 0
else:
    from apisurface.store.cache import SurfaceCache
    from apisurface.surface.collect import load_surface
    count = len(load_surface(root, "tensorflow", cache=SurfaceCache(Path(cache))).symbols)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{time.perf_counter() - began:.1f} {peak:.0f} {workers:.0f} {count}")
"""


def timings(root: Path) -> None:
    with tempfile.TemporaryDirectory() as cache:
        for label, mode in (("cold", "surface"), ("warm", "surface"), ("griffe.load", "griffe")):
            began = time.perf_counter()
            output = subprocess.run(
                [sys.executable, "-c", _CHILD, mode, str(root), cache],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.split()
            seconds, peak, workers, count = output
            print(
                f"{label:12s} {seconds:>7s} s in the child ({time.perf_counter() - began:.1f} s "
                f"with start-up), peak {peak} MB (largest worker process {workers} MB), "
                f"{count} paths"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("api", "diff", "time"))
    parser.add_argument("roots", nargs="+", type=Path)
    args = parser.parse_args()
    if args.what == "api":
        began = time.perf_counter()
        surface = _load(args.roots[0])
        print(
            f"{args.roots[0]}: {len(surface.symbols)} paths, {len(surface.problems)} problems, "
            f"{time.perf_counter() - began:.0f} s"
        )
        kinds = Counter(_problem_kind(str(problem)) for problem in surface.problems)
        print(f"  problems by kind: {dict(kinds)}")
        for problem in map(str, surface.problems):
            if _problem_kind(problem) != "a declared object not defined statically":
                print(f"  problem: {problem[:220]}")
        compare_api(args.roots[0], surface)
        check_members(surface)
    elif args.what == "diff":
        diff(args.roots[0], args.roots[1])
    else:
        timings(args.roots[0])


if __name__ == "__main__":
    main()
