"""A run's configuration: player count, variants, expansions, Travelers, bots.

A configuration is also one parameter string (the OpenSpiel idiom), e.g.
``players=4,variants=gastronomy+preparations,travelers=draft,bots=greedy``;
``GameConfig.spec()`` writes it and ``GameConfig.parse()`` reads it back.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kernels.tokaido.core import enums as E
from sim.errors import UserError
from sim.games.tokaido.rules.bounds import BoundsError, check_totals
from sim.games.tokaido.rules.tables import (
    Rules,
    RulesError,
    _read_data,
    apply_override,
    build_rules,
    parse_value,
)

VARIANTS = ("initiation", "return-trip", "gastronomy", "preparations")
EXPANSIONS = ("new-encounters", "crossroads", "matsuri", "promos")


class ConfigError(UserError):
    """The configuration is invalid; the message says what is wrong and how to fix it."""


@dataclass(frozen=True)
class GameConfig:
    n_players: int = 4
    variants: tuple[str, ...] = ()
    expansions: tuple[str, ...] = ()
    travelers: str = "draft"  # draft | random | comma-separated names, one per player
    bots: tuple[str, ...] = ("greedy",)  # one name for everyone, or one per player
    overrides: tuple[tuple[str, Any], ...] = field(default_factory=tuple)
    profile: str = "rulebook"  # the --rules profile whose patch heads ``overrides`` (recorded in manifests)

    def __post_init__(self) -> None:
        if not 2 <= self.n_players <= E.MAX_PLAYERS:
            raise ConfigError(f"--players must be 2 to {E.MAX_PLAYERS}, got {self.n_players}")
        for v in self.variants:
            if v not in VARIANTS:
                raise ConfigError(f"unknown variant '{v}'; choose from: {', '.join(VARIANTS)}")
        for x in self.expansions:
            if x not in EXPANSIONS:
                raise ConfigError(f"unknown expansion '{x}'; choose from: {', '.join(EXPANSIONS)}")
        for name, items in (("variant", self.variants), ("expansion", self.expansions)):
            dup = next((x for x in items if items.count(x) > 1), None)
            if dup is not None:
                raise ConfigError(f"the {name} '{dup}' is listed twice in --{name}s; give each once")
        if self.matsuri and not self.crossroads:
            raise ConfigError("Matsuri needs Crossroads (seed 002): use --expansions crossroads,matsuri")
        for b in self.bots:
            if b not in E.BOT_NAMES:
                raise ConfigError(f"unknown bot '{b}'; choose from: {', '.join(E.BOT_NAMES)}")
        if len(self.bots) not in (1, self.n_players):
            raise ConfigError(
                f"--bots needs one name or {self.n_players} (one per player), got {len(self.bots)}"
            )
        # validate Traveler names and rule overrides now, so errors come before any work
        rules = self.rules()
        travelers = self.n_players + (1 if self.n_players == 2 else 0)
        hand = travelers + rules.params["HAND_EXTRA"]
        if not 0 <= rules.params["HAND_EXTRA"] or hand + rules.params["SATSUKI_PILE"] > E.HAND_CAP:
            raise ConfigError(
                f"meals.hand_extra={rules.params['HAND_EXTRA']} makes a meal hand of {hand} cards with "
                f"{travelers} travelers; an Inn's hand holds at most {E.HAND_CAP} cards, so meals.hand_extra "
                f"takes 0 to {E.HAND_CAP - travelers} here"
            )
        if self.travelers not in ("draft", "random"):
            names = [n.strip() for n in self.travelers.split(",")]
            if len(names) != self.n_players:
                raise ConfigError(
                    f"--travelers lists {len(names)} Travelers for {self.n_players} players; "
                    "give one per player, or 'draft' or 'random'"
                )
            if len(set(names)) != len(names):
                dup = next(n for n in names if names.count(n) > 1)
                raise ConfigError(
                    f"Traveler '{dup}' is listed twice in --travelers; each player needs their own"
                )
            for n in names:
                try:
                    rules.traveler_index(n)
                except RulesError as exc:
                    raise ConfigError(str(exc)) from None
        elif "initiation" not in self.variants:
            dealt, mode = rules.raw["rules"]["draft"]["dealt"], rules.raw["rules"]["draft"]["mode"]
            if mode not in ("deal", "free"):
                raise ConfigError(f"draft.mode = {mode!r}: choose deal or free (seed 002)")
            if dealt not in (2, 3):
                raise ConfigError(f"draft.dealt = {dealt}: deal 2 or 3 Travelers to each player (seed 002)")
            per = 1 if mode == "free" or self.travelers == "random" else dealt
            need = per * self.n_players
            pool = len(rules.pool_ids())
            if pool < need:
                how = f"dealing {dealt} to each of {self.n_players} players" if per > 1 else self.travelers
                fix = (
                    "widen draft.pool"
                    if pool < len(rules.travelers)
                    else "lower draft.dealt or add --expansions"
                )
                raise ConfigError(f"{how} needs {need} Travelers, the pool has {pool}; {fix}")

    # the expansions as the code asks about them (one spelling of each name, here)
    @property
    def new_encounters(self) -> bool:
        return "new-encounters" in self.expansions

    @property
    def crossroads(self) -> bool:
        return "crossroads" in self.expansions

    @property
    def matsuri(self) -> bool:
        return "matsuri" in self.expansions

    @property
    def promos(self) -> bool:
        return "promos" in self.expansions

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the built rules: a Dask task's key is the hash of its pickled game."""
        return {k: v for k, v in self.__dict__.items() if k != "_rules_built"}

    # ------------------------------------------------------------------ rules
    def rules(self) -> Rules:
        """The effective rules: data files, then variants and expansions, then overrides.

        Raises ``ConfigError`` for a value the kernels cannot hold (``sim.games.tokaido.rules.bounds``).
        Built once per configuration: the checks of a command and the run it starts share one ``Rules``
        (nothing changes a ``Rules`` once built).
        """
        built = self.__dict__.get("_rules_built")
        if built is not None:
            return built  # type: ignore[no-any-return]
        overrides = [(k, parse_value(v) if isinstance(v, str) else v) for k, v in self.overrides]
        rules = self._rules(overrides)
        last = max(
            (i for i, (_, v) in enumerate(overrides) if isinstance(v, int) and not isinstance(v, bool)),
            default=None,
        )

        def rebuild(value: int) -> Rules:
            assert last is not None
            return self._rules([*overrides[:last], (overrides[last][0], value), *overrides[last + 1 :]])

        try:
            check_totals(rules, tuple(overrides), rebuild)
        except BoundsError as exc:
            raise ConfigError(str(exc)) from None
        object.__setattr__(self, "_rules_built", rules)  # a frozen dataclass: not a field, not in eq or hash
        return rules

    def raw(self) -> dict[str, Any]:
        """The rules data of this game before its overrides: the data files, the expansions' flags, the board
        of Return Trip (a copy: callers may change it)."""
        raw = copy.deepcopy(_read_data())
        r = raw["rules"]
        if "return-trip" in self.variants:
            raw["board"]["spaces"] = list(reversed(raw["board"]["spaces"]))
        r["_initiation"] = "initiation" in self.variants
        r["_new_encounters"] = self.new_encounters
        r["_crossroads"] = self.crossroads
        r["_matsuri"] = self.matsuri
        r["_promos"] = self.promos
        return raw

    def _rules(self, overrides: list[tuple[str, Any]]) -> Rules:
        raw = self.raw()
        try:
            for key, value in overrides:
                apply_override(raw, key, value)
            if (
                "gastronomy" in self.variants
            ):  # after the overrides: --set variants.gastronomy.hand_extra counts
                raw["rules"]["meals"]["hand_extra"] = raw["rules"]["variants"]["gastronomy"]["hand_extra"]
            return build_rules(raw)
        except RulesError as exc:
            raise ConfigError(str(exc)) from None

    def bot_names(self) -> list[str]:
        return list(self.bots) * self.n_players if len(self.bots) == 1 else list(self.bots)

    def cfg_array(self, rules: Rules, log: bool = False) -> np.ndarray:
        """The kernel's ``cfg`` int32 array (layout ``kernels.tokaido.core.enums.Cfg``)."""
        cfg = np.zeros(E.CFG_N, np.int32)
        n = self.n_players
        cfg[E.Cfg.N_PLAYERS] = n
        if "initiation" in self.variants:
            mode = E.TravelerMode.NONE
        elif self.travelers == "draft":
            mode = E.TravelerMode.DRAFT
        elif self.travelers == "random":
            mode = E.TravelerMode.RANDOM
        else:
            mode = E.TravelerMode.FIXED
            for i, name in enumerate(self.travelers.split(",")):
                cfg[E.Cfg.FIXED0 + i] = rules.traveler_index(name.strip())
        cfg[E.Cfg.MODE] = mode
        for i, b in enumerate(self.bot_names()):
            cfg[E.Cfg.BOT0 + i] = E.BOT_NAMES.index(b)
        pool = rules.pool_ids()  # draft.pool: the Travelers dealt from, drafted or at random
        cfg[E.Cfg.POOL_N] = len(pool)
        cfg[E.Cfg.POOL0 : E.Cfg.POOL0 + len(pool)] = pool
        if "preparations" in self.variants:
            offs = rules.preparations.get(n)
            if offs is None:
                raise ConfigError(
                    f"Preparations has no coin table for {n} players (variants.preparations.{n})"
                )
            cfg[E.Cfg.PREP0 : E.Cfg.PREP0 + n] = offs
        cfg[E.Cfg.LOG] = int(log)
        draft = rules.raw["rules"]["draft"]
        cfg[E.Cfg.DRAFT_DEALT] = int(draft["dealt"])
        cfg[E.Cfg.DRAFT_FREE] = int(draft["mode"] == "free")
        if rules.crossroads:
            cfg[E.Cfg.XR_CARDS] = rules.crossroads_cards.get(n, 0)
        return cfg

    # ------------------------------------------------------------ spec string
    def spec(self) -> str:
        parts = [f"players={self.n_players}"]
        if self.variants:
            parts.append("variants=" + "+".join(self.variants))
        if self.expansions:
            parts.append("expansions=" + "+".join(self.expansions))
        parts.append("travelers=" + self.travelers.replace(",", "+"))
        parts.append("bots=" + "+".join(self.bots))
        for k, v in self.overrides:
            # lists are written with "+" (commas separate the spec's parts)
            val = "+".join(map(str, v)) if isinstance(v, list) else str(v).replace(",", "+")
            parts.append(f"set:{k}={val}")
        return ",".join(parts)

    @classmethod
    def parse(cls, spec: str) -> GameConfig:
        kw: dict[str, Any] = {}
        overrides: list[tuple[str, Any]] = []
        for part in filter(None, spec.split(",")):
            key, _, val = part.partition("=")
            if key == "players":
                if not val.strip().isdigit():
                    raise ConfigError(f"players={val} in config string '{spec}' is not a player count")
                kw["n_players"] = int(val)
            elif key in ("variants", "expansions", "bots"):
                kw[key] = tuple(filter(None, val.split("+")))
            elif key == "travelers":
                kw["travelers"] = val.replace("+", ",")
            elif key.startswith("set:"):
                overrides.append((key[4:], val.replace("+", ",")))
            else:
                raise ConfigError(f"unknown key '{key}' in config string '{spec}'")
        return cls(overrides=tuple(overrides), **kw)

    def cli_args(self) -> str:
        """The command-line options that play this configuration (``--players 4 --bots expert ...``)."""
        from sim.overrides import format_value

        opts = [
            f"--players {self.n_players}",
            f"--travelers {self.travelers}",
            f"--bots {','.join(self.bots)}",
        ]
        if self.variants:
            opts.append(f"--variants {','.join(self.variants)}")
        if self.expansions:
            opts.append(f"--expansions {','.join(self.expansions)}")
        opts += [f"--set {k}={format_value(v)}" for k, v in self.overrides]
        return " ".join(opts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_players": self.n_players,
            "variants": list(self.variants),
            "expansions": list(self.expansions),
            "travelers": self.travelers,
            "bots": list(self.bots),
            "overrides": [[k, v] for k, v in self.overrides],
            "rules_profile": self.profile,
            "spec": self.spec(),
        }
