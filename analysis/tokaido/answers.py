"""The report's first screen: a short answer to each question, in words, each figure with its interval
and its check against the stronger bot tier.

At most ``MAX_LINES`` lines: who is stronger or weaker and by how much (Travelers at random, and
drafted), where the seats are unfair, what each variant and each expansion setting does, what the
stronger tier disputes, and the key to the marks. Every figure is a win rate (or its change) with
the half-width of its 95% interval; every Traveler figure carries its tier check
(``caveats.mark``): ✓ the stronger tier agrees, † it disputes, · not checked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl

from analysis import fmt
from analysis.tokaido import caveats, describe, tables
from analysis.tokaido.effects import largest_first
from analysis.tokaido.questions import ALL, COLUMNS, NONE, SETTING, Views

MAX_LINES = 12
ORDINAL = ("1st", "2nd", "3rd", "4th", "5th")
Lookup = Mapping[tuple[Any, ...], tuple[caveats.Group, caveats.TierCheck | None]]


def name(traveler: str) -> str:
    return traveler.capitalize()


def hw(r: Mapping[str, Any]) -> str:
    """'±0.7': the half-width of a win rate's 95% interval, in percentage points."""
    return f"±{50 * (r['win_hi'] - r['win_lo']):.1f}"


def key(values: Mapping[str, Any], keys: Sequence[str]) -> tuple[Any, ...]:
    return tuple(values.get(k) for k in keys)


