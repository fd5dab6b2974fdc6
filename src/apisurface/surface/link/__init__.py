"""The package step: every module's summary in, the public surface out.

It attaches the visited modules to their package, resolves what depends on other files
(re-exports, star-imports, bases, MROs, deprecations inherited from a parent) and describes
each public path as a :class:`~apisurface.model.Symbol`. It reads the per-file step's
summaries (:mod:`apisurface.surface.visit.facts`), never the source files again.
"""
