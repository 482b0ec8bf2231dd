"""The referee's end of the game: the Temple ranking, the end achievements, Mitsukuni, the Calligraphy
cards, o-Tsukimi's shared card and Suseri (rulebook 000 "End of the game", seed 002), then the ranks.

The points are in ``scoring.py`` (pure functions); the Crossroads and Matsuri parts are asked of
their handlers, which exist only in those games. With narration, the final table of the points.
"""

from __future__ import annotations

from kernels.tokaido.core.enums import Ability
from sim.games.tokaido.referee.context import Replay
from sim.games.tokaido.referee.crossroads import Crossroads
from sim.games.tokaido.referee.matsuri import Matsuri
from sim.games.tokaido.referee.matsuri_travelers import MatsuriTravelers
from sim.games.tokaido.referee.promos import Promos, antoine_rank_keys, antoine_temple_bonus, antoine_winners
from sim.games.tokaido.referee.scoring import (
    END_ACHIEVEMENTS,
    achievement_winners,
    build_rows,
    end_achievement_count,
    final_ranks,
)


class FinalScoring:
    """Scores the end of the game once ``END`` is read; ``ctx.ranks`` holds the final ranks."""

    def __init__(
        self,
        ctx: Replay,
        promos: Promos,
        travelers: MatsuriTravelers,
        crossroads: Crossroads | None,
        matsuri: Matsuri | None,
    ) -> None:
        self.ctx, self.state, self.rules, self.params = ctx, ctx.state, ctx.rules, ctx.params
        self.promos = promos  # Antoine's ties
        self.travelers = travelers  # Suseri
        self.crossroads = crossroads  # the Calligraphy cards
        self.matsuri = matsuri  # o-Tsukimi's shared Calligraphy card

    def end_scoring(self) -> None:
        st, p = self.state, self.params
        players = st.players()
        self.ctx.say("end scoring")
        antoine = self.promos.antoine()
        bonus = antoine_temple_bonus([tr.donated for tr in st.travelers], antoine, self.rules.ranking_points)
        for tr, pts in sorted(zip(st.travelers, bonus, strict=True), key=lambda x: -x[0].donated):
            if tr.donated:
                if not tr.neutral and pts:
                    self.ctx.score(tr, "pts_temple_bonus", pts, f"{tr.name} donated {tr.donated}")
                else:
                    self.ctx.note(f"{tr.name} donated {tr.donated} (no points)")
        self.ctx.header = "  temple ranking"
        self.ctx.flush()
        for name in END_ACHIEVEMENTS:
            counts = [end_achievement_count(tr, name) for tr in players]
            winners = antoine_winners(achievement_winners(counts, p["ACH_MIN"]), antoine)
            for i in winners:
                players[i].achievements.append(name)
                self.ctx.score(
                    players[i], "pts_achievements", p["ACH_POINTS"], f"{players[i].name} ({counts[i]})"
                )
            if not winners:
                self.ctx.note("not awarded")
            self.ctx.header = f"  {name}"
            self.ctx.flush()
        for tr in players:
            if tr.ability == Ability.MITSUKUNI:  # Bathhouses count too (seed 002 notes)
                n = len(tr.hot_springs) + tr.bathhouses + len(tr.achievements)
                baths = f" + {tr.bathhouses} bathhouses" if st.xr else ""
                self.ctx.score(
                    tr,
                    "pts_other",
                    p["MITSUKUNI_BONUS"] * n,
                    f"{len(tr.hot_springs)} hot springs{baths} + {len(tr.achievements)} achievements",
                )
                self.ctx.header = "  mitsukuni"
                self.ctx.flush()
        if self.crossroads is not None:
            self.crossroads.score_calligraphy()
        if self.matsuri is not None:
            self.matsuri.score_shared_calligraphy()
        self.travelers.suseri()
        self.ctx.ranks = final_ranks(
            antoine_rank_keys([tr.score for tr in players], [len(tr.achievements) for tr in players], antoine)
        )
        if self.ctx.narrate:
            self._final_table()

    def _final_table(self) -> None:
        rows = build_rows(self.state, self.ctx.ranks)
        cols: tuple[str, ...] = (
            "meals",
            "souvenirs",
            "panoramas",
            "hot_springs",
            "temple",
            "temple_bonus",
            "encounters",
            "achievements",
            "other",
        )
        heads: tuple[str, ...] = (
            "rank",
            "score",
            "meals",
            "souv",
            "pano",
            "hot",
            "temple",
            "t.rank",
            "enc",
            "ach",
            "other",
        )
        if self.state.xr:
            cols += ("cherry_trees", "bathhouses", "legendary", "calligraphy")
            heads += ("cherry", "bath", "legend", "calli")
        if self.state.matsuri:
            cols, heads = (*cols, "matsuri"), (*heads, "matsuri")
        self.ctx.narration.append("final  " + f"{'player':<16}" + "".join(f"{h:>7}" for h in heads))
        names = {tr.index: tr.name for tr in self.state.players()}
        for row in sorted(rows, key=lambda r: (r["rank"], r["player"])):
            vals = [row["rank"], row["score"], *(row["pts_" + c] for c in cols)]
            who = f"p{row['player']} {names[row['player']]}"
            self.ctx.narration.append("       " + f"{who:<16}" + "".join(f"{v:>7}" for v in vals))
