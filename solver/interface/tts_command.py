"""`chargeopt import tts` and `chargeopt export tts`: a Tabletop Simulator save to a scenario,
and an answer back into a copy of the save."""

from __future__ import annotations

from pathlib import Path

import click

from chargeopt.models import ChargeoptError, KeyPathError, ScenarioError, load_result
from chargeopt.models.data_set import ATTRIBUTION
from chargeopt.solver.interface.files import write_text
from chargeopt.solver.interface.tts_export import moved_save
from chargeopt.solver.interface.tts_import import ImportOptions, scenario_table, to_toml
from chargeopt.solver.interface.tts_save import Frame, read_save

DATA_HELP = f" (reads the 40kdc data set: pip install 'chargeopt[data]'; {ATTRIBUTION})"


def _pairs(option: str, values: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for value in values:
        name, sep, given = value.partition("=")
        if not sep or not name.strip() or not given.strip():
            raise ChargeoptError(f"{option} {value!r}: write it as NAME=VALUE")
        out[name.strip()] = given.strip()
    return out


def _board(value: str | None) -> tuple[float, float] | None:
    if value is None:
        return None
    w, sep, h = value.lower().partition("x")
    try:
        size = float(w), float(h)
    except ValueError:
        size = (0.0, 0.0)
    if not sep or min(size) <= 0:
        raise ChargeoptError(
            f"--board {value!r}: write the board's size as WIDTHxHEIGHT, e.g. 60x44"
        )
    return size


def _frame(scale: float, board: str | None, layout: str | None) -> Frame:
    size = _board(board)
    if size is None and layout:
        from chargeopt.models.layouts import board_of, find_layout

        try:
            found = board_of(find_layout(layout))
        except KeyPathError as exc:
            raise ChargeoptError(f"--layout {layout!r}: {exc.problem}; {exc.fix}") from None
        size = (found["width"], found["height"])
    width, height = size or (60.0, 44.0)
    return Frame(scale=scale, width_in=width, height_in=height)


@click.group("import")
def import_group() -> None:
    """Make a scenario from another program's file."""


@import_group.command("tts")
@click.argument("save_file", metavar="SAVE.json")
@click.option("-o", "--output", required=True, help="The scenario (.toml) to write.")
@click.option(
    "--scale",
    type=click.FloatRange(min=0, min_open=True),
    default=1.0,
    show_default=True,
    help="Inches per TTS unit (1 on most 40k tables).",
)
@click.option("--board", default=None, help="The board's size in inches, WxH (default 60x44).")
@click.option(
    "--base",
    "bases",
    multiple=True,
    help="NAME=32mm: the base of the models of that nickname (or GUID); a save stores no base.",
)
@click.option(
    "--datasheet",
    "datasheets",
    multiple=True,
    help="NAME=DATASHEET: the datasheet of the models of that nickname (default: the "
    "nickname itself when a datasheet has that name)" + DATA_HELP,
)
@click.option(
    "--keywords",
    "keywords",
    multiple=True,
    help="NAME=INFANTRY,FLY: keywords of the models of that nickname (or unit).",
)
@click.option(
    "--group",
    "groups",
    multiple=True,
    help='UNIT=GUID,GUID,...: these models are one unit (default: same nickname, bases within 2").',
)
@click.option(
    "--skip", "skip", multiple=True, help="Leave out the models of this nickname or GUID."
)
@click.option("--charge", "charger", default=None, help="The unit that charges.")
@click.option(
    "--target",
    "targets",
    multiple=True,
    help="A unit it charges (repeat for more; 40k-11e: optional, chosen after the roll).",
)
@click.option(
    "--attacker",
    "attackers",
    multiple=True,
    help="Another unit on the charger's side (all others are the defender's).",
)
@click.option("--roll", type=click.IntRange(0, 36), default=None, help="The charge roll.")
@click.option(
    "--ruleset",
    type=click.Choice(["40k-11e", "40k-10e", "40k-9e", "40k-assault-4e"]),
    default="40k-11e",
    show_default=True,
    help="The rules to play by.",
)
@click.option("--layout", default=None, help="A terrain layout by name or id" + DATA_HELP)
def import_tts(
    save_file: str,
    output: str,
    scale: float,
    board: str | None,
    bases: tuple[str, ...],
    datasheets: tuple[str, ...],
    keywords: tuple[str, ...],
    groups: tuple[str, ...],
    skip: tuple[str, ...],
    charger: str | None,
    targets: tuple[str, ...],
    attackers: tuple[str, ...],
    roll: int | None,
    ruleset: str,
    layout: str | None,
) -> None:
    """Write a scenario from a Tabletop Simulator save: its unlocked figures as models (GUIDs
    as ids; x/z the table, y up, facing rotY), grouped into units, with the bases and the
    charge you give. The board's centre is the table's origin."""
    if Path(output).suffix.lower() != ".toml":
        raise ChargeoptError(f"-o {output}: give a .toml file name")
    frame = _frame(scale, board, layout)
    options = ImportOptions(
        frame=frame,
        bases=_pairs("--base", bases),
        datasheets=_pairs("--datasheet", datasheets),
        keywords={
            k: tuple(w.strip() for w in v.split(","))
            for k, v in _pairs("--keywords", keywords).items()
        },
        groups={
            k: tuple(g.strip() for g in v.split(",")) for k, v in _pairs("--group", groups).items()
        },
        skip=skip,
        charger=charger,
        targets=targets,
        attackers=attackers,
        roll=roll,
        ruleset=ruleset,
        layout=layout,
    )
    save = read_save(save_file)
    table = scenario_table(save, options, save_file)
    board_words = f"{frame.width_in:g}x{frame.height_in:g}"
    back = (
        f"chargeopt export tts {save_file} RESULT.json -o MOVED.json --scale {scale:g} "
        f"--board {board_words}"
    )
    header = [f"Imported from the Tabletop Simulator save {save_file}", f"Back: {back}"]
    write_text(output, to_toml(table, header))
    from chargeopt.solver.loading import checked_scenario

    checked_scenario(table, output)
    units = ", ".join(f"{u['id']} ({len(u['models'])})" for u in table["units"])
    aim = ", ".join(targets) or "the targets its roll reaches"
    click.echo(f"Wrote {output}: units {units}; {charger} charges {aim}")
    click.echo(f"Solve it, then write the answer back: {back}")
    if any("datasheet" in u for u in table["units"]) or layout:
        click.echo(ATTRIBUTION)


@click.group("export")
def export_group() -> None:
    """Write an answer into another program's file."""


@export_group.command("tts")
@click.argument("save_file", metavar="SAVE.json")
@click.argument("result_file", metavar="RESULT.json")
@click.option("-o", "--output", required=True, help="The moved save (.json) to write.")
@click.option(
    "--scale",
    type=click.FloatRange(min=0, min_open=True),
    default=1.0,
    show_default=True,
    help="Inches per TTS unit (as at the import).",
)
@click.option(
    "--board",
    default=None,
    help="The board's size in inches, WxH (as at the import; default 60x44).",
)
def export_tts(
    save_file: str, result_file: str, output: str, scale: float, board: str | None
) -> None:
    """Write the answer's positions and facings into a copy of the save it was imported from;
    every other byte of the save stays as it was."""
    if Path(output).resolve() == Path(save_file).resolve():
        raise ChargeoptError(f"-o {output} is the save itself; give another file name")
    frame = _frame(scale, board, None)
    result = load_result(result_file)
    if result.violations:
        raise ScenarioError(
            result_file, [("violations", "the placement breaks a rule", "solve it again")]
        )
    if not result.placements:
        raise ScenarioError(result_file, [("placements", "has no placement to write", "")])
    save = read_save(save_file)
    text, moved = moved_save(save, result, frame, save_file)
    try:
        Path(output).write_bytes(save.encoded(text))
    except OSError as exc:
        raise ChargeoptError(f"{output}: cannot write ({exc.strerror})") from None
    click.echo(f"Wrote {output}: {len(moved)} model(s) moved ({', '.join(moved) or 'none'})")
