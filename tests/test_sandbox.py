"""The sandbox (apisurface.verify.sandbox): every child that runs analysed code is confined
and limited, and whatever it does ends as a value with one clear reason.

Where the platform refuses a measure (no Landlock, no namespaces), the run says so in its
``confinement``, and the test checks the reduced guarantee it states instead."""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path

import pytest

from apisurface.verify.sandbox import RESULT_ENV, Limits, Outcome, run_program, run_python

PYTHON = Path(sys.executable)


def _landlock(run_confinement: object) -> bool:
    return str(getattr(run_confinement, "filesystem", "")).startswith("landlock")


def test_a_script_runs_and_its_results_cross_back_as_json_lines() -> None:
    script = (
        "import json, os\n"
        f"out = open(os.environ[{RESULT_ENV!r}], 'w')\n"
        "out.write(json.dumps({'a': 1}) + '\\n')\n"
        "out.write(json.dumps([1, 'two', None]) + '\\n')\n"
        "print('hello')\n"
    )
    run = run_python(PYTHON, script)
    assert run.ok, run.stderr
    assert run.results == ({"a": 1}, [1, "two", None])
    assert run.result_problem == ""
    assert run.stdout == "hello\n"


def test_the_child_gets_a_clean_environment_and_is_isolated(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "secret-token")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    (tmp_path / "planted.py").write_text("PLANTED = True\n", encoding="utf-8")
    script = (
        "import os, sys\n"
        "print(sorted(k for k in os.environ if 'TOKEN' in k or k == 'PYTHONPATH'))\n"
        "print(os.getcwd() in sys.path or '' in sys.path)\n"
        "try:\n    import planted\n    print('planted')\nexcept ImportError:\n    print('absent')\n"
        "print(os.environ['HOME'] != os.environ['TMPDIR'], os.getcwd() != os.environ['HOME'])\n"
    )
    run = run_python(PYTHON, script, env={"EXTRA": "1"})
    assert run.ok, run.stderr
    assert run.stdout.splitlines() == ["[]", "False", "absent", "True True"]


def test_a_child_that_hangs_is_killed_at_the_deadline() -> None:
    began = time.monotonic()
    run = run_python(PYTHON, "import time\ntime.sleep(60)", limits=Limits(seconds=1))
    assert run.outcome is Outcome.TIMEOUT
    assert run.reason == "took longer than 1 s (killed)"
    assert time.monotonic() - began < 10


def test_a_child_that_exits_the_interpreter_says_with_which_status() -> None:
    run = run_python(PYTHON, "import os\nos._exit(7)")
    assert run.outcome is Outcome.FAILED
    assert run.reason == "exited with status 7"
    assert run.exit_code == 7


def test_output_past_the_cap_is_cut_and_reported() -> None:
    run = run_python(
        PYTHON, "import os\nos.write(1, b'x' * 3_000_000)", limits=Limits(output_bytes=1 << 20)
    )
    assert run.outcome is Outcome.OUTPUT
    assert run.reason == "printed more than 1 MiB (killed)"
    assert len(run.stdout) <= 70_000  # what is kept is bounded too


def test_memory_and_cpu_limits_hold() -> None:
    memory = run_python(PYTHON, "x = bytearray(3 << 30)", limits=Limits(memory_bytes=1 << 30))
    assert memory.outcome is Outcome.FAILED
    assert memory.last_error_line() == "MemoryError"
    cpu = run_python(PYTHON, "while True:\n    pass", limits=Limits(cpu_seconds=1, seconds=30))
    assert cpu.outcome is Outcome.KILLED
    assert cpu.reason == "used more than 1 s of CPU"


def test_a_crash_is_named_by_its_signal() -> None:
    run = run_python(PYTHON, "import ctypes\nctypes.string_at(0)")
    assert run.outcome is Outcome.KILLED
    assert run.reason == "was ended by signal SIGSEGV"


def test_writes_outside_the_temporary_folder_are_refused(tmp_path: Path) -> None:
    target = tmp_path / "escaped.txt"
    script = f"import os\nopen({str(target)!r}, 'w').write('x')\n"
    run = run_python(PYTHON, script)
    if _landlock(run.confinement):
        assert run.outcome is Outcome.FAILED
        assert run.last_error_line().startswith("PermissionError")
        assert not target.exists()
    else:  # the reduced guarantee is stated, never silent
        assert run.confinement.reduced
        assert run.confinement.filesystem == "not confined"


