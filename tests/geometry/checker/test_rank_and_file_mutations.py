"""The rank-and-file checker against broken answers: every stored solve answer of the two
rank-and-file suites (tests/data/rank_and_file_answers), broken one way at a time, must be
refused with the right violation name, both written by hand (unit, x, y, facing only) and with
the solver's claims left in; the unbroken answer passes both ways. Run as a script for the
whole matrix (`python tests/geometry/checker/test_rank_and_file_mutations.py`)."""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable
from typing import Any

import pytest
from repo_paths import REPO_ROOT
from shapely.ops import nearest_points

from chargeopt.geometry.checker.rank_and_file import check_blocks
from chargeopt.geometry.checker.rank_and_file_flush import shared_stretch, touched_facing
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.geometry.rank_and_file.moves import rotate_about
from chargeopt.geometry.rank_and_file.start import check_block_layout
from chargeopt.models import RankAndFileScenario, Result

ANSWERS = REPO_ROOT / "tests" / "data" / "rank_and_file_answers"
SUITES = ("rank-and-file-v1", "rank-and-file-wheel-v1")
CASES = sorted((suite, path.stem) for suite in SUITES for path in (ANSWERS / suite).glob("*.json"))
MINIMAL = ("unit", "x", "y", "facing")
Blocks = list[dict[str, Any]]


def load(suite: str, stem: str) -> tuple[dict[str, Any], Result]:
    data = tomllib.loads((REPO_ROOT / "benchmarks" / suite / f"{stem}.toml").read_text())
    return data, Result.model_validate(json.loads((ANSWERS / suite / f"{stem}.json").read_text()))


def scenario_of(data: dict[str, Any]) -> RankAndFileScenario:
    scenario = RankAndFileScenario.model_validate(data)
    check_block_layout(scenario, "layout")
    return scenario


def minimal(blocks: Blocks) -> Blocks:
    """The answer as a person writes it: where each block stands (and a failed outcome)."""
    out = []
    for entry in blocks:
        kept = {k: entry[k] for k in MINIMAL}
        if entry.get("outcome", "charges") not in ("charges", "rotates"):
            kept["outcome"] = entry["outcome"]
        out.append(kept)
    return out


def kinds(scenario: RankAndFileScenario, result: Result, blocks: Blocks) -> set[str]:
    return {v.kind for v in check_blocks(scenario, result.model_copy(update={"blocks": blocks}))}


def charger_entry(result: Result) -> dict[str, Any] | None:
    """The charging block sharing the most of its facing with the target (a block touching
    only at a corner cannot be pushed into it)."""
    charging = [
        b
        for b in result.blocks
        if b.get("role", "charger") == "charger" and b.get("outcome") == "charges"
    ]
    return max(charging, key=lambda b: b.get("models_in_contact", 0), default=None)


def pose_of(scenario: RankAndFileScenario, entry: dict[str, Any]) -> BlockPose:
    unit = scenario.unit_by_id[entry["unit"]]
    return BlockPose(unit.width_in, unit.depth_in, entry["x"], entry["y"], entry["facing"])


def target_pose(scenario: RankAndFileScenario, result: Result) -> BlockPose:
    tid = result.action.targets[0] if result.action else scenario.action.target
    moved = next((b for b in result.blocks if b["unit"] == tid), None)
    return pose_of(scenario, moved) if moved else BlockPose.of(scenario.unit_by_id[tid])


def placed(entry: dict[str, Any], pose: BlockPose) -> dict[str, Any]:
    return {**entry, "x": pose.x, "y": pose.y, "facing": pose.facing}


def replace(blocks: Blocks, entry: dict[str, Any]) -> Blocks:
    return [entry if b["unit"] == entry["unit"] else b for b in blocks]


Mutation = Callable[[dict[str, Any], Result], tuple[dict[str, Any], Blocks] | None]
"""(layout data, answer) -> (layout data, broken blocks), or None where it does not apply."""


