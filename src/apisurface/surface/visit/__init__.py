"""The per-file step: one source file in, its module summary out.

Each module here reads one file and nothing else (no other module of the package), so its
product is cached by the file's content and may be computed in a worker process. What it
hands on is the summary (:mod:`.summary`, the module tree as plain data, and
:mod:`.facts`, the typed per-file facts); nothing here imports the package step
(:mod:`apisurface.surface.link`), which tests/test_layout.py enforces.
"""
