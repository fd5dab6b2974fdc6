"""The import check's child: imports modules and says what each one serves at run time.

Run by :mod:`apisurface.verify.importcheck` in an environment's interpreter, inside the
sandbox, as ``python -I -B probe.py REQUEST``: it uses the standard library only (the
environment has no apisurface) and never imports apisurface. ``REQUEST`` is a JSON file:
``{"modules": [names], "paths": {module: [paths below it]}, "classes": [paths],
"inherited": bool, "seconds": per-module time limit}``.

For each module, in order, it writes JSON lines to ``$APISURFACE_RESULT`` (flushed, so a
crash or a kill keeps what came before):

- ``{"event": "start", "module": M}`` before importing it;
- ``{"event": "module", "module": M, "file": ..., "error": ..., "all": [...] | null,
  "names": [NAME_INFO...], "printed": bytes}``: ``names`` are the names of ``__all__``, or
  without it the classes and functions the module defines itself;
- ``{"event": "path", "path": P, "kind": K | null, "error": ...}`` for each static path below
  it (``kind`` null: it does not resolve), with ``"annotated": true`` for a class attribute
  that exists only as an annotation (an instance attribute);
- ``{"event": "members", "class": P, "members": [NAME_INFO...]}`` for each class path.

``NAME_INFO`` is ``{"name", "kind", "documented": true | false | null, "origin", "file",
"line"}``: ``kind`` one of module, class, function, callable, data, method, classmethod,
staticmethod, property, enum_member; ``documented`` null when a run time cannot tell (a
plain value); ``origin`` the module that defines the object. Everything written is
data the parent validates; nothing here is trusted.
"""

import enum
import functools
import importlib
import inspect
import io
import json
import os
import signal
import sys
import types
from typing import Any

_PRINT_CAP = 1 << 20
_TEXT_CAP = 300


class _TimeLimit(BaseException):
    """Raised by the alarm inside a module that takes too long."""


class _Sink(io.TextIOBase):
    """Where the analysed code's prints go: counted, never kept."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, text: str) -> int:
        self.size += len(text)
        return len(text)

    def writable(self) -> bool:
        return True


def _short(text: object) -> str:
    value = str(text)
    return value if len(value) <= _TEXT_CAP else value[:_TEXT_CAP] + "..."


def _error(error: BaseException) -> str:
    if isinstance(error, _TimeLimit):
        return "timeout"
    return _short(f"{type(error).__name__}: {error}".strip().rstrip(":"))


def _emit(stream: io.TextIOBase, record: dict[str, Any]) -> None:
    stream.write(json.dumps(record, ensure_ascii=True) + "\n")
    stream.flush()


def _kind(obj: object) -> str:
    if isinstance(obj, types.ModuleType):
        return "module"
    if isinstance(obj, type):
        return "class"
    if inspect.isroutine(obj):
        return "function"
    if callable(obj):
        return "callable"
    return "data"


def _member_kind(owner: type, name: str, raw: object) -> str:
    if name in (getattr(owner, "__members__", None) or {}) and isinstance(owner, enum.EnumMeta):
        return "enum_member"
    if isinstance(raw, staticmethod):
        return "staticmethod"
    if isinstance(raw, classmethod):
        return "classmethod"
    if isinstance(raw, (property, functools.cached_property)):
        return "property"
    if isinstance(raw, type):
        return "class"
    if isinstance(raw, types.MemberDescriptorType) or type(raw).__name__ == "_tuplegetter":
        return "data"  # a __slots__ member, a named tuple's field: an instance attribute
    if isinstance(
        raw,
        (
            types.FunctionType,
            types.MethodDescriptorType,
            types.WrapperDescriptorType,
            types.BuiltinFunctionType,
            types.ClassMethodDescriptorType,
        ),
    ):
        return "method"
    if hasattr(type(raw), "__get__") and (
        hasattr(type(raw), "__set__") or hasattr(type(raw), "__delete__")
    ):
        # A data descriptor of the project's own (a settings field): read and assigned
        # like an attribute, unless it wraps a function (below).
        wraps = any(callable(getattr(raw, name, None)) for name in ("fget", "func", "__wrapped__"))
        return "property" if wraps else "descriptor"
    if hasattr(type(raw), "__get__") and any(
        callable(getattr(raw, name, None)) for name in ("fget", "func", "__wrapped__")
    ):
        return "property"  # a descriptor around a function (a class property, a lazy one)
    if callable(raw):
        return "callable"
    return "data"


def _function_of(raw: object) -> object:
    """The function under a method wrapper, a property or a decorator's wrapper."""
    for attribute in ("__func__", "fget", "func"):
        inner = getattr(raw, attribute, None)
        if inner is not None and not isinstance(raw, type):
            raw = inner
            break
    return raw


