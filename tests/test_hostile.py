"""Untrusted pull requests (docs/security.md): bounded work, no writes or reads outside
the project, no gate bypass, one-line errors. Hostile inputs are generated here, small;
the work is asserted bounded by counting it, never by timing it."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from fnmatch import fnmatchcase
from pathlib import Path

import griffe
import pytest
from cacheentries import payload, store
from clirun import run, write
from gitrepo import Repo
from griffe._internal.agents.nodes import ast as griffe_ast

import apisurface.release.inputs as inputs_module
import apisurface.surface.policy as policy_module
from apisurface.errors import ConfigError, GitRefError
from apisurface.project.config import MAX_LIST_ENTRIES, Config, parse_config
from apisurface.project.sources import SourceFile
from apisurface.release.checks import check_complete
from apisurface.release.inputs import load_input
from apisurface.store.cache import SurfaceCache
from apisurface.surface.collect import load_surface, surface_from_sources
from apisurface.surface.linearize import MAX_MRO
from apisurface.surface.policy import matches_any
from apisurface.surface.visit.modules import link_package
from apisurface.surface.visit.package import visit_package


def one_line_error(code: int, err: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("apisurface: error: "), err


# --- 1. the MRO is computed once per class --------------------------------------------


def ladder(levels: int) -> str:
    """Each level's two classes inherit both classes of the level below."""
    lines = ['"""Pkg."""', "class A0:", '    """A."""', "class B0:", '    """B."""']
    for level in range(1, levels):
        below = f"A{level - 1}, B{level - 1}"
        for name in "AB":
            lines += [f"class {name}{level}({below}):", f'    """{name}."""']
    lines += ["from dataclasses import dataclass", "@dataclass"]
    lines += [f"class Top(A{levels - 1}, B{levels - 1}):", '    """T."""', "    x: int = 0"]
    return "\n".join(lines) + "\n"


def test_mro_ladder_is_computed_once_per_class(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0
    resolved_bases = griffe.Class.resolved_bases

    def counting(self: griffe.Class) -> list[griffe.Object]:
        nonlocal calls
        calls += 1
        return resolved_bases.fget(self)  # type: ignore[attr-defined,no-any-return]

    monkeypatch.setattr(griffe.Class, "resolved_bases", property(counting))
    levels = 20
    surface = surface_from_sources("pkg", [SourceFile("pkg", "pkg/__init__.py", ladder(levels))])
    classes = 2 * levels + 1
    # Python's own order: Top, A19, B19, A18, B18, ... A0, B0, object.
    assert surface.problems == ()
    init = surface.symbols["pkg.Top.__init__"].signature  # griffe's dataclass support
    assert init is not None and [p.name for p in init.parameters] == ["x"]
    assert calls <= 4 * classes, calls  # griffe alone: exponential (2**20 and more)


def test_mro_matches_python_on_a_ladder() -> None:
    visits = visit_package("pkg", [SourceFile("pkg", "pkg/__init__.py", ladder(12))])
    top, _ = link_package(visits, [])
    namespace: dict[str, object] = {}
    exec(compile(ladder(12), "ladder", "exec"), namespace)
    top_type = namespace["Top"]
    assert isinstance(top_type, type)
    expected = [cls.__name__ for cls in top_type.__mro__[1:-1]]
    top_class = top.members["Top"]
    assert [cls.name for cls in top_class.mro()] == expected  # type: ignore[union-attr]


def test_mro_chain_deeper_than_the_cap_is_a_problem() -> None:
    depth = MAX_MRO + 40
    lines = ['"""Pkg."""', "class C0:", '    """C."""']
    lines += [f'class C{i}(C{i - 1}):\n    """C."""' for i in range(1, depth)]
    surface = surface_from_sources("pkg", [SourceFile("pkg", "pkg/__init__.py", "\n".join(lines))])
    assert any(f"more than {MAX_MRO} classes" in str(problem) for problem in surface.problems)
    assert f"pkg.C{depth - 1}" in surface.symbols


# --- 2. -o never replaces what is not a regular file ------------------------------------


def package(root: Path, body: str = "") -> Path:
    return write(root, {"pkg/__init__.py": f'"""Pkg."""\n{body}'})


@pytest.mark.parametrize("kind", ["fifo", "symlink", "folder"])
def test_output_refuses_what_is_not_a_regular_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    source = package(tmp_path / "src")
    target = tmp_path / "out.json"
    victim = tmp_path / "victim.json"
    victim.write_text("keep", encoding="utf-8")
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        target.symlink_to(victim)
    else:
        target.mkdir()
    for argv in (
        ["snapshot", str(source), "-o", str(target)],
        ["diff", str(source), str(source), "-o", str(target)],
    ):
        code, _, err = run(capsys, *argv)
        one_line_error(code, err)
        assert "refusing to replace it" in err
    mode = os.lstat(target).st_mode
    expected = {"fifo": stat.S_ISFIFO, "symlink": stat.S_ISLNK, "folder": stat.S_ISDIR}[kind]
    assert expected(mode)
    assert victim.read_text(encoding="utf-8") == "keep"


def test_output_dash_is_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "snapshot", str(package(tmp_path)), "-o", "-")
    assert code == 0 and json.loads(out)["package"] == "pkg"


