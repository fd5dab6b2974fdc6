"""What a new user trips over: the gate on private code, bad input, the policy, colour,
CLI habits, shorter commands, the changelog row, a published release as baseline."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run
from gitrepo import Repo, pyproject

from apisurface.cli import main

CORE = '''
"""Core."""


class Client:
    """A client."""

    def get(self, url: str) -> bytes:
        """Get a URL."""
        return b""


def fetch(url: str) -> bytes:
    """Fetch a URL."""
    return b""


def helper(x):
    return x
'''

INIT = '''
"""A small package."""

from pkg.core import Client, fetch

__all__ = ["Client", "fetch"]
'''


def project(tmp_path: Path, version: str = "1.0.0") -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.write(
        {"pyproject.toml": pyproject(version), "src/pkg/__init__.py": INIT, "src/pkg/core.py": CORE}
    )
    return repo.commit("release", tag=f"v{version}")


# --- 1. the gate does not fire on private code ------------------------------------------


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(CORE + "\n\ndef _helper():\n    return 1\n", id="private-helper-added"),
        pytest.param(CORE.replace("def helper(", "def other_helper("), id="undocumented-renamed"),
        pytest.param(CORE + "\n\nclass _Cache:\n    def put(self): ...\n", id="private-class"),
    ],
)
def test_check_ignores_changes_outside_the_public_surface(
    edit: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = project(tmp_path)
    monkeypatch.chdir(repo.root)
    assert run(capsys, "snapshot", "-q")[0] == 0
    repo.write({"src/pkg/core.py": edit})
    code, out, _ = run(capsys, "check", "--no-version")
    assert code == 0, out
    assert "PASS snapshot current" in out


def test_stale_metadata_names_what_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path)
    monkeypatch.chdir(repo.root)
    assert run(capsys, "snapshot", "-q")[0] == 0
    repo.write({"pyproject.toml": pyproject("1.1.0")})
    code, out, _ = run(capsys, "check", "--no-version")
    assert code == 1
    assert "version: 1.0.0 -> 1.1.0" in out
    assert "formatting" not in out
    assert "stale: its version differs from the source" in out


def test_snapshot_if_stale_keeps_a_current_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The update hook (`snapshot --if-stale`) leaves the file alone when only private
    code changed, so it does not stop the commit."""
    repo = project(tmp_path)
    monkeypatch.chdir(repo.root)
    assert run(capsys, "snapshot", "-q")[0] == 0
    target = repo.root / "api_snapshots" / "pkg.json"
    before = target.read_bytes()
    repo.write({"src/pkg/core.py": CORE + "\n\ndef _helper():\n    return 1\n"})
    code, _, err = run(capsys, "snapshot", "--if-stale")
    assert code == 0
    assert target.read_bytes() == before
    assert "unchanged" in err
    repo.write({"src/pkg/core.py": CORE + '\n\ndef post():\n    """Post."""\n'})
    assert run(capsys, "snapshot", "--if-stale", "-q")[0] == 0
    assert target.read_bytes() != before


# --- 2. bad input is exit 2, with what to pass instead ------------------------------------


