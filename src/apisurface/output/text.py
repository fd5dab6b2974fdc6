"""Reports and surfaces as text (rich), JSON and Markdown. Returns strings; never prints."""

from __future__ import annotations

import json
import re
from io import StringIO
from string import Formatter
from typing import Any

from apisurface.compare.report import Report, Unknown
from apisurface.compare.rules import RULES, Classified, Level, base_path
from apisurface.compare.signatures import signature_text
from apisurface.model import ParamKind, Surface, Symbol, SymbolKind
from apisurface.output.printable import (
    code_span,
    json_safe,
    markdown_words,
    markup_escaped,
    visible,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING; rich is imported when a console is drawn
if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "MARKDOWN_HTML",
    "MARKDOWN_MARKER",
    "also",
    "named",
    "named_short",
    "render_json",
    "render_markdown",
    "render_surface",
    "render_text",
    "report_to_json",
    "verdict",
    "where",
]

MARKDOWN_MARKER = "<!-- apisurface-report -->"
_LEVELS = (Level.MAJOR, Level.MINOR, Level.PATCH)
_STYLE = {Level.MAJOR: "bold red", Level.MINOR: "yellow", Level.PATCH: "green"}
_WORDS = {
    Level.MAJOR: ("breaking change", "breaking changes"),
    Level.MINOR: ("backward-compatible addition", "backward-compatible additions"),
    Level.PATCH: ("change with no effect on callers", "changes with no effect on callers"),
}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _counted(count: int, level: Level) -> str:
    one, many = _WORDS[level]
    return f"{count} {one if count == 1 else many}"


def console_buffer(color: bool, width: int) -> tuple[Console, StringIO]:
    """A rich console writing into a string (renderers return text; only the CLI prints)."""
    from rich.console import Console  # noqa: PLC0415 - start-up time

    buffer = StringIO()
    console = Console(
        file=buffer,
        force_terminal=color,
        no_color=not color,
        width=width,
        highlight=False,
        soft_wrap=True,
        emoji=False,
    )
    return console, buffer


def verdict(report: Report) -> str:
    """The recommendation in plain words, one line."""
    level = report.level
    if not report.changed:
        summary = "no public API change"
    elif level is Level.PATCH and not report.count(Level.PATCH):
        parts = [_plural(len(report.accepted), "accepted change")] if report.accepted else []
        if report.to_review:
            parts.append(_plural(len(report.to_review), "inferred change") + " to review")
        summary = f"nothing but {' and '.join(parts)}"
    else:
        summary = _counted(report.count(level), level)
    line = f"{level.name} ({summary})"
    if report.inferred_major:
        line = f"{line}; MAJOR only if the inferred changes to review are breaks"
    if report.next_version:
        line += f": {visible(report.current_version or '')} -> {visible(report.next_version)}"
    elif report.version_note:
        line += f" ({visible(report.version_note)})"
    return line


def where(report: Report, item: Classified) -> str:
    """``file:line`` of the change's definition (NEW, or OLD for a removal); "" when the
    input was a snapshot. Not escaped."""
    location = report.location(item)
    return f"{location.file}:{max(location.line, 1)}" if location is not None else ""


def named(report: Report, item: Classified) -> str:
    """The change's path with its other public paths beside it. Not escaped."""
    others = report.other_paths(item)
    if not others:
        return item.change.path
    return f"{item.change.path} (also at {', '.join(others)})"


def named_short(report: Report, item: Classified) -> str:
    """The change's path with its other paths beside it, for people: a member also
    changed in other classes (overrides, inherited copies) or modules names just those
    (``also in FlaskParser, DjangoParser``). Not escaped."""
    word, names = also(report, item)
    return f"{item.change.path} (also {word} {', '.join(names)})" if names else item.change.path


def also(report: Report, item: Classified) -> tuple[str, list[str]]:
    """Where else ``item`` changed: ``("in", classes or modules)`` when each other path is
    the same member of another class or module, else ``("at", paths)``."""
    others = report.other_paths(item)
    if not others:
        return "at", []
    name = base_path(item.change.path).rpartition(".")[2]
    owners = [base_path(other).rpartition(".")[0] for other in others]
    # A class by its name (the module is that of the entry, or beside it); a module in full.
    short = [
        owner if report.modules.get(base_path(other)) == owner else owner.rpartition(".")[2]
        for owner, other in zip(owners, others, strict=True)
    ]
    own = base_path(item.change.path).rpartition(".")[0].rpartition(".")[2]
    if (
        all(base_path(other).rpartition(".")[2] == name for other in others)
        and len(set(short)) == len(short)
        and own not in short  # the same class at another path: its paths in full
    ):
        return "in", short
    return "at", list(others)


