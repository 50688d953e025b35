"""The margins every candidate keeps, so that rounding never decides a verdict of the checker."""

from __future__ import annotations

CONTACT_GAP_IN = 0.001
"""Contact candidates stand this far from the target's edge (the checker allows 0.005")."""

MARGIN_IN = 1e-4
"""Margin kept inside every 'within' limit so rounding never decides a verdict."""

OVERLAP_MARGIN_IN = 5e-4
"""Kept inside the overlap the checker tolerates between two round bases of the unit."""
