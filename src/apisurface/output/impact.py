"""The ``impact`` report as text, JSON, Markdown, GitHub annotations and SARIF.

Everything in it may come from the analysed code or an untrusted spec file (file names,
messages), so each format escapes it: control characters in text, Markdown's table and
HTML syntax, GitHub's workflow-command syntax, and JSON by construction.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from apisurface import __version__
from apisurface.changes import ChangeKind
from apisurface.compare.rules import RULES
from apisurface.output.ci import SARIF_SCHEMA, _command
from apisurface.output.printable import code_span, json_safe, markdown_words, visible
from apisurface.release.impact import Use
from apisurface.release.migrate import ImpactReport

__all__ = [
    "impact_to_json",
    "plain",
    "render_impact_github",
    "render_impact_json",
    "render_impact_markdown",
    "render_impact_sarif",
    "render_impact_text",
]

_SARIF_LEVEL = {"major": "error", "minor": "warning", "patch": "note"}


def plain(text: str) -> str:
    """``text`` for a terminal or a CI log: control characters (terminal escapes, new
    lines) made visible, and nothing a CI runner could take for a workflow command."""
    return visible(text)


def _summary(report: ImpactReport) -> str:
    breaking = len(report.breaking)
    fixable = sum(1 for use in report.uses if use.fixable)
    files = len({use.file for use in report.uses})
    change = f"the change from {report.spec.old_label} to {report.spec.new_label}"
    read = f"{report.files} file{'s' if report.files != 1 else ''} read"
    if not report.uses:
        return f"no use of {report.spec.package} that {change} breaks or touches ({read})"
    count = len(report.uses)
    text = (
        f"{count} use{'s' if count != 1 else ''} of {report.spec.package} that {change} "
        f"breaks or touches, in {files} of {read}: {breaking} "
        f"break{'s' if breaking == 1 else ''}"
    )
    if fixable:
        text += f", {fixable} can be rewritten by 'apisurface migrate'"
    return text


def _line(use: Use) -> str:
    return (
        f"{use.file}:{use.line}:{use.column}: {use.rule} ({use.level}): {use.path}: "
        f"{use.message}; {use.action}"
    )


def render_impact_text(report: ImpactReport) -> str:
    """One line per use (``file:line:col: rule (level): path: message; what to do``)."""
    lines = [plain(_line(use)) for use in report.uses]
    lines.extend(plain(f"warning: {problem}") for problem in report.problems)
    lines.append(plain(_summary(report)))
    return "\n".join(lines) + "\n"


def _use_json(use: Use) -> dict[str, Any]:
    return {
        "file": use.file,
        "line": use.line,
        "column": use.column,
        "path": use.path,
        "rule": use.rule,
        "level": use.level,
        "message": use.message,
        "action": use.action,
        "fixable": use.fixable,
    }


def impact_to_json(report: ImpactReport) -> dict[str, Any]:
    """The report as plain JSON values."""
    return {
        "package": report.spec.package,
        "old": report.spec.old_label,
        "new": report.spec.new_label,
        "files": report.files,
        "breaking": len(report.breaking),
        "complete": not report.problems,
        "problems": list(report.problems),
        "uses": [_use_json(use) for use in report.uses],
    }


def render_impact_json(report: ImpactReport) -> str:
    """The report as deterministic JSON."""
    return json_safe(json.dumps(impact_to_json(report), indent=2)) + "\n"


def render_impact_markdown(report: ImpactReport, *, max_rows: int = 200) -> str:
    """A table per level, for a pull-request comment."""
    lines = [
        f"### Impact of {code_span(report.spec.package)} "
        f"{code_span(report.spec.old_label)} -> {code_span(report.spec.new_label)}",
        "",
        markdown_words(_summary(report)),
        "",
    ]
    for level in ("major", "minor"):
        uses = [use for use in report.uses if use.level == level]
        if not uses:
            continue
        lines += [f"#### {level.upper()} ({len(uses)})", ""]
        lines += ["| where | symbol | change | what to do |", "| --- | --- | --- | --- |"]
        for use in uses[:max_rows]:
            where = f"{use.file}:{use.line}:{use.column}"
            lines.append(
                f"| {code_span(where, table=True)} | {code_span(use.path, table=True)} "
                f"| {code_span(use.message, table=True)} ({code_span(use.rule, table=True)}) "
                f"| {code_span(use.action, table=True)} |"
            )
        if len(uses) > max_rows:
            lines.append(f"\n... and {len(uses) - max_rows} more (see the JSON report).")
        lines.append("")
    if report.problems:
        lines += ["> [!WARNING]", "> Some files were not analysed:", ""]
        lines += [f"- {code_span(problem)}" for problem in report.problems]
        lines.append("")
    return "\n".join(lines) + "\n"


def render_impact_github(report: ImpactReport) -> str:
    """GitHub workflow commands: an error per breaking use, a warning per other use."""
    lines = [_command("notice", f"apisurface impact: {_summary(report)}", {"title": "API impact"})]
    for use in report.uses:
        name = "error" if use.level == "major" else "warning"
        properties = {
            "file": use.file,
            "line": str(use.line),
            "col": str(use.column),
            "title": f"{use.path}: {use.rule} ({use.level})",
        }
        lines.append(_command(name, f"{use.message}; {use.action}", properties))
    lines.extend(
        _command("warning", problem, {"title": "File not analysed"}) for problem in report.problems
    )
    return "\n".join(lines) + "\n"


def _uri(file: str) -> str:
    return quote(PurePath(file).as_posix())


def report_to_sarif(report: ImpactReport) -> dict[str, Any]:
    """The report as a SARIF 2.1.0 log: one result per use, at its file, line and column."""
    rules_used = sorted({use.rule for use in report.uses})
    index = {rule: position for position, rule in enumerate(rules_used)}
    rules = []
    for rule_id in rules_used:
        rule = RULES.get(ChangeKind(rule_id))
        description = rule.template.format(old="OLD", new="NEW") if rule else rule_id
        rules.append(
            {
                "id": rule_id,
                "name": "".join(part.capitalize() for part in rule_id.split("_")),
                "shortDescription": {"text": description},
            }
        )
    results = []
    for use in report.uses:
        key = f"{use.file}\x1f{use.path}\x1f{use.rule}\x1f{use.line}\x1f{use.column}"
        results.append(
            {
                "ruleId": use.rule,
                "ruleIndex": index[use.rule],
                "level": _SARIF_LEVEL.get(use.level, "note"),
                "message": {"text": f"{use.path}: {use.message}; {use.action}"},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": _uri(use.file), "uriBaseId": "%SRCROOT%"},
                            "region": {"startLine": use.line, "startColumn": use.column},
                        },
                        "logicalLocations": [{"fullyQualifiedName": use.path}],
                    }
                ],
                "partialFingerprints": {
                    "apisurfaceUse/v1": hashlib.sha256(key.encode()).hexdigest()[:32]
                },
                "properties": {"fixable": use.fixable},
            }
        )
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "apisurface", "version": __version__, "rules": rules}},
                "results": results,
                "properties": {
                    "package": report.spec.package,
                    "old": report.spec.old_label,
                    "new": report.spec.new_label,
                    "complete": not report.problems,
                    "problems": list(report.problems),
                },
            }
        ],
    }


def render_impact_sarif(report: ImpactReport) -> str:
    """The SARIF log as deterministic JSON text."""
    return json_safe(json.dumps(report_to_sarif(report), indent=2)) + "\n"
