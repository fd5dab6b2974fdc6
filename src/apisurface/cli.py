"""The ``apisurface`` command: running each subcommand, its output and exit codes (the
arguments of each are described in ``_cli_parser.py``; each is run by its ``_cmd_*``
function here, named in ``_HANDLERS``).

This is the only module that prints or exits. Exit codes: 0 success, 1 a check failed
(``--fail-on`` reached, or ``check`` found a problem), 2 bad input.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from apisurface._cli_parser import build_parser, subparser
from apisurface.errors import ApisurfaceError, UnreadableSourceError
from apisurface.output.formats import REPORT_FORMATS
from apisurface.output.printable import visible

# The analysis stack (griffe, libcst, rich) is imported inside the commands that use it,
# so that --version, --help and argument errors answer without loading it.
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from rich.console import Console

    from apisurface.model import Surface
    from apisurface.progress import ProgressCallback
    from apisurface.project.project import Project
    from apisurface.release.checks import CheckResult
    from apisurface.release.inputs import Loaded
    from apisurface.release.migrate import ImpactReport
    from apisurface.release.migration import MigrationSpec
    from apisurface.store.cache import SurfaceCache

__all__ = ["main"]

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


def _write(text: str, output: str | None) -> None:
    if output is None or output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        _write_file(Path(output), text)


def _write_file(path: Path, text: str, *, create: bool = False) -> None:
    """Write ``path`` atomically. A folder the user named that does not exist is bad input
    (a typo in ``-o /nonexistent/x.json`` must not create ``/nonexistent``); ``create`` is
    for the folders apisurface names itself (``api_snapshots/``)."""
    from apisurface.store.atomic import write_atomic  # noqa: PLC0415 - not for --help

    if not create and not path.parent.is_dir():
        what = "is not a folder" if path.parent.exists() else "does not exist"
        raise ApisurfaceError(
            f"{path.parent}: {what}; create the folder first, or name a file in one that exists"
        )
    write_atomic(path, text)


def _wants_color(args: argparse.Namespace, stream: object) -> bool:
    """The colour convention: --color/--no-color win, then NO_COLOR (no-color.org), then
    FORCE_COLOR, then whether ``stream`` is a terminal (and not TERM=dumb)."""
    import os  # noqa: PLC0415

    choice = "never" if getattr(args, "no_color", False) else getattr(args, "color", "auto")
    if choice != "auto":
        return bool(choice == "always")
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def _color(args: argparse.Namespace) -> bool:
    return getattr(args, "output", None) in (None, "-") and _wants_color(args, sys.stdout)


def _stderr_console(args: argparse.Namespace) -> Console:
    """The console of the progress bar: stderr, coloured by the same convention."""
    from rich.console import Console  # noqa: PLC0415

    return Console(stderr=True, no_color=not _wants_color(args, sys.stderr))


def _note(args: argparse.Namespace, message: str) -> None:
    if not getattr(args, "quiet", False):
        print(visible(message), file=sys.stderr)


@contextlib.contextmanager
def _loading(
    args: argparse.Namespace,
) -> Iterator[tuple[SurfaceCache | None, ProgressCallback | None]]:
    """The cache and a progress callback for loading: a bar on stderr, shown only on a
    terminal, without --quiet, and once a load has taken more than half a second."""
    from apisurface.store.cache import SurfaceCache  # noqa: PLC0415

    cache = None
    if not getattr(args, "no_cache", False):
        folder = getattr(args, "cache_dir", None)
        cache = SurfaceCache(Path(folder) if folder else None)
    if getattr(args, "quiet", False) or not sys.stderr.isatty():
        yield cache, None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn  # noqa: PLC0415

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=_stderr_console(args),
        transient=True,
    )
    task = bar.add_task("loading", total=None)
    began = time.monotonic()
    shown = False

    def report(phase: str, done: int, total: int) -> None:
        nonlocal shown
        if not shown and time.monotonic() - began > 0.5:
            bar.start()
            shown = True
        bar.update(task, description=phase, completed=done, total=total or None)

    try:
        yield cache, report
    finally:
        if shown:
            bar.stop()


def _refuse_unreadable(args: argparse.Namespace, loaded: Loaded, spec: str) -> None:
    """Bad input (a file the public surface reaches does not parse) stops the command
    unless ``--allow-incomplete``."""
    from apisurface.release.inputs import refuse_unreadable  # noqa: PLC0415

    if not getattr(args, "allow_incomplete", False):
        refuse_unreadable(loaded.surface, spec, loaded.kind, project=loaded.project)


def _cmd_snapshot(args: argparse.Namespace) -> int:
    from apisurface.release.inputs import load_input  # noqa: PLC0415
    from apisurface.store.snapshot import dumps, snapshot_target  # noqa: PLC0415

    with _loading(args) as (cache, progress):
        loaded = load_input(args.source, package=args.package, cache=cache, progress=progress)
    _refuse_unreadable(args, loaded, args.source)
    surface = loaded.surface
    text = dumps(surface)
    if args.output == "-":
        _write(text, "-")
    else:
        source = Path(args.source)
        base = source if loaded.kind == "folder" and source.is_dir() else Path(".")
        target = snapshot_target(base, surface.package, args.output)
        unread = [problem for problem in surface.problems if problem.error]
        if unread and target.exists():
            raise ApisurfaceError(
                f"{target}: not written over: the surface misses {len(unread)} file(s) that "
                "do not parse (--allow-incomplete); write it elsewhere with -o FILE"
            )
        recorded = _recorded(target) if args.if_stale else None
        if recorded is not None and _records_surface(recorded, surface):
            _note(args, f"{target} unchanged: it records the public surface")
            return EXIT_OK
        _write_file(target, text, create=not args.output)
        _note(args, f"wrote {target} ({len(surface.symbols)} public paths)")
        if args.if_stale:  # the update hook: say what the file records now (stdout)
            _write(_what_changed(target, recorded, surface), None)
    for problem in surface.problems:
        _note(args, f"warning: incomplete surface: {problem}")
    return EXIT_OK


def _recorded(target: Path) -> Surface | None:
    """The surface the snapshot file ``target`` records (None: none, or unreadable)."""
    from apisurface.store.snapshot import read_snapshot  # noqa: PLC0415

    if not target.is_file():
        return None
    try:
        return read_snapshot(target)
    except ApisurfaceError:
        return None


def _records_surface(recorded: Surface, surface: Surface) -> bool:
    from apisurface.release.checks import snapshot_current  # noqa: PLC0415

    return snapshot_current(recorded, surface)


def _what_changed(target: Path, recorded: Surface | None, surface: Surface) -> str:
    """What ``snapshot --if-stale`` recorded anew: each change since the old file (at most
    20), or that the file is new or could not be read."""
    from apisurface.compare.diff import diff_surfaces  # noqa: PLC0415
    from apisurface.compare.rules import classify  # noqa: PLC0415

    if recorded is None:
        return visible(f"{target}: written ({len(surface.symbols)} public paths)") + "\n"
    changes = classify(diff_surfaces(recorded, surface))
    lines = [f"{target}: updated, {len(changes)} change{'s' if len(changes) != 1 else ''}"]
    if not changes:
        lines[0] += " the diff does not report (stored details, the version or problems)"
    lines += [f"  {item.change.path}: {item.message} [{item.level}]" for item in changes[:20]]
    if len(changes) > 20:
        lines.append(f"  and {len(changes) - 20} more ('apisurface diff {target} .' lists them)")
    return "\n".join(visible(line) for line in lines) + "\n"


def _cmd_show(args: argparse.Namespace) -> int:
    from apisurface.output.text import render_surface  # noqa: PLC0415
    from apisurface.release.inputs import load_input  # noqa: PLC0415
    from apisurface.verify.switch import verify_wanted  # noqa: PLC0415

    with _loading(args) as (cache, progress):
        loaded = load_input(args.source, package=args.package, cache=cache, progress=progress)
    _refuse_unreadable(args, loaded, args.source)
    for problem in loaded.surface.problems if args.format == "json" else ():
        _note(args, f"warning: incomplete surface: {problem}")
    wanted, refused = verify_wanted(args.verify, loaded.config)
    if refused:
        _note(args, f"warning: {refused}")
    if not wanted:
        if args.format == "json":
            from apisurface.store.snapshot import dumps  # noqa: PLC0415

            _write(dumps(loaded.surface), args.output)
        else:
            _write(render_surface(loaded.surface, color=_color(args)), args.output)
        return EXIT_OK
    _write(_show_verified(args, loaded), args.output)
    return EXIT_OK


def _show_verified(args: argparse.Namespace, loaded: Loaded) -> str:
    """``show --verify``: the surface with the import check's gaps as problems, and the
    check itself (text: after the stubs; JSON: the snapshot with ``verification``)."""
    import json  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    from apisurface.output.printable import json_safe  # noqa: PLC0415
    from apisurface.output.text import render_surface  # noqa: PLC0415
    from apisurface.output.verification import check_json, check_text  # noqa: PLC0415
    from apisurface.store.cache import default_cache_dir  # noqa: PLC0415
    from apisurface.store.snapshot import dumps  # noqa: PLC0415
    from apisurface.verify.environments import (  # noqa: PLC0415
        Environment,
        Unavailable,
        prepare,
        release_of,
    )
    from apisurface.verify.importcheck import check_surface, with_gaps  # noqa: PLC0415

    root = loaded.project.root if loaded.project is not None else None
    release = release_of(args.source, root=root, also=args.verify_with)
    check = None
    prepared: Environment | Unavailable
    if isinstance(release, Unavailable):
        prepared = release
    else:
        _note(args, f"verify: preparing an environment of {release} ...")
        folder = Path(args.cache_dir) if args.cache_dir else default_cache_dir()
        with tempfile.TemporaryDirectory(prefix="apisurface-envs-") as scratch:
            prepared = prepare(release, cache_dir=Path(scratch) if args.no_cache else folder)
            if isinstance(prepared, Environment):
                check = check_surface(loaded.surface, prepared, config=loaded.config)
    if isinstance(prepared, Unavailable):
        _note(args, f"warning: verification not run: {prepared}")
    surface = with_gaps(loaded.surface, check) if check is not None else loaded.surface
    if args.format == "json":
        document = json.loads(dumps(surface))
        document["verification"] = check_json(prepared, check)
        return json_safe(json.dumps(document, indent=2, ensure_ascii=True)) + "\n"
    # In text, the gaps are listed once, by the check (the stubs keep the static problems).
    return render_surface(loaded.surface, color=_color(args)) + check_text(prepared, check)


def _cmd_diff(args: argparse.Namespace) -> int:
    if args.current_version is not None:
        _check_version_flag(args.current_version)
    also = [_also(value) for value in args.also]
    if args.old is None:
        args.old = _last_release_tag()
    import dataclasses  # noqa: PLC0415

    from apisurface.compare.report import build_report  # noqa: PLC0415
    from apisurface.compare.rules import Level  # noqa: PLC0415
    from apisurface.output.formats import render_report  # noqa: PLC0415
    from apisurface.project.config import Config  # noqa: PLC0415
    from apisurface.project.origins import source_root  # noqa: PLC0415

    old, new = _load_pair(args, args.old, args.new)
    for loaded in (old, new):
        if loaded.note:
            _note(args, f"note: {loaded.note}")
    config = new.config if new.kind != "snapshot" else old.config
    if args.strict:
        config = dataclasses.replace(config or Config(), strict=True)
    report = build_report(
        old.surface,
        new.surface,
        old_label=_label(args.old),
        new_label=_label(args.new),
        current_version=args.current_version,
        config=config,
        # Locations relative to the repository, in every format.
        old_root=source_root(args.old, old.kind, old.surface.package, project=old.project),
        new_root=source_root(args.new, new.kind, new.surface.package, project=new.project),
    )
    extra = {"verbose": args.witnesses, "link": _report_link(args.report_link)}
    for fmt, file in also:
        rendered = render_report(report, fmt, old=old.surface, new=new.surface, **extra)
        _write_file(Path(file), rendered)
    text = render_report(
        report, args.format, color=_color(args), old=old.surface, new=new.surface, **extra
    )
    _write(text, args.output)
    if args.fail_on and report.reaches(Level.parse(args.fail_on)):
        return EXIT_FAILED
    if args.fail_on and report.blocking_unknowns:
        # What could not be analysed, where OLD and NEW differ, may hide any change: never
        # a clean pass of the gate (unknowns in unchanged content are notes).
        _note(
            args,
            f"apisurface: --fail-on {args.fail_on}: {len(report.blocking_unknowns)} part(s) "
            "not verified where OLD and NEW differ",
        )
        return EXIT_FAILED
    return EXIT_OK


def _load_pair(args: argparse.Namespace, old_spec: str, new_spec: str) -> tuple[Loaded, Loaded]:
    """OLD and NEW loaded, which must hold the same package."""
    from apisurface.release.pair import load_pair  # noqa: PLC0415

    with _loading(args) as (cache, progress):
        old, new = load_pair(
            old_spec, new_spec, package=args.package, cache=cache, progress=progress
        )
    if old.surface.package != new.surface.package:
        raise ApisurfaceError(
            f"{old_spec} holds package {old.surface.package!r} but {new_spec} holds "
            f"{new.surface.package!r}; name the one to compare with --package NAME"
        )
    _refuse_unreadable(args, old, old_spec)
    _refuse_unreadable(args, new, new_spec)
    return old, new


def _report_link(url: str | None) -> str | None:
    """``--report-link URL``: an https address without spaces or brackets (it becomes a
    Markdown link in a pull-request comment)."""
    if url is None:
        return None
    if not url.startswith("https://") or any(char in url for char in " \t\n<>()[]`\"'"):
        raise ApisurfaceError(
            f"--report-link {url[:80]!r}: give an https:// address without spaces, quotes "
            "or brackets"
        )
    return url


def _also(value: str) -> tuple[str, str]:
    """``--also FORMAT=FILE`` read: the format and the file."""
    fmt, sep, file = value.partition("=")
    if not sep or not file or fmt not in REPORT_FORMATS:
        raise ApisurfaceError(
            f"--also {value!r}: give FORMAT=FILE, FORMAT one of {', '.join(REPORT_FORMATS)}"
        )
    return fmt, file


def _label(spec: str) -> str:
    """How a report names an input: as typed, but the folder you stand in is the working
    tree (not ``.``)."""
    return "working tree" if spec in (".", "./") else spec


def _latest_tag(not_a_repository: str) -> str | None:
    """The release tag HEAD comes from; ``not_a_repository`` is the error outside git."""
    from apisurface.release.checks import latest_release_tag  # noqa: PLC0415

    try:
        return latest_release_tag(Path.cwd())
    except ApisurfaceError:
        raise ApisurfaceError(not_a_repository) from None


def _last_release_tag() -> str:
    tag = _latest_tag(
        f"no release tag to compare with ({Path.cwd()} is not in a git repository); name "
        "the release: apisurface diff OLD [NEW]"
    )
    if tag is None:
        raise ApisurfaceError(
            "no release tag to compare with (no version tag in this repository); name the "
            "release: apisurface diff OLD [NEW]"
        )
    return tag


def _cmd_last_release(args: argparse.Namespace) -> int:
    tag = _latest_tag(f"{Path.cwd()} is not in a git repository")
    if tag is not None:
        _write(visible(tag) + "\n", None)
    return EXIT_OK


def _check_version_flag(text: str) -> None:
    from apisurface.compare.bump import parse_version  # noqa: PLC0415
    from apisurface.errors import VersionError  # noqa: PLC0415

    try:
        parse_version(text)
    except VersionError as error:
        detail = str(error).split(";", 1)[0].removeprefix(f"version {text!r} ")
        raise ApisurfaceError(
            f"--current-version {text!r} {detail}; give the released version OLD "
            "corresponds to, such as 1.2.0 or 1.3rc1"
        ) from None


def _cmd_rules(args: argparse.Namespace) -> int:
    from apisurface.output.rules import render_rules  # noqa: PLC0415

    _write(render_rules(args.format), None)
    return EXIT_OK


def _cmd_explain(args: argparse.Namespace) -> int:
    from apisurface.output.explain import explain_text  # noqa: PLC0415

    _write(explain_text(args.rule), None)
    return EXIT_OK


def _snapshot_command(args: argparse.Namespace) -> str:
    command = "apisurface snapshot"
    if args.source != "." and Path(args.source).exists():  # (a ref: run on the branch)
        command += f" {args.source}"
    if args.package:
        command += f" --package {args.package}"
    return command


@contextlib.contextmanager
def _working_tree(args: argparse.Namespace) -> Iterator[tuple[Project, Surface]]:
    """The project in SOURCE and its surface. SOURCE is a folder, or else a git ref of the
    repository you stand in, whose files are read into a temporary folder (as diff reads
    a ref) while the command runs."""
    from dataclasses import replace  # noqa: PLC0415

    from apisurface.project.git import Repository  # noqa: PLC0415
    from apisurface.project.project import Project  # noqa: PLC0415
    from apisurface.release.inputs import checked_out, refuse_unreadable  # noqa: PLC0415
    from apisurface.surface.collect import project_surface  # noqa: PLC0415

    with contextlib.ExitStack() as stack:
        folder = Path(args.source)
        ref = None
        if not folder.exists():
            folder, ref = stack.enter_context(checked_out(args.source)), args.source
        project = Project.load(folder, args.package)
        if ref is not None:
            project = replace(project, repository=Repository(Path.cwd()), ref=ref)
        if getattr(args, "strict", False):
            project = replace(project, config=replace(project.config, strict=True))
        with _loading(args) as (cache, progress):
            surface = project_surface(project, cache=cache, progress=progress)
        if not getattr(args, "allow_incomplete", False):
            kind = "folder" if ref is None else "git"
            refuse_unreadable(surface, args.source, kind, project=project)
        yield project, surface


def _snapshot_path(args: argparse.Namespace, source: Path, surface: Surface) -> Path:
    from apisurface.store.snapshot import default_snapshot_path  # noqa: PLC0415

    if args.snapshot:
        return Path(args.snapshot)
    return default_snapshot_path(source, surface.package)


def _cmd_check(args: argparse.Namespace) -> int:
    from apisurface.output.ci import relabelled, render_check_lines, render_checks_json  # noqa: PLC0415
    from apisurface.release.checks import (  # noqa: PLC0415
        check_complete,
        check_snapshot,
        check_version,
        find_release,
    )

    with _working_tree(args) as (project, surface):
        snapshot_path = _snapshot_path(args, project.source, surface)
        results: list[CheckResult] = [
            check_snapshot(
                surface, snapshot_path, command=_snapshot_command(args), source=project.source
            )
        ]
        if args.no_version:
            results.append(check_complete(surface, snapshot_path=snapshot_path))
        else:
            release = find_release(
                project, surface, against=args.against, allow_incomplete=args.allow_incomplete
            )
            results.append(check_complete(surface, release, snapshot_path=snapshot_path))
            results.append(check_version(release, config=project.config))
        results = relabelled(results, project.source, project.ref)
    failed = [result for result in results if not result.passed]
    color = _color(args)
    if args.format == "json":
        _write(render_checks_json(results), args.output)
    elif args.quiet and args.output in (None, "-"):
        if failed:  # --quiet prints only failures (the pre-commit hook's command)
            _write(render_check_lines(failed, color=color), args.output)
    else:
        _write(render_check_lines(results, color=color), args.output)
    return EXIT_FAILED if failed else EXIT_OK


def _cmd_release_check(args: argparse.Namespace) -> int:
    from apisurface.output.ci import (  # noqa: PLC0415
        relabelled,
        render_check_lines,
        render_checklist,
        render_checks_json,
    )
    from apisurface.release.checks import release_checks  # noqa: PLC0415

    with _working_tree(args) as (project, surface):
        declared = project.version
        results = release_checks(
            surface,
            project=project,
            snapshot_path=_snapshot_path(args, project.source, surface),
            against=args.against,
            snapshot_command=_snapshot_command(args),
            allow_incomplete=args.allow_incomplete,
        )
        results = relabelled(results, project.source, project.ref)
    failed = [result for result in results if not result.passed]
    if args.format == "json":
        text = render_checks_json(results)
    elif args.quiet and args.output in (None, "-"):
        # --quiet, as for check: only what failed (nothing when ready to release).
        text = render_check_lines(failed, color=_color(args)) if failed else ""
    else:
        title = f"Release checklist: {surface.package} {declared or '(no version)'}"
        text = render_checklist(results, title=title, color=_color(args))
    _write(text, args.output)
    return EXIT_FAILED if failed else EXIT_OK


def _migration_spec(args: argparse.Namespace) -> tuple[MigrationSpec, list[str]]:
    """The spec (from --spec, or built from OLD and NEW) and the user's PATHS."""
    from apisurface.release.migration import build_spec, deprecation_notes, read_spec  # noqa: PLC0415

    if args.spec:
        if getattr(args, "emit_spec", None):
            raise ApisurfaceError("--emit-spec needs OLD and NEW, not --spec")
        return read_spec(Path(args.spec)), list(args.inputs)
    if len(args.inputs) < 2:
        raise ApisurfaceError(f"{args.command} needs OLD NEW PATHS... (or --spec FILE PATHS...)")
    old_spec, new_spec, *paths = args.inputs
    old, new = _load_pair(args, old_spec, new_spec)
    notes: dict[str, str] = {}
    if new.project is not None:
        notes = deprecation_notes(new.project.path.parent, new.surface)
    spec = build_spec(old.surface, new.surface, old_label=old_spec, new_label=new_spec, notes=notes)
    return spec, paths


