"""What a maintainer trying apisurface on a real project meets, round 3 (issue 23): a
baseline like for like, inputs that mean the same in every command, the changelog row for
parameters, the PR comment, SARIF, the Action, the install, and the small things."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from clirun import run
from gitrepo import Repo, pyproject

ROOT = Path(__file__).parent.parent

CORE_V5 = '''
"""Core."""


def fetch(url: str, timeout: float = 1.0) -> bytes:
    """Fetch a URL."""
    return b""
'''
INIT = '"""A package."""\n\nfrom pkg.core import fetch\n\n__all__ = ["fetch"]\n'


def releases(tmp_path: Path) -> Repo:
    """main: v4.1.0, v5.0.0, v5.0.1, then v6.0.0 (a break) and v6.1.0; a maintenance
    branch ``maint-5.0`` cut from v5.0.1 is checked out."""
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("4.1.0"), "src/pkg/__init__.py": INIT})
    repo.write({"src/pkg/core.py": CORE_V5.replace(", timeout: float = 1.0", "")})
    repo.commit("4.1", tag="v4.1.0")
    repo.write({"pyproject.toml": pyproject("5.0.0"), "src/pkg/core.py": CORE_V5})
    repo.commit("5.0", tag="v5.0.0")
    repo.write({"pyproject.toml": pyproject("5.0.1")}).commit("5.0.1", tag="v5.0.1")
    repo.write(
        {"pyproject.toml": pyproject("6.0.0"), "src/pkg/core.py": CORE_V5.replace("url", "link")}
    )
    repo.commit("6.0", tag="v6.0.0")
    repo.write({"pyproject.toml": pyproject("6.1.0")}).commit("6.1", tag="v6.1.0")
    repo.git("checkout", "-q", "-b", "maint-5.0", "v5.0.1")
    return repo


# --- 3. the baseline is the latest release reachable from HEAD --------------------------


def test_last_release_on_a_maintenance_branch_is_its_own_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = releases(tmp_path)
    monkeypatch.chdir(repo.root)
    assert run(capsys, "last-release") == (0, "v5.0.1\n", "")
    repo.write({"pyproject.toml": pyproject("5.0.2")})
    code, out, err = run(capsys, "diff", "--format", "json", "--no-cache")
    assert code == 0, err
    report = json.loads(out)
    assert report["old"] == "v5.0.1"
    assert report["changes"] == []
    assert run(capsys, "check", "--no-cache", "-q")[0] == 1  # no snapshot committed yet
    code, out, _ = run(capsys, "check", "--no-cache")
    assert "PASS version bump sufficient" in out, out
    assert "v6" not in out
    repo.git("checkout", "-q", "-f", "main")
    assert run(capsys, "last-release") == (0, "v6.1.0\n", "")


def _wheel(folder: Path, version: str, files: dict[str, str]) -> Path:
    """A wheel of ``pkg`` holding ``files`` (no docs: a wheel ships none)."""
    wheel = folder / f"pkg-{version}-py3-none-any.whl"
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel, "w") as bundle:
        for name, text in files.items():
            bundle.writestr(name, text)
        bundle.writestr(
            f"pkg-{version}.dist-info/METADATA",
            f"Metadata-Version: 2.1\nName: pkg\nVersion: {version}\n\n",
        )
    return wheel


DOCUMENTED_BY_DOCS = {
    "src/pkg/__init__.py": '"""Pkg."""\n\n\ndef query(sql):\n    """Run a query."""\n',
    "src/pkg/sql.py": "def raw(sql):\n    return sql\n\n\ndef cooked(sql):\n    return sql\n",
    "src/pkg/engine.py": '"""Engine."""\n\n\ndef start(x):\n    return x\n',
    "docs/api.rst": "API\n===\n\n.. autofunction:: pkg.sql.raw\n\n.. autofunction:: "
    "pkg.engine.start\n",
}


def test_check_against_the_same_release_as_a_wheel_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wheel ships no docs/: what only the docs sources document is not judged, in
    either direction (not "now documented", not "no longer documented")."""
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0"), **DOCUMENTED_BY_DOCS}).commit("1.0")
    wheel = _wheel(
        tmp_path / "dist",
        "1.0.0",
        {
            name.removeprefix("src/"): text
            for name, text in DOCUMENTED_BY_DOCS.items()
            if name.startswith("src/")
        },
    )
    monkeypatch.chdir(repo.root)
    assert run(capsys, "snapshot", "-q", "--no-cache")[0] == 0
    code, out, _ = run(capsys, "check", "--against", str(wheel), "--no-cache")
    assert code == 0, out
    assert "now documented" not in out
    for old, new in ((str(wheel), "."), (".", str(wheel))):
        code, out, _ = run(capsys, "diff", old, new, "--format", "json", "--no-cache")
        kinds = {change["kind"] for change in json.loads(out)["changes"]}
        assert kinds == {"documentation_unknown"}, (old, new, out)