def layout(tmp_path: Path) -> Path:
    """A project with a package holding two subpackages, and a folder with one script."""
    root = tmp_path / "proj"
    files = {
        "pyproject.toml": pyproject("1.0.0"),
        "src/pkg/__init__.py": '"""P."""\n',
        "src/pkg/core/__init__.py": '"""C."""\n\n\ndef f():\n    """F."""\n',
        "src/pkg/decorators/__init__.py": '"""D."""\n',
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "run.py").write_text("print(1)\n", encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["diff", "{root}", "{root}", "--current-version", "banana"],
            "--current-version 'banana' is neither PEP 440 nor semver",
        ),
        (["show", "{root}/pyproject.toml"], "is a file; pass its folder"),
        (["show", "{root}/src/pkg"], "is the package 'pkg' itself; pass the folder holding it"),
        (["show", "{root}/src/pkg/core"], "is the package 'pkg.core' itself"),
        (["show", "{root}/src/pkg/__init__.py"], "pass the folder holding the package"),
        (["show", "{tmp}/scripts"], "holds only the script run.py"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = layout(tmp_path)
    argv = [item.format(root=root, tmp=tmp_path) for item in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    assert expected in err
    assert err.count("\n") == 1, err
    assert "several packages" not in err


@pytest.mark.parametrize("name", ["bad.whl", "bad.tar.gz", "bad.zip"])
def test_a_corrupt_archive_is_one_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / name).write_bytes(b"garbage")
    code, _, err = run(capsys, "show", str(tmp_path / name))
    assert code == 2
    assert "not a readable wheel or source archive" in err
    assert err.count("\n") == 1, err


def test_an_unpacked_wheel_folder_is_read_with_its_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import zipfile  # noqa: PLC0415

    old = build_wheel(tmp_path / "a", "1.0.0", WHEEL_V1)
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(build_wheel(tmp_path / "b", "1.1.0", WHEEL_V2)) as bundle:
        bundle.extractall(unpacked, members=[n for n in bundle.namelist() if ".." not in n])
    code, out, err = run(capsys, "diff", str(old), str(unpacked), "--format", "json")
    assert code == 0, err
    assert '"bump": "major"' in out
    assert '"current_version": "1.0.0"' in out


def test_a_single_module_wheel_is_not_a_folder_of_scripts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import zipfile  # noqa: PLC0415

    wheel = tmp_path / "six-1.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as bundle:
        bundle.writestr("six.py", '"""Six."""\n\n\ndef f():\n    """F."""\n')
        bundle.writestr("six-1.0.0.dist-info/METADATA", "Name: six\nVersion: 1.0.0\n\n")
    code, out, err = run(capsys, "show", str(wheel))
    assert code == 0, err
    assert "def f()" in out


def test_the_current_version_flag_is_not_advised_when_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = layout(tmp_path)
    code, _, err = run(capsys, "diff", str(root), str(root), "--current-version", "1.x")
    assert code == 2
    assert "pass --current-version" not in err


def build_wheel(folder: Path, version: str, body: str) -> Path:
    """A minimal wheel of package ``pkg`` (written with zipfile, as a build backend would)."""
    import zipfile  # noqa: PLC0415

    wheel = folder / f"pkg-{version}-py3-none-any.whl"
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel, "w") as bundle:
        bundle.writestr("pkg/__init__.py", body)
        bundle.writestr(
            f"pkg-{version}.dist-info/METADATA",
            f"Metadata-Version: 2.1\nName: pkg\nVersion: {version}\n\n",
        )
        bundle.writestr("../escape.py", "x = 1\n")
    return wheel


WHEEL_V1 = '"""P."""\n\n\ndef f(x):\n    """F."""\n'
WHEEL_V2 = '"""P."""\n\n\ndef f(x, y):\n    """F."""\n'


def test_a_wheel_file_is_read_as_a_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = build_wheel(tmp_path / "a", "1.0.0", WHEEL_V1)
    new = build_wheel(tmp_path / "b", "1.1.0", WHEEL_V2)
    code, out, err = run(capsys, "diff", str(old), str(new), "--no-color")
    assert code == 0, err
    assert "MAJOR" in out
    assert "1.0.0 -> 2.0.0" in out
    assert not (tmp_path / "escape.py").exists()


# --- 3. the policy ships with the product -----------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def test_every_rule_row_has_a_reason_and_an_example_case() -> None:
    from apisurface.output.explain import undocumented  # noqa: PLC0415

    without = undocumented()
    assert not without, (
        f"rules without a why in their row or an example case: {', '.join(without)}; write the "
        "why in the member of ChangeKind (src/apisurface/changes.py) and the example as "
        "src/apisurface/cases/KIND.case, with an `# expect:` line naming the kind"
    )


def _rule_ids() -> list[str]:
    from apisurface.output.explain import rule_docs  # noqa: PLC0415

    return sorted(rule_docs())


@pytest.mark.parametrize("rule", _rule_ids())
def test_explain_example_is_reported_as_its_rule(rule: str, tmp_path: Path) -> None:
    """Each example of `apisurface explain`, run through apisurface, reports its rule."""
    from apisurface.compare.report import build_report  # noqa: PLC0415
    from apisurface.output.explain import rule_doc  # noqa: PLC0415
    from apisurface.project.config import load_config  # noqa: PLC0415
    from apisurface.surface.collect import load_surface  # noqa: PLC0415

    doc = rule_doc(rule)
    surfaces = []
    for side, files in (("before", doc.before), ("after", doc.after)):
        for name, text in files.items():
            (tmp_path / side / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / side / name).write_text(text, encoding="utf-8")
        config = load_config(tmp_path / side)
        surfaces.append((load_surface(tmp_path / side, "pkg", config=config), config))
    (old, _), (new, config) = surfaces
    report = build_report(old, new, config=config)
    found = {
        (part.change.path, kind.value)
        for item in report.changes
        for part in item.each  # one edit to one signature is one entry of parts
        for kind in (part.change.kind, *part.change.qualifiers)
    }
    assert (doc.reported, rule) in found, sorted(found)


