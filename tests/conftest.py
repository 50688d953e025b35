"""Shared fixtures: where the example and malformed files live, and the parsed example scenario."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

from chargeopt.models import Scenario, load_scenario


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository checkout the tests run from."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """benchmarks/layouts/examples: the scenarios users see first."""
    return REPO_ROOT / "benchmarks" / "layouts" / "examples"


@pytest.fixture(scope="session")
def malformed_dir() -> Path:
    """tests/data/malformed: one bad input per file, with its expected message beside it."""
    return REPO_ROOT / "tests" / "data" / "malformed"


@pytest.fixture(scope="session")
def example_scenario_path(examples_dir: Path) -> Path:
    """Five marines charge three cultists in the open."""
    return examples_dir / "marines-charge-open.toml"


@pytest.fixture(scope="session")
def example_scenario(example_scenario_path: Path) -> Scenario:
    """The example scenario, validated (structure only; no geometry)."""
    return load_scenario(example_scenario_path)
