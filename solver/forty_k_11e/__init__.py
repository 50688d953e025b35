"""Warhammer 40,000 11th edition (`40k-11e`): one module per move kind; start at
`charge.solve_charge_11e`."""
