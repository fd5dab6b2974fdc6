"""Files a pull request (or a restored cache) controls, round 2 (issue 20, docs/security.md):
writes below the cache never follow a symlink, every read is of a regular file checked
before it is read, and a full disk or a concurrent writer leaves no partial file.

Anything that could hang runs in a child process with a timeout, so a regression fails
instead of blocking the suite."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from cacheentries import payload
from clirun import run, write

import apisurface.store.atomic as atomic_module
import apisurface.store.index as index_module
from apisurface.errors import ApisurfaceError
from apisurface.project import safeio
from apisurface.store.atomic import write_atomic
from apisurface.store.cache import SurfaceCache
from apisurface.store.seal import seal

TIMEOUT = 60
PACKAGE = {"pkg/__init__.py": '"""Pkg."""\ndef f(a):\n    """F."""\n'}


def cli(*argv: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> tuple[int, str]:
    """``apisurface ARGV`` in a child process that is killed after TIMEOUT seconds."""
    completed = subprocess.run(
        [sys.executable, "-m", "apisurface", *argv],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        cwd=cwd,
        env={**os.environ, **(env or {})},
    )
    return completed.returncode, completed.stderr


def one_line_error(code: int, err: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("apisurface: error: "), err


def leftovers(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.name.endswith(".tmp")]


# --- writes below the cache root never follow a symlink (item 3) ---------------------------


@pytest.mark.parametrize("kind", ["surface", "module"])
@pytest.mark.parametrize("depth", ["kind", "shard"])
def test_cache_folders_symlinked_outside_are_not_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, depth: str
) -> None:
    source = write(tmp_path / "src", PACKAGE)
    cache = tmp_path / "cache"
    code, _, err = run(capsys, "snapshot", str(source), "--cache-dir", str(cache), "-o", "-")
    assert code == 0, err
    shards = sorted((cache / kind).iterdir()) if (cache / kind).is_dir() else []
    outside = tmp_path / "outside"
    outside.mkdir()
    if depth == "kind" or not shards:
        # The whole kind folder is a symlink to a folder outside the cache.
        if (cache / kind).exists():
            for path in sorted((cache / kind).rglob("*"), reverse=True):
                path.unlink() if path.is_file() else path.rmdir()
            (cache / kind).rmdir()
        (cache / kind).symlink_to(outside, target_is_directory=True)
    else:
        for shard in shards:
            for path in shard.iterdir():
                path.unlink()
            shard.rmdir()
            shard.symlink_to(outside, target_is_directory=True)
    if kind != "surface":  # else the surface entry is found and no module entry written
        for path in (cache / "surface").rglob("*.json"):
            path.unlink()
    code, out, err = run(capsys, "snapshot", str(source), "--cache-dir", str(cache), "-o", "-")
    assert code == 0, err  # the cache is only skipped: a miss costs time
    assert json.loads(out)["package"] == "pkg"
    assert list(outside.rglob("*")) == []


def test_write_atomic_below_a_root_refuses_a_symlinked_component(tmp_path: Path) -> None:
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    (root / "a").mkdir(parents=True)
    outside.mkdir()
    (root / "a" / "b").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ApisurfaceError, match="symlink"):
        write_atomic(root / "a" / "b" / "c" / "x.json", "{}", root=root)
    assert list(outside.iterdir()) == []
    write_atomic(root / "a" / "d" / "x.json", "{}", root=root)
    assert (root / "a" / "d" / "x.json").read_text(encoding="utf-8") == "{}"
    with pytest.raises(ApisurfaceError, match="inside"):
        write_atomic(tmp_path / "elsewhere.json", "{}", root=root)


def listing(filename: str, data: bytes) -> dict[str, object]:
    digest = hashlib.sha256(data).hexdigest()
    entry = {
        "filename": filename,
        "packagetype": "bdist_wheel",
        "url": f"https://files.invalid/{filename}",
        "digests": {"sha256": digest},
    }
    return {"info": {"name": "pkg", "version": "1.0"}, "urls": [entry]}


def wheel(path: Path) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as bundle:
        bundle.writestr("pkg/__init__.py", PACKAGE["pkg/__init__.py"])
    return path.read_bytes()


@pytest.mark.parametrize("link", ["releases", "releases/pkg", "releases/pkg/1.0"])
def test_release_cache_symlinked_outside_is_not_written_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, link: str
) -> None:
    data = wheel(tmp_path / "dist" / "pkg-1.0-py3-none-any.whl")
    document = listing("pkg-1.0-py3-none-any.whl", data)
    answers = {"json": json.dumps(document).encode(), "whl": data}

    def fake_get(url: str, limit: int) -> bytes:
        return answers[url.rsplit(".", 1)[-1].rsplit("/", 1)[-1]]

    monkeypatch.setattr(index_module, "_get", fake_get)
    monkeypatch.delenv(index_module.OFFLINE_ENV, raising=False)
    cache = tmp_path / "cache"
    outside = tmp_path / "outside"
    outside.mkdir()
    (cache / link).parent.mkdir(parents=True, exist_ok=True)
    (cache / link).symlink_to(outside, target_is_directory=True)
    requirement = index_module.parse("pkg==1.0")
    assert requirement is not None
    with pytest.raises(ApisurfaceError, match="symlink"):
        index_module.fetch(requirement, cache)
    assert list(outside.rglob("*")) == []


# --- reads: regular files only, size checked before reading (items 4-6) ---------------------


def release_cache(cache: Path) -> tuple[Path, Path]:
    """A cached ``pkg==1.0``: its listing and its archive, as a previous run leaves them."""
    folder = cache / "releases" / "pkg" / "1.0"
    data = wheel(tmp_wheel := folder.parent / "build" / "pkg-1.0-py3-none-any.whl")
    document = listing(tmp_wheel.name, data)
    folder.mkdir(parents=True, exist_ok=True)
    listing_text = json.dumps(document).encode("utf-8")
    mac = seal("release", "pkg==1.0", listing_text).encode("ascii")  # as the run that fetched it
    (folder / "files.json").write_bytes(mac + b"\n" + listing_text)
    digest = hashlib.sha256(data).hexdigest()
    archive = folder / f"{digest[:16]}-{tmp_wheel.name}"
    archive.write_bytes(data)
    return folder / "files.json", archive


def test_offline_release_from_the_cache_works(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    release_cache(cache)
    source = write(tmp_path / "src", PACKAGE)
    env = {"APISURFACE_OFFLINE": "1", "APISURFACE_CACHE_DIR": str(cache)}
    code, err = cli("diff", "pkg==1.0", str(source), env=env)
    assert code == 0, err


@pytest.mark.parametrize("which", ["listing", "archive"])
def test_fifo_in_the_release_cache_does_not_hang(tmp_path: Path, which: str) -> None:
    cache = tmp_path / "cache"
    files, archive = release_cache(cache)
    victim = files if which == "listing" else archive
    victim.unlink()
    os.mkfifo(victim)
    source = write(tmp_path / "src", PACKAGE)
    env = {"APISURFACE_OFFLINE": "1", "APISURFACE_CACHE_DIR": str(cache)}
    code, err = cli("diff", "pkg==1.0", str(source), env=env)
    one_line_error(code, err)
    assert "cached" in err


def test_symlinked_release_cache_files_are_not_read(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _, archive = release_cache(cache)
    elsewhere = tmp_path / "elsewhere.whl"
    archive.rename(elsewhere)
    archive.symlink_to(elsewhere)
    source = write(tmp_path / "src", PACKAGE)
    env = {"APISURFACE_OFFLINE": "1", "APISURFACE_CACHE_DIR": str(cache)}
    code, err = cli("diff", "pkg==1.0", str(source), env=env)
    one_line_error(code, err)


def test_a_cache_entry_that_is_a_symlink_is_a_miss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path / "src", PACKAGE)
    cache = tmp_path / "cache"
    code, _, err = run(capsys, "snapshot", str(source), "--cache-dir", str(cache), "-o", "-")
    assert code == 0, err
    (entry,) = (cache / "surface").rglob("*.json")
    assert SurfaceCache(cache).get_surface(entry.stem) is not None
    elsewhere = tmp_path / "elsewhere.json"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)  # the same, valid entry: still not read through a link
    assert SurfaceCache(cache).get_surface(entry.stem) is None


@pytest.mark.parametrize("command", ["impact", "migrate"])
def test_fifo_named_py_in_the_user_tree_does_not_hang(tmp_path: Path, command: str) -> None:
    old = write(tmp_path / "old", PACKAGE)
    new = write(tmp_path / "new", {"pkg/__init__.py": '"""Pkg."""\n'})
    user = write(tmp_path / "user", {"use.py": "import pkg\npkg.f(1)\n"})
    os.mkfifo(user / "x.py")
    code, err = cli(command, str(old), str(new), str(user))
    assert code == 2, err  # a problem with the user's files: listed, exit 2
    assert "x.py" in err and "not a regular file" in err, err


def test_find_sources_skips_what_is_not_a_regular_file(tmp_path: Path) -> None:
    from apisurface.release.impact import find_sources  # noqa: PLC0415

    user = write(tmp_path / "user", {"a.py": "x = 1\n"})
    os.mkfifo(user / "x.py")
    (user / "d.py").mkdir()
    files, problems = find_sources([str(user)])
    assert files == [user / "a.py"]
    assert any("x.py" in problem and "not a regular file" in problem for problem in problems)


class Recorder:
    """Counts bytes read from descriptors while it is installed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.read = 0
        original = os.read

        def counting(descriptor: int, size: int) -> bytes:
            data = original(descriptor, size)
            self.read += len(data)
            return data

        monkeypatch.setattr(safeio.os, "read", counting)


