"""Solve a CP-SAT model with HiGHS (a MIP solver) through OR-Tools' linear solver wrapper: a
second opinion on CP-SAT's verdicts (an infeasibility proof, an optimum) from an independent
algorithm on exactly the same model.

The converter is faithful or refuses: every constraint kind the project's models use is
translated exactly (linear constraints with any domain, enforcement literals by big-M from the
variables' bounds, bool_or, bool_and, at_most_one, exactly_one, the objective with its sign,
offset and scaling), and any other kind raises `UnsupportedConstraint` naming it."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from ortools.linear_solver import pywraplp
from ortools.sat.python import cp_model

INFINITE = 2**62
"""CP-SAT writes an unbounded side as the int64 extreme; anything this large is treated as one."""

SUPPORTED = ("linear", "bool_or", "bool_and", "at_most_one", "exactly_one")
KNOWN_KINDS = (
    *SUPPORTED,
    "all_diff",
    "automaton",
    "bool_xor",
    "circuit",
    "cumulative",
    "dummy_constraint",
    "element",
    "int_div",
    "int_mod",
    "int_prod",
    "interval",
    "inverse",
    "lin_max",
    "no_overlap",
    "no_overlap_2d",
    "reservoir",
    "routes",
    "table",
)

_STATUS = {
    pywraplp.Solver.OPTIMAL: "OPTIMAL",
    pywraplp.Solver.FEASIBLE: "FEASIBLE",
    pywraplp.Solver.INFEASIBLE: "INFEASIBLE",
    pywraplp.Solver.UNBOUNDED: "UNBOUNDED",
    pywraplp.Solver.ABNORMAL: "ABNORMAL",
    pywraplp.Solver.MODEL_INVALID: "MODEL_INVALID",
    pywraplp.Solver.NOT_SOLVED: "UNKNOWN",
}
"""pywraplp's result statuses in CP-SAT's names; NOT_SOLVED (stopped without an answer) is
CP-SAT's UNKNOWN."""


class UnsupportedConstraint(ValueError):
    """The model holds a constraint kind (or a variable) the converter cannot translate."""


@dataclass(frozen=True)
class HighsAnswer:
    """HiGHS's verdict on a CP-SAT model: a CP-SAT status name, the objective and best bound
    in the CP-SAT model's own sense and scale (None without an objective or an answer), and
    the value of every CP-SAT variable by index (empty without an answer)."""

    status: str
    objective: float | None
    bound: float | None
    values: tuple[int, ...]
    seconds: float

    def value(self, literal_or_var: cp_model.IntVar | int) -> int:
        """The value of a CP-SAT variable or literal (a negated literal reads 1 - value)."""
        ref = literal_or_var if isinstance(literal_or_var, int) else literal_or_var.Index()
        return self.values[ref] if ref >= 0 else 1 - self.values[-ref - 1]


def solve_with_highs(
    model: cp_model.CpModel,
    time_limit_s: float,
    *,
    threads: int = 1,
    max_nodes: int | None = None,
) -> HighsAnswer:
    """Convert `model` (through its proto) to a MIP and solve it with HiGHS. Assumptions are
    fixed to true; solution hints are ignored (they never change the optimum). `max_nodes`
    bounds the branch-and-bound tree: a limit that does not depend on the machine's load."""
    with _native_stdout_silenced():
        return _solve(model, time_limit_s, threads, max_nodes)


