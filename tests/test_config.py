"""The [tool.apisurface] table: every key validated, errors name the key and the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from apisurface.changes import ChangeKind
from apisurface.errors import ConfigError
from apisurface.project.config import Config, load_config, parse_config


def test_defaults_without_pyproject(tmp_path: Path) -> None:
    assert load_config(tmp_path) == Config()


def test_full_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        """
[tool.apisurface]
package = "pkg"
require_docstrings = false
exclude = ["pkg.testing*"]
exclude_names = ["*_impl"]
include = ["pkg.tools.cli"]
docs = ["documentation"]
zero_version_breaking = "major"
version_scheme = "calver"
ignore = ["pkg.vendored.*"]
levels = { parameter_default_changed = "minor", docstring_changed = "ignore" }

[[tool.apisurface.accept]]
path = "pkg.f(x)"
rule = "parameter_removed"
reason = "x was never documented"
""",
        encoding="utf-8",
    )
    config = load_config(tmp_path)
    assert config.package == "pkg"
    assert config.require_docstrings is False
    assert config.exclude == ("pkg.testing*",)
    assert config.zero_version_breaking == "major"
    assert config.version_scheme == "calver"
    assert config.levels == {
        ChangeKind.PARAMETER_DEFAULT_CHANGED: "minor",
        ChangeKind.DOCSTRING_CHANGED: "ignore",
    }
    assert config.accept[0].rule is ChangeKind.PARAMETER_REMOVED
    assert config.accept[0].reason == "x was never documented"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"exclud": []}, "unknown key 'exclud'"),
        ({"exclude": "pkg.x"}, "exclude must be a list of strings"),
        ({"require_docstrings": "yes"}, "require_docstrings must be true or false"),
        ({"levels": {"no_such_rule": "minor"}}, "unknown rule 'no_such_rule'"),
        ({"levels": {"parameter_removed": "huge"}}, "levels.parameter_removed must be one of"),
        ({"accept": [{"path": "pkg.f", "rule": "parameter_removed"}]}, "'reason' is required"),
        (
            {"accept": [{"path": "pkg.f", "rule": "nope", "reason": "r"}]},
            "unknown rule 'nope'",
        ),
        (
            {"accept": [{"path": "pkg.f", "rule": "parameter_removed", "reason": "r", "x": 1}]},
            "unknown key 'x'",
        ),
        ({"zero_version_breaking": "patch"}, "zero_version_breaking must be"),
        ({"version_scheme": "dates"}, "version_scheme must be"),
    ],
)
def test_invalid_tables_name_the_key(table: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=r"pyproject\.toml") as error:
        parse_config(table, source="pyproject.toml [tool.apisurface]")
    assert message in str(error.value)


def test_invalid_toml_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.apisurface\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(tmp_path)
