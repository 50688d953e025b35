"""Tabletop Simulator saves in and out: a hand-written save (tests/data/tts, TTS's documented
layout) imported as a scenario, solved, and written back; the round trip changes exactly the
acting models' transforms and nothing else of the file."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from repo_paths import REPO_ROOT

from chargeopt.models import load_result, load_scenario
from chargeopt.solver.interface.cli import main
from chargeopt.solver.interface.tts_save import (
    Frame,
    facing_of,
    read_save,
    rot_y_of,
    transform_spans,
)

SAVE = REPO_ROOT / "benchmarks" / "layouts" / "examples" / "tts" / "charge-table.json"
INTERCESSORS = ["1ab000", "1ab011", "1ab022", "1ab033", "1ab044"]


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def _import(tmp_path: Path, *extra: str) -> Any:
    return _run("import", "tts", str(SAVE), "-o", str(tmp_path / "t.toml"), *extra)


def test_the_frame_maps_table_units_to_board_inches_and_back() -> None:
    frame = Frame(scale=2.0, width_in=60.0, height_in=44.0)
    assert frame.to_board(0.0, 0.0) == (30.0, 22.0)
    assert frame.to_board(-5.0, 2.5) == (20.0, 17.0)
    assert frame.to_table(20.0, 17.0) == (-5.0, 2.5)
    assert (facing_of(0.0), facing_of(90.0), facing_of(180.0), facing_of(270.0)) == (
        -90.0,
        0.0,
        90.0,
        180.0,
    )
    assert [rot_y_of(facing_of(r)) for r in (0.0, 45.0, 359.0)] == [0.0, 45.0, 359.0]


def test_spans_are_the_top_level_transform_numbers_only() -> None:
    text = (
        '{"ObjectStates": [{"GUID": "a", "Transform": {"posX": -1.5e-3, "rotY": 7},'
        ' "ContainedObjects": [{"Transform": {"posX": 99}}]}], "Transform": {"posX": 5}}'
    )
    spans = transform_spans(text)
    assert set(spans) == {(0, "posX"), (0, "rotY")}
    assert text[slice(*spans[(0, "posX")])] == "-1.5e-3"
    assert text[slice(*spans[(0, "rotY")])] == "7"


def test_import_groups_by_nickname_and_takes_bases_from_datasheets(tmp_path: Path) -> None:
    out = _import(tmp_path, "--charge", "Intercessor Squad", "--target", "Boyz", "--roll", "7")
    assert out.exit_code == 0, out.output
    scenario = load_scenario(tmp_path / "t.toml")
    assert [(u.id, u.owner.value, len(u.models)) for u in scenario.units] == [
        ("Intercessor Squad", "attacker", 5),
        ("Boyz", "defender", 3),
    ]
    marine = scenario.units[0].models[1]
    assert (marine.id, marine.x, marine.y) == ("1ab011", 21.5, 21.75)
    assert scenario.units[0].datasheet == "Intercessor Squad"
    assert "Powered by 40kdc-data" in out.output


def test_a_model_without_a_base_is_refused_with_the_list(tmp_path: Path) -> None:
    out = _import(
        tmp_path,
        "--datasheet",
        "Boyz=Boyz",
        "--skip",
        "Intercessor Squad",
        "--datasheet",
        "Intercessor Squad=Intercessor Squad",
    )
    assert out.exit_code == 2
    text = SAVE.read_text().replace('"Boyz"', '"Ork Boy"')
    save = tmp_path / "s.json"
    save.write_text(text)
    out = _run("import", "tts", str(save), "-o", str(tmp_path / "t.toml"))
    assert out.exit_code == 2
    assert "3 model(s) have no base" in out.output
    assert "'Ork Boy' (b0e000, b0e111, b0e222)" in out.output
    assert "--base 'Ork Boy=32mm'" in out.output


def test_distance_splits_a_nickname_into_units_and_group_overrides(tmp_path: Path) -> None:
    text = SAVE.read_text().replace('"posX": 5.0', '"posX": 15.0')
    save = tmp_path / "s.json"
    save.write_text(text)
    out = _run("import", "tts", str(save), "-o", str(tmp_path / "t.toml"))
    assert "'Boyz 1' (2 models); 'Boyz 2' (1 models)" in out.output
    out = _run(
        "import",
        "tts",
        str(save),
        "-o",
        str(tmp_path / "t.toml"),
        "--group",
        "Mob=b0e000,b0e111,b0e222",
        "--charge",
        "Intercessor Squad",
        "--target",
        "Mob",
    )
    assert out.exit_code == 0, out.output
    assert [len(u.models) for u in load_scenario(tmp_path / "t.toml").units] == [3, 5]


def _objects(path: Path) -> dict[str, dict[str, Any]]:
    return {o["GUID"]: o for o in json.loads(path.read_text())["ObjectStates"]}


@pytest.mark.parametrize("ruleset", ["40k-11e", "40k-10e"])
def test_round_trip_changes_exactly_the_acting_models_transforms(
    tmp_path: Path, ruleset: str
) -> None:
    _import(
        tmp_path,
        "--charge",
        "Intercessor Squad",
        "--target",
        "Boyz",
        "--roll",
        "7",
        "--ruleset",
        ruleset,
    )
    solved = _run("solve", str(tmp_path / "t.toml"), "-o", str(tmp_path / "r.json"), "--quiet")
    assert solved.exit_code == 0, solved.output
    moved = tmp_path / "moved.json"
    out = _run("export", "tts", str(SAVE), str(tmp_path / "r.json"), "-o", str(moved))
    assert out.exit_code == 0, out.output
    before, after = _objects(SAVE), _objects(moved)
    result = load_result(tmp_path / "r.json")
    placed = {p.model: p for p in result.placements}
    changed = {g for g in before if before[g] != after[g]}
    assert changed == set(INTERCESSORS)
    frame = Frame()
    for guid in changed:
        b, a = dict(before[guid]), dict(after[guid])
        tb, ta = b.pop("Transform"), a.pop("Transform")
        assert a == b
        assert {k for k in tb if tb[k] != ta[k]} <= {"posX", "posZ"}
        x, y = frame.to_board(ta["posX"], ta["posZ"])
        assert abs(x - placed[guid].x) < 1e-9 and abs(y - placed[guid].y) < 1e-9
    save = read_save(SAVE)
    acting = {o.index for o in save.objects if o.guid in INTERCESSORS}
    edited = sorted(
        span for (i, key), span in save.spans.items() if i in acting and key in ("posX", "posZ")
    )
    kept, pattern, at = SAVE.read_text(), "", 0
    for start, end in edited:
        pattern += re.escape(kept[at:start]) + r"-?\d+(?:\.\d+)?(?:e-?\d+)?"
        at = end
    pattern += re.escape(kept[at:])
    assert re.fullmatch(pattern, moved.read_text(), re.DOTALL)


def test_export_refuses_a_result_of_another_save(tmp_path: Path) -> None:
    result = {
        "status": "optimal",
        "ruleset": ["40k-10e"],
        "placements": [{"model": "zzz999", "x": 10.0, "y": 10.0}],
    }
    (tmp_path / "r.json").write_text(json.dumps(result))
    out = _run("export", "tts", str(SAVE), str(tmp_path / "r.json"), "-o", str(tmp_path / "m.json"))
    assert out.exit_code == 2
    assert "no object with GUID 'zzz999'" in out.output


@pytest.mark.parametrize("bad", ["60", "ax44", "0x44"])
def test_a_bad_board_size_is_one_line(tmp_path: Path, bad: str) -> None:
    out = _import(tmp_path, "--board", bad)
    assert out.exit_code == 2 and "WIDTHxHEIGHT" in out.output


def test_the_data_options_and_the_check_credit_the_data_set() -> None:
    assert "Powered by 40kdc-" in _run("import", "tts", "--help").output
    examples = SAVE.parent
    out = _run(
        "check", str(examples / "charge-table.toml"), str(examples / "charge-table.result.json")
    )
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[-1].startswith("Powered by 40kdc-data (wh40kdc 1.4.5): ")


def test_export_keeps_a_byte_order_mark_and_windows_line_ends(tmp_path: Path) -> None:
    """A save written on Windows (BOM, CRLF): only the edited numbers' lines change."""
    _import(tmp_path, "--charge", "Intercessor Squad", "--target", "Boyz", "--roll", "7")
    assert _run("solve", str(tmp_path / "t.toml"), "-o", str(tmp_path / "r.json")).exit_code == 0
    windows = tmp_path / "w.json"
    windows.write_bytes(b"\xef\xbb\xbf" + SAVE.read_bytes().replace(b"\n", b"\r\n"))
    moved = tmp_path / "m.json"
    out = _run("export", "tts", str(windows), str(tmp_path / "r.json"), "-o", str(moved))
    assert out.exit_code == 0, out.output
    before, after = windows.read_bytes(), moved.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf")
    assert after.count(b"\r\n") == before.count(b"\r\n") == before.count(b"\n")
    lines = zip(before.split(b"\r\n"), after.split(b"\r\n"), strict=True)
    changed = [b for a, b in lines if a != b]
    assert all(line.strip().startswith((b'"posX"', b'"posZ"')) for line in changed)
    start = {
        m["id"]: (m["x"], m["y"])
        for u in tomllib.loads((tmp_path / "t.toml").read_text())["units"]
        for m in u["models"]
    }
    placed = json.loads((tmp_path / "r.json").read_text())["placements"]
    axes_moved = sum(
        (abs(p["x"] - start[p["model"]][0]) > 1e-6) + (abs(p["y"] - start[p["model"]][1]) > 1e-6)
        for p in placed
    )
    assert len(placed) == 5 and len(changed) == axes_moved >= 5


