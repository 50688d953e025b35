"""The margins every candidate keeps, so that an answer stays legal as it is written: the result
JSON rounds x and y to `JSON_STEP_IN`, the summary prints them to `SUMMARY_STEP_IN`, and a judge
copying either onto the table must get a legal placement.

Base contact is judged within a tolerance and overlap within a numerical epsilon (the checker's
`--precision` widens both by the rounding error); every other rule is judged exactly, so the
solver keeps inside it (bases keep `APART_IN` apart):
a written centre stands at most `WRITTEN_ERROR_IN` from the solver's pose, so a limit between
one moved model and something that does not move keeps `MARGIN_IN`, and a limit between two
moved models (coherency, 9th-edition fight support) keeps `PAIR_MARGIN_IN`."""

from __future__ import annotations

import math

JSON_STEP_IN = 0.001
"""The result JSON writes x and y rounded to this."""
JSON_DECIMALS = 3
"""`JSON_STEP_IN` as decimals. Candidate positions stand on this grid (and their facings on
`FACING_DECIMALS`), so an answer over them is written exactly as it was solved."""
FACING_DECIMALS = 2
"""A facing is written to 0.01 degree: its rounding moves the rim of a base 5" across by
0.0004" at most."""
SUMMARY_STEP_IN = 0.01
"""The summary prints x and y rounded to this (the precision a judge reads)."""
WRITTEN_ERROR_IN = (JSON_STEP_IN + SUMMARY_STEP_IN) / 2 * math.sqrt(2)
"""How far a centre printed in the summary can stand from the solver's pose (0.0078"): half a
JSON step and half a summary step on each axis."""

JSON_ERROR_IN = JSON_STEP_IN / 2 * math.sqrt(2)
"""How far the JSON's rounding moves a centre (0.0007")."""

MARGIN_IN = 0.011
"""Kept inside every limit between one moved model and what does not move: engagement range of
targets and of other units, distance to terrain, the board edge and a floor's edge, and how
much closer a model that must end closer ends. The JSON's rounding takes up to
`JSON_ERROR_IN` of it, so the JSON as written keeps `KEPT_IN`; the summary's printed
positions keep 0.011 - `WRITTEN_ERROR_IN` = 0.003"."""
KEPT_IN = 0.01
"""What the JSON as written keeps of `MARGIN_IN` (the summary's precision): a written answer
counts a model engaged, or able to fight, only this far inside the range."""
PAIR_MARGIN_IN = 0.016
"""Kept inside a limit between two moved models (coherency; the 9th edition's 1/2" fight
support between unit mates), each written up to `WRITTEN_ERROR_IN` off: at least twice it."""
PAIR_KEPT_IN = 0.0145
"""What the JSON as written keeps of `PAIR_MARGIN_IN` (two roundings take 0.0014"): still more
than the two printed roundings (0.0141") take."""
ROLL_MARGIN_IN = 0.012
"""Kept inside the roll (and a 3" move's limit). A path to a written end is at most one
written error longer, but a model written in base contact may end up overlapping what it
touches, within the tolerance: the checker measures its path to the point just clear of it
plus the step from there, up to sqrt(2) written errors (0.011") longer."""

MOVED_STEP_IN = 0.011
"""A model that moves ends at least this far from its start along x or y (not only along a
diagonal): written to `JSON_STEP_IN` and printed to `SUMMARY_STEP_IN`, its printed x or y then
stands more than half a printed step from its start, so the checker at that precision reads
it as moved (a position within half a step of the start on both axes is read as the start)."""

CONTACT_GAP_IN = 0.0025
"""Contact candidates stand this far from the target's edge (the checker allows 0.005"): written
to `JSON_STEP_IN` they stay within 0.0025" +- 0.0007", touching and never overlapping."""

APART_IN = 0.002
"""Two bases of the unit keep at least this gap where the continuous steps (the polish, the
repair) move them off the candidates' grid (bases never overlap, and the checker allows only
a numerical epsilon): two centres rounded to `JSON_STEP_IN` come up to sqrt(2) * 0.001" =
0.0014" closer, and two facings rounded to 0.01 degree move the rims by up to 0.0004" more.
Candidates stand on the written grid, so two of them may touch exactly."""
APART_FIXED_IN = 0.001
"""A moved base keeps at least this gap to a base that does not move: one rounding, 0.0007",
and one facing's, 0.0002"."""

TOUCH_IN = 0.0015
"""Two bases of the unit count as in base contact (10th-edition fight support) up to the
contact tolerance less this: written to `JSON_STEP_IN`, they still touch."""
