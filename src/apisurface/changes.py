"""The vocabulary of differences: every kind of change the diff can report, with its rule.

``diff`` emits :class:`Change` values whose ``kind`` is one of :class:`ChangeKind`. Each
member of :class:`ChangeKind` is one row that carries its :class:`Rule`: the id, the
:class:`Level` the change requires, the message shown to the reader, why it has that level
and a minimal before/after example. The rule table (:mod:`apisurface.compare.rules`),
``apisurface explain`` and the rule table of docs/policy.md are all read from these rows, so
adding a kind means adding its row here, its detection (:mod:`apisurface.compare`) and a
case file (tests/cases). Keeping the rows here, below both, lets the diff state facts
without judging them and the rule table judge without re-deriving facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (as in __init__)
if TYPE_CHECKING:
    from typing import Any, Self

__all__ = [
    "ATTRIBUTE_ANNOTATION_KINDS",
    "CALL_BREAKING",
    "REMOVALS",
    "Change",
    "ChangeKind",
    "Evidence",
    "Grade",
    "Level",
    "Rule",
]


class Level(IntEnum):
    """A semantic-versioning level; ``IGNORE`` drops a change from the required bump."""

    IGNORE = 0
    PATCH = 1
    MINOR = 2
    MAJOR = 3

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Level:
        """Read ``major``/``minor``/``patch``/``ignore`` (any case)."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            choices = ", ".join(str(level) for level in cls)
            raise ValueError(f"unknown level {text!r}: use one of {choices}") from None


@dataclass(frozen=True, slots=True)
class Rule:
    """How one kind of change is judged. ``template`` may use ``{old}`` and ``{new}``.

    ``why`` says what breaks (or why nothing does); ``example`` is a minimal release pair
    that apisurface reports as this kind at the public path ``reported``, written as the
    files of tests/cases are (``--- old PATH``, ``--- new PATH`` or ``--- both PATH``, each
    followed by that file's text). They document the rule (``apisurface explain``) and take
    no part in comparing rules.
    """

    kind: ChangeKind
    level: Level
    template: str
    why: str = field(default="", compare=False, repr=False)
    reported: str = field(default="", compare=False, repr=False)
    example: str = field(default="", compare=False, repr=False)


def _row(
    value: str,
    level: Level,
    template: str,
    *,
    why: str = "",
    reported: str = "",
    example: str = "",
) -> tuple[str, Level, str, str, str, str]:
    """The value of one :class:`ChangeKind` member, which ``ChangeKind`` makes its rule."""
    return value, level, template, why, reported, example.lstrip("\n")


