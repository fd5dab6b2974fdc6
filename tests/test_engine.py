"""Upgrading apisurface never fails the gate: a snapshot records the engine that made it
(POLICY.md section 4 producer 4), and one made by another engine is compared by the source
it describes when that is at hand, or its differences are inferred when it is not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clirun import run
from gitrepo import Repo, pyproject

from apisurface.model import ENGINE
from apisurface.store.snapshot import loads

INIT = '''"""Pkg."""


def fetch(url):
    """Fetch a URL."""


def parse(text):
    """Parse text."""
'''
SNAPSHOT = "api_snapshots/pkg.json"


def older_engine(text: str) -> str:
    """The snapshot ``text`` as an older apisurface would have written it: no ``engine``
    field (producer 3), and ``pkg.parse`` shaped by other rules (a method's signature with
    another parameter, as a rule change could make it), plus a path those rules made public."""
    data = json.loads(text)
    del data["engine"]
    data["versions"]["producer"] = 3
    symbols = data["symbols"]
    symbols["pkg.parse"]["signature"]["parameters"][0]["name"] = "source"
    symbols["pkg.helper"] = {"kind": "function", "signature": {"parameters": []}}
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


@pytest.fixture
def upgraded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Repo:
    """A project whose committed snapshot an older engine made; the tree is unchanged
    since, and this (newer) apisurface now reads it."""
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0"), "src/pkg/__init__.py": INIT})
    monkeypatch.chdir(repo.root)
    assert run(capsys, "snapshot", "-q")[0] == 0
    path = repo.root / SNAPSHOT
    path.write_text(older_engine(path.read_text(encoding="utf-8")), encoding="utf-8")
    return repo.commit("1.0.0 with the snapshot of the older apisurface", tag="v1.0.0")


def _checks(
    capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, dict[str, dict[str, Any]]]:
    code, out, _ = run(capsys, "check", "--format", "json", *args)
    return code, {item["name"]: item for item in json.loads(out)["checks"]}


def test_the_snapshot_records_its_engine_and_old_files_read_as_unknown(upgraded: Repo) -> None:
    text = (upgraded.root / SNAPSHOT).read_text(encoding="utf-8")
    old = loads(text)
    assert old.engine is None and old.other_engine  # an older file: an unknown engine
    assert "pkg.helper" in old.symbols
    data = json.loads(text)
    data["engine"] = {"apisurface": "0.1.0", "rules": ENGINE}
    assert not loads(json.dumps(data)).other_engine
    data["engine"] = {"rules": "two"}
    with pytest.raises(Exception, match="'engine' must be an object with an integer 'rules'"):
        loads(json.dumps(data))


def test_check_passes_on_an_unchanged_tree_after_an_upgrade(
    upgraded: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    # The committed snapshot differs from what this engine makes of the same tree...
    snapshot = loads((upgraded.root / SNAPSHOT).read_text(encoding="utf-8"))
    assert "pkg.helper" in snapshot.symbols
    # ...but it describes the commit that wrote it, derived again here: no change.
    code, checks = _checks(capsys)
    assert code == 0
    current = checks["snapshot current"]
    assert current["status"] == "warn"
    assert "derived again from commit" in str(current["summary"])
    assert "to record this engine" in str(current["advice"])
    assert checks["version bump sufficient"]["status"] == "pass"
    # Recording this engine makes the warning go.
    assert run(capsys, "snapshot", "-q")[0] == 0
    code, checks = _checks(capsys)
    assert code == 0 and checks["snapshot current"]["status"] == "pass"


def test_a_real_change_since_the_older_snapshot_still_fails_and_only_it_is_named(
    upgraded: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    upgraded.write(
        {"src/pkg/__init__.py": INIT.replace("def fetch(url):", "def fetch(url, timeout):")}
    )
    code, checks = _checks(capsys, "--no-version")
    assert code == 1
    current = checks["snapshot current"]
    assert current["status"] == "fail"
    details = list(current["details"])
    assert details == ["pkg.fetch(timeout): required parameter added [major]"]


def test_without_its_source_the_differences_are_inferred_and_the_gate_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # No git repository: the source the snapshot was made from is not at hand.
    root = tmp_path / "project"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text(pyproject("1.0.0"), encoding="utf-8")
    (root / "src" / "pkg" / "__init__.py").write_text(INIT, encoding="utf-8")
    monkeypatch.chdir(root)
    assert run(capsys, "snapshot", "-q")[0] == 0
    path = root / SNAPSHOT
    path.write_text(older_engine(path.read_text(encoding="utf-8")), encoding="utf-8")
    code, checks = _checks(capsys, "--no-version")
    assert code == 0
    current = checks["snapshot current"]
    assert current["status"] == "warn"
    assert "which the engine change could explain (inferred" in str(current["summary"])
    assert any("pkg.helper" in line for line in current["details"])
    # diff says the same: every change is inferred, and why.
    code, out, _ = run(capsys, "diff", SNAPSHOT, ".", "--format", "json")
    report = json.loads(out)
    assert "snapshot made by another apisurface engine" in report["engine_note"]
    assert report["changes"]
    code, out, _ = run(capsys, "diff", SNAPSHOT, ".", "--no-color")
    assert "note: every change is inferred: snapshot made by another apisurface engine" in out


def test_diff_with_an_older_snapshot_derives_old_again_from_its_commit(
    upgraded: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "diff", SNAPSHOT, ".", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["changes"] == []
    assert "engine_note" not in report
