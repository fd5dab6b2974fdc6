"""Checking claims against the running package (``--verify``): the only code of
apisurface that imports or runs analysed code, and only in child processes of isolated
environments (docs/security.md, "Verification").

- :mod:`~apisurface.verify.environments`: an environment of a release (index, wheel,
  sources), built with uv and cached;
- :mod:`~apisurface.verify.sandbox`: runs a child confined and limited (the only place a
  program other than git starts; :mod:`~apisurface.verify.launch` is its launcher);
- :mod:`~apisurface.verify.importcheck`: the static surface compared with what the
  imported package serves (``surface_gap`` problems).
"""
