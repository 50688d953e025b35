"""The page's menus and marks from the server: every ruleset the models know with the moves the
solver table solves and the keys each reads (each accepted by the scenario check); a file whose
start layout is broken opens with its problems keyed to its models; the paths walked."""

from __future__ import annotations

import copy
import json
from itertools import pairwise
from typing import Any

import pytest
from repo_paths import LAYOUTS, REPO_ROOT

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from chargeopt.models import EDITIONS, ScenarioError, read_document
from chargeopt.models.rulesets import MODIFIERS, RANK_AND_FILE_EDITIONS
from chargeopt.solver.api import SOLVERS, rule_family, solver_for
from chargeopt.solver.interface.web.app import create_app
from chargeopt.solver.interface.web.moves import ACTION_KEYS
from chargeopt.solver.loading import checked_scenario

OVERLAP = REPO_ROOT / "tests" / "data" / "malformed" / "start-overlap.toml"
K1 = LAYOUTS / "curated-v1" / "k1-ruin-tight-gap.toml"
EXAMPLE = LAYOUTS / "examples" / "marines-charge-open.toml"
FALL_BACK = REPO_ROOT / "benchmarks" / "assault-4e-v1" / "t1-trapped-against-rocks.toml"
SAMPLE = {
    "targets": ["B"],
    "roll": 7,
    "charged": True,
    "table_edge": "left",
    "fast": True,
    "fought_by": ["B"],
    "difficult_roll": 4,
}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(time_limit_s=10.0, hosts=("testserver",)))


def test_every_ruleset_of_the_registry_is_offered(client: TestClient) -> None:
    """Each edition alone, each with every modifier on it, each rank-and-file edition: all
    read from the registry (a new edition appears once registered)."""
    choices = client.get("/api/start").json()["rulesets"]
    ids = [tuple(c["ids"]) for c in choices]
    assert {i[0] for i in ids} == set(EDITIONS) | set(RANK_AND_FILE_EDITIONS)
    for modifier, editions in MODIFIERS.items():
        assert all((e, modifier) in ids for e in editions)
    assert {c["kind"] for c in choices if c["ids"][0] in RANK_AND_FILE_EDITIONS} == {"blocks"}


def test_the_menus_offer_only_moves_the_solver_table_solves(client: TestClient) -> None:
    """10e: no fall-back; 4e: fall-back with its edge, a charge without a roll; 6e: no roll."""
    menus = {
        tuple(c["ids"]): {m["kind"]: m["keys"] for m in c["moves"]}
        for c in client.get("/api/start").json()["rulesets"]
    }
    assert list(menus[("40k-10e",)]) == ["charge", "pile-in", "consolidate"]
    assert "heroic-intervention" in menus[("40k-9e",)]
    four = menus[("40k-assault-4e",)]
    assert four["fall-back"][:2] == ["table_edge", "roll"]
    assert four["charge"] == ["targets", "difficult_roll"]
    assert menus[("whfb-6e",)] == {"charge": ["targets"]}
    assert menus[("tow",)] == {"charge": ["targets", "roll"]}
    for ids, menu in menus.items():
        if ids[0] in EDITIONS:
            family = "wtc-walls" if "wtc-walls" in ids else ids[0]
            assert {k for k, f in SOLVERS if f == family} == set(menu)


def _models_document(ids: list[str], kind: str, keys: list[str]) -> dict[str, Any]:
    data = read_document(EXAMPLE)
    data["ruleset"] = ids
    data["action"] = {"kind": kind, "unit": "A", **{k: SAMPLE[k] for k in keys}}
    return data


def test_every_offered_move_is_solved_and_its_keys_accepted(client: TestClient) -> None:
    """For every 40k ruleset and move offered: the document with every key the form shows is
    accepted by the scenario check and has a solver; each key it hides that the check refuses
    stays hidden (the page never offers a key that is then refused)."""
    for choice in client.get("/api/start").json()["rulesets"]:
        if choice["kind"] != "models":
            continue
        for move in choice["moves"]:
            data = _models_document(choice["ids"], move["kind"], move["keys"])
            scenario = checked_scenario(data, "menu.toml")
            assert rule_family(scenario.rules) and solver_for(scenario)
            for key in set(ACTION_KEYS) - set(move["keys"]):
                extra = _models_document(choice["ids"], move["kind"], [*move["keys"], key])
                try:
                    checked_scenario(extra, "menu.toml")
                except ScenarioError as exc:
                    assert f"action.{key}" in str(exc), (choice["ids"], move, key, str(exc))


