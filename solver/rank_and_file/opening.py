"""What every charge starts with: the charger's arc of the target and by how much (the Target
Facing), the distance between the units, the Charge Range needed, and whether the roll made it."""

from __future__ import annotations

from chargeopt.geometry.rank_and_file.arcs import charger_arc
from chargeopt.geometry.rank_and_file.contact import distance_between
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.models import RankAndFileScenario
from chargeopt.solver.rank_and_file.odds import chance_of_range, smallest_range
from chargeopt.solver.rank_and_file.ruling import Ruling


def open_ruling(scenario: RankAndFileScenario, uid: str, roll: int | None) -> Ruling:
    """The ruling's opening for charger `uid`; outcome "fails" when `roll` is short."""
    start = BlockPose.of(scenario.unit_by_id[uid])
    target_pose = BlockPose.of(scenario.target)
    block = scenario.unit_by_id[uid]
    verdict = charger_arc(target_pose, block, start, scenario.rules.arc_rule)
    distance = distance_between(start, target_pose)
    ruling = Ruling(
        uid,
        "charger",
        start,
        arc=verdict.arc,
        arc_margin_deg=verdict.margin_deg,
        arc_margin_in=verdict.margin_in,
        target_facing=verdict.arc,
        distance_in=distance,
        range_needed=smallest_range(distance),
        charge_range=roll,
    )
    ruling.chance = float(
        chance_of_range(
            ruling.range_needed or 0, block.profile.charge_speed, block.profile.maximised_charge
        )
    )
    if roll is not None and roll < distance:
        ruling.outcome = "fails"
    return ruling


def short_range_reason(ruling: Ruling, target: str) -> str:
    """Why a charge with a short roll fails, in words."""
    return (
        f'the Charge Range of {ruling.charge_range}" is short of the {ruling.distance_in:.2f}" '
        f"between {ruling.unit} and {target}: the charge fails"
    )
