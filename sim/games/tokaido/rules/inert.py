"""Options that would change nothing: refused, so a run never silently ignores what the user asked for.

``inert_options(config)`` lists ``(option, reason)`` for every option of ``config`` that has no
effect on its games, whatever the seed:

- an override of a rule the game does not use: a Crossroads, Matsuri or New Encounters rule
  without that expansion, a variant's rule without the variant (or Preparations' table for
  another player count), the draft's rules without a draft (and ``draft.dealt`` when
  ``draft.mode=free`` deals nothing), a rule of the Neutral Traveler (2 players only);
- an override of a Traveler's rule (``travelers.NAME.*``, his ``abilities.*`` and
  ``crossroads.abilities.*``, ``gender.NAME``) when he cannot be in the game: his box is not in
  ``--expansions``, ``--travelers`` names a lineup without him, or Journey of Initiation is played
  without Travelers;
- an override that sets a rule to the value it already has, and a key given twice (the first
  one is overwritten);
- ``--travelers NAMES`` with Journey of Initiation; ``--expansions promos`` where no Traveler is
  dealt from the pool (the promos add only Travelers); a ``--rules`` profile none of whose rules
  is used here.

The command line refuses the first (``refuse_inert``); a study (``override_reasons`` per cell)
refuses an ``[overrides]`` key only if it has no effect in any of its cells (an override for
every cell may matter in some only); ``audit`` likewise over the games of its file.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sim.errors import UserError
from sim.games.tokaido.rules.boxes import boxes
from sim.overrides import format_value

if TYPE_CHECKING:
    from sim.games.tokaido.rules.config import GameConfig

NEW_ENCOUNTER_KEYS = (
    "encounters.itamae_cost",
    "encounters.kitoushi_cost",
    "encounters.takuhatsuso_cost",
    "encounters.takuhatsuso_points",
)
NO_TRAVELERS = "Journey of Initiation (--variants initiation) is played without Travelers"
WATCHERS = (
    "misaki",
    "takeru",
)  # abilities.watcher_*: the two Matsuri Travelers paid by the bank when others stop
PROMO_ONLY = "the promos add only Travelers"


def _travelers_data() -> list[dict[str, Any]]:
    from sim.games.tokaido.rules.tables import _read_data

    return list(_read_data()["travelers"]["traveler"])


def rule_owners(key: str) -> tuple[str, ...] | None:
    """The Travelers whose rule ``key`` is (``None``: a rule of the game, not of a Traveler)."""
    parts = key.split(".")
    if parts[0] == "travelers" and len(parts) > 1:
        return (parts[1],)
    if parts[0] == "gender" and len(parts) == 2:
        return (parts[1],)
    ability = (
        parts[1]
        if parts[0] == "abilities" and len(parts) == 2
        else (parts[2] if parts[:2] == ["crossroads", "abilities"] and len(parts) == 3 else None)
    )
    if ability is None:
        return None
    if ability.startswith("watcher_"):
        return WATCHERS
    owners = [
        t["name"] for t in _travelers_data() if ability.startswith(str(t.get("ability", t["name"])) + "_")
    ]
    return tuple(owners) or None


def _in_play(config: GameConfig) -> set[str]:
    """The Travelers who can be in ``config``'s games."""
    if "initiation" in config.variants:
        return set()
    if config.travelers not in ("draft", "random"):
        return {n.strip() for n in config.travelers.split(",")}
    return {t.name for t in config.rules().travelers}


def _owner_reason(config: GameConfig, owners: tuple[str, ...]) -> str | None:
    if "initiation" in config.variants:
        return NO_TRAVELERS
    playing = _in_play(config)
    if playing & set(owners):
        return None
    who = owners[0]
    if config.travelers not in ("draft", "random"):
        return f"{' and '.join(owners)} {'is' if len(owners) == 1 else 'are'} not in --travelers {config.travelers}"
    from sim.games.tokaido.rules.boxes import not_in_play

    data = {t["name"]: t for t in _travelers_data()}
    if who not in data:
        return None  # an unknown name: the rules loader names it
    return not_in_play(data[who], config)


