"""Reports and surfaces as text (rich), JSON and Markdown. Returns strings; never prints."""

from __future__ import annotations

import json
from io import StringIO
from string import Formatter
from typing import Any

from rich.console import Console
from rich.markup import escape

from apisurface.compare.report import Report
from apisurface.compare.rules import RULES, Classified, Level
from apisurface.compare.signatures import signature_text
from apisurface.model import ParamKind, Surface, Symbol, SymbolKind
from apisurface.output.printable import code_span, json_safe, markdown_words, visible

__all__ = [
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
    Level.MAJOR: "breaking change",
    Level.MINOR: "backward-compatible addition",
    Level.PATCH: "change with no effect on callers",
}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def console_buffer(color: bool, width: int) -> tuple[Console, StringIO]:
    """A rich console writing into a string (renderers return text; only the CLI prints)."""
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
    if not report.changes:
        summary = "no public API change"
    elif level is Level.PATCH and not report.count(Level.PATCH):
        parts = [_plural(len(report.accepted), "accepted change")] if report.accepted else []
        if report.to_review:
            parts.append(_plural(len(report.to_review), "inferred change") + " to review")
        summary = f"nothing but {' and '.join(parts)}"
    else:
        summary = _plural(report.count(level), _WORDS[level])
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
    console.print(f"Recommended bump: [{style}]{escape(verdict(report))}[/]")
    for level in _LEVELS:
        items = [item for item in report.changes if item.level is level and item.counted]
        items = [item for item in items if not item.accepted]
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
    if report.incomplete:
        console.print()
        console.print(
            "[yellow]warning:[/] the surface is incomplete; these files were not analysed:"
        )
        for problem in report.incomplete:
            console.print(f"  {_plain(problem)}")
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
    return escape(visible(text))


def _change_json(report: Report, item: Classified) -> dict[str, Any]:
    location = report.location(item)
    data: dict[str, Any] = {
        "path": item.change.path,
        "kind": item.change.kind.value,
        "bump": str(item.level),
        "message": item.message,
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
    if item.accepted is not None:
        data["accepted"] = item.accepted
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
        "complete": not report.incomplete,
        "incomplete": list(report.incomplete),
        "stale_accepts": list(report.stale_accepts),
        "changes": [_change_json(report, item) for item in report.changes],
    }


def render_json(report: Report) -> str:
    """The report as deterministic JSON (ASCII only; see :func:`json_safe`)."""
    return json_safe(json.dumps(report_to_json(report), indent=2, sort_keys=False)) + "\n"


def _md_message(item: Classified, *, table: bool = False) -> str:
    """The change's message for Markdown: the rule's words escaped, its values (from the
    analysed code) in code spans. A message that is not the rule's template filled in is
    one code span."""
    change = item.change
    template = RULES[change.kind].template
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


def _markdown_table(
    report: Report, items: list[Classified], *, reasons: bool, max_rows: int
) -> list[str]:
    header = "| symbol | change | rule | where | evidence |" + (" reason |" if reasons else "")
    lines = [header, "| --- | --- | --- | --- | --- |" + (" --- |" if reasons else "")]
    for item in items[:max_rows]:
        location = where(report, item)
        evidence = item.change.evidence
        row = (
            f"| {_md_symbol(report, item, table=True)} | {_md_message(item, table=True)} "
            f"| `{item.change.kind.value}` "
            f"| {code_span(location, table=True) if location else ''} "
            f"| {evidence.grade.value}: {code_span(evidence.why, table=True)} |"
        )
        if reasons:
            row += f" {code_span(item.accepted or '', table=True)} |"
        lines.append(row)
    if len(items) > max_rows:
        lines.append("")
        lines.append(f"... and {len(items) - max_rows} more (see the JSON report).")
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


def render_markdown(report: Report, *, max_rows: int = 100) -> str:
    """A pull-request comment body. The first line is a marker a bot finds to update its
    comment in place; then the verdict (required bump, suggested version, counts), one
    table per level, the accepted changes, and the raw changes in a collapsed section.

    Everything that comes from the analysed code or its configuration is in code spans
    (docs/security.md), so the comment holds no link, image, mention or HTML from it.
    """
    heading = f"### API surface: **{report.level.name}** bump required"
    if report.inferred_major:
        heading += " (MAJOR only if the inferred changes to review are breaks)"
    if not report.changes:
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
    lines.append(
        f"Changes: {counts}, {len(report.accepted)} accepted "
        f"({code_span(report.old_label)} -> {code_span(report.new_label)})"
    )
    lines.append("")
    shown = [item for item in report.changes if not item.accepted and item.counted]
    for level in _LEVELS:
        items = [item for item in shown if item.level is level]
        if items:
            lines.append(f"#### {level.name} ({len(items)})")
            lines.append("")
            lines.extend(_markdown_table(report, items, reasons=False, max_rows=max_rows))
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
    if report.stale_accepts:
        lines.append("**Stale accept entries** (they match no change; remove them):")
        lines.append("")
        lines.extend(f"- {code_span(stale)}" for stale in report.stale_accepts)
        lines.append("")
    if report.incomplete:
        lines.append("> [!WARNING]")
        lines.append("> The surface is incomplete: some files could not be analysed.")
        lines.append("")
    head = "\n".join(lines)
    details = ["<details><summary>Details</summary>", ""]
    budget = _MARKDOWN_LIMIT - len(head)
    for item in report.changes:
        location = where(report, item)
        line = (
            f"- {_md_symbol(report, item)} `{item.change.kind.value}`: "
            f"old {code_span(str(item.change.old))}, new {code_span(str(item.change.new))}"
        )
        if location:
            line += f" at {code_span(location)}"
        budget -= len(line) + 1
        if budget < 200:
            details.append("- ... (cut to fit a comment; see the JSON report)")
            break
        details.append(line)
    details.extend(f"- not analysed: {code_span(problem)}" for problem in report.incomplete)
    if not report.changes and not report.incomplete:
        details.append("No differences.")
    details.extend(["", "</details>"])
    return head + "\n" + "\n".join(details) + "\n"


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
    else:
        line = f"{name}: {symbol.annotation}" if symbol.annotation else name
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
        console.print(f"[bold cyan]{escape(_symbol_line(surface.symbols[module]))}[/]")
        for path in members.get(module, []):
            depth = path[len(module) + 1 :].count(".")
            symbol = surface.symbols[path]
            text = _symbol_line(symbol).replace("\n", "\n" + "    " * (depth + 1))
            console.print("    " * (depth + 1) + escape(text))
    if surface.problems:
        console.print()
        console.print("[yellow]incomplete:[/] these files were not analysed:")
        for problem in surface.problems:
            console.print(f"  {_plain(problem)}")
    return buffer.getvalue()
