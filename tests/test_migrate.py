"""``apisurface impact`` and ``apisurface migrate`` on the textkit fixture pair
(fixtures/migrate: v1 -> v2 with a renamed class, functions moved to another module and
to a compat module, renamed keywords, a removed function and parameter, a deprecated name
with a replacement) and a small user project that uses all of it."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from markdown_it import MarkdownIt

from apisurface.cli import main
from apisurface.release.impact import analyse_source
from apisurface.release.inputs import load_input
from apisurface.release.migration import (
    Entry,
    MigrationSpec,
    SpecError,
    build_spec,
    dumps_spec,
    loads_spec,
    replacement_named,
)

FIXTURES = Path(__file__).parent.parent / "fixtures" / "migrate"
OLD, NEW, PROJECT = FIXTURES / "v1", FIXTURES / "v2", FIXTURES / "project"
SARIF = json.loads(
    (Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    target = tmp_path / "project"
    shutil.copytree(PROJECT, target)
    return target


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*.py"))
        if "__pycache__" not in path.parts
    }


def _run_project_tests(project: Path, library: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(library / "src"), str(project)])}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def _impact_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main(["impact", *args, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def _where(report: dict[str, object], root: Path) -> list[tuple[str, int, str]]:
    uses = report["uses"]
    assert isinstance(uses, list)
    return [
        (Path(use["file"]).relative_to(root).as_posix(), use["line"], use["rule"]) for use in uses
    ]


@pytest.fixture(scope="module")
def spec() -> MigrationSpec:
    old = load_input(str(OLD)).surface
    new = load_input(str(NEW)).surface
    from apisurface.project.locate import locate  # noqa: PLC0415
    from apisurface.release.migration import deprecation_notes  # noqa: PLC0415

    notes = deprecation_notes(locate(NEW, "textkit").path.parent, new)
    return build_spec(old, new, notes=notes)


# --- the fixture project, end to end ------------------------------------------------------


def test_impact_lists_every_use(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _impact_json(capsys, str(OLD), str(NEW), str(project))
    assert code == 1
    assert _where(report, project) == [
        ("app/render.py", 4, "symbol_renamed"),  # from textkit.core import Formatter as F
        ("app/render.py", 8, "symbol_renamed"),  # class Loud(textkit.Formatter)
        ("app/render.py", 17, "parameter_renamed"),  # F(..., upper=True)
        ("app/render.py", 18, "parameter_renamed"),  # wrap(text, width=20)
        ("app/titles.py", 4, "symbol_deprecated"),  # old_title, replaced by title
        ("app/titles.py", 13, "symbol_removed"),  # textkit.core.slugify
        ("app/words.py", 8, "symbol_renamed"),  # Formatter through the star import
        ("app/words.py", 12, "symbol_moved"),  # tc.shout -> textkit.util.shout
        ("app/words.py", 16, "symbol_moved"),  # legacy_join -> textkit.compat
    ]
    assert report["breaking"] == 8


def test_migrate_write_then_project_tests_pass_on_v2(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _files(project)
    assert _run_project_tests(project, OLD).returncode == 0
    assert _run_project_tests(project, NEW).returncode != 0

    code = main(["migrate", str(OLD), str(NEW), str(project), "--write", "--quiet"])
    out = capsys.readouterr().out
    assert code == 1  # the removed function is left to do by hand
    assert "rewrote 8 uses in 3 files" in out

    after = _files(project)
    for name, data in after.items():
        ast.parse(data, filename=name)  # every file still parses
    changed = {name for name in after if after[name] != before[name]}
    assert changed == {"app/render.py", "app/titles.py", "app/words.py"}
    # Comments and formatting survive the rewrite.
    render = after["app/render.py"].decode()
    assert "from textkit.core import TextFormatter as F, wrap  # the formatter and" in render
    assert "# Keep the base behaviour, then shout." in render
    assert 'F(prefix="> ", uppercase=True)' in render
    assert "wrap(text, max_width=20)" in render
    titles = after["app/titles.py"].decode()
    assert "from textkit.core import title\n" in titles
    assert "return title(text)" in titles

    result = _run_project_tests(project, NEW)
    assert result.returncode == 0, result.stdout + result.stderr

    # What is left: exactly the removed function breaks; the compat module is deprecated.
    code, report = _impact_json(capsys, str(OLD), str(NEW), str(project))
    assert code == 1
    assert _where(report, project) == [
        ("app/titles.py", 13, "symbol_removed"),
        ("app/words.py", 6, "symbol_deprecated"),
        ("app/words.py", 18, "symbol_deprecated"),
    ]
    assert report["breaking"] == 1

    # A second run changes nothing.
    assert main(["migrate", str(OLD), str(NEW), str(project), "--write", "--quiet"]) == 1
    assert "rewrote 0 uses in 0 files" in capsys.readouterr().out
    assert _files(project) == after


def test_migrate_diff_is_the_default_and_changes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _files(project)
    code = main(["migrate", str(OLD), str(NEW), str(project)])
    captured = capsys.readouterr()
    assert code == 1
    assert _files(project) == before
    assert f"--- a/{(project / 'app/words.py').as_posix()}" in captured.out
    assert "-    return tc.shout(text)\n+    return textkit.util.shout(text)\n" in captured.out
    assert "+from textkit.compat import legacy_join\n" in captured.out
    assert "would rewrite 8 uses in 3 files" in captured.err
    # The diff applies with patch(1) and gives what --write writes.
    if shutil.which("patch"):
        subprocess.run(
            ["patch", "-p1", "-s", "-d", "/"],
            input=captured.out.replace("--- a//", "--- a/").replace("+++ b//", "+++ b/"),
            text=True,
            check=True,
        )
        assert _files(project) != before


def test_spec_emitted_once_and_applied_without_old_and_new(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_file = tmp_path / "textkit-2.0.migration.json"
    assert main(["migrate", str(OLD), str(NEW), "--emit-spec", str(spec_file), "-q"]) == 0
    document = json.loads(spec_file.read_text())
    assert document["versions"] == {"producer": 1, "min_consumer": 1, "bad_consumers": []}
    assert document["renames"]["textkit.core.shout"] == "textkit.util.shout"
    assert document["keywords"]["textkit.core.wrap"] == {"width": "max_width"}

    other = tmp_path / "other"
    shutil.copytree(project, other)
    main(["migrate", str(OLD), str(NEW), str(project), "--write", "-q"])
    capsys.readouterr()
    assert main(["migrate", "--spec", str(spec_file), str(other), "--write", "-q"]) == 1
    capsys.readouterr()
    assert _files(other) == _files(project)
    code, report = _impact_json(capsys, "--spec", str(spec_file), str(other))
    assert code == 1
    assert report["breaking"] == 1


# --- bad input ------------------------------------------------------------------------------


def _error(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err.strip()


def test_missing_path_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["impact", str(OLD), str(NEW), str(tmp_path / "nowhere")]) == 2
    err = _error(capsys)
    assert err.count("\n") == 0
    assert "no such file or folder" in err
    assert main(["impact", str(OLD)]) == 2
    assert "needs OLD NEW PATHS" in _error(capsys)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{", "not valid JSON"),
        ("[]", "not a JSON object"),
        ("{}", "no 'versions' header"),
        (
            '{"versions": {"producer": 9, "min_consumer": 9, "bad_consumers": []}}',
            "upgrade apisurface",
        ),
        (
            '{"versions": {"producer": 1, "min_consumer": 1, "bad_consumers": [1]}}',
            "unable to read it",
        ),
        (
            '{"versions": {"producer": 1, "min_consumer": 1}, "kind": "x"}',
            "not an apisurface migration spec",
        ),
        (
            '{"versions": {"producer": 1, "min_consumer": 1}, "kind": "apisurface-migration",'
            ' "package": "../etc"}',
            "not a dotted Python name",
        ),
        (
            '{"versions": {"producer": 1, "min_consumer": 1}, "kind": "apisurface-migration",'
            ' "package": "pkg", "renames": {"pkg.a": "os.system(1)"}}',
            "not a dotted Python name",
        ),
        (
            '{"versions": {"producer": 1, "min_consumer": 1}, "kind": "apisurface-migration",'
            ' "package": "pkg", "entries": [{"path": "pkg.a", "rule": "nope", "level": "major",'
            ' "message": "m"}]}',
            "unknown rule or level",
        ),
        ("[" * 100_000, "nested too deeply"),
    ],
)
def test_bad_spec_is_one_line(
    text: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(text)
    assert main(["impact", "--spec", str(spec_file), str(PROJECT)]) == 2
    err = _error(capsys)
    assert err.count("\n") == 0
    assert expected in err
    with pytest.raises(SpecError):
        loads_spec(text)


def test_syntax_error_is_reported_and_skipped(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = project / "app" / "broken.py"
    broken.write_text("import textkit.core\ndef f(:\n    pass\n")
    code = main(["migrate", str(OLD), str(NEW), str(project), "--write", "-q"])
    captured = capsys.readouterr()
    assert code == 2
    assert "broken.py:2: syntax error" in captured.err
    # The other files were still migrated; the broken one is untouched.
    assert "textkit.util.shout" in (project / "app" / "words.py").read_text()
    assert broken.read_text() == "import textkit.core\ndef f(:\n    pass\n"


# --- uses, one by one ---------------------------------------------------------------------


def _uses(spec: MigrationSpec, code: str) -> list[tuple[int, str, str]]:
    result = analyse_source(code.encode(), "user.py", spec)
    assert result.problem is None
    return [(use.line, use.rule, use.path) for use in result.uses]


def _rewrite(spec: MigrationSpec, code: str) -> str:
    result = analyse_source(code.encode(), "user.py", spec, rewrite=True)
    assert result.problem is None
    return code if result.rewritten is None else result.rewritten.decode()


def test_removed_parameter_by_keyword_and_by_position(spec: MigrationSpec) -> None:
    code = (
        "import textkit.core as tc\n"
        "tc.Formatter.render(f, 'x', True)\n"  # unbound: self is passed explicitly
        "tc.Formatter.render(f, 'x')\n"
        "tc.Formatter.render(f, 'x', strict=True)\n"
        "class Mine(tc.Formatter):\n"
        "    def go(self):\n"
        "        return self.render('x', True)\n"
        "    def again(self):\n"
        "        return super().render('x')\n"
    )
    removed = [use for use in _uses(spec, code) if use[1] == "parameter_removed"]
    assert [line for line, _, _ in removed] == [2, 4, 7]


def test_override_of_a_changed_method(spec: MigrationSpec) -> None:
    code = (
        "from textkit.core import Formatter\n"
        "class Strict(Formatter):\n"
        "    def render(self, text, strict=False):\n"
        "        return text\n"
        "class Lax(Formatter):\n"
        "    def render(self, text):\n"
        "        return text\n"
    )
    assert (3, "parameter_removed", "textkit.core.Formatter.render") in _uses(spec, code)
    assert not [use for use in _uses(spec, code) if use[0] == 6]


def test_ambiguous_name_is_reported_not_rewritten(spec: MigrationSpec) -> None:
    code = "from textkit.core import shout\nshout = shout\nprint(shout('x'))\n"
    uses = _uses(spec, code)
    assert (3, "symbol_moved", "textkit.core.shout") in uses
    assert _rewrite(spec, code) == code


def test_from_import_of_a_moved_function_is_split(spec: MigrationSpec) -> None:
    code = "from textkit.core import shout, wrap  # keep\n\nshout(wrap('a b', 1))\n"
    assert _rewrite(spec, code) == (
        "from textkit.core import wrap  # keep\nfrom textkit.util import shout\n\n"
        "shout(wrap('a b', 1))\n"
    )


def test_keyword_already_passed_is_not_rewritten(spec: MigrationSpec) -> None:
    code = "from textkit import wrap\nwrap('x', width=1, max_width=2)\n"
    assert _rewrite(spec, code) == code
    assert _uses(spec, code) == [(2, "parameter_renamed", "textkit.wrap")]


def test_files_not_using_the_package_are_not_parsed_twice(spec: MigrationSpec) -> None:
    code = "import os\nFormatter = 1\nprint(Formatter)\n"
    assert _uses(spec, code) == []
    assert _rewrite(spec, code) == code


def test_replacement_named_by_deprecation_messages(spec: MigrationSpec) -> None:
    new = load_input(str(NEW)).surface
    path = "textkit.core.old_title"
    assert replacement_named("deprecated, use `title` instead", path, new) == "textkit.core.title"
    assert replacement_named("Use :func:`textkit.core.title`.", path, new) == "textkit.core.title"
    assert replacement_named("use textkit.title instead", path, new) == "textkit.title"
    # A name that is not on the new surface, or of another kind, is no replacement.
    assert replacement_named("use `nothing_here` instead", path, new) is None
    assert replacement_named("use `textkit.util` instead", path, new) is None  # a module
    # Two different names: ambiguous.
    assert replacement_named("use `title` or `wrap`", path, new) is None


def test_spec_round_trips(spec: MigrationSpec) -> None:
    assert loads_spec(dumps_spec(spec)) == spec


# --- formats and escaping -------------------------------------------------------------------


def test_formats_escape_what_comes_from_the_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "odd | <b>name\x1b[31m"
    folder.mkdir()
    (folder / "use.py").write_text("import textkit.core\ntextkit.core.slugify('x')\n")
    args = [str(OLD), str(NEW), str(folder)]

    assert main(["impact", *args]) == 1
    text = capsys.readouterr().out
    assert "\x1b" not in text
    assert "\\x1b[31m" in text

    assert main(["impact", *args, "--format", "markdown"]) == 1
    markdown = capsys.readouterr().out
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    assert "<b>" not in html  # the folder name is shown as code, never as HTML
    assert "&lt;b&gt;name" in html

    assert main(["impact", *args, "--format", "github"]) == 1
    github = capsys.readouterr().out
    error_lines = [line for line in github.splitlines() if line.startswith("::error ")]
    assert len(error_lines) == 1
    assert ",line=2,col=1," in error_lines[0]

    assert main(["impact", *args, "--format", "sarif"]) == 1
    log = json.loads(capsys.readouterr().out)
    jsonschema.Draft4Validator(SARIF).validate(log)
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 2, "startColumn": 1}


def test_nothing_breaks_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "use.py").write_text("from textkit import wrap\nwrap('x', 3)\n")
    assert main(["impact", str(OLD), str(NEW), str(tmp_path)]) == 0
    assert "no use of textkit that the change from" in capsys.readouterr().out


def test_a_named_replacement_that_may_return_something_else_is_not_taken() -> None:
    from apisurface.model import Signature, Surface, Symbol, SymbolKind  # noqa: PLC0415

    def function(path: str, returns: str | None, deprecated: str | None = None) -> Symbol:
        return Symbol(
            path, SymbolKind.FUNCTION, signature=Signature((), returns), deprecated=deprecated
        )

    message = "use `pkg.new` instead"
    for old_returns, new_returns, expected in [
        ("int", "int", "pkg.new"),
        (None, "int", None),  # semver.parse: unannotated, returned a dict
        ("int", "str", None),
    ]:
        surface = Surface(
            "pkg",
            {
                "pkg.old": function("pkg.old", old_returns, message),
                "pkg.new": function("pkg.new", new_returns),
            },
        )
        assert replacement_named(message, "pkg.old", surface) == expected


def _spec(**entries: list[Entry]) -> MigrationSpec:
    """A hand-written spec for package ``pkg`` (keys use ``__`` for dots)."""
    flat = [entry for group in entries.values() for entry in group]
    renames = {e.path: e.replacement for e in flat if e.rule == "symbol_renamed" and e.replacement}
    return MigrationSpec(
        package="pkg",
        renames=renames,
        entries=tuple(sorted(flat)),
        callables={e.path: "function" for e in flat if e.parameter is not None},
        modules=("pkg", "pkg.old", "pkg.new"),
    )


def test_a_renamed_module_is_rewritten_in_import_statements() -> None:
    spec = _spec(
        mod=[Entry("pkg.old", "symbol_renamed", "major", "renamed", None, None, "pkg.new")]
    )
    code = (
        "import pkg.old as o\n"
        "import pkg.old\n"
        "import pkg.old.sub  # a submodule\n"
        "o.f()\n"
        "pkg.old.f()\n"
    )
    assert _rewrite(spec, code) == (
        "import pkg.new as o\n"
        "import pkg.new\n"
        "import pkg.new.sub  # a submodule\n"
        "o.f()\n"
        "pkg.new.f()\n"
    )
    assert _rewrite(spec, _rewrite(spec, code)) == _rewrite(spec, code)


def test_positional_arguments_after_an_inserted_or_moved_parameter() -> None:
    spec = _spec(
        f=[
            Entry("pkg.f", "parameter_inserted", "major", "inserted", "x", 1),
            Entry("pkg.g", "parameter_moved", "major", "moved", "b", 1),
            Entry("pkg.h", "parameter_added_required", "major", "required", "c", 2),
            Entry("pkg.k", "parameter_default_changed", "major", "default", "d", 0),
        ]
    )
    code = (
        "from pkg import f, g, h, k\n"
        "f(1)\n"  # 2: before the insertion: fine
        "f(1, 2)\n"  # 3: shifted
        "g(1, 2)\n"  # 4: moved
        "g(1, b=2)\n"  # 5: by keyword: fine
        "h(1, 2)\n"  # 6: missing c
        "h(1, 2, 3)\n"  # 7: fine
        "h(*args)\n"  # 8: cannot tell: not reported as missing
        "k()\n"  # 9: relies on the changed default
        "k(d=1)\n"  # 10: fine
    )
    assert [(line, rule) for line, rule, _ in _uses(spec, code)] == [
        (3, "parameter_inserted"),
        (4, "parameter_moved"),
        (6, "parameter_added_required"),
        (9, "parameter_default_changed"),
    ]


@pytest.mark.parametrize(
    "code",
    [
        "import textkit.core\nx = " + "(" * 3000 + "1" + ")" * 3000 + "\n",
        "import textkit.core\nx = textkit" + ".a" * 20000 + "\n",
        "import textkit.core\nx = 1\n\x00\n",
    ],
)
def test_hostile_user_files_are_problems_not_crashes(spec: MigrationSpec, code: str) -> None:
    result = analyse_source(code.encode(), "user.py", spec, rewrite=True)
    assert result.problem is not None
    assert result.problem.startswith("user.py")
    assert "\n" not in result.problem
    assert result.rewritten is None


def test_a_subclass_inheriting_the_constructor_is_called_like_its_base(
    spec: MigrationSpec,
) -> None:
    code = (
        "import textkit\n"
        "class Loud(textkit.Formatter):\n"
        "    pass\n"
        "class Own(textkit.Formatter):\n"
        "    def __init__(self, upper):\n"
        "        super().__init__(upper=upper)\n"
        "Loud(upper=True)\n"
        "Own(upper=True)\n"
    )
    assert _rewrite(spec, code) == code.replace("Formatter", "TextFormatter").replace(
        "Loud(upper=True)", "Loud(uppercase=True)"
    ).replace("super().__init__(upper=upper)", "super().__init__(uppercase=upper)")


def test_a_parenthesised_import_keeps_its_layout(spec: MigrationSpec) -> None:
    code = "from textkit.core import (\n    shout,\n    wrap,  # wrapping\n)\n\nshout(wrap('a'))\n"
    assert _rewrite(spec, code) == (
        "from textkit.core import (\n    wrap,  # wrapping\n)\nfrom textkit.util import shout\n"
        "\nshout(wrap('a'))\n"
    )


def test_spec_and_emit_spec_together_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_file = tmp_path / "spec.json"
    assert main(["migrate", str(OLD), str(NEW), "--emit-spec", str(spec_file), "-q"]) == 0
    code = main(["migrate", "--spec", str(spec_file), "--emit-spec", str(tmp_path / "x.json")])
    assert code == 2
    assert "--emit-spec needs OLD and NEW" in _error(capsys)
    report = tmp_path / "impact.json"
    code = main(
        ["impact", "--spec", str(spec_file), str(PROJECT), "-o", str(report), "--format", "json"]
    )
    assert code == 1
    assert json.loads(report.read_text())["breaking"] == 8


# --- guessed successors: listed for the user, never written ------------------------------

GUESS_OLD = '''"""Pkg."""


def connect(addr, port):
    """Open a connection."""


def wrap(text, width=10):
    """Wrap text."""
'''
GUESS_NEW = '''"""Pkg."""


def connect(host, port):
    """Open a connection."""


def wrap(text, max_width=10):
    """Wrap text."""
'''


def test_a_guessed_rename_is_listed_for_the_user_and_never_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # ``width`` -> ``max_width`` keeps position and default: a rename, rewritten.
    # ``addr`` -> ``host`` keeps only the position (both required, unannotated): the
    # successor is a guess, so ``addr=`` stays and the user is told what to check.
    for side, text in (("old", GUESS_OLD), ("new", GUESS_NEW)):
        (tmp_path / side / "pkg").mkdir(parents=True)
        (tmp_path / side / "pkg" / "__init__.py").write_text(text, encoding="utf-8")
    user = tmp_path / "user"
    user.mkdir()
    code = "import pkg\npkg.connect(addr='h', port=1)\npkg.wrap('t', width=4)\n"
    (user / "app.py").write_text(code, encoding="utf-8")
    old, new = (load_input(str(tmp_path / side)).surface for side in ("old", "new"))
    spec = build_spec(old, new)
    assert spec.keywords == {"pkg.wrap": {"width": "max_width"}}
    guessed = [entry for entry in spec.entries if entry.path == "pkg.connect"]
    assert [(e.rule, e.parameter, e.replacement) for e in guessed] == [
        ("parameter_removed", "addr", "host"),
    ]
    status = main(["migrate", str(tmp_path / "old"), str(tmp_path / "new"), str(user), "--write"])
    out = capsys.readouterr().out
    assert status == 1  # something is left to do by hand
    assert (user / "app.py").read_text(encoding="utf-8") == (
        "import pkg\npkg.connect(addr='h', port=1)\npkg.wrap('t', max_width=4)\n"
    )
    assert "rewrote 1 use in 1 file" in out
    assert "host may replace it (a guess, not rewritten)" in out


def test_a_guessed_symbol_successor_is_named_and_never_rewritten(tmp_path: Path) -> None:
    # Two different new functions alike to the removed one: the one beside it is a guess.
    doc = '    """Read a resource."""\n'
    trees = {
        "old": {"io.py": f'"""Files."""\ndef read_text(path):\n{doc}', "net.py": '"""Net."""\n'},
        "new": {
            "io.py": f'"""Files."""\ndef read(path):\n{doc}',
            "net.py": f'"""Net."""\ndef read(path):\n{doc}',
        },
    }
    for side, files in trees.items():
        (tmp_path / side / "pkg").mkdir(parents=True)
        (tmp_path / side / "pkg" / "__init__.py").write_text('"""Pkg."""\n', encoding="utf-8")
        for name, text in files.items():
            (tmp_path / side / "pkg" / name).write_text(text, encoding="utf-8")
    old, new = (load_input(str(tmp_path / side)).surface for side in ("old", "new"))
    spec = build_spec(old, new)
    assert spec.renames == {}
    code = "from pkg.io import read_text\nread_text('a')\n"
    result = analyse_source(code.encode(), "user.py", spec, rewrite=True)
    assert result.rewritten is None
    actions = {use.action for use in result.uses}
    assert any("pkg.io.read may replace it (a guess, not rewritten)" in a for a in actions)
