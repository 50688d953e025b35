"""Shortest legal paths: closed-form detours around walls, bases and engagement ranges, which
rules make what an obstacle, touching starts and ends, and the vectorised queries.

Obstacle polygons circumscribe the true grown shapes, so every length is at least the exact
closed form and at most `excess(g, turn)` longer: the grow distance g times the relative
inflation of the arcs times the radians the path turns around the obstacle."""

from __future__ import annotations

import itertools
import math
from typing import Any

import networkx as nx
import numpy as np
import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point

from chargeopt.geometry import Battlefield
from chargeopt.geometry.obstacles import (
    ARC_QUAD_SEGS,
    PathError,
    climb_in,
    grown_obstacle,
    mover_profile,
)
from chargeopt.geometry.paths import legal_move_length, obstacle_map
from chargeopt.models import Scenario, mm_to_in

R32 = mm_to_in(32) / 2
R40 = mm_to_in(40) / 2
CIRCLE_EXCESS = 1 / math.cos(math.pi / (4 * ARC_QUAD_SEGS)) - 1
POLYGON_EXCESS = 1 / math.cos(3 * math.pi / (8 * ARC_QUAD_SEGS)) - 1


def excess(grow_in: float, turn_rad: float, ratio: float = CIRCLE_EXCESS) -> float:
    """Upper bound on how much longer the polygon detour is than the exact one."""
    return grow_in * ratio * turn_rad + 1e-9


def unit(
    uid: str,
    owner: str,
    models: list[tuple[float, float]] | list[dict[str, Any]],
    keywords: tuple[str, ...] = (),
    base: Any = "32mm",
) -> dict[str, Any]:
    rows = [m if isinstance(m, dict) else {"x": m[0], "y": m[1]} for m in models]
    return {
        "id": uid,
        "owner": owner,
        "keywords": list(keywords),
        "base": base,
        "models": [{"id": f"{uid}{i + 1}", **m} for i, m in enumerate(rows)],
    }


def scenario(
    *units: dict[str, Any],
    terrain: tuple[dict[str, Any], ...] = (),
    ruleset: str = "40k-10e",
    board: tuple[float, float] = (30.0, 20.0),
) -> Scenario:
    """A pile-in scenario (no targets needed) for the first unit."""
    return Scenario.model_validate(
        {
            "ruleset": ruleset,
            "board": {"width": board[0], "height": board[1]},
            "terrain": list(terrain),
            "units": list(units),
            "action": {"kind": "pile-in", "unit": units[0]["id"]},
        }
    )


def field(s: Scenario, model_id: str = "A1", **options: Any):
    omap = obstacle_map(s, Battlefield.from_scenario(s), model_id, **options)
    return omap.path_field(omap.mover.start)


def around_circle(
    sx: float, sy: float, ex: float, ey: float, cx: float, cy: float, rho: float
) -> tuple[float, float]:
    """Length and turn of the taut path from s to e around a circle (centre c, radius rho) that
    blocks the segment s-e: tangent, arc, tangent."""
    ds, de = math.hypot(sx - cx, sy - cy), math.hypot(ex - cx, ey - cy)
    between = math.acos(((sx - cx) * (ex - cx) + (sy - cy) * (ey - cy)) / (ds * de))
    arc = between - math.acos(rho / ds) - math.acos(rho / de)
    return math.sqrt(ds**2 - rho**2) + math.sqrt(de**2 - rho**2) + rho * arc, arc


WALL = {"id": "wall", "kind": "wall", "path": [[10, 0], [10, 10]], "thickness": 0.25, "height": 5}


def test_open_field_is_the_straight_line() -> None:
    """With nothing in the way the path is the straight segment, and path_to draws it."""
    f = field(scenario(unit("A", "attacker", [(5, 5)])))
    assert f.length_to(20, 12) == pytest.approx(math.hypot(15, 7), rel=1e-12)
    assert f.path_to(20, 12) == [(5.0, 5.0), (20.0, 12.0)]


