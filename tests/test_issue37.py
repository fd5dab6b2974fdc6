"""Issue 37: what a maintainer meets on a real project (round 4). One section per item of
the issue; each test fails on the main branch the issue was filed against.

1. bad input is an error, never a finding; 2. the snapshot holds the contract, not the
prose; 3. reports people read; 4. one entry per change; 5. annotations where the change is;
6. the smaller items."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run
from gitrepo import Repo, pyproject

CORE = '''
"""Core."""


class Client:
    """A client."""

    def get(self, url: str, timeout: float = 1.0) -> bytes:
        """Get a URL."""
        return b""


def fetch(url: str) -> bytes:
    """Fetch a URL."""
    return b""
'''

INIT = '''
"""A small package."""

from pkg.core import Client, fetch

__all__ = ["Client", "fetch"]
'''


def project(tmp_path: Path, version: str = "1.0.0", *, tag: str | None = "v1.0.0") -> Repo:
    """A repository with package ``pkg`` (src layout), committed (and tagged)."""
    repo = Repo(tmp_path / "repo")
    repo.write(
        {"pyproject.toml": pyproject(version), "src/pkg/__init__.py": INIT, "src/pkg/core.py": CORE}
    )
    return repo.commit("release", tag=tag)


def snapshot_committed(
    repo: Repo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Path:
    monkeypatch.chdir(repo.root)
    assert run(capsys, "snapshot", "-q")[0] == 0
    repo.commit("snapshot")
    return repo.root / "api_snapshots" / "pkg.json"


# --- 2. the snapshot holds the contract, not the prose ----------------------------------


def test_snapshot_records_documented_not_a_digest_of_the_docstring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path)
    text = snapshot_committed(repo, capsys, monkeypatch).read_text("utf-8")
    line = next(line for line in text.splitlines() if line.startswith('    "pkg.fetch":'))
    assert '"documented": true' in line
    assert '"docstring"' not in text
    versions = json.loads(text)["versions"]
    assert versions["producer"] >= 13
    assert versions["min_consumer"] == 3


def test_a_docstring_edit_leaves_the_snapshot_current(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path)
    snapshot_committed(repo, capsys, monkeypatch)
    repo.write({"src/pkg/core.py": CORE.replace('"""Fetch a URL."""', '"""Fetch one URL."""')})
    code, out, _ = run(capsys, "check", "--no-version")
    assert code == 0, out
    assert "PASS snapshot current" in out
    code, out, _ = run(capsys, "snapshot", "--if-stale")
    assert code == 0
    # Between two trees, the wording is still a note (PATCH), never a public API change.
    code, out, _ = run(capsys, "diff", "v1.0.0", ".", "--format", "json")
    report = json.loads(out)
    assert [(c["path"], c["kind"], c.get("note")) for c in report["changes"]] == [
        ("pkg.fetch", "docstring_changed", True)
    ]
    assert report["bump"] == "patch"


def test_a_snapshot_of_format_12_is_read_and_current(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file written before format 13 holds a digest per docstring: read as documented,
    and current when the source has the same surface."""
    repo = project(tmp_path)
    path = snapshot_committed(repo, capsys, monkeypatch)
    data = json.loads(path.read_text("utf-8"))
    data["versions"] = {"producer": 12, "min_consumer": 1, "bad_consumers": []}
    for value in data["symbols"].values():
        if value.pop("documented", False):
            value["docstring"] = "963b9cdf" * 8
    path.write_text(json.dumps(data, indent=2), "utf-8")
    from apisurface.store.snapshot import read_snapshot  # noqa: PLC0415

    assert read_snapshot(path).symbols["pkg.fetch"].documented
    code, out, _ = run(capsys, "check", "--no-version")
    assert code == 0, out
    code, out, _ = run(capsys, "diff", str(path), ".", "--format", "json")
    assert json.loads(out)["changes"] == []
