"""Benchmark suites as data: a directory of scenario files and a manifest (`suite.toml`) that
names the suite, its version, and each layout with what is known about it (a proven optimum
and its base contact, or its objective terms in order as `value`; infeasible; or open) and
the SHA-256 of its file, so a suite's content never changes silently. A directory without a
manifest (such as speed-v1, frozen by its generator's test) is read as every *.toml in it,
each open."""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

from chargeopt.models import ChargeoptError

MANIFEST = "suite.toml"
KNOWN = ("optimal", "infeasible", "open", "refused")


@dataclass(frozen=True)
class SuiteLayout:
    """One layout of a suite: its file, and what is known (`known` is optimal, infeasible,
    open, or refused: the command refuses the file, e.g. a charge that cannot be declared;
    `base_contact` is the proven optimum when known is optimal, or `value` its objective
    terms in their order of priority, e.g. 40k-11e's within_1 then engaged)."""

    file: str
    path: Path
    sha256: str | None
    known: str = "open"
    base_contact: int | None = None
    note: str = ""
    value: tuple[tuple[str, int], ...] = ()

    def known_text(self) -> str:
        if self.known != "optimal":
            return self.known
        if self.value:
            return "optimal " + ", ".join(f"{k} {v}" for k, v in self.value)
        return f"optimal {self.base_contact}"


@dataclass(frozen=True)
class Suite:
    """A suite: its name and version, and its layouts in manifest order."""

    name: str
    version: int | None
    directory: Path
    layouts: tuple[SuiteLayout, ...]
    has_manifest: bool


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_suite(directory: str | Path, *, verify: bool = True) -> Suite:
    """Read a suite directory; with `verify`, refuse a layout whose bytes differ from the
    manifest's hash (a suite is versioned: changed content needs a new version)."""
    root = Path(directory)
    if not root.is_dir():
        raise ChargeoptError(f"{root}: not a directory (give a suite directory)")
    manifest = root / MANIFEST
    if not manifest.exists():
        files = sorted(p for p in root.glob("*.toml") if p.name != MANIFEST)
        if not files:
            raise ChargeoptError(f"{root}: no {MANIFEST} and no *.toml scenarios")
        layouts = tuple(SuiteLayout(p.name, p, None) for p in files)
        return Suite(root.name, None, root, layouts, has_manifest=False)
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ChargeoptError(f"{manifest}: not valid TOML ({exc})") from None
    for key in ("suite", "version", "layouts"):
        if key not in data:
            raise ChargeoptError(f"{manifest}: {key}: missing")
    layouts = tuple(
        _layout(manifest, i, entry, root, verify) for i, entry in enumerate(data["layouts"])
    )
    return Suite(str(data["suite"]), int(data["version"]), root, layouts, has_manifest=True)


def _layout(manifest: Path, i: int, entry: dict, root: Path, verify: bool) -> SuiteLayout:
    where = f"{manifest}: layouts[{i}]"
    unknown = set(entry) - {"file", "sha256", "known", "base_contact", "note", "value"}
    if unknown:
        raise ChargeoptError(f"{where}: unknown keys {sorted(unknown)}")
    if "file" not in entry or "sha256" not in entry:
        raise ChargeoptError(f"{where}: needs file and sha256")
    path = root / entry["file"]
    if not path.exists():
        raise ChargeoptError(f"{where}.file: {entry['file']} does not exist")
    known = entry.get("known", "open")
    if known not in KNOWN:
        raise ChargeoptError(f"{where}.known: {known!r} is not one of {', '.join(KNOWN)}")
    base_contact = entry.get("base_contact")
    value = _value(where, entry.get("value", {}))
    if (known == "optimal") != (base_contact is not None or bool(value)):
        raise ChargeoptError(
            f"{where}: base_contact is given exactly when known = 'optimal' (or value, its terms)"
        )
    if verify and file_sha256(path) != entry["sha256"]:
        raise ChargeoptError(
            f"{where}.sha256: {entry['file']} has changed since the suite was frozen; "
            "a changed layout belongs in a new suite version"
        )
    return SuiteLayout(
        entry["file"], path, entry["sha256"], known, base_contact, entry.get("note", ""), value
    )


def _value(where: str, value: object) -> tuple[tuple[str, int], ...]:
    """A known optimum's objective terms, in their order of priority, as whole counts."""
    if not isinstance(value, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value.values()
    ):
        raise ChargeoptError(
            f"{where}.value: give the optimum's terms as whole counts, "
            "e.g. value = { within_1 = 5, engaged = 10 }"
        )
    return tuple((str(k), int(v)) for k, v in value.items())


def size_class(models: int) -> int:
    """The size class of a charge of `models` models: the next multiple of 10 (1-10 -> 10)."""
    return max(10, -(-models // 10) * 10)