def test_vehicle_goes_around_the_end_of_a_wall() -> None:
    """A 32mm VEHICLE crossing a 0.25" wall from (10,0) to (10,10) wraps both grown corners
    at y=10: tangent, arc, the wall's thickness, arc, tangent."""
    t, r = 0.25, R32
    s = scenario(unit("A", "attacker", [(5, 5)], ("VEHICLE",)), terrain=(WALL,))
    d = math.hypot(5 - t / 2, 5)
    turn = math.atan2(5, 5 - t / 2) + math.asin(r / d)
    exact = 2 * (math.sqrt(d**2 - r**2) + r * turn) + t
    got = field(s).length_to(15, 5)
    assert exact <= got <= exact + excess(r, 2 * turn, POLYGON_EXCESS)
    assert got == pytest.approx(15.27876, abs=2e-3)


def test_infantry_walks_through_ruin_walls_in_10th() -> None:
    """INFANTRY moves through ruin walls: the same move is the straight 10"."""
    s = scenario(unit("A", "attacker", [(5, 5)], ("INFANTRY",)), terrain=(WALL,))
    assert field(s).length_to(15, 5) == pytest.approx(10.0, rel=1e-12)


def test_ignore_terrain_takes_walls_away_but_not_impassable() -> None:
    """ignore_terrain (the WTC distance) removes walls for a VEHICLE; impassable stays."""
    block = {"id": "pit", "kind": "impassable", "path": [[12, 3], [13, 3], [13, 7], [12, 7]]}
    s = scenario(unit("A", "attacker", [(5, 5)], ("VEHICLE",)), terrain=(WALL,))
    assert field(s, ignore_terrain=True).length_to(15, 5) == pytest.approx(10.0, rel=1e-12)
    s = scenario(unit("A", "attacker", [(5, 5)], ("VEHICLE",)), terrain=(WALL, block))
    assert field(s, ignore_terrain=True).length_to(15, 5) > 10.5


def ring(centre: tuple[float, float], radius: float, gap_deg: float) -> list[tuple[float, float]]:
    """Six bases on a circle: two either side of the direction 180 deg leaving a gap of
    gap_deg between their centres, four more spread evenly over the rest."""
    half = gap_deg / 2
    angles = [180 - half, *(180 + half + k * (360 - gap_deg) / 5 for k in range(5))]
    return [
        (
            centre[0] + radius * math.cos(math.radians(a)),
            centre[1] + radius * math.sin(math.radians(a)),
        )
        for a in angles
    ]


@pytest.mark.parametrize(("slack", "reachable"), [(-0.01, False), (0.01, True)])
def test_ring_of_enemies_opens_only_for_a_gap_as_wide_as_the_base(
    slack: float, reachable: bool
) -> None:
    """Enemies ring (15,10) at 2.4"; the gap facing the start is the 32mm base's width
    -0.01" (no way in: inf) or +0.01" (straight in: 10")."""
    rho = 2.4
    gap_deg = 2 * math.degrees(math.asin((4 * R32 + slack) / (2 * rho)))
    s = scenario(
        unit("A", "attacker", [(5, 10)]), unit("E", "defender", ring((15, 10), rho, gap_deg))
    )
    got = field(s).length_to(15, 10)
    assert got == (pytest.approx(10.0, rel=1e-12) if reachable else math.inf)


def test_closed_ring_is_unreachable_and_has_no_path() -> None:
    """A ring with every gap narrower than the base keeps the mover out; path_to is []."""
    s = scenario(unit("A", "attacker", [(5, 10)]), unit("E", "defender", ring((15, 10), 2.4, 60)))
    f = field(s)
    assert f.length_to(15, 10) == math.inf
    assert f.path_to(15, 10) == []


def test_mover_inside_a_closed_ring_moves_only_inside_it() -> None:
    """Enclosed by enemies, the mover reaches points inside the ring, nothing outside it."""
    s = scenario(unit("A", "attacker", [(15, 10)]), unit("E", "defender", ring((15, 10), 2.4, 60)))
    f = field(s)
    assert f.length_to(15.5, 10) == pytest.approx(0.5, rel=1e-12)
    assert f.length_to(5, 10) == math.inf


