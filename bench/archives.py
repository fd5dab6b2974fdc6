"""Peak memory of unpacking an archive, by the size of its largest member (issue 20).

Builds a wheel and an sdist holding one module of SIZE MiB (``x = 1`` lines, deflated),
then unpacks each in a fresh process under ``tracemalloc`` and prints the peak of Python
allocations during ``archives.unpack`` and its ratio to the member's size::

    python bench/archives.py [--sizes 16,64,128] [--src PATH]

``--src`` puts another checkout's ``src`` first on ``PYTHONPATH`` (before/after).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

_CHILD = """
import json, sys, tempfile, tracemalloc
from pathlib import Path
from apisurface.project.archives import unpack
with tempfile.TemporaryDirectory() as folder:
    tracemalloc.start()
    unpack(Path(sys.argv[1]), Path(folder))
    _, peak = tracemalloc.get_traced_memory()
print(json.dumps(peak))
"""


def build(folder: Path, megabytes: int) -> list[Path]:
    line = b"x = 1\n"
    member = folder / "member.py"
    with member.open("wb") as stream:
        block = line * ((1 << 20) // len(line))
        for _ in range(megabytes):
            stream.write(block)
    wheel = folder / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.write(member, "pkg/__init__.py")
    sdist = folder / "pkg-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as bundle:
        bundle.add(member, "pkg-1.0/pkg/__init__.py")
    member.unlink()
    return [wheel, sdist]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="16,64,128")
    parser.add_argument("--src", help="another checkout's src folder, first on PYTHONPATH")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.src:
        env["PYTHONPATH"] = args.src + os.pathsep + env.get("PYTHONPATH", "")
    for megabytes in (int(size) for size in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="apisurface-archives-") as folder:
            for archive in build(Path(folder), megabytes):
                completed = subprocess.run(
                    [sys.executable, "-c", _CHILD, str(archive)],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                peak = json.loads(completed.stdout) / (1 << 20)
                kind = "wheel" if archive.suffix == ".whl" else "sdist"
                print(
                    f"{kind:5} member {megabytes:4} MiB  peak {peak:8.1f} MiB  "
                    f"x{peak / megabytes:5.2f} of the member",
                    flush=True,
                )


if __name__ == "__main__":
    main()
