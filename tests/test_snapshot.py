"""Snapshots: deterministic, round-tripping, with the producer/consumer rules of POLICY.md 4."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apisurface.errors import ApisurfaceError, SnapshotError
from apisurface.store import snapshot
from apisurface.surface.collect import load_surface

DEMO = Path(__file__).parent.parent / "fixtures" / "demo"


def test_round_trip_and_determinism(tmp_path: Path) -> None:
    surface = load_surface(DEMO / "new")
    text = snapshot.dumps(surface)
    assert snapshot.dumps(load_surface(DEMO / "new")) == text
    again = snapshot.loads(text)
    assert again.symbols == surface.symbols
    assert snapshot.dumps(again) == text
    target = tmp_path / "api_snapshots" / "tinyhttp.json"
    snapshot.write_snapshot(surface, target)
    assert target.read_text(encoding="utf-8") == text
    assert [p.name for p in target.parent.iterdir()] == ["tinyhttp.json"]


def test_snapshot_contract_keys_and_no_noise() -> None:
    text = snapshot.dumps(load_surface(DEMO / "new"))
    data = json.loads(text)
    assert {"versions", "package", "symbols"} <= set(data)
    assert set(data["versions"]) == {"producer", "min_consumer", "bad_consumers"}
    assert all("kind" in entry for entry in data["symbols"].values())
    assert list(data["symbols"]) == sorted(data["symbols"])
    assert str(DEMO) not in text and "lineno" not in text and '"line"' not in text


def _document(**versions: object) -> str:
    base: dict[str, object] = {"producer": 1, "min_consumer": 1, "bad_consumers": []}
    base.update(versions)
    return json.dumps({"versions": base, "package": "pkg", "symbols": {}})


def test_accepts_current_format() -> None:
    assert snapshot.loads(_document()).package == "pkg"


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (_document(min_consumer=snapshot.CONSUMER + 1), "upgrade apisurface"),
        (_document(producer=snapshot.MIN_PRODUCER - 1), "regenerate it"),
        (_document(bad_consumers=[snapshot.CONSUMER]), "marks this reader"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not a JSON object"),
        (json.dumps({"package": "pkg", "symbols": {}}), "no 'versions' header"),
        (_document(producer="1"), "invalid 'versions' header"),
    ],
)
def test_refusals_say_what_to_do(document: str, message: str) -> None:
    with pytest.raises(SnapshotError, match=r"snap\.json") as error:
        snapshot.loads(document, "snap.json")
    assert message in str(error.value)


def test_wrong_symbol_shape_is_refused() -> None:
    document = json.loads(_document())
    document["symbols"] = {"pkg.f": {"kind": "gizmo"}}
    with pytest.raises(SnapshotError, match="unknown kind 'gizmo'"):
        snapshot.loads(json.dumps(document))


def test_docs_sources_flag_round_trips_and_older_files_leave_it_unknown() -> None:
    """Format 3 records whether API docs sources were read; a file of format 1 or 2 has no
    such field and reads as "not recorded" (None), which the diff never judges by."""
    surface = load_surface(DEMO / "new")
    assert surface.docs_sources is False  # the demo project ships no docs/
    assert snapshot.loads(snapshot.dumps(surface)).docs_sources is False
    flagged = json.loads(snapshot.dumps(surface))
    flagged["docs_sources"] = True
    assert snapshot.loads(json.dumps(flagged)).docs_sources is True
    assert snapshot.loads(_document(producer=2)).docs_sources is None
    flagged["docs_sources"] = "yes"
    with pytest.raises(SnapshotError, match="'docs_sources' must be true or false"):
        snapshot.loads(json.dumps(flagged))


# --- where `apisurface snapshot` may write (snapshot_target) -----------------------------


def test_the_default_target_is_inside_the_source(tmp_path: Path) -> None:
    target = snapshot.snapshot_target(tmp_path, "pkg")
    assert target == tmp_path / "api_snapshots" / "pkg.json"
    assert target == snapshot.default_snapshot_path(tmp_path, "pkg")
    (tmp_path / "api_snapshots").mkdir()
    assert snapshot.snapshot_target(tmp_path, "pkg") == target


@pytest.mark.parametrize("points_to", ["outside", "inside", "itself"])
def test_a_symlinked_snapshot_folder_is_refused(tmp_path: Path, points_to: str) -> None:
    """A pull request can commit api_snapshots as a symlink: to a folder outside the
    source, to one inside it, or to itself (a loop). None is written through."""
    base = tmp_path / "project"
    base.mkdir()
    folder = base / "api_snapshots"
    if points_to == "outside":
        (tmp_path / "outside").mkdir()
        folder.symlink_to(tmp_path / "outside")
    elif points_to == "inside":
        (base / "real").mkdir()
        folder.symlink_to(base / "real")
    else:
        folder.symlink_to(folder)
    with pytest.raises(ApisurfaceError) as caught:
        snapshot.snapshot_target(base, "pkg")
    message = str(caught.value)
    assert message.startswith(f"{folder}: a symlink or outside {base}") and "-o" in message


def test_a_source_reached_through_a_symlink_keeps_its_default_target(tmp_path: Path) -> None:
    """Only the snapshot folder is judged: a source folder named through a symlink is the
    folder it resolves to, and its api_snapshots is inside it."""
    (tmp_path / "real" / "api_snapshots").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    target = snapshot.snapshot_target(tmp_path / "link", "pkg")
    assert target == tmp_path / "link" / "api_snapshots" / "pkg.json"


def test_a_named_output_is_the_users_choice(tmp_path: Path) -> None:
    """-o FILE is not held to the source folder (the write itself refuses a symlinked or
    irregular file: tests/test_hostile.py)."""
    (tmp_path / "api_snapshots").symlink_to(tmp_path)
    named = str(tmp_path / "elsewhere" / "x.json")
    assert snapshot.snapshot_target(tmp_path, "pkg", named) == Path(named)
