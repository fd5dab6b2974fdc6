"""A published release as an input: ``NAME==VERSION`` fetched from the package index.

Like cargo-semver-checks' registry baseline. The release's files are listed by the index's
JSON API (``{index}/{name}/{version}/json``, PyPI's layout), one file is chosen (a pure
``py3-none-any`` wheel, else the source distribution, else any wheel), downloaded with
urllib, checked against the sha256 the index lists, and cached by that digest. Nothing is
built or installed: the caller unpacks the archive (:mod:`apisurface.project.archives`).

Settings (environment): ``APISURFACE_INDEX_URL`` (default ``https://pypi.org/pypi``) and
``APISURFACE_OFFLINE=1`` (use only the cache). When the index cannot be reached, the cache
is used, and an empty cache is an error that says so.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import urllib.error
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from apisurface.errors import SourceError
from apisurface.project.safeio import open_regular, read_regular
from apisurface.store.atomic import write_atomic
from apisurface.store.seal import MAC_LENGTH, seal, sealed

__all__ = [
    "DEFAULT_INDEX",
    "INDEX_ENV",
    "OFFLINE_ENV",
    "Requirement",
    "fetch",
    "parse",
    "upload_time",
]

DEFAULT_INDEX = "https://pypi.org/pypi"
INDEX_ENV = "APISURFACE_INDEX_URL"
OFFLINE_ENV = "APISURFACE_OFFLINE"

_SPEC = re.compile(
    r"^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)==([A-Za-z0-9][A-Za-z0-9.+!_-]*)$"
)
_MAX_METADATA = 50 * 1024 * 1024
_MAX_FILE = 512 * 1024 * 1024
_TIMEOUT = 60


@dataclass(frozen=True, slots=True)
class Requirement:
    """A pinned release: the project's normalised name and the exact version."""

    name: str
    version: str

    def __str__(self) -> str:
        return f"{self.name}=={self.version}"


def parse(spec: str) -> Requirement | None:
    """``NAME==VERSION`` as a :class:`Requirement`; None for anything else."""
    match = _SPEC.match(spec.strip())
    if match is None:
        return None
    return Requirement(re.sub(r"[-_.]+", "-", match.group(1)).lower(), match.group(2))


def _index_url() -> str:
    return (os.environ.get(INDEX_ENV) or DEFAULT_INDEX).rstrip("/")


