"""The Tokaido Duo report of one ``duo run`` dataset: ``report.md`` plus one CSV per table.

Read by column name (docs/duo.md lists them), so this module needs nothing of
``kernels.duo``: the bit order of ``end_triggers`` and ``waves_held`` is
restated here and a test holds it to ``kernels.duo.enums``. Every report
header carries the board provenance and the ``verified`` flag from the
manifest (falling back to the rows' ``duo_board_version`` / ``verified``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis import fmt, stats
from analysis.load import parquet_files, read_manifest, reading, win_sum
from sim.dataset.manifest import Manifest
from sim.dataset.parts import checked_files

# bits of end_triggers; rounds = the safety stop; rank = a solo Automa's full Rank track
TRIGGERS = ("temple", "garden", "gold", "gift", "rounds", "rank")
AUTOMA = "automa"  # the bot name of the solo opponent
CHARACTERS = ("pilgrim", "merchant", "artist")  # bits of waves_held, suffixes of pts_* and wave_use_*
POINTS = tuple(f"pts_{c}" for c in CHARACTERS)
REQUIRED = (
    "game",
    "player",
    "bot",
    "win",
    "first",
    "score",
    *POINTS,
    "coins",
    "end_triggers",
    "rounds",
    "hs_taken",
    "hs_used",
    "waves_held",
    *(f"wave_use_{c}" for c in CHARACTERS),
    "duo_board_version",
    "verified",
)
LEVEL = 0.95
ALPHA = 0.05
CSV_FILES = {
    "first_picker": "first_picker.csv",
    "points": "points.csv",
    "triggers": "triggers.csv",
    "rounds": "rounds.csv",
    "token_waves": "token_waves.csv",
}
SOLO_FILE = "solo.csv"  # written for a solo dataset only


@dataclass
class DuoDataset:
    path: Path
    frame: pl.DataFrame  # one row per player per game, ``bot`` as text, plus ``matchup`` ("greedy vs search")
    manifest: Manifest = field(default_factory=Manifest)
    provenance: str = ""
    verified: bool = False
    notes: list[str] = field(default_factory=list)  # files skipped, and why (one line each)

    @property
    def caption(self) -> str:
        """The line under every Duo figure: which board, and whether it is the published one."""
        return f"Tokaido Duo · {self.provenance} · verified={str(self.verified).lower()}"

    @property
    def solo(self) -> bool:
        """A solo dataset: one bot against the Automa."""
        return AUTOMA in self.frame["bot"].unique().to_list()

    @property
    def games(self) -> pl.DataFrame:
        """One row per game (player 0's row: the game-level columns are the same for both)."""
        return self.frame.filter(pl.col("player") == 0)


def load_duo(path: str | Path) -> DuoDataset:
    """A ``duo run`` directory's rows and manifest; a one-line ``ValueError`` if it is not one.

    The parts are checked against the manifest as a Tokaido dataset's are (``sim.dataset.parts``):
    a missing, truncated, edited or foreign part is refused, a stray copy skipped (its note kept).
    """
    p = Path(path)
    files, notes = checked_files(
        p if p.is_dir() else p.parent, parquet_files(p)
    )  # rows a game: the manifest's
    if not files:
        raise ValueError(f"no Parquet file of '{p}' is listed in its manifest: nothing to read")
    lf = pl.scan_parquet([str(f) for f in files])
    names = lf.collect_schema().names()
    if "duo_board_version" not in names:
        raise ValueError(
            f"'{p}' is not a Tokaido Duo dataset (no duo_board_version column); "
            "for a Tokaido dataset use `tokaido-sim report`"
        )
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        raise ValueError(
            f"Duo dataset '{p}' lacks the column(s) {', '.join(missing)}; rewrite it with "
            "`tokaido-sim duo run`"
        )
    with reading(files):
        df = lf.with_columns(
            pl.col("bot").cast(pl.String), pl.col("duo_board_version").cast(pl.String)
        ).collect()
    seats = df.select("game", "player", "bot").pivot(on="player", index="game", values="bot")
    seats = seats.select("game", pl.concat_str([pl.col("0"), pl.col("1")], separator=" vs ").alias("matchup"))
    df = df.join(seats, on="game", how="left")
    manifest = read_manifest(p)
    board = manifest.extra.get("duo_board")
    board = board if isinstance(board, dict) else {}
    prov = board.get("provenance") or "; ".join(sorted(set(df["duo_board_version"].to_list())))
    verified = board.get("verified")
    if verified is None:
        verified = bool(df["verified"].all())
    return DuoDataset(p, df, manifest, str(prov), bool(verified), notes)


def _wilson(df: pl.DataFrame, wins: str, n: str, prefix: str, level: float) -> pl.DataFrame:
    lo, hi = stats.wilson_interval(df[wins].to_numpy(), df[n].to_numpy(), level)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = df[wins].to_numpy() / df[n].to_numpy()
    return df.with_columns(
        pl.Series(f"{prefix}", rate), pl.Series(f"{prefix}_lo", lo), pl.Series(f"{prefix}_hi", hi)
    )


def _diff(df: pl.DataFrame, a: tuple[str, str], b: tuple[str, str], level: float) -> pl.DataFrame:
    d = stats.diff_proportions(
        df[a[0]].to_numpy(), df[a[1]].to_numpy(), df[b[0]].to_numpy(), df[b[1]].to_numpy(), level
    )
    return df.with_columns(
        pl.Series("diff", d.diff),
        pl.Series("diff_lo", d.lo),
        pl.Series("diff_hi", d.hi),
        pl.Series("p_value", d.p_value),
    )


def first_picker_table(df: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Per bot (and ``all``): win rate when picking first in round 1 vs second, Wilson and Newcombe intervals.

    The ``all`` row is the first picker's win rate over every game, tested against 50%.
    """

    def agg(frame: pl.DataFrame, by: pl.Expr) -> pl.DataFrame:
        first = pl.col("first") == 1
        return frame.group_by(by.alias("bot")).agg(
            games_first=first.sum(),
            wins_first=win_sum(pl.col("win").filter(first)),
            games_second=(~first).sum(),
            wins_second=win_sum(pl.col("win").filter(~first)),
        )

    bots = (
        [agg(df, pl.col("bot")).sort("bot")] if df["bot"].n_unique() > 1 else []
    )  # a mirror: the bot is ``all``
    out = pl.concat([agg(df, pl.lit("all")), *bots], how="vertical_relaxed")
    out = _wilson(
        _wilson(out, "wins_first", "games_first", "win_first", level),
        "wins_second",
        "games_second",
        "win_second",
        level,
    )
    out = _diff(out, ("wins_first", "games_first"), ("wins_second", "games_second"), level)
    # over all games first and second are the same games (second = 1 - first): the difference is 2p - 1
    every = pl.col("bot") == "all"
    out = out.with_columns(
        diff_lo=pl.when(every).then(2 * pl.col("win_first_lo") - 1).otherwise(pl.col("diff_lo")),
        diff_hi=pl.when(every).then(2 * pl.col("win_first_hi") - 1).otherwise(pl.col("diff_hi")),
    )
    test = stats.fair_share_test(out["wins_first"].to_numpy(), out["games_first"].to_numpy(), 0.5)
    out = out.with_columns(
        pl.Series("p_vs_half", test.p_value)
    )  # for ``all``; a bot's rate mixes in its strength
    return out.with_columns(p_value=pl.when(every).then(pl.col("p_vs_half")).otherwise(pl.col("p_value")))


def points_table(df: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Per bot and outcome (all / won / lost; a tie is in ``all`` only): win rate, mean points by
    character."""
    parts = []
    for label, cond in (("all", pl.lit(True)), ("won", pl.col("win") == 1), ("lost", pl.col("win") == 0)):
        parts.append(
            df.filter(cond)
            .group_by("bot")
            .agg(
                pl.lit(label).alias("outcome"),
                games=pl.len(),
                wins=win_sum(),
                **{f"mean_{c}": pl.col(c).mean() for c in (*POINTS, "score", "coins")},
                sd_score=pl.col("score").std(),
            )
        )
    out = pl.concat(parts).sort("bot", pl.col("outcome").replace_strict({"all": 0, "won": 1, "lost": 2}))
    out = _wilson(out, "wins", "games", "win_rate", level)
    lo, hi = stats.mean_interval(
        out["mean_score"].to_numpy(), out["sd_score"].to_numpy(), out["games"].to_numpy(), level
    )
    return out.with_columns(pl.Series("score_lo", lo), pl.Series("score_hi", hi))


def triggers_table(games: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Per matchup and trigger: share of games it ended (several may fire in the last round), alone,
    rounds."""
    rows = []
    for (matchup,), sub in games.group_by("matchup", maintain_order=True):
        bits = sub["end_triggers"].to_numpy()
        rounds = sub["rounds"].to_numpy()
        for k, name in enumerate(TRIGGERS):
            fired = (bits >> k) & 1 == 1
            if name == "rank" and AUTOMA not in matchup.split(" vs "):
                continue  # only a solo game has Rank tracks
            rows.append(
                {
                    "matchup": matchup,
                    "trigger": name,
                    "games": len(sub),
                    "fired": int(fired.sum()),
                    "alone": int((bits == (1 << k)).sum()),
                    "mean_rounds": float(rounds[fired].mean()) if fired.any() else None,
                }
            )
    out = pl.DataFrame(rows, schema_overrides={"mean_rounds": pl.Float64})
    return _wilson(out, "fired", "games", "share", level).sort("matchup", maintain_order=True)


def rounds_table(games: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Per matchup: rounds played, mean with t interval and quantiles."""
    r = pl.col("rounds")
    out = (
        games.group_by("matchup")
        .agg(
            games=pl.len(),
            mean_rounds=r.mean(),
            sd_rounds=r.std(),
            min=r.min(),
            p10=r.quantile(0.1, "nearest").cast(pl.Int64),
            median=r.median(),
            p90=r.quantile(0.9, "nearest").cast(pl.Int64),
            max=r.max(),
        )
        .sort("matchup")
    )
    lo, hi = stats.mean_interval(
        out["mean_rounds"].to_numpy(), out["sd_rounds"].to_numpy(), out["games"].to_numpy(), level
    )
    return out.with_columns(pl.Series("rounds_lo", lo), pl.Series("rounds_hi", hi))


def _items() -> list[tuple[str, pl.Expr, str | None]]:
    items: list[tuple[str, pl.Expr, str | None]] = [
        ("Hot Spring token taken", pl.col("hs_taken") > 0, "hs_taken"),
        ("Hot Spring token used", pl.col("hs_used") > 0, "hs_used"),
    ]
    for k, c in enumerate(CHARACTERS):
        items.append((f"{c} wave tile held at the end", (pl.col("waves_held") // (1 << k)) % 2 == 1, None))
        items.append((f"{c} wave tile used", pl.col(f"wave_use_{c}") > 0, f"wave_use_{c}"))
    return items


def token_waves_table(df: pl.DataFrame, level: float = LEVEL, alpha: float = ALPHA) -> pl.DataFrame:
    """Per bot and item: how often players had it, and the win rate with vs without (an association).

    Holm adjusts the p-values over every row of the table (one family).
    """
    parts = []
    df = df.filter(pl.col("bot") != AUTOMA)  # the Automa takes no wave tile and never spends the token
    for label, cond, count in _items():
        parts.append(
            df.group_by("bot").agg(
                pl.lit(label).alias("item"),
                players=pl.len(),
                with_n=cond.sum(),
                wins_with=win_sum(pl.col("win").filter(cond)),
                without_n=(~cond).sum(),
                wins_without=win_sum(pl.col("win").filter(~cond)),
                mean_uses=pl.col(count).mean() if count else pl.lit(None, pl.Float64),
            )
        )
    out = pl.concat(parts).sort("bot", maintain_order=True)
    out = out.with_columns(share_with=pl.col("with_n") / pl.col("players"))
    out = _wilson(
        _wilson(out, "wins_with", "with_n", "win_with", level),
        "wins_without",
        "without_n",
        "win_without",
        level,
    )
    out = _diff(out, ("wins_with", "with_n"), ("wins_without", "without_n"), level)
    adj, reject = stats.holm(out["p_value"].to_numpy(), alpha)
    verdict = np.where(
        reject & (out["diff"].to_numpy() > 0), "goes with winning", np.where(reject, "goes with losing", "")
    )
    return out.with_columns(pl.Series("p_holm", adj), pl.Series("verdict", verdict.tolist(), dtype=pl.String))


def solo_table(df: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Solo: the human bot's win rate against the Automa, overall and by its plan.

    A game's *plan* is the character that earned the human most points (``mixed`` on a tie
    for the most). Rows: ``all`` and each plan; games, share, wins (ties go to the human),
    Wilson interval, mean human score and mean Automa score. Empty without an Automa.
    """
    if AUTOMA not in df["bot"].unique().to_list():
        return pl.DataFrame()
    human = df.filter(pl.col("bot") != AUTOMA)
    automa = df.filter(pl.col("bot") == AUTOMA).select("game", pl.col("score").alias("automa_score"))
    pts = pl.concat_list([pl.col(c) for c in POINTS])
    plan = (
        pl.when((pts.list.eval(pl.element() == pl.element().max()).list.sum()) > 1)
        .then(pl.lit("mixed"))
        .otherwise(pl.lit(list(CHARACTERS)).list.get(pts.list.arg_max()))
    )
    human = human.with_columns(plan=plan).join(automa, on="game")

    def agg(frame: pl.DataFrame, label: pl.Expr) -> pl.DataFrame:
        return frame.group_by(label.alias("plan")).agg(
            games=pl.len(),
            wins=win_sum(),
            mean_score=pl.col("score").mean(),
            mean_automa=pl.col("automa_score").mean(),
        )

    out = pl.concat([agg(human, pl.lit("all")), agg(human, pl.col("plan")).sort("plan")])
    out = out.with_columns(share=pl.col("games") / human.height)
    return _wilson(out, "wins", "games", "win_rate", level)


def _md_solo(so: pl.DataFrame) -> str:
    rows = [
        [
            r["plan"],
            f"{r['games']:,}",
            fmt.pct(r["share"]),
            fmt.pct_ci(r["win_rate"], r["win_rate_lo"], r["win_rate_hi"]),
            fmt.num(r["mean_score"]),
            fmt.num(r["mean_automa"]),
        ]
        for r in so.iter_rows(named=True)
    ]
    return (
        "The human bot's *plan* in a game is the character that earned it the most points. The Automa is a "
        'reconstruction (docs/duo.md, "Solo"); ties go to the human (003:L87).\n\n'
        + fmt.table(
            ["plan", "games", "share", "win rate vs the Automa (95% CI)", "human score", "Automa score"],
            rows,
            right=[False, *([True] * 5)],
        )
    )


def _header(ds: DuoDataset) -> str:
    m = ds.manifest
    cfg = m.config if isinstance(m.config, dict) else {}
    board = m.extra.get("duo_board")
    board = board if isinstance(board, dict) else {}
    overrides = board.get("overrides") or []
    status = "published" if ds.verified else "reconstruction"
    lines = [
        "# Tokaido Duo report\n",
        f"- Status: **{status}**" + ("" if ds.verified else " (some unknown of the Duo game is assumed)"),
        f"- Board: {ds.provenance}; **verified={str(ds.verified).lower()}**",
        "- Overrides: " + (", ".join(f"`{k}={_value(v)}`" for k, v in overrides) if overrides else "none"),
        f"- Dataset: `{ds.path}`",
        f"- Games: {ds.games.height:,} ({ds.frame.height:,} player rows)",
        f"- Seed: {m.seed if m.seed is not None else 'not recorded'}",
        f"- Bots (player 0, player 1): {', '.join(cfg.get('bots', [])) or 'see the matchup column'}",
    ]
    lines += [f"- Skipped: {note}" for note in ds.notes]
    if not ds.verified:
        lines.append(
            "\n> **Not the published board.** These figures come from an invented reconstruction of the "
            "Duo map and number tables (docs/duo.md); they describe this world only, not the real game. "
            "Which conclusions survive what is not known is measured by `tokaido-sim duo study` "
            '(docs/duo.md, "What survives").'
        )
    return "\n".join(lines)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    return ",".join(_value(x) for x in v) if isinstance(v, list) else str(v)


def _summary(fp: pl.DataFrame, trig: pl.DataFrame, rounds: pl.DataFrame, tw: pl.DataFrame) -> str:
    a = fp.row(0, named=True)
    d = 2 if a["games_first"] >= 50_000 else 1
    edge = (
        "an advantage"
        if a["p_vs_half"] < ALPHA and a["win_first"] > 0.5
        else ("a disadvantage" if a["p_vs_half"] < ALPHA else "no advantage detectable at this sample size")
    )
    lines = [
        f"- The first picker of round 1 wins "
        f"{fmt.pct_ci(a['win_first'], a['win_first_lo'], a['win_first_hi'], d)}"
        f" of games (p vs 50%: {fmt.pval(a['p_vs_half'])}): {edge}."
    ]
    for (matchup,), sub in trig.group_by("matchup", maintain_order=True):
        top = sub.sort("share", descending=True).row(0, named=True)
        rr = rounds.filter(pl.col("matchup") == matchup).row(0, named=True)
        lines.append(
            f"- {matchup}: games end most often on the **{top['trigger']}** trigger "
            f"({fmt.pct(top['share'])}); {fmt.num(rr['mean_rounds'])} rounds on average "
            f"(median {rr['median']:.0f}, {rr['min']}–{rr['max']})."
        )
    flagged = tw.filter(pl.col("verdict") != "")
    items = [
        f"{r['item']} ({r['bot']}: {fmt.pp_ci(r['diff'], r['diff_lo'], r['diff_hi'])})"
        for r in flagged.sort("diff", descending=True).iter_rows(named=True)
    ]
    lines.append(
        "- Associated with winning or losing (Holm 5%): " + ("; ".join(items) if items else "nothing") + "."
    )
    return "\n".join(lines)


def _md_first(fp: pl.DataFrame) -> str:
    rows = [
        [
            r["bot"],
            f"{r['games_first']:,}",
            fmt.pct_ci(r["win_first"], r["win_first_lo"], r["win_first_hi"]),
            fmt.pct_ci(r["win_second"], r["win_second_lo"], r["win_second_hi"]),
            fmt.pp_ci(r["diff"], r["diff_lo"], r["diff_hi"]),
            fmt.pval(r["p_value"]),
        ]
        for r in fp.iter_rows(named=True)
    ]
    return fmt.table(
        [
            "bot",
            "games first",
            "win rate first (95% CI)",
            "win rate second",
            "first − second",
            "p (all: first vs 50%; a bot: first vs second)",
        ],
        rows,
    )


def _md_points(pt: pl.DataFrame) -> str:
    rows = [
        [
            r["bot"],
            r["outcome"],
            f"{r['games']:,}",
            fmt.pct_ci(r["win_rate"], r["win_rate_lo"], r["win_rate_hi"]),
            *(fmt.num(r[f"mean_{c}"]) for c in POINTS),
            fmt.num_ci(r["mean_score"], r["score_lo"], r["score_hi"]),
            fmt.num(r["mean_coins"]),
        ]
        for r in pt.iter_rows(named=True)
    ]
    return fmt.table(
        ["bot", "outcome", "player-games", "win rate (95% CI)", *CHARACTERS, "score (95% CI)", "coins"],
        rows,
        right=[False, False, *([True] * 7)],
    )


def _md_triggers(trig: pl.DataFrame, rounds: pl.DataFrame) -> str:
    out = []
    for (matchup,), sub in trig.group_by("matchup", maintain_order=True):
        rows = [
            [
                r["trigger"],
                fmt.pct_ci(r["share"], r["share_lo"], r["share_hi"]),
                f"{r['alone']:,}",
                fmt.num(r["mean_rounds"]),
            ]
            for r in sub.iter_rows(named=True)
        ]
        rr = rounds.filter(pl.col("matchup") == matchup).row(0, named=True)
        note = (
            f"{rr['games']:,} games; rounds: mean "
            f"{fmt.num_ci(rr['mean_rounds'], rr['rounds_lo'], rr['rounds_hi'])}, "
            f"10th–90th percentile {rr['p10']}–{rr['p90']}, range {rr['min']}–{rr['max']}."
        )
        out.append(
            f"### {matchup}\n\n{note}\n\n"
            + fmt.table(
                ["trigger", "share of games (95% CI)", "games it ended alone", "mean rounds when it fired"],
                rows,
            )
        )
    return "\n\n".join(out)


def _md_token_waves(tw: pl.DataFrame) -> str:
    rows = [
        [
            r["bot"],
            r["item"],
            fmt.pct(r["share_with"]),
            fmt.num(r["mean_uses"], 2),
            fmt.pct_ci(r["win_with"], r["win_with_lo"], r["win_with_hi"]),
            fmt.pct_ci(r["win_without"], r["win_without_lo"], r["win_without_hi"]),
            fmt.pp_ci(r["diff"], r["diff_lo"], r["diff_hi"]),
            fmt.pval(r["p_holm"]),
            r["verdict"],
        ]
        for r in tw.iter_rows(named=True)
    ]
    return fmt.table(
        [
            "bot",
            "item",
            "share of players",
            "uses per player",
            "win rate with",
            "win rate without",
            "with − without",
            "p (Holm)",
            "verdict",
        ],
        rows,
        right=[False, False, *([True] * 6), False],
    )


METHODS = """\
## How to read this report

- **Win rate**: the share of games won; a shared win (same score and coins) counts 1/2. Intervals
  are Wilson (95%); differences of two win rates use Newcombe's interval and a two-proportion z test.
- **First picker**: the player who picks first in round 1 (D10: chosen at random, then alternating).
  With two different bots, a bot's row compares its games as first picker with its games as second.
- **Triggers**: several may fire in the last round, so the shares can add up to more than 100%;
  *rounds* is the `max_rounds` safety stop, not a rule of the game.
- **Hot Spring token and wave tiles**: *with − without* compares the win rate of the players who
  took / used / ended holding the item with those who did not. These are **associations** among the
  bots' games, not the item's causal value (a leading player may simply reach the item more often).
  p-values are Holm-adjusted over the whole table (family-wise error 5%).
"""


def write_duo_report(
    dataset_dir: str | Path, out_dir: str | Path, level: float = LEVEL, alpha: float = ALPHA
) -> Path:
    """Write ``report.md`` and the CSVs (``CSV_FILES``, unrounded) of the Duo run at ``dataset_dir``."""
    ds = load_duo(dataset_dir)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    fp = first_picker_table(ds.frame, level)
    pt = points_table(ds.frame, level)
    trig = triggers_table(ds.games, level)
    rounds = rounds_table(ds.games, level)
    tw = token_waves_table(ds.frame, level, alpha)
    so = solo_table(ds.frame, level)
    frames = {
        CSV_FILES["first_picker"]: fp,
        CSV_FILES["points"]: pt,
        CSV_FILES["triggers"]: trig,
        CSV_FILES["rounds"]: rounds,
        CSV_FILES["token_waves"]: tw,
        **({SOLO_FILE: so} if ds.solo else {}),
    }
    for name, df in frames.items():
        df.with_columns(
            pl.lit(ds.provenance).alias("board"), pl.lit(ds.verified).alias("verified")
        ).write_csv(out / name)
    sections = [
        _header(ds),
        "## Summary\n\n" + _summary(fp, trig, rounds, tw),
        "## First picker\n\n" + _md_first(fp),
        "## Points by character\n\n" + _md_points(pt),
        "## End of the game: triggers and rounds\n\n" + _md_triggers(trig, rounds),
        "## Hot Spring token and wave tiles\n\n" + _md_token_waves(tw),
        *(["## Solo: against the Automa\n\n" + _md_solo(so)] if ds.solo else []),
        METHODS.rstrip(),
        "## Files\n\n"
        + "\n".join(f"- `{f}` (every row names the board and its verified flag)" for f in frames),
    ]
    path = out / "report.md"
    path.write_text("\n\n".join(sections) + "\n")
    return path
