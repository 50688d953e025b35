"""Exact geometry of rank-and-file blocks: footprints, arcs, contact, wheels, sweeps."""