class ChangeKind(StrEnum):
    """Stable identifiers of change kinds. Never rename one: reports and configs use them.

    Each member is one row: its value is the id, and ``rule`` holds its level, message,
    reason and example. Rows are grouped by level, as docs/policy.md lists them.
    """

    rule: Rule
    """How this kind is judged and documented."""

    def __new__(cls, value: str, *rule: Any) -> Self:
        # Called once per member with the fields of its row (typed by ``_row``); after the
        # class is made, ``ChangeKind(value)`` looks a member up by its id instead.
        member = str.__new__(cls, value)
        member._value_ = value
        member.rule = Rule(member, *rule)
        return member

    # --- symbols leaving the surface (MAJOR) ---
    SYMBOL_REMOVED = _row(
        "symbol_removed",
        Level.MAJOR,
        "{old} removed",
        why="Code that imports or calls it fails with ImportError or AttributeError.",
        reported="pkg.parse",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def parse(text):
    """Parse text into tokens."""


def render(tokens):
    """Render tokens back to text."""
--- new pkg/__init__.py
"""Pkg."""


def render(tokens):
    """Render tokens back to text."""
''',
    )
    SYMBOL_RENAMED = _row(
        "symbol_renamed",
        Level.MAJOR,
        "renamed to {new}",
        why=(
            "The old name is gone: code using it fails, although the object lives on under the new"
            " name."
        ),
        reported="pkg.fetch",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def fetch(url, timeout=10):
    """Download the body of a URL."""


def ping(host):
    """Check that a host answers."""
--- new pkg/__init__.py
"""Pkg."""


def download(url, timeout=10):
    """Download the body of a URL."""


def ping(host):
    """Check that a host answers."""
''',
    )
    SYMBOL_MOVED = _row(
        "symbol_moved",
        Level.MAJOR,
        "moved to {new} without a re-export at the old path",
        why=(
            "The object is defined at a new path and the old path no longer offers it: imports of"
            " the old path fail."
        ),
        reported="pkg.a.parse",
        example='''
--- both pkg/__init__.py
"""Pkg."""
--- old pkg/a.py
"""Module a."""


def parse(text):
    """Parse text into tokens."""


def tokenize(text):
    """Break text into tokens."""
--- new pkg/a.py
"""Module a."""


def tokenize(text):
    """Break text into tokens."""
--- old pkg/b.py
"""Module b."""


def render(tokens):
    """Render tokens back to text."""
--- new pkg/b.py
"""Module b."""


def parse(text):
    """Parse text into tokens."""


def render(tokens):
    """Render tokens back to text."""
''',
    )
    SYMBOL_MADE_PRIVATE = _row(
        "symbol_made_private",
        Level.MAJOR,
        "made private ({new})",
        why=(
            "A leading underscore takes a name out of the contract; users of the public name break."
        ),
        reported="pkg.normalize",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def normalize(text):
    """Lower-case and strip text."""


def parse(text):
    """Parse text into tokens."""
--- new pkg/__init__.py
"""Pkg."""


def _normalize(text):
    """Lower-case and strip text."""


def parse(text):
    """Parse text into tokens."""
    return _normalize(text)
''',
    )
    SYMBOL_MADE_EXPERIMENTAL = _row(
        "symbol_made_experimental",
        Level.MAJOR,
        "moved into experimental ({new})",
        why=(
            "Experimental code is outside the guarantee, so moving a symbol there withdraws it from"
            " users."
        ),
        reported="pkg.fuse",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def fuse(graph):
    """Fuse adjacent operations of a graph."""


def run(graph):
    """Execute a graph."""
--- new pkg/__init__.py
"""Pkg."""


def experimental_fuse(graph):
    """Fuse adjacent operations of a graph."""


def run(graph):
    """Execute a graph."""
''',
    )
    SYMBOL_MOVED_TO_CONTRIB = _row(
        "symbol_moved_to_contrib",
        Level.MAJOR,
        "moved into contrib ({new})",
        why="contrib is outside the guarantee, so moving a symbol there withdraws it from users.",
        reported="pkg.fuse",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def fuse(graph):
    """Fuse adjacent operations of a graph."""


def run(graph):
    """Execute a graph."""
--- new pkg/__init__.py
"""Pkg."""


def run(graph):
    """Execute a graph."""
--- new pkg/contrib/__init__.py
"""Community-maintained extras."""
--- new pkg/contrib/fusion.py
"""Graph fusion."""


def fuse(graph):
    """Fuse adjacent operations of a graph."""
''',
    )
    SYMBOL_NO_LONGER_DOCUMENTED = _row(
        "symbol_no_longer_documented",
        Level.MAJOR,
        "no longer documented, so no longer public",
        why=(
            "Only documented names are public: losing the docstring withdraws the promise, reported"
            " apart so the reviewer sees why."
        ),
        reported="pkg.normalize",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def normalize(text):
    """Lower-case and strip text."""
    return text.strip().lower()


def parse(text):
    """Parse text into tokens."""
--- new pkg/__init__.py
"""Pkg."""


def normalize(text):
    return text.strip().lower()


def parse(text):
    """Parse text into tokens."""
''',
    )
    SYMBOL_UNEXPORTED = _row(
        "symbol_unexported",
        Level.MAJOR,
        "dropped from __all__",
        why=(
            "A name dropped from __all__ is no longer exported from that module: star-imports and"
            " checkers stop offering it."
        ),
        reported="pkg.normalize",
        example='''
--- old pkg/__init__.py
"""Pkg."""

__all__ = ["normalize", "parse"]


def normalize(text):
    """Lower-case and strip text."""


def parse(text):
    """Parse text into tokens."""
--- new pkg/__init__.py
"""Pkg."""

__all__ = ["parse"]


def normalize(text):
    """Lower-case and strip text."""


def parse(text):
    """Parse text into tokens."""
''',
    )
    SYMBOL_EXCLUDED_BY_CONFIG = _row(
        "symbol_excluded_by_config",
        Level.MAJOR,
        "excluded by the project's configuration",
        why=(
            "The project's [tool.apisurface] exclude now leaves it out of the contract: for users"
            " it is a removal."
        ),
        reported="pkg.legacy",
        example='''
--- both pkg/__init__.py
"""Pkg."""


def legacy(data):
    """Process data the old way."""


def modern(data):
    """Process data."""
--- old pyproject.toml
[project]
name = "pkg"
version = "1.0.0"
--- new pyproject.toml
[project]
name = "pkg"
version = "1.0.0"

[tool.apisurface]
exclude = ["pkg.legacy"]
''',
    )
    REEXPORT_REMOVED = _row(
        "reexport_removed",
        Level.MAJOR,
        "re-export dropped (still available as {new})",
        why="The object still exists at another path, but code using the dropped path fails.",
        reported="pkg.Client",
        example='''
--- old pkg/__init__.py
"""Pkg."""
from .core import Client
--- new pkg/__init__.py
"""Pkg."""
--- both pkg/core.py
"""Core objects."""


class Client:
    """An HTTP client."""

    def get(self, path):
        """Send a GET request."""
''',
    )
    ENUM_MEMBER_REMOVED = _row(
        "enum_member_removed",
        Level.MAJOR,
        "enum member removed",
        why="Code naming the member (Color.RED) fails, and stored values no longer convert.",
        reported="pkg.Color.BLUE",
        example='''
--- old pkg/__init__.py
"""Pkg."""
import enum


class Color(enum.Enum):
    """Colours a widget can take."""

    RED = 1
    GREEN = 2
    BLUE = 3
--- new pkg/__init__.py
"""Pkg."""
import enum


class Color(enum.Enum):
    """Colours a widget can take."""

    RED = 1
    GREEN = 2
''',
    )
    REMOVED_WITHOUT_DEPRECATION = _row(
        "removed_without_deprecation",
        Level.MAJOR,
        "removed without prior deprecation (deprecate it in a release first)",
        why=(
            "The policy removes functionality only after a release that deprecated it, so users had"
            " a warning and time to migrate. A property of the removal, shown on its one entry"
            " (not a change of its own): accepting either rule id for the path accepts the entry."
        ),
        reported="pkg.dump_all",
        example='''
--- old pkg/__init__.py
"""Pkg."""
from typing_extensions import deprecated


@deprecated("Use load() instead")
def old_load(path):
    """Load a file the old way."""


def load(path):
    """Load a file."""


def dump_all(objects, path):
    """Write many objects to one file."""
--- new pkg/__init__.py
"""Pkg."""


def load(path):
    """Load a file."""
''',
    )
    # --- what a symbol is (MAJOR) ---
    KIND_CHANGED = _row(
        "kind_changed",
        Level.MAJOR,
        "changed kind: {old} -> {new}",
        why=(
            "A class that became a function (or a method a property, ...) is used differently:"
            " calls, subclassing or attribute access break."
        ),
        reported="pkg.Registry",
        example='''
--- old pkg/__init__.py
"""Pkg."""


class Registry:
    """The registry of plugins."""
--- new pkg/__init__.py
"""Pkg."""


def Registry():
    """The registry of plugins."""
    return {}
''',
    )
    FUNCTION_MADE_ASYNC = _row(
        "function_made_async",
        Level.MAJOR,
        "became async",
        why="Callers now get a coroutine instead of the result; every call site must await it.",
        reported="pkg.fetch",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def fetch(url):
    """Download the body of a URL."""
--- new pkg/__init__.py
"""Pkg."""


async def fetch(url):
    """Download the body of a URL."""
''',
    )
    FUNCTION_MADE_SYNC = _row(
        "function_made_sync",
        Level.MAJOR,
        "is no longer async",
        why="Callers that await the result now fail: a plain value is not awaitable.",
        reported="pkg.fetch",
        example='''
--- old pkg/__init__.py
"""Pkg."""


async def fetch(url):
    """Download the body of a URL."""
--- new pkg/__init__.py
"""Pkg."""


def fetch(url):
    """Download the body of a URL."""
''',
    )
    METHOD_MADE_ABSTRACT = _row(
        "method_made_abstract",
        Level.MAJOR,
        "became abstract (subclasses must implement it)",
        why="Subclasses that do not implement it can no longer be instantiated.",
        reported="pkg.Storage.flush",
        example='''
--- old pkg/__init__.py
"""Pkg."""
import abc


class Storage(abc.ABC):
    """A storage backend."""

    def flush(self):
        """Write pending data."""
--- new pkg/__init__.py
"""Pkg."""
import abc


class Storage(abc.ABC):
    """A storage backend."""

    @abc.abstractmethod
    def flush(self):
        """Write pending data."""
''',
    )
    BASE_REMOVED = _row(
        "base_removed",
        Level.MAJOR,
        "base class {old} removed",
        why="isinstance checks, inherited methods and the method resolution order change.",
        reported="pkg.Message",
        example='''
--- old pkg/__init__.py
"""Pkg."""


class Serializable:
    """Marker for objects that can be serialised."""


class Message(Serializable):
    """A chat message."""
--- new pkg/__init__.py
"""Pkg."""


class Serializable:
    """Marker for objects that can be serialised."""


class Message:
    """A chat message."""
''',
    )
    BASES_REORDERED = _row(
        "bases_reordered",
        Level.MAJOR,
        "bases reordered: ({old}) -> ({new}); the method resolution order changes",
        why=(
            "The method resolution order changes, and with it which inherited method or attribute"
            " wins."
        ),
        reported="pkg.Document",
        example='''
--- old pkg/__init__.py
"""Pkg."""


class Printable:
    """Can be printed."""


class Savable:
    """Can be saved."""


class Document(Printable, Savable):
    """A document."""
--- new pkg/__init__.py
"""Pkg."""


class Printable:
    """Can be printed."""


class Savable:
    """Can be saved."""


class Document(Savable, Printable):
    """A document."""
''',
    )
    # --- parameters (MAJOR) ---
    PARAMETER_REMOVED = _row(
        "parameter_removed",
        Level.MAJOR,
        "parameter removed",
        why="Calls that pass it (by position or keyword) fail with TypeError.",
        reported="pkg.connect(timeout)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def connect(host, timeout):
    """Open a connection."""
--- new pkg/__init__.py
"""Pkg."""


def connect(host):
    """Open a connection."""
''',
    )
    PARAMETER_RENAMED = _row(
        "parameter_renamed",
        Level.MAJOR,
        "parameter renamed {old} -> {new}",
        why=(
            "Calls that pass it by keyword fail with TypeError. Paired only on evidence: the same"
            " position and the same default value or annotation (else removed + added)."
        ),
        reported="pkg.connect(addr)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def connect(addr: str, port: int):
    """Open a connection."""
--- new pkg/__init__.py
"""Pkg."""


def connect(host: str, port: int):
    """Open a connection."""
''',
    )
    PARAMETER_MOVED = _row(
        "parameter_moved",
        Level.MAJOR,
        (
            "positional parameters moved: {new} (positions counted from 1, self/cls not counted;"
            " positional calls bind differently)"
        ),
        why=(
            "Positional calls now bind their arguments to different parameters. One entry per"
            " callable names every parameter whose position moved."
        ),
        reported="pkg.copy(src)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def copy(src, dst):
    """Copy a file."""
--- new pkg/__init__.py
"""Pkg."""


def copy(dst, src):
    """Copy a file."""
''',
    )
    PARAMETER_ADDED_REQUIRED = _row(
        "parameter_added_required",
        Level.MAJOR,
        "required parameter added",
        why="Every existing call lacks the new argument and fails with TypeError.",
        reported="pkg.connect(port)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def connect(host):
    """Open a connection."""
--- new pkg/__init__.py
"""Pkg."""


def connect(host, port):
    """Open a connection."""
''',
    )
    PARAMETER_INSERTED = _row(
        "parameter_inserted",
        Level.MAJOR,
        "optional parameter inserted before existing positional ones: {new} (positional calls"
        " shift)",
        why=(
            "An optional parameter inserted before existing positional ones shifts every positional"
            " call. One entry per callable names every parameter whose position moved."
        ),
        reported="pkg.copy(mode)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def copy(src, dst=None):
    """Copy a file."""
--- new pkg/__init__.py
"""Pkg."""


def copy(src, mode="rb", dst=None):
    """Copy a file."""
''',
    )
    FIELD_ADDED_REQUIRED = _row(
        "field_added_required",
        Level.MAJOR,
        "field added without a default (constructor gains a required parameter)",
        why=(
            "A dataclass or NamedTuple field without a default is a required constructor argument:"
            " old constructions fail."
        ),
        reported="pkg.Point.__init__(z)",
        example='''
--- old pkg/__init__.py
"""Pkg."""
from dataclasses import dataclass


@dataclass
class Point:
    """A point in space."""

    x: float
    y: float
--- new pkg/__init__.py
"""Pkg."""
from dataclasses import dataclass


@dataclass
class Point:
    """A point in space."""

    x: float
    y: float
    z: float
''',
    )
    PARAMETER_DEFAULT_REMOVED = _row(
        "parameter_default_removed",
        Level.MAJOR,
        "default removed ({old}): parameter is now required",
        why="Calls that relied on the default now fail: the parameter is required.",
        reported="pkg.connect(port)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def connect(host, port=80):
    """Open a connection."""
--- new pkg/__init__.py
"""Pkg."""


def connect(host, port):
    """Open a connection."""
''',
    )
    PARAMETER_DEFAULT_CHANGED = _row(
        "parameter_default_changed",
        Level.MAJOR,
        "default changed: {old} -> {new}",
        why=(
            "Callers relying on the default silently change behaviour (projects may downgrade this"
            " rule)."
        ),
        reported="pkg.connect(timeout)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def connect(host, timeout=10):
    """Open a connection."""
--- new pkg/__init__.py
"""Pkg."""


def connect(host, timeout=30):
    """Open a connection."""
''',
    )
    PARAMETER_KIND_NARROWED = _row(
        "parameter_kind_narrowed",
        Level.MAJOR,
        "parameter kind narrowed: {old} -> {new}",
        why=(
            "A parameter that could be passed by position or keyword now accepts only one way: some"
            " calls fail."
        ),
        reported="pkg.open_file(mode)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def open_file(path, mode="r"):
    """Open a file."""
--- new pkg/__init__.py
"""Pkg."""


def open_file(path, *, mode="r"):
    """Open a file."""
''',
    )
    VAR_POSITIONAL_REMOVED = _row(
        "var_positional_removed",
        Level.MAJOR,
        "*{old} removed",
        why="Calls passing extra positional arguments fail.",
        reported="pkg.join(args)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def join(first, *args):
    """Join path segments."""
--- new pkg/__init__.py
"""Pkg."""


def join(first):
    """Join path segments."""
''',
    )
    VAR_KEYWORD_REMOVED = _row(
        "var_keyword_removed",
        Level.MAJOR,
        "**{old} removed",
        why="Calls passing extra keyword arguments fail.",
        reported="pkg.render(kwargs)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def render(template, **kwargs):
    """Render a template."""
--- new pkg/__init__.py
"""Pkg."""


def render(template):
    """Render a template."""
''',
    )
    SIGNATURE_INCOMPATIBLE = _row(
        "signature_incompatible",
        Level.MAJOR,
        "a call the old signature accepted now fails or binds differently: {new}",
        why=(
            "A call the old signature accepted fails, or sends an argument to another parameter,"
            " and no other parameter fact explains it; the report shows the call."
        ),
        reported="pkg.join",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def join(first, *rest, sep=" "):
    """Join strings."""
--- new pkg/__init__.py
"""Pkg."""


def join(first, sep=" ", *rest):
    """Join strings."""
''',
    )
    OVERLOAD_REMOVED = _row(
        "overload_removed",
        Level.MAJOR,
        "overload removed: {old}",
        why="Calls matching the removed overload no longer type-check.",
        reported="pkg.parse",
        example='''
--- old pkg/__init__.py
"""Pkg."""
from typing import overload


@overload
def parse(value: int) -> int: ...
@overload
def parse(value: str) -> str: ...
@overload
def parse(value: bytes) -> bytes: ...
def parse(value):
    """Parse a value."""
    return value
--- new pkg/__init__.py
"""Pkg."""
from typing import overload


@overload
def parse(value: int) -> int: ...
@overload
def parse(value: str) -> str: ...
def parse(value):
    """Parse a value."""
    return value
''',
    )
    # --- annotations (MAJOR) ---
    PARAMETER_ANNOTATION_NARROWED = _row(
        "parameter_annotation_narrowed",
        Level.MAJOR,
        "parameter type narrowed: {old} -> {new}",
        why="Arguments of the old type that are not of the new one no longer type-check.",
        reported="pkg.scale(value)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def scale(value: int | str, factor: int = 2):
    """Scale a value."""
--- new pkg/__init__.py
"""Pkg."""


def scale(value: int, factor: int = 2):
    """Scale a value."""
''',
    )
    PARAMETER_ANNOTATION_CHANGED = _row(
        "parameter_annotation_changed",
        Level.MAJOR,
        "parameter type changed: {old} -> {new}",
        why=(
            "The new type accepts values the old did not and rejects some it did: callers must"
            " check."
        ),
        reported="pkg.scale(value)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def scale(value: int, factor: int = 2):
    """Scale a value."""
--- new pkg/__init__.py
"""Pkg."""


def scale(value: str, factor: int = 2):
    """Scale a value."""
''',
    )
    RETURN_ANNOTATION_WIDENED = _row(
        "return_annotation_widened",
        Level.MAJOR,
        "return type widened: {old} -> {new}",
        why="Callers handling the old return type may now receive values they do not handle.",
        reported="pkg.scale",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def scale(value: int) -> int:
    """Scale a value."""
--- new pkg/__init__.py
"""Pkg."""


def scale(value: int) -> int | None:
    """Scale a value."""
''',
    )
    RETURN_ANNOTATION_CHANGED = _row(
        "return_annotation_changed",
        Level.MAJOR,
        "return type changed: {old} -> {new}",
        why="Callers relying on the old return type no longer type-check.",
        reported="pkg.scale",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def scale(value: int) -> int:
    """Scale a value."""
--- new pkg/__init__.py
"""Pkg."""


def scale(value: int) -> str:
    """Scale a value."""
''',
    )
    ATTRIBUTE_ANNOTATION_CHANGED = _row(
        "attribute_annotation_changed",
        Level.MAJOR,
        "type changed: {old} -> {new}",
        why="Readers and writers of the attribute relying on its type no longer type-check.",
        reported="pkg.DEFAULT_TIMEOUT",
        example='''
--- old pkg/__init__.py
"""Pkg."""

DEFAULT_TIMEOUT: int = 30
"""Seconds to wait for a reply."""
--- new pkg/__init__.py
"""Pkg."""

DEFAULT_TIMEOUT: str = "30s"
"""Seconds to wait for a reply."""
''',
    )
    # --- protocol buffer wire facts (MAJOR) ---
    PROTO_FIELD_RENUMBERED = _row(
        "proto_field_renumbered",
        Level.MAJOR,
        "field number changed from {old} to {new}",
        why=(
            "Protocol buffer data names a field by its number: data written by old code is read "
            "as an unknown field (or as another field), and old readers lose the new field."
        ),
        reported="pkg.demo_pb2.Point.y",
        example=r'''
--- both pkg/__init__.py
"""Messages of the demo service."""
--- old pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
  int32 y = 2;
}
--- new pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
  int32 y = 3;
}
--- old pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"\x1d\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05\x12\t\n\x01y\x18\x02 \x01(\x05b\x06proto3'
)
--- new pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"\x1d\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05\x12\t\n\x01y\x18\x03 \x01(\x05b\x06proto3'
)
''',
    )
    PROTO_FIELD_TYPE_CHANGED = _row(
        "proto_field_type_changed",
        Level.MAJOR,
        "field type changed from {old} to {new}",
        why=(
            "The new type reads the old bytes differently on the wire, or its Python value has "
            "another type (str and bytes, another message class): old data is misread and code "
            "using the value breaks."
        ),
        reported="pkg.demo_pb2.Point.label",
        example=r'''
--- both pkg/__init__.py
"""Messages of the demo service."""
--- old pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
  string label = 2;
}
--- new pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
  int64 label = 2;
}
--- old pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"!\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05\x12\r\n\x05label\x18\x02 \x01(\tb\x06proto3'
)
--- new pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"!\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05\x12\r\n\x05label\x18\x02 \x01(\x03b\x06proto3'
)
''',
    )
    PROTO_FIELD_CARDINALITY_CHANGED = _row(
        "proto_field_cardinality_changed",
        Level.MAJOR,
        "field cardinality changed from {old} to {new}",
        why=(
            "A field made repeated (or singular, required, or without presence) has another "
            "Python value (a list, no HasField) and old readers keep one element or fail on "
            "missing required data."
        ),
        reported="pkg.demo_pb2.Point.tag",
        example=r'''
--- both pkg/__init__.py
"""Messages of the demo service."""
--- old pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
  string tag = 2;
}
--- new pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
  repeated string tag = 2;
}
--- old pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"\x1f\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05\x12\x0b\n\x03tag\x18\x02 \x01(\tb\x06proto3'
)
--- new pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"\x1f\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05\x12\x0b\n\x03tag\x18\x02 \x03(\tb\x06proto3'
)
''',
    )
    PROTO_FIELD_ONEOF_CHANGED = _row(
        "proto_field_oneof_changed",
        Level.MAJOR,
        "field moved from oneof {old} to oneof {new}",
        why=(
            "Moving a field into, out of or between oneofs changes which fields clear each other "
            "when set: messages that set both lose one (buf's FIELD_SAME_ONEOF)."
        ),
        reported="pkg.demo_pb2.Shape.circle",
        example=r'''
--- both pkg/__init__.py
"""Messages of the demo service."""
--- old pkg/demo.proto
syntax = "proto3";
package demo;
message Shape {
  string circle = 1;
  string square = 2;
}
--- new pkg/demo.proto
syntax = "proto3";
package demo;
message Shape {
  oneof kind {
    string circle = 1;
    string square = 2;
  }
}
--- old pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"\'\n\x05Shape\x12\x0e\n\x06c'
    b'ircle\x18\x01 \x01(\t\x12\x0e\n\x06square\x18\x02 \x01(\tb\x06proto3'
)
--- new pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"3\n\x05Shape\x12\x10\n\x06c'
    b'ircle\x18\x01 \x01(\tH\x00\x12\x10\n\x06square\x18\x02 \x01(\tH\x00B\x06\n\x04k'
    b'indb\x06proto3'
)
''',
    )
    PROTO_ENUM_VALUE_RENUMBERED = _row(
        "proto_enum_value_renumbered",
        Level.MAJOR,
        "enum value number changed from {old} to {new}",
        why=(
            "Stored and sent data holds the number: values written by old code now read as "
            "another name, or as unknown."
        ),
        reported="pkg.demo_pb2.GREEN",
        example=r'''
--- both pkg/__init__.py
"""Messages of the demo service."""
--- old pkg/demo.proto
syntax = "proto3";
package demo;
enum Color {
  RED = 0;
  GREEN = 1;
}
--- new pkg/demo.proto
syntax = "proto3";
package demo;
enum Color {
  RED = 0;
  GREEN = 2;
}
--- old pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo*\x1b\n\x05Color\x12\x07\n\x03R'
    b'ED\x10\x00\x12\t\n\x05GREEN\x10\x01b\x06proto3'
)
--- new pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo*\x1b\n\x05Color\x12\x07\n\x03R'
    b'ED\x10\x00\x12\t\n\x05GREEN\x10\x02b\x06proto3'
)
''',
    )
    PROTO_TYPE_NAME_CHANGED = _row(
        "proto_type_name_changed",
        Level.MAJOR,
        "full protocol buffer name changed from {old} to {new}",
        why=(
            "The Python path stays, but the full name (proto package and name) is what Any type "
            "URLs, the JSON and text formats and gRPC method descriptors use: data and peers "
            "using the old name no longer match."
        ),
        reported="pkg.demo_pb2.Point",
        example=r'''
--- both pkg/__init__.py
"""Messages of the demo service."""
--- old pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
}
--- new pkg/demo.proto
syntax = "proto3";
package demo.v2;
message Point {
  int32 x = 1;
}
--- old pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"\x12\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05b\x06proto3'
)
--- new pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x07demo.v2"\x12\n\x05Point\x12\t'
    b'\n\x01x\x18\x01 \x01(\x05b\x06proto3'
)
''',
    )
    # --- additions (MINOR) ---
    SYMBOL_ADDED = _row(
        "symbol_added",
        Level.MINOR,
        "{new} added",
        why="A new public name: existing code keeps working, new code may depend on it.",
        reported="pkg.render",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def parse(text):
    """Parse text into tokens."""
--- new pkg/__init__.py
"""Pkg."""


def parse(text):
    """Parse text into tokens."""


def render(tokens):
    """Render tokens back to text."""
''',
    )
    SYMBOL_MADE_PUBLIC = _row(
        "symbol_made_public",
        Level.MINOR,
        "made public (was {old})",
        why="A private name made public joins the contract: a backward-compatible addition.",
        reported="pkg.normalize",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def _normalize(text):
    """Lower-case and strip text."""


def parse(text):
    """Parse text into tokens."""
--- new pkg/__init__.py
"""Pkg."""


def normalize(text):
    """Lower-case and strip text."""


def parse(text):
    """Parse text into tokens."""
''',
    )
    SYMBOL_PROMOTED_FROM_EXPERIMENTAL = _row(
        "symbol_promoted_from_experimental",
        Level.MINOR,
        "promoted from experimental",
        why="An experimental symbol promoted joins the guarantee: a backward-compatible addition.",
        reported="pkg.fuse",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def experimental_fuse(graph):
    """Fuse adjacent operations of a graph."""


def run(graph):
    """Execute a graph."""
--- new pkg/__init__.py
"""Pkg."""


def fuse(graph):
    """Fuse adjacent operations of a graph."""


def run(graph):
    """Execute a graph."""
''',
    )
    SYMBOL_NOW_DOCUMENTED = _row(
        "symbol_now_documented",
        Level.MINOR,
        "now documented, so now public",
        why=(
            "A docstring (or a listing in __all__ or the API docs) puts an existing name into the"
            " contract."
        ),
        reported="pkg.normalize",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def normalize(text):
    return text.strip().lower()


def parse(text):
    """Parse text into tokens."""
--- new pkg/__init__.py
"""Pkg."""


def normalize(text):
    """Lower-case and strip text."""
    return text.strip().lower()


def parse(text):
    """Parse text into tokens."""
''',
    )
    SYMBOL_EXPORTED = _row(
        "symbol_exported",
        Level.MINOR,
        "added to __all__",
        why="A name added to __all__ is newly exported from that module.",
        reported="pkg.normalize",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""

__all__ = ["parse"]


def normalize(text):
    return text.strip().lower()


def parse(text):
    """Parse text into tokens."""
--- new pkg/__init__.py
"""Pkg."""

__all__ = ["normalize", "parse"]


def normalize(text):
    return text.strip().lower()


def parse(text):
    """Parse text into tokens."""
''',
    )
    REEXPORT_ADDED = _row(
        "reexport_added",
        Level.MINOR,
        "added; the same object is also available as {old}",
        why="The object becomes available at one more public path.",
        reported="pkg.Client",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""
--- new pkg/__init__.py
"""Pkg."""
from .core import Client
--- both pkg/core.py
"""Core objects."""


class Client:
    """An HTTP client."""

    def get(self, path):
        """Send a GET request."""
''',
    )
    ENUM_MEMBER_ADDED = _row(
        "enum_member_added",
        Level.MINOR,
        "enum member added",
        why="A new member: existing code keeps working (exhaustive matches may want a new case).",
        reported="pkg.Color.BLUE",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""
import enum


class Color(enum.Enum):
    """Colours a widget can take."""

    RED = 1
    GREEN = 2
--- new pkg/__init__.py
"""Pkg."""
import enum


class Color(enum.Enum):
    """Colours a widget can take."""

    RED = 1
    GREEN = 2
    BLUE = 3
''',
    )
    BASE_ADDED = _row(
        "base_added",
        Level.MINOR,
        "base class {new} added",
        why="A new base class adds behaviour and isinstance relations; old uses keep working.",
        reported="pkg.Message",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


class Serializable:
    """Marker for objects that can be serialised."""


class Message:
    """A chat message."""
--- new pkg/__init__.py
"""Pkg."""


class Serializable:
    """Marker for objects that can be serialised."""


class Message(Serializable):
    """A chat message."""
''',
    )
    METHOD_NO_LONGER_ABSTRACT = _row(
        "method_no_longer_abstract",
        Level.MINOR,
        "is no longer abstract",
        why="Subclasses no longer have to implement it; old subclasses keep working.",
        reported="pkg.Storage.flush",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""
from abc import ABC, abstractmethod


class Storage(ABC):
    """A storage backend."""

    @abstractmethod
    def flush(self):
        """Write pending data."""
--- new pkg/__init__.py
"""Pkg."""
from abc import ABC, abstractmethod


class Storage(ABC):
    """A storage backend."""

    def flush(self):
        """Write pending data."""
''',
    )
    PARAMETER_ADDED_OPTIONAL = _row(
        "parameter_added_optional",
        Level.MINOR,
        "optional parameter added (default {new})",
        why="Old calls bind as before (the default applies); new calls may pass it.",
        reported="pkg.connect(timeout)",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def connect(host):
    """Open a connection."""
--- new pkg/__init__.py
"""Pkg."""


def connect(host, timeout=None):
    """Open a connection."""
''',
    )
    FIELD_ADDED_OPTIONAL = _row(
        "field_added_optional",
        Level.MINOR,
        "field added with a default ({new})",
        why=(
            "A field with a default is an optional constructor argument: old constructions keep"
            " working."
        ),
        reported="pkg.Point.__init__(z)",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""
from dataclasses import dataclass


@dataclass
class Point:
    """A point in space."""

    x: float
    y: float
--- new pkg/__init__.py
"""Pkg."""
from dataclasses import dataclass


@dataclass
class Point:
    """A point in space."""

    x: float
    y: float
    z: float = 0.0
''',
    )
    PARAMETER_DEFAULT_ADDED = _row(
        "parameter_default_added",
        Level.MINOR,
        "default added ({new})",
        why="Calls that passed it keep working; calls may now leave it out.",
        reported="pkg.connect(port)",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def connect(host, port):
    """Open a connection."""
--- new pkg/__init__.py
"""Pkg."""


def connect(host, port=80):
    """Open a connection."""
''',
    )
    PARAMETER_KIND_WIDENED = _row(
        "parameter_kind_widened",
        Level.MINOR,
        "parameter kind widened: {old} -> {new}",
        why="A parameter that accepts more ways of being passed: every old call still binds.",
        reported="pkg.open_file(mode)",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def open_file(path, *, mode="r"):
    """Open a file."""
--- new pkg/__init__.py
"""Pkg."""


def open_file(path, mode="r"):
    """Open a file."""
''',
    )
    PARAMETER_ABSORBED = _row(
        "parameter_absorbed",
        Level.MINOR,
        "parameter removed but absorbed by {new}: calls passing it still bind",
        why=(
            "The parameter is gone but a new *args or **kwargs takes its positions and its name:"
            " every old call still binds."
        ),
        reported="pkg.render(context)",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def render(template, context=None):
    """Render a template."""
--- new pkg/__init__.py
"""Pkg."""


def render(template, *args, **kwargs):
    """Render a template."""
''',
    )
    PARAMETER_RENAMED_KEEPING_OLD_NAME = _row(
        "parameter_renamed_keeping_old_name",
        Level.MINOR,
        "positional parameter renamed {old} -> {new}; {old} is still accepted as a keyword",
        why=(
            "A new name takes the position while the old name is still accepted as a keyword (an"
            " alias or a new **kwargs): old calls still bind."
        ),
        reported="pkg.load(path)",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def load(path):
    """Load a file."""
--- new pkg/__init__.py
"""Pkg."""


def load(file=None, *, path=None):
    """Load a file."""
''',
    )
    VAR_POSITIONAL_ADDED = _row(
        "var_positional_added",
        Level.MINOR,
        "*{new} added",
        why="The function accepts extra positional arguments: old calls still bind.",
        reported="pkg.join(args)",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def join(first):
    """Join path segments."""
--- new pkg/__init__.py
"""Pkg."""


def join(first, *args):
    """Join path segments."""
''',
    )
    VAR_KEYWORD_ADDED = _row(
        "var_keyword_added",
        Level.MINOR,
        "**{new} added",
        why="The function accepts extra keyword arguments: old calls still bind.",
        reported="pkg.render(kwargs)",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def render(template):
    """Render a template."""
--- new pkg/__init__.py
"""Pkg."""


def render(template, **kwargs):
    """Render a template."""
''',
    )
    OVERLOAD_ADDED = _row(
        "overload_added",
        Level.MINOR,
        "overload added: {new}",
        why="A new accepted call shape; old calls match as before.",
        reported="pkg.parse",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""
import typing


@typing.overload
def parse(value: int) -> int: ...
@typing.overload
def parse(value: str) -> str: ...
def parse(value):
    """Parse a value."""
    return value
--- new pkg/__init__.py
"""Pkg."""
import typing


@typing.overload
def parse(value: int) -> int: ...
@typing.overload
def parse(value: str) -> str: ...
@typing.overload
def parse(value: bytes) -> bytes: ...
def parse(value):
    """Parse a value."""
    return value
''',
    )
    OVERLOAD_WIDENED = _row(
        "overload_widened",
        Level.MINOR,
        "overload {old} replaced by {new}, which accepts every call it accepted",
        why=(
            "Every call the old overload accepted matches a new overload (one or, split by a union"
            " parameter, several) whose parameter types are equal or wider and whose return is"
            " equal or narrower: old calls still type-check."
        ),
        reported="pkg.option",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""
import typing


@typing.overload
def option(default: int, *, show_default: bool = True) -> int: ...
@typing.overload
def option(default: str) -> str: ...
def option(default, *, show_default=True):
    """Declare an option."""
    return default
--- new pkg/__init__.py
"""Pkg."""
import typing


@typing.overload
def option(default: int, *, show_default: bool | str = True) -> int: ...
@typing.overload
def option(default: str) -> str: ...
def option(default, *, show_default=True):
    """Declare an option."""
    return default
''',
    )
    PARAMETER_ANNOTATION_WIDENED = _row(
        "parameter_annotation_widened",
        Level.MINOR,
        "parameter type widened: {old} -> {new}",
        why="The parameter accepts more types than before: old calls still type-check.",
        reported="pkg.scale(value)",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def scale(value: int, factor: int = 2):
    """Scale a value."""
--- new pkg/__init__.py
"""Pkg."""


def scale(value: int | None, factor: int = 2):
    """Scale a value."""
''',
    )
    RETURN_ANNOTATION_NARROWED = _row(
        "return_annotation_narrowed",
        Level.MINOR,
        "return type narrowed: {old} -> {new}",
        why="The function returns a subset of what it returned: callers still type-check.",
        reported="pkg.scale",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def scale(value: int) -> int | None:
    """Scale a value."""
--- new pkg/__init__.py
"""Pkg."""


def scale(value: int) -> int:
    """Scale a value."""
''',
    )
    SYMBOL_DEPRECATED = _row(
        "symbol_deprecated",
        Level.MINOR,
        "deprecated ({new})",
        why=(
            "A deprecation warns users ahead of a removal in a later major release: a"
            " backward-compatible change."
        ),
        reported="pkg.split",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""


def split(text):
    """Split text into words."""


def tokenize(text):
    """Break text into tokens."""
--- new pkg/__init__.py
"""Pkg."""
from typing_extensions import deprecated


@deprecated("Use tokenize() instead")
def split(text):
    """Split text into words."""


def tokenize(text):
    """Break text into tokens."""
''',
    )
    SYMBOL_UNDEPRECATED = _row(
        "symbol_undeprecated",
        Level.MINOR,
        "no longer deprecated",
        why="A deprecation withdrawn: code keeps working and the warning stops.",
        reported="pkg.split",
        example=r'''
--- old pkg/__init__.py
"""Pkg."""
from typing_extensions import deprecated


@deprecated("Use tokenize() instead")
def split(text):
    """Split text into words."""


def tokenize(text):
    """Break text into tokens."""
--- new pkg/__init__.py
"""Pkg."""


def split(text):
    """Split text into words."""


def tokenize(text):
    """Break text into tokens."""
''',
    )
    # --- protocol buffer wire facts (MINOR) ---
    PROTO_FIELD_TYPE_COMPATIBLE = _row(
        "proto_field_type_compatible",
        Level.MINOR,
        "field type changed from {old} to {new}, compatibly on the wire",
        why=(
            "The two types share their wire encoding and their Python type (int32 and int64 are "
            "one varint and one int): old data still parses; values beyond the narrower type's "
            "range are truncated by old readers."
        ),
        reported="pkg.demo_pb2.Point.x",
        example=r'''
--- both pkg/__init__.py
"""Messages of the demo service."""
--- old pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
  int32 y = 2;
}
--- new pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int64 x = 1;
  int32 y = 2;
}
--- old pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"\x1d\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05\x12\t\n\x01y\x18\x02 \x01(\x05b\x06proto3'
)
--- new pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"\x1d\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x03\x12\t\n\x01y\x18\x02 \x01(\x05b\x06proto3'
)
''',
    )
    PROTO_FIELD_PRESENCE_ADDED = _row(
        "proto_field_presence_added",
        Level.MINOR,
        "field now tracks presence ({old} to {new})",
        why=(
            "A proto3 field declared optional reads and writes the same bytes; code may now ask "
            "HasField, which it could not before."
        ),
        reported="pkg.demo_pb2.Point.y",
        example=r'''
--- both pkg/__init__.py
"""Messages of the demo service."""
--- old pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
  int32 y = 2;
}
--- new pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
  optional int32 y = 2;
}
--- old pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"\x1d\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05\x12\t\n\x01y\x18\x02 \x01(\x05b\x06proto3'
)
--- new pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"(\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05\x12\x0e\n\x01y\x18\x02 \x01(\x05H\x00\x88\x01\x01B\x04\n\x02_yb\x06proto3'
)
''',
    )
    PROTO_FIELD_REMOVED_RESERVED = _row(
        "proto_field_removed_reserved",
        Level.MINOR,
        "field removed, its number and name reserved",
        why=(
            "POLICY.md section 3: a field removed with its number and name reserved cannot be "
            "reused by mistake, so old data stays readable (its value is kept as an unknown "
            "field). Code that reads the Python attribute must stop using it."
        ),
        reported="pkg.demo_pb2.Point.y",
        example=r'''
--- both pkg/__init__.py
"""Messages of the demo service."""
--- old pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
  int32 y = 2;
}
--- new pkg/demo.proto
syntax = "proto3";
package demo;
message Point {
  int32 x = 1;
  reserved 2;
  reserved "y";
}
--- old pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"\x1d\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05\x12\t\n\x01y\x18\x02 \x01(\x05b\x06proto3'
)
--- new pkg/demo_pb2.py
"""Generated protocol buffer code."""

from google.protobuf import descriptor_pool

DESCRIPTOR = descriptor_pool.Default().AddSerializedFile(
    b'\n\x0epkg/demo.proto\x12\x04demo"\x1b\n\x05Point\x12\t\n\x01x'
    b'\x18\x01 \x01(\x05J\x04\x08\x02\x10\x03R\x01yb\x06proto3'
)
''',
    )
    # --- no change to what callers can rely on (PATCH) ---
    POSITIONAL_ONLY_PARAMETER_RENAMED = _row(
        "positional_only_parameter_renamed",
        Level.PATCH,
        "positional-only parameter renamed {old} -> {new}",
        why=(
            "A positional-only parameter cannot be passed by name, so its name is not part of the"
            " contract."
        ),
        reported="pkg.clamp(value)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def clamp(value, /, low, high):
    """Limit a value to a range."""
--- new pkg/__init__.py
"""Pkg."""


def clamp(x, /, low, high):
    """Limit a value to a range."""
''',
    )
    KEYWORD_ONLY_PARAMETERS_REORDERED = _row(
        "keyword_only_parameters_reordered",
        Level.PATCH,
        "keyword-only parameters reordered",
        why=(
            "Keyword-only parameters are passed by name, so their order does not matter to callers."
        ),
        reported="pkg.dump",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def dump(obj, *, indent=2, sort_keys=False):
    """Serialise an object to text."""
--- new pkg/__init__.py
"""Pkg."""


def dump(obj, *, sort_keys=False, indent=2):
    """Serialise an object to text."""
''',
    )
    DOCSTRING_CHANGED = _row(
        "docstring_changed",
        Level.PATCH,
        "docstring changed",
        why="Wording only: code does not depend on it.",
        reported="pkg.parse",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def parse(text):
    """Parse text into tokens."""
--- new pkg/__init__.py
"""Pkg."""


def parse(text):
    """Parse text into a list of tokens.

    Whitespace between tokens is dropped.
    """
''',
    )
    DOCUMENTATION_UNKNOWN = _row(
        "documentation_unknown",
        Level.PATCH,
        "documented only by docs sources, which the other side lacks: not judged",
        why=(
            "Documented only by the API docs sources, compared with a release that ships none (a"
            " wheel, an sdist without docs/): whether it is still documented cannot be told, so it"
            " is neither removed nor added."
        ),
        reported="pkg.raw_query",
        example='''
--- old docs/api.rst
API
===

.. autofunction:: pkg.raw_query
--- both pkg/__init__.py
"""Pkg."""


def raw_query(sql):
    return sql
''',
    )
    OVERRIDE_REMOVED = _row(
        "override_removed",
        Level.PATCH,
        "override removed; still inherited from {new}",
        why="The method is still inherited from a public base: callers see the same name.",
        reported="pkg.Session.__getitem__",
        example='''
--- old pkg/__init__.py
"""Pkg."""


class Session(dict):
    """A session stored in a cookie."""

    def __getitem__(self, key):
        self.accessed = True
        return super().__getitem__(key)
--- new pkg/__init__.py
"""Pkg."""


class Session(dict):
    """A session stored in a cookie."""
''',
    )
    # Annotation refinements: only Any changed (written, implied by a bare generic, or by
    # a missing annotation), so every use that type-checked still does.
    PARAMETER_ANNOTATION_ADDED = _row(
        "parameter_annotation_added",
        Level.PATCH,
        "parameter type added: {new} (was Any)",
        why=(
            "A type where there was none: a missing annotation is Any, so this is a refinement"
            " (PATCH) and every old call still type-checks."
        ),
        reported="pkg.scale(value)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def scale(value, factor: int = 2):
    """Scale a value."""
--- new pkg/__init__.py
"""Pkg."""


def scale(value: int, factor: int = 2):
    """Scale a value."""
''',
    )
    PARAMETER_ANNOTATION_REMOVED = _row(
        "parameter_annotation_removed",
        Level.PATCH,
        "parameter type removed (was {old}; now Any)",
        why="The type is gone (now Any): old calls still type-check.",
        reported="pkg.scale(value)",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def scale(value: int, factor: int = 2):
    """Scale a value."""
--- new pkg/__init__.py
"""Pkg."""


def scale(value, factor: int = 2):
    """Scale a value."""
''',
    )
    PARAMETER_ANNOTATION_REFINED = _row(
        "parameter_annotation_refined",
        Level.PATCH,
        "parameter type refined: {old} -> {new}",
        why=(
            "Only Any changed: Any (written, implied by a bare generic such as os.PathLike, or by"
            " ...) is consistent with every type, so old calls still type-check."
        ),
        reported="pkg.open_path(path)",
        example='''
--- old pkg/__init__.py
"""Pkg."""

import os


def open_path(path: os.PathLike) -> None:
    """Open a path."""
--- new pkg/__init__.py
"""Pkg."""

import os


def open_path(path: os.PathLike[str]) -> None:
    """Open a path."""
''',
    )
    RETURN_ANNOTATION_ADDED = _row(
        "return_annotation_added",
        Level.PATCH,
        "return type added: {new} (was Any)",
        why="A return type where there was none (Any).",
        reported="pkg.scale",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def scale(value: int):
    """Scale a value."""
--- new pkg/__init__.py
"""Pkg."""


def scale(value: int) -> int:
    """Scale a value."""
''',
    )
    RETURN_ANNOTATION_REMOVED = _row(
        "return_annotation_removed",
        Level.PATCH,
        "return type removed (was {old}; now Any)",
        why="The return type is gone (now Any).",
        reported="pkg.scale",
        example='''
--- old pkg/__init__.py
"""Pkg."""


def scale(value: int) -> int:
    """Scale a value."""
--- new pkg/__init__.py
"""Pkg."""


def scale(value: int):
    """Scale a value."""
''',
    )
    RETURN_ANNOTATION_REFINED = _row(
        "return_annotation_refined",
        Level.PATCH,
        "return type refined: {old} -> {new}",
        why=(
            "Only Any in the return type changed: a refinement that type checkers accept either"
            " way."
        ),
        reported="pkg.load",
        example='''
--- old pkg/__init__.py
"""Pkg."""

from typing import Any


def load() -> list[Any]:
    """Load the items."""
--- new pkg/__init__.py
"""Pkg."""


def load() -> list[str]:
    """Load the items."""
''',
    )
    ATTRIBUTE_ANNOTATION_ADDED = _row(
        "attribute_annotation_added",
        Level.PATCH,
        "type added: {new} (was Any)",
        why="A type where there was none (Any).",
        reported="pkg.DEFAULT_TIMEOUT",
        example='''
--- old pkg/__init__.py
"""Pkg."""

from datetime import timedelta

DEFAULT_TIMEOUT = timedelta(seconds=30)
"""Seconds to wait for a reply."""
--- new pkg/__init__.py
"""Pkg."""

from datetime import timedelta

DEFAULT_TIMEOUT: timedelta = timedelta(seconds=30)
"""Seconds to wait for a reply."""
''',
    )
    ATTRIBUTE_ANNOTATION_REMOVED = _row(
        "attribute_annotation_removed",
        Level.PATCH,
        "type removed (was {old}; now Any)",
        why="The type is gone (now Any).",
        reported="pkg.DEFAULT_TIMEOUT",
        example='''
--- old pkg/__init__.py
"""Pkg."""

from datetime import timedelta

DEFAULT_TIMEOUT: timedelta = timedelta(seconds=30)
"""Seconds to wait for a reply."""
--- new pkg/__init__.py
"""Pkg."""

from datetime import timedelta

DEFAULT_TIMEOUT = timedelta(seconds=30)
"""Seconds to wait for a reply."""
''',
    )
    ATTRIBUTE_ANNOTATION_REFINED = _row(
        "attribute_annotation_refined",
        Level.PATCH,
        "type refined: {old} -> {new}",
        why=(
            "Only Any in the attribute's type changed: a refinement that type checkers accept"
            " either way."
        ),
        reported="pkg.NAMES",
        example='''
--- old pkg/__init__.py
"""Pkg."""

from typing import Any

NAMES: list[Any] = []
"""The known names."""
--- new pkg/__init__.py
"""Pkg."""

NAMES: list[str] = []
"""The known names."""
''',
    )


