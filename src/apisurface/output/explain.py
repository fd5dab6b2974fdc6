"""What each rule means: the text of ``apisurface explain RULE`` and the rule table of the
policy page.

A rule's reason is written in its row, beside its level and message (the members of
:class:`~apisurface.changes.ChangeKind`); its minimal before/after example is the kind's
case file, ``KIND.case`` in :data:`EXAMPLES` (package data, so an installed apisurface
explains too; the test harness runs the same files). A kind without a reason or an example
case is reported by :func:`undocumented` (a test fails on it, and another runs every example
through apisurface); the rule table of docs/policy.md is :func:`policy_table`, which a test
compares with the committed page and ``make policy`` writes into it.
"""

from __future__ import annotations

import difflib
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from apisurface.changes import ChangeKind, Evidence, Level, Rule
from apisurface.compare.diff import diff_surfaces
from apisurface.compare.rules import RULES
from apisurface.errors import ApisurfaceError
from apisurface.project.config import load_config
from apisurface.rows import EXAMPLES, SECTION, case_header, example_case
from apisurface.surface.collect import load_surface

__all__ = [
    "EXAMPLES",
    "POLICY_DOC",
    "RuleDoc",
    "example_case",
    "example_evidence",
    "explain_text",
    "policy_table",
    "rule_doc",
    "rule_docs",
    "undocumented",
    "with_policy_table",
]

POLICY_DOC = "docs/policy.md"
"""The project's policy page (in the repository and the source distribution)."""


_TABLE_BEGIN = (
    "<!-- rule table: written by `make policy` from the rows of ChangeKind"
    " (src/apisurface/changes.py); edit the rows, not this table -->"
)
_TABLE_END = "<!-- end of rule table -->"


@dataclass(frozen=True, slots=True)
class RuleDoc:
    """Why a rule has its level, and a minimal example (the kind's case file): what it
    shows, its files before and after, and the path at which apisurface reports the change
    (its first ``# expect:`` line naming the rule)."""

    rule: str
    why: str
    reported: str
    before: dict[str, str]
    after: dict[str, str]
    description: str = ""


def _files(case: str) -> tuple[dict[str, str], dict[str, str]]:
    """The files before and after of a case file: each ``--- [old|new|both] PATH`` line
    starts a file (``both`` when no side is named), whose text runs to the next such line."""
    before: dict[str, str] = {}
    after: dict[str, str] = {}
    sections: list[tuple[str, str, list[str]]] = []
    for line in case.splitlines():
        match = SECTION.match(line)
        if match:
            sections.append((match.group(1) or "both", match.group(2), []))
        elif sections:
            sections[-1][2].append(line)
    for side, name, lines in sections:
        text = "\n".join(lines).rstrip("\n") + "\n"
        if side in ("old", "both"):
            before[name] = text
        if side in ("new", "both"):
            after[name] = text
    return before, after


def _doc(rule: Rule) -> RuleDoc | None:
    case = example_case(rule.kind.value)
    if case is None:
        return None
    before, after = _files(case)
    description, reported = case_header(case, rule.kind.value)
    if not (rule.why and reported and before and after):
        return None
    return RuleDoc(rule.kind.value, rule.why, reported, before, after, description)


@cache
def rule_docs() -> dict[str, RuleDoc]:
    """The explanation of every rule whose row has one, by rule id."""
    docs = {kind.value: _doc(rule) for kind, rule in RULES.items()}
    return {rule: doc for rule, doc in docs.items() if doc is not None}


def undocumented() -> list[str]:
    """Rule ids whose row lacks a reason or whose example case (``KIND.case`` in
    :data:`EXAMPLES`) is missing, has no files before and after or no ``# expect:`` line
    naming the rule (empty when every rule is explained)."""
    return sorted(kind.value for kind in RULES if kind.value not in rule_docs())


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


def example_evidence(doc: RuleDoc) -> Evidence | None:
    """The evidence apisurface gives the change of ``doc``'s example (its grade, why and,
    for a proven break, the witness), found by diffing the example's files."""
    with tempfile.TemporaryDirectory(prefix="apisurface-explain-") as folder:
        surfaces = []
        for side, files in (("before", doc.before), ("after", doc.after)):
            root = Path(folder) / side
            for name, text in files.items():
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                (root / name).write_text(text, encoding="utf-8")
            surfaces.append(load_surface(root, "pkg", config=load_config(root)))
    for change in diff_surfaces(*surfaces):
        if change.path == doc.reported and change.kind.value == doc.rule:
            return change.evidence
    return None


def _evidence_lines(doc: RuleDoc) -> list[str]:
    evidence = example_evidence(doc)
    if evidence is None:
        return []
    lines = ["", f"Evidence of the example: {evidence.grade.value}", f"  {evidence.why}"]
    if evidence.witness:
        lines.append("  witness (works before, fails after):")
        lines += [f"    {line}" if line else "" for line in evidence.witness.splitlines()]
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
        *_callers(kind),
        f"Example (reported at {doc.reported}):",
        *([f"  {doc.description}"] if doc.description else []),
        *_example(doc),
        *_evidence_lines(doc),
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


def _callers(kind: ChangeKind) -> list[str]:
    hint = RULES[kind].caller_hint.use
    return ["What code using it must do:", f"  {hint}", ""] if hint else []


def _other(level: Level) -> str:
    return "minor" if level is Level.MAJOR else "major"


def policy_table() -> str:
    """Every rule with its level and reason, as the Markdown tables of the policy page: one
    section per level, rules in the order of their rows."""
    sections = []
    for level in (Level.MAJOR, Level.MINOR, Level.PATCH):
        rows = [
            f"| `{kind.value}` | {level.name} | {_cell(rule.why)} |"
            for kind, rule in RULES.items()
            if rule.level is level
        ]
        header = [f"### {level.name}", "", "| rule | level | why |", "| --- | --- | --- |"]
        sections.append("\n".join(header + rows))
    return "\n\n".join(sections) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def with_policy_table(page: str) -> str:
    """``page`` (the text of docs/policy.md) with :func:`policy_table` between its two
    rule-table markers; raise :class:`ApisurfaceError` when the markers are missing."""
    begin = page.find(_TABLE_BEGIN)
    end = page.find(_TABLE_END, begin)
    if begin < 0 or end < 0:
        raise ApisurfaceError(
            f"{POLICY_DOC} lacks the rule-table markers {_TABLE_BEGIN!r} and {_TABLE_END!r}"
        )
    start = begin + len(_TABLE_BEGIN)
    return f"{page[:start]}\n\n{policy_table()}\n{page[end:]}"