def render_text(
    report: Report, *, color: bool = False, width: int = 100, verbose: bool = False
) -> str:
    """The report for a terminal, to be read: a summary first (the verdict and next
    version, counts by level and by kind), then one line per change, ``FILE:LINE: level
    kind path: message`` as compilers and linters write findings, grouped by module;
    then those to review, the accepted ones, the notes and what could not be verified.
    ``verbose`` (``--witnesses``, ``-v``) adds each change's evidence and the witness of a
    proven break under its line (JSON, HTML and ``explain`` always have them)."""
    console, buffer = console_buffer(color, width)
    style = _STYLE[report.level]
    old_label, new_label = _plain(report.old_label), _plain(report.new_label)
    first = f"apisurface: {old_label} -> {new_label}"
    if report.inferred_major:
        first += ": MAJOR rests only on inferred changes (to review below)"
    console.print(first)
    console.print(f"Recommended bump: [{style}]{markup_escaped(verdict(report))}[/]")
    for line in summary_lines(report):
        console.print(f"  {_plain(line)}")
    counted = [item for item in report.changes if item.effective_level in _LEVELS]
    grouped: dict[str, list[Classified]] = {}
    for item in counted:
        grouped.setdefault(report.module(item), []).append(item)
    for module in sorted(grouped):
        console.print()
        console.print(f"[bold]{_plain(module)}[/]")
        for item in sorted(grouped[module], key=lambda item: _line_order(report, item)):
            _print_change(console, report, item, verbose=verbose)
    if report.to_review:
        console.print()
        console.print(
            f"TO REVIEW ({len(report.to_review)}): inferred, not counted (--strict counts them)"
        )
        for item in sorted(report.to_review, key=lambda item: _line_order(report, item)):
            _print_change(console, report, item, verbose=verbose, why=True)
    if report.accepted:
        console.print()
        console.print(f"ACCEPTED ({len(report.accepted)})")
        for item in sorted(report.accepted, key=lambda item: _line_order(report, item)):
            _print_change(console, report, item, verbose=verbose)
    if report.notes:
        console.print()
        console.print(f"NOTES ({len(report.notes)}, no public API change)")
        for line in note_lines(report):
            console.print(f"  [dim]{_plain(line)}[/]")
    for stale in report.stale_accepts:
        console.print(
            f"[yellow]warning:[/] accept entry matches no change (stale): {_plain(stale)}"
        )
    if report.blocking_unknowns:
        console.print()
        console.print("[yellow]warning:[/] not verified, and could hide a change (no gate passes):")
        for unknown in report.blocking_unknowns:
            console.print(f"  {_plain(str(unknown))} [dim]({_plain(unknown.reason)})[/]")
    if report.unknown_notes:
        console.print()
        console.print(
            f"note: {len(report.unknown_notes)} not verified, unchanged between the sides "
            "(no gate counts them):"
        )
        for unknown in report.unknown_notes:
            console.print(f"  {_plain(str(unknown.problem))}")
    if report.engine_note:
        console.print(f"[yellow]note:[/] every change is inferred: {_plain(report.engine_note)}")
    if report.changed and not verbose:
        console.print()
        console.print("[dim]How each change is known, and the witness of each break: -v[/]")
    return buffer.getvalue()


def summary_lines(report: Report) -> list[str]:
    """The counts under the verdict: per level (and what is not counted), then per level
    the number of entries of each kind, most first."""
    if not report.changed and not report.notes:
        return []
    counts = ", ".join(f"{report.count(level)} {level.name.lower()}" for level in _LEVELS)
    others = [
        f"{len(items)} {word}"
        for items, word in (
            (report.to_review, "to review"),
            (report.accepted, "accepted"),
            (report.notes, "note" if len(report.notes) == 1 else "notes"),
        )
        if items
    ]
    lines = [counts + (f"; {', '.join(others)}" if others else "")]
    for level in _LEVELS:
        kinds: dict[str, int] = {}
        for item in report.changes:
            if item.effective_level is level:
                kinds[item.change.kind.value] = kinds.get(item.change.kind.value, 0) + 1
        if kinds:
            ranked = sorted(kinds.items(), key=lambda pair: (-pair[1], pair[0]))
            lines.append(f"{level.name.lower()}: " + ", ".join(f"{n} {k}" for k, n in ranked))
    return lines


