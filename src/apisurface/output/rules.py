"""The rule table as ``apisurface rules`` shows it: text grouped by level, or JSON."""

from __future__ import annotations

import json

from apisurface.compare.rules import RULES, Level

__all__ = ["render_rules"]


def _rules_json() -> str:
    data = [
        {
            "id": rule.kind.value,
            "bump": str(rule.level),
            "message": rule.template,
            "explain": f"apisurface explain {rule.kind.value}",
        }
        for rule in sorted(RULES.values(), key=lambda rule: (-rule.level, rule.kind.value))
    ]
    return json.dumps(data, indent=2) + "\n"


def _rules_text() -> str:
    lines = []
    for level in (Level.MAJOR, Level.MINOR, Level.PATCH):
        lines.append(level.name)
        for rule in sorted(RULES.values(), key=lambda rule: rule.kind.value):
            if rule.level is level:
                lines.append(f"  {rule.kind.value:40} {rule.template}")
    lines.append("")
    lines.append("'apisurface explain RULE' shows why a rule has its level, an example, and how")
    lines.append("to accept or re-level it; the whole policy is docs/policy.md.")
    return "\n".join(lines) + "\n"


def render_rules(fmt: str) -> str:
    """Every rule: ``json`` a list of objects (most severe level first), else text."""
    return _rules_json() if fmt == "json" else _rules_text()
