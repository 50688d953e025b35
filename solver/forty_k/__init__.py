"""chargeopt.solver.forty_k: Warhammer 40,000 9th and 10th edition moves. The charge, pile
in, consolidate and heroic intervention, each one module exposing one solve function, with
the charge's stages, its repair and its extra spots beside them. May import
chargeopt.solver.core and chargeopt.solver.bounds."""
