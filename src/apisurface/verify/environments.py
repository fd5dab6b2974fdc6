"""Isolated environments of a distribution at a version, built once and reused.

:func:`prepare` turns a :class:`Release` (a release of the package index, a wheel file, or
a source folder) into an :class:`Environment` (a virtual environment with the distribution
and the dependencies it declares installed from the index), or an :class:`Unavailable`
saying why not, in one line: never a traceback for what the release or the index did.

How (measured in ``bench/environments.py``, docs/benchmarks.md): uv, from the ``uv``
package (the ``verify`` extra), creates the environment and installs wheels only
(``--no-build``): installing a wheel runs none of its code. A release without a usable
wheel has its source distribution built, and a folder is built, into a wheel first: that
runs the project's build backend, so it happens in the sandbox
(:mod:`apisurface.verify.sandbox`) without network, in a copy of the sources, after the
build requirements its ``pyproject.toml`` declares were installed (as wheels) into a
build environment. Every step runs through the sandbox: the installer with network and
write access to the new environment and uv's cache only, everything else without network.

Environments are cached by (distribution, version, content, Python, index settings)
under ``CACHE/environments/``: built in a temporary folder beside it and renamed when
complete (a marker file records the key), so a half-built environment is never reused.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import sys
import sysconfig
import tempfile
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from apisurface.errors import ApisurfaceError
from apisurface.project.safeio import read_regular
from apisurface.store import index
from apisurface.verify.sandbox import Limits, Outcome, Run, run_program

__all__ = [
    "ENVIRONMENTS_FOLDER",
    "NO_UV",
    "RECIPE",
    "Environment",
    "IndexSettings",
    "Release",
    "Unavailable",
    "find_uv",
    "prepare",
    "release_of",
]

NO_UV = "uv is not installed: install apisurface with its 'verify' extra (or the uv package)"
RECIPE = 1
"""Raise when the way an environment is made changes: older environments are not reused."""
ENVIRONMENTS_FOLDER = "environments"
_MARKER = "apisurface-environment.json"
_INSTALL_LIMITS = Limits(seconds=900, cpu_seconds=900, memory_bytes=32 << 30, output_bytes=8 << 20)
_BUILD_LIMITS = Limits(seconds=900, cpu_seconds=900, memory_bytes=8 << 30, output_bytes=8 << 20)
_COMPILE_LIMITS = Limits(seconds=600, cpu_seconds=1200, memory_bytes=8 << 30, output_bytes=8 << 20)
_STALE_SECONDS = 24 * 3600
# What the installer may see of the caller's environment: where the index is, and how to
# reach it. Nothing else crosses (no tokens, no PYTHONPATH).
_INSTALLER_VARIABLES = (
    "UV_INDEX_URL",
    "UV_DEFAULT_INDEX",
    "UV_EXTRA_INDEX_URL",
    "UV_INDEX",
    "UV_FIND_LINKS",
    "UV_NATIVE_TLS",
    "UV_HTTP_TIMEOUT",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
)
_DEFAULT_BUILD = {"requires": ["setuptools>=40.8.0", "wheel"]}


@dataclass(frozen=True, slots=True)
class Release:
    """What to install: ``kind`` is ``"index"`` (``name`` and ``version`` of the package
    index), ``"wheel"`` (``path`` of a wheel file) or ``"source"`` (``path`` of a source
    folder or a source distribution, built into a wheel in the sandbox)."""

    kind: str
    name: str = ""
    version: str = ""
    path: Path | None = None
    extras: tuple[str, ...] = ()
    also: tuple[str, ...] = ()
    """``extras``: the distribution's own extras to install with it (``frameworks`` for
    ``webargs[frameworks]``); ``also``: more requirements installed beside it (optional
    dependencies that some of its modules import)."""

    @classmethod
    def from_index(
        cls, name: str, version: str, *, extras: Sequence[str] = (), also: Sequence[str] = ()
    ) -> Release:
        return cls("index", _normalise(name), version, None, tuple(extras), tuple(also))

    @classmethod
    def wheel(cls, path: Path, *, extras: Sequence[str] = (), also: Sequence[str] = ()) -> Release:
        name, version = _wheel_name(path)
        return cls("wheel", name, version, path, tuple(extras), tuple(also))

    @classmethod
    def source(cls, path: Path, *, extras: Sequence[str] = (), also: Sequence[str] = ()) -> Release:
        return cls("source", "", "", path, tuple(extras), tuple(also))

    def __str__(self) -> str:
        if self.kind == "index":
            return f"{self.name}=={self.version}"
        return str(self.path)

    def requirements(self, installable: str) -> list[str]:
        """What the installer is given: ``installable`` (the release, or the wheel made
        of it) with the extras, and the other requirements."""
        extras = f"[{','.join(self.extras)}]" if self.extras else ""
        if installable.endswith(".whl"):
            name = _wheel_name(Path(installable))[0]
            first = f"{name}{extras} @ {Path(installable).resolve().as_uri()}"
        else:
            first = f"{self.name}{extras}=={self.version}"
        return [first, *self.also]


@dataclass(frozen=True, slots=True)
class IndexSettings:
    """Where the installer finds distributions: the index uv would use (PyPI, or what the
    ``UV_*`` variables of the caller's environment name) and ``find_links`` folders; with
    ``no_index``, only those folders (tests install fixture wheels offline this way)."""

    find_links: tuple[Path, ...] = ()
    no_index: bool = False
    as_of_release: bool = True
    """For a release of the index: dependencies as they were when it was published
    (uv's ``--exclude-newer`` at its upload time), as its users had them; else the newest."""

    def arguments(self) -> list[str]:
        args = [part for folder in self.find_links for part in ("--find-links", str(folder))]
        return [*args, "--no-index"] if self.no_index else args


@dataclass(frozen=True, slots=True)
class Environment:
    """A complete environment: ``python`` runs with the distribution installed.
    ``origin`` says how it was made ("wheel from the index", "built from the source
    distribution", ...); ``reused`` whether it came from the cache."""

    root: Path
    python: Path
    distribution: str
    version: str
    origin: str
    key: str
    reused: bool = False
    seconds: float = 0.0

    @property
    def site_packages(self) -> Path:
        """The folder the distribution is installed in."""
        return Path(sysconfig.get_path("purelib", vars={"base": str(self.root)}))


@dataclass(frozen=True, slots=True)
class Unavailable:
    """Why no environment could be made, in one line (a finding is then ``not_run``)."""

    release: str
    reason: str
    details: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{self.release}: {self.reason}"


def find_uv() -> Path | None:
    """The uv executable of the ``uv`` package (``install apisurface with its 'verify' extra``), or
    None."""
    try:
        from uv import find_uv_bin  # noqa: PLC0415 - the optional extra
    except ImportError:
        return None
    try:
        return Path(find_uv_bin())
    except (FileNotFoundError, OSError):
        return None


def prepare(
    release: Release,
    *,
    cache_dir: Path,
    settings: IndexSettings = IndexSettings(),
) -> Environment | Unavailable:
    """An environment with ``release`` installed, from the cache when one was completed
    before for the same key; else made now."""
    began = time.monotonic()
    uv = find_uv()
    if uv is None:
        return Unavailable(str(release), NO_UV)
    try:
        content = _content_digest(release)
    except OSError as error:
        return Unavailable(str(release), f"cannot read it ({error.strerror or error})")
    as_of = (
        _upload_time(release, cache_dir)
        if settings.as_of_release and not settings.no_index
        else None
    )
    key = _key(release, content, settings, as_of)
    folder = cache_dir / ENVIRONMENTS_FOLDER
    name = release.name or _normalise(release.path.name if release.path else "source")
    final = (
        folder / f"{name}-{release.version or 'unknown'}-{sys.implementation.cache_tag}-{key[:16]}"
    )
    found = _complete(final, key)
    if found is not None:
        return found
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_stale(folder)
        building = Path(tempfile.mkdtemp(prefix=".building-", dir=folder))
    except OSError as error:
        return Unavailable(str(release), f"cannot write {folder} ({error.strerror or error})")
    try:
        made = _make(release, building, uv, cache_dir=cache_dir, settings=settings, as_of=as_of)
        if isinstance(made, Unavailable):
            return made
        distribution, version, origin = made
        marker = {"key": key, "distribution": distribution, "version": version, "origin": origin}
        (building / _MARKER).write_text(json.dumps(marker), encoding="utf-8")
        try:
            os.rename(building, final)
        except OSError:
            found = _complete(final, key)  # another process finished the same one first
            if found is not None:
                return found
            # What is there is no environment of this key (a damaged one): set it aside
            # (one rename, so no reader sees it half removed), remove it, take its place.
            aside = Path(tempfile.mkdtemp(prefix=".building-", dir=folder))
            os.rename(final, aside / "stale")
            shutil.rmtree(aside, ignore_errors=True)
            os.rename(building, final)
        return _complete(final, key, seconds=time.monotonic() - began, reused=False) or (
            Unavailable(str(release), f"{final}: the environment vanished after it was built")
        )
    except OSError as error:
        return Unavailable(
            str(release), f"cannot write the environment ({error.strerror or error})"
        )
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)


_SDIST_SUFFIXES = (".tar.gz", ".tgz", ".zip")


def release_of(
    spec: str, *, root: Path | None = None, also: Sequence[str] = ()
) -> Release | Unavailable:
    """The release an input names (as ``show``, ``diff`` take them): ``NAME==VERSION``,
    a wheel, a source distribution, or a source folder (``root``: its project folder, the
    one with ``pyproject.toml``); why not for a snapshot or a git ref."""
    requirement = index.parse(spec)
    path = Path(spec)
    if path.exists():
        if path.is_file() and path.name.endswith(".json"):
            return Unavailable(spec, "a snapshot holds no code to import")
        if path.is_file() and path.name.endswith(".whl"):
            try:
                return Release.wheel(path, also=also)
            except ApisurfaceError as error:
                return Unavailable(spec, str(error))
        if path.is_file() and path.name.endswith(_SDIST_SUFFIXES):
            return Release.source(path, also=also)
        if path.is_dir():
            return Release.source(root or path, also=also)
        return Unavailable(spec, "not a folder, wheel or source distribution")
    if requirement is not None:
        return Release.from_index(requirement.name, requirement.version, also=also)
    return Unavailable(
        spec, "a git ref is not installed by --verify yet: name its folder, wheel or NAME==VERSION"
    )


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _wheel_name(path: Path) -> tuple[str, str]:
    parts = path.name.split("-")
    if len(parts) < 5 or not path.name.endswith(".whl"):
        raise ApisurfaceError(f"{path}: not a wheel file name (NAME-VERSION-...-PLATFORM.whl)")
    return _normalise(parts[0]), parts[1]


def _content_digest(release: Release) -> str:
    """What identifies the installed content besides name and version: a wheel's or a
    source archive's sha256, a folder's files (names and bytes)."""
    if release.path is None:
        return ""
    digest = hashlib.sha256()
    if release.path.is_dir():
        for path in sorted(_tree_files(release.path)):
            digest.update(path.relative_to(release.path).as_posix().encode() + b"\0")
            with open(path, "rb") as stream:
                while chunk := stream.read(1 << 20):
                    digest.update(chunk)
            digest.update(b"\0")
        return digest.hexdigest()
    with open(release.path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


_SKIPPED_FOLDERS = frozenset(
    {
        ".git",
        ".hg",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        "__pycache__",
        "node_modules",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "build",
        "dist",
    }
)


def _tree_files(root: Path) -> list[Path]:
    """The regular files of a source folder that a build may read (not VCS data, caches or
    earlier build output); symlinks are neither followed nor listed."""
    found: list[Path] = []
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(
            name
            for name in folders
            if name not in _SKIPPED_FOLDERS and not name.endswith(".egg-info")
        )
        for name in files:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                found.append(path)
    return found


def _python_identity() -> str:
    base = getattr(sys, "_base_executable", sys.executable)
    return f"{os.path.realpath(base)} {sys.version} {sysconfig.get_platform()}"


def _upload_time(release: Release, cache_dir: Path) -> str | None:
    if release.kind != "index":
        return None
    try:
        return index.upload_time(index.Requirement(release.name, release.version), cache_dir)
    except (ApisurfaceError, OSError):
        return None


def _key(release: Release, content: str, settings: IndexSettings, as_of: str | None) -> str:
    parts = [
        f"recipe {RECIPE}",
        release.kind,
        release.name,
        release.version,
        json.dumps([release.extras, release.also]),
        as_of or "",
        content,
        _python_identity(),
        json.dumps(settings.arguments()),
        json.dumps(
            sorted(
                (name, os.environ[name])
                for name in _INSTALLER_VARIABLES
                if name.startswith("UV_") and name in os.environ
            )
        ),
    ]
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _complete(
    folder: Path, key: str, *, seconds: float = 0.0, reused: bool = True
) -> Environment | None:
    """The environment in ``folder`` when its marker names ``key``: anything else (no
    marker, a marker of another key, a symlink, junk) is not an environment."""
    try:
        marker = json.loads(read_regular(folder / _MARKER, 1 << 16, follow_symlinks=False))
    except (OSError, ValueError):
        return None
    if not isinstance(marker, dict) or marker.get("key") != key:
        return None
    python = folder / "bin" / "python"
    if not python.exists():
        return None
    values = [marker.get(name) for name in ("distribution", "version", "origin")]
    if not all(isinstance(value, str) for value in values):
        return None
    distribution, version, origin = (str(value) for value in values)
    return Environment(folder, python, distribution, version, origin, key, reused, seconds)


def _remove_stale(folder: Path) -> None:
    """Temporary folders of builds that died more than a day ago."""
    now = time.time()
    for entry in [*folder.glob(".building-*"), *folder.glob(".scratch-*")]:
        with contextlib.suppress(OSError):
            if now - entry.lstat().st_mtime > _STALE_SECONDS and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)


def _make(
    release: Release,
    env: Path,
    uv: Path,
    *,
    cache_dir: Path,
    settings: IndexSettings,
    as_of: str | None,
) -> tuple[str, str, str] | Unavailable:
    """Make the environment in ``env`` (a new, empty folder): (distribution, version, how
    it was made), or why not. Builds work in a scratch folder beside it."""
    made = _venv(uv, env)
    if made is not None:
        return Unavailable(str(release), made)
    name, version = release.name, release.version
    with tempfile.TemporaryDirectory(prefix=".scratch-", dir=env.parent) as scratch:
        if release.kind == "index":
            options = ["--exclude-newer", as_of] if as_of else []
            requirements = release.requirements("")
            installed = _install(
                uv, env, requirements, cache_dir=cache_dir, settings=settings, options=options
            )
            origin = "wheel from the index"
            if installed is not None and as_of and not _no_wheel(installed, release):
                # Nothing as of the release installs as wheels on this Python (an old
                # release, a new interpreter): the newest dependencies then.
                as_of = None
                installed = _afresh(uv, env) or _install(
                    uv, env, requirements, cache_dir=cache_dir, settings=settings
                )
                origin += (
                    ", the newest dependencies (those of its release date have no wheels here)"
                )
            if installed is not None and _no_wheel(installed, release):
                built = _build_from_index(release, uv, Path(scratch), cache_dir, settings)
                if isinstance(built, Unavailable):
                    return built
                installed = _afresh(uv, env) or _install(
                    uv,
                    env,
                    release.requirements(str(built)),
                    cache_dir=cache_dir,
                    settings=settings,
                    options=["--exclude-newer", as_of] if as_of else [],
                )
                origin = "wheel built from the source distribution (its build backend ran)"
        elif release.kind == "wheel" and release.path is not None:
            requirements = release.requirements(str(release.path))
            installed = _install(uv, env, requirements, cache_dir=cache_dir, settings=settings)
            origin = "wheel file"
        elif release.path is not None:
            source = release.path
            if source.is_file():
                unpacked = _unpack_sdist(source, Path(scratch))
                if isinstance(unpacked, str):
                    return Unavailable(str(release), unpacked)
                source = unpacked
            built = _build(source, uv, Path(scratch), cache_dir, settings, label=str(release))
            if isinstance(built, Unavailable):
                return built
            name, version = _wheel_name(built)
            installed = _install(
                uv, env, release.requirements(str(built)), cache_dir=cache_dir, settings=settings
            )
            origin = "wheel built from the sources (their build backend ran)"
        else:
            return Unavailable(str(release), "nothing to install")
    if installed is not None:
        return Unavailable(str(release), _install_reason(installed), installed.stderr)
    _compile(env)
    if as_of:
        origin += f", dependencies as of {as_of[:10]}"
    return name, version, origin


def _uv_environment(cache_dir: Path, *, network: bool) -> dict[str, str]:
    environment = {
        "UV_NO_CONFIG": "1",
        "UV_PYTHON_DOWNLOADS": "never",
        "UV_NO_PROGRESS": "1",
        "UV_LINK_MODE": "copy",
    }
    if network:
        environment["UV_CACHE_DIR"] = str(cache_dir / "uv")
        environment.update(
            {name: os.environ[name] for name in _INSTALLER_VARIABLES if name in os.environ}
        )
    else:
        environment["UV_NO_CACHE"] = "1"
        environment["UV_OFFLINE"] = "1"
    return environment


def _venv(uv: Path, env: Path) -> str | None:
    base = getattr(sys, "_base_executable", sys.executable)
    run = run_program(
        [str(uv), "venv", "--quiet", "--relocatable", "--no-project", "--python", base, str(env)],
        limits=_INSTALL_LIMITS,
        write=[env.parent],
        read_anywhere=True,
        env=_uv_environment(env.parent, network=False),
    )
    return None if run.ok else f"cannot create a virtual environment: {_last_line(run)}"


def _install(
    uv: Path,
    env: Path,
    requirements: list[str],
    *,
    cache_dir: Path,
    settings: IndexSettings,
    options: Sequence[str] = (),
) -> Run | None:
    """Install ``requirements`` and their dependencies as wheels, in one installer run into
    an environment where nothing is installed yet (so no code of theirs ever runs in it
    before the sandbox: installing a wheel runs none). None when it worked, else the run."""
    (cache_dir / "uv").mkdir(parents=True, exist_ok=True)
    run = run_program(
        [
            str(uv),
            "pip",
            "install",
            "--quiet",
            "--no-build",
            "--python",
            str(env / "bin" / "python"),
            *settings.arguments(),
            *options,
            "--",
            *requirements,
        ],
        limits=_INSTALL_LIMITS,
        write=[env, cache_dir / "uv"],
        network=True,
        read_anywhere=True,
        env=_uv_environment(cache_dir, network=True),
    )
    return None if run.ok else run


def _no_wheel(run: Run, release: Release | None = None) -> bool:
    """Whether the installer refused because a distribution (``release`` itself, when
    given) has no wheel it may use."""
    text = " ".join(run.stderr.lower().split())
    if release is not None:
        return f"{release.name}=={release.version.lower()} has no usable wheels" in text
    return "has no usable wheels" in text or "building source distributions is disabled" in text


def _afresh(uv: Path, env: Path) -> Run | None:
    """Empty ``env`` and make it a new environment again, before a second installer run:
    never install into an environment where a failed run may have left something whose
    code the installer's start of the interpreter would run. None when that worked."""
    shutil.rmtree(env)
    env.mkdir()
    made = _venv(uv, env)
    if made is None:
        return None
    return Run(Outcome.NOT_STARTED, made, None, "", "")


def _install_reason(run: Run) -> str:
    if run.outcome.value in ("timeout", "output", "killed", "not_started"):
        return f"the installer {run.reason}"
    text = " ".join(run.stderr.split())
    text = re.sub(r"^error: ", "", text.removeprefix("\u00d7").strip())
    if _no_wheel(run):
        return (
            f"no wheel for this platform (dependencies are installed as wheels only): {text[:300]}"
        )
    return f"cannot install: {text[:300]}" if text else f"the installer {run.reason}"


def _last_line(run: Run) -> str:
    return run.last_error_line() or run.reason


def _compile(env: Path) -> Run:
    """Compile the installed modules once (in the sandbox: the interpreter's start-up runs
    the installed ``.pth`` files), so runs need not write bytecode, which they may not.
    Its outcome is not checked: a module that does not compile is the import check's to
    report where it is imported, and one left uncompiled compiles when imported."""
    site = Path(sysconfig.get_path("purelib", vars={"base": str(env)}))
    return run_program(
        [str(env / "bin" / "python"), "-I", "-m", "compileall", "-q", str(site)],
        limits=_COMPILE_LIMITS,
        read=[env],
        write=[env],
    )


def _build_requirements(source: Path) -> list[str] | str:
    """The build requirements the sources declare (``[build-system] requires``, read as
    data), or why they cannot be read."""
    pyproject = source / "pyproject.toml"
    if not pyproject.is_file():
        return list(_DEFAULT_BUILD["requires"])
    try:
        table = tomllib.loads(read_regular(pyproject, 16 << 20).decode("utf-8"))
    except (OSError, ValueError) as error:
        return f"pyproject.toml cannot be read ({error})"
    system = table.get("build-system", _DEFAULT_BUILD)
    requires = system.get("requires") if isinstance(system, dict) else None
    if not isinstance(requires, list) or not all(isinstance(item, str) for item in requires):
        return "pyproject.toml: [build-system] requires is not a list of strings"
    backend = system.get("build-backend", "") if isinstance(system, dict) else ""
    if not backend or str(backend).startswith("setuptools"):
        requires = [*requires, "wheel"]  # older setuptools builds wheels with it
    return list(requires)


def _build_from_index(
    release: Release, uv: Path, root: Path, cache_dir: Path, settings: IndexSettings
) -> Path | Unavailable:
    requirement = index.Requirement(release.name, release.version)
    try:
        archive, _ = index.fetch(requirement, cache_dir, prefer_sdist=True)
    except ApisurfaceError as error:
        return Unavailable(str(release), f"no wheel for this platform, and {error}")
    if archive.name.endswith(".whl"):
        return Unavailable(str(release), "no wheel for this platform and no source distribution")
    source = _unpack_sdist(archive, root)
    if isinstance(source, str):
        return Unavailable(str(release), source)
    return _build(source, uv, root, cache_dir, settings, label=str(release))


def _unpack_sdist(archive: Path, root: Path) -> Path | str:
    """The project folder of a source distribution unpacked below ``root`` (members that
    would land outside it, links and devices left out), or why not."""
    import tarfile  # noqa: PLC0415
    import zipfile  # noqa: PLC0415

    unpacked = root / "sdist"
    unpacked.mkdir()
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as bundle:
                _safe_extract_zip(bundle, unpacked)
        else:
            with tarfile.open(archive) as bundle:
                bundle.extractall(unpacked, filter="data")
    except (OSError, ValueError, tarfile.TarError, zipfile.BadZipFile) as error:
        return f"{archive.name}: cannot unpack it ({error})"
    entries = [entry for entry in unpacked.iterdir() if entry.is_dir()]
    return entries[0] if len(entries) == 1 else unpacked


def _safe_extract_zip(bundle: object, destination: Path) -> None:
    import zipfile  # noqa: PLC0415

    assert isinstance(bundle, zipfile.ZipFile)
    for member in bundle.infolist():
        parts = Path(member.filename).parts
        if member.is_dir() or member.filename.startswith("/") or ".." in parts:
            continue
        bundle.extract(member, destination)


def _build(
    source: Path,
    uv: Path,
    root: Path,
    cache_dir: Path,
    settings: IndexSettings,
    *,
    label: str = "",
) -> Path | Unavailable:
    """A wheel built from the sources in ``source``: their build requirements installed
    (as wheels, with network) into a build environment, then the build backend run in the
    sandbox, without network, in a copy of the sources."""
    label = label or str(source)
    requires = _build_requirements(source)
    if isinstance(requires, str):
        return Unavailable(label, f"cannot build it: {requires}")
    build_env = root / "build-env"
    made = _venv(uv, build_env)
    if made is not None:
        return Unavailable(label, made)
    if requires:
        installed = _install(uv, build_env, requires, cache_dir=cache_dir, settings=settings)
        if installed is not None:
            return Unavailable(
                label,
                "cannot install the build requirements: " + _install_reason(installed),
                installed.stderr,
            )
    copy = root / "sources"
    try:
        shutil.copytree(
            source,
            copy,
            symlinks=True,
            ignore=lambda folder, names: [name for name in names if name in _SKIPPED_FOLDERS],
        )
    except (OSError, shutil.Error) as error:
        return Unavailable(label, f"cannot copy the sources ({error})")
    out = root / "wheels"
    out.mkdir()
    run = run_program(
        [
            str(uv),
            "build",
            "--wheel",
            "--no-build-isolation",
            "--python",
            str(build_env / "bin" / "python"),
            "--out-dir",
            str(out),
            str(copy),
        ],
        limits=_BUILD_LIMITS,
        read=[build_env, copy, uv.parent],
        write=[copy, out],
        env=_uv_environment(cache_dir, network=False),
    )
    wheels = sorted(out.glob("*.whl"))
    if not run.ok or len(wheels) != 1:
        why = _build_reason(run) if not run.ok else f"it made {len(wheels)} wheels, not one"
        return Unavailable(label, f"the build failed (its build backend ran): {why}", run.stderr)
    return wheels[0]


def _build_reason(run: Run) -> str:
    """The backend's own last line of error (its exception) before uv's summary, else
    uv's last cause, else how the run ended."""
    if run.outcome.value in ("timeout", "output", "killed", "not_started"):
        return run.reason
    lines = run.stderr.splitlines()
    end = next(
        (index for index, line in enumerate(lines) if line.startswith("error: Failed to build")),
        len(lines),
    )
    own = [
        line.strip() for line in lines[:end] if line.strip() and line.strip() != "Building wheel..."
    ]
    if own:
        return own[-1][:300]
    causes = [line.strip().removeprefix("cause: ") for line in lines if "cause:" in line]
    return causes[-1][:300] if causes else _last_line(run)