def note_lines(report: Report) -> list[str]:
    """The notes (docstring wording, documentation not judged), one line per module and
    message, naming the symbols relative to the module."""
    groups: dict[tuple[str, str], list[str]] = {}
    for item in report.notes:
        module = report.module(item)
        groups.setdefault((module, item.message), []).append(_short(report, item, module))
    return [
        f"{module}: {message}: {', '.join(names)}"
        for (module, message), names in sorted(groups.items())
    ]


def _line_order(report: Report, item: Classified) -> tuple[object, ...]:
    location = report.location(item)
    return (
        -item.level,
        location.file if location else "",
        location.line if location else 0,
        item.change.path,
    )


def change_line(report: Report, item: Classified) -> str:
    """One change as a line: ``FILE:LINE: level kind path: message`` (no location for a
    snapshot input). Not escaped."""
    location = where(report, item)
    level = item.level.name.lower()
    line = f"{level} {item.change.kind.value} {named_short(report, item)}: {item.message}"
    return f"{location}: {line}" if location else line


def _print_change(
    console: Console, report: Report, item: Classified, *, verbose: bool, why: bool = False
) -> None:
    location = where(report, item)
    level = item.level.name.lower()
    style = _STYLE.get(item.level, "")
    text = (
        f"  {_plain(location) + ': ' if location else ''}[{style}]{level}[/] "
        f"[dim]{item.change.kind.value}[/] {_plain(named_short(report, item))}: "
        f"{_plain(item.message)}"
    )
    if item.accepted is not None:
        text += f" [dim](accepted: {_plain(item.accepted)})[/]"
    evidence = item.change.evidence
    if why and evidence.why and not verbose:
        text += f" [dim]({evidence.grade.value}: {_plain(evidence.why)})[/]"
    console.print(text)
    if verbose:
        _print_evidence(console, item)


def _print_evidence(console: Console, item: Classified) -> None:
    """The grade and why under a change, and the witness of a proven break."""
    evidence = item.change.evidence
    if evidence.why:
        console.print(f"      [dim]{evidence.grade.value}: {_plain(evidence.why)}[/]")
    if evidence.witness and item.level is Level.MAJOR:
        console.print("      [dim]witness (works on OLD, fails on NEW):[/]")
        for line in evidence.witness.splitlines():
            console.print(f"        {_plain(line)}" if line else "")


def _plain(text: str) -> str:
    """Untrusted text for a rich console line: visible escapes, then markup escaped."""
    return markup_escaped(visible(text))


def _change_json(report: Report, item: Classified) -> dict[str, Any]:
    location = report.location(item)
    data: dict[str, Any] = {
        "path": item.change.path,
        "kind": item.change.kind.value,
        "bump": str(item.level),
        "message": item.message,
        "caller_hint": item.change.kind.rule.caller_hint.use or None,  # what callers must do
        "old": item.change.old,
        "new": item.change.new,
        "also_at": list(report.other_paths(item)),
        "file": location.file if location is not None else None,
        "line": max(location.line, 1) if location is not None else None,
        "evidence": {
            "grade": item.change.evidence.grade.value,
            "why": item.change.evidence.why,
            "witness": item.change.evidence.witness,
        },
        "counted": item.counted,
    }
    if item.change.qualifiers:  # rules that hold of this entry too (removed_without_deprecation)
        data["qualifiers"] = [kind.value for kind in item.change.qualifiers]
    if item.parts:  # one edit to one signature: each parameter's change
        data["parts"] = [_part_json(part) for part in item.parts]
    if item.accepted is not None:
        data["accepted"] = item.accepted
    if item.is_note:
        data["note"] = True
    return data


