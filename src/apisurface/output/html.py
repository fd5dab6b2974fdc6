"""A diff report as one self-contained HTML page (``apisurface diff --format html``).

The verdict comes first; then the changes grouped by level and, within a level, by
module, each with its old and new signature, file:line and rule; checkboxes filter by
level (also preset with ``#levels=major,minor`` in the address). Everything that comes
from the analysed code (paths, signatures, defaults, annotations, messages, labels) is
escaped; the page loads nothing from the network.
"""

from __future__ import annotations

import base64
import hashlib
from html import escape

from apisurface.compare.report import Report
from apisurface.compare.rules import Classified, Level, base_path
from apisurface.model import ParamKind, Signature, Surface, Symbol, SymbolKind
from apisurface.output.printable import visible

__all__ = ["render_html"]


def _escaped(text: str) -> str:
    """Untrusted text for HTML: characters that could reorder or hide what a reviewer
    reads (bidi overrides and isolates, zero-width and other format characters, C0/C1
    controls, line separators) shown as ``\\uNNNN`` escapes as the text formats show
    them, then HTML-escaped (quotes too)."""
    return escape(visible(text, commands=False))


_LEVELS = (Level.MAJOR, Level.MINOR, Level.PATCH)
_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem;
  padding: 0 1rem; color: #1f2328; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; }
