"""The ladder: bot tiers against each other, at 2 to 5 players.

For each player count N and each pair of tiers (A, B), the players are split
between the two tiers: N/2 each, or at odd N alternately (N+1)/2 and (N-1)/2.
The split rotates across blocks of deals, and every deal is played twice, with
the tiers' seats swapped (the complement split), so each tier sits in every
seat equally often and has on average half the seats. Every pairing plays the
same deals (same seed, same game indices: same piles and dealt Travelers).

Per pairing:

* ``win_a``: tier A's share of the wins (a shared win counts 1/k), with a
  Wilson 95% interval over games; 0.5 means equal strength (by the
  mirroring, A holds half of the seats on average).
* ``elo``: the Elo-style gap ``400 log10(g_A / g_B)`` implied by A's win share ``w``,
  with the interval mapped from Wilson's. For N > 2 this is the Luce (multinomial
  logit) model of the winner: a player of strength g wins with probability
  g / (sum of the table's g). ``luce_odds`` solves the expected share of the
  design (k_A and k_B seats per game) for g_A / g_B, the head-to-head odds of
  A against B: w / (1 - w) at even N, and close to it at odd N. At 2 players it
  is the usual Elo.
* ``pair_a``: the rank-pairwise rate: over every (A player, B player) pair of
  every game, how often the A player finished ahead (a tie counts 1/2). It
  compares mean finishing positions rather than wins.

``profiles`` plays each tier alone (self-play) at one player count and reports
its speed (games/s) and its mean score, winner's score, meals, coins left, stops.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.games.tokaido import engine
from sim.games.tokaido.game import TokaidoGame
from sim.games.tokaido.rules.config import GameConfig
from sim.run import pace
from sim.run.game import win_share

TIERS = ("random", "greedy", "heuristic", "tuned", "expert", "search")
Z95 = 1.959963984540054


@dataclass
class PairResult:
    players: int
    tier_a: str
    tier_b: str
    games: int
    win_a: float
    win_lo: float
    win_hi: float
    pair_a: float
    elo: float
    elo_lo: float
    elo_hi: float
    score_a: float
    score_b: float


def wilson(x: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion x/n (x may be fractional: shared wins)."""
    if n <= 0:
        return 0.0, 1.0
    p = x / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def elo(p: float) -> float:
    """Elo gap of a pairwise win probability (clipped away from 0 and 1)."""
    p = min(max(p, 1e-4), 1 - 1e-4)
    return 400.0 * math.log10(p / (1 - p))


def expected_share(odds: float, n: int) -> float:
    """Tier A's expected win share in the mirrored design under the Luce model, A/B strength ``odds``."""
    k = (n + 1) // 2
    shares = [(ka * odds) / (ka * odds + (n - ka)) for ka in ((k, n - k) if n % 2 else (k,))]
    return sum(shares) / len(shares)


def luce_elo(w: float, n: int) -> float:
    """The Elo gap 400 log10(g_A / g_B) whose expected win share (``expected_share``) is ``w``."""
    w = min(max(w, 1e-4), 1 - 1e-4)
    lo, hi = -12.0, 12.0  # log odds
    for _ in range(80):
        mid = (lo + hi) / 2
        if expected_share(math.exp(mid), n) < w:
            lo = mid
        else:
            hi = mid
    return 400.0 * (lo + hi) / 2 / math.log(10)


def splits(n: int) -> list[list[bool]]:
    """Seat patterns (True: tier A) for N players: every rotation of the base split."""
    k = (n + 1) // 2
    base = [p < k for p in range(n)]
    return [[base[(p + r) % n] for p in range(n)] for r in range(n)]


