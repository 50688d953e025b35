"""chargeopt.solver.wtc: the WTC tournament rule for fighting through walls (seed 000), on top
of the 40k moves: when it applies, the charge with tokens, pile in and consolidation with
tokens. May import chargeopt.solver.forty_k and what it may import."""
