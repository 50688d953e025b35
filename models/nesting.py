"""How deep a document's brackets nest, found in one pass without recursion.

Python's TOML and JSON parsers recurse once per bracket, so a file nested 100,000 levels deep
ends in a RecursionError. A scenario nests about eight levels at most; this scan refuses a
deeper file first and names the key path where it goes too deep.
"""

from __future__ import annotations

from dataclasses import dataclass

from .syntax import Syntax

MAX_DEPTH = 20
"""Brackets and braces a document may nest (a hull corner in a scenario sits at depth 8)."""


@dataclass
class _Level:
    """One open bracket: a list (counting its entries) or a table (remembering its key)."""

    is_list: bool
    index: int = 0
    key: str = ""
    wants_key: bool = True


@dataclass(frozen=True)
class TooDeep:
    """Where a document first nests deeper than MAX_DEPTH: key path and line (from 1)."""

    key_path: str
    line: int


def too_deep(text: str, syntax: Syntax, limit: int = MAX_DEPTH) -> TooDeep | None:
    """The first place where `text` opens more than `limit` brackets, or None.

    Strings and comments are skipped; the key path is as exact as a bracket scan can make it
    (table headers and dotted keys are taken as written)."""
    scan = _Scan(text, syntax)
    return scan.run(limit)


class _Scan:
    def __init__(self, text: str, syntax: Syntax) -> None:
        self.text = text
        self.toml = syntax == "toml"
        self.levels: list[_Level] = []
        self.table = ""
        self.key = ""
        self.line = 1
        self.counts: dict[str, int] = {}

    def run(self, limit: int) -> TooDeep | None:
        text, i, n = self.text, 0, len(self.text)
        at_start = True
        while i < n:
            c = text[i]
            if c == "\n":
                self.line += 1
                at_start = not self.levels
                i += 1
            elif c in " \t\r":
                i += 1
            elif c in "\"'":
                i = self._string(i, at_start)
                at_start = False
            elif self.toml and c == "#":
                while i < n and text[i] != "\n":
                    i += 1
            elif self.toml and c == "[" and at_start:
                i = self._header(i)
            elif c in "[{":
                if len(self.levels) >= limit:
                    return TooDeep(self._path(), self.line)
                self.levels.append(_Level(is_list=c == "["))
                at_start = False
                i += 1
            elif c in "]}":
                if self.levels:
                    self.levels.pop()
                i += 1
            elif c == ",":
                if self.levels:
                    top = self.levels[-1]
                    top.index += 1
                    top.wants_key = True
                    top.key = ""
                i += 1
            elif c in ":=":
                if self.levels and not self.levels[-1].is_list:
                    self.levels[-1].wants_key = False
                i += 1
            else:
                i = self._word(i, at_start)
                at_start = False
        return None

    def _string(self, i: int, at_start: bool) -> int:
        """Skip a string (TOML's multi-line forms too); keep it if it is a key."""
        text, quote = self.text, self.text[i]
        triple = self.toml and text.startswith(quote * 3, i)
        end_mark = quote * 3 if triple else quote
        j = i + len(end_mark)
        while j < len(text) and not text.startswith(end_mark, j):
            if text[j] == "\\" and quote == '"':
                j += 1
            elif text[j] == "\n":
                self.line += 1
            j += 1
        self._name(text[i + len(end_mark) : j], at_start=at_start)
        return j + len(end_mark)

    def _word(self, i: int, at_start: bool) -> int:
        """A bare key, number or word; a bare key names what follows."""
        text, j = self.text, i
        while j < len(text) and text[j] not in " \t\r\n,:=[]{}\"'#":
            j += 1
        self._name(text[i:j], bare=True, at_start=at_start)
        return max(j, i + 1)

    def _name(self, word: str, *, bare: bool = False, at_start: bool = False) -> None:
        """Remember `word` if it is a key: of the open table, or of a TOML statement."""
        if self.levels:
            top = self.levels[-1]
            if not top.is_list and top.wants_key:
                top.key = word
        elif self.toml and (at_start or not self.key):
            self.key = word.strip(".") if bare else word

    def _header(self, i: int) -> int:
        """A TOML table header: `[board]` or `[[units]]` (the n-th such table is units[n])."""
        text = self.text
        many = text.startswith("[[", i)
        end = text.find("]", i)
        end = len(text) if end < 0 else end
        name = text[i + (2 if many else 1) : end].strip()
        if many:
            self.counts[name] = self.counts.get(name, -1) + 1
            name = f"{name}[{self.counts[name]}]"
        self.table, self.key = name, ""
        return end + (2 if many else 1)

    def _path(self) -> str:
        parts = [p for p in (self.table, self.key) if p]
        path = ".".join(parts)
        for level in self.levels:
            if level.is_list:
                path += f"[{level.index}]"
            elif level.key:
                path += f".{level.key}" if path else level.key
        return path
