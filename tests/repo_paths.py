"""Where the tests find the repository's files, wherever a test module sits in the tree."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
LAYOUTS = REPO_ROOT / "benchmarks" / "layouts"
MALFORMED = REPO_ROOT / "tests" / "data" / "malformed"
