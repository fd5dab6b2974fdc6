"""Hostile and broken input (issue 6): never run the analysed code, never a traceback,
never lose a file.

Broken files inside a package are not fatal: each is one line in ``Surface.problems``,
the snapshot says ``"complete": false``, ``snapshot`` warns on stderr and exits 0, and the
rest of the package is still analysed. Bad input as a whole (a ref, a missing package, an
unwritable target) is one ``apisurface: error:`` line and exit 2.
"""

from __future__ import annotations

import ast
import errno
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirun import run, write

from apisurface.surface.collect import load_surface
from apisurface.surface.visit.conditions import prefer_definitions, settle_version_branches

DOC = '"""Pkg."""\n'


def snapshot(
    capsys: pytest.CaptureFixture[str], root: Path, *extra: str
) -> tuple[dict[str, object], str]:
    """Snapshot ``root`` through the CLI: exit 0, the document and stderr."""
    code, out, err = run(capsys, "snapshot", str(root), "-o", "-", *extra)
    assert code == 0, err
    assert "Traceback" not in err
    return json.loads(out), err


def symbols(document: dict[str, object]) -> dict[str, dict[str, object]]:
    value = document["symbols"]
    assert isinstance(value, dict)
    return value


# --- never execute the analysed code ------------------------------------------------------


def test_analysed_code_never_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    payload = (
        f"import socket\nopen({str(marker)!r}, 'w').write('ran')\n"
        "socket.create_connection(('127.0.0.1', 9))\n"
    )
    tree = {
        "setup.py": payload + "from setuptools import setup\nsetup(name='evil')\n",
        "conftest.py": payload,
        "noxfile.py": payload,
        "evil/__init__.py": DOC + payload + "def f():\n    'F.'\n",
        "evil/__main__.py": payload,
        "evil/sub.py": '"""Sub."""\n' + payload,
        "evil/build.pyi": payload,
        "pyproject.toml": '[project]\nname = "evil"\nversion = "1.0"\n'
        '[project.entry-points."griffe.extensions"]\nevil = "evil:f"\n',
    }
    old = write(tmp_path / "old", tree)
    new = write(tmp_path / "new", tree)
    connections: list[object] = []
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connections.append(a))
    monkeypatch.setattr(socket.socket, "connect", lambda *a, **k: connections.append(a))
    document, _ = snapshot(capsys, old)
    assert "evil.f" in symbols(document)
    assert run(capsys, "diff", str(old), str(new))[0] == 0
    assert run(capsys, "show", str(new))[0] == 0
    assert not marker.exists()
    assert not connections
    assert "evil" not in sys.modules and "setup" not in sys.modules


# --- broken files: one problem each, the rest still analysed ---------------------------------

