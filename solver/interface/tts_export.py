"""An answer written back into a Tabletop Simulator save: each placed model's posX/posZ (and
rotY where its facing changed, posY where it climbed) replaced in the save's text, every
other byte as it was, so the player loads the ruling in the game."""

from __future__ import annotations

import math

from chargeopt.models import ChargeoptError, Result
from chargeopt.solver.interface.tts_save import Frame, Save, rot_y_of

UNMOVED_UNITS = 1e-6
"""A number closer than this (in TTS units) to the save's own is left as the save wrote it."""
FARTHEST_MOVE_IN = 36.0
"""No move goes farther (a roll is at most 36"): a placement farther from the save's position
means the frame differs from the import's."""
WRITTEN_DECIMALS = 9
"""Numbers are written to 1e-9 of a unit: the answer's own printed values in inches stay
exact to far within the margins that keep them legal (solver/core/tolerances.py)."""


def moved_save(save: Save, result: Result, frame: Frame, save_name: str) -> tuple[str, list[str]]:
    """The save's text with the result's placements written in, and the GUIDs it moved."""
    by_guid = {o.guid: o for o in save.objects}
    edits: list[tuple[int, int, str]] = []
    moved = []
    for placement in result.placements:
        obj = by_guid.get(placement.model)
        if obj is None:
            raise ChargeoptError(
                f"{save_name}: no object with GUID {placement.model!r} (the result's model "
                "ids are the GUIDs of the save it was imported from); give that save"
            )
        t = obj.transform
        start = frame.to_board(t["posX"], t["posZ"])
        if math.dist(start, (placement.x, placement.y)) > FARTHEST_MOVE_IN:
            raise ChargeoptError(
                f"{save_name}: model {obj.guid} would move "
                f'{math.dist(start, (placement.x, placement.y)):.1f}" from where the save has '
                "it: give export the --scale and --board the import used"
            )
        pos_x, pos_z = frame.to_table(placement.x, placement.y)
        wanted = {"posX": pos_x, "posZ": pos_z}
        if placement.z:
            wanted["posY"] = t["posY"] + placement.z / frame.scale
        if placement.facing is not None:
            rot_y = rot_y_of(placement.facing)
            if abs((rot_y - t["rotY"] + 180.0) % 360.0 - 180.0) > UNMOVED_UNITS:
                wanted["rotY"] = rot_y
        changed = False
        for key, value in wanted.items():
            if abs(value - t[key]) <= UNMOVED_UNITS:
                continue
            span = save.spans.get((obj.index, key))
            if span is None:
                raise ChargeoptError(
                    f"{save_name}: object {obj.guid} has no Transform.{key} number to edit"
                )
            edits.append((span[0], span[1], repr(round(float(value), WRITTEN_DECIMALS))))
            changed = True
        if changed:
            moved.append(obj.guid)
    text = save.text
    for start, end, number in sorted(edits, reverse=True):
        text = text[:start] + number + text[end:]
    return text, moved
