"""``balance``: the smallest change of starting coins (or other rule numbers) that makes every Traveler
fair."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.cli import validate
from sim.cli.options import ClusterSpec, Quiet, Resume, Threads
from sim.errors import UserError, user_errors
from sim.games.tokaido.cli.options import (
    Expansions,
    Sets,
    Variants,
    make_config,
    parse_overrides,
    refuse_inert_in_all,
)

app = typer.Typer()


def _players(text: str) -> list[int]:
    try:
        listed = [int(x) for x in text.replace("+", ",").split(",") if x.strip()]
    except ValueError:
        raise UserError(
            f"--players must be player counts separated by commas, e.g. 3,4,5; got '{text}'"
        ) from None
    if not listed:
        raise UserError("--players names no player count; give e.g. --players 4 or --players 3,4,5")
    if len(set(listed)) != len(listed):
        raise UserError(f"--players lists a player count twice ('{text}'); give each once")
    return sorted(listed)


@app.command()
@user_errors
def balance(
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Output directory (patch.toml, balance.md, forest.png).")
    ],
    players: Annotated[
        str,
        typer.Option("--players", "-p", help="Player counts, e.g. 4 or 3,4,5: the target must hold at each."),
    ] = "4",
    only: Annotated[
        str | None,
        typer.Option(
            help="Make only these Travelers fair, e.g. kinko or kinko,hirotada: "
            "their own coins are the knobs, and where fair lies between "
            "two whole coin values is measured on fresh seeds."
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            help="The bot tier of every player: expert (the default: the strong bulk "
            "tier, tuned for 2-5 players, base game and Crossroads), search, tuned, "
            "heuristic, greedy, random; docs/bots.md."
        ),
    ] = "expert",
    variants: Variants = "",
    expansions: Expansions = "",
    sets: Sets = None,
    target: Annotated[
        float, typer.Option(help="Every Traveler within this many percentage points of the fair share 1/N.")
    ] = 1.5,
    knobs: Annotated[
        str | None,
        typer.Option(
            help="Rule numbers the search may move, comma-separated: "
            "travelers.*.coins (the default; with --only, those Travelers' "
            "coins), travelers.NAME.coins, meals.hand_extra, "
            "variants.preparations.4, KEY[i] ..."
        ),
    ] = None,
    max_change: Annotated[int, typer.Option(help="Largest change of any one knob.")] = 4,
    games: Annotated[
        int, typer.Option("--games", "-g", help="Most games per candidate and player count.")
    ] = 40_000,
    min_games: Annotated[int, typer.Option(help="Games of the first racing level (then doubled).")] = 2_500,
    budget: Annotated[
        int, typer.Option(help="Games the search may spend in all (confirmation apart).")
    ] = 3_000_000,
    confirm_games: Annotated[
        int, typer.Option(help="Confirmation games per player count, before and after each.")
    ] = 100_000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the search's games.")] = 1,
    confirm_seed: Annotated[
        int | None,
        typer.Option(help="Seed of the confirmation (default: --seed + 1); must differ from --seed."),
    ] = None,
    rounds: Annotated[int, typer.Option(help="Most rounds of model, proposal and race.")] = 6,
    chunk_size: Annotated[int, typer.Option(help="Games per part file.")] = 20_000,
    threads: Threads = None,
    resume: Resume = False,
    quiet: Quiet = False,
    cluster: ClusterSpec = None,
) -> None:
    """Search the smallest change that brings every Traveler (or those of --only) within --target of the fair
    share, and confirm it on fresh seeds."""
    from sim.games.tokaido.balance.driver import run_balance
    from sim.games.tokaido.balance.search import Settings
    from sim.run.cluster import connect

    configs = {
        n: make_config(n, "random", bots, variants, expansions, sets, refuse=False) for n in _players(players)
    }
    # an override for 3 players only is fine in 3,4,5
    refuse_inert_in_all(list(configs.values()), parse_overrides(sets)[1])
    validate.out_dir(out, resumable=True)
    s = Settings(
        target=target,
        max_change=max_change,
        games=games,
        min_games=min_games,
        budget=budget,
        seed=seed,
        confirm_seed=confirm_seed,
        confirm_games=confirm_games,
        chunk_size=chunk_size,
        rounds=rounds,
    )
    with connect(cluster) as cl:
        manifest = run_balance(
            configs, knobs, s, out, resume=resume, quiet=quiet, threads=threads, cluster=cl, only=only
        )
    if not quiet:
        r = manifest.extra["result"]
        for f in r.get("fair", []):
            where = (
                f"fair at {f['coins']:.1f} coins ({min(f['lo'], f['hi']):.1f} to {max(f['lo'], f['hi']):.1f})"
                if f["coins"] is not None
                else f["note"]
            )
            typer.echo(f"{f['traveler']} at {f['players']} players: {where}")
        for line in r.get("checks", []):
            typer.echo(line.replace("**", ""))
        spread = ", ".join(
            f"{n}p {v['before'][0]:.1f} -> {v['after'][0]:.1f} pp" for n, v in r["spread_pp"].items()
        )
        typer.echo(
            f"{r['label']} ({r['moved']} moved; {r['bots']} bots): "
            f"target {r['verdict']}; most off {spread}; {r['spent']:,} search games, "
            f"{manifest.extra['seconds']:.0f} s; stopped: {r['reason']}"
        )
        typer.echo(f"wrote {out / 'balance.md'}, {out / 'patch.toml'}, {out / 'forest.png'}")
