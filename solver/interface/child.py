"""A function run in a forked child that cannot outlive the command that started it.

The child leads its own process group (so stopping it stops anything it started), is killed by
the kernel if the thread that forked it dies (Linux: prctl PR_SET_PDEATHSIG; elsewhere a thread
that watches its parent), dies at once on SIGTERM, and keeps no file descriptor but standard
output, standard error and the write end of its message pipe: every other one (the server's
listening and client sockets, the pipe's read end) is pointed at /dev/null, so a port is freed
when the server closes it and a write into the pipe fails instead of blocking once the parent
is gone. Messages are pickled objects on the pipe; the parent reads them as they come.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

PR_SET_PDEATHSIG = 1
"""prctl option (linux/prctl.h): the signal this process gets when its parent thread dies."""
WATCH_PARENT_S = 0.5
"""Where prctl is missing: how often the child looks whether its parent is still there."""
EXIT_TERMINATED = 128 + signal.SIGTERM
"""The exit code of a command stopped by SIGTERM (the shell's convention)."""

Send = Callable[[Any], None]


def can_fork() -> bool:
    """Whether this platform runs the solve in a child (POSIX); else it runs in-process."""
    return hasattr(os, "fork") and sys.platform != "win32"


@dataclass
class Child:
    """A running child: its pid (also its process group) and the read end of its pipe."""

    pid: int
    messages: Connection
    exit_code: int | None = None

    def poll(self, timeout_s: float) -> bool:
        """Whether a message is waiting (within `timeout_s`)."""
        return self.messages.poll(timeout_s)

    def receive(self) -> Any:
        """The next message; EOFError once the child closed the pipe (it ended)."""
        return self.messages.recv()

    def stop(self) -> None:
        """Kill the child and its process group (it may be done already) and reap it."""
        if self.exit_code is None:
            for kill in (os.killpg, os.kill):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                _, status = os.waitpid(self.pid, 0)
                self.exit_code = os.waitstatus_to_exitcode(status)
        if not self.messages.closed:
            self.messages.close()


def start(target: Callable[[Send], None]) -> Child:
    """Fork; the child runs `target(send)` (send: one pickled message down the pipe) and exits
    without running the parent's cleanup. The parent gets the child at once."""
    read_fd, write_fd = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 1
        try:
            _become_child(parent, write_fd)
            sender = Connection(write_fd, readable=False)
            target(sender.send)
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # also done by the child: whichever runs first wins the race
    return Child(pid, Connection(read_fd, writable=False))


def _become_child(parent: int, keep_fd: int) -> None:
    """Its own process group, death with the parent, SIGTERM fatal, no inherited descriptor."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    if not _die_with_parent():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _blank_descriptors(keep=(1, 2, keep_fd))


def _die_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when the thread that forked it dies."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_PARENT_S)
    os._exit(1)


def _blank_descriptors(keep: tuple[int, ...]) -> None:
    """Point every open descriptor but `keep` at /dev/null. Not closed: Python objects copied
    from the parent still own those numbers, and one collected later would close whatever
    file had reused its number."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in _open_descriptors():
        if fd not in keep and fd != null:
            with contextlib.suppress(OSError):
                os.dup2(null, fd, inheritable=False)
    os.close(null)


def _open_descriptors() -> list[int]:
    try:
        listed = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        listed = list(range(os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1024))
    open_now = []
    for fd in listed:
        try:
            os.fstat(fd)
        except OSError:
            continue
        open_now.append(fd)
    return open_now


class Terminated(BaseException):
    """SIGTERM arrived while the command waited on its child."""


@contextlib.contextmanager
def sigterm_raises() -> Iterator[None]:
    """In the main thread: SIGTERM raises Terminated (so the child is stopped on the way out)
    instead of ending the process at once. Elsewhere (a server's worker thread): nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_terminated(_signal: int, _frame: object) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
