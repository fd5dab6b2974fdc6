"""The sandbox's launcher: confines itself, then becomes the child program.

Run by :mod:`apisurface.verify.sandbox` as ``python -I -S launch.py SPEC`` with apisurface's
own interpreter, never imported: it uses the standard library only (no apisurface, no site),
so nothing of the analysed package runs before the confinement is in place (a ``.pth`` file
of an installed package runs at interpreter start-up: that start-up is the child's, after
this). ``SPEC`` is a JSON object:

- ``argv`` (the program and its arguments), ``env`` (the whole environment), ``status_fd``
  (a pipe to report on, closed before the program starts);
- ``rlimits``: ``{"AS": bytes, "CPU": seconds, "FSIZE": bytes, "CORE": 0, ...}``;
- ``network``: false to take the network away (a new network namespace, inside a new user
  namespace: only a loopback that is down);
- ``pid_namespace``: true to start the program as process 1 of a new PID namespace, so
  that every process it starts dies with it, whatever session or group it moves to;
- ``landlock``: ``{"read": [paths], "write": [paths]}`` (Linux 5.13+): reading and
  executing only below ``read``, writing (creating, removing, truncating) only below
  ``write`` (a path that is a file grants that file alone); where the network could not be
  taken away and the kernel has Landlock ABI 4, TCP connect and bind are refused instead.
  ``None``: no file-system rule.

Each measure is tried and what took effect is written to ``status_fd`` as one JSON line
(``{"network": "namespace" | "landlock" | "none", "filesystem": ..., "pids": ...}``); what
the platform refuses is left out and reported, never fatal. Exit status: the program's; 125
when the launcher itself failed before the program started (the reason on the status pipe).
"""

import ctypes
import ctypes.util
import json
import os
import resource
import sys
from typing import Any

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
CLONE_NEWPID = 0x20000000
PR_SET_NO_NEW_PRIVS = 38
# Landlock's system calls have the same numbers on every Linux architecture.
SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH, LANDLOCK_RULE_NET_PORT = 1, 2

# Access rights by the ABI version that introduced them (include/uapi/linux/landlock.h).
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_WRITES_V1 = sum(1 << bit for bit in range(4, 13))  # remove, make char/dir/reg/sock/...
FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
LAUNCH_FAILED = 125


class _Failed(Exception):
    """The launcher could not do what it must (not what it may): exit 125."""


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)


def _limits(limits: dict[str, int]) -> list[str]:
    """Set each limit (never above the hard limit the process was given); the names of
    those the platform refused (macOS refuses some address-space limits)."""
    refused = []
    for name, value in limits.items():
        which = getattr(resource, "RLIMIT_" + name, None)
        if which is None:
            refused.append(name)
            continue
        hard = resource.getrlimit(which)[1]
        soft = value if hard == resource.RLIM_INFINITY else min(value, hard)
        # CPU: the soft limit sends SIGXCPU (reported as such), the hard one SIGKILL.
        ceiling = soft + 1 if name == "CPU" and hard == resource.RLIM_INFINITY else soft
        try:
            resource.setrlimit(which, (soft, ceiling))
        except (ValueError, OSError):
            refused.append(name)
    return refused


def _write_map(path: str, text: str) -> None:
    with open(path, "w") as stream:
        stream.write(text)


def _unshare(libc: ctypes.CDLL, flags: int) -> bool:
    """Enter new namespaces inside a new user namespace that maps this user to itself:
    the child then holds no capability outside it, even when run as root (it cannot join
    the machine's network namespace again, nor read another process's ``/proc`` entries
    when that process is not dumpable). Whether it worked."""
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(flags | CLONE_NEWUSER) != 0:
        return False
    try:
        _write_map("/proc/self/setgroups", "deny")
        _write_map("/proc/self/uid_map", f"{uid} {uid} 1")
        _write_map("/proc/self/gid_map", f"{gid} {gid} 1")
    except OSError:
        pass  # unmapped: the process runs as the overflow user, which still works
    return True


def _landlock_abi(libc: ctypes.CDLL) -> int:
    libc.syscall.restype = ctypes.c_long
    version = libc.syscall(
        SYS_CREATE_RULESET,
        None,
        ctypes.c_size_t(0),
        ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION),
    )
    return int(version) if version > 0 else 0


