"""uvicorn's server, made to stop the page's running solve and check the moment it is told to
shut down (Ctrl-C, SIGTERM), before it waits for open requests to finish."""

from __future__ import annotations

import socket
from collections.abc import Callable

import uvicorn


class StoppingServer(uvicorn.Server):
    """A uvicorn server that calls `stop_work` first thing on shutdown."""

    def __init__(self, config: uvicorn.Config, stop_work: Callable[[], None]) -> None:
        super().__init__(config)
        self.stop_work = stop_work

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.stop_work()
        await super().shutdown(sockets)