# --- 4. check and release-check take a git ref as SOURCE, like diff ----------------------


def test_check_a_tag_against_a_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = releases(tmp_path)
    monkeypatch.chdir(repo.root)
    code, out, err = run(capsys, "check", "v5.0.0", "--against", "v4.1.0", "--no-version")
    assert code == 1, err  # no snapshot was committed at v5.0.0
    assert "no such folder" not in err
    code, out, err = run(capsys, "check", "v5.0.0", "--against", "v4.1.0", "--no-cache")
    assert "PASS version bump sufficient" in out, (out, err)
    code, out, err = run(capsys, "check", "v6.0.0", "--against", "v5.0.1", "--no-cache")
    assert "PASS version bump sufficient" in out, (out, err)
    code, out, err = run(capsys, "release-check", "v6.0.0", "--against", "v5.0.1", "--no-cache")
    assert "no such folder" not in err
    assert "needs" not in out or "6.0.0" in out
    # Without --against, a ref is checked against the release before it.
    code, out, err = run(capsys, "check", "v6.0.0", "--no-cache")
    assert "v6.0.0:api_snapshots/pkg.json does not exist" in out, (out, err)
    assert "version bump sufficient: 5.0.1 -> 6.0.0 covers MAJOR" in out, out
    code, _, err = run(capsys, "check", "v9.9.9")
    assert code == 2
    assert "v9.9.9" in err and "no such folder, snapshot or git ref" in err


def test_help_says_what_source_may_be(capsys: pytest.CaptureFixture[str]) -> None:
    from apisurface.cli import _parser  # noqa: PLC0415

    top = _parser().format_help()
    assert "git ref" in top
    for command in ("check", "release-check"):
        with pytest.raises(SystemExit):
            run(capsys, command, "--help")
        text = capsys.readouterr().out
        assert "git ref" in text, command


# --- 5. release-check's changelog row checks parameters too ------------------------------

PARAMS_OLD = '''
"""Core."""


def fetch(url: str, timeout: float = 1.0, retries: int = 0) -> bytes:
    """Fetch a URL."""
    return b""
'''
PARAMS_NEW = PARAMS_OLD.replace("url: str, timeout: float = 1.0", "address: str, wait: float = 1.0")


def _changelog_row(tmp_path: Path, capsys: pytest.CaptureFixture[str], changelog: str) -> dict:
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0"), "src/pkg/__init__.py": INIT})
    repo.write({"src/pkg/core.py": PARAMS_OLD}).commit("1.0", tag="v1.0.0")
    repo.write({"pyproject.toml": pyproject("2.0.0"), "src/pkg/core.py": PARAMS_NEW})
    repo.write({"CHANGELOG.md": changelog})
    _, out, _ = run(capsys, "release-check", str(repo.root), "--format", "json", "--no-cache")
    checks = {check["name"]: check for check in json.loads(out)["checks"]}
    row: dict = checks["changelog names removals"]
    return row


def test_changelog_row_names_renamed_parameters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    row = _changelog_row(tmp_path / "a", capsys, "# Changelog\n\n## 2.0.0\n\n- Faster.\n")
    assert row["status"] == "fail", row
    assert row["summary"] == (
        "2 of 2 removed or renamed parameters not named in CHANGELOG.md (whole file)"
    )
    assert row["details"] == [
        "pkg.fetch(timeout) (also pkg.core.fetch(timeout))",
        "pkg.fetch(url) (also pkg.core.fetch(url))",
    ]
    # A parameter is named with its callable, in one entry.
    half = "# Changelog\n\n## 2.0.0\n\n- `fetch`: `url` is now `address`.\n\n- `timeout` went.\n"
    row = _changelog_row(tmp_path / "b", capsys, half)
    assert row["status"] == "fail", row
    assert row["details"] == ["pkg.fetch(timeout) (also pkg.core.fetch(timeout))"]
    full = half + "- `fetch(timeout)` is now `wait`.\n"
    row = _changelog_row(tmp_path / "c", capsys, full)
    assert row["status"] == "pass", row
    assert row["summary"] == "CHANGELOG.md names all 2 removed or renamed parameters"


# --- 8. small things ---------------------------------------------------------------------


