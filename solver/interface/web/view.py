"""What the page draws, as JSON: the board to scale, its terrain as the `--svg` picture draws
it, and every piece (a model, a rank-and-file block or an objective marker) with its outline,
so the page can put it down, drag it and turn it."""

from __future__ import annotations

from typing import Any

from chargeopt.models import RankAndFileScenario, RoundBase, Scenario, mm_to_in
from chargeopt.solver.interface.svg import SCALE, STYLE
from chargeopt.solver.interface.web.moves import scenario_menu


def board_view(scenario: Scenario | RankAndFileScenario) -> dict[str, Any]:
    """The board, terrain, units and pieces of `scenario` for the page (pixels: SCALE to the
    inch, as in the `--svg` picture)."""
    blocks = isinstance(scenario, RankAndFileScenario)
    action = scenario.action
    acting = action.chargers if blocks else (action.unit,)
    units = [
        {
            "id": unit.id,
            "owner": unit.owner.value,
            "acting": unit.id in acting,
            "target": unit.id in action.targets,
        }
        for unit in scenario.units
    ]
    return {
        "name": scenario.name,
        "scale": SCALE,
        "style": STYLE,
        "board": {"width": scenario.board.width, "height": scenario.board.height},
        "kind": "blocks" if blocks else "models",
        "ruleset": list(scenario.rules.ids),
        "moves": scenario_menu(scenario),
        "terrain_svg": _terrain(scenario),
        "units": units,
        "pieces": _blocks(scenario) if blocks else _models(scenario),
    }


def _terrain(scenario: Scenario | RankAndFileScenario) -> str:
    if isinstance(scenario, RankAndFileScenario):
        from chargeopt.solver.interface.block_svg import block_terrain_layer

        return block_terrain_layer(scenario)
    from chargeopt.solver.interface.svg import terrain_layer

    return terrain_layer(scenario)


def _models(scenario: Scenario) -> list[dict[str, Any]]:
    from chargeopt.solver.interface.svg import base_outline

    pieces = []
    for ui, unit in enumerate(scenario.units):
        for mi, m in enumerate(unit.models):
            base = unit.base_of(m)
            round_base = isinstance(base, RoundBase)
            pieces.append(
                {
                    "id": m.id,
                    "unit": unit.id,
                    "owner": unit.owner.value,
                    "path": ["units", ui, "models", mi],
                    "x": m.x,
                    "y": m.y,
                    "facing": m.facing,
                    "radius": base.radius_in * SCALE if round_base else None,
                    "outline": None if round_base else base_outline(base),
                    "turns": not round_base,
                    "size": 2 * base.inradius_in * SCALE,
                }
            )
    for oi, marker in enumerate(scenario.objectives):
        radius_in = mm_to_in(marker.diameter_mm) / 2
        pieces.append(
            {
                "id": marker.id,
                "unit": None,
                "owner": "objective",
                "path": ["objectives", oi],
                "x": marker.x,
                "y": marker.y,
                "facing": 0.0,
                "radius": radius_in * SCALE,
                "outline": None,
                "turns": False,
                "size": 2 * radius_in * SCALE,
            }
        )
    return pieces


def _blocks(scenario: RankAndFileScenario) -> list[dict[str, Any]]:
    from chargeopt.solver.interface.block_svg import block_outline

    pieces = []
    for ui, block in enumerate(scenario.units):
        bases, front = block_outline(block)
        pieces.append(
            {
                "id": block.id,
                "unit": block.id,
                "owner": block.owner.value,
                "path": ["units", ui],
                "x": block.x,
                "y": block.y,
                "facing": block.facing,
                "radius": None,
                "outline": bases,
                "front": front,
                "label_at": [-block.depth_in / 2 * SCALE, block.width_in / 2 * SCALE],
                "turns": True,
                "size": min(block.base.width_in, block.base.depth_in) * SCALE,
                "width_in": block.width_in,
                "depth_in": block.depth_in,
            }
        )
    return pieces
