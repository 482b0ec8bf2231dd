"""The bots' data, in one place: weight vectors from their files, the configuration key, the draft tables
and the search's evaluation, and the rules record's bot part built from them.

A configuration's key (``config_key``) names every table kept per configuration: ``4p-base``,
``3p-crossroads``, ``4p-crossroads+matsuri`` (every expansion counts). Tuned weight files
(``sim/games/tokaido/data/bots/NAME-KEY.toml``), draft tables (``draft-TABLE.toml``), the search's evaluation
(``search_eval.toml``), the agreement tables (``agreement-TIER.toml``) and the report's tier checks are
all found by it. Data measured for fewer expansions serves a configuration that has none of its own:
``lookup_keys`` tries the key itself, then the keys of ever fewer of its expansions (the base game
last), so the Crossroads weights play ``4p-crossroads+matsuri`` until that configuration has its own.

The kernels read a weight vector by the indices of ``kernels.tokaido.core.weights``; weight files name them
(``[features]``, ``[expert]``, ``[search]``, ``[travelers]``; ``inherit = "OTHER"`` starts from another
bot's table). ``sim.games.tokaido.engine.rules_record`` asks ``bot_rows`` for the record's bot part.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterable
from importlib import resources

import numpy as np

from kernels.tokaido.core import enums as E
from kernels.tokaido.core import weights as Wt
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from sim.games.tokaido.rules.tables import Rules, RulesError

BOT_DIR = "bots"  # sim/games/tokaido/data/bots/NAME.toml: one weight file per heuristic-tier bot
TYPE_KEYS = tuple(f"type_{n}" for n in E.SPACE_NAMES)  # [features] keys of the per-type biases
# sim/games/tokaido/data/bots/draft-TABLE.toml: win shares by configuration
# (sim/games/tokaido/tuning/draft.py)
DRAFT_PREFIX = "draft-"
SEARCH_EVAL = (
    "search_eval"  # sim/games/tokaido/data/bots/search_eval.toml: the search bot's fitted Inn evaluation
)


def config_key(n_players: int, expansions: Iterable[str] = ()) -> str:
    """The one name of a configuration in the bots' tables: ``4p-base``, ``4p-crossroads+matsuri``."""
    return f"{n_players}p-{'+'.join(sorted(set(expansions))) or 'base'}"


def key_of(config: GameConfig) -> str:
    """``config_key`` of a ``GameConfig``."""
    return config_key(config.n_players, config.expansions)


def lookup_keys(config: GameConfig) -> list[str]:
    """The keys a configuration's bot data is looked up under, most specific first: its own, then
    those of ever fewer of its expansions, the base game last."""
    xs = sorted(set(config.expansions))
    keys = []
    for size in range(len(xs), -1, -1):
        keys += [config_key(config.n_players, c) for c in itertools.combinations(xs, size)]
    return keys


def feature_names() -> list[str]:
    """The ``[features]`` keys of a weight file, in ``W.HF0 + k`` order."""
    names = [n.lower() for n in Wt.HF._fields if n != "TYPE0"]
    return names + list(TYPE_KEYS)


def feature_index(key: str) -> int:
    """Index of a ``[features]`` key in a weight vector."""
    if key in TYPE_KEYS:
        return Wt.W.HF0 + Wt.HF.TYPE0 + TYPE_KEYS.index(key)
    if key.upper() in Wt.HF._fields and key != "type0":
        return Wt.W.HF0 + getattr(Wt.HF, key.upper())
    raise ConfigError(f"unknown feature '{key}' in a bot weight file; known: {', '.join(feature_names())}")


def expert_index(key: str) -> int:
    """Index of an ``[expert]`` key: ``coin_use`` -> ``XF0 + XF.COIN_USE``; ``amulet_health`` -> its
    Amulet."""
    if key.startswith("amulet_") and key[7:] in E.AMULET_NAMES:
        return Wt.W.XF0 + Wt.XF.AMULET0 + E.AMULET_NAMES.index(key[7:])
    if key.upper() in Wt.XF._fields and key != "amulet0":
        return Wt.W.XF0 + getattr(Wt.XF, key.upper())
    raise ConfigError(
        f"unknown [expert] key '{key}' in a bot weight file; known: {', '.join(expert_names())}"
    )


