"""The `chargeopt` command line: a click group whose commands share one error contract.

Every ChargeoptError (bad input, unsupported rule) is printed as `error: ...` lines on stderr
with exit code 2 and no traceback; any other exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import json
from typing import Any

import click

from chargeopt.models import (
    STDIN,
    ActionKind,
    ChargeoptError,
    IneligibleMoveError,
    Result,
    Scenario,
    ScenarioError,
    document_name,
    load_result,
    result_schema,
    scenario_schema,
)
from chargeopt.solver.interface.bench_command import bench
from chargeopt.solver.interface.files import write_text
from chargeopt.solver.loading import load_checked_scenario

EXIT_VIOLATIONS = 1
EXIT_BAD_INPUT = 2
MAX_ROLL = 36


def error_lines(exc: ChargeoptError) -> list[str]:
    """The lines a user sees for an error (one per problem)."""
    if isinstance(exc, ScenarioError):
        return exc.lines()
    return str(exc).splitlines() or [type(exc).__name__]


class ChargeoptGroup(click.Group):
    """A click group that turns ChargeoptError into `error:` lines and exit code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ChargeoptError as exc:
            for line in error_lines(exc):
                click.echo(f"error: {line}", err=True)
            ctx.exit(EXIT_BAD_INPUT)


@click.group(cls=ChargeoptGroup)
@click.version_option(package_name="chargeopt")
def main() -> None:
    """Exact, checked charge and pile-in placements for tabletop wargames."""


@main.command()
@click.argument("scenario_file", metavar="SCENARIO")
@click.option(
    "--roll",
    type=click.IntRange(0, MAX_ROLL),
    default=None,
    help="The charge roll (default: the scenario's; without one, find the minimum roll).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result JSON instead of a summary.")
@click.option("-o", "--output", "output", default=None, help="Also write the result JSON here.")
@click.option("--svg", "svg_file", default=None, help="Draw the board and the answer as SVG here.")
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0.1),
    default=20.0,
    show_default=True,
    help="Seconds; past it the best placement found so far is returned as 'feasible'.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Solver random seed.")
@click.option(
    "--no-roll-table",
    is_flag=True,
    help="Skip the table of base contacts for every roll from the minimum to 12.",
)
@click.option(
    "--repair",
    is_flag=True,
    help="If the answer is short of its engagement bound, try to bring more models within "
    "engagement range by shifting the unit off the candidate positions and laying its front "
    "out again (up to two fifths of the time limit).",
)
def solve(
    scenario_file: str,
    roll: int | None,
    as_json: bool,
    output: str | None,
    svg_file: str | None,
    time_limit: float,
    seed: int,
    no_roll_table: bool,
    repair: bool,
) -> None:
    """Find the best legal placement for the scenario's move, or prove there is none.

    SCENARIO is a .toml or .json file, or - to read it from standard input.

    Exit code 0 when the answer is known (optimal, feasible or infeasible with a proof),
    1 when it is unknown, 2 on bad input.
    """
    from chargeopt.solver.api import solve as run_solver
    from chargeopt.solver.interface.summary import summarise_result
    from chargeopt.solver.options import SolveOptions

    scenario = load_checked_scenario(scenario_file)
    options = SolveOptions(
        time_limit_s=time_limit,
        seed=seed,
        roll=roll,
        roll_table=not no_roll_table,
        repair=repair,
    )
    try:
        result = run_solver(scenario, options=options)
    except IneligibleMoveError as exc:
        raise ScenarioError(document_name(scenario_file), [("action", str(exc), "")]) from None
    text = json.dumps(result.model_dump(mode="json"), indent=2)
    if output:
        write_text(output, text + "\n")
    if svg_file:
        from chargeopt.solver.interface.svg import render_svg

        write_text(svg_file, render_svg(scenario, result))
    click.echo(text if as_json else summarise_result(result))
    if result.status.value == "unknown" or result.violations:
        click.get_current_context().exit(EXIT_VIOLATIONS)


@main.command()
@click.argument("document", type=click.Choice(["scenario", "result"]))
def schema(document: str) -> None:
    """Print the JSON Schema of a scenario or a result document."""
    chosen = scenario_schema() if document == "scenario" else result_schema()
    click.echo(json.dumps(chosen, indent=2))


@main.command()
@click.argument("scenario_file", metavar="SCENARIO")
@click.argument("result_file", metavar="RESULT.json")
@click.option(
    "--roll",
    type=click.IntRange(0, MAX_ROLL),
    default=None,
    help="Charge roll to check against (default: the result's, then the scenario's).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the violations as JSON.")
def check(scenario_file: str, result_file: str, roll: int | None, as_json: bool) -> None:
    """Check a placement (the solver's or a person's) against the rules.

    Either file may be - to read it from standard input.

    Exit code 0 when the placement is legal, 1 when it breaks a rule, 2 on bad input.
    """
    if scenario_file == result_file == STDIN:
        raise ScenarioError(
            document_name(STDIN),
            [("", "only one of the two files can come from standard input", "name the other")],
        )
    scenario = load_checked_scenario(scenario_file)
    result = load_result(result_file)
    _same_action(scenario, result, document_name(result_file))
    chosen_roll = _roll_to_check(scenario, result, roll, document_name(scenario_file))
    from chargeopt.geometry.checker import check_placement, summarise

    violations = check_placement(
        scenario, result.placements, roll=chosen_roll, file=document_name(scenario_file)
    )
    if as_json:
        payload = {
            "violations": [v.model_dump(mode="json") for v in violations],
            "ok": not violations,
        }
        click.echo(json.dumps(payload, indent=2))
    elif violations:
        click.echo(summarise(violations))
    else:
        click.echo(f"OK: no violations ({len(result.placements)} models checked)")
    if violations:
        click.get_current_context().exit(EXIT_VIOLATIONS)


def _same_action(scenario: Scenario, result: Result, result_file: str) -> None:
    """Refuse a result written for another action than the scenario's."""
    if result.action is None:
        return
    for key, got, want in (
        ("action.kind", result.action.kind, str(scenario.action.kind)),
        ("action.unit", result.action.unit, scenario.action.unit),
    ):
        if got != want:
            raise ScenarioError(
                result_file,
                [
                    (
                        key,
                        f"the result is for {got!r} but the scenario's is {want!r}",
                        "check the right pair of files",
                    )
                ],
            )


def _roll_to_check(
    scenario: Scenario, result: Result, roll: int | None, scenario_file: str
) -> int | None:
    """--roll, else the result's action.roll, else the scenario's; a charge needs one."""
    if roll is None and result.action is not None:
        roll = result.action.roll
    if roll is None:
        roll = scenario.action.roll
    if roll is None and scenario.action.kind == ActionKind.CHARGE:
        raise ScenarioError(
            scenario_file,
            [
                (
                    "action.roll",
                    "checking a charge needs its roll",
                    "add roll = N to [action], or give --roll N",
                )
            ],
        )
    return roll


main.add_command(bench)
