"""What every printer must guarantee whatever the analysed code holds (docs/security.md,
"Output escaping"): shared by test_output_escaping.py and the fuzz target in test_fuzz.py."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
from markdown_it import MarkdownIt
from markdown_it.token import Token

from apisurface.compare.report import Report
from apisurface.model import Surface
from apisurface.output.ci import (
    render_check_lines,
    render_checklist,
    render_checks_json,
    render_github,
    render_sarif,
)
from apisurface.output.html import render_html
from apisurface.output.text import (
    MARKDOWN_HTML,
    render_json,
    render_markdown,
    render_surface,
    render_text,
)
from apisurface.release.checks import CheckResult

SARIF_SCHEMA = json.loads(
    (Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)
SARIF_VALIDATOR = jsonschema.Draft4Validator(SARIF_SCHEMA)

OWN_HTML = {
    *MARKDOWN_HTML,
    "<details><summary>Witnesses (code that works on OLD and fails on NEW)</summary>",
}
"""The only HTML the pull-request comment may hold: apisurface's own."""

_COMMAND = re.compile(r"^::(error|warning|notice)( [a-z]+=[^,:\r\n]*(,[a-z]+=[^,:\r\n]*)*)?::")


def report_outputs(report: Report) -> dict[str, str]:
    """The report in every format."""
    return {
        "text": render_text(report),
        "text-color": render_text(report, color=True),
        "json": render_json(report),
        "markdown": render_markdown(report),
        "github": render_github(report),
        "sarif": render_sarif(report),
        "html": render_html(report),
    }


def check_outputs(results: list[CheckResult]) -> dict[str, str]:
    """Check results as ``check`` and ``release-check`` print them."""
    return {
        "text": render_check_lines(results),
        "text-table": render_checklist(results, title="Release checklist"),
        "json": render_checks_json(results),
    }


def surface_outputs(surface: Surface) -> dict[str, str]:
    return {"text": render_surface(surface)}


def _without_own_sgr(line: str) -> str:
    """A colour line without the SGR sequences rich writes itself (``ESC [ ... m``)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", line)


def assert_lines_safe(text: str, *, color: bool = False) -> None:
    """No raw control, format or separator character in any line, and no line that
    GitHub's runner would take for a workflow command."""
    for line in text.split("\n"):
        plain = _without_own_sgr(line) if color else line
        assert plain.isprintable(), repr(line)
        assert not plain.lstrip().startswith("::"), repr(line)
        assert "##[" not in plain, repr(line)


def assert_github_safe(text: str) -> None:
    """Each line is one workflow command apisurface wrote, with nothing raw in it."""
    for line in text.rstrip("\n").split("\n"):
        assert line.isprintable(), repr(line)
        assert _COMMAND.match(line), repr(line)


def assert_json_safe(text: str, *, sarif: bool = False) -> Any:
    assert text.isascii()
    assert_lines_safe(text)
    data = json.loads(text)
    if sarif:
        errors = [error.message for error in SARIF_VALIDATOR.iter_errors(data)]
        assert not errors, errors
    return data


def _walk(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from _walk(token.children)


def assert_markdown_safe(text: str) -> None:
    """Nothing from the analysed code is live in the comment: no link, image, HTML other
    than apisurface's own, no ``@`` (a mention) or URL outside code."""
    assert_lines_safe(text)
    tokens = list(_walk(MarkdownIt("commonmark").enable("table").parse(text)))
    kinds = {token.type for token in tokens}
    assert not kinds & {"link_open", "image", "autolink"}, kinds
    html = {token.content.strip() for token in tokens if token.type.startswith("html")}
    assert html <= OWN_HTML, html
    for token in tokens:
        if token.type == "text":
            assert "@" not in token.content, token.content
            assert "://" not in token.content, token.content
            assert "www." not in token.content, token.content


def assert_report_safe(report: Report) -> None:
    outputs = report_outputs(report)
    assert_lines_safe(outputs["text"])
    assert_lines_safe(outputs["text-color"], color=True)
    assert_json_safe(outputs["json"])
    assert_json_safe(outputs["sarif"], sarif=True)
    assert_github_safe(outputs["github"])
    assert_markdown_safe(outputs["markdown"])
    assert_html_safe(outputs["html"])


def assert_html_safe(text: str) -> None:
    """No raw control, format (bidi, zero-width) or separator character anywhere in the
    page, and no tag but apisurface's own: every ``<`` from the input is ``&lt;``."""
    for line in text.split("\n"):
        assert line.isprintable(), repr(line)
    tags = set(re.findall(r"</?([A-Za-z][A-Za-z0-9]*)", text))
    assert tags <= _OWN_TAGS, tags - _OWN_TAGS


_OWN_TAGS = {
    "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "div", "strong",
    "br", "ul", "li", "table", "thead", "tbody", "tr", "th", "td", "code", "pre", "p",
    "input", "label", "script", "section", "wbr", "details", "summary", "colgroup", "col",
}  # fmt: skip


def assert_checks_safe(results: list[CheckResult]) -> None:
    outputs = check_outputs(results)
    assert_lines_safe(outputs["text"])
    assert_lines_safe(outputs["text-table"])
    assert_json_safe(outputs["json"])
