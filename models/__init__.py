"""chargeopt.models: immutable, validated data (scenario, rulesets, results).

No solving, no drawing, and no import of the rest of chargeopt."""

from .bases import MM_PER_INCH, HullBase, OvalBase, RoundBase, mm_to_in, parse_base
from .blocks import Block, Profile, RectBase
from .errors import (
    ChargeoptError,
    IneligibleMoveError,
    KeyPathError,
    ScenarioError,
    UnsupportedRuleError,
)
from .loading import (
    STDIN,
    document_name,
    load_result,
    load_scenario,
    parse_document,
    read_document,
    validate_document,
)
from .rank_and_file import (
    BlockAction,
    RankAndFileRules,
    RankAndFileScenario,
    is_rank_and_file,
)
from .result import Placement, Result, ResultAction, Status, Violation
from .rulesets import ASSAULT_4E, EDITIONS, ELEVENTH, KNOWN_RULESETS, RuleSet, resolve_ruleset
from .scenario import (
    Action,
    ActionKind,
    Board,
    GameModel,
    ObjectiveMarker,
    Owner,
    Scenario,
    TableEdge,
    Terrain,
    TerrainKind,
    Unit,
    assault_range_of,
)
from .schema import rank_and_file_schema, result_schema, scenario_schema

__all__ = [
    "ASSAULT_4E",
    "EDITIONS",
    "ELEVENTH",
    "KNOWN_RULESETS",
    "MM_PER_INCH",
    "STDIN",
    "Action",
    "ActionKind",
    "Block",
    "BlockAction",
    "Board",
    "ChargeoptError",
    "GameModel",
    "HullBase",
    "IneligibleMoveError",
    "KeyPathError",
    "ObjectiveMarker",
    "OvalBase",
    "Owner",
    "Placement",
    "Profile",
    "RankAndFileRules",
    "RankAndFileScenario",
    "RectBase",
    "Result",
    "ResultAction",
    "RoundBase",
    "RuleSet",
    "Scenario",
    "ScenarioError",
    "Status",
    "TableEdge",
    "Terrain",
    "TerrainKind",
    "Unit",
    "UnsupportedRuleError",
    "Violation",
    "assault_range_of",
    "document_name",
    "is_rank_and_file",
    "load_result",
    "load_scenario",
    "mm_to_in",
    "parse_base",
    "parse_document",
    "rank_and_file_schema",
    "read_document",
    "resolve_ruleset",
    "result_schema",
    "scenario_schema",
    "validate_document",
]
