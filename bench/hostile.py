"""Time and peak memory of apisurface on hostile inputs (docs/security.md).

Each input is generated in a temporary folder and snapshotted (or diffed) by a fresh
``python -m apisurface ... -o - --no-cache`` process, with a time limit; the wall time and
the child's peak resident memory are printed. Usage::

    python bench/hostile.py [--timeout 120] [--src PATH] [CASE ...]
    python bench/hostile.py --scaling [--timeout 120] [--src PATH] [FAMILY ...]

``--src`` puts another checkout's ``src`` first on ``PYTHONPATH`` (to measure before and
after a change with the same script). ``--scaling`` runs each bomb of issue 39 (a
``FAMILY``) at three sizes, each twice the one before, and prints the ratios of time and
of memory (above an empty run's) from one size to the next: about 2 is linear, 4 is
quadratic.
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


# --- issue 39's bombs (--scaling) -----------------------------------------------------


def punycode(root: Path, kilobytes: int) -> list[str]:
    """A module declaring ``# coding: punycode``: one ``-`` then ``kilobytes`` KB of digits,
    each inserting a character (quadratic to decode)."""
    path = root / "pkg"
    path.mkdir(parents=True, exist_ok=True)
    (path / "__init__.py").write_text(DOC, encoding="utf-8")
    body = b"x" * 10 + b"-" + b"a" * (kilobytes * 1024)
    (path / "odd.py").write_bytes(b"# coding: punycode\n" + body)
    return ["snapshot", str(root), "--package", "pkg"]


def proto_names(root: Path, fields: int) -> list[str]:
    """A ``_pb2`` module: one message of a 10,000-character name and ``fields`` fields."""
    from google.protobuf import descriptor_pb2  # noqa: PLC0415

    proto = descriptor_pb2.FileDescriptorProto(name="big.proto", package="big", syntax="proto3")
    message = proto.message_type.add(name="M" * 10_000)
    for number in range(1, fields + 1):
        message.field.add(name=f"f{number}", number=number, type=5, label=1)
    data = proto.SerializeToString()
    text = (
        '"""Generated protocol buffer code."""\n'
        "from google.protobuf import descriptor_pool as _descriptor_pool\n\n"
        f"DESCRIPTOR = _descriptor_pool.Default().AddSerializedFile({data!r})\n"
    )
    return _package(root, {"__init__.py": DOC, "big_pb2.py": text})


def docs_parts(root: Path, parts: int) -> list[str]:
    """One docs line naming ``x.a.a...`` of ``parts`` parts, ``x`` another import name."""
    (root / "docs").mkdir(parents=True, exist_ok=True)
    line = ".. autofunction:: x" + ".a" * parts + "\n"
    (root / "docs" / "api.rst").write_text(line, encoding="utf-8")
    (root / "x" / "a").mkdir(parents=True, exist_ok=True)
    (root / "x" / "__init__.py").write_text(DOC, encoding="utf-8")
    (root / "x" / "a" / "__init__.py").write_text(DOC, encoding="utf-8")
    return _package(root, {"__init__.py": DOC + "def f():\n    pass\n"})


def _pair(root: Path, old: str, new: str) -> list[str]:
    for side, text in (("old", old), ("new", new)):
        path = root / side / "pkg"
        path.mkdir(parents=True, exist_ok=True)
        (path / "__init__.py").write_text(text, encoding="utf-8")
    return ["diff", str(root / "old"), str(root / "new"), "--format", "json"]


def renamed_functions(root: Path, count: int) -> list[str]:
    """``count`` functions alike (same signature and docstring), every one renamed."""
    old = DOC + "".join(f'def f{i}(a, b):\n    """Do it."""\n' for i in range(count))
    return _pair(root, old, old.replace("def f", "def g"))


def renamed_classes(root: Path, count: int) -> list[str]:
    """``count`` classes, each with a member of its own, every one renamed."""
    old = DOC + "".join(
        f'class C{i}:\n    """C."""\n    def m{i}(self):\n        """M."""\n' for i in range(count)
    )
    return _pair(root, old, old.replace("class C", "class D"))


def portions(root: Path, folders: int) -> list[str]:
    """``folders`` folders without ``__init__.py`` beside one 4 MiB module of 2M short
    lines, in a docstring (cheap to parse: the scan for imports is what is measured)."""
    files = {"__init__.py": '"""\n' + "x\n" * (2 * 1024 * 1024) + '"""\n'}
    files |= {f"p{i}/m.py": DOC for i in range(folders)}
    return _package(root, files)


FAMILIES: dict[str, tuple[Callable[[Path, int], list[str]], tuple[int, int, int]]] = {
    "punycode-KB": (punycode, (100, 200, 400)),
    "proto-fields": (proto_names, (5_000, 10_000, 20_000)),
    "docs-parts": (docs_parts, (4_000, 8_000, 16_000)),
    "renamed-functions": (renamed_functions, (5_000, 10_000, 20_000)),
    "renamed-classes": (renamed_classes, (4_000, 8_000, 16_000)),
    "portions": (portions, (250, 500, 1_000)),
}


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
    elapsed, peak, status = run_case(CASES[name], timeout, src)
    return f"{name:22} {elapsed:7.2f} s  {peak:8.0f} MiB  {status}"


def run_case(
    case: Callable[[Path], list[str]], timeout: float, src: str | None
) -> tuple[float, float, str]:
    """Wall time (s), the child's peak resident memory (MiB) and its status."""
    with tempfile.TemporaryDirectory(prefix="apisurface-hostile-") as folder:
        root = Path(folder)
        argv = case(root)
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
        if status == "ok" and os.waitstatus_to_exitcode(code) not in (0, 1):
            status = f"exit {os.waitstatus_to_exitcode(code)}"
        peak = usage.ru_maxrss / 1024  # KiB on Linux
        return elapsed, peak, status


def scaling(family: str, timeout: float, src: str | None, fraction: float = 1.0) -> list[str]:
    """The family at its three sizes (times ``fraction``), with the ratios from one size
    to the next of the time and of the memory above an empty run's."""
    build, full = FAMILIES[family]
    sizes = [max(1, round(size * fraction)) for size in full]
    _, base, _ = run_case(lambda root: _package(root, {"__init__.py": DOC}), timeout, src)
    lines: list[str] = []
    before: tuple[float, float] | None = None
    for size in sizes:
        elapsed, peak, status = run_case(lambda root, n=size: build(root, n), timeout, src)
        growth = ""
        if before is not None and status == "ok":
            time_ratio = elapsed / max(before[0], 1e-3)
            memory_ratio = max(peak - base, 1.0) / max(before[1] - base, 1.0)
            growth = f"  x{time_ratio:4.1f} time  x{memory_ratio:4.1f} memory"
        lines.append(f"{family:18} {size:>7}  {elapsed:7.2f} s  {peak:7.0f} MiB  {status}{growth}")
        before = (elapsed, peak)
        if status != "ok":
            break
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--src", help="another checkout's src folder, first on PYTHONPATH")
    parser.add_argument("--scaling", action="store_true", help="issue 39's bombs at 3 sizes")
    parser.add_argument("--fraction", type=float, default=1.0, help="with --scaling: sizes x F")
    args = parser.parse_args()
    if args.scaling:
        for family in args.cases or list(FAMILIES):
            for line in scaling(family, args.timeout, args.src, args.fraction):
                print(line, flush=True)
        return
    for name in args.cases or list(CASES):
        print(measure(name, args.timeout, args.src), flush=True)


if __name__ == "__main__":
    main()
