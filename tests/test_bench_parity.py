"""The parity script's offline parts: normalisation, comparison and the summary.

Nothing here downloads: the two sides are tiny stand-in trees whose ``python -m apisurface``
prints a canned report; the parity run itself (bench/parity.py) is run by hand.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _parity() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_parity", BENCH / "parity.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


def _fake_tree(root: Path, main: str) -> Path:
    """A tree whose ``python -m apisurface`` runs ``main`` (argv in ``sys.argv``)."""
    package = root / "src" / "apisurface"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "__main__.py").write_text(main, encoding="utf-8")
    return root


# A report naming its input by absolute path, and a line of progress with a timing on stderr.
_REPORT = """\
import os, sys, time
print('{"old": "%s", "bump": "%s"}' % (os.path.abspath(sys.argv[1]), BUMP))
print(f"took {time.perf_counter()} s", file=sys.stderr)
"""


def test_normalise_replaces_the_longest_folder_first(tmp_path: Path) -> None:
    parity = _parity()
    scratch = tmp_path / "scratch" / "1-base"
    text = f"{scratch}/cache/x and {tmp_path}/cases/a and {tmp_path}"
    places = [(tmp_path, "<tmp>"), (scratch, "<scratch>")]
    assert parity.normalise(text, places) == "<scratch>/cache/x and <tmp>/cases/a and <tmp>"


def test_normalise_also_replaces_the_resolved_spelling(tmp_path: Path) -> None:
    parity = _parity()
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert parity.normalise(f"{real}/a {link}/b", [(link, "<cwd>")]) == "<cwd>/a <cwd>/b"


def test_render_compares_stderr_only_as_the_error_of_a_failed_step() -> None:
    parity = _parity()
    done = parity.render(0, "{}\n", None, "progress 1.2 s\n")
    assert done == "exit: 0\n--- stdout\n{}\n"
    assert parity.render(0, "{}\n", None, "progress 9.9 s\n") == done
    failed = parity.render(2, "", None, "note\napisurface: error: no package\n")
    assert failed.endswith("--- error\napisurface: error: no package\n")
    written = parity.render(0, "", '{"symbols": {}}\n', "")
    assert written == 'exit: 0\n--- stdout\n--- output file\n{"symbols": {}}\n'


def test_excerpt_is_a_short_unified_diff() -> None:
    parity = _parity()
    base = "".join(f"line {n}\n" for n in range(100))
    new = base.replace("line 50\n", "line fifty\n")
    text = parity.excerpt(base, new)
    assert "-line 50\n" in text and "+line fifty\n" in text
    assert text.startswith("--- base\n+++ new\n")
    many = parity.excerpt(base, base.upper(), lines=5)
    assert len(many.splitlines()) == 6 and many.endswith("more diff lines)\n")


def test_summary_counts_comparisons() -> None:
    parity = _parity()
    ok = parity.Comparison("case a", "diff", "cmd", "exit: 0\nx", "exit: 0\nx")
    both_failed = parity.Comparison("case b", "diff", "cmd", "exit: 2\nx", "exit: 2\nx")
    differ = parity.Comparison("pair c", "diff", "cmd", "exit: 0\nx", "exit: 0\ny")
    outcomes = [
        parity.Outcome("case a", [ok, both_failed]),
        parity.Outcome("pair c", [differ]),
        parity.Outcome("pair d", [], skipped="URLError: offline"),
    ]
    assert parity.summary(outcomes) == (
        "parity: 3 compared, 2 identical, 1 different "
        "(1 of the identical failed on both sides; 1 inputs skipped: could not be fetched)"
    )
    assert parity.summary([parity.Outcome("case a", [ok])]) == (
        "parity: 1 compared, 1 identical, 0 different"
    )


def test_spread_takes_evenly_spaced_items() -> None:
    parity = _parity()
    items = list(range(10))
    assert parity.spread(items, 5) == [0, 2, 4, 6, 8]
    assert parity.spread(items, 3) == [0, 3, 6]
    assert parity.spread(items, None) == items
    assert parity.spread(items, 40) == items


def test_steps_get_each_sides_own_cache_and_output(tmp_path: Path) -> None:
    parity = _parity()
    step = parity.Step("snapshot", ("snapshot", "old", "-o", "{out}", "--cache-dir", "{cache}"))
    assert step.writes
    assert step.argv(tmp_path) == [
        "snapshot",
        "old",
        "-o",
        str(tmp_path / "out.json"),
        "--cache-dir",
        str(tmp_path / "cache"),
    ]


def _unit(parity: ModuleType, folder: Path) -> object:
    def prepare() -> tuple[Path, tuple[object, ...]]:
        (folder / "old").mkdir(parents=True, exist_ok=True)
        return folder, (parity.Step("diff", ("old", "new")),)

    return parity.Unit("case demo (as written)", prepare)


def test_two_sides_that_agree_compare_identical(tmp_path: Path) -> None:
    parity = _parity()
    base = parity.Tool("base", _fake_tree(tmp_path / "a", "BUMP = 'minor'\n" + _REPORT))
    new = parity.Tool("new", _fake_tree(tmp_path / "b", "BUMP = 'minor'\n" + _REPORT))
    for tool in (base, new):
        parity.check_tool(tool, tmp_path / "check" / tool.name)
    outcome = parity.run_unit(_unit(parity, tmp_path / "in"), base, new, tmp_path, 0)
    [compared] = outcome.comparisons
    assert compared.same, compared
    # the absolute input path and the stderr timing were normalised away
    assert '"old": "<cwd>/old"' in compared.base
    assert "took" not in compared.base


def test_a_changed_report_is_a_difference(tmp_path: Path) -> None:
    parity = _parity()
    base = parity.Tool("base", _fake_tree(tmp_path / "a", "BUMP = 'minor'\n" + _REPORT))
    new = parity.Tool("new", _fake_tree(tmp_path / "b", "BUMP = 'major'\n" + _REPORT))
    outcome = parity.run_unit(_unit(parity, tmp_path / "in"), base, new, tmp_path, 0)
    [compared] = outcome.comparisons
    assert not compared.same
    results = tmp_path / "results"
    text = parity.report([outcome], results, 40)
    assert "DIFFERENT case demo (as written): diff\n" in text
    assert "(cd <tmp>/in && PYTHONPATH=<tree>/src python -m apisurface old new)" in text
    assert '-{"old": "<cwd>/old", "bump": "minor"}' in text
    assert '+{"old": "<cwd>/old", "bump": "major"}' in text
    assert text.endswith("parity: 1 compared, 0 identical, 1 different\n")
    assert sorted(path.name.split(".")[-2] for path in results.iterdir()) == ["base", "new"]


def test_a_tree_that_is_not_the_one_imported_is_refused(tmp_path: Path) -> None:
    parity = _parity()
    empty = parity.Tool("base", tmp_path / "no-tree")
    with pytest.raises(SystemExit, match="not its tree"):
        parity.check_tool(empty, tmp_path / "check")


def test_export_writes_a_clean_copy_of_a_commit(tmp_path: Path) -> None:
    parity = _parity()
    tree = parity.export("HEAD", tmp_path / "head")
    assert (tree / "src" / "apisurface" / "__init__.py").is_file()
    assert not (tree / ".venv").exists()
    with pytest.raises(SystemExit, match="is not a commit"):
        parity.export("no-such-ref-here", tmp_path / "none")
