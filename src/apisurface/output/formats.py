"""The output formats: one row per format, naming how it renders each kind of report.

``diff`` renders a :class:`~apisurface.compare.report.Report`, ``impact`` an
:class:`~apisurface.release.migrate.ImpactReport`; a format that cannot render a kind has
no renderer for it. The CLI takes its ``--format`` choices from here and prints what
:func:`render_report` and :func:`render_impact` return. Each renderer imports its module
when it runs, so that naming the formats (``--help``) loads none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from apisurface.errors import ApisurfaceError

TYPE_CHECKING = False  # typing.TYPE_CHECKING, spelled so for start-up time as in cli.py
if TYPE_CHECKING:
    from apisurface.compare.report import Report
    from apisurface.model import Surface
    from apisurface.release.migrate import ImpactReport

__all__ = [
    "FORMATS",
    "IMPACT_FORMATS",
    "REPORT_FORMATS",
    "Format",
    "render_impact",
    "render_report",
]

# GitHub shows 10 annotations of a level per step: the first 10, and a note.
_GITHUB_PER_LEVEL = 10


class _Sides(NamedTuple):
    """What a diff renderer may use besides the report."""

    color: bool
    old: Surface | None
    new: Surface | None
    verbose: bool = False
    link: str | None = None


def _text(report: Report, sides: _Sides) -> str:
    from apisurface.output.text import render_text  # noqa: PLC0415

    return render_text(report, color=sides.color, verbose=sides.verbose)


def _json(report: Report, sides: _Sides) -> str:
    from apisurface.output.text import render_json  # noqa: PLC0415

    return render_json(report)


def _markdown(report: Report, sides: _Sides) -> str:
    from apisurface.output.text import render_markdown  # noqa: PLC0415

    return render_markdown(report, link=sides.link)


def _github(report: Report, sides: _Sides) -> str:
    from apisurface.output.ci import render_github  # noqa: PLC0415

    return render_github(report, per_level=_GITHUB_PER_LEVEL)


def _sarif(report: Report, sides: _Sides) -> str:
    from apisurface.output.ci import render_sarif  # noqa: PLC0415

    return render_sarif(report)


def _html(report: Report, sides: _Sides) -> str:
    from apisurface.output.html import render_html  # noqa: PLC0415

    return render_html(report, sides.old, sides.new)


def _impact_text(report: ImpactReport) -> str:
    from apisurface.output.impact import render_impact_text  # noqa: PLC0415

    return render_impact_text(report)


def _impact_json(report: ImpactReport) -> str:
    from apisurface.output.impact import render_impact_json  # noqa: PLC0415

    return render_impact_json(report)


def _impact_markdown(report: ImpactReport) -> str:
    from apisurface.output.impact import render_impact_markdown  # noqa: PLC0415

    return render_impact_markdown(report)


def _impact_github(report: ImpactReport) -> str:
    from apisurface.output.impact import render_impact_github  # noqa: PLC0415

    return render_impact_github(report)


def _impact_sarif(report: ImpactReport) -> str:
    from apisurface.output.impact import render_impact_sarif  # noqa: PLC0415

    return render_impact_sarif(report)


class Format(NamedTuple):
    """An output format: its ``--format`` name and its renderer of each kind of report."""

    name: str
    report: Callable[[Report, _Sides], str]
    impact: Callable[[ImpactReport], str] | None


FORMATS: tuple[Format, ...] = (
    Format("text", _text, _impact_text),
    Format("json", _json, _impact_json),
    Format("markdown", _markdown, _impact_markdown),
    Format("github", _github, _impact_github),
    Format("sarif", _sarif, _impact_sarif),
    Format("html", _html, None),
)
_BY_NAME = {fmt.name: fmt for fmt in FORMATS}

REPORT_FORMATS: tuple[str, ...] = tuple(fmt.name for fmt in FORMATS)
IMPACT_FORMATS: tuple[str, ...] = tuple(fmt.name for fmt in FORMATS if fmt.impact is not None)


def _format(name: str, names: tuple[str, ...]) -> Format:
    if name not in names:
        raise ApisurfaceError(f"unknown format {name!r}; give one of {', '.join(names)}")
    return _BY_NAME[name]


def render_report(
    report: Report,
    fmt: str,
    *,
    color: bool = False,
    old: Surface | None = None,
    new: Surface | None = None,
    verbose: bool = False,
    link: str | None = None,
) -> str:
    """``report`` in format ``fmt`` (one of REPORT_FORMATS). ``color`` and ``verbose`` (each
    change's evidence and witness) are for text, the two surfaces for html (which describes
    the symbols on each side), ``link`` (where the full report is) for markdown."""
    sides = _Sides(color, old, new, verbose, link)
    return _format(fmt, REPORT_FORMATS).report(report, sides)


def render_impact(report: ImpactReport, fmt: str) -> str:
    """The impact ``report`` in format ``fmt`` (one of IMPACT_FORMATS)."""
    renderer = _format(fmt, IMPACT_FORMATS).impact
    assert renderer is not None  # IMPACT_FORMATS holds only formats that have one
    return renderer(report)
