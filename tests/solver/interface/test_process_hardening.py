"""Nothing outlives the command: SIGTERM (or SIGKILL) to `chargeopt solve` or `chargeopt serve`
mid-solve leaves no solver child, `serve` frees its port, and the child holds none of the
parent's sockets or pipe ends and never blocks on a pipe nobody reads. Loopback only; every
wait is bounded."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from repo_paths import LAYOUTS

from chargeopt.solver.interface import child

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

LONG = LAYOUTS / "scaling-v1" / "c40-walls-s1.toml"
"""Solved in several seconds: it is stopped well before its solve would end by itself."""
GONE_S = 3.0
"""How soon after SIGTERM the solver child must be gone (on its own it would run on for
seconds: the solve is stopped early)."""
CLI = [sys.executable, "-m", "chargeopt.solver.interface.cli"]


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    """Whether `pid` is a live process (not gone, not a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _until(condition: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _left(sent: float) -> float:
    """What is left of GONE_S since `sent`."""
    return max(0.1, GONE_S - (time.monotonic() - sent))


def _group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return not any(_alive(p) for p in _group_members(pgid))


def _group_members(pgid: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid:
                members.append(int(entry.name))
    return members


@pytest.fixture()
def started() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes a test starts, killed (with their groups) whatever the test did."""
    processes: list[subprocess.Popen[str]] = []
    yield processes
    for process in processes:
        if process.poll() is None:
            process.kill()
        process.wait(10)


def _solver_child(parent: int) -> int:
    assert _until(lambda: bool(_children(parent)), 30), "no solver child appeared"
    (solver,) = _children(parent)
    return solver


def _start_solve(started: list[subprocess.Popen[str]]) -> tuple[subprocess.Popen[str], int]:
    """`chargeopt solve` on a long layout, once its solver child is at work."""
    command = [*CLI, "solve", str(LONG), "--time-limit", "60", "--progress"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    started.append(process)
    assert process.stderr is not None
    first = process.stderr.readline()
    assert "]" in first, first
    return process, _solver_child(process.pid)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_the_solver_child_dies_with_chargeopt_solve(
    started: list[subprocess.Popen[str]], stop: signal.Signals
) -> None:
    """SIGTERM: exit 143, the solver stopped on the way out; SIGKILL: the kernel kills the
    child (parent-death signal). Either way no process of its group survives."""
    process, solver = _start_solve(started)
    assert os.getpgid(solver) == solver  # its own process group
    process.send_signal(stop)
    sent = time.monotonic()
    _, err = process.communicate(timeout=20)
    assert process.returncode == (child.EXIT_TERMINATED if stop == signal.SIGTERM else -stop)
    if stop == signal.SIGTERM:
        assert err.splitlines()[-1] == "stopped (SIGTERM); the solver was stopped too"
    assert _until(lambda: not _alive(solver), _left(sent)), f"solver child {solver} survived"
    assert _until(lambda: _group_gone(solver), _left(sent))


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
    """POST JSON on loopback (never through a proxy the environment names)."""
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with direct.open(request, timeout=20) as reply:
        answer: dict[str, object] = json.loads(reply.read())
        return answer


def test_serve_stops_its_solve_and_frees_its_port_on_sigterm(
    started: list[subprocess.Popen[str]],
) -> None:
    """SIGTERM to `chargeopt serve` mid-solve: the server exits, the solver child is gone, and
    the port can be listened on again at once."""
    process = subprocess.Popen(
        [*CLI, "serve", "--port", "0", "--host", "127.0.0.1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    started.append(process)
    assert process.stdout is not None
    line = process.stdout.readline()
    url = line.split("open ", 1)[1].split()[0]
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    from chargeopt.models import read_document

    body = {"name": LONG.name, "document": read_document(LONG), "time_limit": 60}
    assert _post(url + "api/solve", body)["state"] == "running"
    solver = _solver_child(process.pid)
    process.send_signal(signal.SIGTERM)
    sent = time.monotonic()
    assert _until(lambda: not _alive(solver), _left(sent)), f"solver child {solver} survived"
    process.communicate(timeout=20)
    with socket.socket() as again:
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        again.bind(("127.0.0.1", port))
        again.listen(1)


def _descriptors(pid: int) -> dict[int, str]:
    """The child's open descriptors and what each points at."""
    out = {}
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            out[int(fd.name)] = os.readlink(fd)
        except OSError:
            continue
    return out


def _sleep_forever(_send: child.Send) -> None:
    while True:
        time.sleep(1)


def test_the_child_holds_no_inherited_socket_or_pipe_end() -> None:
    """A listening socket and a pipe open in the parent are /dev/null in the child: the port
    is free for a new server once the parent closes it, while the child still runs."""
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen(1)
    port = listening.getsockname()[1]
    read_end, write_end = os.pipe()
    worker = child.start(_sleep_forever)
    try:
        assert _until(lambda: "socket:" not in str(_descriptors(worker.pid)), 10)
        held = _descriptors(worker.pid)
        live = {fd: what for fd, what in held.items() if what != os.devnull}
        assert len(set(live) - {1, 2}) == 1  # its own end of its own pipe
        assert held[listening.fileno()] == os.devnull
        assert held[read_end] == held[write_end] == os.devnull
        assert held[0] == os.devnull
        listening.close()
        with socket.socket() as again:
            again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            again.bind(("127.0.0.1", port))
            again.listen(1)
        assert _alive(worker.pid)
    finally:
        worker.stop()
        listening.close()
        os.close(read_end)
        os.close(write_end)
    assert not _alive(worker.pid)


def _shout(send: child.Send) -> None:
    send("x" * 50_000_000)


def test_a_child_writing_an_answer_nobody_reads_is_stopped_at_once() -> None:
    """A 50 MB message into a pipe nobody reads blocks the child, but never the parent: stop()
    returns (a hang guard of 30 s, not a speed test) and the child was killed mid-write."""
    worker = child.start(_shout)
    time.sleep(0.5)
    stopping = threading.Thread(target=worker.stop, daemon=True)
    stopping.start()
    stopping.join(30)
    assert not stopping.is_alive()
    assert worker.exit_code == -signal.SIGKILL


def test_sigterm_kills_the_child_even_if_the_parent_catches_it() -> None:
    """A server catches SIGTERM in Python (uvicorn does); its solver child dies of it."""
    previous = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        worker = child.start(_sleep_forever)
        time.sleep(0.3)
        os.kill(worker.pid, signal.SIGTERM)
        assert _until(lambda: not _alive(worker.pid), 5)
        worker.stop()
        assert worker.exit_code == -signal.SIGTERM
    finally:
        signal.signal(signal.SIGTERM, previous)
