"""Integer codes and sizes of the Duo kernels (NamedTuple instances: constants inside ``@njit``).

Sizes fixed by the rules text (seed 003, research expansions.md C.2) are
constants; everything board- or number-specific is data (``sim/games/duo/data``).
"""

from __future__ import annotations

from typing import NamedTuple

N_PLAYERS = 2  # D-K1
N_RING = 37  # D-K4
N_COAST = 8  # D-K10
N_MOUNT = 4
N_TOWNS = N_COAST + N_MOUNT  # towns 0..7 coastal C1..C8, 8..11 mountain M1..M4
MAX_ROUTES = 16
MAX_ZONES = 13  # zones = routes - 3 (Euler); the known board has 8
N_ICONS = 4  # D-K14
MAX_WARE = 6  # ware types
N_SLOTS = 10  # painting slots per artist board (D-K16)
N_SLABS = 6  # D-K13
TEMPLE_FULL = 9  # D-K6
GARDEN_FULL = 6
N_DIE_FACES = 6
MAX_CAND = 160
MAX_EVENTS = 2048
EV_FIELDS = 6
MAX_RANK = 16  # slots of an Automa Rank track (sim/games/duo/data/automa.toml)


class RingT(NamedTuple):
    TEMPLE: int = 0
    GARDEN: int = 1
    SEASHORE: int = 2
    HOT_SPRING: int = 3
    TOWN: int = 4


Ring = RingT()
RING_CODES = ("T", "G", "S", "H", "C")


class CharT(NamedTuple):
    PILGRIM: int = 0
    MERCHANT: int = 1
    ARTIST: int = 2


Char = CharT()
CHAR_NAMES = ("pilgrim", "merchant", "artist")


class SideT(NamedTuple):
    """Wave-tile sides (D-K19; the INVENTED ones are named in rules.toml)."""

    TRANQUIL: int = 0  # pilgrim may move 1 less (never below 1)
    SWIFT: int = 1  # pilgrim may move 1 more
    PORTER: int = 2  # ware cap + P.PORTER_CAP
    HAGGLER: int = 3  # + P.HAGGLER coins per ware sold
    PROFICIENT: int = 4  # + P.PROFICIENT reveals when painting
    INSPIRED: int = 5  # may gift with the icon of any zone entered on the move


Side = SideT()
SIDE_NAMES = ("tranquil", "swift", "porter", "haggler", "proficient", "inspired")
SIDE_CHAR = (0, 0, 1, 1, 2, 2)


class TrigT(NamedTuple):
    """End-trigger bits (D-K17); ROUNDS is the safety stop ``choices.max_rounds``."""

    TEMPLE: int = 1
    GARDEN: int = 2
    GOLD: int = 4
    GIFT: int = 8
    ROUNDS: int = 16
    RANK: int = 32  # solo: an Automa Rank track reached its last slot


Trig = TrigT()
TRIGGER_NAMES = ("temple", "garden", "gold", "gift", "rounds", "rank")


class PathT(NamedTuple):
    SIMPLE: int = 0  # D2 default: no town twice
    TRAIL: int = 1  # no route twice
    WALK: int = 2  # anything


Path = PathT()
PATH_NAMES = ("simple", "trail", "walk")


class BotT(NamedTuple):
    RANDOM: int = 0
    GREEDY: int = 1
    SEARCH: int = 2
    AUTOMA: int = 3  # the solo opponent (``kernels.duo.automa``), seat 1 of a solo game


Bot = BotT()
BOT_NAMES = ("random", "greedy", "search", "automa")


class AT(NamedTuple):
    """Indices of the Automa's ``auto`` table (sim/games/duo/data/automa.toml)."""

    DIE: int = 0  # ``AutoDie``
    ORDER: int = 1  # 1..3: the characters in tie-break order
    MERCHANT: int = 4  # ``AutoMerchant``
    ARTIST: int = 5  # ``AutoArtist``
    MEEPLES: int = 6  # other meeples in the arrival zone that advance her artist's Rank
    LAST: int = 7  # 7..9: the last slot of each character's Rank track


A = AT()
A_N = 12


class AutoDieT(NamedTuple):
    BEHIND: int = 0
    HIGHEST: int = 1
    LOWEST: int = 2
    ORDER: int = 3


AutoDie = AutoDieT()
AUTO_DIE_NAMES = ("behind", "highest", "lowest", "order")


class AutoMerchantT(NamedTuple):
    BLOCK: int = 0
    COAST: int = 1
    MOUNTAIN: int = 2


AutoMerchant = AutoMerchantT()
AUTO_MERCHANT_NAMES = ("block", "coast", "mountain")


class AutoArtistT(NamedTuple):
    BUSIEST: int = 0
    FIRST: int = 1


AutoArtist = AutoArtistT()
AUTO_ARTIST_NAMES = ("busiest", "first")


