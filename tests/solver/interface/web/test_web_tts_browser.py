"""Tabletop Simulator saves on the `chargeopt serve` page, in Debian's headless Chromium, on a
server that cannot import the 40kdc data set: its controls are disabled with the one line that
says how to install it, while a save still opens with the bases given, is imported, solved, and
saved moved: the acting models' transforms changed, every other byte the save's (the same text
`chargeopt export tts` writes). Skipped without Chromium, except under CI."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_page import browser_api, served_page
from click.testing import CliRunner
from repo_paths import REPO_ROOT

from chargeopt.solver.interface.cli import main

SAVE = REPO_ROOT / "benchmarks" / "layouts" / "examples" / "tts" / "charge-table.json"
INTERCESSORS = {"1ab000", "1ab011", "1ab022", "1ab033", "1ab044"}
WITHOUT_DATA_SET = (
    "import sys; sys.modules['wh40kdc'] = None; "
    "from chargeopt.solver.interface.cli import main; main()"
)
"""`chargeopt` with the data set made unimportable, as where the `data` extra is not installed."""

sync_api = browser_api()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """`chargeopt serve` without the data set, and a fresh headless Chromium, page ready."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    with served_page(
        profile,
        command=(sys.executable, "-c", WITHOUT_DATA_SET, "serve", "--port", "0"),
        viewport=(1300, 900),
    ) as page:
        yield page


def test_without_the_data_set_its_controls_are_off_with_one_line(page: sync_api.Page) -> None:
    sync_api.expect(page.locator("#data-line")).to_have_text(
        "The 40kdc data set is not installed: pip install 'chargeopt[data]'"
    )
    for control in ("#layout", "#unit-datasheet", "#add-unit", "#add-unit-click"):
        sync_api.expect(page.locator(control)).to_be_disabled()
    sync_api.expect(page.locator("#open-tts")).to_be_enabled()


def test_a_save_without_bases_is_refused_with_the_models_listed(page: sync_api.Page) -> None:
    """A save stores no base and the data set is not there to give one: the import's refusal."""
    page.set_input_files("#open-tts", str(SAVE))
    message = page.locator("#message")
    sync_api.expect(message).to_contain_text("8 model(s) have no base")
    sync_api.expect(message).to_contain_text("'Boyz' (b0e000, b0e111, b0e222)")
    sync_api.expect(page.locator("#tts-move")).to_be_hidden()


def test_the_bases_given_the_save_lists_its_units(page: sync_api.Page) -> None:
    page.fill("#tts-bases", "Intercessor Squad=32mm\nBoyz=32mm")
    page.press("#tts-bases", "Tab")
    sync_api.expect(page.locator("#tts-move")).to_be_visible()
    options = page.locator("#tts-charger option")
    sync_api.expect(options).to_have_count(2)
    assert options.all_inner_texts() == ["Intercessor Squad (5 × 32mm)", "Boyz (3 × 32mm)"]
    assert page.locator("#tts-targets input:checked").evaluate_all("b => b.map(x => x.value)") == [
        "Boyz"
    ]


def _objects(text: str) -> dict[str, dict[str, Any]]:
    return {o["GUID"]: o for o in json.loads(text)["ObjectStates"]}


def test_import_solve_and_save_the_moved_save(page: sync_api.Page, tmp_path: Path) -> None:
    """The save imported as a charge with roll 7, solved; the moved save is exactly what
    `chargeopt export tts` writes for the page's answer: only the Intercessors moved."""
    page.fill("#tts-roll", "7")
    page.click("#tts-import")
    sync_api.expect(page.locator("#file-name")).to_have_text("charge-table.toml")
    assert page.locator("#start-layer .piece").count() == 8
    sync_api.expect(page.locator("#save-tts")).to_be_disabled()
    sync_api.expect(page.locator("#data-credit")).to_be_hidden()
    page.click("#solve")
    sync_api.expect(page.locator("#status")).to_contain_text("OPTIMAL", timeout=45_000)
    sync_api.expect(page.locator("#save-tts")).to_be_enabled()
    with page.expect_download() as caught:
        page.click("#save-tts")
    assert caught.value.suggested_filename == "charge-table.moved.json"
    moved = Path(caught.value.path()).read_bytes()
    result = tmp_path / "r.json"
    result.write_text(page.evaluate("JSON.stringify(state.result)"))
    expected = tmp_path / "moved.json"
    out = CliRunner().invoke(main, ["export", "tts", str(SAVE), str(result), "-o", str(expected)])
    assert out.exit_code == 0, out.output
    assert moved == expected.read_bytes()
    before, after = _objects(SAVE.read_text()), _objects(moved.decode())
    assert {g for g in before if before[g] != after[g]} == INTERCESSORS
    sync_api.expect(page.locator("#status")).to_have_text(
        re.compile(r"Saved charge-table\.moved\.json: 5 model\(s\) moved")
    )
