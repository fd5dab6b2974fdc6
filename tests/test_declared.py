"""What a module's source declares beyond griffe's model (apisurface.surface.visit.declared): the
forms of each rule the surface cases do not spell out one by one."""

from __future__ import annotations

import textwrap

import pytest

from apisurface.surface.visit.declared import declarations, delegates_to_base, reassigned_candidates


def _shims(source: str) -> dict[str, tuple[str, str | None]]:
    found = declarations(textwrap.dedent(source)).shims
    return {name: (shim.message, shim.returns) for name, shim in found.items()}


def test_redundant_aliases_on_any_line_and_dot_imports() -> None:
    found = declarations(
        textwrap.dedent(
            """
            import json as json
            import os.path as path
            from .core import (
                Client as Client,
                Server as Server,
                helper as other,
            )
            from . import util, config as config, tools as renamed
            from .. import parent
            """
        )
    )
    assert found.redundant_aliases == {"json", "Client", "Server", "config"}
    assert found.dot_imports == {"util", "config"}


def test_shim_forms() -> None:
    source = """
        import warnings
        _OLD = frozenset({"C", "D"})
        _MOVED = {"E": ("new_e", "use new_e")}

        def __getattr__(name):
            if name == "A" or name == "B":
                warnings.warn(f"{name} is deprecated", DeprecationWarning)
                return new_ab
            elif name in _OLD:
                warnings.warn("old", category=FutureWarning)
                return None
            elif name in _MOVED.keys():
                _warn_deprecated(name)
                return globals()[_MOVED[name][0]]
            elif name == "I":
                warnings.warn("moved", DeprecationWarning)
                from ..other import Thing as Renamed
                return Renamed
            elif name == "LAZY":
                from . import lazy
                return lazy
            match name:
                case "F" | "G":
                    warnings.warn("gone", PendingDeprecationWarning)
                    return new_fg
                case "H":
                    return something
            raise AttributeError(name)
        """
    found = _shims(source)
    assert found == {
        "A": ("A is deprecated", "new_ab"),
        "B": ("B is deprecated", "new_ab"),
        "C": ("old", None),
        "D": ("old", None),
        "E": ("raises DeprecationWarning", "new_e"),
        "F": ("gone", "new_fg"),
        "G": ("gone", "new_fg"),
        "I": ("moved", "Renamed"),
    }
    assert declarations(textwrap.dedent(source)).shims["I"].imported == "..other.Thing"


def test_shim_by_table_lookup_with_unconditional_warning() -> None:
    found = _shims(
        """
        import warnings
        _RENAMED = {"Old": "New"}

        def __getattr__(name):
            try:
                new = _RENAMED[name]
            except KeyError:
                raise AttributeError(name) from None
            warnings.warn(f"{name} is now {new}", DeprecationWarning, stacklevel=2)
            return globals()[new]
        """
    )
    assert found == {"Old": ("Old is now ...", "New")}


@pytest.mark.parametrize(
    "source",
    [
        # no warning: a lazy import, not a deprecation
        'def __getattr__(name):\n    if name == "A":\n        return 1\n',
        # a warning that is not a deprecation
        'def __getattr__(name):\n    if name == "A":\n        warn("x", UserWarning)\n',
        # names not literal
        "def __getattr__(name):\n"
        "    if name.startswith('x'):\n"
        "        warn('x', DeprecationWarning)\n",
        # filtering warnings issues none
        'def __getattr__(name):\n    if name == "A":\n'
        '        filterwarnings("ignore", DeprecationWarning)\n',
        # a nested __getattr__ is no module hook
        "class C:\n    def __getattr__(self, name):\n"
        '        if name == "A":\n            warn("x", DeprecationWarning)\n',
    ],
)
def test_not_shims(source: str) -> None:
    assert _shims(source) == {}


def test_atpublic_names_and_values() -> None:
    found = declarations(
        textwrap.dedent(
            """
            from public import public as exported
            import atpublic

            @exported
            def f(): ...

            @atpublic.public
            class C: ...

            @public
            def not_atpublic(): ...

            exported(LIMIT=10, NAME="x")
            """
        )
    )
    assert found.public_names == {"f", "C", "LIMIT", "NAME"}
    assert found.public_values == {"LIMIT": ("10", 14), "NAME": ("'x'", 14)}


def test_assignments_in_branches() -> None:
    source = textwrap.dedent(
        """
        try:
            from ._speedups import Fast
        except ImportError:
            Fast = Slow
        if flag:
            get = a.get
        else:
            get = fetch

        def f():
            local = value
        """
    )
    assert reassigned_candidates(source) == {"Fast", "get", "local"}
    found = declarations(source, assignments=True)
    assert found.assigned_names == {"Fast": ("Slow",), "get": ("a.get", "fetch")}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def __init__(self, *a, **k):\n    super().__init__(*a, **k)\n", True),
        ('def __init__(self, x):\n    """Doc."""\n    super(C, self).__init__(x)\n', True),
        ("def __init__(self, x):\n    return Base.__init__(self, x)\n", True),
        ("def __init__(self, x):\n    super().__init__(x)\n    self.y = 1\n", False),
        ("def __init__(self, x):\n    super().setup(x)\n", False),
        ("def __init__(self, x):\n    pass\n", False),
        ("    def __init__(self, x):\n        super().__init__(x)\n", True),
    ],
)
def test_delegates_to_base(source: str, *, expected: bool) -> None:
    assert delegates_to_base(source) is expected