class Answers:
    """Builds the answer lines of one dataset's views."""

    def __init__(self, v: Views, checks: Lookup, bots: str) -> None:
        self.v, self.checks, self.bots = v, checks, bots

    def mark(self, row: Mapping[str, Any], traveler: str) -> str:
        return caveats.mark(self.checks.get(key(row, self.v.keys)), traveler)

    def _traveler(self, r: Mapping[str, Any]) -> str:
        chance = "" if r["verdict"] else " (within chance)"
        return (
            f"{name(r['traveler'])} {fmt.pct(r['win_rate'])} {hw(r)}{chance} {self.short(r, r['traveler'])}"
        )

    def short(self, row: Mapping[str, Any], traveler: str) -> str:
        """The tier mark alone (✓ † ·; none when no tier was checked): the tables give the stronger tier's
        share."""
        return self.mark(row, traveler)[:1] if self.checks else ""

    # ------------------------------------------------------------------ strength
    def strength(self) -> list[str]:
        lines = []
        df = self.v.strength
        configs = df.get_column("config").unique(maintain_order=True).to_list()
        fair = "/".join(
            f"{100 / n:.1f}".removesuffix(".0") for n in sorted(set(df.get_column("n_players").to_list()))
        )
        for cfg in configs[:3]:
            sub = df.filter(pl.col("config") == cfg)
            items = []
            for (n,), g in sub.sort("n_players").group_by(["n_players"], maintain_order=True):
                g = g.sort("win_diff", "traveler")  # equal win rates: by name, so the pick is fixed
                items.append(
                    f"{n}p {self._traveler(g.row(-1, named=True))} vs {self._traveler(g.row(0, named=True))}"
                )
            title = cfg[0].upper() + cfg[1:]
            lines.append(
                f"- **{title}**, strongest vs weakest Traveler (fair {fair}%): " + " · ".join(items) + "."
            )
        if len(configs) > 3:
            lines.append(f"- … and {len(configs) - 3} more configurations in the tables below.")
        return lines

    # ------------------------------------------------------------------ seats
    def _seat_rows(self, where: Mapping[str, Any]) -> pl.DataFrame:
        df = self.v.seats
        for k, val in where.items():
            df = df.filter(pl.col(k) == val)
        return df

    def seats(self) -> list[str]:
        strength = self.v.strength
        random = strength.filter(pl.col("travelers") == "random")
        base = (random if random.height else strength).row(0, named=True)  # the first configuration answered
        df = self._seat_rows({k: base[k] for k in COLUMNS})
        items = []
        for (n,), g in df.sort(["n_players", "seat"]).group_by(["n_players"], maintain_order=True):
            r = g.row(0, named=True)
            d, lo, hi, best, worst = tables.seat_spread(g)
            items.append(
                f"{n}p {fmt.pct(r['win_rate'])} {hw(r)}, spread {100 * d:.1f} pp ({100 * lo:.1f} to "
                f"{100 * hi:.1f}; {ORDINAL[best]} best, {ORDINAL[worst]} worst)"
            )
        unfair = sorted(
            {int(n) for n in df.filter(pl.col("verdict") != "").get_column("n_players").to_list()}
        )
        verdict = (
            f"unfair beyond chance at {', '.join(map(str, unfair))} players"
            if unfair
            else "no seat differs from fair beyond chance"
        )
        return [
            f"- **Seats** ({base['config']}): the first to leave wins, and the spread best − worst seat: "
            + " · ".join(items)
            + f"; {verdict}."
        ]

    # ------------------------------------------------------------------ effects
    def _effect_mark(self, r: Mapping[str, Any], base: dict[str, Any], other: dict[str, Any]) -> str:
        marks = [
            self.mark({**base, "n_players": r["n_players"]}, r["group"]),
            self.mark({**other, "n_players": r["n_players"]}, r["group"]),
        ]
        if any(m.startswith("†") for m in marks):
            return "†"
        return "✓" if all(m == "✓" for m in marks) else "·"

    def _fixed(self, r: Mapping[str, Any]) -> dict[str, Any]:
        """The configuration an effect row was computed within (its held columns; the rest as in the data)."""
        first = self.v.travelers.row(0, named=True)
        return {k: r[k] if k in r and r[k] is not None else first[k] for k in ("travelers", "bots")}

    def _shifts(self, eff: pl.DataFrame, base: dict[str, Any], other: dict[str, Any]) -> str:
        """'3 of 30 shift beyond chance, most Chuubei +3.1 pp at 4p (+2.1 to +4.1) ✓' (win rates, Travelers
        both configurations play)."""
        t = eff.filter(
            (pl.col("figure") == "win rate") & (pl.col("kind") == "traveler") & (pl.col("only") == "")
        )
        if t.is_empty():
            return "no Traveler plays in both"
        sfx = "_paired" if "diff_paired" in t.columns and t["diff_paired"].is_not_null().all() else ""
        sig = t.filter(pl.col("significant"))
        top = largest_first(sig if sig.height else t, f"diff{sfx}").row(0, named=True)
        fixed = self._fixed(top)
        mark = self._effect_mark(top, {**base, **fixed}, {**other, **fixed}) if self.checks else ""
        where = (
            f"{name(top['group'])} {fmt.pp_ci(top[f'diff{sfx}'], top[f'lo{sfx}'], top[f'hi{sfx}'])} at "
            f"{top['n_players']}p {mark}"
        )
        if not sig.height:
            return f"no Traveler moves beyond chance (largest: {where})"
        return f"{sig.height} of {t.height} Traveler figures move beyond chance, the most {where}"

    def _seat_change(self, base: dict[str, Any], other: dict[str, Any]) -> str:
        items = []
        for n in sorted(set(self._seat_rows(other).get_column("n_players").to_list())):
            a, b = self._seat_rows({**base, "n_players": n}), self._seat_rows({**other, "n_players": n})
            if a.is_empty() or b.is_empty():
                continue
            d0, (d1, lo, hi, best, _) = tables.seat_spread(a)[0], tables.seat_spread(b)
            word = "wider" if lo > d0 else "narrower" if hi < d0 else "about the same"
            items.append(
                f"{n}p {100 * d0:.1f} → {100 * d1:.1f} pp ({100 * lo:.1f} to {100 * hi:.1f}: {word}; "
                f"{ORDINAL[best]} seat best)"
            )
        return "seat spread (best − worst) " + ", ".join(items) if items else ""

    def variants(self) -> list[str]:
        eff = self.v.variants
        if eff.is_empty():
            return []
        lines = []
        for value in eff.get_column("value").unique(maintain_order=True).to_list():
            sub = eff.filter(pl.col("value") == value)
            fixed = self._fixed(sub.row(0, named=True))
            base = {"expansions": NONE, "pool": ALL, "variants": NONE, **fixed}
            other = {**base, "variants": value}
            rate = float(np.nanmin(sub["pairing_rate"].cast(pl.Float64).to_numpy()))
            how = f"paired: the same deals in {100 * rate:.0f}% of games" if rate >= 0.99 else "unpaired"
            counts = sorted(set(sub.filter(pl.col("only") == "").get_column("n_players").to_list()))
            seats = self._seat_change(base, other)
            lines.append(
                f"- **{sub['change'][0]}** against no variant ({'/'.join(map(str, counts))}p, {how}): "
                + (f"{seats}; " if seats else "")
                + f"{self._shifts(sub, base, other)}."
            )
        return lines

    def expansions(self) -> list[str]:
        eff = self.v.expansions
        if eff.is_empty():
            return []
        lines = []
        base_names = set(
            self.v.travelers.filter((pl.col("expansions") == NONE) & (pl.col("pool") == ALL))
            .get_column("traveler")
            .to_list()
        )
        for value in eff.get_column("value").unique(maintain_order=True).to_list():
            sub = eff.filter(pl.col("value") == value)
            xs, _, pool = str(value).partition("|")
            fixed = self._fixed(sub.row(0, named=True))
            base = {"expansions": NONE, "pool": ALL, "variants": NONE, **fixed}
            other = {**base, "expansions": xs, "pool": pool or ALL}
            rows = self.v.travelers
            for k, val in other.items():
                rows = rows.filter(pl.col(k) == val)
            new = rows.filter(~pl.col("traveler").is_in(list(base_names))).sort("win_diff", "traveler")
            parts = []
            if new.height:
                lo, hi = new.row(0, named=True), new.row(-1, named=True)
                parts.append(f"the Travelers it adds range from {self._vs_fair(lo)} to {self._vs_fair(hi)}")
            rate = float(np.nanmin(sub["pairing_rate"].cast(pl.Float64).to_numpy()))
            how = "paired" if rate >= 0.99 else "unpaired: the deals differ"
            parts.append(
                f"the base Travelers against the base game ({how}): {self._shifts(sub, base, other)}"
            )
            title = sub["change"][0] + (" (its rules alone)" if pool == "base" else "")
            lines.append(f"- **{title[0].upper() + title[1:]}**: " + "; ".join(parts) + ".")
        return lines

    def _vs_fair(self, r: Mapping[str, Any]) -> str:
        return (
            f"{name(r['traveler'])} {fmt.pct(r['win_rate'])} {hw(r)} at {r['n_players']}p "
            f"({100 * r['win_diff']:+.1f} pp vs fair) {self.short(r, r['traveler'])}"
        )

    # ------------------------------------------------------------------ the check
    def check(self) -> list[str]:
        entries = list(self.checks.values())
        checked = {c.key: c for _, c in entries if c is not None}
        if not entries:
            return [
                f"- **Tier check**: these figures come from {self.bots} bots, which have no measured check "
                "against a stronger tier."
            ]
        if not checked:
            return ["- **Tier check**: none of these configurations was checked against the stronger tier."]
        first = next(iter(checked.values()))
        rho = [c.rho for c in checked.values()]
        disputed = sum(len(c.disputed) for c in checked.values())
        unchecked = sorted({self._setting(g) for g, c in entries if c is None})
        many = len(checked) > 1
        span = f"{min(rho):.2f} to {max(rho):.2f}" if many else f"{rho[0]:.2f}"
        text = (
            f"- **Tier check** ({first.tier} against the stronger {first.reference} tier, {len(checked)} "
            f"configuration{'s' if many else ''} measured): rank agreement rho {span}; "
            + (
                f"{disputed} Traveler figure{'s' if disputed > 1 else ''} disputed (†: the tables give the "
                f"{first.reference} tier's share)"
                if disputed
                else "no Traveler figure disputed"
            )
        )
        if unchecked:
            text += f"; not checked (·): {'; '.join(unchecked)}"
        variants = any(g.variants != "none" for g, _ in entries)
        return [text + ("; variants: checked without them only" if variants else "") + "."]

    @staticmethod
    def _setting(g: caveats.Group) -> str:
        """A group's expansion setting in words, without its player count: 'Crossroads + Matsuri'."""
        rest = g.key.partition("p-")[2]
        xs, _, pool = rest.partition("-pool=")
        return ", ".join(
            x
            for x in (
                describe.expansions_label("none" if xs == "base" else xs),
                describe.pool_label(pool or ALL),
            )
            if x
        )

    def legend(self) -> str:
        marks = (
            "✓ the stronger tier agrees (within 3 pp at 95%), † it disputes the figure, · not checked; "
            if self.checks
            else ""
        )
        return (
            f'- *Key*: ± the 95% interval\'s half-width; pp percentage points; {marks}"within chance": not '
            "different from fair (Holm 5%); seat 1st = first to leave Kyoto."
        )


def answers_md(v: Views, checks: Lookup, bots: str) -> str:
    """The answer lines (at most ``MAX_LINES``), most important first."""
    a = Answers(v, checks, bots)
    lines = [*a.strength(), *a.seats(), *a.variants(), *a.expansions(), *a.check()]
    lines = lines[: MAX_LINES - 1] + [a.legend()]
    return "\n".join(lines)


__all__ = ["MAX_LINES", "SETTING", "answers_md"]
