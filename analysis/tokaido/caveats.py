"""Which bots made a dataset's figures, and what is known of their errors: the report's caveats.

A balance figure is only as good as the players behind it, so the report says two things:

* **the tier** (``tier_note``, in its first lines): random and greedy bots leave abilities unused
  or misplayed, so their figures describe the bots as much as the Travelers (docs/bots.md: under
  greedy bots Umegae wins about 1% of 5-player games, under the expert about 17%, fair 20%);
  heuristic and tuned are playable but weaker than the expert, the strong bulk tier;
* **the tier check** (``check_md``): the expert's per-Traveler shares measured against the
  stronger, slower search tier with Travelers dealt at random (``tokaido-sim
  calibrate-agreement``, ``sim/games/tokaido/data/bots/agreement-expert.toml``). The CLI reads that table and
  passes it in as ``TierCheck`` rows (this package reads no data files of ``sim``). A Traveler
  whose two shares differ by more than 3 points at 95%, or whose verdict (stronger or weaker
  than fair) differs, is *disputed*: his figure in this dataset is the expert's, not the game's.

A check applies to the groups of the dataset that the checked tier played alone, matched by
player count and expansion set; it was measured on the rulebook's rules without variants, so a
group with variants or a dataset with changed rules gets it as a guide only, and a configuration
never measured (Matsuri, the promos, New Encounters) is said to be unchecked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from analysis import fmt
from sim.dataset.manifest import Manifest

DISTORTING = ("random", "greedy")  # tiers known to distort balance (docs/bots.md)
WEAKER = ("heuristic", "tuned")  # playable, but weaker than the expert


@dataclass(frozen=True)
class Disputed:
    """A Traveler the two tiers rank apart: both win shares (random Travelers) and the 95% interval
    of the reference tier's share less the checked tier's."""

    traveler: str
    share: float
    reference: float
    lo: float
    hi: float


@dataclass(frozen=True)
class TierCheck:
    """One configuration's measured agreement of ``tier`` with the stronger ``reference`` tier."""

    key: str  # exact configuration: "4p-base", "2p-crossroads"
    tier: str
    reference: str
    games: int
    reference_games: int
    rho: float  # Spearman's rho of the two tiers' shares, with its 95% interval
    rho_lo: float
    rho_hi: float
    disputed: tuple[Disputed, ...]  # the difference beyond 3 points at 95%
    differ: tuple[str, ...]  # verdicts (stronger / weaker than fair) that differ
    source: str  # where the measurement comes from (file and command)


@dataclass(frozen=True)
class Group:
    """One group of the report's tables, with what a tier check needs to know of it."""

    values: dict[str, Any]  # the report's key values (n_players and the varying conditions)
    key: str  # "4p-base", "3p-crossroads+matsuri"
    bots: tuple[str, ...]
    variants: str  # "none" or "a+b"


def tier_note(bots: Sequence[str]) -> str:
    """A plain sentence when a tier known to distort balance (or a weaker one) made the figures."""
    bad = [b for b in bots if b in DISTORTING]
    if bad:
        return (
            f"**These figures come from {' and '.join(bad)} bots, a tier known to distort balance**: "
            "they leave Travelers' abilities unused or misplayed, so a Traveler flagged here may be weak "
            "or strong only in their hands (under greedy bots Umegae wins about 1% of 5-player games, "
            "under the expert about 17%, fair 20%). For balance conclusions rerun with `--bots expert` "
            "(docs/bots.md)."
        )
    weak = [b for b in bots if b in WEAKER]
    if weak:
        return (
            f"These figures come from {' and '.join(weak)} bots, weaker than the expert (the strong bulk "
            "tier, `--bots expert`); a gap they show may narrow or widen with stronger players "
            "(docs/bots.md)."
        )
    return ""


def _split(value: Any) -> tuple[str, ...]:
    """A study's partition value ('none', 'crossroads+matsuri') or a manifest's list, as a tuple."""
    if value is None:
        return ()
    if isinstance(value, list | tuple):
        return tuple(str(v) for v in value)
    text = str(value)
    return () if text in ("", "none", "base") else tuple(text.split("+"))


def changed_rules(manifest: Manifest) -> bool:
    """Whether the dataset's rules differ from the rulebook's (overrides or another rules profile)."""
    study = manifest.study or {}
    return bool(manifest.overrides or study.get("overrides")) or manifest.rules_profile != "rulebook"


def groups(lf: pl.LazyFrame, manifest: Manifest, keys: Sequence[str]) -> list[Group]:
    """The dataset's groups by ``keys``, each with its exact configuration and the bots that played."""
    names = lf.collect_schema().names()
    by = list(keys) or ["n_players"]
    extra = [c for c in ("expansions", "variants") if c in names and c not in by]
    agg = [pl.col("bot").drop_nulls().unique().sort().alias("_bots")]
    agg += [pl.col(c).drop_nulls().first().alias(f"_{c}") for c in extra]
    df = lf.group_by(by).agg(agg).sort(by).collect(engine="streaming")
    config = manifest.config or {}

    def pick(row: dict[str, Any], col: str) -> tuple[str, ...]:
        """A group's expansions or variants: its key, its rows' partition column, or the run's manifest."""
        if col in by:
            return _split(row[col])
        if col in extra:
            return _split(row[f"_{col}"])
        return _split(config.get(col))

    out = []
    for row in df.iter_rows(named=True):
        xs, vs = pick(row, "expansions"), pick(row, "variants")
        n = int(row["n_players"])
        pool = str(row["pool"]) if "pool" in by and row["pool"] not in (None, "all") else ""
        # a pool held to some Travelers is another configuration than the one checked (its company differs)
        # the configuration's key, spelled as ``sim.games.tokaido.bots.config_key`` spells it (the report
        # reads
        # the dataset only, never the simulator's modules)
        key = f"{n}p-{'+'.join(sorted(set(xs))) or 'base'}" + (f"-pool={pool}" if pool else "")
        out.append(Group({k: row[k] for k in keys}, key, tuple(row["_bots"]), "+".join(sorted(vs)) or "none"))
    return out


