"""Declared exports on a real wheel: the surface read from the export decorators against
the surface the package layout gives (in a Keras 3 wheel, its generated API modules).

Downloads the newest wheel of the distribution (Keras by default) by URL from PyPI's JSON
API into bench/.cache/exports/ (wheels only: nothing is built), unpacks it, then builds the
surface twice without the cache and prints the sizes, the agreement, the differences
grouped by why, and the times:

    python bench/declared_exports.py [--distribution keras] [--package keras] [--wheel FILE]
"""

from __future__ import annotations

import argparse
import json
import time
import urllib.request
import zipfile
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path

from apisurface.model import Surface, Symbol
from apisurface.project.config import load_config
from apisurface.surface.collect import load_surface

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache" / "exports"


def _wheel(distribution: str) -> Path:
    with urllib.request.urlopen(f"https://pypi.org/pypi/{distribution}/json", timeout=60) as reply:
        data = json.load(reply)
    for item in data["urls"]:
        if item["packagetype"] == "bdist_wheel":
            target = CACHE / item["filename"]
            if not target.exists():
                CACHE.mkdir(parents=True, exist_ok=True)
                urllib.request.urlretrieve(item["url"], target)
            return target
    raise SystemExit(f"{distribution}: no wheel on PyPI")


def _unpack(wheel: Path) -> Path:
    root = CACHE / wheel.stem
    if not root.exists():
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.endswith(".py") and ".." not in Path(member).parts:
                    archive.extract(member, root)
    return root


def _timed(root: Path, package: str, *, declared: bool) -> tuple[Surface, float]:
    config = load_config(root)
    if not declared:
        config = replace(config, export_decorators=())
    began = time.perf_counter()
    surface = load_surface(root, package, config=config)
    return surface, time.perf_counter() - began


def _group(path: str, package: str) -> str:
    parts = path[len(package) + 1 :].split(".")
    return ".".join(parts[:1]) or package


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--distribution", default="keras")
    parser.add_argument("--package", default="keras")
    parser.add_argument("--wheel", type=Path, help="a wheel already downloaded")
    args = parser.parse_args()
    root = _unpack(args.wheel or _wheel(args.distribution))
    declared, declared_time = _timed(root, args.package, declared=True)
    layout, layout_time = _timed(root, args.package, declared=False)
    package = args.package
    implementation = f"{package}.src."
    layout_api = {path for path in layout.symbols if not path.startswith(implementation)}
    both = set(declared.symbols) & layout_api
    same = sum(declared.symbols[path] == layout.symbols[path] for path in both)
    print(f"wheel: {root.name}")
    print(
        f"declared surface ({', '.join(declared.declared_by)}): {len(declared.symbols)} paths, "
        f"{declared_time:.1f} s, {len(declared.problems)} problems"
    )
    print(
        f"layout surface: {len(layout.symbols)} paths, {layout_time:.1f} s, "
        f"{sum(p.startswith(implementation) for p in layout.symbols)} under {implementation}*"
    )
    print(f"layout outside {implementation}*: {len(layout_api)} paths")
    print(f"paths in both: {len(both)}, of which described identically: {same}")
    only_declared = sorted(set(declared.symbols) - layout_api)
    only_layout = sorted(layout_api - set(declared.symbols))
    for title, paths in (("only declared", only_declared), ("only layout", only_layout)):
        counts = Counter(_group(path, package) for path in paths)
        print(f"{title}: {len(paths)}  by first component: {counts.most_common(12)}")
        for path in paths[:15]:
            print(f"    {path}")
    differing = sorted(path for path in both if declared.symbols[path] != layout.symbols[path])
    fields_differing = Counter(
        tuple(
            item.name
            for item in fields(Symbol)
            if item.compare
            and getattr(declared.symbols[path], item.name)
            != getattr(layout.symbols[path], item.name)
        )
        for path in differing
    )
    print(f"described differently: {len(differing)}, by field: {dict(fields_differing)}")
    causes: Counter[str] = Counter()
    for path in only_declared:
        parts = path.split(".")
        prefixes = (".".join(parts[:end]) for end in range(2, len(parts) + 1))
        reason = next((layout.excluded[p] for p in prefixes if p in layout.excluded), None)
        if reason is not None:
            causes[f"excluded by the layout walk as {reason}"] += 1
        elif path.rpartition(".")[0] in declared.symbols and (
            declared.symbols[path.rpartition(".")[0]].kind.value == "class"
        ):
            causes["member of a declared class defined on a base"] += 1
        else:
            causes["other"] += 1
    print(f"only declared, why: {dict(causes)}")
    for problem in declared.problems[:10]:
        print(f"problem: {problem}")


if __name__ == "__main__":
    main()
