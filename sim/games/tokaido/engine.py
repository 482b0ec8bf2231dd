"""Play games with the kernels: validate, seed, allocate, call (the QuantEcon split).

``play_games`` is the one entry point for the runner, the CLI, the referee
checks and the tests. Game ``i`` of a run depends only on (seed, i), so any
chunking and any thread count give the same games.
"""

from __future__ import annotations

import tomllib
from importlib import resources

import numpy as np

from kernels.tokaido.core import enums as E
from kernels.tokaido.core import weights as Wt
from kernels.tokaido.core.records import RESULT_DTYPE
from kernels.tokaido.core.state import RULES_DTYPE
from kernels.tokaido.play import EV_NF, EV_NT, EV_ROW, EV_T0, play_batch_nb
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from sim.games.tokaido.rules.tables import Rules, RulesError
from sim.run.game import Batch, play_batch

BOT_DIR = "bots"  # sim/games/tokaido/data/bots/NAME.toml: one weight file per heuristic-tier bot
TYPE_KEYS = tuple(f"type_{n}" for n in E.SPACE_NAMES)  # [features] keys of the per-type biases


def feature_names() -> list[str]:
    """The ``[features]`` keys of a weight file, in ``W.HF0 + k`` order."""
    names = [n.lower() for n in Wt.HF._fields if n != "TYPE0"]
    return names + list(TYPE_KEYS)


def _feature_index(key: str) -> int:
    if key in TYPE_KEYS:
        return Wt.W.HF0 + Wt.HF.TYPE0 + TYPE_KEYS.index(key)
    if key.upper() in Wt.HF._fields and key != "type0":
        return Wt.W.HF0 + getattr(Wt.HF, key.upper())
    raise ConfigError(f"unknown feature '{key}' in a bot weight file; known: {', '.join(feature_names())}")


def config_key(config: GameConfig | None) -> str | None:
    """Which tuned weight file and draft table a configuration uses: ``4p-base``, ``3p-crossroads``."""
    if config is None:
        return None
    return f"{config.n_players}p-{'crossroads' if 'crossroads' in config.expansions else 'base'}"


def _data_file(name: str):
    return resources.files("sim.games.tokaido.data") / BOT_DIR / f"{name}.toml"


def weight_file(name: str, key: str | None = None):
    """The file of bot ``name`` for configuration ``key``: ``NAME-KEY.toml`` if there is one, else
    ``NAME.toml``; None when neither exists (random, greedy: ``sim/games/tokaido/data/bots.toml``)."""
    path = _data_file(f"{name}-{key}") if key else None
    if path is None or not path.is_file():
        path = _data_file(name)
    return path if path.is_file() else None


def bot_table(name: str, key: str | None = None, keyed: bool = True) -> dict:
    """The raw TOML table of bot ``name``: ``sim/games/tokaido/data/bots.toml`` or
    ``sim/games/tokaido/data/bots/NAME.toml``.

    A weight file may say ``inherit = "OTHER"``: OTHER's table, then this file's keys on top.
    With a configuration ``key`` (``config_key``), ``NAME-KEY.toml`` (weights tuned for that
    configuration) is read instead of ``NAME.toml`` when it exists, along the inherit chain too
    (``NAME-KEY.toml`` may inherit ``NAME``: then ``NAME.toml``).
    """
    data = tomllib.loads((resources.files("sim.games.tokaido.data") / "bots.toml").read_text())
    if name in data:
        return dict(data[name])
    path = weight_file(name, key if keyed else None)
    if path is None:
        return {}
    table = tomllib.loads(path.read_text())
    parent = table.pop("inherit", None)
    if parent is None:
        return table
    base = bot_table(str(parent), key, keyed=str(parent) != name)
    for k, value in table.items():
        base[k] = {**base.get(k, {}), **value} if isinstance(value, dict) else value
    return base


# sim/games/tokaido/data/bots/draft-TABLE.toml: win shares by configuration
# (sim/games/tokaido/tuning/draft.py)
DRAFT_PREFIX = "draft-"


def draft_values(table: str, config: GameConfig, rules: Rules) -> dict[int, float] | None:
    """Traveler index -> win share under random assignment, for this configuration (None: no table).

    Sections are ``config_key`` (+ ``-VARIANTS`` when variants are on; the plain key is the
    fallback). A Traveler the table lacks gets the fair share 1/N: missing data never decides.
    """
    path = _data_file(DRAFT_PREFIX + table)
    if not path.is_file():
        return None
    data = tomllib.loads(path.read_text())
    key = config_key(config)
    sect = data.get(f"{key}-{'+'.join(sorted(config.variants))}") if config.variants else None
    sect = sect or data.get(str(key))
    if sect is None:
        return None
    fair = 1.0 / config.n_players
    out = {}
    for i, t in enumerate(rules.travelers):
        out[i] = float(sect.get(t.name, fair))
    return out


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
                w[_feature_index(fname)] = float(v)
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


