"""What is public, name by name (POLICY.md section 2, rules 1-4 and 7).

These are pure functions of names and the project's configuration; ``collect`` applies
them while walking the package, together with the documentation rule.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from apisurface.config import Config
from apisurface.model import ExclusionReason

__all__ = ["is_compat", "is_dunder", "is_test_module", "name_exclusion", "path_exclusion"]

_OUTSIDE_DIRS = frozenset({"tools", "examples"})
# Test code shipped inside a package (rule 4); ``testing`` is often real API (numpy.testing).
_TEST_MODULES = frozenset({"tests", "test", "conftest"})


def is_dunder(name: str) -> bool:
    """``__name__``-style names: the call protocol of a class, never private."""
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def is_test_module(name: str) -> bool:
    """Test code inside the package: ``tests``/``test`` packages or modules, ``conftest``,
    ``test_*`` and ``*_test`` modules (rule 4; reported with the ``tools`` reason)."""
    return name in _TEST_MODULES or name.startswith("test_") or name.endswith("_test")


def is_compat(name: str) -> bool:
    """Modules named ``compat`` are covered but deprecated (rule 7)."""
    return name == "compat"


def name_exclusion(
    name: str, *, is_module: bool, config: Config, in_class: bool = False
) -> ExclusionReason | None:
    """Why one path component puts its subtree outside the contract, or ``None``.

    Dunder names are private at module level (``__version__``) and public in classes.
    """
    if name.startswith("_") and not (in_class and is_dunder(name)):
        return ExclusionReason.PRIVATE
    if "experimental" in name.lower():
        return ExclusionReason.EXPERIMENTAL
    if name == "contrib":
        return ExclusionReason.CONTRIB
    if is_module and (name in _OUTSIDE_DIRS or is_test_module(name)):
        return ExclusionReason.TOOLS
    if any(fnmatchcase(name, pattern) for pattern in config.exclude_names):
        return ExclusionReason.CONFIGURED
    return None


def path_exclusion(path: str, config: Config) -> ExclusionReason | None:
    """Whether the project's ``exclude`` patterns (on dotted paths) remove ``path``."""
    if any(fnmatchcase(path, pattern) for pattern in config.include):
        return None
    if any(fnmatchcase(path, pattern) for pattern in config.exclude):
        return ExclusionReason.CONFIGURED
    return None