@contextmanager
def _native_stdout_silenced() -> Iterator[None]:
    """HiGHS prints a banner from C++ straight to file descriptor 1, which would corrupt
    `chargeopt solve --json`: point that descriptor at /dev/null while HiGHS runs."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:
        yield
        return
    with open(os.devnull, "w") as sink:
        os.dup2(sink.fileno(), 1)
        try:
            yield
        finally:
            os.dup2(saved, 1)
            os.close(saved)


def _solve(
    model: cp_model.CpModel, time_limit_s: float, threads: int, max_nodes: int | None
) -> HighsAnswer:
    proto = model.Proto()
    solver = pywraplp.Solver.CreateSolver("HIGHS")
    if solver is None:
        raise RuntimeError("OR-Tools was built without HiGHS")
    mip = _Mip(solver, proto)
    mip.add_variables()
    for index, ct in enumerate(proto.constraints):
        mip.add_constraint(index, ct)
    for lit in proto.assumptions:
        mip.add_row(_literal_terms(lit), 1, 1)
    has_objective = mip.set_objective()
    solver.SetTimeLimit(max(1, int(time_limit_s * 1000)))
    solver.SetNumThreads(threads)
    solver.SuppressOutput()
    limits = "" if max_nodes is None else f"\nmip_max_nodes={max(0, max_nodes)}"
    solver.SetSolverSpecificParametersAsString("presolve=off" + limits)
    code = solver.Solve()
    status = _STATUS.get(code, "UNKNOWN")
    seconds = solver.wall_time() / 1000.0
    if status not in ("OPTIMAL", "FEASIBLE"):
        return HighsAnswer(status, None, None, (), seconds)
    values = tuple(round(v.solution_value()) for v in mip.vars[: len(proto.variables)])
    if not has_objective:
        return HighsAnswer(status, None, None, values, seconds)
    objective = mip.report(solver.Objective().Value())
    bound = mip.report(solver.Objective().BestBound())
    if status == "OPTIMAL":
        bound = objective
    return HighsAnswer(status, objective, bound, values, seconds)


def constraint_kind(ct) -> str | None:
    """The name of the constraint's kind (None for an empty constraint); works with both the
    protobuf and the pybind proto classes OR-Tools has shipped."""
    if hasattr(ct, "WhichOneof"):
        return ct.WhichOneof("constraint")
    return next((kind for kind in KNOWN_KINDS if _has(ct, kind)), None)


def _has(message, field: str) -> bool:
    if hasattr(message, "HasField"):
        return message.HasField(field)
    return getattr(message, f"has_{field}")()


Terms = tuple[dict[int, float], float]
"""A linear expression over MIP columns: coefficients by variable index, and a constant."""


def _literal_terms(ref: int) -> Terms:
    """A literal as a linear term: x, or 1 - x for the negation."""
    return ({ref: 1.0}, 0.0) if ref >= 0 else ({-ref - 1: -1.0}, 1.0)


def _intervals(domain: Sequence[int]) -> list[tuple[float, float]]:
    flat = list(domain)
    out = []
    for lo, hi in zip(flat[0::2], flat[1::2], strict=True):
        out.append(
            (
                -pywraplp.Solver.infinity() if lo <= -INFINITE else float(lo),
                pywraplp.Solver.infinity() if hi >= INFINITE else float(hi),
            )
        )
    return out


class _Mip:
    """The MIP being built: one integer column per CP-SAT variable, rows added per constraint."""

    def __init__(self, solver: pywraplp.Solver, proto) -> None:
        self.solver = solver
        self.proto = proto
        self.vars: list[pywraplp.Variable] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.scale = 1.0
        self.offset = 0.0

    def add_variables(self) -> None:
        inf = pywraplp.Solver.infinity()
        holes: list[tuple[int, list[tuple[float, float]]]] = []
        for i, v in enumerate(self.proto.variables):
            spans = _intervals(v.domain)
            if not spans:
                raise UnsupportedConstraint(f"variable {i} ({v.name!r}) has an empty domain")
            lo, hi = spans[0][0], spans[-1][1]
            if lo == -inf or hi == inf:
                raise UnsupportedConstraint(
                    f"variable {i} ({v.name!r}) is unbounded: big-M needs finite bounds"
                )
            self.vars.append(self.solver.IntVar(lo, hi, v.name or f"v{i}"))
            self.lower.append(lo)
            self.upper.append(hi)
            if len(spans) > 1:
                holes.append((i, spans))
        for i, spans in holes:
            self._in_domain(({i: 1.0}, 0.0), spans, [])

    def add_constraint(self, index: int, ct) -> None:
        kind = constraint_kind(ct)
        enforcement = list(ct.enforcement_literal)
        if kind is None:
            return
        if kind not in SUPPORTED:
            raise UnsupportedConstraint(
                f"constraint {index} is of kind {kind!r}, which the HiGHS converter does not "
                f"support (supported: {', '.join(SUPPORTED)})"
            )
        if kind == "linear":
            terms = self._linear(ct.linear.vars, ct.linear.coeffs, 0.0)
            self._in_domain(terms, _intervals(ct.linear.domain), enforcement)
        elif kind == "bool_or":
            self._enforced(self._sum_of(ct.bool_or.literals), 1, None, enforcement)
        elif kind == "bool_and":
            for lit in ct.bool_and.literals:
                self._enforced(_literal_terms(lit), 1, None, enforcement)
        elif kind == "at_most_one":
            self._enforced(self._sum_of(ct.at_most_one.literals), None, 1, enforcement)
        else:
            self._enforced(self._sum_of(ct.exactly_one.literals), 1, 1, enforcement)

    def set_objective(self) -> bool:
        """Minimise the CP-SAT objective's inner sum; `report` maps values back to CP-SAT's
        scale and sign (a maximisation is stored negated with a negative scaling factor)."""
        objective = self.solver.Objective()
        objective.SetMinimization()
        if _has(self.proto, "floating_point_objective"):
            fp = self.proto.floating_point_objective
            sign = -1.0 if fp.maximize else 1.0
            for v, c in zip(fp.vars, fp.coeffs, strict=True):
                objective.SetCoefficient(self.vars[v], sign * c)
            objective.SetOffset(sign * fp.offset)
            self.scale = sign
            return True
        obj = self.proto.objective
        if not list(obj.vars) and obj.offset == 0 and obj.scaling_factor == 0:
            return False
        terms = self._linear(obj.vars, obj.coeffs, float(obj.offset))
        for v, c in terms[0].items():
            objective.SetCoefficient(self.vars[v], c)
        objective.SetOffset(terms[1])
        if list(obj.domain):
            self._in_domain((terms[0], 0.0), _intervals(obj.domain), [])
        self.scale = float(obj.scaling_factor) or 1.0
        return True

    def report(self, inner: float) -> float:
        return self.scale * inner

    def add_row(self, terms: Terms, lo: float | None, hi: float | None) -> None:
        inf = pywraplp.Solver.infinity()
        coeffs, const = terms
        row = self.solver.RowConstraint(
            -inf if lo is None else lo - const, inf if hi is None else hi - const
        )
        for v, c in coeffs.items():
            row.SetCoefficient(self.vars[v], c)

    def _linear(self, refs: Sequence[int], coeffs: Sequence[int], const: float) -> Terms:
        out: dict[int, float] = {}
        for ref, c in zip(refs, coeffs, strict=True):
            lits, k = _literal_terms(ref)
            for v, a in lits.items():
                out[v] = out.get(v, 0.0) + a * c
            const += k * c
        return out, const

    def _sum_of(self, literals: Sequence[int]) -> Terms:
        return self._linear(literals, [1] * len(literals), 0.0)

    def _range(self, terms: Terms) -> tuple[float, float]:
        """The least and greatest value of the expression over the variables' bounds."""
        lo = hi = terms[1]
        for v, c in terms[0].items():
            a, b = c * self.lower[v], c * self.upper[v]
            lo += min(a, b)
            hi += max(a, b)
        return lo, hi

    def _in_domain(
        self, terms: Terms, spans: list[tuple[float, float]], enforcement: list[int]
    ) -> None:
        """expr lies in one of the spans when every enforcement literal holds: one span
        directly; several by a binary choice per span, each span enforced by its choice."""
        inf = pywraplp.Solver.infinity()
        if not spans:
            self._enforced(({}, 0.0), 1, None, enforcement)
            return
        if len(spans) == 1:
            lo, hi = spans[0]
            lo_or_none = None if lo == -inf else lo
            self._enforced(terms, lo_or_none, None if hi == inf else hi, enforcement)
            return
        picks = [self.solver.BoolVar(f"span{len(self.vars)}_{k}") for k in range(len(spans))]
        first = len(self.vars)
        self.vars.extend(picks)
        self.lower.extend([0.0] * len(picks))
        self.upper.extend([1.0] * len(picks))
        self.add_row(({first + k: 1.0 for k in range(len(picks))}, 0.0), 1, 1)
        for k, (lo, hi) in enumerate(spans):
            self._enforced(
                terms,
                None if lo == -inf else lo,
                None if hi == inf else hi,
                [*enforcement, first + k],
            )

    def _enforced(
        self, terms: Terms, lo: float | None, hi: float | None, enforcement: list[int]
    ) -> None:
        """lo <= expr <= hi when every enforcement literal holds, by big-M from the bounds:
        expr >= lo - (lo - min expr) * (number of false enforcement literals), likewise hi."""
        if not enforcement:
            self.add_row(terms, lo, hi)
            return
        least, most = self._range(terms)
        slack: dict[int, float] = {}
        falses_const = 0.0
        for lit in enforcement:
            coeffs, k = _literal_terms(lit)
            for v, a in coeffs.items():
                slack[v] = slack.get(v, 0.0) - a
            falses_const += 1.0 - k
        if lo is not None and least < lo:
            big = lo - least
            coeffs = dict(terms[0])
            for v, a in slack.items():
                coeffs[v] = coeffs.get(v, 0.0) + big * a
            self.add_row((coeffs, terms[1] + big * falses_const), lo, None)
        if hi is not None and most > hi:
            big = most - hi
            coeffs = dict(terms[0])
            for v, a in slack.items():
                coeffs[v] = coeffs.get(v, 0.0) - big * a
            self.add_row((coeffs, terms[1] - big * falses_const), None, hi)
