"""Play games with the kernels: validate, seed, allocate, call (the QuantEcon split).

``play_games`` is the one entry point for the runner, the CLI, the referee
checks and the tests. Game ``i`` of a run depends only on (seed, i), so any
chunking and any thread count give the same games.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

import numba
import numpy as np

from kernels.core import enums as E
from kernels.core import weights as Wt
from kernels.core.records import RESULT_DTYPE
from kernels.core.state import RULES_DTYPE
from kernels.play import UNFINISHED, play_batch_nb
from sim.rules.config import ConfigError, GameConfig
from sim.rules.tables import Rules, RulesError

MAX_SEED = 2**63 - 1
MAX_GAME = 2**63 - 2  # the largest game index (int64, and start + count must fit too)


@dataclass
class GameBatch:
    records: np.ndarray  # RESULT_DTYPE, count * n_players rows, game-major, player-minor
    events: np.ndarray | None  # int16 (count, MAX_EVENTS, 6) when log=True
    n_events: np.ndarray | None  # int32 (count,)

    def game_events(self, i: int) -> np.ndarray:
        """The log of the batch's i-th game, trimmed to its events."""
        assert self.events is not None and self.n_events is not None, "played without log=True"
        return self.events[i, : self.n_events[i]]


BOT_DIR = "bots"  # sim/data/bots/NAME.toml: one weight file per heuristic-tier bot
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


def bot_table(name: str) -> dict:
    """The raw TOML table of bot ``name``: ``sim/data/bots.toml`` or ``sim/data/bots/NAME.toml``.

    A weight file may say ``inherit = "OTHER"``: OTHER's table, then this file's keys on top.
    """
    data = tomllib.loads((resources.files("sim.data") / "bots.toml").read_text())
    if name in data:
        return dict(data[name])
    path = resources.files("sim.data") / BOT_DIR / f"{name}.toml"
    if not path.is_file():
        return {}
    table = tomllib.loads(path.read_text())
    parent = table.pop("inherit", None)
    if parent is None:
        return table
    base = bot_table(str(parent))
    for key, value in table.items():
        base[key] = {**base.get(key, {}), **value} if isinstance(value, dict) else value
    return base


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
        else:
            w[getattr(Wt.W, key.upper())] = float(value)
    return w


def bot_weights(name: str, rules: Rules) -> np.ndarray:
    """The weight vector of bot ``name`` (``sim/data/bots.toml``, ``sim/data/bots/NAME.toml``)."""
    return weights_from_table(bot_table(name), rules)


def rules_record(config: GameConfig, rules: Rules, log: bool = False, weights: np.ndarray | None = None) -> np.ndarray:
    """The kernels' one-element ``RULES_DTYPE`` array: rules tables, configuration, bot weights."""
    ru = np.zeros(1, RULES_DTYPE)
    for key, arr in rules.tables().items():
        ru[0][key][tuple(slice(0, k) for k in arr.shape)] = arr
    ru[0]["cfg"] = config.cfg_array(rules, log=log)
    for p, name in enumerate(config.bot_names()):
        ru[0]["botw"][p] = bot_weights(name, rules) if weights is None else weights[p]
    return ru


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
) -> GameBatch:
    """Play games ``start .. start+count-1`` of the run seeded ``seed``.

    ``weights`` (n_players x ``W_N``) replaces the players' bot weights (tuning, tests).
    ``ru`` is the ``rules_record`` to use (built once by callers that play many batches).
    ``stop`` (int64[1]): another thread sets ``stop[0] = 1`` to end the call early; the
    batch then holds only the games before the first unfinished one. ``nlog`` (int32[count],
    optional) receives each game's log length as it ends, ``UNFINISHED`` before: progress.
    """
    if not 0 <= seed <= MAX_SEED:
        raise ConfigError(f"--seed must be between 0 and {MAX_SEED}, got {seed}")
    if start < 0 or count < 0:
        raise ConfigError(f"game indices must be non-negative (start {start}, count {count})")
    if start > MAX_GAME or start + count - 1 > MAX_GAME:
        raise ConfigError(f"game indices go up to {MAX_GAME:,} (a 64-bit index), not {start + count - 1:,}")
    if ru is None:
        ru = rules_record(config, rules, log, weights)
    n = config.n_players
    out = np.zeros(count * n, RESULT_DTYPE)
    logs = np.zeros((max(count, 1) if log else 1, E.MAX_EVENTS, E.EV_FIELDS), np.int16)
    if nlog is None or len(nlog) < max(count, 1):
        nlog = np.empty(max(count, 1), np.int32)
    nlog[:] = UNFINISHED
    flag = np.zeros(1, np.int64) if stop is None else stop
    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
    with np.errstate(over="ignore"):  # splitmix64 wraps on purpose (pure-Python mode)
        play_batch_nb(np.int64(seed), np.int64(start), np.int64(count), ru, out, logs, nlog, flag)
    if flag[0]:  # stopped: keep the games before the first unfinished one
        count = int(np.argmax(nlog[:count] == UNFINISHED)) if (nlog[:count] == UNFINISHED).any() else count
        out = out[: count * n]
    if log and count and (nlog[:count] < 0).any():
        raise RuntimeError(f"an action log overflowed its {E.MAX_EVENTS} rows; raise enums.MAX_EVENTS")
    return GameBatch(out, logs[:count] if log else None, nlog[:count].copy() if log else None)
