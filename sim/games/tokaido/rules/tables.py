"""The rules as data: load ``sim/games/tokaido/data/*.toml``, apply overrides, build kernel tables.

``Rules`` holds plain Python objects (what the referee and the reports read);
``Rules.tables()`` turns them into the integer arrays the kernels take. A
designer changes a rule by editing the TOML files or by passing overrides such
as ``{"travelers.kinko.coins": 6}``; no kernel changes.
"""

from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from typing import Any

import numpy as np

from kernels.tokaido.core import enums as E
from sim.games.tokaido.rules.bounds import BoundsError, check_data, check_genders
from sim.games.tokaido.rules.boxes import expansions_on, not_in_play
from sim.games.tokaido.rules.keys import RulesError, apply_override  # noqa: F401  (re-exported)
from sim.games.tokaido.rules.matsuri import (
    MatsuriCard,
    card_table,
    matsuri_cards,
    matsuri_params,
    shishimai_points,
)
from sim.games.tokaido.rules.online import online_params
from sim.overrides import parse_value  # noqa: F401  (re-exported)

DATA_FILES = ("board", "cards", "travelers", "rules", "crossroads", "matsuri")


@dataclass(frozen=True)
class Souvenir:
    id: int
    name: str
    family: int
    cost: int


@dataclass(frozen=True)
class Meal:
    id: int
    dish: int
    name: str
    cost: int


@dataclass(frozen=True)
class HotSpring:
    id: int
    value: int


@dataclass(frozen=True)
class Encounter:
    id: int
    kind: int  # kernels.tokaido.core.enums.Enc
    name: str
    panorama: int = -1  # Annaibito: the depicted panorama type


@dataclass(frozen=True)
class Legendary:
    id: int
    name: str
    kind: int  # kernels.tokaido.core.enums.Legend
    cost: int


@dataclass(frozen=True)
class Traveler:
    id: int
    name: str
    title: str
    coins: int
    gender: str
    ability: int  # kernels.tokaido.core.enums.Ability


