"""A charger placed flush against a facing, as a function of one number: the slide `a`, the
distance along the facing (from its left end as the charger sees it) of the charger's
front-left corner. Which slides are blocked, and where each side's models touch, are exact
intervals of `a`, so every count of models in contact is a step function of it whose
breakpoints can be listed."""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import Polygon

from chargeopt.geometry.rank_and_file.contact import contact_faces
from chargeopt.geometry.rank_and_file.frame import BlockPose, Segment, heading_of, model_bases
from chargeopt.models import Block

FAR_IN = 1.0e4
Interval = tuple[float, float]


def flush_pose(charger: Block, facing: Segment, slide_in: float) -> BlockPose:
    """The charger with its front on the facing's line, front-left corner `slide_in` along it."""
    x, y = facing.point_at(slide_in)
    heading = heading_of((-facing.normal[0], -facing.normal[1]))
    return BlockPose(charger.width_in, charger.depth_in, x, y, heading)


def _strip(facing: Segment, near_in: float, far_in: float) -> Polygon:
    n, s, e = facing.normal, facing.point_at(-FAR_IN), facing.point_at(FAR_IN)

    def off(p: tuple[float, float], k: float) -> tuple[float, float]:
        return (p[0] + k * n[0], p[1] + k * n[1])

    return Polygon([off(s, near_in), off(e, near_in), off(e, far_in), off(s, far_in)])


def blocked_slides(
    charger: Block, facing: Segment, obstacle: Polygon, clearance_in: float = 0.0
) -> list[Interval]:
    """The slides at which the flush charger would overlap `obstacle` (open intervals), or,
    with `clearance_in` > 0, come within that distance of it (closed intervals)."""
    strip = _strip(facing, -clearance_in, charger.depth_in + clearance_in)
    part = strip.intersection(obstacle)
    if part.is_empty:
        return []
    pieces = list(part.geoms) if hasattr(part, "geoms") else [part]
    out = []
    for piece in pieces:
        if clearance_in == 0.0 and piece.area <= 1e-12:
            continue
        alongs = [facing.along(p) for p in _coords(piece)]
        if alongs:
            out.append((min(alongs) - charger.width_in - clearance_in, max(alongs) + clearance_in))
    return out


def _coords(geom: object) -> list[tuple[float, float]]:
    if isinstance(geom, Polygon):
        return list(geom.exterior.coords)
    return list(getattr(geom, "coords", []))


def free_slides(lo: float, hi: float, blocked: list[Interval]) -> list[Interval]:
    """[lo, hi] minus the blocked intervals: the slides left, as closed intervals."""
    free = [(lo, hi)] if lo <= hi else []
    for b0, b1 in sorted(blocked):
        nxt = []
        for f0, f1 in free:
            if b1 <= f0 or b0 >= f1:
                nxt.append((f0, f1))
                continue
            if f0 < b0:
                nxt.append((f0, b0))
            if b1 < f1:
                nxt.append((b1, f1))
        free = nxt
    return free


@dataclass(frozen=True)
class FacingBases:
    """Where the models on either side of a facing stand along it: the target's bases on
    the facing, as intervals (over the gaps a model may have two: its face on the facing and
    a gap's face ending at the facing's corner), and the charger's front-rank base width and
    file count."""

    target: tuple[tuple[str, Interval], ...]
    length_in: float
    charger_base_in: float
    charger_files: int
    over_gaps: bool = False
    """Fighting Over Gaps (T9A): a charger model counts only against a target model's span
    (the target's contact faces); otherwise against any point of the facing."""

    def breakpoints(self, charger_ids: int | None = None) -> list[float]:
        """Every slide at which some charger base edge meets a target base edge or an end
        of the facing: the only places where a count of models in contact can change."""
        ends = {0.0, self.length_in}
        for _, (s, e) in self.target:
            ends |= {s, e}
        files = self.charger_files if charger_ids is None else charger_ids
        return sorted({e - k * self.charger_base_in for e in ends for k in range(files + 1)})

    def counts(self, slide_in: float, eps: float = 1e-9) -> tuple[int, int]:
        """(target models, charger models) in contact with the charger flush at `slide_in`;
        bases touching only at a corner count (closed intervals)."""
        w = self.charger_base_in
        front = (slide_in, slide_in + w * self.charger_files)
        target = len(
            {m for m, (s, e) in self.target if s <= front[1] + eps and e >= front[0] - eps}
        )
        spans = [span for _, span in self.target] if self.over_gaps else [(0.0, self.length_in)]
        charger = sum(
            1
            for k in range(self.charger_files)
            if any(
                slide_in + k * w <= e + eps and slide_in + (k + 1) * w >= s - eps for s, e in spans
            )
        )
        return target, charger

    def target_ids(self, slide_in: float, eps: float = 1e-9) -> list[str]:
        front = (slide_in, slide_in + self.charger_base_in * self.charger_files)
        ids = [m for m, (s, e) in self.target if s <= front[1] + eps and e >= front[0] - eps]
        return list(dict.fromkeys(ids))


def facing_bases(
    target: Block, pose: BlockPose, facing: Segment, charger: Block, over_gaps: bool = False
) -> FacingBases:
    """The target's models whose bases lie on `facing` (with `over_gaps`, whose contact faces
    across empty slots do: T9A's Fighting Over Gaps), with their spans along it."""
    on = []
    if over_gaps:
        shapes = [
            (mid, list(face.coords)) for mid, faces in contact_faces(target, pose) for face in faces
        ]
    else:
        shapes = [
            (mid, list(base.exterior.coords)[:-1]) for mid, _, _, base in model_bases(target, pose)
        ]
    ends = (0.0, facing.length_in)
    corner_only: dict[str, Interval] = {}
    for model_id, corners in shapes:
        touching = [p for p in corners if abs(facing.out(p)) <= 1e-9]
        alongs = [facing.along(p) for p in touching]
        if len(touching) >= 2:
            on.append((model_id, (min(alongs), max(alongs))))
        elif over_gaps and touching and any(abs(alongs[0] - e) <= 1e-9 for e in ends):
            corner_only[model_id] = (alongs[0], alongs[0])  # a gap's face ending at a corner
    on += list(corner_only.items())
    on.sort(key=lambda item: item[1])
    return FacingBases(tuple(on), facing.length_in, charger.base.width_in, charger.files, over_gaps)
