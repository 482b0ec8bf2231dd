"""Tokaido's options (``--players``, ``--travelers``, ``--bots``...), the configuration they build, and small
helpers for printing games. The options every game shares are ``sim.cli.options``."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from kernels.tokaido.core import enums as E
from sim.errors import UserError
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.inert import refuse_inert
from sim.games.tokaido.rules.profiles import profile_sets
from sim.overrides import expand_sets

Players = Annotated[int, typer.Option("--players", "-p", help="Players, 2 to 5.")]
Travelers = Annotated[str, typer.Option(help="draft | random | NAME,NAME,... (one per player).")]
Bots = Annotated[
    str,
    typer.Option(
        help=f"{' | '.join(E.BOT_NAMES)}, or B1,B2,... (one per player); docs/bots.md compares the tiers."
    ),
]
Variants = Annotated[
    str,
    typer.Option(
        help="Variants, comma-separated: initiation, return-trip, gastronomy, preparations (or none)."
    ),
]
Expansions = Annotated[
    str,
    typer.Option(
        help="Expansions, comma-separated: new-encounters, crossroads, matsuri (needs crossroads), promos "
        "(or none)."
    ),
]
Sets = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        help="Rule override KEY=VALUE or @patch.toml (a TOML "
        "file of them), repeatable, e.g. --set "
        "travelers.kinko.coins=6 or --set @kinko.toml.",
    ),
]
RulesProfile = Annotated[
    str,
    typer.Option(
        "--rules", help="Rules profile: rulebook | online | online-2020 (sim/games/tokaido/data/profiles/)."
    ),
]


def _split(text: str) -> tuple[str, ...]:
    items = tuple(x.strip() for x in text.replace("+", ",").split(",") if x.strip())
    return () if items == ("none",) else items


def make_config(
    players: int,
    travelers: str,
    bots: str,
    variants: str,
    expansions: str,
    sets: list[str] | None,
    profile: str = "rulebook",
    refuse: bool = True,
) -> GameConfig:
    """Build and validate a ``GameConfig`` from the command-line options (``profile``: ``--rules``).

    ``refuse``: refuse an option that would change nothing (``sim.games.tokaido.rules.inert``); a command
    playing
    several configurations from one set of options (``balance``) checks them together instead.
    """
    overrides, patches = parse_overrides(sets, profile)
    trav = travelers.strip().lower()
    if trav not in ("draft", "random"):
        trav = ",".join(_split(trav))
    if not trav:
        raise UserError(
            f"--travelers {travelers!r} names no Traveler; give draft, random or one name per player"
        )
    names = _split(bots.lower())
    if not names:
        raise UserError(
            f"--bots {bots!r} names no bot; give one of {', '.join(E.BOT_NAMES)}, or one per player"
        )
    config = GameConfig(
        n_players=players,
        variants=_split(variants),
        expansions=_split(expansions),
        travelers=trav,
        bots=names,
        overrides=tuple(overrides),
        profile=profile,
    )
    return (
        refuse_inert(config, patches) if refuse else config
    )  # an option that would change nothing is refused


def parse_overrides(
    sets: list[str] | None, profile: str = "rulebook"
) -> tuple[list[tuple[str, str]], dict[int, str]]:
    """The ``--set`` items (after the ``--rules`` profile's) as ``(key, value)`` pairs, and the index of each
    pair read from a ``@patch.toml`` with its file (``sim.games.tokaido.rules.inert`` judges a patch as a
    whole)."""
    overrides: list[tuple[str, str]] = []
    patches: dict[int, str] = {}
    mine = list(sets or [])
    for n, item in enumerate(profile_sets(profile) + mine):
        if item.strip().startswith("@"):
            pairs = expand_sets([item])
            if n >= len(profile_sets(profile)):  # the profile's own patch is judged as a profile
                patches.update({len(overrides) + i: item.strip()[1:] for i in range(len(pairs))})
        else:
            pairs = [item]
        for pair in pairs:
            key, eq, value = pair.partition("=")
            if not eq or not key.strip() or not value.strip():
                raise UserError(
                    f"malformed --set '{item}'; use --set KEY=VALUE, e.g. --set travelers.kinko.coins=6"
                )
            overrides.append((key.strip(), value.strip()))
    return overrides, patches


def refuse_inert_in_all(configs: list[GameConfig], patches: dict[int, str] | None = None) -> None:
    """Refuse an option that has no effect in any of ``configs`` (one set of options, several games)."""
    from sim.games.tokaido.rules.inert import inert_options

    found = [dict(inert_options(c, patches)) for c in configs]
    for option, reason in found[0].items():
        if all(option in f for f in found):
            raise UserError(
                f"{option} has no effect in any of the games: {reason}; drop it or add what it needs"
            )


def as_list(x: Any) -> list[str]:
    if x is None:
        return []
    return [x] if isinstance(x, str) else [str(e) for e in x]


def kernel_rows(records: Any) -> list[dict[str, int]]:
    """The kernel's result records as one dict per player row (what the referee compares)."""
    names = records.dtype.names
    return [dict(zip(names, map(int, row), strict=True)) for row in records.tolist()]


EV_NAMES = {v: k for k, v in E.Ev._asdict().items()}


def decode_log(events: Any) -> str:
    """The action log as text, one event a line: ``index KIND field=value ...``."""
    lines = []
    for i, row in enumerate(events.tolist()):
        kind = EV_NAMES.get(row[0], f"?{row[0]}")
        fields = " ".join(f"{k}={v}" for k, v in zip("tabcd", row[1:], strict=True) if v != -1)
        lines.append(f"{i:4d} {kind:<8} {fields}".rstrip())
    return "\n".join(lines)
