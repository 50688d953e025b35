"""Rank-and-file charges on the `chargeopt serve` page, in Debian's headless Chromium: the path
is drawn as it is moved (a wheel and the door as arcs about their pivots, T9A's Align Move a
jump), in the ruleset's own words. Screenshots go to $CHARGEOPT_ARTIFACTS (default:
<tmp>/chargeopt-artifacts). Skipped without Chromium, except under CI."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
WHEEL_6E = REPO_ROOT / "benchmarks" / "rank-and-file-wheel-v1" / "w2-6e-wheel-whole-front.toml"
SEED_T9A = REPO_ROOT / "benchmarks" / "rank-and-file-v1" / "f2-front-seed-wheel.toml"

if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip(f"no browser at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


def artifacts() -> Path:
    folder = Path(
        os.environ.get("CHARGEOPT_ARTIFACTS") or Path(tempfile.gettempdir()) / "chargeopt-artifacts"
    )
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """`chargeopt serve` on a free port and a fresh headless Chromium with the page ready."""
    command = [sys.executable, "-m", "chargeopt.solver.interface.cli", "serve", "--port", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline() if server.stdout else ""
        assert "http://127.0.0.1:" in line, line
        url = line.split("open ", 1)[1].split()[0]
        with sync_api.sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                str(tmp_path_factory.mktemp("chromium-profile")),
                executable_path=CHROMIUM,
                args=ARGS,
                headless=True,
                viewport={"width": 1200, "height": 820},
            )
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']")
            yield page
            context.close()
            assert errors == []
    finally:
        server.terminate()
        server.wait(timeout=10)


def _solve(page: sync_api.Page, scenario: Path) -> sync_api.Locator:
    """Open `scenario`, solve it and return the charger's drawn path."""
    page.set_input_files("#open-scenario", str(scenario))
    sync_api.expect(page.locator("#file-name")).to_have_text(scenario.name)
    page.click("#solve")
    sync_api.expect(page.locator("#status")).to_have_text("OPTIMAL: A charges B", timeout=45_000)
    return page.locator("#trail-layer .block-trail[data-unit='A']")


def _titles(trail: sync_api.Locator) -> str:
    return "\n".join(trail.locator("title").all_text_contents())


def _labels(trail: sync_api.Locator) -> list[str]:
    """The words of each step's label (without its tooltip)."""
    return trail.locator(".step-label").evaluate_all("els => els.map(e => e.firstChild.nodeValue)")


def test_a_6e_wheel_and_the_door_are_arcs_in_6e_words(page: sync_api.Page) -> None:
    """w2: A wheels 21 degrees left, goes forward and closes the door: the trail of its front's
    centre holds two SVG arcs (the wheel, the door), each with the outer corner's swing and its
    pivot; the words are 6e's (charge move, closing the door), never T9A's."""
    trail = _solve(page, WHEEL_6E)
    data = trail.locator("path.trail").get_attribute("d") or ""
    assert data.count(" A ") == 2 and data.count(" L ") == 1, data
    assert trail.locator(".swing").count() == 2 and trail.locator(".pivot").count() == 2
    assert trail.locator(".ghost").count() == 2
    assert _labels(trail) == ["wheel 21°", '4.9"', "door 21°"]
    words = _titles(trail)
    assert "the charge move: wheels 21.0 degrees to the left" in words
    assert "closing the door: turns 21.0 degrees about the initial contact point" in words
    assert "Align Move" not in words and "Snaking" not in words
    assert page.locator("#roll-row").is_hidden()
    page.click("#zoom-move")
    page.screenshot(path=str(artifacts() / "serve-6e-wheel.png"))


def test_the_t9a_seed_example_wheels_then_aligns(page: sync_api.Page) -> None:
    """f2: A wheels 35 degrees right (one arc), goes 9.5" forward, then the Align Move picks it
    up and puts it down (a dotted jump, not an arc), in T9A's words."""
    trail = _solve(page, SEED_T9A)
    data = trail.locator("path.trail").get_attribute("d") or ""
    assert data.count(" A ") == 1 and data.count(" L ") == 1, data
    assert trail.locator(".jump").count() == 1 and trail.locator(".swing").count() == 1
    assert _labels(trail) == ["wheel 35°", '9.5"']
    words = _titles(trail)
    assert "the Snaking Forward Move: wheels 35.0 degrees to the right" in words
    assert "the Align Move: picked up and put back aligned with the target" in words
    sync_api.expect(page.locator("#roll-name")).to_have_text("Charge Range")
    page.click("#zoom-move")
    page.screenshot(path=str(artifacts() / "serve-t9a-seed.png"))
