"""Action-log event kinds and the small codes that go into log rows.

The row layout is (kind, t, a, b, c, d); docs/log-format.md gives every field.
Split out of ``kernels.core.enums`` (which re-exports these names) so each
expansion can add its events here without growing one module past its size.
"""

from typing import NamedTuple


class EvT(NamedTuple):
    """Action-log event kinds; the row layout is (kind, t, a, b, c, d).

    See docs/log-format.md for the meaning of every field.
    """

    DECK: int = 1  # (-, deck, card, -): setup, pile order top to bottom
    DEAL: int = 2  # (player, t1, t2): player dealt these Travelers (t2 = -1: no choice)
    KEEP: int = 3  # (player, traveler): draft decision
    LINEUP: int = 4  # (trav, order): trav is the order-th to leave the start Inn
    COINS: int = 5  # (trav, coins): starting coins after Preparations (kernel claim)
    MOVE: int = 6  # (trav, space, controller)
    DRAW: int = 7  # (trav, deck, card): top card of deck drawn to the table
    GAIN: int = 8  # (trav, deck, card, paid): a card on the table joins trav's collection
    UNDER: int = 9  # (-, deck, card): a card on the table goes under its pile
    DONATE: int = 10  # (trav, coins from purse, bank coins): Temple stop
    PANORAMA: int = 11  # (trav, type, source): one panorama card taken (PanSrc)
    OPTION: int = 12  # (trav, option, choice): a yes/no decision (Opt)
    OFFER: int = 13  # (trav, card): chance, Satsuki's free meal or the Neutral's discard
    END: int = 14  # (-): the game is over
    MARKET: int = 15  # (-, deck, card, count): Crossroads set-up
    CHOICE: int = 16  # (trav, space type, option): 0 base, 1 Crossroads alternative, 2 both, 3 both (alternative first)
    DIE: int = 17  # (trav, face, bet, source): chance, a Fortune die roll
    USE: int = 18  # (trav, amulet, argument): an Amulet used
    # 19-26: Matsuri
    DUEL: int = 27  # (felicia, opponent, deck, card, rounds): Felicia challenges before paying for a card
    RPS: int = 28  # (felicia, round, won): chance, one rock-paper-scissors round (won 1: a coin off)
    LOOK: int = 29  # (eriku, card, when): Eriku looks at the top meal card (when 0: the start, 1: an Inn)


Ev = EvT()


class PanSrcT(NamedTuple):
    STATION: int = 0
    ANNAIBITO: int = 1
    HIROSHIGE: int = 2
    KITOUSHI: int = 3


PanSrc = PanSrcT()


class OptT(NamedTuple):
    ITAMAE: int = 0
    KITOUSHI: int = 1
    TAKUHATSUSO: int = 2
    HIROTADA: int = 3
    START_AMULET: int = 4
    JIROCHO: int = 5
    ANNAIBITO: int = 6  # the depicted panorama is complete: take another of the player's choice?
    # 7-17: Matsuri
    FELICIA: int = 18  # challenge the closest traveler before paying for a card?


Opt = OptT()


class DieSrcT(NamedTuple):
    GAMING_ROOM: int = 0
    JIROCHO: int = 1
    FORTUNE: int = 2


DieSrc = DieSrcT()
