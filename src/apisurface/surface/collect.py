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
from dataclasses import replace
from pathlib import Path

from apisurface.model import (
    Problem,
    Surface,
)
from apisurface.progress import ProgressCallback
from apisurface.project.config import Config
from apisurface.project.project import Project, configured_package
from apisurface.project.sources import SourceFile, read_sources
from apisurface.store.cache import SurfaceCache, surface_key
from apisurface.surface.docsources import DocsIndex, follow_other_import_names, scan_docs

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
    an edited package visits only the edited files (then links them all again)."""
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
    from apisurface.surface.access import names_in_enclosing_scope  # noqa: PLC0415
    from apisurface.surface.link.exports import (  # noqa: PLC0415
        declare_surface,
        find_declarations,
        generated_exports,
    )
    from apisurface.surface.link.walker import Walker  # noqa: PLC0415
    from apisurface.surface.policy import never_walked  # noqa: PLC0415
    from apisurface.surface.protobuf import stub_sources, with_facts  # noqa: PLC0415
    from apisurface.surface.visit.facts import reading  # noqa: PLC0415
    from apisurface.surface.visit.modules import visit_modules  # noqa: PLC0415
    from apisurface.surface.visit.workers import Workers  # noqa: PLC0415

    files, proto_facts, proto_problems = stub_sources(files)
    problem_list = [*problems, *proto_problems]
    pool = Workers(workers)
    try:
        top, linked = visit_modules(
            package,
            files,
            problem_list,
            progress,
            cache=cache,
            pool=pool,
            outside=functools.partial(never_walked, config=config),
        )
    finally:
        pool.shutdown()
    if progress is not None:
        progress(f"walking {package}", 0, 0)
    walker = Walker(package, config, docs, linked.markers, linked.stubs)
    # Export decorators (``@tf_export("math.add")``), when the package makes any, define
    # the surface instead of the package layout (see apisurface.surface.link.exports).
    declarations = find_declarations(package, files, config.export_decorators, linked.summaries)
    with names_in_enclosing_scope(), reading(linked.summaries):
        if declarations.items:
            generated = generated_exports(package, files, linked.summaries)
            declare_surface(walker, top, declarations, generated)
        else:
            walker.module(top, package, deprecated=None)
        symbols = with_facts(walker.finish(), proto_facts)
    surface = Surface(
        package=package,
        symbols=symbols,
        excluded=dict(sorted(walker.excluded.items())),
        version=version,
        problems=with_digests([*problem_list, *walker.problems], files),
        declared_by=declarations.decorators,
        docs_sources=bool(docs.names or docs.all_members or docs.deep_members),
    )
    if cache is not None:
        cache.put_surface(key, surface)
    return surface


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
    texts: Mapping[str, str] = {item.relpath: item.text for item in files}
    everything: str | None = None
    found: dict[Problem, None] = {}
    for problem in problems:
        digest = problem.digest
        if digest is None and not problem.file:
            if everything is None:
                everything = content_digest(texts.items())
            digest = everything
        elif digest is None and problem.file in texts:
            names = (problem.file, *problem.related)
            digest = content_digest((name, texts.get(name)) for name in names)
        found.setdefault(replace(problem, digest=digest))
    return tuple(sorted(found, key=lambda problem: problem.sort_key))
