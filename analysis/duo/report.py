"""The Tokaido Duo report of one ``duo run`` dataset: ``report.md`` plus one CSV per table.

The report's header carries the board provenance and the ``verified`` flag; every CSV row names them
too. The dataset is read by ``analysis.duo.dataset`` and its tables computed by
``analysis.duo.tables``; their names are importable from here as well (``__all__``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from analysis import fmt
from analysis.duo.dataset import AUTOMA, CHARACTERS, POINTS, REQUIRED, TRIGGERS, DuoDataset, load_duo
from analysis.duo.tables import (
    ALPHA,
    LEVEL,
    first_picker_table,
    points_table,
    rounds_table,
    solo_table,
    token_waves_table,
    triggers_table,
)

CSV_FILES = {
    "first_picker": "first_picker.csv",
    "points": "points.csv",
    "triggers": "triggers.csv",
    "rounds": "rounds.csv",
    "token_waves": "token_waves.csv",
}
SOLO_FILE = "solo.csv"  # written for a solo dataset only


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
        top = sub.sort(["share", "trigger"], descending=[True, False]).row(0, named=True)  # ties: by name
        rr = rounds.filter(pl.col("matchup") == matchup).row(0, named=True)
        lines.append(
            f"- {matchup}: games end most often on the **{top['trigger']}** trigger "
            f"({fmt.pct(top['share'])}); {fmt.num(rr['mean_rounds'])} rounds on average "
            f"(median {rr['median']:.0f}, {rr['min']}–{rr['max']})."
        )
    flagged = tw.filter(pl.col("verdict") != "")
    items = [
        f"{r['item']} ({r['bot']}: {fmt.pp_ci(r['diff'], r['diff_lo'], r['diff_hi'])})"
        for r in flagged.sort(["diff", "item", "bot"], descending=[True, False, False]).iter_rows(named=True)
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


__all__ = [
    "ALPHA",
    "AUTOMA",
    "CHARACTERS",
    "CSV_FILES",
    "LEVEL",
    "METHODS",
    "POINTS",
    "REQUIRED",
    "SOLO_FILE",
    "TRIGGERS",
    "DuoDataset",
    "first_picker_table",
    "load_duo",
    "points_table",
    "rounds_table",
    "solo_table",
    "token_waves_table",
    "triggers_table",
    "write_duo_report",
]