def _part_json(part: Classified) -> dict[str, Any]:
    data: dict[str, Any] = {
        "path": part.change.path,
        "kind": part.change.kind.value,
        "bump": str(part.level),
        "message": part.message,
        "old": part.change.old,
        "new": part.change.new,
        "evidence": {
            "grade": part.change.evidence.grade.value,
            "why": part.change.evidence.why,
            "witness": part.change.evidence.witness,
        },
    }
    if part.change.qualifiers:
        data["qualifiers"] = [kind.value for kind in part.change.qualifiers]
    return data


def report_to_json(report: Report) -> dict[str, Any]:
    """The JSON contract: ``bump``, ``current_version``, ``next_version``, ``changes``..."""
    return {
        "bump": str(report.level),
        "current_version": report.current_version,
        "next_version": report.next_version,
        "label": f"semver:{report.level}",
        "old": report.old_label,
        "new": report.new_label,
        "counts": {str(level): report.count(level) for level in _LEVELS},
        "to_review": len(report.to_review),
        "inferred_major": report.inferred_major,
        "notes": len(report.notes),
        "complete": not report.incomplete,
        "incomplete": list(report.incomplete),
        "unknowns": {
            "blocking": [unknown_json(unknown) for unknown in report.blocking_unknowns],
            "notes": [unknown_json(unknown) for unknown in report.unknown_notes],
        },
        "stale_accepts": list(report.stale_accepts),
        **({"engine_note": report.engine_note} if report.engine_note else {}),
        "changes": [_change_json(report, item) for item in report.changes],
    }


def unknown_json(unknown: Unknown) -> dict[str, Any]:
    """One unknown in the JSON contract: where, what, and why it blocks or not."""
    problem = unknown.problem
    return {
        "side": unknown.side,
        "file": problem.file or None,
        "line": problem.line or None,
        "path": problem.path or None,
        "message": problem.message,
        "blocking": unknown.blocking,
        "reason": unknown.reason,
    }


def render_json(report: Report) -> str:
    """The report as deterministic JSON (ASCII only; see :func:`json_safe`)."""
    return json_safe(json.dumps(report_to_json(report), indent=2, sort_keys=False)) + "\n"


def _md_message(item: Classified) -> str:
    """The change's message for a Markdown table: the rule's words escaped, its values (from
    the analysed code) in code spans. A message that is not the rule's template filled in
    is one code span; an entry of several parts, each part's so."""
    if item.parts:
        order = {name: index for index, name in enumerate(_param(item.change.path).split(", "))}
        alike: dict[str, list[Classified]] = {}
        for part in sorted(item.parts, key=lambda part: order.get(_param(part.change.path), 0)):
            alike.setdefault(part.message, []).append(part)
        by_names: dict[str, list[str]] = {}
        for group in alike.values():
            spelled = ", ".join(
                _cell_code(name) for name in dict.fromkeys(_param(p.change.path) for p in group)
            )
            by_names.setdefault(spelled, []).append(_md_message(group[0]))
        return "; ".join(f"{names}: {'; '.join(texts)}" for names, texts in by_names.items())
    change = item.change
    # The kind's template, then each qualifier's (``; removed without prior deprecation``).
    template = "; ".join(RULES[kind].template for kind in (change.kind, *change.qualifiers))
    values = {"old": change.old, "new": change.new}
    if template.format(**values) != item.message:
        return _cell_code(item.message)
    parts: list[str] = []
    for literal, name, _, _ in Formatter().parse(template):
        parts.append(markdown_words(literal))
        if name is None:
            continue
        value = str(values.get(name))
        # A kind of symbol (``function added``) is apisurface's word, not the code's.
        own = value in _SYMBOL_KINDS or value in _PARAM_KINDS
        parts.append(markdown_words(value) if own else _cell_code(value))
    return "".join(parts)


def _param(path: str) -> str:
    return path.partition("(")[2].rstrip(")")


_SYMBOL_KINDS = frozenset(kind.value for kind in SymbolKind)
_PARAM_KINDS = frozenset(kind.value for kind in ParamKind)
MARKDOWN_LIMIT = 65_536
"""GitHub refuses a comment longer than this; the comment stays below it by design."""
_BUDGET = 60_000  # what the sections may fill, a margin below the limit
_CELL_WIDTH = 28
"""The longest run of characters without a break that a table cell holds: three columns
of it fit GitHub's 780 px comment (12 px monospace), so no column runs off it."""
# The comment's own HTML: fixed text, nothing from the analysed code.
_SHOW = "<details><summary>Show them</summary>"
_NOTES_SUMMARY = "<details><summary>Notes: docstrings and documentation</summary>"
_BREAK = "<wbr>"
MARKDOWN_HTML = (MARKDOWN_MARKER, _SHOW, _NOTES_SUMMARY, "</details>", _BREAK)
"""Every piece of HTML the pull-request comment may hold (docs/security.md)."""
_BREAKS = re.compile(r"(?<=[./(\[,|_:-])")


