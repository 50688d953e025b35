"""Writes the assault-4e-v1 suite (40k-assault-4e charges and a reinforcement move) and its
manifest. Run `python benchmarks/assault-4e-v1/generate.py`; a changed layout needs a new suite
version (the manifest pins each file's SHA-256)."""

from __future__ import annotations

import hashlib
from pathlib import Path

HERE = Path(__file__).resolve().parent


def unit(uid: str, owner: str, models: list[tuple[float, float]], extra: str = "") -> str:
    """One [[units]] table of 32mm infantry."""
    rows = "\n".join(
        f'  {{ id = "{uid}{i + 1}", x = {x:g}, y = {y:g} }},' for i, (x, y) in enumerate(models)
    )
    return (
        f'[[units]]\nid = "{uid}"\nowner = "{owner}"\nkeywords = ["INFANTRY"]\nbase = "32mm"\n'
        f"{extra}models = [\n{rows}\n]\n"
    )


def block(bid: str, kind: str, pts: list[tuple[float, float]], extra: str = "") -> str:
    """One [[terrain]] table."""
    path = ", ".join(f"[{x:g}, {y:g}]" for x, y in pts)
    return f'[[terrain]]\nid = "{bid}"\nkind = "{kind}"\npath = [{path}]\n{extra}'


def scenario(name: str, note: str, body: list[str], action: str) -> str:
    """A whole scenario file."""
    head = (
        f'# {note}\nformat = 1\nname = {name!r}\nruleset = "40k-assault-4e"\n\n'
        "[board]\nwidth = 44.0\nheight = 30.0\n\n"
    )
    return head.replace("'", '"') + "\n".join(body) + "\n" + action


def two_ranks(n: int, name: str, y0: float) -> tuple[str, str, list[str], str]:
    """2n marines in two ranks 1.6" apart charging n orks 3.74" ahead (edge to edge)."""
    return (
        name,
        f"Two ranks of {n}, 3.74 inches from {n} orks.",
        [
            unit("A", "attacker", [(x, y0 + 1.6 * i) for x in (10, 8.4) for i in range(n)]),
            unit("B", "defender", [(15, y0 + 1.6 * i) for i in range(n)]),
        ],
        CHARGE,
    )


CHARGE = '[action]\nkind = "charge"\nunit = "A"\ntargets = ["B"]\n'
LAYOUTS = {
    "a1-first-forced.toml": (
        "Forced first model",
        "A4 is nearest (4.22 inches centre to centre): it must contact B2 first",
        [
            unit("A", "attacker", [(10, 15), (8.4, 15), (8.4, 16.6), (10, 16.6), (6.8, 15)]),
            unit("B", "defender", [(14.2, 14), (14.2, 17), (15.6, 15.5)]),
        ],
        CHARGE,
    ),
    "a2-gap-choke.toml": (
        "Charge through a gap",
        'Rocks leave a 1.3" gap (a 32mm base is 1.26"): every model files through it.',
        [
            block("north", "impassable", [(12, 15.65), (13, 15.65), (13, 30), (12, 30)]),
            block("south", "impassable", [(12, 0), (13, 0), (13, 14.35), (12, 14.35)]),
            unit("A", "attacker", [(10.4, 15), (8.8, 15), (10.4, 16.6), (8.8, 13.4)]),
            unit("B", "defender", [(15.2, 15), (15.2, 16.6), (15.2, 13.4)]),
        ],
        CHARGE,
    ),
    "a3-reinforce-wall.toml": (
        "Reinforcement through a wall",
        "A1 and A2 are locked with B; A3 and A4 pile in straight through the wall.",
        [
            block("wall", "wall", [(11.7, 12), (11.7, 17)], "thickness = 0.2\nheight = 3.0\n"),
            unit(
                "A",
                "attacker",
                [(12.74, 11.2), (12.74, 9.6), (10.5, 13.0), (10.5, 14.6)],
                'locked_with = ["B"]\n',
            ),
            unit("B", "defender", [(14, 11.2), (14, 9.6), (14, 13), (14, 14.6)]),
        ],
        '[action]\nkind = "pile-in"\nunit = "A"\n',
    ),
    "a4-ten.toml": two_ranks(5, "Ten marines charge five", 8.0),
    "a5-twenty.toml": two_ranks(10, "Twenty marines charge ten", 6.0),
}

HAND_WRITTEN = {
    "t1-trapped-against-rocks.toml": (
        "open",
        "Not Trapped!: the marines drop under D1's 1 inch and run along the rocks (chance 0)",
    ),
    "e1-just-escapes.toml": ("open", "A fall back that just escapes on 7 (trapped on 8)"),
}
"""Fall back layouts written by hand (their files are kept as they are): known and note."""


def _entry(file: str, text: str, known: str, note: str) -> list[str]:
    """One layout's lines of suite.toml."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return [
        "[[layouts]]",
        f'file = "{file}"',
        f'sha256 = "{digest}"',
        f'known = "{known}"',
        f'note = "{note.replace(chr(34), chr(39))}"',
        "",
    ]


def main() -> None:
    """Write every generated layout, then suite.toml with the hand-written ones too."""
    manifest = ['suite = "assault-4e-v1"', "version = 1", ""]
    for file, (name, note, body, action) in LAYOUTS.items():
        text = scenario(name, note, body, action)
        (HERE / file).write_text(text, encoding="utf-8")
        manifest += _entry(file, text, "open", note)
    for file, (known, note) in HAND_WRITTEN.items():
        manifest += _entry(file, (HERE / file).read_text(encoding="utf-8"), known, note)
    (HERE / "suite.toml").write_text("\n".join(manifest), encoding="utf-8")


if __name__ == "__main__":
    main()
