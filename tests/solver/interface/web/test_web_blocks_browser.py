"""Rank-and-file charges on the `chargeopt serve` page, in Debian's headless Chromium: the path
is drawn as it is moved (a wheel and the door as arcs about their pivots, T9A's Align Move a
jump), in the ruleset's own words. Screenshots go to $CHARGEOPT_ARTIFACTS (default:
<tmp>/chargeopt-artifacts). Skipped without Chromium, except under CI."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_page import artifacts, browser_api, served_page
from repo_paths import REPO_ROOT

WHEEL_6E = REPO_ROOT / "benchmarks" / "rank-and-file-wheel-v1" / "w2-6e-wheel-whole-front.toml"
SEED_T9A = REPO_ROOT / "benchmarks" / "rank-and-file-v1" / "f2-front-seed-wheel.toml"

sync_api = browser_api()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """`chargeopt serve` on a free port and a fresh headless Chromium with the page ready."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    with served_page(profile, viewport=(1200, 820)) as page:
        yield page


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
    """w2: A wheels 20.9 degrees left, goes forward and closes the door: the trail of its front's
    centre holds two SVG arcs (the wheel, the door), each with the outer corner's swing and its
    pivot; the words are 6e's (charge move, closing the door), never T9A's."""
    trail = _solve(page, WHEEL_6E)
    data = trail.locator("path.trail").get_attribute("d") or ""
    assert data.count(" A ") == 2 and data.count(" L ") == 1, data
    assert trail.locator(".swing").count() == 2 and trail.locator(".pivot").count() == 2
    assert trail.locator(".ghost").count() == 2
    assert _labels(trail) == ["wheel 21°", '4.9"', "door 21°"]
    words = _titles(trail)
    assert "the charge move: wheels 20.9 degrees to the left" in words
    assert "closing the door: turns 20.9 degrees about the initial contact point" in words
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
