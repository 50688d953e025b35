"""chargeopt.solver.interface: what a person sees. The `chargeopt` command line, the text
summary of a result and the SVG drawing. The top layer: may import everything below it,
and nothing imports it but the console script."""