def test_quiet_check_prints_only_failures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pre-commit hook's command: nothing on PASS, and only the failing rows on FAIL."""
    repo = releases(tmp_path)
    monkeypatch.chdir(repo.root)
    hook = ["check", "--no-version", "--quiet", "--no-cache"]
    assert run(capsys, "snapshot", "-q", "--no-cache")[0] == 0
    assert run(capsys, *hook) == (0, "", "")
    repo.write({"src/pkg/core.py": CORE_V5 + '\n\ndef post(url):\n    """Post."""\n'})
    code, out, _ = run(capsys, *hook)
    assert code == 1
    assert out.startswith("FAIL snapshot current:")
    assert "PASS" not in out


def test_a_mistyped_accept_entry_gets_a_did_you_mean(tmp_path: Path) -> None:
    from apisurface.compare.report import build_report  # noqa: PLC0415
    from apisurface.errors import ConfigError  # noqa: PLC0415
    from apisurface.project.config import Accept, Config, load_config  # noqa: PLC0415
    from apisurface.release.inputs import load_input  # noqa: PLC0415

    old, new = tmp_path / "old", tmp_path / "new"
    for folder, body in ((old, PARAMS_OLD), (new, PARAMS_NEW)):
        (folder / "pkg").mkdir(parents=True)
        (folder / "pkg" / "__init__.py").write_text(body, encoding="utf-8")
    from apisurface.changes import ChangeKind  # noqa: PLC0415

    config = Config(
        accept=(
            Accept("pkg.fetch(ulr)", ChangeKind.PARAMETER_RENAMED, "typo in the path"),
            Accept("pkg.fetch(url)", ChangeKind.PARAMETER_REMOVED, "the wrong rule"),
            Accept("pkg.elsewhere", ChangeKind.SYMBOL_REMOVED, "nothing like it"),
        )
    )
    report = build_report(load_input(str(old)).surface, load_input(str(new)).surface, config=config)
    assert report.stale_accepts == (
        "pkg.fetch(ulr) parameter_renamed (did you mean pkg.fetch(url)?)",
        "pkg.fetch(url) parameter_removed (did you mean rule parameter_renamed?)",
        "pkg.elsewhere symbol_removed",
    )
    (tmp_path / "pyproject.toml").write_text(
        '[[tool.apisurface.accept]]\npath = "pkg.f"\nrule = "parameter_renmed"\nreason = "r"\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="did you mean 'parameter_renamed'"):
        load_config(tmp_path)


def test_the_working_tree_is_named_so_in_headers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = releases(tmp_path)
    monkeypatch.chdir(repo.root)
    _, out, _ = run(capsys, "diff", "v5.0.0", "--no-cache", "--no-color")
    assert out.startswith("apisurface: v5.0.0 -> working tree\n")
    _, out, _ = run(capsys, "diff", "v5.0.0", "--format", "json", "--no-cache")
    assert json.loads(out)["new"] == "working tree"
    _, out, _ = run(capsys, "diff", "v5.0.0", "--format", "markdown", "--no-cache")
    assert "`v5.0.0` -> `working tree`" in out


# --- 6 and issue 20 item 8. the Action: one diff, its own summary, cache, label colour ----

ACTION_FILE = ROOT / "action.yml"


def _action() -> dict:
    import yaml  # noqa: PLC0415

    action: dict = yaml.safe_load(ACTION_FILE.read_text(encoding="utf-8"))
    return action


def _step(name: str) -> dict:
    steps: list[dict] = _action()["runs"]["steps"]
    return next(item for item in steps if item["name"] == name)


def _bash(
    script: str, cwd: Path, env: dict[str, str], prepend: Path | None = None
) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(
        [*([str(prepend)] if prepend else []), str(Path(sys.executable).parent), os.environ["PATH"]]
    )
    return subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        env={**os.environ, **env, "PATH": path},
        capture_output=True,
        text=True,
        check=False,
    )


def _pull_request(tmp_path: Path, base: str, head: str) -> Path:
    """A clone of an upstream repository (main at v1.0.0) with a feature branch."""
    upstream = Repo(tmp_path / "upstream")
    upstream.write({"pyproject.toml": pyproject("1.0.0"), "src/pkg/__init__.py": base})
    upstream.commit("base", tag="v1.0.0")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", upstream.root.as_uri(), str(clone)], check=True, capture_output=True
    )
    work = Repo(clone, init=False)
    work.git("checkout", "-q", "-b", "feature")
    work.write({"src/pkg/__init__.py": head}).commit("change")
    return clone


