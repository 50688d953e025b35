"""The benchmark report in Markdown, from the raw record `runner.run_bench` returns:
per layout and method the answer, its bound, the median solve time and the checker's verdict;
per pair of methods wins, ties and losses; speed ratios per size class measured in the same
run; and what contradicts a suite's known answers."""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

Outcome = dict[str, Any]
REFERENCE = "chargeopt"


@dataclass(frozen=True)
class Cell:
    """Every run of one method on one layout, summarised."""

    runs: tuple[Outcome, ...]

    @property
    def median_s(self) -> float | None:
        times = [r["seconds"] for r in self.runs if r["seconds"] is not None]
        return statistics.median(times) if times else None

    @property
    def failures(self) -> int:
        return sum(bool(r["failure"]) for r in self.runs)

    def score(self) -> tuple[int, int]:
        """The worst run's score: an illegal answer or a crash (-1) < no answer (0) < an
        infeasible verdict (1) < a legal answer (2, ranked by its base contact)."""
        return min(run_score(r) for r in self.runs)

    def proven(self) -> bool:
        return all(r["status"] in ("optimal", "infeasible") for r in self.runs)


def run_score(run: Outcome) -> tuple[int, int]:
    if run["failure"]:
        return (-1, 0)
    if run["status"] in ("optimal", "feasible"):
        return (2, int(run["base_contact"] or 0))
    if run["status"] == "infeasible":
        return (1, 0)
    return (0, 0)


def agreed(values: list[Any]) -> str:
    """One value if all runs agree, else each with its count ('optimal×2, feasible')."""
    counts = Counter("—" if v is None else str(v) for v in values)
    if len(counts) == 1:
        return next(iter(counts))
    return ", ".join(f"{v}×{n}" if n > 1 else v for v, n in counts.most_common())


