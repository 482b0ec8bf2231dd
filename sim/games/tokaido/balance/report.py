"""The outputs of a balance search: ``patch.toml``, ``balance.md`` and ``forest.png``."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analysis.fmt import table
from sim.games.tokaido.balance.bracket import Fair, fair_md
from sim.games.tokaido.balance.evaluate import Tally
from sim.games.tokaido.balance.knobs import Change, Knob, cost, describe, patch_toml
from sim.games.tokaido.balance.race import PASS_LEVEL, outside, within
from sim.games.tokaido.balance.search import Outcome, Settings

Confirmation = Mapping[str, Mapping[int, Tally]]  # "before" / "after" -> player count -> tally


def verdict(conf: Confirmation, target: float) -> str:
    """``proven``, ``met`` (point estimates) or ``not met``, from the confirmation run."""
    after = conf["after"]
    if not within(after, target):
        return "not met"
    for t in after.values():
        lo, hi = t.interval(PASS_LEVEL)
        seen = t.judged
        if not ((lo >= t.fair - target) & (hi <= t.fair + target))[seen].all():
            return "met"
    return "proven"


def spread(t: Tally) -> tuple[float, float]:
    """Largest distance from the fair share and max - min win rate (NaN for one judged Traveler), in
    points."""
    r = t.rate[t.judged]
    return 100 * float(np.max(np.abs(r - t.fair))), 100 * float(r.max() - r.min()) if r.size > 1 else float(
        "nan"
    )


def _pp(x: float) -> str:
    return "–" if np.isnan(x) else f"{x:.1f}"


def _ci(t: Tally, i: int) -> str:
    lo, hi = t.interval(PASS_LEVEL)
    return f"{100 * t.rate[i]:.1f}% [{100 * lo[i]:.1f}, {100 * hi[i]:.1f}]"


def forest_plot(conf: Confirmation, travelers: Sequence[str], target: float, title: str, path: Path) -> Path:
    """Before/after win rates minus the fair share, with 95% intervals, one panel per player count."""
    counts = sorted(conf["after"])
    before = conf["before"][counts[0]]
    rows = sorted(range(len(travelers)), key=lambda i: -(before.rate[i] if before.seats[i] else -1))
    fig = Figure(figsize=(3.6 * len(counts) + 1.2, 1.4 + 0.36 * len(rows)), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(counts), sharey=True, squeeze=False)[0]
    y = np.arange(len(rows))
    for ax, n in zip(axes, counts, strict=True):
        ax.axvspan(-100 * target, 100 * target, color="#2ca02c", alpha=0.12, lw=0)
        ax.axvline(0, color="#666", lw=1)
        for key, dy, color, fill in (
            ("before", -0.17, "#7f7f7f", "white"),
            ("after", 0.17, "#1f77b4", "#1f77b4"),
        ):
            t = conf[key][n]
            lo, hi = t.interval(PASS_LEVEL)
            est = 100 * (t.rate[rows] - t.fair)
            ax.hlines(y + dy, 100 * (lo[rows] - t.fair), 100 * (hi[rows] - t.fair), color=color, lw=1.4)
            ax.scatter(est, y + dy, facecolor=fill, edgecolor=color, s=24, zorder=3, label=key)
        ax.set_title(f"{n} players (fair share {100 / n:.1f}%)", fontsize=10)
        ax.set_xlabel("win rate − fair share (percentage points)")
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(y, [travelers[i] for i in rows], fontsize=9)
    axes[0].set_ylim(len(rows) - 0.5, -0.5)
    handles, labels = axes[0].get_legend_handles_labels()
    band = axes[0].fill_between([], [], color="#2ca02c", alpha=0.12, label=f"target ±{100 * target:g} pp")
    fig.legend(
        [*handles, band], [*labels, band.get_label()], loc="outside lower center", ncols=3, frameon=False
    )
    fig.suptitle(title, fontsize=11)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path


def _grouped(off: Sequence[str]) -> str:
    """``a at 3 players, b at 3 players, a at 4 players`` -> ``3 players: a, b; 4 players: a``."""
    by: dict[str, list[str]] = {}
    for item in off:
        name, _, where = item.partition(" at ")
        by.setdefault(where, []).append(name)
    return "; ".join(f"{where}: {', '.join(names)}" for where, names in by.items())


def _unfixable_md(outcome: Outcome, s: Settings) -> str:
    if outcome.how != "best":
        return ""
    if not outcome.unfixable:
        return (
            "By the fitted model each Traveler could be brought within the target by its own coins, but not "
            "all at once: one coin moves a Traveler by more than the band is wide, and moves the others "
            "too.\n"
        )
    lines = "\n".join(f"- {u}" for u in outcome.unfixable)
    return (
        f"Cannot be fixed by its own coins (within ±{s.max_change}, never below 0), by the fitted model:\n\n"
        f"{lines}\n"
    )


def _changes_md(knobs: Sequence[Knob], change: Change, how: str) -> str:
    rows = [
        [
            f"`{k.key}`" + (f"[{k.index}]" if k.index is not None else ""),
            str(k.base),
            str(k.base + d),
            f"{d:+d}",
        ]
        for k, d in zip(knobs, change, strict=True)
        if d
    ]
    if not rows:
        return (
            "No change: the starting rules already meet the target.\n"
            if how != "best"
            else "No change: the search found nothing closer to fair than the starting rules.\n"
        )
    return table(["rule", "now", "proposed", "change"], rows, [False, True, True, True])


def _confirm_md(conf: Confirmation, travelers: Sequence[str], target: float) -> str:
    parts = [
        table(
            [
                "players",
                "before: most off (pp)",
                "after: most off (pp)",
                "before: max − min (pp)",
                "after: max − min (pp)",
            ],
            [
                [
                    str(n),
                    f"{spread(conf['before'][n])[0]:.1f}",
                    f"{spread(conf['after'][n])[0]:.1f}",
                    _pp(spread(conf["before"][n])[1]),
                    _pp(spread(conf["after"][n])[1]),
                ]
                for n in sorted(conf["after"])
            ],
            [False, True, True, True, True],
        )
    ]
    for n in sorted(conf["after"]):
        b, a = conf["before"][n], conf["after"][n]
        rows = []
        for i in sorted(range(len(travelers)), key=lambda i: -a.rate[i] if a.seats[i] else 1):
            if a.seats[i] <= 0:
                continue
            dev = 100 * (a.rate[i] - a.fair)
            judged = "yes" if abs(dev) <= 100 * target else "**no**"
            rows.append(
                [travelers[i], _ci(b, i), _ci(a, i), f"{dev:+.1f}", judged if a.judged[i] else "not judged"]
            )
        parts.append(
            f"\n**{n} players** (fair share {100 / n:.1f}%, {a.games:,} games each)\n\n"
            + table(
                ["Traveler", "before", "after", "after − fair (pp)", "within target"],
                rows,
                [False, True, True, True, False],
            )
        )
    return "\n".join(parts)


def _slopes_md(outcome: Outcome, knobs: Sequence[Knob], travelers: Sequence[str]) -> str:
    coin = [(j, k) for j, k in enumerate(knobs) if k.traveler is not None]
    if not outcome.responses or not coin:
        return ""
    counts = sorted(outcome.responses)
    rows = [
        [k.label] + [f"{100 * outcome.responses[n].jac[travelers.index(k.label), j]:.2f}" for n in counts]
        for j, k in coin
    ]
    return (
        "\nFitted effect of one more starting coin on its Traveler's own win rate (percentage points):\n\n"
        + table(["Traveler", *[f"{n} players" for n in counts]], rows, [False, *[True] * len(counts)])
    )


def _fair_md(fairs: Sequence[Fair], checks: Sequence[str], about: Mapping[str, Any]) -> list[str]:
    """The sections of ``--only``: where fair lies between whole coins, and what that answer rests on."""
    if not about.get("only"):
        return []
    tuned = f" ({about['tuned']})" if about.get("tuned") else ""
    return [
        "## Where fair lies\n",
        "Each value played on the confirmation's fresh seeds, the same games for every value; fair lies "
        "where "
        "the line through the two neighbouring win rates crosses the fair share, its interval where the "
        "lines "
        "through their 95% bounds do.\n",
        *(f"- {line}" for line in fair_md(fairs)),
        "\n## The tier, and the report's check of these Travelers\n",
        f"- Bots: **{about['bots']}**{tuned}, every player.",
        *(f"- {line}" for line in checks),
        "",
    ]


def write_outputs(
    out: Path,
    knobs: Sequence[Knob],
    travelers: Sequence[str],
    outcome: Outcome,
    conf: Confirmation,
    s: Settings,
    about: Mapping[str, Any],
    fairs: Sequence[Fair] = (),
    checks: Sequence[str] = (),
) -> dict[str, Any]:
    """Write ``patch.toml``, ``balance.md`` and ``forest.png`` into ``out``; a summary for the manifest."""
    target = s.target / 100
    label = describe(knobs, outcome.change)
    moved, touched = cost(outcome.change)
    v = verdict(conf, target)
    counts = sorted(conf["after"])
    header = [
        f"tokaido-sim balance, {about['bots']} bots, {'/'.join(map(str, counts))} players: {label}",
        f"starting rules: {about['rules']}",
        f"use: tokaido-sim run ... --set @{out / 'patch.toml'}",
    ]
    (out / "patch.toml").write_text(patch_toml(knobs, outcome.change, header))
    title = "\n".join(
        textwrap.wrap(f"Balance ({about['bots']} bots): {label}", 110)
        + ["confirmation on fresh seeds, 95% Wilson intervals"]
    )
    forest_plot(conf, travelers, target, title, out / "forest.png")
    off = outside(conf["after"], travelers, target)
    says = {
        "proven": "Target met and shown: every Traveler's 95% interval lies inside the target band.",
        "met": "Target met at the point estimates; some 95% intervals still cross the band's edge "
        "(more --confirm-games would narrow them).",
        "not met": f"Target not met. Outside the band after the change: {_grouped(off)}. "
        + (
            "The search's own games met it (every point estimate inside); the fresh seeds do not, so the "
            "margin is within the noise: a larger --games or a stricter search would settle it."
            if outcome.how != "best"
            else "This is the closest to fair the search found."
        ),
    }[v]
    only = list(about.get("only") or [])
    who = ", ".join(only) if only else "every Traveler"
    md = [
        f"# Balance: {who} within ±{s.target:g} pp of the fair share\n",
        f"- players: {', '.join(map(str, counts))}; Travelers dealt at random; **bots: {about['bots']}** "
        f"(every "
        f"player{'; ' + about['tuned'] if about.get('tuned') else ''})"
        + (f"; judged: {', '.join(only)} only (the others are shown, not judged)" if only else ""),
        f"- starting rules: {about['rules']}",
        f"- knobs: `{about['knobs']}` (each within ±{s.max_change}, coins never below 0)",
        f"- search seed {s.seed}; confirmation seed {s.confirm} (never used by the search)\n",
        *_fair_md(fairs, checks, about),
        "## Result\n",
        f"**{says}**\n",
        _unfixable_md(outcome, s),
        f"Proposed change: **{label}** ({moved} moved in total, {touched} rule(s) touched). "
        f"Apply it with `--set @{out / 'patch.toml'}`.\n",
        _changes_md(knobs, outcome.change, outcome.how),
        f"\n## Confirmation on fresh seeds\n\nThe starting rules (before) and the proposal (after), "
        f"{s.confirm_games:,} games each per player count, on the same deals (seed {s.confirm}). "
        "Win rates with 95% Wilson intervals; a shared win counts 1/k. Plot: `forest.png`.\n",
        _confirm_md(conf, travelers, target),
        "\n## Search\n",
        f"- stopped: {outcome.reason} (round {outcome.rounds})",
        f"- games spent: {outcome.spent:,} by the search, {about['confirm_games']:,} by the confirmation",
        f"- wall time: {about['seconds']:.0f} s on this machine ({about['sessions']} session(s))",
        "\nCandidates raced (same games for all: common random numbers):\n",
        table(
            ["round", "candidate", "moved", "games", "most off (pp)", "verdict"],
            [
                [
                    str(r["round"]),
                    r["label"],
                    str(r["cost"][0]),
                    f"{r['games']:,}",
                    f"{r['max_dev_pp']:.1f}",
                    r["verdict"],
                ]
                for r in outcome.log
            ],
            [True, False, True, True, True, False],
        )
        if outcome.log
        else "(none: the search stopped before a race)",
        _slopes_md(outcome, knobs, travelers),
        "\nMethod: docs/balance.md.\n",
    ]
    (out / "balance.md").write_text("\n".join(md))
    fair = [
        {
            "traveler": f.traveler,
            "players": f.n_players,
            "coins": f.fair,
            "lo": f.lo,
            "hi": f.hi,
            "note": f.note,
            "measured": [[p.coins, p.rate, p.lo, p.hi] for p in f.points],
        }
        for f in fairs
    ]
    return {
        "bots": about["bots"],
        "only": only,
        "fair": fair,
        "checks": list(checks),
        "change": list(outcome.change),
        "label": label,
        "moved": moved,
        "touched": touched,
        "verdict": v,
        "how": outcome.how,
        "reason": outcome.reason,
        "rounds": outcome.rounds,
        "spent": outcome.spent,
        "unfixable": outcome.unfixable,
        "off_after": off,
        "spread_pp": {
            str(n): {k: [None if np.isnan(x) else x for x in spread(conf[k][n])] for k in ("before", "after")}
            for n in counts
        },
    }