def override_reason(config: GameConfig, key: str) -> str | None:
    """Why the override ``key`` has no effect in ``config``, by what the game uses (None: it may have one)."""
    parts = key.split(".")
    crossroads = config.crossroads
    owners = rule_owners(key)
    if "initiation" in config.variants and (owners is not None or parts[0] in ("travelers", "abilities")):
        return NO_TRAVELERS
    if key == "draft.pool":
        return _pool_reason(config)
    if parts[0] == "draft" and (config.travelers != "draft" or "initiation" in config.variants):
        return "the draft rules apply only with --travelers draft"
    if parts[0] == "crossroads" and not crossroads:
        return "it is a Crossroads rule and --expansions has no crossroads"
    if parts[0] == "matsuri" and not config.matsuri:
        return "it is a Matsuri rule and --expansions has no matsuri"
    if key in NEW_ENCOUNTER_KEYS and not config.new_encounters:
        return "it is a New Encounters rule and --expansions has no new-encounters"
    if "neutral" in parts[-1] and config.n_players != 2:
        return f"it is a rule of the Neutral Traveler, who plays only at 2 players (the game has {config.n_players})"
    if parts[0] == "variants" and len(parts) > 1:
        variant = parts[1].replace("_", "-")
        if variant not in config.variants:
            return f"--variants has no {variant}"
        if variant == "preparations" and len(parts) > 2 and parts[2] != str(config.n_players):
            return f"it is the table for {parts[2]} players and the game has {config.n_players}"
    if key == "meals.hand_extra" and "gastronomy" in config.variants:
        return "with --variants gastronomy the meal hand is variants.gastronomy.hand_extra: set that instead"
    if owners is not None:
        return _owner_reason(config, owners)
    return None


def _draft_mode(raw: dict[str, Any]) -> str:
    return str(raw["rules"]["draft"]["mode"])


def _pool_reason(config: GameConfig) -> str | None:
    """Why ``draft.pool`` changes nothing: Travelers named one per player, none at all, or a pool of every
    one."""
    if "initiation" in config.variants:
        return NO_TRAVELERS
    if config.travelers not in ("draft", "random"):
        return "the Travelers are named one per player (--travelers NAME,...), not dealt from a pool"
    rules = config.rules()
    if len(rules.pool_ids()) == len(rules.travelers):
        return "the pool holds every Traveler in play, as without it"
    return None


def override_reasons(config: GameConfig) -> list[str | None]:
    """For each of ``config.overrides``, why it has no effect (None: it has one).

    Besides ``override_reason``: a key given again later (this one is overwritten), a value the
    rule already has, and ``draft.dealt`` when the draft deals nothing (``draft.mode=free``).
    """
    return [r[0] if r else None for r in _reasons(config)]


def _reasons(config: GameConfig) -> list[tuple[str, bool] | None]:
    """``override_reasons`` with a flag each: True for a restated value or a key set again later (which a
    patch file may hold: it describes whole rules, restated values and all), False for a rule not used."""
    from sim.games.tokaido.rules.tables import RulesError, apply_override

    keys = [k for k, _ in config.overrides]
    later = Counter(keys)
    raw = config.raw()
    out: list[tuple[str, bool] | None] = []
    for i, (key, value) in enumerate(config.overrides):
        later[key] -= 1
        reason = override_reason(config, key)
        found = (reason, False) if reason is not None else None
        if found is None and later[key] > 0:
            again = next(v for k, v in config.overrides[i + 1 :] if k == key)
            found = (
                f"{key} is set again later (={format_value(again)}), which replaces it: give it once",
                True,
            )
        before = copy.deepcopy(raw)
        try:
            apply_override(raw, key, value)
        except RulesError:
            out.append(found)  # the rules loader says what is wrong with it
            continue
        if found is None and raw == before:
            found = (f"{key} is already {format_value(value)}" + _where(config), True)
        out.append(found)
    for i, (key, _) in enumerate(config.overrides):  # needs the final mode, whatever the order
        if out[i] is None and key == "draft.dealt" and _draft_mode(raw) == "free":
            out[i] = ("with draft.mode=free each player picks from the whole pool: nothing is dealt", False)
    return out


