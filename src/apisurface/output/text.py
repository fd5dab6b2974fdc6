"""Reports and surfaces as text (rich), JSON and Markdown. Returns strings; never prints."""

from __future__ import annotations

import json
from io import StringIO
from string import Formatter
from typing import Any

from apisurface.compare.report import Report, Unknown
from apisurface.compare.rules import RULES, Classified, Level
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
    "named",
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


def render_text(report: Report, *, color: bool = False, width: int = 100) -> str:
    """The report for a terminal: the recommendation first, then changes by level, each
    with its other paths and where it is defined."""
    console, buffer = console_buffer(color, width)
    style = _STYLE[report.level]
    old_label, new_label = _plain(report.old_label), _plain(report.new_label)
    first = f"apisurface: {old_label} -> {new_label}"
    if report.inferred_major:
        first += ": MAJOR rests only on inferred changes (to review below)"
    console.print(first)
    console.print(f"Recommended bump: [{style}]{markup_escaped(verdict(report))}[/]")
    for level in _LEVELS:
        items = [item for item in report.changes if item.effective_level is level]
        if not items:
            continue
        console.print()
        console.print(f"[{_STYLE[level]}]{level.name}[/] ({len(items)})")
        for item in items:
            location = where(report, item)
            console.print(
                f"  {_plain(named(report, item))}: {_plain(item.message)}  "
                f"[dim]{item.change.kind.value}[/]" + (f"  {_plain(location)}" if location else "")
            )
            _print_evidence(console, item)
    if report.to_review:
        console.print()
        console.print(
            f"TO REVIEW ({len(report.to_review)}): inferred, not counted (--strict counts them)"
        )
        for item in report.to_review:
            location = where(report, item)
            console.print(
                f"  {_plain(named(report, item))}: {_plain(item.message)} "
                f"[dim]({item.level.name.lower()} if a break)  {item.change.kind.value}[/]"
                + (f"  {_plain(location)}" if location else "")
            )
            _print_evidence(console, item)
    if report.notes:
        console.print()
        console.print(f"NOTES ({len(report.notes)}, no public API change)")
        for item in report.notes:
            location = where(report, item)
            console.print(
                f"  [dim]{_plain(named(report, item))}: {_plain(item.message)}[/]"
                + (f"  {_plain(location)}" if location else "")
            )
    if report.accepted:
        console.print()
        console.print(f"ACCEPTED ({len(report.accepted)})")
        for item in report.accepted:
            location = where(report, item)
            console.print(
                f"  {_plain(named(report, item))}: {_plain(item.message)} "
                f"[dim]({item.level.name.lower()}, accepted: {_plain(item.accepted or '')})[/]"
                + (f"  {_plain(location)}" if location else "")
            )
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
    return buffer.getvalue()


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
    if item.accepted is not None:
        data["accepted"] = item.accepted
    if item.is_note:
        data["note"] = True
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


def _md_message(item: Classified, *, table: bool = False) -> str:
    """The change's message for Markdown: the rule's words escaped, its values (from the
    analysed code) in code spans. A message that is not the rule's template filled in is
    one code span."""
    change = item.change
    # The kind's template, then each qualifier's (``; removed without prior deprecation``).
    template = "; ".join(RULES[kind].template for kind in (change.kind, *change.qualifiers))
    values = {"old": change.old, "new": change.new}
    if template.format(**values) != item.message:
        return code_span(item.message, table=table)
    parts: list[str] = []
    for literal, name, _, _ in Formatter().parse(template):
        parts.append(markdown_words(literal))
        if name is None:
            continue
        value = str(values.get(name))
        # A kind of symbol (``function added``) is apisurface's word, not the code's.
        own = value in _SYMBOL_KINDS or value in _PARAM_KINDS
        parts.append(markdown_words(value) if own else code_span(value, table=table))
    return "".join(parts)


def _md_symbol(report: Report, item: Classified, *, table: bool = False) -> str:
    text = code_span(item.change.path, table=table)
    others = report.other_paths(item)
    if others:
        text += " (also at " + ", ".join(code_span(path, table=table) for path in others) + ")"
    return text


_SYMBOL_KINDS = frozenset(kind.value for kind in SymbolKind)
_PARAM_KINDS = frozenset(kind.value for kind in ParamKind)
_MARKDOWN_LIMIT = 60_000  # GitHub refuses comments over 65,536 characters
# The comment's own HTML (collapsed sections): fixed text, nothing from the analysed code.
_PATCH_SUMMARY = "<details><summary>Changes with no effect on callers</summary>"
_NOTES_SUMMARY = "<details><summary>Notes: docstrings and documentation</summary>"
_VALUES_SUMMARY = "<details><summary>Old and new values</summary>"
MARKDOWN_HTML = (MARKDOWN_MARKER, _PATCH_SUMMARY, _NOTES_SUMMARY, _VALUES_SUMMARY, "</details>")
"""Every piece of HTML the pull-request comment may hold (docs/security.md)."""