def _cell_code(text: str, width: int = _CELL_WIDTH) -> str:
    """``text`` as code in a table cell that never runs wider than ``width`` characters
    without a break: one code span when its words are short enough, else several, split
    after ``.``, ``/``, ``(``, ``,``, ``_`` and the like (or every ``width`` characters),
    joined by ``<wbr>`` (a place the line may break; copied text is unchanged)."""
    if max(map(len, text.split(" ")), default=0) <= width:
        return code_span(text, table=True)
    pieces: list[str] = []
    current = ""
    for part in _BREAKS.split(text):
        while len(part) > width:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(part[:width])
            part = part[width:]  # noqa: PLW2901
        run = len(current.rpartition(" ")[2]) + len(part.partition(" ")[0])
        if current and run > width:
            pieces.append(current)
            current = part
        else:
            current += part
    if current:
        pieces.append(current)
    return _BREAK.join(code_span(piece, table=True) for piece in pieces)


def _short(report: Report, item: Classified, module: str) -> str:
    """The change's path relative to its module (the table groups rows by module)."""
    path = item.change.path
    return path[len(module) + 1 :] if path.startswith(module + ".") else path


def _md_symbol(report: Report, item: Classified, module: str) -> str:
    """The symbol cell: its name relative to the module (parameters apart: the change
    names them), and where else it changed (``also in`` the subclasses, or its paths)."""
    text = _cell_code(base_path(_short(report, item, module)))
    word, names = also(report, item)
    if not names:
        return text
    listed = ", ".join(_cell_code(name) for name in dict.fromkeys(map(base_path, names)))
    return f"{text} (also {word} {listed})"


def _where_cell(report: Report, items: list[Classified]) -> str:
    """The files and lines of ``items``: ``file:line`` for one, each file once with its
    lines for several."""
    lines: dict[str, list[str]] = {}
    for item in items:
        location = report.location(item)
        if location is not None:
            lines.setdefault(location.file, []).append(str(max(location.line, 1)))
    if len(items) == 1 and lines:
        ((file, (line,)),) = lines.items()
        return _cell_code(f"{file}:{line}")
    return "; ".join(
        f"{_cell_code(file)} lines {', '.join(sorted(set(numbers), key=int))}"
        for file, numbers in lines.items()
    )


_Row = tuple[str, list[Classified]]
"""A table row: its symbol cell and the entries it stands for (one, or many alike)."""


def _table(
    report: Report, items: list[Classified], *, style: str, extra: str | None = None
) -> list[str]:
    """One table of ``items`` grouped by module. ``style`` is how much each row says:
    ``"rows"`` one row per change, except that changes of one module with the same message
    (five or more) share a row naming them all; ``"kinds"`` per module, one row per kind
    (a count); ``"counts"`` one row per kind for all modules. ``extra`` adds a column:
    ``"why"`` (how a change to review is known) or ``"reason"`` (why it was accepted)."""
    header = "| symbol | change · rule | where |" + (f" {extra} |" if extra else "")
    lines = [header, "| --- | --- | --- |" + (" --- |" if extra else "")]
    blank = " |" * (3 if extra else 2)
    grouped: dict[str, list[Classified]] = {}
    for item in items:
        grouped.setdefault("" if style == "counts" else report.module(item), []).append(item)
    for module in sorted(grouped):
        if module:
            lines.append(f"| **{_cell_code(module)}** |{blank}")
        for cells in _rows(report, grouped[module], module, style=style, extra=extra):
            lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def _rows(
    report: Report, items: list[Classified], module: str, *, style: str, extra: str | None
) -> list[list[str]]:
    if style != "rows":
        kinds: dict[str, list[Classified]] = {}
        for item in items:
            kinds.setdefault(item.change.kind.value, []).append(item)
        return [
            [f"{len(found)} changes" if len(found) > 1 else "1 change", f"`{kind}`", ""]
            + ([""] if extra else [])
            for kind, found in sorted(kinds.items(), key=lambda pair: (-len(pair[1]), pair[0]))
        ]
    alike: dict[tuple[str, str], list[Classified]] = {}
    for item in items:
        alike.setdefault((item.change.kind.value, item.message), []).append(item)
    rows: list[list[str]] = []
    for item in items:
        group = alike[(item.change.kind.value, item.message)]
        if len(group) >= _ALIKE and extra is None:
            if item is not group[0]:
                continue
            symbols = ", ".join(_md_symbol(report, other, module) for other in group)
            change = f"{len(group)} x {_md_message(item)} · `{item.change.kind.value}`"
            rows.append([symbols, change, _where_cell(report, group)])
            continue
        params = _param(item.change.path)
        change = _md_message(item)
        if params and not item.parts:
            change = f"{_cell_code(params)}: {change}"
        row = [
            _md_symbol(report, item, module),
            f"{change} · `{item.change.kind.value}`",
            _where_cell(report, [item]),
        ]
        if extra == "why":
            evidence = item.change.evidence
            row.append(f"{evidence.grade.value}: {_cell_code(evidence.why)}")
        elif extra == "reason":
            row.append(_cell_code(item.accepted or ""))
        rows.append(row)
    return rows


