"""No input makes the command line crash: mutated scenario and result files (wrong types,
missing and extra keys, extreme numbers, deep nesting, self-crossing shapes, bad bytes) given to
`check` and `solve` end with a known exit code and `error:` lines, never a traceback."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from repo_paths import REPO_ROOT

from chargeopt.solver.interface.cli import main

EXAMPLE = REPO_ROOT / "benchmarks/layouts/examples/marines-charge-open.toml"
MALFORMED = REPO_ROOT / "tests" / "data" / "malformed"
SCENARIO = tomllib.loads(EXAMPLE.read_text())
RESULT = json.loads((MALFORMED / "ok.result.json").read_text())
OK_SCENARIO = tomllib.loads((MALFORMED / "ok.toml").read_text())

ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.sampled_from([0.0, -1.0, 1e308, -1e308, 1e-320, 5e-324, 1e9, 36.0, 0.5]),
    st.text(max_size=12),
    st.sampled_from(["32mm", "60x35mm", "25x25mm", "wall", "charge", "40k-10e", "", "NaN"]),
    st.lists(st.integers(-5, 50), max_size=4),
    st.just([[0.0, 0.0], [4.0, 4.0], [4.0, 0.0], [0.0, 4.0]]),
    st.just({}),
)


def _paths(document: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path into a parsed document (dict keys and list indices)."""
    found = [prefix] if prefix else []
    if isinstance(document, dict):
        for key, value in document.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += _paths(value, (*prefix, index))
    return found


def _set(document: Any, path: tuple[Any, ...], value: Any, delete: bool = False) -> None:
    """Replace (or delete) the value at `path`, in place."""
    for step in path[:-1]:
        document = document[step]
    if delete:
        del document[path[-1]]
    else:
        document[path[-1]] = value


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any]) -> dict[str, Any]:
    """`base` with one to three mutations: a value replaced, a key removed or one added."""
    document = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(document)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            _set(document, path, copy.deepcopy(draw(ODD_VALUES)))
        elif action == "delete":
            _set(document, path, None, delete=True)
        else:
            parent = document
            for step in path[:-1]:
                parent = parent[step]
            if isinstance(parent, dict):
                key = draw(st.sampled_from(["extra", "Models", "x ", "ruleset2"]))
                parent[key] = copy.deepcopy(draw(ODD_VALUES))
    return document


def _outcome_is_clean(args: list[str]) -> None:
    """The command ends with one of its exit codes; a refused input says so in `error:` lines
    on stderr; nothing escapes as an exception or an internal error."""
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1, 2, 3), (result.exit_code, result.output)
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert lines and all(line.startswith("error: ") for line in lines), result.stderr
        assert "Traceback" not in result.stderr


FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
"""The same examples on every run, so CI is repeatable; widen the search with
`--hypothesis-seed=N` (27 seeds were run when the NEL line break was found and fixed)."""


@FUZZ
@given(document=mutated(OK_SCENARIO))
def test_check_survives_mutated_scenarios(tmp_path: Path, document: dict[str, Any]) -> None:
    """Mutated scenarios against a legal result: refused cleanly or judged."""
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps(document))
    _outcome_is_clean(["check", str(scenario), str(MALFORMED / "ok.result.json")])


@FUZZ
@given(document=mutated(RESULT))
def test_check_survives_mutated_results(tmp_path: Path, document: dict[str, Any]) -> None:
    """Mutated results against the legal base scenario."""
    result = tmp_path / "result.json"
    result.write_text(json.dumps(document))
    _outcome_is_clean(["check", str(MALFORMED / "ok.toml"), str(result)])


@settings(FUZZ, max_examples=25)
@given(document=mutated(SCENARIO))
def test_solve_survives_mutated_scenarios(tmp_path: Path, document: dict[str, Any]) -> None:
    """Mutated versions of the five-marine example, solved with a short limit."""
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps(document))
    _outcome_is_clean(["solve", str(scenario), "--time-limit", "2", "--no-roll-table"])


@FUZZ
@given(raw=st.binary(max_size=64))
def test_any_bytes_are_refused_cleanly(tmp_path: Path, raw: bytes) -> None:
    """Random bytes as a TOML and as a JSON scenario: never a crash."""
    for suffix in (".toml", ".json"):
        scenario = tmp_path / f"scenario{suffix}"
        scenario.write_bytes(raw)
        _outcome_is_clean(["check", str(scenario), str(MALFORMED / "ok.result.json")])


def test_deep_nesting_is_refused_cleanly(tmp_path: Path) -> None:
    """A JSON document nested 100,000 levels deep (it raised RecursionError)."""
    scenario = tmp_path / "deep.json"
    scenario.write_text("[" * 100_000 + "]" * 100_000)
    _outcome_is_clean(["check", str(scenario), str(MALFORMED / "ok.result.json")])
    _outcome_is_clean(["solve", str(scenario)])


def test_a_self_crossing_floor_is_refused_by_solve_and_check_alike(tmp_path: Path) -> None:
    """A floor outline that crosses itself (a bow tie) gets the same clean refusal from both
    commands (solve raised AttributeError on a MultiPolygon while check said OK)."""
    document = json.loads(json.dumps(SCENARIO))
    document.setdefault("terrain", []).append(
        {
            "id": "bow-tie",
            "kind": "floor",
            "path": [[1.0, 1.0], [4.0, 4.0], [4.0, 1.0], [1.0, 4.0]],
            "height": 3.0,
        }
    )
    scenario = tmp_path / "bow-tie.json"
    scenario.write_text(json.dumps(document))
    solved = CliRunner().invoke(main, ["solve", str(scenario), "--time-limit", "2"])
    checked = CliRunner().invoke(main, ["check", str(scenario), str(tmp_path / "none.json")])
    assert solved.exit_code == 2, solved.output
    assert "bow-tie" in solved.stderr
    assert checked.exit_code == 2
    assert solved.stderr.splitlines()[0] == checked.stderr.splitlines()[0]


def test_line_breaks_in_a_quoted_value_stay_escaped(tmp_path: Path) -> None:
    """A value holding a line break Python splits at (a newline, NEL U+0085, U+2028), quoted
    back in a message, is written as an escape: the message stays one `error:` line (the
    fuzz test found "placements" = "\\x85" splitting it)."""
    result_file = tmp_path / "result.json"
    for value, shown in (("\x85", "\\u0085"), ("a\nb", "a\\u000ab"), ("\u2028", "\\u2028")):
        result_file.write_text(json.dumps({"placements": value}))
        result = CliRunner().invoke(main, ["check", str(MALFORMED / "ok.toml"), str(result_file)])
        assert result.exit_code == 2
        assert len(result.stderr.splitlines()) == 1
        assert f'got the text "{shown}"' in result.stderr