def _short(report: Report, item: Classified, module: str) -> str:
    """The change's path relative to its module (the table groups rows by module)."""
    path = item.change.path
    return path[len(module) + 1 :] if path.startswith(module + ".") else path


def _md_short_symbol(report: Report, item: Classified, module: str) -> str:
    text = code_span(_short(report, item, module), table=True)
    others = report.other_paths(item)
    if others:
        text += " (also at " + ", ".join(code_span(path, table=True) for path in others) + ")"
    return text


def _markdown_table(
    report: Report, items: list[Classified], *, reasons: bool, max_rows: int
) -> list[str]:
    """One table, its rows grouped by module: a bold row names the module, the rows below
    it name the symbols relative to it; the last column says how each change is known."""
    header = "| symbol | change · rule | where | evidence |" + (" reason |" if reasons else "")
    lines = [header, "| --- | --- | --- | --- |" + (" --- |" if reasons else "")]
    blank = " |" * (4 if reasons else 3)
    grouped: dict[str, list[Classified]] = {}
    for item in items:
        grouped.setdefault(report.module(item), []).append(item)
    shown = 0
    for module in sorted(grouped):
        if shown >= max_rows:
            break
        lines.append(f"| **{code_span(module, table=True)}** |{blank}")
        for item in grouped[module]:
            if shown >= max_rows:
                break
            shown += 1
            location = where(report, item)
            evidence = item.change.evidence
            row = (
                f"| {_md_short_symbol(report, item, module)} "
                f"| {_md_message(item, table=True)} · `{item.change.kind.value}` "
                f"| {code_span(location, table=True) if location else ''} "
                f"| {evidence.grade.value}: {code_span(evidence.why, table=True)} |"
            )
            if reasons:
                row += f" {code_span(item.accepted or '', table=True)} |"
            lines.append(row)
    if len(items) > shown:
        lines.append("")
        lines.append(f"... and {len(items) - shown} more (see the JSON report).")
    lines.append("")
    return lines


def _markdown_witnesses(items: list[Classified], *, max_rows: int) -> list[str]:
    """The witnesses of the proven breaks among ``items``, collapsed: code that works on
    OLD and fails on NEW. Fenced with more backticks than the code holds."""
    shown: dict[tuple[str, str], Classified] = {}
    for item in items[:max_rows]:
        if item.change.evidence.witness:  # one per path: a removal's shows its properties
            shown.setdefault((item.change.path, item.change.evidence.witness), item)
    if not shown or items[0].level is not Level.MAJOR:
        return []
    lines = ["<details><summary>Witnesses (code that works on OLD and fails on NEW)</summary>", ""]
    for item in shown.values():
        text = "\n".join(
            visible(line) for line in (item.change.evidence.witness or "").splitlines()
        )
        fence = "`" * max(3, _longest_run(text, "`") + 1)
        lines += [code_span(item.change.path), "", f"{fence}python", text, fence, ""]
    lines += ["</details>", ""]
    return lines


def _longest_run(text: str, char: str) -> int:
    longest = current = 0
    for found in text:
        current = current + 1 if found == char else 0
        longest = max(longest, current)
    return longest


def _notes_lines(report: Report) -> list[str]:
    """The notes (docstring changes, documentation not judged) in one collapsed list:
    one line per kind and module, naming the symbols relative to the module."""
    groups: dict[tuple[str, str], list[str]] = {}
    for item in report.notes:
        module = report.module(item)
        key = (item.message, module)
        groups.setdefault(key, []).append(code_span(_short(report, item, module)))
    count = len(report.notes)
    lines = [_NOTES_SUMMARY, "", f"{_plural(count, 'note')}, no public API change:", ""]
    for (message, module), names in sorted(groups.items()):
        lines.append(f"- {markdown_words(message)} in {code_span(module)}: {', '.join(names)}")
    lines.extend(["", "</details>", ""])
    return lines


def _unshown_values(item: Classified) -> list[str]:
    """The change's old and new values that its message does not already show (a kind of
    symbol, such as ``class`` for a removal, says nothing the message does not)."""
    template = RULES[item.change.kind].template
    values = []
    for name, value in (("old", item.change.old), ("new", item.change.new)):
        if value is None or value in _SYMBOL_KINDS or value in _PARAM_KINDS:
            continue
        if "{" + name + "}" not in template:
            values.append(f"{name} {code_span(value)}")
    return values


def render_markdown(report: Report, *, max_rows: int = 100) -> str:
    """A pull-request comment body. The first line is a marker a bot finds to update its
    comment in place; then the verdict (required bump, suggested version, counts), one
    table per level (rows grouped by module; patch-level ones collapsed), the accepted
    changes, the notes (docstring changes: no public API change) collapsed, and the old
    and new values that the messages do not show.

    Everything that comes from the analysed code or its configuration is in code spans
    (docs/security.md), so the comment holds no link, image, mention or HTML from it.
    """
    lines = _markdown_verdict(report)
    lines.extend(_markdown_levels(report, max_rows=max_rows))
    lines.extend(_markdown_closing(report))
    head = "\n".join(lines)
    if len(head) > _MARKDOWN_LIMIT:
        head = head[: head.rfind("\n", 0, _MARKDOWN_LIMIT - 200)]
        head += "\n\n... (cut to fit a comment; see the JSON report)\n"
        if head.count("<details>") > head.count("</details>"):  # cut in a collapsed table
            head += "\n</details>\n"
    details = _markdown_details(report, budget=_MARKDOWN_LIMIT - len(head))
    if not report.changes and not report.unknowns:
        return head + "No differences.\n"
    if not details:
        return head
    return head + f"\n{_VALUES_SUMMARY}\n\n" + "\n".join(details) + "\n\n</details>\n"