def _diff_step(
    clone: Path, runner: Path, **extra: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    runner.mkdir(exist_ok=True)
    env = {
        "BASE": "",
        "HEAD": ".",
        "PACKAGE": "",
        "BASE_REF": "main",
        "ANNOTATIONS": "true",
        "SARIF": "api.sarif",
        "RUNNER_TEMP": str(runner),
        "GITHUB_WORKSPACE": str(clone),
        "GITHUB_STEP_SUMMARY": str(runner / "summary.md"),
        "GITHUB_OUTPUT": str(runner / "output.txt"),
        "APISURFACE_CACHE_DIR": str(runner / "cache"),
    }
    env.update(extra)
    prepend = Path(extra.pop("PREPEND")) if "PREPEND" in extra else None
    env.pop("PREPEND", None)
    completed = _bash(_step("Diff the public API")["run"], clone, env, prepend)
    outputs: dict[str, str] = {}
    if (runner / "output.txt").exists():
        lines = (runner / "output.txt").read_text(encoding="utf-8").splitlines()
        outputs = dict(line.split("=", 1) for line in lines)
    return completed, outputs


HOSTILE_DEFAULTS_OLD = '"""Pkg."""\n' + "".join(
    f'\n\ndef f{number}(x="plain"):\n    """F{number}."""\n' for number in range(12)
)
HOSTILE_DEFAULTS_NEW = '"""Pkg."""\n' + "".join(
    f'\n\ndef f{number}(x="![x](https://evil.example/{number}.png) [click](https://evil.example)"'
    f'):\n    """F{number}."""\n'
    for number in range(12)
)


def test_job_summary_is_apisurface_markdown_with_nothing_live(tmp_path: Path) -> None:
    """Twelve changed defaults carrying an image and a link: more than GitHub annotates,
    and the job summary (apisurface's own markdown) holds no image and no link."""
    from markdown_it import MarkdownIt  # noqa: PLC0415
    from printers import assert_markdown_safe  # noqa: PLC0415

    clone = _pull_request(tmp_path, HOSTILE_DEFAULTS_OLD, HOSTILE_DEFAULTS_NEW)
    runner = tmp_path / "runner"
    completed, outputs = _diff_step(clone, runner)
    assert completed.returncode == 0, completed.stderr
    summary = (runner / "summary.md").read_text(encoding="utf-8")
    assert summary == Path(outputs["comment"]).read_text(encoding="utf-8")
    assert "#### MAJOR (12)" in summary
    assert_markdown_safe(summary)
    tokens = MarkdownIt("commonmark").enable("table").parse(summary)
    kinds = {child.type for token in tokens for child in token.children or []}
    assert not kinds & {"image", "link_open", "autolink"}
    # Shown, as code, in the table (witnesses are in the full report).
    assert summary.count("![x](https://evil.example/") == 12
    errors = [line for line in completed.stdout.splitlines() if line.startswith("::error")]
    assert len(errors) == 10
    assert "Annotations: 10 of 12 shown" in completed.stdout.splitlines()[0]


def test_the_diff_runs_once_per_job(tmp_path: Path) -> None:
    clone = _pull_request(tmp_path, HOSTILE_DEFAULTS_OLD, HOSTILE_DEFAULTS_NEW)
    fake = tmp_path / "bin"
    fake.mkdir()
    log = tmp_path / "calls.log"
    (fake / "python").write_text(
        f'#!/usr/bin/env bash\necho "$*" >> {log}\nexec {sys.executable} "$@"\n',
        encoding="utf-8",
    )
    (fake / "python").chmod(0o755)
    runner = tmp_path / "runner"
    completed, outputs = _diff_step(clone, runner, PREPEND=str(fake))
    assert completed.returncode == 0, completed.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert [call.split()[3] for call in calls if "-m apisurface" in call] == ["diff"]
    assert all(call.startswith("-I ") for call in calls), calls  # isolated, every one
    assert outputs["bump"] == "major"
    assert outputs["changes"] == "12"
    assert outputs["public"] == "true"
    assert (clone / "api.sarif").is_file()
    assert (runner / "apisurface" / "annotations.txt").is_file()
    assert list((runner / "cache").iterdir())  # the cache the cache step keeps


def test_the_cache_step_keeps_the_folder_the_diff_uses() -> None:
    cache = _step("Restore apisurface's cache")
    assert cache["uses"] == "actions/cache@v4"
    assert cache["if"] == "inputs.cache == 'true'"
    folder = cache["with"]["path"]
    assert _step("Diff the public API")["env"]["APISURFACE_CACHE_DIR"] == folder
    assert _step("Check the snapshot and the version")["env"]["APISURFACE_CACHE_DIR"] == folder
    assert "github.sha" in cache["with"]["key"]
    assert cache["with"]["key"].startswith(cache["with"]["restore-keys"])
    assert _action()["inputs"]["cache"]["default"] == "true"


DOCSTRING_OLD = '"""Pkg."""\n\n\ndef f(x):\n    """Do f."""\n'
DOCSTRING_NEW = '"""Pkg."""\n\n\ndef f(x):\n    """Do f, faster."""\n'


def test_a_docstring_only_pull_request_counts_no_change(tmp_path: Path) -> None:
    """fail-on: patch does not fail it, and no comment is posted for it."""
    clone = _pull_request(tmp_path, DOCSTRING_OLD, DOCSTRING_NEW)
    runner = tmp_path / "runner"
    completed, outputs = _diff_step(clone, runner)
    assert completed.returncode == 0, completed.stderr
    assert (outputs["bump"], outputs["changes"], outputs["public"]) == ("patch", "0", "false")
    assert "no public API change" in (runner / "summary.md").read_text(encoding="utf-8")
    assert "docstring" not in completed.stdout  # no annotation
    sarif = json.loads((clone / "api.sarif").read_text(encoding="utf-8"))
    assert sarif["runs"][0]["results"] == []
    fail = _bash(
        _step("Fail on the required bump")["run"],
        tmp_path,
        {"BUMP": outputs["bump"], "FAIL_ON": "patch", "CHANGES": outputs["changes"]},
    )
    assert fail.returncode == 0
    code, _ = (
        subprocess.run(
            [
                str(Path(sys.executable).parent / "apisurface"),
                "diff",
                "main",
                ".",
                "-q",
                "--fail-on",
                "patch",
                "--no-cache",
            ],
            cwd=clone,
            capture_output=True,
            text=True,
            check=False,
        ).returncode,
        None,
    )
    assert code == 0


FAKE_GH = """#!/usr/bin/env bash
# Stands in for the GitHub CLI: logs each call; the token acts for user GH_USER_ID (the
# bot's, 41898282, by default); lists COMMENTS, or the bot's one comment EXISTING.
echo "gh $*" >> "$GH_LOG"
bot=41898282
case "$1 $2" in
  "api graphql") echo "${GH_USER_ID:-$bot}" ;;
  "api repos/o/r/issues/7/comments")
    if [ -n "${COMMENTS:-}" ]; then printf '%s' "$COMMENTS"
    elif [ -n "${EXISTING:-}" ]; then
      printf '[{"id": %s, "user": {"id": %s}, ' "$EXISTING" "$bot"
      printf '"body": "<!-- apisurface-report --> old"}]'
    else echo "[]"; fi ;;
esac
"""


def _fake_gh(tmp_path: Path) -> tuple[Path, Path]:
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    (fake / "gh").write_text(FAKE_GH, encoding="utf-8")
    (fake / "gh").chmod(0o755)
    return fake, tmp_path / "gh.log"


@pytest.mark.parametrize(
    ("public", "existing", "posted"),
    [("false", "", None), ("false", "991", "PATCH"), ("true", "", "POST")],
)
def test_no_comment_when_nothing_public_changed(
    tmp_path: Path, public: str, existing: str, posted: str | None
) -> None:
    fake, log = _fake_gh(tmp_path)
    body = tmp_path / "comment.md"
    body.write_text("<!-- apisurface-report -->\n", encoding="utf-8")
    env = {"GH_LOG": str(log), "GITHUB_REPOSITORY": "o/r", "PR": "7", "GH_TOKEN": "x"}
    env |= {"BODY": str(body), "PUBLIC": public, "EXISTING": existing}
    completed = _bash(_step("Comment on the pull request")["run"], tmp_path, env, fake)
    assert completed.returncode == 0, completed.stderr
    writes = [line for line in log.read_text().splitlines() if " -X " in line]
    assert [line.split(" -X ")[1].split()[0] for line in writes] == ([posted] if posted else [])


@pytest.mark.parametrize(
    ("label", "color"),
    [("semver:major", "b60205"), ("semver:minor", "fbca04"), ("semver:patch", "0e8a16")],
)
def test_the_label_colour_follows_the_level(tmp_path: Path, label: str, color: str) -> None:
    fake, log = _fake_gh(tmp_path)
    env = {"GH_LOG": str(log), "GITHUB_REPOSITORY": "o/r", "PR": "7", "LABEL": label}
    completed = _bash(_step("Label the pull request")["run"], tmp_path, env, fake)
    assert completed.returncode == 0, completed.stderr
    assert f"gh label create {label} --repo o/r --force --color {color}" in log.read_text()


def test_a_shallow_clone_or_an_old_python_is_an_error_naming_the_fix(tmp_path: Path) -> None:
    clone = _pull_request(tmp_path, DOCSTRING_OLD, DOCSTRING_NEW)
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", (tmp_path / "upstream").as_uri(), str(shallow)],
        check=True,
        capture_output=True,
    )
    completed, _ = _diff_step(shallow, tmp_path / "runner")
    assert completed.returncode == 1
    assert "fetch-depth: 0" in completed.stdout
    fake = tmp_path / "oldpython"
    fake.mkdir()
    (fake / "python").write_text(
        '#!/usr/bin/env bash\nif [ "$1" = "--version" ]; then echo "Python 3.9.2"; fi\nexit 1\n',
        encoding="utf-8",
    )
    (fake / "python").chmod(0o755)
    completed = _bash(_step("Install apisurface")["run"], clone, {"INSTALL": "nothing"}, fake)
    assert completed.returncode == 1
    assert "Python 3.11 or later" in completed.stdout
    assert "Python 3.9.2" in completed.stdout
    assert "actions/setup-python" in completed.stdout


