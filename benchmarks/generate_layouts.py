"""Write the seeded benchmark suites: speed-v1 (charges of 10, 20 and 30 marines, in the open
and past ruin walls) and scaling-v1 (10, 20, 30 and 40 marines: hordes), as TOML scenarios in
benchmarks/layouts/SUITE/.

The suite is versioned and its files are committed, so timings stay comparable across
commits. Each file comes from its own seeded numpy generator (seeded by its size, terrain and
seed number), so the output is the same byte for byte on every run. A changed generator makes
a new suite (speed-v2); it must not rewrite speed-v1, and it refuses to unless --force is
given.

    python benchmarks/generate_layouts.py [--suite speed-v1|scaling-v1] [--out DIR] [--force]
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from chargeopt.models import mm_to_in

LAYOUTS_DIR = Path(__file__).resolve().parent / "layouts"
BOARD_IN = (60.0, 44.0)
TERRAINS = ("open", "walls")


@dataclass(frozen=True)
class SuiteSpec:
    """A generated suite: its name, master seed, and the sizes, terrains and seeds it spans."""

    name: str
    seed: int
    sizes: tuple[int, ...]
    terrains: tuple[str, ...]
    seeds: tuple[int, ...]


SPEED = SuiteSpec("speed-v1", 20250101, (10, 20, 30), TERRAINS, (1, 2, 3))
SCALING = SuiteSpec("scaling-v1", 20261122, (10, 20, 30, 40), TERRAINS, (1, 2))
SPECS = {spec.name: spec for spec in (SPEED, SCALING)}
SUITE = SPEED.name
DEFAULT_OUT = LAYOUTS_DIR / SUITE
ROLL_BY_SEED = {1: 7, 2: 8, 3: 9}
ATTACKER_BASE = "32mm"
ENEMY_BASES = ("25mm", "32mm")
JITTER_IN = 0.08
WALL_THICKNESS_IN = 0.25
WALL_HEIGHT_IN = 5.0
WALL_CLEARANCE_IN = 0.15
MAX_WALL_TRIES = 200

Point = tuple[float, float]


@dataclass(frozen=True)
class Layout:
    """One generated charge: who stands where, the walls, the roll, and what it is called."""

    stem: str
    size: int
    terrain: str
    seed: int
    roll: int
    attackers: list[Point]
    enemy_base: str
    enemies: list[Point]
    walls: list[list[Point]]
    gap_in: float
    suite: str = SUITE

    @property
    def name(self) -> str:
        """A name that says what the layout is."""
        where = "in the open" if not self.walls else f"past {len(self.walls)} ruin walls"
        return (
            f"{self.suite} {self.stem}: {self.size} marines (32mm) charge {len(self.enemies)} "
            f"enemies ({self.enemy_base}) {self.gap_in:.1f} in away {where}, roll {self.roll}"
        )


def _round(value: float) -> float:
    """Two decimals: what the file holds, so every check runs on the written numbers."""
    return round(float(value), 2)


def diameter_in(base: str) -> float:
    """The diameter in inches of a round base written like "32mm"."""
    return mm_to_in(float(base.removesuffix("mm")))


def formation(
    rng: np.random.Generator,
    count: int,
    diameter: float,
    front_x: float,
    centre_y: float,
    away: float,
) -> list[Point]:
    """A unit in columns of 5-10 models, every other column staggered by half a step, each
    base jittered a little. Columns go from `front_x` in direction `away` (-1 left, +1 right).
    Steps leave edge gaps of 0.25-0.7 in, so the unit starts in coherency and never overlaps."""
    per_column = int(rng.integers(5, 11))
    row_step = diameter + rng.uniform(0.25, 0.7)
    column_step = diameter + rng.uniform(0.3, 0.7)
    columns = math.ceil(count / per_column)
    points: list[Point] = []
    for column in range(columns):
        rows = min(per_column, count - column * per_column)
        stagger = 0.5 * row_step if column % 2 else 0.0
        for row in range(rows):
            jitter = rng.uniform(-JITTER_IN, JITTER_IN, size=2)
            x = front_x + away * column * column_step + jitter[0]
            y = centre_y + (row - (per_column - 1) / 2) * row_step + stagger + jitter[1]
            points.append((_round(x), _round(y)))
    return points


def segment_distances(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from each point (n x 2) to the segment from a to b."""
    ab = b - a
    t = np.clip(((points - a) @ ab) / max(float(ab @ ab), 1e-12), 0.0, 1.0)
    return np.hypot(*(points - (a + t[:, None] * ab)).T)


def wall_is_clear(path: list[Point], centres: np.ndarray, radii: np.ndarray) -> bool:
    """Whether the wall stays clear of every base (with a margin) and on the board."""
    pts = np.array(path)
    if (pts < 0.5).any() or (pts[:, 0] > BOARD_IN[0] - 0.5).any():
        return False
    if (pts[:, 1] > BOARD_IN[1] - 0.5).any():
        return False
    limit = radii + WALL_THICKNESS_IN / 2 + WALL_CLEARANCE_IN
    return all(
        (segment_distances(centres, pts[i], pts[i + 1]) > limit).all() for i in range(len(pts) - 1)
    )


