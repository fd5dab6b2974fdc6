"""How the library reports progress without printing: a callback the caller supplies.

``progress(phase, done, total)`` is called with a short description of the phase (for
example ``"parsing django"``), how many steps are done, and how many there are (0 when
unknown). The command line turns these calls into a progress bar on a terminal.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ProgressCallback"]

ProgressCallback = Callable[[str, int, int], None]