class PT(NamedTuple):
    """Indices of ``params`` (rules.toml)."""

    SLAB_COINS: int = 0
    CAP: int = 1
    TOWN_COINS: int = 2
    PORTER_CAP: int = 3
    HAGGLER: int = 4
    PROFICIENT: int = 5
    PATH: int = 6  # ``Path``
    OPTIONAL: int = 7  # D4: 1 = arrival actions may be declined
    RETAKE: int = 8  # D5: 1 = a repeat landing on a Hot Spring takes the token again
    FIRST: int = 9  # D10: -1 random, else the first picker of round 1
    MAX_ROUNDS: int = 10
    N_WARE: int = 11
    N_ZONES: int = 12
    N_ROUTES: int = 13
    SEASHORE_OPT: int = 14  # 1 = the Seashore's wave tile may be declined (the seed says "must": 0)
    SPRING_OPT: int = 15  # 1 = the Hot Spring token may be declined (the seed says "immediately": 0)


P = PT()
P_N = 24


class CfgT(NamedTuple):
    BOT0: int = 0
    BOT1: int = 1
    LOG: int = 2


Cfg = CfgT()
CFG_N = 4


class PFT(NamedTuple):
    """Per-player fields of ``ps``."""

    PIL: int = 0  # pilgrim's ring index 0..36
    MER: int = 1  # merchant's town 0..11
    ART: int = 2  # artist's zone
    TEMPLE: int = 3  # temple track slot 0..9
    GARDEN: int = 4  # garden track slot 0..6
    COINS: int = 5  # coins not yet turned into gold (tie-breaker)
    SLABS: int = 6  # gold slabs 0..6
    NWARES: int = 7  # wares held (sum of ``wares[p]``)
    REVEALED: int = 8  # painting slots turned face up (reading order), 0..10
    GIFTED: int = 9  # painting slots gifted (reading order), <= REVEALED
    HS: int = 10  # 1 while holding the Hot Spring token
    HS_PICK: int = 11  # global pick index at which the token was taken
    HS_TAKEN: int = 12  # times the token was taken
    HS_USED: int = 13  # times it was spent
    WAVES_TAKEN: int = 14  # wave tiles taken (from the board or stolen)
    WUSE_P: int = 15  # times the pilgrim / merchant / artist wave effect changed a move
    WUSE_M: int = 16
    WUSE_A: int = 17
    BOT: int = 18  # ``Bot``
    FIRST: int = 19  # 1 for the first picker of round 1
    PTS_P: int = 20
    PTS_M: int = 21
    PTS_A: int = 22
    SCORE: int = 23
    RANK: int = 24
    AR_P: int = 25  # solo: the Automa's pilgrim / merchant / artist Rank track slot
    AR_M: int = 26
    AR_A: int = 27


PF = PFT()
PF_N = 28


class GT(NamedTuple):
    """Game-wide fields of ``gs``."""

    ROUND: int = 0  # rounds started - 1
    STEP: int = 1  # pick within the round: 0 first picker, 1 second, 2 first again
    PICK: int = 2  # global pick counter (Hot Spring timing, D5)
    FIRST0: int = 3  # first picker of round 1 (D10)
    DIE0: int = 4  # this round's dice, by character (pilgrim, merchant, artist)
    USED: int = 7  # bit c: die c already taken this round
    ROLLED: int = 8  # 1 once this round's dice are rolled
    TRIG: int = 9  # ``Trig`` bits fired so far
    OVER: int = 10  # 1 once the game has ended
    HS_BOARD: int = 11  # 1 while the Hot Spring token is on the board
    REPEAT: int = 12  # 1 while a Hot Spring repeat resolves


G = GT()
G_N = 16


class EvT(NamedTuple):
    """Action-log kinds; rows are ``(kind, player, a, b, c, d)``, unused fields -1 (docs/duo.md)."""

    FIRST: int = 1  # p: first picker of round 1
    BOUTIQUE: int = 2  # a coastal town, b ware, c coins
    WAVE: int = 3  # a character, b side
    TILE: int = 4  # p, a slot, b icon (setup deal, face down)
    ROLL: int = 5  # a round, b/c/d die values (pilgrim, merchant, artist)
    PICK: int = 6  # p, a character, b value
    PMOVE: int = 7  # p, a steps, b landing space (after jumps)
    PTAKE: int = 8  # p, a ring type, b wave tile taken (character) or -1, c 1 if stolen
    MMOVE: int = 9  # p, a town or -1 (no path)
    MDRAW: int = 10  # p, a wares drawn (a DRAW row each follows)
    DRAW: int = 11  # p, a ware type (chance)
    RETURN: int = 12  # p, a ware type returned to the bag over the cap (a choice)
    SELL: int = 13  # p, a ware type, b count, c coins gained
    AMOVE: int = 14  # p, a zone or -1 (no path), b bitmask of zones entered
    PAINT: int = 15  # p, a tiles revealed (a REVEAL row each follows)
    REVEAL: int = 16  # p, a slot, b icon
    GIFT: int = 17  # p, a slot, b icon
    SPRING: int = 18  # p spends the Hot Spring token: the pick repeats
    END: int = 19  # a trigger bits, b rounds
    RANK: int = 20  # p (the Automa), a character, b the Rank track's new slot, c steps


Ev = EvT()