_ALIKE = 5
"""Changes of one module with the same message that share one row of the comment."""
_STYLES = ("rows", "kinds", "counts")


def _fitted(
    report: Report, items: list[Classified], budget: int, *, extra: str | None = None
) -> list[str]:
    """The most detailed table of ``items`` that fits ``budget`` characters (a table of
    one row per kind always does: there are few kinds), or one line saying where they are."""
    for style in _STYLES:
        lines = _table(report, items, style=style, extra=extra)
        if sum(len(line) + 1 for line in lines) <= budget:
            return lines
    return [f"{len(items)} changes: see the full report.", ""]


def render_markdown(report: Report, *, link: str | None = None) -> str:
    """A pull-request comment body, always below GitHub's limit (:data:`MARKDOWN_LIMIT`) by
    design. The first line is a marker a bot finds to update its comment in place; then the
    verdict (required bump, suggested version, counts by level and by kind, and a ``link``
    to the full report when given); then every MAJOR change, in one table grouped by module
    (changes alike share a row); MINOR and PATCH changes, those to review and the accepted
    ones collapsed; the notes and what could not be verified. Each table is as detailed as
    its share of the limit allows (a row per change, else a count per kind and module, else
    per kind). Table cells break at most every 28 characters, so that no column runs off
    GitHub's comment box.

    Everything that comes from the analysed code or its configuration is in code spans
    (docs/security.md), so the comment holds no link, image, mention or HTML from it.
    """
    head = _markdown_verdict(report, link)
    if not report.changes and not report.unknowns:
        return "\n".join(head) + "\nNo differences.\n"
    budget = _BUDGET - sum(len(line) + 1 for line in head)
    sections: list[str] = []
    major = [item for item in report.changes if item.effective_level is Level.MAJOR]
    reserve = 8_000  # kept for the collapsed sections' tables of counts
    if major:
        table = _fitted(report, major, max(budget - reserve, 2_000))
        sections += [f"#### MAJOR ({len(major)})", "", *table]
    for title, items, extra in (
        ("MINOR", [i for i in report.changes if i.effective_level is Level.MINOR], None),
        ("PATCH", [i for i in report.changes if i.effective_level is Level.PATCH], None),
        ("To review: inferred, not counted", list(report.to_review), "why"),
        ("Accepted", list(report.accepted), "reason"),
    ):
        if not items:
            continue
        left = budget - sum(len(line) + 1 for line in sections) - 2_000
        table = _fitted(report, items, left, extra=extra)
        sections += [f"#### {title} ({len(items)})", "", _SHOW, "", *table, "</details>", ""]
    closing = _markdown_closing(report)
    if sum(len(line) + 1 for line in [*sections, *closing]) > budget:
        closing = _markdown_closing(report, brief=True)
    body = "\n".join([*head, *sections, *closing])
    if len(body) >= MARKDOWN_LIMIT:  # only with a verdict of enormous labels: the minimum
        body = "\n".join(
            [*head[:3], "The report is too long for a comment: see the full report.", ""]
        )
    return body[: MARKDOWN_LIMIT - 1]


