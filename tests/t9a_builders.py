"""Small T9A tables for the rank-and-file tests: blocks by front-left corner and facing."""

from __future__ import annotations

from typing import Any

from chargeopt.models import RankAndFileScenario

INCH_25MM = 25 / 25.4
"""The width of one 25 mm base in inches."""


def block(
    uid: str,
    owner: str,
    x: float,
    y: float,
    facing: float,
    files: int = 5,
    ranks: int = 3,
    base: str = "25x25mm",
    **extra: Any,
) -> dict[str, Any]:
    return {
        "id": uid,
        "owner": owner,
        "files": files,
        "ranks": ranks,
        "base": base,
        "x": x,
        "y": y,
        "facing": facing,
        **extra,
    }


def table(
    units: list[dict[str, Any]],
    terrain: list[list[tuple[float, float]]] = (),
    chargers: tuple[str, ...] = ("A",),
    target: str = "B",
    roll: int | None = None,
    board: tuple[float, float] = (48.0, 48.0),
    ruleset: str | list[str] = "t9a-2022",
    **action: Any,
) -> RankAndFileScenario:
    act: dict[str, Any] = {"kind": "charge", "targets": [target], **action}
    if len(chargers) == 1:
        act["unit"] = chargers[0]
    else:
        act["units"] = list(chargers)
    if roll is not None:
        act["roll"] = roll
    return RankAndFileScenario.model_validate(
        {
            "ruleset": ruleset,
            "board": {"width": board[0], "height": board[1]},
            "terrain": [
                {"id": f"rock-{i}", "kind": "impassable", "path": [list(p) for p in path]}
                for i, path in enumerate(terrain)
            ],
            "units": units,
            "action": act,
        }
    )


def assert_checked(scenario: RankAndFileScenario) -> None:
    """Solve; the answer passes the independent checker as written (an infeasible one with
    its proof)."""
    from chargeopt.geometry.checker.rank_and_file import check_blocks
    from chargeopt.models import Status
    from chargeopt.solver import solve

    result = solve(scenario)
    assert result.status in (Status.OPTIMAL, Status.FEASIBLE, Status.INFEASIBLE)
    assert not result.violations, [v.message for v in result.violations]
    assert check_blocks(scenario, result) == [] or result.status == Status.INFEASIBLE
    assert result.status != Status.INFEASIBLE or result.proof


def tow_wheel_into_touch() -> RankAndFileScenario:
    """Issue 42: a 6x2 TOW block whose best charge is a wheel from the start that ends touching
    B's front-left corner (no forward move either side of it): an isolated path."""
    a = block(
        "A",
        "attacker",
        17.2,
        23.8,
        -98.9,
        files=6,
        ranks=2,
        base="25x50mm",
        profile={"movement": 6},
    )
    rock = [(30.1, 29.5), (32.1, 29.5), (32.1, 31.0), (30.1, 31.0)]
    b = block("B", "defender", 26.0, 18.0, 90.0)
    return table([b, a], terrain=[rock], roll=12, ruleset=["tow", "wheel-chord"], fled=False)


def property_settings(examples: int):
    """Hypothesis settings for the solver's property tests (slow examples are fine)."""
    from hypothesis import HealthCheck, Phase, settings

    return settings(
        max_examples=examples,
        deadline=None,
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
        suppress_health_check=[HealthCheck.too_slow],
    )
