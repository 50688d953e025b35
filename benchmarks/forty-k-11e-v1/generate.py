"""Writes the forty-k-11e-v1 suite (40k-11e charges, pile in, the three consolidation modes and
both heroic intervention modes) and its manifest. Run
`python benchmarks/forty-k-11e-v1/generate.py`; a changed layout needs a new suite version (the
manifest pins each file's SHA-256). Every known value is worked by hand in README.md."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
SUITE = "forty-k-11e-v1"
R32_IN = 32 / 25.4 / 2
"""A 32mm base's radius (0.630")."""
STEP_IN = 1.9
"""Centre spacing of a rank of 32mm bases (0.64" between bases)."""


def unit(
    uid: str,
    owner: str,
    models: list[tuple[float, float]],
    *,
    keywords: str = '"INFANTRY"',
    base: str = "32mm",
    extra: str = "",
) -> str:
    """One [[units]] table."""
    rows = "\n".join(
        f'  {{ id = "{uid}{i + 1}", x = {x:.3f}, y = {y:.3f} }},' for i, (x, y) in enumerate(models)
    )
    return (
        f'[[units]]\nid = "{uid}"\nowner = "{owner}"\nkeywords = [{keywords}]\nbase = "{base}"\n'
        f"{extra}models = [\n{rows}\n]\n"
    )


def area(
    tid: str,
    kind: str,
    corners: tuple[float, float, float, float],
    height_in: float,
    *,
    walls: str = "",
    enclosed: bool = False,
) -> str:
    """One rectangular terrain area (dense, light or exposed): x0, y0, x1, y1, its height,
    its walls (a TOML list of lines) and whether it is a closed solid block."""
    x0, y0, x1, y1 = corners
    path = f"[[{x0:g}, {y0:g}], [{x1:g}, {y0:g}], [{x1:g}, {y1:g}], [{x0:g}, {y1:g}]]"
    extra = (f"walls = {walls}\n" if walls else "") + ("enclosed = true\n" if enclosed else "")
    return (
        f'[[terrain]]\nid = "{tid}"\nkind = "{kind}"\npath = {path}\n'
        f"height_in = {height_in:g}\n{extra}"
    )


def row(x0: float, y: float, n: int, step: float = STEP_IN) -> list[tuple[float, float]]:
    """n models in a rank, centres `step` apart, from x0 to the right."""
    return [(x0 + step * i, y) for i in range(n)]


def action(kind: str, *lines: str) -> str:
    """The [action] table of the acting unit A."""
    body = "".join(f"{line}\n" for line in lines)
    return f'[action]\nkind = "{kind}"\nunit = "A"\n{body}'


@dataclass(frozen=True)
class Layout:
    """One layout: its title, the hand-worked known value (README.md) and its tables."""

    name: str
    known: str
    note: str
    body: list[str]
    act: str
    value: dict[str, int] = field(default_factory=dict)
    board: tuple[float, float] = (44.0, 30.0)


def scenario(lay: Layout) -> str:
    """A whole scenario file."""
    head = (
        f'format = 1\nname = {lay.name!r}\nruleset = "40k-11e"\n\n'
        f"[board]\nwidth = {lay.board[0]:g}\nheight = {lay.board[1]:g}\n\n"
    ).replace("'", '"')
    return head + "\n".join(lay.body) + "\n" + lay.act


ENEMY_Y = 16.0
"""The enemy line's centres in the charge layouts: within 1" of it is y >= 13.740 (2.26"
from its centres), engaged is y >= 12.740 (3.26"), base contact y = 14.740 (1.26")."""