def _notes_lines(report: Report) -> list[str]:
    """The notes (docstring changes, documentation not judged) in one collapsed list:
    one line per kind and module, naming the symbols relative to the module (200 lines at
    most: notes change nothing a caller uses)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for item in report.notes:
        module = report.module(item)
        key = (item.message, module)
        groups.setdefault(key, []).append(code_span(_short(report, item, module)))
    count = len(report.notes)
    lines = [_NOTES_SUMMARY, "", f"{_plural(count, 'note')}, no public API change:", ""]
    for (message, module), names in sorted(groups.items())[:200]:
        lines.append(
            f"- {markdown_words(message)} in {code_span(module)}: {', '.join(names[:100])}"
        )
    lines.extend(["", "</details>", ""])
    return lines


def _capped(text: str, limit: int = 200) -> str:
    """A label or version for the comment's head, at most ``limit`` characters (the head
    must fit whatever the inputs are named)."""
    return text if len(text) <= limit else text[:limit] + " [cut]"


def _markdown_verdict(report: Report, link: str | None) -> list[str]:
    """The marker, the required bump, the suggested version, the counts by level and by
    kind, and where the full report is."""
    heading = f"### API surface: **{report.level.name}** bump required"
    if report.inferred_major:
        heading += " (MAJOR only if the inferred changes to review are breaks)"
    if not report.changed:
        heading = "### API surface: no public API change (**PATCH**)"
    lines = [MARKDOWN_MARKER, heading, ""]
    current = code_span(_capped(report.current_version or ""))
    if report.next_version:
        suggestion = (
            f"**Suggested version: {markdown_words(_capped(report.next_version))}** "
            f"(from {current})"
        )
    elif report.version_note:
        suggestion = f"Suggested version: unknown ({code_span(_capped(report.version_note))})"
    else:
        suggestion = "Suggested version: unknown (no current version; pass --current-version)"
    lines.append(f"{suggestion} · label `semver:{report.level}`  ")
    counts = ", ".join(f"{report.count(level)} {level.name.lower()}" for level in _LEVELS)
    notes = f", {_plural(len(report.notes), 'note')}" if report.notes else ""
    review = f", {len(report.to_review)} to review" if report.to_review else ""
    old, new = code_span(_capped(report.old_label)), code_span(_capped(report.new_label))
    lines.append(
        f"Changes: {counts}, {len(report.accepted)} accepted{review}{notes} ({old} -> {new})  "
    )
    kinds = summary_lines(report)[1:]
    if kinds:
        spelled = "; ".join(re.sub(r"(\d+) (\w+)", r"\1 `\2`", line) for line in kinds)
        lines.append(f"By kind: {spelled}  ")
    if link:
        lines.append(
            f"[The full report]({link}): every change with how it is known and its witness"
        )
    lines.append("")
    return lines


def _markdown_closing(report: Report, *, brief: bool = False) -> list[str]:
    """The notes, stale accept entries, and what could not be verified (``brief``: their
    counts only, when the rest took the comment's room)."""
    lines: list[str] = []
    if report.notes and not brief:
        lines.extend(_notes_lines(report))
    if report.stale_accepts:
        stale = report.stale_accepts
        lines.append(f"**Stale accept entries** ({len(stale)}: they match no change; remove them):")
        lines.append("")
        lines.extend(f"- {code_span(_capped(entry))}" for entry in stale[: 0 if brief else 50])
        lines.append("")
    if report.blocking_unknowns:
        lines.append("> [!WARNING]")
        lines.append(
            f"> {len(report.blocking_unknowns)} part(s) could not be verified and differ "
            "between the sides: a change there would go unseen."
        )
        lines.append("")
        if not brief:
            lines.extend(
                f"- not verified ({unknown.reason}): {code_span(_capped(str(unknown), 300))}"
                for unknown in report.blocking_unknowns[:50]
            )
            lines.append("")
    if report.unknown_notes:
        lines.append(
            f"{len(report.unknown_notes)} part(s) could not be verified but are unchanged between "
            "the sides (notes; no gate counts them)."
        )
        lines.append("")
        if not brief:
            lines += [_SHOW, ""]
            lines.extend(
                f"- {code_span(_capped(str(unknown.problem), 300))}"
                for unknown in report.unknown_notes[:50]
            )
            lines += ["", "</details>", ""]
    if report.engine_note:
        lines.append(f"> [!NOTE]\n> Every change is inferred: {code_span(report.engine_note)}")
        lines.append("")
    return lines


# --- surfaces ---------------------------------------------------------------------------


def _symbol_line(symbol: Symbol) -> str:
    """The symbol as a stub line (an overloaded function: one more line per overload),
    every line escaped with :func:`visible`."""
    overloads: list[str] = []
    name = symbol.name
    kind = symbol.kind
    if kind is SymbolKind.MODULE:
        line = f"module {symbol.path}"
    elif kind is SymbolKind.CLASS:
        bases = f"({', '.join(symbol.bases)})" if symbol.bases else ""
        line = f"class {name}{bases}:"
    elif kind.is_callable:
        prefix = "async def" if symbol.is_async else "def"
        decorator = {
            SymbolKind.CLASSMETHOD: "@classmethod ",
            SymbolKind.STATICMETHOD: "@staticmethod ",
        }
        signature = signature_text(symbol.signature) if symbol.signature else "(...)"
        abstract = "@abstractmethod " if symbol.is_abstract else ""
        line = f"{decorator.get(kind, '')}{abstract}{prefix} {name}{signature}"
        overloads = [
            visible(f"@overload {prefix} {name}{signature_text(overload)}")
            for overload in symbol.overloads
        ]
    elif kind is SymbolKind.PROPERTY:
        line = f"@property {name}: {symbol.annotation or '...'}"
    elif kind is SymbolKind.TYPE_ALIAS:
        line = f"type {name} = {symbol.annotation or '...'}"
    elif kind is SymbolKind.ENUM_MEMBER:
        line = f"{name}  # enum member"
    elif kind is SymbolKind.UNKNOWN:
        line = f"{name}  # bound at run time: kind unknown"
    elif kind is SymbolKind.EXTERNAL:
        line = f"{name}  # from {symbol.target}"
    else:
        line = f"{name}: {symbol.annotation}" if symbol.annotation else name
    if symbol.proto is not None:
        line += f"  # protobuf {symbol.proto}"
    if symbol.deprecated:
        line += f"  # deprecated: {symbol.deprecated}"
    return "\n".join([visible(line), *overloads])


def _surface_rule(surface: Surface) -> str:
    """Which rule defined the surface: export declarations or the package layout."""
    if surface.declared_by:
        names = ", ".join(f"@{name}" for name in surface.declared_by)
        return f"declared by {names} (export decorators)"
    return "by the package layout (POLICY.md section 2)"


def render_surface(surface: Surface, *, color: bool = False, width: int = 100) -> str:
    """The surface as stub-like text: what the tool thinks a user can type."""
    console, buffer = console_buffer(color, width)
    count = len(surface.symbols)
    console.print(f"[bold]{_plain(surface.package)}[/] {_plain(surface.version or '')}".rstrip())
    console.print(f"[dim]{count} public paths, {_plain(_surface_rule(surface))}[/]")
    modules = [path for path, symbol in surface.symbols.items() if symbol.kind is SymbolKind.MODULE]
    module_set = set(modules)
    owner_module: dict[str, str] = {}
    for path in surface.symbols:
        owner = path.rpartition(".")[0]
        while owner and owner not in module_set:
            owner = owner.rpartition(".")[0]
        owner_module[path] = owner or surface.package
    members: dict[str, list[str]] = {}
    for path in sorted(surface.symbols):
        if path not in module_set:
            members.setdefault(owner_module[path], []).append(path)
    for module in sorted(modules):
        console.print()
        console.print(f"[bold cyan]{markup_escaped(_symbol_line(surface.symbols[module]))}[/]")
        for path in members.get(module, []):
            depth = path[len(module) + 1 :].count(".")
            symbol = surface.symbols[path]
            text = _symbol_line(symbol).replace("\n", "\n" + "    " * (depth + 1))
            console.print("    " * (depth + 1) + markup_escaped(text))
    if surface.problems:
        console.print()
        console.print("[yellow]incomplete:[/] these parts could not be analysed:")
        for problem in surface.problems:
            console.print(f"  {_plain(str(problem))}")
    return buffer.getvalue()
