"""`chargeopt serve`'s JSON endpoints through Starlette's test client: load, board edits, save,
solve (one at a time, cancelled), check, bad input with the command line's own lines, and the
size limits."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from repo_paths import LAYOUTS, REPO_ROOT

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from chargeopt.geometry import check_placement
from chargeopt.models import Result, ScenarioError, read_document
from chargeopt.solver.interface.bounded import wall_limit_s
from chargeopt.solver.interface.web import documents
from chargeopt.solver.interface.web.app import create_app
from chargeopt.solver.loading import load_checked_scenario
from chargeopt.solver.options import SolveOptions

EXAMPLE = LAYOUTS / "examples" / "marines-charge-open.toml"
LONG = LAYOUTS / "scaling-v1" / "c40-walls-s1.toml"
NAME = "marines-charge-open.toml"
TESTS = ("testserver",)
"""The host name Starlette's test client sends: allowed only where a test asks for it."""


@pytest.fixture()
def client() -> TestClient:
    return TestClient(create_app(time_limit_s=20.0, hosts=TESTS))


def _document() -> dict[str, Any]:
    return read_document(EXAMPLE)


def _wait(client: TestClient, seconds: float = 60.0) -> dict[str, Any]:
    """Poll the solve until it is no longer running."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        job = client.get("/api/solve").json()
        if job["state"] != "running":
            return job
        time.sleep(0.1)
    raise AssertionError("the solve did not finish")


def test_load_opens_a_benchmark_file_unchanged(client: TestClient) -> None:
    """A benchmark file opens as the very document it holds, drawn to scale."""
    reply = client.post("/api/load", json={"name": NAME, "text": EXAMPLE.read_text()})
    assert reply.status_code == 200
    body = reply.json()
    assert body["document"] == _document()
    view = body["view"]
    assert view["board"] == {"width": 44.0, "height": 30.0}
    assert [p["id"] for p in view["pieces"]] == ["A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3"]
    # a 32mm base is 0.63" across its radius: 12.6 pixels at 20 to the inch
    assert view["pieces"][0]["radius"] == pytest.approx(16 / 25.4 * 20)
    assert 'class="wall"' in view["terrain_svg"]


def test_an_objective_marker_is_a_piece_to_drag(client: TestClient) -> None:
    """Objective markers are drawn, 40mm across, and can be dragged like models."""
    document = {**_document(), "objectives": [{"id": "obj-1", "x": 30.0, "y": 22.0}]}
    view = client.post("/api/board", json={"name": NAME, "document": document}).json()["view"]
    marker = view["pieces"][-1]
    assert (marker["id"], marker["path"], marker["owner"]) == (
        "obj-1",
        ["objectives", 0],
        "objective",
    )
    assert marker["radius"] == pytest.approx(20 / 25.4 * 20)  # 40mm across, 20 pixels an inch


def test_start_file_is_served_to_the_page() -> None:
    """The SCENARIO given to `chargeopt serve` is what the page opens first."""
    client = TestClient(create_app(str(EXAMPLE), time_limit_s=5.0, hosts=TESTS))
    body = client.get("/api/start").json()
    assert body.pop("table_edges") == ["top", "bottom", "left", "right"]
    assert "table_edge" in body.pop("action_keys")
    assert [c["ids"][0] for c in body.pop("rulesets")][:1] == ["40k-9e"]
    assert body.pop("tts_rulesets")[0] == "40k-11e"  # `import tts --ruleset`'s default
    assert body == {
        "file": NAME,
        "text": EXAMPLE.read_text(),
        "time_limit_s": 5.0,
        "max_models": 300,
        "max_request_bytes": 1_000_000,
    }


def test_model_off_the_board_is_refused_with_the_cli_message(
    client: TestClient, tmp_path: Path
) -> None:
    """A model dropped off the board is refused with the line `chargeopt solve` prints."""
    document = _document()
    document["units"][0]["models"][0]["x"] = -3.0
    reply = client.post("/api/board", json={"name": NAME, "document": document})
    assert reply.status_code == 422
    expected = (
        f"{NAME}: units[0].models[0]: model 'A1' sticks out of the board by 3.63\" past the "
        "left edge; move it onto the board"
    )
    assert reply.json() == {"error": [expected]}
    cli_file = tmp_path / NAME
    cli_file.write_text(documents.scenario_text(document, "toml"))
    with pytest.raises(ScenarioError) as refused:
        load_checked_scenario(cli_file)
    assert [line.replace(str(cli_file), NAME) for line in refused.value.lines()] == [expected]


def test_model_onto_another_is_refused(client: TestClient) -> None:
    """A model dropped onto another is refused with the overlap, as the CLI says it."""
    document = _document()
    document["units"][0]["models"][0]["y"] = 15.0  # 0.5" from A2: two 0.63" radii overlap 0.76"
    reply = client.post("/api/board", json={"name": NAME, "document": document})
    assert reply.status_code == 422
    assert reply.json()["error"] == [
        f"{NAME}: units[0].models[1]: model 'A2' overlaps 'A1' by 0.76\"; move it apart"
    ]


def test_a_legal_edit_is_accepted(client: TestClient) -> None:
    """A legal move of a model is taken and drawn where it was put."""
    document = _document()
    document["units"][0]["models"][0]["x"] = 11.0
    reply = client.post("/api/board", json={"name": NAME, "document": document})
    assert reply.status_code == 200
    assert reply.json()["view"]["pieces"][0]["x"] == 11.0


def test_not_json_and_no_document_are_refused(client: TestClient) -> None:
    """Requests that are not JSON, or carry no scenario, get one line each."""
    json_type = {"content-type": "application/json"}
    reply = client.post("/api/board", content=b"{not json", headers=json_type)
    assert reply.status_code == 422
    assert reply.json() == {"error": ["the request is not JSON"]}
    form = client.post("/api/solve", content=b"{}", headers={"content-type": "text/plain"})
    assert form.json() == {"error": ["send the request as JSON (Content-Type: application/json)"]}
    reply = client.post("/api/board", json={"name": NAME, "document": [1, 2]})
    assert reply.json() == {"error": [f"{NAME}: the board is not a scenario document"]}


def test_broken_file_text_is_refused_naming_the_file(client: TestClient) -> None:
    """A file that does not parse is refused naming the file, as the CLI does."""
    reply = client.post("/api/load", json={"name": "mine.toml", "text": "board = {"})
    assert reply.status_code == 422
    (line,) = reply.json()["error"]
    assert line.startswith("mine.toml: not valid TOML")


@pytest.mark.parametrize("syntax", ["toml", "json"])
def test_save_writes_a_file_the_cli_reads(client: TestClient, tmp_path: Path, syntax: str) -> None:
    """Saved TOML and JSON read back to the same document and the same scenario."""
    document = _document()
    reply = client.post("/api/save", json={"name": NAME, "document": document, "format": syntax})
    assert reply.status_code == 200
    body = reply.json()
    assert body["file"] == f"marines-charge-open.{syntax}"
    text = body["text"]
    assert (tomllib.loads(text) if syntax == "toml" else json.loads(text)) == document
    saved = tmp_path / body["file"]
    saved.write_text(text)
    assert load_checked_scenario(saved) == load_checked_scenario(EXAMPLE)


def test_solve_draws_the_cli_answer(client: TestClient) -> None:
    """Solve gives the CLI's summary and a result document the checker passes."""
    reply = client.post("/api/solve", json={"name": NAME, "document": _document()})
    assert reply.status_code == 200
    assert reply.json()["state"] == "running"
    job = _wait(client)
    assert job["state"] == "done"
    assert job["status"] == "optimal"
    summary = job["summary"].splitlines()
    assert summary[0] == (
        "OPTIMAL: A charges B with a roll of 7 (proven best anywhere on the table)"
    )
    assert "Base contact: 3 of 5 models (most possible: 3)" in summary
    assert any(line.startswith("  Why no more:") for line in summary)
    result = Result.model_validate_json(job["result_text"])
    assert result.model_dump(mode="json") == job["result"]
    assert sum(1 for p in result.placements if p.contact) == 3
    scenario = load_checked_scenario(EXAMPLE)
    assert check_placement(scenario, result.placements, roll=7) == []


