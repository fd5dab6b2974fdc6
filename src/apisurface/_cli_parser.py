"""The ``apisurface`` command line: one row per subcommand (its name, help texts and the
function that adds its arguments), from which :func:`build_parser` builds the parser.

``cli.py`` runs the commands; this module only describes them, so that ``--help`` and a
mistyped flag answer without importing the analysis.
"""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Callable, Collection
from typing import NamedTuple, NoReturn

from apisurface import __version__
from apisurface.output.formats import IMPACT_FORMATS, REPORT_FORMATS

__all__ = ["COMMANDS", "Command", "build_parser", "subparser"]

_DESCRIPTION = """\
apisurface reads a Python package's source statically (it never imports or runs it),
builds its documented public surface, stores it as a snapshot, and diffs two surfaces
to recommend the MAJOR, MINOR or PATCH bump the changes need.

Each of OLD and NEW may be a source folder, a snapshot file (.json), a wheel or sdist,
NAME==VERSION of the package index, or a git ref (tag, branch, commit) of the repository
you stand in. SOURCE (snapshot, check, release-check) is a folder or a git ref; show
also reads a snapshot or a wheel.
"""

_EPILOG = """\
examples:
  apisurface snapshot                      write api_snapshots/<package>.json
  apisurface show .                        print the public surface as stubs
  apisurface diff v1.2 v1.3                compare two tags
  apisurface diff v1.2                     compare a tag with the working tree
  apisurface diff                          the last release tag with the working tree
  apisurface diff api_snapshots/pkg.json . compare the snapshot with the working tree
  apisurface diff old/ new/ --format json  machine-readable report
exit codes: 0 success, 1 --fail-on reached or a check failed, 2 bad input
"""


_STRICT_HELP = (
    "count inferred changes too (default: only proven ones count; inferred ones are listed "
    "to review), as [tool.apisurface] strict = true does"
)


