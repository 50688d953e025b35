"""The installed package: `from chargeopt import solve, load_scenario, check_placement`,
`chargeopt.__version__`, `chargeopt --version`, `python -m chargeopt`; networkx and scipy only
in the `repair` extra (an ordinary solve of every benchmark family imports neither, even when
they cannot be imported at all); the repository's top level as the README describes it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

from repo_paths import REPO_ROOT

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
FAMILIES = {
    "40k-10e charge": "benchmarks/layouts/examples/marines-charge-open.toml",
    "40k-9e pile-in": "benchmarks/layouts/pile-in-v1/p5-line-9e.toml",
    "40k-10e pile-in": "benchmarks/layouts/pile-in-v1/p10-blob-10e.toml",
    "wtc-walls charge": "benchmarks/layouts/wtc-walls/walled-room.toml",
    "t9a-2022 charge": "benchmarks/rank-and-file-v1/f2-front-seed-wheel.toml",
    "whfb-6e charge": "benchmarks/rank-and-file-wheel-v1/w1-6e-head-on.toml",
    "tow charge": "benchmarks/rank-and-file-wheel-v1/t1-tow-head-on.toml",
    "40k-assault-4e charge": "benchmarks/assault-4e-v1/a1-first-forced.toml",
    "40k-assault-4e fall-back": "benchmarks/assault-4e-v1/e1-just-escapes.toml",
}
"""One layout of every rule family and move kind the benchmarks hold."""
BLOCKER = """
import sys
sys.modules.update(networkx=None, scipy=None)  # a plain install: neither can be imported
"""


def _python(code: str) -> str:
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=REPO_ROOT
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    return ran.stdout


def test_the_public_names_come_from_the_top_package() -> None:
    """`import chargeopt` is light (no OR-Tools); its names are the library's own."""
    out = _python(
        "import sys, chargeopt\n"
        "light = 'ortools' not in sys.modules\n"
        "from chargeopt import solve, load_scenario, check_placement, SolveOptions\n"
        "from chargeopt.solver.api import solve as api_solve\n"
        "from chargeopt.geometry.checker import check_placement as checker\n"
        "print(light, solve is api_solve, check_placement is checker, chargeopt.__version__)\n"
    )
    assert out.split() == ["True", "True", "True", version("chargeopt")]
    assert version("chargeopt") == PYPROJECT["project"]["version"]


def test_version_and_python_dash_m() -> None:
    """`chargeopt --version` and `python -m chargeopt --version` say the same version."""
    want = f"chargeopt, version {version('chargeopt')}\n"
    script = shutil.which("chargeopt", path=str(Path(sys.executable).parent))
    assert script is not None, "the console script `chargeopt` is not installed"
    for command in ([script, "--version"], [sys.executable, "-m", "chargeopt", "--version"]):
        ran = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert (ran.returncode, ran.stdout) == (0, want)
    ran = subprocess.run(
        [sys.executable, "-m", "chargeopt", "--help"], capture_output=True, text=True, timeout=60
    )
    assert ran.stdout.startswith("Usage: chargeopt [OPTIONS] COMMAND")


def test_every_family_solves_without_networkx_or_scipy() -> None:
    """With networkx and scipy unimportable, one layout of every family solves to a checked
    answer through the public API, and neither module was asked for."""
    code = BLOCKER + (
        "import json\n"
        "from chargeopt import solve, load_scenario, SolveOptions\n"
        f"files = {json.dumps(FAMILIES)}\n"
        "statuses = {}\n"
        "options = SolveOptions(time_limit_s=20, workers=1, roll_table=False)\n"
        "for family, path in files.items():\n"
        "    result = solve(load_scenario(path), options=options)\n"
        "    statuses[family] = (result.status.value, len(result.violations))\n"
        "heavy = ('networkx', 'scipy')\n"
        "loaded = sorted(m for m, v in sys.modules.items() if v and m.split('.')[0] in heavy)\n"
        "print(json.dumps({'statuses': statuses, 'loaded': loaded}))\n"
    )
    out = json.loads(_python(code).splitlines()[-1])
    assert out["loaded"] == []
    assert set(out["statuses"]) == set(FAMILIES)
    for family, (status, violations) in out["statuses"].items():
        assert status in ("optimal", "feasible", "infeasible"), family
        assert violations == 0, family


def test_the_repair_without_its_extra_is_one_line() -> None:
    """`--repair` where networkx or scipy is missing: exit 2 and one line naming the extra."""
    code = BLOCKER + (
        "from chargeopt.solver.interface.cli import main\n"
        f"main(['solve', '{FAMILIES['40k-10e charge']}', '--repair'], prog_name='chargeopt')\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO_ROOT
    )
    assert (ran.returncode, ran.stdout, ran.stderr) == (
        2,
        "",
        "error: --repair needs the repair extra (networkx and scipy): "
        "pip install 'chargeopt[repair]'\n",
    )


def test_heavy_dependencies_are_extras() -> None:
    """networkx and scipy are not installed for every user: only with `repair` (and `test`)."""
    project = PYPROJECT["project"]
    names = {d.split(">")[0].split("=")[0].strip() for d in project["dependencies"]}
    assert not names & {"networkx", "scipy"}
    for extra in ("repair", "test"):
        assert {"networkx", "scipy"} <= {
            d.split(">")[0].strip() for d in project["optional-dependencies"][extra]
        }


def test_the_top_level_stays_as_the_readme_describes() -> None:
    """The repository's top level: the three code folders, benchmarks, tests and two files
    (the package `chargeopt` itself lives in solver/_package/); dotfiles and local build
    leftovers aside."""
    ignored = {"build", "dist", "chargeopt.egg-info", "__pycache__"}
    tracked = subprocess.run(
        ["git", "ls-files"], capture_output=True, text=True, cwd=REPO_ROOT, check=False
    ).stdout.split()
    top = {path.split("/")[0] for path in tracked} or {
        p.name for p in REPO_ROOT.iterdir() if p.name not in ignored
    }
    top = {name for name in top if not name.startswith(".")}
    assert top == {
        "pyproject.toml",
        "README.md",
        "solver",
        "geometry",
        "models",
        "benchmarks",
        "tests",
    }
    mapping = PYPROJECT["tool"]["setuptools"]["package-dir"]
    assert mapping["chargeopt"] == "solver/_package"
    assert "chargeopt" in PYPROJECT["tool"]["setuptools"]["packages"]