def test_second_solve_is_refused_and_a_cancelled_solve_keeps_a_checked_answer() -> None:
    """A second solve is refused while one runs; a cancel stops it, keeping only a legal answer."""
    client = TestClient(create_app(time_limit_s=30.0, hosts=TESTS))
    document = read_document(LONG)
    first = client.post("/api/solve", json={"name": LONG.name, "document": document})
    assert first.status_code == 200
    second = client.post("/api/solve", json={"name": LONG.name, "document": document})
    assert second.status_code == 409
    assert second.json() == {"error": ["a solve is already running: wait for it or cancel it"]}
    assert client.post("/api/solve/cancel", json={}).json()["cancelling"] is True
    job = _wait(client, 10.0)
    assert job["state"] == "done"
    assert job["cut_short"].startswith("Cancelled after")
    if job["result"] is not None:
        assert job["status"] in ("feasible", "infeasible")
        assert job["result"]["violations"] == []


def test_solve_is_bounded_by_the_server_limit() -> None:
    """The page cannot ask for more time than the server's --time-limit."""
    client = TestClient(create_app(time_limit_s=0.5, hosts=TESTS))
    body = {"name": LONG.name, "document": read_document(LONG), "time_limit": 999}
    assert client.post("/api/solve", json=body).json()["limit_s"] == 0.5
    started = time.monotonic()
    job = _wait(client, 20.0)
    assert job["state"] == "done"
    net_s = wall_limit_s(SolveOptions(time_limit_s=0.5))  # the wall-clock safety net
    assert time.monotonic() - started < net_s + 3.0  # + the final check