def _impact_exit(report: ImpactReport) -> int:
    from apisurface.output.impact import plain  # noqa: PLC0415

    if report.problems:
        for problem in report.problems:
            print(f"apisurface: error: {plain(problem)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_FAILED if report.breaking else EXIT_OK


def _cmd_impact(args: argparse.Namespace) -> int:
    from apisurface.output.formats import render_impact  # noqa: PLC0415
    from apisurface.release.migrate import run_impact  # noqa: PLC0415

    spec, paths = _migration_spec(args)
    if not paths:
        raise ApisurfaceError("impact needs at least one PATH (a file or folder of your code)")
    report = run_impact(paths, spec)
    _write(render_impact(report, args.format), args.output)
    return _impact_exit(report)


def _cmd_migrate(args: argparse.Namespace) -> int:
    from apisurface.output.impact import plain, render_impact_text  # noqa: PLC0415
    from apisurface.release.migrate import run_migration, write_changes  # noqa: PLC0415
    from apisurface.release.migration import dumps_spec  # noqa: PLC0415

    spec, paths = _migration_spec(args)
    if args.emit_spec:
        _write(dumps_spec(spec), args.emit_spec)
        if args.emit_spec != "-":
            _note(args, f"wrote {args.emit_spec} ({len(spec.entries)} entries)")
        if not paths:
            return EXIT_OK
    if not paths:
        raise ApisurfaceError("migrate needs at least one PATH (or --emit-spec FILE)")
    run = run_migration(paths, spec)
    if args.write:
        written = write_changes(run)
        for file in written:
            _note(args, f"rewrote {plain(file)}")
    else:
        _write(run.diff(), None)
    assert run.left is not None
    fixed = len(run.fixed)
    verb = "rewrote" if args.write else "would rewrite"
    summary = f"{verb} {fixed} use{'s' if fixed != 1 else ''} in {len(run.changed)} files"
    left = render_impact_text(run.left)
    if args.write:
        _write(f"{summary}\nleft to do by hand:\n{left}", None)
    else:
        print(f"{summary}\nleft to do by hand:\n{left}", end="", file=sys.stderr)
    return _impact_exit(run.left)


_HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "snapshot": _cmd_snapshot,
    "show": _cmd_show,
    "diff": _cmd_diff,
    "check": _cmd_check,
    "release-check": _cmd_release_check,
    "impact": _cmd_impact,
    "migrate": _cmd_migrate,
    "rules": _cmd_rules,
    "explain": _cmd_explain,
    "last-release": _cmd_last_release,
}


