"""The 40kdc data set on the `chargeopt serve` page, in Debian's headless Chromium: a layout
chosen by name draws its terrain on a new table, units are added by datasheet name and model
count (where the board is clicked, or at a free spot), a misspelt name gets the nearest names,
and the attribution line shows wherever the data set's data is. Skipped without wh40kdc, or
without Chromium except under CI."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_page import artifacts, browser_api, served_page

LAYOUT = "Take vs Take 01"
ATTRIBUTION = "Powered by 40kdc-data"
SCALE = 20.0
"""Pixels to the inch on the page (svg.SCALE)."""

pytest.importorskip("wh40kdc")
sync_api = browser_api()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """`chargeopt serve` (no file) on a free port and a fresh headless Chromium, page ready."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    with served_page(profile, viewport=(1300, 900)) as page:
        yield page


def _models(page: sync_api.Page, unit: str) -> list[tuple[float, float]]:
    """The centres (inches) of the unit's models as the page holds them."""
    return page.evaluate(
        "(u) => state.doc.units.find((x) => x.id === u).models.map((m) => [m.x, m.y])", unit
    )


def _click_board(page: sync_api.Page, x_in: float, y_in: float) -> None:
    """Click the board at (x_in, y_in) inches."""
    point = page.evaluate(
        """([x, y]) => { const svg = document.getElementById('board');
        const p = svg.createSVGPoint(); p.x = x * state.view.scale; p.y = y * state.view.scale;
        const q = p.matrixTransform(svg.getScreenCTM());
        const r = svg.getBoundingClientRect(); return [q.x - r.left, q.y - r.top]; }""",
        [x_in, y_in],
    )
    page.locator("#board").click(position={"x": point[0], "y": point[1]})


def test_a_layout_by_name_draws_its_terrain_on_a_new_table(page: sync_api.Page) -> None:
    """Without any file, choosing a layout opens a table set up on it: its terrain drawn, the
    move waiting for a unit of each side, the attribution shown."""
    sync_api.expect(page.locator("#data-line")).to_contain_text(ATTRIBUTION)
    assert page.locator("#layout option").count() == 47  # 46 layouts and (none)
    sync_api.expect(page.locator("#data-credit")).to_be_hidden()
    page.select_option("#layout", LAYOUT)
    sync_api.expect(page.locator("#file-name")).to_have_text("table.toml")
    assert page.evaluate("state.doc.board") == {"width": 60, "height": 44, "layout": LAYOUT}
    assert page.locator("#terrain path.dense").count() > 0
    assert page.locator("#terrain path.wall").count() > 0
    sync_api.expect(page.locator("#data-credit")).to_have_text(ATTRIBUTION)
    sync_api.expect(page.locator("#solve")).to_be_disabled()
    sync_api.expect(page.locator("#draft-hint")).to_be_visible()
    objective = page.locator("#start-layer .piece[data-id='obj-objective-center']")
    sync_api.expect(objective).to_have_class("piece fixed")  # the layout's: not dragged


def test_a_misspelt_datasheet_gets_the_nearest_names(page: sync_api.Page) -> None:
    page.fill("#unit-datasheet", "Intercesor Squad")
    page.press("#unit-datasheet", "Tab")
    facts = page.locator("#unit-facts")
    sync_api.expect(facts).to_contain_text("no datasheet 'Intercesor Squad'")
    sync_api.expect(facts).to_contain_text('did you mean "Intercessor Squad"')
    page.click("#add-unit")
    sync_api.expect(page.locator("#message")).to_contain_text('did you mean "Intercessor Squad"')
    assert page.evaluate("state.doc.units.length") == 0
    near = page.locator("#unit-suggestions button")
    assert near.all_inner_texts()[:2] == ["Intercessor Squad", "Interceptor Squad"]
    near.first.click()
    sync_api.expect(page.locator("#unit-datasheet")).to_have_value("Intercessor Squad")
    facts = page.locator("#unit-facts")
    sync_api.expect(facts).to_contain_text("Intercessor Squad (adeptus-astartes): 32mm")


