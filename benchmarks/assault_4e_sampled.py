"""Compares the 40k-assault-4e charge solver with the random greedy with restarts on the
seeded sampled charges (`solver/bench/assault_sampled.py`): per charge both answers' enemy
models engaged and chargers in base contact, whether each passes the checker, and the charges
where the random greedy beats a `feasible` answer. Run
`python benchmarks/assault_4e_sampled.py [--count 40] [--restarts 24] [--seed 0]`."""

from __future__ import annotations

import argparse
import time

from chargeopt.geometry.checker import check_placement
from chargeopt.solver import solve
from chargeopt.solver.assault_4e import order_search
from chargeopt.solver.bench.assault_random_greedy import MATES_BLOCK, solve_random_greedy
from chargeopt.solver.bench.assault_sampled import sampled_charges
from chargeopt.solver.options import SolveOptions


def _counts(result) -> tuple[int, int]:
    o = result.objective
    return (o.get("enemy_engaged", 0), o.get("base_contact", 0)) if result.placements else (0, 0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--restarts", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--no-search", action="store_true", help="the solver without its order search (before)"
    )
    args = parser.parse_args()
    if args.no_search:
        order_search.WALK_STEPS = order_search.MIN_WALKS = 0
    beaten = feasible = illegal = refuted = walks = refused = 0
    print("| charge | models | chargeopt | engaged, contact | random greedy | beaten |")
    print("|---|---|---|---|---|---|")
    for scenario in sampled_charges(args.count, args.seed):
        t0 = time.perf_counter()
        ours = solve(scenario, options=SolveOptions(time_limit_s=20, roll_table=False))
        took = time.perf_counter() - t0
        if ours.placements and check_placement(scenario, ours.placements, order=ours.order):
            illegal += 1
        rival = solve_random_greedy(
            scenario,
            restarts=args.restarts,
            seed=args.seed,
            mates_block=MATES_BLOCK,
            check_every=True,
        )
        walks += rival.stats["complete"]
        refused += rival.stats["refused_by_checker"]
        mine, theirs = _counts(ours), _counts(rival)
        lost = ours.status.value == "feasible" and theirs > mine
        feasible += ours.status.value == "feasible"
        beaten += lost
        refuted += ours.status.value in ("optimal", "infeasible") and theirs > mine
        print(
            f"| {scenario.name} | {len(scenario.acting_unit.models)} | {ours.status.value} "
            f"({took:.1f} s) | {mine} | {rival.status.value} {theirs} | {'yes' if lost else ''} |"
        )
    print(
        f"\nfeasible answers beaten: {beaten} of {feasible}; proofs refuted: {refuted}; "
        f"illegal solver answers: {illegal}; random-greedy walks refused by the checker: "
        f"{refused} of {walks} complete, each checked (mates block: {MATES_BLOCK})"
    )


if __name__ == "__main__":
    main()
