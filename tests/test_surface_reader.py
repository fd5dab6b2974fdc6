"""What the static reader makes of forms the surface cases only name by kind (issue 36):
the signatures, documentation and deprecations they carry."""

from __future__ import annotations

from pathlib import Path

from casefile import SURFACE_CASES, parse_case, write_tree

from apisurface.model import Surface
from apisurface.surface.collect import load_surface


def _case_surface(name: str, tmp_path: Path) -> Surface:
    (path,) = [item for item in SURFACE_CASES if item.stem == name]
    return load_surface(write_tree(tmp_path, parse_case(path).old), "pkg")


def _parameters(surface: Surface, path: str) -> list[str]:
    signature = surface.symbols[path].signature
    assert signature is not None
    return [parameter.name for parameter in signature.parameters]


def test_a_bound_method_alias_has_the_methods_signature_without_self(tmp_path: Path) -> None:
    surface = _case_surface("bound_method_aliases", tmp_path)
    assert _parameters(surface, "pkg.flaskparser.use_args") == ["argmap", "req", "location"]
    assert _parameters(surface, "pkg.flaskparser.register") == ["name"]
    # documented by the method (the override's docstring is its base's)
    method = surface.symbols["pkg.core.Parser.use_kwargs"]
    assert surface.symbols["pkg.flaskparser.use_kwargs"].docstring_hash == method.docstring_hash
    assert method.docstring_hash is not None
    # the method itself keeps ``self`` out as a method does, and its own parameters
    assert _parameters(surface, "pkg.core.Parser.use_args") == ["argmap", "req", "location"]


def test_docstrings_set_at_run_time_carry_their_text(tmp_path: Path) -> None:
    surface = _case_surface("docstrings_set_at_run_time", tmp_path)
    symbols = surface.symbols
    original = symbols["pkg.original"].docstring_hash
    assert symbols["pkg.wrapped"].docstring_hash == original
    assert symbols["pkg.updated"].docstring_hash == original
    assert symbols["pkg.copied"].docstring_hash == original
    assert symbols["pkg.literal"].docstring_hash not in (None, original)


def test_a_name_served_from_a_deprecated_table_is_deprecated_and_inferred(
    tmp_path: Path,
) -> None:
    surface = _case_surface("type_checking_served_lazily", tmp_path)
    old = surface.symbols["pkg.OldClient"]
    assert old.deprecated is not None
    assert "deprecated" in old.inferred
    assert old.location is not None and old.location.file == "pkg/__init__.py"
    assert surface.symbols["pkg.connect"].deprecated is None


def test_a_table_of_deprecated_values_serves_its_keys_not_the_names_in_its_values(
    tmp_path: Path,
) -> None:
    # Markdown 3.3.7: ``__deprecated__ = {"string_type": ("str", str)}`` looked up by a
    # module ``__getattr__``; ``str`` is no name the module serves (a base ``str`` stays it).
    root = tmp_path / "tree"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text(
        '"""Pkg."""\n\n__deprecated__ = {"string_type": ("str", str)}\n\n\n'
        "def __getattr__(name):\n    return __deprecated__[name][1]\n\n\n"
        'class Atomic(str):\n    """An atomic string."""\n',
        encoding="utf-8",
    )
    surface = load_surface(root, "pkg")
    assert surface.symbols["pkg.Atomic"].bases == ("str",)
    assert "pkg.str" not in surface.symbols
