"""Units by datasheet name (the 40kdc data set): what fills a unit, what an explicit key
overrides, how a miss, an ambiguous name and an unusable base are refused."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("wh40kdc")

from chargeopt.models import OvalBase, RoundBase, Scenario, ScenarioError, validate_document
from chargeopt.models.datasheets import base_from_data, find_datasheet


def _scenario(sheet: str, **unit: Any) -> dict[str, Any]:
    a = {"id": "A", "owner": "attacker", "datasheet": sheet, **unit}
    a.setdefault("models", [{"id": "A1", "x": 10.0, "y": 15.0}])
    return {
        "ruleset": "40k-10e",
        "board": {"width": 44.0, "height": 30.0},
        "units": [
            a,
            {
                "id": "B",
                "owner": "defender",
                "base": "32mm",
                "models": [{"id": "B1", "x": 20.0, "y": 15.0}],
            },
        ],
        "action": {"kind": "charge", "unit": "A", "targets": ["B"], "roll": 7},
    }


def _load(data: dict[str, Any]) -> Scenario:
    return validate_document(Scenario, data, "t.toml")


def _refusal(data: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as caught:
        _load(data)
    return "\n".join(caught.value.lines())


def test_a_datasheet_fills_base_and_keywords() -> None:
    unit = _load(_scenario("Intercessor Squad")).units[0]
    assert unit.base == RoundBase(diameter_mm=32.0)
    assert {"INFANTRY", "BATTLELINE"} <= set(unit.keywords)
    assert find_datasheet("Intercessor Squad").movement_in == (6.0,)


@pytest.mark.parametrize(
    "spelling", ["intercessor squad", "INTERCESSOR-SQUAD", "intercessor-squad"]
)
def test_names_match_as_the_data_set_matches_them(spelling: str) -> None:
    assert find_datasheet(spelling).id == "intercessor-squad"


def test_diacritics_and_quotes_are_ignored() -> None:
    assert find_datasheet("Kharn the Betrayer").base == {"kind": "round", "diameter_mm": 40.0}


def test_explicit_base_and_keywords_win() -> None:
    unit = _load(_scenario("Intercessor Squad", base="40mm", keywords=["beast"])).units[0]
    assert unit.base == RoundBase(diameter_mm=40.0)
    assert unit.keywords == ("BEAST",)


def test_a_miss_names_the_nearest_datasheets() -> None:
    line = _refusal(_scenario("Intercesor Squad"))
    assert "units[0].datasheet: no datasheet 'Intercesor Squad'" in line
    assert '"Intercessor Squad"' in line


def test_an_ambiguous_name_asks_for_the_faction() -> None:
    line = _refusal(_scenario("Chaos Spawn"))
    assert "5 factions have a datasheet 'Chaos Spawn'" in line
    assert '"Chaos Spawn (World Eaters)"' in line
    unit = _load(_scenario("Chaos Spawn (World Eaters)")).units[0]
    assert unit.base == RoundBase(diameter_mm=50.0)
    assert find_datasheet("Chaos Spawn (World Eaters)").faction_id == "world-eaters"


def test_a_hull_is_refused_with_the_fix_unless_a_base_is_given() -> None:
    line = _refusal(_scenario("Rhino (Adeptus Astartes)"))
    assert "stands on its hull" in line and 'kind = "hull"' in line
    hull = {"kind": "hull", "points": [[-2.0, -1.25], [2.0, -1.25], [2.0, 1.25], [-2.0, 1.25]]}
    unit = _load(_scenario("Rhino (Adeptus Astartes)", base=hull)).units[0]
    assert "VEHICLE" in unit.keywords


def test_mixed_bases_are_never_guessed() -> None:
    line = _refusal(_scenario("Jakhals"))
    assert "different bases" in line and "Dishonoured 40mm" in line
    models = [{"id": "A1", "x": 10.0, "y": 15.0, "base": "40mm"}]
    assert _load(_scenario("Jakhals", models=models)).units[0].base is None


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        ({"shape": "round", "diameter": 32}, RoundBase(diameter_mm=32.0)),
        ({"shape": "oval", "width": 75, "length": 42}, OvalBase(length_mm=75.0, width_mm=42.0)),
        (
            {"shape": "flying-base", "size": "small", "draft": True},
            OvalBase(length_mm=60.0, width_mm=35.0),
        ),
        (
            {"shape": "flying-base", "size": "large", "width": 120, "length": 92},
            OvalBase(length_mm=120.0, width_mm=92.0),
        ),
    ],
)
def test_data_set_bases_map_to_chargeopt_bases(size: dict[str, Any], expected: Any) -> None:
    table, problem = base_from_data("X", size)
    assert problem is None and table is not None
    assert (RoundBase if table["kind"] == "round" else OvalBase)(**table) == expected


@pytest.mark.parametrize("size", [None, {"shape": "hull", "draft": True}, {"shape": "unique"}])
def test_bases_without_a_size_are_refused(size: Any) -> None:
    table, problem = base_from_data("X", size)
    assert table is None and problem


def test_every_datasheet_maps_or_says_why() -> None:
    """All 1,096 datasheets: a base chargeopt can draw, or a reason (never an exception)."""
    from chargeopt.models.data_set import data_set

    counts = {"base": 0, "refused": 0}
    for unit in data_set().units:
        table, problem = base_from_data(unit.name, unit.raw.get("base_size_mm"))
        assert (table is None) != (problem is None)
        counts["base" if table else "refused"] += 1
    assert counts == {"base": 958, "refused": 138}


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


def test_a_plain_scenario_never_imports_the_data_set(tmp_path: Any) -> None:
    out = _run(
        "import sys, json\n"
        "from chargeopt.models import Scenario, validate_document\n"
        f"data = {_scenario('x')!r}\n"
        "del data['units'][0]['datasheet']; data['units'][0]['base'] = '32mm'\n"
        "validate_document(Scenario, data, 't.toml')\n"
        "print('wh40kdc' in sys.modules)"
    )
    assert out.stdout.strip() == "False", out.stderr


def test_without_the_data_set_one_line_says_how_to_install_it(tmp_path: Any) -> None:
    path = tmp_path / "s.toml"
    path.write_text(
        'ruleset = "40k-10e"\nboard = { width = 44.0, height = 30.0 }\n'
        '[[units]]\nid = "A"\nowner = "attacker"\ndatasheet = "Intercessor Squad"\n'
        'models = [{ id = "A1", x = 10.0, y = 15.0 }]\n'
        '[[units]]\nid = "B"\nowner = "defender"\nbase = "32mm"\n'
        'models = [{ id = "B1", x = 20.0, y = 15.0 }]\n'
        '[action]\nkind = "charge"\nunit = "A"\ntargets = ["B"]\nroll = 7\n'
    )
    out = _run(
        "import sys; sys.modules['wh40kdc'] = None\n"
        "from chargeopt.solver.interface.cli import main\n"
        f"main(['solve', {str(path)!r}, '--quiet'])"
    )
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        f"error: {path}: units[0].datasheet: this key reads the 40kdc data set, which is not "
        "installed; install the 40kdc data set: pip install 'chargeopt[data]' (or pip install "
        "wh40kdc)"
    ]


def test_stats_name_what_the_scenario_wrote_instead() -> None:
    from chargeopt.models.datasheets import data_set_used

    scenario = _load(_scenario("Intercessor Squad", base="40mm"))
    sheet = data_set_used(scenario)["datasheets"]["A"]  # type: ignore[index]
    assert sheet["base"] == "40mm, the scenario's"
    assert sheet["movement_in"] == [6.0] and "keywords_from" not in sheet
    plain = _load(_scenario("Intercessor Squad"))
    assert data_set_used(plain)["datasheets"]["A"]["base"] == "32mm"  # type: ignore[index]
