"""The README's printed outputs are what the commands print: every `console` block's commands
and every `python` block followed by a `text` block are run, and their output compared line by
line (only the seconds a solve took may differ)."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from itertools import pairwise
from pathlib import Path

import pytest
from click.testing import CliRunner
from repo_paths import REPO_ROOT

from chargeopt.solver.interface.cli import main

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^ *```(\w*)\n(.*?)^ *```", re.S | re.M)
SECONDS = re.compile(r"\d+\.\d+ s\b")


def _blocks() -> list[tuple[str, str]]:
    """(language, body) of each fenced block, in order."""
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(README)]


def _console_runs() -> list[tuple[str, str]]:
    """(command, expected output) for each `$ chargeopt ...` line of the console blocks."""
    runs = []
    for language, body in _blocks():
        if language != "console":
            continue
        for chunk in re.split(r"^\$ ", body, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            runs.append((command, output))
    return runs


def _python_runs() -> list[tuple[str, str]]:
    """(code, printed output) for each `python` block that a `text` block follows."""
    blocks = _blocks()
    return [
        (code, text)
        for (language, code), (next_language, text) in pairwise(blocks)
        if language == "python" and next_language == "text"
    ]


def _same(printed: str) -> str:
    """Output with the solve's seconds blanked (the only figure that varies run to run)."""
    return SECONDS.sub("N s", printed)


@pytest.fixture
def in_a_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run where the README's relative paths resolve, writing any output into a scratch
    folder rather than the checkout."""
    for folder in ("benchmarks", "tests"):
        (tmp_path / folder).symlink_to(REPO_ROOT / folder)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_readme_shows_commands_and_code_with_their_output() -> None:
    """The README keeps real samples: at least a solve, a pile in, a check and the API."""
    commands = [command for command, _ in _console_runs()]
    assert any(c.startswith("chargeopt solve") for c in commands)
    assert any(c.startswith("chargeopt check") for c in commands)
    assert len(_python_runs()) >= 1


@pytest.mark.parametrize(("command", "expected"), _console_runs(), ids=lambda v: v[:60])
def test_console_sample_is_what_the_command_prints(
    command: str, expected: str, in_a_copy: Path
) -> None:
    """Each `$ chargeopt ...` line prints exactly the lines under it."""
    program, *args = shlex.split(command)
    assert program == "chargeopt"
    result = CliRunner().invoke(main, args)
    assert _same(result.output) == _same(expected)


@pytest.mark.parametrize(("code", "expected"), _python_runs(), ids=lambda v: v[:40])
def test_python_sample_prints_what_the_readme_shows(
    code: str, expected: str, in_a_copy: Path
) -> None:
    """Each Python sample prints exactly the `text` block under it."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    assert _same(printed.getvalue()) == _same(expected)
