"""A schema a person can write from: every key described, closed sets as enums, and the
scenario reference in models/README.md rendered from the same models (never out of step)."""

from __future__ import annotations

from typing import Any

import pytest
from repo_paths import REPO_ROOT

from chargeopt.models import result_schema, scenario_schema
from chargeopt.models.reference import BEGIN, END, scenario_reference


def _undescribed(schema: dict[str, Any]) -> list[str]:
    """Every property, at the top and in every definition, that has no description."""
    tables = {"(top)": schema, **schema.get("$defs", {})}
    return [
        f"{name}.{key}"
        for name, table in tables.items()
        for key, node in table.get("properties", {}).items()
        if not node.get("description")
    ]


@pytest.mark.parametrize("schema", [scenario_schema(), result_schema()], ids=["scenario", "result"])
def test_every_property_has_a_description(schema: dict[str, Any]) -> None:
    """`chargeopt schema` explains every key (there were none on 46 properties)."""
    assert _undescribed(schema) == []


def test_closed_sets_are_enums() -> None:
    """Ruleset, terrain kind, owner and action kind list their values; the rule-changing
    keywords are listed while other keywords stay allowed."""
    schema = scenario_schema()
    defs = schema["$defs"]
    ruleset = schema["properties"]["ruleset"]["anyOf"]
    assert ruleset[0]["enum"] == ["40k-9e", "40k-10e", "wtc-walls"]
    assert ruleset[1]["items"]["enum"] == ["40k-9e", "40k-10e", "wtc-walls"]
    assert defs["TerrainKind"]["enum"] == ["wall", "floor", "impassable", "barricade", "difficult"]
    assert defs["Owner"]["enum"] == ["attacker", "defender"]
    assert defs["ActionKind"]["enum"] == ["charge", "pile-in", "consolidate", "heroic-intervention"]
    keywords = defs["Unit"]["properties"]["keywords"]["items"]["anyOf"]
    assert "FLY" in keywords[0]["enum"] and keywords[1] == {"type": "string"}
    status = result_schema()["$defs"]["Status"]["enum"]
    assert status == ["optimal", "feasible", "infeasible", "unknown"]


def test_the_readme_reference_is_rendered_from_the_models() -> None:
    """models/README.md holds exactly what `python -m chargeopt.models.reference` prints."""
    readme = (REPO_ROOT / "models" / "README.md").read_text(encoding="utf-8")
    start, end = readme.index(BEGIN), readme.index(END) + len(END)
    assert readme[start:end] == scenario_reference(), (
        "the scenario reference is stale: replace it in models/README.md with the output of "
        "`python -m chargeopt.models.reference`"
    )


def test_the_reference_covers_every_table_of_a_scenario() -> None:
    """Each key a file may write appears in the reference, with its unit where it has one."""
    text = scenario_reference()
    for key in ("`ruleset`", "`width`", "`thickness`", "`keywords`", "`facing`", "`roll`"):
        assert key in text
    assert "| `x` | number | required | Centre, inches from the board's left edge. |" in text
