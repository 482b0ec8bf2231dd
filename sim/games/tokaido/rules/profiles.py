"""Rules profiles (``--rules rulebook|online|online-2020``): named TOML patches in
``sim/games/tokaido/data/profiles/``.

A profile is nothing but a patch applied like ``--set @file``, before the command's own
``--set`` items (so those can still change any of its rules). A profile may build on another
(``online-2020`` is ``online`` and then its own patch).
"""

from __future__ import annotations

from importlib import resources

from sim.errors import UserError

PROFILES = ("rulebook", "online", "online-2020")
BASE = {"online-2020": "online"}  # a profile applied before this one's own patch


def profile_path(name: str) -> str:
    """The patch file of profile ``name``; a one-line ``UserError`` names the known profiles."""
    if name not in PROFILES:
        raise UserError(f"unknown rules profile '{name}'; use --rules {' or --rules '.join(PROFILES)}")
    return str(resources.files("sim.games.tokaido.data") / "profiles" / f"{name}.toml")


def profile_sets(name: str) -> list[str]:
    """The ``--set`` items of profile ``name`` (``@file``), to put before the user's own.

    ``rulebook`` is the data files' own rules (its patch only restates them), so it adds none and
    a run's overrides stay exactly what the user gave.
    """
    path = profile_path(name)
    if name == "rulebook":
        return []
    return (profile_sets(BASE[name]) if name in BASE else []) + [f"@{path}"]
