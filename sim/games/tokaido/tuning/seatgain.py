"""One strong player among the bulk tier: does the stronger tier play some Travelers worse?

When two tiers rank a Traveler differently (``sim.games.tokaido.tuning.agreement``), either the stronger tier
plays that Traveler differently, or the Traveler's worth depends on how well the *others* play.
This separates the two. On the same deals (Travelers dealt at random, the agreement cell's
stream), the bulk tier plays every seat; then one seat is given to the stronger tier, the seat
rotating over the players in blocks of deals. The stronger tier's *gain* with a Traveler is its
win share in that seat minus the bulk tier's on the same deals (paired, so the deal's noise
cancels). A Traveler whose gain is far below the mean gain (in standard errors of its own
gain) is one the stronger tier plays worse than it plays the rest; gains alike everywhere say
the disagreement is the field's, not the player's.

A gain in win share is bounded by the share there is to gain: a Traveler the bulk tier wins
4% with cannot gain what one it wins 40% with can, and one already near 100% cannot gain
either. So each gain is also given on the log-odds scale (``logit(strong share) -
logit(bulk share)``), which has no floor or ceiling; a Traveler whose log-odds gain is like
the mean's but whose win-share gain is small is a weak (or strong) Traveler, not a misplayed one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.games.tokaido import engine
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.tuning.draft import cell_key, cell_seed
from sim.run.game import win_share


@dataclass
class SeatGain:
    key: str
    bulk: str
    strong: str
    games: int
    gain: dict[str, float]  # strong's win share in the seat minus bulk's on the same deals
    half: dict[str, float]  # 95% half-width of the gain (paired)
    share: dict[str, float]  # strong's win share in the seat
    apps: dict[str, int]  # deals with the Traveler in the strong seat
    mean_gain: float
    mean_half: float
    mean_share: float  # strong's win share in its seat over all deals (fair 1/N)
    # the gain on the log-odds scale: logit(strong's share) - logit(bulk's), shares with +0.5 wins / +1 deal
    logit_gain: dict[str, float] = field(default_factory=dict)
    logit_half: dict[str, float] = field(default_factory=dict)
    mean_logit_gain: float = 0.0

    def z(self, t: str) -> float:
        """How far the gain with ``t`` lies from the mean gain, in standard errors of its own gain."""
        return (self.gain[t] - self.mean_gain) / max(1e-12, self.half[t] / 1.96)

    def z_logit(self, t: str) -> float:
        """The same on the log-odds scale (no floor for weak Travelers, no ceiling for strong ones)."""
        return (self.logit_gain[t] - self.mean_logit_gain) / max(1e-12, self.logit_half[t] / 1.96)


def _logit_gain(ws: np.ndarray, wb: np.ndarray) -> tuple[float, float]:
    """``logit(mean ws) - logit(mean wb)`` on paired deals and its 95% half-width (delta method, paired)."""
    k = len(ws)
    ps, pb = (ws.sum() + 0.5) / (k + 1), (wb.sum() + 0.5) / (k + 1)
    g = float(np.log(ps / (1 - ps)) - np.log(pb / (1 - pb)))
    infl = (ws - ps) / (ps * (1 - ps)) - (wb - pb) / (pb * (1 - pb))
    return g, 1.96 * float(infl.std(ddof=1)) / np.sqrt(k)


def seat_gain(
    bulk: str,
    strong: str,
    n: int,
    expansions: tuple[str, ...],
    games: int,
    seed: int,
    threads: int | None = None,
    ref: np.ndarray | None = None,
) -> SeatGain:
    """``games`` deals played twice: all ``bulk``, then with one ``strong`` player (seat rotating).

    ``ref``: records of the bulk tier's self-play on this cell's stream (``draft.measure``'s, as
    ``agreement`` has just played them); its first ``games`` games are reused, not replayed.
    """
    if games < n:
        raise ValueError(f"seat gain needs at least {n} games (one block per seat), got {games}")
    base = GameConfig(n_players=n, bots=(bulk,), expansions=expansions, variants=(), travelers="random")
    rules = base.rules()
    s = cell_seed(seed, n, expansions, ())
    if ref is not None and len(ref) >= games * n:
        ref = ref[ref["game"] < games]
    else:
        ref = engine.play_games(base, rules, s, 0, games, threads=threads).records
    size = -(-games // n)
    win_s, win_b, trav = [], [], []
    for k in range(n):
        start, count = k * size, min(size, games - k * size)
        if count <= 0:
            continue
        bots = tuple(strong if i == k else bulk for i in range(n))
        cfg = GameConfig(n_players=n, bots=bots, expansions=expansions, variants=(), travelers="random")
        rec = engine.play_games(cfg, rules, s, start, count, threads=threads).records
        rec = np.sort(rec[rec["player"] == k], order="game")
        old = ref[(ref["player"] == k) & (ref["game"] >= start) & (ref["game"] < start + count)]
        old = np.sort(old, order="game")
        # the same deals: the Traveler in the seat does not depend on who plays it
        assert (rec["game"] == old["game"]).all() and (rec["traveler"] == old["traveler"]).all()
        win_s.append(win_share(rec))
        win_b.append(win_share(old))
        trav.append(rec["traveler"])
    ws, wb, tr = np.concatenate(win_s), np.concatenate(win_b), np.concatenate(trav)
    d = ws - wb
    gain, half, share, apps, lgain, lhalf = {}, {}, {}, {}, {}, {}
    for i, t in enumerate(rules.travelers):
        m = tr == i
        k = int(m.sum())
        if k < 2:
            continue
        gain[t.name] = round(float(d[m].mean()), 4)
        half[t.name] = round(1.96 * float(d[m].std(ddof=1)) / np.sqrt(k), 4)
        share[t.name] = round(float(ws[m].mean()), 4)
        apps[t.name] = k
        lg, lh = _logit_gain(ws[m], wb[m])
        lgain[t.name], lhalf[t.name] = round(lg, 4), round(lh, 4)
    mean_half = 1.96 * float(d.std(ddof=1)) / np.sqrt(len(d))
    return SeatGain(
        cell_key(base),
        bulk,
        strong,
        games,
        gain,
        half,
        share,
        apps,
        round(float(d.mean()), 4),
        round(mean_half, 4),
        round(float(ws.mean()), 4),
        lgain,
        lhalf,
        round(_logit_gain(ws, wb)[0], 4),
    )


def markdown(rows: list[SeatGain]) -> str:
    """A summary row per configuration, then each configuration's gains by Traveler."""
    if not rows:
        return ""
    lines = [
        "### One stronger player among the bulk tier (the same deals without it)",
        "",
        "| configuration | tiers | games | its win share | mean gain | smallest gain (below the mean, in "
        "standard errors) | largest gain | mean log-odds gain | smallest log-odds gain (z) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lo = min(r.gain, key=lambda t: r.gain[t])
        hi = max(r.gain, key=lambda t: r.gain[t])
        llo = min(r.logit_gain, key=lambda t: r.logit_gain[t])
        lines.append(
            f"| {r.key} | one {r.strong} among {r.bulk} | {r.games} | {r.mean_share:.3f} | "
            f"{r.mean_gain:+.3f} "
            f"(+-{r.mean_half:.3f}) | {r.gain[lo]:+.3f} ({lo}, {r.z(lo):+.1f}) | {r.gain[hi]:+.3f} ({hi}) "
            f"| {r.mean_logit_gain:+.2f} | {r.logit_gain[llo]:+.2f} ({llo}, {r.z_logit(llo):+.1f}) |"
        )
    for r in rows:
        lines += [
            "",
            f"{r.key}: one {r.strong} among {r.bulk}, by the Traveler in its seat",
            "",
            f"| Traveler | deals | {r.strong}'s win share | gain over {r.bulk} | gain - mean, in standard "
            f"errors "
            "| log-odds gain | log-odds gain - mean, in standard errors |",
            "|---|---|---|---|---|---|---|",
        ]
        for t in r.gain:
            lines.append(
                f"| {t} | {r.apps[t]} | {r.share[t]:.3f} | {r.gain[t]:+.3f} +- {r.half[t]:.3f} | "
                f"{r.z(t):+.1f} "
                f"| {r.logit_gain[t]:+.2f} +- {r.logit_half[t]:.2f} | {r.z_logit(t):+.1f} |"
            )
    return "\n".join(lines) + "\n"
