"""Tiny wheels and source trees made in a test, to install offline (``--no-index
--find-links``): no network, no build tools."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["make_source_tree", "make_wheel"]


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def make_wheel(
    folder: Path,
    name: str,
    version: str,
    files: Mapping[str, str],
    *,
    requires: Sequence[str] = (),
    extras: Mapping[str, Sequence[str]] | None = None,
) -> Path:
    """A ``py3-none-any`` wheel of ``files`` (path in the wheel -> text) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    metadata = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    metadata += [f"Requires-Dist: {requirement}" for requirement in requires]
    for extra, requirements in (extras or {}).items():
        metadata.append(f"Provides-Extra: {extra}")
        metadata += [f'Requires-Dist: {item}; extra == "{extra}"' for item in requirements]
    members = {path: text.encode() for path, text in files.items()}
    members[f"{info}/METADATA"] = ("\n".join(metadata) + "\n").encode()
    members[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = [_record_line(path, data) for path, data in members.items()]
    members[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    target = folder / f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(target, "w") as bundle:
        for path, data in members.items():
            bundle.writestr(path, data)
    return target


# A PEP 517 backend of a few lines, kept in the tree (``backend-path``): it needs nothing
# installed, so a test builds offline. BUILD_CODE runs inside the build, in the sandbox.
_BACKEND = """
import base64, hashlib, os, zipfile

NAME, VERSION = {name!r}.replace("-", "_"), {version!r}


def _line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{{name}},sha256={{digest}},{{len(data)}}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
{build_code}
    files = {{}}
    for folder, _, names in os.walk(NAME):
        for file in names:
            path = os.path.join(folder, file)
            with open(path, "rb") as stream:
                files[path.replace(os.sep, "/")] = stream.read()
    info = f"{{NAME}}-{{VERSION}}.dist-info"
    metadata = f"Metadata-Version: 2.1\\nName: {{NAME}}\\nVersion: {{VERSION}}\\n"
    files[info + "/METADATA"] = metadata.encode()
    files[info + "/WHEEL"] = (
        b"Wheel-Version: 1.0\\nGenerator: tests\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"
    )
    record = [_line(name, data) for name, data in files.items()] + [info + "/RECORD,,"]
    files[info + "/RECORD"] = ("\\n".join(record) + "\\n").encode()
    target = f"{{NAME}}-{{VERSION}}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, target), "w") as bundle:
        for name, data in files.items():
            bundle.writestr(name, data)
    return target


def get_requires_for_build_wheel(config_settings=None):
    return []
"""


def make_source_tree(
    folder: Path, name: str, version: str, files: Mapping[str, str], *, build_code: str = ""
) -> Path:
    """A project folder whose own in-tree build backend makes a wheel of ``files``;
    ``build_code`` (indented by four spaces) runs first in ``build_wheel``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(
        f'[project]\nname = "{name}"\nversion = "{version}"\n\n'
        '[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n',
        encoding="utf-8",
    )
    code = "\n".join(f"    {line}" for line in (build_code or "pass").splitlines())
    (folder / "backend.py").write_text(
        _BACKEND.format(name=name, version=version, build_code=code), encoding="utf-8"
    )
    for path, text in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return folder
