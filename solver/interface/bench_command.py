"""`chargeopt bench`: run a benchmark suite with several methods and write the raw runs (JSON)
and the report (Markdown, with SVG plots beside it)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from chargeopt.models import ChargeoptError
from chargeopt.solver.interface.files import write_text

DEFAULT_METHODS = "chargeopt,greedy,highs"
EXIT_FAILURES = 1


def parse_methods(values: tuple[str, ...]) -> list[str]:
    """Method names from repeated or comma-separated --methods; 'all' means every method."""
    from chargeopt.solver.bench.methods import METHODS

    names: list[str] = []
    for value in values or (DEFAULT_METHODS,):
        for name in (n.strip() for n in value.split(",")):
            chosen = list(METHODS) if name == "all" else [name] if name else []
            for n in chosen:
                if n not in METHODS:
                    raise ChargeoptError(
                        f"--methods: unknown method {n!r}; choose from {', '.join(METHODS)}, all"
                    )
                if n not in names:
                    names.append(n)
    return names


@click.command()
@click.argument("suite_dir", metavar="SUITE_DIR")
@click.option(
    "--methods",
    "methods",
    multiple=True,
    help=f"Comma-separated methods (repeatable; 'all' for every one). [default: {DEFAULT_METHODS}]",
)
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Local worker processes (each solve in a fresh process).",
)
@click.option(
    "--solver-workers",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="CP-SAT workers in each solve (fixed, so that the answers do not depend on the "
    "machine; `solve --workers` is the same setting).",
)
@click.option(
    "--scheduler",
    default=None,
    help="Run on this Dask distributed scheduler (e.g. tcp://host:8786) instead.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0.1),
    default=20.0,
    show_default=True,
    help="Seconds per solve.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Solver random seed.")
@click.option("--json", "json_out", required=True, help="Write the raw runs here.")
@click.option("--report", "report_out", required=True, help="Write the Markdown report here.")
def bench(
    suite_dir: str,
    methods: tuple[str, ...],
    repeat: int,
    workers: int,
    solver_workers: int,
    scheduler: str | None,
    time_limit: float,
    seed: int,
    json_out: str,
    report_out: str,
) -> None:
    """Run a benchmark suite: every layout with every method, each answer re-checked.

    Exit code 0 when every answer passed the checker and nothing contradicts the suite's
    known answers, 1 otherwise, 2 on bad input.
    """
    from chargeopt.solver.bench.plots import write_plots
    from chargeopt.solver.bench.report import contradictions, report_markdown
    from chargeopt.solver.bench.runner import run_bench
    from chargeopt.solver.bench.suite import load_suite

    chosen = parse_methods(methods)
    for option, out in (("--json", json_out), ("--report", report_out)):
        if not Path(out).resolve().parent.is_dir():
            raise ChargeoptError(f"{option} {out}: its folder does not exist")
    suite = load_suite(suite_dir)
    total = len(suite.layouts) * len(chosen) * repeat
    with click.progressbar(
        length=total, label=f"bench {suite.name}", file=sys.stderr, show_pos=True
    ) as bar:

        def tick(outcome: dict) -> None:
            bar.label = f"bench {suite.name}: {outcome['file']} {outcome['method']}"
            bar.update(1)

        record = run_bench(
            suite,
            chosen,
            repeat=repeat,
            time_limit_s=time_limit,
            seed=seed,
            workers=workers,
            scheduler=scheduler,
            progress=tick,
            solver_workers=solver_workers,
        )
    record["settings"]["command"] = " ".join(
        [
            f"chargeopt bench {suite_dir} --methods {','.join(chosen)} --repeat {repeat}",
            f"--workers {workers} --solver-workers {solver_workers}",
            f"--time-limit {time_limit:g} --seed {seed}",
            *([f"--scheduler {scheduler}"] if scheduler else []),
            f"--json {json_out} --report {report_out}",
        ]
    )
    report_path = Path(report_out)
    write_text(json_out, json.dumps(record, indent=2) + "\n")
    plots = write_plots(record, report_path)
    write_text(report_out, report_markdown(record, plots))
    failures = sum(bool(r["failure"]) for r in record["runs"])
    wrong = contradictions(record)
    click.echo(
        f"{len(record['runs'])} runs, {failures} failures, {len(wrong)} contradictions; "
        f"report: {report_path}",
        err=True,
    )
    if failures or wrong:
        click.get_current_context().exit(EXIT_FAILURES)
