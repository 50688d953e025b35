"""The exit codes of `chargeopt` (one table for every command and every way of solving)."""

from __future__ import annotations

EXIT_VIOLATIONS = 1
"""The placement breaks a rule (`check`), or an answer failed the checker (`solve`, a bug)."""
EXIT_BAD_INPUT = 2
"""The input was refused: the file, the key and the fix are on stderr."""
EXIT_NO_ANSWER = 3
"""`solve` found no answer and no proof within the time limit (status `unknown`)."""
EXIT_INTERNAL = 4
"""chargeopt itself failed; the message asks for a report."""
EXIT_INTERRUPTED = 130
"""Ctrl-C: the best answer so far was printed (the shell's code for an interrupt)."""
