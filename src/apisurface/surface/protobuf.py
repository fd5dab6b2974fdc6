"""Protocol buffer modules (``*_pb2.py``), read from the descriptor protoc embeds in them.

protoc's Python modules build their message and enum classes at import time, from a
serialized ``FileDescriptorProto`` passed to ``AddSerializedFile`` (or, from older
generators, to ``FileDescriptor(serialized_pb=...)``). Statically they define nothing, so
POLICY.md section 2 item 12 asks for the descriptor itself: the bytes literal is taken from
the module's syntax tree and parsed with the ``protobuf`` package's ``descriptor_pb2`` (a
data parser: the module is never imported or run).

Per file and pure, like the rest of the visit: :func:`read_module` turns one module's text
into a :class:`ProtoModule`, which holds

- ``stub``: Python source that defines what importing the module defines (a class per
  message and enum, nested as in the ``.proto``, an attribute per field, enum values as enum
  members, and the values of top-level and nested enums where protobuf also offers them,
  as aliases of the enum members); griffe visits it in place of the generated text, so
  re-exports, ``__all__`` and declared exports treat messages like any other class;
- ``facts``: for each defined path (``pkg.foo_pb2.Point.x``), the wire facts a diff
  compares (:class:`ProtoFact`): a field's number, type and cardinality, an enum value's
  number, a message's reserved numbers and names; and which of them protoc marks
  ``deprecated``.

A ``*_pb2.pyi`` beside the module says the same things with less (no numbers): the
descriptor supersedes it. Names containing ``experimental`` are left in the stub: the
policy's own rule takes them out of the contract like any other path.
"""

from __future__ import annotations

import ast
import keyword
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from apisurface.model import Location, Problem, Symbol, SymbolKind
from apisurface.project.sources import SourceFile

if TYPE_CHECKING:
    from google.protobuf.descriptor_pb2 import (
        DescriptorProto,
        EnumDescriptorProto,
        FieldDescriptorProto,
        FileDescriptorProto,
    )

__all__ = [
    "ProtoFact",
    "ProtoModule",
    "enum_number",
    "is_generated_module",
    "is_reserved",
    "parse_field",
    "python_type",
    "read_module",
    "stub_sources",
    "wire_group",
    "with_facts",
]

MAX_DESCRIPTOR_BYTES = 4 * 1024 * 1024
"""The largest embedded descriptor read (TensorFlow's largest is under 100 KB)."""
MAX_NAME_CHARS = 512
"""The longest name (of a message, enum, field, value or package) read: a longer one makes
the module unknown. Each field's stub and facts repeat its message's full name, so a
10,000-character name made a 630 KB module a 201 MB stub."""
STUB_RATIO = 16
"""The stub and facts of a descriptor may be at most this many times its size (plus
:data:`STUB_SLACK`); real modules measured 1.3-3.7 (google.protobuf's own)."""
STUB_SLACK = 64 * 1024
MAX_NESTING = 90
"""Messages nested deeper make the module unknown (Python allows 100 indentation levels)."""


class _Unreadable(Exception):
    """The descriptor is readable, but its stub would not be bounded: the module is unknown."""


@dataclass(frozen=True, slots=True)
class ProtoFact:
    """What the wire format knows of one path. ``text`` is its stable spelling, stored in
    snapshots as a symbol's ``proto`` (``field 3 int32 optional``, ``enum_value 2``,
    ``message reserved 4-5,9 names old,legacy``); :func:`parse_fact` reads it back."""

    text: str
    deprecated: bool = False
    line: int = 0
    """The line of the descriptor in the generated module (reports name it)."""
    alias_of: str | None = None
    """For an enum value protobuf also offers on the enclosing module or message
    (``demo_pb2.RED`` beside ``demo_pb2.Color.RED``): the enum member's path. Both paths
    are one object, so a change to it is reported once."""


@dataclass(slots=True)
class ProtoModule:
    """One ``*_pb2`` module read from its descriptor."""

    stub: str
    facts: dict[str, ProtoFact] = field(default_factory=dict)
    proto_file: str = ""
    line: int = 0
    """The line of the generated module that holds the descriptor: where each of its
    objects is defined, as far as the module's text can say."""


