"""Rules profiles (``--rules rulebook|online``): named TOML patches in ``sim/games/tokaido/data/profiles/``.

A profile is nothing but a patch applied like ``--set @file``, before the command's own
``--set`` items (so those can still change any of its rules).
"""

from __future__ import annotations

from importlib import resources

from sim.errors import UserError

PROFILES = ("rulebook", "online")


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
    return [] if name == "rulebook" else [f"@{path}"]