def test_check_marks_each_broken_rule_on_its_model(client: TestClient) -> None:
    """Check names each broken rule and the models it is marked on."""
    placements = json.loads((EXAMPLE.with_suffix(".result.json")).read_text())["placements"]
    ok = client.post(
        "/api/check", json={"name": NAME, "document": _document(), "placements": placements}
    ).json()
    assert ok["ok"] is True
    assert ok["summary"] == "OK: no violations (5 models checked)"
    document = _document()
    document["action"]["roll"] = 5
    bad = client.post(
        "/api/check", json={"name": NAME, "document": document, "placements": placements}
    ).json()
    assert bad["ok"] is False
    assert [v["kind"] for v in bad["violations"]] == ["moved_too_far"] * 5
    assert sorted(m for v in bad["violations"] for m in v["models"]) == [
        "A1",
        "A2",
        "A3",
        "A4",
        "A5",
    ]


def test_check_without_placements_takes_the_unit_as_unmoved(client: TestClient) -> None:
    """Check with nothing placed judges the unit where it stands, and says so."""
    body = client.post("/api/check", json={"name": NAME, "document": _document()}).json()
    assert body["unmoved"] == ["A1", "A2", "A3", "A4", "A5"]
    assert body["summary"].startswith("Taken as unmoved (no placement given): A1, A2, A3, A4, A5")


def test_result_file_opens_and_a_bad_one_is_refused(client: TestClient) -> None:
    """A result file opens; a malformed one is refused with its key path."""
    text = EXAMPLE.with_suffix(".result.json").read_text()
    body = client.post("/api/result", json={"name": "r.result.json", "text": text}).json()
    assert len(body["result"]["placements"]) == 5
    bad = client.post("/api/result", json={"name": "r.json", "text": '{"placements": 3}'})
    assert bad.status_code == 422
    assert bad.json()["error"][0].startswith("r.json: placements")


