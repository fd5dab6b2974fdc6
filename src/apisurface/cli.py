"""The ``apisurface`` command: argument parsing, output and exit codes.

This is the only module that prints or exits. Exit codes: 0 success, 1 a check failed
(``--fail-on`` reached, or ``check`` found a problem), 2 bad input.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from apisurface import __version__
from apisurface.atomic import write_atomic
from apisurface.cache import SurfaceCache
from apisurface.checks import (
    CheckResult,
    check_complete,
    check_snapshot,
    check_version,
    find_release,
    release_checks,
)
from apisurface.collect import configured_package, load_surface
from apisurface.config import Config, load_config
from apisurface.errors import ApisurfaceError
from apisurface.inputs import load_input
from apisurface.locate import declared_version, locate
from apisurface.model import Surface
from apisurface.origins import source_root
from apisurface.progress import ProgressCallback
from apisurface.render import render_json, render_markdown, render_surface, render_text
from apisurface.render_ci import (
    render_check_lines,
    render_checklist,
    render_checks_json,
    render_github,
    render_sarif,
)
from apisurface.report import build_report
from apisurface.rules import RULES, Level
from apisurface.snapshot import dumps

__all__ = ["main"]

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2

_DESCRIPTION = """\
apisurface reads a Python package's source statically (it never imports or runs it),
builds its documented public surface, stores it as a snapshot, and diffs two surfaces
to recommend the MAJOR, MINOR or PATCH bump the changes need.

Each of OLD and NEW (and SOURCE) may be a source folder, a snapshot file (.json), or a
git ref (tag, branch, commit) of the repository you stand in.
"""

_EPILOG = """\
examples:
  apisurface snapshot                      write api_snapshots/<package>.json
  apisurface show .                        print the public surface as stubs
  apisurface diff v1.2 v1.3                compare two tags
  apisurface diff api_snapshots/pkg.json . compare the snapshot with the working tree
  apisurface diff old/ new/ --format json  machine-readable report
