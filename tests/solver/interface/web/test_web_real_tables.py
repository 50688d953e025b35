"""The page's real tables through Starlette's test client: a table set up on a layout before
any move (a draft), units added by datasheet in a compact formation, the data set missing
refused in one line, and Tabletop Simulator saves opened, imported and written back by the
command line's own import and export."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from repo_paths import REPO_ROOT

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from chargeopt.models import KeyPathError, Result
from chargeopt.solver.interface.tts_export import moved_save
from chargeopt.solver.interface.tts_import import ImportOptions, scenario_table
from chargeopt.solver.interface.tts_save import Frame, read_save
from chargeopt.solver.interface.web import data_set as page_data_set
from chargeopt.solver.interface.web.app import create_app
from chargeopt.solver.interface.web.data_set import formation

SAVE = REPO_ROOT / "benchmarks" / "layouts" / "examples" / "tts" / "charge-table.json"
BASES = "Intercessor Squad=32mm\nBoyz=32mm"
INTERCESSORS = ["1ab000", "1ab011", "1ab022", "1ab033", "1ab044"]
LAYOUT = "Take vs Take 01"
COHERENCY_IN = 2.0


@pytest.fixture()
def client() -> TestClient:
    return TestClient(create_app(time_limit_s=20.0, hosts=("testserver",)))


def _no_data_set(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(key_path: str = "") -> Any:
        raise KeyPathError(key_path, "this key reads the 40kdc data set, which is not installed")

    monkeypatch.setattr(page_data_set, "data_set", missing)


def test_formation_even_rows_centred_on_the_point() -> None:
    assert formation(3, 2.0, 10.0, 10.0) == [(8.0, 10.0), (10.0, 10.0), (12.0, 10.0)]
    seven = formation(7, 2.0, 10.0, 10.0)
    assert seven[:4] == [(7.0, 9.0), (9.0, 9.0), (11.0, 9.0), (13.0, 9.0)]
    assert seven[4:] == [(8.0, 11.0), (10.0, 11.0), (12.0, 11.0)]  # as even as can be, centred
    thirty = formation(30, 1.0, 0.0, 0.0)
    assert len({y for _, y in thirty}) == 5 and len({x for x, _ in thirty}) == 6  # 6 by 5


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 100),
    diameter_in=st.floats(0.5, 6.0),
    x=st.floats(10.0, 50.0),
    y=st.floats(10.0, 34.0),
)
def test_a_formation_never_overlaps_and_keeps_every_model_by_a_neighbour(
    n: int, diameter_in: float, x: float, y: float
) -> None:
    """Bases `pitch` apart (their width and 0.5"), written to 0.001": none overlaps, each has
    others within 2" (one in a unit of up to 6, two from 7: 10th-edition coherency), and the
    block's middle is the point asked."""
    pitch = diameter_in + page_data_set.FORMATION_GAP_IN
    spots = formation(n, pitch, x, y)
    assert len(spots) == n
    gaps = [[math.dist(a, b) - diameter_in for b in spots if b is not a] for a in spots]
    assert all(min(g) >= page_data_set.FORMATION_GAP_IN - 0.002 for g in gaps if g)
    close = [sorted(g)[: 1 if n <= 6 else 2] for g in gaps]
    assert all(max(c) <= COHERENCY_IN for c in close if c)
    xs, ys = [p[0] for p in spots], [p[1] for p in spots]
    assert abs((min(xs) + max(xs)) / 2 - x) < 0.002 and abs((min(ys) + max(ys)) / 2 - y) < 0.002


def test_without_the_data_set_one_line_says_how_to_install_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_data_set(monkeypatch)
    facts = client.get("/api/data").json()
    assert facts == {
        "installed": False,
        "line": "The 40kdc data set is not installed: pip install 'chargeopt[data]'",
        "attribution": "Powered by 40kdc-data",
    }
    doc = {"format": 1, "ruleset": "40k-10e", "board": {"width": 60, "height": 44}, "units": []}
    for url, body in (
        ("/api/unit", {"document": doc, "datasheet": "Boyz", "count": 10, "owner": "defender"}),
        ("/api/datasheet", {"datasheet": "Boyz"}),
    ):
        reply = client.post(url, json=body)
        assert reply.status_code == 422
        assert reply.json()["error"] == [
            "the 40kdc data set is not installed; install the 40kdc data set: "
            "pip install 'chargeopt[data]' (or pip install wh40kdc)"
        ]


def test_a_draft_without_units_draws_its_board_and_has_no_move(client: TestClient) -> None:
    doc = {"format": 1, "ruleset": "40k-10e", "board": {"width": 30, "height": 20}, "units": []}
    doc["terrain"] = [{"id": "rock", "kind": "impassable", "path": [[1, 1], [4, 1], [4, 4]]}]
    reply = client.post("/api/board", json={"name": "t.toml", "document": doc})
    assert reply.status_code == 200, reply.json()
    body = reply.json()
    assert body["document"] == doc
    assert body["view"]["draft"] is True and body["view"]["moves"] == []
    assert body["view"]["units"] == [] and body["view"]["pieces"] == []
    assert body["view"]["board"] == {"width": 30.0, "height": 20.0}
    assert 'class="impassable"' in body["view"]["terrain_svg"] and body["problems"] == []
    saved = client.post("/api/save", json={"name": "t.toml", "document": doc})
    assert saved.status_code == 422
    assert saved.json()["error"] == [
        "t.toml: the table has no move yet; add a unit of each side (Add unit), then save"
    ]


def test_a_draft_model_in_terrain_is_refused_unless_fixing(client: TestClient) -> None:
    unit = {"id": "A", "owner": "attacker", "base": "32mm"}
    unit["models"] = [{"id": "A1", "x": 3.0, "y": 2.0}]
    doc = {"format": 1, "ruleset": "40k-10e", "board": {"width": 30, "height": 20}}
    doc["terrain"] = [{"id": "rock", "kind": "impassable", "path": [[1, 1], [5, 1], [5, 3]]}]
    doc["units"] = [unit]
    reply = client.post("/api/board", json={"name": "t.toml", "document": doc})
    assert reply.status_code == 422
    assert reply.json()["error"][0].startswith(
        "t.toml: units[0].models[0]: model 'A1' stands 0."
    ), reply.json()
    fixing = client.post("/api/board", json={"name": "t.toml", "document": doc, "fixing": True})
    assert [p["key"] for p in fixing.json()["problems"]] == ["units[0].models[0]"]
    assert [p["id"] for p in fixing.json()["view"]["pieces"]] == ["A1"]


def test_a_unit_of_each_side_makes_the_charge(client: TestClient) -> None:
    a = {"id": "A", "owner": "attacker", "base": "32mm", "models": [{"id": "A1", "x": 5, "y": 5}]}
    b = {"id": "B", "owner": "defender", "base": "32mm", "models": [{"id": "B1", "x": 9, "y": 5}]}
    doc = {"format": 1, "ruleset": "40k-10e", "board": {"width": 30, "height": 20}}
    reply = client.post("/api/board", json={"name": "t.toml", "document": {**doc, "units": [a]}})
    assert "action" not in reply.json()["document"]
    reply = client.post("/api/board", json={"name": "t.toml", "document": {**doc, "units": [a, b]}})
    body = reply.json()
    assert body["document"]["action"] == {"kind": "charge", "unit": "A", "targets": ["B"]}
    assert "draft" not in body["view"] and body["view"]["moves"]


def _units(body: dict[str, Any]) -> list[dict[str, Any]]:
    return body["document"]["units"]  # type: ignore[no-any-return]


def test_units_by_datasheet_on_a_layout(client: TestClient) -> None:
    """Five Intercessors at a point: one row 32mm + 0.5" apart; ten Boyz at the defender's
    first free spot; the names the data set gives, ids free, a charge between them."""
    pytest.importorskip("wh40kdc")
    board = {"width": 60.0, "height": 44.0, "layout": LAYOUT}
    doc = {"format": 1, "ruleset": "40k-11e", "board": board, "units": []}
    request = {"name": "t.toml", "document": doc, "datasheet": "intercessor squad"}
    reply = client.post(
        "/api/unit",
        json={**request, "count": 5, "owner": "attacker"} | {"at": {"x": 30.0, "y": 40.0}},
    )
    assert reply.status_code == 200, reply.json()
    (unit,) = _units(reply.json())
    assert (unit["id"], unit["owner"], unit["datasheet"]) == (
        "Intercessor Squad",
        "attacker",
        "Intercessor Squad",  # the data set's own spelling of the name typed
    )
    pitch = round(32 / 25.4 + 0.5, 9)
    assert [m["id"] for m in unit["models"]] == ["IS1", "IS2", "IS3", "IS4", "IS5"]
    assert [m["x"] for m in unit["models"]] == [round(30 + k * pitch, 3) for k in (-2, -1, 0, 1, 2)]
    assert {m["y"] for m in unit["models"]} == {40.0}
    doc = reply.json()["document"]
    reply = client.post(
        "/api/unit",
        json={
            "name": "t.toml",
            "document": doc,
            "datasheet": "Boyz",
            "count": "10",
            "owner": "defender",
        },
    )
    body = reply.json()
    boyz = _units(body)[1]
    assert len(boyz["models"]) == 10 and all(m["y"] < 22 for m in boyz["models"])
    assert body["document"]["action"] == {
        "kind": "charge",
        "unit": "Intercessor Squad",
        "targets": ["Boyz"],
    }
    assert body["problems"] == []
    again = client.post(
        "/api/unit",
        json={
            "name": "t.toml",
            "document": body["document"],
            "datasheet": "Boyz",
            "count": 1,
            "owner": "defender",
        },
    )
    assert _units(again.json())[2]["id"] == "Boyz 2"
    assert _units(again.json())[2]["models"][0]["id"] == "B11"


def test_datasheet_facts_and_a_miss(client: TestClient) -> None:
    pytest.importorskip("wh40kdc")
    facts = client.post("/api/datasheet", json={"datasheet": "boyz"}).json()
    assert (facts["name"], facts["base"], facts["models_min"], facts["models_max"]) == (
        "Boyz",
        "32mm",
        10,
        20,
    )
    assert facts["attribution"] == "Powered by 40kdc-data"
    miss = client.post("/api/datasheet", json={"datasheet": "Intercesor Squad"})
    assert miss.status_code == 422
    assert 'did you mean "Intercessor Squad"' in miss.json()["error"][0]


def _save_request(**extra: Any) -> dict[str, Any]:
    return {"save_name": "charge-table.json", "save_text": SAVE.read_text(), "bases": BASES} | extra


def test_a_save_lists_its_units_then_imports_as_the_cli_does(client: TestClient) -> None:
    reply = client.post("/api/tts/open", json=_save_request())
    assert reply.status_code == 200, reply.json()
    assert reply.json()["units"] == [
        {"id": "Intercessor Squad", "models": 5, "datasheet": None, "base": "32mm"},
        {"id": "Boyz", "models": 3, "datasheet": None, "base": "32mm"},
    ]
    reply = client.post(
        "/api/tts/open",
        json=_save_request(charger="Intercessor Squad", targets=["Boyz"], roll="7"),
    )
    assert reply.status_code == 200, reply.json()
    body = reply.json()
    options = ImportOptions(
        bases={"Intercessor Squad": "32mm", "Boyz": "32mm"},
        charger="Intercessor Squad",
        targets=("Boyz",),
        roll=7,
    )
    assert body["document"] == scenario_table(read_save(SAVE), options, "charge-table.json")
    assert body["file"] == "charge-table.toml"
    assert body["tts"] == {"scale": 1.0, "board": "60x44"}


def _result() -> dict[str, Any]:
    return {
        "status": "feasible",
        "ruleset": ["40k-10e"],
        "placements": [{"model": "1ab000", "x": 21.25, "y": 20.5, "facing": 10.0}],
    }


def test_the_moved_save_is_the_cli_export_and_keeps_a_byte_order_mark(client: TestClient) -> None:
    text = SAVE.read_text()
    expected, moved = moved_save(
        read_save(SAVE), Result.model_validate(_result()), Frame(), "charge-table.json"
    )
    reply = client.post("/api/tts/export", json=_save_request(result=_result(), scale=1))
    assert reply.status_code == 200, reply.json()
    assert reply.json() == {"file": "charge-table.moved.json", "text": expected, "moved": moved}
    assert moved == ["1ab000"] and expected != text
    marked = client.post(
        "/api/tts/export", json=_save_request(save_text="\ufeff" + text, result=_result())
    )
    assert marked.json()["text"] == "\ufeff" + expected


def test_export_refusals_are_one_line(client: TestClient) -> None:
    broken = {**_result(), "violations": [{"kind": "overlap", "message": "x", "models": []}]}
    stranger = {**_result(), "placements": [{"model": "zzz999", "x": 1.0, "y": 1.0}]}
    for result, words in (
        (None, "no answer to write: solve first"),
        (broken, "result: violations: the placement breaks a rule"),
        ({**_result(), "placements": []}, "result: placements: has no placement to write"),
        (stranger, "charge-table.json: no object with GUID 'zzz999'"),
    ):
        reply = client.post("/api/tts/export", json=_save_request(result=result))
        assert reply.status_code == 422, reply.json()
        assert reply.json()["error"][0].startswith(words), reply.json()


def test_a_save_may_be_larger_than_a_board_but_not_deeper(client: TestClient) -> None:
    """Saves run to megabytes (scripts, meshes): the save endpoints take them; a save nested
    past 64 levels is one line, not a crash."""
    data = json.loads(SAVE.read_text())
    data["LuaScript"] = "-- " + "x" * 1_500_000
    reply = client.post("/api/tts/open", json=_save_request(save_text=json.dumps(data)))
    assert reply.status_code == 200, reply.json()
    assert len(reply.json()["units"]) == 2
    deep = '{"ObjectStates": [], "x": ' + "[" * 100 + "]" * 100 + "}"
    reply = client.post("/api/tts/open", json=_save_request(save_text=deep))
    assert reply.status_code == 422
    assert reply.json()["error"] == [
        "charge-table.json: nests deeper than 64 levels (line 1); give the .json save TTS wrote"
    ]
    not_a_save = client.post("/api/tts/open", json=_save_request(save_text="[1, 2]"))
    assert not_a_save.status_code == 422
    assert "has no ObjectStates list" in not_a_save.json()["error"][0]


def test_a_save_takes_its_bases_from_datasheets_named_by_nickname(client: TestClient) -> None:
    """With the data set, the save's nicknames are datasheet names: no base needs giving, and
    the imported units name their datasheets (so the page shows the attribution)."""
    pytest.importorskip("wh40kdc")
    listed = client.post("/api/tts/open", json=_save_request(bases="")).json()
    assert [(u["id"], u["datasheet"], u["base"]) for u in listed["units"]] == [
        ("Intercessor Squad", "Intercessor Squad", "32mm"),
        ("Boyz", "Boyz", "32mm"),
    ]
    body = client.post(
        "/api/tts/open", json=_save_request(bases="", charger="Intercessor Squad", targets="Boyz")
    ).json()
    assert [u.get("datasheet") for u in body["document"]["units"]] == ["Intercessor Squad", "Boyz"]


def test_a_unit_is_never_placed_through_an_areas_wall(client: TestClient) -> None:
    """A point on a wall of "Take vs Take 01" is refused by the start layout's check, naming
    the model, how deep it stands through the wall and the wall's terrain."""
    pytest.importorskip("wh40kdc")
    from chargeopt.models.layouts import find_layout, layout_terrain

    terrain, _ = layout_terrain(find_layout(LAYOUT), "40k-11e")
    walled = next(t for t in terrain if t.get("walls"))
    (ax, ay), (bx, by) = walled["walls"][0][:2]
    board = {"width": 60.0, "height": 44.0, "layout": LAYOUT}
    doc = {"format": 1, "ruleset": "40k-11e", "board": board, "units": []}
    reply = client.post(
        "/api/unit",
        json={
            "document": doc,
            "datasheet": "Boyz",
            "count": 1,
            "owner": "attacker",
            "at": {"x": (ax + bx) / 2, "y": (ay + by) / 2},
        },
    )
    assert reply.status_code == 422
    line = reply.json()["error"][0]
    wall = rf"stands \d+\.\d\d\" partway through wall 1 of terrain {walled['id']!r}"
    assert re.fullmatch(
        rf"Boyz does not fit there: .*model 'B1' {wall}; move it out of the wall", line
    )
