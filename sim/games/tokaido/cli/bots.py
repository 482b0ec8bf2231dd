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

from sim.cli import validate
from sim.dataset.manifest import check_seed
from sim.errors import UserError, user_errors

bots_app = typer.Typer(help="Bot tiers: tune the heuristic's weights, play the ladder.")

Threads = Annotated[int | None, typer.Option(help="Engine threads (default: all cores).", min=1)]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
Seed = Annotated[int, typer.Option("--seed", "-s", help="Random seed.")]
PlayerCounts = Annotated[str, typer.Option(help="Player counts, comma-separated.")]
ExpansionSets = Annotated[
    str, typer.Option(help="Expansion sets, comma-separated ('none', 'crossroads', 'a+b').")
]


def _command_line() -> str:
    return "tokaido-sim " + " ".join(shlex.quote(a) for a in sys.argv[1:])


@bots_app.command()
@user_errors
def tune(
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Weight file to write (default: results/bots/tuned.toml, or results/bots/expert-Np-SET.toml "
            "for --tier expert; copy it into sim/games/tokaido/data/bots/ to ship it).",
        ),
    ] = None,
    tier: Annotated[
        str, typer.Option(help="tuned (the features, 2-5 players) or expert (one configuration).")
    ] = "tuned",
    players: Annotated[str, typer.Option(help="Player counts, comma-separated (expert: one).")] = "2,3,4,5",
    expansions: Annotated[str, typer.Option(help="Expansions of the games ('none', 'crossroads').")] = "none",
    generations: Annotated[int, typer.Option(help="CMA-ES generations.")] = 16,
    population: Annotated[int, typer.Option(help="Candidates per generation.")] = 24,
    games: Annotated[
        int, typer.Option(help="Games per candidate per generation (split over the player counts).")
    ] = 800,
    sigma: Annotated[float, typer.Option(help="Initial standard deviation of each weight.")] = 0.4,
    start: Annotated[
        str | None, typer.Option(help="Bot whose weights start the search (default: the tier's own file).")
    ] = None,
    trav_games: Annotated[
        int, typer.Option(help="Self-play games per player count for the Traveler priors (tuned).")
    ] = 20000,
    method: Annotated[
        str,
        typer.Option(
            help="cma (CMA-ES), sweep (expert: coordinate ascent on paired duels; --generations rounds, "
            "--games deals per move) or imitate (expert: fit to the search's move choices; --generations "
            "rounds, --games search games per round)."
        ),
    ] = "cma",
    iterations: Annotated[int, typer.Option(help="--method imitate: CMA-ES iterations per round.")] = 250,
    gate: Annotated[
        int,
        typer.Option(
            help="--method imitate: paired deals per step of the strength gate "
            "(each round's fit kept only where it beats the round's start; 0: off)."
        ),
    ] = 0,
    field: Annotated[
        str,
        typer.Option(
            help="--method sweep: the other seats in turn, comma-separated: start, current (the weights so "
            "far) or a bot."
        ),
    ] = "start",
    seed: Seed = 1,
    threads: Threads = None,
    quiet: Quiet = False,
) -> None:
    """Tune a tier's weights by self-play (CMA-ES, or a coordinate sweep) and write a weight file with its
    provenance."""
    from sim.games.tokaido.rules.config import EXPANSIONS
    from sim.games.tokaido.tuning import tune as tuning_tune
    from sim.run.progress import progress_bar

    counts = _counts(players)
    xsets = _sets(expansions, "expansions", EXPANSIONS)
    if len(xsets) != 1:
        raise UserError("--expansions takes one set for tune, e.g. crossroads")
    if tier == "expert" and len(counts) != 1:
        raise UserError("--tier expert tunes one player count at a time, e.g. --players 4")
    if method not in ("cma", "sweep", "imitate"):
        raise UserError(f"--method must be cma, sweep or imitate, not '{method}'")
    if method == "imitate":
        if tier != "expert":
            raise UserError("--method imitate fits the expert: add --tier expert --players N")
        if games < 10 or generations < 1 or iterations < 1:
            raise UserError(
                "--method imitate needs --games >= 10 (search games per round), --generations >= 1 "
                "(rounds) and --iterations >= 1"
            )
        if gate < 0:
            raise UserError(f"--gate must be 0 (off) or a number of deals, not {gate}")
    if method == "sweep":
        if tier != "expert":
            raise UserError("--method sweep polishes the expert: add --tier expert --players N")
        if games < 100 or generations < 1:
            raise UserError(
                "--method sweep needs --games >= 100 (deals per move) and --generations >= 1 (rounds)"
            )
        from kernels.tokaido.core.enums import BOT_NAMES

        opponents = tuple(b.strip() for b in field.split(",") if b.strip())
        bad = [b for b in opponents if b not in ("start", "current") and b not in BOT_NAMES[2:]]
        if not opponents or bad:
            raise UserError(
                f"--field takes start, current or bot names, comma-separated; not {', '.join(bad) or 'empty'}"
            )
    cma = None if method == "cma" else f"it sets the CMA-ES search, and --method is {method}"
    validate.refuse_unused(
        population=cma,
        sigma=cma,
        trav_games=None
        if method == "cma" and tier == "tuned"
        else "the Traveler priors are fitted for --tier tuned with --method cma only",
        iterations=None if method == "imitate" else "it is for --method imitate",
        gate=None if method == "imitate" else "it is for --method imitate",
        field=None if method == "sweep" else "it is for --method sweep",
    )
    check_seed(seed)
    s = tuning_tune.TuneSettings(
        generations=generations,
        population=population,
        games=games,
        seed=seed,
        sigma=sigma,
        start=start or ("heuristic" if tier == "tuned" else "expert"),
        tier=tier,
        players=tuple(counts),
        expansions=xsets[0],
        trav_games=trav_games,
        threads=threads,
    )
    tuning_tune.check_settings(s)
    if out is None:  # never overwrite the shipped weights by default
        from sim.games.tokaido.bots import config_key

        out = Path("results/bots") / (
            "tuned.toml" if tier == "tuned" else f"expert-{config_key(counts[0], s.expansions)}.toml"
        )
    validate.out_file(out)

    bar: list[Any] = []

    def progress(total: int) -> Callable[[int], None]:
        cm = progress_bar(total, 0, not quiet, label="tune")
        bar.append(cm)
        return cm.__enter__()

    if method == "imitate":
        from sim.games.tokaido.tuning import imitate

        si = imitate.ImitateSettings(
            players=counts[0],
            expansions=xsets[0],
            rounds=generations,
            games=games,
            iterations=iterations,
            seed=seed,
            start=s.start,
            threads=threads,
            gate=gate,
        )
        try:
            w = imitate.imitate(si, progress)
        finally:
            for cm in bar:
                cm.__exit__(None, None, None)
        imitate.write_weights(out, w, si, _command_line())
        if not quiet:
            for h in si.history:
                typer.echo(
                    f"round {h['round']}: {h['decisions']} decisions; held-out agreement "
                    f"{h['agree_before']:.4f} -> {h['agree_after']:.4f}"
                )
                if "gate" in h:
                    typer.echo(f"  gate: win share by step {h['gate']}; kept step {h['step']:g}")
            typer.echo(f"wrote {out}")
        return
    if method == "sweep":
        from sim.games.tokaido.tuning import sweep

        ss = sweep.SweepSettings(
            players=counts[0],
            expansions=xsets[0],
            rounds=generations,
            games=games,
            seed=seed,
            start=s.start,
            opponents=opponents,
            threads=threads,
        )
        try:
            w = sweep.sweep(ss, progress)
        finally:
            for cm in bar:
                cm.__exit__(None, None, None)
        sweep.write_weights(out, w, ss, _command_line())
        if not quiet:
            for h in ss.history:
                typer.echo(
                    f"round {h['round']}: {h['moves'] or 'no move'}; {h['vs_start']:+.3f} over the start"
                )
            typer.echo(f"wrote {out}")
        return
    try:
        w = tuning_tune.cem(s, progress)
    finally:
        for cm in bar:
            cm.__exit__(None, None, None)
    priors = tuning_tune.traveler_priors(w, s) if tier == "tuned" else {}
    tuning_tune.write_weights(out, w, priors, s, _command_line())
    if not quiet:
        for h in s.history:
            typer.echo(
                f"generation {h['generation']:2d}: best {h['best']:.3f}, mean {h['mean_candidate']:.3f}"
            )
    typer.echo(f"wrote {out}")


