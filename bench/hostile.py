"""Time and peak memory of apisurface on hostile inputs (docs/security.md).

Each input is generated in a temporary folder and snapshotted by a fresh
``python -m apisurface snapshot DIR -o - --no-cache`` process, with a time limit; the
wall time and the child's peak resident memory are printed. Usage::

    python bench/hostile.py [--timeout 120] [--src PATH] [CASE ...]

``--src`` puts another checkout's ``src`` first on ``PYTHONPATH`` (to measure before and
after a change with the same script).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

DOC = '"""Doc."""\n'


def _package(root: Path, files: dict[str, str]) -> list[str]:
    for relative, text in files.items():
        path = root / "pkg" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return ["snapshot", str(root), "--package", "pkg"]


def ladder(root: Path, levels: int) -> list[str]:
    lines = [DOC, "class A0:\n    pass\n", "class B0:\n    pass\n"]
    for level in range(1, levels):
        for name in "AB":
            lines.append(f"class {name}{level}(A{level - 1}, B{level - 1}):\n    pass\n")
    return _package(root, {"__init__.py": "".join(lines)})


def chain(root: Path, length: int) -> list[str]:
    lines = [DOC, "class C0:\n    pass\n"]
    lines += [f"class C{i}(C{i - 1}):\n    pass\n" for i in range(1, length)]
    return _package(root, {"__init__.py": "".join(lines)})


def names(root: Path, count: int) -> list[str]:
    body = "".join(f"N{i} = {i}\n" for i in range(count))
    return _package(root, {"__init__.py": DOC + body})


def star_cycle(root: Path, count: int) -> list[str]:
    files = {"__init__.py": DOC + "from .m0 import *\n"}
    for i in range(count):
        files[f"m{i}.py"] = f"{DOC}from .m{(i + 1) % count} import *\nX{i} = {i}\n"
    return _package(root, files)


def long_line(root: Path, megabytes: float) -> list[str]:
    """One line: a tuple of ``megabytes`` MB of ``1,``."""
    count = int(megabytes * 1024 * 1024 / 2)
    return _package(root, {"__init__.py": f"{DOC}X = ({'1,' * count})\n"})


def excludes(root: Path, count: int) -> list[str]:
    patterns = ", ".join(f'"pkg.nothing{i}.*"' for i in range(count))
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "pkg"\n\n[tool.apisurface]\nexclude = [{patterns}]\n',
        encoding="utf-8",
    )
    body = "".join(f"def f{i}():\n    '''F.'''\n" for i in range(4))
    return _package(root, {"__init__.py": DOC + body})


def zero_blobs(root: Path, files: int, megabytes: int) -> list[str]:
    """A git repository whose tree holds ``files`` text files of ``megabytes`` of zeros: one
    blob, stored once and packed to a few hundred KB, named ``files`` times."""
    _package(root, {"__init__.py": DOC})
    git_env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b"}
    git_env |= {"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}

    def git(*args: str, data: bytes | None = None) -> str:
        return subprocess.run(
            ["git", *args], cwd=root, env=git_env, input=data, capture_output=True, check=True
        ).stdout.decode()

    git("init", "-q")
    git("add", "-A")
    with subprocess.Popen(
        ["git", "hash-object", "-w", "--stdin"],
        cwd=root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        chunk = b"0" * (1 << 20)
        for _ in range(megabytes):
            process.stdin.write(chunk)
        process.stdin.close()
        blob = process.stdout.read().decode().strip()
    for i in range(files):
        git("update-index", "--add", "--cacheinfo", f"100644,{blob},docs/z{i}.txt")
    git("commit", "-qm", "zeros")  # the files are in the commit, never in the folder
    return ["snapshot", "HEAD", "--package", "pkg", "--cwd", str(root)]


CASES: dict[str, Callable[[Path], list[str]]] = {
    "ladder-16": lambda root: ladder(root, 16),
    "ladder-20": lambda root: ladder(root, 20),
    "chain-250": lambda root: chain(root, 250),
    "names-10k": lambda root: names(root, 10_000),
    "star-cycle-200": lambda root: star_cycle(root, 200),
    "line-7.5MB": lambda root: long_line(root, 7.5),
    "exclude-10k": lambda root: excludes(root, 10_000),
    "exclude-100k": lambda root: excludes(root, 100_000),
    "git-zeros-25x200MB": lambda root: zero_blobs(root, 25, 200),
}


def measure(name: str, timeout: float, src: str | None) -> str:
    with tempfile.TemporaryDirectory(prefix="apisurface-hostile-") as folder:
        root = Path(folder)
        argv = CASES[name](root)
        cwd = root
        if "--cwd" in argv:
            index = argv.index("--cwd")
            cwd = Path(argv[index + 1])
            del argv[index : index + 2]
        env = dict(os.environ)
        if src:
            env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        command = [sys.executable, "-m", "apisurface", *argv, "-o", "-", "--no-cache"]
        began = time.monotonic()
        with subprocess.Popen(
            command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        ) as process:
            status = "ok"
            deadline = began + timeout
            while True:
                pid, code, usage = os.wait4(process.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() > deadline:
                    process.kill()
                    pid, code, usage = os.wait4(process.pid, 0)
                    status = f"killed after {timeout:.0f} s"
                    break
                time.sleep(0.02)
            process.returncode = code
            elapsed = time.monotonic() - began
        if status == "ok" and code != 0:
            status = f"exit {os.waitstatus_to_exitcode(code)}"
        peak = usage.ru_maxrss / 1024  # KiB on Linux
        return f"{name:22} {elapsed:7.2f} s  {peak:8.0f} MiB  {status}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", default=list(CASES))
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--src", help="another checkout's src folder, first on PYTHONPATH")
    args = parser.parse_args()
    for name in args.cases:
        print(measure(name, args.timeout, args.src), flush=True)


if __name__ == "__main__":
    main()
