"""The rule numbers a balance search may move (``--knobs``), and a change as overrides or a patch.

A knob is one integer of the rules: a Traveler's starting coins (``travelers.kinko.coins``,
or ``travelers.*.coins`` for all of them), a rule number (``meals.hand_extra``) or one element
of a list rule (``variants.preparations.4`` names all four elements, ``variants.preparations.4[0]``
one). A candidate change is a tuple of integer deltas, one per knob; its cost is the total
amount moved, then the number of knobs touched.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import tomli_w

from sim.errors import UserError
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from sim.games.tokaido.rules.keys import _ROOTS

DEFAULT_KNOBS = "travelers.*.coins"
_ELEMENT = re.compile(r"^(?P<key>[^\[\]]+)\[(?P<i>\d+)\]$")

Change = tuple[int, ...]


@dataclass(frozen=True)
class Knob:
    key: str  # the override key of the rule (a list rule: the whole list)
    index: int | None  # the element of a list rule, else None
    base: int  # its value in the rules the search starts from
    lo: int  # smallest allowed delta
    hi: int  # largest allowed delta
    traveler: str | None = None  # the Traveler whose starting coins this is

    @property
    def label(self) -> str:
        if self.traveler is not None:
            return self.traveler
        return self.key if self.index is None else f"{self.key}[{self.index}]"


def _lookup(raw: dict[str, Any], key: str) -> Any:
    """The value of a dotted rule key in the raw rules (the layout ``--set`` addresses)."""
    parts = key.split(".")
    if parts[0] not in _ROOTS or len(parts) < 2:
        raise UserError(
            f"--knobs '{key}' names no rule; start with travelers.*.coins or one of: {', '.join(_ROOTS)}"
        )
    node: Any = raw
    for p in _ROOTS[parts[0]]:
        node = node[p]
    for p in parts[1:]:
        if not isinstance(node, dict) or p not in node:
            raise UserError(
                f"--knobs '{key}': '{p}' is not a rule there; see sim/games/tokaido/data/*.toml for the keys"
            )
        node = node[p]
    return node


def _preparations_table(raw: dict[str, Any], key: str, value: Any) -> Any:
    """An empty per-count Preparations table means the rule (rules 1.2, C7): spell it out, first to leave
    first."""
    parts = key.split(".")
    if value == [] and parts[:2] == ["variants", "preparations"] and len(parts) == 3 and parts[2].isdigit():
        from_last = raw["rules"]["variants"]["preparations"]["from_last"]
        n = int(parts[2])
        return [from_last[n - 1 - seat] for seat in range(n)]
    return value


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _probe(config: GameConfig, key: str, value: Any) -> bool:
    """True if the rules with ``key = value`` are valid (checked at every player count given)."""
    try:
        probe = GameConfig(
            n_players=config.n_players,
            variants=config.variants,
            expansions=config.expansions,
            travelers=config.travelers,
            bots=config.bots,
            overrides=(*config.overrides, (key, value)),
        )
        probe.cfg_array(probe.rules())
    except ConfigError:
        return False
    return True


def _bounds(
    configs: Sequence[GameConfig], key: str, index: int | None, base: Any, max_change: int
) -> tuple[int, int]:
    """The deltas within ``max_change`` for which the rules stay valid, walking out from 0."""

    def value(d: int) -> Any:
        if index is None:
            return base + d
        return [x + d if i == index else x for i, x in enumerate(base)]

    out = []
    for step in (-1, 1):
        d = 0
        while abs(d + step) <= max_change and all(_probe(c, key, value(d + step)) for c in configs):
            d += step
        out.append(d)
    return out[0], out[1]


def parse_knobs(text: str, configs: Sequence[GameConfig], max_change: int) -> list[Knob]:
    """The knobs of ``--knobs`` (comma-separated), with their values in the starting rules and bounds."""
    if max_change < 1:
        raise UserError(f"--max-change must be at least 1, got {max_change}")
    rules = configs[0].rules()
    items = [x.strip() for x in text.split(",") if x.strip()]
    if not items:
        raise UserError(f"--knobs names no rule; give e.g. --knobs {DEFAULT_KNOBS}")
    knobs: list[Knob] = []
    for item in items:
        parts = item.split(".")
        if parts[0] == "travelers":
            if len(parts) != 3 or parts[2] != "coins":
                raise UserError(
                    f"--knobs '{item}': of a Traveler only the starting coins are a number to move; "
                    "write travelers.NAME.coins or travelers.*.coins"
                )
            names = [t.name for t in rules.travelers] if parts[1] == "*" else [parts[1]]
            coins = {t.name: t.coins for t in rules.travelers}
            for name in names:
                if name not in coins:
                    raise UserError(
                        f"--knobs '{item}': no Traveler '{name}'; choose from: {', '.join(coins)}"
                    )
                # starting coins cannot go below zero
                knobs.append(
                    Knob(
                        f"travelers.{name}.coins",
                        None,
                        coins[name],
                        max(-max_change, -coins[name]),
                        max_change,
                        traveler=name,
                    )
                )
            continue
        m = _ELEMENT.match(item)
        key, index = (m["key"], int(m["i"])) if m else (item, None)
        variant = key.split(".")[1].replace("_", "-") if key.startswith("variants.") else None
        if variant is not None and variant not in configs[0].variants:
            raise UserError(
                f"--knobs '{item}' has no effect without --variants {variant}; add it or drop the knob"
            )
        if key == "meals.hand_extra" and "gastronomy" in configs[0].variants:
            raise UserError(
                "--knobs meals.hand_extra cannot be moved with --variants gastronomy, which sets it"
            )
        value = _lookup(rules.raw, key)
        value = _preparations_table(rules.raw, key, value)
        if isinstance(value, list) and all(_is_int(v) for v in value):
            if index is not None and index >= len(value):
                raise UserError(
                    f"--knobs '{item}': {key} has {len(value)} elements, numbered 0 to {len(value) - 1}"
                )
            for i in [index] if index is not None else range(len(value)):
                lo, hi = _bounds(configs, key, i, value, max_change)
                knobs.append(Knob(key, i, int(value[i]), lo, hi))
        elif _is_int(value) and index is None:
            lo, hi = _bounds(configs, key, None, value, max_change)
            knobs.append(Knob(key, None, int(value), lo, hi))
        else:
            raise UserError(f"--knobs '{item}' is {value!r}, not a whole number or a list of them")
    labels = [(k.key, k.index) for k in knobs]
    dup = next((k for k in knobs if labels.count((k.key, k.index)) > 1), None)
    if dup is not None:
        raise UserError(f"--knobs names '{dup.label}' twice; list each rule once")
    return knobs


def cost(change: Change) -> tuple[int, int]:
    """What the search minimises: the total amount moved, then the number of knobs touched."""
    return sum(abs(d) for d in change), sum(1 for d in change if d)


def overrides(knobs: Sequence[Knob], change: Change) -> list[tuple[str, Any]]:
    """The ``--set`` overrides of a change (a list rule is written whole), in knob order."""
    out: dict[str, Any] = {}
    for k, d in zip(knobs, change, strict=True):
        if not d:
            continue
        if k.index is None:
            out[k.key] = k.base + d
        else:
            base = out.get(k.key) or [kk.base for kk in knobs if kk.key == k.key]
            out[k.key] = [v + d if i == k.index else v for i, v in enumerate(base)]
    return list(out.items())


def describe(knobs: Sequence[Knob], change: Change) -> str:
    """A change in a few words: ``kinko -4, umegae +2`` (``no change`` for the zero change)."""
    words = [f"{k.label} {d:+d}" for k, d in zip(knobs, change, strict=True) if d]
    return ", ".join(words) or "no change"


def patch_toml(knobs: Sequence[Knob], change: Change, header: Sequence[str]) -> str:
    """The change as a patch file for ``--set @patch.toml`` (values, not deltas: it composes with --set)."""
    sets = overrides(knobs, change)
    if not sets:  # a patch must hold a rule: restate the first knob's value
        k = knobs[0]
        value: Any = k.base if k.index is None else [kk.base for kk in knobs if kk.key == k.key]
        sets = [(k.key, value)]
        header = [*header, "no change is needed; this restates a current value so the file stays usable"]
    tree: dict[str, Any] = {}
    for key, val in sets:
        *path, leaf = key.split(".")
        node = tree
        for p in path:
            node = node.setdefault(p, {})
        node[leaf] = val
    lines = [f"# {h}" for h in header]
    return "\n".join(lines) + ("\n\n" if lines else "") + tomli_w.dumps(tree)
