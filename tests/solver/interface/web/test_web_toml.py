"""The page saves a scenario as TOML that reads back to the very document it holds: every
scenario file in the benchmarks, a hull base, keys that need quotes, and JSON nulls dropped."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from repo_paths import REPO_ROOT

from chargeopt.models import read_document
from chargeopt.solver.interface.web.toml_text import toml_text

SCENARIOS = sorted(
    p
    for p in (REPO_ROOT / "benchmarks").rglob("*")
    if p.suffix in (".toml", ".json") and not p.name.endswith("result.json")
)


def _scenario_documents() -> list[Path]:
    out = []
    for path in SCENARIOS:
        data = read_document(path)
        if "units" in data and "board" in data:
            out.append(path)
    return out


@pytest.mark.parametrize("path", _scenario_documents(), ids=lambda p: p.name)
def test_every_benchmark_scenario_reads_back_the_same(path: Path) -> None:
    """Every benchmark scenario written as TOML reads back the same."""
    data = read_document(path)
    assert tomllib.loads(toml_text(data)) == data


def test_the_example_is_written_as_the_example_is() -> None:
    """The example is written in the example file's own layout."""
    text = toml_text(
        read_document(REPO_ROOT / "benchmarks/layouts/examples/marines-charge-open.toml")
    )
    assert '[[units]]\nid = "A"\n' in text
    assert '  { id = "A1", x = 10.0, y = 14.0 },\n' in text
    assert '[action]\nkind = "charge"\nunit = "A"\ntargets = ["B"]\nroll = 7\n' in text


def test_quoted_keys_hulls_and_nulls() -> None:
    """Keys needing quotes, hull tables and JSON nulls are written correctly."""
    data = {
        "name": 'a "quoted"\nname',
        "weird key": 1,
        "base": {"kind": "hull", "points": [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]},
        "units": [{"id": "A", "models": [{"id": "A1", "x": 1.5, "y": 2.0, "base": None}]}],
    }
    text = toml_text(data)
    assert '"weird key" = 1' in text
    assert tomllib.loads(text) == {
        "name": 'a "quoted"\nname',
        "weird key": 1,
        "base": {"kind": "hull", "points": [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]},
        "units": [{"id": "A", "models": [{"id": "A1", "x": 1.5, "y": 2.0}]}],
    }


def test_control_characters_quotes_backslashes_and_unicode_read_back() -> None:
    """A name with a control character, DEL, quotes, a backslash and unicode (TOML forbids DEL
    and most control characters raw in a string: tomli-w escapes them)."""
    name = "ctl\x01 del\x7f \"q\" 's' back\\slash é 𝄞 \u2028 tab\t nl\n"
    data = {"name": name, "units": [{"id": name, "models": [{"id": "A\x1f", "x": 1.0}]}]}
    text = toml_text(data)
    assert "\x7f" not in text and "\x01" not in text
    assert tomllib.loads(text) == data


@settings(max_examples=150, deadline=None)
@given(st.text(), st.text(min_size=1))
def test_any_text_reads_back(name: str, key: str) -> None:
    """Any string as a value or a key reads back the same."""
    data = {"name": name, "units": [{key: name, "models": [{"id": key}]}]}
    assert tomllib.loads(toml_text(data)) == data
