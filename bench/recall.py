"""Recall on documented breaks: does apisurface find what the changelogs list as breaking,
and does it find at least as many as ``griffe check`` (griffe's ``find_breaking_changes``)?

    python bench/recall.py                # both sets, table on stdout
    python bench/recall.py --only held-out

Two sets of real release pairs, each break taken from the release's changelog:

- **releases**: the changelog checks of bench/releases.py that expect a MAJOR kind (the
  "documented breaks" of the precision audit, docs/real-world.md);
- **held-out**: pairs picked for this measurement (not used to develop the rules), below.

Archives are fetched by URL from PyPI with their sha256 checked (bench/releases.py); nothing
is built or run. apisurface runs as ``apisurface diff OLD NEW --package NAME --format json``
and a break counts as found when a change at the check's public path has one of the check's
kinds; the report says whether that change is proven or inferred. griffe loads both trees
statically (``griffe.load``, no inspection) and a break counts as found when one of its
breakages names an object of the same name (the last component of the path, and the parameter
for a parameter check), whatever its kind: lenient to griffe.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import griffe
import releases  # the sibling bench script
from audit import _documents_break
from releases import REMOVED, Check, Pair

HELD_OUT: tuple[Pair, ...] = (
    Pair(
        "bleach",
        "bleach",
        "5.0.1",
        "6.0.0",
        (
            Check(
                "bleach.sanitizer.ALLOWED_TAGS",
                ("attribute_annotation_changed",),
                "ALLOWED_TAGS list -> frozenset (tags are sets)",
            ),
            Check(
                "bleach.sanitizer.ALLOWED_PROTOCOLS",
                ("attribute_annotation_changed",),
                "ALLOWED_PROTOCOLS list -> frozenset (protocols are sets)",
            ),
            Check(
                "bleach.html5lib_shim.HTML_TAGS",
                ("attribute_annotation_changed",),
                "HTML_TAGS list -> frozenset (recognized_tags are sets)",
            ),
            Check(
                # The changelog says strip_allowed_elements; the 5.0.1 parameter is this one.
                "bleach.sanitizer.BleachSanitizerFilter.__init__(strip_disallowed_elements)",
                ("parameter_renamed", "parameter_removed"),
                "BleachSanitizerFilter: elements are tags now (strip_disallowed_tags)",
            ),
        ),
    ),
    Pair(
        "markupsafe",
        "markupsafe",
        "2.0.1",
        "2.1.0",
        (Check("markupsafe.soft_unicode", REMOVED, "soft_unicode removed"),),
    ),
    Pair(
        "jinja2",
        "jinja2",
        "3.0.3",
        "3.1.0",
        (
            *(
                Check(f"jinja2.{name}", REMOVED, f"{name} removed")
                for name in (
                    "contextfilter",
                    "contextfunction",
                    "evalcontextfilter",
                    "evalcontextfunction",
                    "environmentfilter",
                    "environmentfunction",
                    "Markup",
                    "escape",
                    "ext.WithExtension",
                    "ext.AutoEscapeExtension",
                )
            ),
            Check(
                "jinja2.utils.unicode_urlencode",
                (*REMOVED, "symbol_renamed"),
                "unicode_urlencode renamed url_quote",
            ),
        ),
    ),
    Pair(
        "cachetools",
        "cachetools",
        "5.5.2",
        "6.0.0",
        (
            Check("cachetools.MRUCache", REMOVED, "MRUCache removed"),
            Check("cachetools.func.mru_cache", REMOVED, "func.mru_cache removed"),
        ),
    ),
    Pair(
        "httpx",
        "httpx",
        "0.27.2",
        "0.28.0",
        (
            *(
                Check(f"httpx.{owner}({name})", ("parameter_removed",), f"{owner}({name}) removed")
                for owner in ("Client.__init__", "AsyncClient.__init__")
                for name in ("proxies", "app")
            ),
            *(
                Check(f"httpx.{function}(proxies)", ("parameter_removed",), f"{function}(proxies)")
                for function in ("request", "stream", "get")
            ),
        ),
    ),
    Pair(
        "flask",
        "flask",
        "2.3.3",
        "3.0.0",
        (
            Check("flask.escape", REMOVED, "flask.escape removed (deprecated in 2.3)"),
            Check("flask.Markup", REMOVED, "flask.Markup removed (deprecated in 2.3)"),
            Check(
                "flask.helpers.locked_cached_property", REMOVED, "locked_cached_property removed"
            ),
            Check("flask.signals_available", REMOVED, "signals_available removed"),
        ),
    ),
    Pair(
        "marshmallow",
        "marshmallow",
        "3.26.1",
        "4.0.0",
        (
            *(
                Check(f"marshmallow.utils.{name}", REMOVED, f"utils.{name} removed")
                for name in (
                    "from_iso_date",
                    "from_iso_time",
                    "from_iso_datetime",
                    "isoformat",
                    "to_iso_time",
                    "from_rfc",
                    "rfcformat",
                    "is_keyed_tuple",
                    "get_fixed_timezone",
                )
            ),
            Check("marshmallow.base", REMOVED, "marshmallow.base module removed"),
            Check("marshmallow.__version__", REMOVED, "__version__ removed"),
            Check(
                "marshmallow.fields.TimeDelta.__init__(serialization_type)",
                ("parameter_removed",),
                "TimeDelta(serialization_type) removed",
            ),
            Check(
                "marshmallow.Schema.__init__(context)",
                ("parameter_removed",),
                "Schema context removed",
            ),
            Check(
                "marshmallow.Schema.loads(json_data)",
                ("parameter_renamed", "parameter_removed", "parameter_kind_narrowed"),
                "Schema.loads(json_data) renamed s, positional-only",
            ),
            *(
                Check(
                    f"marshmallow.fields.Field.__init__({name})",
                    ("parameter_removed",),
                    f"Field({name}) removed (dump_default/load_default)",
                )
                for name in ("default", "missing")
            ),
            *(
                Check(
                    f"marshmallow.{name}(pass_many)",
                    ("parameter_renamed", "parameter_removed"),
                    f"{name}(pass_many) renamed pass_collection",
                )
                for name in ("pre_load", "post_dump")
            ),
        ),
    ),
    Pair(
        "click",
        "click",
        "8.1.8",
        "8.2.0",
        (
            Check(
                "click.testing.CliRunner.__init__(mix_stderr)",
                ("parameter_removed", "parameter_renamed"),
                "CliRunner(mix_stderr) removed",
            ),
        ),
    ),
)


def _tail(path: str) -> str:
    """The last component of a path, with the parameter part (lenient: griffe names an
    object where it is defined, apisurface at its public path)."""
    base, _, parameter = path.partition("(")
    return base.rpartition(".")[2] + (f"({parameter}" if parameter else "")


def _roots(folder: Path) -> list[Path]:
    return [folder, folder / "src", folder / "lib"]


def griffe_breakages(pair: Pair, old_dir: Path, new_dir: Path) -> set[str]:
    """The tails of the paths (with the parameter) griffe's breakages name."""
    loader = {"allow_inspection": False, "resolve_aliases": True, "resolve_external": False}
    old = griffe.load(pair.package, search_paths=_roots(old_dir), **loader)  # type: ignore[arg-type]
    new = griffe.load(pair.package, search_paths=_roots(new_dir), **loader)  # type: ignore[arg-type]
    found: set[str] = set()
    for breakage in griffe.find_breaking_changes(old, new):  # type: ignore[arg-type]
        path = breakage.obj.path
        found.add(_tail(path))
        for value in (breakage.old_value, breakage.new_value):
            name = getattr(value, "name", None)
            if isinstance(value, griffe.Parameter) and name:
                found.add(_tail(f"{path}({name})"))
    return found


