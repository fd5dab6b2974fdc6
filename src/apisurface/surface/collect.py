"""Build the documented public surface of a package from its source, statically.

The pipeline's first stage: files are read (:mod:`apisurface.project.sources`; one bad file is
reported, not fatal), visited by griffe (:mod:`apisurface.surface.visit.modules`; never
imported, no code of the analysed package runs), and walked into public paths
(:mod:`apisurface.surface.link.walker`) as POLICY.md section 2 defines them.
Surfaces are cached by content when asked.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from apisurface.model import (
    Problem,
    Surface,
)
from apisurface.progress import ProgressCallback
from apisurface.project.config import Config
from apisurface.project.project import Project, configured_package
from apisurface.project.sources import SourceFile, read_sources
from apisurface.store.cache import (
    Linked,
    LinkedSurfaces,
    SurfaceCache,
    linked_key,
    surface_key,
)
from apisurface.surface.docsources import DocsIndex, follow_other_import_names, scan_docs

if TYPE_CHECKING:
    from apisurface.surface.protobuf import ProtoFact
    from apisurface.surface.visit.package import Visits

__all__ = [
    "SourceFile",
    "configured_package",
    "content_digest",
    "load_surface",
    "project_surface",
    "read_sources",
    "surface_from_sources",
    "with_digests",
]


def load_surface(
    source: Path,
    package: str | None = None,
    *,
    config: Config | None = None,
    cache: SurfaceCache | None = None,
    progress: ProgressCallback | None = None,
) -> Surface:
    """The documented public surface of the package found in ``source``.

    With ``cache``, a surface computed before from the same inputs is reused (see
    :mod:`apisurface.store.cache`); ``progress`` is called as modules are parsed."""
    project = Project.load(source, package, config=config)
    return project_surface(project, cache=cache, progress=progress)


def project_surface(
    project: Project,
    *,
    cache: SurfaceCache | None = None,
    progress: ProgressCallback | None = None,
) -> Surface:
    """The surface of ``project``'s package under its configuration (see :func:`load_surface`)."""
    sources = read_sources(project.location)
    docs = scan_docs(project.root, project.config.docs)
    follow_other_import_names(docs, project.location.path.parent, project.package, project.root)
    return surface_from_sources(
        project.package,
        sources.files,
        config=project.config,
        docs=docs,
        version=project.version,
        problems=sources.problems,
        cache=cache,
        progress=progress,
    )


def surface_from_sources(
    package: str,
    files: list[SourceFile],
    *,
    config: Config | None = None,
    docs: DocsIndex | None = None,
    version: str | None = None,
    problems: list[Problem] | tuple[Problem, ...] = (),
    cache: SurfaceCache | None = None,
    progress: ProgressCallback | None = None,
    workers: int | None = None,
) -> Surface:
    """Build the surface from already-read module sources (folders, git trees, tests).

    ``workers`` processes visit files and parse deprecation markers beside this one
    (default: decided by the amount of text, see
    :func:`apisurface.surface.visit.workers.worker_count`); the result is the same for any number.
    With ``cache``, each file's visit is also cached by its content, so that a surface of
    an edited package visits only the edited files; then the package is linked again, unless
    a surface was linked before from the same summaries (a comment edited, a test file
    nothing reaches): see :class:`apisurface.store.cache.LinkedSurfaces`."""
    config = config or Config()
    docs = docs or DocsIndex()
    key = ""
    if cache is not None:
        key = surface_key(
            package,
            ((item.module, item.relpath, item.text) for item in files),
            policy=config.policy_key(),
            docs=docs,
            version=version,
            problems=problems,
        )
        cached = cache.get_surface(key)
        if cached is not None:
            return cached
    # griffe, libcst and process pools are imported only when a surface is computed, not
    # when it comes from the cache (a warm diff is mostly import time otherwise).
    from apisurface.surface.protobuf import stub_sources  # noqa: PLC0415
    from apisurface.surface.visit.package import Inconsistent  # noqa: PLC0415

    files, proto_facts, proto_problems = stub_sources(files)
    job = _Job(
        package,
        files,
        config,
        docs,
        version,
        (*problems, *proto_problems),
        proto_facts,
        cache,
        progress,
    )
    visits = job.visit(workers)
    # The link reads the summaries and nothing else of the files (tests/test_parses.py):
    # a surface linked before from the same summaries is this one, but for the digests its
    # problems record, which read texts (with_digests); those are checked here.
    link = job.linked_key(visits) if cache is not None else None
    if cache is not None and link is not None:
        found = LinkedSurfaces(cache.folder).get(link)
        if found is not None and found.digest == _texts_digest(found.read, files):
            cache.put_surface(key, found.surface)
            return found.surface
    try:
        surface, read = job.link(visits)
    except Inconsistent:
        # A cache entry whose summary was read but whose tree is not one (damaged, or
        # crafted): the visit again, every file read (and its entry written anew).
        surface, read = job.link(job.visit(workers, reuse=False))
        link = None
    if cache is not None:
        cache.put_surface(key, surface)
        if link is not None:
            linked = Linked(surface, read, _texts_digest(read, files))
            LinkedSurfaces(cache.folder).put(link, linked)
    return surface


