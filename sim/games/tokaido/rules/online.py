"""The rules parameters where the online implementation differs from the rulebook.

Each difference is its own switch in ``sim/games/tokaido/data/crossroads.toml``, the rulebook's reading by
default,
the online one in the ``online`` profiles (``sim/games/tokaido/data/profiles/online*.toml``);
docs/rules-choices.md,
"Rules profiles", says how each is read.
"""

from __future__ import annotations

from typing import Any

from kernels.tokaido.core.prices import DISC_NAMES
from sim.games.tokaido.rules.keys import RulesError


def online_params(x: dict[str, Any]) -> dict[str, int]:
    """The kernels' ``P`` entries of the online differences from the ``crossroads`` section ``x``."""
    am = x["amulets"]
    if not am["fortune_before_move"] and not am["fortune_after_move"]:
        raise RulesError(
            "crossroads.amulets.fortune_before_move and fortune_after_move are both false: "
            "the Fortune Amulet could never be used; set one of them true"
        )
    return {
        "SCRIPT_LEGENDARY": int(bool(x["legendary"]["script_counts_legendary"])),
        "CHERRY_AT_COMPLETE": int(bool(x["cherry_tree"]["at_completed_panorama"])),
        "HEALTH_ONE": int(bool(am["health_one_option"])),
        "FORTUNE_BEFORE": int(bool(am["fortune_before_move"])),
        "FORTUNE_AFTER": int(bool(am["fortune_after_move"])),
        "DEVOTION_PRINTED": devotion_printed(am),
        "ALT_NOTHING": int(bool(x["alternative_buys_nothing"])),
        "SECOND_OPTIONAL": int(bool(x["second_action_optional"])),
    }


def devotion_printed(am: dict[str, Any]) -> int:
    """Bits of ``kernels.tokaido.core.prices.Disc``: the discounts after which Devotion moves the printed
    price (C37)."""
    if am["devotion_printed_price"]:
        return (1 << len(DISC_NAMES)) - 1
    names = am["devotion_printed_after"]
    names = [names] if isinstance(names, str) else list(names)
    bits = 0
    for name in names:
        if name not in DISC_NAMES:
            raise RulesError(
                f"crossroads.amulets.devotion_printed_after: unknown discount {name!r}; "
                f"choose among {', '.join(DISC_NAMES)}"
            )
        bits |= 1 << DISC_NAMES.index(name)
    return bits
