"""Which box a Traveler comes in, and what a game must add to play him: the line for a Traveler not in play.

A Traveler's ``set`` in ``sim/games/tokaido/data/travelers.toml`` names his box (a list when printed in two:
Titia and Yashima come with Matsuri and as promos); ``needs`` the expansions he cannot be played
without (Yashima: Crossroads' Amulets). ``not_in_play`` turns that into the clause every message
about him uses, e.g. ``daigoro is a Crossroads Traveler: add --expansions crossroads``.
"""

from __future__ import annotations

from typing import Any

# --expansions names, in their canonical order, and their flags in the raw rules (GameConfig.raw)
EXPANSION_FLAGS = {
    "new-encounters": "_new_encounters",
    "crossroads": "_crossroads",
    "matsuri": "_matsuri",
    "promos": "_promos",
}
# a Traveler's box: what messages call it, and the expansions that bring it into a game
BOXES = {
    "crossroads": ("Crossroads", ("crossroads",)),
    "matsuri": ("Matsuri", ("crossroads", "matsuri")),
    "promo": ("promo", ("promos",)),
}


def expansions_on(raw: dict[str, Any]) -> tuple[str, ...]:
    """The expansions of the raw rules (``Rules.raw``), by their flags."""
    r = raw["rules"]
    return tuple(x for x, flag in EXPANSION_FLAGS.items() if r.get(flag))


def boxes(t: dict[str, Any]) -> list[str]:
    s = t.get("set", "base")
    return [s] if isinstance(s, str) else list(s)


def not_in_play(t: dict[str, Any], expansions: Any) -> str:
    """Why the Traveler ``t`` (a travelers.toml entry) is not in a game with ``expansions``, and what to add.

    ``expansions``: the game's --expansions names, or an object that has them (a ``GameConfig``).
    """
    on = set(getattr(expansions, "expansions", expansions))
    name, mine = t["name"], boxes(t)
    in_play = {"base"} | {b for b, (_, need) in BOXES.items() if need[-1] in on}
    if in_play & set(mine):  # his box is in play, but he needs another expansion
        return f"Traveler '{name}' needs --expansions {','.join(t['needs'])} (seed 002): add it"

    def option(box: str) -> str:
        want = on | set(BOXES[box][1]) | set(t.get("needs", ()))
        return "--expansions " + ",".join(x for x in EXPANSION_FLAGS if x in want)

    kinds = " or ".join(BOXES[b][0] for b in mine if b in BOXES)
    return f"{name} is a {kinds} Traveler: add {' or '.join(option(b) for b in mine if b in BOXES)}"
