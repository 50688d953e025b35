"""Writes the rank-and-file-v1 suite (T9A 2022 charges of blocks) and rank-and-file-wheel-v1
(WHFB 6e and TOW one-wheel charges, issue 30), each with its manifest.

Run `python benchmarks/rank-and-file-v1/generate.py`; a changed layout needs a new suite
version (the manifest's hashes are checked by `chargeopt bench`). Coordinates: a block's x, y
is the front-left corner of its Unit Boundary, facing in degrees from +x toward +y (y down).
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

HERE = Path(__file__).resolve().parent
W25 = 25 / 25.4


def unit(uid, owner, x, y, facing, files=5, ranks=3, base="25x25mm", **extra):
    return {
        "id": uid,
        "owner": owner,
        "files": files,
        "ranks": ranks,
        "base": base,
        "x": round(x, 6),
        "y": round(y, 6),
        "facing": round(facing, 6),
        **extra,
    }


def corner_touching(fr, heading, files=5):
    """The front-left corner of a block whose front-right corner is at `fr`."""
    f = (math.cos(math.radians(heading)), math.sin(math.radians(heading)))
    r = (-f[1], f[0])
    w = files * W25
    return fr[0] - w * r[0], fr[1] - w * r[1]


B = unit("B", "defender", 30.0, 10.0, 90.0)
"""The usual target: front along y = 10 from x 25.08 to 30, facing down the table."""
ROCKS = [
    [(24.079, 10.0), (24.579, 10.0), (24.579, 10.3), (24.079, 10.3)],
    [(27.079, 10.0), (27.579, 10.0), (27.579, 10.3), (27.079, 10.3)],
]


def layouts():
    bp = corner_touching(
        (29.0 - 14 * math.cos(math.radians(-150)), 10.0 - 14 * math.sin(math.radians(-150))), -150
    )
    un = corner_touching((26.0787, 10.0), -120)
    return [
        (
            "f1-front-head-on",
            "charge into the front arc, straight in",
            "optimal",
            10,
            [unit("A", "attacker", 25.08, 16.0, -90.0), B],
            [],
            {"unit": "A", "roll": 6},
        ),
        (
            "f2-front-seed-wheel",
            "the seed's example: forward, wheel about the front-right corner, forward, align",
            "optimal",
            10,
            [unit("A", "attacker", 15.0, 18.0, -90.0), B],
            [],
            {"unit": "A"},
        ),
        (
            "f3-flank-left",
            "charge into the left arc (B's left flank is at x = 30)",
            "open",
            None,
            [unit("A", "attacker", 38.0, 11.0, 180.0, files=4, ranks=4), B],
            [],
            {"unit": "A"},
        ),
        (
            "f4-flank-right",
            "charge into the right arc",
            "open",
            None,
            [unit("A", "attacker", 18.0, 6.0, 0.0, files=3, ranks=4), B],
            [],
            {"unit": "A"},
        ),
        (
            "f5-rear",
            "charge into the rear arc",
            "open",
            None,
            [unit("A", "attacker", 26.0, 3.5, 90.0, files=5, ranks=2), B],
            [],
            {"unit": "A"},
        ),
        (
            "f6-on-the-line",
            "the charger's front centre exactly on the 45-degree line: Flank",
            "open",
            None,
            [unit("A", "attacker", 30 - 5 * W25 - 8 - 2.5 * W25 / 1, 18.0, 0.0), B],
            [],
            {"unit": "A"},
        ),
        (
            "f7-wide-target",
            "a 10 x 2 horde: its diagonals and 45-degree lines disagree",
            "open",
            None,
            [
                unit("A", "attacker", 31.5, 13.5, 180.0, files=4, ranks=3),
                unit("B", "defender", 30.0, 10.0, 90.0, files=10, ranks=2),
            ],
            [],
            {"unit": "A"},
        ),
        (
            "p1-contact-point-costs",
            "A touches B at one corner, turned 20 degrees: "
            "keeping that point costs a target model (4 not 5)",
            "optimal",
            7,
            [unit("A", "attacker", 30 - 5 * W25 + 0.3, 10.0, -70.0, files=3, ranks=4), B],
            [],
            {"unit": "A"},
        ),
        (
            "u1-rocks-unaligned",
            "rocks leave no flush place: unaligned, then the target turns",
            "optimal",
            4,
            [unit("A", "attacker", un[0], un[1], -120.0), B],
            ROCKS,
            {"unit": "A"},
        ),
        (
            "u2-rocks-from-afar",
            "the same rocks, the charger far out",
            "open",
            None,
            [unit("A", "attacker", 24.0, 20.0, -100.0), B],
            ROCKS,
            {"unit": "A"},
        ),
        (
            "c2-two-side-by-side",
            "combined charge of 2 onto one front",
            "optimal",
            11,
            [
                unit("A1", "attacker", 24.0, 16.0, -90.0, files=3),
                unit("A2", "attacker", 28.5, 16.0, -90.0, files=3),
                B,
            ],
            [],
            {"units": ["A1", "A2"]},
        ),
        (
            "c3-three",
            "combined charge of 3 onto one front",
            "open",
            None,
            [
                unit("A1", "attacker", 22.0, 16.0, -90.0, files=3),
                unit("A2", "attacker", 26.0, 17.0, -90.0, files=3),
                unit("A3", "attacker", 30.0, 16.0, -90.0, files=3),
                B,
            ],
            [],
            {"units": ["A1", "A2", "A3"]},
        ),
        (
            "c4-four",
            "combined charge of 4 two-file units onto one front",
            "open",
            None,
            [
                unit("A1", "attacker", 21.0, 16.0, -90.0, files=2),
                unit("A2", "attacker", 24.0, 17.0, -90.0, files=2),
                unit("A3", "attacker", 27.0, 16.0, -90.0, files=2),
                unit("A4", "attacker", 30.0, 17.0, -90.0, files=2),
                B,
            ],
            [],
            {"units": ["A1", "A2", "A3", "A4"]},
        ),
        (
            "c4-mixed-facings",
            "combined charge of 4 from front and both flanks",
            "open",
            None,
            [
                unit("A1", "attacker", 25.5, 16.0, -90.0, files=3),
                unit("A2", "attacker", 38.0, 12.0, 180.0, files=3),
                unit("A3", "attacker", 18.0, 6.0, 0.0, files=3),
                unit("A4", "attacker", 29.0, 24.0, -90.0, files=2),
                B,
            ],
            [],
            {"units": ["A1", "A2", "A3", "A4"]},
        ),
        (
            "b1-blocked-path",
            "left flank walled off, B first straight ahead: Blocked Path to its front",
            "optimal",
            10,
            [unit("A", "attacker", bp[0], bp[1], -150.0), B],
            [[(30, 3), (36, 3), (36, 10.2), (30, 10.2)]],
            {"unit": "A"},
        ),
        (
            "x1-wall",
            "impassable wall across the way: no Snaking Forward Move",
            "refused",
            None,
            [unit("A", "attacker", 14.0, 30.0, -90.0), unit("B", "defender", 19.0, 10.0, 90.0)],
            [[(2.0, 20.0), (46.0, 20.0), (46.0, 22.0), (2.0, 22.0)]],
            {"unit": "A"},
        ),
        (
            "x2-short-roll",
            "Charge Range 5 against 6 inches: the charge fails",
            "infeasible",
            None,
            [unit("A", "attacker", 25.08, 16.0, -90.0), B],
            [],
            {"unit": "A", "roll": 5},
        ),
    ]


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    return repr(float(v)) if isinstance(v, float) else str(v)


def wheel_layouts():
    """The rank-and-file-wheel-v1 suite: WHFB 6e and TOW one-wheel charges (issue 30)."""
    c = unit("C", "defender", 30.0, 10.0, 90.0)
    far_b = unit("B", "defender", 40.0, 40.0, 90.0)
    side_b = unit("B", "defender", 30.0, 20.0, 180.0)
    rock = [[(18, 11.5), (22, 11.5), (22, 13), (18, 13)]]

    def a(x, y, facing=-90.0, movement=4, **extra):
        return unit("A", "attacker", x, y, facing, profile={"movement": movement}, **extra)

    def row(name, note, known, contacts, units, terrain=(), ruleset="whfb-6e", **action):
        return (name, note, known, contacts, units, list(terrain), {"unit": "A", **action}, ruleset)

    straddle = a(31.0, 13.2, 180.0, files=4)
    return [
        row("w1-6e-head-on", "6e: straight in, no wheel", "optimal", 10, [a(25.08, 16.0), B]),
        row(
            "w2-6e-wheel-whole-front",
            "6e: 3 inches off to the side, a wheel brings the whole front",
            "optimal",
            10,
            [a(28.08, 16.0), B],
        ),
        row(
            "w3-6e-wheel-costs-reach",
            "6e: Move 3, the wheel would cost the reach: straight in",
            "optimal",
            4,
            [a(28.08, 16.0, movement=3), B],
        ),
        row(
            "w4-6e-arc-too-long",
            "6e: the whole-front wheel's arc is too long (its chord fits)",
            "optimal",
            10,
            [a(20.0, 20.0, movement=6), side_b],
        ),
        row(
            "w5-6e-chord-fits",
            "6e with wheel-chord: the whole-front wheel fits",
            "optimal",
            10,
            [a(20.0, 20.0, movement=6), side_b],
            ruleset=["whfb-6e", "wheel-chord"],
        ),
        row(
            "w6-6e-past-terrain",
            "6e: a rock straight ahead, wheel past it",
            "optimal",
            8,
            [a(21.0, 17.0), B],
            rock,
        ),
        row(
            "w7-6e-straddle",
            "6e: A straddles B's front-left arc line, most of it in the flank arc",
            "optimal",
            4,
            [straddle, B],
        ),
        row(
            "w8-6e-redirect",
            "6e: B fled out of reach, the charge is redirected to C",
            "optimal",
            10,
            [a(25.08, 16.0), far_b, c],
            fled=True,
        ),
        row(
            "w9-6e-failed",
            "6e: 20 inches away with Move 4: the failed charge moves 4",
            "infeasible",
            None,
            [a(25.08, 30.0), B],
        ),
        row(
            "t1-tow-head-on",
            "tow: straight in, Charge Range 8",
            "optimal",
            10,
            [a(25.08, 16.0), B],
            ruleset="tow",
            roll=8,
        ),
        row(
            "t2-tow-wheel-whole-front",
            "tow: off to the side, a wheel brings the whole front",
            "optimal",
            10,
            [a(28.08, 16.0), B],
            ruleset="tow",
            roll=8,
        ),
        row(
            "t3-tow-straddle",
            "tow: the same straddle, most of the front rank in the front arc",
            "optimal",
            8,
            [straddle, B],
            ruleset="tow",
            roll=9,
        ),
        row(
            "t4-tow-redirect",
            "tow: B fled, redirected to C",
            "optimal",
            10,
            [a(25.08, 16.0), far_b, c],
            ruleset="tow",
            fled=True,
            roll=8,
        ),
        row(
            "t5-tow-short",
            "tow: Charge Range 5 against 6 inches",
            "infeasible",
            None,
            [a(25.08, 16.0), B],
            ruleset="tow",
            roll=5,
        ),
    ]


MANIFEST_NOTES = {
    "x1-wall": (
        "impassable wall across the whole board: no line of sight, so no charge can be declared "
        "(refused, exit 2)"
    ),
    "w3-6e-wheel-costs-reach": (
        "6e: Move 3: straight in, 2 and 2; more needs a 6.024-inch one-wheel path (proven over "
        "every path)"
    ),
    "w4-6e-arc-too-long": (
        "6e: a 79.03-degree wheel (6.789 inches of arc) and 5.173 forward, 11.961 of 12, closes "
        "the door on the whole front: 5 and 5"
    ),
    "w6-6e-past-terrain": (
        "6e: a rock straight ahead, wheel past it: 4 and 4; more needs 8.175 inches of an 8-inch "
        "move (proven over every path)"
    ),
    "w7-6e-straddle": (
        "6e: A straddles B's front-left arc line, most of it in the flank arc: no one-wheel path "
        "brings more than 2 and 2 onto B's left"
    ),
    "t3-tow-straddle": (
        "tow: the same straddle, most of the front rank in the front arc: no one-wheel path "
        "brings more than 4 and 4"
    ),
}
"""What is known about a layout, where it differs from the name written into its file (the
file and its hash never change; what is proven does, issue 41)."""


def write(folder: Path = HERE, suite: str = "rank-and-file-v1", rows=None) -> None:
    manifest = [f'suite = "{suite}"', "version = 1", ""]
    for name, note, known, contacts, units, terrain, action, *ruleset in rows or layouts():
        lines = [
            f'name = "{note}"',
            f"ruleset = {toml_value(ruleset[0] if ruleset else 't9a-2022')}",
            "board = { width = 48.0, height = 48.0 }",
            "",
        ]
        for i, path in enumerate(terrain):
            lines += [
                "[[terrain]]",
                f'id = "rock-{i}"',
                'kind = "impassable"',
                f"path = {toml_value(path)}",
                "",
            ]
        for u in units:
            lines += ["[[units]]"] + [f"{k} = {toml_value(v)}" for k, v in u.items()] + [""]
        lines += ["[action]", 'kind = "charge"', 'targets = ["B"]'] + [
            f"{k} = {toml_value(v)}" for k, v in action.items()
        ]
        path = folder / f"{name}.toml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        manifest += [
            "[[layouts]]",
            f'file = "{name}.toml"',
            f'sha256 = "{digest}"',
            f'known = "{known}"',
        ]
        if contacts is not None:
            manifest.append(f"base_contact = {contacts}")
        manifest += [f'note = "{MANIFEST_NOTES.get(name, note)}"', ""]
    (folder / "suite.toml").write_text("\n".join(manifest), encoding="utf-8")


if __name__ == "__main__":
    write()
    wheel = HERE.parent / "rank-and-file-wheel-v1"
    wheel.mkdir(exist_ok=True)
    write(wheel, "rank-and-file-wheel-v1", wheel_layouts())
