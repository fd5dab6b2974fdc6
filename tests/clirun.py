"""Helpers shared by the tests that drive the command line: write a tree, run ``main``."""

from __future__ import annotations

from pathlib import Path

import pytest

from apisurface.cli import main


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``files`` (relative path -> text or bytes) under ``root``; return ``root``."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``apisurface ARGV...`` in-process: its exit code, stdout and stderr."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
