"""``migrate --write`` never loses a byte the user wrote (issue 39 item 6; docs/security.md).

The spec, the snapshots and the user's files are all input: a name that is no Python name
never becomes code, a file libcst cannot give back byte for byte or cannot encode is not
rewritten, and a file edited while ``migrate`` ran is left as the user saved it. Each ends
in one line naming the file, exit 2, the file unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run

from apisurface.release.migrate import run_migration, write_changes
from apisurface.release.migration import loads_spec

USER = "from pkg import f\n\nf(1)\n"


def spec_text(renames: dict[str, str]) -> str:
    return json.dumps(
        {
            "versions": {"producer": 1, "min_consumer": 1, "bad_consumers": []},
            "kind": "apisurface-migration",
            "package": "pkg",
            "old": "1",
            "new": "2",
            "renames": renames,
            "modules": ["pkg"],
            "entries": [
                {
                    "path": old,
                    "rule": "symbol_renamed",
                    "level": "major",
                    "message": "renamed",
                    "replacement": new,
                }
                for old, new in renames.items()
            ],
        }
    )


def one_line_error(code: int, err: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("apisurface: error: "), err


@pytest.mark.parametrize("target", ["None.f", "pkg.class", "pkg.a²", "pkg.f g", "pkg..f"])
def test_a_spec_renaming_to_what_is_no_python_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    """``None.f`` was written as ``from None import f``; ``pkg.a²`` reached libcst (a
    traceback)."""
    spec = tmp_path / "spec.json"
    spec.write_text(spec_text({"pkg.f": target}), encoding="utf-8")
    user = tmp_path / "use.py"
    user.write_text(USER, encoding="utf-8")
    code, _, err = run(capsys, "migrate", "--spec", str(spec), str(user), "--write")
    one_line_error(code, err)
    assert "not a dotted Python name" in err
    assert user.read_text(encoding="utf-8") == USER


def test_a_snapshot_path_that_is_no_python_name_is_never_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A snapshot (untrusted, like a spec) moving ``f`` into a module ``a²``: libcst
    refused the name with a traceback; a keyword was caught only because the result did
    not parse. (A move keeps its name, so two snapshots pair it; a rename under another
    name they only guess, since they record no docstring's text: format 14.)"""
    for side, files in (
        ("old", {"__init__.py": '"""P."""\n\n\ndef f(a, b):\n    """Do the f thing."""\n'}),
        (
            "new",
            {
                "__init__.py": '"""P."""\n',
                "mod.py": '"""Mod."""\n\n\ndef f(a, b):\n    """Do the f thing."""\n',
            },
        ),
    ):
        folder = tmp_path / side / "pkg"
        folder.mkdir(parents=True)
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        code, _, err = run(
            capsys, "snapshot", str(folder.parent), "-o", str(tmp_path / f"{side}.json")
        )
        assert code == 0, err
    new = (tmp_path / "new.json").read_text(encoding="utf-8")
    user = tmp_path / "use.py"
    for bad in ("a²", "None"):
        (tmp_path / "bad.json").write_text(new.replace("pkg.mod", f"pkg.{bad}"), encoding="utf-8")
        user.write_text(USER, encoding="utf-8")
        old, bad_new = str(tmp_path / "old.json"), str(tmp_path / "bad.json")
        code, out, err = run(capsys, "migrate", old, bad_new, str(user), "--write", "--no-cache")
        assert code == 1, err  # the use is left, and said; nothing written
        assert "Traceback" not in err and "not parse" not in err
        assert f"moved to pkg.{bad}.f" in out
        assert user.read_text(encoding="utf-8") == USER


@pytest.mark.parametrize(
    "data",
    [
        b"\x0cfrom pkg import f\n\nf(1)\n",  # a form feed first
        b"from pkg import f\n\nf(1)\r",  # a lone CR last
    ],
)
def test_a_file_libcst_cannot_give_back_byte_for_byte_is_not_rewritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes
) -> None:
    """libcst dropped a leading form feed and a trailing lone CR: the rewrite lost them."""
    spec = tmp_path / "spec.json"
    spec.write_text(spec_text({"pkg.f": "pkg.g"}), encoding="utf-8")
    user = tmp_path / "use.py"
    user.write_bytes(data)
    code, _, err = run(capsys, "migrate", "--spec", str(spec), str(user), "--write", "-q")
    assert code == 2
    assert "Traceback" not in err
    assert "byte for byte" in err and str(user) in err
    assert user.read_bytes() == data


def test_a_name_the_files_encoding_cannot_spell_is_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A latin-1 file given a name latin-1 cannot encode: a UnicodeEncodeError traceback."""
    spec = tmp_path / "spec.json"
    spec.write_text(spec_text({"pkg.f": "pkg.fΩ"}), encoding="utf-8")
    data = "# -*- coding: latin-1 -*-\nfrom pkg import f\n\nf(1)  # café\n".encode("latin-1")
    user = tmp_path / "use.py"
    user.write_bytes(data)
    code, _, err = run(capsys, "migrate", "--spec", str(spec), str(user), "--write", "-q")
    assert code == 2
    assert "Traceback" not in err
    assert "cannot be written in the file's encoding" in err
    assert user.read_bytes() == data
    spec.write_text(spec_text({"pkg.f": "pkg.fé"}), encoding="utf-8")  # latin-1 spells it
    code, _, err = run(capsys, "migrate", "--spec", str(spec), str(user), "--write", "-q")
    assert code == 0, err
    assert user.read_bytes() == data.replace(b"f(1)", "fé(1)".encode("latin-1")).replace(
        b"import f\n", "import fé\n".encode("latin-1")
    )


def test_an_edit_saved_while_migrate_runs_is_kept(tmp_path: Path) -> None:
    """The file was read, rewritten in memory, then replaced: an edit saved in between
    (an editor's) was overwritten."""
    spec = loads_spec(spec_text({"pkg.f": "pkg.g"}))
    user = tmp_path / "use.py"
    user.write_text(USER, encoding="utf-8")
    other = tmp_path / "other.py"
    other.write_text(USER, encoding="utf-8")
    migration = run_migration([str(user), str(other)], spec)
    assert len(migration.changed) == 2
    edited = USER + "print('saved in the editor')\n"
    user.write_text(edited, encoding="utf-8")
    written = write_changes(migration)
    assert written == [str(other)]
    assert user.read_text(encoding="utf-8") == edited
    assert other.read_text(encoding="utf-8") == "from pkg import g\n\ng(1)\n"
    assert migration.left is not None
    (problem,) = migration.left.problems
    assert problem.startswith(f"{user}: changed since migrate read it; not rewritten")
    assert {use.file for use in migration.left.uses} == {str(user)}
    assert [result.file for result in migration.changed] == [str(other)]
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left behind
