"""Real git repositories for end-to-end tests: write files, commit, tag, branch."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from textwrap import dedent

_ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}


class Repo:
    """A git repository in a temporary folder, with a Python project in it."""

    def __init__(self, root: Path, *, init: bool = True) -> None:
        self.root = root
        if init:
            root.mkdir(parents=True, exist_ok=True)
            self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        completed = subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            check=True,
            env=_ENV,
        )
        return completed.stdout

    def write(self, files: dict[str, str]) -> Repo:
        """Write files (their text dedented) relative to the repository."""
        for name, text in files.items():
            path = self.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dedent(text).lstrip("\n"), encoding="utf-8")
        return self

    def remove(self, *names: str) -> Repo:
        for name in names:
            (self.root / name).unlink()
        return self

    def commit(self, message: str = "change", *, tag: str | None = None) -> Repo:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        if tag is not None:
            self.git("tag", tag)
        return self


def pyproject(version: str, extra: str = "") -> str:
    """A pyproject.toml for package ``pkg`` at ``version``."""
    return f'[project]\nname = "pkg"\nversion = "{version}"\n' + dedent(extra)