def turned(data: dict[str, Any], result: Result) -> tuple[dict[str, Any], Blocks] | None:
    """Turned 2 degrees about an end of its stretch of the facing, lifting off the target."""
    scenario, entry = scenario_of(data), charger_entry(result)
    if entry is None:
        return None
    pose, target = pose_of(scenario, entry), target_pose(scenario, result)
    on = touched_facing(pose, target)
    stretch = shared_stretch(pose, on.facing)
    for t in stretch:
        for sign in (1.0, -1.0):
            new = rotate_about(pose, on.facing.point_at(t), 2.0 * sign)
            if new.polygon.intersection(target.polygon).area < 1e-9:
                return data, replace(result.blocks, placed(entry, new))
    return None


def shifted(
    distance_in: float, along: bool = False
) -> Callable[[dict[str, Any], Result], tuple[dict[str, Any], Blocks] | None]:
    """Moved `distance_in` out of (negative: into) the target along the facing's normal, or
    along the facing."""

    def mutate(data: dict[str, Any], result: Result) -> tuple[dict[str, Any], Blocks] | None:
        scenario, entry = scenario_of(data), charger_entry(result)
        if entry is None:
            return None
        pose, target = pose_of(scenario, entry), target_pose(scenario, result)
        seg = touched_facing(pose, target).facing
        v = seg.direction if along else seg.normal
        new = pose.moved(pose.x + distance_in * v[0], pose.y + distance_in * v[1], pose.facing)
        return data, replace(result.blocks, placed(entry, new))

    return mutate


def pushed_into(what: str) -> Mutation:
    """Moved 0.02" into the nearest other charger or terrain piece."""

    def mutate(data: dict[str, Any], result: Result) -> tuple[dict[str, Any], Blocks] | None:
        scenario, entry = scenario_of(data), charger_entry(result)
        if entry is None:
            return None
        pose = pose_of(scenario, entry)
        if what == "terrain":
            from shapely.geometry import Polygon

            shapes = [Polygon(t.path) for t in scenario.terrain]
        else:
            shapes = [
                pose_of(scenario, b).polygon
                for b in result.blocks
                if b["unit"] != entry["unit"] and b["unit"] in scenario.action.chargers
            ]
        if not shapes:
            return None
        near = min(shapes, key=pose.polygon.distance)
        p, q = nearest_points(pose.polygon, near)
        gap = p.distance(q)
        if gap < 1e-9:
            return None
        step = (gap + 0.02) / gap
        dx, dy = (q.x - p.x) * step, (q.y - p.y) * step
        return data, replace(
            result.blocks, placed(entry, pose.moved(pose.x + dx, pose.y + dy, pose.facing))
        )

    return mutate


def range_short(data: dict[str, Any], result: Result) -> tuple[dict[str, Any], Blocks] | None:
    """One range short: T9A a Charge Range one below the distance; 6e/tow a charge move one
    below the answer's own path (rounded up)."""
    scenario, entry = scenario_of(data), charger_entry(result)
    if entry is None:
        return None
    data = json.loads(json.dumps(data))
    uid = entry["unit"]
    unit = next(u for u in data["units"] if u["id"] == uid)
    edition = scenario.rules.charge_move
    if edition == "t9a-roll":
        start = BlockPose.of(scenario.unit_by_id[uid])
        distance = start.polygon.distance(BlockPose.of(scenario.target).polygon)
        roll = math.ceil(distance) - 1
        if roll < 0:
            return None
        if data["action"].get("units"):
            data["action"].setdefault("rolls", {})[uid] = roll
        else:
            data["action"]["roll"] = roll
    else:
        moved = entry.get("moved_in")
        if moved is None:
            return None
        short = math.ceil(moved - 1e-6) - 1
        if edition == "double-move":
            unit["profile"]["movement"] = short / 2
        else:
            unit["profile"]["movement"] = short - 1
            data["action"]["roll"] = short
    return data, result.blocks


def path_elsewhere(data: dict[str, Any], result: Result) -> tuple[dict[str, Any], Blocks] | None:
    """The last forward move of the written path 1" shorter: its end is elsewhere."""
    entry = charger_entry(result)
    if entry is None:
        return None
    path = [dict(s) for s in entry.get("path") or []]
    forwards = [s for s in path if s["move"] == "forward" and s["distance_in"] >= 1.0]
    if not forwards:
        return None
    forwards[-1]["distance_in"] -= 1.0
    return data, replace(result.blocks, {**entry, "path": path})


