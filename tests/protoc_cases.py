"""Regenerate the ``*_pb2.py`` sections of the protocol buffer case files with protoc.

    pip install grpcio-tools && python tests/protoc_cases.py

A case file about protocol buffers (tests/cases/*.case, src/apisurface/cases/*.case) holds its
``.proto`` sources as file sections (``--- old pkg/demo.proto``); this script compiles each
side with the protoc that grpcio-tools ships and writes the generated modules into the file
as sections of their own (``--- both`` where both sides generate the same text). The tests
read the generated modules only; neither protoc nor grpcio-tools is needed to run them.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
_SECTION = re.compile(r"^--- (?:(old|new|both) )?(\S+)\s*$")


def _sections(text: str) -> tuple[list[str], list[tuple[str, str, str]]]:
    header: list[str] = []
    sections: list[tuple[str, str, list[str]]] = []
    for line in text.splitlines():
        match = _SECTION.match(line)
        if match:
            sections.append((match.group(1) or "both", match.group(2), []))
        elif sections:
            sections[-1][2].append(line)
        else:
            header.append(line)
    return header, [(side, path, "\n".join(body).rstrip("\n")) for side, path, body in sections]


def _compile(protos: dict[str, str]) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for relative, text in protos.items():
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_text(text + "\n", encoding="utf-8")
        subprocess.run(
            [sys.executable, "-m", "grpc_tools.protoc", f"-I{root}", f"--python_out={root}"]
            + [str(root / relative) for relative in protos],
            check=True,
        )
        return {
            str(path.relative_to(root)): path.read_text(encoding="utf-8").rstrip("\n")
            for path in sorted(root.rglob("*_pb2.py"))
        }


def regenerate(case: Path) -> bool:
    header, sections = _sections(case.read_text(encoding="utf-8"))
    if not any(path.endswith(".proto") for _, path, _ in sections):
        return False
    kept = [item for item in sections if not item[1].endswith("_pb2.py")]
    generated = {}
    for side in ("old", "new"):
        protos = {
            path: body
            for where, path, body in kept
            if path.endswith(".proto") and where in (side, "both")
        }
        generated[side] = _compile(protos)
    for path in sorted(set(generated["old"]) | set(generated["new"])):
        old, new = generated["old"].get(path), generated["new"].get(path)
        if old == new and old is not None:
            kept.append(("both", path, old))
            continue
        if old is not None:
            kept.append(("old", path, old))
        if new is not None:
            kept.append(("new", path, new))
    lines = [*header]
    for side, path, body in kept:
        lines.append(f"--- {side} {path}")
        lines.extend(body.splitlines())
    case.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return True


if __name__ == "__main__":
    folders = [HERE / "cases", HERE.parent / "src" / "apisurface" / "cases", HERE / "surface_cases"]
    cases = sorted(case for folder in folders for case in folder.glob("*.case"))
    done = [case.name for case in cases if regenerate(case)]
    print(f"regenerated {len(done)} case files: {', '.join(done)}")