def run(pairs: list[tuple[str, Pair]]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for source, pair in pairs:
        checks = [check for check in pair.checks if _documents_break(check)]
        if not checks:
            continue
        print(f"{source}: {pair.dist} {pair.old} -> {pair.new} ...", file=sys.stderr, flush=True)
        outcome, report = releases.run_pair(pair, wheels=pair.wheels)
        old_dir = releases.unpack(releases.download(pair.dist, pair.old, wheels=pair.wheels))
        new_dir = releases.unpack(
            releases.download(pair.new_dist or pair.dist, pair.new, wheels=pair.wheels)
        )
        try:
            by_griffe = griffe_breakages(pair, old_dir, new_dir)
            griffe_error = ""
        except Exception as error:  # noqa: BLE001 - griffe on real code: count nothing, say why
            by_griffe, griffe_error = set(), f"{type(error).__name__}: {error}"[:120]
        changes = report.get("changes", []) if report else []
        assert isinstance(changes, list)
        for check in checks:
            hits = [
                part
                for change in changes
                for part in releases.each_change(change)
                if check.path in releases.change_paths(part) and part["kind"] in check.kinds
            ]
            grades = sorted({str(change.get("evidence", "proven")) for change in hits})
            rows.append(
                {
                    "set": source,
                    "pair": f"{pair.dist} {pair.old} -> {pair.new}",
                    "entry": check.entry,
                    "apisurface": "proven" if "proven" in grades else (grades[0] if grades else ""),
                    "griffe": _tail(check.path) in by_griffe,
                    "error": outcome.error or griffe_error,
                }
            )
    return rows


def table(rows: list[dict[str, object]]) -> str:
    lines = [
        "| set | pairs | documented breaks | apisurface found (proven + inferred) | griffe found |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for name in sorted({str(row["set"]) for row in rows}, reverse=True):
        part = [row for row in rows if row["set"] == name]
        proven = sum(1 for row in part if row["apisurface"] == "proven")
        inferred = sum(1 for row in part if row["apisurface"] == "inferred")
        lines.append(
            f"| {name} | {len({row['pair'] for row in part})} | {len(part)} | "
            f"{proven + inferred} ({proven} + {inferred}) | "
            f"{sum(1 for row in part if row['griffe'])} |"
        )
    lines += ["", "| set | pair | documented break | apisurface | griffe | note |"]
    lines += ["| --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        lines.append(
            f"| {row['set']} | {row['pair']} | {row['entry']} | {row['apisurface'] or 'missed'} "
            f"| {'found' if row['griffe'] else 'missed'} | {row['error']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("releases", "held-out"))
    args = parser.parse_args(argv)
    pairs = [("releases", pair) for pair in releases.PAIRS] + [
        ("held-out", pair) for pair in HELD_OUT
    ]
    rows = run([(source, pair) for source, pair in pairs if args.only in (None, source)])
    text = table(rows)
    releases.RESULTS.mkdir(parents=True, exist_ok=True)
    (releases.RESULTS / "recall.md").write_text(text, encoding="utf-8")
    (releases.RESULTS / "recall.json").write_text(json.dumps(rows, indent=1) + "\n", "utf-8")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
