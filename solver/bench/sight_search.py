"""An independent search that could refute chargeopt's T9A declaration verdicts: random
sight lines (random points of the charger's Front Facing to random points of the target,
the Front Arc tested in the charger's own frame), on random tables of blocks and rocks.

A refusal "no line of sight" is refuted by one free line found here; a refusal "not in the
Front Arc" by one point of the target found inside the arc. Run it with
`python -m chargeopt.solver.bench.sight_search [tables] [seed]`.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

from shapely.geometry import LineString, Point, Polygon

from chargeopt.geometry.rank_and_file.declaration import declaration_problem
from chargeopt.geometry.rank_and_file.frame import BlockPose
from chargeopt.models import RankAndFileScenario


def _in_front_arc(charger: BlockPose, p: tuple[float, float]) -> bool:
    """Strictly inside the Front Arc: ahead of the front, inside both 45-degree lines."""
    u, v = charger.local(p)
    w = charger.width_in
    return v > 0 and v > -u and v > u - w


def _target_points(target: Polygon, rng: random.Random, n: int) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = target.bounds
    out = list(target.exterior.coords)[:-1]
    while len(out) < n:
        p = (rng.uniform(x0, x1), rng.uniform(y0, y1))
        if target.contains(Point(p)):
            out.append(p)
    return out


def search_sight(
    scenario: RankAndFileScenario, uid: str, rng: random.Random, tries: int = 4000
) -> tuple[bool, LineString | None]:
    """(some target point in the Front Arc, a free sight line found or None)."""
    charger = BlockPose.of(scenario.unit_by_id[uid])
    target = BlockPose.of(scenario.target).polygon
    blockers = [Polygon(t.path).buffer(0) for t in scenario.terrain]
    blockers += [
        BlockPose.of(u).polygon for u in scenario.units if u.id not in (uid, scenario.target.id)
    ]
    inner = [b.buffer(-1e-6, join_style="mitre") for b in blockers]
    inner = [b for b in inner if not b.is_empty]
    points = [p for p in _target_points(target, rng, 400) if _in_front_arc(charger, p)]
    if not points:
        return False, None
    front = charger.facing_segment("front")
    for _ in range(tries):
        k = rng.random()
        a = (
            front.start[0] + k * (front.end[0] - front.start[0]),
            front.start[1] + k * (front.end[1] - front.start[1]),
        )
        line = LineString([a, rng.choice(points)])
        if not any(line.intersects(b) for b in inner):
            return True, line
    return True, None


@dataclass
class Tally:
    """What the search found against chargeopt's verdicts."""

    tables: int = 0
    declared: int = 0
    refused_arc: int = 0
    refused_sight: int = 0
    refuted: list[str] = field(default_factory=list)
    unconfirmed: int = 0
    """Declared by chargeopt, but the random lines found none (not a refutation)."""


def random_table(rng: random.Random) -> RankAndFileScenario:
    """A charger, a target, a friend or two and a few rocks, placed at random."""

    def block(uid: str, owner: str) -> dict:
        return {
            "id": uid,
            "owner": owner,
            "files": rng.randint(2, 6),
            "ranks": rng.randint(1, 4),
            "base": "25x25mm",
            "x": round(rng.uniform(6, 40), 2),
            "y": round(rng.uniform(6, 40), 2),
            "facing": round(rng.uniform(-180, 180), 1),
        }

    units = [block("A", "attacker"), block("B", "defender")]
    units += [block(f"C{i}", "attacker") for i in range(rng.randint(0, 2))]
    rocks = []
    for i in range(rng.randint(0, 10)):
        x, y = rng.uniform(4, 42), rng.uniform(4, 42)
        w, h = rng.uniform(0.2, 12), rng.uniform(0.2, 2)
        if rng.random() < 0.5:
            w, h = h, w
        rocks.append(
            {
                "id": f"r{i}",
                "kind": "impassable",
                "path": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
            }
        )
    return RankAndFileScenario.model_validate(
        {
            "ruleset": "t9a-2022",
            "board": {"width": 48, "height": 48},
            "terrain": rocks,
            "units": units,
            "action": {"kind": "charge", "unit": "A", "targets": ["B"]},
        }
    )


def run(tables: int, seed: int) -> Tally:
    """Search `tables` random tables (starts that overlap are skipped)."""
    from chargeopt.geometry.rank_and_file.start import check_block_layout
    from chargeopt.models import ScenarioError

    rng = random.Random(seed)
    tally = Tally()
    while tally.tables < tables:
        scenario = random_table(rng)
        try:
            check_block_layout(scenario)
        except ScenarioError:
            continue
        tally.tables += 1
        problem = declaration_problem(scenario, "A")
        in_arc, line = search_sight(scenario, "A", rng)
        if problem is None:
            tally.declared += 1
            tally.unconfirmed += line is None
            if not in_arc:
                tally.refuted.append(f"table {tally.tables}: declared, no point in the arc")
        elif " is not in " in problem:
            tally.refused_arc += 1
            if in_arc:
                tally.refuted.append(f"table {tally.tables}: refused (arc) but a point is in it")
        else:
            tally.refused_sight += 1
            if line is not None:
                tally.refuted.append(f"table {tally.tables}: refused (sight), free {line.wkt}")
    return tally


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    s = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    t = run(n, s)
    print(
        f"{t.tables} tables: {t.declared} declared ({t.unconfirmed} unconfirmed by sampling), "
        f"{t.refused_arc} refused (arc), {t.refused_sight} refused (sight); "
        f"{len(t.refuted)} refuted"
    )
    for line in t.refuted:
        print(line)
    sys.exit(1 if t.refuted else 0)