def test_friendly_base_blocks_in_9th_and_is_crossed_in_10th() -> None:
    """A friendly 32mm base of another unit midway: 9th goes around the circle of radius
    2 x 32mm/2 (tangent, arc, tangent), 10th walks straight over it."""
    units = (unit("A", "attacker", [(5, 10)], ("INFANTRY",)), unit("F", "attacker", [(10, 10)]))
    exact, turn = around_circle(5, 10, 15, 10, 10, 10, 2 * R32)
    assert exact == pytest.approx(
        2 * math.sqrt(25 - 4 * R32**2) + 2 * R32 * (math.pi - 2 * math.acos(2 * R32 / 5)), rel=1e-12
    )
    got_9e = field(scenario(*units, ruleset="40k-9e")).length_to(15, 10)
    assert exact <= got_9e <= exact + excess(2 * R32, turn)
    assert field(scenario(*units)).length_to(15, 10) == pytest.approx(10.0, rel=1e-12)


@pytest.mark.parametrize(("friend", "blocks"), [("VEHICLE", True), ("INFANTRY", False)])
def test_10th_vehicles_do_not_cross_friendly_vehicles(friend: str, blocks: bool) -> None:
    """In 10th a VEHICLE may cross a friendly INFANTRY base but not a friendly VEHICLE."""
    s = scenario(
        unit("A", "attacker", [(5, 10)], ("VEHICLE",)), unit("F", "attacker", [(10, 10)], (friend,))
    )
    assert (field(s).length_to(15, 10) > 10.1) is blocks


def test_enemy_bases_on_another_level_do_not_block() -> None:
    """An enemy standing 3" up on a floor is not in a ground-level path."""
    s = scenario(
        unit("A", "attacker", [(5, 10)]), unit("E", "defender", [{"x": 10, "y": 10, "z": 3.0}])
    )
    assert field(s).length_to(15, 10) == pytest.approx(10.0, rel=1e-12)


def test_non_target_engagement_range_forces_a_tangent_detour() -> None:
    """An enemy 1.5" beside the line: its base alone leaves the line free, but avoiding its
    1" engagement range means wrapping a circle of radius 1 + 2 x 32mm/2."""
    units = (unit("A", "attacker", [(5, 10)]), unit("N", "defender", [(10, 11.5)]))
    s = scenario(*units)
    assert field(s).length_to(15, 10) == pytest.approx(10.0, rel=1e-12)
    rho = 1.0 + 2 * R32
    exact, turn = around_circle(5, 10, 15, 10, 10, 11.5, rho)
    d = math.hypot(5, 1.5)
    assert exact == pytest.approx(
        2 * math.sqrt(d**2 - rho**2) + 2 * rho * (math.atan2(5, 1.5) - math.acos(rho / d)),
        rel=1e-12,
    )
    got = field(s, avoid_engagement_of=("N",)).length_to(15, 10)
    assert exact <= got <= exact + excess(rho, turn)
    assert obstacle_map(
        s, Battlefield.from_scenario(s), "A1", avoid_engagement_of=["N"]
    ).obstacle_ids_at(10, 10) == ("engagement:N",)


def test_climb_counts_only_above_the_free_two_inches() -> None:
    """A 1.5" floor costs nothing extra, a 3" floor adds 3"; going down counts the same."""
    floor = {
        "id": "f",
        "kind": "floor",
        "path": [[12, 8], [18, 8], [18, 12], [12, 12]],
        "height": 1.5,
    }
    high = {**floor, "id": "g", "path": [[20, 8], [26, 8], [26, 12], [20, 12]], "height": 3.0}
    s = scenario(unit("A", "attacker", [(5, 10)], ("INFANTRY",)), terrain=(floor, high))
    bf = Battlefield.from_scenario(s)
    assert legal_move_length(s, bf, "A1", 15, 10, 1.5) == pytest.approx(10.0, rel=1e-12)
    assert legal_move_length(s, bf, "A1", 22, 10, 3.0) == pytest.approx(17.0 + 3.0, rel=1e-12)
    rules = s.rules
    assert (climb_in(rules, 0, 1.5), climb_in(rules, 0, 2.0), climb_in(rules, 3, 0)) == (0, 0, 3)


