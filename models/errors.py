"""Typed errors: every message names the file, the key path, what is wrong and how to fix it."""

from __future__ import annotations

LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character Python's `str.splitlines` breaks a line at."""


def one_line(text: str) -> str:
    """`text` with its line breaks written as escapes, so that a value quoted from a file can
    never split a message into lines that do not start with `error:`."""
    return "".join(f"\\u{ord(c):04x}" if c in LINE_BREAKS else c for c in text)


class ChargeoptError(Exception):
    """Base class of every error chargeopt raises on purpose."""


class KeyPathError(ValueError):
    """A problem at one key path of a document; pydantic carries it inside a ValidationError."""

    def __init__(self, key_path: str, problem: str, fix: str = "") -> None:
        super().__init__(problem)
        self.key_path = key_path
        self.problem = problem
        self.fix = fix


class OffTheTableError(KeyPathError):
    """A coordinate too far out to be on any board; the message adds the board's size when the
    document gives one."""

    def __init__(self, value: float) -> None:
        super().__init__("", f"{value:g} is not a position on any board")
        self.value = value


class ScenarioError(ChargeoptError):
    """A scenario or result document that cannot be used, with one line per problem."""

    def __init__(self, file: str, problems: list[tuple[str, str, str]]) -> None:
        self.file = file
        self.problems = problems
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        """One line per problem: `file: key.path: problem (fix)`."""
        out = []
        for key_path, problem, fix in self.problems:
            where = f"{self.file}: {key_path}" if key_path else self.file
            out.append(one_line(f"{where}: {problem}" + (f"; {fix}" if fix else "")))
        return out


class UnsupportedRuleError(ChargeoptError):
    """A ruleset, action or base kind that chargeopt does not implement (yet); `key_path`,
    when known, is the key of the scenario that asks for it."""

    def __init__(self, message: str = "", key_path: str = "") -> None:
        super().__init__(message)
        self.key_path = key_path

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.key_path))


class IneligibleMoveError(ChargeoptError):
    """The acting unit may not make the scenario's move at all (a pile in by a unit neither
    within engagement range nor having charged; a heroic intervention by a unit that is not
    an eligible CHARACTER unit). The message says why; the command line names the file."""
