"""`chargeopt serve` in a real browser: Debian's headless Chromium driven by Playwright. The
page opens the example file, solves it and draws the answer; a model dragged off the board is
refused with the command line's message. Screenshots are kept in $CHARGEOPT_ARTIFACTS (default:
<tmp>/chargeopt-artifacts). Skipped without Chromium, except under CI, where .ci/run installs it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from browser_page import artifacts, browser_api, served_page
from repo_paths import LAYOUTS

EXAMPLE = LAYOUTS / "examples" / "marines-charge-open.toml"
OVALS = LAYOUTS / "curated-v1" / "k5-oval-cavalry.toml"
LONG = LAYOUTS / "scaling-v1" / "c40-walls-s1.toml"
HEADLINE = "OPTIMAL: A charges B with a roll of 7 (proven best anywhere on the table)"

sync_api = browser_api()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """`chargeopt serve` on a free loopback port, the page ready in a fresh Chromium."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    with served_page(profile, viewport=(1200, 820)) as page:
        yield page


def test_open_solve_and_see_the_answer(page: sync_api.Page) -> None:
    """Open the example, solve it: the status and the bases in contact are drawn."""
    page.set_input_files("#open-scenario", str(EXAMPLE))
    sync_api.expect(page.locator("#file-name")).to_have_text("marines-charge-open.toml")
    assert page.locator("#start-layer .piece").count() == 8
    page.click("#solve")
    sync_api.expect(page.locator("#status")).to_have_text(HEADLINE, timeout=45_000)
    assert page.locator("#answer-layer .end").count() == 5
    assert page.locator("#answer-layer .end.contact").count() == 3
    assert page.locator("#answer-layer .end.engaged").count() == 2
    assert "Why no more" in page.inner_text("#summary")
    sync_api.expect(page.locator("#limits")).to_contain_text("up to 300 models (1 MB a request)")
    page.click("#zoom-move")
    page.screenshot(path=str(artifacts() / "serve-solved.png"))


def _drag(page: sync_api.Page, selector: str, dx: float, dy: float) -> None:
    """Press on the middle of `selector`, move by (dx, dy) pixels in steps, release."""
    box = page.locator(selector).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx / 2, y + dy / 2, steps=5)
    page.mouse.move(x + dx, y + dy, steps=5)
    page.mouse.up()


def test_a_model_dragged_off_the_board_is_refused(page: sync_api.Page) -> None:
    """A model dragged off the board is refused with the CLI's message and put back."""
    page.click("#zoom-board")
    a1 = "#start-layer .piece[data-id='A1']"
    before = page.locator(a1).get_attribute("transform")
    box = page.locator(a1).bounding_box()
    assert box is not None
    _drag(page, a1, -box["x"], 0)  # to the window's left edge, past the board's
    message = page.locator("#message")
    sync_api.expect(message).to_contain_text(
        "error: marines-charge-open.toml: units[0].models[0]: model 'A1' sticks out of the board by"
    )
    sync_api.expect(message).to_contain_text("past the left edge; move it onto the board")
    assert page.locator(a1).get_attribute("transform") == before
    page.screenshot(path=str(artifacts() / "serve-refused.png"))


def test_check_marks_a_model_placed_too_far(page: sync_api.Page) -> None:
    """A model placed by hand too far away is marked by Check."""
    page.click("#clear-answer")
    page.click("#place-by-hand")
    _drag(page, "#answer-layer .piece[data-id='A1']", 0, 300)
    page.click("#check")
    sync_api.expect(page.locator("#check-output")).to_contain_text("[moved_too_far]")
    assert page.locator("#answer-layer .piece[data-id='A1'] .broken").count() == 1


def test_add_remove_and_turn_models(page: sync_api.Page) -> None:
    """Models are added and removed (the Delete key); an oval turns by 15 degrees."""
    pieces = page.locator("#start-layer .piece")
    page.click("#clear-answer")
    page.locator("#start-layer .piece[data-id='A1']").click()
    page.click("#add-model")
    sync_api.expect(pieces).to_have_count(9)
    sync_api.expect(page.locator("#selected")).to_have_text("A6")
    page.keyboard.press("Delete")
    sync_api.expect(pieces).to_have_count(8)
    page.set_input_files("#open-scenario", str(OVALS))
    sync_api.expect(page.locator("#file-name")).to_have_text(OVALS.name)
    page.locator("#start-layer .piece[data-id='A1']").click()
    page.click("#turn-right")
    turned = page.locator("#start-layer .piece[data-id='A1']")
    sync_api.expect(turned).to_have_attribute("transform", re.compile(r"rotate\(15\)$"))


def test_a_long_solve_shows_progress_and_can_be_cancelled(page: sync_api.Page) -> None:
    """A long solve shows its progress, blocks a second click and can be cancelled."""
    page.set_input_files("#open-scenario", str(LONG))
    sync_api.expect(page.locator("#file-name")).to_have_text(LONG.name)
    page.click("#solve")
    sync_api.expect(page.locator("#solve")).to_be_disabled()
    sync_api.expect(page.locator("#progress")).to_be_visible()
    sync_api.expect(page.locator("#progress-text")).to_contain_text(" s of 20 s")
    page.click("#cancel")
    sync_api.expect(page.locator("#solve")).to_be_enabled(timeout=15_000)
    sync_api.expect(page.locator("#progress")).to_be_hidden()
    shown = page.inner_text("#status") + page.inner_text("#summary")
    assert "Cancelled after" in shown
