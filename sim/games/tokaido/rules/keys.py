"""Dotted rule keys: ``travelers.kinko.coins=6`` parsed, located in the raw rules and checked.

Used by ``tables.load_rules`` for every override; the values are bounded by
``sim.games.tokaido.rules.bounds``.
"""

from __future__ import annotations

from typing import Any

from sim.games.tokaido.rules.bounds import BoundsError, check_value
from sim.overrides import parse_value


class RulesError(ValueError):
    """A rule file or override is malformed; the message says how to fix it."""


# Shorthand roots for overrides: "travelers.kinko.coins" -> the Traveler list.
_ROOTS = {
    "souvenirs": ("rules", "souvenirs"),
    "meals": ("rules", "meals"),
    "panoramas": ("rules", "panoramas"),
    "farm": ("rules", "farm"),
    "temple": ("rules", "temple"),
    "achievements": ("rules", "achievements"),
    "abilities": ("rules", "abilities"),
    "variants": ("rules", "variants"),
    "encounters": ("rules", "encounters"),
    "cards": ("cards",),
    "board": ("board",),
    "crossroads": ("crossroads",),
    "matsuri": ("matsuri",),
    "draft": ("rules", "draft"),
    "gender": ("rules", "gender"),  # genders the seeds leave open (promo Travelers, P2)
}


def apply_override(raw: dict[str, Any], key: str, value: Any) -> None:
    """Set one dotted key in the raw rules; raise RulesError if it names nothing."""
    if isinstance(value, str):
        value = parse_value(value)
    parts = key.split(".")
    if parts[0] == "travelers" and len(parts) == 3:
        for t in raw["travelers"]["traveler"]:
            if t["name"] == parts[1]:
                if parts[2] not in t:
                    raise RulesError(f"override '{key}': a Traveler has no field '{parts[2]}'")
                t[parts[2]] = _checked(key, t[parts[2]], value)
                return
        raise RulesError(f"override '{key}': no Traveler named '{parts[1]}'")
    if parts[0] == "encounters" and parts[1:] == ["annaibito"]:
        enc = raw["cards"]["encounters"]
        enc["annaibito"] = _checked(key, enc["annaibito"], value)
        return
    if parts[0] not in _ROOTS or len(parts) < 2:
        raise RulesError(f"override '{key}' names no rule; start with one of: travelers, {', '.join(_ROOTS)}")
    node: Any = raw
    for p in _ROOTS[parts[0]]:
        node = node[p]
    for p in parts[1:-1]:
        if not isinstance(node, dict) or p not in node:
            raise RulesError(f"override '{key}': '{p}' is not a rule section")
        node = node[p]
    if not isinstance(node, dict) or parts[-1] not in node:
        raise RulesError(f"override '{key}': no rule '{parts[-1]}' there")
    node[parts[-1]] = _checked(key, node[parts[-1]], value)


def _checked(key: str, old: Any, value: Any) -> Any:
    try:
        return check_value(key, old, value)  # type, list length, range (sim/games/tokaido/rules/bounds.py)
    except BoundsError as exc:
        raise RulesError(str(exc)) from None