def test_ends_off_the_board_or_in_impassable_terrain_are_unreachable() -> None:
    """The centre must stay r from the edge and outside impassable terrain grown by r;
    exactly touching either is still legal."""
    pit = {"id": "pit", "kind": "impassable", "path": [[20, 5], [25, 5], [25, 15], [20, 15]]}
    s = scenario(unit("A", "attacker", [(5, 10)]), terrain=(pit,))
    f = field(s)
    assert f.length_to(29.5, 10) == math.inf
    assert f.length_to(-1, 10) == math.inf
    assert f.length_to(22, 10) == math.inf
    assert f.length_to(20 - R32 + 0.01, 10) == math.inf
    assert f.length_to(20 - R32, 10) == pytest.approx(15 - R32, abs=1e-5)
    assert f.length_to(5, 20 - R32) == pytest.approx(10 - R32, rel=1e-12)


def test_touching_start_and_end_still_connect() -> None:
    """A base in contact with one enemy moving to contact with another and along a wall it
    touches: the lengths are the straight ones, up to the tiny escapes from the polygons."""
    s = scenario(
        unit("A", "attacker", [(5, 10)], ("VEHICLE",)),
        unit("E", "defender", [(5 - 2 * R32, 10), (15 + 2 * R32, 10)]),
        terrain=(
            {
                "id": "w",
                "kind": "wall",
                "path": [[0, 10 + R32 + 0.5], [30, 10 + R32 + 0.5]],
                "thickness": 1.0,
                "height": 5,
            },
        ),
    )
    f = field(s)
    slack = 4 * (CIRCLE_EXCESS * 2 * R32 + POLYGON_EXCESS * R32)
    assert 10 <= f.length_to(15, 10) <= 10 + slack
    g = obstacle_map(s, Battlefield.from_scenario(s), "A1").path_field((8, 10))
    assert 6 <= g.length_to(14, 10) <= 6 + 4 * POLYGON_EXCESS * R32


def test_every_contact_point_around_a_target_has_its_closed_form_length() -> None:
    """Ends touching a 40mm enemy at 1440 angles and where the polygon's sides touch the
    circle: straight where the mover sees the point, else tangent + arc around the circle of
    radius 40mm/2 + 32mm/2; none is lost in the sliver between circle and polygon."""
    s = scenario(unit("A", "attacker", [(5, 10)]), unit("E", "defender", [(15, 10)], base="40mm"))
    rho, dist = R40 + R32, 10.0
    polygon_sides = 4 * ARC_QUAD_SEGS
    mid_sides = (np.arange(polygon_sides) + 0.5) * 2 * math.pi / polygon_sides
    angle = np.concatenate(
        [
            np.linspace(0, 2 * math.pi, 1440, endpoint=False),
            mid_sides,
            mid_sides + 3e-4,
            mid_sides - 3e-4,
        ]
    )
    xs, ys = 15 + rho * np.cos(angle), 10 + rho * np.sin(angle)
    seen_from_s = np.abs(np.pi - np.abs(np.angle(np.exp(1j * angle)))) <= math.acos(rho / dist)
    theta = np.pi - np.abs(np.angle(np.exp(1j * angle)))
    arc = np.clip(theta - math.acos(rho / dist), 0, None)
    exact = np.where(
        seen_from_s, np.hypot(xs - 5, ys - 10), math.sqrt(dist**2 - rho**2) + rho * arc
    )
    got = field(s).lengths_to(xs, ys)
    assert np.all(got >= exact - 1e-9)
    assert np.all(got <= exact + CIRCLE_EXCESS * rho * (arc + 2) + 1e-9)