@dataclass(frozen=True)
class _Job:
    """One surface to build from a package's files (protocol buffer modules already read
    as stubs, their wire facts aside) and the settings that shape it."""

    package: str
    files: list[SourceFile]
    config: Config
    docs: DocsIndex
    version: str | None
    problems: tuple[Problem, ...]
    proto_facts: Mapping[str, ProtoFact]
    cache: SurfaceCache | None
    progress: ProgressCallback | None

    def visit(self, workers: int | None, *, reuse: bool = True) -> Visits:
        """The files visited (see :func:`apisurface.surface.visit.package.visit_package`)."""
        from apisurface.surface.visit.package import visit_package  # noqa: PLC0415
        from apisurface.surface.visit.workers import Workers  # noqa: PLC0415

        pool = Workers(workers)
        try:
            return visit_package(
                self.package,
                self.files,
                self.progress,
                cache=self.cache,
                pool=pool,
                outside=functools.partial(_unwalked, package=self.package, config=self.config),
                reuse=reuse,
            )
        finally:
            pool.shutdown()

    def linked_key(self, visits: Visits) -> str:
        """The key of the surface linked from ``visits``' summaries under these settings."""
        return linked_key(
            self.package,
            visits.digests(),
            policy=self.config.policy_key(),
            docs=self.docs,
            version=self.version,
            problems=self.problems,
            extra=repr(sorted(self.proto_facts.items())),
        )

    def scoped_errors(self, visits: Visits, problems: list[Problem]) -> list[Problem]:
        """``problems`` with each file that does not parse, decode or read marked bad input
        only where the public surface reaches its module (POLICY.md section 2; issue 37):
        elsewhere (a vendored module no public one imports) it stays an unknown."""
        from apisurface.surface.policy import name_exclusion, path_exclusion  # noqa: PLC0415
        from apisurface.surface.visit.reach import module_of, surface_reaches  # noqa: PLC0415

        if not any(problem.error for problem in problems):
            return problems
        config = self.config

        def public(module: str) -> bool:
            names = module.split(".")[1:]
            return path_exclusion(module, config) is None and not any(
                name_exclusion(name, is_module=True, config=config) for name in names
            )

        facts = {relpath: visited.facts for relpath, visited in visits.visited.items()}
        errors = {problem.file: module_of(problem.file) for problem in problems if problem.error}
        reached = surface_reaches(self.package, self.files, facts, public, errors.values())
        return [
            problem
            if not problem.error or errors[problem.file] in reached
            else replace(problem, error=False)
            for problem in problems
        ]

    def link(self, visits: Visits) -> tuple[Surface, tuple[str, ...] | None]:
        """The surface linked from ``visits``, and the files whose texts its problems'
        digests read (None: every file's)."""
        from apisurface.surface.access import names_in_enclosing_scope  # noqa: PLC0415
        from apisurface.surface.link.exports import (  # noqa: PLC0415
            declare_surface,
            find_declarations,
            generated_exports,
        )
        from apisurface.surface.link.walker import Walker  # noqa: PLC0415
        from apisurface.surface.protobuf import with_facts  # noqa: PLC0415
        from apisurface.surface.visit.facts import reading  # noqa: PLC0415
        from apisurface.surface.visit.modules import link_package  # noqa: PLC0415

        package, files, config, docs = self.package, self.files, self.config, self.docs
        problems = list(self.problems)
        top, linked = link_package(visits, problems)
        problems = self.scoped_errors(visits, problems)
        if self.progress is not None:
            self.progress(f"walking {package}", 0, 0)
        siblings = frozenset(item.module.partition(".")[0] for item in files) - {package}
        walker = Walker(package, config, docs, linked.markers, linked.stubs, siblings=siblings)
        # Export decorators (``@tf_export("math.add")``), when the package makes any, define
        # the surface instead of the package layout (see apisurface.surface.link.exports).
        declarations = find_declarations(package, files, config.export_decorators, linked.summaries)
        with names_in_enclosing_scope(), reading(linked.summaries):
            if declarations.items:
                generated = generated_exports(package, files, linked.summaries)
                declare_surface(walker, top, declarations, generated)
            else:
                walker.module(top, package, deprecated=None)
            symbols = with_facts(walker.finish(), self.proto_facts)
        digested, read = _digested([*problems, *walker.problems], files)
        surface = Surface(
            package=package,
            symbols=symbols,
            excluded=dict(sorted(walker.excluded.items())),
            version=self.version,
            problems=digested,
            declared_by=declarations.decorators,
            docs_sources=bool(docs.names or docs.all_members or docs.deep_members),
        )
        return surface, read


