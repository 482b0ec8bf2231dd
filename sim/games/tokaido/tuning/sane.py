"""Sane play, measured per bot tier: the habits that make a bot's balance figures suspect.

``sane_play`` plays self-play games of one tier (Travelers drafted, as in a study), then
replays each game's log with the referee (``sim.games.tokaido.referee``), which knows every card on the
table and every purse at each moment, and counts:

* coins left at the end (mean, and the share of players with 4 or more): coins buy nothing
  in Edo (Foresight aside);
* Village stops where a souvenir on the table was affordable and nothing was bought;
* Inn meals skipped though one was affordable;
* players who never gave a coin at a Temple (the Temple ranking given away);
* each Traveler's keep rate when dealt in the draft (``kept / dealt``): a Traveler a tier
  never keeps leaves no data in drafted runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kernels.tokaido.core.enums import Ability, Deck, Ev
from sim.games.tokaido import engine
from sim.games.tokaido.referee.context import Replay, Step
from sim.games.tokaido.referee.crossroads import Crossroads
from sim.games.tokaido.referee.game import Referee
from sim.games.tokaido.referee.inns import Inns
from sim.games.tokaido.referee.matsuri import Matsuri
from sim.games.tokaido.referee.matsuri_travelers import MatsuriTravelers
from sim.games.tokaido.referee.promos import Promos
from sim.games.tokaido.referee.state import InnVisit, TravelerState
from sim.games.tokaido.referee.stations import Stations
from sim.games.tokaido.rules.config import GameConfig


class SaneStations(Stations):
    """The referee's station handler, counting Village stops that buy nothing (``Referee(...,
    stations=SaneStations)``)."""

    def __init__(
        self,
        ctx: Replay,
        promos: Promos,
        travelers: MatsuriTravelers,
        crossroads: Crossroads | None,
        matsuri: Matsuri | None,
    ) -> None:
        super().__init__(ctx, promos, travelers, crossroads, matsuri)
        self.villages = 0
        self.idle_villages = 0

    def village(self, tr: TravelerState, draw: int | None = None) -> Step:
        if tr.neutral:
            yield from super().village(tr, draw)
            return
        st = self.state
        table = st.piles[Deck.SOUVENIR].peek(self.params["VILLAGE_DRAW"] if draw is None else draw)
        coins, held = tr.coins, len(tr.souvenirs)
        yield from super().village(tr, draw)
        prices = [self.rules.souvenirs[c].cost for c in table]
        if tr.ability == Ability.ZEN_EMON:
            prices = [min(p, self.params["ZEN_EMON_PRICE"]) for p in prices]
        self.villages += 1
        if prices and min(prices) <= coins and len(tr.souvenirs) == held:
            self.idle_villages += 1


class SaneInns(Inns):
    """The referee's Inn handler, counting the meals skipped though one was affordable
    (``Referee(..., inns=SaneInns)``)."""

    def __init__(self, ctx: Replay, stations: Stations) -> None:
        super().__init__(ctx, stations)
        self.inns = 0
        self.skipped_meals = 0

    def meal(self, tr: TravelerState, inn: InnVisit) -> Step:
        if tr.neutral:
            yield from super().meal(tr, inn)
            return
        st = self.state
        hand = list(inn.hand)
        coins, eaten = tr.coins, len(tr.meals)
        yield from super().meal(tr, inn)
        self.inns += 1
        affordable = any(st.can_eat(tr, c) and st.meal_price(tr, c) <= coins for c in hand)
        if affordable and len(tr.meals) == eaten:
            self.skipped_meals += 1


@dataclass
class SaneReport:
    tier: str
    n_players: int
    expansions: tuple[str, ...]
    games: int
    coins_left: float = 0.0
    coins_4plus: float = 0.0
    idle_villages: float = 0.0  # share of Village stops (base action) with an affordable card, nothing bought
    skipped_meals: float = 0.0  # share of Inn stops with an affordable meal, none eaten
    never_donate: float = 0.0  # share of players with no coin given at a Temple
    keep_rate: dict[str, float] = field(default_factory=dict)  # Traveler -> kept / dealt


def sane_play(
    tier: str, n: int, games: int, seed: int = 1, expansions: tuple[str, ...] = (), threads: int | None = None
) -> SaneReport:
    """Play ``games`` drafted self-play games of ``tier`` and measure its habits."""
    config = GameConfig(n_players=n, bots=(tier,), expansions=expansions)
    rules = config.rules()
    batch = engine.play_games(config, rules, seed, 0, games, log=True, threads=threads)
    rec = batch.records
    rep = SaneReport(tier, n, expansions, games)
    rep.coins_left = float(rec["coins_left"].mean())
    rep.coins_4plus = float((rec["coins_left"] >= 4).mean())
    villages = idle = inns = skipped = 0
    dealt = np.zeros(len(rules.travelers))
    kept = np.zeros(len(rules.travelers))
    never = 0
    for i in range(games):
        ev = batch.game_events(i)
        ref = Referee(config, rules, stations=SaneStations, inns=SaneInns)
        ref.feed_all(ev)
        stops, meals = ref.stations, ref.inns
        assert isinstance(stops, SaneStations) and isinstance(meals, SaneInns)
        villages, idle = villages + stops.villages, idle + stops.idle_villages
        inns, skipped = inns + meals.inns, skipped + meals.skipped_meals
        gave = {int(r[1]) for r in ev if r[0] == Ev.DONATE and r[2] > 0}
        never += sum(1 for p in range(n) if p not in gave)
        for r in ev:
            if r[0] == Ev.DEAL and r[3] >= 0:
                dealt[r[2]] += 1
                dealt[r[3]] += 1
            elif r[0] == Ev.KEEP:
                kept[r[2]] += 1
    rep.idle_villages = idle / max(villages, 1)
    rep.skipped_meals = skipped / max(inns, 1)
    rep.never_donate = never / (games * n)
    rep.keep_rate = {t.name: float(kept[k] / dealt[k]) for k, t in enumerate(rules.travelers) if dealt[k] > 0}
    return rep


def markdown(reports: list[SaneReport]) -> str:
    """One row per tier, then each Traveler's keep rate per tier."""
    lines = [
        "| tier | players | expansions | games | coins left | 4+ coins left | idle Villages | meals skipped "
        "(affordable) | never donate |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in reports:
        lines.append(
            f"| {r.tier} | {r.n_players} | {'+'.join(r.expansions) or 'none'} | {r.games} | "
            f"{r.coins_left:.2f} | {r.coins_4plus:.1%} | {r.idle_villages:.1%} | {r.skipped_meals:.1%} | "
            f"{r.never_donate:.1%} |"
        )
    names = list(dict.fromkeys(t for r in reports for t in r.keep_rate))
    lines += [
        "",
        "Keep rate when dealt (draft):",
        "",
        "| tier | players | expansions | " + " | ".join(names) + " |",
        "|---|---|---|" + "---|" * len(names),
    ]
    for r in reports:
        cells = [f"{r.keep_rate[t]:.0%}" if t in r.keep_rate else "" for t in names]
        lines.append(
            f"| {r.tier} | {r.n_players} | {'+'.join(r.expansions) or 'none'} | " + " | ".join(cells) + " |"
        )
    return "\n".join(lines) + "\n"
