"""The numbers of the rules: indices into the kernels' ``params`` int32 array (``P``).

``sim/games/tokaido/rules/tables.py`` fills ``params`` from the data files
(``sim/games/tokaido/data/*.toml``); a kernel reads
``ru["params"][P.X]``. Split out of ``kernels.tokaido.core.enums`` (which re-exports ``P``, ``PT`` and
``P_N``) so each expansion can add its numbers without growing one module past its size.
Ranges: 0-79 base, New Encounters and Crossroads; 80-104 the Matsuri cards; 105-119 the Matsuri
Travelers; 120-129 the promo Travelers; 130-139 the rules profiles' parameters.
"""

from typing import NamedTuple


class PT(NamedTuple):
    """Indices into ``params``: every number of the rules."""

    SET_PTS0: int = 0  # five entries: 1/3/5/7 (+9 with a fifth family)
    VILLAGE_DRAW: int = 5
    VILLAGE_MIN_COINS: int = 6
    MEAL_POINTS: int = 7
    HAND_EXTRA: int = 8
    PAN_LEN0: int = 9  # three entries: paddy, mountain, sea
    PAN_ACH_POINTS: int = 12
    FARM_COINS: int = 13
    TEMPLE_MAX: int = 14
    TEMPLE_MIN_COINS: int = 15
    RANK_PTS0: int = 16  # four entries: 10/7/4/2
    NEUTRAL_BANK_COIN: int = 20
    SAMURAI_POINTS: int = 21
    KUGE_COINS: int = 22
    MIKO_POINTS: int = 23
    ITAMAE_COST: int = 24
    KITOUSHI_COST: int = 25
    TAKUHATSUSO_COST: int = 26
    TAKUHATSUSO_POINTS: int = 27
    ACH_POINTS: int = 28
    ACH_MIN: int = 29
    KINKO_DISCOUNT: int = 30
    ZEN_EMON_PRICE: int = 31
    UMEGAE_POINTS: int = 32
    UMEGAE_COINS: int = 33
    MITSUKUNI_BONUS: int = 34
    HIROTADA_COIN: int = 35
    INITIATION: int = 36  # 1: no Travelers, everyone starts with INITIATION_COINS
    INITIATION_COINS: int = 37
    N_FAMILIES: int = 38  # souvenir families in play
    # Crossroads (XR = 0: the expansion is off)
    XR: int = 40
    XR_CARDS: int = 41  # cards of each Crossroads type in play (all 6; by-count table: 4 or 5)
    CHERRY_POINTS: int = 42
    CHERRY_COINS: int = 43
    BATH_COST: int = 44
    BATH_POINTS: int = 45
    GAMING_BET: int = 46
    AMULET_COST: int = 47
    CALLI_COST: int = 48
    START_AMULET: int = 49  # 1: the optional start-of-game Amulet purchase
    START_AMULET_COST: int = 50
    SWORD_POINTS: int = 51
    SCRIPT_BONUS: int = 52
    DIE0: int = 53  # six Fortune die faces (multipliers)
    GOTOZAEMON_COINS: int = 59
    JIROCHO_BET: int = 60
    FORESIGHT: int = 61  # per coin left
    CONTEMPLATION_PAN: int = 62  # per completed panorama
    CONTEMPLATION_CHERRY: int = 63  # per Cherry Tree
    NOSTALGIA_LEGEND: int = 64
    NOSTALGIA_SOUVENIR: int = 65
    PATIENCE_LAST: int = 66
    PATIENCE_SECOND: int = 67
    PATIENCE_OTHER: int = 68
    PERFECTION_ACH: int = 69
    PERFECTION_CALLI: int = 70
    FASTING_MEAL: int = 71
    FASTING_INNS: int = 72
    FIFTH_FAMILY_POINTS: int = 73  # kept in SET_PTS0 + 4; here for the record
    CHERRY_COPIES: int = 74  # Cherry Trees in the box
    BATH_COPIES: int = 75  # Bathhouses in the box
    SATSUKI_PILE: int = 76  # 1: Satsuki's free meal is the top card of the meal pile (seed 002), 0: the hand
    AMULET_SAME_STOP: int = 77  # 1: an Amulet is usable at the stop where it was bought (online)
    ITAMAE_INN_MEAL: int = 78  # 1: a meal from Itamae at an Inn (Chuubei) is that Inn's one meal
    MATSURI: int = 80  # Matsuri cards (80-104, sim/games/tokaido/data/matsuri.toml): 1 = the expansion is on
    M_DRAW: int = 81  # cards drawn at an Inn (keep 1)
    M_HANABI_DRAW: int = 82
    M_CLOSED_TOKENS: int = 83
    M_HANAMI_COINS: int = 84
    M_OBON_MAX: int = 85
    M_CHOYO_DISCOUNT: int = 86
    M_CHOYO_HAND: int = 87
    M_TANABATA_POINTS: int = 88
    M_SHISHIMAI0: int = 89  # three entries: 4 / 2 / 1
    M_OTAUE_COINS: int = 92
    M_YAMA_SECTIONS: int = 93
    M_FRIENDSHIP_HALF: int = 95  # 1: Friendship may open a half-closed double (M12)
    M_OFUNE_SHARED_CARD: int = 96  # 1: a shared o-Fune Sea counts as holding the achievement (M19)
    M_DOLL_NOSTALGIA: int = 99  # 1: Doll/Carp count for Nostalgia (M17)
    M_DOLL_FAMILY: int = (
        100  # the Small-objects family of a Doll/Carp; 101-104 reserved, 105-119 MT, 120-129 PR
    )
    # Rakuren (engineer RK): P 101-104, the MT range 105-119 being full
    RAKUREN_SOUVENIRS: int = 101  # souvenirs he draws at a Shop with his ability (MT-Rakuren)
    RAKUREN_LEGENDARY: int = 102  # 1: he also draws a random Legendary Object from the market
    # Matsuri rule alternatives (engineer MN: 103-104, 123-127; docs/rules-choices.md)
    MARI_FREE_TEMPLE: int = (
        103  # 1: Mari may stop at a Temple without a coin to take her free Amulet (MT-Mari)
    )
    KIDZUNA_HOSP_EITHER: int = (
        104  # 1: the Hospitality Amulet may pay for either of Kidzuna's meals (MT-Kidzuna)
    )
    # 130-139: the rules profiles' parameters (docs/rules-choices.md, "Rules profiles")
    SCRIPT_LEGENDARY: int = 130  # 1: a Script also scores +1 per Legendary Object acquired later (online)
    CHERRY_AT_COMPLETE: int = (
        131  # 1: a completed panorama's space is a legal stop for a Cherry Tree (online)
    )
    HEALTH_ONE: int = 132  # 1: the Health Amulet gives only one option, either one (online)
    FORTUNE_AFTER: int = 133  # 1: the Fortune Amulet may be rolled on arrival, after moving (online)
    DEVOTION_PRINTED: int = (
        134  # bits of ``prices.Disc``: after these discounts Devotion moves the printed price
    )
    ALT_NOTHING: int = 135  # 1: a market station's alternative may be chosen to buy nothing (online)
    FORTUNE_BEFORE: int = 136  # 1: the Fortune Amulet may be rolled before moving (seed 002)
    SECOND_OPTIONAL: int = 137  # 1: the second of two actions (Kita, Miyataka, Health) may be declined (C42)
    # Matsuri Travelers (engineer MT: 105-119; expansions.md A.9, MT-* defaults)
    AYUMU_MEAL_COST: int = 105  # every meal costs him exactly this
    KAMUI_POINTS: int = 106  # at an Inn after the start without a meal
    KAMUI_FREE_CANCELS: int = 107  # 1: a free meal card also cancels his points (MT-Kamui)
    WATCHER_COINS: int = 108  # Misaki per Temple stop, Takeru per Encounter stop, of any traveler
    AYUMU_FREE_FAMILY: int = 109  # the souvenir family that costs him nothing at a Shop
    MARI_TEMPLE_MULT: int = 110  # points per coin donated at a Temple stop
    MARI_DOUBLE_DEVOTION: int = 111  # 1: Devotion donations also score MARI_TEMPLE_MULT (MT-Mari)
    KUSHINADA_COINS: int = 112  # from each other traveler at set-up
    SUSERI_POINTS: int = 113  # per card type held at the end
    IYASAKA_FARM_BONUS: int = 114  # extra coins when he takes the Farm's coins
    MUSUBI_TIMING: int = 115  # 0: on each arrival (MT-Musubi), 1: once everyone has arrived
    YASHIMA_SAME_INN: int = 116  # 1: her Amulet is usable at the Inn where she got it
    TITIA_DISCOUNT: int = 117  # off Art souvenirs and Legendary Objects
    MARIHITO_TIMES: int = 118  # times his best Calligraphy card scores
    TITIA_FAMILY: int = 119  # the souvenir family that costs her TITIA_DISCOUNT less
    # promos (expansions.md B.2)
    ANTOINE_TIES: int = 120  # 1: Antoine wins every tie he is part of (P1), 0: off
    FELICIA_WIN_PPM: int = 121  # P(Felicia wins one rock-paper-scissors round), in millionths (P5)
    FASTING_INNS_ERIKU: int = 122  # Fasting counts this many possible Inn meals for Eriku (P3)
    M_HANABI_CHOOSER: int = (
        123  # 1: Hanabi's chooser picks which extra card resolves first (M18), 0: draw order
    )
    M_NEUTRAL_MOVER: int = 124  # 1: the Neutral arrived first: the player who moved it chooses (M4)
    M_NEUTRAL_WATCHERS: int = 125  # 1: a Neutral's Temple stop pays Misaki too (M29), 0: only players' stops


P = PT()
P_N = 140