LAYOUTS: dict[str, Layout] = {
    "c01-open-one.toml": Layout(
        "forty-k-11e-v1 c01: one marine charges one marine on open ground, roll 5",
        "optimal",
        "gap 4.74 in: base contact on 5 (4.74 <= 5)",
        [unit("A", "attacker", [(10.0, 10.0)]), unit("B", "defender", [(10.0, ENEMY_Y)])],
        action("charge", 'targets = ["B"]', "roll = 5"),
        {"within_1": 1, "engaged": 1},
    ),
    "c02-open-ten.toml": Layout(
        "forty-k-11e-v1 c02: ten marines in two ranks charge five on open ground, roll 5",
        "optimal",
        "front rank needs 3.74 in to come within 1 in, the rear rank 5.64 > 5: 5 within 1 in; "
        "the rear rank needs 4.64 <= 5 to engage: 10 engaged",
        [
            unit("A", "attacker", row(10.0, 10.0, 5) + row(10.0, 8.1, 5)),
            unit("B", "defender", row(10.0, ENEMY_Y, 5)),
        ],
        action("charge", 'targets = ["B"]', "roll = 5"),
        {"within_1": 5, "engaged": 10},
    ),
    "c03-ruin-footprint.toml": Layout(
        "forty-k-11e-v1 c03: ten marines charge five inside a ruin, through its wall, roll 6",
        "optimal",
        "no base ends in the wall (y 13.245 to 14.755 for a centre): the front rank ends behind "
        "it within 1 in (4.755 in); the rear rank would engage from y 13.74 but the wall pushes "
        "it to 14.755 (6.655 in > 6) or back to 13.245 (3.755 in from B): 5 and 5",
        [
            area("ruin", "dense", (8.0, 13.875, 20.0, 22.0), 5.0, walls="[[[8, 14], [20, 14]]]"),
            unit("A", "attacker", row(10.0, 10.0, 5) + row(10.0, 8.1, 5)),
            unit("B", "defender", row(10.0, 17.0, 5)),
        ],
        action("charge", 'targets = ["B"]', "roll = 6"),
        {"within_1": 5, "engaged": 5},
    ),
    "c04-dense-monster-around.toml": Layout(
        "forty-k-11e-v1 c04: a monster (60mm) goes around a 5 in dense block, roll 11",
        "optimal",
        "a MONSTER may not cross dense terrain over 2 in: around the block engaged costs "
        "10.31 in <= 11, within 1 in 11.31 in > 11; over it 13.19 in",
        [
            area("container", "dense", (8.0, 12.0, 16.0, 14.0), 5.0, enclosed=True),
            unit("A", "attacker", [(12.0, 9.5)], keywords='"MONSTER"', base="60mm"),
            unit("B", "defender", [(12.0, 16.5)]),
        ],
        action("charge", 'targets = ["B"]', "roll = 11"),
        {"within_1": 0, "engaged": 1},
    ),
    "c05-dense-infantry-through.toml": Layout(
        "forty-k-11e-v1 c05: the same charge by INFANTRY (60mm) straight through, roll 6",
        "optimal",
        "INFANTRY cross dense terrain: straight through to just past the block is 5.681 in "
        "<= 6, within 1 in of the target",
        [
            area("container", "dense", (8.0, 12.0, 16.0, 14.0), 5.0, enclosed=True),
            unit("A", "attacker", [(12.0, 9.5)], base="60mm"),
            unit("B", "defender", [(12.0, 16.5)]),
        ],
        action("charge", 'targets = ["B"]', "roll = 6"),
        {"within_1": 1, "engaged": 1},
    ),
    "c06-choice-after-roll.toml": Layout(
        "forty-k-11e-v1 c06: the targets chosen after a roll of 7 (B, D; not C at 7.5 in)",
        "optimal",
        "C is 7.5 in away: not a target on a 7 although A1 could end engaged with it; "
        "{B}, {D} and {B, D} each put A1 within 1 in",
        [
            unit("A", "attacker", [(10.0, 10.0)]),
            unit("B", "defender", [(10.0 + 2 * R32_IN + 5.0, 10.0)]),
            unit("C", "defender", [(10.0, 10.0 + 2 * R32_IN + 7.5)]),
            unit("D", "defender", [(10.0 + 2 * R32_IN + 5.0, 13.0)]),
        ],
        action("charge", "roll = 7"),
        {"within_1": 1, "engaged": 1},
    ),
    "c07-horde-twenty.toml": Layout(
        "forty-k-11e-v1 c07: twenty boyz in four ranks charge five, roll 5",
        "optimal",
        "ranks 1.5 in apart: only the first rank comes within 1 in (3.74 in; the second needs "
        "5.24), the first two ranks engage (the third needs 5.74): 5 within 1 in, 10 engaged",
        [
            unit(
                "A",
                "attacker",
                [m for y in (10.0, 8.5, 7.0, 5.5) for m in row(10.0, y, 5)],
            ),
            unit("B", "defender", row(10.0, ENEMY_Y, 5)),
        ],
        action("charge", 'targets = ["B"]', "roll = 5"),
        {"within_1": 5, "engaged": 10},
    ),
    "c08-within-1-not-contact.toml": Layout(
        "forty-k-11e-v1 c08: on a 4, A2 comes within 1 in of B but never into base contact",
        "optimal",
        "B is 3.0 in from A1 (a target on a 4); A2 is 4.74 in from B: within 1 in costs 3.74 in "
        "<= 4, base contact 4.74 in > 4 (and is no duty in 11th): 2 and 2",
        [
            unit("A", "attacker", [(10.0, 11.74), (11.9, 10.0)]),
            unit("B", "defender", row(8.1, ENEMY_Y, 4)),
        ],
        action("charge", 'targets = ["B"]', "roll = 4"),
        {"within_1": 2, "engaged": 2},
    ),
    "c09-nine-inch-coherency.toml": Layout(
        "forty-k-11e-v1 c09: ten marines charge B and C 22 in apart: the 9 in coherency forbids it",
        "infeasible",
        "engaging B puts a centre at x >= 27.74, engaging C one at x <= 12.26: those bases are "
        "14.22 in apart > 9 in (the 2 in chain alone would allow it)",
        [
            unit("A", "attacker", row(16.2, 10.0, 5) + row(16.2, 11.9, 5)),
            unit("B", "defender", [(31.0, 10.0)]),
            unit("C", "defender", [(9.0, 10.0)]),
        ],
        action("charge", 'targets = ["B", "C"]', "roll = 12"),
    ),
    "p01-pile-in-frozen.toml": Layout(
        "forty-k-11e-v1 p01: a pile in: A1 and A2 in base contact stay, A3 to A5 move 3 in",
        "optimal",
        "A1, A2 may not move; A3 (1.24 in) and A4 (3.24 - 3 = 0.24 in) end engaged; A5 needs "
        "3.24 in > 3 to engage: 4 engaged",
        [
            unit(
                "A",
                "attacker",
                [(10.0, 14.74), (11.9, 14.74), (13.8, 13.5), (15.7, 11.5), (17.6, 9.5)],
            ),
            unit("B", "defender", row(10.0, ENEMY_Y, 5)),
        ],
        action("pile-in", "charged = true"),
        {"engaged_closest": 4},
    ),
    "o01-consolidate-ongoing.toml": Layout(
        "forty-k-11e-v1 o01: an ongoing consolidation: A1 in base contact stays",
        "optimal",
        "engaged, so ongoing: A1 may not move; A2 is engaged, A3 needs 1.0 in to engage; A4 "
        "needs 3.5 in > 3: 3 engaged",
        [
            unit("A", "attacker", [(10.0, 14.74), (11.9, 13.24), (13.8, 11.74), (15.7, 9.24)]),
            unit("B", "defender", row(10.0, ENEMY_Y, 4)),
        ],
        action("consolidate"),
        {"engaged_closest": 3},
    ),
    "o02-consolidate-engaging.toml": Layout(
        "forty-k-11e-v1 o02: an engaging consolidation: B is 2.5 in away, C 4 in",
        "optimal",
        "not engaged, B within 3 in: engaging mode (C beyond 3 in is no choice); each model "
        "needs 0.5 in to engage B: 3 engaged",
        [
            unit("A", "attacker", row(10.0, 10.0, 3)),
            unit("B", "defender", row(10.0, 10.0 + 2 * R32_IN + 2.5, 3)),
            unit("C", "defender", row(10.0, 10.0 - 2 * R32_IN - 4.0, 3)),
        ],
        action("consolidate"),
        {"engaged_closest": 3},
    ),
    "o03-consolidate-objective.toml": Layout(
        "forty-k-11e-v1 o03: an objective consolidation: no enemy within 3 in, obj-1 2 in away",
        "optimal",
        "no enemy unit within 3 in (B is 6 in away), obj-1 2.08 in away: objective mode; all 3 "
        "can touch the marker (A1 and A3 2.75 in, 52.8 degrees apart around it)",
        [
            unit("A", "attacker", row(10.0, 10.0, 3)),
            unit("B", "defender", row(10.0, 10.0 - 2 * R32_IN - 6.0, 3)),
            '[[objectives]]\nid = "obj-1"\nx = 11.9\ny = 13.5\n',
        ],
        action("consolidate"),
        {"on_objective": 3},
    ),
    "h01-heroic-leap-to-defend.toml": Layout(
        "forty-k-11e-v1 h01: Leap to Defend against C, which charged (D did not), roll 7",
        "optimal",
        "only C made a charge move: 4.74 in to base contact <= 7, so 5 within 1 in; D stays "
        "beyond 2 in (its line is behind A)",
        [
            unit("A", "defender", row(10.0, 10.0, 5)),
            unit("C", "attacker", row(10.0, ENEMY_Y, 5)),
            unit("D", "attacker", row(10.0, 4.0, 5)),
        ],
        action(
            "heroic-intervention",
            'heroic_mode = "leap-to-defend"',
            'charged_units = ["C"]',
            "roll = 7",
        ),
        {"within_1": 5, "engaged": 5},
    ),
    "h02-heroic-into-the-fray.toml": Layout(
        "forty-k-11e-v1 h02: Into the Fray on a 9, capped at 6: the rear rank only engages",
        "optimal",
        "capped at 6: the front rank needs 4.5 in to come within 1 in, the rear 6.4 > 6 (it "
        "would on the 9), the rear engages at 5.4: 5 within 1 in, 10 engaged; F (6.5 in) is "
        "no target",
        [
            unit("A", "defender", row(10.0, 14.0, 5) + row(10.0, 12.1, 5)),
            unit("E", "attacker", row(10.0, 14.0 + 2 * R32_IN + 5.5, 5)),
            unit("F", "attacker", row(10.0, 12.1 - 2 * R32_IN - 6.5, 5)),
        ],
        action("heroic-intervention", 'heroic_mode = "into-the-fray"', "roll = 9"),
        {"within_1": 5, "engaged": 10},
    ),
}


def _entry(file: str, text: str, lay: Layout) -> list[str]:
    """One layout's lines of suite.toml."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    lines = ["[[layouts]]", f'file = "{file}"', f'sha256 = "{digest}"', f'known = "{lay.known}"']
    if lay.value:
        terms = ", ".join(f"{k} = {v}" for k, v in lay.value.items())
        lines.append(f"value = {{ {terms} }}")
    return [*lines, f'note = "{lay.note}"', ""]


def main() -> None:
    """Write every layout, then suite.toml."""
    manifest = [f'suite = "{SUITE}"', "version = 1", ""]
    for file, lay in LAYOUTS.items():
        text = scenario(lay)
        (HERE / file).write_text(text, encoding="utf-8")
        manifest += _entry(file, text, lay)
    (HERE / "suite.toml").write_text("\n".join(manifest), encoding="utf-8")


if __name__ == "__main__":
    main()
