"""Real release pairs: does ``apisurface diff`` agree with what the changelogs say?

For each pair below (two releases of a well-known pure-Python package) this script

1. downloads both source distributions into bench/.cache/releases/ (``--wheels``: wheels;
   a release without an sdist falls back to its wheel). The file is picked from PyPI's JSON
   API (https://pypi.org/pypi/NAME/VERSION/json), fetched by URL with urllib and checked
   against PyPI's sha256 digest: no build backend or other project code runs. Sdists are
   preferred because they carry the project's ``docs/`` folder, which the documentation rule
   reads, and its changelog;
2. unpacks them (only regular files and folders; members leaving the folder, absolute
   paths, links and devices are skipped);
3. runs ``apisurface diff OLD NEW --package NAME --format json`` in a child process;
4. compares the recommended bump with the version step the project actually took, and
   looks for each changelog entry listed under ``checks`` (a path and the change kinds
   that would report it correctly).

It prints a Markdown table (the one in docs/real-world.md) and writes the reports to
bench/results/releases/ and a summary to bench/results/releases.json.

    python bench/releases.py                 # every pair
    python bench/releases.py click urllib3   # pairs of these distributions
    python bench/releases.py --show click    # also list each pair's changes by level
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import threading
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath

from packaging.version import Version

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CACHE = HERE / ".cache" / "releases"
RESULTS = HERE / "results"
TIMEOUT = 900
PYPI = "https://pypi.org/pypi"

REMOVED = ("symbol_removed", "symbol_made_private", "symbol_unexported", "symbol_moved")
ADDED = ("symbol_added", "reexport_added", "symbol_now_documented", "symbol_exported")


@dataclass(frozen=True)
class Check:
    """One changelog entry: the path it is about and the kinds that report it correctly."""

    path: str
    kinds: tuple[str, ...]
    entry: str


@dataclass(frozen=True)
class Pair:
    dist: str
    package: str
    old: str
    new: str
    checks: tuple[Check, ...] = ()
    round: int = 1
    wheels: bool = False
    """Download wheels (round 2: no docs/ folder is read, only docstrings, ``__all__``, ``#:``)."""
    new_dist: str | None = None
    """The distribution of ``new`` when the project moved its code (typer -> typer-slim)."""


def _r2(
    dist: str, package: str, old: str, new: str, *checks: Check, new_dist: str | None = None
) -> Pair:
    return Pair(dist, package, old, new, checks, round=2, wheels=True, new_dist=new_dist)


PAIRS: tuple[Pair, ...] = (
    Pair(
        "packaging",
        "packaging",
        "21.3",
        "22.0",
        (
            Check("packaging.version.LegacyVersion", REMOVED, "LegacyVersion removed"),
            Check("packaging.specifiers.LegacySpecifier", REMOVED, "LegacySpecifier removed"),
            Check(
                "packaging.utils.canonicalize_version(strip_trailing_zero)",
                ("parameter_added_optional",),
                "canonicalize_version(strip_trailing_zero=) added",
            ),
        ),
    ),
    Pair(
        "click",
        "click",
        "7.1.2",
        "8.0.0",
        (
            Check("click.Group.result_callback", ADDED, "resultcallback renamed result_callback"),
            Check(
                "click.Group.resultcallback",
                ("symbol_deprecated",),
                "old name resultcallback kept, deprecated",
            ),
            Check(
                "click.get_terminal_size", ("symbol_deprecated",), "get_terminal_size deprecated"
            ),
            Check(
                "click.Option.__init__(prompt_required)",
                ("parameter_added_optional", "parameter_inserted"),
                "Option(prompt_required=) added",
            ),
            Check("click.shell_completion", ADDED, "new shell completion system"),
        ),
    ),
    Pair("requests", "requests", "2.27.1", "2.28.0"),
    Pair(
        "requests",
        "requests",
        "2.31.0",
        "2.32.0",
        (
            Check(
                "requests.exceptions.JSONDecodeError.__reduce__",
                ADDED,
                "JSONDecodeError deserialization fixed",
            ),
        ),
    ),
    Pair(
        "urllib3",
        "urllib3",
        "1.26.15",
        "2.0.0",
        (
            Check(
                "urllib3.HTTPResponse.from_httplib", REMOVED, "HTTPResponse.from_httplib removed"
            ),
            Check(
                "urllib3.util.Retry.__init__(method_whitelist)",
                ("parameter_removed",),
                "Retry(method_whitelist=) removed",
            ),
            Check("urllib3.exceptions.SNIMissingWarning", REMOVED, "SNIMissingWarning removed"),
            Check("urllib3.request", ("kind_changed",), "urllib3.request module -> function"),
            Check(
                "urllib3.PoolManager.connection_from_pool_key(request_context)",
                ("parameter_default_removed",),
                "request_context default None removed",
            ),
            # (HTTPResponse.getheaders, listed as deprecated in 2.0.0, already warned in
            # 1.26.15, so "no change" is right for this pair.)
            Check(
                "urllib3.connection.HTTPConnection.request_chunked",
                ("symbol_deprecated",),
                "HTTPConnection.request_chunked deprecated",
            ),
            Check("urllib3.HTTPHeaderDict", ADDED, "HTTPHeaderDict exported at top level"),
            Check(
                "urllib3.PoolManager.request(json)",
                ("parameter_added_optional",),
                "request(json=) added",
            ),
            Check("urllib3.response.BaseHTTPResponse", ADDED, "BaseHTTPResponse added"),
        ),
    ),
    Pair(
        "Jinja2",
        "jinja2",
        "2.11.3",
        "3.0.0",
        (
            Check(
                "jinja2.contextfunction",
                ("symbol_deprecated",),
                "contextfunction deprecated for pass_context",
            ),
            Check("jinja2.pass_context", ADDED, "pass_context added"),
            Check(
                "jinja2.filters.do_indent(indentfirst)",
                ("parameter_removed",),
                "deprecated indentfirst removed",
            ),
            Check(
                "jinja2.Environment.compile_templates(py_compile)",
                ("parameter_removed",),
                "deprecated py_compile removed",
            ),
        ),
    ),
    Pair(
        "semver",
        "semver",
        "2.13.0",
        "3.0.0",
        (
            Check("semver.Version", ADDED, "VersionInfo renamed Version (alias kept)"),
            Check("semver.VersionInfo.isvalid", REMOVED, "isvalid renamed is_valid"),
            Check("semver.VersionInfo.is_valid", ADDED, "is_valid added"),
            Check(
                "semver.cmd_bump",
                ("symbol_deprecated",),
                "CLI functions outside semver.cli deprecated",
            ),
        ),
    ),
    Pair(
        "attrs",
        "attr",
        "21.4.0",
        "22.1.0",
        (Check("attr.validators.min_len", ADDED, "validators.min_len added"),),
    ),
    Pair(
        "httpx",
        "httpx",
        "0.23.3",
        "0.24.0",
        (Check("httpx.NetRCAuth", ADDED, "NetRCAuth added"),),
    ),
    Pair(
        "more-itertools",
        "more_itertools",
        "9.1.0",
        "10.0.0",
        (
            Check(
                "more_itertools.batched",
                ("return_annotation_changed",),
                "batched yields tuples, not lists",
            ),
            Check("more_itertools.polynomial_eval", ADDED, "polynomial_eval added"),
        ),
    ),
    Pair(
        "Markdown",
        "markdown",
        "3.3.7",
        "3.4",
        (
            Check("markdown.util.Registry.add", REMOVED, "deprecated Registry.add removed"),
            Check("markdown.util.isBlockLevel", REMOVED, "deprecated isBlockLevel removed"),
            Check("markdown.pep562", REMOVED, "pep562 module removed"),
            Check(
                "markdown.treeprocessors.UnescapeTreeprocessor",
                ADDED,
                "UnescapeTreeprocessor added",
            ),
        ),
    ),
    Pair(
        "rich",
        "rich",
        "12.6.0",
        "13.0.0",
        (
            Check(
                "rich.pretty.Node.__init__(key_separator)",
                ("parameter_inserted", "field_added_optional", "parameter_added_optional"),
                "Node gained key_separator",
            ),
        ),
    ),
)


ROUND2: tuple[Pair, ...] = (
    _r2(
        "marshmallow",
        "marshmallow",
        "2.21.0",
        "3.0.0",
        Check(
            "marshmallow.schema.BaseSchema.__init__(strict)",
            ("parameter_removed",),
            "Schema(strict=) removed",
        ),
        Check("marshmallow.Schema.load", ("symbol_added", "symbol_renamed"), "Schema.load"),
    ),
    _r2(
        "flask",
        "flask",
        "2.2.5",
        "2.3.0",
        Check("flask.Flask.before_first_request", REMOVED, "before_first_request removed"),
        Check("flask.Flask.json_encoder", REMOVED, "json_encoder removed"),
        Check("flask.json.dumps(app)", ("parameter_removed",), "json.dumps(app=) removed"),
        Check("flask.Flask.got_first_request", ("symbol_deprecated",), "got_first_request"),
    ),
    _r2(
        "werkzeug",
        "werkzeug",
        "2.2.3",
        "2.3.0",
        Check("werkzeug.urls.url_parse", ("symbol_deprecated",), "werkzeug.urls deprecated"),
        Check("werkzeug.Client.cookie_jar", ("kind_changed",), "Client.cookie_jar reworked"),
    ),
    _r2(
        "pluggy",
        "pluggy",
        "0.13.1",
        "1.0.0",
        Check(
            "pluggy.PluginManager.__init__(implprefix)",
            ("parameter_removed",),
            "implprefix removed",
        ),
        Check("pluggy.hooks", REMOVED, "modules made private"),
    ),
    _r2(
        "arrow",
        "arrow",
        "0.17.0",
        "1.0.0",
        Check("arrow.Arrow.timestamp", ("kind_changed",), "timestamp property -> method"),
    ),
    _r2(
        "tenacity",
        "tenacity",
        "8.2.3",
        "9.0.0",
        Check("tenacity.asyncio", ("symbol_made_public",), "tenacity.asyncio package"),
    ),
    _r2(
        "cattrs",
        "cattrs",
        "22.2.0",
        "23.1.0",
        Check("cattrs.override(struct_hook)", ("parameter_added_optional",), "override hooks"),
    ),
    _r2(
        "structlog",
        "structlog",
        "22.3.0",
        "23.1.0",
        Check("structlog.stdlib.BoundLogger.ainfo", ADDED, "async log methods"),
    ),
    _r2(
        "tomlkit",
        "tomlkit",
        "0.11.8",
        "0.12.0",
        Check("tomlkit.register_encoder", ADDED, "register_encoder added"),
    ),
    _r2("typer", "typer", "0.9.0", "0.12.0", new_dist="typer-slim"),
    _r2(
        "starlette",
        "starlette",
        "0.27.0",
        "0.28.0",
        Check(
            "starlette.templating.Jinja2Templates.__init__(env)",
            ("parameter_added_optional",),
            "Jinja2Templates(env=)",
        ),
    ),
    _r2(
        "pydantic",
        "pydantic",
        "1.10.13",
        "2.0",
        Check("pydantic.BaseModel.model_dump", ADDED, "model_dump added"),
        Check("pydantic.validator", ("symbol_deprecated",), "validator deprecated"),
    ),
    _r2(
        "sqlalchemy",
        "sqlalchemy",
        "1.4.49",
        "2.0.0",
        Check("sqlalchemy.engine.Engine.execute", REMOVED, "Engine.execute removed"),
        Check("sqlalchemy.orm.DeclarativeBase", ADDED, "DeclarativeBase added"),
    ),
    _r2("idna", "idna", "3.6", "3.7"),
    _r2("requests", "requests", "2.32.2", "2.32.3"),
    _r2("click", "click", "8.1.6", "8.1.7"),
    _r2("urllib3", "urllib3", "2.2.1", "2.2.2"),
    _r2(
        "attrs",
        "attr",
        "23.1.0",
        "23.2.0",
        Check("attr.make_class(class_body)", ("parameter_added_optional",), "class_body="),
    ),
    _r2("packaging", "packaging", "23.1", "23.2"),
)

PAIRS += ROUND2


def _r3(dist: str, package: str, old: str, new: str, *checks: Check) -> Pair:
    return Pair(dist, package, old, new, checks, round=3)


# Round 3 (the precision audit, bench/audit.py): packages not used above, sdists (fetched by
# URL, never built) so docs/ is read; patch, minor and major steps.
ROUND3: tuple[Pair, ...] = (
    # patch releases
    _r3("platformdirs", "platformdirs", "4.13.6", "4.13.7"),
    _r3("filelock", "filelock", "4.2.11", "4.2.12"),
    _r3("cachetools", "cachetools", "7.1.7", "7.1.8"),
    _r3(
        "pyparsing",
        "pyparsing",
        "3.1.1",
        "3.1.2",
        # pyparsing.common is the class pyparsing_common at run time (the package binds
        # it over its submodule of that name): the path users type.
        Check("pyparsing.common.ieee_float", ADDED, "ieee_float added"),
    ),
    _r3("jsonschema", "jsonschema", "4.21.0", "4.21.1"),
    _r3("python-dateutil", "dateutil", "2.8.1", "2.8.2"),
    _r3("decorator", "decorator", "5.1.0", "5.1.1"),
    _r3("itsdangerous", "itsdangerous", "2.1.1", "2.1.2"),
    _r3("humanize", "humanize", "4.12.2", "4.12.3"),
    _r3("boltons", "boltons", "23.1.0", "23.1.1"),
    # minor releases
    _r3(
        "jsonschema",
        "jsonschema",
        "4.17.3",
        "4.18.0",
        Check("jsonschema.RefResolver", ("symbol_deprecated",), "RefResolver deprecated"),
        Check("jsonschema.ErrorTree", ("symbol_deprecated",), "jsonschema.ErrorTree deprecated"),
    ),
    _r3("python-dateutil", "dateutil", "2.8.2", "2.9.0"),
    _r3("sortedcontainers", "sortedcontainers", "2.3.0", "2.4.0"),
    _r3(
        "itsdangerous",
        "itsdangerous",
        "2.0.1",
        "2.1.0",
        Check("itsdangerous.JSONWebSignatureSerializer", REMOVED, "JWS removed"),
        Check("itsdangerous.jws", REMOVED, "deprecated jws module removed"),
    ),
    _r3("pyparsing", "pyparsing", "3.0.9", "3.1.0"),
    _r3("humanize", "humanize", "4.16.0", "4.17.0"),
    _r3("toolz", "toolz", "1.0.0", "1.1.0"),
    # major releases
    _r3("decorator", "decorator", "4.4.2", "5.0.3"),
    _r3("cachetools", "cachetools", "6.2.6", "7.0.0"),
    _r3("toolz", "toolz", "0.12.1", "1.0.0"),
    _r3(
        "itsdangerous",
        "itsdangerous",
        "1.1.0",
        "2.0.0",
        Check("itsdangerous.JSONWebSignatureSerializer", ("symbol_deprecated",), "JWS deprecated"),
    ),
    _r3("humanize", "humanize", "3.14.0", "4.0.0"),
    _r3("platformdirs", "platformdirs", "3.11.0", "4.0.0"),
    _r3(
        "boltons",
        "boltons",
        "25.0.0",
        "26.0.0",
        Check("boltons.funcutils.once", ADDED, "funcutils.once added"),
        Check("boltons.strutils.human_readable_list", ADDED, "human_readable_list added"),
    ),
)

PAIRS += ROUND3


@dataclass
class Outcome:
    dist: str
    old: str
    new: str
    step: str
    bump: str | None = None
    next_version: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    checks: list[tuple[str, bool]] = field(default_factory=list)
    error: str | None = None


def _json(url: str) -> dict[str, object]:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        data: dict[str, object] = json.load(response)
    return data


def _choose(files: list[dict[str, object]], *, wheels: bool) -> dict[str, object] | None:
    """The sdist (or, with ``wheels``, the pure-Python wheel) among a release's files."""
    sdists = [f for f in files if f.get("packagetype") == "sdist"]
    wheel_files = [f for f in files if str(f.get("filename", "")).endswith(".whl")]
    pure = [f for f in wheel_files if str(f["filename"]).endswith("-none-any.whl")]
    order = (pure + wheel_files + sdists) if wheels else (sdists + pure + wheel_files)
    usable = [f for f in order if not f.get("yanked")] or order
    return usable[0] if usable else None


def release_files(dist: str, version: str) -> tuple[list[dict[str, object]], str]:
    """The files PyPI lists for ``dist==version``, and the URL relative links resolve against.

    The per-release JSON (``/pypi/NAME/VERSION/json``) is asked first; a mirror that only
    serves the project JSON (``/pypi/NAME/json``, files under ``releases``) works too.
    """
    name = urllib.parse.quote(dist)
    url = f"{PYPI}/{name}/{urllib.parse.quote(version)}/json"
    try:
        files = _json(url).get("urls")
    except urllib.error.HTTPError as error:
        if error.code != 404:
            raise
        url = f"{PYPI}/{name}/json"
        releases = _json(url).get("releases")
        files = releases.get(version) if isinstance(releases, dict) else None
    if not isinstance(files, list) or not files:
        raise RuntimeError(f"PyPI lists no files for {dist}=={version}")
    return [item for item in files if isinstance(item, dict)], url


def download(dist: str, version: str, *, wheels: bool) -> Path:
    """The archive of ``dist==version`` from PyPI (cached), its sha256 digest checked.

    The file is chosen from PyPI's JSON API and fetched by URL: nothing of the project is
    built or run (``pip download`` of an sdist would run its build backend).
    """
    folder = CACHE / "downloads" / f"{dist}-{version}" / ("wheel" if wheels else "sdist")
    found = sorted(p for p in folder.glob("*") if not p.name.endswith(".partial"))
    if found:
        return found[0]
    files, base = release_files(dist, version)
    chosen = _choose(files, wheels=wheels)
    if chosen is None:
        raise RuntimeError(f"PyPI lists no sdist or wheel for {dist}=={version}")
    url = urllib.parse.urljoin(base, str(chosen["url"]))
    name = PurePosixPath(str(chosen["filename"])).name
    digests = chosen.get("digests")
    expected = digests.get("sha256") if isinstance(digests, dict) else None
    if not url.startswith("https://") or not expected or not _safe(name):
        raise RuntimeError(f"{dist}=={version}: unusable file entry {name!r}")
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f"{name}.{os.getpid()}-{threading.get_ident()}.partial"
    digest = hashlib.sha256()
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response, partial.open("wb") as out:
        while chunk := response.read(1 << 16):
            digest.update(chunk)
            out.write(chunk)
    if digest.hexdigest() != expected:
        partial.unlink()
        raise RuntimeError(f"{name}: sha256 {digest.hexdigest()} is not PyPI's {expected}")
    return partial.rename(folder / name)


def _safe(name: str) -> bool:
    parts = PurePosixPath(name).parts
    return (
        bool(parts)
        and not name.startswith("/")
        and "\\" not in name
        and ":" not in parts[0]
        and ".." not in parts
    )


def unpack(archive: Path) -> Path:
    """Unpack an sdist or wheel once; return the folder holding the project."""
    target = CACHE / "src" / archive.name
    if not target.is_dir():
        partial = target.with_name(f"{target.name}.{os.getpid()}-{threading.get_ident()}.partial")
        partial.mkdir(parents=True, exist_ok=True)
        if archive.name.endswith((".tar.gz", ".tgz", ".tar.bz2")):
            with tarfile.open(archive) as tar:
                members = [
                    m for m in tar.getmembers() if _safe(m.name) and (m.isfile() or m.isdir())
                ]
                tar.extractall(partial, members=members, filter="data")
        else:
            with zipfile.ZipFile(archive) as zipped:
                for name in zipped.namelist():
                    if _safe(name) and not name.endswith("/"):
                        destination = partial / name
                        destination.parent.mkdir(parents=True, exist_ok=True)
                        destination.write_bytes(zipped.read(name))
        try:
            partial.rename(target)
        except OSError:  # another thread unpacked it first
            if not target.is_dir():
                raise
            shutil.rmtree(partial)
    entries = [entry for entry in target.iterdir() if entry.is_dir()]
    # An sdist holds one top folder (name-version/); a wheel holds the package itself.
    if archive.name.endswith(".whl") or len(entries) != 1:
        return target
    return entries[0]


def version_step(old: str, new: str) -> str:
    """The step the project took: major/minor/patch, with 0.y treated as Cargo does."""
    before, after = Version(old), Version(new)
    a = (*before.release, 0, 0)[:3]
    b = (*after.release, 0, 0)[:3]
    if a[0] != b[0]:
        return "major"
    if a[0] == 0 and a[1] != b[1]:
        return "major (0.y)"
    if a[1] != b[1]:
        return "minor"
    return "patch"


def run_pair(pair: Pair, *, wheels: bool) -> tuple[Outcome, dict[str, object] | None]:
    outcome = Outcome(pair.dist, pair.old, pair.new, version_step(pair.old, pair.new))
    try:
        wheels = wheels or pair.wheels
        old_dir = unpack(download(pair.dist, pair.old, wheels=wheels))
        new_dir = unpack(download(pair.new_dist or pair.dist, pair.new, wheels=wheels))
    except (RuntimeError, OSError, tarfile.TarError, zipfile.BadZipFile) as error:
        outcome.error = str(error)
        return outcome, None
    command = [
        sys.executable,
        "-m",
        "apisurface",
        "diff",
        str(old_dir),
        str(new_dir),
        "--package",
        pair.package,
        "--format",
        "json",
    ]
    completed = subprocess.run(
        command, capture_output=True, text=True, timeout=TIMEOUT, check=False, cwd=ROOT
    )
    if completed.returncode != 0:
        outcome.error = f"exit {completed.returncode}: {completed.stderr.strip()[-300:]}"
        return outcome, None
    report: dict[str, object] = json.loads(completed.stdout)
    changes = report["changes"]
    assert isinstance(changes, list)
    outcome.bump = str(report["bump"])
    outcome.next_version = report.get("next_version")  # type: ignore[assignment]
    for change in changes:
        level = change["bump"]
        outcome.counts[level] = outcome.counts.get(level, 0) + 1
    for check in pair.checks:
        hit = any(
            check.path in change_paths(part) and part["kind"] in check.kinds
            for change in changes
            for part in each_change(change)
        )
        outcome.checks.append((check.entry, hit))
    return outcome, report


def each_change(change: dict[str, object]) -> list[dict[str, object]]:
    """The changes a report entry stands for: itself, or, for one edit to one signature
    (``pkg.f(a, b)``), each parameter's change in ``parts``, with the entry's other paths
    (``pkg.Sub.f``) as that parameter's (``pkg.Sub.f(a)``)."""
    parts = change.get("parts")
    if not isinstance(parts, list) or not parts:
        return [change]
    others = [str(path) for path in change.get("also_at", []) or []]  # type: ignore[union-attr]
    found = []
    for part in parts:
        parameter = "(" + str(part["path"]).partition("(")[2]
        found.append({**part, "also_at": [path.partition("(")[0] + parameter for path in others]})
    return found


def change_paths(change: dict[str, object]) -> set[str]:
    """A change's path and the other public paths of its object, when the report lists them
    (``also_at``: one change per object, named at its shortest path)."""
    paths = {str(change["path"])}
    for value in change.values():
        if isinstance(value, list):
            paths.update(item for item in value if isinstance(item, str))
    return paths


def _agrees(outcome: Outcome) -> str:
    if outcome.bump is None:
        return "error"
    wanted = outcome.step.split()[0]
    return "yes" if outcome.bump == wanted else f"no ({outcome.bump} vs {wanted})"


def table(outcomes: list[Outcome]) -> str:
    lines = [
        "| package | old -> new | step taken | bump found (next) | agrees | changes "
        "(major/minor/patch) | changelog entries found |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for item in outcomes:
        counts = "/".join(str(item.counts.get(level, 0)) for level in ("major", "minor", "patch"))
        found = sum(1 for _, hit in item.checks if hit)
        missed = [entry for entry, hit in item.checks if not hit]
        checks = f"{found}/{len(item.checks)}" if item.checks else "-"
        if missed:
            checks += " (missed: " + "; ".join(missed) + ")"
        bump = item.error or f"{item.bump} ({item.next_version or 'no version'})"
        lines.append(
            f"| {item.dist} | {item.old} -> {item.new} | {item.step} | {bump} | "
            f"{_agrees(item)} | {counts} | {checks} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dists", nargs="*", help="only pairs of these distributions")
    parser.add_argument("--wheels", action="store_true", help="download wheels, not sdists")
    parser.add_argument("--round", type=int, help="only the pairs of this round (1, 2 or 3)")
    parser.add_argument(
        "--show", action="store_true", help="list each pair's changes (major and minor)"
    )
    args = parser.parse_args(argv)
    wanted = {name.lower() for name in args.dists}
    pairs = [
        pair
        for pair in PAIRS
        if (not wanted or pair.dist.lower() in wanted) and args.round in (None, pair.round)
    ]
    outcomes: list[Outcome] = []
    reports = RESULTS / "releases"
    reports.mkdir(parents=True, exist_ok=True)
    for pair in pairs:
        print(f"{pair.dist} {pair.old} -> {pair.new} ...", file=sys.stderr, flush=True)
        outcome, report = run_pair(pair, wheels=args.wheels)
        outcomes.append(outcome)
        if report is not None:
            name = f"{pair.dist}-{pair.old}-{pair.new}.json"
            (reports / name).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
            if args.show:
                for change in report["changes"]:  # type: ignore[attr-defined]
                    if change["bump"] != "patch":
                        print(
                            f"  {change['bump']:5} {change['kind']:32} {change['path']}"
                            f"  ({change['old']} -> {change['new']})"
                        )
    (RESULTS / "releases.json").write_text(
        json.dumps([asdict(item) for item in outcomes], indent=2) + "\n", encoding="utf-8"
    )
    sys.stdout.write(table(outcomes))
    return 1 if any(item.error for item in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