def test_a_field_measured_within_a_limit_is_exact_up_to_it() -> None:
    """Around the 40mm enemy the paths are 10" to about 13.4" long: a field measured within
    12" gives the same lengths up to 12" and only longer ones beyond; the cache then hands
    the fuller field to a request with a smaller limit, never the smaller to a larger one."""
    s = scenario(unit("A", "attacker", [(5, 10)]), unit("E", "defender", [(15, 10)], base="40mm"))
    rho = R40 + R32
    angle = np.linspace(0, 2 * math.pi, 360, endpoint=False)
    xs, ys = 15 + rho * np.cos(angle), 10 + rho * np.sin(angle)
    full = field(s).lengths_to(xs, ys)
    omap = obstacle_map(s, Battlefield.from_scenario(s), "A1")
    omap._fields.clear()
    near = omap.path_field(omap.mover.start, within_in=12.0)
    limited = near.lengths_to(xs, ys)
    short = full <= 12.0
    assert 0 < short.sum() < len(full)
    assert np.array_equal(limited[short], full[short])
    assert np.all(limited[~short] > 12.0)
    assert omap.path_field(omap.mover.start, within_in=11.0) is near
    assert omap.path_field(omap.mover.start).within_in == math.inf


def test_unknown_ids_raise_path_errors() -> None:
    """A model or engagement unit the scenario does not have is a typed error."""
    s = scenario(unit("A", "attacker", [(5, 10)]))
    with pytest.raises(PathError, match="no model 'Z1'"):
        mover_profile(s, "Z1")
    with pytest.raises(PathError, match="no unit 'Q'"):
        obstacle_map(s, Battlefield.from_scenario(s), "A1", avoid_engagement_of=["Q"])


def test_oval_and_hull_movers_use_their_inradius() -> None:
    """An oval 60x35mm mover's clearance is 35mm/2, a hull's half its smallest width."""
    s = scenario(
        unit("A", "attacker", [(5, 10)], base="60x35mm"),
        unit(
            "H",
            "attacker",
            [(9, 9)],
            base={"kind": "hull", "points": [[-2, -1], [2, -1], [2, 1], [-2, 1]]},
        ),
    )
    assert mover_profile(s, "A1").clearance_in == pytest.approx(mm_to_in(35) / 2, rel=1e-12)
    assert mover_profile(s, "H1").clearance_in == pytest.approx(1.0, rel=1e-12)


def not_folded(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> bool:
    """The polyline a-b-c does not turn back on itself (a mitred wall needs that)."""
    u, v = (b[0] - a[0], b[1] - a[1]), (c[0] - b[0], c[1] - b[1])
    return u[0] * v[0] + u[1] * v[1] > -0.95 * math.hypot(*u) * math.hypot(*v)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0.0, 6.0), st.floats(0.0, 6.0)), min_size=2, max_size=6),
    st.floats(0.1, 1.0),
    st.floats(0.2, 1.5),
)
def test_grown_polygons_circumscribe_the_true_shape(
    path: list[tuple[float, float]], thickness: float, grow: float
) -> None:
    """Every point of a grown polygon's boundary is at least the grow distance from its core,
    also for the fillets GEOS draws around wall corners."""
    assume(all(math.dist(p, q) > 0.05 for p, q in itertools.pairwise(path)))
    assume(all(not_folded(a, b, c) for a, b, c in zip(path, path[1:], path[2:], strict=False)))
    core = LineString(path).buffer(thickness / 2, cap_style="flat", join_style="mitre")
    shape = grown_obstacle("w", core, grow).shape
    assert shapely.distance(core, shape.boundary) >= grow - 1e-12


# A scene for the property tests: a cornered wall, three enemies, an oval and a hull.
SCENE = scenario(
    unit("A", "attacker", [(2, 2)], ("VEHICLE",), base="40mm"),
    unit("E", "defender", [(8, 6), (14, 14), (22, 7)]),
    unit("O", "defender", [{"x": 18, "y": 14, "facing": 30.0}], base="60x35mm"),
    unit(
        "H",
        "defender",
        [{"x": 5, "y": 14, "facing": 45.0}],
        base={"kind": "hull", "points": [[-1.5, -0.7], [1.5, -0.7], [1.5, 0.7], [-1.5, 0.7]]},
    ),
    terrain=(
        {
            "id": "w",
            "kind": "wall",
            "path": [[12, 2], [12, 9], [17, 9]],
            "thickness": 0.25,
            "height": 5,
        },
        {"id": "pit", "kind": "impassable", "path": [[24, 12], [27, 12], [26, 17]]},
    ),
)
SCENE_MAP = obstacle_map(SCENE, Battlefield.from_scenario(SCENE), "A1")
SCENE_FIELD = SCENE_MAP.path_field((2.0, 2.0))
ends = st.tuples(st.floats(0.0, 30.0), st.floats(0.0, 20.0))


