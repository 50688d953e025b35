"""`chargeopt serve` against bad requests: every one answered 4xx with one line, never a 500
(a body nested 100,000 deep, a picture of a malformed or foreign result, the model cap written
as any number, random documents); `testserver` only where a test names it; checks one at a
time and bounded in time."""

from __future__ import annotations

import copy
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from repo_paths import LAYOUTS, REPO_ROOT

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from chargeopt.models import read_document
from chargeopt.solver.interface.web import judging
from chargeopt.solver.interface.web.app import create_app

EXAMPLE = LAYOUTS / "examples" / "marines-charge-open.toml"
BLOCKS = REPO_ROOT / "benchmarks" / "rank-and-file-v1" / "f2-front-seed-wheel.toml"
NAME = "marines-charge-open.toml"
TESTS = ("testserver",)
CAP_FIX = "remove the units and models that take no part in the move"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(time_limit_s=5.0, hosts=TESTS))


def _refused(reply: Any, status: int) -> str:
    """The one line of a refusal with `status`."""
    assert reply.status_code == status, reply.text
    lines = reply.json()["error"]
    assert len(lines) == 1, lines
    assert "this is a bug" not in lines[0]
    return str(lines[0])


def test_a_body_nested_100000_deep_is_refused_in_one_line(client: TestClient) -> None:
    """Brackets 100,000 deep (200 kB, under the size limit): 413, not a RecursionError."""
    body = "[" * 100_000 + "]" * 100_000
    headers = {"Content-Type": "application/json"}
    line = _refused(client.post("/api/board", content=body, headers=headers), 413)
    assert line.startswith("the request nests deeper than 20 levels")
    nested: Any = 1
    for _ in range(60):
        nested = {"a": nested}
    document = {**read_document(EXAMPLE), "extra": nested}
    reply = client.post("/api/board", json={"name": NAME, "document": document})
    assert "nests deeper than 20 levels (at document.extra" in _refused(reply, 413)


@pytest.mark.parametrize(
    ("result", "says"),
    [
        ("not a result", "result: the result is not a JSON object"),
        ({"placements": "A1"}, "placements"),
        ({"status": "solved"}, "status"),
        ({"placements": [{"model": "Z9", "x": 1.0, "y": 1.0}]}, "places 'Z9', which is not on"),
    ],
)
def test_a_picture_of_a_malformed_result_is_refused(
    client: TestClient, result: object, says: str
) -> None:
    """/api/picture with a result that is no result, or places models the board lacks: 422."""
    body = {"name": NAME, "document": read_document(EXAMPLE), "result": result}
    assert says in _refused(client.post("/api/picture", json=body), 422)


@pytest.mark.parametrize(
    "blocks",
    [
        [{"x": 1.0}],
        [{"unit": "A", "outcome": "charges"}],
        [{"unit": "A", "outcome": "fails", "path": 3}],
    ],
)
def test_a_picture_of_malformed_blocks_is_refused(client: TestClient, blocks: object) -> None:
    """Blocks without their unit, or a charger without its end: 422, one line."""
    body = {"name": BLOCKS.name, "document": read_document(BLOCKS), "result": {"blocks": blocks}}
    line = _refused(client.post("/api/picture", json=body), 422)
    assert line.startswith(f"{BLOCKS.name}: result")


@pytest.mark.parametrize(
    ("counts", "models"),
    [
        ({"files": 100.0, "ranks": 4}, "415"),
        ({"files": 100, "ranks": 4.0}, "415"),
        ({"files": "100", "ranks": "4"}, "415"),
        ({"files": 58, "ranks": 5}, "305"),
        ({"models": 1e300, "ranks": None}, "more than 10^18"),
        ({"models": "286", "ranks": None}, "301"),
    ],
)
def test_the_model_cap_counts_every_way_of_writing_a_number(
    client: TestClient, counts: dict[str, object], models: str
) -> None:
    """A block of files x ranks (or models), written as int, float or string, beside a block of
    15: 413 past 300."""
    document = read_document(BLOCKS)
    document["units"][0].update(counts)
    document["units"][0] = {k: v for k, v in document["units"][0].items() if v is not None}
    line = _refused(
        client.post("/api/board", json={"name": BLOCKS.name, "document": document}), 413
    )
    assert line == (
        f"{BLOCKS.name}: units: the scenario has {models} models; chargeopt serve takes at most "
        f"300 per file; {CAP_FIX}"
    )