def test_policy_page_rule_table_is_written_from_the_rows() -> None:
    from apisurface.changes import ChangeKind  # noqa: PLC0415
    from apisurface.errors import ApisurfaceError  # noqa: PLC0415
    from apisurface.output.explain import policy_table, with_policy_table  # noqa: PLC0415

    text = (ROOT / "docs" / "policy.md").read_text(encoding="utf-8")
    assert with_policy_table(text) == text, (
        "docs/policy.md's rule table differs from the rows of ChangeKind; run `make policy`"
    )
    table = policy_table()
    for kind in ChangeKind:
        level = kind.rule.level.name
        assert f"| `{kind.value}` | {level} | {kind.rule.why} |" in table.splitlines()
    with pytest.raises(ApisurfaceError, match="lacks the rule-table markers"):
        with_policy_table("# A page without the markers\n")


def test_help_and_readme_point_to_a_policy_that_exists(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["diff", "--help"])
    out = capsys.readouterr().out
    assert "POLICY.md" not in out
    assert "docs/policy.md" in out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "POLICY.md" not in readme
    assert (ROOT / "docs" / "policy.md").is_file()


def test_explain_shows_level_example_and_how_to_accept(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "explain", "parameter_renamed")
    assert code == 0
    assert out.startswith("parameter_renamed: MAJOR\n")
    assert "-def connect(addr: str, port: int):" in out
    assert "+def connect(host: str, port: int):" in out
    assert 'rule = "parameter_renamed"' in out
    assert "levels = { parameter_renamed" in out
    code, _, err = run(capsys, "explain", "paramter_renamed")
    assert code == 2
    assert "did you mean parameter_renamed" in err
    code, out, _ = run(capsys, "rules")
    assert "apisurface explain RULE" in out


# --- 4. colour conventions ----------------------------------------------------------------

DEMO_OLD = str(ROOT / "fixtures" / "demo" / "old")
DEMO_NEW = str(ROOT / "fixtures" / "demo" / "new")
ESC = "\x1b["


@pytest.mark.parametrize(
    ("tty", "env", "flags", "coloured"),
    [
        (True, {}, [], True),
        (True, {"NO_COLOR": "1"}, [], False),
        (True, {}, ["--no-color"], False),
        (True, {}, ["--color", "never"], False),
        (False, {}, [], False),
        (False, {"FORCE_COLOR": "1"}, [], True),
        (False, {}, ["--color", "always"], True),
        (True, {"NO_COLOR": "1"}, ["--color", "always"], True),
        (False, {"FORCE_COLOR": "1"}, ["--color", "never"], False),
        (True, {"TERM": "dumb"}, [], False),
    ],
)
def test_colour_follows_flags_then_no_color_then_force_color_then_the_terminal(
    tty: bool,
    env: dict[str, str],
    *,
    flags: list[str],
    coloured: bool,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: tty)
    code, out, _ = run(capsys, "diff", DEMO_OLD, DEMO_NEW, "--quiet", *flags)
    assert code == 0
    assert (ESC in out) is coloured