def _offline() -> bool:
    return os.environ.get(OFFLINE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def _get(url: str, limit: int) -> bytes:
    import urllib.request  # noqa: PLC0415 - http.client, email, ssl: only for a download

    scheme = urllib.parse.urlsplit(url).scheme
    if scheme not in ("https", "http"):
        raise SourceError(f"{url}: only http(s) URLs are fetched")
    request = urllib.request.Request(url, headers={"User-Agent": "apisurface"})
    with urllib.request.urlopen(request, timeout=_TIMEOUT) as response:
        data: bytes = response.read(limit + 1)
    if len(data) > limit:
        raise SourceError(f"{url}: larger than {limit >> 20} MiB")
    return data


def _choose(files: list[Any], *, prefer_sdist: bool = False) -> dict[str, Any] | None:
    """The file to read: a pure wheel, else the sdist, else any wheel (with
    ``prefer_sdist``, the sdist first)."""

    def rank(item: dict[str, Any]) -> int:
        name = str(item.get("filename", ""))
        if item.get("packagetype") == "sdist" and name.endswith((".tar.gz", ".zip", ".tgz")):
            return -1 if prefer_sdist else 1
        if name.endswith("-none-any.whl"):
            return 0
        if name.endswith(".whl"):
            return 2
        return 9

    usable = [
        item
        for item in files
        if isinstance(item, dict)
        and isinstance(item.get("url"), str)
        and isinstance(item.get("digests"), dict)
        and isinstance(item["digests"].get("sha256"), str)
        and rank(item) < 9
    ]
    return min(usable, key=lambda item: (rank(item), str(item["filename"]))) if usable else None


def _safe_filename(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+!-]*", base):
        raise SourceError(f"the index lists an unusable file name {name[:80]!r}")
    return base


def _from_project_page(index: str, requirement: Requirement) -> tuple[dict[str, Any], str]:
    """The release's files from the project page (``{index}/{name}/json``, files listed
    under ``releases``), for an index that has no per-release page, and that page's URL
    (file URLs may be relative to it)."""
    url = f"{index}/{urllib.parse.quote(requirement.name)}/json"
    missing = f"{requirement}: no such release on {index} (check the name and version)"
    try:
        document = json.loads(_get(url, _MAX_METADATA))
    except urllib.error.HTTPError:
        raise SourceError(missing) from None
    except ValueError:
        raise SourceError(f"{url}: the index did not answer with JSON") from None
    releases = document.get("releases") if isinstance(document, dict) else None
    files = releases.get(requirement.version) if isinstance(releases, dict) else None
    if not isinstance(files, list):
        raise SourceError(missing)
    return {"urls": files}, url


def fetch(
    requirement: Requirement, cache_folder: Path, *, prefer_sdist: bool = False
) -> tuple[Path, str]:
    """The archive of ``requirement`` (downloaded or cached) and a note for the user
    (empty, or why the cache was used). ``prefer_sdist``: the source distribution when
    there is one (to build it, :mod:`apisurface.verify.environments`)."""
    folder = cache_folder / "releases" / requirement.name / requirement.version
    listing = folder / "files.json"
    index = _index_url()
    quoted = "/".join(urllib.parse.quote(part) for part in (requirement.name, requirement.version))
    url = f"{index}/{quoted}/json"
    note = ""
    document: Any = None
    if _offline():
        note = f"offline ({OFFLINE_ENV}): {requirement} from the cache"
    else:
        try:
            raw = _get(url, _MAX_METADATA)
            document = json.loads(raw)
        except urllib.error.HTTPError as error:
            if error.code == 404:
                document, url = _from_project_page(index, requirement)
            else:
                note = f"{index} answered {error.code}: {requirement} from the cache"
        except (urllib.error.URLError, OSError, TimeoutError) as error:
            reason = getattr(error, "reason", error)
            note = f"cannot reach {index} ({reason}): {requirement} from the cache"
        except ValueError:
            raise SourceError(f"{url}: the index did not answer with JSON") from None
    if document is None:
        try:
            document = json.loads(_unsealed_listing(listing, requirement))
        except (OSError, ValueError):
            raise SourceError(
                f"{note.split(':', 1)[0]}, and no copy of {requirement} is cached in {folder}; "
                "run once with the index reachable"
            ) from None
    files = document.get("urls") if isinstance(document, dict) else None
    chosen = _choose(files if isinstance(files, list) else [], prefer_sdist=prefer_sdist)
    if chosen is None:
        raise SourceError(f"{requirement}: the index lists no wheel or source distribution")
    filename = _safe_filename(str(chosen["filename"]))
    expected = str(chosen["digests"]["sha256"]).lower()
    target = folder / f"{expected[:16]}-{filename}"
    if _sha256(target) == expected:
        if document is not None and not listing.exists():
            _write_listing(listing, requirement, document, cache_folder)
        return target, note
    if note:
        raise SourceError(
            f"{note.split(':', 1)[0]}, and {filename} of {requirement} is not cached in "
            f"{folder}; run once with the index reachable"
        )
    try:
        data = _get(urllib.parse.urljoin(url, str(chosen["url"])), _MAX_FILE)
    except (urllib.error.URLError, OSError, TimeoutError) as error:
        raise SourceError(f"{requirement}: cannot download {filename} ({error})") from None
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise SourceError(
            f"{requirement}: {filename} has sha256 {actual[:16]}..., the index lists "
            f"{expected[:16]}...; refusing it"
        )
    write_atomic(target, data, durable=False, root=cache_folder)
    _write_listing(listing, requirement, document, cache_folder)
    return target, note


def _write_listing(listing: Path, requirement: Requirement, document: Any, root: Path) -> None:
    """Keep the index's listing of a release for offline runs, sealed (store/seal.py): it
    says which sha256 the archive must have, so an unsealed one is never believed."""
    payload = json.dumps(document).encode("utf-8")
    mac = seal("release", str(requirement), payload).encode("ascii")
    write_atomic(listing, mac + b"\n" + payload, durable=False, root=root)


def _unsealed_listing(listing: Path, requirement: Requirement) -> bytes:
    """The listing :func:`_write_listing` kept; ``ValueError`` when it is not sealed by a
    run holding the cache key (one a restored cache planted, or an older apisurface's)."""
    raw = read_regular(listing, _MAX_METADATA + MAC_LENGTH + 1, follow_symlinks=False)
    mac, payload = raw[:MAC_LENGTH], raw[MAC_LENGTH + 1 :]
    if not sealed("release", str(requirement), payload, mac):
        raise ValueError("not sealed")
    return payload


def upload_time(requirement: Requirement, cache_folder: Path) -> str | None:
    """When the index received the last file of ``requirement`` (ISO 8601, as the index
    lists it), read from the release's listing (fetched as :func:`fetch` does); None when
    the index does not say."""
    fetch(requirement, cache_folder)
    listing = cache_folder / "releases" / requirement.name / requirement.version / "files.json"
    try:
        document = json.loads(_unsealed_listing(listing, requirement))
    except (OSError, ValueError):
        return None
    files = document.get("urls") if isinstance(document, dict) else None
    times = [
        str(item["upload_time_iso_8601"])
        for item in (files if isinstance(files, list) else [])
        if isinstance(item, dict)
        and isinstance(item.get("upload_time_iso_8601"), str)
        and re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+Z", item["upload_time_iso_8601"])
    ]
    return max(times) if times else None


def _sha256(path: Path) -> str | None:
    """The digest of the cached file ``path``, read in chunks; None when it is missing or
    not a regular file (a FIFO or a symlink planted in the cache is a miss, not a hang)."""
    digest = hashlib.sha256()
    try:
        with open_regular(path, _MAX_FILE, follow_symlinks=False) as stream:
            while chunk := stream.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()
