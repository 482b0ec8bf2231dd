"""Rules of a stop added with rules version 1.2: Hirotada's bank coin at every Temple stop,
unpaid New Encounters cards going under the pile, and where Satsuki's free meal comes from."""

from numba import njit

from kernels.core.log import log_nb
from kernels.core.rng import randint_nb
from kernels.tokaido.bots.policy import choose_option_nb
from kernels.tokaido.core.enums import HAND_CAP, PF, Ability, Deck, Ev, G, Opt, P
from kernels.tokaido.core.piles import draw_nb, under_nb
from kernels.tokaido.core.score import add_pts_nb


@njit(cache=True)
def hirotada_coin_nb(pub, hid, ru, t, d):
    """Log the Temple stop's ``DONATE(t, d, bank)``; Hirotada may add a bank coin at every Temple stop,
    with or without a donation (rulebook "Each time he stops at the Temple"; seed 002: abilities work
    with the Crossroads cards)."""
    ps = pub["ps"]
    bank = 0
    if ps[t, PF.ABILITY] == Ability.HIROTADA:
        bank = choose_option_nb(pub, ru, t, 1.0, Opt.HIROTADA) * ru["params"][P.HIROTADA_COIN]
        ps[t, PF.DONATED] += bank
        add_pts_nb(pub, t, PF.PTS_TEMPLE, bank)
    log_nb(hid, Ev.DONATE, t, d, bank, -1, -1)


@njit(cache=True)
def unpaid_nb(pub, hid, t, c):
    """Seed 002: "If a player cannot or do not want to pay for Kitoushi, Takuhatsuso or Itamae, the card is
    placed, face-down, under the Encounter cards pile": it leaves the collection (no Chatterbox count)."""
    pub["ps"][t, PF.ENCOUNTERS] -= 1
    pub["gone"][Deck.ENCOUNTER] &= ~(1 << int(c))
    under_nb(pub, hid, Deck.ENCOUNTER, c)
    log_nb(hid, Ev.UNDER, -1, Deck.ENCOUNTER, c, -1, -1)


@njit(cache=True)
def satsuki_offer_nb(pub, hid, ru, t):
    """Satsuki's free meal offer: (card or -1, True if it came from the pile and lies next to the hand)."""
    hand = pub["hand"]
    gs = pub["gs"]
    hn = gs[G.HAND_N]
    if ru["params"][P.SATSUKI_PILE] == 1:  # seed 002: "the first Meal card from the Meal cards pile"
        if pub["dcnt"][Deck.MEAL] == 0 or hn >= HAND_CAP:
            return -1, False
        c = draw_nb(pub, hid, Deck.MEAL)
        log_nb(hid, Ev.DRAW, t, Deck.MEAL, c, -1, -1)
        log_nb(hid, Ev.OFFER, t, c, -1, -1, -1)
        hand[hn] = c  # on the table next to the hand while she decides
        gs[G.HAND_N] = hn + 1
        return c, True
    if hn == 0:
        return -1, False
    c = hand[randint_nb(pub["rng"], hn)]  # seed 000: "one of the available Meal cards at random"
    log_nb(hid, Ev.OFFER, t, c, -1, -1, -1)
    return c, False