def bot_weights(name: str, rules: Rules, config: GameConfig | None = None) -> np.ndarray:
    """The weight vector of bot ``name`` (``sim/games/tokaido/data/bots.toml``,
    ``sim/games/tokaido/data/bots/NAME.toml``).

    With ``config``: the weight file tuned for that configuration if there is one, and the
    draft values of the tier's ``draft_table`` (``sim/games/tokaido/data/bots/draft-TABLE.toml``) as its
    Traveler priors.
    """
    table = bot_table(name, config_key(config))
    w = weights_from_table(table, rules)
    if config is not None and "draft_table" in table:
        vals = draft_values(str(table["draft_table"]), config, rules)
        if vals is not None:
            w[Wt.W.DRAFT_COIN] = 0.0  # win shares already count the starting coins
            for i, v in vals.items():
                w[Wt.W.TRAV0 + i] = v
    return w


def rules_record(
    config: GameConfig, rules: Rules, log: bool = False, weights: np.ndarray | None = None
) -> np.ndarray:
    """The kernels' one-element ``RULES_DTYPE`` array: rules tables, configuration, bot weights."""
    ru = np.zeros(1, RULES_DTYPE)
    for key, arr in rules.tables().items():
        ru[0][key][tuple(slice(0, k) for k in arr.shape)] = arr
    ru[0]["cfg"] = config.cfg_array(rules, log=log)
    for p, name in enumerate(config.bot_names()):
        ru[0]["botw"][p] = bot_weights(name, rules, config) if weights is None else weights[p]
    if "search" in config.bot_names():
        ru[0]["botw"][EV_ROW, : EV_T0 + 3 * EV_NT] = search_eval(config, rules)
    return ru


SEARCH_EVAL = (
    "search_eval"  # sim/games/tokaido/data/bots/search_eval.toml: the search bot's fitted Inn evaluation
)


def search_eval(config: GameConfig, rules: Rules | None = None) -> np.ndarray:
    """The search bot's evaluation coefficients for ``config`` (``kernels.tokaido.search.margin_nb``): Inns
    1-3,
    ``EV_NF`` each, then each Traveler's worth still to come at Inns 1-3 (``EV_NT`` each, by the
    index of ``rules.travelers``; the section's ``travelers`` table, by name); zeros (the score as if
    the journey ended there) when the file has no such section."""
    out = np.zeros(EV_T0 + 3 * EV_NT)
    path = _data_file(SEARCH_EVAL)
    key = str(config_key(config))
    sect = tomllib.loads(path.read_text()).get(key) if path.is_file() else None
    for k in range(3):
        row = (sect or {}).get(f"inn{k + 1}")
        if row is not None:
            if len(row) != EV_NF:
                raise ConfigError(
                    f"{path}: [{key}] inn{k + 1} has {len(row)} coefficients, "
                    f"expected {EV_NF}; regenerate it with `tokaido-sim fit-search-eval`"
                )
            out[k * EV_NF : (k + 1) * EV_NF] = row
    index = {t.name: i for i, t in enumerate((rules or config.rules()).travelers)}
    for name, vals in (sect or {}).get("travelers", {}).items():
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
        if index[name] < EV_NT:
            out[EV_T0 + index[name] : EV_T0 + 3 * EV_NT : EV_NT] = vals
    return out


def play_games(
    config: GameConfig,
    rules: Rules,
    seed: int,
    start: int,
    count: int,
    log: bool = False,
    threads: int | None = None,
    weights: np.ndarray | None = None,
    ru: np.ndarray | None = None,
    stop: np.ndarray | None = None,
    nlog: np.ndarray | None = None,
) -> Batch:
    """Play games ``start .. start+count-1`` of the run seeded ``seed``.

    ``weights`` (n_players x ``W_N``) replaces the players' bot weights (tuning, tests).
    ``ru`` is the ``rules_record`` to use (built once by callers that play many batches).
    ``stop`` (int64[1]): another thread sets ``stop[0] = 1`` to end the call early; the
    batch then holds only the games before the first unfinished one. ``nlog`` (int32[count],
    optional) receives each game's log length as it ends, ``UNFINISHED`` before: progress.
    """
    if ru is None:
        ru = rules_record(config, rules, log, weights)
    return play_batch(
        play_batch_nb,
        ru,
        seed,
        start,
        count,
        n_players=config.n_players,
        record_dtype=RESULT_DTYPE,
        log_shape=(E.MAX_EVENTS, E.EV_FIELDS),
        log=log,
        threads=threads,
        stop=np.zeros(1, np.int64) if stop is None else stop,
        nlog=nlog,
    )
