"""The Matsuri cards as data: ``sim/games/tokaido/data/matsuri.toml`` -> the card table and the rule numbers.

``matsuri_cards(raw)`` checks every card (one line naming the card and what to fix) and returns
them; ``matsuri_params(raw, on)`` the ``P`` entries; ``card_table(cards)`` the two attributes the
kernels read from ``card[Deck.MATSURI]``: the kind (``Matsuri``) and ``timing * 16 + space + 1``
(space -1 none, ``Space`` 0..8, ``ANY_PANORAMA``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from kernels.tokaido.core import enums as E
from kernels.tokaido.core.events import MATSURI_KINDS, TIMING_NAMES, Matsuri, Timing
from sim.games.tokaido.rules.keys import RulesError

ANY_PANORAMA = 9
SPACES = {**{name: i for i, name in enumerate(E.SPACE_NAMES)}, "none": -1, "panorama": ANY_PANORAMA}
CLOSURES = (Matsuri.KAMIARISAI, Matsuri.TOKA_EBISU, Matsuri.MURA)
# the timing each effect is written for (the kernel resolves a kind at that moment only)
TIMING = {k: Timing.NOW for k in range(len(MATSURI_KINDS))}
TIMING.update(
    {
        k: Timing.LEG
        for k in (Matsuri.HADAKA, Matsuri.OHANAMI, Matsuri.GION, *CLOSURES, Matsuri.YAMA_NO_KO, Matsuri.OTAUE)
    }
)
TIMING[Matsuri.CHOYO] = Timing.NEXT_INN


@dataclass(frozen=True)
class MatsuriCard:
    id: int
    name: str
    kind: int  # kernels.tokaido.core.events.Matsuri
    timing: int  # kernels.tokaido.core.events.Timing
    space: int  # Space, -1 none, ANY_PANORAMA


def matsuri_cards(raw: dict[str, Any]) -> list[MatsuriCard]:
    cards = []
    for i, c in enumerate(raw["matsuri"]["card"]):
        where = f"sim/games/tokaido/data/matsuri.toml card {i + 1} ({c.get('name', '?')})"
        kind, timing, space = c.get("kind"), c.get("timing"), c.get("space", "none")
        if kind not in MATSURI_KINDS:
            raise RulesError(f"{where}: unknown kind {kind!r}; choose one of {', '.join(MATSURI_KINDS)}")
        if timing not in TIMING_NAMES:
            raise RulesError(f"{where}: timing {timing!r}; choose one of {', '.join(TIMING_NAMES)}")
        k = MATSURI_KINDS.index(kind)
        if TIMING_NAMES.index(timing) != TIMING[k]:
            raise RulesError(
                f"{where}: a {kind} card acts with timing {TIMING_NAMES[TIMING[k]]!r}, not {timing!r}"
            )
        if space not in SPACES:
            raise RulesError(f"{where}: space {space!r}; choose one of {', '.join(SPACES)}")
        if k in CLOSURES and SPACES[space] not in range(E.Space.VILLAGE, E.Space.ENCOUNTER + 1):
            raise RulesError(f"{where}: a closure needs a station space type, not {space!r}")
        cards.append(MatsuriCard(i, str(c["name"]), k, TIMING[k], SPACES[space]))
    if len(cards) > min(E.DECK_CAP, 63):
        raise RulesError(
            f"sim/games/tokaido/data/matsuri.toml: at most {min(E.DECK_CAP, 63)} Matsuri cards, not "
            f"{len(cards)}"
        )
    return cards


def matsuri_params(raw: dict[str, Any], on: bool) -> dict[str, int]:
    m = raw["matsuri"]
    ch = m["choices"]
    shi = [int(x) for x in m["shishimai_points"]]
    if len(shi) != 3:
        raise RulesError("matsuri.shishimai_points needs 3 values (1st, 2nd, 3rd donor)")
    out = {
        "MATSURI": int(on),
        "M_DRAW": m["draw"],
        "M_HANABI_DRAW": m["hanabi_draw"],
        "M_CLOSED_TOKENS": m["closed_space_tokens"],
        "M_HANAMI_COINS": m["hanami_coins"],
        "M_OBON_MAX": m["obon_max"],
        "M_CHOYO_DISCOUNT": m["choyo_discount"],
        "M_CHOYO_HAND": m["choyo_hand"],
        "M_TANABATA_POINTS": m["tanabata_points"],
        "M_OTAUE_COINS": m["otaue_coins"],
        "M_YAMA_SECTIONS": m["yama_sections"],
        "M_FRIENDSHIP_HALF": int(bool(ch["friendship_on_half_closed"])),
        "M_OFUNE_SHARED_CARD": int(bool(ch["ofune_shared_counts_as_card"])),
        "M_DOLL_NOSTALGIA": int(bool(ch["doll_counts_for_nostalgia"])),
    }
    families = list(raw["cards"]["souvenirs"]["families"])
    if m["doll_family"] not in families:
        raise RulesError(
            f"matsuri.doll_family = {m['doll_family']!r}: name a souvenir family of "
            f"sim/games/tokaido/data/cards.toml"
        )
    out["M_DOLL_FAMILY"] = families.index(m["doll_family"])
    out.update(choice_params(raw))
    if not 1 <= out["M_DRAW"] <= 2:
        raise RulesError(f"matsuri.draw = {out['M_DRAW']}: the first to arrive draws 1 or 2 cards (keeps 1)")
    if not 0 <= out["M_HANABI_DRAW"] <= 2:
        raise RulesError(f"matsuri.hanabi_draw = {out['M_HANABI_DRAW']}: Hanabi brings 0 to 2 more cards")
    if out["M_CHOYO_HAND"] > E.HAND_CAP:
        raise RulesError(
            f"matsuri.choyo_hand = {out['M_CHOYO_HAND']}: an Inn's hand holds at most {E.HAND_CAP}"
        )
    return {k: int(v) for k, v in out.items()}


def _named(section: dict[str, Any], where: str, key: str, names: tuple[str, ...]) -> int:
    """A rule chosen by name as its index in ``names`` (one line naming the choices otherwise)."""
    value = section[key]
    if value not in names:
        raise RulesError(f"{where}.{key} = {value!r}: choose one of {', '.join(map(repr, names))}")
    return names.index(value)


def choice_params(raw: dict[str, Any]) -> dict[str, int]:
    """The rule alternatives of the Matsuri cards and Travelers (docs/rules-choices.md M4, M18, M29, MT-*)."""
    ch, a = raw["matsuri"]["choices"], raw["rules"]["abilities"]
    return {
        "M_NEUTRAL_MOVER": int(not ch["first_arrival_skips_neutral"]),
        "M_NEUTRAL_WATCHERS": int(bool(ch["neutral_triggers_watchers"])),
        "M_HANABI_CHOOSER": _named(ch, "matsuri.choices", "hanabi_order", ("draw", "chooser")),
        "MARI_FREE_TEMPLE": int(bool(a["mari_free_temple"])),
        "KIDZUNA_HOSP_EITHER": _named(a, "abilities", "kidzuna_hospitality", ("main", "either")),
    }


def shishimai_points(raw: dict[str, Any]) -> list[int]:
    return [int(x) for x in raw["matsuri"]["shishimai_points"]]


def card_table(cards: list[MatsuriCard], card: np.ndarray, dsize: np.ndarray) -> None:
    """Write the Matsuri cards into the kernels' ``card`` and ``dsize`` tables (only with Matsuri on)."""
    for c in cards:
        card[E.Deck.MATSURI, :, c.id] = (c.kind, c.timing * 16 + c.space + 1)
    dsize[E.Deck.MATSURI] = len(cards)
