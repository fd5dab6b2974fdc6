"""What the link reads of one module beside griffe's members: ``__all__`` and ``__export__``
as written, the re-export forms of an import statement, ``:meta:`` fields, Sphinx ``#:``
comments, names bound only for type checkers, star-imports left unexpanded, and where an
import chain leads. Functions of one griffe module (or object), used by
:mod:`apisurface.surface.link.walker`."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

import griffe

from apisurface.surface.access import safe_str, safe_target_path, source_name
from apisurface.surface.stdlib import standard_class
from apisurface.surface.visit.facts import facts_of, import_forms_at

__all__ = [
    "call_documentation",
    "export_list",
    "import_forms",
    "leads_outside",
    "meta_field",
    "module_file",
    "outside_origin",
    "sphinx_comment",
    "standard_alias",
    "star_imports",
    "static_all",
    "type_checking_members",
    "type_checking_only",
]


def import_forms(
    mod: griffe.Module, alias: griffe.Object | griffe.Alias
) -> tuple[frozenset[str], frozenset[str]]:
    """The names the import statement binding ``alias`` re-exports by its form: redundant
    aliases (``A as A``, on any of its lines) and ``from . import x``, as the visit of the
    module's file read them."""
    lineno = getattr(alias, "alias_lineno", None) or alias.lineno or 0
    endlineno = getattr(alias, "alias_endlineno", None) or lineno
    return import_forms_at(mod, lineno, endlineno)


_META = re.compile(r"^\s*:meta\s+(private|public):\s*$", re.MULTILINE)


def meta_field(obj: griffe.Object | griffe.Alias) -> str | None:
    """A Sphinx ``:meta private:`` / ``:meta public:`` docstring field (POLICY.md 2.9)."""
    try:
        docstring = obj.docstring
    except Exception:  # noqa: BLE001 - an alias that does not resolve
        return None
    if docstring is None or ":meta" not in docstring.value:
        return None
    match = _META.search(docstring.value)
    return match.group(1) if match else None


