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
