"""The referee's end-of-game Calligraphy scoring (seed 002 "Calligraphy cards"; C31-C34).

Split out of ``sim/games/tokaido/referee/crossroads.py``: ``Crossroads`` inherits it, so the class stack is
``ReplayBase`` -> ``CalligraphyScoring`` -> ``Crossroads`` -> ...
"""

from __future__ import annotations

from kernels.core.enums import CALLI_NAMES, PANORAMA_NAMES
from sim.games.tokaido.referee.replay import ReplayBase
from sim.games.tokaido.referee.scoring import calligraphy_points, ordinal
from sim.games.tokaido.referee.state import TravelerState, calligraphy_kind


class CalligraphyScoring(ReplayBase):
    """Every Calligraphy card held scores at the end, after the achievements."""

    # ================================================================ end of the game
    def _score_calligraphy(self) -> None:
        """C32-C34: Calligraphy cards score last (Perfection counts the achievements just awarded)."""
        st = self.state
        final = st.inns.get(st.last)
        arrived = final.arrived if final is not None else []
        for tr in st.players():
            if not tr.calligraphy:
                continue
            assert hasattr(self, "_calli_params")  # sim/games/tokaido/referee/promos.py: Eriku's Fasting
            arrival = arrived.index(tr.index) if tr.index in arrived else st.n_trav - 1
            scored = []
            for card in sorted(tr.calligraphy):
                kind = calligraphy_kind(self.rules, card)
                pts = calligraphy_points(
                    kind, self._calli_params(tr), coins=tr.coins, complete_panoramas=st.complete_panoramas(tr),
                    cherry_trees=tr.cherry_trees, legendary=len(tr.legendary), souvenirs=st.nostalgia_souvenirs(tr),
                    arrival=arrival, n_travelers=st.n_trav, achievements=len(tr.achievements),
                    calligraphy=len(tr.calligraphy), inn_meals=tr.inn_meals)
                self._score(tr, "pts_calligraphy", pts, f"{CALLI_NAMES[kind]} ({self._calli_basis(tr, kind, arrival)})")
                scored.append(pts)
            self._marihito(tr, scored)
            self._header = f"  calligraphy {tr.name}"
            self._flush()

    def _calli_basis(self, tr: TravelerState, kind: int, arrival: int) -> str:
        st = self.state
        if kind == CALLI_NAMES.index("foresight"):
            return f"{tr.coins} coins"
        if kind == CALLI_NAMES.index("contemplation"):
            done = [PANORAMA_NAMES[p] for p in range(3) if st.panorama_complete(tr, p)]
            return f"complete: {', '.join(done) or 'none'}; {tr.cherry_trees} cherry trees"
        if kind == CALLI_NAMES.index("nostalgia"):
            return f"{len(tr.legendary)} legendary objects, {len(tr.souvenirs)} souvenirs"
        if kind == CALLI_NAMES.index("patience"):
            return f"arrived {ordinal(arrival + 1)} of {st.n_trav} at the last inn"
        if kind == CALLI_NAMES.index("perfection"):
            return f"{len(tr.achievements)} achievements, {len(tr.calligraphy)} calligraphy"
        return f"{tr.inn_meals} inn meals eaten"
