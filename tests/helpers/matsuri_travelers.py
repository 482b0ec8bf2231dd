"""Shared set-up for the Matsuri Travelers' rule tests (tests/kernels/tokaido/matsuri/test_travel*.py)."""

from __future__ import annotations

from typing import Any

from tests.helpers.positions import make_rules, xr_config

MT = ("matsuri",)
ENCOUNTER, PADDY, FARM, TEMPLE, VILLAGE, INN1, LAST = 3, 4, 7, 2, 8, 14, 54
NO_START = (("crossroads.start_amulet", "false"),)


def mt_config(travelers: list[str], overrides: tuple[tuple[str, Any], ...] = (), **kw: Any):
    """A Crossroads + Matsuri configuration naming each player's Traveler (no start Amulets)."""
    return xr_config(
        len(travelers),
        travelers=",".join(travelers),
        expansions=MT,
        overrides=NO_START + tuple(overrides),
        **kw,
    )


def mt_rules(travelers: list[str], overrides: tuple[tuple[str, Any], ...] = (), **kw: Any):
    return make_rules(mt_config(travelers, overrides), **kw)