def gap_wall(
    rng: np.random.Generator, left_x: float, right_x: float, centre_y: float
) -> list[Point]:
    """A straight wall across the gap between the two units, slightly tilted."""
    mid = (left_x + right_x) / 2
    half = rng.uniform(1.5, 3.0)
    y0 = centre_y + rng.uniform(-4.0, 4.0)
    tilt = rng.uniform(-0.3, 0.3)
    return [(_round(mid - tilt), _round(y0 - half)), (_round(mid + tilt), _round(y0 + half))]


def corner_wall(rng: np.random.Generator, box: tuple[float, float, float, float]) -> list[Point]:
    """An L-shaped ruin corner somewhere in `box` (x0, y0, x1, y1), arms 2-5 in long."""
    x = rng.uniform(box[0], box[2])
    y = rng.uniform(box[1], box[3])
    dx = rng.choice([-1.0, 1.0]) * rng.uniform(2.0, 5.0)
    dy = rng.choice([-1.0, 1.0]) * rng.uniform(2.0, 5.0)
    return [(_round(x + dx), _round(y)), (_round(x), _round(y)), (_round(x), _round(y + dy))]


def place_walls(
    rng: np.random.Generator,
    attackers: list[Point],
    enemies: list[Point],
    radii: tuple[float, float],
    gap: tuple[float, float],
) -> list[list[Point]]:
    """One wall in the gap and 1-3 ruin corners around both units, none touching a base."""
    centres = np.array(attackers + enemies)
    base_radii = np.array([radii[0]] * len(attackers) + [radii[1]] * len(enemies))
    lo = centres.min(axis=0) - 3.0
    hi = centres.max(axis=0) + 3.0
    box = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
    centre_y = float(centres[:, 1].mean())
    wanted = 1 + int(rng.integers(1, 4))
    walls: list[list[Point]] = []
    for _ in range(MAX_WALL_TRIES):
        if len(walls) == wanted:
            break
        path = gap_wall(rng, *gap, centre_y) if not walls else corner_wall(rng, box)
        if wall_is_clear(path, centres, base_radii):
            walls.append(path)
    return walls


def make_layout(size: int, terrain: str, seed: int, spec: SuiteSpec = SPEED) -> Layout:
    """The layout for one (size, terrain, seed); the same arguments give the same layout."""
    rng = np.random.default_rng([spec.seed, size, TERRAINS.index(terrain), seed])
    enemy_base = str(rng.choice(ENEMY_BASES))
    enemy_count = int(rng.integers(5, 21))
    r_attacker = diameter_in(ATTACKER_BASE) / 2
    r_enemy = diameter_in(enemy_base) / 2
    gap = rng.uniform(2.5, 6.0)
    front_x = rng.uniform(16.0, 20.0)
    centre_y = BOARD_IN[1] / 2 + rng.uniform(-2.0, 2.0)
    attackers = formation(rng, size, 2 * r_attacker, front_x, centre_y, away=-1.0)
    enemy_x = front_x + r_attacker + gap + r_enemy
    enemy_y = centre_y + rng.uniform(-3.0, 3.0)
    enemies = formation(rng, enemy_count, 2 * r_enemy, enemy_x, enemy_y, away=1.0)
    left = max(x for x, _ in attackers) + r_attacker
    right = min(x for x, _ in enemies) - r_enemy
    walls: list[list[Point]] = []
    if terrain == "walls":
        walls = place_walls(rng, attackers, enemies, (r_attacker, r_enemy), (left, right))
    return Layout(
        stem=f"c{size}-{terrain}-s{seed}",
        size=size,
        terrain=terrain,
        seed=seed,
        roll=ROLL_BY_SEED[seed],
        attackers=attackers,
        enemy_base=enemy_base,
        enemies=enemies,
        walls=walls,
        gap_in=right - left,
        suite=spec.name,
    )


def all_layouts(spec: SuiteSpec = SPEED) -> list[Layout]:
    """Every layout of the suite, in file-name order of size, terrain, seed."""
    return [
        make_layout(n, t, s, spec) for n in spec.sizes for t in spec.terrains for s in spec.seeds
    ]


def _models_toml(prefix: str, points: list[Point]) -> list[str]:
    """The `models = [...]` array of a unit, one inline table a line."""
    rows = [
        f'  {{ id = "{prefix}{i + 1}", x = {x:.2f}, y = {y:.2f} }},'
        for i, (x, y) in enumerate(points)
    ]
    return ["models = [", *rows, "]"]