def expert_names() -> list[str]:
    """The ``[expert]`` keys of a weight file, in ``W.XF0 + k`` order."""
    names = [n.lower() for n in Wt.XF._fields]
    i = names.index("amulet0")
    return names[:i] + [f"amulet_{a}" for a in E.AMULET_NAMES] + names[i + 1 :]


def data_file(name: str):
    """``sim/games/tokaido/data/bots/NAME.toml`` (it may not exist)."""
    return resources.files("sim.games.tokaido.data") / BOT_DIR / f"{name}.toml"


def weight_file(name: str, config: GameConfig | None = None):
    """The file of bot ``name`` for ``config``: ``NAME-KEY.toml`` for the first of its ``lookup_keys`` that
    has one, else ``NAME.toml``; None when neither exists (random, greedy:
    ``sim/games/tokaido/data/bots.toml``)."""
    for key in lookup_keys(config) if config is not None else ():
        path = data_file(f"{name}-{key}")
        if path.is_file():
            return path
    path = data_file(name)
    return path if path.is_file() else None


def bot_table(name: str, config: GameConfig | None = None, keyed: bool = True) -> dict:
    """The raw TOML table of bot ``name``: ``sim/games/tokaido/data/bots.toml`` or
    ``sim/games/tokaido/data/bots/NAME.toml``.

    A weight file may say ``inherit = "OTHER"``: OTHER's table, then this file's keys on top.
    With a ``config``, the file tuned for it (``weight_file``) is read instead of ``NAME.toml`` when
    there is one, along the inherit chain too (``NAME-KEY.toml`` may inherit ``NAME``: then ``NAME.toml``).
    """
    data = tomllib.loads((resources.files("sim.games.tokaido.data") / "bots.toml").read_text())
    if name in data:
        return dict(data[name])
    path = weight_file(name, config if keyed else None)
    if path is None:
        return {}
    table = tomllib.loads(path.read_text())
    parent = table.pop("inherit", None)
    if parent is None:
        return table
    base = bot_table(str(parent), config, keyed=str(parent) != name)
    for k, value in table.items():
        base[k] = {**base.get(k, {}), **value} if isinstance(value, dict) else value
    return base


def _section(data: dict, config: GameConfig) -> tuple[str, dict | None]:
    """(name, section) of a table kept per configuration: the first of ``lookup_keys`` it has, each tried
    with the variants first (``KEY-VARIANTS``) when variants are on; (the configuration's key, None)."""
    tail = "-" + "+".join(sorted(config.variants)) if config.variants else ""
    for key in lookup_keys(config):
        for name in (key + tail, key) if tail else (key,):
            if data.get(name) is not None:
                return name, data[name]
    return key_of(config), None


def draft_values(table: str, config: GameConfig, rules: Rules) -> dict[int, float] | None:
    """Traveler index -> win share under random assignment, for this configuration (None: no table).

    A Traveler the table lacks gets the fair share 1/N: missing data never decides.
    """
    path = data_file(DRAFT_PREFIX + table)
    if not path.is_file():
        return None
    sect = _section(tomllib.loads(path.read_text()), config)[1]
    if sect is None:
        return None
    fair = 1.0 / config.n_players
    return {i: float(sect.get(t.name, fair)) for i, t in enumerate(rules.travelers)}


