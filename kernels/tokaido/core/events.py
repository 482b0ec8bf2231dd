"""Action-log event kinds and the small codes that go into log rows.

The row layout is (kind, t, a, b, c, d); docs/log-format.md gives every field.
Split out of ``kernels.tokaido.core.enums`` (which re-exports these names) so each
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
    CHOICE: int = 16  # (trav, type, option): 0 base, 1 alt., 2 both, 3 both alt. first, 4 alt. buying nothing
    DIE: int = 17  # (trav, face, bet, source): chance, a Fortune die roll
    USE: int = 18  # (trav, amulet, argument): an Amulet used
    # Matsuri (kinds 19-23; docs/log-format.md "## Matsuri")
    MATSURI: int = (
        19  # (chooser, card, rejected or -1, inn 1..3, 0 kept / 1 Hanabi extra): a card comes into play
    )
    TOKEN: int = 20  # (trav, TokenT kind, points, card, detail): a Doll/Carp or Journey-point token
    PICK: int = 21  # (trav, deck, card, matsuri card): a card chosen from a pile or market (Gion, o-Tsukimi)
    CLOSE: int = 22  # (-, space, 1 full / 0 half, matsuri card): a Closed Space token for the next leg
    # 23: reserved for Matsuri
    # Matsuri Travelers (engineer MT: 24-26)
    MT_COIN: int = (
        24  # (trav, coins, from, ability): coins a Matsuri Traveler's ability moves (from: traveler, -1 bank)
    )
    MT_LEGEND: int = 25  # (rakuren, card): chance, the random Legendary Object his Shop ability turns up
    DUEL: int = 27  # (felicia, opponent, deck, card, rounds): Felicia challenges before paying for a card
    RPS: int = 28  # (felicia, round, won): chance, one rock-paper-scissors round (won 1: a coin off)
    LOOK: int = 29  # (eriku, card, when): Eriku looks at the top meal card (when 0: the start, 1: an Inn)


Ev = EvT()


class PanSrcT(NamedTuple):
    STATION: int = 0
    ANNAIBITO: int = 1
    HIROSHIGE: int = 2
    KITOUSHI: int = 3
    OFUNE: int = 4  # Matsuri: o-Fune matsuri's Sea section for everyone
    YAMA_NO_KO: int = 5  # Matsuri: Yama no Ko's extra Mountain section at a Mountain stop


PanSrc = PanSrcT()


class OptT(NamedTuple):
    ITAMAE: int = 0
    KITOUSHI: int = 1
    TAKUHATSUSO: int = 2
    HIROTADA: int = 3
    START_AMULET: int = 4
    JIROCHO: int = 5
    ANNAIBITO: int = 6  # the depicted panorama is complete: take another of the player's choice?
    # Matsuri (7-11)
    OBON: int = 7  # o-Bon: the choice is the number of coins donated (0..3), not 0/1
    HADAKA: int = 8  # Hadaka matsuri: draw and resolve an Encounter before the Hot Spring?
    YAMA_NO_KO: int = 9  # Yama no Ko: take an extra Mountain section first?
    OTAUE: int = 10  # o-Taue matsuri: donate a bank coin to the Temple first?
    # 11: reserved for Matsuri
    # Matsuri Travelers (engineer MT: 12-17)
    MUTSUMI: int = 12  # leave this Inn first?
    IYASAKA: int = 13  # re-roll the Fortune die?
    KIDZUNA: int = 14  # buy the revealed top meal card?
    RAKUREN: int = 15  # at a Shop: 4 souvenirs and a random Legendary Object instead of the usual actions?
    RAKUREN_BUY: int = 16  # buy the Legendary Object his ability turned up?
    FELICIA: int = 18  # challenge the closest traveler before paying for a card?
    SECOND: int = (
        19  # take the second of two actions (Kita, Miyataka, the Health Amulet) now it is possible? (C42)
    )
    HANABI_ORDER: int = 21  # Hanabi's chooser resolves the second extra card first? (M18, chooser's order)


Opt = OptT()


class DieSrcT(NamedTuple):
    GAMING_ROOM: int = 0
    JIROCHO: int = 1
    FORTUNE: int = 2
    SHOGATSU: int = 3  # Matsuri o-Shogatsu: gains the face in coins
    SETSUBUN: int = 4  # Matsuri Setsubun: scores the face in Journey points
    IYASAKA: int = 5  # Iyasaka's second roll (Matsuri Travelers)


DieSrc = DieSrcT()


class MatsuriT(NamedTuple):
    """Matsuri card kinds (expansions.md A.4, MC01..MC20); a card's kind is ``card[Deck.MATSURI, 0, c]``."""

    HADAKA: int = 0
    OHANAMI: int = 1
    GION: int = 2
    KAMIARISAI: int = 3
    TOKA_EBISU: int = 4
    MURA: int = 5
    OBON: int = 6
    TORI_NO_ICHI: int = 7
    HINA: int = 8
    TANGO: int = 9
    HANABI: int = 10
    OFUNE: int = 11
    OSHOGATSU: int = 12
    SETSUBUN: int = 13
    TANABATA: int = 14
    OTSUKIMI: int = 15
    SHISHIMAI: int = 16
    CHOYO: int = 17
    YAMA_NO_KO: int = 18
    OTAUE: int = 19


Matsuri = MatsuriT()
MATSURI_KINDS = (
    "hadaka",
    "ohanami",
    "gion",
    "kamiarisai",
    "toka_ebisu",
    "mura",
    "obon",
    "tori_no_ichi",
    "hina",
    "tango",
    "hanabi",
    "ofune",
    "oshogatsu",
    "setsubun",
    "tanabata",
    "otsukimi",
    "shishimai",
    "choyo",
    "yama_no_ko",
    "otaue",
)


class TimingT(NamedTuple):
    NOW: int = 0
    LEG: int = 1  # until the next Inn: the stations of the next leg
    NEXT_INN: int = 2  # arrivals and meals at the next Inn


Timing = TimingT()
TIMING_NAMES = ("now", "leg", "next_inn")


class TokenT(NamedTuple):
    DOLL: int = 0  # Hina matsuri: a Small-objects souvenir for set scoring only
    CARP: int = 1  # Tango: the same
    JOURNEY: int = 2  # Journey points (Setsubun, o-Fune's shared Sea, Tanabata, Shishimai)


Token = TokenT()
