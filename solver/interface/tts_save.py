"""Tabletop Simulator saves: the objects on the table (`ObjectStates[]`, each a GUID, a
Nickname, a Name and a Transform) and where in the file's text each Transform number is, so
that an answer can be written back by editing those numbers alone.

The frame: TTS's table plane is x/z with y up, 1 unit = `scale` inches, the board's centre at
the table's origin; chargeopt's x = width/2 + posX * scale, y = height/2 - posZ * scale (z
toward the far edge is up the board). A model faces +z at rotY = 0 and TTS turns clockwise
seen from above, so chargeopt's facing = rotY - 90."""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chargeopt.models import ScenarioError

TRANSFORM_KEYS = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_LITERAL = re.compile(r"true|false|null")
_SPACE = re.compile(r"[ \t\r\n]*")
Span = tuple[int, int]


@dataclass(frozen=True)
class Frame:
    """How TTS units map to the board: inches per unit and the board's size."""

    scale: float = 1.0
    width_in: float = 60.0
    height_in: float = 44.0

    def to_board(self, pos_x: float, pos_z: float) -> tuple[float, float]:
        return self.width_in / 2 + pos_x * self.scale, self.height_in / 2 - pos_z * self.scale

    def to_table(self, x_in: float, y_in: float) -> tuple[float, float]:
        return (x_in - self.width_in / 2) / self.scale, (self.height_in / 2 - y_in) / self.scale


def facing_of(rot_y: float) -> float:
    """chargeopt's facing (degrees from +x toward +y, in (-180, 180]) for a TTS rotY."""
    facing = (rot_y - 90.0) % 360.0
    return facing - 360.0 if facing > 180.0 else facing


def rot_y_of(facing: float) -> float:
    """The TTS rotY (in [0, 360)) for chargeopt's facing."""
    return (facing + 90.0) % 360.0


@dataclass(frozen=True)
class TableObject:
    """One top-level object of the save: its place in `ObjectStates`, identity and pose."""

    index: int
    guid: str
    nickname: str
    name: str
    locked: bool
    transform: dict[str, float]


@dataclass(frozen=True)
class Save:
    """A save's text, its objects, and the text span of each Transform number."""

    text: str
    objects: tuple[TableObject, ...]
    spans: dict[tuple[int, str], Span]
    bom: bytes = b""

    def encoded(self, text: str) -> bytes:
        """`text` as the file's bytes: UTF-8, with the save's byte-order mark if it had one
        (line ends are kept as they are in the text)."""
        return self.bom + text.encode("utf-8")


def read_save(path: str | Path) -> Save:
    """Read a TTS save; a ScenarioError naming the file when it is not one."""
    name = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ScenarioError(name, [("", f"cannot read the file ({exc.strerror})", "")]) from None
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    try:
        text = raw[len(bom) :].decode("utf-8")
    except UnicodeDecodeError:
        problem = ("", "not UTF-8 text", "give the .json save TTS wrote")
        raise ScenarioError(name, [problem]) from None
    return parse_save(text, name, bom)


def parse_save(text: str, name: str, bom: bytes = b"") -> Save:
    """A TTS save from its text (the page uploads it), `name` in the messages."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problem = f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        raise ScenarioError(name, [("", problem, "give the .json save TTS wrote")]) from None
    states = data.get("ObjectStates") if isinstance(data, dict) else None
    if not isinstance(states, list):
        problem = "has no ObjectStates list: not a Tabletop Simulator save"
        raise ScenarioError(name, [("ObjectStates", problem, "give the .json save TTS wrote")])
    objects = []
    for i, state in enumerate(states):
        transform = state.get("Transform") if isinstance(state, dict) else None
        if not isinstance(transform, dict):
            continue
        numbers = {k: float(transform.get(k, 0.0)) for k in TRANSFORM_KEYS}
        objects.append(
            TableObject(
                index=i,
                guid=str(state.get("GUID") or ""),
                nickname=str(state.get("Nickname") or ""),
                name=str(state.get("Name") or ""),
                locked=bool(state.get("Locked", False)),
                transform=numbers,
            )
        )
    return Save(text, tuple(objects), transform_spans(text), bom)


def transform_spans(text: str) -> dict[tuple[int, str], Span]:
    """(object index, key) -> the text span of `ObjectStates[index].Transform.key`'s number."""
    spans: dict[tuple[int, str], Span] = {}
    _Scanner(text, spans).document()
    return spans


class _Scanner:
    """A JSON reader that keeps only where the Transform numbers of top-level objects are."""

    def __init__(self, text: str, spans: dict[tuple[int, str], Span]) -> None:
        self.text, self.at, self.spans = text, 0, spans

    def _space(self) -> None:
        self.at = _SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]

    def document(self) -> None:
        self.value(())

    def value(self, path: tuple[Any, ...]) -> None:
        self._space()
        c = self.text[self.at]
        if c == "{":
            self._object(path)
        elif c == "[":
            self._array(path)
        elif c == '"':
            self.at = _STRING.match(self.text, self.at).end()  # type: ignore[union-attr]
        else:
            m = _NUMBER.match(self.text, self.at) or _LITERAL.match(self.text, self.at)
            assert m is not None, f"unexpected {c!r} at {self.at}"
            if len(path) == 4 and path[0] == "ObjectStates" and path[2] == "Transform":
                self.spans[(path[1], path[3])] = (m.start(), m.end())
            self.at = m.end()

    def _object(self, path: tuple[Any, ...]) -> None:
        self.at += 1
        self._space()
        if self.text[self.at] == "}":
            self.at += 1
            return
        while True:
            self._space()
            m = _STRING.match(self.text, self.at)
            assert m is not None
            key = json.loads(m.group())
            self.at = m.end()
            self._space()
            self.at += 1  # ':'
            deeper = (*path, key) if len(path) < 4 else (*path, "")
            self.value(deeper)
            self._space()
            if self.text[self.at] == ",":
                self.at += 1
                continue
            self.at += 1  # '}'
            return

    def _array(self, path: tuple[Any, ...]) -> None:
        self.at += 1
        self._space()
        if self.text[self.at] == "]":
            self.at += 1
            return
        index = 0
        while True:
            self.value((*path, index) if len(path) < 4 else (*path, ""))
            index += 1
            self._space()
            if self.text[self.at] == ",":
                self.at += 1
                continue
            self.at += 1  # ']'
            return
