"""The balance report of one dataset: ``report.md`` plus one CSV per table."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import polars as pl

from analysis import fmt
from analysis.load import POINT_SOURCES, Dataset, load_dataset, reading
from analysis.tokaido import answers, caveats, describe, figures, html, overview, questions, tables
from analysis.tokaido.matsuri import matsuri_md

LEVEL = 0.95
ALPHA = 0.05
HTML_FILE = "report.html"
ORDINAL = ("1st", "2nd", "3rd", "4th", "5th")
PLOT_FILES = {
    "travelers": "travelers.png",
    "seats": "seats.png",
    "variants": "variant_effects.png",
    "expansions": "expansion_effects.png",
    "expansion_travelers": "expansion_travelers.png",
}
CSV_FILES = {
    "travelers": "travelers.csv",
    "seats": "seats.csv",
    "draft": "draft.csv",
    "head_to_head": "head_to_head.csv",
}
SOURCE_LABELS = {
    "pts_meals": "meals",
    "pts_souvenirs": "souvenirs",
    "pts_panoramas": "panoramas",
    "pts_hot_springs": "hot springs",
    "pts_temple": "temple",
    "pts_temple_bonus": "temple bonus",
    "pts_encounters": "encounters",
    "pts_achievements": "achievements",
    "pts_other": "other",
    "pts_cherry_trees": "cherry trees",
    "pts_bathhouses": "bathhouses",
    "pts_legendary": "legendary objects",
    "pts_calligraphy": "calligraphy",
    "pts_matsuri": "matsuri tokens",
}

METHODS = """\
## How to read this report

- **Win rate**: the share of games won; a k-way shared win counts 1/k. The interval is the
  Wilson score interval (95%). **Fair share** is 1/N for N players; **× fair** is win rate ÷
  fair share (1.00 = fair, 1.20 = wins 20% more often than fair); **Δ fair** is win rate − fair
  share in percentage points (pp).
- **Stronger / weaker than fair**: a two-sided score test of "win rate = 1/N" for every
  row of the table, with p-values adjusted by Holm–Bonferroni over the whole family (every
  Traveler × player count{conds}), so the chance that any flag in this report is a false alarm
  is at most 5% (family-wise error). Seats are a separate family. With shared wins the test
  is slightly conservative.
- **Mean score** and **mean points by source**: averages per player-game; the score
  interval is Student's t (95%). The point sources sum to the score.
- **Seat**: 1st is the first traveler to leave Kyoto, 2nd the second, and so on (the CSVs count
  seats from 0).
