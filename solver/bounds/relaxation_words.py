"""A relaxation's infeasibility proof in words a judge can check: which rule groups clash,
with the distances that make them clash."""

from __future__ import annotations

import shapely

from chargeopt.models import Scenario
from chargeopt.solver.bounds.cells import EPS_IN
from chargeopt.solver.bounds.relaxation import MIN_SIDE_IN, max_hops
from chargeopt.solver.bounds.relaxation_solve import Verdict
from chargeopt.solver.bounds.relaxation_zones import Zones


def explain(v: Verdict, z: Zones, scenario: Scenario, roll: int) -> str:
    """One paragraph: the reason, then the groups, how it was shown and who confirmed it."""
    unit = scenario.acting_unit.id
    core = set(v.core)
    engage = sorted(g.split(":", 1)[1] for g in core if g.startswith("engage:"))
    screens = sorted(g.split(":", 1)[1] for g in core if g.startswith("non-target:"))
    terrain = sorted(g.split(":", 1)[1] for g in core if g.startswith("terrain:"))
    spans = sorted(g.split(":", 1)[1] for g in core if g.startswith("span:"))
    er = z.er_in
    rest = core - {f"engage:{t}" for t in engage}
    if spans:
        first, second = spans[0].split("-")
        reason = _span_reason(z, scenario, roll, first, second)
    elif len(engage) == 1 and not rest:
        gap = min(g for (_, t), g in z.start_gap.items() if t == engage[0])
        reason = (
            f'no position within {er:g}" of {engage[0]} is reachable: {engage[0]} is '
            f'{gap:.2f}" away edge to edge, the roll allows {roll:.2f}" plus {er:g}" '
            "engagement range (and a model must end closer to a target or in base contact)"
        )
    elif len(engage) == 1 and screens and rest <= {f"non-target:{u}" for u in screens}:
        reason = (
            f'every spot within {er:g}" of {engage[0]} that a model can reach with a roll of '
            f'{roll} is within {er:g}" of non-target {", ".join(screens)}'
        )
    elif len(engage) == 1 and rest and all(_is_place(g) for g in rest):
        reason = (
            f'every spot within {er:g}" of {engage[0]} that a model can reach with a roll of '
            f"{roll} is {_places(rest)}"
        )
    elif len(engage) >= 2 and not rest and len(z.model_base) == 1:
        reason = f'no spot a model can reach is within {er:g}" of both {" and ".join(engage)}'
    else:
        reason = "these rules cannot all hold at once: " + "; ".join(
            _describe(g, z, scenario) for g in sorted(core)
        )
    how = (
        f"shown on a conservative cell relaxation ({v.cells} cells, squares down to "
        f'{v.smallest_cell_in if v.smallest_cell_in is not None else MIN_SIDE_IN:g}", every '
        f'distance test loosened by {EPS_IN:g}")'
    )
    confirmed = ", ".join(v.confirmed_by) or "nobody"
    return (
        f"No legal placement of {unit} exists with a roll of {roll}: {reason}. "
        f"Constraint groups: {', '.join(sorted(core)) or 'none'}; {how}; "
        f"infeasible for {confirmed}."
        + (f" Terrain involved: {', '.join(terrain)}." if terrain else "")
    )


def _is_place(group: str) -> bool:
    return group == "board" or group.split(":")[0] in ("terrain", "bases", "non-target")


def _places(groups: set[str]) -> str:
    out = []
    for g in sorted(groups):
        kind, _, name = g.partition(":")
        out.append(
            {
                "board": "off the board",
                "terrain": f"inside terrain {name}",
                "bases": f"on a base of {name}",
                "non-target": f"within engagement range of non-target {name}",
            }.get(kind, g)
        )
    return "either " + " or ".join(out) if len(out) > 1 else out[0]


def _span_reason(z: Zones, scenario: Scenario, roll: int, first: str, second: str) -> str:
    n = len(z.model_base)
    hops = max_hops(n, z.k)
    hop = z.coherency_in + 2 * max(z.outer)
    reach = shapely.union_all(
        [shapely.Point(x, y).buffer(roll + EPS_IN) for x, y in z.starts.values()]
    )
    apart = shapely.distance(z.engage[first] & reach, z.engage[second] & reach)
    edition = scenario.rules.edition.replace("40k-", "").replace("e", "th edition")
    return (
        f"a unit of {n} in {edition} needs {z.k} coherency neighbour{'s' if z.k != 1 else ''} "
        f"each and must be one group, so two of its models are at most {hops} coherency "
        f'steps apart ({hops} x {hop:.2f}" = {hops * hop:.2f}" centre to centre), but a '
        f"model within engagement range of {first} and one within engagement range of {second} "
        f'stand at least {apart:.2f}" apart: it cannot span {first} and {second}'
    )


def _describe(group: str, z: Zones, scenario: Scenario) -> str:
    kind, _, name = group.partition(":")
    unit = scenario.acting_unit.id
    return {
        "engage": f'some model within {z.er_in:g}" of target {name}',
        "non-target": f'no model within {z.er_in:g}" of non-target {name}',
        "terrain": f"no base inside terrain {name}",
        "bases": f"no base on a base of {name}",
        "board": "every base on the board",
        "overlap": f"no two bases of {unit} overlapping",
        "coherency": f'each model within {z.coherency_in:g}" of {z.k} other model(s) of {unit}',
        "span": f"a model engaging each of {name.replace('-', ' and ')} within the unit's "
        "coherency span",
    }.get(kind, group)