def _where(config: GameConfig) -> str:
    if config.variants or config.profile != "rulebook":
        return " in this game (its variants and rules profile included)"
    return ""


def _profile_keys(profile: str) -> set[str]:
    """The keys a rules profile sets (its ``--set`` items and ``@patch.toml`` files)."""
    from sim.games.tokaido.rules.profiles import profile_sets
    from sim.overrides import load_patch

    items = profile_sets(profile)
    keys = {s.partition("=")[0].strip() for s in items if not s.startswith("@")}
    return keys | {k for item in items if item.startswith("@") for k, _ in load_patch(item[1:])}


def inert_options(config: GameConfig, patches: Mapping[int, str] | None = None) -> list[tuple[str, str]]:
    """``(option, reason)`` for each option of ``config`` that has no effect.

    ``patches``: the index in ``config.overrides`` of each override read from a ``--set @FILE``
    patch, and its file. A patch describes whole rules, so a value it restates (or that a later
    ``--set`` replaces) is no fault of its own; a rule it sets that the game does not use is, and a
    patch none of whose rules changes anything is refused as a whole.
    """
    patches = patches or {}
    out = []
    if "initiation" in config.variants and config.travelers != "draft":
        out.append((f"--travelers {config.travelers}", NO_TRAVELERS))
    if config.promos:
        reason = _promos_reason(config)
        if reason is not None:
            out.append(("--expansions promos", reason))
    # a rules profile is a whole table of differences: the ones this game does not use are not the user's
    # options, but a profile none of whose rules is used is one
    profile = _profile_keys(config.profile)
    reasons = _reasons(config)
    seen: set[str] = set()
    mine = []
    for i, ((key, value), found) in enumerate(zip(config.overrides, reasons, strict=True)):
        if key in profile and key not in seen:
            seen.add(key)
            mine.append(found)
            continue
        if found is not None and not (found[1] and i in patches):
            out.append((f"--set {key}={format_value(value)}", found[0]))
    if profile and mine and all(mine):
        first = next(f for f in mine if f)
        out.append((f"--rules {config.profile}", f"none of the rules it changes is used here ({first[0]})"))
    for name in dict.fromkeys(patches.values()):
        found_all = [reasons[i] for i, n in patches.items() if n == name]
        if found_all and all(found_all):
            first = next(f for f in found_all if f)
            out.append((f"--set @{name}", f"none of its rules changes anything here ({first[0]})"))
    return out


def _promos_reason(config: GameConfig) -> str | None:
    if "initiation" in config.variants:
        return f"{PROMO_ONLY} and {NO_TRAVELERS}"
    if config.travelers in ("draft", "random"):
        return None
    others = {"crossroads", "matsuri"} & set(config.expansions)  # boxes in play besides the promos
    promo = {t["name"] for t in _travelers_data() if "promo" in boxes(t) and not set(boxes(t)) & others}
    named = {n.strip() for n in config.travelers.split(",")}
    if named & promo:
        return None
    return f"{PROMO_ONLY} and --travelers {config.travelers} names none of them"


def refuse_inert(config: GameConfig, patches: Mapping[int, str] | None = None) -> GameConfig:
    """``config``, or ``UserError`` naming its first option that has no effect (``patches``: see
    ``inert_options``)."""
    for option, reason in inert_options(config, patches):
        raise UserError(f"{option} has no effect: {reason}; drop it or add what it needs")
    return config