def test_requests_past_the_size_limit_are_refused(client: TestClient) -> None:
    """Requests over 1 MB and scenarios over 300 models are refused with the limit."""
    big = "#" * (documents.MAX_REQUEST_BYTES + 1)
    reply = client.post("/api/load", json={"name": NAME, "text": big})
    assert reply.status_code == 413
    assert reply.json()["error"][0].startswith("the request is 1,000,")
    document = _document()
    document["units"][1]["models"] = [
        {"id": f"B{i}", "x": 1.0 + (i % 40), "y": 1.0 + (i // 40) * 1.2}
        for i in range(documents.MAX_MODELS - 4)
    ]
    reply = client.post("/api/board", json={"name": NAME, "document": document})
    assert reply.status_code == 413
    assert reply.json() == {
        "error": [
            f"{NAME}: units: the scenario has 301 models; chargeopt serve takes at most 300 per "
            "file; remove the units and models that take no part in the move"
        ]
    }


def test_other_host_names_are_refused() -> None:
    """A request naming another host (DNS rebinding) is refused."""
    client = TestClient(create_app(), base_url="http://attacker.example")
    assert client.get("/api/start").status_code == 400


def test_page_and_its_files_are_served(client: TestClient) -> None:
    """The page and its script and style are served from the package."""
    page = client.get("/")
    assert page.status_code == 200
    assert '<svg id="board"' in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/style.css").status_code == 200


def test_picture_is_the_svg_the_cli_draws(client: TestClient) -> None:
    """Save picture returns the `--svg` drawing of the board."""
    reply = client.post("/api/picture", json={"name": NAME, "document": _document()})
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("image/svg+xml")
    assert reply.text.startswith("<svg")


def test_missing_web_extra_is_one_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the web extra, serve says what to install, in one line."""
    from chargeopt.models import ChargeoptError
    from chargeopt.solver.interface.web import server

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    with pytest.raises(ChargeoptError) as refused:
        server.serve(None, "127.0.0.1", 0, 1.0, print)
    assert str(refused.value) == server.MISSING_EXTRA


def test_the_command_line_does_not_import_the_web_stack() -> None:
    """Importing the command line does not load Starlette or uvicorn."""
    code = (
        "import sys, chargeopt.solver.interface.cli;"
        "print(sorted(m for m in ('starlette', 'uvicorn') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_rank_and_file_block_is_drawn_solved_and_checked(client: TestClient) -> None:
    """A t9a-2022 block is a piece of its own; its charge solves and checks."""
    path = REPO_ROOT / "benchmarks" / "rank-and-file-v1" / "f2-front-seed-wheel.toml"
    loaded = client.post("/api/load", json={"name": path.name, "text": path.read_text()}).json()
    view = loaded["view"]
    assert view["kind"] == "blocks"
    assert view["moves"] == [{"kind": "charge", "keys": ["targets", "roll"]}]
    a = view["pieces"][0]
    assert (a["id"], a["x"], a["y"], a["facing"]) == ("A", 15.0, 18.0, -90.0)
    body = {"name": path.name, "document": loaded["document"]}
    assert client.post("/api/solve", json=body).status_code == 200
    job = _wait(client)
    assert job["summary"].splitlines()[0] == "OPTIMAL: A charges B"
    blocks = job["result"]["blocks"]
    ok = client.post("/api/check", json={**body, "blocks": blocks}).json()
    assert ok == {"ok": True, "violations": [], "unmoved": [], "summary": ok["summary"]}
    assert ok["summary"].startswith("OK: no violations")


def test_serve_refuses_standard_input_a_bad_file_and_a_busy_port() -> None:
    """`chargeopt serve` refuses stdin, a bad file and a busy port with exit code 2."""
    from click.testing import CliRunner

    from chargeopt.solver.interface.cli import main

    runner = CliRunner()
    piped = runner.invoke(main, ["serve", "-"], input="format = 1\n")
    assert (piped.exit_code, piped.output) == (
        2,
        "error: <stdin>: chargeopt serve opens a file, not standard input; give the file's path\n",
    )
    bad = REPO_ROOT / "tests" / "data" / "malformed" / "start-overlap.toml"
    refused = runner.invoke(main, ["serve", str(bad)])
    assert refused.exit_code == 2
    assert "overlaps 'A1' by 0.76\"" in refused.output
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        busy = runner.invoke(main, ["serve", "--port", str(port)])
    assert (busy.exit_code, busy.output) == (
        2,
        f"error: cannot listen on 127.0.0.1:{port} (Address already in use)\n",
    )
