"""``python -m apisurface``."""

from apisurface.cli import run

run()
