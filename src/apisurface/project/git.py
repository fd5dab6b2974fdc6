"""Every git command apisurface runs: one place for the hardening (docs/security.md).

- git runs without a shell, its arguments a list; a ref from the user is checked not to
  look like an option (:func:`checked_ref`) and is passed after ``--end-of-options``, or
  as an object id git printed itself;
- git never reads a configuration, hook or object store the pull request planted: the
  repository is found here, as the nearest folder holding a ``.git`` entry (never a bare
  repository: a folder of the checkout holding ``HEAD``, ``config``, ``objects/`` and
  ``refs/`` is one to git), and named explicitly (``--git-dir``, ``--work-tree``); the
  system and global configurations are not read (``GIT_CONFIG_NOSYSTEM``,
  ``GIT_CONFIG_GLOBAL``), nor any other ``GIT_*`` variable of the caller; no transport is
  allowed (``protocol.allow=never``, ``GIT_NO_LAZY_FETCH``: a missing object is never
  fetched from a promisor remote), no hook, fsmonitor, attributes file, replacement object
  or signature check (:data:`HARDENING`);
- git never prompts (``GIT_TERMINAL_PROMPT=0``) and speaks English (``LC_ALL=C``), so a
  message read back is the one expected;
- every command has a time limit, after which it is killed and reported;
- blobs are streamed one at a time from one ``git cat-file --batch``, each checked
  against the size the listing gave, never read past the caller's cap;
- a failure is a :class:`~apisurface.errors.GitRefError` with one line (git's own last
  line of stderr when it gave one), never a traceback.

:class:`Repository` asks the questions about the repository around a folder (its top, the
folder's prefix in it, its tags, whether it is shallow) once each, when first asked.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from apisurface.errors import GitRefError
from apisurface.project.safeio import open_regular

__all__ = [
    "GIT_TIMEOUT",
    "HARDENING",
    "Repository",
    "cat_file_batch",
    "checked_ref",
    "copy_blob",
    "find_git_dir",
    "run",
]

GIT_TIMEOUT = 120
"""Seconds any one git command may take before it is killed."""

_MAX_HASHED_BYTES = 512 * 1024 * 1024
"""The largest file :meth:`Repository.last_commit_of` compares (a snapshot's cap)."""

_NOT_INSTALLED = "git is not installed; install git or name folders or snapshots"


HARDENING = (
    "safe.bareRepository=explicit",
    "protocol.allow=never",
    f"core.hooksPath={os.devnull}",
    "core.fsmonitor=false",
    f"core.attributesFile={os.devnull}",
    "log.showSignature=false",
)
"""``-c`` settings of every git command: on the command line, they win over the
repository's own configuration (and ``safe.bareRepository`` is read only from there)."""


def _environment() -> dict[str, str]:
    """The caller's environment without its ``GIT_*`` variables (``GIT_DIR``, ``GIT_CONFIG_*``
    and ``GIT_EXEC_PATH`` would choose another repository, configuration or program), and
    git told to read no configuration but the repository's, fetch nothing and never ask."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}
    environment.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_ATTR_NOSYSTEM="1",
        GIT_NO_LAZY_FETCH="1",
        GIT_NO_REPLACE_OBJECTS="1",
        GIT_OPTIONAL_LOCKS="0",
        GIT_TERMINAL_PROMPT="0",
        LC_ALL="C",
    )
    return environment


def find_git_dir(folder: Path) -> tuple[Path, Path] | None:
    """The work tree and ``.git`` entry (a folder, or a file naming one) of the repository
    ``folder`` is in: the nearest folder, ``folder`` or above, holding ``.git``. A folder
    that is itself a repository without a work tree (``HEAD``, ``config``, ``objects/``,
    ``refs/``: anything a pull request can commit) is never one; git itself would take it
    for a bare repository and read its configuration."""
    try:
        start = folder.resolve()
    except (OSError, RuntimeError):
        return None
    for candidate in (start, *start.parents):
        entry = candidate / ".git"
        try:
            if entry.is_dir() or entry.is_file():
                return candidate, entry
        except OSError:
            continue
    return None


def _command(args: Sequence[str], cwd: Path) -> list[str]:
    """``git ARGS`` for the repository ``cwd`` is in, named explicitly; outside one, a
    ``.git`` of ``cwd`` that does not exist, so git says it is not a repository."""
    found = find_git_dir(cwd)
    top, git_dir = found if found is not None else (cwd, cwd / ".git")
    options = [f"--git-dir={git_dir}", f"--work-tree={top}"]
    for setting in HARDENING:
        options += ["-c", setting]
    return ["git", *options, *args]


def checked_ref(ref: str) -> str:
    """``ref`` when it can only be read as a ref: not empty, no NUL, not an option."""
    if not ref or ref.startswith("-") or "\x00" in ref:
        raise GitRefError(f"{ref!r}: not a folder, snapshot or git ref")
    return ref


def run(
    args: Sequence[str],
    cwd: Path,
    *,
    input_bytes: bytes | None = None,
    timeout: float = GIT_TIMEOUT,
) -> bytes:
    """The standard output of ``git ARGS`` run in ``cwd``; :class:`GitRefError` when git
    is missing, too slow or fails (with git's last line of error output). Another
    :class:`OSError` (``cwd`` is a file) is left to the caller: the CLI makes it one line."""
    try:
        completed = subprocess.run(
            _command(args, cwd),
            cwd=cwd,
            input=input_bytes,
            capture_output=True,
            timeout=timeout,
            check=False,
            env=_environment(),
        )
    except FileNotFoundError:
        raise GitRefError(_NOT_INSTALLED) from None
    except subprocess.TimeoutExpired:
        raise GitRefError(f"git {args[0]} took longer than {timeout:g} s") from None
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitRefError(message[-1] if message else f"git {args[0]} failed")
    return completed.stdout


@contextmanager
def cat_file_batch(top: Path, object_ids: Sequence[str]) -> Iterator[IO[bytes]]:
    """The output of ``git cat-file --batch`` for ``object_ids`` (object ids git printed),
    read as a stream; git is killed when the block ends or after :data:`GIT_TIMEOUT`."""
    with tempfile.TemporaryFile() as request:
        request.write("".join(f"{object_id}\n" for object_id in object_ids).encode())
        request.seek(0)
        try:
            process = subprocess.Popen(
                _command(["cat-file", "--batch"], top),
                cwd=top,
                stdin=request,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=_environment(),
            )
        except FileNotFoundError:
            raise GitRefError(_NOT_INSTALLED) from None
        timer = threading.Timer(GIT_TIMEOUT, process.kill)
        timer.start()
        with process:
            try:
                if process.stdout is None:  # pragma: no cover - stdout=PIPE above
                    raise GitRefError("git cat-file gave no output")
                yield process.stdout
            finally:
                timer.cancel()
                process.kill()


def copy_blob(
    stream: IO[bytes], destination: Path, *, object_id: str, name: str, size: int, limit: int
) -> None:
    """Copy the next object of a :func:`cat_file_batch` stream to ``destination``: a blob
    of exactly ``size`` bytes (what the listing said) and at most ``limit``."""
    header = stream.readline(200).split()
    if len(header) != 3 or header[1] != b"blob" or not header[2].isdigit():
        what = header[1].decode("ascii", "replace") if len(header) == 2 else "unreadable"
        raise GitRefError(f"{name}: blob {object_id} is {what} in the repository")
    found = int(header[2])
    if found != size or found > limit:
        raise GitRefError(f"{name}: blob {object_id} changed size while read")
    with destination.open("wb") as output:
        remaining = found
        while remaining:
            chunk = stream.read(min(remaining, 1 << 20))
            if not chunk:
                raise GitRefError(f"git cat-file stopped inside blob {object_id}")
            output.write(chunk)
            remaining -= len(chunk)
    stream.read(1)  # the newline after each object


def _blob_id(path: Path, listed: str) -> str | None:
    """The object id git gives the bytes of the regular file ``path`` as a blob, in the
    hash of ``listed`` (an id git printed: SHA-1 or SHA-256 by its length)."""
    algorithm = {40: "sha1", 64: "sha256"}.get(len(listed))
    if algorithm is None:
        return None
    with open_regular(path, _MAX_HASHED_BYTES) as stream:
        size = os.fstat(stream.fileno()).st_size
        digest = hashlib.new(algorithm, b"blob %d\x00" % size)
        remaining = size
        while remaining > 0 and (chunk := stream.read(min(remaining, 1 << 20))):
            digest.update(chunk)
            remaining -= len(chunk)
        if remaining or stream.read(1):
            return None  # changed size while read
    return digest.hexdigest()


class Repository:
    """The git repository around ``cwd`` (if any). Nothing runs until a question is asked;
    each answer about the repository itself is kept, so it is asked of git once."""

    __slots__ = ("_answers", "cwd")

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self._answers: dict[str, object] = {}

    def _once(self, question: str, args: Sequence[str]) -> bytes:
        answer = self._answers.get(question)
        if not isinstance(answer, bytes):
            answer = run(args, self.cwd)
            self._answers[question] = answer
        return answer

    def top(self) -> Path:
        """The repository's top folder; :class:`GitRefError` outside a repository."""
        answer = self._once("top", ["rev-parse", "--show-toplevel"])
        return Path(answer.decode("utf-8", "surrogateescape").strip())

    def prefix(self) -> str:
        """Where ``cwd`` is below the top (``""`` or ``"a/b/"``)."""
        answer = self._once("prefix", ["rev-parse", "--show-prefix"])
        return answer.decode("utf-8", "surrogateescape").strip()

    def top_or_none(self) -> Path | None:
        """The top folder, or ``None`` outside a repository (or without git)."""
        try:
            return self.top()
        except (GitRefError, OSError):
            return None

    def tags(self, *, merged: str | None = None, points_at: str | None = None) -> list[str]:
        """Tag names (empty when there are none); :class:`GitRefError` outside a repository.

        With ``merged`` (a ref, such as ``HEAD``), only the tags whose commit that ref
        contains, as ``git tag --merged`` lists them: the releases in its history; with
        ``points_at``, only the tags of that ref's own commit. A repository without
        commits has none."""
        args = ["tag", "--list"]
        for option, ref in (("--merged", merged), ("--points-at", points_at)):
            if ref is None:
                continue
            try:
                self.commit(ref)
            except GitRefError:
                self.top()  # outside a repository: that error; else no commit, no tags
                return []
            args += [option, f"{checked_ref(ref)}^{{commit}}"]
        output = self._once(f"tags {merged} {points_at}", args).decode("utf-8", "replace")
        return [line.strip() for line in output.splitlines() if line.strip()]

    def is_shallow(self) -> bool:
        """Whether this is a shallow clone (``False`` when git cannot tell)."""
        try:
            answer = self._once("shallow", ["rev-parse", "--is-shallow-repository"])
        except (GitRefError, OSError):
            return False
        return answer.decode("utf-8", "replace").strip() == "true"

    def commit(self, ref: str) -> str:
        """The commit id ``ref`` names; :class:`GitRefError` when it names none."""
        spec = f"{checked_ref(ref)}^{{commit}}"
        answer = run(["rev-parse", "--verify", "--quiet", "--end-of-options", spec], self.cwd)
        return answer.decode().strip()

    def tree(self, commit: str) -> bytes:
        """``git ls-tree -r -z -l --full-tree`` of ``commit`` (an id from :meth:`commit`):
        every blob with its mode, id, size and path."""
        return run(["ls-tree", "-r", "-z", "-l", "--full-tree", commit], self.top())

    def last_commit_of(self, path: Path) -> str | None:
        """The last commit that changed ``path`` (a file in the work tree), when the file
        holds the bytes ``HEAD`` has for it: the commit whose tree holds these very bytes.
        ``None`` otherwise, or when git cannot say. The file is compared as it is (``git
        hash-object --no-filters`` would, here): no index refresh, no filter or attribute of
        the work tree is run or read."""
        try:
            name = path.resolve().relative_to(self.top().resolve()).as_posix()
            listed = run(["ls-tree", "-z", "--full-tree", "HEAD", "--", name], self.top())
            fields_ = listed.partition(b"\t")[0].decode("ascii", "replace").split()
            if (
                len(fields_) != 3
                or fields_[1] != "blob"
                or fields_[2] != _blob_id(path, fields_[2])
            ):
                return None  # modified, untracked or not a file in HEAD
            commit = run(["log", "-1", "--format=%H", "HEAD", "--", name], self.top())
        except (GitRefError, OSError, ValueError):
            return None
        found = commit.decode("ascii", "replace").strip()
        return found or None

    def file_names(self, ref: str) -> list[str] | None:
        """The paths (from the top) of the files of ``ref``; ``None`` when git cannot say."""
        if ref.startswith("-"):
            return None
        try:
            listing = run(
                ["ls-tree", "-r", "--name-only", "--full-name", "--end-of-options", ref], self.cwd
            )
        except (GitRefError, OSError):
            return None
        return listing.decode("utf-8", "surrogateescape").splitlines()