def stub_sources(
    files: list[SourceFile],
) -> tuple[list[SourceFile], dict[str, ProtoFact], list[Problem]]:
    """``files`` with each protoc-generated module replaced by the stub of its descriptor
    (and its ``.pyi``, which says less, left out), the facts of every stubbed path, and a
    problem per generated module whose descriptor cannot be read."""
    facts: dict[str, ProtoFact] = {}
    problems: list[Problem] = []
    stubbed: set[str] = set()
    result: list[SourceFile] = []
    for item in files:
        if not is_generated_module(item.relpath, item.text):
            result.append(item)
            continue
        read = read_module(item.module, item.relpath, item.text)
        if isinstance(read, str):
            problems.append(Problem(item.relpath, read))
            result.append(item)
            continue
        facts.update((path, replace(fact, line=read.line)) for path, fact in read.facts.items())
        stubbed.add(item.relpath)
        result.append(SourceFile(item.module, item.relpath, read.stub))
    if stubbed:
        result = [
            item
            for item in result
            if item.relpath[:-1] not in stubbed or not item.relpath.endswith(".pyi")
        ]
    return result, facts, problems


def with_facts(symbols: Mapping[str, Symbol], facts: Mapping[str, ProtoFact]) -> dict[str, Symbol]:
    """``symbols`` with the wire facts of the protocol buffer objects they name (by their
    defining path), a deprecation protoc marks, and no Python annotation on a field: its
    type is the wire type (compared by the protocol buffer rules, not as an annotation)."""
    if not facts:
        return dict(symbols)
    result: dict[str, Symbol] = {}
    for path, symbol in symbols.items():
        fact = facts.get(symbol.target)
        result[path] = symbol if fact is None else _with_fact(symbol, fact)
    return result


def _with_fact(symbol: Symbol, fact: ProtoFact) -> Symbol:
    deprecated = symbol.deprecated
    if fact.deprecated and deprecated is None:
        deprecated = "marked deprecated in the .proto file (option deprecated = true)"
    annotation = None if fact.text.startswith("field ") else symbol.annotation
    kind, target = symbol.kind, symbol.target
    if fact.text.startswith("enum_value "):
        # protobuf's values are members of their enum wherever it offers them.
        kind, target = SymbolKind.ENUM_MEMBER, fact.alias_of or symbol.target
    location = symbol.location
    if location is not None and fact.line:
        location = Location(location.file, fact.line)
    return replace(
        symbol,
        kind=kind,
        target=target,
        proto=fact.text,
        deprecated=deprecated,
        annotation=annotation,
        location=location,
    )


def is_generated_module(relpath: str, text: str) -> bool:
    """Whether ``text`` looks like a protoc-generated module (cheap: before any parse)."""
    name = relpath.rpartition("/")[2]
    return (
        name.endswith("_pb2.py")
        and ("AddSerializedFile" in text or "serialized_pb" in text)
        and "protocol buffer" in text.lower()
    )


def read_module(module: str, relpath: str, text: str) -> ProtoModule | str:
    """``module``'s messages and enums, or a one-line problem saying why they cannot be
    read (the module then stays unknown: a problem, never a guess)."""
    try:
        tree = ast.parse(text, filename=relpath)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return "protocol buffer module does not parse; its messages are unknown"
    node = _descriptor_node(tree)
    data = None if node is None else _bytes_of(node)
    if node is None or data is None:
        return (
            "protocol buffer module without a literal serialized descriptor;"
            " its messages are unknown"
        )
    if len(data) > MAX_DESCRIPTOR_BYTES:
        return "embedded descriptor larger than 4 MiB; its messages are unknown"
    try:
        from google.protobuf import descriptor_pb2  # noqa: PLC0415
        from google.protobuf.message import DecodeError  # noqa: PLC0415
    except ImportError:  # pragma: no cover - protobuf is a dependency
        return "the 'protobuf' package is not installed; its messages are unknown"
    proto = descriptor_pb2.FileDescriptorProto()
    try:
        proto.ParseFromString(data)
    except (DecodeError, RuntimeError, ValueError):
        return "embedded descriptor does not decode; its messages are unknown"
    try:
        read = _Writer(module, proto, budget=STUB_RATIO * len(data) + STUB_SLACK).write()
    except _Unreadable as error:
        return f"{error}; its messages are unknown"
    read.line = node.lineno
    return read


def _serialized_descriptor(tree: ast.Module) -> bytes | None:
    """The bytes literal given to ``AddSerializedFile(...)`` or ``serialized_pb=``."""
    found = _descriptor_node(tree)
    return None if found is None else _bytes_of(found)