class _RulesetAttr(ctypes.Structure):
    _fields_ = (("fs", ctypes.c_uint64), ("net", ctypes.c_uint64))


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def _landlock(libc: ctypes.CDLL, rules: dict[str, list[str]], deny_tcp: bool) -> tuple[str, bool]:
    """Apply the file-system rules (and TCP denial); what took effect."""
    abi = _landlock_abi(libc)
    if abi < 1:
        return "none", False
    reads = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
    writes = FS_WRITE_FILE | FS_WRITES_V1
    if abi >= 2:
        writes |= FS_REFER
    if abi >= 3:
        writes |= FS_TRUNCATE
    handled = reads | writes | (FS_IOCTL_DEV if abi >= 5 else 0)
    net = NET_BIND_TCP | NET_CONNECT_TCP if deny_tcp and abi >= 4 else 0
    attr = _RulesetAttr(handled, net)
    size = ctypes.sizeof(attr) if abi >= 4 else 8
    ruleset = libc.syscall(
        SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0)
    )
    if ruleset < 0:
        return "none", False
    grants = [(path, reads) for path in rules.get("read", [])]
    grants += [(path, handled) for path in rules.get("write", [])]
    for path, wanted in grants:
        allowed = wanted
        try:
            descriptor = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue  # a folder that does not exist here grants nothing
        if not os.path.isdir(path):  # rights a file can take
            allowed &= FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
        beneath = _PathBeneath(allowed & handled, descriptor)
        added = libc.syscall(
            SYS_ADD_RULE,
            ctypes.c_int(ruleset),
            ctypes.c_int(LANDLOCK_RULE_PATH_BENEATH),
            ctypes.byref(beneath),
            ctypes.c_uint32(0),
        )
        os.close(descriptor)
        if added != 0:
            os.close(ruleset)
            raise _Failed(f"landlock refused a rule for {path}")
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        os.close(ruleset)
        return "none", False
    if libc.syscall(SYS_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
        os.close(ruleset)
        return "none", False
    os.close(ruleset)
    return f"landlock (ABI {abi})", bool(net)


def _confine(spec: dict[str, Any]) -> dict[str, str]:
    status = {"network": "allowed", "filesystem": "none", "pids": "process group"}
    refused = _limits(spec.get("rlimits", {}))
    if refused:
        status["limits_refused"] = " ".join(refused)
    linux = sys.platform.startswith("linux")
    libc = _libc() if linux else None
    flags = 0
    if not spec.get("network", True):
        flags |= CLONE_NEWNET
        status["network"] = "none"
    if spec.get("pid_namespace"):
        flags |= CLONE_NEWPID
    if libc is not None and flags and _unshare(libc, flags):
        if flags & CLONE_NEWNET:
            status["network"] = "namespace"
        if flags & CLONE_NEWPID:
            status["pids"] = "namespace"
    elif flags & CLONE_NEWNET:
        status["network"] = "not confined"
    rules = spec.get("landlock")
    if libc is not None and rules is not None:
        deny_tcp = status["network"] == "not confined"
        status["filesystem"], tcp_denied = _landlock(libc, rules, deny_tcp)
        if tcp_denied:
            status["network"] = "landlock (TCP)"
    elif rules is not None:
        status["filesystem"] = "not confined"
    if rules is not None and status["filesystem"] == "none":
        status["filesystem"] = "not confined"
    return status


def _exit_like(status: int) -> None:
    if os.WIFSIGNALED(status):
        signal_number = os.WTERMSIG(status)
        import signal  # noqa: PLC0415

        if signal_number not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(signal_number, signal.SIG_DFL)
        os.kill(os.getpid(), signal_number)
    os._exit(os.waitstatus_to_exitcode(status) if not os.WIFSIGNALED(status) else 128)


def main() -> None:
    spec = json.loads(sys.argv[1])
    status_fd = spec["status_fd"]
    try:
        status = _confine(spec)
    except (_Failed, OSError) as error:
        os.write(status_fd, json.dumps({"failed": str(error)}).encode() + b"\n")
        os._exit(LAUNCH_FAILED)
    os.write(status_fd, json.dumps(status).encode() + b"\n")
    os.close(status_fd)
    argv, env = spec["argv"], spec["env"]
    if status["pids"] == "namespace":
        _run_in_pid_namespace(argv, env)
    _exec(argv, env)


def _run_in_pid_namespace(argv: list[str], env: dict[str, str]) -> None:
    """The first child of the new namespace is its process 1: it starts the program as its
    own child (so the program's signals behave as anywhere else: process 1 ignores those
    it has no handler for), reaps orphans, and hands the program's wait status back. When
    it ends, the kernel kills every process left in the namespace."""
    reader, writer = os.pipe()  # not inherited by the program (close-on-exec)
    init = os.fork()
    if init == 0:
        os.close(reader)
        program = os.fork()
        if program == 0:
            _exec(argv, env)
        while True:
            pid, status = os.wait()
            if pid == program:
                break
        os.write(writer, str(status).encode())
        os._exit(0)
    os.close(writer)
    init_status = os.waitpid(init, 0)[1]
    reported = os.read(reader, 64)
    _exit_like(int(reported) if reported.isdigit() else init_status)


def _exec(argv: list[str], env: dict[str, str]) -> None:
    try:
        os.execve(argv[0], argv, env)
    except OSError as error:
        sys.stderr.write(f"cannot start {argv[0]}: {error.strerror}\n")
        os._exit(LAUNCH_FAILED)


if __name__ == "__main__":
    main()