# --- 1. a readable HTML report ------------------------------------------------------------

_STORAGE = '''"""Filesystem storage backends."""

from __future__ import annotations


class FilesystemStorageBackend:
    """Store objects as files below a root folder."""

    def open_object_for_reading(self, object_identifier: str, *, buffering_strategy: str = "default", timeout_in_seconds: float = 30.0, verify_checksum: bool = True) -> bytes:
        """Open an object for reading."""

    def write_object_atomically(self, object_identifier: str, payload: bytes, overwrite_existing: bool = False, fsync_after_write: bool = True) -> None:
        """Write an object atomically."""

    def list_objects_with_prefix(self, prefix: str, recursive: bool = True, include_metadata: bool = False) -> list[str]:
        """List objects."""

    def delete_object(self, object_identifier: str, missing_ok: bool = False) -> None:
        """Delete an object."""


def create_filesystem_backend_from_configuration(configuration_mapping: dict[str, str], environment_overrides: dict[str, str] | None = None) -> FilesystemStorageBackend:
    """Create a backend."""


def migrate_storage_layout_between_versions(source_backend: FilesystemStorageBackend, target_backend: FilesystemStorageBackend, dry_run: bool = True) -> int:
    """Migrate."""


def legacy_open_object_stream(backend: FilesystemStorageBackend, object_identifier: str, chunk_size_in_bytes: int = 65536) -> bytes:
    """Open a stream (legacy)."""
'''  # noqa: E501
_STORAGE_NEW = (
    _STORAGE.replace("float = 30.0", "float = 60.0")
    .replace("payload: bytes", "data: bytes")
    .replace("recursive: bool = True, include", "*, recursive: bool = True, include")
    .replace("include_metadata: bool = False)", "include_metadata: bool = False, page: int = 1)")
    .replace(
        "    def delete_object(self, object_identifier: str, missing_ok: bool = False) -> None:\n"
        '        """Delete an object."""\n',
        "",
    )
    .replace("dict[str, str] | None = None)", "dict[str, str])")
    .replace("dry_run: bool = True)", "dry_run: bool = False, batch_size: int = 100)")
    .replace(
        "    def list_objects_with_prefix",
        '''    def copy_object_between_locations(self, source_identifier: str, target_identifier: str, *, preserve_metadata: bool = True) -> None:
        """Copy an object."""

    def move_object_between_locations(self, source_identifier: str, target_identifier: str, *, preserve_metadata: bool = True) -> None:
        """Move an object."""

    def list_objects_with_prefix''',  # noqa: E501
    )
    .split("\n\ndef legacy_open_object_stream")[0]
    + '''

def verify_storage_consistency_across_replicas(primary_backend: FilesystemStorageBackend, replica_backends: list[FilesystemStorageBackend], repair: bool = False) -> dict[str, list[str]]:
    """Verify."""


def compute_storage_usage_statistics(backend: FilesystemStorageBackend, *, include_hidden_objects: bool = False) -> dict[str, int]:
    """Compute usage."""
'''  # noqa: E501
)