MUTATIONS: dict[str, tuple[Mutation, str]] = {
    "turned 2 degrees": (turned, "not_flush"),
    'slid 0.05" off the facing': (shifted(0.05), "no_contact"),
    'pushed 0.02" into the target': (shifted(-0.02), "target_overlap"),
    'pushed 0.02" into a charger': (pushed_into("charger"), "chargers_overlap"),
    'pushed 0.02" into terrain': (pushed_into("terrain"), "terrain_clash"),
    "one range short": (range_short, "out_of_range|unreachable"),
    "a path ending elsewhere": (path_elsewhere, "path_end_mismatch"),
}
DOOR_SLID = (shifted(0.5, along=True), "door_slid")


def expected(name: str, scenario: RankAndFileScenario) -> str:
    options = MUTATIONS[name][1].split("|")
    if len(options) == 1:
        return options[0]
    return options[0] if scenario.rules.charge_move == "t9a-roll" else options[1]


def run(suite: str, stem: str, name: str, written: str) -> tuple[str, set[str]] | None:
    """(the name expected, the names found) for one broken answer; None: does not apply."""
    data, result = load(suite, stem)
    mutate, _ = MUTATIONS.get(name, DOOR_SLID)
    broken = mutate(data, result)
    if broken is None:
        return None
    data2, blocks = broken
    if name not in MUTATIONS and scenario_of(data2).rules.charge_move == "t9a-roll":
        return None
    if written == "minimal":
        if name == "a path ending elsewhere":
            blocks = [
                {**m, "path": b["path"]} if "path" in b and b["unit"] == m["unit"] else m
                for m, b in zip(minimal(blocks), blocks, strict=True)
            ]
        else:
            blocks = minimal(blocks)
    scenario = scenario_of(data2)
    want = expected(name, scenario) if name in MUTATIONS else "door_slid"
    return want, kinds(scenario, result, blocks)


@pytest.mark.parametrize(("suite", "stem"), CASES)
def test_the_unbroken_answer_passes_minimal_and_full(suite: str, stem: str) -> None:
    data, result = load(suite, stem)
    scenario = scenario_of(data)
    assert kinds(scenario, result, result.blocks) == set()
    assert kinds(scenario, result, minimal(result.blocks)) == set()


@pytest.mark.parametrize(("suite", "stem"), CASES)
@pytest.mark.parametrize("name", list(MUTATIONS))
@pytest.mark.parametrize("written", ["minimal", "full"])
def test_a_broken_answer_fails_with_its_name(
    suite: str, stem: str, name: str, written: str
) -> None:
    got = run(suite, stem, name, written)
    if got is None:
        pytest.skip("this break does not apply to this layout")
    want, found = got
    assert want in found, found


@pytest.mark.parametrize("stem", ["w2-6e-wheel-whole-front", "t2-tow-wheel-whole-front"])
def test_a_door_slid_along_the_front_fails(stem: str) -> None:
    want, found = run("rank-and-file-wheel-v1", stem, "door slid 0.5", "full")
    assert want in found, found


def matrix() -> None:
    """Print every layout x break x writing: caught, missed (with what was found) or n/a."""
    totals: dict[str, list[int]] = {}
    for suite, stem in CASES:
        for name in [*MUTATIONS, "door slid 0.5"]:
            for written in ("minimal", "full"):
                if name == "door slid 0.5" and written == "minimal":
                    continue
                got = run(suite, stem, name, written)
                row = totals.setdefault(f"{name} ({written})", [0, 0, 0])
                if got is None:
                    row[2] += 1
                elif got[0] in got[1]:
                    row[0] += 1
                else:
                    row[1] += 1
                    print(f"MISSED {stem} {name} {written}: {sorted(got[1])}")
    for key, (caught, missed, na) in totals.items():
        print(f"{key}: caught {caught}, missed {missed}, n/a {na}")


if __name__ == "__main__":
    matrix()
