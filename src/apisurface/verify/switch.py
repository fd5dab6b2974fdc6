"""Whether a command verifies: ``--verify`` / ``--no-verify``, ``APISURFACE_VERIFY``, the
configuration.

``APISURFACE_VERIFY=0`` refuses verification whatever the flags and ``[tool.apisurface]
verify`` say: the configuration is read from the tree under review, so a pull request
could otherwise turn it on. The GitHub Action sets it on pull requests from forks (and
``APISURFACE_VERIFY=1``, which asks for it like ``--verify``, when its ``verify`` input is
true elsewhere).
"""

from __future__ import annotations

import os

from apisurface.project.config import Config

__all__ = ["VERIFY_ENV", "verify_wanted"]

VERIFY_ENV = "APISURFACE_VERIFY"


def verify_wanted(flag: bool | None, config: Config | None) -> tuple[bool, str]:
    """Whether to verify, and a note when a request for it was refused ("" otherwise).
    ``flag``: True for ``--verify``, False for ``--no-verify``, None for neither."""
    setting = os.environ.get(VERIFY_ENV, "").strip().lower()
    refused = setting in ("0", "false", "no", "off")
    if flag is not None:
        asked = flag
    else:
        asked = setting in ("1", "true", "yes", "on") or bool(config is not None and config.verify)
    if asked and refused:
        why = "--verify" if flag else "[tool.apisurface] verify = true"
        return False, f"{why} refused: {VERIFY_ENV}=0 forbids running the analysed code here"
    return asked, ""
