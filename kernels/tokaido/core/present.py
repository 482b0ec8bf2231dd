"""Which abilities this game holds: the hooks of abilities nobody has cost one test.

``gs[G.ABILS]`` (bit ``a``: some player's Traveler has ability ``a``) is set once, at set-up after
the draft (``abilities_nb``); no rule changes a player's ability later. A hook of the Matsuri or
promo Travelers sits on the hot path (every move, stop or Inn); its caller asks ``holds_nb`` with
the hook's mask first, so games without those Travelers skip the call and its loop over players.
Masks are module constants: Numba compiles them in.
"""

from numba import njit

from kernels.tokaido.core.enums import PF, Ability, G


def _mask(*abilities: int) -> int:
    m = 0
    for a in abilities:
        m |= 1 << a
    return m


MUTSUMI = _mask(Ability.MUTSUMI)
WATCHERS = _mask(Ability.MISAKI, Ability.TAKERU)
ARRIVAL = _mask(Ability.CHIHAYA, Ability.YASHIMA, Ability.KIDZUNA, Ability.MUSUBI)
MUSUBI = _mask(Ability.MUSUBI)
KAMUI = _mask(Ability.KAMUI)
IYASAKA = _mask(Ability.IYASAKA)
MARI = _mask(Ability.MARI)
SUSERI = _mask(Ability.SUSERI)
KUSHINADA = _mask(Ability.KUSHINADA)
FELICIA = _mask(Ability.FELICIA)
ERIKU = _mask(Ability.ERIKU)
SOUVENIR_PRICES = _mask(Ability.AYUMU, Ability.TITIA)  # kernels.tokaido.core.prices.souvenir_price_nb


@njit(cache=True)
def abilities_nb(pub):
    """``gs[G.ABILS]`` from the players' abilities (set-up; hand-built positions call it too)."""
    ps = pub["ps"]
    m = 0
    for p in range(pub["gs"][G.N_PLAYERS]):
        m |= 1 << int(ps[p, PF.ABILITY])
    pub["gs"][G.ABILS] = m


@njit(cache=True)
def holds_nb(pub, mask):
    """Some player holds one of the abilities in ``mask``."""
    return pub["gs"][G.ABILS] & mask != 0
