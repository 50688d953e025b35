"""chargeopt.solver.core: what every rule family shares. Candidate positions and their pair
relations, the CP-SAT building blocks (one spot per model, no overlap, coherency, ordered
objectives), greedy starts, matching, dice, continuous polish and the HiGHS back-end. May
import chargeopt.models, chargeopt.geometry and chargeopt.solver.options only."""