def _checked(
    groups_: Sequence[Group], checks: Mapping[str, TierCheck]
) -> list[tuple[Group, TierCheck | None]]:
    tiers = {c.tier for c in checks.values()}
    return [(g, checks.get(g.key)) for g in groups_ if len(g.bots) == 1 and g.bots[0] in tiers]


def lookup(
    groups_: Sequence[Group], checks: Mapping[str, TierCheck]
) -> dict[tuple[Any, ...], tuple[Group, TierCheck | None]]:
    """Each group the checked tier played alone (its key values, in the report's key order): it and its check
    (None: that configuration was never checked)."""
    return {tuple(g.values.values()): (g, c) for g, c in _checked(groups_, checks)}


def mark(entry: tuple[Group, TierCheck | None] | None, traveler: str) -> str:
    """A Traveler's figure against the stronger tier, in one symbol: ✓ it agrees (within 3 points at 95%,
    same verdict), † it disputes (then its share), · not checked (another tier, or a configuration never
    measured)."""
    if entry is None or entry[1] is None:
        return "·"
    c = entry[1]
    for d in c.disputed:
        if d.traveler == traveler:
            return f"† {c.reference} {fmt.pct(d.reference)}"
    if traveler in c.differ:
        return f"† {c.reference}'s verdict differs"
    return "✓"


def disputed_names(
    groups_: Sequence[Group], checks: Mapping[str, TierCheck]
) -> dict[tuple[Any, ...], set[str]]:
    """For each checked group (its key values, in the report's key order): the Travelers disputed
    (beyond 3 points) or whose verdict differs."""
    out = {}
    for g, c in _checked(groups_, checks):
        if c is not None:
            out[tuple(g.values.values())] = {d.traveler for d in c.disputed} | set(c.differ)
    return out


def summary_line(groups_: Sequence[Group], checks: Mapping[str, TierCheck]) -> str:
    """The summary's line naming the disputed Travelers ('' when no group was checked)."""
    items = []
    first = None
    seen = set()
    for _, c in _checked(groups_, checks):
        if c is None or c.key in seen:  # one line per configuration, not per group (draft and random cells)
            continue
        seen.add(c.key)
        first = first or c
        names = [f"{d.traveler} ({fmt.pct(d.share)} vs {fmt.pct(d.reference)})" for d in c.disputed]
        names += [f"{t} (verdict differs)" for t in c.differ if t not in {d.traveler for d in c.disputed}]
        if names:
            n, _, xs = c.key.partition("p-")
            items.append(f"{n} players{'' if xs == 'base' else ' · ' + xs}: {', '.join(names)}")
    if first is None or not items:
        return ""
    return (
        f"- Figures the {first.tier} and the stronger {first.reference} tier **dispute** (their win shares "
        "with random Travelers): " + "; ".join(items) + "."
    )


def check_md(groups_: Sequence[Group], checks: Mapping[str, TierCheck], rules_changed: bool) -> str:
    """The section that says, for each group the checked tier played, what its check found."""
    pairs = _checked(groups_, checks)
    if not pairs:
        return ""
    rows, unchecked, source = [], [], ""
    for g, c in pairs:
        label = fmt.group_label(g.values) if g.values else g.key
        if c is None:
            unchecked.append(f"{label} ({g.key})")
            continue
        source = c.source
        disputed = (
            "; ".join(
                f"{d.traveler} ({fmt.pct(d.share)} vs {fmt.pct(d.reference)}, "
                f"{100 * d.lo:+.1f} to {100 * d.hi:+.1f} pp)"
                for d in c.disputed
            )
            or "none"
        )
        guide = " (no variants measured: a guide)" if g.variants != "none" else ""
        rows.append(
            [
                label + guide,
                f"{c.tier} {c.games:,} / {c.reference} {c.reference_games:,}",
                f"{c.rho:.2f} ({c.rho_lo:.2f} to {c.rho_hi:.2f})",
                disputed,
                ", ".join(c.differ) or "none",
            ]
        )
    parts = []
    if rows:
        first = next(c for _, c in pairs if c is not None)
        parts.append(
            f"The {first.tier} bots' per-Traveler win shares checked against the {first.reference} tier "
            "(stronger and slower), both with Travelers dealt at random on the rulebook's rules. A Traveler "
            "listed as disputed has "
            "shares that differ by more than 3 points at 95% (shares: this tier vs the stronger one; the "
            "interval: the stronger one's less this one's): read his figures in this report as the bots', "
            "not "
            "the game's. Rho: Spearman's rank correlation of the two tiers' shares over all Travelers (1: "
            "the "
            "same order)."
        )
        parts.append(
            fmt.table(
                [
                    "group",
                    "games (random Travelers)",
                    "Spearman rho (95%)",
                    "disputed (beyond 3 pp at 95%)",
                    "verdicts that differ",
                ],
                rows,
                right=[False, True, True, False, False],
            )
        )
        parts.append(f"Source: {source}.")
    if unchecked:
        parts.append(
            "Not checked against a stronger tier: "
            + ", ".join(unchecked)
            + ". Those figures rest on one tier alone."
        )
    if rules_changed:
        parts.append(
            "This dataset changes the rules (overrides or a rules profile); the checks were "
            "measured on the rulebook's, so they are a guide only."
        )
    return "\n\n".join(parts)
