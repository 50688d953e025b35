"""Writing what a command produces: one error contract for every file the CLI writes."""

from __future__ import annotations

from chargeopt.models import ChargeoptError


def write_text(path: str, text: str) -> None:
    """Write `text` to `path`, or raise ChargeoptError naming the file and the reason."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise ChargeoptError(f"{path}: cannot write ({exc.strerror})") from None