def _descriptor_node(tree: ast.Module) -> ast.expr | None:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name == "AddSerializedFile" and node.args:
            return node.args[0]
        for keyword_ in node.keywords:
            if keyword_.arg == "serialized_pb":
                return keyword_.value
    return None


def _bytes_of(node: ast.expr) -> bytes | None:
    """A bytes constant, a sum of them, or older generators' ``_b('...')`` (latin-1)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, bytes):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _bytes_of(node.left), _bytes_of(node.right)
        return None if left is None or right is None else left + right
    if (
        isinstance(node, ast.Call)
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        try:
            return node.args[0].value.encode("latin-1")
        except UnicodeEncodeError:
            return None
    return None


# FieldDescriptorProto.Type and .Label numbers, as the .proto language spells them.
_TYPES = {
    1: "double",
    2: "float",
    3: "int64",
    4: "uint64",
    5: "int32",
    6: "fixed64",
    7: "fixed32",
    8: "bool",
    9: "string",
    10: "group",
    11: "message",
    12: "bytes",
    13: "uint32",
    14: "enum",
    15: "sfixed32",
    16: "sfixed64",
    17: "sint32",
    18: "sint64",
}
_LABEL_REQUIRED, _LABEL_REPEATED = 2, 3
_TYPE_MESSAGE = 11

# Types that read each other's bytes on the wire (buf's WIRE category); any other change
# of type makes old data unreadable or misread.
_WIRE_GROUPS = (
    frozenset({"int32", "uint32", "int64", "uint64", "bool", "enum"}),
    frozenset({"sint32", "sint64"}),
    frozenset({"fixed32", "sfixed32"}),
    frozenset({"fixed64", "sfixed64"}),
    frozenset({"string", "bytes", "message"}),
)


def wire_group(type_name: str) -> int:
    """The wire-compatibility group of a field type (``-1``: compatible with nothing else)."""
    base = type_name.split(" ", 1)[0].split("<", 1)[0]
    for index, group in enumerate(_WIRE_GROUPS):
        if base in group:
            return index
    return -1


_PYTHON_TYPES = {
    "double": "float",
    "float": "float",
    "bool": "bool",
    "string": "str",
    "bytes": "bytes",
}


class _Writer:
    """Writes the stub of one file descriptor and collects its facts."""

    def __init__(self, module: str, proto: FileDescriptorProto, *, budget: int) -> None:
        self.module = module
        self.proto = proto
        self.budget = budget
        self.package = _named(proto.package) if proto.package else ""
        self.syntax = proto.syntax or "proto2"
        self.lines: list[str] = []
        self.facts: dict[str, ProtoFact] = {}
        # Full proto names (``.demo.Point.AttrsEntry``) of map entry messages: their fields
        # are a map's key and value, not a message of its own.
        self.map_entries: dict[str, tuple[FieldDescriptorProto, FieldDescriptorProto]] = {}
        self._collect_map_entries(proto.message_type, self._prefix())

    def _prefix(self) -> str:
        return f".{self.package}" if self.package else ""

    def _local(self, full: str) -> str:
        """``full`` without the proto package (docstrings: a package renamed is a change
        of its own, never a docstring change)."""
        prefix = self._prefix()
        return full[len(prefix) + 1 :] if prefix and full.startswith(prefix + ".") else full

    def _collect_map_entries(self, messages: Iterable[DescriptorProto], prefix: str) -> None:
        for message in messages:
            full = f"{prefix}.{message.name}"
            if message.options.map_entry and len(message.field) == 2:
                self.map_entries[full] = (message.field[0], message.field[1])
            self._collect_map_entries(message.nested_type, full)

    def write(self) -> ProtoModule:
        name = self.proto.name
        self.lines = [
            f'"""Protocol buffer module for {_text(name)}, read from its embedded descriptor."""',
            "",
            "import enum",
            "",
            "from google.protobuf import message as _message",
            "",
        ]
        for enum in self.proto.enum_type:
            self._enum(enum, self.module, 0, self._prefix())
        for message in self.proto.message_type:
            self._message(message, self.module, 0, self._prefix())
        return ProtoModule("\n".join(self.lines) + "\n", self.facts, name)

    def _emit(self, depth: int, text: str) -> None:
        self._spend(4 * depth + len(text) + 1)
        self.lines.append("    " * depth + text)

    def _spend(self, size: int) -> None:
        """Count ``size`` characters of stub or facts against the budget."""
        self.budget -= size
        if self.budget < 0:
            raise _Unreadable(
                f"the stub of its descriptor would be more than {STUB_RATIO} times its size"
            )

    def _fact(self, path: str, fact: ProtoFact) -> None:
        self._spend(len(path) + len(fact.text) + len(fact.alias_of or ""))
        self.facts[path] = fact

    def _enum(self, enum: EnumDescriptorProto, owner: str, depth: int, prefix: str) -> None:
        name = _named(enum.name)
        if not _usable(name):
            return
        path = f"{owner}.{name}"
        full = f"{prefix}.{name}"
        self._emit(depth, f"class {name}(enum.IntEnum):")
        self._emit(depth + 1, f'"""Protocol buffer enum {_text(self._local(full))}."""')
        values = [value for value in enum.value if _usable(_named(value.name))]
        for value in values:
            self._emit(depth + 1, f"{value.name} = {int(value.number)}")
            self._emit(
                depth + 1, f'"""Value of protocol buffer enum {_text(self._local(full))}."""'
            )
            self._fact(
                f"{path}.{value.name}",
                ProtoFact(f"enum_value {int(value.number)}", value.options.deprecated),
            )
        if not values:
            self._emit(depth + 1, "pass")
        self._fact(path, ProtoFact(f"enum {full.lstrip('.')}", enum.options.deprecated))
        # protobuf offers an enum's values on the module or message holding it as well.
        for value in values:
            self._emit(depth, f"{value.name} = {name}.{value.name}")
            self._emit(depth, f'"""Value of protocol buffer enum {_text(self._local(full))}."""')
            self._fact(
                f"{owner}.{value.name}",
                ProtoFact(
                    f"enum_value {int(value.number)}",
                    value.options.deprecated,
                    alias_of=f"{path}.{value.name}",
                ),
            )
        self._emit(depth, "")

    def _message(self, message: DescriptorProto, owner: str, depth: int, prefix: str) -> None:
        name = _named(message.name)
        if depth > MAX_NESTING:
            raise _Unreadable(f"messages nested more than {MAX_NESTING} levels deep")
        if not _usable(name):
            return
        full = f"{prefix}.{name}"
        if full in self.map_entries:
            return
        path = f"{owner}.{name}"
        self._emit(depth, f"class {name}(_message.Message):")
        self._emit(depth + 1, f'"""Protocol buffer message {_text(self._local(full))}."""')
        for enum in message.enum_type:
            self._enum(enum, path, depth + 1, full)
        for nested in message.nested_type:
            self._message(nested, path, depth + 1, full)
        oneofs = [item.name for item in message.oneof_decl]
        for item in message.field:
            if not _usable(_named(item.name)):
                continue
            fact = self._field_fact(item, oneofs)
            self._emit(depth + 1, f"{item.name}: {self._python_type(item)}")
            self._emit(depth + 1, f'"""Protocol buffer field of {_text(self._local(full))}."""')
            self._fact(
                f"{path}.{item.name}",
                ProtoFact(f"field {int(item.number)} {fact}", item.options.deprecated),
            )
        self._emit(depth + 1, "")
        self._fact(
            path,
            ProtoFact(
                f"message {full.lstrip('.')}{_reserved(message)}", message.options.deprecated
            ),
        )

    def _type_name(self, item: FieldDescriptorProto) -> str:
        number = int(item.type)
        name = _TYPES.get(number, f"type{number}")
        if name in ("message", "enum", "group"):
            name = f"{name} {item.type_name.lstrip('.')}"
        return name

    def _field_fact(self, item: FieldDescriptorProto, oneofs: list[str]) -> str:
        entry = self.map_entries.get(item.type_name)
        if entry is not None:
            key, value = entry
            return f"map<{self._type_name(key)},{self._type_name(value)}>"
        words = [self._type_name(item), self._cardinality(item)]
        if item.HasField("oneof_index") and not item.proto3_optional:
            index = int(item.oneof_index)
            if 0 <= index < len(oneofs):
                # A member of a oneof has presence (which member is set).
                words = [words[0], "optional", "oneof", oneofs[index]]
        return " ".join(words)

    def _cardinality(self, item: FieldDescriptorProto) -> str:
        label = int(item.label)
        if label == _LABEL_REPEATED:
            return "repeated"
        if label == _LABEL_REQUIRED:
            return "required"
        if self.syntax == "proto3" and not item.proto3_optional:
            # proto3 singular fields have no presence unless they are messages.
            return "optional" if int(item.type) == _TYPE_MESSAGE else "singular"
        return "optional"

    def _python_type(self, item: FieldDescriptorProto) -> str:
        if item.type_name in self.map_entries:
            return "dict"
        if int(item.label) == _LABEL_REPEATED:
            return "list"
        base = self._type_name(item).split(" ", 1)[0]
        if base in ("message", "group"):
            return "_message.Message"
        return _PYTHON_TYPES.get(base, "int")


def python_type(type_name: str) -> str:
    """The Python type of a field's value for a fact's type (``int64`` -> ``int``,
    ``message demo.Point`` -> ``demo.Point``, ``enum demo.Color`` -> ``int``)."""
    base, _, name = type_name.partition(" ")
    if base in ("message", "group"):
        return name
    if base.startswith("map<"):
        return type_name
    return _PYTHON_TYPES.get(base, "int")


def _reserved(message: DescriptorProto) -> str:
    ranges = [
        f"{item.start}" if item.end - item.start <= 1 else f"{item.start}-{item.end - 1}"
        for item in message.reserved_range
    ]
    names = sorted(message.reserved_name)
    text = ""
    if ranges:
        text += " reserved " + ",".join(ranges)
    if names:
        text += " names " + ",".join(names)
    return text


def _named(name: str) -> str:
    """``name``, when it is at most :data:`MAX_NAME_CHARS` long."""
    if len(name) > MAX_NAME_CHARS:
        raise _Unreadable(f"a protocol buffer name longer than {MAX_NAME_CHARS} characters")
    return name


def _usable(name: str) -> bool:
    """Whether ``name`` can be a Python name in the stub (protobuf mangles the others)."""
    return name.isidentifier() and not keyword.iskeyword(name)


def _text(value: str) -> str:
    """``value`` safe inside a one-line triple-quoted docstring."""
    return "".join(ch for ch in value if ch.isprintable() and ch not in '"\\')


# --- reading facts back ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Field:
    """A field fact, read back (:func:`parse_fact`)."""

    number: int
    type: str
    cardinality: str
    oneof: str | None


def parse_field(text: str) -> Field | None:
    """The field a ``field N TYPE CARDINALITY [oneof NAME]`` fact names, else None."""
    words = text.split()
    if len(words) < 3 or words[0] != "field" or _number(words[1]) is None:
        return None
    rest = words[2:]
    oneof = None
    if len(rest) >= 2 and rest[-2] == "oneof":
        oneof = rest[-1]
        rest = rest[:-2]
    if rest and rest[0].startswith("map<"):
        return Field(int(words[1]), " ".join(rest), "repeated", oneof)  # ASCII digits
    cardinality = rest[-1] if len(rest) > 1 else "optional"
    return Field(int(words[1]), " ".join(rest[:-1]) or rest[0], cardinality, oneof)


def enum_number(text: str) -> int | None:
    """The number an ``enum_value N`` fact names, else None."""
    words = text.split()
    if len(words) == 2 and words[0] == "enum_value":
        negative = words[1].startswith("-")
        number = _number(words[1][1:] if negative else words[1])
        return None if number is None else (-number if negative else number)
    return None


def _number(word: str) -> int | None:
    """``word`` as a number when it is ASCII digits (a fact comes from a snapshot: ``²``
    is a digit to ``str.isdigit`` and no number to ``int``), at most 20 of them."""
    if word.isascii() and word.isdigit() and len(word) <= 20:
        return int(word)
    return None


def reserved(text: str) -> tuple[tuple[tuple[int, int], ...], frozenset[str]]:
    """The reserved number ranges (inclusive) and names a ``message ...`` fact lists."""
    ranges: list[tuple[int, int]] = []
    names: set[str] = set()
    words = text.split()
    for index, word in enumerate(words[:-1]):
        if word == "reserved":
            for item in words[index + 1].split(","):
                low, _, high = item.partition("-")
                first, last = _number(low), _number(high or low)
                if first is not None and last is not None:
                    ranges.append((first, last))
        elif word == "names":
            names.update(words[index + 1].split(","))
    return tuple(ranges), frozenset(names)


def is_reserved(message_fact: str, number: int, name: str) -> bool:
    """Whether a message's fact reserves both ``number`` and ``name`` (a field removed
    that way cannot be reused by mistake: buf's FIELD_NO_DELETE_UNLESS_*_RESERVED)."""
    ranges, names = reserved(message_fact)
    return name in names and any(low <= number <= high for low, high in ranges)
