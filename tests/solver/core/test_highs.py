"""The CP-SAT -> HiGHS converter: optima worked out by hand, an infeasible model, a refused
constraint kind, random models against CP-SAT, and a charge model against CP-SAT."""

from __future__ import annotations

import pytest
from builders import make_scenario
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from chargeopt.solver.core.highs import UnsupportedConstraint, solve_with_highs
from chargeopt.solver.forty_k.charge_roll import contact_model
from chargeopt.solver.options import SolveOptions


def test_maximise_with_offset_picks_best_two_of_three() -> None:
    """max 3a + 2b + 4c + 5 with at most two true: a and c, 3 + 4 + 5 = 12."""
    m = cp_model.CpModel()
    a, b, c = (m.NewBoolVar(n) for n in "abc")
    m.Add(a + b + c <= 2)
    m.Maximize(3 * a + 2 * b + 4 * c + 5)
    answer = solve_with_highs(m, 10)
    assert answer.status == "OPTIMAL"
    assert answer.objective == pytest.approx(12)
    assert answer.bound == pytest.approx(12)
    assert (answer.value(a), answer.value(b), answer.value(c)) == (1, 0, 1)


def test_minimise_integers_with_offset() -> None:
    """min x + y - 1 subject to 2x + 3y >= 7 over 0..10: x + y = 3 (e.g. 2 + 1), so 2."""
    m = cp_model.CpModel()
    x, y = m.NewIntVar(0, 10, "x"), m.NewIntVar(0, 10, "y")
    m.Add(2 * x + 3 * y >= 7)
    m.Minimize(x + y - 1)
    answer = solve_with_highs(m, 10)
    assert answer.status == "OPTIMAL"
    assert answer.objective == pytest.approx(2)
    assert 2 * answer.value(x) + 3 * answer.value(y) >= 7


def test_domains_with_holes() -> None:
    """x in {0..2, 5..7} with x <= 4 gives at most 2; x + y in {0..1, 5..6} over 0..3 gives
    at most 5 (x = 2, y = 3), so max x + 10 (x + y) = 2 + 50."""
    m = cp_model.CpModel()
    x = m.NewIntVarFromDomain(cp_model.Domain.FromIntervals([[0, 2], [5, 7]]), "x")
    y = m.NewIntVar(0, 3, "y")
    m.Add(x <= 4)
    m.AddLinearExpressionInDomain(x + y, cp_model.Domain.FromIntervals([[0, 1], [5, 6]]))
    m.Maximize(x + 10 * (x + y))
    answer = solve_with_highs(m, 10)
    assert answer.status == "OPTIMAL"
    assert answer.objective == pytest.approx(52)
    assert (answer.value(x), answer.value(y)) == (2, 3)


def test_enforcement_literals_positive_and_negated() -> None:
    """b -> x >= 8 and not b -> x <= 3; max 10b - x: b = 1, x = 8 gives 2 (b = 0 gives 0)."""
    m = cp_model.CpModel()
    b = m.NewBoolVar("b")
    x = m.NewIntVar(0, 10, "x")
    m.Add(x >= 8).OnlyEnforceIf(b)
    m.Add(x <= 3).OnlyEnforceIf(b.Not())
    m.Maximize(10 * b - x)
    answer = solve_with_highs(m, 10)
    assert answer.status == "OPTIMAL"
    assert answer.objective == pytest.approx(2)
    assert (answer.value(b), answer.value(x), answer.value(b.Not())) == (1, 8, 0)


def test_bool_and_exactly_one_and_at_most_one() -> None:
    """exactly one of a, b, c; at most one of c, d; e -> (a and d); max 4e + c: e = 1 forces
    a and d, so c = 0: 4."""
    m = cp_model.CpModel()
    a, b, c, d, e = (m.NewBoolVar(n) for n in "abcde")
    m.AddExactlyOne([a, b, c])
    m.AddAtMostOne([c, d])
    m.AddBoolAnd([a, d]).OnlyEnforceIf(e)
    m.Maximize(4 * e + c)
    answer = solve_with_highs(m, 10)
    assert answer.status == "OPTIMAL"
    assert answer.objective == pytest.approx(4)
    assert [answer.value(v) for v in (a, b, c, d, e)] == [1, 0, 0, 1, 1]


