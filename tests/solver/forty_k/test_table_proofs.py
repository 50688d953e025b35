"""Roll-table rows are proven only against a ceiling that holds anywhere on the table (issue
42): on marines-charge-open the straight line allows 0 contacts up to a roll of 5, 3 at 6-7
and 5 from 8 (worked out from its start layout)."""

from __future__ import annotations

from repo_paths import LAYOUTS

from chargeopt.models import Result, ResultAction, Status
from chargeopt.solver import load_scenario
from chargeopt.solver.forty_k.table_proofs import rows_proven_anywhere, whole_table_ceilings

SCENARIO = load_scenario(LAYOUTS / "examples" / "marines-charge-open.toml")
ROWS = (
    {"roll": 5, "base_contact": 0, "proven": True},
    {"roll": 6, "base_contact": 2, "proven": True},
    {"roll": 7, "base_contact": 3, "proven": False},
    {"roll": 8, "base_contact": 4, "proven": True},
)


def _result(**update: object) -> Result:
    action = ResultAction(kind="charge", unit="A", targets=("B",), roll=7)
    base = Result(action=action, status=Status.FEASIBLE, min_roll=5, rolls=ROWS)
    return base.model_copy(update=update)


def _proven(result: Result) -> list[bool]:
    return [bool(r["proven"]) for r in rows_proven_anywhere(result, SCENARIO).rolls]


def test_rows_best_over_the_candidates_only_carry_a_question_mark() -> None:
    """6: 2 below the straight line's 3 (the candidates' proof is not enough); 7: 3 meets it;
    8: 4 below 5."""
    assert whole_table_ceilings(_result(), SCENARIO) == {5: 0, 6: 3, 7: 3, 8: 5}
    assert _proven(_result()) == [True, False, True, False]


def test_the_certificate_at_the_solved_roll_proves_rows_up_to_it() -> None:
    """A bound of 2 proven anywhere at roll 7 caps rolls 5-7: the row at 6 with 2 is proven."""
    certified = _result(bound={"base_contact": 2}, stats={"bound_scope": "continuous"})
    assert _proven(certified) == [True, True, True, False]
    candidates_only = _result(bound={"base_contact": 2}, stats={"bound_scope": "candidates"})
    assert _proven(candidates_only) == [True, False, True, False]