K = ChangeKind

REMOVALS = frozenset(
    {
        K.SYMBOL_REMOVED,
        K.SYMBOL_RENAMED,
        K.SYMBOL_MOVED,
        K.SYMBOL_MADE_PRIVATE,
        K.SYMBOL_MADE_EXPERIMENTAL,
        K.SYMBOL_MOVED_TO_CONTRIB,
        K.SYMBOL_NO_LONGER_DOCUMENTED,
        K.SYMBOL_UNEXPORTED,
        K.SYMBOL_EXCLUDED_BY_CONFIG,
        K.ENUM_MEMBER_REMOVED,
        K.REEXPORT_REMOVED,
    }
)
"""Kinds by which a public path leaves the surface: removals for its users, which must
follow a deprecation (POLICY.md section 3)."""

CALL_BREAKING = frozenset(
    {
        K.PARAMETER_REMOVED,
        K.PARAMETER_RENAMED,
        K.PARAMETER_MOVED,
        K.PARAMETER_ADDED_REQUIRED,
        K.PARAMETER_INSERTED,
        K.FIELD_ADDED_REQUIRED,
        K.PARAMETER_DEFAULT_REMOVED,
        K.PARAMETER_KIND_NARROWED,
        K.VAR_POSITIONAL_REMOVED,
        K.VAR_KEYWORD_REMOVED,
        K.SIGNATURE_INCOMPATIBLE,
    }
)
"""Kinds stating that some call the old signature accepted fails, or binds differently,
on the new one (see :mod:`apisurface.compare.binding`)."""

