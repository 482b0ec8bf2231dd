"""``tokaido-sim tune`` and ``tokaido-sim ladder``: the bot tiers (docs/bots.md).

Registered in ``sim/cli/app.py`` with one line (``app.add_typer(bots_app)``), which
merges these commands into the main command.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.errors import UserError, user_errors

bots_app = typer.Typer(help="Bot tiers: tune the heuristic's weights, play the ladder.")

Threads = Annotated[int | None, typer.Option(help="Engine threads (default: all cores).")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
Seed = Annotated[int, typer.Option("--seed", "-s", help="Random seed.")]




def _command_line() -> str:
    return "tokaido-sim " + " ".join(shlex.quote(a) for a in sys.argv[1:])


@bots_app.command()
@user_errors
def tune(
    out: Annotated[Path, typer.Option("--out", "-o", help="Weight file to write (copy it over "
                                      "sim/data/bots/tuned.toml to ship it as the tuned tier).")]
    = Path("results/bots/tuned.toml"),
    generations: Annotated[int, typer.Option(help="CEM generations.")] = 16,
    population: Annotated[int, typer.Option(help="Candidates per generation.")] = 24,
    elites: Annotated[int, typer.Option(help="Best candidates the next generation is fitted to.")] = 6,
    games: Annotated[int, typer.Option(help="Games per candidate per generation (split over 2-5 players).")] = 800,
    sigma: Annotated[float, typer.Option(help="Initial standard deviation of each weight.")] = 0.4,
    start: Annotated[str, typer.Option(help="Bot whose weights start the search.")] = "heuristic",
    trav_games: Annotated[int, typer.Option(help="Self-play games per player count for the Traveler priors.")] = 20000,
    seed: Seed = 1, threads: Threads = None, quiet: Quiet = False,
) -> None:
    """Tune the heuristic's weights by self-play (cross-entropy method) and write a weight file."""
    from sim.bots import tune as T
    from sim.run.progress import progress_bar

    s = T.TuneSettings(generations=generations, population=population, elites=elites, games=games,
                       seed=seed, sigma=sigma, start=start, trav_games=trav_games, threads=threads)
    T.check_settings(s)
    from sim.run.outdir import check_out_file

    check_out_file(out)

    bar: list[Any] = []

    def progress(total: int) -> Callable[[int], None]:
        cm = progress_bar(total, 0, not quiet, label="tune")
        bar.append(cm)
        return cm.__enter__()

    try:
        w = T.cem(s, progress)
    finally:
        for cm in bar:
            cm.__exit__(None, None, None)
    priors = T.traveler_priors(w, s)
    T.write_weights(out, w, priors, s, _command_line())
    if not quiet:
        for h in s.history:
            typer.echo(f"generation {h['generation']:2d}: best {h['best']:.3f}, mean {h['mean_candidate']:.3f}")
    typer.echo(f"wrote {out}")


@bots_app.command()
@user_errors
def ladder(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for ladder.csv and ladder.md.")],
    players: Annotated[str, typer.Option(help="Player counts, comma-separated.")] = "2,3,4,5",
    tiers: Annotated[str, typer.Option(help="Tiers, weakest first, comma-separated.")] = "random,greedy,heuristic,tuned,search",
    games: Annotated[int, typer.Option(help="Games per pairing and player count (each deal twice, seats swapped).")] = 4000,
    search_games: Annotated[int, typer.Option(help="The same for pairings with the search bot (slow).")] = 400,
    all_pairs: Annotated[bool, typer.Option("--all-pairs", help="Every pair of tiers, not only neighbours.")] = False,
    profile_games: Annotated[int, typer.Option(help="Self-play games per tier for the profiles (0: none).")] = 2000,
    profile_search_games: Annotated[int, typer.Option(help="The same for the search bot.")] = 100,
    profile_players: Annotated[int, typer.Option(help="Player count of the profiles.")] = 4,
    seed: Seed = 1, threads: Threads = None, quiet: Quiet = False,
) -> None:
    """Play the bot tiers against each other; write win rates, intervals and Elo gaps to OUT."""
    from datetime import UTC, datetime

    from kernels.core import enums as E
    from sim.bots import ladder as L
    from sim.run.progress import progress_bar

    names = tuple(t.strip() for t in tiers.split(",") if t.strip())
    for t in names:
        if t not in E.BOT_NAMES:
            raise UserError(f"unknown tier '{t}'; choose from: {', '.join(E.BOT_NAMES)}")
    if len(names) < 2 or len(set(names)) != len(names):
        raise UserError("--tiers needs at least two different tiers")
    try:
        counts = [int(x) for x in players.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"--players must be numbers like 2,3,4,5, got '{players}'") from None
    if not counts or any(not 2 <= n <= E.MAX_PLAYERS for n in counts):
        raise UserError(f"--players must be between 2 and {E.MAX_PLAYERS}")
    if games < 2 or search_games < 2:
        raise UserError("--games and --search-games must be at least 2")
    from sim.run.outdir import check_writable

    check_writable(out)  # a file in the way is one line, not [Errno 17]
    out.mkdir(parents=True, exist_ok=True)
    pairs = [(names[j], names[i]) for i in range(len(names)) for j in range(i + 1, len(names))
             if all_pairs or j == i + 1]

    def deals(a: str, b: str) -> int:
        return max(1, (search_games if "search" in (a, b) else games) // 2)

    total = sum(2 * deals(a, b) for a, b in pairs) * len(counts)
    results = []
    with progress_bar(total, 0, not quiet, label="ladder") as advance:
        for n in counts:
            for a, b in pairs:
                results.append(L.play_pair(n, a, b, deals(a, b), seed, threads, advance))
    profiles = []
    if profile_games > 0:
        for t in names:
            k = profile_search_games if t == "search" else profile_games
            profiles.append(L.profile(t, profile_players, k, seed, threads))
    date = datetime.now(UTC).isoformat(timespec="seconds")
    meta = f"Made by `{_command_line()}` (seed {seed}, {date})."
    L.write_csv(out / "ladder.csv", results)
    (out / "ladder.md").write_text(L.markdown(results, profiles, names, meta))
    if not quiet:
        typer.echo((out / "ladder.md").read_text())
    typer.echo(f"wrote {out / 'ladder.csv'} and {out / 'ladder.md'}")
