"""The rules parameters where the online implementation differs from the rulebook (issue 11).

Each difference is its own switch in ``sim/games/tokaido/data/crossroads.toml``, off by default (the rulebook),
on in the ``online`` profile (``sim/games/tokaido/data/profiles/online.toml``); docs/rules-choices.md, "Rules
profiles", says how each is read.
"""

from __future__ import annotations

from typing import Any


def online_params(x: dict[str, Any]) -> dict[str, int]:
    """The kernels' ``P`` entries of the online differences from the ``crossroads`` section ``x``."""
    am = x["amulets"]
    return {
        "SCRIPT_LEGENDARY": int(bool(x["legendary"]["script_counts_legendary"])),
        "CHERRY_AT_COMPLETE": int(bool(x["cherry_tree"]["at_completed_panorama"])),
        "HEALTH_ONE": int(bool(am["health_one_option"])),
        "FORTUNE_AFTER": int(bool(am["fortune_after_move"])),
        "DEVOTION_PRINTED": int(bool(am["devotion_printed_price"])),
        "ALT_NOTHING": int(bool(x["alternative_buys_nothing"])),
    }