BROKEN = {
    "syntax_error": ("def broken(:\n", "pkg/bad.py:1:12: syntax error: invalid syntax"),
    "nul_bytes": (b'"""Bad."""\x00\n', "pkg/bad.py:1:11: contains NUL bytes, skipped"),
    "not_utf8": (
        b'"""Caf\xe9."""\n',
        "pkg/bad.py:1:7: not valid UTF-8 (byte 0xe9 at offset 6); save it as UTF-8",
    ),
    "not_utf8_later_line": (
        b'"""Doc."""\n\n\nX = "caf\xe9"\n',
        "pkg/bad.py:4:9: not valid UTF-8 (byte 0xe9",
    ),
    "unknown_encoding": (
        b"# -*- coding: klingon -*-\nX = 1\n",
        "pkg/bad.py:1: unknown source encoding",
    ),
    "deep_parentheses": (
        "X = " + "(" * 3000 + "1" + ")" * 3000 + "\n",
        "pkg/bad.py:1:",  # where the parser gave up (its column moves between Pythons)
    ),
    "deep_expression": (
        "X = " + "+".join(["1"] * 30000) + "\n",
        "pkg/bad.py: cannot be analysed (RecursionError: nested too deeply or too large)",
    ),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_file_is_a_problem_not_a_crash(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content, expected = BROKEN[name]
    root = write(
        tmp_path,
        {"pkg/__init__.py": DOC + "def ok():\n    'Ok.'\n", "pkg/bad.py": content},
    )
    # A public module that cannot be read is bad input: FILE:LINE:COL first, exit 2 ...
    code, out, err = run(capsys, "snapshot", str(root), "-o", "-")
    if name == "deep_expression":  # the file parses; griffe gives up: an unknown, no error
        assert code == 0, err
    else:
        assert (code, out) == (2, ""), err
        assert err.splitlines()[0].startswith(f"{root.absolute().as_posix()}/{expected}"), err
        assert err.splitlines()[-1].startswith("apisurface: error:")
    # ... and with --allow-incomplete the rest is still analysed.
    document, err = snapshot(capsys, root, "--allow-incomplete")
    assert document["complete"] is False
    problems = document["problems"]
    assert isinstance(problems, list) and len(problems) == 1
    assert problems[0].startswith(expected), problems
    assert f"warning: incomplete surface: {problems[0]}" in err
    assert "pkg.ok" in symbols(document)


def test_enormous_file_is_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write(tmp_path, {"pkg/__init__.py": DOC + "def ok():\n    'Ok.'\n"})
    with (root / "pkg" / "huge.py").open("wb") as stream:
        stream.truncate(8 * 1024 * 1024 + 1)  # sparse: no 8 MiB written
    document, _ = snapshot(capsys, root)
    assert document["problems"] == ["pkg/huge.py: larger than 8 MiB, skipped"]
    assert "pkg.ok" in symbols(document)


@pytest.mark.parametrize(
    ("content", "cookie"),
    [
        (b'\xef\xbb\xbf"""Bom."""\ndef f():\n    """F."""\n', "bom"),
        (b'# -*- coding: latin-1 -*-\n"""Caf\xe9."""\ndef f():\n    """F."""\n', "latin-1"),
    ],
)
def test_bom_and_declared_encodings_are_read(
    content: bytes, cookie: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write(tmp_path, {"pkg/__init__.py": DOC, "pkg/mod.py": content})
    document, _ = snapshot(capsys, root)
    assert document["complete"] is True, cookie
    assert "pkg.mod.f" in symbols(document)


def test_symlinks_loops_and_outside_targets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = write(tmp_path / "outside", {"secret.py": '"""Secret."""\ndef s():\n    "S."\n'})
    root = write(tmp_path / "src", {"pkg/__init__.py": DOC + "def ok():\n    'Ok.'\n"})
    pkg = root / "pkg"
    (pkg / "a.py").symlink_to("b.py")
    (pkg / "b.py").symlink_to("a.py")
    (pkg / "sub").mkdir()
    (pkg / "sub" / "__init__.py").write_text('"""Sub."""\n')
    (pkg / "sub" / "again").symlink_to("..", target_is_directory=True)
    (pkg / "secret.py").symlink_to(outside / "secret.py")
    (pkg / "etc").symlink_to(outside, target_is_directory=True)
    (pkg / "dangling.py").symlink_to("nowhere.py")
    document, _ = snapshot(capsys, root)
    assert document["problems"] == [
        "pkg/a.py: symlink loop, skipped",
        "pkg/b.py: symlink loop, skipped",
        "pkg/dangling.py: cannot read (No such file or directory), skipped",
        "pkg/etc: symlink to outside the package, skipped",
        "pkg/secret.py: symlink to outside the package, skipped",
        "pkg/sub/again: symlink loop, skipped",
    ]
    assert "pkg.ok" in symbols(document)
    assert not any("secret" in path for path in symbols(document))


# --- aliases, __all__ and star-imports -------------------------------------------------------

EXPORTS = {
    "circular_alias": (
        {
            "pkg/__init__.py": DOC + "from .a import X\n",
            "pkg/a.py": "from .b import X\n",
            "pkg/b.py": "from .a import X\n",
        },
        "pkg/__init__.py: pkg.X re-exports pkg.a.X, a circular import; left out",
    ),
    "dangling_alias": (
        {"pkg/__init__.py": DOC + "from .a import Gone\n", "pkg/a.py": "X = 1\n"},
        "pkg/__init__.py: pkg.Gone re-exports pkg.a.Gone, not defined statically; left out",
    ),
    "dynamic_all": (
        {"pkg/__init__.py": DOC + "__all__ = [n for n in dir() if not n.startswith('_')]\n"},
        "pkg/__init__.py: __all__ is computed at run time; treated as absent",
    ),
    "unknown_names_in_all": (
        {"pkg/__init__.py": DOC + "__all__ = ['ok', 'ghost', 'spectre']\n"},
        "pkg/__init__.py: __all__ lists names not bound statically (ghost, spectre); public, "
        "of unknown kind",
    ),
    "star_import_missing_module": (
        {"pkg/__init__.py": DOC + "from .missing import *\n"},
        "pkg/__init__.py: star-import from pkg.missing, which is not in the package; "
        "its names are unknown",
    ),
}


@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_export_problems_are_recorded(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, expected = EXPORTS[name]
    files = {**files, "pkg/__init__.py": files["pkg/__init__.py"] + "def ok():\n    'Ok.'\n"}
    document, err = snapshot(capsys, write(tmp_path, dict(files)))
    problems = document["problems"]
    assert isinstance(problems, list) and len(problems) == 1, problems
    assert problems[0].startswith(expected)
    assert "warning: incomplete surface:" in err
    assert "pkg.ok" in symbols(document)
    assert not any("*" in path or "/" in path for path in symbols(document))


def test_circular_star_imports_and_external_star_imports_are_fine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write(
        tmp_path,
        {
            "pkg/__init__.py": DOC + "from .a import *\nfrom not_installed_anywhere import *\n",
            "pkg/a.py": '"""A."""\nfrom .b import *\ndef fa():\n    "Fa."\n',
            "pkg/b.py": '"""B."""\nfrom .a import *\ndef fb():\n    "Fb."\n',
        },
    )
    document, _ = snapshot(capsys, root)
    assert document["complete"] is True
    found = symbols(document)
    assert {"pkg.fa", "pkg.fb", "pkg.a.fb", "pkg.b.fa"} <= set(found)
    assert not any("*" in path for path in [*found, *document["excluded"]])  # type: ignore[list-item]


# --- conditional definitions ---------------------------------------------------------------


def test_version_conditionals_keep_the_modern_branch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write(
        tmp_path,
        {
            "pkg/__init__.py": DOC
            + "import sys\n"
            + "if sys.version_info >= (3, 8):\n    def g(a):\n        'G.'\nelse:\n"
            + "    def g(a, b):\n        'G.'\n"
            + "if sys.version_info < (3, 9):\n    def h(old):\n        'H.'\n"
            + "elif sys.version_info[:2] >= (3, 10):\n    def h(new):\n        'H.'\n"
            + "else:\n    def h(middle):\n        'H.'\n"
            + "try:\n    from ._speedups import k\nexcept ImportError:\n"
            + "    def k(fallback):\n        'K.'\n",
        },
    )
    document, _ = snapshot(capsys, root)
    assert document["complete"] is True
    found = symbols(document)

    def names(path: str) -> list[str]:
        signature = found[path]["signature"]
        assert isinstance(signature, dict)
        return [parameter["name"] for parameter in signature["parameters"]]

    assert names("pkg.g") == ["a"]
    assert names("pkg.h") == ["new"]
    assert names("pkg.k") == ["fallback"]


def test_settle_version_branches_keeps_lines_and_undecidable_conditions() -> None:
    text = (
        "import sys\nif sys.version_info >= (3, 8):\n    A = 1\nelse:\n    A = 2\n"
        "if sys.platform == 'win32':\n    B = 1\nelse:\n    B = 2\n"
        "if sys.version_info > (3, 8): C = 1\nelse: C = 2\n"
    )
    settled = settle_version_branches(text)
    assert settled.count("\n") == text.count("\n")
    assert "A = 2" not in settled and "B = 2" in settled and "C = 2" in settled


def test_prefer_definitions_blanks_only_competing_outside_references() -> None:
    text = (
        "import fast\nfrom pkg import _impl\n"
        "try:\n    from fast import f, g\n    from fast import h\n    k = fast.k; m = 1\n"
        "    from .impl import n\n    p = _impl.p\n"
        "except ImportError:\n    def f(): pass\n    def h(): pass\n    def k(): pass\n"
        "    def n(): pass\n    def p(): pass\n"
        "def g(): pass\ng = fast.g\n"
        "if TYPE_CHECKING:\n    def q(): pass\nelse:\n    q = fast.q\n"
    )
    preferred = prefer_definitions(text, "pkg")
    assert preferred.count("\n") == text.count("\n")
    assert "from fast import f, g" in preferred  # g has no definition in another branch
    assert "from fast import h" not in preferred  # h is defined by the handler
    assert "k = fast.k" in preferred  # shares its line with other code
    assert "from .impl import n" in preferred  # the package's own object: not judged
    assert "p = _impl.p" in preferred  # the same
    assert "g = fast.g" in preferred  # the same block, not another branch
    assert "q = fast.q" in preferred  # a TYPE_CHECKING declaration is no definition
    ast.parse(preferred)


# --- stubs and namespace packages ------------------------------------------------------------


def test_stub_beside_source_gives_types_source_gives_docs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write(
        tmp_path,
        {
            "pkg/__init__.py": DOC + "from .core import f\n",
            "pkg/core.py": '"""Core."""\ndef f(a, b=1):\n    """Runtime doc."""\n',
            "pkg/core.pyi": "from .types import Mode as Mode\n"
            "def f(a: int, b: int = ...) -> str:\n    '''Stub doc.'''\n"
            "def stub_only(x: int) -> int:\n    '''Only in the stub.'''\n",
            "pkg/types.py": '"""Types."""\nclass Mode:\n    """Mode."""\n',
            "pkg/_fast.pyi": '"""Compiled."""\ndef speed(n: int) -> int:\n    """Fast."""\n',
        },
    )
    document, _ = snapshot(capsys, root)
    assert document["complete"] is True
    found = symbols(document)
    assert found["pkg.f"]["signature"] == {
        "parameters": [
            {"name": "a", "kind": "positional-or-keyword", "annotation": "int"},
            {"name": "b", "kind": "positional-or-keyword", "annotation": "int", "default": "1"},
        ],
        "returns": "str",
    }
    surface = load_surface(root)
    assert surface.symbols["pkg.f"].docstring_hash == surface.symbols["pkg.core.f"].docstring_hash
    assert "pkg.core.stub_only" in found
    assert "pkg.core.Mode" in found  # ``import x as x`` in a stub is a re-export
    assert "pkg._fast" not in found  # private, but its stub was read without a problem


def test_namespace_package_needs_package_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write(
        tmp_path,
        {
            "ns/plugin/__init__.py": '"""Plugin."""\ndef hook():\n    "Hook."\n',
            "ns/portion/deeper/__init__.py": '"""Deeper."""\ndef d():\n    "D."\n',
        },
    )
    code, _, err = run(capsys, "snapshot", str(root), "-o", "-")
    assert code == 2
    assert (
        err.startswith("apisurface: error: ")
        and "(PEP 420): ns; name the one to analyse with --package NAME" in err
    )
    document, _ = snapshot(capsys, root, "--package", "ns")
    assert document["complete"] is True
    assert {"ns", "ns.plugin.hook", "ns.portion.deeper.d"} <= set(symbols(document))


def test_folder_without_init_in_a_regular_package_is_not_walked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write(
        tmp_path,
        {"pkg/__init__.py": DOC, "pkg/scripts/tool.py": '"""Tool."""\ndef t():\n    "T."\n'},
    )
    document, _ = snapshot(capsys, root)
    assert document["complete"] is True
    assert not any("scripts" in path for path in symbols(document))


# --- git refs --------------------------------------------------------------------------------


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    write(root, {"README.md": "nothing yet\n"})
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "empty")
    _git(root, "tag", "v0")
    write(root, {"pkg/__init__.py": DOC + "def ok():\n    'Ok.'\n"})
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "pkg")
    _git(root, "tag", "v1")
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize("ref", ["--output=evil", "-h", "--upload-pack=touch pwned"])
def test_ref_starting_with_dash_is_never_an_option(
    ref: str, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "show", "--", ref)
    assert code == 2
    assert err == f"apisurface: error: {ref!r}: not a folder, snapshot or git ref\n"
    assert not (repo / "evil").exists() and not (repo / "pwned").exists()


def test_ref_that_does_not_exist(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "diff", "v1", "v9")
    assert code == 2
    assert err.startswith("apisurface: error: 'v9': no such folder, snapshot or git ref")
    assert err.count("\n") == 1


def test_ref_without_the_package(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "diff", "v0", "v1")
    assert code == 2
    assert err.startswith("apisurface: error: v0: ") and "no Python package found" in err
    code, out, _ = run(capsys, "show", "v1")
    assert code == 0 and "ok" in out


# --- nothing lost ----------------------------------------------------------------------------


@pytest.fixture
def written(tmp_path: Path) -> tuple[Path, Path]:
    """A source tree and an existing snapshot file that must survive a failed write."""
    root = write(tmp_path / "src", {"pkg/__init__.py": DOC + "def ok():\n    'Ok.'\n"})
    target = tmp_path / "out" / "pkg.json"
    target.parent.mkdir()
    target.write_text("OLD\n")
    return root, target


def _leftovers(target: Path) -> list[str]:
    return sorted(path.name for path in target.parent.iterdir() if path != target)


@pytest.mark.parametrize(
    "failure",
    [
        OSError(errno.ENOSPC, "No space left on device"),
        OSError(errno.EROFS, "Read-only file system"),
    ],
)
@pytest.mark.parametrize("command", ["snapshot", "diff"])
def test_full_or_read_only_disk_keeps_the_old_file(
    failure: OSError,
    command: str,
    written: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Running as root, chmod cannot make a folder read-only: the failure is injected.
    root, target = written

    def fail(*args: object) -> None:
        raise failure

    monkeypatch.setattr(os, "fsync", fail)
    argv = ["snapshot", str(root)] if command == "snapshot" else ["diff", str(root), str(root)]
    code, _, err = run(capsys, *argv, "-o", str(target))
    assert code == 2
    assert err == (
        f"apisurface: error: {target}: cannot write ({failure.strerror}); "
        "the old file is unchanged\n"
    )
    assert target.read_text() == "OLD\n"
    assert _leftovers(target) == []


def test_unwritable_folder_is_a_clear_error(
    written: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root, target = written
    original = os.open

    def fail(path: str, flags: int, *args: object, **kwargs: object) -> int:
        if flags & os.O_CREAT:  # creating the temporary file (tests run as root)
            raise PermissionError(errno.EACCES, "Permission denied")
        return original(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", fail)
    code, _, err = run(capsys, "snapshot", str(root), "-o", str(target))
    assert code == 2
    assert err == (
        f"apisurface: error: {target}: cannot write (Permission denied); "
        "check the folder's permissions\n"
    )
    assert target.read_text() == "OLD\n"


def test_interrupt_mid_write_keeps_the_old_file(
    written: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root, target = written

    def interrupt(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    code, _, err = run(capsys, "snapshot", str(root), "-o", str(target))
    assert code == 130
    assert err == "apisurface: interrupted\n"
    assert target.read_text() == "OLD\n"
    assert _leftovers(target) == []


_SLOW_WRITER = """
import os, sys, time
os.fsync = lambda fd: time.sleep(60)  # the write hangs after the data, before the rename
sys.argv = ["apisurface", "snapshot", sys.argv[1], "-o", sys.argv[2]]
from apisurface.cli import run
run()
"""


def test_sigterm_mid_write_keeps_the_old_file(written: tuple[Path, Path]) -> None:
    root, target = written
    process = subprocess.Popen(
        [sys.executable, "-c", _SLOW_WRITER, str(root), str(target)],
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not _leftovers(target) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _leftovers(target), "the writer never started its temporary file"
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert err == "apisurface: interrupted\n"
    assert target.read_text() == "OLD\n"
    assert _leftovers(target) == []


# --- regressions found by the real-world sweep (docs/sweep.md) -------------------------------


def test_nested_version_branch_inside_a_dead_branch(tmp_path: Path) -> None:
    # typing_extensions, anyio, uvicorn: an inner ``if`` inside a removed branch.
    text = (
        "import sys\nif sys.version_info >= (3, 12):\n    A = 1\nelse:\n"
        "    class B:\n        if sys.version_info < (3, 11):\n            x = 1\n"
        "        def f(self): ...\n"
    )
    settled = settle_version_branches(text)
    compile(settled, "settled.py", "exec")
    assert "class B" not in settled


def test_imports_of_other_packages_through_our_modules_are_not_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # fastapi: ``from .requests import Request`` where requests.py imports starlette's.
    root = write(
        tmp_path,
        {
            "pkg/__init__.py": DOC + "from .requests import Request\nfrom .star import *\n"
            "__all__ = ['Request', 'Thing', '__version__']\n",
            "pkg/requests.py": "from starlette.requests import Request as Request\n",
            "pkg/star.py": "from elsewhere import Thing\n__all__ = ['Thing']\n",
        },
    )
    document, _ = snapshot(capsys, root)
    assert document["problems"] == []


def test_stub_declares_with_overloads_what_the_source_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # attrs: ``from attr import field`` in the .py, ``@overload def field`` in the .pyi.
    root = write(
        tmp_path,
        {
            "pkg/__init__.py": DOC + "from other import field, define\n"
            "__all__ = ['field', 'define']\n",
            "pkg/__init__.pyi": "from typing import overload\n@overload\n"
            "def field(*, default: None = ...) -> None: ...\n@overload\n"
            "def field(*, default: int) -> int: ...\ndef define(cls: type) -> type: ...\n",
        },
    )
    document, _ = snapshot(capsys, root)
    assert document["problems"] == []
    found = symbols(document)
    assert len(found["pkg.field"]["overloads"]) == 2  # type: ignore[arg-type]
    assert found["pkg.define"]["kind"] == "function"


def test_a_recursion_limit_reads_the_same_wherever_it_struck() -> None:
    """Python words a RecursionError by where the limit struck, which depends on how deep
    the visit ran (sympy's resolvent_lookup.py read "... exceeded" in one run and
    "... exceeded in comparison" in another): the problem, and so the snapshot, must not."""
    from apisurface.surface.visit.modules import _given_up  # noqa: PLC0415

    base = "pkg/big.py:7: Failed to get expression from Dict: RecursionError: maximum recursion"
    plain = _given_up(f"{base} depth exceeded", "pkg/big.py")
    worded = _given_up(f"{base} depth exceeded in comparison", "pkg/big.py")
    assert plain == worded
    assert plain.message == (
        "Failed to get expression from Dict: RecursionError; the surface is incomplete without it"
    )
    assert plain.line == 7