def test_testserver_is_refused_unless_a_test_names_it() -> None:
    """The production server (loopback) refuses the test client's host name."""
    for hosts in ((), ("127.0.0.1",), ("localhost",)):
        assert TestClient(create_app(hosts=hosts)).get("/api/start").status_code == 400
    assert TestClient(create_app(hosts=TESTS)).get("/api/start").status_code == 200
    local = TestClient(create_app(), base_url="http://127.0.0.1:8765")
    assert local.get("/api/start").status_code == 200


def _slow_judge(*_: object) -> dict[str, Any]:
    time.sleep(60)
    return {}


def test_a_check_is_bounded_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check that runs past the server's limit is stopped: 408, one line."""
    monkeypatch.setattr(judging, "judge", _slow_judge)
    slow = TestClient(create_app(time_limit_s=0.5, hosts=TESTS))
    body = {"name": NAME, "document": read_document(EXAMPLE), "placements": []}
    line = _refused(slow.post("/api/check", json=body), 408)
    assert line == "the check took longer than 0.5 s and was stopped"


def test_checks_run_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second check while one runs: 409, one line; stopping the server ends the first."""
    monkeypatch.setattr(judging, "judge", _slow_judge)
    app = create_app(time_limit_s=30.0, hosts=TESTS)
    busy = TestClient(app)
    body = {"name": NAME, "document": read_document(EXAMPLE), "placements": []}
    replies: list[Any] = []
    first = threading.Thread(target=lambda: replies.append(busy.post("/api/check", json=body)))
    first.start()
    end = time.monotonic() + 20
    while not app.state.checker.lock.locked() and time.monotonic() < end:
        time.sleep(0.02)
    assert _refused(busy.post("/api/check", json=body), 409) == (
        "a check is already running: wait for it"
    )
    app.state.stop_work()
    first.join(20)
    assert _refused(replies[0], 408) == "the check was stopped: the server is closing"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
EXAMPLE_DOCUMENT = read_document(EXAMPLE)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path inside a document."""
    out = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            out += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            out += _paths(inner, (*prefix, index))
    return out


PATHS = _paths(EXAMPLE_DOCUMENT)[1:]


@st.composite
def mutated_documents(draw: st.DrawFn) -> dict[str, Any]:
    """The example scenario with one to three of its values replaced by random JSON."""
    document = copy.deepcopy(EXAMPLE_DOCUMENT)
    for path in draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=3)):
        holder: Any = document
        try:
            for key in path[:-1]:
                holder = holder[key]
            holder[path[-1]] = draw(JSON)
        except (KeyError, IndexError, TypeError):
            continue
    return document


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    endpoint=st.sampled_from(["board", "save", "picture", "check", "result", "load"]),
    document=mutated_documents(),
    extra=st.dictionaries(
        st.sampled_from(["name", "text", "result", "placements", "blocks", "format"]),
        JSON,
        max_size=3,
    ),
)
def test_random_requests_never_get_a_500(
    client: TestClient, endpoint: str, document: dict[str, Any], extra: dict[str, Any]
) -> None:
    """Mutated scenarios and random fields on every endpoint that takes a body: a 2xx or a
    4xx with one line per problem, never a 500."""
    body = json.dumps({"name": NAME, "document": document, **extra})  # NaN, Infinity kept
    headers = {"Content-Type": "application/json"}
    reply = client.post(f"/api/{endpoint}", content=body, headers=headers)
    assert reply.status_code < 500, reply.text
    if reply.status_code >= 400:
        assert reply.json()["error"]


def test_serve_refuses_a_file_past_its_cap_before_listening(tmp_path: Path) -> None:
    """`chargeopt serve FILE` with more models than the page takes: exit 2, one line."""
    from click.testing import CliRunner

    from chargeopt.solver.interface.cli import main

    document = read_document(BLOCKS)
    document["units"][0].update(files=60, ranks=5)
    path = tmp_path / "big-blocks.json"
    path.write_text(json.dumps(document))
    ran = CliRunner().invoke(main, ["serve", str(path), "--port", "0"])
    assert (ran.exit_code, ran.output) == (
        2,
        f"error: {path}: units: the scenario has 315 models; chargeopt serve takes at most 300 "
        f"per file; {CAP_FIX}\n",
    )
