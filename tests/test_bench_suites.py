"""The benchmark suites are frozen data: every manifest's hashes match its files, scaling-v1 is
what the generator writes, and every layout loads with a roll and the size its suite says."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from chargeopt.models import ChargeoptError
from chargeopt.solver import load_scenario
from chargeopt.solver.bench.suite import file_sha256, load_suite, size_class

LAYOUTS = Path(__file__).resolve().parent.parent / "benchmarks" / "layouts"
MANIFEST_SUITES = ("quick-v1", "curated-v1", "scaling-v1", "pile-in-v1")


def _generator():
    path = LAYOUTS.parent / "generate_layouts.py"
    spec = importlib.util.spec_from_file_location("bench_generate_for_suites", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", MANIFEST_SUITES)
def test_manifest_hashes_match_and_every_file_is_listed(name: str) -> None:
    """load_suite verifies each SHA-256; no scenario in the folder is left out."""
    suite = load_suite(LAYOUTS / name)
    assert suite.name == name and suite.version == 1 and suite.has_manifest
    on_disk = sorted(p.name for p in (LAYOUTS / name).glob("*.toml") if p.name != "suite.toml")
    assert sorted(lay.file for lay in suite.layouts) == on_disk
    for lay in suite.layouts:
        scenario = load_scenario(lay.path)
        if scenario.action.kind == "charge":
            assert scenario.action.roll is not None, lay.file


def test_suite_sizes_and_known_answers() -> None:
    """quick-v1 has 5 small layouts with known answers; curated-v1 has an infeasible layout
    and four proven optima (k8: seven 25mm bases fit around a 40mm one, never eight);
    pile-in-v1 one optimum found by hand; scaling-v1 spans 10 to 40 models, four layouts
    each."""
    quick = load_suite(LAYOUTS / "quick-v1")
    assert [(lay.known, lay.base_contact) for lay in quick.layouts] == [
        ("optimal", 1),
        ("optimal", 6),
        ("infeasible", None),
        ("optimal", 5),
        ("optimal", 1),
    ]
    curated = load_suite(LAYOUTS / "curated-v1")
    assert sum(lay.known == "infeasible" for lay in curated.layouts) == 1
    assert {lay.file: lay.base_contact for lay in curated.layouts if lay.known == "optimal"} == {
        "k1-ruin-tight-gap.toml": 3,
        "k5-oval-cavalry.toml": 2,
        "k6-hull-vehicle.toml": 1,
        "k8-seven-around-40mm.toml": 7,
    }
    pile_in = load_suite(LAYOUTS / "pile-in-v1")
    assert [(lay.file, lay.base_contact) for lay in pile_in.layouts if lay.known != "open"] == [
        ("p5-line-9e.toml", 2)
    ]
    scaling = load_suite(LAYOUTS / "scaling-v1")
    sizes = [len(load_scenario(lay.path).acting_unit.models) for lay in scaling.layouts]
    assert sorted(set(sizes)) == [10, 20, 30, 40]
    assert all(sizes.count(n) == 4 for n in (10, 20, 30, 40))


def test_scaling_suite_is_the_generators_output() -> None:
    """The committed scaling-v1 files and manifest are byte for byte what the generator writes."""
    gen = _generator()
    files = gen.planned_files(gen.all_layouts(gen.SCALING))
    for name, text in files.items():
        assert (LAYOUTS / "scaling-v1" / name).read_text(encoding="utf-8") == text, name
    manifest = tomllib.loads((LAYOUTS / "scaling-v1" / "suite.toml").read_text("utf-8"))
    planned = tomllib.loads(gen.suite_manifest(gen.SCALING, files))
    assert [e["sha256"] for e in manifest["layouts"]] == [e["sha256"] for e in planned["layouts"]]


def test_changed_layout_is_refused(tmp_path: Path) -> None:
    """A layout whose bytes differ from its manifest hash is refused, naming the file."""
    (tmp_path / "a.toml").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "suite.toml").write_text(
        'suite = "t"\nversion = 1\n[[layouts]]\nfile = "a.toml"\nsha256 = "00"\n',
        encoding="utf-8",
    )
    with pytest.raises(ChargeoptError, match=r"layouts\[0\]\.sha256: a\.toml has changed"):
        load_suite(tmp_path)
    assert load_suite(tmp_path, verify=False).layouts[0].known == "open"


def test_manifest_mistakes_are_named(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text("x = 1\n", encoding="utf-8")
    digest = file_sha256(tmp_path / "a.toml")
    entry = f'[[layouts]]\nfile = "a.toml"\nsha256 = "{digest}"\n'
    (tmp_path / "suite.toml").write_text(f'suite = "t"\n{entry}', encoding="utf-8")
    with pytest.raises(ChargeoptError, match="version: missing"):
        load_suite(tmp_path)
    (tmp_path / "suite.toml").write_text(
        f'suite = "t"\nversion = 1\n{entry}known = "optimal"\n', encoding="utf-8"
    )
    with pytest.raises(ChargeoptError, match="base_contact is given exactly when"):
        load_suite(tmp_path)


def test_directory_without_manifest_is_every_scenario_open() -> None:
    """speed-v1 (frozen by its generator test) reads as its 18 files, each open."""
    suite = load_suite(LAYOUTS / "speed-v1")
    assert not suite.has_manifest and len(suite.layouts) == 18
    assert {lay.known for lay in suite.layouts} == {"open"}


@pytest.mark.parametrize(("models", "expected"), [(1, 10), (10, 10), (11, 20), (30, 30), (40, 40)])
def test_size_class(models: int, expected: int) -> None:
    assert size_class(models) == expected


FORTY_K_11E = LAYOUTS.parent / "forty-k-11e-v1"


def test_forty_k_11e_suite_is_frozen_and_its_generators_output() -> None:
    """forty-k-11e-v1: 15 layouts, each hash checked, every file listed, each a 40k-11e
    scenario with a roll where it charges; the generator run again changes no byte."""
    suite = load_suite(FORTY_K_11E)
    assert suite.name == "forty-k-11e-v1" and suite.version == 1 and len(suite.layouts) == 15
    on_disk = sorted(p.name for p in FORTY_K_11E.glob("*.toml") if p.name != "suite.toml")
    assert sorted(lay.file for lay in suite.layouts) == on_disk
    kinds = []
    for lay in suite.layouts:
        scenario = load_scenario(lay.path)
        assert scenario.ruleset == ("40k-11e",), lay.file
        kinds.append(scenario.action.kind.value)
        if scenario.action.kind in ("charge", "heroic-intervention"):
            assert scenario.action.roll is not None, lay.file
    assert kinds.count("charge") == 9 and kinds.count("heroic-intervention") == 2
    assert kinds.count("pile-in") == 1 and kinds.count("consolidate") == 3
    before = {p.name: p.read_bytes() for p in FORTY_K_11E.glob("*.toml")}
    subprocess.run([sys.executable, str(FORTY_K_11E / "generate.py")], check=True)
    assert {p.name: p.read_bytes() for p in FORTY_K_11E.glob("*.toml")} == before


def test_forty_k_11e_known_values_worked_by_hand() -> None:
    """The values README.md works out: the band argument's counts, the 9" coherency's
    infeasible charge, the frozen pile in, each consolidation mode, both heroic modes."""
    suite = load_suite(FORTY_K_11E)
    known = {lay.file.split("-")[0]: (lay.known, dict(lay.value)) for lay in suite.layouts}
    both = {"within_1", "engaged"}
    assert {k: v for k, (_, v) in known.items() if set(v) == both} == {
        "c01": {"within_1": 1, "engaged": 1},
        "c02": {"within_1": 5, "engaged": 10},
        "c03": {"within_1": 5, "engaged": 5},
        "c04": {"within_1": 0, "engaged": 1},
        "c05": {"within_1": 1, "engaged": 1},
        "c06": {"within_1": 1, "engaged": 1},
        "c07": {"within_1": 5, "engaged": 10},
        "c08": {"within_1": 2, "engaged": 2},
        "h01": {"within_1": 5, "engaged": 5},
        "h02": {"within_1": 5, "engaged": 10},
    }
    assert known["c09"] == ("infeasible", {})
    assert known["p01"] == ("optimal", {"engaged_closest": 4})
    assert known["o01"] == ("optimal", {"engaged_closest": 3})
    assert known["o02"] == ("optimal", {"engaged_closest": 3})
    assert known["o03"] == ("optimal", {"on_objective": 3})
    assert len(load_scenario(FORTY_K_11E / "c07-horde-twenty.toml").acting_unit.models) == 20


def test_known_value_is_checked_term_by_term(tmp_path: Path) -> None:
    """A manifest's value must be whole counts; optimal needs base_contact or value."""
    (tmp_path / "a.toml").write_text("x = 1\n", encoding="utf-8")
    digest = file_sha256(tmp_path / "a.toml")
    entry = f'[[layouts]]\nfile = "a.toml"\nsha256 = "{digest}"\nknown = "optimal"\n'
    head = 'suite = "t"\nversion = 1\n'
    (tmp_path / "suite.toml").write_text(f"{head}{entry}value = {{ a = 1.5 }}\n", "utf-8")
    with pytest.raises(ChargeoptError, match=r"layouts\[0\]\.value: give the optimum's terms"):
        load_suite(tmp_path)
    (tmp_path / "suite.toml").write_text(f"{head}{entry}value = {{ a = 2, b = 0 }}\n", "utf-8")
    lay = load_suite(tmp_path).layouts[0]
    assert lay.value == (("a", 2), ("b", 0)) and lay.known_text() == "optimal a 2, b 0"