def _markdown_verdict(report: Report) -> list[str]:
    """The marker, the required bump, the suggested version and the counts."""
    heading = f"### API surface: **{report.level.name}** bump required"
    if report.inferred_major:
        heading += " (MAJOR only if the inferred changes to review are breaks)"
    if not report.changed:
        heading = "### API surface: no public API change (**PATCH**)"
    lines = [MARKDOWN_MARKER, heading, ""]
    if report.next_version:
        suggestion = (
            f"**Suggested version: {markdown_words(report.next_version)}** "
            f"(from {code_span(report.current_version or '')})"
        )
    elif report.version_note:
        suggestion = f"Suggested version: unknown ({code_span(report.version_note)})"
    else:
        suggestion = "Suggested version: unknown (no current version; pass --current-version)"
    lines.append(f"{suggestion} · label `semver:{report.level}`  ")
    counts = ", ".join(f"{report.count(level)} {level.name.lower()}" for level in _LEVELS)
    notes = f", {_plural(len(report.notes), 'note')}" if report.notes else ""
    lines.append(
        f"Changes: {counts}, {len(report.accepted)} accepted{notes} "
        f"({code_span(report.old_label)} -> {code_span(report.new_label)})"
    )
    lines.append("")
    return lines


def _markdown_levels(report: Report, *, max_rows: int) -> list[str]:
    """One table per level (patch collapsed), then those to review and the accepted ones."""
    lines: list[str] = []
    for level in _LEVELS:
        items = [item for item in report.changes if item.effective_level is level]
        if not items:
            continue
        table = _markdown_table(report, items, reasons=False, max_rows=max_rows)
        lines.append(f"#### {level.name} ({len(items)})")
        lines.append("")
        if level is Level.PATCH:
            # No caller is affected: collapsed, so that they do not crowd out the rest.
            lines.extend([_PATCH_SUMMARY, "", *table, "</details>", ""])
        else:
            lines.extend(table)
            lines.extend(_markdown_witnesses(items, max_rows=max_rows))
    if report.to_review:
        review = list(report.to_review)
        lines.append(f"#### To review: inferred, not counted ({len(review)})")
        lines.append("")
        lines.extend(_markdown_table(report, review, reasons=False, max_rows=max_rows))
    if report.accepted:
        lines.append(f"#### Accepted ({len(report.accepted)})")
        lines.append("")
        lines.extend(
            _markdown_table(report, list(report.accepted), reasons=True, max_rows=max_rows)
        )
    return lines


def _markdown_closing(report: Report) -> list[str]:
    """The notes, stale accept entries, and what could not be verified."""
    lines: list[str] = []
    if report.notes:
        lines.extend(_notes_lines(report))
    if report.stale_accepts:
        lines.append("**Stale accept entries** (they match no change; remove them):")
        lines.append("")
        lines.extend(f"- {code_span(stale)}" for stale in report.stale_accepts)
        lines.append("")
    if report.blocking_unknowns:
        lines.append("> [!WARNING]")
        lines.append(
            f"> {len(report.blocking_unknowns)} part(s) could not be verified and differ "
            "between the sides: a change there would go unseen (see Details)."
        )
        lines.append("")
    if report.unknown_notes:
        lines.append(
            f"{len(report.unknown_notes)} part(s) could not be verified but are unchanged between "
            "the sides (notes; no gate counts them)."
        )
        lines.append("")
    if report.engine_note:
        lines.append(f"> [!NOTE]\n> Every change is inferred: {code_span(report.engine_note)}")
        lines.append("")
    return lines


def _markdown_details(report: Report, *, budget: int) -> list[str]:
    """The values the messages do not show, within ``budget`` characters, then the parts
    not verified."""
    details: list[str] = []
    for item in report.changes:
        values = _unshown_values(item)
        if not values or item.is_note:
            continue
        line = f"- {_md_symbol(report, item)} `{item.change.kind.value}`: {', '.join(values)}"
        budget -= len(line) + 1
        if budget < 200:
            details.append("- ... (cut to fit a comment; see the JSON report)")
            break
        details.append(line)
    details.extend(
        f"- not verified ({unknown.reason}): {code_span(str(unknown))}"
        for unknown in report.blocking_unknowns
    )
    details.extend(
        f"- note, not verified (unchanged): {code_span(str(unknown.problem))}"
        for unknown in report.unknown_notes
    )
    return details


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