def test_a_huge_module_is_not_read_before_its_size_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write(tmp_path / "src", PACKAGE)
    with (source / "pkg" / "big.py").open("wb") as stream:
        stream.truncate(2 << 30)  # a sparse 2 GiB file: costs no disk
    recorder = Recorder(monkeypatch)
    code, out, err = run(capsys, "snapshot", str(source), "-o", "-", "--no-cache")
    assert code == 0, err
    assert any("big.py: larger than" in problem for problem in json.loads(out)["problems"])
    assert recorder.read < 1 << 20


@pytest.mark.parametrize("command", ["impact", "migrate"])
def test_a_huge_user_file_is_not_read_whole(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    old = write(tmp_path / "old", PACKAGE)
    new = write(tmp_path / "new", {"pkg/__init__.py": '"""Pkg."""\n'})
    user = write(tmp_path / "user", {"use.py": "import pkg\npkg.f(1)\n"})
    with (user / "big.py").open("wb") as stream:
        stream.truncate(2 << 30)
    recorder = Recorder(monkeypatch)
    code, _, err = run(capsys, command, str(old), str(new), str(user))
    assert code == 2, err
    assert "big.py" in err and "larger than" in err
    assert recorder.read < 1 << 20


def test_read_regular_refuses_a_symlink_when_asked(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.write_bytes(b"x")
    link = tmp_path / "link"
    link.symlink_to(target)
    assert safeio.read_regular(link, 10) == b"x"
    with pytest.raises(safeio.NotRegularFile):
        safeio.read_regular(link, 10, follow_symlinks=False)


# --- a full disk, truncated and concurrent entries --------------------------------------------


def disk_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write to a file fails with ENOSPC (standard streams still work)."""
    original = os.write

    def full(descriptor: int, data: bytes) -> int:
        if descriptor > 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return original(descriptor, data)

    monkeypatch.setattr(atomic_module.os, "write", full)


def test_disk_full_during_a_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write(tmp_path / "src", PACKAGE)
    target = source / "api_snapshots" / "pkg.json"
    target.parent.mkdir()
    target.write_text("old", encoding="utf-8")
    disk_full(monkeypatch)
    code, _, err = run(capsys, "snapshot", str(source), "--cache-dir", str(tmp_path / "c"))
    one_line_error(code, err)
    assert "No space left on device" in err
    assert target.read_text(encoding="utf-8") == "old"
    assert leftovers(source) == [] and leftovers(tmp_path / "c") == []


def test_disk_full_during_a_cache_write_is_a_miss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write(tmp_path / "src", PACKAGE)
    cache = tmp_path / "cache"
    disk_full(monkeypatch)
    code, out, err = run(capsys, "snapshot", str(source), "--cache-dir", str(cache), "-o", "-")
    assert code == 0, err
    assert json.loads(out)["package"] == "pkg"
    assert leftovers(cache) == []
    assert [path for path in cache.rglob("*") if path.is_file()] == []


def test_truncated_cache_entries_are_misses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path / "src", PACKAGE)
    cache = tmp_path / "cache"
    code, first, err = run(capsys, "snapshot", str(source), "--cache-dir", str(cache), "-o", "-")
    assert code == 0, err
    entries = [path for path in cache.rglob("*") if path.is_file()]
    assert entries
    for entry in entries:
        data = entry.read_bytes()
        entry.write_bytes(data[: len(data) // 2])
    code, second, err = run(capsys, "snapshot", str(source), "--cache-dir", str(cache), "-o", "-")
    assert code == 0, err
    assert second == first


def test_concurrent_writers_of_one_entry(tmp_path: Path) -> None:
    """Two processes snapshotting the same tree into one cache at once: both succeed, the
    entries they leave are whole, and a third run reads them back."""
    source = write(tmp_path / "src", PACKAGE)
    cache = tmp_path / "cache"
    command = [sys.executable, "-m", "apisurface", "snapshot", str(source), "-o", "-"]
    env = {**os.environ, "APISURFACE_CACHE_DIR": str(cache)}
    children = [
        subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    outputs = [child.communicate(timeout=TIMEOUT) for child in children]
    assert [child.returncode for child in children] == [0, 0], outputs
    assert outputs[0][0] == outputs[1][0]
    assert leftovers(cache) == []
    surfaces = list((cache / "surface").rglob("*.json"))
    assert surfaces
    for entry in surfaces:
        json.loads(payload(entry))
    key = surfaces[0].stem
    assert SurfaceCache(cache).get_surface(key) is not None


# --- archives are unpacked member by member, in bounded chunks --------------------------------


def _recording_reads(monkeypatch: pytest.MonkeyPatch, cls: type, sizes: list[int]) -> None:
    original = cls.read  # type: ignore[attr-defined]

    def read(self: object, size: int | None = -1) -> bytes:
        sizes.append(-1 if size is None else size)
        return original(self, size)  # type: ignore[no-any-return]

    monkeypatch.setattr(cls, "read", read)


@pytest.mark.parametrize("suffix", [".whl", ".tar.gz"])
def test_archive_members_are_streamed_in_bounded_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    import tarfile  # noqa: PLC0415

    from apisurface.project import archives  # noqa: PLC0415

    big = b"x = 1\n" * (3 << 20)  # 18 MiB: read whole before, in chunks now
    if suffix == ".whl":
        archive = tmp_path / "pkg-1.0-py3-none-any.whl"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
            bundle.writestr("pkg/__init__.py", big)
        cls: type = zipfile.ZipExtFile
    else:
        archive = tmp_path / "pkg-1.0.tar.gz"
        member = tmp_path / "member.py"
        member.write_bytes(big)
        with tarfile.open(archive, "w:gz") as bundle:
            bundle.add(member, "pkg-1.0/pkg/__init__.py")
        cls = tarfile.ExFileObject
    sizes: list[int] = []
    _recording_reads(monkeypatch, cls, sizes)
    root = archives.unpack(archive, tmp_path / "out")
    assert (root / "pkg" / "__init__.py").read_bytes() == big
    assert sizes and all(0 < size <= 1 << 20 for size in sizes), sorted(set(sizes))[:5]
