"""The folder tree is the architecture: imports flow models -> geometry -> solver -> interface,
each solver package imports only the layers below it, and no module imports itself back.
Read from the source with `ast` (imports inside functions count too), so the test fails on a
lazy upward import as well as on a top-level one."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest
from repo_paths import REPO_ROOT

REPO = REPO_ROOT
ROOTS = {
    "models": "chargeopt.models",
    "geometry": "chargeopt.geometry",
    "solver": "chargeopt.solver",
}

LAYERS: tuple[tuple[str, ...], ...] = (
    ("chargeopt.models",),
    ("chargeopt.geometry",),
    ("chargeopt.geometry.checker",),
    ("chargeopt.solver.options",),
    ("chargeopt.solver.core",),
    ("chargeopt.solver.bounds",),
    (
        "chargeopt.solver.forty_k",
        "chargeopt.solver.forty_k_11e",
        "chargeopt.solver.rank_and_file",
        "chargeopt.solver.assault_4e",
    ),
    ("chargeopt.solver.wtc",),
    (
        "chargeopt.solver.api",
        "chargeopt.solver.loading",
        "chargeopt.solver.verify",
        "chargeopt.solver",
    ),
    ("chargeopt.solver.bench",),
    ("chargeopt.solver.interface",),
    ("chargeopt",),
)
"""Bottom first. A module may import its own layer and the layers below it, never above. The
top, `chargeopt` itself (`from chargeopt import solve`, `python -m chargeopt`), is imported
by nothing in the library."""
PACKAGE_FACE = REPO / "solver" / "_package"
"""Where the package `chargeopt` itself lives (pyproject.toml's package-dir maps it)."""


def _modules() -> dict[str, Path]:
    found = {}
    for folder, dotted in ROOTS.items():
        for path in sorted((REPO / folder).rglob("*.py")):
            if PACKAGE_FACE in path.parents:
                parts = ("chargeopt", *path.relative_to(PACKAGE_FACE).with_suffix("").parts)
            else:
                parts = (dotted, *path.relative_to(REPO / folder).with_suffix("").parts)
            found[".".join(parts).removesuffix(".__init__")] = path
    return found


MODULES = _modules()


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Line numbers of imports under `if TYPE_CHECKING:` (annotations, not dependencies)."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            lines |= {
                n.lineno for stmt in node.body for n in ast.walk(stmt) if hasattr(n, "lineno")
            }
    return lines


def imports_of(name: str) -> set[str]:
    """The chargeopt modules `name` imports, anywhere in its file."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(), filename=str(path))
    skip = _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if f"{module}.{alias.name}" in MODULES:
                    out.add(f"{module}.{alias.name}")
                elif module in MODULES:
                    out.add(module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in MODULES}
    return out - {name}


def layer_of(name: str) -> int:
    """The index in LAYERS of the longest prefix that names `name`'s package."""
    best, rank = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    assert rank >= 0, f"{name} belongs to no layer: add its package to LAYERS"
    return rank


def _is_face(importer: str, imported: str) -> bool:
    """A package's __init__ may re-export from inside itself (its public face)."""
    return MODULES[importer].name == "__init__.py" and imported.startswith(importer + ".")


def test_every_module_belongs_to_a_layer() -> None:
    """A new package must be placed in the layer order before it can be imported."""
    for name in MODULES:
        layer_of(name)


def test_no_import_goes_up_a_layer() -> None:
    """models -> geometry -> checker -> solver core -> bounds -> rule families -> api ->
    bench -> interface: every import points down or sideways, never up."""
    upward = [
        f"{a} ({LAYERS[layer_of(a)][0]}) imports {b} ({LAYERS[layer_of(b)][0]})"
        for a in MODULES
        for b in imports_of(a)
        if layer_of(b) > layer_of(a) and not _is_face(a, b)
    ]
    assert upward == []


def test_no_import_cycle() -> None:
    """No module reaches itself through imports (package faces excluded: importing a
    submodule runs its package's __init__, which is Python's order, not a dependency)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(MODULES)
    for a in MODULES:
        graph.add_edges_from((a, b) for b in imports_of(a) if not _is_face(a, b))
    assert list(nx.simple_cycles(graph)) == []


def test_the_checker_shares_no_solver_code() -> None:
    """The independent checker never imports the solver's candidates or constraints."""
    checker = [n for n in MODULES if n.startswith("chargeopt.geometry")]
    assert [
        (a, b) for a in checker for b in imports_of(a) if b.startswith("chargeopt.solver")
    ] == []


@pytest.mark.parametrize(
    ("importer", "imported", "upward"),
    [
        ("chargeopt.solver.core.candidates", "chargeopt.solver.forty_k.charge", True),
        ("chargeopt.solver.forty_k.charge", "chargeopt.solver.core.candidates", False),
        ("chargeopt.solver.bench.runner", "chargeopt.solver.interface.cli", True),
        ("chargeopt.geometry.pairs", "chargeopt.geometry.checker.judge", True),
        ("chargeopt.solver.wtc.charge", "chargeopt.solver.forty_k.charge", False),
        ("chargeopt.solver.forty_k.charge", "chargeopt.solver.wtc.charge", True),
        ("chargeopt.solver.interface.cli", "chargeopt", True),
        ("chargeopt.__main__", "chargeopt.solver.interface.cli", False),
    ],
)
def test_the_layer_order_judges_known_pairs(importer: str, imported: str, upward: bool) -> None:
    """The order itself: a core module importing the 40k charge would be upward; the WTC
    rule building on the 40k charge is not."""
    assert (layer_of(imported) > layer_of(importer)) is upward


def test_imports_are_read_from_function_bodies_too() -> None:
    """`verified` imports the checker inside the function (start-up stays light); the walk
    still sees it, so a lazy upward import cannot hide."""
    assert "chargeopt.geometry.checker" in imports_of("chargeopt.solver.verify")
