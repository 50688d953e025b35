"""The identity cache answers a repeated call from memory, never confuses two objects (equal
or not), and forgets the least recently used entry first."""

from __future__ import annotations

from chargeopt.geometry.identity_cache import cached_by_identity


class _Box:
    def __init__(self, value: int) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        raise AssertionError("the cache must not compare objects")

    __hash__ = object.__hash__


def test_hits_by_identity_and_plain_values_by_value() -> None:
    calls: list[tuple[int, str]] = []

    @cached_by_identity(maxsize=2)
    def work(box: _Box, tag: str, *, scale: int = 1) -> int:
        calls.append((box.value, tag))
        return box.value * scale

    a, b = _Box(3), _Box(3)
    assert work(a, "x") == 3
    assert work(a, "x") == 3
    assert work(b, "x") == 3
    assert work(a, "x", scale=2) == 6
    assert calls == [(3, "x"), (3, "x"), (3, "x")]
    assert work(b, "x") == 3
    assert work(a, "x") == 3
    assert len(calls) == 4
