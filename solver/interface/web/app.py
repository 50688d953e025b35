"""The web server's routes: the page and its static files, and the JSON endpoints it calls.

Every refused input answers 422 with {"error": [lines]}, the lines `chargeopt` prints; a
request past the size limit (bytes, nesting or models) 413, a second solve or check while one
runs 409, a check past the time limit 408, a bug 500 with one line. Never a traceback."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from chargeopt.models import ChargeoptError, ScenarioError, validate_document
from chargeopt.models.nesting import MAX_DEPTH, too_deep
from chargeopt.solver.interface.bounded import TimeUp
from chargeopt.solver.interface.web import data_set, documents, drafts, moves, tts
from chargeopt.solver.interface.web.solving import Busy, Checker, Solver, internal_error_line
from chargeopt.solver.loading import TooManyModels

STATIC = Path(str(files("chargeopt.solver.interface.web") / "static"))
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")
Handler = Callable[[dict[str, Any]], Any]


def create_app(
    start_file: str | None = None, time_limit_s: float = 20.0, hosts: tuple[str, ...] = ()
) -> Starlette:
    """The application: `start_file` opens on the page, every solve and check is bounded by
    `time_limit_s`, and requests naming another host than `hosts` (plus loopback) are refused
    (a web page elsewhere cannot reach the server through a name it controls; tests name
    Starlette's test client's host, `testserver`, here)."""
    solver = Solver()
    checker = Checker(time_limit_s)
    opening: dict[str, Any] = {
        "time_limit_s": time_limit_s,
        "max_models": documents.MAX_MODELS,
        "max_request_bytes": documents.MAX_REQUEST_BYTES,
        "rulesets": moves.ruleset_choices(),
        "table_edges": moves.table_edges(),
        "action_keys": list(moves.ACTION_KEYS),
        "tts_rulesets": list(tts.RULESETS),
    }
    if start_file is not None:
        text = Path(start_file).read_text(encoding="utf-8-sig")
        opening.update(file=Path(start_file).name, text=text)

    def start(_: dict[str, Any]) -> dict[str, Any]:
        return opening

    def load(payload: dict[str, Any]) -> dict[str, Any]:
        name = documents.file_name(payload.get("name"))
        data, scenario, problems = documents.parse_scenario(_text(payload), name)
        return _board(data, scenario, name, problems)

    def board(payload: dict[str, Any]) -> dict[str, Any]:
        """An edited board; one whose start layout has problems is refused, unless the page is
        fixing a board that opened with problems (`fixing`): then they come back marked. A
        table being set up (no move yet: `drafts`) is checked with stand-ins for what it lacks."""
        name, data = _document(payload)
        return _any_board(data, name, payload.get("fixing") is True)

    def data_facts(_: dict[str, Any]) -> dict[str, Any]:
        return data_set.facts()

    def datasheet(payload: dict[str, Any]) -> dict[str, Any]:
        return data_set.datasheet_facts(payload.get("datasheet"))

    def add_unit(payload: dict[str, Any]) -> dict[str, Any]:
        """The board with a unit of `count` models of a datasheet, in a compact formation at
        the point clicked (`at`) or the first free spot in its side's half."""
        name, data = _document(payload)
        owner = payload.get("owner")
        unit, pitch_in = data_set.new_unit(
            data, payload.get("datasheet"), payload.get("count"), owner
        )
        view = _any_board(data, name, True)["view"]
        spots = data_set.centres(view["board"], str(owner), payload.get("at"))
        placed = data_set.place_unit(data, unit, pitch_in, spots, lambda doc: _problems(doc, name))
        return _any_board(placed, name, True)

    def tts_open(payload: dict[str, Any]) -> dict[str, Any]:
        """A TTS save: its units, or (the charge named) the scenario the import writes."""
        if not str(payload.get("charger") or "").strip():
            return tts.save_units_view(payload)
        name, data = tts.imported(payload)
        scenario, problems = documents.board_with_problems(data, name)
        frame = tts.frame_of(payload)
        out = _board(data, scenario, name, problems)
        out["tts"] = {"scale": frame.scale, "board": f"{frame.width_in:g}x{frame.height_in:g}"}
        return out

    def tts_export(payload: dict[str, Any]) -> dict[str, Any]:
        return tts.exported(payload)

    def _judged(data: dict[str, Any], name: str) -> tuple[dict[str, Any], Any, list, bool]:
        """(the document, promoted when it holds both sides; its scenario; its start layout's
        problems; whether it is still a draft)."""
        if drafts.is_draft(data):
            data = drafts.promoted(data)
        if not drafts.is_draft(data):
            return data, *documents.board_with_problems(data, name), False
        full, real = drafts.completed(data)
        scenario, problems = documents.board_with_problems(full, name)
        return data, scenario, drafts.real_problems(problems, real), True

    def _any_board(data: dict[str, Any], name: str, fixing: bool) -> dict[str, Any]:
        if not drafts.is_draft(data) and not fixing:
            return _board(data, documents.board_from(data, name), name)
        data, scenario, problems, draft = _judged(data, name)
        if problems and not fixing:
            raise ChargeoptError("\n".join(p["line"] for p in problems))
        out = _board(data, scenario, name, problems)
        if draft:
            out["view"] = drafts.draft_view(out["view"])
        return out

    def _problems(data: dict[str, Any], name: str) -> list[dict[str, str]]:
        """The board's problems as the start layout's check finds them (overlaps, terrain,
        an 11th-edition area's walls)."""
        return _judged(data, name)[2]

    def save(payload: dict[str, Any]) -> dict[str, Any]:
        name, data = _document(payload)
        if drafts.is_draft(drafts.promoted(data)):
            raise ChargeoptError(
                f"{name}: the table has no move yet; add a unit of each side (Add unit), then save"
            )
        documents.board_with_problems(data, name)
        syntax = "json" if payload.get("format") == "json" else "toml"
        file = f"{Path(name).stem}.{syntax}"
        return {"file": file, "text": documents.scenario_text(data, syntax)}

    def open_result(payload: dict[str, Any]) -> dict[str, Any]:
        name = documents.file_name(payload.get("name"))
        result = documents.parse_result(_text(payload), name)
        return {"file": name, "result": result.model_dump(mode="json")}

    def check(payload: dict[str, Any]) -> dict[str, Any]:
        from chargeopt.solver.interface.web.judging import judge

        name, data = _document(payload)
        scenario = documents.board_from(data, name)
        return checker.run(lambda: judge(scenario, payload, name))

    def solve(payload: dict[str, Any]) -> dict[str, Any]:
        from chargeopt.solver.options import SolveOptions

        name, data = _document(payload)
        scenario = documents.board_from(data, name)
        limit = _seconds(payload.get("time_limit"), time_limit_s)
        options = SolveOptions(time_limit_s=limit, roll_table=bool(payload.get("roll_table", 1)))
        return solver.start(scenario, options, name).progress()

    def progress(_: dict[str, Any]) -> dict[str, Any]:
        return solver.job.progress() if solver.job is not None else {"state": "idle"}

    def cancel(_: dict[str, Any]) -> dict[str, Any]:
        solver.cancel()
        return progress({})

    def picture(payload: dict[str, Any]) -> Response:
        from chargeopt.models import Result
        from chargeopt.solver.interface.svg import render_svg

        name, data = _document(payload)
        scenario = documents.board_from(data, name)
        result = payload.get("result")
        answer = None
        if result is not None:
            if not isinstance(result, dict):
                raise ScenarioError(name, [("result", "the result is not a JSON object", "")])
            answer = validate_document(Result, result, f"{name} (result)", "json")
            _fits(scenario, answer, name)
        try:
            drawing = render_svg(scenario, answer)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            if answer is None:
                raise
            problem = f"the result cannot be drawn on this board ({type(exc).__name__}: {exc})"
            fix = "send a result chargeopt solve or check wrote for this board"
            raise ScenarioError(name, [("result", problem[:300], fix)]) from None
        return Response(drawing, media_type="image/svg+xml")

    def walked(payload: dict[str, Any]) -> dict[str, Any]:
        """The paths the result's models walked (bent around terrain), for the page to draw."""
        from chargeopt.models import RankAndFileScenario, Result
        from chargeopt.solver.interface.walked import walked_paths

        name, data = _document(payload)
        scenario = documents.board_from(data, name)
        result = payload.get("result")
        if not isinstance(result, dict):
            raise ScenarioError(name, [("result", "the result is not a JSON object", "")])
        answer = validate_document(Result, result, f"{name} (result)", "json")
        _fits(scenario, answer, name)
        if isinstance(scenario, RankAndFileScenario):
            return {"paths": {}}
        return {"paths": walked_paths(scenario, answer.placements)}

    routes = [
        Route("/", _index),
        Route("/api/start", _endpoint(start), methods=["GET"]),
        Route("/api/load", _endpoint(load), methods=["POST"]),
        Route("/api/board", _endpoint(board), methods=["POST"]),
        Route("/api/save", _endpoint(save), methods=["POST"]),
        Route("/api/result", _endpoint(open_result), methods=["POST"]),
        Route("/api/check", _endpoint(check), methods=["POST"]),
        Route("/api/solve", _endpoint(solve), methods=["POST"]),
        Route("/api/solve", _endpoint(progress), methods=["GET"]),
        Route("/api/solve/cancel", _endpoint(cancel), methods=["POST"]),
        Route("/api/picture", _endpoint(picture), methods=["POST"]),
        Route("/api/paths", _endpoint(walked), methods=["POST"]),
        Route("/api/data", _endpoint(data_facts), methods=["GET"]),
        Route("/api/datasheet", _endpoint(datasheet), methods=["POST"]),
        Route("/api/unit", _endpoint(add_unit), methods=["POST"]),
        Route("/api/tts/open", _endpoint(tts_open, tts.MAX_SAVE_BYTES), methods=["POST"]),
        Route("/api/tts/export", _endpoint(tts_export, tts.MAX_SAVE_BYTES), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    allowed = [*LOOPBACK_NAMES, *hosts]
    middleware = [] if "*" in hosts else [Middleware(TrustedHostMiddleware, allowed_hosts=allowed)]

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        yield
        stop_work()
        await run_in_threadpool(solver.shutdown)

    def stop_work() -> None:
        checker.closing.set()
        solver.cancel()

    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.solver = solver
    app.state.checker = checker
    app.state.stop_work = stop_work
    return app


async def _index(_: Request) -> Response:
    return FileResponse(STATIC / "index.html")


def _endpoint(
    handler: Handler, limit: int = documents.MAX_REQUEST_BYTES
) -> Callable[[Request], Awaitable[Response]]:
    """A JSON endpoint: the body read within the size limit, the handler run off the event
    loop, every failure turned into a JSON error in the command line's words."""

    async def endpoint(request: Request) -> Response:
        try:
            payload = await _payload(request, limit)
            answer = await run_in_threadpool(handler, payload)
        except documents.TooLarge as exc:
            return JSONResponse({"error": [str(exc)]}, status_code=413)
        except TooManyModels as exc:
            return JSONResponse({"error": documents.error_lines(exc)}, status_code=413)
        except Busy as exc:
            return JSONResponse({"error": [str(exc)]}, status_code=409)
        except TimeUp as exc:
            return JSONResponse({"error": [str(exc)]}, status_code=408)
        except ChargeoptError as exc:
            return JSONResponse({"error": documents.error_lines(exc)}, status_code=422)
        except Exception as exc:
            return JSONResponse({"error": [internal_error_line(exc)]}, status_code=500)
        return answer if isinstance(answer, Response) else JSONResponse(answer)

    return endpoint


async def _payload(request: Request, limit: int = documents.MAX_REQUEST_BYTES) -> dict[str, Any]:
    """The request's JSON object, refused past MAX_REQUEST_BYTES before it is all read. Only
    JSON is taken: a page elsewhere cannot send it to this server without the browser asking
    first, and the server never says yes."""
    if request.method == "GET":
        return {}
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ChargeoptError("send the request as JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise documents.TooLarge(_too_large(int(declared), limit))
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise documents.TooLarge(_too_large(len(body), limit))
    try:
        text = bytes(body or b"{}").decode("utf-8")
    except UnicodeDecodeError:
        raise ChargeoptError("the request is not JSON (not UTF-8 text)") from None
    deep = too_deep(text, "json")
    if deep is not None:
        raise documents.TooLarge(
            f"the request nests deeper than {MAX_DEPTH} levels (at {deep.key_path or 'its top'});"
            " a scenario nests about eight: send the board as the page writes it"
        )
    try:
        payload = json.loads(text)
    except (ValueError, RecursionError):
        raise ChargeoptError("the request is not JSON") from None
    if not isinstance(payload, dict):
        raise ChargeoptError("the request is not a JSON object")
    return payload


def _too_large(size: int, limit: int = documents.MAX_REQUEST_BYTES) -> str:
    return (
        f"the request is {size:,} bytes; chargeopt serve accepts up to "
        f"{limit:,} bytes (and {documents.MAX_MODELS} models)"
    )


def _text(payload: dict[str, Any]) -> str:
    text = payload.get("text")
    if not isinstance(text, str):
        raise ChargeoptError("the request carries no file text")
    return text


def _document(payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    name = documents.file_name(payload.get("name"))
    data = payload.get("document")
    if not isinstance(data, dict):
        raise ScenarioError(name, [("", "the board is not a scenario document", "")])
    return name, data


def _fits(scenario: Any, result: Any, name: str) -> None:
    """Refuse a result that places models or blocks the board does not hold."""
    from chargeopt.models import RankAndFileScenario

    if isinstance(scenario, RankAndFileScenario):
        known = {block.id for block in scenario.units}
        placed = [(f"result.blocks[{i}]", b.get("unit")) for i, b in enumerate(result.blocks)]
    else:
        known = {m.id for unit in scenario.units for m in unit.models}
        placed = [(f"result.placements[{i}]", p.model) for i, p in enumerate(result.placements)]
    for key, ident in placed:
        if ident not in known:
            problem = f"places {ident!r}, which is not on the board"
            raise ScenarioError(name, [(key, problem, "draw the result with its own scenario")])


def _seconds(asked: object, limit_s: float) -> float:
    """The page's time limit for a solve, within (0.1 s, the server's limit]."""
    try:
        value = float(asked) if asked is not None else limit_s
    except (TypeError, ValueError):
        value = limit_s
    return min(max(value, 0.1), limit_s) if value == value else limit_s


def _board(
    data: dict[str, Any], scenario: Any, name: str, problems: list[dict[str, str]] | None = None
) -> dict[str, Any]:
    from chargeopt.solver.interface.web.view import board_view

    view = board_view(scenario)
    return {"file": name, "document": data, "view": view, "problems": problems or []}
