"""A visited module as plain data: one file's griffe tree as JSON, checked against a schema.

A visit's product (:func:`apisurface.surface.visit.modules.visit_file`) crosses two boundaries: from
a worker process to the main one, and from one run to the next through the per-module
cache (:mod:`apisurface.store.modules`), which a pull request may have written. Both times
it travels as JSON in the form written here, never as a pickle: JSON can name no function
and hold no shared reference, so an entry can neither run code nor unfold into more nodes
than it spells. Reading it back builds only the classes of :data:`SCHEMA` (griffe's model
and expression classes), and only with the attributes the schema lists, each of the type
it says; anything else (an unknown class or attribute, a value of the wrong type, a member
whose parent is not its holder, an alias already resolved) makes the whole entry a miss.

An entry is two lines: the summary (its format, problems and :class:`ModuleFacts`), then
griffe's tree of the module. The summary is read first and alone (:func:`read_summary`): what
files a package's visit reaches, and whether the package's linked surface is already known
for these summaries, need no tree; the tree is read only when the link runs (:func:`read_tree`).

The form of a value (``encode``/``decode``):

- ``None``, ``True``/``False``, integers and strings are themselves;
- a container is a JSON list whose first item says what it is: ``["L", ...]`` a list,
  ``["T", ...]`` a tuple, ``["S", ...]`` a set, ``["F", ...]`` a frozenset, ``["D", {...}]``
  a dict with string keys, ``["DD", {...}]`` / ``["DL", {...}]`` a ``defaultdict`` of dicts /
  of lists, ``["P", "a/b.py"]`` a path, ``["E", "ParameterKind", "keyword-only"]`` a member
  of one of griffe's enumerations;
- an object of the schema is ``["O", "Class", {attribute: value, ...}]``, numbered in the
  order objects are opened (attributes in the schema's order, back-pointers first); an
  attribute that holds its default (None, an empty container) is left out and the reader
  puts a fresh default back, every other attribute of the schema must be there;
- ``["R", n]`` names the object numbered ``n`` (a reference): allowed only in the attributes
  that point back (``parent``, a parameter's ``function``), never in one that holds a
  value, so what is held is a tree. A name's scope may come later in the file than the
  name (``self.x = y`` in ``__init__`` gives a class attribute whose value's scope is
  ``__init__``), so references are resolved once the tree is read; then every chain of them
  must end (no cycle), and none may be longer than :data:`MAX_CHAIN`.

Reading is bounded by the entry's size: the caller caps the bytes (before reading them),
:data:`MAX_DEPTH` caps the nesting and ``max_nodes`` the objects built.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from enum import Enum
from pathlib import Path
from typing import Any, NamedTuple

import griffe

from apisurface.model import Problem
from apisurface.surface.visit import facts as summaries
from apisurface.surface.visit.facts import ModuleFacts

__all__ = [
    "MAX_CHAIN",
    "MAX_DEPTH",
    "SCHEMA",
    "Product",
    "Summary",
    "Unfit",
    "decode_product",
    "encode_product",
    "read_summary",
    "read_tree",
]

FORMAT = 11
"""Raise when the form or the schema changes (the entry key includes it). 5: export
candidates (``ModuleFacts.exports``); 6: function bodies; 7: import forms, Sphinx comments;
8: ``references``; 9: the summary and the tree on two lines (the summary read without the
tree); 10: ``served``, ``branch_kinds``, ``docsets``, ``loads`` (issue 36); 11: a problem's
``column`` and ``error`` (a file that does not parse: issue 37)."""

MAX_DEPTH = 400
"""Containers nested deeper than this are refused (griffe gives up on expressions long
before: it builds them recursively)."""

MAX_CHAIN = 100
"""Longest chain of back-pointers (a name's parent's parent ...): real modules stay far below
it, and griffe follows such chains recursively (``ExprName.canonical_path``)."""

Product = tuple[griffe.Module | None, list[Problem], list[Problem], ModuleFacts]
"""What visiting one file gives: its module (None when griffe could not read the file),
the problems that cost, the expressions griffe gave up on, and the facts of its text the
link needs (its summary, :mod:`apisurface.surface.visit.facts`)."""


class Unfit(ValueError):
    """A value that is not in the schema: not encodable, or an entry that is refused."""


# --- the schema ---------------------------------------------------------------------------

_OBJECT = "Module|Class|Function|Attribute|TypeAlias"
_COMMON = {
    # griffe's attributes of every object, as a visit leaves them: detached (no lines or
    # modules collection), no reverse aliases yet, no git information.
    "parent": f"ref[{_OBJECT}]|None",
    "name": "str",
    "lineno": "int|None",
    "endlineno": "int|None",
    "docstring": "Docstring|None",
    "members": "members",
    "labels": "set[str]|frozenset[str]",
    "imports": "dict[str]",
    "exports": "list[str|Expr]|None",
    "aliases": "dict[Never]",
    "runtime": "bool",
    "extra": "extra",
    "public": "bool|None",
    "deprecated": "bool|str|None",
    "analysis": "str|None",
    "type_parameters": "TypeParameters",
    "_lines_collection": "None",
    "_modules_collection": "None",
    "_git_info": "None",
    "_source_link": "None",
}
_MODEL: dict[str, dict[str, str]] = {
    "Module": {**_COMMON, "_filepath": "Path|None", "overloads": "dlist[list[Function]]"},
    "Class": {
        **_COMMON,
        "bases": "list[str|Expr]",
        "decorators": "list[Decorator]",
        "keywords": "dict[str|Expr]",
        "overloads": "dlist[list[Function]]",
    },
    "Function": {
        **_COMMON,
        "decorators": "list[Decorator]",
        "parameters": "Parameters",
        "returns": "str|Expr|None",
        "overloads": "list[Function]|None",
    },
    "Attribute": {
        **_COMMON,
        "value": "str|Expr|None",
        "annotation": "str|Expr|None",
        "setter": "Function|None",
        "deleter": "Function|None",
    },
    "TypeAlias": {**_COMMON, "value": "str|Expr"},
    "Alias": {
        "_parent": f"ref[{_OBJECT}]|None",
        "name": "str",
        "target_path": "str",
        "alias_lineno": "int|None",
        "alias_endlineno": "int|None",
        "runtime": "bool",
        "inherited": "bool",
        "analysis": "str|None",
        "deprecated": "bool|str|None",
        "wildcard_imported": "bool",
        "_public": "bool|None",
        "_passed_through": "bool",
        "_target": "None",  # a visit leaves every alias unresolved
    },
    "Docstring": {
        "parent": f"ref[{_OBJECT}]|None",
        "value": "str",
        "lineno": "int|None",
        "endlineno": "int|None",
        "parser": "Parser|None",
        "parser_options": "dict[str|int|bool|None]",
    },
    "Decorator": {"value": "str|Expr", "lineno": "int|None", "endlineno": "int|None"},
    "Parameter": {
        "function": "ref[Function]|None",
        "name": "str",
        "annotation": "str|Expr|None",
        "kind": "ParameterKind|None",
        "default": "str|Expr|None",
        "docstring": "Docstring|None",
    },
    "Parameters": {"_params": "list[Parameter]"},
    "TypeParameters": {"_type_params": "list[TypeParameter]"},
    "TypeParameter": {
        "name": "str",
        "kind": "TypeParameterKind",
        "annotation": "str|Expr|None",
        "default": "str|Expr|None",
    },
}
_EXTRA: dict[str, str] = {}
"""What a visit may leave in a module's ``extra["apisurface"]``: nothing (the facts of the
file the link needs travel as a :class:`~apisurface.surface.visit.facts.ModuleFacts`)."""

_ENUMS: dict[str, type[Enum]] = {
    "ParameterKind": griffe.ParameterKind,
    "TypeParameterKind": griffe.TypeParameterKind,
    "Parser": griffe.Parser,
}
# Each enumeration's members by value: what calling the enumeration with a value gives.
_ENUM_VALUES: dict[str, dict[object, Enum]] = {
    name: {member.value: member for member in enumeration} for name, enumeration in _ENUMS.items()
}


def _expression_classes() -> dict[str, type[Any]]:
    return {
        name: value
        for name, value in vars(griffe).items()
        if isinstance(value, type)
        and issubclass(value, griffe.Expr)
        and value is not griffe.Expr
        and is_dataclass(value)
    }


_EXPRESSIONS = _expression_classes()


def _expression_schema(cls: type) -> dict[str, str]:
    """An expression's fields, from their annotations (``Sequence[str | Expr]`` ...)."""
    schema: dict[str, str] = {}
    for item in fields(cls):
        spelled = str(item.type).replace(" ", "")
        spelled = re.sub(r"Sequence\[([^\]]*)\]", r"list[\1]|tuple[\1]", spelled)
        if cls is griffe.ExprName and item.name == "parent":
            # A name's scope, or the name before it in ``a.b``: back-pointers.
            spelled = f"str|ref[ExprName|{_OBJECT}]|None"
        elif cls is griffe.ExprKeyword and item.name == "function":
            # The function of the call the keyword is passed to, held by the call.
            spelled = f"str|ref[{'|'.join(_EXPRESSIONS)}]|None"
        schema[item.name] = spelled
    return schema


