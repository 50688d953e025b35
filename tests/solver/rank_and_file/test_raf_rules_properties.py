"""Properties of the added rank-and-file rules on random tables: every failed charge move (T9A,
tow) passes the checker and stays within its distance; every T9A charge on a target with an
incomplete rank is re-counted alike by the checker (Fighting Over Gaps); the slide counts
the Align Move ranks by agree with the counts of `contact.py` at every breakpoint."""

from __future__ import annotations

import itertools

from hypothesis import assume, given
from hypothesis import strategies as st
from t9a_builders import block, property_settings, table

from chargeopt.geometry.checker.rank_and_file import check_blocks
from chargeopt.geometry.rank_and_file.contact import contact_counts
from chargeopt.geometry.rank_and_file.declaration import check_declarations
from chargeopt.geometry.rank_and_file.frame import FACINGS, BlockPose
from chargeopt.geometry.rank_and_file.slides import facing_bases, flush_pose
from chargeopt.geometry.rank_and_file.start import check_block_layout
from chargeopt.models import ScenarioError
from chargeopt.solver import solve


def _tenths(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.integers(round(lo * 10), round(hi * 10)).map(lambda v: v / 10)


@st.composite
def failing(draw: st.DrawFn):
    """A charger 8..30" from B with a roll too short, maybe a rock and a friend about."""
    ruleset = draw(st.sampled_from(["t9a-2022", "tow"]))
    units = [block("B", "defender", 24.0, 8.0, draw(st.sampled_from([90.0, -90.0, 0.0])))]
    x, y = draw(_tenths(4, 40)), draw(_tenths(20, 42))
    units.append(
        block(
            "A",
            "attacker",
            x,
            y,
            draw(_tenths(-150, -30)),
            files=draw(st.integers(2, 6)),
            profile={"movement": 4},
        )
    )
    if draw(st.booleans()):
        units.append(block("C", "attacker", draw(_tenths(4, 40)), draw(_tenths(14, 40)), -90.0))
    terrain = []
    if draw(st.booleans()):
        tx, ty = draw(_tenths(6, 38)), draw(_tenths(14, 38))
        terrain.append([(tx, ty), (tx + 3, ty), (tx + 3, ty + 1), (tx, ty + 1)])
    roll = 5 if ruleset == "tow" else 3
    scenario = table(units, terrain=terrain, roll=roll, ruleset=ruleset)
    try:
        check_block_layout(scenario)
        check_declarations(scenario)
    except ScenarioError:
        assume(False)
    return scenario


@property_settings(25)
@given(failing())
def test_every_failed_charge_move_passes_the_checker(scenario) -> None:
    result = solve(scenario)
    a = result.blocks[0]
    assume(a["outcome"] != "charges")
    limit = 4.0 if scenario.rules.edition == "t9a-2022" else 1.0
    assert a["failed_move_in"] == limit
    assert a["moved_in"] <= limit + 1e-6
    assert check_blocks(scenario, result) == []


@st.composite
def incomplete(draw: st.DrawFn):
    """B: 5 files, 6..14 models (an incomplete last rank); A anywhere in front of one facing."""
    models = draw(st.integers(6, 14).filter(lambda m: m % 5))
    facing = draw(st.sampled_from([90.0, -90.0]))
    units = [block("B", "defender", 22.0, 20.0, facing, ranks=None, models=models)]
    x, y = draw(_tenths(14, 30)), draw(st.sampled_from([8.0, 34.0]))
    units.append(
        block("A", "attacker", x, y, -90.0 if y > 20 else 90.0, files=draw(st.integers(3, 6)))
    )
    scenario = table(units, roll=12)
    try:
        check_block_layout(scenario)
        check_declarations(scenario)
    except ScenarioError:
        assume(False)
    return scenario


@property_settings(20)
@given(incomplete())
def test_charges_on_incomplete_ranks_are_counted_alike(scenario) -> None:
    result = solve(scenario)
    assume(result.status.value != "infeasible")
    assert check_blocks(scenario, result) == []


@property_settings(40)
@given(st.integers(6, 19), st.integers(2, 7), st.sampled_from(FACINGS))
def test_slide_counts_agree_with_contact_faces(models: int, files: int, facing_name: str) -> None:
    """At every breakpoint and between, the Align Move's step counts (slides.py) equal the
    faces' counts (contact.py), over the gaps."""
    scenario = table(
        [
            block("A", "attacker", 4.0, 40.0, -90.0, files=files),
            block("B", "defender", 20.0, 20.0, 90.0, ranks=None, models=models, files=4),
        ],
        roll=12,
    )
    target, charger = scenario.unit_by_id["B"], scenario.unit_by_id["A"]
    tpose = BlockPose.of(target)
    facing = tpose.facing_segment(facing_name)
    bases = facing_bases(target, tpose, facing, charger, over_gaps=True)
    points = bases.breakpoints()
    probes = points + [(a + b) / 2 for a, b in itertools.pairwise(points)]
    for slide in probes:
        pose = flush_pose(charger, facing, slide)
        t, c = contact_counts(target, tpose, charger, pose, over_gaps=True)
        if not t and not c:
            continue
        assert bases.counts(slide) == (len(t), len(c)), slide


def test_random_sight_lines_refute_no_declaration_verdict() -> None:
    """The independent search (solver/bench/sight_search.py) finds no target point in the
    Front Arc of a charge refused for its arc, and no free line for one refused for sight."""
    from chargeopt.solver.bench.sight_search import run

    tally = run(200, 7)
    assert tally.refuted == []
    assert tally.refused_sight > 0 and tally.refused_arc > 0 and tally.declared > 0