def to_toml(layout: Layout) -> str:
    """The scenario file's text, in the format of shared/spec/SCENARIO.md."""
    lines = [
        "format = 1",
        f'name = "{layout.name}"',
        'ruleset = "40k-10e"',
        "",
        "[board]",
        f"width = {BOARD_IN[0]:.1f}",
        f"height = {BOARD_IN[1]:.1f}",
    ]
    for i, path in enumerate(layout.walls):
        points = ", ".join(f"[{x:.2f}, {y:.2f}]" for x, y in path)
        lines += [
            "",
            "[[terrain]]",
            f'id = "ruin-{i + 1}"',
            'kind = "wall"',
            f"path = [{points}]",
            f"thickness = {WALL_THICKNESS_IN}",
            f"height = {WALL_HEIGHT_IN}",
        ]
    for uid, owner, base, points in (
        ("A", "attacker", ATTACKER_BASE, layout.attackers),
        ("B", "defender", layout.enemy_base, layout.enemies),
    ):
        lines += [
            "",
            "[[units]]",
            f'id = "{uid}"',
            f'owner = "{owner}"',
            'keywords = ["INFANTRY"]',
            f'base = "{base}"',
            *_models_toml(uid, points),
        ]
    lines += [
        "",
        "[action]",
        'kind = "charge"',
        'unit = "A"',
        'targets = ["B"]',
        f"roll = {layout.roll}",
    ]
    return "\n".join(lines) + "\n"


def suite_markdown(layouts: list[Layout], spec: SuiteSpec = SPEED) -> str:
    """SUITE.md: every file, its size class and what is known about it (all open at first)."""
    lines = [
        f"# {spec.name}: charge {'speed' if spec is SPEED else 'scaling'} suite",
        "",
        "Written by `benchmarks/generate_layouts.py` (seeded; the same bytes on every run). The",
        "files are frozen: a changed generator makes a new suite. Every charging unit is 32mm",
        "INFANTRY (it moves through ruin walls but may not end in one); the target is one enemy",
        "unit. `gap` is the edge-to-edge distance between the two front ranks. Edit the `known`",
        "column by hand when a result is proven (for example `optimal, base_contact 7`).",
        "",
        "| file | size class | attackers | enemy | terrain | gap (in) | roll | known |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for lay in layouts:
        terrain = "open" if not lay.walls else f"{len(lay.walls)} ruin walls"
        lines.append(
            f"| {lay.stem}.toml | {lay.size} | {lay.size} × 32mm | "
            f"{len(lay.enemies)} × {lay.enemy_base} | {terrain} | {lay.gap_in:.1f} | "
            f"{lay.roll} | open |"
        )
    return "\n".join(lines) + "\n"


def planned_files(layouts: list[Layout]) -> dict[str, str]:
    """File name -> text for every scenario of the suite."""
    return {f"{lay.stem}.toml": to_toml(lay) for lay in layouts}


def suite_manifest(spec: SuiteSpec, files: dict[str, str]) -> str:
    """suite.toml for `chargeopt bench`: the suite, its version, and each file with its
    SHA-256 and what is known (all open at first; kept by hand afterwards)."""
    version = int(spec.name.rsplit("-v", 1)[1])
    lines = [f'suite = "{spec.name}"', f"version = {version}"]
    for name, text in files.items():
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        lines += ["", "[[layouts]]", f'file = "{name}"', f'sha256 = "{digest}"', 'known = "open"']
    return "\n".join(lines) + "\n"


def write_suite(out: Path, *, force: bool = False, spec: SuiteSpec = SPEED) -> list[Path]:
    """Write the suite into `out` and validate every file as `chargeopt check` would.

    A file that exists with other contents is not overwritten unless `force`; SUITE.md (and
    suite.toml for suites other than speed-v1, whose layout is older) is written only when
    absent, since its `known` column is kept by hand."""
    from chargeopt.solver import load_scenario

    layouts = all_layouts(spec)
    files = planned_files(layouts)
    out.mkdir(parents=True, exist_ok=True)
    changed = [
        n for n, text in files.items() if (out / n).exists() and (out / n).read_text() != text
    ]
    if changed and not force:
        raise SystemExit(
            f"{out}: {len(changed)} files differ from the generator's output "
            f"(first: {changed[0]}); {spec.name} is frozen; write elsewhere or pass --force"
        )
    written = []
    for name, text in files.items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        load_scenario(path)
        written.append(path)
    suite_md = out / "SUITE.md"
    if not suite_md.exists():
        suite_md.write_text(suite_markdown(layouts, spec), encoding="utf-8")
        written.append(suite_md)
    manifest = out / "suite.toml"
    if spec is not SPEED and not manifest.exists():
        manifest.write_text(suite_manifest(spec, files), encoding="utf-8")
        written.append(manifest)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line: write the suite and say what was written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=sorted(SPECS), default=SUITE, help="which suite")
    parser.add_argument("--out", type=Path, default=None, help="target directory")
    parser.add_argument("--force", action="store_true", help="overwrite files that differ")
    args = parser.parse_args(argv)
    out = args.out or LAYOUTS_DIR / args.suite
    written = write_suite(out, force=args.force, spec=SPECS[args.suite])
    print(f"wrote {len(written)} files to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