exit codes: 0 success, 1 --fail-on reached or a check failed, 2 bad input
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="apisurface",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"apisurface {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--package",
            metavar="NAME",
            help="the package to analyse (default: from pyproject.toml, or the only package)",
        )
        sub.add_argument(
            "--quiet", "-q", action="store_true", help="no progress or notes on stderr"
        )
        sub.add_argument("--no-color", action="store_true", help="plain text output")
        sub.add_argument(
            "--cache-dir",
            metavar="DIR",
            help="where surfaces are cached by content (default: $APISURFACE_CACHE_DIR "
            "or the user cache folder)",
        )
        sub.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")

    snapshot = commands.add_parser(
        "snapshot",
        help="write the public surface of SOURCE to a snapshot file",
        description="Write the documented public surface of SOURCE as a deterministic "
        "JSON snapshot.",
    )
    snapshot.add_argument(
        "source",
        nargs="?",
        default=".",
        metavar="SOURCE",
        help="source folder or git ref (default: .)",
    )
    snapshot.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where to write (default: SOURCE/api_snapshots/<package>.json; '-' for stdout)",
    )
    common(snapshot)

    show = commands.add_parser(
        "show",
        help="print the public surface as readable stubs",
        description="Print the surface of a source folder, snapshot or git ref as stub-like text.",
    )
    show.add_argument("source", nargs="?", default=".", metavar="SOURCE|SNAPSHOT")
    common(show)

    diff = commands.add_parser(
        "diff",
        help="compare two surfaces and recommend a version bump",
        description="Classify every change between OLD and NEW (POLICY.md section 3) "
        "and recommend the bump.",
        epilog="exit codes: 0 diff done (whatever the bump), 1 --fail-on reached, 2 bad input",
    )
    diff.add_argument("old", metavar="OLD", help="folder, snapshot (.json) or git ref")
    diff.add_argument("new", metavar="NEW", help="folder, snapshot (.json) or git ref")
    diff.add_argument(
        "--format",
        choices=("text", "json", "markdown", "github", "sarif"),
        default="text",
        help="output format (default: text): markdown is a pull-request comment, github "
        "workflow annotations, sarif a code-scanning log",
    )
    diff.add_argument(
        "--current-version",
        metavar="X",
        help="the released version OLD corresponds to (PEP 440 or semver; default: read from OLD)",
    )
    diff.add_argument(
        "--fail-on",
        choices=("major", "minor", "patch"),
        help="exit 1 when the required bump reaches this level",
    )
    diff.add_argument(
        "-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout"
    )
    common(diff)

    def release_inputs(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("source", nargs="?", default=".", metavar="SOURCE")
        sub.add_argument(
            "--snapshot",
            metavar="FILE",
            help="the committed snapshot (default: SOURCE/api_snapshots/<package>.json)",
        )
        sub.add_argument(
            "--against",
            metavar="REF",
            help="the last release to compare with (default: the highest version tag)",
        )

    check = commands.add_parser(
        "check",
        help="CI gate: snapshot current and version bump sufficient",
        description="Check that the committed snapshot equals the working tree's surface and "
        "that the declared version is at least the bump required since the last release "
        "(the highest version tag, or --against REF).",
        epilog="exit codes: 0 all checks pass, 1 a check failed, 2 bad input",
    )
    release_inputs(check)
    check.add_argument("--no-version", action="store_true", help="only check the snapshot")
    common(check)

    release = commands.add_parser(
        "release-check",
        help="the release manager's checklist before tagging",
        description="Run every release check and show a checklist: snapshot current, "
        "version bump sufficient, breaking changes accepted or released as major, removals "
        "deprecated first, changelog names removed or renamed symbols, no experimental "
        "symbol re-exported at a public path, accept entries current.",
        epilog="exit codes: 0 ready (warnings allowed), 1 a check failed, 2 bad input",
    )
    release_inputs(release)
    release.add_argument("--format", choices=("text", "json"), default="text")
    common(release)

    rules = commands.add_parser(
        "rules",
        help="list the rule table (change kinds and the bump each requires)",
        description="List every change kind with its default level and message.",
    )
    rules.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def _write(text: str, output: str | None) -> None:
    if output is None or output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomic(Path(output), text)


def _color(args: argparse.Namespace) -> bool:
    return (
        not getattr(args, "no_color", False)
        and sys.stdout.isatty()
        and getattr(args, "output", None) in (None, "-")
    )


def _note(args: argparse.Namespace, message: str) -> None:
    if not getattr(args, "quiet", False):
        print(message, file=sys.stderr)


@contextlib.contextmanager
def _loading(
    args: argparse.Namespace,
) -> Iterator[tuple[SurfaceCache | None, ProgressCallback | None]]:
    """The cache and a progress callback for loading: a bar on stderr, shown only on a
    terminal, without --quiet, and once a load has taken more than half a second."""
    cache = None
    if not getattr(args, "no_cache", False):
        folder = getattr(args, "cache_dir", None)
        cache = SurfaceCache(Path(folder) if folder else None)
    if getattr(args, "quiet", False) or not sys.stderr.isatty():
        yield cache, None
        return
    from rich.console import Console  # noqa: PLC0415 - only for a bar on a terminal
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn  # noqa: PLC0415

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
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


def _cmd_snapshot(args: argparse.Namespace) -> int:
    with _loading(args) as (cache, progress):
        loaded = load_input(args.source, package=args.package, cache=cache, progress=progress)
    surface = loaded.surface
    text = dumps(surface)
    if args.output == "-":
        _write(text, "-")
    else:
        if args.output:
            target = Path(args.output)
        else:
            base = (
                Path(args.source)
                if loaded.kind == "folder" and Path(args.source).is_dir()
                else Path(".")
            )
            target = base / "api_snapshots" / f"{surface.package}.json"
            _refuse_leaving(target, base)
        write_atomic(target, text)
        _note(args, f"wrote {target} ({len(surface.symbols)} public paths)")
    for problem in surface.problems:
        _note(args, f"warning: incomplete surface: {problem}")
    return EXIT_OK


def _refuse_leaving(target: Path, base: Path) -> None:
    """The default snapshot path stays inside the source folder: a pull request can commit
    ``api_snapshots`` as a symlink to anywhere (the write itself refuses a symlinked file)."""
    folder = target.parent
    try:
        inside = folder.resolve().is_relative_to(base.resolve())
    except (OSError, RuntimeError):  # a symlink loop
        inside = False
    if folder.is_symlink() or not inside:
        raise ApisurfaceError(
            f"{folder}: a symlink or outside {base}; refusing to write the snapshot there "
            "(name the file with -o)"
        )


def _cmd_show(args: argparse.Namespace) -> int:
    with _loading(args) as (cache, progress):
        loaded = load_input(args.source, package=args.package, cache=cache, progress=progress)
    _write(render_surface(loaded.surface, color=_color(args)), None)
    return EXIT_OK


def _cmd_diff(args: argparse.Namespace) -> int:
    with _loading(args) as (cache, progress):
        old = load_input(args.old, package=args.package, cache=cache, progress=progress)
        new = load_input(args.new, package=args.package, cache=cache, progress=progress)
    if old.surface.package != new.surface.package:
        raise ApisurfaceError(
            f"{args.old} holds package {old.surface.package!r} but {args.new} holds "
            f"{new.surface.package!r}; name the one to compare with --package NAME"
        )
    config = new.config if new.kind != "snapshot" else old.config
    located = args.format in ("github", "sarif")  # paths relative to the repository
    report = build_report(
        old.surface,
        new.surface,
        old_label=args.old,
        new_label=args.new,
        current_version=args.current_version,
        config=config,
        old_root=source_root(args.old, old.kind, old.surface.package) if located else "",
        new_root=source_root(args.new, new.kind, new.surface.package) if located else "",
    )
    if args.format == "json":
        text = render_json(report)
    elif args.format == "markdown":
        text = render_markdown(report)
    elif args.format == "github":
        text = render_github(report)
    elif args.format == "sarif":
        text = render_sarif(report)
    else:
        text = render_text(report, color=_color(args))
    _write(text, args.output)
    if args.fail_on and report.level >= Level.parse(args.fail_on):
        return EXIT_FAILED
    if args.fail_on and report.incomplete:
        # What could not be analysed may hide any change: never a clean pass of the gate.
        _note(args, f"apisurface: --fail-on {args.fail_on}: the surface is incomplete")
        return EXIT_FAILED
    return EXIT_OK


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.format == "json":
        data = [
            {"id": rule.kind.value, "bump": str(rule.level), "message": rule.template}
            for rule in sorted(RULES.values(), key=lambda rule: (-rule.level, rule.kind.value))
        ]
        _write(json.dumps(data, indent=2) + "\n", None)
        return EXIT_OK
    lines = []
    for level in (Level.MAJOR, Level.MINOR, Level.PATCH):
        lines.append(level.name)
        for rule in sorted(RULES.values(), key=lambda rule: rule.kind.value):
            if rule.level is level:
                lines.append(f"  {rule.kind.value:40} {rule.template}")
    _write("\n".join(lines) + "\n", None)
    return EXIT_OK


def _snapshot_command(args: argparse.Namespace) -> str:
    command = "apisurface snapshot"
    if args.source != ".":
        command += f" {args.source}"
    if args.package:
        command += f" --package {args.package}"
    return command


def _working_tree(args: argparse.Namespace) -> tuple[Path, Surface, Path, Config, str | None]:
    """The source folder, its surface, project root, configuration and declared version."""
    source = Path(args.source)
    project = locate(source, args.package or configured_package(source))
    config = load_config(project.root)
    with _loading(args) as (cache, progress):
        surface = load_surface(source, args.package, config=config, cache=cache, progress=progress)
    return source, surface, project.root, config, declared_version(project)


def _snapshot_path(args: argparse.Namespace, source: Path, surface: Surface) -> Path:
    if args.snapshot:
        return Path(args.snapshot)
    return source / "api_snapshots" / f"{surface.package}.json"


def _cmd_check(args: argparse.Namespace) -> int:
    source, surface, _, config, declared = _working_tree(args)
    snapshot_path = _snapshot_path(args, source, surface)
    results: list[CheckResult] = [
        check_snapshot(surface, snapshot_path, command=_snapshot_command(args))
    ]
    if args.no_version:
        results.append(check_complete(surface))
    else:
        release = find_release(source, surface, declared, against=args.against, config=config)
        results.append(check_complete(surface, release))
        results.append(check_version(release, config=config))
    failed = [result for result in results if not result.passed]
    if failed or not args.quiet:
        _write(render_check_lines(results), None)
    return EXIT_FAILED if failed else EXIT_OK


def _cmd_release_check(args: argparse.Namespace) -> int:
    source, surface, root, config, declared = _working_tree(args)
    results = release_checks(
        surface,
        source=source,
        project_root=root,
        snapshot_path=_snapshot_path(args, source, surface),
        declared=declared,
        against=args.against,
        config=config,
        snapshot_command=_snapshot_command(args),
    )
    if args.format == "json":
        text = render_checks_json(results)
    else:
        title = f"Release checklist: {surface.package} {declared or '(no version)'}"
        text = render_checklist(results, title=title, color=_color(args))
    _write(text, None)
    return EXIT_FAILED if any(not result.passed for result in results) else EXIT_OK


_COMMANDS = {
    "snapshot": _cmd_snapshot,
    "show": _cmd_show,
    "diff": _cmd_diff,
    "check": _cmd_check,
    "release-check": _cmd_release_check,
    "rules": _cmd_rules,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return _COMMANDS[args.command](args)
    except ApisurfaceError as error:
        print(f"apisurface: error: {error}", file=sys.stderr)
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
    sys.exit(main())


if __name__ == "__main__":
    run()
