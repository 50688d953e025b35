"""How an answer is written: moved models on the JSON's 0.001" grid, a model that stays exactly
at its start, and the summary's 0.01" positions; hand-worked values."""

from __future__ import annotations

import math

import pytest

from chargeopt.models import GameModel, Placement
from chargeopt.solver.core.polish import Pose
from chargeopt.solver.core.written import printed, stays, written_pose


def _model(x: float = 10.0, y: float = 5.0, facing: float = 0.0) -> GameModel:
    return GameModel(id="A1", x=x, y=y, facing=facing)


def test_a_moved_pose_is_rounded_to_the_grid() -> None:
    """(12.34549, 7.0001) is written (12.345, 7.0); the path grows by the rounding's step."""
    w = written_pose(_model(), Pose(12.34549, 7.0001, 0.0, 0.0, 3.0))
    assert (w.x, w.y, w.z, w.facing) == (12.345, 7.0, 0.0, 0.0)
    assert w.moved == pytest.approx(3.0 + math.hypot(0.00049, 0.0001), abs=1e-12)


def test_a_pose_at_the_start_is_written_exactly() -> None:
    """A model that does not move keeps its start's digits (12.3456, not 12.346)."""
    m = _model(12.3456, 9.87654)
    assert stays(m, Pose(12.3456, 9.87654, 0.0, 0.0, 0.0))
    w = written_pose(m, Pose(12.3456, 9.87654, 0.0, 0.0, 0.0))
    assert (w.x, w.y, w.moved) == (12.3456, 9.87654, 0.0)


def test_a_turned_facing_is_written_to_a_hundredth_of_a_degree() -> None:
    """A facing of 33.33333 written 33.33 turns the rim of a base 2" across by
    1 * radians(0.00333) more, added to the move; an unturned facing keeps its digits."""
    m = _model(facing=12.3456)
    w = written_pose(m, Pose(11.0, 5.0, 0.0, 33.33333, 1.5), circumradius_in=1.0)
    assert w.facing == 33.33
    assert w.moved == pytest.approx(1.5 + math.radians(0.00333), abs=1e-12)
    kept = written_pose(m, Pose(11.0, 5.0, 0.0, 12.3456, 1.0), circumradius_in=1.0)
    assert kept.facing == 12.3456


def test_printed_positions_are_the_summarys() -> None:
    """x and y to two decimals as the summary prints them; z and the facing as written."""
    (p,) = printed([Placement(model="A1", x=12.345, y=7.004, z=3.0, facing=22.5)])
    assert (p.x, p.y, p.z, p.facing) == (float(f"{12.345:.2f}"), 7.0, 3.0, 22.5)
