"""What a balance answer rests on: the bot tier that played, and the report's check of those Travelers.

``tuned_for`` says whether the tier has weights tuned for each configuration (the expert's
``expert-Np-SET.toml``). ``tier_check`` reads the measured agreement of the tier with the stronger
search tier (``sim/games/tokaido/data/bots/agreement-TIER.toml``, the table the balance report
cites) for each Traveler of ``--only`` and player count: both tiers' win shares with Travelers dealt
at random, the difference with its 95% interval, and whether it is within 3 points, beyond them, or
undecided. Where fair was placed between whole coin values, the difference is also given in coins at
the measured slope: how far the stronger tier's fair value would lie from this tier's, as a guide.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sim.games.tokaido.balance.bracket import Fair, slope
from sim.games.tokaido.bots import key_of, weight_file
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.tuning import agreement as A


def tuned_for(bot: str, configs: Sequence[GameConfig]) -> str:
    """'weights tuned for 3p-base' / 'general weights (none tuned for 3p-promos)' / '' (a built-in tier)."""
    parts = []
    for c in configs:
        exact = key_of(c)
        f = weight_file(bot, c)
        if f is None:
            return ""
        key = f.stem.removeprefix(f"{bot}-")
        if f.stem != bot:
            parts.append(f"weights tuned for {key}" + (f" (played in {exact})" if exact != key else ""))
        else:
            parts.append(f"general weights (none tuned for {exact})")
    return "; ".join(dict.fromkeys(parts))


def tier_check(
    bot: str, only: Sequence[str], configs: Sequence[GameConfig], fairs: Sequence[Fair]
) -> list[str]:
    """One line per Traveler of ``only`` and player count: the report's check of the tier for it."""
    path = A.table_path(bot)
    if not path.is_file():
        return [
            f"The {bot} tier has no measured check against a stronger tier (the report checks the expert); "
            "its figures rest on that tier alone."
        ]
    try:
        _, rows = A.load_table(path)
    except ValueError as exc:
        return [str(exc)]
    lines = []
    for c in configs:
        key = key_of(c)
        r = rows.get(key)
        guide = (
            " (measured on the rulebook's rules without variants: a guide here)"
            if (c.variants or c.overrides)
            else ""
        )
        for t in only:
            if r is None or t not in r.a.shares:
                lines.append(
                    f"{t} at {c.n_players} players: not checked ({key} was never measured against the "
                    "stronger tier); the figures rest on this tier alone."
                )
                continue
            a, b = r.a.shares[t], r.b.shares[t]
            half = math.hypot(r.a.halfwidth[t], r.b.halfwidth[t])
            d = b - a
            state = (
                "**disputed**: beyond 3 points at 95%"
                if t in r.beyond
                else "agrees within 3 points at 95%"
                if t in r.within
                else "undecided at these sample sizes"
            )
            text = (
                f"{t} at {c.n_players} players: {r.tier_a} {100 * a:.1f}%, {r.tier_b} {100 * b:.1f}% "
                f"({100 * d:+.1f} pp, 95% {100 * (d - half):+.1f} to {100 * (d + half):+.1f}): {state}{guide}"
            )
            fair = next((f for f in fairs if f.traveler == t and f.n_players == c.n_players), None)
            k = slope(fair) if fair is not None else None
            if fair is not None and fair.fair is not None and k and k > 0:
                shift = d / k
                text += (
                    f"; at the measured {100 * k:.1f} pp per coin, the {r.tier_b} tier would put fair near "
                    f"{fair.fair - shift:.1f} coins ({-shift:+.1f} from this tier's {fair.fair:.1f}), if a "
                    f"coin "
                    "is worth as much to it"
                )
            lines.append(text + ".")
    return lines
