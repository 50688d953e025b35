"""A bounded cache keyed on the identity of a function's arguments. Scenarios and battlefields
are immutable, so what is derived from one object stays true, but comparing two of them (as
`functools.lru_cache` does on every hit) walks every unit and model: far slower than the work
saved on small functions."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
PLAIN = (str, int, float, bool, type(None))


def cached_by_identity(maxsize: int) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Cache on the arguments, objects by identity and plain values (and tuples of them) by
    value, least recently used out first. Each entry holds its arguments, so an object's id
    is not reused by another object while its entry lives."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        entries: OrderedDict[tuple, tuple[tuple, R]] = OrderedDict()

        @wraps(func)
        def cached(*args: P.args, **kwargs: P.kwargs) -> R:
            held = (*args, *sorted(kwargs.items()))
            key = tuple(_key(a) for a in held)
            hit = entries.get(key)
            if hit is not None:
                entries.move_to_end(key)
                return hit[1]
            value = func(*args, **kwargs)
            entries[key] = (held, value)
            if len(entries) > maxsize:
                entries.popitem(last=False)
            return value

        cached.cache_clear = entries.clear  # type: ignore[attr-defined]
        return cached

    return decorate


def _key(value: Any) -> Any:
    if isinstance(value, PLAIN):
        return value
    if isinstance(value, tuple):
        return tuple(_key(v) for v in value)
    return ("id", id(value))