def test_infeasible_model_is_infeasible() -> None:
    """a or b, not both, and a == b: no assignment."""
    m = cp_model.CpModel()
    a, b = m.NewBoolVar("a"), m.NewBoolVar("b")
    m.AddBoolOr([a, b])
    m.AddBoolOr([a.Not(), b.Not()])
    m.Add(a == b)
    answer = solve_with_highs(m, 10)
    assert answer.status == "INFEASIBLE"
    assert answer.objective is None and answer.values == ()


def test_assumptions_are_fixed_true() -> None:
    """Assuming not a in max a + b leaves 1."""
    m = cp_model.CpModel()
    a, b = m.NewBoolVar("a"), m.NewBoolVar("b")
    m.Maximize(a + b)
    m.AddAssumptions([a.Not()])
    assert solve_with_highs(m, 10).objective == pytest.approx(1)


def test_feasibility_model_without_objective() -> None:
    m = cp_model.CpModel()
    a = m.NewBoolVar("a")
    m.AddBoolOr([a])
    answer = solve_with_highs(m, 10)
    assert answer.status == "OPTIMAL"
    assert answer.objective is None
    assert answer.value(a) == 1


def test_unsupported_kind_is_named() -> None:
    m = cp_model.CpModel()
    x, y, z = (m.NewIntVar(0, 3, n) for n in "xyz")
    m.AddMultiplicationEquality(z, [x, y])
    with pytest.raises(UnsupportedConstraint, match="constraint 0 is of kind 'int_prod'"):
        solve_with_highs(m, 10)


@st.composite
def _models(draw):
    """Small random models: bools and small integers, enforced linear constraints with
    random domains, clauses, and a random objective."""
    m = cp_model.CpModel()
    n_bool = draw(st.integers(2, 4))
    bools = [m.NewBoolVar(f"b{i}") for i in range(n_bool)]
    ints = [m.NewIntVar(draw(st.integers(-3, 0)), draw(st.integers(0, 3)), f"i{i}") for i in "01"]
    lits = bools + [b.Not() for b in bools]
    coeff = st.integers(-3, 3)
    for _ in range(draw(st.integers(1, 4))):
        expr = sum(draw(coeff) * v for v in [*bools, *ints])
        lo = draw(st.integers(-6, 3))
        hi = lo + draw(st.integers(0, 6))
        ct = m.AddLinearExpressionInDomain(expr, cp_model.Domain(lo, hi))
        enforce = draw(st.lists(st.sampled_from(lits), max_size=2, unique_by=lambda v: v.Index()))
        if enforce:
            ct.OnlyEnforceIf(enforce)
    if draw(st.booleans()):
        m.AddBoolOr(draw(st.lists(st.sampled_from(lits), min_size=1, max_size=3)))
    objective = sum(draw(coeff) * v for v in [*bools, *ints]) + draw(st.integers(-5, 5))
    m.Maximize(objective) if draw(st.booleans()) else m.Minimize(objective)
    return m


@settings(max_examples=40, deadline=None)
@given(_models())
def test_random_models_agree_with_cpsat(model: cp_model.CpModel) -> None:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.StatusName(solver.Solve(model))
    answer = solve_with_highs(model, 10)
    assert answer.status == status
    if status == "OPTIMAL":
        assert answer.objective == pytest.approx(solver.ObjectiveValue())


def test_charge_contact_model_optimum_matches_cpsat() -> None:
    """The charge's base-contact stage (connectivity aside) for five models around one
    target at roll 12: HiGHS and CP-SAT find the same optimum on the same model."""
    attackers = [(14.0 + 1.9 * i, 10.0) for i in range(5)]
    s = make_scenario(attackers, {"B": [(18.0, 15.0)]}, roll=12)
    options = SolveOptions(workers=1)
    _, pm, _, contact = contact_model(s, 12, options)
    assert pm is not None
    pm.model.Maximize(contact)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 30
    assert solver.StatusName(solver.Solve(pm.model)) == "OPTIMAL"
    answer = solve_with_highs(pm.model, 60)
    assert answer.status == "OPTIMAL"
    assert answer.objective == pytest.approx(solver.ObjectiveValue())
    assert answer.objective == pytest.approx(5)