@pytest.fixture(scope="module")
def brute_force() -> tuple[nx.Graph, np.ndarray, Any]:
    """An independent full visibility graph over every vertex of the scene's polygons."""
    blocked = SCENE_MAP.geometry
    inner = blocked.buffer(-1e-7)
    shapely.prepare(inner)
    x0, y0, x1, y1 = SCENE_MAP.bounds
    coords = np.concatenate(
        [
            np.asarray(r.coords)[:-1]
            for p in shapely.get_parts(blocked)
            for r in (p.exterior, *p.interiors)
        ]
    )
    coords = coords[
        (coords[:, 0] >= x0) & (coords[:, 0] <= x1) & (coords[:, 1] >= y0) & (coords[:, 1] <= y1)
    ]
    i, j = np.triu_indices(len(coords), 1)
    seen = ~shapely.intersects(inner, shapely.linestrings(np.stack([coords[i], coords[j]], 1)))
    g = nx.Graph()
    g.add_weighted_edges_from(
        (int(a), int(b), math.dist(coords[a], coords[b]))
        for a, b in zip(i[seen], j[seen], strict=True)
    )
    return g, coords, inner


def reference_length(
    brute: tuple[nx.Graph, np.ndarray, Any], start: tuple[float, float], end: tuple[float, float]
) -> float:
    g, coords, inner = brute
    for name, p in (("s", start), ("e", end)):
        lines = shapely.linestrings([[p, tuple(c)] for c in coords])
        for k in np.flatnonzero(~shapely.intersects(inner, lines)):
            g.add_edge(name, int(k), weight=math.dist(p, coords[k]))
    if not shapely.intersects(inner, LineString([start, end])):
        g.add_edge("s", "e", weight=math.dist(start, end))
    try:
        return nx.dijkstra_path_length(g, "s", "e")
    except nx.NetworkXNoPath:
        return math.inf
    finally:
        g.remove_nodes_from(["s", "e"])


@settings(max_examples=60, deadline=None)
@given(ends)
def test_pruned_queries_match_a_full_visibility_graph(
    brute_force: Any, end: tuple[float, float]
) -> None:
    """Tangent pruning and the lazy candidate order give the full visibility graph's length
    for any end outside the obstacle polygons."""
    x0, y0, x1, y1 = SCENE_MAP.bounds
    if not (x0 < end[0] < x1 and y0 < end[1] < y1) or SCENE_MAP.geometry.intersects(Point(end)):
        return
    expected = reference_length(brute_force, (2.0, 2.0), end)
    assert SCENE_FIELD.length_to(*end) == pytest.approx(expected, rel=1e-9, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.lists(ends, min_size=1, max_size=40))
def test_batch_lengths_agree_with_single_lengths(points: list[tuple[float, float]]) -> None:
    """lengths_to on a batch gives, point by point, what length_to gives alone."""
    xs, ys = np.array(points).T
    batch = SCENE_FIELD.lengths_to(xs, ys)
    single = [SCENE_FIELD.length_to(x, y) for x, y in points]
    assert batch.tolist() == pytest.approx(single, rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(ends)
def test_paths_keep_clear_of_every_true_obstacle(end: tuple[float, float]) -> None:
    """Each drawn path stays out of every exact grown shape, and its length is the field's."""
    path = SCENE_FIELD.path_to(*end)
    length = SCENE_FIELD.length_to(*end)
    if not path:
        assert length == math.inf
        return
    line = LineString(path) if len(path) > 1 else Point(path[0])
    for o in SCENE_MAP.obstacles:
        assert shapely.distance(o.core, line) >= o.grow_in - 1e-6
    assert sum(math.dist(a, b) for a, b in itertools.pairwise(path)) == pytest.approx(
        length, rel=1e-9, abs=1e-9
    )