SCHEMA: dict[str, dict[str, str]] = {
    **_MODEL,
    **{name: _expression_schema(cls) for name, cls in _EXPRESSIONS.items()},
}
"""Every class an entry may build, with its attributes and their types."""

_CLASSES: dict[str, type[Any]] = {
    **{name: getattr(griffe, name) for name in _MODEL},
    **_EXPRESSIONS,
}


class _Type:
    """One attribute's type, parsed from the schema: what each form of value may hold."""

    __slots__ = (
        "containers",
        "default",
        "enums",
        "extra",
        "members",
        "nodes",
        "pair",
        "path",
        "refs",
        "scalars",
    )

    def __init__(self) -> None:
        self.scalars: set[type] = set()
        self.nodes: set[str] = set()
        self.refs: set[str] = set()
        self.containers: dict[str, _Type] = {}  # by tag: "L", "T", "S", "F", "D", "DD", "DL"
        self.pair: tuple[_Type, ...] | None = None
        self.enums: set[str] = set()
        self.path = self.members = self.extra = False
        self.default: Callable[[], Any] | None = None
        """What an attribute holds when the entry leaves it out (None, or an empty container)."""


_SCALAR_NAMES: dict[str, type] = {"str": str, "int": int, "bool": bool, "None": type(None)}
_CONTAINER_TAGS = {
    "list": "L",
    "tuple": "T",
    "set": "S",
    "frozenset": "F",
    "dict": "D",
    "ddict": "DD",
    "dlist": "DL",
}
_MAKERS: dict[str, Callable[[], Any]] = {
    "L": list,
    "S": set,
    "D": dict,
    "DD": lambda: defaultdict(dict),
    "DL": lambda: defaultdict(list),
}


