"""Printers on hostile input (docs/security.md, "Output escaping"): a pull request controls
the analysed code, its [tool.apisurface] table, snapshot files and file names, and so every
string apisurface prints from them. None may start a line, run a GitHub workflow command,
drive the terminal, or put a live link, image, mention or HTML into the PR comment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from printers import (
    assert_checks_safe,
    assert_github_safe,
    assert_lines_safe,
    assert_markdown_safe,
    assert_report_safe,
    surface_outputs,
)

from apisurface.changes import ChangeKind
from apisurface.cli import main
from apisurface.compare.report import Report, build_report
from apisurface.model import (
    Location,
    Parameter,
    ParamKind,
    Problem,
    Signature,
    Surface,
    Symbol,
    SymbolKind,
)
from apisurface.output.ci import render_github
from apisurface.output.html import render_html
from apisurface.output.printable import code_span, visible
from apisurface.output.text import render_json, render_markdown, render_text
from apisurface.project.config import Accept, Config
from apisurface.release.checks import CheckResult
from apisurface.store.snapshot import dumps

HOSTILE = [
    "x\n::add-mask::secret\n::error::pwned",
    "y\r\n::stop-commands::token",
    "::error file=a.py::injected",
    "##[add-mask]secret",
    "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07",
    "\x1b[2J\x1b[31mred",
    "\x9b31m csi \x85 nel",
    "abc\u202edcba\u2066iso\u2069",
    "zero\u200bwidth\u2028line",
    "lone \udc80 surrogate",
    "![pixel](https://evil.example/p.png)",
    "[click](https://evil.example)",
    '<img src="https://evil.example/p.png">',
    "<script>alert(1)</script>",
    "cc @someone please",
    "www.evil.example and https://evil.example",
    "``` fence ` and ``double``",
    "`",
    "pipe | in | cell",
    "back\\|slash",
    "",
    "  ",
]


def _typed(value: str, version: str) -> str:
    """An annotation holding ``value``. Annotations are parsed as Python by the diff, which
    cannot take a lone surrogate (a separate robustness issue), so those are replaced."""
    return f"{value}-{version}".encode("utf-8", "replace").decode("utf-8")


def _surface(values: list[str], *, new: bool) -> Surface:
    symbols: dict[str, Symbol] = {
        "pkg": Symbol("pkg", SymbolKind.MODULE, location=Location("pkg/__init__.py", 0))
    }
    for number, value in enumerate(values):
        version = "new" if new else "old"
        params = (
            Parameter("a", ParamKind.POSITIONAL_OR_KEYWORD, default=repr(f"{value}{version}")),
            Parameter("b", ParamKind.KEYWORD_ONLY, annotation=_typed(value, version), default="1"),
        )
        path = f"pkg.f{number}"
        symbols[path] = Symbol(
            path,
            SymbolKind.FUNCTION,
            target=path,
            signature=Signature(params, returns=_typed(value, "r")),
            deprecated=value if new else None,
            docstring_hash=version,
            location=Location(f"pkg/{value}.py", number + 1),
        )
        # A symbol whose path itself is hostile: removed in NEW, added under another name.
        odd = f"pkg.{value}{'new' if new else 'old'}"
        symbols[odd] = Symbol(odd, SymbolKind.CLASS, target=odd, location=Location(value, 2))
        alias = f"pkg.sub.{value}{'new' if new else 'old'}"
        symbols[alias] = Symbol(alias, SymbolKind.CLASS, target=odd, location=Location(value, 2))
    return Surface(
        "pkg",
        symbols,
        version="1.0.0",
        problems=tuple(
            Problem(f"pkg/{value}.py", f"cannot parse {value}", path=f"pkg.{value}")
            for value in values
        ),
    )


def _config(values: list[str]) -> Config:
    accept = [Accept("pkg.f0", ChangeKind.PARAMETER_DEFAULT_CHANGED, "\n".join(values))]
    accept += [Accept(f"pkg.{value}", ChangeKind.SYMBOL_REMOVED, value) for value in values]
    return Config(accept=tuple(accept))


@pytest.fixture(scope="module")
def report() -> Report:
    return build_report(
        _surface(HOSTILE, new=False),
        _surface(HOSTILE, new=True),
        old_label="\n::error::label",
        new_label="<img src=x>",
        current_version="1.0.0\x1b[2J",
        config=_config(HOSTILE),
    )


def test_every_report_format_is_safe(report: Report) -> None:
    assert report.changes
    assert report.stale_accepts
    assert_report_safe(report)


def test_text_shows_control_characters_visibly(report: Report) -> None:
    text = render_text(report)
    assert "x\\x0a:\\x3aadd-mask:\\x3asecret" in text
    assert "\\x1b]8;;https" in text
    assert "abc\\u202edcba" in text
    assert "lone \\udc80 surrogate" in text
    assert "##\\x5badd-mask]secret" in text


def test_html_shows_bidi_and_format_characters_as_the_text_does(report: Report) -> None:
    page = render_html(report)
    assert "abc\\u202edcba\\u2066iso\\u2069" in page
    assert "zero\\u200bwidth\\u2028line" in page
    assert "\\x1b]8;;https://evil.example\\x07" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_github_encodes_newlines_and_shows_terminal_controls(report: Report) -> None:
    out = render_github(report)
    assert_github_safe(out)
    assert "x%0A::add-mask::secret%0A::error::pwned" in out
    assert "\x1b" not in out and "\\x1b[2J" in out


def test_pr_comment_has_nothing_live_from_the_code(report: Report) -> None:
    body = render_markdown(report)
    assert_markdown_safe(body)
    # The hostile values are there, shown as code.
    codes = [
        token.content
        for block in MarkdownIt("commonmark").enable("table").parse(body)
        for token in block.children or []
        if token.type == "code_inline"
    ]
    assert any("@someone" in code for code in codes)
    assert any("![pixel](https://evil.example/p.png)" in code for code in codes)
    assert any('<img src="https://evil.example/p.png">' in code for code in codes)
    # Each table row keeps its cells: the pipes from the code stay inside them.
    html = MarkdownIt("commonmark").enable("table").render(body)
    for row in html.split("<tr>")[1:]:
        cells = row.split("</tr>")[0].count("<td") + row.split("</tr>")[0].count("<th")
        assert cells in (3, 4), row  # symbol, change · rule, where (, why or reason)


def test_check_results_are_safe() -> None:
    results = [
        CheckResult(
            "version bump sufficient",
            False,
            f"needs MAJOR: {value}",
            (value, f"  {value}"),
            advice=value,
        )
        for value in HOSTILE
    ]
    assert_checks_safe(results)


def test_show_is_safe() -> None:
    surface = _surface(HOSTILE, new=True)
    surface.symbols["pkg.o"] = Symbol(
        "pkg.o",
        SymbolKind.FUNCTION,
        signature=Signature(),
        overloads=tuple(Signature(returns=value or None) for value in HOSTILE),
    )
    assert_lines_safe(surface_outputs(surface)["text"])


def test_code_span_fences_and_pads() -> None:
    assert code_span("a`b") == "``a`b``"
    assert code_span("`") == "`` ` ``"
    assert code_span("``x") == "``` ``x ```"
    assert code_span("") == "` `"
    assert code_span("a|b", table=True) == "`a\\|b`"
    assert code_span("a\\|b", table=True) == "`a\\x5c\\|b`"
    assert visible("ok: a.b(c)") == "ok: a.b(c)"
    assert visible("a::b##[c") == "a:\\x3ab##\\x5bc"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_check_with_a_hostile_snapshot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A snapshot in the pull request holds a symbol path with workflow commands in it;
    ``check`` and ``release-check`` print its stale paths."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text('"""Pkg."""\n', encoding="utf-8")
    hostile = Surface(
        "pkg",
        {
            "pkg": Symbol("pkg", SymbolKind.MODULE),
            "pkg.x\n::add-mask::secret\n::error::pwned": Symbol(
                "pkg.x\n::add-mask::secret\n::error::pwned", SymbolKind.FUNCTION
            ),
            "pkg.\x1b]8;;https://evil\x07y": Symbol(
                "pkg.\x1b]8;;https://evil\x07y", SymbolKind.CLASS
            ),
        },
    )
    snapshot = tmp_path / "snap.json"
    snapshot.write_text(dumps(hostile), encoding="utf-8")
    for command in ("check", "release-check"):
        argv = [command, str(tmp_path), "--snapshot", str(snapshot), "--no-cache", "--no-color"]
        if command == "check":
            argv.append("--no-version")
        code, out, err = _run(capsys, *argv)
        assert code in (1, 2), (out, err)
        assert_lines_safe(out)
        assert_lines_safe(err)
        assert "pwned" in out + err


def test_errors_name_hostile_paths_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "diff", "nowhere\n::error::pwned\x1b[2J", "also-nowhere")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert_lines_safe(err)
    assert ":\\x3aerror:\\x3apwned\\x1b[2J" in err


def test_json_is_lossless(report: Report) -> None:
    data = json.loads(render_json(report))
    paths = {change["path"] for change in data["changes"]}
    assert "pkg.x\n::add-mask::secret\n::error::pwnedold" in paths
