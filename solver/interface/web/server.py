"""Starting the web server: the web stack imported only here (so `chargeopt --help` stays light),
a clear message when the `web` extra is missing, loopback unless a host is given."""

from __future__ import annotations

import socket
import sys
from collections.abc import Callable

from chargeopt.models import ChargeoptError

SHUTDOWN_S = 2
"""On Ctrl-C or SIGTERM: how long open requests get to finish before the server closes them
(a running solve or check is stopped at once: its child goes with it)."""
MISSING_EXTRA = (
    "chargeopt serve needs the web extra (Starlette, uvicorn, tomli-w): "
    "pip install 'chargeopt[web]'"
)


def serve(
    start_file: str | None,
    host: str,
    port: int,
    time_limit_s: float,
    announce: Callable[[str], None],
) -> None:
    """Serve the page on host:port until Ctrl-C or SIGTERM, then free the port and stop any
    solve; `announce` is told the URL to open."""
    try:
        import tomli_w  # noqa: F401  (the page's TOML writer)
        import uvicorn

        from chargeopt.solver.interface.web.app import create_app
        from chargeopt.solver.interface.web.stopping import StoppingServer
    except ImportError:
        raise ChargeoptError(MISSING_EXTRA) from None
    listening = _listen(host, port)
    port = listening.getsockname()[1]
    loopback = host in ("127.0.0.1", "localhost", "::1")
    app = create_app(start_file, time_limit_s, hosts=(host,) if loopback else ("*",))
    shown = f"[{host}]" if ":" in host else host
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=SHUTDOWN_S,
    )
    announce(f"chargeopt serve: open http://{shown}:{port}/ in a browser (Ctrl-C stops)")
    sys.stdout.flush()
    StoppingServer(config, app.state.stop_work).run(sockets=[listening])


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to host:port (0: any free port), or a one-line refusal."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
    except (OSError, OverflowError) as exc:
        listening.close()
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ChargeoptError(f"cannot listen on {host}:{port} ({reason})") from None
    listening.listen(64)
    return listening
