"""Reports and surfaces as text (rich), JSON and Markdown. Returns strings; never prints."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

from rich.console import Console
from rich.markup import escape

from apisurface.diff import signature_text
from apisurface.model import Surface, Symbol, SymbolKind
from apisurface.report import Report
from apisurface.rules import Classified, Level

__all__ = [
    "MARKDOWN_MARKER",
    "render_json",
    "render_markdown",
    "render_surface",
    "render_text",
    "report_to_json",
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
    if level is Level.PATCH and not report.count(Level.PATCH):
        summary = "no change to the public surface"
    else:
        summary = _plural(report.count(level), _WORDS[level])
    line = f"{level.name} ({summary})"
    if report.next_version:
        line += f": {report.current_version} -> {report.next_version}"
    elif report.version_note:
        line += f" ({report.version_note})"
    return line


def render_text(report: Report, *, color: bool = False, width: int = 100) -> str:
    """The report for a terminal: the recommendation first, then changes by level."""
    console, buffer = console_buffer(color, width)
    style = _STYLE[report.level]
    console.print(f"apisurface: {escape(report.old_label)} -> {escape(report.new_label)}")
    console.print(f"Recommended bump: [{style}]{escape(verdict(report))}[/]")
    for level in _LEVELS:
        items = [item for item in report.changes if item.level is level and not item.accepted]
        if not items:
            continue
        console.print()
        console.print(f"[{_STYLE[level]}]{level.name}[/] ({len(items)})")
        for item in items:
            console.print(
                f"  {escape(item.change.path)}: {escape(item.message)}  "
                f"[dim]{item.change.kind.value}[/]"
            )
    if report.accepted:
        console.print()
        console.print(f"ACCEPTED ({len(report.accepted)})")
        for item in report.accepted:
            console.print(
                f"  {escape(item.change.path)}: {escape(item.message)} "
                f"[dim]({item.level.name.lower()}, accepted: {escape(item.accepted or '')})[/]"
            )
    for stale in report.stale_accepts:
        console.print(
            f"[yellow]warning:[/] accept entry matches no change (stale): {escape(stale)}"
        )
    if report.incomplete:
        console.print()
        console.print(
            "[yellow]warning:[/] the surface is incomplete; these files were not analysed:"
        )
        for problem in report.incomplete:
            console.print(f"  {escape(problem)}")
    return buffer.getvalue()


def _change_json(item: Classified) -> dict[str, Any]:
    data: dict[str, Any] = {
        "path": item.change.path,
        "kind": item.change.kind.value,
        "bump": str(item.level),
        "message": item.message,
        "old": item.change.old,
        "new": item.change.new,
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
        "complete": not report.incomplete,
        "incomplete": list(report.incomplete),
        "stale_accepts": list(report.stale_accepts),
        "changes": [_change_json(item) for item in report.changes],
    }


def render_json(report: Report) -> str:
    """The report as deterministic JSON."""
    return json.dumps(report_to_json(report), indent=2, sort_keys=False) + "\n"


def _md(text: str, *, table: bool = False) -> str:
    text = text.replace("`", "'").replace("<", "&lt;").replace("\n", " ")
    return text.replace("|", "\\|") if table else text


_MARKDOWN_LIMIT = 60_000  # GitHub refuses comments over 65,536 characters


def _markdown_table(items: list[Classified], *, reasons: bool, max_rows: int) -> list[str]:
    header = "| symbol | change | rule |" + (" reason |" if reasons else "")
    lines = [header, "| --- | --- | --- |" + (" --- |" if reasons else "")]
    for item in items[:max_rows]:
        row = (
            f"| `{_md(item.change.path, table=True)}` | {_md(item.message, table=True)} "
            f"| `{item.change.kind.value}` |"
        )
        if reasons:
            row += f" {_md(item.accepted or '', table=True)} |"
        lines.append(row)
    if len(items) > max_rows:
        lines.append("")
        lines.append(f"... and {len(items) - max_rows} more (see the JSON report).")
    lines.append("")
    return lines


def render_markdown(report: Report, *, max_rows: int = 100) -> str:
    """A pull-request comment body. The first line is a marker a bot finds to update its
    comment in place; then the verdict (required bump, suggested version, counts), one
    table per level, the accepted changes, and the raw changes in a collapsed section."""
    heading = f"### API surface: **{report.level.name}** bump required"
    if not report.changes:
        heading = "### API surface: no change to the public surface (**PATCH**)"
    lines = [MARKDOWN_MARKER, heading, ""]
    if report.next_version:
        suggestion = f"**Suggested version: {report.next_version}** (from {report.current_version})"
    elif report.version_note:
        suggestion = f"Suggested version: unknown ({_md(report.version_note)})"
    else:
        suggestion = "Suggested version: unknown (no current version; pass --current-version)"
    lines.append(f"{suggestion} · label `semver:{report.level}`  ")
    counts = ", ".join(f"{report.count(level)} {level.name.lower()}" for level in _LEVELS)
    lines.append(
        f"Changes: {counts}, {len(report.accepted)} accepted "
        f"(`{_md(report.old_label)}` -> `{_md(report.new_label)}`)"
    )
    lines.append("")
    shown = [item for item in report.changes if not item.accepted]
    for level in _LEVELS:
        items = [item for item in shown if item.level is level]
        if items:
            lines.append(f"#### {level.name} ({len(items)})")
            lines.append("")
            lines.extend(_markdown_table(items, reasons=False, max_rows=max_rows))
    if report.accepted:
        lines.append(f"#### Accepted ({len(report.accepted)})")
        lines.append("")
        lines.extend(_markdown_table(list(report.accepted), reasons=True, max_rows=max_rows))
    if report.stale_accepts:
        lines.append("**Stale accept entries** (they match no change; remove them):")
        lines.append("")
        lines.extend(f"- `{_md(stale)}`" for stale in report.stale_accepts)
        lines.append("")
    if report.incomplete:
        lines.append("> [!WARNING]")
        lines.append("> The surface is incomplete: some files could not be analysed.")
        lines.append("")
    head = "\n".join(lines)
    details = ["<details><summary>Details</summary>", ""]
    budget = _MARKDOWN_LIMIT - len(head)
    for item in report.changes:
        line = (
            f"- `{_md(item.change.path)}` `{item.change.kind.value}`: "
            f"old `{_md(str(item.change.old))}`, new `{_md(str(item.change.new))}`"
        )
        budget -= len(line) + 1
        if budget < 200:
            details.append("- ... (cut to fit a comment; see the JSON report)")
            break
        details.append(line)
    details.extend(f"- not analysed: {_md(problem)}" for problem in report.incomplete)
    if not report.changes and not report.incomplete:
        details.append("No differences.")
    details.extend(["", "</details>"])
    return head + "\n" + "\n".join(details) + "\n"


# --- surfaces ---------------------------------------------------------------------------


def _symbol_line(symbol: Symbol) -> str:
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
        for overload in symbol.overloads:
            line += f"\n@overload {prefix} {name}{signature_text(overload)}"
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
    return line


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
    console.print(f"[bold]{escape(surface.package)}[/] {escape(surface.version or '')}".rstrip())
    console.print(f"[dim]{count} public paths, {escape(_surface_rule(surface))}[/]")
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
            console.print(f"  {escape(problem)}")
    return buffer.getvalue()