def export_list(mod: griffe.Module) -> set[str] | None:
    """The names of PEP 842's ``__export__`` (like ``__all__``): empty when absent, None
    when it is not a literal list, tuple or set of strings."""
    member = mod.members.get("__export__")
    if member is None or member.is_alias or not member.is_attribute:
        return set()
    try:
        node = ast.parse(safe_str(getattr(member, "value", "")), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return None
    names = {item.value for item in node.elts if isinstance(item, ast.Constant)}
    if len(names) != len(node.elts) or not all(isinstance(item, str) for item in names):
        return None
    return {str(item) for item in names}


def leads_outside(mod: griffe.Module, path: str, internal: Callable[[str], bool]) -> bool:
    """Whether a chain of imports starting at ``path`` ends in another package."""
    return outside_origin(mod, path, internal) is not None


def outside_origin(mod: griffe.Module, path: str, internal: Callable[[str], bool]) -> str | None:
    """Where a chain of imports starting at ``path`` ends when that is in another package
    (``pkg.compat.OrderedDict`` -> ``collections.OrderedDict``), else None."""
    for _ in range(64):
        if not path:
            return None
        if not internal(path):
            return path
        try:
            found = mod.modules_collection.get_member(path)
        except Exception:  # noqa: BLE001 - missing: the chain dangles
            return None
        if not found.is_alias:
            return None
        path = safe_target_path(found)
    return None


_STATIC_ALL_NODES = (
    ast.Expression,
    ast.List,
    ast.Tuple,
    ast.Set,
    ast.BinOp,
    ast.Add,
    ast.Name,
    ast.Attribute,
    ast.Starred,
    ast.Load,
)


def sphinx_comment(obj: griffe.Attribute) -> bool:
    """Whether a Sphinx ``#:`` comment documents the assignment: on the line(s) right
    above it, or after the value on its own line (``LIMIT = 10  #: Requests per second``),
    as the visit of its file read them."""
    lineno = obj.lineno
    if not lineno:
        return False
    try:
        module = obj.module
    except Exception:  # noqa: BLE001 - an object griffe cannot place in a module
        return False
    return lineno in facts_of(module).sphinx_lines


def type_checking_members(cls: griffe.Class) -> frozenset[str]:
    """The members ``cls``'s body binds only under ``if TYPE_CHECKING:``: absent from its
    namespace at run time (as the visit of its file found them), memoised on the class."""
    memo = cls.extra["apisurface"]
    found: frozenset[str] | None = memo.get("type_checking_members")
    if found is None:
        try:
            module = cls.module
        except Exception:  # noqa: BLE001 - a class griffe cannot place in a module
            return frozenset()
        qualified = cls.path[len(module.path) + 1 :]
        names = facts_of(module).type_checking
        found = memo["type_checking_members"] = frozenset(
            name[len(qualified) + 1 :] for name in names if name.startswith(f"{qualified}.")
        )
    return found


def type_checking_only(mod: griffe.Module) -> frozenset[str]:
    """Names the module binds only for type checkers (``if TYPE_CHECKING:``), as the visit
    of its file found them."""
    return facts_of(mod).type_checking


def static_all(mod: griffe.Module) -> bool:
    """Whether ``__all__`` is literal: strings, lists, ``+`` and other modules' ``__all__``."""
    member = mod.members.get("__all__")
    if member is None or member.is_alias or not member.is_attribute:
        return True
    try:
        tree = ast.parse(safe_str(getattr(member, "value", "")), mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return False
    return all(
        isinstance(node, _STATIC_ALL_NODES)
        or (isinstance(node, ast.Constant) and isinstance(node.value, str))
        for node in ast.walk(tree)
    )


def module_file(mod: griffe.Module, dotted: str) -> str:
    """The file of the package module that holds ``dotted`` (the longest module prefix
    of it griffe knows), or ``""``."""
    parts = dotted.split(".")
    collection = mod.modules_collection
    for end in range(len(parts), 0, -1):
        try:
            found = collection.get_member(".".join(parts[:end]))
        except Exception:  # noqa: BLE001 - not a module griffe knows
            continue
        if isinstance(found, griffe.Module):
            return source_name(found)
    return ""


def star_imports(mod: griffe.Module) -> bool:
    """Whether ``mod`` holds a star-import griffe did not expand (a member whose name is
    not an identifier)."""
    return any(not name.isidentifier() for name in mod.members)


def call_documentation(obj: griffe.Object) -> str | None:
    """The documentation a class attribute assigned a call gives itself at run time: a
    literal ``doc=`` argument (werkzeug's ``header_property("Allow", doc=...)``,
    ``property(..., doc=...)``, also ``property``'s fourth argument), or the docstring of
    the getter of ``property(getter)`` defined in the class; None otherwise."""
    value = getattr(obj, "value", None)
    if not isinstance(value, griffe.ExprCall):
        return None
    positional = [item for item in value.arguments if not isinstance(item, griffe.ExprKeyword)]
    for item in value.arguments:
        if isinstance(item, griffe.ExprKeyword) and item.name == "doc":
            return _literal_text(item.value)
    if safe_str(value.function) not in ("property", "builtins.property"):
        return None
    if len(positional) >= 4:
        return _literal_text(positional[3])
    getter = positional[0] if positional else None
    holder = obj.parent
    if isinstance(getter, griffe.ExprName) and holder is not None:
        found = holder.members.get(getter.name)
        docstring = found.docstring if isinstance(found, griffe.Function) else None
        if docstring is not None and docstring.value.strip():
            return docstring.value
    return None


def _literal_text(value: object) -> str | None:
    try:
        node = ast.parse(safe_str(value), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip():
        return node.value
    return None


def standard_alias(obj: griffe.Object) -> str | None:
    """The standard-library class a class attribute is an alias of (``node_dict_factory =
    dict``, ``num_type = decimal.Decimal``), as a dotted name; None otherwise. Such a member
    is that class at run time, documented by it: public with kind ``external``."""
    if not isinstance(obj, griffe.Attribute) or not isinstance(obj.parent, griffe.Class):
        return None
    value = obj.value
    for _ in range(8):  # through module-level aliases: ``_DEFAULT = queue.LifoQueue``
        if not isinstance(value, (griffe.ExprName, griffe.ExprAttribute)):
            return None
        try:
            dotted = value.canonical_path
        except Exception:  # noqa: BLE001 - unresolvable: not known to be one
            return None
        if standard_class(dotted) is not None:
            return dotted
        try:
            found = obj.modules_collection.get_member(dotted)
        except Exception:  # noqa: BLE001 - outside the package, and no standard class
            return None
        if not isinstance(found, griffe.Attribute) or found is obj:
            return None
        value = found.value
    return None