def test_a_unit_by_datasheet_is_placed_where_the_board_is_clicked(page: sync_api.Page) -> None:
    """Five Intercessors (32mm) in a row of 5 centred on the point clicked: 0.5" apart."""
    page.fill("#unit-datasheet", "Intercessor Squad")
    page.press("#unit-datasheet", "Tab")
    sync_api.expect(page.locator("#unit-facts")).to_contain_text("32mm")
    assert page.input_value("#unit-count") == "5"  # the datasheet's fewest models
    page.click("#zoom-board")
    page.click("#add-unit-click")
    _click_board(page, 30.0, 40.0)
    sync_api.expect(page.locator("#status")).to_contain_text("Added Intercessor Squad (5 models)")
    spots = _models(page, "Intercessor Squad")
    assert len(spots) == 5
    pitch = 32 / 25.4 + 0.5  # a 32mm base's width and the 0.5" gap
    xs = sorted(x for x, _ in spots)
    assert all(abs(b - a - pitch) < 0.002 for a, b in itertools.pairwise(xs))
    assert len({y for _, y in spots}) == 1, spots  # one row
    click_in = 0.1  # a screen pixel is about 0.09" of the board here
    assert abs(spots[0][1] - 40.0) < click_in and abs(sum(xs) / 5 - 30.0) < click_in, spots
    assert page.locator("#start-layer .piece[data-id='IS1']").count() == 1
    sync_api.expect(page.locator("#solve")).to_be_disabled()


def test_the_other_side_at_a_free_spot_makes_the_charge(page: sync_api.Page) -> None:
    """Ten Boyz at the first free spot of the defender's half: the table becomes a charge of
    the Intercessors at the Boyz, and the file saved names the datasheets and the layout."""
    page.fill("#unit-datasheet", "Boyz")
    page.press("#unit-datasheet", "Tab")
    sync_api.expect(page.locator("#unit-facts")).to_contain_text("10–20 models")
    page.select_option("#unit-owner", "defender")
    page.click("#add-unit")
    sync_api.expect(page.locator("#status")).to_contain_text("Added Boyz (10 models)")
    spots = _models(page, "Boyz")
    assert len(spots) == 10
    assert all(y < 22.0 for _, y in spots)  # the defender's half
    gaps = [math.dist(a, b) for i, a in enumerate(spots) for b in spots[i + 1 :]]
    assert min(gaps) > 32 / 25.4  # none overlaps
    assert page.evaluate("state.doc.action") == {
        "kind": "charge",
        "unit": "Intercessor Squad",
        "targets": ["Boyz"],
    }
    sync_api.expect(page.locator("#solve")).to_be_enabled()
    with page.expect_download() as caught:
        page.click("#save-toml")
    text = Path(caught.value.path()).read_text()
    assert 'layout = "Take vs Take 01"' in text
    assert 'datasheet = "Boyz"' in text and 'datasheet = "Intercessor Squad"' in text
    page.screenshot(path=str(artifacts() / "serve-layout-units.png"))


def test_a_unit_clicked_where_it_does_not_fit_is_refused(page: sync_api.Page) -> None:
    """Twenty Boyz (5 by 4) centred 1" from the board's corner stick out: refused, with the
    board's own line, and nothing added."""
    page.fill("#unit-datasheet", "Boyz")
    page.press("#unit-datasheet", "Tab")
    page.fill("#unit-count", "20")
    page.click("#add-unit-click")
    _click_board(page, 1.0, 1.0)
    message = page.locator("#message")
    sync_api.expect(message).to_contain_text("Boyz 2 does not fit there: table.toml: units[2]")
    sync_api.expect(message).to_contain_text("sticks out of the board")
    assert page.evaluate("state.doc.units.length") == 2


def test_the_open_boards_layout_is_taken_away_and_back(page: sync_api.Page) -> None:
    """On a board with its units, "(none)" takes the layout's terrain away, the board's size
    and units kept; choosing it again brings the terrain back."""
    page.select_option("#layout", "")
    sync_api.expect(page.locator("#terrain path.dense")).to_have_count(0)
    assert page.evaluate("state.doc.board") == {"width": 60, "height": 44}
    assert page.evaluate("state.doc.units.length") == 2
    sync_api.expect(page.locator("#data-credit")).to_be_visible()  # the units' datasheets
    page.select_option("#layout", LAYOUT)
    sync_api.expect(page.locator("#terrain path.dense")).not_to_have_count(0)
    assert page.evaluate("state.doc.board.layout") == LAYOUT


def test_a_solve_on_the_table_names_the_data_set_in_its_summary(page: sync_api.Page) -> None:
    """The Boyz are 25" away: no roll of 12 reaches them (a proof), and the summary says what
    the data set gave, under its attribution."""
    page.fill("#action-roll", "12")
    page.press("#action-roll", "Tab")
    page.click("#solve")
    status = page.locator("#status")
    sync_api.expect(status).to_have_text(
        "INFEASIBLE: Intercessor Squad cannot charge Boyz with a roll of 12", timeout=30_000
    )
    summary = page.locator("#summary")
    sync_api.expect(summary).to_contain_text(f"{ATTRIBUTION} (wh40kdc ")
    sync_api.expect(summary).to_contain_text("Boyz = Boyz (32mm")
    sync_api.expect(summary).to_contain_text(f"layout {LAYOUT}")