def test_snapshot_folder_symlinked_outside_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = package(tmp_path / "project")
    outside = tmp_path / "outside"
    outside.mkdir()
    (source / "api_snapshots").symlink_to(outside)
    code, _, err = run(capsys, "snapshot", str(source))
    one_line_error(code, err)
    assert list(outside.iterdir()) == []


def test_snapshot_folder_in_a_symlink_loop_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = package(tmp_path / "project")
    (source / "api_snapshots").symlink_to(source / "api_snapshots")
    code, _, err = run(capsys, "snapshot", str(source))
    one_line_error(code, err)
    assert "refusing to write the snapshot there (name the file with -o)" in err


# --- 5. what the analysis gives up on is never a clean pass -------------------------------


def union(first: str, members: int = 600) -> str:
    names = " | ".join(f"T{i}" for i in range(members))
    return f'def f(x: "{first} | {names}") -> None:\n    """F."""\n'


def test_annotation_griffe_gives_up_on_marks_the_surface_incomplete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = package(tmp_path / "old", union("int"))
    new = package(tmp_path / "new", union("str"))
    code, out, _ = run(capsys, "snapshot", str(old), "-o", "-")
    document = json.loads(out)
    assert document["complete"] is False
    assert any("annotation" in problem for problem in document["problems"])
    code, _, _ = run(capsys, "diff", str(old), str(new), "--fail-on", "major")
    assert code == 1  # before: PATCH, exit 0, "complete": true
    surface = load_surface(new)
    assert not check_complete(surface).passed


def test_complete_surfaces_pass_the_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = package(tmp_path / "old", union("int", 5))
    code, _, _ = run(capsys, "diff", str(old), str(old), "--fail-on", "major")
    assert code == 0
    assert check_complete(load_surface(old)).passed


# --- 6. bounded memory and time ------------------------------------------------------------


