"""Escaping of untrusted text for each output format (docs/security.md, "Output escaping").

Every string that comes from analysed code, a snapshot or a configuration (paths,
defaults, annotations, deprecation messages, accept reasons, file names) goes through one
of these before a renderer puts it in its output. Renderers return strings; nothing here
prints.
"""

from __future__ import annotations

import re

__all__ = ["code_span", "json_safe", "markdown_words", "markup_escaped", "visible"]

_COMMANDS = re.compile(r"::|##\[")
"""What GitHub's runner reads as a workflow command in a log line: ``::name::`` at the
start of a line, and the older ``##[name]`` form anywhere in it."""


def _escape_char(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible(text: str, *, newlines: bool = False, commands: bool = True) -> str:
    """``text`` with every character Python does not call printable shown as an escape.

    Control characters (C0, DEL, C1: ESC, CSI, OSC's introducers, NEL), format characters
    (bidi overrides and isolates, zero-width ones), line/paragraph separators, lone
    surrogates and spaces other than U+0020 become ``\\xNN``/``\\uNNNN``, so a string never
    starts a line, moves a terminal's cursor or reorders what a reader sees. With
    ``newlines``, CR and LF are kept (for a format that encodes them itself). With
    ``commands``, ``::`` and ``##[`` are broken up (``:\\x3a``, ``##\\x5b``) so that no
    line can be taken for a GitHub workflow command.
    """
    if text.isprintable() and (not commands or _COMMANDS.search(text) is None):
        return text
    out = "".join(
        char if char.isprintable() or (newlines and char in "\r\n") else _escape_char(char)
        for char in text
    )
    if commands:
        out = _COMMANDS.sub(lambda match: match[0][:-1] + _escape_char(match[0][-1]), out)
    return out


def json_safe(text: str) -> str:
    """JSON text (from ``json.dumps`` with ``ensure_ascii``) with ``::`` and ``##[`` written
    as ``:\\u003a`` and ``##\\u005b``: the same values once parsed, but no line of the file
    can be taken for a GitHub workflow command when it is printed in a log. Outside string
    values JSON text never holds either sequence, so the replacement only touches strings."""
    return _COMMANDS.sub(
        lambda match: match[0][:-1] + f"\\u{ord(match[0][-1]):04x}",
        text,
    )


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<|~&])")


def markdown_words(text: str) -> str:
    """apisurface's own words (a rule's message around its values) for Markdown: the
    characters Markdown or HTML would act on are backslash-escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", visible(text))


def code_span(text: str, *, table: bool = False) -> str:
    """``text`` as one Markdown code span, whatever it holds: escaped with :func:`visible`
    (so it is one line), fenced with more backticks than its longest backtick run, padded
    when it starts or ends with a backtick or a space. In a table cell ``|`` is written
    ``\\|`` (GFM reads that as a pipe inside the cell, also in code spans); a backslash
    before it is shown as ``\\x5c`` so that it cannot undo the escape."""
    body = visible(text)
    if table and "|" in body:
        body = body.replace("\\", "\\x5c").replace("|", "\\|")
    if not body:
        return "` `"
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * (longest + 1)
    pad = ""
    if body[0] == "`" or body[-1] == "`" or (body[0] == " " and body[-1] == " "):
        pad = " "
    return f"{fence}{pad}{body}{pad}{fence}"


def markup_escaped(text: str) -> str:
    """``text`` as literal text in rich console markup (``[`` escaped). rich is imported
    on first use, so that the formats that draw no console (JSON, Markdown, SARIF, GitHub,
    HTML) never load it."""
    from rich.markup import escape  # noqa: PLC0415 - start-up time

    return escape(text)
