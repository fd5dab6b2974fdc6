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
h1 { font-size: 1.5rem; margin-bottom: .2rem; overflow-wrap: break-word; }
h3 { margin: 1.2rem 0 .4rem; }
.verdict { font-size: 1.25rem; padding: .8rem 1rem; border-radius: 6px; margin: 1rem 0; }
.verdict.major { background: #ffebe9; } .verdict.minor { background: #fff8c5; }
.verdict.patch { background: #dafbe1; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
/* A path breaks after a dot, slash or parenthesis (<wbr>), a signature at its spaces;
   inside a name only when one name is wider than its column. */
code { overflow-wrap: break-word; }
pre { margin: .1rem 0; white-space: pre-wrap; overflow-wrap: break-word; }
table { border-collapse: collapse; width: 100%; margin-bottom: 1rem; table-layout: fixed; }
col.symbol { width: 34%; } col.change { width: 38%; } col.where { width: 28%; }
th, td { text-align: left; vertical-align: top; padding: .3rem .5rem; }
/* Nothing from the analysed code runs off the page: a value without spaces (a default of
   300 digits) breaks where it must, in every cell and line. */
td, th, td *, .verdict, h1, li { overflow-wrap: break-word; }
th { background: #f6f8fa; border-bottom: 1px solid #d0d7de; }
tr.head td { border-top: 1px solid #d0d7de; padding-bottom: .1rem; }
tr.head:first-child td { border-top: none; }
tr.signature td { padding-top: 0; padding-left: 1.5rem; }
.where code { color: #57606a; } .rule { display: block; }
.also { color: #57606a; font-size: .85rem; }
.evidence { color: #57606a; font-size: .8rem; }
details.witness summary { color: #57606a; font-size: .8rem; cursor: pointer; }
.old { color: #82071e; } .new { color: #116329; }
.filters label { margin-right: 1rem; }
.accepted { color: #57606a; font-style: italic; }
details.notes { margin: 1rem 0; } details.notes li code { margin-right: .3rem; }
[hidden] { display: none !important; }
@media print {
  body { margin: 0; max-width: none; font-size: 11px; }
  code, pre { font-size: 10px; }
  .filters { display: none; }
  details.witness { display: none; }
  tr[data-level="minor"] .evidence, tr[data-level="patch"] .evidence { display: none; }
  .verdict { border: 1px solid #d0d7de; }
  h2, h3 { break-after: avoid; }
  tbody.change { break-inside: avoid; }
  @page { margin: 1.2cm; }
}
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
    if kind is SymbolKind.EXTERNAL:
        return f"{name} (from {symbol.target})"
    return f"{kind.value} {name}"


def _breakable(text: str, after: str = ".(") -> str:
    """``text`` escaped, with a line-break opportunity (``<wbr>``) after each character
    of ``after`` (a dotted path's dots and parenthesis; a file's slashes): a long path
    wraps between its names, not inside one."""
    escaped = _escaped(text)
    for char in after:
        escaped = escaped.replace(char, char + "<wbr>")
    return escaped


def _short(path: str, module: str) -> str:
    """``path`` relative to ``module`` (the heading above the table names the module)."""
    return path[len(module) + 1 :] if path.startswith(module + ".") else path


def _row(report: Report, item: Classified, old: Surface | None, new: Surface | None) -> str:
    """One change: its symbol, message, file:line and rule on a line, then its old and
    new signature across the whole width of the table below it."""
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
    accepted += f'<div class="evidence">{_escaped(evidence.grade.value)}: {_escaped(evidence.why)}'
    if not item.counted:
        accepted += " (to review: not counted)"
    accepted += "</div>"
    if evidence.witness and item.level is Level.MAJOR:
        accepted += (
            '<details class="witness"><summary>witness (works on OLD, fails on NEW)</summary>'
            f"<pre>{_escaped(evidence.witness)}</pre></details>"
        )
    others = report.other_paths(item)
    also = (
        '<div class="also">also at '
        + ", ".join(f"<code>{_breakable(other)}</code>" for other in others)
        + "</div>"
        if others
        else ""
    )
    level = item.level
    signature = (
        f'<tr class="signature" data-level="{level}"><td colspan="3">{"".join(values)}</td></tr>'
        if any(values)
        else ""
    )
    return (
        f'<tbody class="change"><tr class="head" data-level="{level}">'
        f"<td><code>{_breakable(_short(item.change.path, report.module(item)))}</code>{also}</td>"
        f"<td>{_escaped(item.message)}{accepted}</td>"
        f'<td class="where"><code>{_breakable(where, "/")}</code>'
        f'<code class="rule">{_escaped(item.change.kind.value)}</code></td></tr>'
        f"{signature}</tbody>"
    )


def _count(report: Report, level: Level) -> str:
    """A section's count as the verdict counts: the changes that count, and then those
    accepted (``7, and 1 accepted``)."""
    accepted = sum(1 for item in report.accepted if item.level is level)
    counted = report.count(level)
    return f"{counted}, and {accepted} accepted" if accepted else str(counted)


def _notes(report: Report) -> str:
    """The notes (docstring wording, documentation not judged) collapsed, by module."""
    groups: dict[tuple[str, str], list[str]] = {}
    for item in report.notes:
        module = report.module(item)
        groups.setdefault((item.message, module), []).append(_short(item.change.path, module))
    lines = "".join(
        f"<li>{_escaped(message)} in <code>{_escaped(module)}</code>: "
        + " ".join(f"<code>{_escaped(name)}</code>" for name in names)
        + "</li>"
        for (message, module), names in sorted(groups.items())
    )
    count = len(report.notes)
    return (
        f'<details class="notes"><summary>{count} note{"" if count == 1 else "s"}: '
        f"no public API change (docstrings, documentation)</summary><ul>{lines}</ul></details>"
    )


def render_html(report: Report, old: Surface | None = None, new: Surface | None = None) -> str:
    """The report as one HTML document; ``old`` and ``new`` add the signatures."""
    level = report.level
    headline = f"{level.name} bump required" if report.changed else "No public API change: PATCH"
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
    if report.unknown_notes:
        notes = "".join(
            f"<li>{_escaped(str(unknown.problem))}</li>" for unknown in report.unknown_notes
        )
        body.append(
            "<p><strong>Notes</strong>: not verified, unchanged between the sides "
            f"(no gate counts them):</p><ul>{notes}</ul>"
        )
    filters = "".join(
        f'<label><input type="checkbox" data-filter="{item}" checked> {item.name} '
        f"({_count(report, item)})</label>"
        for item in _LEVELS
    )
    body.append(f'<p class="filters">Show: {filters}</p>')
    for item in _LEVELS:
        changes = [
            change for change in report.changes if change.level is item and not change.is_note
        ]
        if not changes:
            continue
        body.append(f'<section data-level="{item}"><h2>{item.name} ({_count(report, item)})</h2>')
        modules: dict[str, list[Classified]] = {}
        for change in changes:
            modules.setdefault(report.module(change), []).append(change)
        for module in sorted(modules):
            body.append(f"<h3><code>{_escaped(module)}</code></h3>")
            body.append(
                '<table><colgroup><col class="symbol"><col class="change"><col class="where">'
                "</colgroup><thead><tr><th>symbol</th><th>change</th><th>where, rule</th></tr>"
                "</thead>"
            )
            body.extend(_row(report, change, old, new) for change in modules[module])
            body.append("</table>")
        body.append("</section>")
    if report.notes:
        body.append(_notes(report))
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