ATTRIBUTE_ANNOTATION_KINDS = frozenset(
    {
        K.ATTRIBUTE_ANNOTATION_CHANGED,
        K.ATTRIBUTE_ANNOTATION_ADDED,
        K.ATTRIBUTE_ANNOTATION_REMOVED,
        K.ATTRIBUTE_ANNOTATION_REFINED,
    }
)
"""Kinds stating a change of an attribute's (or constant's) type."""


class Grade(StrEnum):
    """How sure a change is (POLICY.md section 3, "Evidence")."""

    PROVEN = "proven"
    """Both sources state the fact and the rule table makes it a break (or an addition)."""
    INFERRED = "inferred"
    """The change rests on a guess, which :attr:`Evidence.why` names."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """How a change is known. ``why`` names the fact (proven) or the guess (inferred);
    ``witness`` is a few lines of user code that work on OLD and fail on NEW, when the
    change is a proven break that such code can show."""

    grade: Grade = Grade.PROVEN
    why: str = ""
    witness: str | None = None

    @property
    def proven(self) -> bool:
        """Whether the change counts towards the bump and the gates by default."""
        return self.grade is Grade.PROVEN

    @classmethod
    def inferred(cls, why: str) -> Evidence:
        """Evidence resting on the guess ``why`` ("rename paired by position")."""
        return cls(Grade.INFERRED, why)


PROVEN = Evidence()
"""The evidence of a change stated by both sources, before its witness is written."""


@dataclass(frozen=True, slots=True, order=True)
class Change:
    """One difference between two surfaces, stated as a fact.

    ``path`` is the dotted public path; for a parameter change it is the callable's path
    followed by ``(param)``. ``old``/``new`` are short JSON-able values (a signature line,
    an annotation, a default, a path) shown to the reader. ``evidence`` says how the
    change is known; it takes no part in comparing or sorting changes. ``qualifiers`` are
    rules that hold of this same change and are reported on its entry, not as changes of
    their own (a removal that was not deprecated first carries
    ``removed_without_deprecation``): each is judged, re-levelled and accepted under its own
    id, and the entry's level is the highest of its kind's and theirs.
    """

    path: str
    kind: ChangeKind
    old: str | None = None
    new: str | None = None
    evidence: Evidence = field(default=PROVEN, compare=False)
    qualifiers: tuple[ChangeKind, ...] = ()
