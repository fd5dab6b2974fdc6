"""Make the case-file reader importable from the tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def _private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tests never read or write the user's apisurface cache (the CLI caches by default),
    nor make the user's cache key (store/seal.py): entries are sealed with a test key."""
    monkeypatch.setenv("APISURFACE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("APISURFACE_CACHE_KEY", "the tests' own cache key")