def seventeen_changes(tmp_path: Path) -> tuple[Path, Path]:
    """Two trees whose diff has 17 changes of long paths and long signatures (11 entries:
    two removals carry "removed without prior deprecation" on themselves, and each edit to
    one signature is one entry naming every parameter it touches)."""
    for side, module in (("old", _STORAGE), ("new", _STORAGE_NEW)):
        base = tmp_path / side / "pkg"
        (base / "backends" / "storage").mkdir(parents=True)
        (base / "__init__.py").write_text('"""A storage library."""\n', encoding="utf-8")
        (base / "backends" / "__init__.py").write_text('"""Backends."""\n', encoding="utf-8")
        storage = base / "backends" / "storage"
        (storage / "__init__.py").write_text('"""Storage."""\n', encoding="utf-8")
        (storage / "filesystem.py").write_text(module, encoding="utf-8")
    return tmp_path / "old", tmp_path / "new"


def _html(capsys: pytest.CaptureFixture[str], old: str, new: str, target: Path) -> Path:
    code, _, err = run(
        capsys,
        "diff",
        old,
        new,
        "--format",
        "html",
        "-o",
        str(target),
        "--current-version",
        "5.0.0",
        "--no-cache",
    )
    assert code == 0, err
    return target


def _pages(page: Path, tmp_path: Path) -> int:
    import re  # noqa: PLC0415
    import shutil  # noqa: PLC0415

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium is not None, "install Chromium with 'make browser'"
    pdf = tmp_path / f"{page.stem}.pdf"
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=True,
    )
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))


