"""chargeopt.solver.bounds: proofs and ceilings. Closed-form and ring-packing ceilings, the
conservative cell relaxation, single-model impossibility proofs, the certificate of a charge
and the words that explain a bound. May import chargeopt.solver.core, never a rule family."""