@pytest.mark.parametrize(
    ("env", "flags", "coloured"),
    [
        ({}, [], True),
        ({"NO_COLOR": "1"}, [], False),
        ({}, ["--no-color"], False),
        ({}, ["--color=never"], False),
    ],
)
def test_progress_bar_on_a_terminal_follows_the_colour_convention(
    env: dict[str, str], flags: list[str], coloured: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from apisurface import cli  # noqa: PLC0415

    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    args = cli._parser().parse_args(["show", ".", *flags])
    console = cli._stderr_console(args)
    assert console.no_color is not coloured
    assert console.stderr


# --- 5. CLI habits ------------------------------------------------------------------------


def test_version_short_and_long(capsys: pytest.CaptureFixture[str]) -> None:
    import apisurface  # noqa: PLC0415

    for flag in ("-V", "--version"):
        with pytest.raises(SystemExit) as exit_info:
            main([flag])
        assert exit_info.value.code == 0
        assert capsys.readouterr().out == f"apisurface {apisurface.__version__}\n"


def test_version_and_help_do_not_load_the_analysis_stack() -> None:
    import subprocess  # noqa: PLC0415

    probe = (
        "import sys\nfrom apisurface.cli import main\n"
        "for argv in (['--version'], ['--help'], ['diff', '--help']):\n"
        "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
        "heavy = sorted(m for m in ('griffe', 'libcst', 'rich', 'semver') if m in sys.modules)\n"
        "print('LOADED', heavy, file=sys.stderr)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert "LOADED []" in completed.stderr, completed.stderr


def test_every_argument_has_help() -> None:
    import argparse  # noqa: PLC0415

    from apisurface import cli  # noqa: PLC0415

    parser = cli._parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [
        f"{name} {action.dest}"
        for name, sub in subparsers.choices.items()
        for action in sub._actions
        if not action.help
    ]
    assert not missing


def test_a_mistyped_flag_is_reported_against_its_subcommand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["diff", DEMO_OLD, DEMO_NEW, "--fromat", "json"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    # One line, against the subcommand, with the closest option (not 7 lines of usage).
    assert err == (
        "apisurface diff: error: unknown option '--fromat'; did you mean '--format'? "
        "(apisurface diff --help lists them)\n"
    )


def test_show_check_and_release_check_write_to_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import json  # noqa: PLC0415

    repo = project(tmp_path)
    monkeypatch.chdir(repo.root)
    assert run(capsys, "snapshot", "-q")[0] == 0
    assert run(capsys, "show", "-o", "surface.txt")[0] == 0
    assert "class Client" in (repo.root / "surface.txt").read_text(encoding="utf-8")
    code, out, _ = run(capsys, "check", "--no-version", "--format", "json", "-o", "check.json")
    assert (code, out) == (0, "")
    data = json.loads((repo.root / "check.json").read_text(encoding="utf-8"))
    assert data["checks"][0]["status"] == "pass"
    code, out, _ = run(capsys, "check", "--no-version", "--format", "json")
    assert json.loads(out)["checks"][0]["name"] == "snapshot current"
    assert run(capsys, "release-check", "-o", "list.txt")[0] in (0, 1)
    assert "Release checklist" in (repo.root / "list.txt").read_text(encoding="utf-8")


# --- 6. fewer words to type -----------------------------------------------------------------


def test_diff_with_one_ref_compares_it_with_the_working_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path)
    repo.write({"src/pkg/core.py": CORE + '\n\ndef post():\n    """Post."""\n'})
    repo.commit("post", tag="v1.1.0")
    repo.write({"src/pkg/core.py": CORE.replace("def fetch(url: str)", "def fetch(address: str)")})
    monkeypatch.chdir(repo.root)
    code, out, _ = run(capsys, "diff", "v1.0.0", "--no-color")
    assert code == 0
    assert "apisurface: v1.0.0 -> working tree" in out
    assert "MAJOR" in out
    code, out, _ = run(capsys, "diff", "--no-color")
    assert code == 0
    assert "apisurface: v1.1.0 -> working tree" in out  # the highest version tag


def test_diff_without_arguments_outside_a_released_repository_says_what_to_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0"), "src/pkg/__init__.py": INIT})
    repo.commit("untagged")
    monkeypatch.chdir(repo.root)
    code, _, err = run(capsys, "diff")
    assert code == 2
    assert "no release tag to compare with" in err
    assert "apisurface diff OLD" in err


# --- 7. release-check's changelog row -------------------------------------------------------

RELEASED_CORE = CORE.replace(
    '        return b""\n',
    '        return b""\n\n    def post(self, url: str) -> None:\n        """Post."""\n',
    1,
)


def changelog_row(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    changelog: str | None,
) -> dict[str, object]:
    import json  # noqa: PLC0415

    repo = Repo(tmp_path / "repo")
    repo.write(
        {
            "pyproject.toml": pyproject("1.0.0"),
            "src/pkg/__init__.py": INIT,
            "src/pkg/core.py": RELEASED_CORE,
        }
    ).commit("release", tag="v1.0.0")
    files = {
        "pyproject.toml": pyproject("2.0.0"),
        "src/pkg/__init__.py": INIT,
        "src/pkg/core.py": CORE,
    }
    if changelog is not None:
        files["CHANGELOG.md"] = changelog
    repo.write(files)
    monkeypatch.chdir(repo.root)
    _, out, _ = run(capsys, "release-check", "--format", "json")
    checks = {check["name"]: check for check in json.loads(out)["checks"]}
    row: dict[str, object] = checks["changelog names removals"]
    return row


def test_changelog_names_a_removal_by_its_bare_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    row = changelog_row(
        tmp_path, capsys, monkeypatch, "# Changelog\n\n## 2.0.0\n\n- Removed the `post()` method.\n"
    )
    assert row["status"] == "pass", row
    assert row["summary"] == "CHANGELOG.md names all 1 removed or renamed symbol"


def test_changelog_row_says_the_same_with_and_without_a_changelog(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = changelog_row(
        tmp_path / "a", capsys, monkeypatch, "# Changelog\n\n## 2.0.0\n\n- Faster.\n"
    )
    absent = changelog_row(tmp_path / "b", capsys, monkeypatch, None)
    assert missing["status"] == "fail"
    assert absent["status"] == "warn"
    lines = ["pkg.Client.post (also pkg.core.Client.post)"]
    assert missing["details"] == absent["details"] == lines
    assert str(missing["summary"]).startswith("1 of 1 removed or renamed symbol not named in ")
    assert str(absent["summary"]).startswith("1 of 1 removed or renamed symbol not named in ")
    assert str(missing["advice"]) in str(absent["advice"])


# --- 8. repository hygiene ------------------------------------------------------------------


def test_the_version_is_declared_once() -> None:
    import tomllib  # noqa: PLC0415

    import apisurface  # noqa: PLC0415
    from apisurface.project.locate import declared_version, locate  # noqa: PLC0415

    project_table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project_table["project"], "declare it only as __version__"
    assert "version" in project_table["project"]["dynamic"]
    dynamic = project_table["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "apisurface.__version__"}
    assert declared_version(locate(ROOT, "apisurface")) == apisurface.__version__


def test_the_license_file_matches_the_declared_licence() -> None:
    import tomllib  # noqa: PLC0415

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert declared["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_our_changelog_is_found_by_our_release_check() -> None:
    from apisurface.release.checks import find_changelogs  # noqa: PLC0415

    assert find_changelogs(ROOT) == [ROOT / "CHANGELOG.md"]


# --- 9. a published release as the baseline (a fake index on 127.0.0.1; no downloads) ------


class FakeIndex:
    """A package index on 127.0.0.1 serving PyPI's JSON API for files the test builds."""

    def __init__(self) -> None:
        import http.server  # noqa: PLC0415
        import threading  # noqa: PLC0415

        self.files: dict[str, bytes] = {}
        self.requests: list[str] = []
        files, requests = self.files, self.requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                requests.append(self.path)
                body = files.get(self.path)
                self.send_response(200 if body is not None else 404)
                self.end_headers()
                self.wfile.write(body or b"")

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def publish(self, name: str, version: str, archive: Path, *, sha256: str | None = None) -> None:
        import hashlib  # noqa: PLC0415
        import json  # noqa: PLC0415

        data = archive.read_bytes()
        self.files[f"/files/{archive.name}"] = data
        kind = "bdist_wheel" if archive.name.endswith(".whl") else "sdist"
        entry = {
            "filename": archive.name,
            "packagetype": kind,
            "url": f"{self.url}/files/{archive.name}",
            "digests": {"sha256": sha256 or hashlib.sha256(data).hexdigest()},
        }
        document = {"info": {"name": name, "version": version}, "urls": [entry]}
        self.files[f"/pypi/{name}/{version}/json"] = json.dumps(document).encode()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake_index(monkeypatch: pytest.MonkeyPatch) -> object:
    index = FakeIndex()
    monkeypatch.setenv("APISURFACE_INDEX_URL", f"{index.url}/pypi")
    monkeypatch.delenv("APISURFACE_OFFLINE", raising=False)
    yield index
    index.close()


def working_tree(tmp_path: Path, body: str) -> Path:
    root = tmp_path / "work"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text(body, encoding="utf-8")
    (root / "pyproject.toml").write_text(pyproject("1.1.0"), encoding="utf-8")
    return root


def test_a_published_wheel_is_the_baseline_and_is_cached(
    fake_index: FakeIndex,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_index.publish("pkg", "1.0.0", build_wheel(tmp_path / "dist", "1.0.0", WHEEL_V1))
    root = working_tree(tmp_path, WHEEL_V2)
    code, out, err = run(capsys, "diff", "pkg==1.0.0", str(root), "--no-color")
    assert code == 0, err
    assert "pkg.f(y): required parameter added" in out
    assert "1.0.0 -> 2.0.0" in out
    assert fake_index.requests == ["/pypi/pkg/1.0.0/json", "/files/pkg-1.0.0-py3-none-any.whl"]
    # Offline, the cached copy is used and the note says so.
    monkeypatch.setenv("APISURFACE_OFFLINE", "1")
    code, out2, err = run(capsys, "diff", "pkg==1.0.0", str(root), "--no-color")
    assert code == 0
    assert out2 == out
    assert "offline" in err
    assert len(fake_index.requests) == 2


def test_an_index_serving_only_project_json_with_relative_urls(
    fake_index: FakeIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Some indexes (mirrors) answer only ``/pypi/NAME/json``, listing every release under
    ``releases`` with file URLs relative to that page: the release is found there too."""
    import hashlib  # noqa: PLC0415
    import json  # noqa: PLC0415

    archive = build_wheel(tmp_path / "dist", "1.0.0", WHEEL_V1)
    data = archive.read_bytes()
    fake_index.files[f"/files/{archive.name}"] = data
    entry = {
        "filename": archive.name,
        "packagetype": "bdist_wheel",
        "url": f"../../files/{archive.name}",
        "digests": {"sha256": hashlib.sha256(data).hexdigest()},
    }
    project = {"info": {"name": "pkg"}, "releases": {"1.0.0": [entry], "0.9.0": []}}
    fake_index.files["/pypi/pkg/json"] = json.dumps(project).encode()
    root = working_tree(tmp_path, WHEEL_V2)
    code, out, err = run(capsys, "diff", "pkg==1.0.0", str(root), "--no-color")
    assert code == 0, err
    assert "pkg.f(y): required parameter added" in out
    assert fake_index.requests == [
        "/pypi/pkg/1.0.0/json",
        "/pypi/pkg/json",
        f"/files/{archive.name}",
    ]
    code, _, err = run(capsys, "diff", "pkg==0.9.0", str(root), "--no-color")
    assert code == 2
    assert "lists no wheel or source distribution" in err
    code, _, err = run(capsys, "diff", "pkg==3.0.0", str(root), "--no-color")
    assert code == 2
    assert "no such release" in err


def test_offline_with_an_empty_cache_says_so(
    fake_index: FakeIndex,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("APISURFACE_OFFLINE", "1")
    root = working_tree(tmp_path, WHEEL_V2)
    code, _, err = run(capsys, "diff", "pkg==1.0.0", str(root))
    assert code == 2
    assert "no copy of pkg==1.0.0 is cached" in err
    assert fake_index.requests == []


def test_a_download_with_the_wrong_sha256_is_refused(
    fake_index: FakeIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wheel = build_wheel(tmp_path / "dist", "1.0.0", WHEEL_V1)
    fake_index.publish("pkg", "1.0.0", wheel, sha256="0" * 64)
    code, _, err = run(capsys, "diff", "pkg==1.0.0", str(working_tree(tmp_path, WHEEL_V2)))
    assert code == 2
    assert "refusing it" in err


def test_an_unknown_release_is_bad_input(
    fake_index: FakeIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "diff", "pkg==9.9.9", str(working_tree(tmp_path, WHEEL_V2)))
    assert code == 2
    assert "pkg==9.9.9: no such release on" in err


def test_an_sdist_is_unpacked_without_running_its_build(
    fake_index: FakeIndex, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import io  # noqa: PLC0415
    import tarfile  # noqa: PLC0415

    marker = tmp_path / "setup-ran"
    sdist = tmp_path / "dist" / "pkg-1.0.0.tar.gz"
    sdist.parent.mkdir(parents=True)
    with tarfile.open(sdist, "w:gz") as bundle:
        for name, text in (
            ("pkg-1.0.0/pkg/__init__.py", WHEEL_V1),
            ("pkg-1.0.0/setup.py", f"open({str(marker)!r}, 'w').write('ran')\n"),
            ("pkg-1.0.0/PKG-INFO", "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0.0\n\n"),
        ):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            bundle.addfile(info, io.BytesIO(data))
    fake_index.publish("pkg", "1.0.0", sdist)
    root = working_tree(tmp_path, WHEEL_V2)
    code, out, err = run(capsys, "diff", "pkg==1.0.0", str(root), "--no-color")
    assert code == 0, err
    assert "1.0.0 -> 2.0.0" in out
    assert not marker.exists()


def test_check_against_a_published_release(
    fake_index: FakeIndex,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_index.publish("pkg", "1.0.0", build_wheel(tmp_path / "dist", "1.0.0", WHEEL_V1))
    root = working_tree(tmp_path, WHEEL_V2)
    monkeypatch.chdir(root)
    assert run(capsys, "snapshot", "-q")[0] == 0
    code, out, _ = run(capsys, "check", "--against", "pkg==1.0.0")
    assert code == 1
    assert "needs MAJOR" in out
    assert "1.0.0 -> 1.1.0" in out


# --- 10. the GitHub Action on real pull requests --------------------------------------------


def action_step(name: str) -> str:
    import yaml  # noqa: PLC0415

    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    script: str = next(item for item in action["runs"]["steps"] if item["name"] == name)["run"]
    return script


def bash(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    path = f"{Path(sys.executable).parent}{os.pathsep}{env.pop('PREPEND', '')}{os.pathsep}"
    return subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        env={**os.environ, **env, "PATH": path + os.environ["PATH"]},
        capture_output=True,
        text=True,
        check=False,
    )


def test_comment_step_on_a_fork_pull_request_warns_and_succeeds(tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "gh").write_text(
        "#!/usr/bin/env bash\necho 'HTTP 403: Resource not accessible by integration' >&2\n"
        "exit 1\n",
        encoding="utf-8",
    )
    (fake / "gh").chmod(0o755)
    body = tmp_path / "comment.md"
    body.write_text("<!-- apisurface-report -->\n", encoding="utf-8")
    env = {"PREPEND": str(fake), "GH_TOKEN": "x", "GITHUB_REPOSITORY": "o/r", "PR": "7"}
    for name in ("Comment on the pull request", "Label the pull request"):
        completed = bash(
            action_step(name), tmp_path, {**env, "BODY": str(body), "LABEL": "semver:major"}
        )
        assert completed.returncode == 0, (name, completed.stderr)
        assert "::warning title=apisurface::cannot" in completed.stdout
        assert "read-only token" in completed.stdout


def test_later_steps_run_after_a_failed_comment() -> None:
    import yaml  # noqa: PLC0415

    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    steps = {item["name"]: item for item in action["runs"]["steps"]}
    for name in ("Check the snapshot and the version", "Fail on the required bump"):
        assert "!cancelled()" in steps[name]["if"]


def many_breaking_changes(tmp_path: Path, count: int) -> Path:
    functions = "".join(f'\n\ndef f{number}(x):\n    """F{number}."""\n' for number in range(count))
    upstream = Repo(tmp_path / "upstream")
    upstream.write(
        {
            "pyproject.toml": pyproject("1.0.0"),
            "sub/pyproject.toml": pyproject("1.0.0"),
            "sub/src/pkg/__init__.py": '"""Pkg."""\n' + functions.replace("(x)", "(x: int)"),
        }
    ).commit("base", tag="v1.0.0")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", upstream.root.as_uri(), str(clone)], check=True, capture_output=True
    )
    work = Repo(clone, init=False)
    work.git("checkout", "-q", "-b", "feature")
    # Renamed with the same annotation: one entry per function.
    typed = functions.replace("(x)", "(x: int)")
    work.write({"sub/src/pkg/__init__.py": '"""Pkg."""\n' + typed.replace("(x: int)", "(y: int)")})
    work.commit("break")
    return clone


def test_annotations_are_capped_per_level_and_all_listed_in_the_summary(tmp_path: Path) -> None:
    clone = many_breaking_changes(tmp_path, 13)
    runner = tmp_path / "runner"
    runner.mkdir()
    env = {
        "BASE": "",
        "HEAD": ".",
        "PACKAGE": "",
        "BASE_REF": "main",
        "ANNOTATIONS": "true",
        "SARIF": "reports/api.sarif",
        "RUNNER_TEMP": str(runner),
        "GITHUB_WORKSPACE": str(clone),
        "GITHUB_STEP_SUMMARY": str(runner / "summary.md"),
        "GITHUB_OUTPUT": str(runner / "output.txt"),
    }
    completed = bash(action_step("Diff the public API"), clone / "sub", env)
    assert completed.returncode == 0, completed.stderr
    errors = [line for line in completed.stdout.splitlines() if line.startswith("::error")]
    assert len(errors) == 10
    # The cap is stated in the verdict, the first annotation.
    assert completed.stdout.splitlines()[0].endswith(
        "Annotations: 10 of 13 shown, the most severe first (GitHub shows 10 of each level per "
        "step); the markdown report lists every change"
    )
    # The job summary is apisurface's markdown report, which lists every change.
    summary = (runner / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("<!-- apisurface-report -->\n")
    assert "#### MAJOR (13)" in summary
    # Alike changes of one module share a row that names each of them.
    assert "| 13 x parameter renamed `x` -> `y` · `parameter_renamed` |" in summary
    assert all(f"`f{number}`" in summary for number in range(13))
    # The SARIF path is relative to the repository root, as upload-sarif reads it.
    assert (clone / "reports" / "api.sarif").is_file()
    assert not (clone / "sub" / "reports").exists()


def test_readme_uploads_the_sarif_file_the_action_writes() -> None:
    import yaml  # noqa: PLC0415

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("# .github/workflows/api.yml\n", 1)[1].split("```", 1)[0]
    steps = yaml.safe_load(block)["jobs"]["api"]["steps"]
    written = next(item for item in steps if item.get("id") == "api")["with"]["sarif"]
    upload = next(item for item in steps if "upload-sarif" in item.get("uses", ""))
    assert upload["with"]["sarif_file"] == written
    assert not Path(written).is_absolute()


# --- 11. a browsable HTML report --------------------------------------------------------------

HOSTILE_OLD = '''"""Pkg."""


def f(x="<b>old</b>"):
    """F."""


def g(a: int):
    """G."""


def h():
    """H."""
'''
HOSTILE_NEW = '''"""Pkg."""


def f(x="</pre><script>alert(1)</script><img src=x onerror=alert(2)>"):
    """F."""


def g(b: int):
    """G."""


def h(*, verbose=False):
    """H."""
'''


def html_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    for name, text in (("old", HOSTILE_OLD), ("new", HOSTILE_NEW)):
        (tmp_path / name / "pkg").mkdir(parents=True)
        (tmp_path / name / "pkg" / "__init__.py").write_text(text, encoding="utf-8")
    target = tmp_path / "report.html"
    code, _, err = run(
        capsys,
        "diff",
        str(tmp_path / "old"),
        str(tmp_path / "new"),
        "--format",
        "html",
        "-o",
        str(target),
        "--current-version",
        "1.0.0",
    )
    assert code == 0, err
    return target


def test_html_report_verdict_first_grouped_and_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = html_report(tmp_path, capsys).read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert page.index('id="verdict"') < page.index("<section")
    assert "MAJOR bump required</strong>: suggested version 2.0.0 (from 1.0.0)" in page
    assert page.index('<section data-level="major">') < page.index('<section data-level="minor">')
    assert "<h3><code>pkg</code></h3>" in page
    assert "<code>g(<wbr>a)</code>" in page and "parameter_renamed" in page
    assert '<pre class="old">- def g(a: int)</pre><pre class="new">+ def g(b: int)</pre>' in page
    # Analysed text is escaped: the page has its own script and nothing else.
    assert page.count("<script") == 1
    assert "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;" in page
    assert "http://" not in page and "https://" not in page  # self-contained


def _chromium() -> str | None:
    import shutil  # noqa: PLC0415

    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.browser
def test_html_report_filters_by_level_in_a_browser(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Chromium (make browser) renders the page: the #levels filter hides the other
    levels, and nothing from the analysed code becomes an element."""
    chromium = _chromium()
    assert chromium is not None, "install Chromium with 'make browser'"
    target = html_report(tmp_path, capsys)

    def dom(fragment: str) -> str:
        completed = subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                f"--user-data-dir={tmp_path / 'profile'}",
                "--dump-dom",
                target.as_uri() + fragment,
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return completed.stdout

    everything = dom("")
    assert '<section data-level="minor">' in everything
    assert "<img" not in everything
    major_only = dom("#levels=major")
    assert '<section data-level="major">' in major_only
    assert '<section data-level="minor" hidden="">' in major_only
    assert 'data-level="major" hidden' not in major_only


def test_quiet_is_accepted_before_and_after_every_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import argparse  # noqa: PLC0415

    from apisurface import cli  # noqa: PLC0415

    parser = cli._parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in subparsers.choices.items():
        assert any("--quiet" in action.option_strings for action in sub._actions), name
    root = layout(tmp_path)
    code, _, err = run(capsys, "-q", "snapshot", str(root), "-o", str(tmp_path / "s.json"))
    assert (code, err) == (0, "")
    code, _, err = run(capsys, "snapshot", str(root), "-o", str(tmp_path / "s.json"))
    assert code == 0
    assert err.startswith("wrote ")
