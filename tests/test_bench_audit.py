"""The precision audit's offline parts: the judgements file and how findings are joined to it.

Nothing here downloads: the audit itself (bench/audit.py) is run by hand.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _audit() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("bench_audit", BENCH / "audit.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up here
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def test_judgements_file_is_well_formed() -> None:
    data = json.loads((BENCH / "audit_judgements.json").read_text(encoding="utf-8"))
    mechanisms = data["mechanisms"]
    seen: set[tuple[str, str, str]] = set()
    for entry in data["judgements"]:
        assert entry["verdict"] in ("real", "false"), entry
        assert entry["reason"], entry
        if entry["verdict"] == "false":
            assert entry["mechanism"] in mechanisms, entry
        assert len(entry["pair"].split()) == 3, entry
        for path in entry["paths"]:
            key = (entry["pair"], entry["kind"], path)
            assert key not in seen, f"judged twice: {key}"
            seen.add(key)


def test_every_judged_pair_is_in_the_corpus() -> None:
    audit = _audit()
    pairs = {
        f"{audit._norm(case.pair.dist)} {case.pair.old} {case.pair.new}" for case in audit.corpus()
    }
    data = json.loads((BENCH / "audit_judgements.json").read_text(encoding="utf-8"))
    assert {entry["pair"] for entry in data["judgements"]} <= pairs


def test_a_finding_reported_at_another_path_keeps_its_judgement(tmp_path: Path) -> None:
    audit = _audit()
    judgements = tmp_path / "judgements.json"
    entry = {
        "pair": "Demo_Pkg 1.0 1.0.1",
        "kind": "symbol_removed",
        "paths": ["demo.core.f"],
        "verdict": "false",
        "mechanism": "test-code",
        "reason": "why",
    }
    judgements.write_text(json.dumps({"judgements": [entry]}), encoding="utf-8")
    table = audit.load_judgements(judgements)
    moved = audit.Finding(
        "demo-pkg 1.0 -> 1.0.1",
        "demo-pkg",
        "1.0",
        "1.0.1",
        "demo.f",
        "symbol_removed",
        "function",
        None,
        ("demo.core.f",),
    )
    other_kind = audit.Finding(
        "demo-pkg 1.0 -> 1.0.1",
        "demo-pkg",
        "1.0",
        "1.0.1",
        "demo.core.f",
        "kind_changed",
        "function",
        "attribute",
        (),
    )
    audit.judge([moved, other_kind], table)
    assert (moved.verdict, moved.mechanism) == ("false", "test-code")
    assert other_kind.verdict == ""


def test_the_large_pairs_sample_is_stable() -> None:
    audit = _audit()
    findings = [
        audit.Finding("c", "d", "1", "2", f"p.f{index}", "symbol_removed", None, None, ())
        for index in range(100)
    ]
    first = [item.key for item in audit.sample(findings, 10)]
    again = [item.key for item in audit.sample(list(reversed(findings)), 10)]
    assert first == again
    # removing findings outside the sample leaves the sample as it was
    kept = [item for item in findings if item.key in first]
    assert [item.key for item in audit.sample(kept, 10)] == first


def test_a_merged_finding_takes_the_judgement_on_the_merits() -> None:
    audit = _audit()
    pair = "demo 1.0 1.0.1"
    table = audit.load_judgements_from(
        [
            {
                "pair": pair,
                "kind": "symbol_removed",
                "paths": ["demo.core.f"],
                "verdict": "false",
                "mechanism": "duplicate-path",
                "reason": "same object as demo.util.f",
            },
            {
                "pair": pair,
                "kind": "symbol_removed",
                "paths": ["demo.util.f"],
                "verdict": "real",
                "mechanism": "",
                "reason": "removed",
            },
        ]
    )
    merged = audit.Finding(
        "demo 1.0 -> 1.0.1",
        "demo",
        "1.0",
        "1.0.1",
        "demo.core.f",
        "symbol_removed",
        "function",
        None,
        ("demo.util.f",),
    )
    audit.judge([merged], table)
    assert merged.verdict == "real"
