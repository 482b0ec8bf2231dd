"""What a rule value may be: its type, its list length and its range, so the kernels can hold it.

The kernels keep coins, points and costs in 16-bit fields (the action log and
the result records, ``kernels/tokaido/core/records.py``: at most 32,767) and card tables
in 16-bit arrays, so a value beyond them would wrap silently and give wrong
games. Two checks refuse such rules before any work, in one line naming the key:

- ``check_value`` (every override, as it is applied): a whole number where the
  data has one, true/false where it has one, a list of the data's length, each
  value in the key's range (``BOUNDS``: the first pattern that matches).
- ``check_totals`` (the built rules): a conservative bound of the coins and the
  score one player can collect in a game stays inside 16 bits, so values that
  are each in range cannot overflow together either.
"""

from __future__ import annotations

from collections.abc import Callable
from fnmatch import fnmatchcase
from typing import Any

from kernels.tokaido.core import enums as E

Rules = Any  # a sim.games.tokaido.rules.tables.Rules (not imported: tables imports this module)

INT16_MAX = 32_767
WHY_16 = (
    "coins, points and costs are kept in 16-bit fields (the action log and result records hold at most "
    "32,767) and a game adds many of them up"
)
WHY_DECK = f"a pile holds at most {E.DECK_CAP} cards"

# (pattern of the dotted key, lowest, highest, why); the first match wins
BOUNDS: tuple[tuple[str, int, int, str], ...] = (
    ("variants.preparations.*", -100, 100, WHY_16),
    ("souvenirs.draw", 1, 3, "a Village shows at most 3 cards (the kernels' village table)"),
    ("meals.hand_extra", 0, E.HAND_CAP, f"an Inn's meal hand holds at most {E.HAND_CAP} cards"),
    ("variants.gastronomy.hand_extra", 0, E.HAND_CAP, f"an Inn's meal hand holds at most {E.HAND_CAP} cards"),
    ("temple.max_donation", 1, 100, WHY_16),
    ("encounters.annaibito", 0, E.DECK_CAP, WHY_DECK),
    ("cards.*copies*", 0, E.DECK_CAP, WHY_DECK),
    (
        "crossroads.cards_by_players.*",
        0,
        E.MARKET_CAP,
        f"a Crossroads market holds at most {E.MARKET_CAP} cards",
    ),
    ("crossroads.fortune_die", 0, 10, WHY_16),
    ("crossroads.calligraphy.*_per_*", 0, 20, WHY_16),
    ("crossroads.legendary.script_bonus", 0, 20, WHY_16),
    ("panoramas.lengths", 1, 20, WHY_16),
    ("matsuri.closed_space_tokens", 0, 16, "closures are kept as one bit per station"),
    ("*", 0, 100, WHY_16),
)

# what the values of a fixed-length list are, for the message when the length is wrong
LIST_MEANING = {
    "encounters.annaibito": "copies for each panorama type: paddy, mountain, sea",
    "panoramas.lengths": "one per panorama type: paddy, mountain, sea",
    "temple.ranking_points": "1st, 2nd, 3rd and every further donor",
    "souvenirs.set_points": "the 1st to 4th different family in a set",
    "crossroads.fortune_die": "one per face of the die",
    "crossroads.calligraphy.patience": "last to arrive, second-last, anyone else",
}


class BoundsError(ValueError):
    """A rule value the kernels cannot hold (raised as ``RulesError`` by
    ``sim.games.tokaido.rules.tables``)."""


def bound(key: str) -> tuple[int, int, str]:
    """``(lowest, highest, why)`` for the values of the dotted key ``key``."""
    for pattern, lo, hi, why in BOUNDS:
        if fnmatchcase(key, pattern):
            return lo, hi, why
    raise AssertionError("the last pattern matches everything")  # pragma: no cover


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _in_range(key: str, x: int, shown: str) -> None:
    lo, hi, why = bound(key)
    if not lo <= x <= hi:
        raise BoundsError(f"{shown} is out of range: {key} takes {lo} to {hi} ({why})")


