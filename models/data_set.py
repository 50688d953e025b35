"""The 40kdc data set (the optional package `wh40kdc`): loaded once, only when a scenario names
a datasheet or a layout, so a plain solve never imports it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .errors import KeyPathError

ATTRIBUTION = "Powered by 40kdc-data"
"""The line the data set's licence (CC BY 4.0 enrichment data) asks for wherever it is shown."""
DATA_SET_NAME = "40kdc-data"
PACKAGE = "wh40kdc"
INSTALL_FIX = "install the 40kdc data set: pip install 'chargeopt[data]' (or pip install wh40kdc)"


@lru_cache(maxsize=1)
def _loaded() -> Any:
    from wh40kdc import Dataset

    return Dataset.embedded()


def data_set(key_path: str = "") -> Any:
    """The embedded wh40kdc Dataset; a KeyPathError at `key_path` with the install line when
    the package is missing."""
    try:
        return _loaded()
    except ImportError:
        raise KeyPathError(
            key_path, "this key reads the 40kdc data set, which is not installed", INSTALL_FIX
        ) from None


def data_set_version() -> str:
    """The installed wh40kdc version (the data set's release)."""
    from wh40kdc import __version__

    return str(__version__)


def data_set_stats(datasheets: dict[str, dict[str, Any]], layout: dict[str, Any] | None) -> dict:
    """The result's `stats.data_set`: which release of the data set gave which unit and
    terrain, with the attribution line its licence asks for."""
    stats: dict[str, Any] = {
        "name": DATA_SET_NAME,
        "package": PACKAGE,
        "version": data_set_version(),
        "attribution": ATTRIBUTION,
    }
    if datasheets:
        stats["datasheets"] = datasheets
    if layout:
        stats["layout"] = layout
    return stats