def test_a_write_to_the_current_folder_is_refused_or_reported() -> None:
    run = run_python(PYTHON, "open('state.txt', 'w').write('x')")
    if _landlock(run.confinement):
        assert run.last_error_line().startswith("PermissionError")
        assert run.wrote_here == ()
    else:
        assert run.wrote_here == ("state.txt",)


def test_the_home_folder_and_the_parents_environment_are_unreadable() -> None:
    secret = Path.home() / ".apisurface-test-secret"
    secret.write_text("secret", encoding="utf-8")
    try:
        script = (
            "import sys\n"
            "for path in sys.argv[1:]:\n"
            "    try:\n        open(path, 'rb').read(10)\n        print('read')\n"
            "    except OSError:\n        print('refused')\n"
        )
        run = run_python(PYTHON, script, [str(secret), f"/proc/{os.getpid()}/environ"])
    finally:
        secret.unlink()
    if _landlock(run.confinement) and run.confinement.network == "namespace":
        assert run.stdout.splitlines() == ["refused", "refused"]
    else:
        assert run.confinement.reduced


def test_no_network_inside(tmp_path: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    try:
        script = (
            "import socket\n"
            "try:\n"
            f"    socket.create_connection(('127.0.0.1', {port}), timeout=3)\n"
            "    print('connected')\n"
            "except OSError:\n    print('refused')\n"
        )
        run = run_python(PYTHON, script)
    finally:
        server.close()
    if run.confinement.network in ("namespace", "landlock (TCP)"):
        assert run.stdout.strip() == "refused"
    else:
        assert run.confinement.reduced


def test_every_process_the_child_started_ends_with_it(tmp_path: Path) -> None:
    marker = tmp_path / "late.txt"
    script = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    time.sleep(1.5)\n"
        f"    open({str(marker)!r}, 'w').write('still alive')\n"
        "    os._exit(0)\n"
        "print('parent done')\n"
    )
    run = run_python(PYTHON, script, write=[tmp_path])
    assert run.ok
    time.sleep(2.5)
    if run.confinement.pids == "namespace":
        assert not marker.exists()
    else:  # a child in a new session escapes the process-group kill: stated
        assert run.confinement.reduced


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'{"ok": 1}\nnot json\n{"later": 2}\n', "line 2 of the result is not JSON"),
        (
            b'{"ok": 1}\n' + b"[" * 100 + b"]" * 100 + b"\n",
            "line 2 of the result is nested too deeply",
        ),
        (b"[" * 200_000 + b"\n", "line 1 of the result is not JSON"),
    ],
)
def test_results_are_untrusted_input(content: bytes, problem: str, tmp_path: Path) -> None:
    payload = tmp_path / "payload"
    payload.write_bytes(content)
    script = f"import os, shutil, sys\nshutil.copyfile(sys.argv[1], os.environ[{RESULT_ENV!r}])\n"
    run = run_python(PYTHON, script, [str(payload)], read=[tmp_path])
    assert run.ok, run.stderr
    assert run.result_problem == problem
    assert all(isinstance(value, dict) for value in run.results)


def test_a_result_file_that_is_a_symlink_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"forged": True}) + "\n", encoding="utf-8")
    script = f"import os\nos.symlink({str(outside)!r}, os.environ[{RESULT_ENV!r}])\n"
    run = run_python(PYTHON, script)
    assert run.ok, run.stderr
    assert run.results == ()
    assert run.result_problem.startswith("result file not read")


def test_a_result_file_larger_than_its_cap_is_not_read() -> None:
    script = (
        f"import os\nopen(os.environ[{RESULT_ENV!r}], 'w').write('[' + '1,' * 600_000 + '1]')\n"
    )
    run = run_python(PYTHON, script, limits=Limits(result_bytes=1 << 20))
    assert run.results == ()
    assert run.result_problem.startswith("result file not read")


def test_a_program_that_cannot_start_is_a_value() -> None:
    run = run_program(["/nonexistent/program"])
    assert run.outcome is Outcome.FAILED or run.outcome is Outcome.NOT_STARTED
    assert "cannot start /nonexistent/program" in run.stderr


def test_the_run_folder_is_removed_afterwards() -> None:
    run = run_python(PYTHON, "import os\nprint(os.environ['HOME'])")
    assert run.ok
    assert not Path(run.stdout.strip()).exists()
