"""chargeopt.solver.bench: the benchmark harness. Suites as data, the methods compared (with
the greedy baseline), the runner in fresh processes, the Markdown report and its plots. May
import the public solver (chargeopt.solver.api) and every rule family; no click, no CLI."""
