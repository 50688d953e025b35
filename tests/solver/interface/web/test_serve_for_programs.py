"""models/README.md's example for programs runs as written against a live `chargeopt serve`:
the example charge solved to its proven 3 contacts, then judged legal by `/api/check`."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

README = REPO_ROOT / "models" / "README.md"


def programs_example() -> str:
    """The Python block of the README's section for programs."""
    section = README.read_text(encoding="utf-8").split("## For programs", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readme_example_solves_and_checks_through_the_server() -> None:
    """Only the standard library: solve, poll until done, check the placements it got."""
    script = shutil.which("chargeopt", path=str(Path(sys.executable).parent))
    assert script is not None
    with subprocess.Popen(
        [script, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True, cwd=REPO_ROOT
    ) as server:
        try:
            assert server.stdout is not None
            url = re.search(r"http://127\.0\.0\.1:\d+", server.stdout.readline())
            assert url is not None
            code = programs_example().replace("http://127.0.0.1:8765", url.group(0))
            ran = subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                cwd=REPO_ROOT,
                timeout=120,
                check=False,
            )
        finally:
            server.terminate()
            server.wait(timeout=30)
    assert ran.returncode == 0, ran.stderr
    solved, checked = ran.stdout.splitlines()
    assert solved.startswith("done optimal {'base_contact': 3, 'engaged': 5")
    assert checked == "True OK: no violations (5 models checked)"
