"""How the command line tells an error: a bug in one line, and a refusal as the JSON object
`--json` prints (one shape for a single solve, each file of several and each `--jsonl` line, so
that a program reads every error the same way)."""

from __future__ import annotations

from typing import Any

from chargeopt.models import ChargeoptError, ScenarioError


def error_lines(exc: ChargeoptError) -> list[str]:
    """The lines a user sees for an error (one per problem)."""
    if isinstance(exc, ScenarioError):
        return exc.lines()
    return str(exc).splitlines() or [type(exc).__name__]


def internal_error_line(exc: Exception) -> str:
    """An unexpected failure in one line, never a traceback."""
    name = getattr(exc, "kind", type(exc).__name__)
    detail = str(exc).splitlines()[0][:200] if str(exc) else ""
    return (
        f"internal error ({name}{': ' + detail if detail else ''}); this is a bug "
        "in chargeopt: please report it with the files you gave "
        "(CHARGEOPT_TRACEBACK=1 shows where it happened)"
    )


def error_object(lines: list[str], exc: Exception | None) -> dict[str, Any]:
    """{"error", "file", "key", "problems": [{"key", "problem", "fix"}]} for an error's lines
    (`exc` a ScenarioError gives its file and a problem per key path)."""
    problems = getattr(exc, "problems", None) or [("", "\n".join(lines), "")]
    return {
        "error": "\n".join(lines),
        "file": getattr(exc, "file", None),
        "key": problems[0][0] or None,
        "problems": [{"key": k or None, "problem": p, "fix": f or None} for k, p, f in problems],
    }
