"""Names bound by unpacking: ``A, B = ...`` binds ``A`` and ``B`` statically (POLICY.md 2.8).

griffe reads an assignment only when every target is a name (``x = ...``, ``x = y = ...``):
one tuple or list target (``MO, TU, WE = weekdays = tuple(...)``, ``XL_A, XL_B = range(2)``,
``anyOpenTag, anyCloseTag = makeHTMLTags("a")``) makes it skip the whole statement, so the
names are unknown and a module's ``__all__`` lists names it seems not to define. This griffe
extension binds each name of such a statement as an attribute of the module or class it is
in, like griffe binds a plain assignment: with its element of the value when the value is a
literal tuple or list of the same length, else without a value.
"""

from __future__ import annotations

import ast
from typing import Any

import griffe

__all__ = ["Unpacking", "unpacked_names"]


_Bound = list[tuple[str, ast.expr | None]]


def unpacked_names(node: ast.Assign) -> _Bound | None:
    """The names an assignment with a tuple or list target binds, each with its element
    of the value when known; None when every target is a plain name (griffe reads it)."""
    if not any(isinstance(target, ast.Tuple | ast.List) for target in node.targets):
        return None
    found: _Bound = []
    for target in node.targets:
        _bind(target, node.value, found)
    return found


def _bind(target: ast.expr, value: ast.expr | None, found: _Bound) -> None:
    if isinstance(target, ast.Name):
        found.append((target.id, value))
    elif isinstance(target, ast.Starred):
        _bind(target.value, None, found)
    elif isinstance(target, ast.Tuple | ast.List):
        elements = target.elts
        values: list[ast.expr | None] = [None] * len(elements)
        starred = any(isinstance(element, ast.Starred) for element in elements)
        if (
            isinstance(value, ast.Tuple | ast.List)
            and not starred
            and len(value.elts) == len(elements)
            and not any(isinstance(item, ast.Starred) for item in value.elts)
        ):
            values = list(value.elts)
        for element, item in zip(elements, values, strict=True):
            _bind(element, item, found)
    # Attributes and subscripts (``self.a, b[0] = ...``) bind no name here.


class Unpacking(griffe.Extension):
    """Binds the names of unpacking assignments at module and class level."""

    def on_attribute_node(self, *, node: Any, agent: Any, **kwargs: Any) -> None:
        if not isinstance(node, ast.Assign) or not isinstance(agent, griffe.Visitor):
            return
        parent = agent.current
        if parent.kind not in (griffe.Kind.MODULE, griffe.Kind.CLASS):
            return
        names = unpacked_names(node)
        if not names:
            return
        labels = {"module-attribute"} if parent.kind is griffe.Kind.MODULE else set()
        if parent.kind is griffe.Kind.CLASS:
            labels = {"class-attribute", "instance-attribute"}
        conditional = isinstance(getattr(node, "parent", None), ast.If | ast.ExceptHandler)
        for name, value in names:
            if name in parent.members and conditional:
                continue  # as griffe: the unconditional binding is preferred
            expression = (
                None
                if value is None
                else griffe.safe_get_expression(value, parent=parent, parse_strings=False)
            )
            attribute = griffe.Attribute(
                name=name,
                value=expression,
                lineno=node.lineno,
                endlineno=node.end_lineno,
                runtime=not agent.type_guarded,
                analysis="static",
            )
            attribute.labels.update(labels)
            parent.set_member(name, attribute)