def _parser() -> argparse.ArgumentParser:
    """The command line, with a handler for each of its subcommands (checked on building)."""
    return build_parser(_HANDLERS)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = _parser()
    args, extras = parser.parse_known_args(argv)
    if extras:
        # Report a mistyped flag with the usage of its subcommand, not the top level's.
        subcommand = subparser(parser, args.command)
        (subcommand or parser).error(f"unrecognized arguments: {' '.join(extras)}")
    if getattr(args, "quiet_all", False):
        args.quiet = True
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return _HANDLERS[args.command](args)
    except UnreadableSourceError as error:
        # As compilers do: each file first (FILE:LINE:COL: message), then what to do.
        for line in error.lines:
            print(visible(line), file=sys.stderr)
        print(f"apisurface: error: {visible(str(error))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ApisurfaceError as error:
        print(f"apisurface: error: {visible(str(error))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("apisurface: interrupted", file=sys.stderr)
        return 130
    except RecursionError:
        print("apisurface: error: input nested too deeply to analyse", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except OSError as error:  # a name too long, a folder that vanished: still one line
        where = f"{error.filename}: " if error.filename else ""
        print(f"apisurface: error: {where}{error.strerror or error}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run() -> None:
    """Console-script entry point. SIGTERM is handled like Ctrl-C, so that a file being
    written is cleaned up and the old one left intact (see atomic.py)."""
    signal.signal(signal.SIGTERM, _interrupt)
    # A load builds millions of long-lived objects (griffe's tree, the symbols) and frees
    # almost none before exit: the default collector thresholds re-scan them over and over
    # (15% of a cold sympy snapshot, and most of the variance of warm loads).
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    try:
        code = main()
    finally:
        # What the command built is left to the operating system at exit: out of the
        # collector's reach, the interpreter's last collections do not walk it again
        # (sympy: 3 s CPU of a 7 s snapshot). Output, exit code and clean-up are unchanged.
        gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