def repo_with_big_blobs(root: Path, size: int, names: list[str]) -> Repo:
    """A repository naming one blob of ``size`` zeros under each of ``names`` (streamed
    into git, never held in memory nor written to the work tree)."""
    repo = Repo(root)
    repo.write({"pkg/__init__.py": '"""Pkg."""\ndef f():\n    """F."""\n'})
    repo.git("add", "-A")
    with subprocess.Popen(
        ["git", "hash-object", "-w", "--stdin"],
        cwd=root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        chunk = b"0" * (1 << 20)
        for _ in range(size >> 20):
            process.stdin.write(chunk)
        process.stdin.write(b"0" * (size & ((1 << 20) - 1)))
        process.stdin.close()
        blob = process.stdout.read().decode().strip()
    for name in names:
        repo.git("update-index", "--add", "--cacheinfo", f"100644,{blob},{name}")
    repo.git("commit", "-q", "-m", "big")
    return repo


def test_git_reader_never_asks_git_for_a_blob_over_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    size = inputs_module.MAX_BLOB_BYTES + 1
    names = ["docs/a.txt", "docs/b.md", "pkg/big.py", "notes/c.txt"]
    repo = repo_with_big_blobs(tmp_path / "repo", size, names)
    asked: list[tuple[str, int]] = []
    original = inputs_module._cat_blobs

    def recording(top: Path, targets: list[tuple[inputs_module._Blob, Path]]) -> None:
        asked.extend((blob.name, blob.size) for blob, _ in targets)
        original(top, targets)

    monkeypatch.setattr(inputs_module, "_cat_blobs", recording)
    loaded = load_input("HEAD", cwd=repo.root, cache=None)
    assert ("pkg/__init__.py", len('"""Pkg."""\ndef f():\n    """F."""\n')) in asked
    assert all(size <= inputs_module.MAX_BLOB_BYTES for _, size in asked)
    assert not any(name.startswith("notes/") for name, _ in asked)  # not a docs folder
    # The big module is reported as in a folder, not silently dropped.
    assert any("pkg/big.py: larger than" in str(problem) for problem in loaded.surface.problems)
    assert "pkg.f" in loaded.surface.symbols


def test_module_of_many_names_visits_siblings_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0
    children = griffe_ast.ast_children

    def counting(node: object) -> object:
        nonlocal calls
        calls += 1
        return children(node)  # type: ignore[arg-type]

    monkeypatch.setattr(griffe_ast, "ast_children", counting)
    text = '"""Pkg."""\n' + "".join(f"N{i} = {i}\n" for i in range(2000))
    text += 'LAST = 1\n"""The last."""\n'
    surface = surface_from_sources("pkg", [SourceFile("pkg", "pkg/__init__.py", text)])
    assert calls <= 5, calls  # griffe alone scans the module's statements once per name
    assert surface.symbols["pkg.LAST"].docstring_hash is not None


@pytest.mark.parametrize(
    "pattern",
    [
        "pkg.a",
        "pkg.*",
        "pkg.a*",
        "*.a",
        "pkg.[ab]",
        "pkg.?",
        "",
        "*",
        "pkg.a.b",
        "[!p]*",
        "pkg.\\*",
    ],
)
@pytest.mark.parametrize("text", ["pkg.a", "pkg.b", "pkg.a.b", "pkg", "x.a", "pkg.*", ""])
def test_pattern_matching_is_fnmatchcase(pattern: str, text: str) -> None:
    assert matches_any(text, (pattern,)) == fnmatchcase(text, pattern)


def test_many_patterns_are_compiled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    translated: list[str] = []
    translate = policy_module.translate

    def counting(pattern: str) -> str:
        translated.append(pattern)
        return translate(pattern)

    monkeypatch.setattr(policy_module, "translate", counting)
    patterns = tuple(f"pkg.nothing{i}.*" for i in range(MAX_LIST_ENTRIES))
    config = Config(exclude=patterns)
    for name in ("f", "g", "nothing7.x", "nothing12"):
        policy_module.path_exclusion(f"pkg.{name}", config)
    assert matches_any("pkg.nothing7.x", patterns)
    assert len(translated) <= 4  # only the candidates sharing a literal prefix


def test_too_many_patterns_are_refused() -> None:
    with pytest.raises(ConfigError, match="at most"):
        parse_config({"exclude": ["x"] * (MAX_LIST_ENTRIES + 1)})


# --- 7. one line, exit 2 ---------------------------------------------------------------------


def test_symlink_with_a_non_utf8_name_is_a_problem_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = package(tmp_path)
    os.symlink(b"/etc/hostname", os.fsencode(source / "pkg") + b"/c\xff.py")
    for _ in range(2):  # with the cache (on by default in the tests): write, then read
        code, out, err = run(capsys, "snapshot", str(source), "-o", "-")
        assert code == 0, err
        assert "c\\xff.py: symlink to outside the package" in json.loads(out)["problems"][0]


def snapshot_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    source = package(tmp_path / "src", 'def f(a):\n    """F."""\n')
    code, out, _ = run(capsys, "snapshot", str(source), "-o", "-")
    assert code == 0
    document: dict[str, object] = json.loads(out)
    return document


@pytest.mark.parametrize("field", ["name", "default", "annotation", "kind"])
@pytest.mark.parametrize("value", [{"a": 1}, [1]])
def test_snapshot_parameter_fields_that_are_not_strings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: object
) -> None:
    document = snapshot_document(tmp_path, capsys)
    symbols = document["symbols"]
    assert isinstance(symbols, dict)
    symbols["pkg.f"]["signature"]["parameters"][0][field] = value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code, _, err = run(capsys, "diff", str(path), str(path))
    one_line_error(code, err)


def test_lone_surrogate_in_a_snapshot_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = snapshot_document(tmp_path, capsys)
    symbols = document["symbols"]
    assert isinstance(symbols, dict)
    symbols["pkg.\ud800"] = symbols["pkg.f"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="ascii")  # spelled "\\ud800"
    for argv in (["diff", str(path), str(path)], ["snapshot", str(path), "-o", "-"]):
        code, _, err = run(capsys, *argv)
        one_line_error(code, err)
        assert "surrogate" in err


def test_argument_longer_than_the_file_system_allows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    source = package(tmp_path / "src")
    long = "x" * 300
    for argv in (
        ["snapshot", long],
        ["diff", long, str(source)],
        ["snapshot", str(source), "-o", long],
        ["check", long],
    ):
        code, _, err = run(capsys, *argv)
        one_line_error(code, err)