def check_value(key: str, old: Any, value: Any, origin: str = "override") -> Any:
    """``value`` for the rule ``key`` whose data value is ``old``; raises ``BoundsError`` saying why not.

    A single value for a list rule becomes a one-value list (then refused unless the list has one value).
    """
    shown = f"{origin} {key}={_text(value)}"
    if isinstance(old, bool):
        if not isinstance(value, bool):
            raise BoundsError(f"{shown}: {key} is true or false")
        return value
    if _is_int(old):
        if not _is_int(value):
            raise BoundsError(f"{shown}: {key} wants a whole number")
        _in_range(key, value, shown)
        return value
    if isinstance(old, list) and old and all(_is_int(x) for x in old):
        values = value if isinstance(value, list) else [value]
        if not all(_is_int(x) for x in values):
            raise BoundsError(f"{shown}: {key} wants whole numbers, comma-separated")
        if len(values) != len(old):
            meaning = LIST_MEANING.get(key, f"like the data's {','.join(map(str, old))}")
            raise BoundsError(f"{shown}: {key} takes {len(old)} values ({meaning}), got {len(values)}")
        for x in values:
            _in_range(key, x, shown)
        return values
    if isinstance(old, str) and isinstance(value, list) and value and all(isinstance(x, str) for x in value):
        return "+".join(
            value
        )  # names given comma-separated (--set draft.pool=base,promo): one "+"-joined text
    if isinstance(old, str) and not isinstance(value, str):
        raise BoundsError(f"{shown}: {key} wants a name, not {_text(value)}")
    return value


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(map(_text, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def check_data(raw: dict[str, Any]) -> None:
    """Every whole number of the rules data files (after overrides) in its key's range."""

    def walk(node: Any, key: str, file: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if not str(k).startswith("_") and k != "version":
                    walk(v, f"{key}.{k}" if key else str(k), file)
        elif isinstance(node, list):
            for x in node:
                walk(x, key, file)
        elif _is_int(node):
            _in_range(key, node, f"sim/games/tokaido/data/{file}.toml: {key}={node}")

    for section, value in raw["rules"].items():
        if isinstance(value, dict):
            walk(value, section, "rules")
    walk(raw["crossroads"], "crossroads", "crossroads")
    walk({k: v for k, v in raw["matsuri"].items() if k != "card"}, "matsuri", "matsuri")
    for name, value in raw["cards"].items():
        walk(value, f"cards.{name}" if name != "encounters" else "encounters", "cards")
    for t in raw["travelers"]["traveler"]:
        walk({k: v for k, v in t.items() if k != "name"}, f"travelers.{t.get('name')}", "travelers")


# ------------------------------------------------------------------ totals
EVENTS = E.N_SPACES + 10  # a player stops at most once per space, plus the end scoring
GAINS_PER_EVENT = 3  # e.g. three souvenirs at one Village, or a Kuge's coins and Umegae's
# rule numbers that are no amount a player collects (counts, thresholds, switches)
NOT_AMOUNTS = {
    "VILLAGE_DRAW",
    "VILLAGE_MIN_COINS",
    "HAND_EXTRA",
    "TEMPLE_MAX",
    "TEMPLE_MIN_COINS",
    "ACH_MIN",
    "INITIATION",
    "XR",
    "CHERRY_COPIES",
    "BATH_COPIES",
    "START_AMULET",
    "FASTING_INNS",
    "MATSURI",
    "M_DRAW",
    "M_HANABI_DRAW",
    "M_CLOSED_TOKENS",
    "M_CHOYO_HAND",
    "M_FRIENDSHIP_HALF",
    "M_OFUNE_SHARED_CARD",
    "M_DOLL_NOSTALGIA",
    "M_DOLL_FAMILY",
    "ANTOINE_TIES",
    "FELICIA_WIN_PPM",
    "FASTING_INNS_ERIKU",
    "RAKUREN_SOUVENIRS",
    "RAKUREN_LEGENDARY",
    "M_NEUTRAL_MOVER",
    "M_HANABI_CHOOSER",
    "MARI_FREE_TEMPLE",
    "KIDZUNA_HOSP_EITHER",
    "M_NEUTRAL_WATCHERS",
    "FORTUNE_BEFORE",
    "SECOND_OPTIONAL",
    "DEVOTION_PRINTED",
}
# end-scoring points per unit of something a player holds (at most EVENTS of it; Foresight: per coin)
PER_UNIT = {
    "CONTEMPLATION_PAN",
    "CONTEMPLATION_CHERRY",
    "NOSTALGIA_LEGEND",
    "NOSTALGIA_SOUVENIR",
    "PERFECTION_ACH",
    "PERFECTION_CALLI",
    "FASTING_MEAL",
    "SCRIPT_BONUS",
    "FORESIGHT",
}


def worst_case(rules: Rules) -> tuple[int, int]:
    """Upper bounds of the coins and of the score one player can collect in one game of ``rules``.

    Deliberately loose (every stop as rich as the richest rule number), so rules
    within it cannot overflow the 16-bit fields; the shipped rules stay far inside.
    """
    p = rules.params
    amounts = {
        k: v for k, v in p.items() if k not in NOT_AMOUNTS | PER_UNIT and not k.startswith("INITIATION")
    }
    coin_gains = [v for k, v in amounts.items() if "COIN" in k]  # FARM_COINS, KUGE_COINS, HIROTADA_COIN, ...
    if rules.crossroads:  # the Gaming Room pays back the bet times a die face
        coin_gains.append((p["GAMING_BET"] + p["JIROCHO_BET"]) * max(rules.fortune_die))
    points = [v for k, v in amounts.items() if "COIN" not in k]  # points, and costs (what "donated" adds up)
    points += rules.set_points + rules.ranking_points + rules.panorama_lengths
    points += [h.value for h in rules.hot_springs] + [m.cost for m in rules.meals]
    points += [s.cost for s in rules.souvenirs] + [lo.cost for lo in rules.legendary]
    start = max([p["INITIATION_COINS"], *(t.coins for t in rules.travelers)])
    prep = max([0, *(x for offs in rules.preparations.values() for x in offs)])
    coins = start + prep + EVENTS * GAINS_PER_EVENT * max([0, *coin_gains])
    score = EVENTS * GAINS_PER_EVENT * max([0, *points])
    if rules.crossroads:
        score += p["FORESIGHT"] * coins + EVENTS * sum(p[k] for k in PER_UNIT - {"FORESIGHT"})
    return coins, score


def check_totals(
    rules: Rules, overrides: tuple[tuple[str, Any], ...], rebuild: Callable[[int], Rules]
) -> None:
    """Refuse rules whose worst-case coins or score overflow 16 bits.

    ``rebuild(v)`` builds the rules again with the last numeric override set to
    ``v``, to tell the user how far that override may go with the other values as they are.
    """
    coins, score = worst_case(rules)
    if max(coins, score) <= INT16_MAX:
        return
    what = f"up to {coins:,} coins" if coins > INT16_MAX else f"a score of up to {score:,}"
    numeric = [(k, v) for k, v in overrides if _is_int(v)]
    if not numeric:
        raise BoundsError(
            f"the rules data lets a player reach {what} in a game, more than the 32,767 the engine's "
            "16-bit fields hold; lower the largest values in sim/games/tokaido/data/*.toml"
        )
    key, value = numeric[-1]
    lo, hi = bound(key)[0], int(value)
    while lo < hi:  # the largest value of ``key`` that fits (the bound grows with it)
        mid = (lo + hi + 1) // 2
        if max(worst_case(rebuild(mid))) <= INT16_MAX:
            lo = mid
        else:
            hi = mid - 1
    head = (
        f"override {key}={value} lets a player reach {what} in a game, more than the 32,767 the engine's "
        "16-bit fields hold"
    )
    if max(worst_case(rebuild(lo))) > INT16_MAX:
        raise BoundsError(f"{head}; lower the other overrides")
    raise BoundsError(f"{head}; with the other rules as they are, {key} takes at most {lo}")


def check_genders(genders: dict[str, Any], travelers: list[dict[str, Any]]) -> None:
    """Every gender F or M (``gender.NAME`` and ``travelers.NAME.gender``): Hina matsuri's Doll and Tango's
    Carp go by it (M16), and any other value would give neither."""
    named = [(f"gender.{n}", g) for n, g in genders.items()]
    for key, g in named + [(f"travelers.{t['name']}.gender", t["gender"]) for t in travelers]:
        if g not in ("M", "F"):
            raise BoundsError(f"{key} = {g!r}: choose M or F")
