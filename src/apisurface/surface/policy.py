"""What is public, name by name (POLICY.md section 2, rules 1-4 and 7).

These are pure functions of names and the project's configuration; ``collect`` applies
them while walking the package, together with the documentation rule.
"""

from __future__ import annotations

import re
from fnmatch import translate

from apisurface.model import ExclusionReason
from apisurface.project.config import Config

__all__ = [
    "is_compat",
    "is_dunder",
    "is_test_module",
    "matches_any",
    "name_exclusion",
    "never_walked",
    "path_exclusion",
]

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


def never_walked(module: str, config: Config) -> str | None:
    """The component of the dotted ``module`` (below the package) that puts it outside
    the contract whatever it holds (rule 4: ``tools``, ``examples``, test code), or None. The
    walk never enters such a module: its content matters only where another module
    imports from it. None for every module when ``include`` patterns may take one back."""
    if config.include:
        return None
    for name in module.split(".")[1:]:
        if name in _OUTSIDE_DIRS or is_test_module(name):
            return name
    return None


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
    if matches_any(name, config.exclude_names):
        return ExclusionReason.CONFIGURED
    return None


def path_exclusion(path: str, config: Config) -> ExclusionReason | None:
    """Whether the project's ``exclude`` patterns (on dotted paths) remove ``path``."""
    if matches_any(path, config.include):
        return None
    if matches_any(path, config.exclude):
        return ExclusionReason.CONFIGURED
    return None


# --- matching many patterns -------------------------------------------------------------
#
# ``fnmatch`` compiles each pattern into an LRU cache of 32k entries: with more patterns
# than that (a pull request can add 100k to pyproject.toml) every name recompiled every
# pattern, 52 s for a package of four functions. Each list is compiled once instead.

_WILDCARDS = re.compile(r"[*?\[]")


class _Patterns:
    """Case-sensitive shell patterns, as ``fnmatchcase``: literal ones in a set, the others
    indexed by the literal text before their first wildcard and compiled when first met."""

    def __init__(self, patterns: tuple[str, ...]) -> None:
        self.patterns = patterns  # kept alive: the cache below is keyed by its id
        self.literal: set[str] = set()
        self.by_prefix: dict[str, list[str]] = {}
        self.compiled: dict[str, re.Pattern[str]] = {}
        for pattern in patterns:
            wildcard = _WILDCARDS.search(pattern)
            if wildcard is None:
                self.literal.add(pattern)
            else:
                self.by_prefix.setdefault(pattern[: wildcard.start()], []).append(pattern)

    def match(self, text: str) -> bool:
        if text in self.literal:
            return True
        if not self.by_prefix:
            return False
        for end in range(len(text) + 1):
            for pattern in self.by_prefix.get(text[:end], ()):
                regex = self.compiled.get(pattern)
                if regex is None:
                    regex = self.compiled[pattern] = re.compile(translate(pattern))
                if regex.match(text):
                    return True
        return False


_COMPILED: dict[int, _Patterns] = {}


def matches_any(text: str, patterns: tuple[str, ...]) -> bool:
    """Whether ``text`` matches one of the shell ``patterns`` (as ``fnmatchcase``)."""
    if not patterns:
        return False
    compiled = _COMPILED.get(id(patterns))
    if compiled is None or compiled.patterns is not patterns:
        if len(_COMPILED) > 64:
            _COMPILED.clear()
        compiled = _COMPILED[id(patterns)] = _Patterns(patterns)
    return compiled.match(text)
