"""What each rule means: the text of ``apisurface explain RULE``.

The rule table (:mod:`apisurface.compare.rules`) says what a change costs; ``explain.toml`` beside
this module says why, with a minimal before/after example per rule. Both are shipped with
the package. A rule without an entry is reported by :func:`missing_entries` (a test fails
on it), so adding a rule means adding one table to ``explain.toml``.
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from apisurface.changes import ChangeKind
from apisurface.compare.rules import RULES, Level
from apisurface.errors import ApisurfaceError

__all__ = ["POLICY_DOC", "RuleDoc", "explain_text", "missing_entries", "rule_doc", "rule_docs"]

POLICY_DOC = "docs/policy.md"
"""The project's policy page (in the repository and the source distribution)."""

_DATA = "explain.toml"


@dataclass(frozen=True, slots=True)
class RuleDoc:
    """Why a rule has its level, and a minimal example: files before and after, and the
    path at which apisurface reports the change."""

    rule: str
    why: str
    reported: str
    before: dict[str, str]
    after: dict[str, str]


@cache
def rule_docs() -> dict[str, RuleDoc]:
    """Every entry of ``explain.toml``, by rule id."""
    data = tomllib.loads(resources.files("apisurface.output").joinpath(_DATA).read_text("utf-8"))
    docs: dict[str, RuleDoc] = {}
    for rule, entry in data.items():
        docs[rule] = RuleDoc(
            rule=rule,
            why=str(entry.get("why", "")),
            reported=str(entry.get("reported", "")),
            before={str(k): str(v) for k, v in entry.get("before", {}).items()},
            after={str(k): str(v) for k, v in entry.get("after", {}).items()},
        )
    return docs


def missing_entries() -> tuple[list[str], list[str]]:
    """Rule ids without an entry, and entries naming no rule (both empty when in step)."""
    docs = rule_docs()
    rules = {kind.value for kind in RULES}
    return sorted(rules - set(docs)), sorted(set(docs) - rules)


def rule_doc(rule: str) -> RuleDoc:
    """The entry of ``rule``; raise :class:`ApisurfaceError` naming close ids when unknown."""
    try:
        kind = ChangeKind(rule.strip().lower().replace("-", "_"))
    except ValueError:
        close = difflib.get_close_matches(rule, [kind.value for kind in ChangeKind], n=3)
        hint = f"did you mean {', '.join(close)}?" if close else "'apisurface rules' lists them"
        raise ApisurfaceError(f"{rule!r} is not a rule id; {hint}") from None
    doc = rule_docs().get(kind.value)
    if doc is None:
        raise ApisurfaceError(f"rule {kind.value} has no explanation yet; see {POLICY_DOC}")
    return doc


def _example(doc: RuleDoc) -> list[str]:
    lines: list[str] = []
    for name in sorted(set(doc.before) | set(doc.after)):
        old, new = doc.before.get(name), doc.after.get(name)
        if old == new:
            continue
        diff = difflib.unified_diff(
            (old or "").splitlines(),
            (new or "").splitlines(),
            fromfile=f"before/{name}" if old is not None else "/dev/null",
            tofile=f"after/{name}" if new is not None else "/dev/null",
            n=1000,
            lineterm="",
        )
        lines.extend(f"    {line}" for line in diff)
    unchanged = sorted(name for name in doc.before if doc.after.get(name) == doc.before[name])
    if unchanged:
        lines.append(f"    (unchanged: {', '.join(unchanged)})")
    return lines


def explain_text(rule: str) -> str:
    """The page ``apisurface explain RULE`` prints."""
    doc = rule_doc(rule)
    kind = ChangeKind(doc.rule)
    level = RULES[kind].level
    lines = [
        f"{doc.rule}: {level.name}",
        f'  reported as: "{RULES[kind].template}"',
        "",
        "Why:",
        f"  {doc.why}",
        "",
        f"Example (reported at {doc.reported}):",
        *_example(doc),
        "",
        "To accept one such change (it stays in reports but no longer raises the bump),",
        "add to pyproject.toml:",
        "  [[tool.apisurface.accept]]",
        f'  path = "{doc.reported}"',
        f'  rule = "{doc.rule}"',
        '  reason = "why users are not affected"',
        "To change the rule's level for the whole project:",
        "  [tool.apisurface]",
        f'  levels = {{ {doc.rule} = "{_other(level)}" }}   # major, minor, patch or ignore',
        "",
        f"The policy: {POLICY_DOC}",
    ]
    return "\n".join(lines) + "\n"


def _other(level: Level) -> str:
    return "minor" if level is Level.MAJOR else "major"
