"""Options that would change nothing: refused, so a run never silently ignores what the user asked for.

``inert_options(config)`` lists ``(option, reason)`` for every option of
``config`` that has no effect, e.g. ``--set crossroads.fortune_die=...`` without
the Crossroads expansion, or ``--travelers kinko,chuubei`` with Journey of
Initiation (played without Travelers). The command line refuses the first
(``refuse_inert``); a study refuses an ``[overrides]`` key only if it has no
effect in any of its cells (an override for every cell may matter in some only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.errors import UserError
from sim.overrides import format_value

if TYPE_CHECKING:
    from sim.games.tokaido.rules.config import GameConfig

NEW_ENCOUNTER_KEYS = ("encounters.itamae_cost", "encounters.kitoushi_cost", "encounters.takuhatsuso_cost",
                      "encounters.takuhatsuso_points")
NO_TRAVELERS = "Journey of Initiation (--variants initiation) is played without Travelers"


def _crossroads_travelers() -> set[str]:
    from sim.games.tokaido.rules.tables import _read_data

    return {t["name"] for t in _read_data()["travelers"]["traveler"] if t.get("set", "base") != "base"}


def override_reason(config: GameConfig, key: str) -> str | None:
    """Why the override ``key`` has no effect in ``config`` (None: it has one)."""
    parts = key.split(".")
    crossroads = "crossroads" in config.expansions
    if "initiation" in config.variants and (parts[0] in ("travelers", "abilities")
                                            or parts[:2] == ["crossroads", "abilities"]):
        return NO_TRAVELERS
    if key == "draft.pool":
        return _pool_reason(config)
    if parts[0] == "draft" and (config.travelers != "draft" or "initiation" in config.variants):
        return "the draft rules apply only with --travelers draft"
    if parts[0] == "crossroads" and not crossroads:
        return "it is a Crossroads rule and --expansions has no crossroads"
    if parts[0] == "matsuri" and "matsuri" not in config.expansions:
        return "it is a Matsuri rule and --expansions has no matsuri"
    if parts[0] == "travelers" and parts[1:2] and parts[1] in _crossroads_travelers() and not crossroads:
        return f"{parts[1]} is a Crossroads Traveler and --expansions has no crossroads"
    if key in NEW_ENCOUNTER_KEYS and "new-encounters" not in config.expansions:
        return "it is a New Encounters rule and --expansions has no new-encounters"
    if parts[0] == "variants" and len(parts) > 1:
        variant = parts[1].replace("_", "-")
        if variant not in config.variants:
            return f"--variants has no {variant}"
        if variant == "preparations" and len(parts) > 2 and parts[2] != str(config.n_players):
            return f"it is the table for {parts[2]} players and the game has {config.n_players}"
    return None


def _pool_reason(config: GameConfig) -> str | None:
    """Why ``draft.pool`` changes nothing: Travelers named one per player, none at all, or a pool of every one."""
    if "initiation" in config.variants:
        return NO_TRAVELERS
    if config.travelers not in ("draft", "random"):
        return "the Travelers are named one per player (--travelers NAME,...), not dealt from a pool"
    rules = config.rules()
    if len(rules.pool_ids()) == len(rules.travelers):
        return "the pool holds every Traveler in play, as without it"
    return None


def inert_options(config: GameConfig) -> list[tuple[str, str]]:
    """``(option, reason)`` for each option of ``config`` that has no effect."""
    out = []
    if "initiation" in config.variants and config.travelers != "draft":
        out.append((f"--travelers {config.travelers}", NO_TRAVELERS))
    from sim.games.tokaido.rules.profiles import profile_sets

    # a rules profile is a whole table of differences: the ones this game does not use are not the user's options
    profile_keys = {s.partition("=")[0].strip() for s in profile_sets(config.profile) if not s.startswith("@")}
    profile_keys |= _patch_keys(profile_sets(config.profile))
    for key, value in config.overrides:
        if key in profile_keys:
            continue
        reason = override_reason(config, key)
        if reason is not None:
            out.append((f"--set {key}={format_value(value)}", reason))
    return out


def refuse_inert(config: GameConfig) -> GameConfig:
    """``config``, or ``UserError`` naming its first option that has no effect."""
    for option, reason in inert_options(config):
        raise UserError(f"{option} has no effect: {reason}; drop it or add what it needs")
    return config


def _patch_keys(items: list[str]) -> set[str]:
    """The keys a profile sets through ``@patch.toml`` items."""
    from sim.overrides import load_patch

    return {k for item in items if item.startswith("@") for k, _ in load_patch(item[1:])}
