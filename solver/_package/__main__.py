"""`python -m chargeopt`: the `chargeopt` command line."""

from chargeopt.solver.interface.cli import main

if __name__ == "__main__":
    main(prog_name="chargeopt")
