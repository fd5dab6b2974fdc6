"""Hostile ``[tool.apisurface]`` values (issue 20, the attacks not yet tried): wrong types,
huge sizes, absolute paths, ``..`` and globs. Each is one line and exit 2, or is read
literally and never reaches outside the project, in bounded time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run, write

from apisurface.errors import ConfigError
from apisurface.project.config import parse_config

PACKAGE = {"pkg/__init__.py": '"""Pkg."""\ndef f():\n    """F."""\n'}


def project(root: Path, table: str) -> Path:
    pyproject = f'[project]\nname = "pkg"\n\n[tool.apisurface]\n{table}\n'
    return write(root, {**PACKAGE, "pyproject.toml": pyproject})


@pytest.mark.parametrize(
    "table",
    [
        {"exclude": "pkg.*"},
        {"exclude": [1]},
        {"exclude": [["nested"]]},
        {"include": {"a": 1}},
        {"docs": "docs"},
        {"docs": ["/etc"]},
        {"docs": ["../outside"]},
        {"docs": ["docs/../../x"]},
        {"docs": ["C:/x"]},
        {"docs": [""]},
        {"package": 1},
        {"package": "../outside"},
        {"package": "/etc"},
        {"package": "pkg/../.."},
        {"package": "pkg.*"},
        {"package": ""},
        {"require_docstrings": "yes"},
        {"zero_version_breaking": 0},
        {"levels": ["symbol_removed"]},
        {"levels": {"symbol_removed": 1}},
        {"levels": {"no_such_rule": "minor"}},
        {"accept": "all"},
        {"accept": [{"path": 1, "rule": "symbol_removed", "reason": "x"}]},
        {"accept": [{"path": "pkg.f", "rule": "symbol_removed", "reason": ""}]},
        {"accept": [{"path": "pkg.f", "rule": "symbol_removed", "reason": "x"}] * 10_001},
        {"ignore": [None]},
        {"export_decorators": ["a.b"]},
        {"export_decorators": ["x"] * 10_001},
        {"unknown": 1},
    ],
    ids=lambda table: next(iter(table)) + ":" + repr(next(iter(table.values())))[:30],
)
def test_hostile_values_are_configuration_errors(table: dict[str, object]) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_config(table)
    message = str(raised.value)
    assert "\n" not in message and len(message) < 600, message


def test_a_package_path_from_the_configuration_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = project(tmp_path / "src", 'package = "../outside"')
    code, _, err = run(capsys, "snapshot", str(source), "-o", "-")
    assert code == 2
    assert err.count("\n") == 1 and "[tool.apisurface]" in err and "--package" not in err, err


@pytest.mark.parametrize("folder", ["docs/*", "docs/**", "*", "d?cs", "[d]ocs"])
def test_docs_globs_are_folder_names_not_patterns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], folder: str
) -> None:
    """A glob in ``docs`` names a folder literally: ``*`` does not read every folder."""
    source = project(tmp_path / "src", f"docs = [{json.dumps(folder)}]")
    write(source, {"docs/api.rst": ".. function:: pkg.undocumented\n"})
    (source / "pkg" / "__init__.py").write_text(
        '"""Pkg."""\ndef undocumented():\n    pass\n', encoding="utf-8"
    )
    code, out, err = run(capsys, "snapshot", str(source), "-o", "-", "--no-cache")
    assert code == 0, err
    assert "pkg.undocumented" not in json.loads(out)["symbols"]


def test_huge_patterns_and_nesting_are_bounded(tmp_path: Path) -> None:
    """A pattern of thousands of ``*`` against long names (no catastrophic backtracking),
    and a TOML value nested 50,000 deep: done in a child process that is killed if slow."""
    pattern = "pkg." + "*a" * 3000 + "b"
    names = "".join(f'def {"a" * 200}{i}():\n    """F."""\n' for i in range(200))
    source = project(tmp_path / "src", f"exclude = [{json.dumps(pattern)}]")
    (source / "pkg" / "__init__.py").write_text('"""Pkg."""\n' + names, encoding="utf-8")
    nested = project(tmp_path / "nested", "exclude = " + "[" * 50_000 + "]" * 50_000)
    for folder, expected in ((source, 0), (nested, 2)):
        completed = subprocess.run(
            [sys.executable, "-m", "apisurface", "snapshot", str(folder), "-o", "-", "--no-cache"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert completed.returncode == expected, completed.stderr
        if expected == 2:
            assert completed.stderr.count("\n") == 1 and "Traceback" not in completed.stderr
