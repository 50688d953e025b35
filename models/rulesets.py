"""Rulesets as parameter tables (numbers from shared/spec/RULES.md), and how ids combine.

Readings chosen where the rules are silent (a tournament judge's reading):
- Keywords are compared upper-case; BEAST and BEASTS are the same keyword.
- Distances between models are edge to edge, horizontal; vertical separation is the difference
  of the heights they stand at. Base contact means an edge distance of at most
  `base_contact_tolerance_in`; two bases never overlap (deeper than
  `base_overlap_tolerance_in`, a numerical epsilon: a tolerance measures touching, it never
  lets bases squeeze together).
- Unit mates are not obstacles to each other's paths (they move one by one, in any order).
- Barricades may be crossed; models on opposite sides of one (the segment between their
  centres crosses it) have the barricade engagement range.
- Climbing counts the vertical distance when the height change exceeds `free_climb_in`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import UnsupportedRuleError

RUIN_MOVERS_9E = frozenset({"INFANTRY", "BEAST", "BEASTS", "SWARM"})
RUIN_MOVERS_10E = frozenset({"INFANTRY", "BEAST", "BEASTS"})
UPPER_FLOOR_KEYWORDS = frozenset({"INFANTRY", "BEAST", "BEASTS", "FLY"})
WTC_WALL_KEYWORDS = frozenset(
    {"INFANTRY", "BEAST", "BEASTS", "IMPERIUM PRIMARCH", "BELISARIUS CAWL"}
)
BIG_MODEL_KEYWORDS = frozenset({"MONSTER", "VEHICLE"})
DENSE_MOVERS_11E = frozenset({"INFANTRY", "BEAST", "BEASTS", "SWARM", "MOBILE"})
"""11th edition: models that move horizontally through dense terrain of any height."""
DENSE_CLIMBERS_11E = frozenset({"INFANTRY", "BEAST", "BEASTS", "SWARM"})
"""11th edition: models that also move vertically through dense terrain."""
UPPER_SURFACE_KEYWORDS_11E = frozenset({"INFANTRY", "BEAST", "BEASTS", "SWARM", "FLY", "MONSTER"})
"""11th edition: models that may end a move on a surface above ground level."""
FLY_KEYWORD = "FLY"
CHARACTER_KEYWORD = "CHARACTER"
RULE_KEYWORDS = tuple(
    sorted(
        RUIN_MOVERS_9E
        | UPPER_FLOOR_KEYWORDS
        | WTC_WALL_KEYWORDS
        | BIG_MODEL_KEYWORDS
        | DENSE_MOVERS_11E
        | UPPER_SURFACE_KEYWORDS_11E
        | {CHARACTER_KEYWORD}
    )
)
"""Every keyword some rule reads (the schema offers them; a unit may carry any others)."""


@dataclass(frozen=True)
class RuleSet:
    """Every number and switch a move needs; one instance per combination of ruleset ids."""

    ids: tuple[str, ...]
    edition: str
    engagement_range_in: float = 1.0
    engagement_vertical_in: float = 5.0
    barricade_engagement_range_in: float = 2.0
    coherency_range_in: float = 2.0
    coherency_vertical_in: float = 5.0
    coherency_neighbours_small_unit: int = 1
    coherency_neighbours_large_unit: int = 2
    coherency_large_unit_from: int = 7
    charge_declaration_range_in: float = 12.0
    charge_dice: int = 2
    pile_in_in: float = 3.0
    consolidate_in: float = 3.0
    objective_range_in: float = 3.0
    heroic_intervention_in: float | None = None
    fight_support_range_in: float | None = None
    crosses_friendly_bases: bool = True
    ruin_movers: frozenset[str] = RUIN_MOVERS_10E
    upper_floor_keywords: frozenset[str] = UPPER_FLOOR_KEYWORDS
    free_climb_in: float = 2.0
    base_contact_tolerance_in: float = 0.005
    base_overlap_tolerance_in: float = 1e-6
    wtc_walls: bool = False
    wtc_wall_keywords: frozenset[str] = field(default=WTC_WALL_KEYWORDS)
    assault_range_in: float | None = None
    assault_ranges_in: tuple[float, ...] = ()
    reinforcement_in: float | None = None
    coherency_unit_span_in: float | None = None
    charge_targets_after_roll: bool = False
    dense_movers: frozenset[str] = frozenset()
    dense_climbers: frozenset[str] = frozenset()
    dense_low_height_in: float = 2.0
    solid_enclosed_height_in: float = 3.0
    within_one_in: float | None = None

    def coherency_neighbours(self, unit_size: int) -> int:
        """How many unit mates each model must be within coherency range of."""
        if unit_size <= 1:
            return 0
        if unit_size >= self.coherency_large_unit_from:
            return self.coherency_neighbours_large_unit
        return self.coherency_neighbours_small_unit

    @property
    def terrain_categories(self) -> bool:
        """Whether the edition reads terrain as exposed, light and dense areas (11th)."""
        return self.charge_targets_after_roll

    def moves_through_dense(self, keywords: frozenset[str]) -> bool:
        return bool(keywords & self.dense_movers)

    def moves_through_ruins(self, keywords: frozenset[str]) -> bool:
        return bool(keywords & self.ruin_movers)

    def may_end_on_upper_floor(self, keywords: frozenset[str]) -> bool:
        return bool(keywords & self.upper_floor_keywords)


EDITIONS: dict[str, RuleSet] = {
    "40k-9e": RuleSet(
        ids=("40k-9e",),
        edition="40k-9e",
        coherency_large_unit_from=6,
        heroic_intervention_in=3.0,
        fight_support_range_in=0.5,
        crosses_friendly_bases=False,
        ruin_movers=RUIN_MOVERS_9E,
    ),
    "40k-10e": RuleSet(ids=("40k-10e",), edition="40k-10e"),
    "40k-11e": RuleSet(
        ids=("40k-11e",),
        edition="40k-11e",
        engagement_range_in=2.0,
        engagement_vertical_in=5.0,
        barricade_engagement_range_in=2.0,
        coherency_range_in=2.0,
        coherency_vertical_in=5.0,
        coherency_large_unit_from=10_000,
        coherency_unit_span_in=9.0,
        charge_targets_after_roll=True,
        ruin_movers=DENSE_MOVERS_11E,
        dense_movers=DENSE_MOVERS_11E,
        dense_climbers=DENSE_CLIMBERS_11E,
        upper_floor_keywords=UPPER_SURFACE_KEYWORDS_11E,
        within_one_in=1.0,
    ),
    "40k-assault-4e": RuleSet(
        ids=("40k-assault-4e",),
        edition="40k-assault-4e",
        engagement_range_in=1.0,
        coherency_range_in=2.0,
        coherency_large_unit_from=10_000,
        fight_support_range_in=2.0,
        crosses_friendly_bases=False,
        ruin_movers=frozenset(),
        assault_range_in=6.0,
        assault_ranges_in=(6.0, 9.0, 12.0),
        reinforcement_in=6.0,
    ),
}
ELEVENTH = "40k-11e"
"""The 11th edition (issue 43): `engagement_range_in` 2", coherency 2" of one mate and within
`coherency_unit_span_in` (9") of every mate, targets chosen after the roll among enemy units
within 12" and within the roll, `within_one_in` the charge's within-1" duty, and terrain read
by category (`terrain_categories`: dense, light and exposed areas; `dense_movers` cross dense
terrain, other models only sections `dense_low_height_in` high or less)."""
ASSAULT_4E = "40k-assault-4e"
"""The 4th-edition-style assault phase (seed 001): `engagement_range_in` is the 1" no-go from
enemy units not charged, `coherency_range_in` the 2" chain, `reinforcement_in` the
reinforcement (pile-in) move, `consolidate_in` the consolidation, `fight_support_range_in`
the 2" of a one-attack supporter; walls block every model."""
MODIFIERS: dict[str, tuple[str, ...]] = {"wtc-walls": ("40k-10e",)}
KNOWN_RULESETS = (*EDITIONS, *MODIFIERS)
RANK_AND_FILE_EDITIONS = ("t9a-2022", "whfb-6e", "tow")
"""Rulesets of blocks in ranks and files: a document naming one is read as a
RankAndFileScenario (models/rank_and_file.py), never resolved here."""


def resolve_ruleset(ids: tuple[str, ...]) -> RuleSet:
    """Combine one edition with its modifiers; raise UnsupportedRuleError naming the choices."""
    editions = [i for i in ids if i in EDITIONS]
    unknown = [i for i in ids if i not in EDITIONS and i not in MODIFIERS]
    if unknown and unknown[0] in RANK_AND_FILE_EDITIONS:
        raise UnsupportedRuleError(
            f"{unknown[0]!r} is a rank-and-file ruleset: its units are blocks (files, ranks, a "
            "rectangular base), read from a file as a rank-and-file scenario"
        )
    if unknown:
        raise UnsupportedRuleError(
            f"unsupported ruleset {unknown[0]!r}; choose from {', '.join(KNOWN_RULESETS)}, "
            f"or {', '.join(RANK_AND_FILE_EDITIONS)} for rank-and-file blocks"
        )
    if len(editions) != 1:
        raise UnsupportedRuleError(
            f"name exactly one edition ({', '.join(EDITIONS)}), got {len(editions)}"
        )
    rules = EDITIONS[editions[0]]
    for modifier in (i for i in ids if i in MODIFIERS):
        if rules.edition not in MODIFIERS[modifier]:
            raise UnsupportedRuleError(
                f"{modifier!r} applies on top of {', '.join(MODIFIERS[modifier])}, "
                f"not {rules.edition!r}; write ruleset = "
                f'["{MODIFIERS[modifier][0]}", "{modifier}"] or drop {modifier!r}'
            )
        if modifier == "wtc-walls":
            rules = _replace(rules, wtc_walls=True)
    return _replace(rules, ids=tuple(ids))


def _replace(rules: RuleSet, **changes: object) -> RuleSet:
    from dataclasses import replace

    return replace(rules, **changes)