@pytest.mark.browser
def test_html_report_of_17_changes_prints_on_at_most_4_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Layout, not content: the old/new signatures get the width of the page (16 pages
    before, with a signature column 3 characters wide); the demo report too."""
    old, new = seventeen_changes(tmp_path)
    page = _html(capsys, str(old), str(new), tmp_path / "report.html")
    _, out, _ = run(capsys, "diff", str(old), str(new), "--format", "json", "--no-cache")
    assert len(json.loads(out)["changes"]) == 11  # one entry per removal, per signature edit
    assert 1 <= _pages(page, tmp_path) <= 4
    demo = ROOT / "fixtures" / "demo"
    page = _html(capsys, str(demo / "old"), str(demo / "new"), tmp_path / "demo.html")
    # 13 changes; each breaking one also says how it is known (its evidence line).
    assert 1 <= _pages(page, tmp_path) <= 3


def test_html_signatures_span_the_table_and_paths_break_between_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = seventeen_changes(tmp_path)
    page = _html(capsys, str(old), str(new), tmp_path / "report.html").read_text("utf-8")
    assert '<tr class="signature" data-level="major"><td colspan="3"><pre class="old">' in page
    assert "<code>FilesystemStorageBackend.<wbr>delete_object</code>" in page
    assert "table-layout: fixed" in page and "@media print" in page
    assert "word-break: break-word" not in page and "overflow-wrap: anywhere" not in page


def test_html_section_counts_agree_with_the_banner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = seventeen_changes(tmp_path)
    (new / "pyproject.toml").write_text(
        '[project]\nname = "pkg"\nversion = "6.0.0"\n\n[[tool.apisurface.accept]]\n'
        'path = "pkg.backends.storage.filesystem.FilesystemStorageBackend.'
        'write_object_atomically(payload)"\nrule = "parameter_renamed"\nreason = "positional"\n',
        encoding="utf-8",
    )
    page = _html(capsys, str(old), str(new), tmp_path / "report.html").read_text("utf-8")
    # 11 entries: the two removals carry "removed without prior deprecation" on themselves,
    # and one edit to one signature is one entry.
    assert "6 major, 4 minor, 0 patch, 1 accepted</div>" in page
    assert "<h2>MAJOR (6, and 1 accepted)</h2>" in page
    assert "MAJOR (6, and 1 accepted)</label>" in page
    assert "<h2>MINOR (4)</h2>" in page


# --- 7. installation that works as written ------------------------------------------------


def _readme_commands(word: str) -> list[str]:
    import re  # noqa: PLC0415

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:sh|yaml)\n(.*?)```", readme, re.S)
    lines = [line.strip() for block in blocks for line in block.splitlines() if word in line]
    # and the commands in the prose, as code spans
    prose = re.sub(r"```.*?```", "", readme, flags=re.S)
    return lines + [span for span in re.findall(r"`([^`\n]+)`", prose) if word in span]


def test_readme_pip_installs_name_only_what_exists() -> None:
    """Every `pip install` in the README installs a local folder, a wheel the Makefile
    builds, or a git URL (nothing of this project is on the package index), and every
    extra it names is one pyproject.toml declares."""
    import re  # noqa: PLC0415
    import shlex  # noqa: PLC0415
    import tomllib  # noqa: PLC0415

    from apisurface import __version__  # noqa: PLC0415

    pyproject_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras = set(pyproject_data["project"]["optional-dependencies"])
    commands = _readme_commands("pip install")
    assert len(commands) >= 3, commands
    for command in commands:
        words = shlex.split(command.partition("run: ")[2] or command, comments=True)
        targets = [word for word in words[words.index("install") + 1 :] if not word.startswith("-")]
        assert targets, command
        for target in targets:
            name, _, extra = target.partition("[")
            for wanted in re.findall(r"[\w-]+", extra.rstrip("]")):
                assert wanted in extras, (command, wanted)
            local = name.startswith((".", "/", "dist/"))
            assert local or " @ git+https://" in target, (command, target)
            if name.endswith(".whl"):
                assert name == f"dist/apisurface-{__version__}-py3-none-any.whl", command
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "\nwheel: install\n\t$(BIN)/python -m pip wheel --no-deps" in makefile
    assert "-w dist ." in makefile


def test_snippets_use_a_placeholder_the_user_sees() -> None:
    """No project URL exists (pyproject.toml names none), so the snippets say <owner>, and
    the README says to replace it."""
    import tomllib  # noqa: PLC0415

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"].get("urls")
    assert urls is None  # when a home exists, the snippets must name it instead
    assert "OWNER/" not in readme
    assert len(_readme_commands("<owner>/apisurface")) == 3
    assert "replace it with yours" in readme


def test_a_docstring_only_change_reads_as_no_public_api_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0"), "src/pkg/__init__.py": DOCSTRING_OLD})
    repo.commit("1.0", tag="v1.0.0")
    repo.write({"src/pkg/__init__.py": DOCSTRING_NEW})
    monkeypatch.chdir(repo.root)
    code, out, _ = run(capsys, "diff", "--no-cache", "--no-color", "--fail-on", "patch")
    assert code == 0
    assert "Recommended bump: PATCH (no public API change): 1.0.0 -> 1.0.1" in out
    assert "NOTES (1, no public API change)\n  pkg: docstring changed: f" in out
    assert "\nPATCH (" not in out
    _, out, _ = run(capsys, "diff", "--no-cache", "--format", "json")
    report = json.loads(out)
    assert (report["counts"], report["notes"]) == ({"major": 0, "minor": 0, "patch": 0}, 1)
    _, out, _ = run(capsys, "diff", "--no-cache", "--format", "markdown")
    assert "### API surface: no public API change (**PATCH**)" in out
    assert run(capsys, "snapshot", "-q", "--no-cache")[0] == 0
    code, out, _ = run(capsys, "check", "--no-cache")
    assert code == 0, out
    assert (
        "PASS version bump sufficient: 1.0.0 is the released version and nothing public "
        "changed\n" in out
    )


def test_the_verdict_counts_in_plural_words(tmp_path: Path) -> None:
    from apisurface.changes import Change, ChangeKind  # noqa: PLC0415
    from apisurface.compare.report import Report  # noqa: PLC0415
    from apisurface.compare.rules import Classified, Level  # noqa: PLC0415
    from apisurface.output.text import verdict  # noqa: PLC0415

    changes = tuple(
        Classified(Change(f"pkg.f{n}", ChangeKind.PARAMETER_ANNOTATION_REFINED), Level.PATCH, "x")
        for n in range(2)
    )
    report = Report("a", "b", changes, Level.PATCH, None, None)
    assert verdict(report) == "PATCH (2 changes with no effect on callers)"


def test_also_writes_more_formats_from_one_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = seventeen_changes(tmp_path)
    code, out, err = run(
        capsys,
        "diff",
        str(old),
        str(new),
        "--no-cache",
        "--format",
        "json",
        "--also",
        f"markdown={tmp_path / 'c.md'}",
        "--also",
        f"sarif={tmp_path / 'a.sarif'}",
    )
    assert code == 0, err
    assert len(json.loads(out)["changes"]) == 11  # one entry per removal, per signature edit
    assert (tmp_path / "c.md").read_text("utf-8").startswith("<!-- apisurface-report -->")
    assert json.loads((tmp_path / "a.sarif").read_text("utf-8"))["version"] == "2.1.0"
    code, _, err = run(capsys, "diff", str(old), str(new), "--also", "pdf=x.pdf")
    assert code == 2
    assert err.startswith("apisurface: error: --also 'pdf=x.pdf': give FORMAT=FILE")