def _split(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` outside brackets."""
    parts: list[str] = []
    depth = start = 0
    for index, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts


def _parse(text: str) -> _Type:
    parsed = _Type()
    for part in _split(text, "|"):
        head, _, rest = part.partition("[")
        argument = rest[:-1]
        if head in _SCALAR_NAMES:
            parsed.scalars.add(_SCALAR_NAMES[head])
        elif head == "Path":
            parsed.path = True
        elif head == "members":
            parsed.members = True
            parsed.containers["D"] = _parse("Module|Class|Function|Attribute|TypeAlias|Alias")
        elif head == "extra":
            parsed.extra = True
        elif head == "Never":
            pass
        elif head in _ENUMS:
            parsed.enums.add(head)
        elif head == "Expr":
            # griffe's annotations say Expr where its builders also leave plain strings
            # (``ExprList.elements``, ``ExprCall.function``): both are expressions here.
            parsed.nodes.update(_EXPRESSIONS)
            parsed.scalars.add(str)
        elif head in _CLASSES:
            parsed.nodes.add(head)
        elif head == "ref":
            parsed.refs.update(_split(argument, "|"))
        elif head == "tuple" and len(_split(argument, ",")) > 1:
            parsed.pair = tuple(_parse(item) for item in _split(argument, ","))
        elif head in _CONTAINER_TAGS:
            parsed.containers[_CONTAINER_TAGS[head]] = _parse(argument)
        else:
            raise AssertionError(f"unknown type {part!r} in the schema")  # pragma: no cover
    if type(None) in parsed.scalars:
        parsed.default = _none
    elif parsed.nodes in ({"Parameters"}, {"TypeParameters"}):
        parsed.default = getattr(griffe, next(iter(parsed.nodes)))  # an empty list of them
    elif parsed.extra:
        parsed.default = _MAKERS["DD"]
    else:
        first = next(iter(parsed.containers), None)
        parsed.default = _MAKERS.get(first) if first is not None else None
    return parsed


_none: Callable[[], None] = type(None)  # makes None: the default of an optional attribute


_TYPES: dict[str, dict[str, _Type]] = {
    cls: {name: _parse(spelled) for name, spelled in attributes.items()}
    for cls, attributes in SCHEMA.items()
}
_EXTRA_TYPES = {name: _parse(spelled) for name, spelled in _EXTRA.items()}
_MODULE = _parse("Module")
_BACK: dict[str, tuple[str, ...]] = {
    cls: tuple(name for name, kind in types.items() if kind.refs and not kind.nodes)
    for cls, types in _TYPES.items()
}
"""Attributes that point back (up the tree, or to an earlier sibling): references only,
read before the others."""
_NAMES: dict[type, str] = {cls: name for name, cls in _CLASSES.items()}
_SLOTTED: dict[str, tuple[str, ...]] = {
    name: tuple(item.name for item in fields(cls)) for name, cls in _EXPRESSIONS.items()
}
_SCALARS = frozenset({str, int, bool, type(None)})
_SEQUENCES: dict[type, str] = {list: "L", tuple: "T", set: "S", frozenset: "F"}


# --- writing ------------------------------------------------------------------------------


class _Encoder:
    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.numbers: dict[int, int] = {}
        self.kept: list[object] = []  # ids stay unique while encoding
        self.references: list[tuple[list[Any], object]] = []

    def tree(self, module: object) -> list[Any]:
        tree = self.node(module, "Module")
        for reference, target in self.references:
            number = self.numbers.get(id(target))
            if number is None:
                raise Unfit("a reference to an object outside the tree")
            reference[1] = number
        return tree

    def value(self, value: object, kind: _Type) -> Any:
        cls = type(value)
        if cls in _SCALARS:
            if cls not in kind.scalars:
                raise Unfit(f"{cls.__name__} where another type is expected")
            return value
        name = _NAMES.get(cls)
        if name is not None:
            if name in kind.nodes:
                # Held here: written out (again, when griffe shares it: ``a = b = (...)``
                # gives both attributes one value; the reader makes two equal ones).
                return self.node(value, name)
            if name not in kind.refs:
                raise Unfit(f"a {name} where another type is expected")
            reference: list[Any] = ["R", None]  # numbered once the whole tree is
            self.references.append((reference, value))
            return reference
        tag = _SEQUENCES.get(cls)
        if tag is not None:
            if tag == "T" and kind.pair is not None:
                items = list(value)  # type: ignore[call-overload]
                if len(items) != len(kind.pair):
                    raise Unfit("a tuple of another length")
                return [
                    "T",
                    *(self.value(item, t) for item, t in zip(items, kind.pair, strict=True)),
                ]
            inner = kind.containers.get(tag)
            if inner is None:
                raise Unfit(f"a {cls.__name__}")
            listed: list[Any] = list(value)  # type: ignore[call-overload]
            if tag in ("S", "F"):
                listed.sort()
            return [tag, *(self.value(item, inner) for item in listed)]
        if cls is dict or cls is defaultdict:
            factory = getattr(value, "default_factory", None)
            tag = (
                "D" if cls is dict else "DD" if factory is dict else "DL" if factory is list else ""
            )
            inner = kind.containers.get(tag)
            if inner is None:
                raise Unfit(f"a {cls.__name__}")
            mapping: dict[Any, Any] = value  # type: ignore[assignment]
            if not all(type(key) is str for key in mapping):
                raise Unfit("a key that is not a string")
            return [tag, {key: self.value(item, inner) for key, item in mapping.items()}]
        if isinstance(value, Enum):
            if cls.__name__ not in kind.enums or _ENUMS[cls.__name__] is not cls:
                raise Unfit(f"enumeration {cls.__name__}")
            return ["E", cls.__name__, value.value]
        if isinstance(value, Path) and kind.path:
            return ["P", value.as_posix()]
        raise Unfit(f"a {cls.__name__}")

    def node(self, value: object, cls: str) -> list[Any]:
        if len(self.kept) >= self.max_nodes:
            raise Unfit("more objects than the file can define")
        self.numbers[id(value)] = len(self.kept)
        self.kept.append(value)
        types = _TYPES[cls]
        slots = _SLOTTED.get(cls)
        state = {name: getattr(value, name) for name in slots} if slots else value.__dict__
        if slots is None and state.keys() != types.keys():
            raise Unfit(f"{cls} with attributes {sorted(state.keys() ^ types.keys())}")
        attributes: dict[str, Any] = {}
        for name in _BACK[cls]:
            attributes[name] = self.value(state[name], types[name])
        for name, kind in types.items():  # in the order the reader numbers objects
            item = state[name]
            if name in attributes:
                continue
            if item is None and kind.default is _none:
                continue
            if kind.extra:
                attributes[name] = self.extra(item)
            elif not item and kind.default is not None and type(item) is type(kind.default()):
                continue  # an empty container, as the reader makes it
            else:
                attributes[name] = self.value(item, kind)
        return ["O", cls, attributes]

    def extra(self, extra: object) -> list[Any]:
        if type(extra) is not defaultdict or extra.default_factory is not dict:
            raise Unfit("extra")
        out: dict[str, Any] = {}
        for namespace, values in extra.items():
            if namespace != "apisurface" or type(values) is not dict:
                raise Unfit(f"extra[{namespace!r}]")
            if values:  # else griffe's defaultdict made it by being asked
                unknown = values.keys() - _EXTRA_TYPES.keys()
                if unknown:
                    raise Unfit(f"extra keys {sorted(unknown)}")
                out[namespace] = {
                    key: self.value(item, _EXTRA_TYPES[key]) for key, item in values.items()
                }
        return ["DD", out]


def encode_product(product: Product, max_nodes: int) -> bytes | None:
    """``product`` as JSON bytes, or None when it does not fit the schema, has more than
    ``max_nodes`` objects or is nested too deeply to write: then it is used where it was
    made, never stored or sent.

    Two JSON documents on two lines: the summary (format, problems, facts), then the
    module's tree (see :func:`read_summary`: the summary is read without the tree)."""
    module, problems, given_up, facts = product
    try:
        tree = None if module is None else _Encoder(max_nodes).tree(module)
        head = {
            "format": FORMAT,
            "problems": [_problem_value(item) for item in problems],
            "given_up": [_problem_value(item) for item in given_up],
            "facts": summaries.encode(facts),
        }
        texts = (
            json.dumps(item, ensure_ascii=False, separators=(",", ":"), check_circular=False)
            for item in (head, tree)
        )
        # JSON written this way holds no line break (one in a string is escaped).
        return "\n".join(texts).encode("utf-8", "surrogatepass")
    except (Unfit, RecursionError, MemoryError, TypeError, ValueError):
        return None


# --- reading ------------------------------------------------------------------------------


# What an attribute is to the reader (_Shape.roles): a value, a back-pointer (read first),
# ``extra``, or the members of an object (whose parent must be that object).
_VALUE_ROLE, _BACK_ROLE, _EXTRA_ROLE, _MEMBERS_ROLE = object(), object(), object(), object()


class _Shape:
    """How the reader builds one class: its attribute types, the back-pointers, and what an
    attribute left out of the entry holds."""

    __slots__ = (
        "back",
        "cls",
        "factories",
        "fixed",
        "names",
        "required",
        "roles",
        "slotted",
        "types",
    )

    def __init__(self, name: str) -> None:
        self.cls = _CLASSES[name]
        self.types = _TYPES[name]
        self.names = frozenset(self.types)
        self.back = _BACK[name]
        self.roles = {
            attribute: (
                kind,
                _BACK_ROLE
                if attribute in self.back
                else _EXTRA_ROLE
                if kind.extra
                else _MEMBERS_ROLE
                if kind.members
                else _VALUE_ROLE,
            )
            for attribute, kind in self.types.items()
        }
        self.slotted = name in _SLOTTED
        self.fixed = {n: None for n, t in self.types.items() if t.default is _none}
        self.factories = [
            (n, t.default)
            for n, t in self.types.items()
            if t.default is not None and t.default is not _none
        ]
        self.required = frozenset(n for n, t in self.types.items() if t.default is None)


_SHAPES = {name: _Shape(name) for name in SCHEMA}


class _Decoder:
    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.nodes: list[object] = []
        self.lengths: list[int] = []  # per node: its longest chain of references, -1 unknown
        self.targets: dict[int, list[int]] = {}  # per node whose length is unknown
        self.later: list[tuple[object, str, int, _Type]] = []  # references set by resolve()
        self.depth = 0

    def value(self, data: Any, kind: _Type, holder: object | None = None) -> Any:
        cls = type(data)
        if cls in _SCALARS:
            if cls not in kind.scalars:
                raise Unfit(f"{cls.__name__} where another type is expected")
            return data
        if cls is not list or not data:
            raise Unfit("not a value")
        tag = data[0]
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unfit("nested too deeply")
        if tag == "O":
            if len(data) != 3 or data[1] not in kind.nodes:
                raise Unfit("an object where another type is expected")
            made = self.node(data[1], data[2], holder)
        else:
            made = self._container(tag, data, kind, holder)
        self.depth -= 1
        return made

    def _container(self, tag: object, data: list[Any], kind: _Type, holder: object | None) -> Any:
        if tag == "T" and kind.pair is not None:
            if len(data) - 1 != len(kind.pair):
                raise Unfit("a tuple of another length")
            return tuple(self.value(item, t) for item, t in zip(data[1:], kind.pair, strict=True))
        inner = kind.containers.get(tag) if type(tag) is str else None
        if inner is not None:
            if tag in ("D", "DD", "DL"):
                if len(data) != 2 or type(data[1]) is not dict:
                    raise Unfit("not a mapping")
                mapping = _MAKERS[tag]()
                if kind.members:
                    for name, item in data[1].items():
                        member = self.value(item, inner, holder)
                        if member.name != name:
                            raise Unfit("a member under another name")
                        mapping[name] = member
                else:
                    for name, item in data[1].items():
                        mapping[name] = self.value(item, inner)
                return mapping
            items = [self.value(item, inner) for item in data[1:]]
            if tag == "L":
                return items
            return (tuple if tag == "T" else set if tag == "S" else frozenset)(items)
        if tag == "E" and len(data) == 3 and data[1] in kind.enums:
            members = _ENUM_VALUES[data[1]]
            value = data[2]
            if type(value) is not str or value not in members:
                raise Unfit("not a member of the enumeration")
            return members[value]
        if tag == "P" and kind.path and len(data) == 2 and type(data[1]) is str:
            return Path(data[1])
        raise Unfit(f"{tag!r} where another type is expected")

    def node(self, name: str, attributes: Any, holder: object | None) -> object:
        shape = _SHAPES[name]
        if type(attributes) is not dict:
            raise Unfit(f"{name} with other attributes")
        keys = attributes.keys()
        if not keys <= shape.names:
            raise Unfit(f"{name} with other attributes")
        if not shape.required <= keys:
            raise Unfit(f"{name} without {sorted(shape.required - keys)}")
        nodes = self.nodes
        number = len(nodes)
        if number >= self.max_nodes:
            raise Unfit("more objects than the file can define")
        made: object = object.__new__(shape.cls)
        nodes.append(made)
        self.lengths.append(0)
        state: dict[str, Any] = shape.fixed.copy()
        if shape.back:
            targets: list[int] = []
            types = shape.types
            for attribute in shape.back:
                if attribute in attributes:
                    state[attribute] = self.reference(
                        made,
                        number,
                        attribute,
                        types[attribute],
                        attributes[attribute],
                        targets=targets,
                    )
                if holder is not None and state[attribute] is not holder:
                    raise Unfit("a member whose parent is not its holder")
            if self.lengths[number] < 0:
                self.targets[number] = targets  # its length is known once resolve() ran
        for attribute, factory in shape.factories:
            if attribute not in attributes:
                state[attribute] = factory()
        roles = shape.roles
        for attribute, data in attributes.items():
            kind, role = roles[attribute]
            cls = type(data)
            if cls in _SCALARS:
                if cls not in kind.scalars:
                    raise Unfit(f"{cls.__name__} where another type is expected")
                state[attribute] = data
            elif role is _BACK_ROLE:
                continue
            elif role is _EXTRA_ROLE:
                state[attribute] = self.extra(data)
            elif cls is list and len(data) == 3 and data[0] == "O":
                # An object held here (the most common value): what value() would do.
                if data[1] not in kind.nodes:
                    raise Unfit("an object where another type is expected")
                self.depth += 1
                if self.depth > MAX_DEPTH:
                    raise Unfit("nested too deeply")
                state[attribute] = self.node(data[1], data[2], None)
                self.depth -= 1
            else:
                state[attribute] = self.value(data, kind, made if role is _MEMBERS_ROLE else None)
        if shape.slotted:
            for attribute, item in state.items():
                object.__setattr__(made, attribute, item)
        else:
            made.__dict__.update(state)
        return made

    def reference(
        self,
        made: object,
        number: int,
        attribute: str,
        kind: _Type,
        data: Any,
        *,
        targets: list[int],
    ) -> object:
        """The object a back-pointer names, or None when it comes later (set by resolve());
        its number is added to ``targets``."""
        if type(data) in _SCALARS:
            if type(data) not in kind.scalars:
                raise Unfit("not a reference")
            return data
        if not (type(data) is list and len(data) == 2 and data[0] == "R" and type(data[1]) is int):
            raise Unfit("not a reference")
        target = data[1]
        targets.append(target)
        if 0 <= target < number:
            found = self.nodes[target]
            if _NAMES[type(found)] not in kind.refs:
                raise Unfit("a reference to another kind of object")
            length = self.lengths[target]
            if length >= 0 and self.lengths[number] >= 0:
                if length + 1 > MAX_CHAIN:
                    raise Unfit("a chain of references too long")
                self.lengths[number] = max(self.lengths[number], length + 1)
            else:
                self.lengths[number] = -1
            return found
        self.later.append((made, attribute, target, kind))
        self.lengths[number] = -1
        return None

    def resolve(self) -> None:
        """Set the references to objects that came later, then check that every chain of
        references ends within :data:`MAX_CHAIN` steps."""
        for made, attribute, target, kind in self.later:
            if not 0 <= target < len(self.nodes):
                raise Unfit("a reference to no object")
            found = self.nodes[target]
            if _NAMES[type(found)] not in kind.refs:
                raise Unfit("a reference to another kind of object")
            object.__setattr__(made, attribute, found)
        lengths = self.lengths
        for start, length in enumerate(lengths):
            if length >= 0:
                continue
            path = [start]  # followed down to known lengths, then unwound
            on_path = {start}
            while path:
                current = path[-1]
                unknown = [t for t in self.targets.get(current, ()) if lengths[t] < 0]
                if unknown:
                    if unknown[0] in on_path:
                        raise Unfit("a cycle of references")
                    path.append(unknown[0])
                    on_path.add(unknown[0])
                    continue
                found = 1 + max((lengths[t] for t in self.targets.get(current, ())), default=-1)
                if found > MAX_CHAIN:
                    raise Unfit("a chain of references too long")
                lengths[current] = found
                path.pop()
                on_path.discard(current)

    def extra(self, data: Any) -> defaultdict[str, dict[str, Any]]:
        if not (
            type(data) is list and len(data) == 2 and data[0] == "DD" and type(data[1]) is dict
        ):
            raise Unfit("extra")
        extra: defaultdict[str, dict[str, Any]] = defaultdict(dict)
        for namespace, values in data[1].items():
            if namespace != "apisurface" or type(values) is not dict:
                raise Unfit("extra namespace")
            for key, item in values.items():
                if key not in _EXTRA_TYPES:
                    raise Unfit("extra key")
                extra[namespace][key] = self.value(item, _EXTRA_TYPES[key])
        return extra


def _problem_value(problem: Problem) -> dict[str, Any]:
    value = {name: getattr(problem, name) for name in _PROBLEM_TYPES}
    value["related"] = list(problem.related)
    return value


_MAX_PROBLEMS = 10_000
_PROBLEM_TYPES: dict[str, tuple[type, ...]] = {
    "file": (str,),
    "message": (str,),
    "line": (int,),
    "path": (str,),
    "related": (list,),
    "digest": (str, type(None)),
    "decided": (bool,),
    "column": (int,),
    "error": (bool,),
}
"""Each field of :class:`~apisurface.model.Problem` and the types its JSON value may have."""


def _problems(items: object) -> list[Problem]:
    """Problems read back from their JSON objects (every field of its type)."""
    if type(items) is not list or len(items) > _MAX_PROBLEMS:
        raise Unfit("problems are not a list")
    found: list[Problem] = []
    for item in items:
        if type(item) is not dict or item.keys() != _PROBLEM_TYPES.keys():
            raise Unfit("a problem is not an object of its fields")
        if not all(type(item[key]) in kinds for key, kinds in _PROBLEM_TYPES.items()) or not all(
            type(name) is str for name in item["related"]
        ):
            raise Unfit("a problem's field has the wrong type")
        found.append(Problem(**{**item, "related": tuple(item["related"])}))
    return found


class Summary(NamedTuple):
    """What an entry says of its file without its tree: the problems, the expressions
    griffe gave up on, the facts, and the tree still as JSON (:func:`read_tree`)."""

    problems: list[Problem]
    given_up: list[Problem]
    facts: ModuleFacts
    tree: bytes


def read_summary(data: bytes) -> Summary:
    """The summary part of an entry (:func:`encode_product`), checked; its tree is left as
    bytes. Raise :class:`Unfit` when the bytes are not an entry."""
    head, newline, tree = data.partition(b"\n")
    if not newline:
        raise Unfit("not an entry of two lines")
    try:
        entry = json.loads(head)
    except (ValueError, RecursionError, UnicodeDecodeError) as error:
        raise Unfit("not JSON") from error
    if type(entry) is not dict or entry.keys() != _SUMMARY_KEYS:
        raise Unfit("not a product")
    if entry["format"] != FORMAT:
        raise Unfit("another format")
    problems, given_up = _problems(entry["problems"]), _problems(entry["given_up"])
    try:
        facts = summaries.decode(entry["facts"])
    except summaries.Unfit as error:
        raise Unfit(str(error)) from error
    return Summary(problems, given_up, facts, tree)


def read_tree(tree: bytes, max_nodes: int) -> griffe.Module | None:
    """The module's tree of an entry (:attr:`Summary.tree`), building at most ``max_nodes``
    objects; raise :class:`Unfit` when the bytes are not one."""
    try:
        value = json.loads(tree)
    except (ValueError, RecursionError, UnicodeDecodeError) as error:
        raise Unfit("not JSON") from error
    if value is None:
        return None
    decoder = _Decoder(max_nodes)
    try:
        module = decoder.value(value, _MODULE)
        decoder.resolve()
    except RecursionError as error:
        raise Unfit("nested too deeply") from error
    if module.parent is not None:
        raise Unfit("a module with a parent")
    return module  # type: ignore[no-any-return]


def decode_product(data: bytes, max_nodes: int) -> Product:
    """A product read back from JSON bytes (:func:`encode_product`), building at most
    ``max_nodes`` objects; raise :class:`Unfit` when the bytes are not one."""
    summary = read_summary(data)
    module = read_tree(summary.tree, max_nodes)
    return module, summary.problems, summary.given_up, summary.facts


_SUMMARY_KEYS = frozenset({"format", "problems", "given_up", "facts"})
