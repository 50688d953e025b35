"""The 4th-edition-style assault phase (`40k-assault-4e`, seed 001): the charge as an order of
single-model moves, the reinforcement (pile-in) move and consolidation."""