def weights_from_table(table: dict, rules: Rules) -> np.ndarray:
    """A weight vector (indices ``weights.W``) from a bot's TOML table."""
    w = np.zeros(Wt.W_N, np.float64)
    for key, value in table.items():
        if key == "travelers":
            for tname, v in value.items():
                try:
                    w[Wt.W.TRAV0 + rules.traveler_index(tname)] = float(v)
                except RulesError:
                    continue  # a Traveler these rules do not have (e.g. Crossroads off)
        elif key == "features":
            for fname, v in value.items():
                w[feature_index(fname)] = float(v)
        elif key == "search":
            for sname, v in value.items():
                w[getattr(Wt.W, "S_" + sname.upper())] = float(v)
        elif key == "expert":
            w[Wt.W.EXPERT] = 1.0
            for xname, v in value.items():
                w[expert_index(xname)] = float(v)
        elif key == "draft_table":
            continue  # read by bot_weights with the configuration
        else:
            w[getattr(Wt.W, key.upper())] = float(value)
    return w


def bot_weights(name: str, rules: Rules, config: GameConfig | None = None) -> np.ndarray:
    """The weight vector of bot ``name`` (``sim/games/tokaido/data/bots.toml``,
    ``sim/games/tokaido/data/bots/NAME.toml``).

    With ``config``: the weight file tuned for that configuration if there is one, and the
    draft values of the tier's ``draft_table`` (``sim/games/tokaido/data/bots/draft-TABLE.toml``) as its
    Traveler priors.
    """
    table = bot_table(name, config)
    w = weights_from_table(table, rules)
    if config is not None and "draft_table" in table:
        vals = draft_values(str(table["draft_table"]), config, rules)
        if vals is not None:
            w[Wt.W.DRAFT_COIN] = 0.0  # win shares already count the starting coins
            for i, v in vals.items():
                w[Wt.W.TRAV0 + i] = v
    return w


def search_eval(config: GameConfig, rules: Rules | None = None) -> np.ndarray:
    """The search bot's evaluation coefficients for ``config`` (``kernels.tokaido.search.margin_nb``): Inns
    1-3,
    ``EV_NF`` each, then each Traveler's worth still to come at Inns 1-3 (``EV_NT`` each, by the
    index of ``rules.travelers``; the section's ``travelers`` table, by name); zeros (the score as if
    the journey ended there) when the file has no section for the configuration."""
    out = np.zeros(Wt.EV_N)
    path = data_file(SEARCH_EVAL)
    data = tomllib.loads(path.read_text()) if path.is_file() else {}
    key, found = _section(data, config)
    sect = found or {}
    for k in range(3):
        row = sect.get(f"inn{k + 1}")
        if row is not None:
            if len(row) != Wt.EV_NF:
                raise ConfigError(
                    f"{path}: [{key}] inn{k + 1} has {len(row)} coefficients, "
                    f"expected {Wt.EV_NF}; regenerate it with `tokaido-sim fit-search-eval`"
                )
            out[k * Wt.EV_NF : (k + 1) * Wt.EV_NF] = row
    index = {t.name: i for i, t in enumerate((rules or config.rules()).travelers)}
    for name, vals in sect.get("travelers", {}).items():
        if len(vals) != 3:
            raise ConfigError(
                f"{path}: [{key}.travelers] {name} has {len(vals)} values, expected 3 (Inns 1-3); "
                "regenerate it with `tokaido-sim fit-search-eval`"
            )
        if name not in index:
            raise ConfigError(
                f"{path}: [{key}.travelers] names '{name}', not a Traveler of this configuration; "
                "regenerate it with `tokaido-sim fit-search-eval`"
            )
        if index[name] < Wt.EV_NT:
            out[Wt.EV_T0 + index[name] : Wt.EV_T0 + 3 * Wt.EV_NT : Wt.EV_NT] = vals
    return out


def bot_rows(ru: np.ndarray, config: GameConfig, rules: Rules, weights: np.ndarray | None = None) -> None:
    """Fill the rules record's bot part: each player's weights (``botw``; ``weights`` replaces them:
    tuning, tests) and, when a search bot plays, its evaluation (``seval``)."""
    for p, name in enumerate(config.bot_names()):
        ru[0]["botw"][p] = bot_weights(name, rules, config) if weights is None else weights[p]
    if "search" in config.bot_names():
        ru[0]["seval"] = search_eval(config, rules)
