"""One table of ``[tool.apisurface]`` keys (project/config.py ``KEYS``, issue 24): the docs'
examples stay valid, every key is documented, and the cache key holds exactly the keys
that shape the surface."""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from apisurface.errors import ConfigError
from apisurface.project.config import KEYS, Config, Key, parse_config, with_key_table

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_TOML_BLOCK = re.compile(r"^```toml\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _config_examples(page: Path) -> list[str]:
    return [
        block
        for block in _TOML_BLOCK.findall(page.read_text("utf-8"))
        if "[tool.apisurface" in block
    ]


EXAMPLES = [(page, block) for page in PAGES for block in _config_examples(page)]


def test_readme_and_policy_have_config_examples() -> None:
    pages = {page.name for page, _ in EXAMPLES}
    assert {"README.md", "policy.md"} <= pages


@pytest.mark.parametrize(
    ("page", "block"),
    EXAMPLES,
    ids=[f"{page.name}-{index}" for index, (page, _) in enumerate(EXAMPLES)],
)
def test_config_examples_are_valid(page: Path, block: str) -> None:
    """Each example parses as TOML and every key in it is known and valid."""
    table = tomllib.loads(block)["tool"]["apisurface"]
    parse_config(table, source=f"{page.name} example")


def test_every_key_is_documented() -> None:
    """docs/policy.md's key table is written from KEYS (``make policy``) and current."""
    page = (ROOT / "docs" / "policy.md").read_text("utf-8")
    assert with_key_table(page) == page, "run 'make policy' to rewrite docs/policy.md's key table"
    for key in KEYS:
        assert f"| `{key.name}` |" in page


def test_key_table_needs_its_markers() -> None:
    with pytest.raises(ConfigError, match="markers"):
        with_key_table("# A page without the markers\n")


def test_keys_are_the_config_fields() -> None:
    names = [key.name for key in KEYS]
    assert len(names) == len(set(names))
    assert set(names) == {item.name for item in fields(Config)} - {"source"}


@pytest.mark.parametrize("key", KEYS, ids=[key.name for key in KEYS])
def test_each_key_example_is_valid_and_not_the_default(key: Key) -> None:
    value = tomllib.loads(f"{key.name} = {key.example}")[key.name]
    config = parse_config({key.name: value})
    assert getattr(config, key.name) != getattr(Config(), key.name)
    assert key.doc and key.type


@pytest.mark.parametrize("key", KEYS, ids=[key.name for key in KEYS])
def test_the_cache_key_holds_the_keys_that_shape_the_surface(key: Key) -> None:
    """A key that shapes the surface changes :meth:`Config.policy_key` (so a cached
    surface is not served for another setting); any other key leaves it alone."""
    value = tomllib.loads(f"{key.name} = {key.example}")[key.name]
    changed = parse_config({key.name: value}).policy_key() != Config().policy_key()
    assert changed == (key.surface and key.cache_label is not None)


@pytest.mark.parametrize("key", KEYS, ids=[key.name for key in KEYS])
def test_each_key_is_validated(key: Key) -> None:
    """A value of the wrong type is one error naming the key and the file."""
    wrong = 3.5
    with pytest.raises(ConfigError, match=rf"^pyproject.toml: .*{key.name}"):
        parse_config({key.name: wrong}, source="pyproject.toml")
