"""OLD's load begun in a forked process (:mod:`apisurface.release.pair`): the same report,
the same errors in the same order, and only where it can pay."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run, write

from apisurface.errors import ApisurfaceError
from apisurface.release import pair
from apisurface.release.pair import load_pair
from apisurface.store.cache import SurfaceCache
from apisurface.surface.visit.workers import WORKERS_ENV

DEMO = Path(__file__).resolve().parents[1] / "fixtures" / "demo"


def test_the_report_is_the_same_with_and_without_the_forked_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    reports = []
    for workers in ("1", "0"):
        monkeypatch.setenv(WORKERS_ENV, workers)
        cache = tmp_path / f"cache-{workers}"
        code, out, _ = run(
            capsys, "diff", str(DEMO / "old"), str(DEMO / "new"), "--format", "json",
            "--cache-dir", str(cache),
        )  # fmt: skip
        reports.append((code, out))
        assert any((cache / "surface").iterdir())
    assert reports[0] == reports[1]
    assert reports[0][0] != 2


def test_the_forked_load_fills_the_cache_with_olds_surface(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WORKERS_ENV, "1")
    cache = SurfaceCache(tmp_path / "cache")
    old, new = load_pair(str(DEMO / "old"), str(DEMO / "new"), cache=cache)
    assert old.surface != new.surface
    # Both surfaces are stored (one by each process), and reading OLD again is a hit.
    assert len(list((tmp_path / "cache" / "surface").rglob("*.json"))) == 2


def test_an_error_of_old_is_still_raised_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WORKERS_ENV, "1")
    cache = SurfaceCache(tmp_path / "cache")
    missing_old, missing_new = tmp_path / "no-old", tmp_path / "no-new"
    with pytest.raises(ApisurfaceError) as both:
        load_pair(str(missing_old), str(missing_new), cache=cache)
    assert "no-old" in str(both.value)
    with pytest.raises(ApisurfaceError) as only_new:
        load_pair(str(DEMO / "old"), str(missing_new), cache=cache)
    assert "no-new" in str(only_new.value)


def test_it_forks_only_where_it_can_pay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WORKERS_ENV, raising=False)
    monkeypatch.setattr(pair.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(pair.os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    empty = SurfaceCache(tmp_path / "empty")
    assert pair._pays(str(DEMO / "old"), empty)
    assert not pair._pays(str(DEMO / "old"), None)  # --no-cache: nothing to hand over
    snapshot = write(tmp_path / "snap", {"api.json": '{"symbols": {}}'}) / "api.json"
    monkeypatch.setattr(pair, "is_snapshot_file", lambda path: Path(path) == snapshot)
    assert not pair._pays(str(snapshot), empty)
    used = SurfaceCache(write(tmp_path / "used", {"surface/ab/abcd.json": "{}"}))
    assert not pair._pays(str(DEMO / "old"), used)  # likely warm
    monkeypatch.setattr(pair.os, "getloadavg", lambda: (1.3, 1.3, 1.3))
    assert pair._pays(str(DEMO / "old"), empty)  # this process and a little more
    monkeypatch.setattr(pair.os, "getloadavg", lambda: (2.5, 2.5, 2.5))
    assert not pair._pays(str(DEMO / "old"), empty)  # no idle core
    monkeypatch.setenv(WORKERS_ENV, "0")
    monkeypatch.setattr(pair.os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    assert not pair._pays(str(DEMO / "old"), empty)


def test_the_forked_load_records_what_griffe_gave_up_on(tmp_path: Path) -> None:
    # griffe logs the expression it gives up on; the forked process must keep those
    # records (they become problems of the surface) as this one does. Run outside pytest,
    # whose logging plugin would keep them whatever the forked process did.
    deep = "+".join(["1"] * 500)
    files = {"pkg/__init__.py": f'"""Pkg."""\n\nTABLE = {{"deep": {deep}}}\n'}
    write(tmp_path / "old", files)
    # NEW differs, so that no cache entry of OLD's is also written by this process.
    write(tmp_path / "new", {**files, "pkg/extra.py": '"""Extra."""\n'})
    script = (
        "import sys; from pathlib import Path\n"
        "from apisurface.release.pair import load_pair\n"
        "from apisurface.store.cache import SurfaceCache\n"
        "old, _ = load_pair('old', 'new', cache=SurfaceCache(Path(sys.argv[1])))\n"
        "print([problem.path for problem in old.surface.problems])\n"
    )
    found = {}
    for workers in ("1", "0"):
        done = subprocess.run(
            [sys.executable, "-c", script, f"cache-{workers}"],
            cwd=tmp_path,
            env={**os.environ, WORKERS_ENV: workers},
            capture_output=True,
            text=True,
            check=True,
        )
        found[workers] = done.stdout.strip()
    assert found == {"1": "['pkg.TABLE']", "0": "['pkg.TABLE']"}
