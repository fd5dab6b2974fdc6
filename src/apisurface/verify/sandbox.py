"""The one place where analysed code runs: a child process, confined and limited.

:func:`run_program` starts a program (an environment's interpreter running a script, an
installer, a build) through :mod:`apisurface.verify.launch`, which confines itself and then
becomes the program, so nothing of the analysed package runs before the confinement:

- a **clean environment**: ``PATH``, ``HOME``, ``TMPDIR``, ``LANG`` and what the caller
  names, nothing inherited (no ``GITHUB_TOKEN``, no ``PYTHONPATH``);
- a **fresh temporary folder** per run: ``cwd`` (read-only where Landlock works, so a write
  to the current folder fails; elsewhere what was written there is reported), ``home``,
  ``tmp`` and ``out`` (the result file), all removed afterwards;
- **limits**: wall clock (the process group, and with a PID namespace every process the
  child started, killed at the deadline), CPU seconds, address space (``RLIMIT_AS``),
  the size of any file written (``RLIMIT_FSIZE``), and the output kept (past the cap the
  child is killed and the run says so);
- **where the platform allows**: no network (a new network namespace; else Landlock's TCP
  rules), reads only below the interpreter, the environment and the run folder, writes only
  in the run folder (Landlock). :class:`Confinement` says what took effect on each run.

Results cross back as JSON lines in a file (``$APISURFACE_RESULT``), read as untrusted
input: a regular file (never a symlink), capped, each line parsed with a depth check; no
pickle. Nothing here raises for what the child did: every outcome is a :class:`Run`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from apisurface.project.safeio import read_regular

__all__ = [
    "RESULT_ENV",
    "Confinement",
    "Limits",
    "Outcome",
    "Run",
    "run_program",
    "run_python",
]

RESULT_ENV = "APISURFACE_RESULT"
"""The environment variable naming the file a child writes its JSON lines to."""

_LAUNCHER = Path(__file__).with_name("launch.py")
_LAUNCH_FAILED = 125
_PR_SET_DUMPABLE = 4
_MAX_DEPTH = 64
_GRACE_SECONDS = 0.5
# What an interpreter and the C library read outside the environment: never $HOME or the
# working tree. /proc is needed by Python itself; Landlock refuses reading another
# process's /proc entries (its environment) from inside the sandbox.
_SYSTEM_READS = (
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/bin",
    "/sbin",
    "/proc",
    "/sys",
    "/dev",
    "/etc/ssl",
    "/etc/pki",
    "/etc/ca-certificates",
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/etc/timezone",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/hosts",
    "/etc/resolv.conf",
    "/etc/mime.types",
    "/etc/os-release",
)
_SYSTEM_WRITES = ("/dev/null",)


@dataclass(frozen=True, slots=True)
class Limits:
    """What one run may use. ``seconds`` is wall-clock time; ``output_bytes`` caps standard
    output and error together; ``file_bytes`` any one file the child writes;
    ``result_bytes`` the result file."""

    seconds: float = 120.0
    cpu_seconds: int = 120
    memory_bytes: int = 4 << 30
    output_bytes: int = 1 << 20
    file_bytes: int = 512 << 20
    result_bytes: int = 64 << 20


class Outcome(StrEnum):
    """How a run ended."""

    OK = "ok"  # exited with status 0
    FAILED = "failed"  # exited with another status
    TIMEOUT = "timeout"  # killed at the wall-clock limit
    OUTPUT = "output"  # killed for printing more than the cap
    KILLED = "killed"  # ended by a signal (CPU or file-size limit, a crash, SIGKILL)
    NOT_STARTED = "not_started"  # the program or the confinement could not start


@dataclass(frozen=True, slots=True)
class Confinement:
    """What the platform let the sandbox enforce on a run (beyond the limits and the clean
    environment, which are always applied). ``network``: ``namespace`` (none at all),
    ``landlock (TCP)`` (TCP refused; UDP and Unix sockets not), ``not confined``, or
    ``allowed`` (asked for: an installer); ``filesystem``: ``landlock (ABI N)`` or ``not
    confined`` (or ``none``: not asked for); ``pids``: ``namespace`` or ``process group``
    (a child that starts a new session escapes the kill at the deadline)."""

    network: str = "not confined"
    filesystem: str = "not confined"
    pids: str = "process group"
    limits_refused: str = ""

    @property
    def reduced(self) -> bool:
        """Whether less than the full guarantee held (no network, Landlock, PID namespace)."""
        return (
            self.network not in ("namespace", "allowed")
            or not self.filesystem.startswith(("landlock", "none"))
            or self.pids != "namespace"
            or bool(self.limits_refused)
        )

    def describe(self) -> str:
        """One line for a report."""
        text = f"network: {self.network}; file system: {self.filesystem}; processes: {self.pids}"
        if self.limits_refused:
            text += f"; limits refused by the platform: {self.limits_refused}"
        return text


@dataclass(frozen=True, slots=True)
class Run:
    """One finished run. ``reason`` is one line when the outcome is not OK. ``results`` are
    the JSON values of the result file's lines that parsed (in order); ``result_problem``
    says why reading stopped early ("" when every line parsed). ``wrote_here`` names what
    the child created in its current folder (only possible without Landlock)."""

    outcome: Outcome
    reason: str
    exit_code: int | None
    stdout: str
    stderr: str
    results: tuple[Any, ...] = ()
    result_problem: str = ""
    confinement: Confinement = field(default_factory=Confinement)
    seconds: float = 0.0
    wrote_here: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.OK

    def last_error_line(self) -> str:
        """The last non-empty line of standard error (an exception's summary), or ""."""
        lines = [line.strip() for line in self.stderr.splitlines() if line.strip()]
        return lines[-1] if lines else ""


def run_python(
    python: Path,
    script: Path | str,
    args: Sequence[str] = (),
    *,
    limits: Limits = Limits(),
    read: Sequence[Path] = (),
    write: Sequence[Path] = (),
    network: bool = False,
    env: Mapping[str, str] | None = None,
) -> Run:
    """Run ``script`` (a file, or source text) with the interpreter ``python`` in
    isolated mode (``-I``: never the current folder or the user's site-packages on
    ``sys.path``) under :func:`run_program`. The interpreter's installation and the
    script's folder are readable."""
    with tempfile.TemporaryDirectory(prefix="apisurface-script-") as folder:
        if isinstance(script, str):
            path = Path(folder) / "script.py"
            path.write_text(script, encoding="utf-8")
        else:
            path = script
        return run_program(
            [str(python), "-I", "-B", str(path), *args],
            limits=limits,
            read=[*read, path.parent],
            write=write,
            network=network,
            env=env,
        )


def run_program(
    argv: Sequence[str],
    *,
    limits: Limits = Limits(),
    read: Sequence[Path] = (),
    write: Sequence[Path] = (),
    network: bool = False,
    env: Mapping[str, str] | None = None,
    read_anywhere: bool = False,
) -> Run:
    """Run ``argv`` confined (see the module's docstring); the program's folder and
    ``read`` are readable (for an interpreter of a virtual environment, the installation
    it was made from too), ``write`` writable (besides the run's own folder), everything
    else read-only or, unless ``read_anywhere``, unreadable where Landlock works. ``env``
    adds variables to the clean environment."""
    began = time.monotonic()
    if os.name != "posix":
        return Run(
            Outcome.NOT_STARTED, "the sandbox needs a POSIX system (Linux or macOS)", None, "", ""
        )
    run_folder = Path(tempfile.mkdtemp(prefix="apisurface-run-"))
    try:
        folders = {name: run_folder / name for name in ("cwd", "home", "tmp", "out")}
        for folder in folders.values():
            folder.mkdir()
        result_file = folders["out"] / "result.jsonl"
        program = Path(argv[0])
        environment = _clean_environment(folders, program, env)
        environment[RESULT_ENV] = str(result_file)
        landlock = {
            "read": ["/"]
            if read_anywhere
            else _existing([*_SYSTEM_READS, run_folder, *_program_folders(program), *read]),
            "write": _existing(
                [*_SYSTEM_WRITES, folders["home"], folders["tmp"], folders["out"], *write]
            ),
        }
        spec = {
            "argv": [str(part) for part in argv],
            "env": environment,
            "rlimits": {
                "AS": limits.memory_bytes,
                "CPU": limits.cpu_seconds,
                "FSIZE": limits.file_bytes,
                "CORE": 0,
            },
            "network": network,
            "pid_namespace": True,
            "landlock": landlock,
        }
        run = _start_and_wait(spec, folders["cwd"], limits, began)
        results, problem = _read_results(result_file, limits.result_bytes)
        wrote = tuple(sorted(entry.name for entry in folders["cwd"].iterdir()))
        return Run(
            run.outcome,
            run.reason,
            run.exit_code,
            run.stdout,
            run.stderr,
            results,
            problem,
            run.confinement,
            time.monotonic() - began,
            wrote,
        )
    finally:
        _remove(run_folder)


def _existing(paths: Sequence[str | Path]) -> list[str]:
    return sorted({str(path) for path in paths if os.path.lexists(path)})


def _program_folders(program: Path) -> list[Path]:
    """The folders a program runs from: the folder above its own (a venv's root, an
    installation's prefix), the same for the file it links to, and for an interpreter of
    a virtual environment, the installation it was made from (``home`` in ``pyvenv.cfg``)."""
    python = program
    folders = [python.parent.parent]
    with contextlib.suppress(OSError):
        folders.append(python.resolve().parent.parent)
    config = python.parent.parent / "pyvenv.cfg"
    with contextlib.suppress(OSError, UnicodeDecodeError):
        for line in config.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            if key.strip() == "home" and value.strip():
                home = Path(value.strip())
                folders += [home.parent, home.resolve().parent]
    return folders


def _clean_environment(
    folders: Mapping[str, Path], program: Path, extra: Mapping[str, str] | None
) -> dict[str, str]:
    environment = {
        "PATH": os.pathsep.join([str(program.parent), "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": str(folders["home"]),
        "TMPDIR": str(folders["tmp"]),
        "TEMP": str(folders["tmp"]),
        "TMP": str(folders["tmp"]),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "PYTHONIOENCODING": "utf-8",
        "NO_COLOR": "1",
    }
    environment.update(extra or {})
    return environment


@dataclass(frozen=True, slots=True)
class _Ended:
    outcome: Outcome
    reason: str
    exit_code: int | None
    stdout: str
    stderr: str
    confinement: Confinement


@functools.cache
def _undumpable() -> None:
    """Mark this process not dumpable (Linux): a child without capabilities outside its
    user namespace can then not read this process's ``/proc`` entries (its environment,
    which may hold a token). Once, before the first run; it stays for the process."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # noqa: PLC0415

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def _start_and_wait(spec: dict[str, Any], cwd: Path, limits: Limits, began: float) -> _Ended:
    _undumpable()
    status_read, status_write = os.pipe()
    spec = {**spec, "status_fd": status_write}
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-S", str(_LAUNCHER), json.dumps(spec)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(status_write,),
            cwd=cwd,
            env=spec["env"],
            start_new_session=True,
        )
    except OSError as error:
        os.close(status_read)
        os.close(status_write)
        return _Ended(
            Outcome.NOT_STARTED, f"cannot start the sandbox: {error}", None, "", "", Confinement()
        )
    os.close(status_write)
    streams = _Streams(process, os.fdopen(status_read, "rb", buffering=0))
    outcome, reason = streams.collect(began + limits.seconds, limits.output_bytes)
    if outcome is Outcome.TIMEOUT:
        reason = f"took longer than {limits.seconds:g} s (killed)"
    elif outcome is Outcome.OUTPUT:
        reason = f"printed more than {_size(limits.output_bytes)} (killed)"
    code = process.returncode
    status = streams.status()
    confinement = _confinement(status)
    if outcome is None:
        outcome, reason = _judge_exit(code, status, limits)
    return _Ended(outcome, reason, code, streams.text(1), streams.text(2), confinement)


class _Streams:
    """Standard output, error and the launcher's status pipe, read together until the
    process ends, the deadline passes or the output passes its cap."""

    def __init__(self, process: subprocess.Popen[bytes], status: Any) -> None:
        self.process = process
        self.chunks: dict[int, list[bytes]] = {1: [], 2: [], 3: []}
        self.sizes = {1: 0, 2: 0, 3: 0}
        self.selector = selectors.DefaultSelector()
        assert process.stdout is not None and process.stderr is not None
        for number, stream in ((1, process.stdout), (2, process.stderr), (3, status)):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream, selectors.EVENT_READ, number)

    def collect(self, deadline: float, cap: int) -> tuple[Outcome | None, str]:
        outcome: Outcome | None = None
        ended_at: float | None = None
        try:
            while self.selector.get_map():
                now = time.monotonic()
                if ended_at is None and self.process.poll() is not None:
                    # Ended: whatever is left in its group dies now; then drain briefly.
                    _kill_group(self.process)
                    ended_at = now
                if ended_at is not None and now - ended_at > _GRACE_SECONDS:
                    break
                if ended_at is None and now >= deadline:
                    outcome = Outcome.TIMEOUT
                    break
                for key, _ in self.selector.select(min(max(deadline - now, 0.0), 0.1)):
                    self._read(key)
                if self.sizes[1] + self.sizes[2] > cap:
                    outcome = Outcome.OUTPUT
                    break
        finally:
            _kill_group(self.process)
            self.process.wait()
            for key in list(self.selector.get_map().values()):
                with contextlib.suppress(OSError):
                    self._drain(key)
                self.selector.unregister(key.fileobj)
                with contextlib.suppress(OSError):
                    key.fileobj.close()  # type: ignore[union-attr]
            self.selector.close()
        return outcome, ""

    def _read(self, key: selectors.SelectorKey) -> None:
        try:
            chunk = os.read(key.fd, 1 << 16)
        except BlockingIOError:
            return
        if not chunk:
            self.selector.unregister(key.fileobj)
            key.fileobj.close()  # type: ignore[union-attr]
            return
        number = key.data
        self.sizes[number] += len(chunk)
        if self.sizes[number] <= (1 << 22):  # keep at most 4 MiB of any stream in memory
            self.chunks[number].append(chunk)

    def _drain(self, key: selectors.SelectorKey) -> None:
        """What is already in a pipe, without waiting."""
        while True:
            try:
                chunk = os.read(key.fd, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                return
            self.sizes[key.data] += len(chunk)
            if self.sizes[key.data] <= (1 << 22):
                self.chunks[key.data].append(chunk)

    def text(self, number: int, keep: int = 64 << 10) -> str:
        """The stream's text, its last ``keep`` bytes (the end holds the error)."""
        data = b"".join(self.chunks[number])
        if len(data) > keep:
            data = b"[...]\n" + data[-keep:]
        return data.decode("utf-8", "replace")

    def status(self) -> dict[str, str]:
        line = b"".join(self.chunks[3]).split(b"\n", 1)[0]
        try:
            value = json.loads(line.decode("utf-8", "replace")) if line else {}
        except ValueError:
            return {}
        if not isinstance(value, dict):
            return {}
        return {str(key): str(item) for key, item in value.items()}


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _confinement(status: Mapping[str, str]) -> Confinement:
    return Confinement(
        network=status.get("network", "not confined"),
        filesystem=status.get("filesystem", "not confined"),
        pids=status.get("pids", "process group"),
        limits_refused=status.get("limits_refused", ""),
    )


def _judge_exit(code: int | None, status: Mapping[str, str], limits: Limits) -> tuple[Outcome, str]:
    if code == 0:
        return Outcome.OK, ""
    if "failed" in status:
        return Outcome.NOT_STARTED, f"the sandbox could not start: {status['failed']}"
    if code == _LAUNCH_FAILED and not status:
        return Outcome.NOT_STARTED, "the sandbox could not start"
    if code is not None and code < 0:
        number = -code
        if number == signal.SIGXCPU:
            why = f"used more than {limits.cpu_seconds} s of CPU"
        elif number == signal.SIGXFSZ:
            why = f"wrote a file larger than {_size(limits.file_bytes)}"
        elif number == signal.SIGKILL:
            why = "was killed (SIGKILL; out of memory?)"
        else:
            why = f"was ended by signal {signal.Signals(number).name}"
        return Outcome.KILLED, why
    return Outcome.FAILED, f"exited with status {code}"


def _read_results(path: Path, limit: int) -> tuple[tuple[Any, ...], str]:
    """The JSON values of the result file's lines, validated: a regular file (not a
    symlink), at most ``limit`` bytes, each line JSON nested at most 64 deep."""
    if not os.path.lexists(path):
        return (), ""
    try:
        data = read_regular(path, limit, follow_symlinks=False)
    except OSError as error:
        return (), f"result file not read: {error.strerror or error}"
    values: list[Any] = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line.decode("utf-8"))
        except (ValueError, RecursionError):
            return tuple(values), f"line {number} of the result is not JSON"
        if _depth(value) > _MAX_DEPTH:
            return tuple(values), f"line {number} of the result is nested too deeply"
        values.append(value)
    return tuple(values), ""


def _depth(value: Any) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > _MAX_DEPTH:
            return deepest
        if isinstance(item, dict):
            stack += [(child, depth + 1) for child in item.values()]
        elif isinstance(item, list):
            stack += [(child, depth + 1) for child in item]
    return deepest


def _remove(folder: Path) -> None:
    """Remove a run's folder, even where the child took away its own permissions."""

    def retry(function: Any, path: str, _: Any) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(path), 0o700)
            os.chmod(path, 0o700)
            function(path)

    shutil.rmtree(folder, onerror=retry)


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit} bytes"
