"""Cache entries cannot change a verdict (issue 39 item 5; docs/security.md, "The cache").

A cache restored in CI may hold what a pull request wrote, and an entry's key is a hash of
its inputs: anyone can compute it. Entries are bound to the runs holding the cache key
(store/seal.py, an HMAC); one written without it is a miss, never parsed."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import zipfile
from pathlib import Path

import pytest
from clirun import run
from gitrepo import Repo, pyproject

from apisurface.store.cache import SurfaceCache
from apisurface.store.modules import ModuleEntries, module_key
from apisurface.surface.collect import load_surface

KEY_ENV = "APISURFACE_CACHE_KEY"

BASE = '"""Pkg."""\n\n\ndef f(a):\n    """F."""\n\n\ndef g():\n    """G."""\n'
HEAD = '"""Pkg."""\n\n\ndef f(a):\n    """F."""\n'


def test_an_entry_forged_under_the_real_key_cannot_hide_a_removal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The base's surface (and its module's visit) forged under their real keys, well
    formed, holding the head's surface: the removal of ``g`` was hidden (PATCH)."""
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0"), "pkg/__init__.py": BASE})
    repo.commit("release", tag="v1.0.0")
    repo.write({"pkg/__init__.py": HEAD}).commit("remove g")
    monkeypatch.chdir(repo.root)
    cache = tmp_path / "cache"
    code, out, err = run(
        capsys, "diff", "v1.0.0", ".", "--format", "json", "--cache-dir", str(cache)
    )
    assert code == 0, err
    assert json.loads(out)["bump"] == "major"
    head = load_surface(repo.root)
    head_product = ModuleEntries(cache).get(module_key("pkg", "pkg/__init__.py", HEAD), 1 << 30)
    assert head_product is not None
    # The pull request's job: entries written by apisurface itself, under another key.
    monkeypatch.setenv(KEY_ENV, "whatever the pull request guessed")
    for entry in (cache / "surface").rglob("*.json"):
        SurfaceCache(cache).put_surface(entry.stem, head)
    ModuleEntries(cache).put(module_key("pkg", "pkg/__init__.py", BASE), head_product)
    monkeypatch.setenv(KEY_ENV, "the tests' own cache key")
    code, out, err = run(
        capsys, "diff", "v1.0.0", ".", "--format", "json", "--cache-dir", str(cache)
    )
    assert code == 0, err
    report = json.loads(out)
    assert report["bump"] == "major"
    assert any(change["path"] == "pkg.g" for change in report["changes"])


def test_the_users_key_is_made_once_outside_the_cache_and_owner_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from apisurface.store import seal as seal_module  # noqa: PLC0415

    monkeypatch.delenv(KEY_ENV)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    seal_module._secret_for.cache_clear()
    try:
        package = tmp_path / "src" / "pkg"
        package.mkdir(parents=True)
        (package / "__init__.py").write_text(BASE, encoding="utf-8")
        cache = SurfaceCache(tmp_path / "cache")
        first = load_surface(package.parent, cache=cache)
        path = seal_module.key_file()
        assert path == tmp_path / "config" / "apisurface" / "cache-key"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        key = path.read_bytes()
        assert len(bytes.fromhex(key.decode())) == 32
        (entry,) = (tmp_path / "cache" / "surface").rglob("*.json")
        assert cache.get_surface(entry.stem) == first  # read back with the same key
        seal_module._secret_for.cache_clear()
        assert cache.get_surface(entry.stem) == first  # the file, read again
        assert path.read_bytes() == key
        path.write_text("ab" * 32 + "\n", encoding="utf-8")  # another key: a miss
        seal_module._secret_for.cache_clear()
        assert cache.get_surface(entry.stem) is None
        monkeypatch.setenv(KEY_ENV, "a secret of the CI")
        assert cache.get_surface(entry.stem) is None
    finally:
        seal_module._secret_for.cache_clear()


def test_an_unsealed_release_listing_is_not_believed_offline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offline, the cached listing says which sha256 the cached archive must have: a
    listing and archive planted together served any code as ``pkg==1.0``."""
    folder = tmp_path / "cache" / "releases" / "pkg" / "1.0"
    folder.mkdir(parents=True)
    name = "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(tmp_path / name, "w") as bundle:
        bundle.writestr("pkg/__init__.py", HEAD)
    data = (tmp_path / name).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    document = {"urls": [{"filename": name, "url": name, "digests": {"sha256": digest}}]}
    (folder / "files.json").write_text(json.dumps(document), encoding="utf-8")
    (folder / f"{digest[:16]}-{name}").write_bytes(data)
    source = tmp_path / "src" / "pkg"
    source.mkdir(parents=True)
    (source / "__init__.py").write_text(HEAD, encoding="utf-8")
    monkeypatch.setenv("APISURFACE_OFFLINE", "1")
    cache = str(tmp_path / "cache")
    code, _, err = run(capsys, "diff", "pkg==1.0", str(source.parent), "--cache-dir", cache)
    assert code == 2
    assert "no copy of pkg==1.0 is cached" in err
    assert os.path.exists(folder / "files.json")  # left where it was, not trusted
