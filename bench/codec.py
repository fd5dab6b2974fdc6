"""Codec timings: snapshot write and read (with validation), cache entry put and get, for
each snapshot file given. "read" follows the read of another snapshot; "read again"
follows the read of the same file, whose lines it then shares (the second side of a diff
with few changes). CPU seconds (``time.process_time``), min-max over repeats, so
that a busy machine shows less in them than in wall-clock times.

    python bench/codec.py SNAPSHOT.json [...] [--repeat 7]

Make the files with ``apisurface snapshot`` (``bench/scaling.py`` generates packages).
For the cache, every symbol gets a target and a location, as after a real collect.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from apisurface.model import Location, Surface, Symbol, SymbolKind
from apisurface.store.cache import SurfaceCache
from apisurface.store.snapshot import dumps, loads


def timed(
    action: Callable[[], object], repeat: int, before: Callable[[], object] | None = None
) -> str:
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return f"{min(times):.3f}-{max(times):.3f}"


def with_locations(surface: Surface) -> Surface:
    symbols = {
        path: replace(symbol, target=path, location=Location(f"m{index % 97}.py", index))
        for index, (path, symbol) in enumerate(surface.symbols.items())
    }
    return replace(surface, symbols=symbols)


def row(path: Path, repeat: int) -> str:
    raw = path.read_bytes()
    surface = loads(raw, str(path))
    if dumps(surface).encode() != raw:
        raise SystemExit(f"{path}: does not round-trip byte for byte")
    full = with_locations(surface)
    with tempfile.TemporaryDirectory(prefix="apisurface-codec-") as folder:
        cache = SurfaceCache(Path(folder))
        key = "0" * 64
        put = timed(lambda: cache.put_surface(key, full), repeat)
        get = timed(lambda: cache.get_surface(key), repeat)
        if cache.get_surface(key) != full:
            raise SystemExit(f"{path}: the cache entry does not round-trip")
    write = timed(lambda: dumps(surface), repeat)
    other = dumps(Surface("other", {"other": Symbol("other", SymbolKind.MODULE)}))
    read = timed(lambda: loads(raw, str(path)), repeat, lambda: loads(other))
    again = timed(lambda: loads(raw, str(path)), repeat)
    return f"| {path.name} | {len(surface.symbols)} | {write} | {read} | {again} | {put} | {get} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("snapshots", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=7)
    arguments = parser.parse_args()
    print("| file | symbols | write s | read s | read again s | cache put s | cache get s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for path in arguments.snapshots:
        print(row(path, arguments.repeat), flush=True)


if __name__ == "__main__":
    main()
