"""Which top-level packages a distribution ships together, and ``--package`` naming a
distribution (project/distribution.py, project/locate.py; POLICY.md 2.8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import run, write

from apisurface.errors import SourceError
from apisurface.project.locate import locate

INIT = '"""Pkg."""\n'


def _tree(root: Path, files: dict[str, str]) -> Path:
    return write(root, dict(files))


def _siblings(root: Path, package: str | None = None) -> list[str]:
    return [path.name for path in locate(root, package).siblings]


def test_an_unpacked_wheel_ships_what_its_record_lists(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "pytest/__init__.py": INIT,
            "_pytest/__init__.py": "",
            "py.py": "",
            "unlisted/__init__.py": "",
            "pytest-8.0.dist-info/RECORD": "pytest/__init__.py,sha256=a,1\n"
            "_pytest/__init__.py,sha256=a,1\npy.py,sha256=a,1\n"
            "pytest-8.0.dist-info/RECORD,,\n",
            "pytest-8.0.dist-info/METADATA": "Name: pytest\nVersion: 8.0\n",
        },
    )
    found = locate(root)
    assert found.package == "pytest"
    assert [path.name for path in found.siblings] == ["_pytest", "py.py"]


def test_top_level_txt_of_an_egg_info_says_it_in_an_sdist(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "PKG-INFO": "Name: pkg\nVersion: 1\n",
            "src/pkg/__init__.py": INIT,
            "src/_pkg/__init__.py": "",
            "src/pkg.egg-info/top_level.txt": "_pkg\npkg\n",
            "tests/__init__.py": "",
        },
    )
    assert _siblings(root) == ["_pkg"]


@pytest.mark.parametrize(
    "config",
    [
        '[tool.setuptools]\npackages = ["pkg", "legacy", "legacy.sub"]\n',
        '[tool.setuptools.packages.find]\ninclude = ["pkg*", "legacy*"]\n',
        '[tool.poetry]\npackages = [{include = "pkg"}, {include = "legacy"}]\n',
        '[tool.hatch.build.targets.wheel]\npackages = ["pkg", "legacy"]\n',
    ],
)
def test_the_build_configuration_says_it_in_a_flat_layout(tmp_path: Path, config: str) -> None:
    root = _tree(
        tmp_path,
        {
            "pyproject.toml": f'[project]\nname = "pkg"\n\n{config}',
            "pkg/__init__.py": INIT,
            "legacy/__init__.py": "",
            "scripts/__init__.py": "",
        },
    )
    assert _siblings(root) == ["legacy"]


def test_setup_cfg_lists_packages(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "setup.cfg": "[options]\npackages =\n    pkg\n    legacy\n",
            "pkg/__init__.py": INIT,
            "legacy/__init__.py": "",
            "other/__init__.py": "",
        },
    )
    assert _siblings(root, "pkg") == ["legacy"]


def test_nothing_says_so_nothing_is_a_sibling(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "pkg"\n',
            "pkg/__init__.py": INIT,
            "other/__init__.py": "",
        },
    )
    assert _siblings(root) == []


def test_a_list_without_the_package_is_another_distributions(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "pkg"\n\n[tool.setuptools]\n'
            'packages = ["other", "more"]\n',
            "pkg/__init__.py": INIT,
            "other/__init__.py": "",
            "more/__init__.py": "",
        },
    )
    assert _siblings(root, "pkg") == []


def test_package_may_name_the_distribution(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "yaml/__init__.py": INIT,
            "_yaml/__init__.py": "",
            "PyYAML-6.0.dist-info/RECORD": "yaml/__init__.py,,\n_yaml/__init__.py,,\n",
            "PyYAML-6.0.dist-info/METADATA": "Name: PyYAML\nVersion: 6.0\n",
        },
    )
    found = locate(root, "PyYAML")
    assert (found.package, [path.name for path in found.siblings]) == ("yaml", ["_yaml"])
    assert locate(root, "pyyaml").package == "yaml"


def test_a_distribution_of_several_public_packages_picks_its_namesake(tmp_path: Path) -> None:
    record = "attr/__init__.py,,\nattrs/__init__.py,,\n"
    root = _tree(
        tmp_path,
        {
            "attr/__init__.py": INIT,
            "attrs/__init__.py": INIT,
            "attrs-23.1.dist-info/RECORD": record,
            "attrs-23.1.dist-info/METADATA": "Name: attrs\nVersion: 23.1\n",
        },
    )
    assert (locate(root).package, _siblings(root)) == ("attrs", ["attr"])
    assert (locate(root, "attr").package, _siblings(root, "attr")) == ("attr", ["attrs"])


def test_several_public_packages_and_no_namesake_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(
        tmp_path,
        {
            "one/__init__.py": INIT,
            "two/__init__.py": INIT,
            "both-1.dist-info/RECORD": "one/__init__.py,,\ntwo/__init__.py,,\n",
            "both-1.dist-info/METADATA": "Name: both\nVersion: 1\n",
        },
    )
    with pytest.raises(SourceError, match=r"ships several top-level packages \(one, two\)"):
        locate(root, "both")
    code, _, err = run(capsys, "show", str(root), "--package", "both")
    assert code == 2
    assert "choose one with --package NAME" in err
    assert "Traceback" not in err


def test_show_of_a_wheel_tree_lists_what_the_sibling_defines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(
        tmp_path,
        {
            "pkg/__init__.py": '"""Pkg."""\nfrom _impl.core import parse\n',
            "_impl/__init__.py": "",
            "_impl/core.py": 'def parse(text: str) -> "Node":\n    """Parse."""\n\n\n'
            "class Node:\n    pass\n",
            "pkg-1.dist-info/RECORD": "pkg/__init__.py,,\n_impl/core.py,,\n",
            "pkg-1.dist-info/METADATA": "Name: pkg\nVersion: 1\n",
        },
    )
    code, out, err = run(capsys, "show", str(root), "--no-cache")
    assert code == 0, err
    # The sibling's object without a public path is spelled by the package, as any other.
    assert "def parse(text: str) -> pkg.Node" in out
