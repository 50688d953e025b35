"""Rank-and-file charges (The Ninth Age 2022): snaking approach, Align Move, unaligned,
combined charges, Blocked Path."""
