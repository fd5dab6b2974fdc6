"""Whether a command verifies (apisurface.verify.switch): the flags, APISURFACE_VERIFY and
[tool.apisurface] verify, with APISURFACE_VERIFY=0 refusing whatever asks."""

from __future__ import annotations

import pytest

from apisurface.project.config import Config, parse_config
from apisurface.verify.switch import VERIFY_ENV, verify_wanted


@pytest.mark.parametrize(
    ("flag", "setting", "configured", "expected"),
    [
        (None, "", False, (False, False)),
        (None, "", True, (True, False)),
        (True, "", False, (True, False)),
        (False, "", True, (False, False)),
        (None, "1", False, (True, False)),
        (False, "1", False, (False, False)),
        (True, "0", False, (False, True)),
        (None, "0", True, (False, True)),
        (None, "0", False, (False, False)),
    ],
)
def test_who_decides(
    monkeypatch: pytest.MonkeyPatch,
    flag: bool | None,
    setting: str,
    configured: bool,
    expected: tuple[bool, bool],
) -> None:
    wanted, refused = expected
    monkeypatch.setenv(VERIFY_ENV, setting)
    decided, note = verify_wanted(flag, Config(verify=configured))
    assert decided is wanted
    assert bool(note) is refused
    if refused:
        assert note.endswith("refused: APISURFACE_VERIFY=0 forbids running the analysed code here")


def test_the_configuration_key_reads_a_flag() -> None:
    assert parse_config({"verify": True}).verify is True
    assert parse_config({}).verify is False