def _doc(obj: object) -> bool | None:
    try:
        doc = obj.__doc__
    except Exception:  # noqa: BLE001 - analysed code: anything can raise
        return None
    return bool(isinstance(doc, str) and doc.strip())


def _own_class_doc(cls: type) -> bool:
    """Whether the class has a docstring of its own: not one ``dataclass`` or
    ``namedtuple`` wrote from its fields (``Point(x, y)``)."""
    doc = cls.__dict__.get("__doc__")
    if not (isinstance(doc, str) and doc.strip()):
        return False
    generated = doc.startswith(cls.__name__ + "(") and doc.rstrip().endswith(")")
    made = "__dataclass_fields__" in cls.__dict__ or "_fields" in cls.__dict__
    return not (generated and made and "\n" not in doc.strip())


def _where(obj: object) -> tuple[str | None, int]:
    function = _function_of(obj)
    try:
        function = inspect.unwrap(function)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - analysed code: anything can raise
        return None, 0
    code = getattr(function, "__code__", None)
    if isinstance(code, types.CodeType):
        return code.co_filename, code.co_firstlineno
    return None, 0


def _origin(obj: object) -> str | None:
    try:
        origin = getattr(obj, "__module__", None)
    except Exception:  # noqa: BLE001
        return None
    return origin if isinstance(origin, str) else None


def _info(name: str, obj: object, kind: str, documented: bool | None) -> dict[str, Any]:
    file, line = _where(obj)
    return {
        "name": name,
        "kind": kind,
        "documented": documented,
        "origin": _origin(obj),
        "file": file,
        "line": line,
    }


def _module_names(
    module: types.ModuleType,
) -> tuple[list[str] | None, list[dict[str, Any]], str | None]:
    """``__all__`` (or None), the information of each name it lists (or, without it, of
    each class and function the module defines), and a problem with ``__all__``."""
    listed = module.__dict__.get("__all__")
    problem = None
    if listed is not None and not (
        isinstance(listed, (list, tuple)) and all(isinstance(item, str) for item in listed)
    ):
        problem = "__all__ is not a list of strings"
        listed = None
    names: list[dict[str, Any]] = []
    if listed is not None:
        for name in dict.fromkeys(listed):
            try:
                value = getattr(module, name)
            except Exception as error:  # noqa: BLE001
                try:
                    value = importlib.import_module(f"{module.__name__}.{name}")
                except BaseException:  # noqa: BLE001
                    names.append({"name": name, "kind": None, "error": _error(error)})
                    continue
            names.append(_info(name, value, _kind(value), _documented(value)))
        return list(listed), names, problem
    for name, value in list(vars(module).items()):
        # Classes, functions, and bound methods of module-level instances (use = p.use).
        routine = (type, types.FunctionType, types.MethodType)
        if name.startswith("_") or not isinstance(value, routine):
            continue
        if _origin(value) != module.__name__:
            continue
        names.append(_info(name, value, _kind(value), _documented(value)))
    return None, names, problem


def _documented(value: object) -> bool | None:
    if isinstance(value, type):
        return _own_class_doc(value)
    if isinstance(value, types.ModuleType) or inspect.isroutine(value) or callable(value):
        return _doc(value)
    return None


_DOCUMENTABLE = ("method", "classmethod", "staticmethod", "property")


def _routine_doc(raw: object) -> bool | None:
    """Whether a class's member holding code has a docstring of its own: a function, a
    method wrapper, a property (its getter's); None for a value, whose ``__doc__`` is its
    type's."""
    if isinstance(raw, (staticmethod, classmethod)):
        return _doc(raw.__func__)
    if isinstance(raw, (property, functools.cached_property)) or inspect.isroutine(raw):
        return _doc(raw)
    return None


def _member_documented(cls: type, name: str, raw: object, kind: str) -> bool | None:
    if kind == "enum_member":
        return True
    if kind == "class":
        return _own_class_doc(raw)  # type: ignore[arg-type]
    if kind in _DOCUMENTABLE:
        if _routine_doc(raw):
            return True
        for base in cls.__mro__[1:]:  # an override inherits the documentation it overrides
            inherited = base.__dict__.get(name)
            if inherited is not None and _routine_doc(inherited):
                return True
        return False
    if kind == "callable":
        return None
    if name in _annotations(cls):
        return _own_class_doc(cls)  # an annotated field of a documented class
    return None


