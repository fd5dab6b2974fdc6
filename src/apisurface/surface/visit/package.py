"""A package's files visited: which are read at all, each one's product from the cache,
from a worker or visited here, and its summary read.

The per-file step of the surface (:mod:`apisurface.surface.visit.modules` visits one file).
What it hands the link (:func:`apisurface.surface.visit.modules.link_package`) is a
:class:`Visits`: each file's :class:`Visited`, its summary (facts, problems) read at once and
its griffe tree read from the product's plain data only when the link asks for it, and the
digest that names the product (:meth:`Visits.digests`: what the link's result is keyed by).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import griffe

from apisurface.model import Problem
from apisurface.progress import ProgressCallback
from apisurface.project.sources import SourceFile
from apisurface.store.cache import SurfaceCache
from apisurface.store.modules import ModuleEntries, entry_limit, module_key
from apisurface.surface.access import names_in_enclosing_scope
from apisurface.surface.visit.facts import ModuleFacts
from apisurface.surface.visit.markers import scan_text
from apisurface.surface.visit.mentions import mentions_warning
from apisurface.surface.visit.modules import (
    GIVE_UPS,
    encoded,
    linear_next_sibling,
    max_nodes,
    visit_alone,
    visit_files,
)
from apisurface.surface.visit.reach import Outside, reached
from apisurface.surface.visit.summary import Product, Unfit, read_summary, read_tree
from apisurface.surface.visit.workers import Workers

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["Inconsistent", "Visited", "Visits", "visit_package"]


class Inconsistent(Exception):
    """A cache entry whose summary was read but whose tree is not one (a damaged or crafted
    entry): the visit is redone without the per-file cache."""


class Visited:
    """One file's visit, as the link needs it: its summary at once, its tree (griffe's
    module) when the link asks for it. ``digest`` names the product: the sha256 of its
    plain-data form, or ``"text "`` and the sha256 of the file's text when it has none (a
    visit reads nothing else); ``"unreached"`` names a file never read."""

    __slots__ = ("_module", "_tree", "digest", "facts", "given_up", "problems", "source")

    def __init__(
        self,
        source: SourceFile,
        facts: ModuleFacts,
        problems: list[Problem],
        given_up: list[Problem],
        *,
        digest: str,
        module: griffe.Module | None = None,
        tree: bytes | None = None,
    ) -> None:
        self.source = source
        self.facts = facts
        self.problems = problems
        self.given_up = given_up
        self.digest = digest
        self._module = module
        self._tree = tree

    @classmethod
    def made(cls, source: SourceFile, product: Product, data: bytes | None) -> Visited:
        """A product visited here (``data``: its plain-data form, when it has one; else it
        is named by the file's text, since a visit reads nothing else)."""
        module, problems, given_up, facts = product
        if data is not None:
            digest = hashlib.sha256(data).hexdigest()
        else:
            digest = "text " + _text_digest(source.text)
        return cls(source, facts, problems, given_up, digest=digest, module=module)

    @classmethod
    def read(cls, source: SourceFile, data: object) -> Visited | None:
        """A product's summary read back from plain data (a worker's answer or a cache
        entry: untrusted, checked by :func:`apisurface.surface.visit.summary.read_summary`),
        or None when it is not one, or not the product of ``source`` (another file)."""
        if not isinstance(data, bytes) or len(data) > entry_limit(source.text):
            return None
        try:
            found = read_summary(data)
        except Unfit:
            return None
        if found.facts.relpath != source.relpath:
            return None
        return cls(
            source,
            found.facts,
            found.problems,
            found.given_up,
            digest=hashlib.sha256(data).hexdigest(),
            tree=found.tree,
        )

    def module(self) -> griffe.Module | None:
        """griffe's module of the file (None when griffe could not read it), read from the
        product's plain data the first time it is asked for."""
        tree, self._tree = self._tree, None
        if tree is not None:
            source = self.source
            try:
                found = read_tree(tree, max_nodes(source.text))
            except Unfit as error:
                raise Inconsistent(source.relpath) from error
            if found is not None and (
                found.name != source.module.rpartition(".")[2]
                or found.filepath != Path(source.relpath)
            ):
                raise Inconsistent(source.relpath)
            self._module = found
        return self._module

    def product(self) -> Product:
        return self.module(), self.problems, self.given_up, self.facts


@dataclass(frozen=True, slots=True)
class Visits:
    """A package's files after the visit, before the link: each one's :class:`Visited` by
    relative path (in link order), and the stubs merged into a module."""

    package: str
    files: list[SourceFile]
    visited: dict[str, Visited]
    ordered: list[SourceFile]
    """The files modules stand for, parents first (a stub alone stands for its module)."""
    stubs: dict[str, SourceFile]
    """The ``.pyi`` files by module name."""
    logged: list[str]
    """What griffe logged outside a visit of its own (each visit keeps its own record)."""
    text_markers: dict[str, dict[str, str]]
    """The deprecation markers of each file no module stands for (a second stub of one
    module), by relative path: read from its text, since it has no summary."""

    def digests(self) -> list[tuple[str, str, str]]:
        """(module, relative path, the digest of what the link reads of it) for each file,
        in the order of the files: a file no module stands for (a second stub of one
        module) is read by the link as text (its markers), so its text's digest."""
        found: list[tuple[str, str, str]] = []
        for item in self.files:
            visited = self.visited.get(item.relpath)
            text = "text " + _text_digest(item.text) if visited is None else ""
            found.append((item.module, item.relpath, visited.digest if visited else text))
        return found


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def visit_package(
    package: str,
    files: list[SourceFile],
    progress: ProgressCallback | None = None,
    *,
    cache: SurfaceCache | None = None,
    pool: Workers | None = None,
    outside: Outside | None = None,
    reuse: bool = True,
) -> Visits:
    """Every file of ``package`` visited (from ``cache`` when a file's product is there, else
    here or in the workers of ``pool``), its summary read. A module ``outside`` names a
    component for is visited only when another may reach it (:func:`reached`); otherwise it
    stands as an empty module. Without ``reuse``, every file is visited and its entry in
    ``cache`` written anew."""
    # A .pyi stub beside a .py is merged into it (docs/decisions.md); a stub alone (for a
    # compiled module) stands for the module.
    stubs = {item.module: item for item in files if item.relpath.endswith(".pyi")}
    runtime = [item for item in files if not item.relpath.endswith(".pyi")]
    known = {item.module for item in runtime}
    runtime += [stub for name, stub in stubs.items() if name not in known]
    ordered = sorted(runtime, key=lambda item: item.module.split("."))
    merged = [stubs[item.module] for item in ordered if stubs.get(item.module, item) is not item]
    given_up: list[str] = []
    GIVE_UPS.messages = given_up
    try:
        with linear_next_sibling(), names_in_enclosing_scope():
            visited = _reached_products(
                [*ordered, *merged],
                outside,
                cache=cache,
                pool=pool,
                package=package,
                progress=progress,
                reuse=reuse,
            )
    finally:
        GIVE_UPS.messages = None
    text_markers = {
        item.relpath: scan_text(item.text) if mentions_warning(item.text) else {}
        for item in files
        if item.relpath not in visited
    }
    return Visits(package, files, visited, ordered, stubs, given_up, text_markers)


_CHUNKS_PER_WORKER = 12
"""Files to visit are handed out in about this many parts per process, so that the main
process can take back the parts no worker started yet and all finish together."""


def _reached_products(
    files: list[SourceFile],
    outside: Outside | None,
    *,
    cache: SurfaceCache | None,
    pool: Workers | None,
    package: str,
    progress: ProgressCallback | None,
    reuse: bool = True,
) -> dict[str, Visited]:
    """:func:`_products` of the files, except those of modules ``outside`` names a component
    for that no visited file may reach (:func:`reached`): each of these stands as a module
    with nothing in it, its text never parsed (sympy: 678 of its 1,532 files are tests)."""
    waiting: dict[str, tuple[SourceFile, str]] = {}
    batch: list[SourceFile] = []
    for item in files:
        component = outside(item.module) if outside is not None else None
        if component is None:
            batch.append(item)
        else:
            waiting[item.relpath] = (item, component)
    products: dict[str, Visited] = {}
    while batch:
        found = _products(batch, cache, pool, package, progress, reuse=reuse)
        products.update(found)
        batch = reached(batch, {key: value.facts for key, value in found.items()}, waiting)
        for item in batch:
            del waiting[item.relpath]
    for item, _ in waiting.values():
        facts = ModuleFacts(relpath=item.relpath)
        products[item.relpath] = Visited(item, facts, [], [], digest="unreached")
    return {item.relpath: products[item.relpath] for item in files}


def _products(
    files: list[SourceFile],
    cache: SurfaceCache | None,
    pool: Workers | None,
    package: str,
    progress: ProgressCallback | None,
    *,
    reuse: bool = True,
) -> dict[str, Visited]:
    """Each file's product by relpath: from the cache (with ``reuse``), else visited here or
    in workers (and stored in the cache)."""
    entries = ModuleEntries(cache.folder) if cache is not None else None
    products: dict[str, Visited] = {}
    missing: list[tuple[SourceFile, str]] = []
    for item in files:
        key = ""
        if entries is not None:
            key = module_key(item.module, item.relpath, item.text)
            data = entries.get(key, entry_limit(item.text)) if reuse else None
            found = Visited.read(item, data) if data is not None else None
            if found is not None:
                products[item.relpath] = found
                continue
        missing.append((item, key))
    done = len(products)

    def here(item: SourceFile, key: str) -> None:
        nonlocal done
        if progress is not None:
            progress(f"parsing {package}", done, len(files))
        done += 1
        product = visit_alone(item.module, item.relpath, item.text)
        data = None
        if entries is not None:
            data = encoded(product, item.text)
            if data is not None:
                entries.put(key, data)
        products[item.relpath] = Visited.made(item, product, data)

    executor = pool.pool(sum(len(item.text) for item, _ in missing)) if pool else None
    parts: list[tuple[list[tuple[SourceFile, str]], Future[list[bytes | None]]]] = []
    if executor is not None and pool is not None and len(missing) > 1:
        try:
            for chunk in _chunked(missing, (pool.count + 1) * _CHUNKS_PER_WORKER):
                items = [(item.module, item.relpath, item.text) for item, _ in chunk]
                parts.append((chunk, executor.submit(visit_files, items)))
        except (OSError, RuntimeError, ValueError):
            pool.broken()
            parts = []
    if not parts:
        for item, key in missing:
            here(item, key)
        return products
    # Workers take parts from the front; this process takes back from the end those that
    # no worker has started, then collects the rest.
    for chunk, future in reversed(parts):
        if not future.cancel():
            break
        for item, key in chunk:
            here(item, key)
    for chunk, future in parts:
        if future.cancelled():
            continue
        try:
            results = future.result()
        except Exception:  # noqa: BLE001 - a worker that died: visit here
            results = []
        if not isinstance(results, list) or len(results) != len(chunk):
            results = [None] * len(chunk)
        for (item, key), data in zip(chunk, results, strict=True):
            found = Visited.read(item, data) if data is not None else None
            if found is None:
                here(item, key)
                continue
            if entries is not None and data is not None:
                entries.put(key, data)
            products[item.relpath] = found
            if progress is not None:
                progress(f"parsing {package}", done, len(files))
            done += 1
    return products


def _chunked(
    missing: list[tuple[SourceFile, str]], count: int
) -> Iterator[list[tuple[SourceFile, str]]]:
    """``missing`` in about ``count`` consecutive parts of similar size."""
    size = max(sum(len(item.text) for item, _ in missing) // max(count, 1), 1)
    chunk: list[tuple[SourceFile, str]] = []
    filled = 0
    for entry in missing:
        chunk.append(entry)
        filled += len(entry[0].text)
        if filled >= size:
            yield chunk
            chunk, filled = [], 0
    if chunk:
        yield chunk
