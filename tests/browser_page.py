"""The page in Debian's headless Chromium, for the browser tests: `chargeopt serve` on a free
loopback port, a fresh browser profile, the page loaded and ready; an error the page raises
fails the test. Without Chromium the tests are skipped, except under CI."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVE = (sys.executable, "-m", "chargeopt.solver.interface.cli", "serve", "--port", "0")


def browser_api() -> Any:
    """playwright's sync API, or the calling test module skipped (no Chromium, outside CI)."""
    if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
        pytest.skip(f"no browser at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


def artifacts() -> Path:
    """Where the screenshots go (not in the repository)."""
    folder = Path(
        os.environ.get("CHARGEOPT_ARTIFACTS") or Path(tempfile.gettempdir()) / "chargeopt-artifacts"
    )
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def served(command: Sequence[str] = SERVE) -> Iterator[str]:
    """`chargeopt serve` started by `command`; yields the page's URL."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert "http://127.0.0.1:" in line, (line, process.stderr.read() if process.stderr else "")
        yield line.split("open ", 1)[1].split()[0]
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextmanager
def opened(url: str, profile: Path, viewport: tuple[int, int] = (1200, 820)) -> Iterator[Any]:
    """A fresh headless Chromium profile with the page at `url` ready."""
    sync_api = browser_api()
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            accept_downloads=True,
            viewport={"width": viewport[0], "height": viewport[1]},
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        yield page
        context.close()
        assert errors == []


@contextmanager
def served_page(
    profile: Path, command: Sequence[str] = SERVE, viewport: tuple[int, int] = (1200, 820)
) -> Iterator[Any]:
    """The server and the page together, as most browser tests want them."""
    with served(command) as url, opened(url, profile, viewport) as page:
        yield page
