"""The page shows what is on the board and what Solve will solve, in Debian's headless Chromium:
the Move menu holds only the moves the file's ruleset solves, with the controls each reads, and
after a refusal the move the document holds; the rulesets listed are the registry's; a hand
placement's summary lists the hand's positions; a load clears the selection; a file with a
broken start layout opens with its problems marked and is fixed by dragging; a parse error is
one line; moves are drawn along the path walked; a name TOML must escape survives save and
open. Skipped without Chromium, except under CI."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_page import browser_api, served_page
from repo_paths import LAYOUTS, REPO_ROOT

from chargeopt.models import EDITIONS
from chargeopt.models.rulesets import RANK_AND_FILE_EDITIONS

EXAMPLE = LAYOUTS / "examples" / "marines-charge-open.toml"
K1 = LAYOUTS / "curated-v1" / "k1-ruin-tight-gap.toml"
FALL_BACK_4E = REPO_ROOT / "benchmarks" / "assault-4e-v1" / "t1-trapped-against-rocks.toml"
OVERLAP = REPO_ROOT / "tests" / "data" / "malformed" / "start-overlap.toml"
WEIRD = 'ctl\x01 del\x7f "quoted" back\\slash é 𝄞'

sync_api = browser_api()
expect = sync_api.expect


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """`chargeopt serve` on a free port and a fresh headless Chromium with the page ready."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    with served_page(profile, viewport=(1200, 820)) as page:
        yield page


def _open(page: sync_api.Page, path: Path) -> None:
    page.set_input_files("#open-scenario", str(path))
    expect(page.locator("#file-name")).to_have_text(path.name)


def _options(page: sync_api.Page, select: str) -> list[str]:
    return page.locator(f"{select} option").evaluate_all("os => os.map(o => o.value)")


def _shown(page: sync_api.Page) -> list[str]:
    """The action keys whose controls are shown."""
    rows = page.locator("#move [data-key]")
    return rows.evaluate_all("rs => rs.filter(r => !r.hidden).map(r => r.dataset.key)")


def _drag(page: sync_api.Page, selector: str, dx: float, dy: float) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx / 2, y + dy / 2, steps=4)
    page.mouse.move(x + dx, y + dy, steps=4)
    page.mouse.up()


def test_every_registered_ruleset_is_listed(page: sync_api.Page) -> None:
    """The Ruleset menu holds every edition the registry knows (read from the server), the
    rank-and-file ones disabled on a file of models."""
    _open(page, EXAMPLE)
    values = _options(page, "#ruleset")
    firsts = {re.sub(r'^\["([^"]+)".*', r"\1", v) for v in values}
    assert firsts == set(EDITIONS) | set(RANK_AND_FILE_EDITIONS)
    assert '["40k-10e","wtc-walls"]' in values
    disabled = page.locator("#ruleset option:disabled").evaluate_all("os => os.map(o => o.value)")
    assert disabled and all(any(e in v for e in RANK_AND_FILE_EDITIONS) for v in disabled)
    expect(page.locator("#ruleset")).to_have_value('["40k-10e"]')


def test_the_move_menu_offers_what_the_ruleset_solves(page: sync_api.Page) -> None:
    """10e: charge, pile-in, consolidate (no fall-back), a charge with targets and a roll; 4e:
    fall-back with its edge, a 4e charge without a roll."""
    _open(page, EXAMPLE)
    assert _options(page, "#action-kind") == ["charge", "pile-in", "consolidate"]
    assert _shown(page) == ["targets", "roll"]
    _open(page, FALL_BACK_4E)
    assert _options(page, "#action-kind") == ["charge", "pile-in", "consolidate", "fall-back"]
    assert _shown(page) == ["roll", "table_edge", "fast", "fought_by", "difficult_roll"]
    expect(page.locator("#action-edge")).to_have_value("bottom")
    page.select_option("#action-kind", "charge")
    expect(page.locator("#roll-row")).to_be_hidden()
    assert _shown(page) == ["targets", "difficult_roll"]
    action = page.evaluate("state.doc.action")
    assert action == {"kind": "charge", "unit": "A", "targets": ["B"]}


def test_after_a_refusal_the_menu_shows_what_solve_solves(
    page: sync_api.Page, tmp_path: Path
) -> None:
    """A 10e file asking for a fall-back: shown as not solved, Solve refuses it; choosing the
    charge makes the document a charge; a refused edit (no target) puts the menu back to the
    document, never showing one move while the document holds another."""
    data = EXAMPLE.read_text().replace(
        'kind = "charge"\nunit = "A"\ntargets = ["B"]\nroll = 7',
        'kind = "fall-back"\nunit = "A"\ntable_edge = "left"',
    )
    file = tmp_path / "fall-back-10e.toml"
    file.write_text(data)
    _open(page, file)
    expect(page.locator("#action-kind")).to_have_value("fall-back")
    label = page.locator("#action-kind option:checked").inner_text()
    assert label == "fall-back (not solved under 40k-10e)"
    page.click("#solve")
    expect(page.locator("#message")).to_contain_text("does not solve a fall-back under 40k-10e")
    assert page.evaluate("state.doc.action.kind") == "fall-back"
    page.select_option("#action-kind", "charge")
    expect(page.locator("#targets-row")).to_be_visible()
    assert page.evaluate("state.doc.action") == {"kind": "charge", "unit": "A", "targets": ["B"]}
    page.locator("#action-targets input[value='B']").uncheck()
    expect(page.locator("#message")).to_contain_text("a charge needs at least one target")
    expect(page.locator("#action-targets input[value='B']")).to_be_checked()
    expect(page.locator("#action-kind")).to_have_value("charge")
    assert page.evaluate("state.doc.action.targets") == ["B"]