.verdict { font-size: 1.25rem; padding: .8rem 1rem; border-radius: 6px; margin: 1rem 0; }
.verdict.major { background: #ffebe9; } .verdict.minor { background: #fff8c5; }
.verdict.patch { background: #dafbe1; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { margin: .2rem 0; white-space: pre-wrap; word-break: break-word; }
table { border-collapse: collapse; width: 100%; margin-bottom: 1rem; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem;
  border-bottom: 1px solid #d0d7de; }
th { background: #f6f8fa; }
.old { color: #82071e; } .new { color: #116329; }
.filters label { margin-right: 1rem; }
.accepted { color: #57606a; font-style: italic; }
[hidden] { display: none !important; }
"""
_SCRIPT = """
(function () {
  var boxes = document.querySelectorAll('input[data-filter]');
  function apply() {
    var on = {};
    boxes.forEach(function (box) { on[box.dataset.filter] = box.checked; });
    document.querySelectorAll('[data-level]').forEach(function (node) {
      node.hidden = !on[node.dataset.level];
    });
  }
  var match = /levels=([a-z,]*)/.exec(location.hash);
  if (match) {
    var wanted = match[1].split(',');
    boxes.forEach(function (box) { box.checked = wanted.indexOf(box.dataset.filter) >= 0; });
  }
  boxes.forEach(function (box) { box.addEventListener('change', apply); });
  apply();
})();
"""


# The page's one script is allowed by its hash: no other script can run, even one that
# slipped past escaping.
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(_SCRIPT.encode()).digest()).decode()


def _parameters(signature: Signature) -> str:
    parts: list[str] = []
    star = False
    for index, parameter in enumerate(signature.parameters):
        kind = parameter.kind
        if kind is ParamKind.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        text = parameter.name
        if kind is ParamKind.VAR_POSITIONAL:
            text, star = f"*{text}", True
        elif kind is ParamKind.VAR_KEYWORD:
            text = f"**{text}"
        if parameter.annotation:
            text += f": {parameter.annotation}"
        if parameter.default is not None:
            text += f" = {parameter.default}" if parameter.annotation else f"={parameter.default}"
        parts.append(text)
        following = signature.parameters[index + 1 :]
        if kind is ParamKind.POSITIONAL_ONLY and not any(
            item.kind is ParamKind.POSITIONAL_ONLY for item in following
        ):
            parts.append("/")
    returns = f" -> {signature.returns}" if signature.returns else ""
    return f"({', '.join(parts)}){returns}"


def describe(symbol: Symbol | None) -> str:
    """A one-line stub of ``symbol`` (empty when it does not exist on that side)."""
    if symbol is None:
        return ""
    kind = symbol.kind
    name = symbol.name
    if kind is SymbolKind.MODULE:
        return f"module {symbol.path}"
    if kind is SymbolKind.CLASS:
        bases = f"({', '.join(symbol.bases)})" if symbol.bases else ""
        return f"class {name}{bases}"
    if symbol.signature is not None:
        prefix = "async def" if symbol.is_async else "def"
        decorator = {
            SymbolKind.CLASSMETHOD: "@classmethod ",
            SymbolKind.STATICMETHOD: "@staticmethod ",
        }.get(kind, "")
        return f"{decorator}{prefix} {name}{_parameters(symbol.signature)}"
    if kind is SymbolKind.PROPERTY:
        return f"@property {name}" + (f" -> {symbol.annotation}" if symbol.annotation else "")
    if symbol.annotation:
        return f"{name}: {symbol.annotation}"
    return f"{kind.value} {name}"


def _module(path: str, surfaces: tuple[Surface | None, ...]) -> str:
    """The module a change belongs to: the longest prefix of its path that is a module."""
    parts = base_path(path).split(".")
    for end in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:end])
        for surface in surfaces:
            if surface is None:
                continue
            symbol = surface.symbols.get(prefix)
            if symbol is not None and symbol.kind is SymbolKind.MODULE:
                return prefix
    return parts[0]


def _row(report: Report, item: Classified, old: Surface | None, new: Surface | None) -> str:
    path = base_path(item.change.path)
    location = report.locations.get(path)
    where = f"{location.file}:{location.line}" if location is not None else ""
    before = describe(old.symbols.get(path) if old else None)
    after = describe(new.symbols.get(path) if new else None)
    values = [
        f'<pre class="old">- {_escaped(before)}</pre>' if before else "",
        f'<pre class="new">+ {_escaped(after)}</pre>' if after else "",
    ]
    if not before and not after:
        values = [
            f'<pre class="old">- {_escaped(str(item.change.old))}</pre>'
            if item.change.old is not None
            else "",
            f'<pre class="new">+ {_escaped(str(item.change.new))}</pre>'
            if item.change.new is not None
            else "",
        ]
    accepted = (
        f'<div class="accepted">accepted: {_escaped(item.accepted)}</div>'
        if item.accepted is not None
        else ""
    )
    evidence = item.change.evidence
    accepted += f'<div class="evidence">{escape(evidence.grade.value)}: {escape(evidence.why)}'
    if not item.counted:
        accepted += " (to review: not counted)"
    accepted += "</div>"
    if evidence.witness and item.level is Level.MAJOR:
        accepted += (
            '<details class="witness"><summary>witness (works on OLD, fails on NEW)</summary>'
            f"<pre>{escape(evidence.witness)}</pre></details>"
        )
    return (
        f'<tr data-level="{item.level}"><td><code>{_escaped(item.change.path)}</code></td>'
        f"<td>{_escaped(item.message)}{accepted}</td><td>{''.join(values)}</td>"
        f"<td><code>{_escaped(where)}</code></td>"
        f"<td><code>{_escaped(item.change.kind.value)}</code></td></tr>"
    )


def render_html(report: Report, old: Surface | None = None, new: Surface | None = None) -> str:
    """The report as one HTML document; ``old`` and ``new`` add the signatures."""
    level = report.level
    headline = f"{level.name} bump required" if report.changes else "No public API change: PATCH"
    if report.inferred_major:
        headline += " (MAJOR only if the inferred changes to review are breaks)"
    if report.next_version:
        version = f"suggested version {report.next_version} (from {report.current_version})"
    else:
        version = f"suggested version unknown ({report.version_note or 'no current version'})"
    counts = ", ".join(f"{report.count(item)} {item.name.lower()}" for item in _LEVELS)
    title = f"API surface: {report.old_label} -> {report.new_label}"
    body = [
        f"<h1>{_escaped(title)}</h1>",
        f'<div class="verdict {level}" id="verdict"><strong>{_escaped(headline)}</strong>: '
        f"{_escaped(version)}<br>{_escaped(counts)}, {len(report.accepted)} accepted</div>",
    ]
    if report.blocking_unknowns:
        problems = "".join(
            f"<li>{_escaped(str(unknown))} ({_escaped(unknown.reason)})</li>"
            for unknown in report.blocking_unknowns
        )
        body.append(
            "<p><strong>Not verified</strong>, and could hide a change (no gate passes):</p>"
            f"<ul>{problems}</ul>"
        )
    if report.notes:
        notes = "".join(f"<li>{_escaped(str(unknown.problem))}</li>" for unknown in report.notes)
        body.append(
            "<p><strong>Notes</strong>: not verified, unchanged between the sides "
            f"(no gate counts them):</p><ul>{notes}</ul>"
        )
    filters = "".join(
        f'<label><input type="checkbox" data-filter="{item}" checked> {item.name} '
        f"({sum(1 for change in report.changes if change.level is item)})</label>"
        for item in _LEVELS
    )
    body.append(f'<p class="filters">Show: {filters}</p>')
    surfaces = (new, old)
    for item in _LEVELS:
        changes = [change for change in report.changes if change.level is item]
        if not changes:
            continue
        body.append(f'<section data-level="{item}"><h2>{item.name} ({len(changes)})</h2>')
        modules: dict[str, list[Classified]] = {}
        for change in changes:
            modules.setdefault(_module(change.change.path, surfaces), []).append(change)
        for module in sorted(modules):
            body.append(f"<h3><code>{_escaped(module)}</code></h3>")
            body.append(
                "<table><thead><tr><th>path</th><th>change</th><th>old / new</th>"
                "<th>where</th><th>rule</th></tr></thead><tbody>"
            )
            body.extend(_row(report, change, old, new) for change in modules[module])
            body.append("</tbody></table>")
        body.append("</section>")
    if not report.changes:
        body.append("<p>No differences.</p>")
    if report.stale_accepts:
        stale = "".join(
            f"<li><code>{_escaped(entry)}</code></li>" for entry in report.stale_accepts
        )
        body.append(f"<p>Stale accept entries (they match no change):</p><ul>{stale}</ul>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        f"style-src 'unsafe-inline'; script-src 'sha256-{_SCRIPT_HASH}'\">"
        f"<title>{_escaped(title)}</title><style>{_STYLE}</style></head>\n<body>\n"
        + "\n".join(body)
        + f"\n<script>{_SCRIPT}</script>\n</body></html>\n"
    )
