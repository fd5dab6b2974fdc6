"""Reports for machines in CI: GitHub workflow annotations and SARIF 2.1.0; and the
release checklist for people. Returns strings; never prints.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from apisurface import __version__
from apisurface.compare.report import Report
from apisurface.compare.rules import RULES, Classified, Level, base_path
from apisurface.output.printable import json_safe, markup_escaped, visible
from apisurface.output.text import console_buffer, named, verdict
from apisurface.release.checks import CheckResult

__all__ = [
    "SARIF_SCHEMA",
    "checks_to_json",
    "relabelled",
    "render_check_lines",
    "render_checklist",
    "render_checks_json",
    "render_github",
    "render_sarif",
    "report_to_sarif",
]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_ORDER = (Level.MAJOR, Level.MINOR, Level.PATCH)
_GITHUB_COMMAND = {Level.MAJOR: "error", Level.MINOR: "warning"}
# Code scanning shows results as alerts: a breaking change is an error, an addition (or a
# deprecation) a note. Patch-level changes and notes (docstring wording) change nothing a
# caller uses, so they are no results at all.
_SARIF_LEVEL = {Level.MAJOR: "error", Level.MINOR: "note"}


def _sorted_changes(report: Report) -> list[Classified]:
    """Changes by level (major first), then path and kind: a stable order for machines."""
    return sorted(report.changes, key=lambda item: (-item.level, item.change))


# --- GitHub workflow commands -----------------------------------------------------------


def _escape_data(text: str) -> str:
    """Annotation data: terminal controls shown visibly, then GitHub's encoding of ``%``,
    CR and LF (GitHub turns ``%0A`` back into a line break inside the annotation)."""
    text = visible(text, newlines=True, commands=False)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(name: str, message: str, properties: dict[str, str]) -> str:
    props = ",".join(f"{key}={_escape_property(value)}" for key, value in properties.items())
    return f"::{name}{' ' + props if props else ''}::{_escape_data(message)}"


_SEVERITY = {"error": 0, "warning": 1, "notice": 2}


def render_github(report: Report, *, per_level: int | None = None) -> str:
    """GitHub Actions workflow commands: the verdict as a notice, then the annotations:
    ``error`` for a breaking change, ``warning`` for a minor one, a ``notice`` for an
    accepted one or one to review (patch-level changes are not annotated), then stale
    accept entries and what could not be verified. One annotation per object, however
    many public paths reach it (the others are named in the message).

    Each points where a reviewer of NEW sees the change (:meth:`Report.annotation`): its
    definition in NEW; for a removal, the class that lost it, or the file of the module
    that lost it (no line), never an old line of a new file. At most one annotation per
    line: the changes at one line (or one file, without a line) share it, at the level of
    the most severe. They are ordered by severity, then file and line.

    GitHub shows at most 10 annotations of each level per step: with ``per_level``, only
    the first that many of each level are written, and the verdict says so."""
    found: list[tuple[str, str, int, str, str]] = []  # command, file, line, title, message
    for item in _sorted_changes(report):
        command = "notice" if item.accepted is not None else _GITHUB_COMMAND.get(item.level)
        if command is None:
            continue
        kind = item.change.kind.value
        if item.accepted is not None:
            title = f"{item.level.name} change accepted ({kind})"
            message = f"{named(report, item)}: {item.message}. Accepted: {item.accepted}"
        elif not item.counted:
            command = "notice"
            title = f"{item.level.name} API change to review, inferred ({kind})"
            message = f"{named(report, item)}: {item.message}"
        else:
            title = f"{item.level.name} API change ({kind})"
            message = f"{named(report, item)}: {item.message}"
        evidence = item.change.evidence
        message += f" [{evidence.grade.value}: {evidence.why}]" if evidence.why else ""
        location = report.annotation(item)
        file, line = (location.file, location.line) if location is not None else ("", 0)
        found.append((command, file, line, title, message))
    found = _one_per_line(found)
    for stale in report.stale_accepts:
        message = f"accept entry matches no change (stale), remove it: {stale}"
        found.append(("warning", "", 0, "Stale accept entry in [tool.apisurface]", message))
    if report.incomplete:
        message = f"not verified, and could hide a change: {'; '.join(report.incomplete)}"
        found.append(
            ("warning", "", 0, "API surface not verified where OLD and NEW differ", message)
        )
    if report.unknown_notes:
        notes = "; ".join(str(unknown.problem) for unknown in report.unknown_notes)
        message = f"not verified, unchanged between the sides: {notes}"
        found.append(("notice", "", 0, "Notes: parts of the API surface not verified", message))
    found.sort(key=lambda entry: (_SEVERITY[entry[0]], entry[1] == "", entry[1], entry[2]))
    shown = found
    headline = f"apisurface: {verdict(report)}"
    if per_level is not None:
        kept: dict[str, int] = {"notice": 1}  # the verdict is a notice
        shown = []
        for entry in found:
            if kept.get(entry[0], 0) < per_level:
                kept[entry[0]] = kept.get(entry[0], 0) + 1
                shown.append(entry)
        if len(shown) < len(found):
            headline += (
                f". Annotations: {len(shown)} of {len(found)} shown, the most severe first "
                f"(GitHub shows {per_level} of each level per step); the markdown report lists "
                "every change"
            )
    lines = [_command("notice", headline, {"title": "API surface"})]
    for command, file, line, title, message in shown:
        properties = {"file": file, "line": str(line)} if file and line else {}
        if file and not line:
            properties = {"file": file}
        properties["title"] = title
        lines.append(_command(command, message, properties))
    return "\n".join(lines) + "\n"


def _one_per_line(
    found: list[tuple[str, str, int, str, str]],
) -> list[tuple[str, str, int, str, str]]:
    """The annotations at one place (a file's line, or a file without a line) as one, at
    the level of the most severe, its title counting them and its message listing each."""
    places: dict[tuple[str, int], list[tuple[str, str, int, str, str]]] = {}
    alone: list[tuple[str, str, int, str, str]] = []
    for entry in found:
        if entry[1]:
            places.setdefault((entry[1], entry[2]), []).append(entry)
        else:
            alone.append(entry)
    merged = list(alone)
    for (file, line), entries in places.items():
        if len(entries) == 1:
            merged.append(entries[0])
            continue
        entries.sort(key=lambda entry: _SEVERITY[entry[0]])
        command = entries[0][0]
        title = f"{len(entries)} API changes here, the first: {entries[0][3]}"
        message = "\n".join(f"- {entry[4]}" for entry in entries)
        merged.append((command, file, line, title, message))
    return merged


# --- SARIF 2.1.0 ------------------------------------------------------------------------


def _rule_name(kind: str) -> str:
    return "".join(part.capitalize() for part in kind.split("_"))


def _fingerprint(item: Classified) -> str:
    key = f"{item.change.path}\x1f{item.change.kind.value}"
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def report_to_sarif(report: Report) -> dict[str, Any]:
    """The report as a SARIF 2.1.0 log (one run) for code scanning.

    Accepted changes are results with an external suppression carrying the reason.
    Only major (``error``) and minor (``note``) changes are results: patch-level ones
    and notes are not alerts for anyone.
    """
    changes = [
        item for item in _sorted_changes(report) if item.level in _SARIF_LEVEL and not item.is_note
    ]
    kinds = sorted({item.change.kind for item in changes})
    index = {kind: position for position, kind in enumerate(kinds)}
    rules = []
    for kind in kinds:
        rule = RULES[kind]
        rules.append(
            {
                "id": kind.value,
                "name": _rule_name(kind.value),
                "shortDescription": {"text": rule.template.format(old="OLD", new="NEW")},
                "defaultConfiguration": {"level": _SARIF_LEVEL.get(rule.level, "note")},
                "properties": {"bump": str(rule.level), "tags": ["api", "semver"]},
            }
        )
    results = []
    for item in changes:
        paths = (item.change.path, *report.other_paths(item))
        location: dict[str, Any] = {
            "logicalLocations": [
                {"fullyQualifiedName": path, "name": base_path(path)} for path in paths
            ]
        }
        found = report.annotation(item)  # in NEW's files, as code scanning shows them
        if found is not None:
            physical: dict[str, Any] = {
                "artifactLocation": {"uri": found.file, "uriBaseId": "%SRCROOT%"}
            }
            if found.line:
                physical["region"] = {"startLine": found.line}
            location["physicalLocation"] = physical
        result: dict[str, Any] = {
            "ruleId": item.change.kind.value,
            "ruleIndex": index[item.change.kind],
            "level": _SARIF_LEVEL.get(item.level, "none") if item.counted else "note",
            "message": {"text": f"{named(report, item)}: {item.message} ({item.level.name})"},
            "locations": [location],
            "partialFingerprints": {"apisurfaceChange/v1": _fingerprint(item)},
            "properties": {
                "bump": str(item.level),
                "old": item.change.old,
                "new": item.change.new,
                "alsoAt": list(report.other_paths(item)),
                "evidence": {
                    "grade": item.change.evidence.grade.value,
                    "why": item.change.evidence.why,
                    "witness": item.change.evidence.witness,
                },
                "counted": item.counted,
            },
        }
        if item.accepted is not None:
            result["suppressions"] = [{"kind": "external", "justification": item.accepted}]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "apisurface",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "results": results,
                "properties": {
                    "bump": str(report.level),
                    "label": f"semver:{report.level}",
                    "currentVersion": report.current_version,
                    "nextVersion": report.next_version,
                    "old": report.old_label,
                    "new": report.new_label,
                    "complete": not report.incomplete,
                    "unknowns": {
                        "blocking": list(report.incomplete),
                        "notes": [str(unknown.problem) for unknown in report.unknown_notes],
                    },
                    "staleAccepts": list(report.stale_accepts),
                },
            }
        ],
    }


def render_sarif(report: Report) -> str:
    """The SARIF log as deterministic JSON text."""
    return json_safe(json.dumps(report_to_sarif(report), indent=2)) + "\n"


# --- release checks ---------------------------------------------------------------------

_MARK = {"pass": "PASS", "warn": "WARN", "fail": "FAIL"}


_MARK_STYLE = {"pass": "green", "warn": "yellow", "fail": "bold red"}


def _plain(text: str) -> str:
    """Untrusted text for a rich console: visible escapes, then markup escaped."""
    return markup_escaped(visible(text))


_SGR = {"pass": "\x1b[32m", "warn": "\x1b[33m", "fail": "\x1b[1;31m"}


def render_check_lines(results: Sequence[CheckResult], *, color: bool = False) -> str:
    """One line per check, with details and advice under the ones that did not pass; with
    ``color``, the status word in the checklist's colours (green, yellow, bold red)."""
    lines = []
    for result in results:
        mark = _MARK[result.status]
        if color:
            mark = f"{_SGR[result.status]}{mark}\x1b[0m"
        lines.append(f"{mark} {visible(result.name)}: {visible(result.summary)}")
        if result.status != "pass":
            lines.extend(f"     {visible(detail)}" for detail in result.details)
            if result.advice:
                lines.append(f"     -> {visible(result.advice)}")
    return "\n".join(lines) + "\n"


def render_checklist(
    results: Sequence[CheckResult], *, title: str, color: bool = False, width: int = 110
) -> str:
    """The release checklist: a table (one row per check) and the details that matter."""
    from rich.table import Table  # noqa: PLC0415 - start-up time

    console, buffer = console_buffer(color, width)
    table = Table(title=_plain(title), title_justify="left", show_lines=False, expand=False)
    # Cells wrap, and a word wider than its column folds: nothing is cut with "…".
    table.add_column("", no_wrap=True, min_width=4)
    table.add_column("check", overflow="fold")
    table.add_column("result", overflow="fold")
    table.add_column("what to do", overflow="fold")
    for result in results:
        style = _MARK_STYLE[result.status]
        table.add_row(
            f"[{style}]{_MARK[result.status]}[/]",
            _plain(result.name),
            _plain(result.summary),
            _plain(result.advice or "") if result.status != "pass" else "",
        )
    console.print(table)
    printed: set[str] = set()
    for result in results:
        fresh = [detail for detail in result.details if detail not in printed]
        if not fresh:
            continue
        console.print()
        style = _MARK_STYLE[result.status]
        console.print(f"[{style}]{_MARK[result.status]}[/] [bold]{_plain(result.name)}[/]")
        repeated = len(result.details) - len(fresh)
        if repeated:
            console.print(f"  the {repeated} listed above, and:", soft_wrap=True)
        for detail in fresh:
            console.print(f"  {_plain(detail)}", soft_wrap=True)
        printed.update(result.details)
    failed = sum(1 for result in results if result.status == "fail")
    warned = sum(1 for result in results if result.status == "warn")
    console.print()
    if failed:
        console.print(f"[bold red]Not ready to release:[/] {failed} of {len(results)} failed")
    else:
        extra = f" ({warned} warning{'s' if warned != 1 else ''})" if warned else ""
        console.print(f"[green]Ready to release[/]{markup_escaped(extra)}")
    return buffer.getvalue()


def checks_to_json(results: Sequence[CheckResult]) -> dict[str, Any]:
    """The checks as JSON values: ``passed`` and one entry per check."""
    return {
        "passed": all(result.status != "fail" for result in results),
        "checks": [
            {
                "name": result.name,
                "status": result.status,
                "summary": result.summary,
                "details": list(result.details),
                "advice": result.advice,
            }
            for result in results
        ],
    }


def render_checks_json(results: Sequence[CheckResult]) -> str:
    """The checks as deterministic JSON text."""
    return json_safe(json.dumps(checks_to_json(results), indent=2)) + "\n"


def relabelled(results: list[CheckResult], folder: Path, ref: str | None) -> list[CheckResult]:
    """Results about a git ref's files, read into the temporary ``folder``, name them
    ``REF:path`` instead (unchanged when ``ref`` is None: a folder names itself)."""
    if ref is None:
        return results
    where = str(folder)

    def text(value: str) -> str:
        return value.replace(f"{where}/", f"{ref}:").replace(where, ref)

    def advice(result: CheckResult) -> str | None:
        # A ref's files cannot change (a tag least of all): what to do is for the branch
        # the next release comes from, with the files named as they are there.
        if result.advice is None or result.passed:
            return text(result.advice) if result.advice is not None else None
        return (
            f"{ref} is committed and cannot change; on the branch you release from: "
            + result.advice.replace(f"{where}/", "")
        )

    return [
        replace(
            result,
            summary=text(result.summary),
            details=tuple(text(detail) for detail in result.details),
            advice=advice(result),
        )
        for result in results
    ]