def test_git_ref_whose_blob_is_missing(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write({"pkg/__init__.py": '"""Pkg."""\n', "pkg/mod.py": '"""Mod."""\n'}).commit()
    blob = repo.git("rev-parse", "HEAD:pkg/mod.py").strip()
    (repo.root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    with pytest.raises(GitRefError, match="missing"):
        load_input("HEAD", cwd=repo.root, cache=None)


# --- 8. nothing read or written outside the project ------------------------------------------


def test_cache_entry_naming_a_path_is_not_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = package(tmp_path / "project" / "src")
    cache = tmp_path / "cache"
    code, _, err = run(capsys, "snapshot", str(source), "--cache-dir", str(cache), "-o", "-")
    assert code == 0, err
    entries = list((cache / "surface").rglob("*.json"))
    assert entries
    for entry in entries:
        data = json.loads(payload(entry))
        data["data"]["package"] = "../../x"
        store(entry, json.dumps(data).encode())  # sealed: checked behind the HMAC all the same
    code, _, err = run(capsys, "snapshot", str(source), "--cache-dir", str(cache))
    assert code == 0, err
    assert (source / "api_snapshots" / "pkg.json").is_file()
    assert not (tmp_path / "project" / "x.json").exists()
    assert not (tmp_path / "x.json").exists()
    assert SurfaceCache(cache).get_surface("0" * 64) is None


def test_docs_outside_the_project_are_refused(tmp_path: Path) -> None:
    for folder in ("/", "../docs", "docs/../../x", "C:/docs"):
        with pytest.raises(ConfigError, match="inside the project"):
            parse_config({"docs": [folder]})
    assert parse_config({"docs": ["docs/api", "./site"]}).docs == ("docs/api", "./site")


def test_fifos_in_docs_and_package_do_not_hang(tmp_path: Path) -> None:
    source = package(tmp_path)
    (source / "docs").mkdir()
    os.mkfifo(source / "docs" / "api.md")
    os.mkfifo(source / "pkg" / "mod.py")
    command = [sys.executable, "-m", "apisurface", "snapshot", str(source), "-o", "-", "--no-cache"]
    # A module that cannot be read is bad input (issue 37): one line each, exit 2, no hang.
    completed = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert completed.returncode == 2, completed.stderr
    assert "pkg/mod.py: not a regular file" in completed.stderr.splitlines()[0]
    completed = subprocess.run(
        [*command, "--allow-incomplete"], capture_output=True, text=True, timeout=120, check=False
    )
    assert completed.returncode == 0, completed.stderr
    assert any("mod.py: not a regular file" in p for p in json.loads(completed.stdout)["problems"])


# --- 9. one reader of docs suffixes for folders and git refs -----------------------------------


def test_markdown_docs_count_in_git_refs_as_in_folders(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write(
        {
            "pyproject.toml": '[project]\nname = "pkg"\n',
            "pkg/__init__.py": '"""Pkg."""\ndef f():\n    pass\n',
            "docs/api.markdown": "::: pkg.f\n",
        }
    ).commit()
    folder = load_input(str(repo.root), cache=None).surface
    git = load_input("HEAD", cwd=repo.root, cache=None).surface
    assert "pkg.f" in folder.symbols
    assert folder.symbols == git.symbols


_OTHER_IMPORT_NAME = {
    "pyproject.toml": '[project]\nname = "pkg"\n\n[tool.apisurface]\npackage = "pkg"\n',
    "pkg/__init__.py": '"""Pkg."""\n',
    "pkg/setters.py": '"""Setters."""\nNO_OP = object()\n',
    "pkgs/__init__.py": '"""The other import name."""\n',
    "docs/api.rst": ".. data:: pkgs.setters.NO_OP\n",
}


def test_docs_under_the_other_import_name_count_in_git_refs_as_in_folders(
    tmp_path: Path,
) -> None:
    files = {**_OTHER_IMPORT_NAME, "pkgs/setters.py": "from pkg.setters import *\n"}
    repo = Repo(tmp_path / "repo")
    repo.write(files).commit()
    folder = load_input(str(repo.root), cache=None).surface
    git = load_input("HEAD", cwd=repo.root, cache=None).surface
    assert "pkg.setters.NO_OP" in folder.symbols
    assert folder.symbols == git.symbols


def test_other_import_name_module_outside_the_project_is_not_read(tmp_path: Path) -> None:
    outside = write(tmp_path / "outside", {"setters.py": "from pkg.setters import *\n"})
    source = write(tmp_path / "project", _OTHER_IMPORT_NAME)
    (source / "pkgs" / "setters.py").symlink_to(outside / "setters.py")
    surface = load_surface(source, "pkg")
    assert "pkg.setters.NO_OP" not in surface.symbols


def star_cycle(count: int) -> list[SourceFile]:
    files = [SourceFile("pkg", "pkg/__init__.py", '"""Pkg."""\nfrom .m0 import *\n')]
    for i in range(count):
        text = f'"""M."""\nfrom .m{(i + 1) % count} import *\nX{i} = {i}\n"""X."""\n'
        files.append(SourceFile(f"pkg.m{i}", f"pkg/m{i}.py", text))
    return files


def test_star_import_cycle_too_long_to_expand_is_a_problem() -> None:
    surface = surface_from_sources("pkg", star_cycle(100))  # 9,900 pairs of modules
    assert any("star-imports chain more than" in str(problem) for problem in surface.problems)
    small = surface_from_sources("pkg", star_cycle(5))
    assert "pkg.X4" in small.symbols
    assert not any("star-imports chain" in str(problem) for problem in small.problems)
