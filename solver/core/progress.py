"""Where a long solve stands, for whoever listens: the stage it has reached and the best answer
found so far. The command line listens (a progress line on a terminal; the answer kept for
when the time limit or Ctrl-C cuts the solve short). Without a listener every call is free."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from chargeopt.models import Result


class Listener(Protocol):
    """Told each stage as it starts and each answer a solver could stand behind so far."""

    def stage(self, name: str) -> None: ...

    def answer(self, result: Result) -> None: ...


_listeners: list[Listener] = []


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Report to `listener` while the block runs."""
    _listeners.append(listener)
    try:
        yield
    finally:
        _listeners.remove(listener)


def has_listener() -> bool:
    """Whether anyone listens (so that a solver builds an answer to show only then)."""
    return bool(_listeners)


def stage(name: str) -> None:
    """A solve starts stage `name` ("candidates", "roll table", "certificate", ...)."""
    for listener in _listeners:
        listener.stage(name)


def answer(result: Result) -> None:
    """A placement the solve could return now (not yet checked or certified): the listener
    keeps the latest in case the solve is cut short."""
    if result.placements and result.status.value in ("optimal", "feasible"):
        for listener in _listeners:
            listener.answer(result)