@dataclass
class Rules:
    """Every fact of the game the engine needs, as plain Python values."""

    version: str
    raw: dict[str, Any]
    board_types: list[int]
    board_double: list[bool]
    souvenir_families: list[str]
    souvenirs: list[Souvenir]
    dishes: list[str]
    meals: list[Meal]
    hot_springs: list[HotSpring]
    encounters: list[Encounter]
    travelers: list[Traveler]
    params: dict[str, int] = field(default_factory=dict)
    set_points: list[int] = field(default_factory=list)
    panorama_lengths: list[int] = field(default_factory=list)
    ranking_points: list[int] = field(default_factory=list)
    preparations: dict[int, list[int]] = field(default_factory=dict)
    crossroads: bool = False
    legendary: list[Legendary] = field(default_factory=list)
    amulets: list[str] = field(default_factory=list)  # Amulet card id -> kind name
    calligraphy: list[str] = field(default_factory=list)  # Calligraphy card id -> kind name
    crossroads_cards: dict[int, int] = field(default_factory=dict)  # players -> cards per type
    fortune_die: list[int] = field(default_factory=list)
    matsuri: list[MatsuriCard] = field(default_factory=list)  # empty unless Matsuri is on
    pool: list[int] = field(
        default_factory=list
    )  # the Travelers dealt from (draft.pool), ids in order; empty: all

    def pool_ids(self) -> list[int]:
        """The ids of the Travelers dealt from, drafted or at random (``draft.pool``)."""
        return list(self.pool) if self.pool else [t.id for t in self.travelers]

    def traveler_index(self, name: str) -> int:
        for t in self.travelers:
            if t.name == name:
                return t.id
        for t in self.raw["travelers"]["traveler"]:  # a Traveler of a box not in play, or needing another one
            if t["name"] == name:
                raise RulesError(not_in_play(t, expansions_on(self.raw)))
        known = ", ".join(t.name for t in self.travelers)
        raise RulesError(f"unknown Traveler '{name}'; choose from: {known}")

    def fingerprint(self) -> str:
        """Short hash of the effective rules (data plus overrides)."""
        blob = json.dumps(self.raw, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def tables(self) -> dict[str, np.ndarray]:
        """The integer arrays the kernels take (layout: ``kernels/tokaido/core/enums.py``)."""
        board = np.zeros((2, E.N_SPACES), np.int8)
        board[0, :] = self.board_types
        board[1, :] = [int(d) for d in self.board_double]
        card = np.full((E.N_DECKS, 2, E.DECK_CAP), -1, np.int16)
        dsize = np.zeros(E.N_DECKS, np.int16)
        for s in self.souvenirs:
            card[E.Deck.SOUVENIR, :, s.id] = (s.family, s.cost)
        for m in self.meals:
            card[E.Deck.MEAL, :, m.id] = (m.dish, m.cost)
        for h in self.hot_springs:
            card[E.Deck.HOT_SPRING, :, h.id] = (h.value, 0)
        for e in self.encounters:
            card[E.Deck.ENCOUNTER, :, e.id] = (e.kind, e.panorama)
        dsize[:4] = (len(self.souvenirs), len(self.meals), len(self.hot_springs), len(self.encounters))
        params = np.zeros(E.P_N, np.int32)
        for name, value in self.params.items():
            params[getattr(E.P, name)] = value
        sp = (self.set_points + [0] * E.N_FAMILIES)[: E.N_FAMILIES]
        if self.crossroads and len(self.set_points) < E.N_FAMILIES:
            sp[len(self.set_points)] = self.params["FIFTH_FAMILY_POINTS"]
        params[E.P.SET_PTS0 : E.P.SET_PTS0 + E.N_FAMILIES] = sp
        params[E.P.PAN_LEN0 : E.P.PAN_LEN0 + 3] = self.panorama_lengths
        params[E.P.RANK_PTS0 : E.P.RANK_PTS0 + 4] = self.ranking_points
        params[E.P.N_FAMILIES] = len(self.souvenir_families) + (1 if self.crossroads else 0)
        params[E.P.FIFTH_FAMILY_POINTS] = 0
        params[E.P.DIE0 : E.P.DIE0 + 6] = self.fortune_die
        if self.matsuri:
            card_table(self.matsuri, card, dsize)
            params[E.P.M_SHISHIMAI0 : E.P.M_SHISHIMAI0 + 3] = shishimai_points(self.raw)
        trav = np.zeros((len(self.travelers), 3), np.int32)
        for t in self.travelers:
            trav[t.id] = (t.coins, t.ability, 1 if t.gender == "F" else 0)
        xcard = np.full((E.N_MARKETS, 2, E.MARKET_CAP), -1, np.int16)
        for lo in self.legendary:
            xcard[0, :, lo.id] = (lo.kind, lo.cost)
        for i, name in enumerate(self.amulets):
            xcard[1, :, i] = (E.AMULET_NAMES.index(name), 0)
        for i, name in enumerate(self.calligraphy):
            xcard[2, :, i] = (E.CALLI_NAMES.index(name), 0)
        return {
            "board": board,
            "card": card,
            "dsize": dsize,
            "params": params,
            "trav": trav,
            "xcard": xcard,
        }


def _read_data() -> dict[str, Any]:
    root = resources.files("sim.games.tokaido.data")
    out: dict[str, Any] = {}
    for name in DATA_FILES:
        out[name] = tomllib.loads((root / f"{name}.toml").read_text())
    return out


def load_rules(overrides: dict[str, Any] | None = None) -> Rules:
    """Load the data files, apply ``overrides`` (dotted keys), and build ``Rules``."""
    raw = copy.deepcopy(_read_data())
    for key, value in (overrides or {}).items():
        apply_override(raw, key, value)
    return build_rules(raw)


def build_rules(raw: dict[str, Any]) -> Rules:
    try:
        check_data(raw)
        return _build(raw)
    except BoundsError as exc:
        raise RulesError(str(exc)) from None
    except (KeyError, TypeError, ValueError) as exc:  # a malformed data file
        if isinstance(exc, RulesError):
            raise
        raise RulesError(f"malformed rules data: {exc!r}; check sim/games/tokaido/data/*.toml") from exc


def matsuri_traveler_params(a: dict[str, Any], families: tuple[str, ...]) -> dict[str, int]:
    """The Matsuri Travelers' numbers (rules.toml [abilities], expansions.md A.9 MT-* defaults)."""
    return {
        "AYUMU_FREE_FAMILY": _choice(a, "ayumu_free_family", families),
        "TITIA_FAMILY": _choice(a, "titia_family", families),
        "AYUMU_MEAL_COST": a["ayumu_meal_cost"],
        "KAMUI_POINTS": a["kamui_points"],
        "KAMUI_FREE_CANCELS": int(bool(a["kamui_free_meal_cancels"])),
        "WATCHER_COINS": a["watcher_coins"],
        "MARI_TEMPLE_MULT": a["mari_temple_points"],
        "MARI_DOUBLE_DEVOTION": int(bool(a["mari_double_devotion"])),
        "KUSHINADA_COINS": a["kushinada_coins"],
        "SUSERI_POINTS": a["suseri_points"],
        "IYASAKA_FARM_BONUS": a["iyasaka_farm_bonus"],
        "MUSUBI_TIMING": _choice(a, "musubi_timing", ("on_arrival", "all_arrived")),
        "YASHIMA_SAME_INN": int(bool(a["yashima_same_inn"])),
        "TITIA_DISCOUNT": a["titia_discount"],
        "MARIHITO_TIMES": a["marihito_times"],
        "RAKUREN_SOUVENIRS": a["rakuren_souvenirs"],
        "RAKUREN_LEGENDARY": int(bool(a["rakuren_legendary"])),
    }


def enabled_sets(r: dict[str, Any]) -> set[str]:
    """The boxes in play; a Traveler's `set` names the box it comes in (a list when printed in two)."""
    return {"base"} | {
        s
        for s, on in (
            ("crossroads", r.get("_crossroads")),
            ("matsuri", r.get("_matsuri")),
            ("promo", r.get("_promos")),
        )
        if on
    }


def in_sets(t: dict[str, Any], sets: set[str], needs: bool = True) -> bool:
    """Is Traveler ``t`` in play? ``needs``: expansions it cannot be played without (Yashima: Amulets)."""
    s = t.get("set", "base")
    return bool(sets & ({s} if isinstance(s, str) else set(s))) and (
        not needs or set(t.get("needs", ())) <= sets
    )


BOXES = {
    "base": "base",
    "crossroads": "crossroads",
    "matsuri": "matsuri",
    "promo": "promo",
    "promos": "promo",
}
POOL_HELP = "all, boxes (base, crossroads, matsuri, promo) or Traveler names joined by +, e.g. base"


def draft_pool(value: Any, in_play: list[dict[str, Any]], sets: set[str]) -> list[int]:
    """The ids of the Travelers dealt from (``draft.pool``), ascending: every one of ``in_play`` for
    "all", else the union of the boxes and Travelers named (a Traveler printed in two boxes is in both)."""
    items = value if isinstance(value, list) else str(value).replace(",", "+").split("+")
    names = [str(x).strip().lower() for x in items if str(x).strip()]
    if not names:
        raise RulesError(f"draft.pool is empty; give {POOL_HELP}")
    if names == ["all"]:
        return list(range(len(in_play)))
    chosen: set[int] = set()
    for name in names:
        if name in BOXES:
            box = BOXES[name]
            if box not in sets:
                flag = "promos" if box == "promo" else box
                raise RulesError(
                    f"draft.pool names the {flag} box, which is not in play; add --expansions {flag} "
                    "or leave it out of the pool"
                )
            chosen |= {i for i, t in enumerate(in_play) if in_sets(t, {box}, needs=False)}
        else:
            ids = [i for i, t in enumerate(in_play) if t["name"] == name]
            if not ids:
                raise RulesError(f"draft.pool: '{name}' is no box and no Traveler in play; give {POOL_HELP}")
            chosen |= set(ids)
    return sorted(chosen)


def _choice(section: dict[str, Any], key: str, names: tuple[str, ...]) -> int:
    """A rule chosen by name (e.g. ``abilities.satsuki_free_meal = "hand"``) as its index in ``names``."""
    value = section[key]
    if value not in names:
        raise RulesError(f"{key} = {value!r}: choose one of {', '.join(names)}")
    return names.index(value)


def promo_params(ab: dict[str, Any], cal: dict[str, Any]) -> dict[str, int]:
    """The promo Travelers' numbers (expansions.md P1-P8); a probability enters the tables in millionths."""
    raw = ab["felicia_win_p"]
    try:  # a number, or text such as "1/3" or "0.5" (--set abilities.felicia_win_p=1/3)
        p = Fraction(str(raw)) if not isinstance(raw, bool) else None
    except (ValueError, ZeroDivisionError):
        p = None
    if p is None or not 0 <= p <= 1:
        raise RulesError(f"abilities.felicia_win_p = {raw!r}: a probability from 0 to 1, e.g. 1/3 or 0.5")
    return {
        "ANTOINE_TIES": _choice(ab, "antoine_ties", ("off", "wins")),
        "FELICIA_WIN_PPM": round(p * 1_000_000),
        "FASTING_INNS_ERIKU": cal["fasting_inns_eriku"],
    }


def _build(raw: dict[str, Any]) -> Rules:
    r = raw["rules"]
    types = [E.SPACE_NAMES.index(s["type"]) for s in raw["board"]["spaces"]]
    if len(types) != E.N_SPACES or types[0] != E.Space.INN or types[-1] != E.Space.INN:
        raise RulesError(f"the board must have {E.N_SPACES} spaces starting and ending with an Inn")
    double = [bool(s.get("double", False)) for s in raw["board"]["spaces"]]

    sv = raw["cards"]["souvenirs"]
    families = list(sv["families"])
    souvenirs = [
        Souvenir(i, c["name"], families.index(c["family"]), int(c["cost"])) for i, c in enumerate(sv["cards"])
    ]
    dishes: list[str] = []
    meals: list[Meal] = []
    for d, dish in enumerate(raw["cards"]["meals"]["dishes"]):
        dishes.append(dish["name"])
        for _ in range(int(dish["copies"])):
            meals.append(Meal(len(meals), d, dish["name"], int(dish["cost"])))
    hots: list[HotSpring] = []
    for h in raw["cards"]["hot_springs"]["cards"]:
        for _ in range(int(h["copies"])):
            hots.append(HotSpring(len(hots), int(h["value"])))
    enc_cfg = raw["cards"]["encounters"]
    encounters: list[Encounter] = []
    for c in enc_cfg["base"]:
        for _ in range(int(c["copies"])):
            encounters.append(Encounter(len(encounters), E.ENC_NAMES.index(c["kind"]), c["kind"]))
    for pan, copies in enumerate(enc_cfg["annaibito"]):
        for _ in range(int(copies)):
            encounters.append(Encounter(len(encounters), E.Enc.ANNAIBITO, "annaibito", pan))
    if r.get("_new_encounters", False):
        for c in enc_cfg["new_encounters"]:
            for _ in range(int(c["copies"])):
                encounters.append(Encounter(len(encounters), E.ENC_NAMES.index(c["kind"]), c["kind"]))
    for name, deck in (
        ("souvenir", souvenirs),
        ("meal", meals),
        ("hot spring", hots),
        ("encounter", encounters),
    ):
        if len(deck) > E.DECK_CAP:
            raise RulesError(f"too many {name} cards ({len(deck)} > {E.DECK_CAP})")

    xr = bool(r.get("_crossroads", False))
    sets = enabled_sets(r)
    in_play = [t for t in raw["travelers"]["traveler"] if in_sets(t, sets)]
    genders = r.get("gender", {})  # genders the seeds leave open (P2), overridable with --set gender.NAME=F
    check_genders(genders, raw["travelers"]["traveler"])
    travelers = [
        Traveler(
            i,
            t["name"],
            t.get("title", ""),
            int(t["coins"]),
            genders.get(t["name"], t["gender"]),
            E.ABILITY_NAMES.index(t["ability"]),
        )
        for i, t in enumerate(in_play)
    ]
    if len(travelers) > E.MAX_POOL:
        raise RulesError(f"at most {E.MAX_POOL} Travelers fit in one pool")
    for t in travelers:
        if t.coins < 0:
            raise RulesError(f"Traveler '{t.name}' has negative coins ({t.coins})")
    pool = draft_pool(r["draft"].get("pool", "all"), in_play, sets)

    v = r["variants"]
    params = {
        "VILLAGE_DRAW": r["souvenirs"]["draw"],
        "VILLAGE_MIN_COINS": r["souvenirs"]["min_coins_to_stop"],
        "MEAL_POINTS": r["meals"]["points"],
        "HAND_EXTRA": r["meals"]["hand_extra"],
        "PAN_ACH_POINTS": r["panoramas"]["achievement_points"],
        "FARM_COINS": r["farm"]["coins"],
        "TEMPLE_MAX": r["temple"]["max_donation"],
        "TEMPLE_MIN_COINS": r["temple"]["min_coins_to_stop"],
        "NEUTRAL_BANK_COIN": r["temple"]["neutral_bank_coin"],
        "SAMURAI_POINTS": r["encounters"]["samurai_points"],
        "KUGE_COINS": r["encounters"]["kuge_coins"],
        "MIKO_POINTS": r["encounters"]["miko_points"],
        "ITAMAE_COST": r["encounters"]["itamae_cost"],
        "KITOUSHI_COST": r["encounters"]["kitoushi_cost"],
        "TAKUHATSUSO_COST": r["encounters"]["takuhatsuso_cost"],
        "TAKUHATSUSO_POINTS": r["encounters"]["takuhatsuso_points"],
        "ACH_POINTS": r["achievements"]["points"],
        "ACH_MIN": r["achievements"]["min_count"],
        "KINKO_DISCOUNT": r["abilities"]["kinko_meal_discount"],
        "ZEN_EMON_PRICE": r["abilities"]["zen_emon_price"],
        "UMEGAE_POINTS": r["abilities"]["umegae_points"],
        "UMEGAE_COINS": r["abilities"]["umegae_coins"],
        "MITSUKUNI_BONUS": r["abilities"]["mitsukuni_bonus"],
        "HIROTADA_COIN": r["abilities"]["hirotada_bank_coin"],
        "SATSUKI_PILE": _choice(r["abilities"], "satsuki_free_meal", ("hand", "pile")),
        "ITAMAE_INN_MEAL": int(bool(r["meals"]["itamae_is_the_inn_meal"])),
        **matsuri_traveler_params(r["abilities"], tuple(families)),
        "INITIATION": int(r.get("_initiation", False)),
        "INITIATION_COINS": v["initiation"]["coins"],
    }
    params.update(promo_params(r["abilities"], raw["crossroads"]["calligraphy"]))
    x = raw["crossroads"]
    die = [int(f) for f in x["fortune_die"]]
    if len(die) != 6:
        raise RulesError("crossroads.fortune_die needs 6 faces")
    legendary = [
        Legendary(i, c["name"], E.LEGEND_KINDS.index(c["kind"]), int(c["cost"]))
        for i, c in enumerate(x["legendary"]["cards"])
    ]
    amulets = [str(a) for a in x["amulets"]["cards"]]
    calligraphy = [str(c) for c in x["calligraphy"]["cards"]]
    for name, names, known in (
        ("amulets", amulets, E.AMULET_NAMES),
        ("calligraphy", calligraphy, E.CALLI_NAMES),
    ):
        for n in names:
            if n not in known:
                raise RulesError(f"crossroads.{name}: unknown card '{n}'; known: {', '.join(known)}")
    if max(len(legendary), len(amulets), len(calligraphy)) > E.MARKET_CAP:
        raise RulesError(f"at most {E.MARKET_CAP} cards per Crossroads market")
    cal = x["calligraphy"]
    params.update(
        XR=int(xr),
        CHERRY_POINTS=x["cherry_tree"]["points"],
        CHERRY_COPIES=x["cherry_tree"]["copies"],
        BATH_COPIES=x["bathhouse"]["copies"],
        CHERRY_COINS=x["cherry_tree"]["coins"],
        BATH_COST=x["bathhouse"]["cost"],
        BATH_POINTS=x["bathhouse"]["points"],
        GAMING_BET=x["gaming_room"]["bet"],
        AMULET_COST=x["amulets"]["cost"],
        CALLI_COST=cal["cost"],
        START_AMULET=int(bool(x["start_amulet"])),
        AMULET_SAME_STOP=int(bool(x["amulets"]["usable_where_bought"])),
        START_AMULET_COST=x["start_amulet_cost"],
        SWORD_POINTS=x["legendary"]["sword_points"],
        FIFTH_FAMILY_POINTS=x["legendary"]["fifth_family_points"],
        SCRIPT_BONUS=x["legendary"]["script_bonus"],
        **online_params(x),
        GOTOZAEMON_COINS=x["abilities"]["gotozaemon_coins"],
        JIROCHO_BET=x["abilities"]["jirocho_bet"],
        FORESIGHT=cal["foresight_per_coin"],
        CONTEMPLATION_PAN=cal["contemplation_per_panorama"],
        CONTEMPLATION_CHERRY=cal["contemplation_per_cherry_tree"],
        NOSTALGIA_LEGEND=cal["nostalgia_per_legendary"],
        NOSTALGIA_SOUVENIR=cal["nostalgia_per_souvenir"],
        PATIENCE_LAST=cal["patience"][0],
        PATIENCE_SECOND=cal["patience"][1],
        PATIENCE_OTHER=cal["patience"][2],
        PERFECTION_ACH=cal["perfection_per_achievement"],
        PERFECTION_CALLI=cal["perfection_per_calligraphy"],
        FASTING_MEAL=cal["fasting_per_meal"],
        FASTING_INNS=cal["fasting_inns"],
    )
    mats = bool(r.get("_matsuri", False))
    matsuri = matsuri_cards(raw) if mats else []
    if mats:
        params.update(matsuri_params(raw, True))
    for k, val in params.items():
        params[k] = int(val)
    if params["VILLAGE_DRAW"] > 3:
        raise RulesError("souvenirs.draw is at most 3 (the kernels' village table)")
    if not 0 <= params.get("RAKUREN_SOUVENIRS", 0) <= 4:
        raise RulesError("abilities.rakuren_souvenirs is 0 to 4 (the kernels' Shop table holds 4 cards)")
    rank = [int(x) for x in r["temple"]["ranking_points"]]
    if len(rank) != 4:
        raise RulesError("temple.ranking_points needs exactly 4 values")
    from_last = [int(x) for x in v["preparations"]["from_last"]]
    if len(from_last) < E.MAX_PLAYERS:
        raise RulesError(
            f"variants.preparations.from_last needs {E.MAX_PLAYERS} values (last to leave first)"
        )
    # counted back from the last to leave: seat n-1 gets from_last[0], seat n-2 from_last[1], ...
    prep = {
        n: [int(c) for c in v["preparations"].get(str(n), [])] or from_last[:n][::-1]
        for n in range(2, E.MAX_PLAYERS + 1)
    }
    for n_players, offs in prep.items():
        if len(offs) != n_players:
            raise RulesError(f"variants.preparations.{n_players} needs {n_players} values, got {len(offs)}")
    if x["by_player_count"]:
        xr_in_play = {int(k): int(val) for k, val in x["cards_by_players"].items()}
    else:  # every card of the box, at every player count
        box = max(
            len(legendary),
            len(amulets),
            len(calligraphy),
            x["cherry_tree"]["copies"],
            x["bathhouse"]["copies"],
        )
        xr_in_play = {n: int(box) for n in range(2, E.MAX_PLAYERS + 1)}
    return Rules(
        version=str(r["version"]),
        raw=raw,
        board_types=types,
        board_double=double,
        souvenir_families=families,
        souvenirs=souvenirs,
        dishes=dishes,
        meals=meals,
        hot_springs=hots,
        encounters=encounters,
        travelers=travelers,
        params=params,
        set_points=[int(x) for x in r["souvenirs"]["set_points"]],
        panorama_lengths=[int(x) for x in r["panoramas"]["lengths"]],
        ranking_points=rank,
        preparations=prep,
        crossroads=xr,
        legendary=legendary,
        amulets=amulets,
        calligraphy=calligraphy,
        crossroads_cards=xr_in_play,
        fortune_die=die,
        matsuri=matsuri,
        pool=pool,
    )
