"""The result document: status, placements, objective and bound, proof, violations, stats."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .keys import Coordinate, Finite, key
from .rank_and_file import WHEEL_METRICS
from .rulesets import KNOWN_RULESETS, RANK_AND_FILE_EDITIONS
from .scenario import Action, ActionKind

RESULT_RULESETS = (*KNOWN_RULESETS, *RANK_AND_FILE_EDITIONS, *WHEEL_METRICS)
"""Every ruleset id a result may name: the skirmish editions and modifiers, the rank-and-file
editions and their wheel metrics."""
ResultRulesetId = Annotated[str, Field(json_schema_extra={"enum": list(RESULT_RULESETS)})]

ActionKindName = Annotated[str, Field(json_schema_extra={"enum": [k.value for k in ActionKind]})]


class Status(StrEnum):
    """How far the answer is proven (CP-SAT's outcomes, mapped one to one)."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"


class _Doc(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ResultAction(_Doc):
    """The action as it was solved (the roll may come from the command line)."""

    kind: ActionKindName = key("The move that was made.", example="charge")
    unit: str = key("The id of the unit that moved.", example="A")
    targets: tuple[str, ...] = key(
        "The ids of the units the charge was declared against.", example=["B"], default=()
    )
    roll: int | None = key(
        "The charge roll the placement was made for.",
        example=7,
        unit="in",
        default=None,
        ge=0,
        le=36,
    )

    @classmethod
    def of(cls, action: Action, roll: int | None) -> ResultAction:
        """The scenario's action as solved with `roll`."""
        return cls(kind=action.kind.value, unit=action.unit, targets=action.targets, roll=roll)


class Placement(_Doc):
    """One model's end position. A hand-written placement needs only model, x and y."""

    model: str = key("The id of the model placed.", example="A1")
    x: Coordinate = key(
        "The distance of the model's centre from the board's left edge at the end of the move.",
        example=17.2,
        unit="in",
    )
    y: Coordinate = key(
        "The distance of the model's centre from the board's top edge at the end of the move.",
        example=9.1,
        unit="in",
    )
    z: Finite = key(
        "The height the model ends at: 0 on the ground, else the height of its floor.",
        example=0.0,
        unit="in",
        default=0.0,
    )
    facing: Finite | None = key(
        "The direction the model ends facing, from +x toward +y (empty: as it started).",
        example=90.0,
        unit="deg",
        default=None,
    )
    moved: Finite | None = key(
        "How far the model moved along its shortest legal path (written by the solver).",
        example=6.4,
        unit="in",
        default=None,
    )
    contact: tuple[str, ...] = key(
        "The ids of the enemy models it ends in base contact with.", example=["B2"], default=()
    )
    engaged: tuple[str, ...] = key(
        "The ids of the enemy models it ends within engagement range of.",
        example=["B2", "B3"],
        default=(),
    )
    fights: tuple[str, ...] = key(
        "The ids of the enemy models it can fight (9th edition: within engagement range, or "
        "through a unit mate in base contact).",
        example=["B2"],
        default=(),
    )
    token: bool = key(
        "Whether the model ends holding a wtc-walls token.", example=False, default=False
    )
    wall: str | None = key(
        "The id of the ruin wall its wtc-walls token is on.", example="ruin-1-north", default=None
    )
    path: tuple[tuple[Coordinate, Coordinate], ...] = key(
        "The centre's path as [x, y] points from its start to its end (a 40k-assault-4e fall "
        "back; empty: the straight line).",
        example=[[10.0, 12.0], [10.0, 19.0]],
        unit="in",
        default=(),
    )


class Violation(_Doc):
    """One broken rule, with the models, terrain and distances involved."""

    kind: str = key(
        "Which rule is broken, as a short name such as moved_too_far or coherency.",
        example="moved_too_far",
    )
    message: str = key(
        "What is wrong, in words a judge can check.",
        example="model 'A1' moves 3.88\" along its shortest legal path, more than the roll of 3\"",
    )
    models: tuple[str, ...] = key("The ids of the models involved.", example=["A1"], default=())
    terrain: tuple[str, ...] = key(
        "The ids of the terrain pieces involved.", example=["ruin-1-north"], default=()
    )
    distance_in: float | None = key("The distance measured.", example=3.88, unit="in", default=None)
    limit_in: float | None = key(
        "The limit the rule sets on it.", example=3.0, unit="in", default=None
    )


class Result(_Doc):
    """What a solve returns, and what `chargeopt check` reads (only `placements` is required)."""

    format: Literal[1] = key(
        "The version of the result format (only 1 exists).", example=1, default=1
    )
    scenario: str = key(
        "The name of the scenario solved.", example="Ten marines charge through a ruin", default=""
    )
    ruleset: tuple[ResultRulesetId, ...] = key(
        "The rules played by: an edition and its modifiers.", example=["40k-10e"], default=()
    )
    action: ResultAction | None = key(
        "The move as it was solved (the roll may come from the command line).",
        example={"kind": "charge", "unit": "A", "targets": ["B"], "roll": 7},
        default=None,
    )
    status: Status = key(
        "How far the answer is proven: optimal (nothing better exists within the bound), "
        "feasible (legal, better may exist), infeasible (no legal placement; see proof) or "
        "unknown (time ran out).",
        example="optimal",
        default=Status.FEASIBLE,
    )
    min_roll: int | None = key(
        "The smallest charge roll with a placement found (every larger roll succeeds too).",
        example=6,
        unit="in",
        default=None,
    )
    min_roll_proven: bool | None = key(
        "True when every smaller roll is proven to fail anywhere on the table; false when a "
        "smaller roll is not ruled out (the minimum lies from min_roll_at_least to min_roll).",
        example=True,
        default=None,
    )
    min_roll_at_least: int | None = key(
        "The smallest roll not ruled out on the whole table: min_roll when it is proven, "
        "smaller when it is not.",
        example=6,
        unit="in",
        default=None,
    )
    success_probability: float | None = key(
        "The chance of rolling at least min_roll, from 0 to 1.",
        example=0.7222,
        default=None,
        ge=0,
        le=1,
    )
    success_probability_reroll: float | None = key(
        "The same chance when the charge roll may be rerolled once, from 0 to 1.",
        example=0.9228,
        default=None,
        ge=0,
        le=1,
    )
    trapped_chance: str | None = key(
        "40k-assault-4e fall back without a roll: the exact chance, over the dice, that the "
        "unit is Trapped! and destroyed, as a fraction.",
        example="7/36",
        default=None,
    )
    rolls: tuple[dict[str, Any], ...] = key(
        "The best base contact for each roll from min_roll to 12, and whether each is proven.",
        example=[{"roll": 7, "base_contact": 4, "proven": True}],
        default=(),
    )
    objective: dict[str, int | float] = key(
        "The value reached on each objective term, such as base_contact and engaged.",
        example={"base_contact": 4, "engaged": 10},
        default_factory=dict,
    )
    bound: dict[str, int | float] = key(
        "The proven ceiling of each objective term; equal to the objective means optimal.",
        example={"base_contact": 4},
        default_factory=dict,
    )
    placements: tuple[Placement, ...] = key(
        "Where each model of the moving unit ends. Models that stay put have moved = 0; a "
        "hand-written placement needs only model, x and y.",
        example=[{"model": "A1", "x": 17.2, "y": 9.1}],
        default=(),
    )
    blocks: tuple[dict[str, Any], ...] = key(
        "Rank-and-file rulesets (t9a-2022, whfb-6e, tow): where each block ends, as its front-left "
        "corner and facing, with the ruling's reasons (arc, Target Facing, path, initial contact, "
        "models in contact; see solver/rank_and_file/README.md). A hand-written one needs unit, x, "
        "y and facing.",
        example=[{"unit": "A", "x": 10.0, "y": 12.0, "facing": 90.0}],
        default=(),
    )
    order: tuple[str, ...] = key(
        "40k-assault-4e: the order the models moved in, first to last (a charge's first model "
        "is the one nearest the enemy); replaying it model by model keeps every rule.",
        example=["A3", "A2", "A4", "A1"],
        default=(),
    )
    fighters: dict[str, tuple[str, ...]] = key(
        "40k-assault-4e: who fights after the move: `full` (in base contact with an enemy, full "
        'attacks) and `one_attack` (within 2" of an engaged unit mate).',
        example={"full": ["A3", "A2"], "one_attack": ["A1"]},
        default_factory=dict,
    )
    target_sets: tuple[dict[str, Any], ...] = key(
        "40k-11e charge: each set of enemy units the roll may charge (targets are chosen after "
        "the roll), best first, with its status, minimum roll, chances, objective, bound, proof "
        "and placements; the top-level answer is the first set's.",
        example=[
            {
                "targets": ["B"],
                "status": "optimal",
                "min_roll": 6,
                "objective": {"within_1": 3, "engaged": 5, "movement_in": 21.4},
            }
        ],
        default=(),
    )
    proof: str | None = key(
        "Why no legal placement exists (infeasible only), naming the models, terrain and "
        "distances involved.",
        example='no model of unit A can end within 1" of unit C: the nearest is 9.20" away '
        'along a legal path, more than the roll of 7"',
        default=None,
    )
    violations: tuple[Violation, ...] = key(
        "What the independent checker found wrong with the placements (empty when optimal or "
        "feasible).",
        example=[],
        default=(),
    )
    stats: dict[str, Any] = key(
        "How the solve went: seconds, candidate positions and other counts.",
        example={"seconds": 0.41, "candidates": 2300},
        default_factory=dict,
    )