def test_a_file_with_overlapping_bases_opens_with_its_problems_marked(client: TestClient) -> None:
    """The overlap comes back as a problem keyed to A2, the board drawn; solving it is refused
    and an edit moving A2 clear is taken while fixing."""
    reply = client.post("/api/load", json={"name": OVERLAP.name, "text": OVERLAP.read_text()})
    assert reply.status_code == 200
    body = reply.json()
    assert body["problems"] == [
        {
            "key": "units[0].models[1]",
            "line": "start-overlap.toml: units[0].models[1]: model 'A2' overlaps 'A1' by 0.76\"; "
            "move it apart",
        }
    ]
    assert [p["id"] for p in body["view"]["pieces"]][:2] == ["A1", "A2"]
    request = {"name": OVERLAP.name, "document": body["document"]}
    assert client.post("/api/solve", json=request).status_code == 422
    assert client.post("/api/board", json=request).status_code == 422
    still = client.post("/api/board", json={**request, "fixing": True}).json()
    assert len(still["problems"]) == 1
    fixed = copy.deepcopy(body["document"])
    fixed["units"][0]["models"][1]["y"] = 7.0
    reply = client.post("/api/board", json={**request, "document": fixed, "fixing": True})
    assert reply.json()["problems"] == []


def test_a_file_that_does_not_parse_is_one_line_naming_the_line(client: TestClient) -> None:
    reply = client.post("/api/load", json={"name": "b.toml", "text": 'a = 1\nb = [1,\nc = "x'})
    assert reply.status_code == 422
    assert reply.json()["error"] == ["b.toml: not valid TOML (Invalid value (at line 3, column 1))"]


def test_paths_walked_bend_through_the_gap(client: TestClient) -> None:
    """k1: a written answer whose models squeeze through a gap in a wall: each path has corners,
    starts at the model's start, ends at its end and is as long as the straight line or more."""
    data = read_document(K1)
    start = {m["id"]: (m["x"], m["y"]) for u in data["units"] for m in u["models"]}
    ends = {"A1": (22.245, 14.068), "A2": (22.519, 16.594), "A3": (22.322, 15.348)}
    result = {"placements": [{"model": k, "x": x, "y": y} for k, (x, y) in ends.items()]}
    reply = client.post("/api/paths", json={"name": K1.name, "document": data, "result": result})
    paths = reply.json()["paths"]
    assert set(paths) == set(ends)
    for model, path in paths.items():
        assert len(path) > 2 and tuple(path[0]) == start[model] and tuple(path[-1]) == ends[model]
        # the wall is x = 20 with a gap from y = 14.2 to 15.8 (k1): the path crosses in it
        crossing = [
            a[1] + (b[1] - a[1]) * (20 - a[0]) / (b[0] - a[0])
            for a, b in pairwise(path)
            if (a[0] - 20) * (b[0] - 20) < 0
        ]
        assert len(crossing) == 1 and 14.2 < crossing[0] < 15.8, (model, json.dumps(path))


def test_a_fall_back_result_keeps_its_own_paths(client: TestClient) -> None:
    """A result that carries a bent path is drawn along it, not recomputed."""
    data = read_document(FALL_BACK)
    unit = next(u for u in data["units"] if u["id"] == data["action"]["unit"])
    m = unit["models"][0]
    path = [[m["x"], m["y"]], [m["x"] + 1.0, m["y"] + 1.0], [m["x"] + 1.0, m["y"] + 2.0]]
    result = {"placements": [{"model": m["id"], "x": path[-1][0], "y": path[-1][1], "path": path}]}
    reply = client.post(
        "/api/paths", json={"name": FALL_BACK.name, "document": data, "result": result}
    )
    assert reply.json()["paths"] == {m["id"]: path}