def fmt_s(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def cells(record: dict[str, Any]) -> dict[tuple[str, str], Cell]:
    grouped: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for run in record["runs"]:
        grouped[(run["file"], run["method"])].append(run)
    return {key: Cell(tuple(runs)) for key, runs in grouped.items()}


def contradictions(record: dict[str, Any]) -> list[str]:
    """Answers that contradict what the suite says is known: a legal answer above a proven
    optimum or on an infeasible layout, an 'optimal' below the optimum, 'infeasible' where
    an optimum is known."""
    known = {lay["file"]: lay for lay in record["layouts"]}
    out = []
    for run in record["runs"]:
        lay = known[run["file"]]
        what = f"{run['file']} {run['method']} run {run['repeat'] + 1}"
        legal = run["status"] in ("optimal", "feasible") and run["verified"]
        if lay["known"] == "infeasible" and legal:
            out.append(f"{what}: a legal answer on a layout known infeasible")
        if lay["known"] == "refused" and run["status"] != "unsupported":
            out.append(f"{what}: an answer ({run['status']}) on a layout the command refuses")
        if lay["known"] == "optimal" and lay.get("known_value"):
            out += _against_value(what, run, legal, lay["known_value"])
        elif lay["known"] == "optimal":
            best = lay["known_base_contact"]
            if legal and run["base_contact"] > best:
                out.append(f"{what}: base contact {run['base_contact']} > known optimum {best}")
            if run["status"] == "optimal" and legal and run["base_contact"] < best:
                out.append(f"{what}: 'optimal' at {run['base_contact']} < known optimum {best}")
            if run["status"] == "infeasible":
                out.append(f"{what}: 'infeasible' but an optimum of {best} is known")
    return out


def _against_value(what: str, run: Outcome, legal: bool, value: dict[str, int]) -> list[str]:
    """A run against a known optimum given term by term (compared in that order, as the
    objective is): above it when legal, below it when claimed optimal, or infeasible."""
    if run["status"] == "infeasible":
        return [f"{what}: 'infeasible' but an optimum of {_terms(value)} is known"]
    if not legal:
        return []
    got = run.get("objective") or {}
    missing = [k for k in value if k not in got]
    if missing:
        return [f"{what}: the answer reports no {', '.join(missing)} (known {_terms(value)})"]
    mine, best = tuple(got[k] for k in value), tuple(value.values())
    if mine > best:
        return [f"{what}: {_terms(got, value)} > known optimum {_terms(value)}"]
    if run["status"] == "optimal" and mine < best:
        return [f"{what}: 'optimal' at {_terms(got, value)} < known optimum {_terms(value)}"]
    return []


def _terms(values: dict[str, Any], order: dict[str, int] | None = None) -> str:
    return ", ".join(f"{k} {values[k]}" for k in (order or values))


def known_text(lay: dict[str, Any]) -> str:
    """What the suite knows of a layout: 'optimal' with its base contact or its terms."""
    if lay["known"] != "optimal":
        return lay["known"]
    if lay.get("known_value"):
        return f"optimal {_terms(lay['known_value'])}"
    return f"optimal {lay['known_base_contact']}"


def headline_text(run: Outcome) -> Any:
    """A run's first objective term: base contact, or its name and count (40k-11e)."""
    if run.get("headline") and run["base_contact"] is not None:
        return f"{run['headline']} {run['base_contact']}"
    return run["base_contact"]


def layout_table(record: dict[str, Any], table: dict[tuple[str, str], Cell]) -> list[str]:
    methods = record["settings"]["methods"]
    rows = [
        "| layout | models | known | method | status | base contact | bound | median s "
        "| runs | verified |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for lay in record["layouts"]:
        known = known_text(lay)
        for m in methods:
            cell = table.get((lay["file"], m))
            if cell is None:
                continue
            rows.append(
                f"| {lay['file']} | {lay['models']} | {known} | {m} | "
                f"{agreed([r['status'] for r in cell.runs])} | "
                f"{agreed([headline_text(r) for r in cell.runs])} | "
                f"{agreed([r['bound'] for r in cell.runs])} | {fmt_s(cell.median_s)} | "
                f"{len(cell.runs)} | {verified_text(cell)} |"
            )
    return rows


def verified_text(cell: Cell) -> str:
    """'yes k/k' when every answer passed the checker, 'FAIL' with the first reason, or
    'n/a' when there was no answer to check."""
    checked = [r for r in cell.runs if r["verified"] is not None or r["failure"]]
    if not checked:
        return "n/a"
    failed = [r for r in checked if r["failure"]]
    if not failed:
        return f"yes {len(checked)}/{len(checked)}"
    first = failed[0]
    reason = (first["violations"] or [first["error"]])[0]
    return f"FAIL {len(failed)}/{len(checked)}: {reason}"


def pairwise(record: dict[str, Any], table: dict[tuple[str, str], Cell]) -> list[str]:
    """Wins / ties / losses of each row's method against each column's, layout by layout."""
    methods = record["settings"]["methods"]
    rows = ["| method | " + " | ".join(f"vs {m}" for m in methods) + " |"]
    rows.append("|---" * (len(methods) + 1) + "|")
    for a in methods:
        cells_a = []
        for b in methods:
            if a == b:
                cells_a.append("—")
                continue
            w = t = losses = 0
            for lay in record["layouts"]:
                ca, cb = table.get((lay["file"], a)), table.get((lay["file"], b))
                if ca is None or cb is None:
                    continue
                sa, sb = ca.score(), cb.score()
                w, t, losses = w + (sa > sb), t + (sa == sb), losses + (sa < sb)
            cells_a.append(f"{w}/{t}/{losses}")
        rows.append(f"| {a} | " + " | ".join(cells_a) + " |")
    return rows


def bound_meets(run: Outcome) -> bool:
    """Whether a run's proven bound meets its objective: `optimal` (every bound term equals
    its objective term) or `infeasible` (proven)."""
    return run["status"] in ("optimal", "infeasible") and not run["failure"]


def contact_bound_meets(run: Outcome) -> bool:
    """Whether a run's proven bound on base contact, the first objective term, meets its count
    (or the run is proven `infeasible`), whatever the later terms' bounds."""
    if run["failure"]:
        return False
    if run["status"] == "infeasible":
        return True
    return run.get("base_contact") is not None and run.get("bound") == run["base_contact"]


def bounds_table(record: dict[str, Any], table: dict[tuple[str, str], Cell]) -> list[str]:
    """chargeopt's objective against its proven bound per layout (the worst run's), and on how
    many layouts every run's bound met its objective: every term, then base contact alone."""
    rows = [
        "| layout | models | base contact / bound | engaged / bound | bound over | met in runs |",
        "|---|---|---|---|---|---|",
    ]
    met = contact_met = total = 0
    for lay in record["layouts"]:
        cell = table.get((lay["file"], REFERENCE))
        if cell is None:
            continue
        total += 1
        runs = cell.runs
        hits = sum(bound_meets(r) for r in runs)
        met += hits == len(runs)
        contact_met += all(contact_bound_meets(r) for r in runs)
        pairs = [("base_contact", "bound"), ("engaged", "engaged_bound")]
        terms = [agreed([f"{_dash(r.get(a))} / {_dash(r.get(b))}" for r in runs]) for a, b in pairs]
        scope = agreed([r.get("bound_scope") for r in runs])
        rows.append(
            f"| {lay['file']} | {lay['models']} | {terms[0]} | {terms[1]} | {scope} | "
            f"{hits}/{len(runs)} |"
        )
    rows += [
        "",
        f"The bound met the objective in every run on {met} of {total} layouts "
        f"({_share(met, total)}).",
        f"On base contact alone (the first term) it met it in every run on {contact_met} of "
        f"{total} layouts ({_share(contact_met, total)}).",
    ]
    return rows


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "—"


def _dash(value: Any) -> str:
    return "—" if value is None else str(value)


def geometric_mean(values: list[float]) -> float | None:
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def finished(cell: Cell, method: str) -> bool:
    """Every run settled its answer: proven (optimal or infeasible) for an exact method; for
    the greedy heuristic, which has no time limit to hit, answered without failing."""
    if method == "greedy":
        return cell.failures == 0
    return cell.proven()


def speed_table(record: dict[str, Any], table: dict[tuple[str, str], Cell], other: str):
    """Per size class: chargeopt's and `other`'s median solve times (median over layouts of
    each layout's median); other / chargeopt as the geometric mean over the layouts both
    finished (a true speed ratio) and over all layouts (time-limited runs count their time
    to the limit); how many layouts each finished; and chargeopt's wins/ties/losses."""
    rows = [
        f"| size class | layouts | chargeopt median s | {other} median s | "
        f"{other} / chargeopt (both finished) | {other} / chargeopt (all) | "
        f"finished (chargeopt, {other}) | chargeopt vs {other} (w/t/l) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    by_class: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for lay in record["layouts"]:
        by_class[lay["size_class"]].append(lay)
    for size in sorted(by_class):
        ours, theirs, both, every, done, wtl = [], [], [], [], [0, 0], [0, 0, 0]
        for lay in by_class[size]:
            a, b = table.get((lay["file"], REFERENCE)), table.get((lay["file"], other))
            if a is None or b is None:
                continue
            if a.median_s is not None:
                ours.append(a.median_s)
            if b.median_s is not None:
                theirs.append(b.median_s)
            fa, fb = finished(a, REFERENCE), finished(b, other)
            done[0], done[1] = done[0] + fa, done[1] + fb
            if a.median_s and b.median_s:
                every.append(b.median_s / a.median_s)
                if fa and fb:
                    both.append(b.median_s / a.median_s)
            sa, sb = a.score(), b.score()
            wtl[0 if sa > sb else 1 if sa == sb else 2] += 1
        if not ours and not theirs:
            continue
        rows.append(
            f"| {size} | {len(by_class[size])} | {fmt_s(_median(ours))} | "
            f"{fmt_s(_median(theirs))} | {fmt_x(geometric_mean(both))} | "
            f"{fmt_x(geometric_mean(every))} | {done[0]}, {done[1]} | "
            f"{wtl[0]}/{wtl[1]}/{wtl[2]} |"
        )
    return rows


def fmt_x(ratio: float | None) -> str:
    return "—" if ratio is None else f"{ratio:.2f}"


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def report_markdown(record: dict[str, Any], plots: dict[str, str] | None = None) -> str:
    """The whole report; `plots` maps a plot's title to its file name beside the report."""
    table = cells(record)
    s, box = record["settings"], record["machine"]
    suite = record["suite"]
    version = f" (version {suite['version']})" if suite["version"] is not None else ""
    failures = sum(bool(r["failure"]) for r in record["runs"])
    lines = [
        f"# Benchmark: {suite['name']}{version}",
        "",
        f"- machine: {box['cores']} cores, {box['cpu']}, {box['memory']}; python "
        f"{box['python']}, ortools {box['ortools']}; {box['platform']}",
        f"- methods: {', '.join(s['methods'])}; {s['repeat']} run(s) per layout and method; "
        f"time limit {s['time_limit_s']:g} s; seed {s['seed']}; {s['executor']}"
        + (f", {s['workers']} worker(s)" if s["executor"] == "local process pool" else ""),
        *([f"- command: `{s['command']}`"] if "command" in s else []),
        "- seconds are solve time, measured inside the worker around the method's call with "
        "`time.perf_counter` (loading the scenario, interpreter start-up and the re-check "
        "are outside it); not process time",
        "- every answer is re-checked by the independent checker "
        "(`chargeopt.geometry.checker.check_placement`); an illegal answer is a failure, "
        f"never a score. Failures in this run: {failures}",
        "- scores (wins/ties/losses): a method's worst run on a layout; an illegal answer or "
        "a crash < no answer < an infeasible verdict < a legal answer, ranked by base contact",
        "- chargeopt solves the whole move (a charge: base contact, then engaged models, then "
        "movement, and the minimum roll; a pile in or consolidation: base contact, then "
        "models that can fight, then movement); highs and greedy solve charges only, highs "
        "the first stage (base contact, every rule) of the same discretised model with the "
        "same connectivity cuts; CP-SAT runs "
        f"{s.get('solver_workers', 2)} worker(s), HiGHS 1 thread (its branch and bound "
        "is serial)",
        *(
            [
                "- 40k-11e: the base contact column (and the scores) hold each answer's first "
                "objective term, named: within_1 for a charge, engaged_closest or on_objective "
                "for a pile in or consolidation"
            ]
            if any(r.get("headline") for r in record["runs"])
            else []
        ),
        "",
        "## Per layout and method",
        "",
        *layout_table(record, table),
        "",
        "## Wins / ties / losses (row against column)",
        "",
        *pairwise(record, table),
        "",
        "## Speed in the same run, per size class",
        "",
    ]
    for other in s["methods"]:
        if other == REFERENCE or REFERENCE not in s["methods"]:
            continue
        lines += [f"### chargeopt vs {other}", "", *speed_table(record, table, other), ""]
    if any(m == REFERENCE for m in s["methods"]):
        lines += [
            "## chargeopt's bounds",
            "",
            "A bound met means the status is `optimal` (each proven bound equals its objective "
            "term; over the continuous board when the scope is `continuous`) or `infeasible`. "
            "The last line counts base contact alone: its proven bound equals the count found "
            "(or the run is `infeasible`); a charge's bound holds on the continuous board "
            "whatever the scope, a pile in's over the candidates.",
            "",
            *bounds_table(record, table),
            "",
        ]
    wrong = contradictions(record)
    lines += ["## Against what is known", ""]
    lines += [f"- {w}" for w in wrong] if wrong else ["- no answer contradicts the suite"]
    lines.append("")
    if plots:
        lines += ["## Plots", ""]
        lines += [f"![{title}]({name})" for title, name in plots.items()]
        lines.append("")
    return "\n".join(lines)
