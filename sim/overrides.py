"""Rule overrides of any game: ``--set KEY=VALUE`` values and TOML patch files (``--set @patch.toml``).

A patch file holds the rules to change, in the layout of the dotted keys that
``--set`` takes::

    # kinko-rich.toml
    [travelers.kinko]
    coins = 8

    [meals]
    hand_extra = 0

    [variants.preparations]
    "4" = [0, 0, 1, 1]

``load_patch`` flattens it into ``[("travelers.kinko.coins", 8), ("meals.hand_extra", 0), ...]``
(the same pairs as ``--set travelers.kinko.coins=8 --set meals.hand_extra=0``);
``expand_sets`` turns a list of ``--set`` items, some of them ``@file.toml``, into
plain ``KEY=VALUE`` items, so a command line can take both.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sim.errors import UserError
from sim.files import parse_toml, read_text


def _flatten(prefix: str, node: Any, out: list[tuple[str, Any]], path: Path) -> None:
    if isinstance(node, dict):
        if not node:
            raise UserError(f"{path}: section '{prefix}' is empty; give the rules to change or remove it")
        for key, value in node.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), value, out, path)
        return
    if isinstance(node, list) and any(isinstance(x, dict | list) for x in node):
        raise UserError(f"{path}: '{prefix}' must be a value or a list of values, not a table")
    if not isinstance(node, bool | int | str | list):
        raise UserError(f"{path}: '{prefix}' = {node!r} is not a whole number, true/false, text or list")
    out.append((prefix, node))


def flatten(table: dict[str, Any], where: str) -> list[tuple[str, Any]]:
    """A TOML table of rules (nested by dotted keys) as ``(dotted key, value)`` pairs; ``where`` names it in
    errors."""
    out: list[tuple[str, Any]] = []
    _flatten("", table, out, Path(where))
    return out


def load_patch(path: str | Path) -> list[tuple[str, Any]]:
    """The dotted overrides of a TOML patch file, in file order.

    Raises ``UserError`` (one line: what is wrong and how to fix it) when the file
    is missing, is not TOML, or holds no rule.
    """
    p = Path(path)
    what = "a patch file of rule overrides (TOML)"
    text = read_text(p, what, empty_ok=True)
    data = parse_toml(text, p, what)
    out: list[tuple[str, Any]] = []
    if not data:
        empty = " (it is empty)" if not text.strip() else ""
        raise UserError(
            f"patch file {p} holds no rule{empty}: expected {what}; write e.g. [travelers.kinko] coins = 8"
        )
    _flatten("", data, out, p)
    return out


def format_value(value: Any) -> str:
    """An override value as ``--set`` text (lists as comma-separated values)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(format_value(v) for v in value)
    return str(value)


def expand_sets(sets: Iterable[str] | None) -> list[str]:
    """``--set`` items with every ``@patch.toml`` replaced by its ``KEY=VALUE`` items."""
    out: list[str] = []
    for item in sets or []:
        if item.strip().startswith("@"):
            out += [f"{k}={format_value(v)}" for k, v in load_patch(item.strip()[1:])]
        else:
            out.append(item)
    return out


def parse_value(text: str) -> Any:
    """Turn an override's text into an int, a list of ints, a bool or a string."""
    text = text.strip()
    if "," in text:
        return [parse_value(x) for x in text.split(",") if x.strip()]
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def parse_sets(sets: list[str] | None) -> tuple[tuple[str, Any], ...]:
    """``--set`` items (``KEY=VALUE`` or ``@patch.toml``) as override pairs (a patch's values keep their
    type)."""
    return parse_sets_and_patches(sets)[0]


def parse_sets_and_patches(sets: list[str] | None) -> tuple[tuple[tuple[str, Any], ...], dict[int, str]]:
    """``parse_sets``, and the index of each pair read from a patch file with its file
    (``sim.games.tokaido.rules.inert``)."""
    out: list[tuple[str, Any]] = []
    patches: dict[int, str] = {}
    for item in sets or []:
        if item.strip().startswith("@"):
            pairs = load_patch(item.strip()[1:])
            patches.update({len(out) + i: item.strip()[1:] for i in range(len(pairs))})
            out += pairs
            continue
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise UserError(f"malformed --set '{item}'; use --set KEY=VALUE or --set @patch.toml")
        out.append((key.strip(), parse_value(value)))  # typed: lists survive the config string
    return tuple(out), patches
