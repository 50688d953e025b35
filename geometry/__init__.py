"""chargeopt.geometry: exact shapes, distances, legal paths, start-layout checks and the
independent rules checker (`checker/`). May import chargeopt.models only; the map is
geometry/README.md."""

from chargeopt.geometry.checker import VIOLATION_KINDS, check_placement, summarise
from chargeopt.geometry.config_space import free_space
from chargeopt.geometry.fight import fight_eligibility
from chargeopt.geometry.footprints import (
    OVAL_ERROR_IN,
    Footprint,
    edge_distance,
    overlap_depth,
    vertical_separation,
)
from chargeopt.geometry.obstacles import MoverProfile, climb_in, mover_profile
from chargeopt.geometry.paths import (
    ObstacleMap,
    PathError,
    PathField,
    legal_move_length,
    obstacle_map,
)
from chargeopt.geometry.start_layout import check_start_layout
from chargeopt.geometry.terrain import Battlefield, TerrainPiece, terrain_shape

__all__ = [
    "OVAL_ERROR_IN",
    "VIOLATION_KINDS",
    "Battlefield",
    "Footprint",
    "MoverProfile",
    "ObstacleMap",
    "PathError",
    "PathField",
    "TerrainPiece",
    "check_placement",
    "check_start_layout",
    "climb_in",
    "edge_distance",
    "fight_eligibility",
    "free_space",
    "legal_move_length",
    "mover_profile",
    "obstacle_map",
    "overlap_depth",
    "summarise",
    "terrain_shape",
    "vertical_separation",
]