def _counts(players: str, option: str = "--players") -> list[int]:
    from kernels.tokaido.core import enums as E

    try:
        counts = [int(x) for x in players.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"{option} must be numbers like 2,3,4,5, got '{players}'") from None
    if not counts or any(not 2 <= n <= E.MAX_PLAYERS for n in counts):
        raise UserError(f"{option} must be between 2 and {E.MAX_PLAYERS}, got '{players}'")
    if len(set(counts)) != len(counts):
        raise UserError(f"{option} lists a player count twice ('{players}'); give each once")
    return counts


def _sets(text: str, option: str, known: tuple[str, ...]) -> list[tuple[str, ...]]:
    """'none,crossroads' -> [(), ('crossroads',)]; '+' joins several in one set."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        names = () if part in ("none", "base") else tuple(sorted(x for x in part.split("+") if x))
        for x in names:
            if x not in known:
                raise UserError(f"unknown {option} '{x}'; choose from: none, {', '.join(known)}")
        if names in out or len(set(names)) != len(names):
            raise UserError(
                f"--{option} lists '{part}' twice (the order inside a set does not matter); give each once"
            )
        out.append(names)
    if not out:
        raise UserError(f"--{option} needs at least one set, e.g. none,crossroads")
    return out


@bots_app.command("calibrate-draft")
@user_errors
def calibrate_draft(
    tier: Annotated[str, typer.Option(help="Tier whose draft table to measure (self-play).")] = "expert",
    players: PlayerCounts = "2,3,4,5",
    expansions: ExpansionSets = "none,crossroads",
    variants: Annotated[
        str, typer.Option(help="Variant sets, comma-separated ('none', 'preparations').")
    ] = "none",
    games: Annotated[int, typer.Option(help="Games per player count and set.")] = 20000,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Table to write (default sim/games/tokaido/data/bots/draft-TIER.toml)."
        ),
    ] = None,
    seed: Seed = 1,
    threads: Threads = None,
    quiet: Quiet = False,
) -> None:
    """Measure each Traveler's win share under random assignment; the tier's draft keeps the higher one."""
    from kernels.tokaido.core import enums as E
    from sim.games.tokaido import bots
    from sim.games.tokaido.rules.config import EXPANSIONS, VARIANTS
    from sim.games.tokaido.tuning import draft

    if tier not in E.BOT_NAMES or tier in ("random", "greedy"):
        raise UserError(f"--tier must be a heuristic tier ({', '.join(E.BOT_NAMES[2:])}), got '{tier}'")
    if games < 100:
        raise UserError("--games must be at least 100")
    counts = _counts(players)
    xsets, vsets = _sets(expansions, "expansions", EXPANSIONS), _sets(variants, "variants", VARIANTS)
    check_seed(seed)
    path = validate.out_file(out or draft.DATA_DIR / f"{bots.DRAFT_PREFIX}{tier}.toml")
    cells = []
    for x in xsets:
        for v in vsets:
            for n in counts:
                cell = draft.measure(tier, n, x, v, games, seed, threads)
                cells.append(cell)
                if not quiet:
                    top = sorted(cell.shares.items(), key=lambda kv: -kv[1])
                    typer.echo(f"{cell.key}: " + ", ".join(f"{t} {p:.3f}" for t, p in top))
    draft.write_table(path, draft.table_toml(tier, cells, _command_line(), seed))
    typer.echo(f"wrote {path}")


@bots_app.command("calibrate-agreement")
@user_errors
def calibrate_agreement(
    tiers: Annotated[
        str, typer.Option(help="The bulk tier and the stronger tier it is checked against.")
    ] = "expert,search",
    players: PlayerCounts = "2,3,4,5",
    expansions: ExpansionSets = "none,crossroads",
    games: Annotated[int, typer.Option(help="Self-play games of the bulk tier per configuration.")] = 100000,
    reference_games: Annotated[
        int, typer.Option(help="The same for the stronger tier (search: slow).")
    ] = 8000,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Table to write (default sim/games/tokaido/data/bots/agreement-TIER.toml)."
        ),
    ] = None,
    seed: Seed = 11,
    threads: Threads = None,
    quiet: Quiet = False,
) -> None:
    """Measure how two tiers rank the Travelers (random assignment); the report names what they dispute."""
    from kernels.tokaido.core import enums as E
    from sim.games.tokaido.bots import config_key
    from sim.games.tokaido.rules.config import EXPANSIONS
    from sim.games.tokaido.tuning import agreement as tier_agreement
    from sim.games.tokaido.tuning.draft import write_table

    pair = [t.strip() for t in tiers.split(",") if t.strip()]
    if len(pair) != 2 or pair[0] == pair[1] or any(t not in E.BOT_NAMES for t in pair):
        raise UserError(
            f"--tiers takes two different tiers of {', '.join(E.BOT_NAMES)}, e.g. expert,search; got "
            f"'{tiers}'"
        )
    if games < 100 or reference_games < 100:
        raise UserError("--games and --reference-games must be at least 100")
    counts = _counts(players)
    xsets = _sets(expansions, "expansions", EXPANSIONS)
    check_seed(seed)
    path = validate.out_file(out or tier_agreement.table_path(pair[0]))
    rows = []
    for x in xsets:
        for n in counts:
            r = tier_agreement.agreement(pair[0], pair[1], n, x, games, reference_games, seed, threads)
            rows.append((config_key(n, x), r))
            if not quiet:
                typer.echo(
                    f"{rows[-1][0]}: rho {r.rho:.2f} ({r.rho_lo:.2f} to {r.rho_hi:.2f}); beyond 3 pp: "
                    f"{', '.join(r.beyond) or 'none'}; verdicts that differ: {', '.join(r.differ) or 'none'}"
                )
    write_table(path, tier_agreement.table_toml(rows, _command_line(), seed))
    typer.echo(f"wrote {path}")


@bots_app.command()
@user_errors
def ladder(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for ladder.csv and ladder.md.")],
    players: PlayerCounts = "2,3,4,5",
    tiers: Annotated[
        str, typer.Option(help="Tiers, weakest first, comma-separated.")
    ] = "random,greedy,heuristic,tuned,expert,search",
    games: Annotated[
        int, typer.Option(help="Games per pairing and player count (each deal twice, seats swapped).")
    ] = 4000,
    search_games: Annotated[
        int, typer.Option(help="The same for pairings with the search bot (slow).")
    ] = 400,
    all_pairs: Annotated[
        bool, typer.Option("--all-pairs", help="Every pair of tiers, not only neighbours.")
    ] = False,
    profile_games: Annotated[
        int, typer.Option(help="Self-play games per tier for the profiles (0: none).")
    ] = 2000,
    profile_search_games: Annotated[int, typer.Option(help="The same for the search bot.")] = 100,
    profile_players: Annotated[int, typer.Option(help="Player count of the profiles.")] = 4,
    agreement: Annotated[
        str, typer.Option(help="Two tiers whose per-Traveler win rates to compare ('': none).")
    ] = "expert,search",
    agreement_games: Annotated[
        int, typer.Option(help="Random-Traveler games of the first tier per configuration (0: none).")
    ] = 20000,
    agreement_search_games: Annotated[
        int, typer.Option(help="The same for the second tier (the search bot is slow).")
    ] = 400,
    agreement_expansions: Annotated[
        str, typer.Option(help="Expansion sets of the agreement table.")
    ] = "none,crossroads",
    agreement_seat_games: Annotated[
        int,
        typer.Option(
            help="Deals with one player of the second tier among the first (its seat rotating) and without "
            "it: its gain per Traveler, in win share and log-odds (0: none)."
        ),
    ] = 0,
    seed: Seed = 1,
    threads: Threads = None,
    quiet: Quiet = False,
) -> None:
    """Play the bot tiers against each other; write win rates, intervals, Elo gaps and tier agreement to
    OUT."""
    from datetime import UTC, datetime

    from kernels.tokaido.core import enums as E
    from sim.games.tokaido.tuning import ladder as ladder_games
    from sim.run.progress import progress_bar

    names = tuple(t.strip() for t in tiers.split(",") if t.strip())
    for t in names:
        if t not in E.BOT_NAMES:
            raise UserError(f"unknown tier '{t}'; choose from: {', '.join(E.BOT_NAMES)}")
    if len(names) < 2 or len(set(names)) != len(names):
        raise UserError("--tiers needs at least two different tiers")
    counts = _counts(players)
    if games < 2 or search_games < 2:
        raise UserError("--games and --search-games must be at least 2")
    if agreement_seat_games != 0 and agreement_seat_games < max(counts):
        raise UserError(
            f"--agreement-seat-games needs at least one deal per seat ({max(counts)}) or 0 for none, "
            f"got {agreement_seat_games}"
        )
    check_seed(seed)
    if profile_games > 0:
        _counts(str(profile_players), "--profile-players")
    pairs = [
        (names[j], names[i])
        for i in range(len(names))
        for j in range(i + 1, len(names))
        if all_pairs or j == i + 1
    ]
    pair = [t.strip() for t in agreement.split(",") if t.strip()]
    agree = bool(pair) and agreement_games > 0
    xsets: list[tuple[str, ...]] = []
    if agree:
        from sim.games.tokaido.rules.config import EXPANSIONS

        if len(pair) != 2 or any(t not in E.BOT_NAMES for t in pair):
            raise UserError(f"--agreement needs two tiers like expert,search, got '{agreement}'")
        xsets = _sets(agreement_expansions, "expansions", EXPANSIONS)
    no_agreement = None if agree else "no agreement table is made (--agreement '' or --agreement-games 0)"
    validate.refuse_unused(
        search_games=None if any("search" in p for p in pairs) else "no pairing has the search tier",
        profile_search_games=None
        if "search" in names and profile_games > 0
        else "no search-tier profile is played (no search in --tiers, or --profile-games 0)",
        profile_players=None if profile_games > 0 else "--profile-games 0 plays no profile",
        all_pairs=None if len(names) > 2 else "two tiers make one pair either way",
        agreement_games=None if pair else "--agreement '' makes no agreement table",
        agreement_expansions=no_agreement,
        agreement_seat_games=no_agreement,
        agreement_search_games=no_agreement
        or (None if pair[1] == "search" else f"the second tier of --agreement is {pair[1]}, not search"),
    )
    validate.out_dir(out)  # a file in the way is one line, not [Errno 17]; nothing is made before this
    out.mkdir(parents=True, exist_ok=True)

    def deals(a: str, b: str) -> int:
        return max(1, (search_games if "search" in (a, b) else games) // 2)

    total = sum(2 * deals(a, b) for a, b in pairs) * len(counts)
    results = []
    with progress_bar(total, 0, not quiet, label="ladder") as advance:
        for n in counts:
            for a, b in pairs:
                results.append(ladder_games.play_pair(n, a, b, deals(a, b), seed, threads, advance))
    profiles = []
    if profile_games > 0:
        for t in names:
            k = profile_search_games if t == "search" else profile_games
            profiles.append(ladder_games.profile(t, profile_players, k, seed, threads))
    agree_md = ""
    if agree:
        from sim.games.tokaido.tuning import agreement as tier_agreement

        k_b = agreement_search_games if pair[1] == "search" else agreement_games
        cells = [
            (n, x, tier_agreement.agreement(pair[0], pair[1], n, x, agreement_games, k_b, seed, threads))
            for x in xsets
            for n in counts
        ]
        agree_md = "\n" + tier_agreement.markdown([c for _, _, c in cells])
        if agreement_seat_games > 0:
            from sim.games.tokaido.tuning import seatgain

            # the bulk tier's agreement games are the seat gain's reference games: reused, not replayed
            agree_md += "\n" + seatgain.markdown(
                [
                    seatgain.seat_gain(
                        pair[0], pair[1], n, x, agreement_seat_games, seed, threads, ref=c.a.records
                    )
                    for n, x, c in cells
                ]
            )
    date = datetime.now(UTC).isoformat(timespec="seconds")
    meta = f"Made by `{_command_line()}` (seed {seed}, {date})."
    ladder_games.write_csv(out / "ladder.csv", results)
    (out / "ladder.md").write_text(ladder_games.markdown(results, profiles, names, meta) + agree_md)
    if not quiet:
        typer.echo((out / "ladder.md").read_text())
    typer.echo(f"wrote {out / 'ladder.csv'} and {out / 'ladder.md'}")


@bots_app.command("bot-report")
@user_errors
def bot_report(
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Markdown file to write (default: print only).")
    ] = None,
    tiers: Annotated[
        str, typer.Option(help="Tiers, comma-separated.")
    ] = "random,greedy,heuristic,tuned,expert",
    players: PlayerCounts = "4",
    expansions: ExpansionSets = "none",
    games: Annotated[
        int, typer.Option(help="Self-play games per tier and configuration (each refereed).")
    ] = 2000,
    search_games: Annotated[int, typer.Option(help="The same for the search bot (slow).")] = 40,
    seed: Seed = 1,
    threads: Threads = None,
) -> None:
    """Sane play per tier: coins left, idle Village stops, meals skipped, never donating, keep rates."""
    from kernels.tokaido.core import enums as E
    from sim.games.tokaido.rules.config import EXPANSIONS
    from sim.games.tokaido.tuning import sane

    names = [t.strip() for t in tiers.split(",") if t.strip()]
    for t in names:
        if t not in E.BOT_NAMES:
            raise UserError(f"unknown tier '{t}'; choose from: {', '.join(E.BOT_NAMES)}")
    if games < 1 or search_games < 1:
        raise UserError("--games and --search-games must be at least 1")
    counts, xsets = _counts(players), _sets(expansions, "expansions", EXPANSIONS)
    check_seed(seed)
    validate.refuse_unused(search_games=None if "search" in names else "--tiers has no search")
    if out is not None:
        validate.out_file(out)
    reports = [
        sane.sane_play(t, n, search_games if t == "search" else games, seed, x, threads)
        for x in xsets
        for n in counts
        for t in names
    ]
    text = f"Made by `{_command_line()}`.\n\n" + sane.markdown(reports)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    typer.echo(text)


@bots_app.command("fit-search-eval")
@user_errors
def fit_search_eval(
    players: PlayerCounts = "2,3,4,5",
    expansions: ExpansionSets = "none,crossroads",
    games: Annotated[int, typer.Option(help="Expert self-play games per player count and set.")] = 20000,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="File to write (default sim/games/tokaido/data/bots/search_eval.toml)."
        ),
    ] = None,
    seed: Seed = 1,
) -> None:
    """Fit the search bot's evaluation at the Inns (truncated rollouts) from expert self-play."""
    from sim.games.tokaido.rules.config import EXPANSIONS, GameConfig
    from sim.games.tokaido.tuning import draft, search_fit

    if games < 100:
        raise UserError("--games must be at least 100")
    check_seed(seed)
    xsets, counts = _sets(expansions, "expansions", EXPANSIONS), _counts(players)
    path = validate.out_file(out or draft.DATA_DIR / f"{search_fit.SEARCH_EVAL}.toml")
    fits = []
    for x in xsets:
        for n in counts:
            # Travelers dealt at random: every Traveler gets its term, even one the draft never keeps
            f = search_fit.fit(
                GameConfig(n_players=n, bots=("expert",), expansions=x, travelers="random"), games, seed
            )
            typer.echo(
                f"{f.key}: R^2 "
                + " ".join(f"{v:.3f}" for v in f.r2)
                + "; winner found "
                + " ".join(f"{v:.3f}" for v in f.win_acc)
            )
            fits.append(f)
    search_fit.write(path, fits, _command_line(), seed)
    typer.echo(f"wrote {path}")
