"""Hand-built referee states of Matsuri games: a referee whose state the test sets by hand, and a handler
(a generator that takes log events) driven with the rows the log would hold (docs/log-format.md "Matsuri").

    ref = mref(4, FOUR)
    inn = at_inn(ref, [1, 0, 2, 3])                     # everyone at the first intermediate Inn
    drive(ref, effect(ref, "ofune", inn), [r6(Ev.PANORAMA, 1, SEA_T, 4), ...])
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator

from sim.games.tokaido.referee.game import Referee
from sim.games.tokaido.referee.state import Event, InnVisit
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules
from tests.helpers.referee_logs import Row, cfg

MX = ("crossroads", "matsuri")
FOUR = "satsuki,chuubei,hiroshige,kinko"
SEA_T, MOUNTAIN_T, PADDY_T = 2, 1, 0  # panorama types
SMALL, FOOD, CLOTHING, ART, OFFERING = range(5)  # souvenir families


def r6(kind: int, t: int = -1, a: int = -1, b: int = -1, c: int = -1, d: int = -1) -> Row:
    return (kind, t, a, b, c, d)


def mcfg(
    n: int, travelers: str, variants: tuple[str, ...] = (), overrides: tuple[tuple[str, str], ...] = ()
) -> tuple[GameConfig, Rules]:
    return cfg(n, travelers, variants, MX, overrides)


def mref(
    n: int = 3, travelers: str = "satsuki,chuubei,hiroshige", overrides: tuple[tuple[str, str], ...] = ()
) -> Referee:
    config, rules = mcfg(n, travelers, (), overrides)
    ref = Referee(config, rules)
    st = ref.state
    for tr, name in zip(st.players(), travelers.split(","), strict=True):
        st.assign_traveler(tr, rules.traveler_index(name), -1)
        tr.coins = 5
    return ref


def card(ref: Referee, kind: str) -> int:
    return next(i for i, c in enumerate(ref.rules.raw["matsuri"]["card"]) if c["kind"] == kind)


def drive(ref: Referee, gen: Generator[None, Event, object], rows: list[Row]) -> None:
    """Run ``gen`` on ``rows``; it must take every row and want no more."""
    events = iter([Event(i, *r) for i, r in enumerate(rows)])
    try:
        next(gen)
        for e in events:
            gen.send(e)
    except StopIteration:
        assert list(events) == [] and ref.ctx.pending is None, "rows left over"
        return
    raise AssertionError(f"the handler wants more rows: expecting {ref.expecting}")


def at_inn(ref: Referee, order: list[int], pos: int | None = None) -> InnVisit:
    """Everyone at the first intermediate Inn, arrived in ``order``."""
    st = ref.state
    pos = pos if pos is not None else st.next_inn(0)
    for t in order:
        st.move(t, pos)
    inn = st.inn_visit(pos)
    inn.arrived = list(order)
    return inn


def effect(ref: Referee, kind: str, inn: InnVisit, chooser: int = 0) -> Generator[None, Event, None]:
    return ref.matsuri.card_effect(ref.state.travelers[chooser], card(ref, kind), inn, 1)


def stack(ref: Referee, *kinds: str) -> None:
    """The Matsuri stack: these cards on top, then the others."""
    top = [card(ref, k) for k in kinds]
    ref.state.m.stack.cards = deque(top + [c for c in range(20) if c not in top])


def add_souvenirs(ref: Referee, t: int, *families: int) -> None:
    """Give traveler ``t`` one unheld Souvenir of each family in ``families``."""
    tr = ref.state.travelers[t]
    for f in families:
        c = next(i for i, s in enumerate(ref.rules.souvenirs) if s.family == f and i not in tr.souvenirs)
        tr.souvenirs.append(c)
        tr.family_counts[f] += 1