class _Parser(argparse.ArgumentParser):
    """A parser whose errors are one line, as every bad input is (docs/security.md): what
    is wrong, the closest valid word (a mistyped subcommand, option or choice), and where
    the help is; not the usage, which a typo used to print over 7 lines."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {_with_suggestion(self, message)}\n")


def _with_suggestion(parser: argparse.ArgumentParser, message: str) -> str:
    """``message`` of argparse, with a did-you-mean and a pointer to ``--help``."""
    choice = re.match(r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)$", message)
    if choice is not None:
        name, given, options = choice.groups()
        valid = re.findall(r"'([^']*)'", options)
        what = "command" if name in ("COMMAND", "command") else f"value for {name}"
        return f"unknown {what} {given!r}{_closest(given, valid)} ({', '.join(valid)})"
    unknown = re.match(r"unrecognized arguments: (.*)$", message)
    if unknown is not None:
        options = [item for item in parser._option_string_actions if item.startswith("--")]
        words = unknown.group(1).split()
        hints = "; ".join(
            f"{word!r}{_closest(word.partition('=')[0], options)}"
            for word in words
            if word.startswith("-")
        )
        if hints:
            return f"unknown option {hints} ({parser.prog} --help lists them)"
        return f"unexpected argument {' '.join(words)!r} ({parser.prog} --help)"
    return f"{message} ({parser.prog} --help)"


def _closest(word: str, candidates: Collection[str]) -> str:
    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean {found[0]!r}?" if found else ""


class Command(NamedTuple):
    """One subcommand: its name and texts in the help, and the function adding its arguments."""

    name: str
    help: str
    description: str
    arguments: Callable[[argparse.ArgumentParser], None]
    epilog: str | None = None


def build_parser(handlers: Collection[str]) -> argparse.ArgumentParser:
    """The command line: the top-level options, then one subparser per row of COMMANDS.
    ``handlers`` names the subcommands the caller runs: each row needs one, and each one
    a row (a subcommand added to one side only fails every command, not silently)."""
    names = [command.name for command in COMMANDS]
    if sorted(names) != sorted(handlers):
        raise AssertionError(f"subcommands {names} but handlers for {sorted(handlers)}")
    parser = _Parser(
        prog="apisurface",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-V", "--version", action="version", version=f"apisurface {__version__}")
    parser.add_argument(
        "--quiet",
        "-q",
        dest="quiet_all",
        action="store_true",
        help="no progress or notes on stderr (also accepted after the command)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        sub = commands.add_parser(
            command.name, help=command.help, description=command.description, epilog=command.epilog
        )
        command.arguments(sub)
    return parser


def _common_arguments(sub: argparse.ArgumentParser) -> None:
    """The options of every command that loads a source."""
    sub.add_argument(
        "--package",
        metavar="NAME",
        help="the package to analyse (default: from pyproject.toml, or the only package)",
    )
    sub.add_argument("--quiet", "-q", action="store_true", help="no progress or notes on stderr")
    sub.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour on stdout and stderr (default: auto: on a terminal, unless NO_COLOR "
        "is set; FORCE_COLOR forces it)",
    )
    sub.add_argument("--no-color", action="store_true", help="the same as --color never")
    sub.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where surfaces are cached by content (default: $APISURFACE_CACHE_DIR "
        "or the user cache folder); entries are used only when sealed with "
        "$APISURFACE_CACHE_KEY, else with your own key (~/.config/apisurface/cache-key)",
    )
    sub.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    _allow_incomplete_argument(sub)


def _allow_incomplete_argument(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--allow-incomplete",
        action="store_true",
        help="go on when a file the public surface reaches does not parse, decode or read "
        "(default: stop, exit 2, naming FILE:LINE:COL): the surface is then incomplete, "
        "nothing resting on such a file is proven, and no snapshot is written over an "
        "existing one",
    )


def _output_argument(sub: argparse.ArgumentParser, what: str) -> None:
    sub.add_argument(
        "-o", "--output", metavar="FILE", help=f"write {what} to FILE instead of stdout"
    )


def _snapshot_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "source",
        nargs="?",
        default=".",
        metavar="SOURCE",
        help="source folder or git ref (default: .)",
    )
    sub.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where to write (default: SOURCE/api_snapshots/<package>.json; '-' for stdout)",
    )
    sub.add_argument(
        "--if-stale",
        action="store_true",
        help="leave the file alone when it already records the public surface (only names "
        "outside the surface changed); for the pre-commit update hook",
    )
    _common_arguments(sub)


_VERIFY_HELP = (
    "check the surface against the imported package: install the release (the wheel of "
    "NAME==VERSION from the index, a wheel file, or a wheel built from a folder or source "
    "distribution: building runs the project's build backend) with its dependencies into an "
    "isolated environment, import each public module there in a sandboxed child process, and "
    "report the public names the surface misses and the paths that do not resolve (RUNS THE "
    "PACKAGE'S CODE: docs/security.md; APISURFACE_VERIFY=0 refuses it)"
)


def _verify_arguments(sub: argparse.ArgumentParser) -> None:
    """--verify and its companions (``[tool.apisurface] verify = true`` turns it on)."""
    group = sub.add_mutually_exclusive_group()
    group.add_argument("--verify", action="store_true", default=None, help=_VERIFY_HELP)
    group.add_argument(
        "--no-verify",
        dest="verify",
        action="store_false",
        help="do not verify, whatever [tool.apisurface] verify says",
    )
    sub.add_argument(
        "--verify-with",
        metavar="REQ",
        action="append",
        default=[],
        help="with --verify, also install REQ (a requirement, e.g. an optional dependency "
        "some modules import); repeatable",
    )


def _show_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "source",
        nargs="?",
        default=".",
        metavar="SOURCE|SNAPSHOT",
        help="source folder, snapshot (.json), wheel, NAME==VERSION of the package index or "
        "git ref (default: .)",
    )
    sub.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: stubs (default); json: the snapshot, with 'verification' under --verify",
    )
    _output_argument(sub, "the stubs")
    _verify_arguments(sub)
    _common_arguments(sub)


def _diff_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "old",
        nargs="?",
        metavar="OLD",
        help="folder, snapshot (.json), wheel, git ref or NAME==VERSION of the package index "
        "(default: the latest release tag in HEAD's history)",
    )
    sub.add_argument(
        "new",
        nargs="?",
        default=".",
        metavar="NEW",
        help="the same kinds as OLD (default: ., the working tree)",
    )
    sub.add_argument(
        "--format",
        choices=REPORT_FORMATS,
        default="text",
        help="output format (default: text): markdown is a pull-request comment, github "
        "workflow annotations, sarif a code-scanning log, html one browsable page",
    )
    sub.add_argument(
        "--current-version",
        metavar="X",
        help="the released version OLD corresponds to (PEP 440 or semver; default: read from OLD)",
    )
    sub.add_argument(
        "--fail-on",
        choices=("major", "minor", "patch"),
        help="exit 1 when the required bump reaches this level",
    )
    _output_argument(sub, "the report")
    sub.add_argument("--strict", action="store_true", help=_STRICT_HELP)
    sub.add_argument(
        "--witnesses",
        "-v",
        "--verbose",
        dest="witnesses",
        action="store_true",
        help="text: under each change, how it is known and the witness of a break (code that "
        "works on OLD and fails on NEW); JSON, HTML and 'explain' always have them",
    )
    sub.add_argument(
        "--report-link",
        metavar="URL",
        help="markdown: link the full report there (an https:// address, such as the "
        "workflow run whose artifact holds the HTML report)",
    )
    sub.add_argument(
        "--also",
        metavar="FORMAT=FILE",
        action="append",
        default=[],
        help="also write the same report in FORMAT to FILE (repeatable; one diff for all: "
        "the GitHub Action writes json, markdown, github and sarif this way)",
    )
    _common_arguments(sub)


def _release_inputs(sub: argparse.ArgumentParser) -> None:
    """The inputs of ``check`` and ``release-check``."""
    sub.add_argument(
        "source",
        nargs="?",
        default=".",
        metavar="SOURCE",
        help="the project folder, or a git ref of the repository you stand in (its "
        "files, snapshot and changelog as committed there; default: ., the working tree)",
    )
    _output_argument(sub, "the result")
    sub.add_argument(
        "--snapshot",
        metavar="FILE",
        help="the committed snapshot (default: SOURCE/api_snapshots/<package>.json)",
    )
    sub.add_argument(
        "--against",
        metavar="REF",
        help="the last release to compare with: a git ref, folder, snapshot, wheel or "
        "NAME==VERSION (default: the highest version tag in SOURCE's history)",
    )
    sub.add_argument("--strict", action="store_true", help=_STRICT_HELP)


def _check_arguments(sub: argparse.ArgumentParser) -> None:
    _release_inputs(sub)
    sub.add_argument("--no-version", action="store_true", help="only check the snapshot")
    sub.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="output format (default: text: one line per check, details under failures)",
    )
    _common_arguments(sub)


def _release_check_arguments(sub: argparse.ArgumentParser) -> None:
    _release_inputs(sub)
    sub.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default: text)"
    )
    _common_arguments(sub)


def _migration_inputs(sub: argparse.ArgumentParser) -> None:
    """OLD NEW PATHS (or --spec FILE PATHS) of ``impact`` and ``migrate``."""
    sub.add_argument(
        "inputs",
        nargs="*",
        metavar="OLD NEW PATHS",
        help="OLD NEW PATHS...: the two releases (folder, snapshot or git ref) and the user's "
        "files or folders; with --spec FILE, only PATHS",
    )
    sub.add_argument("--spec", metavar="FILE", help="a migration spec instead of OLD NEW")


def _migration_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--package", metavar="NAME", help="the package (default: detected)")
    sub.add_argument("--quiet", "-q", action="store_true", help="no notes on stderr")
    sub.add_argument("--cache-dir", metavar="DIR", help="surface cache folder")
    sub.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    _allow_incomplete_argument(sub)


def _impact_arguments(sub: argparse.ArgumentParser) -> None:
    _migration_inputs(sub)
    sub.add_argument(
        "--format",
        choices=IMPACT_FORMATS,
        default="text",
        help="output format (default: text)",
    )
    _output_argument(sub, "the report")
    _migration_options(sub)


def _migrate_arguments(sub: argparse.ArgumentParser) -> None:
    _migration_inputs(sub)
    mode = sub.add_mutually_exclusive_group()
    mode.add_argument(
        "--diff", action="store_true", help="print a unified diff, change nothing (default)"
    )
    mode.add_argument("--write", action="store_true", help="rewrite the files (atomically)")
    sub.add_argument(
        "--emit-spec",
        metavar="FILE",
        help="write the migration spec of OLD -> NEW as JSON ('-' for stdout)",
    )
    _migration_options(sub)


def _quiet_only(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--quiet", "-q", action="store_true", help="accepted for symmetry (prints no notes)"
    )


def _rules_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default: text)"
    )
    _quiet_only(sub)


def _explain_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("rule", metavar="RULE", help="a rule id, as 'apisurface rules' lists")
    _quiet_only(sub)


def _last_release_arguments(sub: argparse.ArgumentParser) -> None:
    _quiet_only(sub)


COMMANDS: tuple[Command, ...] = (
    Command(
        "snapshot",
        "write the public surface of SOURCE to a snapshot file",
        "Write the documented public surface of SOURCE as a deterministic JSON snapshot.",
        _snapshot_arguments,
    ),
    Command(
        "show",
        "print the public surface as readable stubs",
        "Print the surface of a source folder, snapshot, wheel, index release or git ref as "
        "stub-like text (or JSON); with --verify, check it against the imported package.",
        _show_arguments,
    ),
    Command(
        "diff",
        "compare two surfaces and recommend a version bump",
        "Classify every change between OLD and NEW (the rule table of docs/policy.md; "
        "'apisurface explain RULE' for one rule) and recommend the bump.",
        _diff_arguments,
        "exit codes: 0 diff done (whatever the bump), 1 --fail-on reached, 2 bad input",
    ),
    Command(
        "check",
        "CI gate: snapshot current and version bump sufficient",
        "Check that the committed snapshot equals the working tree's surface and that the "
        "declared version is at least the bump required since the last release (the highest "
        "version tag in SOURCE's history, or --against REF).",
        _check_arguments,
        "exit codes: 0 all checks pass, 1 a check failed, 2 bad input",
    ),
    Command(
        "release-check",
        "the release manager's checklist before tagging",
        "Run every release check and show a checklist: snapshot current, version bump "
        "sufficient, breaking changes accepted or released as major, removals deprecated "
        "first, changelog names removed or renamed symbols, no experimental symbol re-exported "
        "at a public path, accept entries current.",
        _release_check_arguments,
        "exit codes: 0 ready (warnings allowed), 1 a check failed, 2 bad input",
    ),
    Command(
        "impact",
        "list every use in your code that the OLD -> NEW change breaks or touches",
        "Read the user's code statically and list each use of the package that the change "
        "from OLD to NEW breaks or touches: file:line:col, the rule, what to do.",
        _impact_arguments,
        "exit codes: 0 nothing breaks, 1 a use breaks, 2 bad input (a file that cannot be "
        "parsed is reported and skipped; the exit code is then 2)",
    ),
    Command(
        "migrate",
        "rewrite renamed and moved names and keywords in your code",
        "Rewrite what the change from OLD to NEW allows safely (renamed or moved names in "
        "imports and attribute chains, renamed keyword arguments, replacements named by "
        "deprecation messages), keeping formatting and comments; then report what is left.",
        _migrate_arguments,
        "exit codes: 0 nothing left that breaks, 1 a use left breaks, 2 bad input",
    ),
    Command(
        "rules",
        "list the rule table (change kinds and the bump each requires)",
        "List every change kind with its default level and message.",
        _rules_arguments,
    ),
    Command(
        "explain",
        "what one rule means: its level, why, an example, how to accept or re-level it",
        "Explain a rule of the table: its level, why, a minimal before/after example, and "
        "how to accept such a change or change the rule's level.",
        _explain_arguments,
        "exit codes: 0 shown, 2 unknown rule id",
    ),
    Command(
        "last-release",
        "print the release tag 'diff' compares with by default",
        "Print the release HEAD comes from: of the tags in its history (git tag --merged "
        "HEAD), the one with the highest version (by version order; pre-releases count; tags "
        "without a version are skipped): the OLD that 'apisurface diff' uses when none is "
        "named. Prints nothing when there is none.",
        _last_release_arguments,
        "exit codes: 0 printed (or no tag), 2 not in a git repository",
    ),
)


def subparser(parser: argparse.ArgumentParser, name: str | None) -> argparse.ArgumentParser | None:
    """The subparser of subcommand ``name`` (to report a mistyped flag with its usage)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            found: argparse.ArgumentParser = action.choices[name]
            return found
    return None