def test_import_with_a_layout_puts_its_terrain_on_the_board(tmp_path: Path) -> None:
    out = _import(tmp_path, "--charge", "Intercessor Squad", "--layout", "bm-assets-vs-assets-02")
    assert out.exit_code == 0, out.output
    scenario = load_scenario(tmp_path / "t.toml")
    assert scenario.board.layout == "bm-assets-vs-assets-02"
    assert (scenario.board.width, scenario.board.height) == (60.0, 44.0)
    assert len(scenario.terrain) > 20 and scenario.objectives
    out = _import(tmp_path, "--charge", "Intercessor Squad", "--layout", "Take vs Take 99")
    assert out.exit_code == 2
    assert "--layout 'Take vs Take 99': no terrain layout" in out.output


_JSON = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
_NUMBERS = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(
    transforms=st.lists(st.fixed_dictionaries({"posX": _NUMBERS, "rotY": _NUMBERS}), max_size=4),
    noise=st.dictionaries(st.text(), _JSON, max_size=3),
    indent=st.sampled_from([None, 2, "\t"]),
)
def test_spans_find_every_transform_number_whatever_the_layout(
    transforms: list[dict[str, float]], noise: dict[str, Any], indent: Any
) -> None:
    """Any JSON (other keys, nesting, escapes, indents): each top-level Transform number is
    found, and its text reads back as the number written."""
    states = [{**noise, "Transform": t, "ContainedObjects": [{"Transform": t}]} for t in transforms]
    text = json.dumps({**noise, "ObjectStates": states}, indent=indent)
    spans = transform_spans(text)
    assert set(spans) == {(i, k) for i in range(len(transforms)) for k in ("posX", "rotY")}
    for (i, key), (start, end) in spans.items():
        assert float(text[start:end]) == transforms[i][key]


def test_export_refuses_a_frame_other_than_the_imports(tmp_path: Path) -> None:
    """Imported on a 60x44 board, exported as if on 200x150: the save's models would start
    80" from their placements, farther than any move: refused."""
    _import(tmp_path, "--charge", "Intercessor Squad", "--target", "Boyz", "--roll", "7")
    assert _run("solve", str(tmp_path / "t.toml"), "-o", str(tmp_path / "r.json")).exit_code == 0
    out = _run(
        "export",
        "tts",
        str(SAVE),
        str(tmp_path / "r.json"),
        "-o",
        str(tmp_path / "m.json"),
        "--board",
        "200x150",
    )
    assert out.exit_code == 2
    assert "give export the --scale and --board the import used" in out.output
    assert not (tmp_path / "m.json").exists()
