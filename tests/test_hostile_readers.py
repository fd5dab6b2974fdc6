"""Every reader bounded by its output, not only its input (issue 39 items 3 and 4;
docs/security.md). Work is asserted bounded by counting it, never by timing it; the times
are in ``bench/hostile.py``."""

from __future__ import annotations

import encodings.punycode
import json
from pathlib import Path

import pytest
from clirun import run, write

DOC = '"""Pkg."""\n'


# --- item 3: source codecs, an allow-list of linear decoders ----------------------------


@pytest.fixture
def punycode_decodes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the characters punycode is asked to decode (quadratic time in them)."""
    calls: list[int] = []
    original = encodings.punycode.punycode_decode

    def counting(text: bytes | str, errors: str) -> str:
        calls.append(len(text))
        return original(text, errors)

    monkeypatch.setattr(encodings.punycode, "punycode_decode", counting)
    return calls


@pytest.mark.parametrize("codec", ["punycode", "idna", "utf-7", "unicode_escape"])
def test_a_module_in_a_codec_that_is_not_linear_is_a_problem_not_decoded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], codec: str, punycode_decodes: list[int]
) -> None:
    """``# coding: punycode`` decoded in quadratic time (800 KB: 37-40 s); ``idna`` text
    the codec refuses raised a bare UnicodeError (a traceback)."""
    body = "x" * 70 + "-" + "é" * 20 if codec != "utf-7" else "x = 1"
    data = f"# coding: {codec}\n".encode() + body.encode("utf-8")
    write(tmp_path, {"pkg/__init__.py": DOC, "pkg/odd.py": data})
    code, out, err = run(capsys, "snapshot", str(tmp_path), "-o", "-", "--no-cache")
    assert code == 0, err
    assert "Traceback" not in err
    problems = json.loads(out)["problems"]
    assert any("pkg/odd.py" in str(problem) and "not read" in str(problem) for problem in problems)
    assert json.loads(out)["complete"] is False
    assert punycode_decodes == []


@pytest.mark.parametrize("codec", ["latin-1", "cp1252", "koi8-r", "shift_jis", "gb18030"])
def test_linear_codecs_are_read(codec: str) -> None:
    text = f"# -*- coding: {codec} -*-\n" + DOC + 'def f():\n    """Fé."""\n'
    data = text.encode(codec, "replace")
    from apisurface.project.sources import decode_source  # noqa: PLC0415

    problems: list[object] = []
    decoded = decode_source(data, "pkg/__init__.py", problems)  # type: ignore[arg-type]
    assert problems == []
    assert decoded is not None and "def f():" in decoded


def test_impact_and_migrate_never_decode_a_codec_that_is_not_linear(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], punycode_decodes: list[int]
) -> None:
    """``ast.parse(bytes)`` decodes with whatever codec the file names."""
    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps(
            {
                "versions": {"producer": 1, "min_consumer": 1, "bad_consumers": []},
                "kind": "apisurface-migration",
                "package": "pkg",
                "renames": {"pkg.f": "pkg.g"},
                "entries": [
                    {"path": "pkg.f", "rule": "symbol_renamed", "level": "major", "message": "m"}
                ],
            }
        ),
        encoding="utf-8",
    )
    user = tmp_path / "use.py"
    user.write_bytes(b"# coding: punycode\nfrom pkg import f\nf()\n" + b"x" * 200)
    code, _, err = run(capsys, "impact", "--spec", str(spec), str(user))
    assert code == 2
    assert "Traceback" not in err
    assert "source encoding 'punycode' is not read" in err
    assert punycode_decodes == []
