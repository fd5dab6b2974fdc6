"""How ``show --verify`` reports the import check: text and a JSON value.

Every string from the analysed package (paths, error messages, file names) is escaped by
the same printers as the rest of the output (docs/security.md, "Output escaping").
"""

from __future__ import annotations

from typing import Any

from apisurface.output.printable import visible
from apisurface.verify.environments import Environment, Unavailable
from apisurface.verify.importcheck import ImportCheck

__all__ = ["check_json", "check_text"]

_GAP_TITLES = {
    "missing": "public at run time, missing statically",
    "unresolved": "static paths that do not resolve at run time",
    "kind": "kinds that disagree",
}


def check_text(prepared: Environment | Unavailable, check: ImportCheck | None) -> str:
    """The import check as text for the end of ``show``'s output."""
    lines = [""]
    if isinstance(prepared, Unavailable) or check is None:
        reason = prepared.reason if isinstance(prepared, Unavailable) else "not run"
        lines.append(visible(f"verification: not run: {reason}"))
        return "\n".join(lines) + "\n"
    lines.append(
        visible(
            f"verification: imported {len(check.checked)} module(s) of {prepared.distribution} "
            f"{prepared.version} ({prepared.origin}) in {check.seconds:.1f} s"
        )
    )
    lines.append(visible(f"  sandbox: {check.confinement.describe()}"))
    for what, tally in sorted(check.counts.items()):
        lines.append(visible(f"  {what}: {tally.found} found, {tally.missed} missed"))
    if check.unchecked:
        lines.append(
            f"  {check.unchecked} instance attribute(s) not checked (only instances have them)"
        )
    if not check.gaps:
        lines.append("  no surface gap: every public name of the import is in the surface")
    for kind, title in _GAP_TITLES.items():
        gaps = [gap for gap in check.gaps if gap.kind == kind]
        if gaps:
            lines.append(f"surface gaps: {title} ({len(gaps)}):")
            lines += [visible(f"  {_where(gap.file, gap.line)}{gap.message()}") for gap in gaps]
    if check.not_checked:
        lines.append(f"modules not checked ({len(check.not_checked)}):")
        lines += [visible(f"  {module}: {reason}") for module, reason in check.not_checked]
    lines += [visible(f"note: {note}") for note in check.notes]
    return "\n".join(lines) + "\n"


def _where(file: str, line: int) -> str:
    if not file:
        return ""
    return f"{file}:{line}: " if line else f"{file}: "


def check_json(prepared: Environment | Unavailable, check: ImportCheck | None) -> dict[str, Any]:
    """The import check as a JSON value (``verification`` in ``show --format json``)."""
    if isinstance(prepared, Unavailable) or check is None:
        reason = prepared.reason if isinstance(prepared, Unavailable) else "not run"
        return {"outcome": "not_run", "detail": reason}
    return {
        "outcome": "run",
        "environment": {
            "distribution": prepared.distribution,
            "version": prepared.version,
            "origin": prepared.origin,
            "reused": prepared.reused,
        },
        "sandbox": {
            "network": check.confinement.network,
            "filesystem": check.confinement.filesystem,
            "pids": check.confinement.pids,
            "reduced": check.confinement.reduced,
        },
        "seconds": round(check.seconds, 3),
        "checked": list(check.checked),
        "not_checked": [{"module": module, "reason": why} for module, why in check.not_checked],
        "notes": list(check.notes),
        "counts": {
            what: {"found": tally.found, "missed": tally.missed}
            for what, tally in sorted(check.counts.items())
        },
        "unchecked_instance_attributes": check.unchecked,
        "gaps": [
            {
                "kind": gap.kind,
                "path": gap.path,
                "why": gap.why,
                "static_kind": gap.static_kind or None,
                "runtime_kind": gap.runtime_kind or None,
                "file": gap.file or None,
                "line": gap.line or None,
                "message": gap.message(),
            }
            for gap in check.gaps
        ],
    }