def test_paths_walked_and_a_hand_placement_summarised(page: sync_api.Page) -> None:
    """k1: every move bent through the gap is drawn as walked (legend "move (path)"); a model then
    placed by hand: the solver's summary is cleared at once and Check lists the hand's
    positions, the dragged model where it was dropped."""
    _open(page, K1)
    page.locator("#start-layer .piece[data-id='A1']").click()
    expect(page.locator("#selected")).to_have_text("A1")
    page.click("#solve")
    expect(page.locator("#status")).to_contain_text("OPTIMAL: A charges B", timeout=40_000)
    bent = page.evaluate(
        "call('POST', '/api/paths', boardRequest({result: state.result}))"
        ".then(r => Object.values(r.data.paths).filter(p => p.length > 2).length)"
    )
    assert bent >= 2, bent
    walked = page.locator("#answer-layer polyline.walked")
    expect(walked).to_have_count(bent)
    for points in walked.evaluate_all("ls => ls.map(l => l.getAttribute('points'))"):
        assert len(points.split()) >= 3, points
    expect(page.locator("#legend-move")).to_have_text("move (path)")
    before = page.evaluate("state.placed.A1")
    page.click("#place-by-hand")
    _drag(page, "#answer-layer .piece[data-id='A1']", 0, 40)
    expect(page.locator("#summary")).not_to_contain_text("OPTIMAL")
    assert page.locator("#answer-layer polyline.walked").count() == 0
    page.click("#check")
    expect(page.locator("#check-output")).not_to_be_empty()
    after = page.evaluate("state.placed.A1")
    assert after["y"] > before["y"] + 1.0
    summary = page.inner_text("#summary")
    assert summary.startswith("Placed by hand:")
    assert f"A1 at ({after['x']:g}, {after['y']:g})" in summary
    assert f"({before['x']:g}, {before['y']:g})" not in summary


def test_a_new_file_clears_the_selection(page: sync_api.Page) -> None:
    _open(page, EXAMPLE)
    page.locator("#start-layer .piece[data-id='A2']").click()
    expect(page.locator("#selected")).to_have_text("A2")
    _open(page, K1)
    expect(page.locator("#selected")).to_have_text("none")
    assert page.locator("#board .piece.selected").count() == 0


def test_a_broken_start_opens_marked_and_is_fixed_by_dragging(
    page: sync_api.Page, tmp_path: Path
) -> None:
    """Overlapping bases: the file opens, A2 marked and the problem listed, Solve refused;
    A2 dragged clear: the problem is gone. A file that does not parse: one line naming it."""
    _open(page, OVERLAP)
    line = "start-overlap.toml: units[0].models[1]: model 'A2' overlaps 'A1' by 0.76\"; "
    line += "move it apart"
    expect(page.locator("#problem-list li")).to_have_text([line])
    assert page.locator("#start-layer .piece[data-id='A2'] .broken").count() == 1
    assert page.locator("#start-layer .piece[data-id='A1'] .broken").count() == 0
    page.click("#solve")
    expect(page.locator("#message")).to_contain_text("overlaps 'A1'")
    _drag(page, "#start-layer .piece[data-id='A2']", 0, 60)
    expect(page.locator("#problems")).to_be_hidden()
    expect(page.locator("#status")).to_have_text("Every problem fixed: the board can be solved")
    assert page.locator("#start-layer .broken").count() == 0
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\nboard = {\n')
    page.set_input_files("#open-scenario", str(broken))
    expect(page.locator("#message")).to_have_text(
        re.compile(r"^error: broken\.toml: not valid TOML \(.*line \d+.*\)$")
    )


def test_a_name_toml_must_escape_survives_save_and_open(
    page: sync_api.Page, tmp_path: Path
) -> None:
    """A name with a control character, DEL, quotes, a backslash and unicode: saved as TOML by
    the page, the file parses to the same name and opens again with it."""
    source = tmp_path / "weird.json"
    text = EXAMPLE.read_text()
    data = tomllib.loads(text)
    data["name"] = WEIRD
    source.write_text(json.dumps(data))
    _open(page, source)
    with page.expect_download() as saved:
        page.click("#save-toml")
    written = Path(saved.value.path()).read_text(encoding="utf-8")
    assert tomllib.loads(written)["name"] == WEIRD
    again = tmp_path / "weird.toml"
    again.write_text(written, encoding="utf-8")
    _open(page, again)
    assert page.evaluate("state.doc.name") == WEIRD
    expect(page.locator("#message")).to_be_empty()