- **Value of the draft** (games with a draft, i.e. every player was dealt two Travelers and
  kept one): *dealt* counts the games in which a player was dealt the Traveler; *pick rate* is
  the share of those in which the player kept it; *win rate when chosen* is the win rate of
  the players who kept it; *win rate when left* is the win rate of the players who were dealt
  it and kept the other Traveler. *chosen − left* > 0 means keeping it paid off on average
  (for the bots' choices); < 0 means the players who passed it did better.
- **Head to head**: for every pair of Travelers, over the games in which both played, the
  share of games in which the row Traveler finished ahead of the column Traveler (better
  rank; a shared rank counts one half). 50% is even. The CSV has the counts, Wilson intervals
  and a test of 50%.
"""


def _digits(games: int) -> int:
    """Decimals of a percentage: two when the sample pins the rate below a tenth of a point."""
    return 2 if games >= 50_000 else 1


def _travelers_md(df: pl.DataFrame, keys: list[str], disputed: dict[tuple, set[str]] | None = None) -> str:
    out = []
    for vals, sub in fmt.groups(df, keys):
        mark = (disputed or {}).get(tuple(vals.values()), set())
        rows = [
            [
                r["traveler"] + (" †" if r["traveler"] in mark else ""),
                f"{r['games']:,}",
                fmt.pct_ci(r["win_rate"], r["win_lo"], r["win_hi"], _digits(r["games"])),
                fmt.num(r["win_ratio"], 2),
                fmt.num(100 * r["win_diff"], 1, sign=True),
                fmt.pval(r["p_holm"]),
                r["verdict"],
                fmt.num_ci(r["mean_score"], r["score_lo"], r["score_hi"]),
                fmt.num(r["mean_rank"], 2),
            ]
            for r in sub.sort(["win_rate", "traveler"], descending=[True, False]).iter_rows(named=True)
        ]
        head = [
            "Traveler",
            "games",
            "win rate (95% CI)",
            "× fair",
            "Δ fair (pp)",
            "p (Holm)",
            "verdict",
            "mean score (95% CI)",
            "mean rank",
        ]
        foot = (
            "\n\n† disputed: the stronger tier's share differs by more than 3 points, or its verdict differs "
            "(*Bot tier and its check*)."
            if mark & set(sub["traveler"].to_list())
            else ""
        )
        out.append(
            f"### {fmt.group_label(vals)} (fair share {fmt.pct(1 / vals['n_players'])})\n\n"
            + fmt.table(head, rows, right=[c not in ("Traveler", "verdict") for c in head])
            + foot
        )
    return "\n\n".join(out)


def _points_md(df: pl.DataFrame, keys: list[str]) -> str:
    out = []
    for vals, sub in fmt.groups(df, keys):
        sources = [c for c in POINT_SOURCES if sub[c].abs().sum() > 0]  # Crossroads columns: 0 in base games
        rows = [
            [r["traveler"], *(fmt.num(r[c]) for c in sources), fmt.num(r["mean_score"])]
            for r in sub.sort(["win_rate", "traveler"], descending=[True, False]).iter_rows(named=True)
        ]
        head = ["Traveler", *(SOURCE_LABELS[c] for c in sources), "total"]
        out.append(f"### {fmt.group_label(vals)}\n\n" + fmt.table(head, rows))
    return "\n\n".join(out)


def _seats_md(df: pl.DataFrame, keys: list[str]) -> str:
    conds = [k for k in keys if k != "n_players"]
    out = []
    for vals, sub in fmt.groups(df, conds):
        rows = [
            [
                str(r["n_players"]),
                ORDINAL[int(r["seat"])],
                f"{r['games']:,}",
                fmt.pct_ci(r["win_rate"], r["win_lo"], r["win_hi"], _digits(r["games"])),
                fmt.num(r["win_ratio"], 2),
                fmt.pval(r["p_holm"]),
                r["verdict"],
                fmt.num_ci(r["mean_score"], r["score_lo"], r["score_hi"]),
                fmt.num(r["mean_coins_start"], 2),
            ]
            for r in sub.iter_rows(named=True)
        ]
        head = [
            "players",
            "seat",
            "games",
            "win rate (95% CI)",
            "× fair",
            "p (Holm)",
            "verdict",
            "mean score (95% CI)",
            "starting coins",
        ]
        title = f"### {fmt.group_label(vals)}\n\n" if conds else ""
        out.append(title + fmt.table(head, rows, right=[c != "verdict" for c in head]))
    return "\n\n".join(out)


def _draft_md(df: pl.DataFrame, keys: list[str]) -> str:
    if df.is_empty():
        return "No drafted games in this dataset (Travelers were dealt at random, fixed, or not used)."
    out = []
    for vals, sub in fmt.groups(df, keys):
        rows = [
            [
                r["traveler"],
                f"{int(r['dealt']):,}",
                fmt.pct_ci(r["pick_rate"], r["pick_lo"], r["pick_hi"]),
                fmt.pct_ci(r["win_rate_chosen"], r["chosen_lo"], r["chosen_hi"]),
                fmt.pct_ci(r["win_rate_left"], r["left_lo"], r["left_hi"]),
                fmt.pp_ci(r["diff"], r["diff_lo"], r["diff_hi"]),
                fmt.pval(r["p_value"]),
            ]
            for r in sub.sort(["diff", "traveler"], descending=[True, False], nulls_last=True).iter_rows(
                named=True
            )
        ]
        head = [
            "Traveler",
            "dealt",
            "pick rate",
            "win rate when chosen",
            "win rate when left",
            "chosen − left",
            "p (unadjusted)",
        ]
        out.append(f"### {fmt.group_label(vals)}\n\n" + fmt.table(head, rows))
    return "\n\n".join(out)


def _h2h_md(df: pl.DataFrame, keys: list[str]) -> str:
    if df.is_empty():
        return "No games with two Travelers."
    out = []
    for vals, sub in fmt.groups(df, keys):
        names = sorted(set(sub.get_column("a").to_list()))
        cell = {(r["a"], r["b"]): r for r in sub.iter_rows(named=True)}
        rows = [
            [a, *(fmt.pct(cell[(a, b)]["share"], 0) if (a, b) in cell else "·" for b in names)] for a in names
        ]
        n = sub.get_column("games").to_list()
        note = f"Games per pair: {min(n)} to {max(n)}."
        out.append(
            f"### {fmt.group_label(vals)}\n\n{note}\n\n" + fmt.table(["row ahead of column", *names], rows)
        )
    return "\n\n".join(out)


def _summary_md(trav: pl.DataFrame, seats: pl.DataFrame, keys: list[str], disputed: str = "") -> str:
    """Every Holm flag of the Traveler and seat tables, in one list."""

    def describe(df: pl.DataFrame, what: str, label: str) -> str:
        by = [*keys, "traveler" if "traveler" in df.columns else "seat"]  # equal ratios in a fixed order
        flagged = df.filter(pl.col("verdict") == what).sort(
            ["win_ratio", *by], descending=[what == "stronger"] + [False] * len(by)
        )
        if flagged.is_empty():
            return "none"
        items = []
        for r in flagged.iter_rows(named=True):
            where = fmt.group_label({k: r[k] for k in keys})
            items.append(
                f"**{label.format(**r)}** ({where}: {fmt.pct(r['win_rate'])} vs fair "
                f"{fmt.pct(r['fair_share'])}, ×{r['win_ratio']:.2f}, p (Holm) {fmt.pval(r['p_holm'])})"
            )
        return "; ".join(items)

    n_tests = trav.height
    ordinal = (
        pl.col("seat")
        .cast(pl.Int32)
        .replace_strict(dict(enumerate(ORDINAL)), return_dtype=pl.String)
        .alias("ordinal")
    )
    lines = [
        f"Flags use Holm-adjusted p-values over {n_tests} Traveler tests (family-wise error 5%).",
        "",
        f"- Travelers **stronger** than fair: {describe(trav, 'stronger', '{traveler}')}.",
        f"- Travelers **weaker** than fair: {describe(trav, 'weaker', '{traveler}')}.",
        f"- Seats winning **more** than fair: "
        f"{describe(seats.with_columns(ordinal), 'stronger', '{ordinal} seat')}.",
        f"- Seats winning **less** than fair: "
        f"{describe(seats.with_columns(ordinal), 'weaker', '{ordinal} seat')}.",
    ]
    if disputed:
        lines.append(disputed)
    if not trav.filter(pl.col("verdict") != "").height:
        lines.append(
            "- No Traveler's win rate differs from fair share by more than chance explains "
            "at this sample size (see the intervals for how large a gap could still hide)."
        )
    return "\n".join(lines)


def _header(ds: Dataset, about: describe.About, n_rows: int) -> str:
    m = ds.manifest
    name = (m.study or {}).get("name") if m.kind == "study" else None
    lines = [
        f"# Tokaido balance report: {f'study {name!r}' if name else about.configuration}\n",
        f"{about.configuration} · bots {', '.join(about.bots) or 'not recorded'} · {about.played()} games "
        f"({n_rows:,} player rows) · seed {m.seed if m.seed is not None else 'not recorded'} · run "
        f"{about.status or 'status not recorded'} · dataset `{ds.path}` · the same report as one page: "
        f"`{HTML_FILE}`",
    ]
    lines += [f"- Skipped: {note}" for note in ds.notes]
    notes = [n for n in (caveats.tier_note(about.bots), about.warning()) if n]
    return "\n".join(lines) + "".join(f"\n\n{n}" for n in notes)


def _image(path: Path, alt: str) -> str:
    return f"![{alt}]({path.name})"


def _questions_md(v: questions.Views, mark: overview.Mark, out: Path, about: str) -> str:
    """The side-by-side sections, each with its plot inline: strength, seats, variants, expansions."""
    parts = []
    title = "Travelers side by side"
    colour = figures.colours(
        v.travelers.get_column("config").to_list()
    )  # one colour per configuration, every plot
    path = figures.plot_side_by_side(
        v.strength,
        out / PLOT_FILES["travelers"],
        "Win rate per Traveler (95% intervals; filled: differs from fair, Holm 5%)",
        about,
        colour,
    )
    parts.append(f"## {title}\n\n{_image(path, 'win rate per Traveler')}\n\n{overview.strength_md(v, mark)}")
    path = figures.plot_seats(
        v.seats, out / PLOT_FILES["seats"], "Seat advantage (95% intervals)", about, colour
    )
    parts.append(f"## Seats side by side\n\n{_image(path, 'seat advantage')}\n\n{overview.seats_md(v)}")
    if v.variants.height:
        path = figures.plot_change_effects(
            v.variants,
            out / PLOT_FILES["variants"],
            "What each variant does: change of win rate against no variant",
            about,
        )
        parts.append(f"## Variants\n\n{_image(path, 'variant effects')}\n\n{overview.effects_md(v.variants)}")
    if v.expansions.height:
        path = figures.plot_change_effects(
            v.expansions,
            out / PLOT_FILES["expansions"],
            "What each expansion does to the base Travelers: change of win rate against the base game",
            about,
        )
        wins = v.travelers.filter(pl.col("variants") == questions.NONE)
        modes = (
            set(v.expansions.get_column("travelers").to_list())
            if "travelers" in v.expansions.columns
            else None
        )
        wins = wins.filter(pl.col("travelers").is_in(list(modes))) if modes else wins
        path2 = figures.plot_side_by_side(
            wins,
            out / PLOT_FILES["expansion_travelers"],
            "Win rate per Traveler in each expansion setting (95% intervals)",
            about,
            colour,
        )
        parts.append(
            f"## Expansions\n\n{_image(path, 'expansion effects')}\n\n{overview.effects_md(v.expansions)}"
            f"\n\n{_image(path2, 'win rate per Traveler in each expansion setting')}\n\n"
            f"{overview.expansions_md(v, mark)}"
        )
    return "\n\n".join(parts)


def write_report(
    dataset_dir: str | Path,
    out_dir: str | Path,
    level: float = LEVEL,
    alpha: float = ALPHA,
    checks: Mapping[str, caveats.TierCheck] | None = None,
) -> Path:
    """Write the balance report of the dataset at ``dataset_dir`` into ``out_dir``; return ``report.md``.

    ``report.md`` opens with the answers (``analysis.tokaido.answers``: at most 12 lines, each figure
    with its interval and its tier check), then every configuration side by side with its plot inline
    (Travelers, seats, and, when the dataset has them, the variants' and the expansions' effects), the
    tier check, and the detailed tables. ``report.html`` is the same report as one self-contained page
    (plots embedded). Beside them: the plots (PNG) and ``travelers.csv`` (per Traveler and player count:
    games, win rate with Wilson interval, ratio and difference to fair share 1/N, score test and its
    Holm adjustment, verdict, mean score with t interval, mean rank, mean points by source),
    ``seats.csv`` (the same per seat), ``draft.csv`` (win rate when chosen vs when left) and
    ``head_to_head.csv`` (every ordered Traveler pair). CSV values are unrounded. Figures are split by
    player count and by every configuration column that varies (study datasets), never pooled.
    ``checks`` (exact configuration key -> ``caveats.TierCheck``; the CLI passes the measured
    expert-vs-search table) names the Travelers whose figures the strong tiers dispute.
    """
    ds = load_dataset(dataset_dir)
    lf = ds.frame
    out = Path(out_dir)
    with reading(ds.files):
        keys = tables.default_keys(lf)
        trav = tables.traveler_table(lf, keys, level, alpha)
        seats = tables.seat_table(lf, keys, level, alpha)
        draft = tables.draft_table(lf, keys, level)
        h2h = tables.head_to_head(lf, keys, level)
        about = describe.about(ds)
        n_rows = int(lf.select(pl.len()).collect(engine="streaming").item())
        mats = matsuri_md(lf, keys)
        groups = caveats.groups(lf, ds.manifest, keys) if checks else []
        has_travelers = trav.height > 0
        v = questions.views(ds, level, alpha) if has_travelers else None
        vgroups = caveats.groups(questions.with_conditions(ds), ds.manifest, v.keys) if v is not None else []
    out.mkdir(parents=True, exist_ok=True)
    frames = {"travelers": trav, "seats": seats, "draft": draft, "head_to_head": h2h}
    for name, df in frames.items():
        df.write_csv(out / CSV_FILES[name])
    conds = [k for k in keys if k != "n_players"]
    checked = caveats.check_md(groups, checks or {}, caveats.changed_rules(ds.manifest))
    lookup = caveats.lookup(vgroups, checks or {})
    title = about.title()
    line = caveats.summary_line(groups, checks or {})
    flags = _summary_md(trav, seats, keys)
    if v is not None:
        first = [
            "## Answers\n\n" + answers.answers_md(v, lookup, ", ".join(about.bots)),
            _questions_md(
                v,
                (lambda r, t: caveats.mark(lookup.get(answers.key(r, v.keys)), t))
                if lookup
                else (lambda r, t: ""),
                out,
                title,
            ),
            "## Every flag\n\n" + flags,
        ]
    else:
        first = ["## Answers\n\n" + flags]
    sections = [
        _header(ds, about, n_rows),
        *first,
        *(["## Bot tier and its check\n\n" + (f"{line}\n\n" if line else "") + checked] if checked else []),
        "## Travelers: win rate and score\n\n"
        + (
            _travelers_md(trav, keys, caveats.disputed_names(groups, checks or {}))
            if has_travelers
            else "No Travelers in this dataset (Journey of Initiation)."
        ),
        "## Mean points by source\n\n" + (_points_md(trav, keys) if has_travelers else "–"),
        "## Seat advantage\n\n" + _seats_md(seats, keys),
        "## Value of the draft\n\n" + _draft_md(draft, keys),
        "## Head to head\n\n" + _h2h_md(h2h, keys),
        *(["## Matsuri cards\n\n" + mats] if mats else []),
        METHODS.format(conds=(" × " + " × ".join(conds)) if conds else ""),
        "## Files\n\n" + "\n".join(f"- `{f}`" for f in [HTML_FILE, *CSV_FILES.values()]),
    ]
    path = out / "report.md"
    text = "\n\n".join(sections) + "\n"
    path.write_text(text)
    html.write_html(text, out, out / HTML_FILE, f"Tokaido balance report: {title}")
    return path