def _annotations(klass: type) -> dict[str, Any]:
    """The annotations ``klass`` itself declares (not evaluated)."""
    try:
        found = inspect.get_annotations(klass)
    except Exception:  # noqa: BLE001
        return {}
    return found if isinstance(found, dict) else {}


def _members(cls: type, inherited: bool) -> list[dict[str, Any]]:
    names = list(cls.__dict__)
    if inherited:
        names += [name for name in dir(cls) if name not in cls.__dict__]
    found = []
    for name in dict.fromkeys(names):
        if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
            continue
        try:
            raw = inspect.getattr_static(cls, name)
        except Exception:  # noqa: BLE001
            continue
        kind = _member_kind(cls, name, raw)
        owner = next((klass for klass in cls.__mro__ if name in klass.__dict__), cls)
        info = _info(name, _function_of(raw), kind, _member_documented(owner, name, raw, kind))
        info["owner"] = f"{owner.__module__}.{owner.__qualname__}"
        found.append(info)
    return found


def _resolve(path: str, module: types.ModuleType) -> dict[str, Any]:
    rest = path[len(module.__name__) + 1 :].split(".") if path != module.__name__ else []
    holder: object = module
    for index, part in enumerate(rest):
        parent = holder
        try:
            if isinstance(parent, type):
                raw = inspect.getattr_static(parent, part)
                holder = getattr(parent, part) if index < len(rest) - 1 else raw
            else:
                holder = getattr(parent, part)
        except Exception as error:  # noqa: BLE001
            if isinstance(parent, types.ModuleType):
                try:
                    holder = importlib.import_module(f"{parent.__name__}.{part}")
                    continue
                except BaseException:  # noqa: BLE001
                    pass
            if isinstance(parent, type) and index == len(rest) - 1:
                for klass in parent.__mro__:
                    if part in _annotations(klass):
                        return {"event": "path", "path": path, "kind": "data", "annotated": True}
            return {"event": "path", "path": path, "kind": None, "error": _error(error)}
        if isinstance(parent, type) and index == len(rest) - 1:
            return {"event": "path", "path": path, "kind": _member_kind(parent, part, holder)}
    return {"event": "path", "path": path, "kind": _kind(holder)}


def _on_alarm(signum: int, frame: object) -> None:
    raise _TimeLimit()


def _check_module(out: io.TextIOBase, name: str, request: dict[str, Any], sink: _Sink) -> None:
    _emit(out, {"event": "start", "module": name})
    seconds = int(request.get("seconds", 60))
    signal.alarm(seconds)
    before = sink.size
    try:
        module = importlib.import_module(name)
        listed, names, problem = _module_names(module)
    except BaseException as error:  # noqa: BLE001 - SystemExit, timeouts: all reported
        signal.alarm(0)
        _emit(
            out,
            {
                "event": "module",
                "module": name,
                "error": _error(error),
                "printed": sink.size - before,
            },
        )
        return
    _emit(
        out,
        {
            "event": "module",
            "module": name,
            "file": getattr(module, "__file__", None),
            "error": None,
            "all": listed,
            "all_problem": problem,
            "names": names,
            "printed": sink.size - before,
        },
    )
    classes = set(request.get("classes", ()))
    for path in request.get("paths", {}).get(name, ()):
        try:
            record = _resolve(path, module)
            _emit(out, record)
            if path in classes and record.get("kind") == "class":
                cls = _resolve_object(path, module)
                members = _members(cls, bool(request.get("inherited")))
                _emit(out, {"event": "members", "class": path, "members": members})
        except BaseException as error:  # noqa: BLE001
            _emit(out, {"event": "path", "path": path, "kind": None, "error": _error(error)})
            if isinstance(error, _TimeLimit):
                break
    signal.alarm(0)


def _resolve_object(path: str, module: types.ModuleType) -> type:
    holder: object = module
    for part in path[len(module.__name__) + 1 :].split("."):
        holder = getattr(holder, part)
    if not isinstance(holder, type):
        raise TypeError("not a class")
    return holder


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as stream:
        request = json.load(stream)
    out = open(os.environ["APISURFACE_RESULT"], "w", encoding="utf-8")  # noqa: SIM115
    signal.signal(signal.SIGALRM, _on_alarm)
    skip = set(request.get("skip", ()))
    sink = _Sink()
    real_out, real_err = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = sink  # the analysed code's prints are counted, not kept
    for name in request["modules"]:
        if name in skip:
            continue
        _check_module(out, name, request, sink)
    sys.stdout, sys.stderr = real_out, real_err
    _emit(out, {"event": "done"})
    out.close()
    os._exit(0)  # neither atexit handlers nor threads of the analysed code delay the end


if __name__ == "__main__":
    main()