def score_games(
    records: np.ndarray, is_a: list[bool]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per game: A's win share, A's pairwise rate, mean score of A, mean score of B."""
    n = len(is_a)
    rec = records.reshape(-1, n)
    a = np.array(is_a)
    win = win_share(rec)
    share = win[:, a].sum(axis=1)
    rank = rec["rank"].astype(float)
    ra, rb = rank[:, a], rank[:, ~a]
    cmp = (ra[:, :, None] < rb[:, None, :]) + 0.5 * (ra[:, :, None] == rb[:, None, :])
    pair = cmp.reshape(len(rec), -1).mean(axis=1)
    score = rec["score"].astype(float)
    return share, pair, score[:, a].mean(axis=1), score[:, ~a].mean(axis=1)


def play_pair(
    n: int,
    tier_a: str,
    tier_b: str,
    deals: int,
    seed: int,
    threads: int | None,
    advance: Callable[[int], None] = lambda k: None,
    expansions: tuple[str, ...] = (),
) -> PairResult:
    """Play ``deals`` deals twice (seats swapped) with the players split between two tiers."""
    parts = []
    for start, count, is_a in mirrored_blocks(n, deals):
        bots = tuple(tier_a if x else tier_b for x in is_a)
        config = GameConfig(n_players=n, bots=bots, expansions=expansions)
        batch = pace.play(TokaidoGame(config), seed, start, count, threads, advance)
        parts.append(score_games(batch.records, is_a))
    return pair_result(n, tier_a, tier_b, parts)


def mirrored_blocks(n: int, deals: int) -> Iterator[tuple[int, int, list[bool]]]:
    """(first deal, deals, seats of A) of each block of the design: every split rotation, both seatings."""
    pats = splits(n)
    bounds = np.linspace(0, deals, len(pats) + 1).astype(int)
    for r, pat in enumerate(pats):
        start, count = int(bounds[r]), int(bounds[r + 1] - bounds[r])
        if count == 0:
            continue
        for flip in (False, True):
            yield start, count, [x != flip for x in pat]


def pair_result(n: int, tier_a: str, tier_b: str, parts: Sequence[tuple[np.ndarray, ...]]) -> PairResult:
    """The pairing's figures from each block's ``score_games``."""
    share, pair, sa, sb = (np.concatenate([part[k] for part in parts]) for k in range(4))
    games = len(share)
    w = float(share.mean())
    lo, hi = wilson(float(share.sum()), games)
    return PairResult(
        players=n,
        tier_a=tier_a,
        tier_b=tier_b,
        games=games,
        win_a=w,
        win_lo=lo,
        win_hi=hi,
        pair_a=float(pair.mean()),
        elo=luce_elo(w, n),
        elo_lo=luce_elo(lo, n),
        elo_hi=luce_elo(hi, n),
        score_a=float(sa.mean()),
        score_b=float(sb.mean()),
    )


@dataclass
class Profile:
    tier: str
    players: int
    games: int
    games_per_s: float
    score: float
    winner_score: float
    meals: float
    coins_left: float
    stops: float


def profile(tier: str, n: int, games: int, seed: int, threads: int | None) -> Profile:
    """Self-play of one tier: speed and the mean of each player's row."""
    config = GameConfig(n_players=n, bots=(tier,))
    rules = config.rules()
    engine.play_games(config, rules, seed, 0, 1, threads=threads)  # compile / load outside the clock
    t0 = time.perf_counter()
    rec = engine.play_games(config, rules, seed, 0, games, threads=threads).records
    dt = time.perf_counter() - t0
    win = rec["rank"] == 1
    return Profile(
        tier=tier,
        players=n,
        games=games,
        games_per_s=games / dt if dt > 0 else float("inf"),
        score=float(rec["score"].mean()),
        winner_score=float(rec["score"][win].mean()),
        meals=float(rec["meals"].mean()),
        coins_left=float(rec["coins_left"].mean()),
        stops=float(rec["stops"].mean()),
    )


def cumulative(results: list[PairResult], tiers: tuple[str, ...]) -> dict[int, dict[str, float]]:
    """Elo of each tier per player count, summing the adjacent gaps (the first tier is 0)."""
    out: dict[int, dict[str, float]] = {}
    for n in sorted({r.players for r in results}):
        ladder = {tiers[0]: 0.0}
        for lo, hi in zip(tiers, tiers[1:], strict=False):
            r = next((r for r in results if r.players == n and {r.tier_a, r.tier_b} == {lo, hi}), None)
            if r is None:
                break
            # r.elo = Elo(tier_a) - Elo(tier_b)
            ladder[hi] = ladder[lo] + (r.elo if r.tier_a == hi else -r.elo)
        out[n] = ladder
    return out


CSV_FIELDS = (
    "players",
    "tier_a",
    "tier_b",
    "games",
    "win_a",
    "win_lo",
    "win_hi",
    "pair_a",
    "elo",
    "elo_lo",
    "elo_hi",
    "score_a",
    "score_b",
)


def write_csv(path: Path, results: list[PairResult]) -> None:
    lines = [",".join(CSV_FIELDS)]
    for r in results:
        lines.append(
            ",".join(
                str(round(v, 4)) if isinstance(v, float) else str(v)
                for v in (getattr(r, f) for f in CSV_FIELDS)
            )
        )
    path.write_text("\n".join(lines) + "\n")


def markdown(results: list[PairResult], profiles: list[Profile], tiers: tuple[str, ...], meta: str) -> str:
    lines = [
        "# Bot ladder",
        "",
        meta,
        "",
        "Seats split between tiers A and B, rotated, every deal played twice with the seats swapped. "
        "`win A`: tier A's share of the wins (0.5 = equal strength), 95% Wilson interval. "
        "`Elo gap`: 400 log10 of A's odds against B in the Luce model of the winner (at even N, "
        "400 log10(win / (1 - win)); at 2 players plain Elo). "
        "`pair A`: how often an A player finished ahead of a B player (mean finishing position).",
        "",
        "| players | A | B | games | win A | 95% CI | Elo gap A-B | Elo 95% CI | pair A | score A | score B "
        "|",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.players} | {r.tier_a} | {r.tier_b} | {r.games} | {r.win_a:.3f} | "
            f"{r.win_lo:.3f}-{r.win_hi:.3f} | {r.elo:+.0f} | {r.elo_lo:+.0f} to {r.elo_hi:+.0f} | "
            f"{r.pair_a:.3f} | {r.score_a:.1f} | {r.score_b:.1f} |"
        )
    cum = cumulative(results, tiers)
    if cum:
        lines += [
            "",
            "## Elo by player count (first tier = 0, sums of the adjacent gaps)",
            "",
            "| players | " + " | ".join(tiers) + " |",
            "|---|" + "---|" * len(tiers),
        ]
        for n in sorted(cum):
            lines.append(
                f"| {n} | " + " | ".join(f"{cum[n][t]:+.0f}" if t in cum[n] else "-" for t in tiers) + " |"
            )
    if profiles:
        lines += [
            "",
            f"## Self-play profiles ({profiles[0].players} players, base game)",
            "",
            "| tier | games | games/s | mean score | winner's score | meals | coins left | stops |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for p in profiles:
            lines.append(
                f"| {p.tier} | {p.games} | {p.games_per_s:,.1f} | {p.score:.1f} | {p.winner_score:.1f} | "
                f"{p.meals:.2f} | {p.coins_left:.2f} | {p.stops:.2f} |"
            )
    return "\n".join(lines) + "\n"