def _unwalked(module: str, *, package: str, config: Config) -> str | None:
    """The component of ``module`` that puts it outside what the walk enters: the top-level
    name of another package of the distribution (read only where the package reaches it:
    ``from _pytest.fixtures import fixture``), or what :func:`never_walked` says."""
    from apisurface.surface.policy import never_walked  # noqa: PLC0415

    top = module.partition(".")[0]
    return top if top != package else never_walked(module, config)


def _texts_digest(read: tuple[str, ...] | None, files: list[SourceFile]) -> str:
    """The digest of the texts of the files named in ``read`` (None: of every file)."""
    texts = {item.relpath: item.text for item in files}
    if read is None:
        return content_digest(texts.items())
    return content_digest((name, texts.get(name)) for name in read)


def content_digest(contents: Iterable[tuple[str, str | None]]) -> str:
    """The sha256 of files' contents, by relative path (``None``: the file is absent):
    what :attr:`Problem.digest` records."""
    digest = hashlib.sha256()
    for relpath, text in sorted(contents, key=lambda item: item[0]):
        digest.update(relpath.encode("utf-8", "surrogateescape") + b"\0")
        if text is None:
            digest.update(b"\1")
        else:
            digest.update(b"\0" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
    return digest.hexdigest()


def with_digests(problems: Iterable[Problem], files: list[SourceFile]) -> tuple[Problem, ...]:
    """``problems`` without repeats, sorted, each with the digest of the content it concerns
    (its file and related files; every file for a problem of the whole package). A problem
    of a file that was not read keeps the digest it came with (its bytes', or none)."""
    return _digested(problems, files)[0]


def _digested(
    problems: Iterable[Problem], files: list[SourceFile]
) -> tuple[tuple[Problem, ...], tuple[str, ...] | None]:
    """:func:`with_digests`, and the files whose texts it read, sorted (None: every file's)."""
    texts: Mapping[str, str] = {item.relpath: item.text for item in files}
    everything: str | None = None
    read: set[str] = set()
    found: dict[Problem, None] = {}
    for problem in problems:
        digest = problem.digest
        if digest is None and not problem.file:
            if everything is None:
                everything = content_digest(texts.items())
            digest = everything
        elif digest is None and problem.file in texts:
            names = (problem.file, *problem.related)
            read.update(names)
            digest = content_digest((name, texts.get(name)) for name in names)
        found.setdefault(replace(problem, digest=digest))
    digested = tuple(sorted(found, key=lambda problem: problem.sort_key))
    return digested, None if everything is not None else tuple(sorted(read))
